// A device in front of mupdf 1.21's structured-text device, giving it images as newer mupdf (the WASM build)
// sees them: only the image-area ratio is read from them here.
// - Shadings: 1.21 renders each one to a pixmap over its whole (unclipped) extent, which is slow and fails on
//   some files ("Illegal dimensions for pixmap"); newer mupdf renders it within the clip and the page. Here a
//   shading becomes an image block of that clipped extent without rendering anything (a 1x1 image stretched
//   over it).
// - Images (and image masks) drawn at less than 50% opacity are watermarks or effects: skipped, as newer
//   mupdf does.
// - Text: glyphs drawn where nothing of them can be seen, their ink box outside the page (the crop box: printer's
//   marks, slug lines and line numbers of a proof) or outside the current clip, are dropped; and a glyph drawn
//   again over the glyph just drawn, the same character less than a tenth of its size away ("fake bold" by
//   overprinting), is kept once. Both as mupdf 1.28's structured-text device (the WASM build) does, measured on
//   generated PDFs (see pdf-engines.spec.ts): a tenth of the size, the distance between origins; the ink box
//   (fz_bound_glyph) against the scissor, an empty overlap drops the glyph.
// - Images reach the text device as a 1x1 stand-in over the same area: only their boxes are read. JPEG 2000
//   images are worse: mupdf 1.21 decodes them when the interpreter loads them (pdf_load_jpx), before any device
//   sees them, which made a CAD plan's text 30-70x slower than its text alone. `put_jpx_stand_ins` puts a stand-in
//   in mupdf's resource store under each such image's object for the run (pdf_load_image returns what the store
//   holds), and `remove_jpx_stand_ins` takes them out again, so that any later use of the document in this engine
//   sees the real image (renders for OCR use the WASM build).
// Callbacks call the target's functions directly: the clip stack is kept on this device
// (fz_device_current_scissor), and the target never sees clips it would have to pop.
#include "page_device.h"
#include <float.h>
#include <math.h>

typedef struct {
  fz_device super;
  fz_device *target;
  fz_rect mediabox;
  fz_image *dot; // 1x1 image standing for a shading's area
  // the last glyph passed on (device space), for the overprint check
  int last_ucs;
  float last_x, last_y;
} page_device_t;

#define TARGET(dev) (((page_device_t *)(dev))->target)

/*
 * Per-glyph arithmetic inline. The library's fz_concat and fz_intersect_rect take and return their structs through
 * memory (a store-forwarding stall per call): with fz_bound_glyph's own transform they were 10% of a text pass's CPU
 * (MOD14, perf). Same operations in the same order as the library's (no FMA on the x86-64 baseline), so the same
 * floats; the packed output of every corpus PDF is compared bit for bit with the library calls' (bench/conversion).
 */
static inline fz_matrix concat(fz_matrix one, fz_matrix two) {
  fz_matrix r;
  r.a = one.a * two.a + one.b * two.c;
  r.b = one.a * two.b + one.b * two.d;
  r.c = one.c * two.a + one.d * two.c;
  r.d = one.c * two.b + one.d * two.d;
  r.e = one.e * two.a + one.f * two.c + two.e;
  r.f = one.e * two.b + one.f * two.d + two.f;
  return r;
}

/** !fz_is_empty_rect(fz_intersect_rect(a, b)) */
static inline int overlaps(fz_rect a, fz_rect b) {
  if (fz_is_infinite_rect(b)) return !fz_is_empty_rect(a);
  if (fz_is_infinite_rect(a)) return !fz_is_empty_rect(b);
  float x0 = a.x0 < b.x0 ? b.x0 : a.x0, y0 = a.y0 < b.y0 ? b.y0 : a.y0;
  float x1 = a.x1 > b.x1 ? b.x1 : a.x1, y1 = a.y1 > b.y1 ? b.y1 : a.y1;
  return !(x0 >= x1 || y0 >= y1);
}

/**
 * fz_bound_glyph, for a glyph whose box mupdf has measured already (its per-font cache, `bbox_table`, filled by the
 * interpreter, which bounds every glyph it shows) under an axis-aligned matrix: that box moved as fz_transform_rect
 * moves it (the same steps in the same order: a flip swaps the edges, then each corner is transformed). Anything
 * else (no box cached yet, an empty, infinite or NaN one, a rotated or skewed matrix) goes to the library.
 */
static fz_rect bound_glyph(fz_context *ctx, fz_font *font, int gid, fz_matrix m) {
  if (gid >= 0 && gid < font->glyph_count && font->use_glyph_bbox && font->bbox_table && font->bbox_table[gid >> 8] &&
    fabsf(m.b) < FLT_EPSILON && fabsf(m.c) < FLT_EPSILON) {
    fz_rect r = font->bbox_table[gid >> 8][gid & 255];
    if (r.x0 < r.x1 && r.y0 < r.y1 && !fz_is_infinite_rect(r)) {
      float t;
      if (m.a < 0) t = r.x0, r.x0 = r.x1, r.x1 = t;
      if (m.d < 0) t = r.y0, r.y0 = r.y1, r.y1 = t;
      fz_rect out;
      out.x0 = r.x0 * m.a + r.y0 * m.c + m.e;
      out.y0 = r.x0 * m.b + r.y0 * m.d + m.f;
      out.x1 = r.x1 * m.a + r.y1 * m.c + m.e;
      out.y1 = r.x1 * m.b + r.y1 * m.d + m.f;
      return out;
    }
  }
  return fz_bound_glyph(ctx, font, gid, m);
}

/** fz_matrix_expansion */
static inline float expansion(fz_matrix m) {
  return sqrtf(fabsf(m.a * m.d - m.b * m.c));
}

/** Whether a glyph is drawn on top of the glyph passed on just before it (see above); remembers it otherwise. */
static int overprinted(page_device_t *p, int ucs, fz_matrix trm) {
  float size = expansion(trm);
  if (ucs == p->last_ucs && ucs > 0 && hypotf(trm.e - p->last_x, trm.f - p->last_y) < size * 0.1f) return 1;
  p->last_ucs = ucs, p->last_x = trm.e, p->last_y = trm.f;
  return 0;
}

/**
 * `text` without the glyphs nobody sees and the overprinted duplicates: the same object when nothing is
 * dropped, a new one (the caller drops it) otherwise, NULL when nothing is left. Items continuing a glyph
 * (a ligature's further characters, gid -1; or further glyphs of one character, ucs -1) go with it.
 */
static fz_text *visible_text(fz_context *ctx, fz_device *dev, const fz_text *text, fz_matrix ctm) {
  page_device_t *p = (page_device_t *)dev;
  fz_rect view = fz_intersect_rect(fz_device_current_scissor(ctx, dev), p->mediabox);
  int total = 0, kept = 0;
  for (fz_text_span *s = text->head; s; s = s->next) total += s->len;
  unsigned char *keep = fz_malloc(ctx, total > 0 ? (size_t)total : 1);
  int k = 0, keep_current = 1;
  for (fz_text_span *s = text->head; s; s = s->next) {
    for (int i = 0; i < s->len; i++, k++) {
      fz_text_item *it = &s->items[i];
      if (it->gid >= 0 && (i == 0 || it->ucs >= 0 || s->items[i - 1].gid < 0)) {
        fz_matrix trm = s->trm;
        trm.e = it->x, trm.f = it->y;
        trm = concat(trm, ctm);
        fz_rect ink = bound_glyph(ctx, s->font, it->gid, trm);
        // a space has no ink: its origin stands for it
        if (fz_is_empty_rect(ink)) ink = fz_make_rect(trm.e, trm.f, trm.e + 1e-3f, trm.f + 1e-3f);
        keep_current = overlaps(ink, view) && !overprinted(p, it->ucs, trm);
      }
      keep[k] = (unsigned char)keep_current;
      kept += keep_current;
    }
  }
  if (kept == total) {
    fz_free(ctx, keep);
    return (fz_text *)text;
  }
  fz_text *out = NULL;
  fz_var(out);
  fz_try(ctx) {
    if (kept > 0) {
      out = fz_new_text(ctx);
      k = 0;
      for (fz_text_span *s = text->head; s; s = s->next)
        for (int i = 0; i < s->len; i++, k++) {
          if (!keep[k]) continue;
          fz_matrix trm = s->trm;
          trm.e = s->items[i].x, trm.f = s->items[i].y;
          fz_show_glyph(ctx, out, s->font, trm, s->items[i].gid, s->items[i].ucs, s->wmode, s->bidi_level, s->markup_dir, s->language);
        }
    }
  }
  fz_always(ctx) fz_free(ctx, keep);
  fz_catch(ctx) {
    fz_drop_text(ctx, out);
    fz_rethrow(ctx);
  }
  return out;
}

/** Runs `call` with the visible part of `text` (see visible_text), when any. */
#define WITH_VISIBLE_TEXT(call)                                                                              \
  do {                                                                                                       \
    fz_text *shown = visible_text(ctx, dev, text, ctm);                                                      \
    if (!shown) break;                                                                                       \
    fz_try(ctx) call;                                                                                        \
    fz_always(ctx) if (shown != text) fz_drop_text(ctx, shown);                                              \
    fz_catch(ctx) fz_rethrow(ctx);                                                                           \
  } while (0)

static void fill_text(fz_context *ctx, fz_device *dev, const fz_text *text, fz_matrix ctm, fz_colorspace *cs,
  const float *color, float alpha, fz_color_params params) {
  fz_device *t = TARGET(dev);
  if (t->fill_text) WITH_VISIBLE_TEXT(t->fill_text(ctx, t, shown, ctm, cs, color, alpha, params));
}

static void stroke_text(fz_context *ctx, fz_device *dev, const fz_text *text, const fz_stroke_state *stroke,
  fz_matrix ctm, fz_colorspace *cs, const float *color, float alpha, fz_color_params params) {
  fz_device *t = TARGET(dev);
  if (t->stroke_text) WITH_VISIBLE_TEXT(t->stroke_text(ctx, t, shown, stroke, ctm, cs, color, alpha, params));
}

static void clip_text(fz_context *ctx, fz_device *dev, const fz_text *text, fz_matrix ctm, fz_rect scissor) {
  fz_device *t = TARGET(dev);
  if (t->clip_text) WITH_VISIBLE_TEXT(t->clip_text(ctx, t, shown, ctm, scissor));
}

static void clip_stroke_text(fz_context *ctx, fz_device *dev, const fz_text *text, const fz_stroke_state *stroke,
  fz_matrix ctm, fz_rect scissor) {
  fz_device *t = TARGET(dev);
  if (t->clip_stroke_text) WITH_VISIBLE_TEXT(t->clip_stroke_text(ctx, t, shown, stroke, ctm, scissor));
}

static void ignore_text(fz_context *ctx, fz_device *dev, const fz_text *text, fz_matrix ctm) {
  fz_device *t = TARGET(dev);
  if (t->ignore_text) WITH_VISIBLE_TEXT(t->ignore_text(ctx, t, shown, ctm));
}

/** A new 1x1 grey image: what stands for an image's or a shading's area (only its box is ever read). */
static fz_image *new_dot_image(fz_context *ctx) {
  fz_pixmap *pix = fz_new_pixmap(ctx, fz_device_gray(ctx), 1, 1, NULL, 0);
  fz_image *dot = NULL;
  fz_try(ctx) {
    fz_clear_pixmap(ctx, pix);
    dot = fz_new_image_from_pixmap(ctx, pix, NULL);
  }
  fz_always(ctx) fz_drop_pixmap(ctx, pix);
  fz_catch(ctx) fz_rethrow(ctx);
  return dot;
}

/** This device's stand-in image (made once per page). */
static fz_image *stand_in(fz_context *ctx, page_device_t *p) {
  if (!p->dot) p->dot = new_dot_image(ctx);
  return p->dot;
}

static void fill_image(fz_context *ctx, fz_device *dev, fz_image *img, fz_matrix ctm, float alpha, fz_color_params params) {
  fz_device *t = TARGET(dev);
  if (alpha >= 0.5f && t->fill_image) t->fill_image(ctx, t, stand_in(ctx, (page_device_t *)dev), ctm, alpha, params);
}

static void fill_image_mask(fz_context *ctx, fz_device *dev, fz_image *img, fz_matrix ctm, fz_colorspace *cs,
  const float *color, float alpha, fz_color_params params) {
  fill_image(ctx, dev, img, ctm, alpha, params);
}

/** Whether `filter` (a name or an array of names) decodes JPEG 2000. */
static int is_jpx_filter(fz_context *ctx, pdf_obj *filter) {
  if (pdf_name_eq(ctx, filter, PDF_NAME(JPXDecode))) return 1;
  int n = pdf_is_array(ctx, filter) ? pdf_array_len(ctx, filter) : 0;
  for (int i = 0; i < n; i++)
    if (pdf_name_eq(ctx, pdf_array_get(ctx, filter, i), PDF_NAME(JPXDecode))) return 1;
  return 0;
}

#define MAX_STAND_INS 512
#define MAX_FORM_DEPTH 8

static void collect_jpx(fz_context *ctx, pdf_obj *resources, fz_image *stand_in, jpx_stand_ins_t *out, int depth) {
  pdf_obj *xobjects = pdf_dict_get(ctx, resources, PDF_NAME(XObject));
  int n = pdf_dict_len(ctx, xobjects);
  for (int i = 0; i < n && out->n < MAX_STAND_INS; i++) {
    pdf_obj *x = pdf_dict_get_val(ctx, xobjects, i);
    if (!pdf_is_indirect(ctx, x) || pdf_obj_marked(ctx, x)) continue; // the store keys indirect objects only
    pdf_obj *subtype = pdf_dict_get(ctx, x, PDF_NAME(Subtype));
    if (pdf_name_eq(ctx, subtype, PDF_NAME(Form))) {
      if (depth >= MAX_FORM_DEPTH) continue;
      pdf_mark_obj(ctx, x);
      fz_try(ctx) collect_jpx(ctx, pdf_dict_get(ctx, x, PDF_NAME(Resources)), stand_in, out, depth + 1);
      fz_always(ctx) pdf_unmark_obj(ctx, x);
      fz_catch(ctx) fz_rethrow(ctx);
      continue;
    }
    if (!pdf_name_eq(ctx, subtype, PDF_NAME(Image)) || !is_jpx_filter(ctx, pdf_dict_get(ctx, x, PDF_NAME(Filter)))) continue;
    fz_image *cached = pdf_find_item(ctx, fz_drop_image_imp, x);
    if (cached) {
      fz_drop_image(ctx, cached); // decoded already: nothing to save
      continue;
    }
    if (out->n == out->cap) {
      int cap = out->cap ? out->cap * 2 : 8;
      out->keys = fz_realloc_array(ctx, out->keys, cap, pdf_obj *);
      out->cap = cap;
    }
    pdf_store_item(ctx, x, stand_in, fz_image_size(ctx, stand_in));
    out->keys[out->n++] = pdf_keep_obj(ctx, x);
  }
}

void put_jpx_stand_ins(fz_context *ctx, fz_page *page, jpx_stand_ins_t *out) {
  pdf_page *pdf = pdf_page_from_fz_page(ctx, page);
  if (!pdf) return;
  fz_image *dot = new_dot_image(ctx);
  fz_try(ctx) collect_jpx(ctx, pdf_page_resources(ctx, pdf), dot, out, 0);
  fz_always(ctx) fz_drop_image(ctx, dot); // the store holds its own references
  fz_catch(ctx) fz_rethrow(ctx);
}

void remove_jpx_stand_ins(fz_context *ctx, jpx_stand_ins_t *ins) {
  for (int i = 0; i < ins->n; i++) {
    pdf_remove_item(ctx, fz_drop_image_imp, ins->keys[i]);
    pdf_drop_obj(ctx, ins->keys[i]);
  }
  fz_free(ctx, ins->keys);
  ins->keys = NULL;
  ins->n = ins->cap = 0;
}

static void fill_shade(fz_context *ctx, fz_device *dev, fz_shade *shade, fz_matrix ctm, float alpha, fz_color_params params) {
  page_device_t *p = (page_device_t *)dev;
  fz_rect r = fz_intersect_rect(fz_bound_shade(ctx, shade, ctm), fz_device_current_scissor(ctx, dev));
  r = fz_intersect_rect(r, p->mediabox);
  if (fz_is_empty_rect(r)) return;
  fz_matrix to_rect = { r.x1 - r.x0, 0, 0, r.y1 - r.y0, r.x0, r.y0 };
  fill_image(ctx, dev, NULL, to_rect, alpha, params);
}

static void close_device(fz_context *ctx, fz_device *dev) {
  fz_close_device(ctx, TARGET(dev));
}

static void drop_device(fz_context *ctx, fz_device *dev) {
  page_device_t *p = (page_device_t *)dev;
  fz_drop_image(ctx, p->dot);
  fz_drop_device(ctx, p->target);
}

fz_device *new_page_device(fz_context *ctx, fz_device *target, fz_rect mediabox) {
  page_device_t *p = fz_new_derived_device(ctx, page_device_t);
  p->target = target;
  p->mediabox = mediabox;
  p->last_ucs = -1;
  p->super.fill_text = fill_text;
  p->super.stroke_text = stroke_text;
  p->super.clip_text = clip_text;
  p->super.clip_stroke_text = clip_stroke_text;
  p->super.ignore_text = ignore_text;
  p->super.fill_shade = fill_shade;
  p->super.fill_image = fill_image;
  p->super.fill_image_mask = fill_image_mask;
  p->super.close_device = close_device;
  p->super.drop_device = drop_device;
  return &p->super;
}
