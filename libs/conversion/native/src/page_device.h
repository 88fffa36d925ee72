#ifndef LECTERN_PAGE_DEVICE_H
#define LECTERN_PAGE_DEVICE_H
#include <mupdf/fitz.h>

/**
 * A device in front of mupdf's structured-text device `target` (filling a page whose bounds are `mediabox`);
 * see page_device.c. Takes ownership of `target` (dropped with the returned device, after it is closed).
 */
fz_device *new_page_device(fz_context *ctx, fz_device *target, fz_rect mediabox);

#endif
