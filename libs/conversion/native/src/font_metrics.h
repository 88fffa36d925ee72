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
} font_metrics_t;

/** The FontDescriptor ascender/descender of the fonts a PDF page uses (nothing for other documents). */
void font_metrics_collect(fz_context *ctx, fz_page *page, font_metrics_t *m);
int font_metrics_find(const font_metrics_t *m, fz_font *font, float *asc, float *dsc);
void font_metrics_drop(font_metrics_t *m);

#endif
