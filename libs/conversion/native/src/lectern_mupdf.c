// Native PDF text engine for libs/conversion: Debian's libmupdf (1.21, static) behind a small N-API surface.
// It returns exactly what the WASM path of pdf-page.worker.ts builds from mupdf's JSON and HTML renderings of
// the structured text (RawPage: blocks -> lines with text, box, size, leadSize, bold; image-area ratio), but
// walks the structured text directly instead of printing and re-parsing it.
//
// Hand-written on purpose: no binding of mupdf exists on the npm registry here, and the only work needed is
// one walk over fz_stext_page. Plain C and the C N-API (no node-addon-api): mupdf reports errors with
// setjmp/longjmp (fz_try/fz_catch), which must not cross C++ frames.
//
// One engine = one fz_context = one worker thread (never shared). An engine holds at most one open document.
// Every mupdf call runs inside fz_try; a mupdf error becomes a JavaScript exception, never a crash.
#include <mupdf/pdf.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <uchar.h>

#include "engine.h"

// ---- allocator with accounting (leak checks in tests, and the cap above)

typedef union { size_t size; max_align_t align; } header_t;

static void *eng_malloc(void *user, size_t size) {
  engine_t *e = user;
  if (size > MEMORY_CAP || e->allocated + size > MEMORY_CAP) return NULL;
  header_t *h = malloc(sizeof(header_t) + size);
  if (!h) return NULL;
  h->size = size;
  e->allocated += size;
  if (e->allocated > e->peak) e->peak = e->allocated;
  return h + 1;
}

static void eng_free(void *user, void *ptr) {
  if (!ptr) return;
  engine_t *e = user;
  header_t *h = (header_t *)ptr - 1;
  e->allocated -= h->size;
  free(h);
}

static void *eng_realloc(void *user, void *ptr, size_t size) {
  engine_t *e = user;
  if (!ptr) return eng_malloc(user, size);
  if (size == 0) {
    eng_free(user, ptr);
    return NULL;
  }
  header_t *h = (header_t *)ptr - 1;
  size_t old = h->size;
  if (size > old && (size > MEMORY_CAP || e->allocated - old + size > MEMORY_CAP)) return NULL;
  header_t *n = realloc(h, sizeof(header_t) + size);
  if (!n) return NULL;
  n->size = size;
  e->allocated = e->allocated - old + size;
  if (e->allocated > e->peak) e->peak = e->allocated;
  return n + 1;
}

// ---- mupdf warnings and errors: kept for the caller (deduplicated, at most 20), never printed to stderr

static void on_message(void *user, const char *message) {
  engine_t *e = user;
  if (e->nlogs >= MAX_LOGS) return;
  for (int i = 0; i < e->nlogs; i++)
    if (strncmp(e->logs[i], message, LOG_LEN - 1) == 0) return;
  strncpy(e->logs[e->nlogs], message, LOG_LEN - 1);
  e->logs[e->nlogs][LOG_LEN - 1] = 0;
  e->nlogs++;
}

// ---- N-API helpers

napi_value throw_last(napi_env env) {
  const napi_extended_error_info *info = NULL;
  bool pending = false;
  napi_is_exception_pending(env, &pending);
  if (!pending) {
    napi_get_last_error_info(env, &info);
    napi_throw_error(env, NULL, info && info->error_message ? info->error_message : "N-API call failed");
  }
  return NULL;
}

napi_value throw_mupdf(napi_env env, engine_t *e) {
  const char *msg = fz_caught_message(e->ctx);
  if (engine_aborted(e)) napi_throw_error(env, "ABORTED", "aborted");
  else napi_throw_error(env, "MUPDF_ERROR", msg && *msg ? msg : "mupdf error");
  return NULL;
}

int engine_aborted(const engine_t *e) {
  return e->cookie && __atomic_load_n(&e->cookie->abort, __ATOMIC_RELAXED);
}

static void finalize_engine(napi_env env, void *data, void *hint) {
  (void)hint;
  engine_t *e = data;
  fz_drop_document(e->ctx, e->doc);
  if (e->bytes) napi_delete_reference(env, e->bytes);
  if (e->cookie_ref) napi_delete_reference(env, e->cookie_ref);
  fz_drop_context(e->ctx);
  free(e);
}

static engine_t *get_engine(napi_env env, napi_value v) {
  void *data = NULL;
  if (napi_get_value_external(env, v, &data) != napi_ok || !data) {
    napi_throw_type_error(env, NULL, "expected a mupdf engine");
    return NULL;
  }
  return data;
}

napi_value num(napi_env env, double v) {
  napi_value out;
  napi_create_double(env, v, &out);
  return out;
}

static void drop_document(napi_env env, engine_t *e) {
  fz_drop_document(e->ctx, e->doc);
  e->doc = NULL;
  if (e->bytes) napi_delete_reference(env, e->bytes);
  e->bytes = NULL;
  // fonts, images and objects cached for the document go with it: nothing accumulates across documents
  fz_empty_store(e->ctx);
}

// createEngine(abort?: Int32Array over a SharedArrayBuffer): a new fz_context (one per worker thread)
static napi_value create_engine(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  void *shared = NULL;
  size_t shared_len = 0;
  bool is_typed = false;
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if (argc >= 1 && napi_is_typedarray(env, argv[0], &is_typed) == napi_ok && is_typed) {
    napi_typedarray_type type;
    CHECK(napi_get_typedarray_info(env, argv[0], &type, &shared_len, &shared, NULL, NULL));
    if (type != napi_int32_array || shared_len * 4 < sizeof(fz_cookie) || ((uintptr_t)shared & 7))
      return napi_throw_range_error(env, NULL, "abort: an aligned Int32Array of at least 8 elements"), NULL;
  }
  engine_t *e = calloc(1, sizeof(engine_t));
  if (!e) return napi_throw_error(env, NULL, "out of memory"), NULL;
  fz_alloc_context alloc = { e, eng_malloc, eng_realloc, eng_free };
  e->ctx = fz_new_context(&alloc, NULL, FZ_STORE_DEFAULT);
  if (!e->ctx) {
    free(e);
    return napi_throw_error(env, NULL, "cannot create mupdf context"), NULL;
  }
  fz_set_warning_callback(e->ctx, on_message, e);
  fz_set_error_callback(e->ctx, on_message, e);
  fz_try(e->ctx) fz_register_document_handlers(e->ctx);
  fz_catch(e->ctx) {
    fz_drop_context(e->ctx);
    free(e);
    return napi_throw_error(env, NULL, "cannot register mupdf document handlers"), NULL;
  }
  if (shared) {
    e->cookie = shared;
    memset(e->cookie, 0, sizeof(fz_cookie));
    napi_create_reference(env, argv[0], 1, &e->cookie_ref);
  }
  napi_value out;
  CHECK(napi_create_external(env, e, finalize_engine, NULL, &out));
  return out;
}

// open(engine, bytes: Uint8Array, magic: string): opens a document (dropping the previous one)
static napi_value open_document(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  engine_t *e = get_engine(env, argv[0]);
  if (!e) return NULL;
  napi_typedarray_type type;
  size_t length;
  void *data;
  CHECK(napi_get_typedarray_info(env, argv[1], &type, &length, &data, NULL, NULL));
  char magic[64];
  CHECK(napi_get_value_string_utf8(env, argv[2], magic, sizeof magic, NULL));
  drop_document(env, e);
  e->nlogs = 0;
  fz_context *ctx = e->ctx;
  fz_stream *stm = NULL;
  fz_var(stm);
  fz_try(ctx) {
    stm = fz_open_memory(ctx, data, length);
    e->doc = fz_open_document_with_stream(ctx, magic, stm);
  }
  fz_always(ctx) fz_drop_stream(ctx, stm);
  fz_catch(ctx) return throw_mupdf(env, e);
  CHECK(napi_create_reference(env, argv[1], 1, &e->bytes));
  return NULL;
}

static napi_value close_document(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  engine_t *e = get_engine(env, argv[0]);
  if (!e) return NULL;
  drop_document(env, e);
  return NULL;
}

static engine_t *open_engine(napi_env env, napi_value v) {
  engine_t *e = get_engine(env, v);
  if (e && !e->doc) {
    napi_throw_error(env, NULL, "no document open in this engine");
    return NULL;
  }
  return e;
}

static const char *META_KEYS[] = { "info:Title", "info:Author", "info:Subject", "info:Keywords", "info:Creator",
  "info:Producer", "info:CreationDate", "info:ModDate", "format", "encryption" };
static const char *META_NAMES[] = { "title", "author", "subject", "keywords", "creator", "producer", "creationdate",
  "moddate", "format", "encryption" };

// info(engine): { needsPassword, pageCount, metadata, firstPageWidth, repaired, logs } (the WASM `info` shape)
static napi_value doc_info(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  engine_t *e = open_engine(env, argv[0]);
  if (!e) return NULL;
  fz_context *ctx = e->ctx;
  int needs_password = 0, pages = 0, repaired = 0;
  double first_width = -1;
  char values[10][512];
  int have[10] = { 0 };
  fz_page *page = NULL;
  fz_var(page);
  fz_try(ctx) {
    needs_password = fz_needs_password(ctx, e->doc);
    if (!needs_password) {
      for (int i = 0; i < 10; i++) have[i] = fz_lookup_metadata(ctx, e->doc, META_KEYS[i], values[i], sizeof values[i]) > 0;
      pages = fz_count_pages(ctx, e->doc);
      if (pages > 0) {
        page = fz_load_page(ctx, e->doc, 0);
        fz_rect b = fz_bound_page(ctx, page);
        first_width = b.x1 - b.x0;
      }
      pdf_document *pdf = pdf_specifics(ctx, e->doc);
      repaired = pdf ? pdf_was_repaired(ctx, pdf) : 0;
    }
  }
  fz_always(ctx) fz_drop_page(ctx, page);
  fz_catch(ctx) return throw_mupdf(env, e);

  napi_value out, meta, logs, v;
  CHECK(napi_create_object(env, &out));
  CHECK(napi_create_object(env, &meta));
  for (int i = 0; i < 10; i++) {
    if (!have[i] || !values[i][0]) continue;
    CHECK(napi_create_string_utf8(env, values[i], NAPI_AUTO_LENGTH, &v));
    CHECK(napi_set_named_property(env, meta, META_NAMES[i], v));
  }
  CHECK(napi_create_array_with_length(env, e->nlogs, &logs));
  for (int i = 0; i < e->nlogs; i++) {
    CHECK(napi_create_string_utf8(env, e->logs[i], NAPI_AUTO_LENGTH, &v));
    CHECK(napi_set_element(env, logs, i, v));
  }
  CHECK(napi_get_boolean(env, needs_password, &v));
  CHECK(napi_set_named_property(env, out, "needsPassword", v));
  CHECK(napi_set_named_property(env, out, "pageCount", num(env, pages)));
  CHECK(napi_set_named_property(env, out, "metadata", meta));
  CHECK(napi_get_null(env, &v));
  CHECK(napi_set_named_property(env, out, "pixelWidth", v));
  if (first_width >= 0) v = num(env, first_width);
  CHECK(napi_set_named_property(env, out, "firstPageWidth", v));
  CHECK(napi_get_boolean(env, repaired, &v));
  CHECK(napi_set_named_property(env, out, "repaired", v));
  CHECK(napi_set_named_property(env, out, "logs", logs));
  return out;
}

// extract(engine, pages: number[] (1-based)): { nums: Float64Array, text: string }, the pages packed
// (stext_page.c; pdf-native.ts unpacks them into RawPage objects)
static napi_value extract(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  engine_t *e = open_engine(env, argv[0]);
  if (!e) return NULL;
  uint32_t n;
  CHECK(napi_get_array_length(env, argv[1], &n));
  packed_t p = { 0 };
  napi_value out = NULL, nums, buffer, text;
  void *data = NULL;
  int ok = 1;
  for (uint32_t i = 0; ok && i < n; i++) {
    napi_value el;
    int32_t number;
    ok = napi_get_element(env, argv[1], i, &el) == napi_ok && napi_get_value_int32(env, el, &number) == napi_ok;
    if (!ok) break;
    if (engine_aborted(e)) {
      napi_throw_error(env, "ABORTED", "aborted");
      ok = 0;
      break;
    }
    ok = extract_page(env, e, &p, number);
  }
  if (ok)
    ok = napi_create_arraybuffer(env, p.n * sizeof(double), &data, &buffer) == napi_ok &&
      (p.n == 0 || memcpy(data, p.nums, p.n * sizeof(double))) &&
      napi_create_typedarray(env, napi_float64_array, p.n, buffer, 0, &nums) == napi_ok &&
      napi_create_string_utf16(env, p.tn ? (const char16_t *)p.text : u"", p.tn, &text) == napi_ok &&
      napi_create_object(env, &out) == napi_ok && napi_set_named_property(env, out, "nums", nums) == napi_ok &&
      napi_set_named_property(env, out, "text", text) == napi_ok;
  free(p.nums);
  free(p.text);
  if (!ok) {
    throw_last(env);
    return NULL;
  }
  return out;
}

// drawings(engine, page: number): vector paths of a page (exploratory, see drawings.c)
static napi_value drawings(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  int32_t number;
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  engine_t *e = open_engine(env, argv[0]);
  if (!e) return NULL;
  CHECK(napi_get_value_int32(env, argv[1], &number));
  return page_drawings(env, e, number);
}

// memory(engine): { allocated, peak } bytes held by mupdf in this engine (tests check for leaks with it)
static napi_value memory(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  engine_t *e = get_engine(env, argv[0]);
  if (!e) return NULL;
  napi_value out;
  CHECK(napi_create_object(env, &out));
  CHECK(napi_set_named_property(env, out, "allocated", num(env, (double)e->allocated)));
  CHECK(napi_set_named_property(env, out, "peak", num(env, (double)e->peak)));
  return out;
}

// sha256(bytes: Uint8Array): lower-case hex SHA-256 of the bytes (mupdf's fz_sha256; no engine needed). Saves a
// process that converts one document loading node:crypto (~2.3 ms of a one-shot `lectern convert`).
static napi_value sha256(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  bool is_typedarray = false;
  if (argc < 1 || napi_is_typedarray(env, argv[0], &is_typedarray) != napi_ok || !is_typedarray) {
    napi_throw_type_error(env, NULL, "sha256 expects a Uint8Array");
    return NULL;
  }
  napi_typedarray_type type;
  size_t length;
  void *data;
  CHECK(napi_get_typedarray_info(env, argv[0], &type, &length, &data, NULL, NULL));
  if (type != napi_uint8_array) {
    napi_throw_type_error(env, NULL, "sha256 expects a Uint8Array");
    return NULL;
  }
  fz_sha256 state;
  unsigned char digest[32];
  fz_sha256_init(&state);
  if (length > 0) fz_sha256_update(&state, data, length);
  fz_sha256_final(&state, digest);
  static const char hex[] = "0123456789abcdef";
  char out[65];
  for (int i = 0; i < 32; i++) {
    out[2 * i] = hex[digest[i] >> 4];
    out[2 * i + 1] = hex[digest[i] & 15];
  }
  out[64] = 0;
  napi_value result;
  CHECK(napi_create_string_latin1(env, out, 64, &result));
  return result;
}

static napi_value init(napi_env env, napi_value exports) {
  napi_property_descriptor props[] = {
    { "createEngine", NULL, create_engine, NULL, NULL, NULL, napi_enumerable, NULL },
    { "open", NULL, open_document, NULL, NULL, NULL, napi_enumerable, NULL },
    { "close", NULL, close_document, NULL, NULL, NULL, napi_enumerable, NULL },
    { "info", NULL, doc_info, NULL, NULL, NULL, napi_enumerable, NULL },
    { "extract", NULL, extract, NULL, NULL, NULL, napi_enumerable, NULL },
    { "memory", NULL, memory, NULL, NULL, NULL, napi_enumerable, NULL },
    { "drawings", NULL, drawings, NULL, NULL, NULL, napi_enumerable, NULL },
    { "sha256", NULL, sha256, NULL, NULL, NULL, napi_enumerable, NULL },
  };
  napi_value version;
  if (napi_define_properties(env, exports, sizeof props / sizeof props[0], props) != napi_ok) return NULL;
  if (napi_create_string_utf8(env, FZ_VERSION, NAPI_AUTO_LENGTH, &version) != napi_ok) return NULL;
  if (napi_set_named_property(env, exports, "mupdfVersion", version) != napi_ok) return NULL;
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
