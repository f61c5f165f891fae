/* present.h -- the image a software GL driver sends to the X server when a
 * frame is shown.  Mesa's software drivers (llvmpipe, softpipe) show a
 * swapped back buffer by sending its pixels to the X server from their own
 * memory: GLX with XShmPutImage (then XSync) or XPutImage, EGL on X11 with
 * xcb_put_image.  Those three functions are interposed here and always
 * forwarded unchanged; only while the calling thread is inside a swap
 * that asked for it (w15_present_expect) is the image looked at: its
 * pixels are hashed where the driver holds them, so a frame digest costs
 * a pass over the frame instead of a glReadPixels copy and a pass
 * (docs/PERFORMANCE.md "Frame digests").  After XShmPutImage the request
 * is flushed first, so the X server copies the frame while it is hashed.
 * XGetGeometry, which the same drivers call when they size a window's
 * buffers, is interposed too, so that the tracer learns a drawable's size
 * from the driver's own question instead of a round trip of its own.
 * Owns the per-thread requests (w15_thread_t's pr_* and pg_* fields) and
 * those interposers.  May use thread, guard, fhash, resolve and log.  Must never
 * use surfaces, context, record or capture: surfaces asks and decides
 * whether a digest taken here may stand for the frame. */
#ifndef W15_PRESENT_H
#define W15_PRESENT_H

#include <stdint.h>

#include "thread.h"

/* Before a GL call (a MakeCurrent, a frame's first draw) in which the
 * driver may ask the X server for drawable's size (Mesa's software
 * drivers call XGetGeometry when they (re)validate a window's buffers):
 * its answer is kept.  After the call, w15_present_geometry: 1 with the
 * size the driver was told (the last time, when several), else 0; the
 * watch ends either way.  The size is the one the driver sized its
 * buffers by, which a separate question of ours could only race. */
void w15_present_watch(w15_thread_t *t, void *dpy, uint64_t drawable);
int w15_present_geometry(w15_thread_t *t, int *w, int *h);

/* Before the real swap: the first image of at least w x h pixels, 32 bits
 * per pixel in little-endian order, placed at (0, 0), that this thread
 * then sends (to display dpy, when not NULL) is hashed as glReadPixels(0,
 * 0, w, h, GL_BGRA, GL_UNSIGNED_BYTE) returns a buffer holding it: rows
 * h-1 down to 0 of the image (the image is top-down), w * 4 bytes each,
 * XXH3-64.  w and h positive. */
void w15_present_expect(w15_thread_t *t, void *dpy, int w, int h);
/* After it: 1 with the digest when such an image was hashed, else 0; the
 * request ends either way. */
int w15_present_take(w15_thread_t *t, uint64_t *digest);

#endif
