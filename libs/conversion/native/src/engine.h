// Shared between the N-API surface (lectern_mupdf.c) and the structured-text walk (stext_page.c).
#ifndef LECTERN_ENGINE_H
#define LECTERN_ENGINE_H
#define NAPI_VERSION 8
#include <node_api.h>
#include <mupdf/fitz.h>
#include <stdint.h>

#define MAX_LOGS 20
#define LOG_LEN 240
// Allocation cap per engine: a hostile PDF (decompression bomb, huge image) fails with a mupdf error instead of
// exhausting the machine. A 300-DPI A0 grey render is ~140 MB; 2 GiB leaves room for any real document.
#define MEMORY_CAP ((size_t)2 << 30)

typedef struct {
  fz_context *ctx;
  fz_document *doc;
  napi_ref bytes; // the caller's buffer: mupdf reads the document from it in place (fz_open_memory)
  // optional: a fz_cookie living in a SharedArrayBuffer of the pool's; another thread sets its first int
  // (`abort`) to stop a page in progress and any further page (a worker abandoned on timeout)
  napi_ref cookie_ref;
  fz_cookie *cookie;
  size_t allocated;
  size_t peak;
  char logs[MAX_LOGS][LOG_LEN];
  int nlogs;
} engine_t;

// The pages of one extract call, packed (layout in stext_page.c).
typedef struct {
  double *nums;
  size_t n, ncap;
  uint16_t *text;
  size_t tn, tcap;
} packed_t;

#define CHECK(call)                                                                                          \
  do {                                                                                                       \
    if ((call) != napi_ok) return throw_last(env);                                                           \
  } while (0)

napi_value throw_last(napi_env env);
napi_value throw_mupdf(napi_env env, engine_t *e);
napi_value num(napi_env env, double v);
/** Appends one page (1-based number) to `out`; 0 with a pending JavaScript exception on failure. */
int extract_page(napi_env env, engine_t *e, packed_t *out, int number);
/** Vector drawing statistics of one page (drawings.c). */
napi_value page_drawings(napi_env env, engine_t *e, int number);
/** The abort flag was raised (see engine_t.cookie). */
int engine_aborted(const engine_t *e);

#endif
