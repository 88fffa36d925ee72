// A device in front of mupdf 1.21's structured-text device, giving it images as newer mupdf (the WASM build)
// sees them: only the image-area ratio is read from them here.
// - Shadings: 1.21 renders each one to a pixmap over its whole (unclipped) extent, which is slow and fails on
//   some files ("Illegal dimensions for pixmap"); newer mupdf renders it within the clip and the page. Here a
//   shading becomes an image block of that clipped extent without rendering anything (a 1x1 image stretched
//   over it).
// - Images (and image masks) drawn at less than 50% opacity are watermarks or effects: skipped, as newer
//   mupdf does.
// Text goes through untouched. Callbacks call the target's functions directly: the clip stack is kept on this
// device (fz_device_current_scissor), and the target never sees clips it would have to pop.
#include "page_device.h"

typedef struct {
  fz_device super;
  fz_device *target;
  fz_rect mediabox;
  fz_image *dot; // 1x1 image standing for a shading's area
} page_device_t;

#define TARGET(dev) (((page_device_t *)(dev))->target)

static void fill_text(fz_context *ctx, fz_device *dev, const fz_text *text, fz_matrix ctm, fz_colorspace *cs,
  const float *color, float alpha, fz_color_params params) {
  fz_device *t = TARGET(dev);
  if (t->fill_text) t->fill_text(ctx, t, text, ctm, cs, color, alpha, params);
}

static void stroke_text(fz_context *ctx, fz_device *dev, const fz_text *text, const fz_stroke_state *stroke,
  fz_matrix ctm, fz_colorspace *cs, const float *color, float alpha, fz_color_params params) {
  fz_device *t = TARGET(dev);
  if (t->stroke_text) t->stroke_text(ctx, t, text, stroke, ctm, cs, color, alpha, params);
}

static void clip_text(fz_context *ctx, fz_device *dev, const fz_text *text, fz_matrix ctm, fz_rect scissor) {
  fz_device *t = TARGET(dev);
  if (t->clip_text) t->clip_text(ctx, t, text, ctm, scissor);
}

static void clip_stroke_text(fz_context *ctx, fz_device *dev, const fz_text *text, const fz_stroke_state *stroke,
  fz_matrix ctm, fz_rect scissor) {
  fz_device *t = TARGET(dev);
  if (t->clip_stroke_text) t->clip_stroke_text(ctx, t, text, stroke, ctm, scissor);
}

static void ignore_text(fz_context *ctx, fz_device *dev, const fz_text *text, fz_matrix ctm) {
  fz_device *t = TARGET(dev);
  if (t->ignore_text) t->ignore_text(ctx, t, text, ctm);
}

static void fill_image(fz_context *ctx, fz_device *dev, fz_image *img, fz_matrix ctm, float alpha, fz_color_params params) {
  fz_device *t = TARGET(dev);
  if (alpha >= 0.5f && t->fill_image) t->fill_image(ctx, t, img, ctm, alpha, params);
}

static void fill_image_mask(fz_context *ctx, fz_device *dev, fz_image *img, fz_matrix ctm, fz_colorspace *cs,
  const float *color, float alpha, fz_color_params params) {
  fill_image(ctx, dev, img, ctm, alpha, params);
}

static void fill_shade(fz_context *ctx, fz_device *dev, fz_shade *shade, fz_matrix ctm, float alpha, fz_color_params params) {
  page_device_t *p = (page_device_t *)dev;
  fz_rect r = fz_intersect_rect(fz_bound_shade(ctx, shade, ctm), fz_device_current_scissor(ctx, dev));
  r = fz_intersect_rect(r, p->mediabox);
  if (fz_is_empty_rect(r)) return;
  if (!p->dot) {
    fz_pixmap *pix = fz_new_pixmap(ctx, fz_device_gray(ctx), 1, 1, NULL, 0);
    fz_clear_pixmap(ctx, pix);
    fz_try(ctx) p->dot = fz_new_image_from_pixmap(ctx, pix, NULL);
    fz_always(ctx) fz_drop_pixmap(ctx, pix);
    fz_catch(ctx) fz_rethrow(ctx);
  }
  fz_matrix to_rect = { r.x1 - r.x0, 0, 0, r.y1 - r.y0, r.x0, r.y0 };
  fill_image(ctx, dev, p->dot, to_rect, alpha, params);
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
