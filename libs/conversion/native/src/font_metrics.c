// Font ascender/descender as newer mupdf (the npm WASM build) uses them for character boxes.
//
// mupdf 1.21 takes a character's vertical extent from the font program (FreeType's ascender/descender, for
// embedded Type 1 fonts their FontBBox), which makes line boxes up to 1.7x the font size; later versions take
// it from the PDF's FontDescriptor (/Ascent, /Descent; 0.8/-0.2 when those are out of range). The layout (line
// merging, column gutters, table rows) reads these boxes, so the native engine rebuilds them the newer way:
// per page, the page's fonts (and those of its form XObjects) are looked up in mupdf's resource cache
// (pdf_load_font returns the same fz_font the text device saw) and paired with their descriptor metrics.
#include "font_metrics.h"
#include <mupdf/pdf.h>
#include <stdlib.h>

#define MAX_DEPTH 8

static int descriptor_metrics(fz_context *ctx, pdf_obj *font, float *asc, float *dsc) {
  pdf_obj *desc = pdf_dict_get(ctx, font, PDF_NAME(FontDescriptor));
  if (!desc) {
    pdf_obj *kids = pdf_dict_get(ctx, font, PDF_NAME(DescendantFonts));
    if (pdf_is_array(ctx, kids)) desc = pdf_dict_get(ctx, pdf_array_get(ctx, kids, 0), PDF_NAME(FontDescriptor));
  }
  pdf_obj *a = pdf_dict_get(ctx, desc, PDF_NAME(Ascent)), *d = pdf_dict_get(ctx, desc, PDF_NAME(Descent));
  if (!pdf_is_number(ctx, a) || !pdf_is_number(ctx, d)) return 0;
  float ascent = pdf_to_real(ctx, a), descent = pdf_to_real(ctx, d);
  if (descent > 0) descent = -descent;
  if (ascent <= 0 || ascent > 8000 || descent < -2000) {
    *asc = 0.8f;
    *dsc = -0.2f;
  } else {
    *asc = ascent / 1000;
    *dsc = descent / 1000;
  }
  return 1;
}

static void add(font_metrics_t *m, fz_font *font, float asc, float dsc) {
  for (int i = 0; i < m->n; i++)
    if (m->v[i].font == font) return;
  if (m->n == m->cap) {
    int cap = m->cap ? m->cap * 2 : 16;
    font_metric_t *v = realloc(m->v, cap * sizeof *v);
    if (!v) return;
    m->v = v;
    m->cap = cap;
  }
  m->v[m->n].font = font;
  m->v[m->n].asc = asc;
  m->v[m->n].dsc = dsc;
  m->n++;
}

/** The cached font (NULL when it does not load): its own fz_try keeps the caller's loop variables safe. */
static pdf_font_desc *load_font(fz_context *ctx, pdf_document *doc, pdf_obj *res, pdf_obj *font) {
  pdf_font_desc *fd = NULL;
  fz_var(fd);
  fz_try(ctx) fd = pdf_load_font(ctx, doc, res, font);
  fz_catch(ctx) fd = NULL;
  return fd;
}

static void collect(fz_context *ctx, pdf_document *doc, pdf_obj *res, font_metrics_t *m, int depth);

static void collect_form(fz_context *ctx, pdf_document *doc, pdf_obj *form, font_metrics_t *m, int depth) {
  if (pdf_mark_obj(ctx, form)) return; // already visited (or a cycle)
  fz_try(ctx) collect(ctx, doc, pdf_dict_get(ctx, form, PDF_NAME(Resources)), m, depth);
  fz_always(ctx) pdf_unmark_obj(ctx, form);
  fz_catch(ctx) {} // a broken form's fonts keep mupdf 1.21's boxes
}

static void collect(fz_context *ctx, pdf_document *doc, pdf_obj *res, font_metrics_t *m, int depth) {
  if (!pdf_is_dict(ctx, res) || depth > MAX_DEPTH) return;
  pdf_obj *fonts = pdf_dict_get(ctx, res, PDF_NAME(Font));
  int n = pdf_dict_len(ctx, fonts);
  for (int i = 0; i < n; i++) {
    pdf_obj *f = pdf_dict_get_val(ctx, fonts, i);
    float asc, dsc;
    if (!descriptor_metrics(ctx, f, &asc, &dsc)) continue;
    pdf_font_desc *fd = load_font(ctx, doc, res, f);
    if (!fd) continue;
    if (fd->font) add(m, fd->font, asc, dsc);
    pdf_drop_font(ctx, fd);
  }
  pdf_obj *xobjects = pdf_dict_get(ctx, res, PDF_NAME(XObject));
  n = pdf_dict_len(ctx, xobjects);
  for (int i = 0; i < n; i++) {
    pdf_obj *x = pdf_dict_get_val(ctx, xobjects, i);
    if (pdf_name_eq(ctx, pdf_dict_get(ctx, x, PDF_NAME(Subtype)), PDF_NAME(Form))) collect_form(ctx, doc, x, m, depth + 1);
  }
}

void font_metrics_collect(fz_context *ctx, fz_page *page, font_metrics_t *m) {
  pdf_page *pp = pdf_page_from_fz_page(ctx, page);
  if (!pp) return;
  fz_try(ctx) collect(ctx, pp->doc, pdf_page_resources(ctx, pp), m, 0);
  fz_catch(ctx) {} // whatever was collected stays; other fonts keep mupdf 1.21's boxes
}

void font_metrics_drop(font_metrics_t *m) {
  free(m->v);
  m->v = NULL;
  m->n = m->cap = 0;
}

int font_metrics_pair(fz_context *ctx, font_metrics_t *m, fz_font *font, float *asc, float *dsc, float *a0, float *d0) {
  if (font != m->last) {
    m->last = font;
    m->last_found = font_metrics_find(m, font, &m->last_asc, &m->last_dsc);
    if (m->last_found) {
      m->last_a0 = fz_font_ascender(ctx, font);
      m->last_d0 = fz_font_descender(ctx, font);
    }
  }
  *asc = m->last_asc, *dsc = m->last_dsc, *a0 = m->last_a0, *d0 = m->last_d0;
  return m->last_found;
}

int font_metrics_find(const font_metrics_t *m, fz_font *font, float *asc, float *dsc) {
  for (int i = 0; i < m->n; i++)
    if (m->v[i].font == font) {
      *asc = m->v[i].asc;
      *dsc = m->v[i].dsc;
      return 1;
    }
  return 0;
}
