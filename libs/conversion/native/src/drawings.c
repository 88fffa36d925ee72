// Vector drawing statistics of a page (exploratory: not used by the conversion yet). A device that only
// counts: filled and stroked paths, their path segments, and the page area their boxes cover (clipped to the
// page, overlaps counted twice). CAD-style plans are thousands of stroked segments over most of the page;
// text documents have a few rules and table borders.
#include "engine.h"

typedef struct {
  fz_device super;
  fz_rect page;
  double fills, strokes, segments, area;
} count_device_t;

static void seg_move(fz_context *ctx, void *arg, float x, float y) { (void)ctx, (void)x, (void)y, (void)arg; }
static void seg_line(fz_context *ctx, void *arg, float x, float y) { (void)ctx, (void)x, (void)y; ((count_device_t *)arg)->segments += 1; }
static void seg_curve(fz_context *ctx, void *arg, float a, float b, float c, float d, float x, float y) {
  (void)ctx, (void)a, (void)b, (void)c, (void)d, (void)x, (void)y;
  ((count_device_t *)arg)->segments += 1;
}
static void seg_close(fz_context *ctx, void *arg) { (void)ctx, (void)arg; }
static const fz_path_walker walker = { .moveto = seg_move, .lineto = seg_line, .curveto = seg_curve, .closepath = seg_close };

static void add(fz_context *ctx, count_device_t *d, const fz_path *path, const fz_stroke_state *stroke, fz_matrix ctm) {
  fz_rect r = fz_intersect_rect(fz_bound_path(ctx, path, stroke, ctm), d->page);
  if (!fz_is_empty_rect(r)) d->area += (double)(r.x1 - r.x0) * (r.y1 - r.y0);
  fz_walk_path(ctx, path, &walker, d);
}

static void fill_path(fz_context *ctx, fz_device *dev, const fz_path *path, int even_odd, fz_matrix ctm, fz_colorspace *cs,
  const float *color, float alpha, fz_color_params params) {
  count_device_t *d = (count_device_t *)dev;
  d->fills += 1;
  add(ctx, d, path, NULL, ctm);
}

static void stroke_path(fz_context *ctx, fz_device *dev, const fz_path *path, const fz_stroke_state *stroke, fz_matrix ctm,
  fz_colorspace *cs, const float *color, float alpha, fz_color_params params) {
  count_device_t *d = (count_device_t *)dev;
  d->strokes += 1;
  add(ctx, d, path, stroke, ctm);
}

// drawings(engine, page: number): { fills, strokes, segments, areaRatio }
napi_value page_drawings(napi_env env, engine_t *e, int number) {
  fz_context *ctx = e->ctx;
  fz_page *page = NULL;
  count_device_t *dev = NULL;
  fz_var(page);
  fz_var(dev);
  fz_try(ctx) {
    page = fz_load_page(ctx, e->doc, number - 1);
    dev = fz_new_derived_device(ctx, count_device_t);
    dev->page = fz_bound_page(ctx, page);
    dev->super.fill_path = fill_path;
    dev->super.stroke_path = stroke_path;
    fz_run_page(ctx, page, &dev->super, fz_identity, e->cookie);
    fz_close_device(ctx, &dev->super);
  }
  fz_catch(ctx) {
    fz_drop_device(ctx, &dev->super);
    fz_drop_page(ctx, page);
    return throw_mupdf(env, e);
  }
  double page_area = (double)(dev->page.x1 - dev->page.x0) * (dev->page.y1 - dev->page.y0);
  napi_value out;
  int ok = napi_create_object(env, &out) == napi_ok && napi_set_named_property(env, out, "fills", num(env, dev->fills)) == napi_ok &&
    napi_set_named_property(env, out, "strokes", num(env, dev->strokes)) == napi_ok &&
    napi_set_named_property(env, out, "segments", num(env, dev->segments)) == napi_ok &&
    napi_set_named_property(env, out, "areaRatio", num(env, page_area > 0 ? dev->area / page_area : 0)) == napi_ok;
  fz_drop_device(ctx, &dev->super);
  fz_drop_page(ctx, page);
  return ok ? out : throw_last(env);
}
