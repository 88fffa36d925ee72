// One page's structured text (mupdf 1.21) as the RawPage the layout code consumes.
//
// Numbers follow what the WASM path reads from mupdf's own renderings, so both engines feed the layout the
// same kind of values: boxes and the lead font size truncated to integers as mupdf's JSON prints them
// (x, y, w, h), per-line font size rounded to 0.1 pt as its HTML prints it. Style per line: the size carrying
// most non-space characters, bold (monospaced) when at least 95% of them are in a bold (monospaced) font. Character boxes use the
// fonts' descriptor metrics as newer mupdf does (font_metrics.c).
//
// Output: the pages of one `extract` call packed into numbers (a Float64Array) and one UTF-16 string of all
// line texts, which pdf-native.ts turns into RawPage objects: JavaScript object literals cost a fraction of
// building the same objects through N-API property calls. Layout of the numbers, per page:
//   pageNumber, width, height, imageRatio, blockCount, then per block:
//     x0, y0, x1, y1, lineCount, then per line: x0, y0, x1, y1, size, leadSize, style, textLength
// (style: 1 = bold, 2 = monospaced, each when at least 95% of the line's non-space characters are)
#include "engine.h"
#include "font_metrics.h"
#include "page_device.h"
#include <math.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

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

/*
 * fz_rect_from_quad and fz_union_rect inline (the library's pass their structs through memory; per character
 * here): the same comparisons in the same order, so the same boxes.
 */
static inline float min2(float a, float b) {
  return a < b ? a : b;
}
static inline float max2(float a, float b) {
  return a > b ? a : b;
}

static inline fz_rect rect_from_quad(fz_quad q) {
  fz_rect r;
  r.x0 = min2(min2(q.ll.x, q.lr.x), min2(q.ul.x, q.ur.x));
  r.y0 = min2(min2(q.ll.y, q.lr.y), min2(q.ul.y, q.ur.y));
  r.x1 = max2(max2(q.ll.x, q.lr.x), max2(q.ul.x, q.ur.x));
  r.y1 = max2(max2(q.ll.y, q.lr.y), max2(q.ul.y, q.ur.y));
  return r;
}

static inline fz_rect union_rect(fz_rect a, fz_rect b) {
  if (!fz_is_valid_rect(b)) return a;
  if (!fz_is_valid_rect(a)) return b;
  if (fz_is_infinite_rect(a)) return a;
  if (fz_is_infinite_rect(b)) return b;
  if (a.x0 > b.x0) a.x0 = b.x0;
  if (a.y0 > b.y0) a.y0 = b.y0;
  if (a.x1 < b.x1) a.x1 = b.x1;
  if (a.y1 < b.y1) a.y1 = b.y1;
  return a;
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
  return rect_from_quad(q);
}

static fz_rect line_rect(fz_context *ctx, const fz_stext_line *line, font_metrics_t *m) {
  if (line->wmode != 0 || m->n == 0) return line->bbox;
  fz_rect r = fz_empty_rect;
  for (fz_stext_char *ch = line->first_char; ch; ch = ch->next) r = union_rect(r, char_rect(ctx, ch, m));
  return r;
}

static int grow(void **data, size_t *cap, size_t need, size_t item) {
  if (need <= *cap) return 1;
  size_t cap2 = *cap ? *cap * 2 : 1024;
  while (cap2 < need) cap2 *= 2;
  void *d = realloc(*data, cap2 * item);
  if (!d) return 0;
  *data = d;
  *cap = cap2;
  return 1;
}

static int put(packed_t *p, double v) {
  if (!grow((void **)&p->nums, &p->ncap, p->n + 1, sizeof(double))) return 0;
  p->nums[p->n++] = v;
  return 1;
}

/** Appends `c` as UTF-16 (U+FFFD for what is not a code point). */
static int put_char(packed_t *p, int c) {
  if (!grow((void **)&p->text, &p->tcap, p->tn + 2, sizeof(uint16_t))) return 0;
  if (c < 0 || c > 0x10ffff) c = 0xfffd;
  if (c >= 0x10000) {
    c -= 0x10000;
    p->text[p->tn++] = (uint16_t)(0xd800 + (c >> 10));
    p->text[p->tn++] = (uint16_t)(0xdc00 + (c & 0x3ff));
  } else
    p->text[p->tn++] = (uint16_t)c;
  return 1;
}

static int put_box(packed_t *p, ibox_t b) {
  return put(p, b.x) && put(p, b.y) && put(p, b.x + b.w) && put(p, b.y + b.h);
}

#define MAX_SIZES 16

/** Appends a line (see the layout above); *added = 0 when it is skipped (vertical, empty, only whitespace). */
static int put_line(fz_context *ctx, packed_t *p, fz_stext_line *line, fz_rect box, int *added) {
  *added = 0;
  if (line->wmode != 0 || !line->first_char) return 1;
  double sizes[MAX_SIZES];
  int counts[MAX_SIZES], nsizes = 0, total = 0, bold = 0, mono = 0, blank = 1;
  fz_font *font = NULL;
  int font_bold = 0, font_mono = 0;
  float last_size = -1;
  int last_slot = -1;
  size_t text_start = p->tn;
  for (fz_stext_char *ch = line->first_char; ch; ch = ch->next) {
    if (!put_char(p, ch->c)) return 0;
    if (!is_js_space(ch->c)) blank = 0;
    // the HTML rendering writes every character but the ASCII space as one visible character or entity
    if (ch->c == ' ') continue;
    total++;
    if (ch->font != font) {
      font = ch->font;
      font_bold = fz_font_is_bold(ctx, font);
      font_mono = fz_font_is_monospaced(ctx, font);
    }
    bold += font_bold;
    mono += font_mono;
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
  if (blank) {
    p->tn = text_start;
    return 1;
  }
  double lead = (int)line->first_char->size;
  double size = 0;
  int best = -1;
  for (int i = 0; i < nsizes; i++)
    if (counts[i] > best) {
      best = counts[i];
      size = sizes[i];
    }
  *added = 1;
  return put_box(p, json_box(box)) && put(p, size > 0 ? size : lead) && put(p, lead) &&
    put(p, (total > 0 && (double)bold / total >= 0.95) | (total > 0 && (double)mono / total >= 0.95) << 1) &&
    put(p, (double)(p->tn - text_start));
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
  size_t header; // index of the block's first number (x0); lineCount follows the box
  int lines;
  fz_rect box;
} block_acc_t;

/** Starts a block: its box and line count are written when it ends (end_block). */
static int begin_block(packed_t *p, block_acc_t *acc) {
  acc->header = p->n;
  acc->lines = 0;
  acc->box = fz_empty_rect;
  return put(p, 0) && put(p, 0) && put(p, 0) && put(p, 0) && put(p, 0);
}

/** Ends a block; a block without lines is taken back. Returns 1 when a block was kept. */
static int end_block(packed_t *p, block_acc_t *acc) {
  if (acc->lines == 0) {
    p->n = acc->header;
    return 0;
  }
  ibox_t b = json_box(acc->box);
  double *h = p->nums + acc->header;
  h[0] = b.x, h[1] = b.y, h[2] = b.x + b.w, h[3] = b.y + b.h, h[4] = acc->lines;
  return 1;
}

static int put_page(fz_context *ctx, packed_t *p, fz_stext_page *st, int number, fz_rect bounds, font_metrics_t *m) {
  double width = bounds.x1 - bounds.x0, height = bounds.y1 - bounds.y0, image_area = 0;
  size_t header = p->n;
  int blocks = 0, open = 0, added;
  block_acc_t acc = { 0 };
  const fz_stext_line *prev = NULL;
  if (!put(p, number) || !put(p, width) || !put(p, height) || !put(p, 0) || !put(p, 0)) return 0;
  for (fz_stext_block *b = st->first_block; b; b = b->next) {
    if (b->type == FZ_STEXT_BLOCK_IMAGE) {
      image_area += clip_area(json_box(b->bbox), width, height);
      if (open) blocks += end_block(p, &acc), open = 0;
      prev = NULL;
      continue;
    }
    if (b->type != FZ_STEXT_BLOCK_TEXT) continue;
    for (fz_stext_line *l = b->u.t.first_line; l; prev = l, l = l->next) {
      if (!open || starts_block(prev, l, l == b->u.t.first_line)) {
        if (open) blocks += end_block(p, &acc);
        if (!begin_block(p, &acc)) return 0;
        open = 1;
      }
      fz_rect box = line_rect(ctx, l, m);
      // the block's box is the union of its lines' boxes (as mupdf builds it), whitespace-only lines included
      acc.box = union_rect(acc.box, box);
      if (!put_line(ctx, p, l, box, &added)) return 0;
      acc.lines += added;
    }
  }
  if (open) blocks += end_block(p, &acc);
  double area = (width > 0 ? width : 0) * (height > 0 ? height : 0);
  p->nums[header + 3] = area > 0 ? fmin(1, image_area / area) : 0;
  p->nums[header + 4] = blocks;
  return 1;
}

int extract_page(napi_env env, engine_t *e, packed_t *out, int number) {
  fz_context *ctx = e->ctx;
  fz_page *page = NULL;
  fz_stext_page *st = NULL;
  fz_device *stext = NULL, *dev = NULL;
  fz_rect bounds = fz_empty_rect;
  jpx_stand_ins_t stand_ins = { 0 };
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
    put_jpx_stand_ins(ctx, page, &stand_ins);
    fz_run_page(ctx, page, dev, fz_identity, e->cookie);
    if (engine_aborted(e)) fz_throw(ctx, FZ_ERROR_GENERIC, "aborted");
    fz_close_device(ctx, dev);
  }
  fz_always(ctx) {
    remove_jpx_stand_ins(ctx, &stand_ins);
    fz_drop_device(ctx, dev);
    fz_drop_device(ctx, stext);
  }
  fz_catch(ctx) {
    fz_drop_stext_page(ctx, st);
    fz_drop_page(ctx, page);
    throw_mupdf(env, e);
    return 0;
  }
  font_metrics_t metrics = { 0 };
  font_metrics_collect(ctx, page, &metrics);
  int ok = put_page(ctx, out, st, number, bounds, &metrics);
  font_metrics_drop(&metrics);
  fz_drop_stext_page(ctx, st);
  fz_drop_page(ctx, page);
  if (!ok) napi_throw_error(env, NULL, "out of memory");
  return ok;
}
