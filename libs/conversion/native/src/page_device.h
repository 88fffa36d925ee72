#ifndef LECTERN_PAGE_DEVICE_H
#define LECTERN_PAGE_DEVICE_H
#include <mupdf/fitz.h>
#include <mupdf/pdf.h>

/**
 * A device in front of mupdf's structured-text device `target` (filling a page whose bounds are `mediabox`);
 * see page_device.c. Takes ownership of `target` (dropped with the returned device, after it is closed).
 */
fz_device *new_page_device(fz_context *ctx, fz_device *target, fz_rect mediabox);

/** The JPEG 2000 images of a page standing in mupdf's store for the structured-text pass (see page_device.c). */
typedef struct {
  pdf_obj **keys;
  int n, cap;
} jpx_stand_ins_t;

/**
 * Puts a 1x1 stand-in into mupdf's resource store for every JPEG 2000 image XObject of `page` (its resources and
 * its forms', recursively) not already there, so that running the page to the structured-text device does not
 * decode them; `out` records them for `remove_jpx_stand_ins`, which must follow the run (in fz_always).
 */
void put_jpx_stand_ins(fz_context *ctx, fz_page *page, jpx_stand_ins_t *out);
void remove_jpx_stand_ins(fz_context *ctx, jpx_stand_ins_t *ins);

#endif
