/* pixels.h -- pixel transfers.  Owns how many bytes a pixel transfer
 * reads or writes in the program's memory (the image's format, type and
 * size under the current context's GL_UNPACK_* / GL_PACK_* store state),
 * and whether a pixel buffer is bound (the pointer is then an offset).
 * May use context.  Must never use record, timing or thread: COMPSIZE
 * helpers (compsize.c) and the recorder ask it. */
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
#endif
