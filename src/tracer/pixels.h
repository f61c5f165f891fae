/* pixels.h -- sizes of pixel transfers under the current context's pixel
 * store state (GL_UNPACK_* / GL_PACK_*) and pixel-buffer bindings.
 * Implemented in src/tracer/pixels.c by the runtime: it knows the current
 * context and its API/version, queries only pnames valid there, never
 * causes a GL error and never changes GL state. */
#ifndef W15_PIXELS_H
#define W15_PIXELS_H
#include <stddef.h>
#include <stdint.h>
/* Bytes the driver reads (pack=0, uploads) or writes (pack=1, readbacks) for
 * a width x height x depth image of `format`/`type`; 0 when unknown. */
size_t w15_image_bytes(int pack, uint32_t format, uint32_t type,
                       int64_t width, int64_t height, int64_t depth);
/* Nonzero when a PIXEL_UNPACK_BUFFER (pack=0) / PIXEL_PACK_BUFFER (pack=1)
 * is bound in the current context: the pointer is then an offset. */
int w15_pixel_buffer_bound(int pack);
/* The current context's API: 0 none or unknown, 1 desktop GL, 2 GLES; and
 * its version (read once per MakeCurrent with the real glGetString). */
int w15_context_api(int *major, int *minor);
#endif
