// One page's structured text (mupdf 1.21) as the RawPage the layout code consumes.
//
// Numbers follow what the WASM path reads from mupdf's own renderings, so both engines feed the layout the
// same kind of values: boxes and the lead font size truncated to integers as mupdf's JSON prints them
// (x, y, w, h), per-line font size rounded to 0.1 pt as its HTML prints it. Style per line: the size carrying
// most non-space characters, bold when at least 95% of them are in a bold font. Character boxes use the
// fonts' descriptor metrics as newer mupdf does (font_metrics.c).
#include "engine.h"
#include "font_metrics.h"
#include "page_device.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

int make_keys(napi_env env, keys_t *k) {
  const char *names[] = { "pageNumber", "width", "height", "blocks", "imageRatio", "x0", "y0", "x1", "y1",
    "lines", "text", "size", "leadSize", "bold" };
  napi_value *slots[] = { &k->pageNumber, &k->width, &k->height, &k->blocks, &k->imageRatio, &k->x0, &k->y0,
    &k->x1, &k->y1, &k->lines, &k->text, &k->size, &k->leadSize, &k->bold };
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (napi_create_string_utf8(env, names[i], NAPI_AUTO_LENGTH, slots[i]) != napi_ok) return 0;
  return 1;
}

/** JavaScript's String.prototype.trim whitespace (a line of only these is dropped, as the WASM path does). */
static int is_js_space(int c) {
  return c == 0x20 || (c >= 0x09 && c <= 0x0d) || c == 0xa0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200a) ||
    c == 0x2028 || c == 0x2029 || c == 0x202f || c == 0x205f || c == 0x3000 || c == 0xfeff;
}

typedef struct {
  int x, y, w, h;
} ibox_t;

/** mupdf's JSON box: origin and extent each truncated to an integer. */
static ibox_t json_box(fz_rect r) {
  ibox_t b = { (int)r.x0, (int)r.y0, (int)(r.x1 - r.x0), (int)(r.y1 - r.y0) };
  return b;
}

static double clip_area(ibox_t b, double w, double h) {
  double x0 = b.x > 0 ? b.x : 0, y0 = b.y > 0 ? b.y : 0;
  double x1 = b.x + b.w < w ? b.x + b.w : w, y1 = b.y + b.h < h ? b.y + b.h : h;
  return x1 > x0 && y1 > y0 ? (x1 - x0) * (y1 - y0) : 0;
}

static int set_box(napi_env env, const keys_t *k, napi_value obj, ibox_t b) {
  return napi_set_property(env, obj, k->x0, num(env, b.x)) == napi_ok &&
    napi_set_property(env, obj, k->y0, num(env, b.y)) == napi_ok &&
    napi_set_property(env, obj, k->x1, num(env, b.x + b.w)) == napi_ok &&
    napi_set_property(env, obj, k->y1, num(env, b.y + b.h)) == napi_ok;
}

/** A character's box with the vertical extent of `m`'s metrics for its font (mupdf 1.21's otherwise). */
static fz_rect char_rect(fz_context *ctx, const fz_stext_char *ch, font_metrics_t *m) {
  fz_quad q = ch->quad;
  float asc, dsc, a0, d0;
  if (font_metrics_pair(ctx, m, ch->font, &asc, &dsc, &a0, &d0)) {
    // 1.21 built the quad as origin + ascender/descender along the glyph's up vector: move both edges
    float span = a0 - d0;
    if (span > 1e-3f) {
      float ux = (q.ul.x - q.ll.x) / span, uy = (q.ul.y - q.ll.y) / span, ta = asc - a0, td = dsc - d0;
      q.ul.x += ta * ux, q.ul.y += ta * uy, q.ur.x += ta * ux, q.ur.y += ta * uy;
      q.ll.x += td * ux, q.ll.y += td * uy, q.lr.x += td * ux, q.lr.y += td * uy;
    }
  }
  return fz_rect_from_quad(q);
}

static fz_rect line_rect(fz_context *ctx, const fz_stext_line *line, font_metrics_t *m) {
  if (line->wmode != 0 || m->n == 0) return line->bbox;
  fz_rect r = fz_empty_rect;
  for (fz_stext_char *ch = line->first_char; ch; ch = ch->next) r = fz_union_rect(r, char_rect(ctx, ch, m));
  return r;
}

typedef struct {
  char *data;
  size_t len, cap;
} text_t;

static int text_reserve(text_t *t, size_t extra) {
  if (t->len + extra <= t->cap) return 1;
  size_t cap = t->cap ? t->cap * 2 : 256;
  while (cap < t->len + extra) cap *= 2;
  char *d = realloc(t->data, cap);
  if (!d) return 0;
  t->data = d;
  t->cap = cap;
  return 1;
}

#define MAX_SIZES 16

/** A RawLine, or NULL in *out when the line is skipped (vertical, empty, only whitespace). 0 on failure. */
static int make_line(napi_env env, fz_context *ctx, const keys_t *k, fz_stext_line *line, fz_rect box, text_t *t, napi_value *out) {
  *out = NULL;
  if (line->wmode != 0 || !line->first_char) return 1;
  double sizes[MAX_SIZES];
  int counts[MAX_SIZES], nsizes = 0, total = 0, bold = 0, blank = 1;
  fz_font *font = NULL;
  int font_bold = 0;
  float last_size = -1;
  int last_slot = -1;
  t->len = 0;
  for (fz_stext_char *ch = line->first_char; ch; ch = ch->next) {
    if (!text_reserve(t, FZ_UTFMAX)) return 0;
    t->len += fz_runetochar(t->data + t->len, ch->c);
    if (!is_js_space(ch->c)) blank = 0;
    // the HTML rendering writes every character but the ASCII space as one visible character or entity
    if (ch->c == ' ') continue;
    total++;
    if (ch->font != font) {
      font = ch->font;
      font_bold = fz_font_is_bold(ctx, font);
    }
    bold += font_bold;
    if (ch->size != last_size) {
      double s = nearbyint((double)ch->size * 10) / 10; // "%.1f", read back by Number()
      last_size = ch->size;
      last_slot = -1;
      for (int i = 0; i < nsizes; i++)
        if (sizes[i] == s) last_slot = i;
      if (last_slot < 0 && nsizes < MAX_SIZES) {
        sizes[nsizes] = s;
        counts[nsizes] = 0;
        last_slot = nsizes++;
      }
    }
    if (last_slot >= 0) counts[last_slot]++;
  }
  if (blank) return 1;
  double lead = (int)line->first_char->size;
  double size = 0;
  int best = -1;
  for (int i = 0; i < nsizes; i++)
    if (counts[i] > best) {
      best = counts[i];
      size = sizes[i];
    }
  napi_value obj, v;
  if (napi_create_object(env, &obj) != napi_ok) return 0;
  if (napi_create_string_utf8(env, t->data, t->len, &v) != napi_ok) return 0;
  if (napi_set_property(env, obj, k->text, v) != napi_ok) return 0;
  if (!set_box(env, k, obj, json_box(box))) return 0;
  if (napi_set_property(env, obj, k->size, num(env, size > 0 ? size : lead)) != napi_ok) return 0;
  if (napi_set_property(env, obj, k->leadSize, num(env, lead)) != napi_ok) return 0;
  if (napi_get_boolean(env, total > 0 && (double)bold / total >= 0.95, &v) != napi_ok) return 0;
  if (napi_set_property(env, obj, k->bold, v) != napi_ok) return 0;
  *out = obj;
  return 1;
}

static int is_bullet(int c) {
  return c == 0x2022 || c == 0x25e6 || c == 0x25aa || c == 0x25a0 || c == 0x25cf || c == 0x2023 || c == 0xb7 ||
    c == 0x2013 || c == '-' || c == '*' || c == 0xf0b7;
}

/**
 * Where a line's text starts: after a leading bullet, or a section / paragraph number ("14.", "2.7", "100."),
 * and its space, so that the next lines of a list item or a numbered heading, aligned with its text, stay in
 * its block (matching what the WASM build's blocks show; lettered items such as "a)" do split there).
 */
static float line_start(const fz_stext_line *l) {
  const fz_stext_char *ch = l->first_char, *t = ch;
  if (!ch) return 0;
  int digits = 0, n = 0;
  if (is_bullet(ch->c))
    t = ch->next, digits = 1;
  else
    for (; t && n < 6 && ((t->c >= '0' && t->c <= '9') || t->c == '.'); t = t->next, n++) digits += t->c != '.';
  if (digits && t && is_js_space(t->c)) {
    while (t && is_js_space(t->c)) t = t->next;
    if (t) return t->origin.x;
  }
  return ch->origin.x;
}

/**
 * Whether newer mupdf starts a new block at line `l` after `prev` : a change of direction,
 * a baseline more than 1.5 font sizes away, or, between 0.8 and 1.5, a text object starting indented by
 * more than half a point from the start of the line above. `split` is 1.21's decision, kept for vertical text.
 */
static int starts_block(const fz_stext_line *prev, const fz_stext_line *l, int split) {
  if (!prev) return 1;
  if (prev->wmode != l->wmode || prev->dir.x * l->dir.x + prev->dir.y * l->dir.y < 0.999f) return 1;
  const fz_stext_char *p = l->first_char, *last = prev->last_char;
  if (l->wmode != 0 || !p || !last || p->size <= 0) return split;
  // the pen after the last character: its origin plus its advance (the quad's baseline edge)
  float pen_x = last->origin.x + last->quad.lr.x - last->quad.ll.x, pen_y = last->origin.y + last->quad.lr.y - last->quad.ll.y;
  float dx = p->origin.x - pen_x, dy = p->origin.y - pen_y;
  float across = fabsf(-l->dir.y * dx + l->dir.x * dy) / p->size;
  if (across < 0.8f) return 0;
  if (across <= 1.5f) return p->origin.x - line_start(prev) > 0.5f;
  return 1;
}

typedef struct {
  napi_value lines;
  uint32_t n;
  fz_rect box;
} block_acc_t;

static int flush_block(napi_env env, const keys_t *k, napi_value blocks, uint32_t *nblocks, block_acc_t *acc) {
  int ok = 1;
  if (acc->lines) {
    napi_value block;
    ok = napi_create_object(env, &block) == napi_ok && set_box(env, k, block, json_box(acc->box)) &&
      napi_set_property(env, block, k->lines, acc->lines) == napi_ok &&
      napi_set_element(env, blocks, (*nblocks)++, block) == napi_ok;
  }
  acc->lines = NULL;
  acc->n = 0;
  acc->box = fz_empty_rect;
  return ok;
}

static napi_value build_page(napi_env env, fz_context *ctx, const keys_t *k, fz_stext_page *st, int number, fz_rect bounds,
  font_metrics_t *m) {
  double width = bounds.x1 - bounds.x0, height = bounds.y1 - bounds.y0, image_area = 0;
  napi_value page, blocks, line;
  uint32_t nblocks = 0;
  text_t t = { NULL, 0, 0 };
  block_acc_t acc = { NULL, 0, fz_empty_rect };
  const fz_stext_line *prev = NULL;
  int ok = napi_create_object(env, &page) == napi_ok && napi_create_array(env, &blocks) == napi_ok;
  for (fz_stext_block *b = st->first_block; ok && b; b = b->next) {
    if (b->type == FZ_STEXT_BLOCK_IMAGE) {
      image_area += clip_area(json_box(b->bbox), width, height);
      ok = flush_block(env, k, blocks, &nblocks, &acc);
      prev = NULL;
      continue;
    }
    if (b->type != FZ_STEXT_BLOCK_TEXT) continue;
    for (fz_stext_line *l = b->u.t.first_line; ok && l; prev = l, l = l->next) {
      if (starts_block(prev, l, l == b->u.t.first_line)) ok = flush_block(env, k, blocks, &nblocks, &acc);
      fz_rect box = line_rect(ctx, l, m);
      // the block's box is the union of its lines' boxes (as mupdf builds it), whitespace-only lines included
      acc.box = fz_union_rect(acc.box, box);
      ok = ok && make_line(env, ctx, k, l, box, &t, &line);
      if (!ok || !line) continue;
      if (!acc.lines) ok = napi_create_array(env, &acc.lines) == napi_ok;
      ok = ok && napi_set_element(env, acc.lines, acc.n++, line) == napi_ok;
    }
  }
  ok = ok && flush_block(env, k, blocks, &nblocks, &acc);
  free(t.data);
  double area = (width > 0 ? width : 0) * (height > 0 ? height : 0);
  double ratio = area > 0 ? fmin(1, image_area / area) : 0;
  ok = ok && napi_set_property(env, page, k->pageNumber, num(env, number)) == napi_ok &&
    napi_set_property(env, page, k->width, num(env, width)) == napi_ok &&
    napi_set_property(env, page, k->height, num(env, height)) == napi_ok &&
    napi_set_property(env, page, k->blocks, blocks) == napi_ok &&
    napi_set_property(env, page, k->imageRatio, num(env, ratio)) == napi_ok;
  return ok ? page : throw_last(env);
}

napi_value extract_page(napi_env env, engine_t *e, const keys_t *k, int number) {
  fz_context *ctx = e->ctx;
  fz_page *page = NULL;
  fz_stext_page *st = NULL;
  fz_device *stext = NULL, *dev = NULL;
  fz_rect bounds = fz_empty_rect;
  // the options of the WASM path's toStructuredText('preserve-whitespace,preserve-images')
  fz_stext_options opts = { FZ_STEXT_PRESERVE_WHITESPACE | FZ_STEXT_PRESERVE_IMAGES, 1 };
  fz_var(page);
  fz_var(st);
  fz_var(stext);
  fz_var(dev);
  fz_var(bounds);
  // fz_new_stext_page_from_page, with page_device.c in front of the text device
  fz_try(ctx) {
    page = fz_load_page(ctx, e->doc, number - 1);
    bounds = fz_bound_page(ctx, page);
    st = fz_new_stext_page(ctx, bounds);
    stext = fz_new_stext_device(ctx, st, &opts);
    dev = new_page_device(ctx, stext, bounds);
    stext = NULL; // owned by dev now
    fz_run_page(ctx, page, dev, fz_identity, e->cookie);
    if (engine_aborted(e)) fz_throw(ctx, FZ_ERROR_GENERIC, "aborted");
    fz_close_device(ctx, dev);
  }
  fz_always(ctx) {
    fz_drop_device(ctx, dev);
    fz_drop_device(ctx, stext);
  }
  fz_catch(ctx) {
    fz_drop_stext_page(ctx, st);
    fz_drop_page(ctx, page);
    return throw_mupdf(env, e);
  }
  font_metrics_t metrics = { 0 };
  font_metrics_collect(ctx, page, &metrics);
  napi_value out = build_page(env, ctx, k, st, number, bounds, &metrics);
  font_metrics_drop(&metrics);
  fz_drop_stext_page(ctx, st);
  fz_drop_page(ctx, page);
  return out;
}
