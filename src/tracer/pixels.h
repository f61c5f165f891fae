/* pixels.h -- pixel transfers and buffer bindings.  Owns how many bytes a
 * pixel transfer reads or writes in the program's memory (the image's
 * format, type and size under the current context's GL_UNPACK_* /
 * GL_PACK_* store state), and which buffer is bound to the targets that
 * turn pointer arguments into offsets (enum w15_offset_target of
 * apitable.h: pixel pack/unpack, array, element array, indirect, parameter
 * and query buffers), asked of GL only where the current context has the
 * target, so no query raises a GL error.  May use context and resolve.  Must never use
 * record, timing or thread: COMPSIZE helpers (compsize.c) and the recorder
 * ask it. */
#ifndef W15_PIXELS_H
#define W15_PIXELS_H
#include <stddef.h>
#include <stdint.h>

union w15_slot;
/* Bytes the driver reads (pack=0, uploads) or writes (pack=1, readbacks) for
 * a width x height x depth image of `format`/`type`; 0 when unknown.
 * `three_d`: a 3D image (the pixel-store IMAGE_HEIGHT and SKIP_IMAGES
 * apply, whatever the depth). */
size_t w15_image_bytes(int pack, int three_d, uint32_t format, uint32_t type,
                       int64_t width, int64_t height, int64_t depth);
/* Where a packed image's rows lie in the program's memory: `rows` rows of
 * `span` bytes per image, `images` images; the first row at `first` bytes
 * from the pointer, the next ones `row_stride` apart, images `image_stride`
 * apart (docs/FORMAT.md "wip15.spans").  rows == 0: nothing. */
typedef struct w15_layout {
    uint64_t first, row_stride, image_stride, span;
    uint32_t rows, images;
} w15_layout_t;
/* Bytes from the pointer to the end of the last row of l. */
static inline uint64_t w15_layout_extent(const w15_layout_t *l)
{
    return l->first + (uint64_t)(l->images - 1) * l->image_stride + (uint64_t)(l->rows - 1) * l->row_stride +
           l->span;
}
/* w15_image_bytes, also filling *l (when not NULL; bitmaps: the whole
 * extent as one row). */
size_t w15_image_layout(int pack, int three_d, uint32_t format, uint32_t type, int64_t width,
                        int64_t height, int64_t depth, w15_layout_t *l);
/* The layout of the image that read-back function `fn` (a W15F_ index)
 * called with `args` writes into its pixel output under the pack state:
 * 1 with *l set (rows == 0: GL writes nothing), 0 when `fn` is not an image
 * read-back this table knows or the size cannot be told (the whole output
 * then counts as written). */
int w15_readback_layout(uint32_t fn, const union w15_slot *args, w15_layout_t *l);
/* Bytes of one texel of `format`/`type` (clear values: no pixel-store
 * state applies); 0 when unknown. */
size_t w15_texel_bytes(uint32_t format, uint32_t type);
/* Bytes glGetTexImage(target, level, format, type) writes: the level's
 * size (glGetTexLevelParameteriv, asked only for a target and level the
 * current desktop GL context accepts, so no GL error) under the pack
 * state; 0 when unknown (GLES, a target only newer versions or
 * extensions have), W15_CS_REFUSED (below) when GL refuses the call. */
size_t w15_teximage_bytes(uint32_t target, int64_t level, uint32_t format, uint32_t type);
/* glGetTextureImageEXT (multi 0: obj a texture) / glGetMultiTexImageEXT
 * (1: obj a texture unit): the same, asked through GL_EXT_direct_state_
 * access's level queries only when an error of the tracer's would go
 * unseen (no GL_DEBUG_OUTPUT); W15_CS_REFUSED when the level reads 0 x 0
 * (GL wrote nothing), 0 when it cannot be asked. */
size_t w15_teximage_ext_bytes(int multi, uint32_t obj, uint32_t target, int64_t level, uint32_t format,
                              uint32_t type);
/* glGetCompressedTextureImageEXT (multi 0) / glGetCompressedMultiTexImageEXT
 * (1): the extent of what GL writes of the compressed level, asked as
 * w15_teximage_ext_bytes asks; 0 when it cannot be asked so or the level
 * is not compressed. */
size_t w15_compressed_ext_bytes(int multi, uint32_t obj, uint32_t target, int64_t level);
/* What w15_teximage_bytes and w15_compressed_bytes return when GL refuses
 * the target or level whatever the state (an invalid enum, a level out
 * of range) and writes nothing: the read-back is recorded as an empty
 * digest, so a replay makes the call and gets the same error. */
#define W15_CS_REFUSED (SIZE_MAX - 2)
/* glGetCompressedTexImage's output: the extent of what GL writes of level
 * `level` of the texture bound to `target` (GL_TEXTURE_COMPRESSED_IMAGE_SIZE
 * under the default compressed pack state, else the level's blocks laid
 * out by GL_PACK_COMPRESSED_BLOCK_* and the pack state), asked only for a
 * target and level the current desktop GL context accepts (no GL error);
 * W15_CS_REFUSED when GL refuses the target or level (below); 0 when
 * the level is not compressed (GL refuses the call, but that depends on
 * the state) or the size cannot be asked so (w15_readback_layout gives
 * the bytes). */
size_t w15_compressed_bytes(uint32_t target, int64_t level);
/* The name of the buffer bound to offset target `target` (enum
 * w15_offset_target) in the current context, 0 when none, or when the
 * context does not have that target (its version and extensions; once per
 * context) or there is no current context.  One real glGetIntegerv of the
 * target's binding.  Keeps errno. */
uint32_t w15_offset_bound(unsigned target);
/* The GLenum of offset target `target` (GL_ARRAY_BUFFER ...), 0 for none. */
uint32_t w15_offset_target_enum(unsigned target);
#endif
