#ifndef LECTERN_FONT_METRICS_H
#define LECTERN_FONT_METRICS_H
#include <mupdf/fitz.h>

typedef struct {
  fz_font *font;
  float asc, dsc;
} font_metric_t;

typedef struct {
  font_metric_t *v;
  int n, cap;
  // the last lookup (characters come in runs of one font): its result and mupdf 1.21's own metrics
  fz_font *last;
  int last_found;
  float last_asc, last_dsc, last_a0, last_d0;
} font_metrics_t;

/** The FontDescriptor ascender/descender of the fonts a PDF page uses (nothing for other documents). */
void font_metrics_collect(fz_context *ctx, fz_page *page, font_metrics_t *m);
int font_metrics_find(const font_metrics_t *m, fz_font *font, float *asc, float *dsc);
/**
 * For a character box: the descriptor metrics of `font` (asc, dsc) and the ones mupdf 1.21 used (a0, d0);
 * 0 when the font has no descriptor metrics. Remembers the last font asked about.
 */
int font_metrics_pair(fz_context *ctx, font_metrics_t *m, fz_font *font, float *asc, float *dsc, float *a0, float *d0);
void font_metrics_drop(font_metrics_t *m);

#endif
