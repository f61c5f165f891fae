/* pixels.c -- pixel-transfer sizes under the current context's pixel
 * store state, and the buffer bindings that make pointers offsets
 * (pixels.h).  Pixel store values are read through context.c,
 * only for pnames that exist in the context's API/version, so no query can
 * raise a GL error; we never call glGetError. */
#include "pixels.h"
#include "context.h"
#include "resolve.h"

#include <errno.h>

#include "apitable.h"
#include "funcs.h"

enum {
    GL_UNPACK_ROW_LENGTH = 0x0CF2, GL_UNPACK_SKIP_ROWS = 0x0CF3, GL_UNPACK_SKIP_PIXELS = 0x0CF4,
    GL_UNPACK_ALIGNMENT = 0x0CF5, GL_PACK_ROW_LENGTH = 0x0D02, GL_PACK_SKIP_ROWS = 0x0D03,
    GL_PACK_SKIP_PIXELS = 0x0D04, GL_PACK_ALIGNMENT = 0x0D05,
    GL_PACK_SKIP_IMAGES = 0x806B, GL_PACK_IMAGE_HEIGHT = 0x806C,
    GL_UNPACK_SKIP_IMAGES = 0x806D, GL_UNPACK_IMAGE_HEIGHT = 0x806E,
};

/* Is version major.minor at least a.b? */
static int ver_at_least(int major, int minor, int a, int b)
{
    return major > a || (major == a && minor >= b);
}

/* Per offset target (enum w15_offset_target): its GLenum, its binding's
 * pname, the GL and GLES versions that have it (0: none) and the
 * extensions that bring it to older ones. */
static const struct target_info {
    uint32_t target, binding;
    uint8_t gl_major, gl_minor, es_major, es_minor;
    const char *ext[3];
} targets[W15_OFF_COUNT_] = {
    [W15_OFF_ARRAY_BUFFER] = {0x8892, 0x8894, 1, 5, 1, 1, {"GL_ARB_vertex_buffer_object"}},
    [W15_OFF_ELEMENT_ARRAY_BUFFER] = {0x8893, 0x8895, 1, 5, 1, 1, {"GL_ARB_vertex_buffer_object"}},
    [W15_OFF_PIXEL_PACK_BUFFER] = {0x88EB, 0x88ED, 2, 1, 3, 0,
                                   {"GL_ARB_pixel_buffer_object", "GL_EXT_pixel_buffer_object",
                                    "GL_NV_pixel_buffer_object"}},
    [W15_OFF_PIXEL_UNPACK_BUFFER] = {0x88EC, 0x88EF, 2, 1, 3, 0,
                                     {"GL_ARB_pixel_buffer_object", "GL_EXT_pixel_buffer_object",
                                      "GL_NV_pixel_buffer_object"}},
    [W15_OFF_DRAW_INDIRECT_BUFFER] = {0x8F3F, 0x8F43, 4, 0, 3, 1, {"GL_ARB_draw_indirect"}},
    [W15_OFF_DISPATCH_INDIRECT_BUFFER] = {0x90EE, 0x90EF, 4, 3, 3, 1, {"GL_ARB_compute_shader"}},
    [W15_OFF_PARAMETER_BUFFER] = {0x80EE, 0x80EF, 4, 6, 0, 0, {"GL_ARB_indirect_parameters"}},
    [W15_OFF_QUERY_BUFFER] = {0x9192, 0x9193, 4, 4, 0, 0,
                              {"GL_ARB_query_buffer_object", "GL_AMD_query_buffer_object"}},
};

uint32_t w15_offset_target_enum(unsigned target)
{
    return target < W15_OFF_COUNT_ ? targets[target].target : 0;
}

/* Bits 1 << target of the targets the current context has. */
static uint32_t context_targets(int api, int major, int minor)
{
    uint32_t bits = 0;
    for (unsigned i = 1; i < W15_OFF_COUNT_; i++) {
        const struct target_info *ti = &targets[i];
        int has = api == 1 ? ver_at_least(major, minor, ti->gl_major, ti->gl_minor)
                           : ti->es_major && ver_at_least(major, minor, ti->es_major, ti->es_minor);
        for (unsigned k = 0; !has && k < 3 && ti->ext[k]; k++)
            has = w15_context_has_ext(ti->ext[k]);
        if (has)
            bits |= 1u << i;
    }
    return bits;
}

uint32_t w15_offset_bound(unsigned target)
{
    if (target == 0 || target >= W15_OFF_COUNT_)
        return 0;
    int major = 0, minor = 0, api = w15_context_api(&major, &minor);
    if (!api)
        return 0;
    w15_ctx_t *c = w15_context_current();
    uint32_t bits;
    if (c && (c->targets & W15_TARGETS_KNOWN)) {
        bits = c->targets;
    } else {
        bits = context_targets(api, major, minor);
        if (c)
            c->targets = bits | W15_TARGETS_KNOWN;
    }
    if (!(bits & (1u << target)))
        return 0;
    return (uint32_t)w15_context_get_int(targets[target].binding, 0);
}

/* Components per pixel of a format; 0 unknown. */
static int format_components(uint32_t format)
{
    switch (format) {
    case 0x1900: /* COLOR_INDEX */
    case 0x1901: /* STENCIL_INDEX */
    case 0x1902: /* DEPTH_COMPONENT */
    case 0x1903: /* RED */
    case 0x1904: /* GREEN */
    case 0x1905: /* BLUE */
    case 0x1906: /* ALPHA */
    case 0x1909: /* LUMINANCE */
    case 0x8D94: /* RED_INTEGER */
    case 0x8D95: /* GREEN_INTEGER */
    case 0x8D96: /* BLUE_INTEGER */
    case 0x8D97: /* ALPHA_INTEGER */
    case 0x8D9C: /* LUMINANCE_INTEGER_EXT */
    case 0x8049: /* INTENSITY */
        return 1;
    case 0x190A: /* LUMINANCE_ALPHA */
    case 0x8227: /* RG */
    case 0x8228: /* RG_INTEGER */
    case 0x84F9: /* DEPTH_STENCIL */
    case 0x8D9D: /* LUMINANCE_ALPHA_INTEGER_EXT */
        return 2;
    case 0x1907: /* RGB */
    case 0x80E0: /* BGR */
    case 0x8D98: /* RGB_INTEGER */
    case 0x8D9A: /* BGR_INTEGER */
    case 0x8C40: /* SRGB_EXT (GLES2 EXT_sRGB) */
        return 3;
    case 0x1908: /* RGBA */
    case 0x80E1: /* BGRA */
    case 0x8D99: /* RGBA_INTEGER */
    case 0x8D9B: /* BGRA_INTEGER */
    case 0x8000: /* ABGR_EXT */
    case 0x8C42: /* SRGB_ALPHA_EXT */
        return 4;
    default:
        return 0;
    }
}

/* Bytes of one component of a type, or (packed types) of one whole pixel
 * with *packed set.  0 unknown. */
static int type_size(uint32_t type, int *packed)
{
    *packed = 0;
    switch (type) {
    case 0x1400: case 0x1401: /* BYTE, UNSIGNED_BYTE */
        return 1;
    case 0x1402: case 0x1403: /* SHORT, UNSIGNED_SHORT */
    case 0x140B: case 0x8D61: /* HALF_FLOAT, HALF_FLOAT_OES */
        return 2;
    case 0x1404: case 0x1405: case 0x1406: /* INT, UNSIGNED_INT, FLOAT */
        return 4;
    case 0x140A: /* DOUBLE */
        return 8;
    case 0x8032: case 0x8362: /* UNSIGNED_BYTE_3_3_2, _2_3_3_REV */
        *packed = 1;
        return 1;
    case 0x8363: case 0x8364: /* UNSIGNED_SHORT_5_6_5, _REV */
    case 0x8033: case 0x8365: /* 4_4_4_4, _REV */
    case 0x8034: case 0x8366: /* 5_5_5_1, 1_5_5_5_REV */
        *packed = 1;
        return 2;
    case 0x8035: case 0x8367: /* UNSIGNED_INT_8_8_8_8, _REV */
    case 0x8036: case 0x8368: /* 10_10_10_2, 2_10_10_10_REV */
    case 0x84FA:              /* UNSIGNED_INT_24_8 */
    case 0x8C3B:              /* UNSIGNED_INT_10F_11F_11F_REV */
    case 0x8C3E:              /* UNSIGNED_INT_5_9_9_9_REV */
        *packed = 1;
        return 4;
    case 0x8DAD: /* FLOAT_32_UNSIGNED_INT_24_8_REV */
        *packed = 1;
        return 8;
    default:
        return 0;
    }
}

typedef struct store {
    int64_t align, row_length, skip_rows, skip_pixels, image_height, skip_images;
} store_t;

static void read_store(int pack, int three_d, store_t *s)
{
    s->align = 4;
    s->row_length = s->skip_rows = s->skip_pixels = s->image_height = s->skip_images = 0;
    int major = 0, minor = 0, api = w15_context_api(&major, &minor);
    if (!api)
        return;
    s->align = w15_context_get_int(pack ? GL_PACK_ALIGNMENT : GL_UNPACK_ALIGNMENT, 4);
    int gl = api == 1;
    int es3 = api == 2 && major >= 3;
    if (gl || es3) {
        s->row_length = w15_context_get_int(pack ? GL_PACK_ROW_LENGTH : GL_UNPACK_ROW_LENGTH, 0);
        s->skip_rows = w15_context_get_int(pack ? GL_PACK_SKIP_ROWS : GL_UNPACK_SKIP_ROWS, 0);
        s->skip_pixels = w15_context_get_int(pack ? GL_PACK_SKIP_PIXELS : GL_UNPACK_SKIP_PIXELS, 0);
    }
    /* 3D images: GL 1.2+ both directions, GLES 3.0 unpack only */
    if (three_d && ((gl && ver_at_least(major, minor, 1, 2)) || (es3 && !pack))) {
        s->image_height = w15_context_get_int(pack ? GL_PACK_IMAGE_HEIGHT : GL_UNPACK_IMAGE_HEIGHT, 0);
        s->skip_images = w15_context_get_int(pack ? GL_PACK_SKIP_IMAGES : GL_UNPACK_SKIP_IMAGES, 0);
    }
    if (s->align != 1 && s->align != 2 && s->align != 4 && s->align != 8)
        s->align = 4;
    if (s->row_length < 0) s->row_length = 0;
    if (s->skip_rows < 0) s->skip_rows = 0;
    if (s->skip_pixels < 0) s->skip_pixels = 0;
    if (s->image_height < 0) s->image_height = 0;
    if (s->skip_images < 0) s->skip_images = 0;
}

/* Largest level of a texture of at most `max` texels per side. */
static int64_t max_level(int max)
{
    int64_t l = 0;
    while (max > 1) {
        max >>= 1;
        l++;
    }
    return l;
}

typedef void (*get_tex_level_fn)(uint32_t, int, uint32_t, int *);
typedef unsigned char (*is_texture_fn)(uint32_t);
typedef void (*get_texture_param_fn)(uint32_t, uint32_t, int *);

/* The real function `name`, NULL when the tracer cannot call it. */
static void *real_fn(const char *name)
{
    int id = w15_func_lookup(name);
    return id < 0 ? NULL : W15_REAL((uint32_t)id);
}

/* How an image of a texture `target` is read back in a desktop GL
 * major.minor context: 1 with *dims (1-3), the size limit *maxp to ask
 * and *rect (level 0 only), or 0 when the target cannot be read so.
 * `whole_cube`: GL_TEXTURE_CUBE_MAP itself (glGetTextureImage reads its
 * six faces; glGetTexImage takes a face). */
static int target_shape(uint32_t target, int major, int minor, int whole_cube, int *dims, int *maxp,
                        int *rect)
{
    enum { MAX_TEXTURE_SIZE = 0x0D33, MAX_3D = 0x8073, MAX_CUBE = 0x851C };
    *maxp = MAX_TEXTURE_SIZE, *rect = 0;
    switch (target) {
    case 0x0DE0: *dims = 1; return 1;                                 /* TEXTURE_1D */
    case 0x0DE1: *dims = 2; return 1;                                 /* TEXTURE_2D */
    case 0x806F: *dims = 3; *maxp = MAX_3D; return ver_at_least(major, minor, 1, 2); /* TEXTURE_3D */
    case 0x8513:                                                      /* CUBE_MAP */
        *dims = 2; *maxp = MAX_CUBE;
        return whole_cube;
    case 0x8515: case 0x8516: case 0x8517: case 0x8518: case 0x8519: case 0x851A: /* cube faces */
        *dims = 2; *maxp = MAX_CUBE;
        return !whole_cube && ver_at_least(major, minor, 1, 3);
    case 0x8C18: *dims = 2; return ver_at_least(major, minor, 3, 0); /* 1D_ARRAY */
    case 0x8C1A: *dims = 3; return ver_at_least(major, minor, 3, 0); /* 2D_ARRAY */
    case 0x84F5: *dims = 2; *rect = 1; return ver_at_least(major, minor, 3, 1); /* RECTANGLE */
    case 0x9009: *dims = 3; *maxp = MAX_CUBE; return ver_at_least(major, minor, 4, 0); /* CUBE_MAP_ARRAY */
    default:
        return 0;
    }
}

/* Whether `level` exists for a target of that shape (else GL raises an
 * error and the tracer asks nothing). */
static int level_ok(int64_t level, int maxp, int rect)
{
    return level >= 0 && (rect ? level == 0 : level <= max_level(w15_context_get_int((unsigned)maxp, 0)));
}

enum { TEX_WIDTH = 0x1000, TEX_HEIGHT = 0x1001, TEX_DEPTH = 0x8071, TEX_COMPRESSED_IMAGE_SIZE = 0x86A0,
       TEX_COMPRESSED = 0x86A1 };

/* One parameter of level `level` of `obj`: a target (glGetTexLevelParameteriv)
 * or a texture name (glGetTextureLevelParameteriv), the same C shape. */
static int level_param(get_tex_level_fn get, uint32_t obj, int level, uint32_t pname)
{
    int v = 0;
    get(obj, level, pname, &v);
    return v;
}

/* The level's width, height and depth (1 past its dims). */
static void level_dims(get_tex_level_fn get, uint32_t obj, int level, int dims, int *w, int *h, int *d)
{
    *w = level_param(get, obj, level, TEX_WIDTH);
    *h = dims >= 2 ? level_param(get, obj, level, TEX_HEIGHT) : 1;
    *d = dims >= 3 ? level_param(get, obj, level, TEX_DEPTH) : 1;
}

/* The compressed level's bytes, or -1 when it is not compressed (GL then
 * refuses the size query, as it refuses the read: GL_INVALID_OPERATION). */
static int level_compressed_size(get_tex_level_fn get, uint32_t obj, int level)
{
    if (!level_param(get, obj, level, TEX_COMPRESSED))
        return -1;
    int size = level_param(get, obj, level, TEX_COMPRESSED_IMAGE_SIZE);
    return size > 0 ? size : 0;
}

/* The size of level `level` of the texture bound to `target`, asked of GL
 * only for a desktop GL target and level the context accepts (no GL
 * error): 1 with *w, *h, *d set, and *three (a 3D, 2D array or cube map
 * array target: GL packs it as a 3D image, GL_PACK_SKIP_IMAGES and
 * GL_PACK_IMAGE_HEIGHT apply whatever its depth), else 0. */
static int teximage_dims(uint32_t target, int64_t level, int *w, int *h, int *d, int *three)
{
    int major = 0, minor = 0, dims, maxp, rect;
    if (w15_context_api(&major, &minor) != 1)
        return 0; /* glGetTexImage is desktop GL only */
    if (!target_shape(target, major, minor, 0, &dims, &maxp, &rect) || !level_ok(level, maxp, rect))
        return 0;
    get_tex_level_fn get = (get_tex_level_fn)real_fn("glGetTexLevelParameteriv");
    if (!get)
        return 0;
    int e = errno;
    level_dims(get, target, (int)level, dims, w, h, d);
    *three = dims == 3;
    errno = e;
    return 1;
}

/* The compressed pack state of GL_ARB_compressed_texture_pixel_storage
 * (GL 4.2): pack[] = GL_PACK_COMPRESSED_BLOCK_WIDTH, _HEIGHT, _DEPTH,
 * _SIZE (all 0 where the context has none).  1 when it is the default (all
 * 0: compressed images are packed as GL stores them), else 0 (blocks laid
 * out with their own strides: compressed_pack_layout). */
static int compressed_pack(int major, int minor, int64_t pack[4])
{
    static const unsigned pn[4] = {0x912B, 0x912C, 0x912D, 0x912E};
    int dflt = 1;
    int has = ver_at_least(major, minor, 4, 2) || w15_context_has_ext("GL_ARB_compressed_texture_pixel_storage");
    for (int k = 0; k < 4; k++) {
        pack[k] = has ? w15_context_get_int(pn[k], 0) : 0;
        dflt &= pack[k] == 0;
    }
    return dflt;
}

/* glGetCompressedTexImage(target, level): 1 with *l = where GL writes the
 * level (target_compressed_layout; empty when the level is not compressed:
 * GL refuses with GL_INVALID_OPERATION), else 0: not a desktop GL >= 1.3
 * target and level the context accepts (GL refuses, nothing is asked), or
 * a layout the tracer does not model.  Defined below. */
static int target_compressed_layout(uint32_t target, int64_t level, w15_layout_t *l);

static int teximage_refused(uint32_t target, int64_t level);

/* The bytes a whole compressed level's layout covers (`ok`: the layout was
 * found): W15_CS_REFUSED for the empty layout of a level that is not
 * compressed (GL refuses the call and writes nothing), 0 when unknown. */
static size_t compressed_level_bytes(int ok, const w15_layout_t *l)
{
    if (!ok)
        return 0;
    if (!l->rows && !l->span)
        return W15_CS_REFUSED;
    if (!l->rows || !l->images || !l->span)
        return 0;
    return (size_t)w15_layout_extent(l);
}

/* compressed_layout's answer r as the *_compressed_layout functions give
 * it: 1 with *l, empty when the level is not compressed (GL refuses the
 * call), else 0. */
static int empty_if_refused(int r, w15_layout_t *l)
{
    if (r < 0) {
        *l = (w15_layout_t){0};
        return 1;
    }
    return r > 0;
}

size_t w15_compressed_bytes(uint32_t target, int64_t level)
{
    w15_layout_t l;
    int major = 0, minor = 0;
    if (w15_context_api(&major, &minor) == 1 && ver_at_least(major, minor, 1, 3) &&
        teximage_refused(target, level))
        return W15_CS_REFUSED;
    return compressed_level_bytes(target_compressed_layout(target, level, &l), &l);
}

/* Whether a GL error the tracer raises right after the program's call
 * would go unseen: GL keeps the first error until glGetError, so after a
 * call GL refused the program's error stays the one it reads, and only a
 * debug message would tell (none without GL_DEBUG_OUTPUT, which needs GL
 * 4.3 or GL_KHR_debug to be asked).  A read-back that GL accepted makes
 * the same level queries valid. */
static int errors_unseen(int major, int minor)
{
    enum { DEBUG_OUTPUT = 0x92E0 };
    if (!ver_at_least(major, minor, 4, 3) && !w15_context_has_ext("GL_KHR_debug") &&
        !w15_context_has_ext("GL_ARB_debug_output"))
        return 1;
    if (!ver_at_least(major, minor, 4, 3) && !w15_context_has_ext("GL_KHR_debug"))
        return 0; /* ARB_debug_output: no switch to ask */
    return w15_context_get_int(DEBUG_OUTPUT, 1) == 0;
}

/* Whether a desktop GL major.minor context answers GL_TEXTURE_TARGET: GL
 * >= 4.5 core (Mesa refuses it in compatibility profiles). */
static int target_known(int major, int minor)
{
    return ver_at_least(major, minor, 4, 5) && !w15_context_compat();
}

/* target_known for the current context. */
static int texture_target_known(void)
{
    int major = 0, minor = 0;
    return w15_context_api(&major, &minor) == 1 && target_known(major, minor);
}

/* Level `level` of texture object `tex` as glGetTextureImage and
 * glGetCompressedTextureImage read it: glGetTextureLevelParameteriv when
 * the level can be asked of it without a GL error, else NULL; *faces (6:
 * a cube map's faces are its images) and *dims.  Only for a name
 * glIsTexture knows (it raises no error), and:
 *  - in a GL >= 4.5 core context, the texture's target is asked
 *    (glGetTextureParameteriv(GL_TEXTURE_TARGET)) and the level checked;
 *  - elsewhere Mesa refuses GL_TEXTURE_TARGET (GL_INVALID_ENUM, though GL
 *    4.5 has it in both profiles), and which levels exist depends on the
 *    target: level 0 (every target has it), or another level when an
 *    error of ours would go unseen (errors_unseen: these queries come
 *    after the program's call and are valid when its call was); width,
 *    height and depth; for a cube map that is its first face, a prefix of
 *    what GL writes (the digest then covers that face: docs/FORMAT.md).
 * May change errno. */
static get_tex_level_fn texture_level(uint32_t tex, int64_t level, int *faces, int *dims)
{
    enum { TEXTURE_TARGET = 0x1006, TEXTURE_CUBE_MAP = 0x8513 };
    int major = 0, minor = 0, maxp, rect, target = 0;
    if (w15_context_api(&major, &minor) != 1)
        return NULL;
    int core = target_known(major, minor);
    if (!core && level != 0 && !errors_unseen(major, minor))
        return NULL;
    is_texture_fn is = (is_texture_fn)real_fn("glIsTexture");
    get_texture_param_fn getp = (get_texture_param_fn)real_fn("glGetTextureParameteriv");
    get_tex_level_fn getl = (get_tex_level_fn)real_fn("glGetTextureLevelParameteriv");
    if (!is || !getp || !getl || !is(tex))
        return NULL;
    *dims = 3;
    if (core) {
        getp(tex, TEXTURE_TARGET, &target);
        if (!target_shape((uint32_t)target, major, minor, 1, dims, &maxp, &rect) || !level_ok(level, maxp, rect))
            return NULL;
    }
    *faces = target == TEXTURE_CUBE_MAP ? 6 : 1;
    return getl;
}

/* glGetTextureImage: the level's width, height and depth (a cube map's
 * six faces as depth 6), 1; or 0 (texture_level).  *three: packed as a 3D
 * image (teximage_dims); where the target is not known (compatibility
 * profiles), when the depth is more than 1. */
static int textureimage_dims(uint32_t tex, int64_t level, int *w, int *h, int *d, int *three)
{
    int e = errno, faces, dims;
    get_tex_level_fn get = texture_level(tex, level, &faces, &dims);
    if (get) {
        level_dims(get, tex, (int)level, dims, w, h, d);
        if (faces == 6)
            *d = 6;
        *three = (dims == 3 && texture_target_known()) || *d > 1;
    }
    errno = e;
    return get != NULL;
}

/* glGetTextureSubImage: whether texture `tex` is packed as a 3D image
 * (teximage_dims): its target where it can be asked (texture_level: a GL
 * >= 4.5 core context); elsewhere 1 when its level 0 has a depth above 1
 * (a 3D texture or an array), else -1: not known. */
static int texture_3d(uint32_t tex, int64_t level)
{
    int e = errno, faces, dims, r = -1;
    get_tex_level_fn get;
    if (texture_target_known()) {
        if ((get = texture_level(tex, level, &faces, &dims)))
            r = dims == 3;
    } else if ((get = texture_level(tex, 0, &faces, &dims)) && level_param(get, tex, 0, TEX_DEPTH) > 1) {
        r = 1;
    }
    errno = e;
    return r;
}

/* The block of a specific compressed internal format, in texels: 4 x 4
 * for S3TC (and its sRGB forms), LATC, RGTC, BPTC, ETC1, ETC2/EAC, ATC and
 * 3Dc; FXT1 8 x 4; the 2D ASTC sizes.  0 for anything else (ASTC 3D,
 * PVRTC with its minimum sizes, vendor formats): not modelled.  (GL cannot
 * be asked: GL_TEXTURE_COMPRESSED_BLOCK_WIDTH is "in bytes" in
 * ARB_internalformat_query2, and Mesa answers 2 for RGTC1's 4-texel block.) */
static int compressed_block(uint32_t f, int *bw, int *bh)
{
    static const uint8_t astc[14][2] = {{4, 4}, {5, 4}, {5, 5}, {6, 5}, {6, 6}, {8, 5}, {8, 6},
                                        {8, 8}, {10, 5}, {10, 6}, {10, 8}, {10, 10}, {12, 10}, {12, 12}};
    if ((f >= 0x83F0 && f <= 0x83F3) || (f >= 0x8C4C && f <= 0x8C4F) || (f >= 0x8C70 && f <= 0x8C73) ||
        (f >= 0x8DBB && f <= 0x8DBE) || (f >= 0x8E8C && f <= 0x8E8F) || f == 0x8D64 ||
        (f >= 0x9270 && f <= 0x9279) || f == 0x8C92 || f == 0x8C93 || f == 0x87EE || f == 0x8837) {
        *bw = *bh = 4;
        return 1;
    }
    if (f == 0x86B0 || f == 0x86B1) { /* FXT1 */
        *bw = 8, *bh = 4;
        return 1;
    }
    if ((f >= 0x93B0 && f <= 0x93BD) || (f >= 0x93D0 && f <= 0x93DD)) {
        *bw = astc[f & 0xF][0], *bh = astc[f & 0xF][1];
        return 1;
    }
    return 0;
}

/* Where GL writes a width x height x depth region of compressed blocks
 * (bw x bh texels, bs bytes each) under a non-default compressed pack
 * state (GL_ARB_compressed_texture_pixel_storage), as Mesa lays it out:
 * rows of whole blocks, ceil(width / bw) * bs bytes; the row stride
 * from GL_PACK_ROW_LENGTH in units of GL_PACK_COMPRESSED_BLOCK_WIDTH;
 * GL_PACK_SKIP_PIXELS / _ROWS / _IMAGES converted to bytes through the
 * pack block sizes (pack[]: compressed_pack; images only for a 3D image,
 * `three`). */
static void compressed_pack_layout(const int64_t pack[4], int three, int64_t w, int64_t h, int64_t d, int bw,
                                   int bh, uint64_t bs, w15_layout_t *l)
{
    int64_t pbw = pack[0], pbh = pack[1], pbd = pack[2], pbs = pack[3];
    uint64_t span = (uint64_t)((w + bw - 1) / bw) * bs, rows = (uint64_t)((h + bh - 1) / bh);
    uint64_t row = span, slice_rows = rows, skip = 0;
    if (pbw > 0 && pbs > 0) {
        int64_t rl = w15_context_get_int(GL_PACK_ROW_LENGTH, 0), sp = w15_context_get_int(GL_PACK_SKIP_PIXELS, 0);
        if (rl > 0)
            row = (uint64_t)pbs * (uint64_t)((rl + pbw - 1) / pbw);
        if (sp > 0)
            skip += (uint64_t)sp * (uint64_t)pbs / (uint64_t)pbw;
    }
    if (pbh > 0 && pbs > 0) {
        int64_t sr = w15_context_get_int(GL_PACK_SKIP_ROWS, 0), ih = w15_context_get_int(GL_PACK_IMAGE_HEIGHT, 0);
        if (sr > 0)
            skip += (uint64_t)sr * row / (uint64_t)pbh;
        rows = (uint64_t)((h + pbh - 1) / pbh);
        if (ih > 0)
            slice_rows = (uint64_t)((ih + pbh - 1) / pbh);
    }
    if (three && pbd > 0 && pbs > 0) {
        int64_t si = w15_context_get_int(GL_PACK_SKIP_IMAGES, 0);
        if (si > 0)
            skip += (uint64_t)si * row * slice_rows / (uint64_t)pbd;
    }
    *l = (w15_layout_t){skip, row, row * slice_rows, span, (uint32_t)rows, (uint32_t)d};
}

/* Where GL writes a width x height x depth region of compressed level
 * `level` of `obj` (a target or a texture name, asked through `get`, of
 * `dims` dimensions and `faces` images per layer: texture_level), or with
 * w < 0 the whole level (all faces).  Whole blocks of the level's format
 * (compressed_block), a depth of cube map faces or array layers counting
 * whole, a block's bytes being the level's GL_TEXTURE_COMPRESSED_IMAGE_SIZE
 * over its number of blocks; packed tight under the default compressed
 * pack state (the whole level is then its size, whatever the format),
 * else as compressed_pack_layout says (`three`: packed as a 3D image; -1:
 * texture_3d tells).  1 with *l; -1 when the level is not compressed (GL
 * refuses the call and writes nothing); 0 when the format's block is not
 * modelled or the sizes do not add up. */
static int compressed_layout(get_tex_level_fn get, uint32_t obj, int64_t level, int dims, int faces, int three,
                             int64_t w, int64_t h, int64_t d, w15_layout_t *l)
{
    enum { INTERNAL_FORMAT = 0x1003 };
    int bw, bh, lw, lh, ld, major = 0, minor = 0;
    int64_t pack[4];
    int size = level_compressed_size(get, obj, (int)level);
    if (size <= 0)
        return size < 0 ? -1 : 0;
    w15_context_api(&major, &minor);
    int dflt = compressed_pack(major, minor, pack);
    if (w < 0 && dflt) {
        uint64_t n = (uint64_t)size * (uint64_t)faces;
        *l = (w15_layout_t){0, n, n, n, 1, 1};
        return 1;
    }
    if (!compressed_block((uint32_t)level_param(get, obj, (int)level, INTERNAL_FORMAT), &bw, &bh))
        return 0;
    level_dims(get, obj, (int)level, dims, &lw, &lh, &ld);
    if (lw <= 0 || lh <= 0 || ld <= 0)
        return 0;
    uint64_t blocks = (uint64_t)((lw + bw - 1) / bw) * (uint64_t)((lh + bh - 1) / bh) * (uint64_t)ld;
    if (size % blocks)
        return 0;
    uint64_t bs = size / blocks;
    if (w < 0)
        w = lw, h = lh, d = (int64_t)ld * faces;
    if (w <= 0 || h <= 0 || d <= 0 || w > INT32_MAX || h > INT32_MAX || d > INT32_MAX)
        return 0;
    if (dflt) {
        uint64_t n = (uint64_t)((w + bw - 1) / bw) * (uint64_t)((h + bh - 1) / bh) * (uint64_t)d * bs;
        *l = (w15_layout_t){0, n, n, n, 1, 1};
    } else {
        if (three < 0)
            three = texture_3d(obj, level) == 1;
        compressed_pack_layout(pack, three, w, h, d, bw, bh, bs, l);
    }
    return 1;
}

/* glGetCompressedTextureImage (w < 0) and glGetCompressedTextureSubImage:
 * compressed_layout of texture `tex`, for the levels texture_level can
 * ask.  1 with *l (empty when the level is not compressed: GL refuses the
 * call), else 0. */
static int texture_compressed_layout(uint32_t tex, int64_t level, int64_t w, int64_t h, int64_t d, w15_layout_t *l)
{
    int e = errno, faces, dims, r = 0;
    get_tex_level_fn get = texture_level(tex, level, &faces, &dims);
    if (get)
        r = compressed_layout(get, tex, level, dims, faces, -1, w, h, d, l);
    errno = e;
    return empty_if_refused(r, l);
}

static int target_compressed_layout(uint32_t target, int64_t level, w15_layout_t *l)
{
    int major = 0, minor = 0, dims, maxp, rect, r = 0;
    if (w15_context_api(&major, &minor) != 1 || !ver_at_least(major, minor, 1, 3))
        return 0; /* glGetCompressedTexImage: desktop GL 1.3 */
    if (!target_shape(target, major, minor, 0, &dims, &maxp, &rect) || !level_ok(level, maxp, rect))
        return 0;
    get_tex_level_fn get = (get_tex_level_fn)real_fn("glGetTexLevelParameteriv");
    if (!get)
        return 0;
    int e = errno;
    r = compressed_layout(get, target, level, dims, 1, dims == 3, -1, -1, -1, l);
    errno = e;
    return empty_if_refused(r, l);
}

/* GL_EXT_direct_state_access's level queries take the texture (or texture
 * unit) and the target: glGetTextureLevelParameterivEXT,
 * glGetMultiTexLevelParameterivEXT, seen through get_tex_level_fn by
 * ext_level_param with the target here (this thread's). */
typedef void (*get_ext_level_fn)(uint32_t, uint32_t, int, uint32_t, int *);
static __thread get_ext_level_fn ext_level_get;
static __thread uint32_t ext_level_target;

static void ext_level_param(uint32_t obj, int level, uint32_t pname, int *v)
{
    ext_level_get(obj, ext_level_target, level, pname, v);
}

/* GL_EXT_direct_state_access read-backs of level `level` of (`obj`,
 * `target`): glGetTextureImageEXT and glGetCompressedTextureImageEXT
 * (`multi` 0: obj a texture), glGetMultiTexImageEXT and
 * glGetCompressedMultiTexImageEXT (1: obj a texture unit).  The level's
 * getter (ext_level_param, set up for `target`) and *dims, asked only for
 * a desktop GL target and level the context accepts and when an error of
 * the tracer's would go unseen (errors_unseen: the queries come after the
 * program's call with the same texture, target and level, so they are
 * valid when its call was; when GL refused it, they read 0 x 0 and GL
 * wrote nothing); else NULL. */
static get_tex_level_fn ext_texture_level(int multi, uint32_t target, int64_t level, int *dims)
{
    int major = 0, minor = 0, maxp, rect;
    if (w15_context_api(&major, &minor) != 1 || !errors_unseen(major, minor))
        return NULL;
    if (!target_shape(target, major, minor, 0, dims, &maxp, &rect) || !level_ok(level, maxp, rect))
        return NULL;
    get_ext_level_fn f =
        (get_ext_level_fn)real_fn(multi ? "glGetMultiTexLevelParameterivEXT" : "glGetTextureLevelParameterivEXT");
    if (!f)
        return NULL;
    ext_level_get = f;
    ext_level_target = target;
    return ext_level_param;
}

/* glGetTextureImageEXT / glGetMultiTexImageEXT: the level's width, height
 * and depth (ext_texture_level).  1 with *w, *h, *d, *three; else 0. */
static int ext_teximage_dims(int multi, uint32_t obj, uint32_t target, int64_t level, int *w, int *h, int *d,
                             int *three)
{
    int e = errno, dims;
    get_tex_level_fn get = ext_texture_level(multi, target, level, &dims);
    if (get) {
        level_dims(get, obj, (int)level, dims, w, h, d);
        *three = dims == 3;
    }
    errno = e;
    return get != NULL;
}

size_t w15_teximage_ext_bytes(int multi, uint32_t obj, uint32_t target, int64_t level, uint32_t format,
                              uint32_t type)
{
    int w, h, d, three;
    if (!ext_teximage_dims(multi, obj, target, level, &w, &h, &d, &three))
        return 0;
    if (w <= 0 || h <= 0 || d <= 0)
        return W15_CS_REFUSED; /* no such level, or GL refused the call: it wrote nothing */
    return w15_image_bytes(1, three, format, type, w, h, d);
}

/* glGetCompressedTextureImageEXT / glGetCompressedMultiTexImageEXT: 1 with
 * *l = where GL writes the compressed level (compressed_layout through
 * ext_texture_level; empty when the level is not compressed: GL refuses
 * the call); 0 when it cannot be asked so or its layout is not modelled. */
static int ext_compressed_layout(int multi, uint32_t obj, uint32_t target, int64_t level, w15_layout_t *l)
{
    int e = errno, dims, r = 0;
    get_tex_level_fn get = ext_texture_level(multi, target, level, &dims);
    if (get)
        r = compressed_layout(get, obj, level, dims, 1, dims == 3, -1, -1, -1, l);
    errno = e;
    return empty_if_refused(r, l);
}

size_t w15_compressed_ext_bytes(int multi, uint32_t obj, uint32_t target, int64_t level)
{
    w15_layout_t l;
    return compressed_level_bytes(ext_compressed_layout(multi, obj, target, level, &l), &l);
}

/* glGetTexImage and glGetCompressedTexImage: whether GL refuses (target,
 * level) whatever the state, so the call writes nothing: a target no
 * version of desktop GL reads so (GL_INVALID_ENUM: GL_TEXTURE_CUBE_MAP
 * itself, a proxy, a GLES-only target), or a level below 0 or above the
 * last one of a target the context has (GL_INVALID_VALUE).  A target
 * that an extension could bring to an older context is never called
 * refused. */
static int teximage_refused(uint32_t target, int64_t level)
{
    int major = 0, minor = 0, dims, maxp, rect;
    if (w15_context_api(&major, &minor) != 1)
        return 0;
    /* target_shape of a version past every GL: the targets some version reads */
    if (!target_shape(target, 99, 0, 0, &dims, &maxp, &rect) || level < 0)
        return 1;
    return target_shape(target, major, minor, 0, &dims, &maxp, &rect) && !level_ok(level, maxp, rect);
}

size_t w15_teximage_bytes(uint32_t target, int64_t level, uint32_t format, uint32_t type)
{
    int w, h, d, three;
    if (teximage_dims(target, level, &w, &h, &d, &three))
        return w15_image_bytes(1, three, format, type, w, h, d);
    return teximage_refused(target, level) ? W15_CS_REFUSED : 0;
}

/* The image read-backs: where their arguments say the image's format,
 * type and size (-1: absent), or (level, target) or (level, texture)
 * whose size GL is asked. */
static const struct readback {
    uint32_t fn;
    int8_t format, type, width, height, depth, target, level, texture;
} readbacks[] = {
    {W15F_glReadPixels, 4, 5, 2, 3, -1, -1, -1, -1},
    {W15F_glReadnPixels, 4, 5, 2, 3, -1, -1, -1, -1},
    {W15F_glReadnPixelsARB, 4, 5, 2, 3, -1, -1, -1, -1},
    {W15F_glReadnPixelsEXT, 4, 5, 2, 3, -1, -1, -1, -1},
    {W15F_glReadnPixelsKHR, 4, 5, 2, 3, -1, -1, -1, -1},
    /* the texture (with width, height, depth): only whether it is 3D */
    {W15F_glGetTextureSubImage, 8, 9, 5, 6, 7, -1, 1, 0},
    {W15F_glGetTexImage, 2, 3, -1, -1, -1, 0, 1, -1},
    {W15F_glGetnTexImage, 2, 3, -1, -1, -1, 0, 1, -1},
    {W15F_glGetnTexImageARB, 2, 3, -1, -1, -1, 0, 1, -1},
    {W15F_glGetTextureImage, 2, 3, -1, -1, -1, -1, 1, 0},
    /* GL_EXT_direct_state_access: a texture (or texture unit) and a target */
    {W15F_glGetTextureImageEXT, 3, 4, -1, -1, -1, 1, 2, 0},
    {W15F_glGetMultiTexImageEXT, 3, 4, -1, -1, -1, 1, 2, 0},
    /* format -1: compressed, the level's GL_TEXTURE_COMPRESSED_IMAGE_SIZE,
     * or with width/height/depth the region's whole blocks */
    {W15F_glGetCompressedTexImage, -1, -1, -1, -1, -1, 0, 1, -1},
    {W15F_glGetCompressedTexImageARB, -1, -1, -1, -1, -1, 0, 1, -1},
    {W15F_glGetCompressedTextureImage, -1, -1, -1, -1, -1, -1, 1, 0},
    {W15F_glGetCompressedTextureImageEXT, -1, -1, -1, -1, -1, 1, 2, 0},
    {W15F_glGetCompressedMultiTexImageEXT, -1, -1, -1, -1, -1, 1, 2, 0},
    {W15F_glGetCompressedTextureSubImage, -1, -1, 5, 6, 7, -1, 1, 0},
};

int w15_readback_layout(uint32_t fn, const w15_slot_t *a, w15_layout_t *l)
{
    for (size_t k = 0; k < sizeof readbacks / sizeof readbacks[0]; k++) {
        const struct readback *r = &readbacks[k];
        if (r->fn != fn)
            continue;
        int64_t w, h = 1, d = 1;
        if (r->format < 0 && r->width < 0 && r->target >= 0 && r->texture >= 0)
            return ext_compressed_layout(fn == W15F_glGetCompressedMultiTexImageEXT, (uint32_t)a[r->texture].u,
                                         (uint32_t)a[r->target].u, a[r->level].i, l);
        if (r->format < 0 && r->width < 0)
            return r->target >= 0 ? target_compressed_layout((uint32_t)a[r->target].u, a[r->level].i, l)
                                  : texture_compressed_layout((uint32_t)a[r->texture].u, a[r->level].i, -1, -1,
                                                              -1, l);
        if (r->format < 0) {
            int64_t sw = (int32_t)a[r->width].i, sh = (int32_t)a[r->height].i, sd = (int32_t)a[r->depth].i;
            if (sw == 0 || sh == 0 || sd == 0) {
                *l = (w15_layout_t){0}; /* an empty region: GL writes nothing */
                return 1;
            }
            return texture_compressed_layout((uint32_t)a[r->texture].u, a[r->level].i, sw, sh, sd, l);
        }
        int three = -1;
        if (r->width < 0) {
            int iw, ih, id;
            int ok = r->target >= 0 && r->texture >= 0
                         ? ext_teximage_dims(fn == W15F_glGetMultiTexImageEXT, (uint32_t)a[r->texture].u,
                                             (uint32_t)a[r->target].u, a[r->level].i, &iw, &ih, &id, &three)
                     : r->target >= 0
                         ? teximage_dims((uint32_t)a[r->target].u, a[r->level].i, &iw, &ih, &id, &three)
                         : textureimage_dims((uint32_t)a[r->texture].u, a[r->level].i, &iw, &ih, &id, &three);
            if (!ok)
                return 0;
            w = iw, h = ih, d = id;
        } else {
            w = (int32_t)a[r->width].i;
            if (r->height >= 0)
                h = (int32_t)a[r->height].i;
            if (r->depth >= 0)
                d = (int32_t)a[r->depth].i;
        }
        if (w == 0 || h == 0 || d == 0) {
            *l = (w15_layout_t){0}; /* an empty image: GL writes nothing */
            return 1;
        }
        if (three < 0 && r->texture >= 0 && w > 0 && h > 0 && d > 0)
            three = texture_3d((uint32_t)a[r->texture].u, a[r->level].i);
        if (three < 0)
            three = d > 1; /* the target unknown: a depth of 1 is taken as 2D */
        return w15_image_layout(1, three, (uint32_t)a[r->format].u, (uint32_t)a[r->type].u, w, h, d, l) != 0;
    }
    return 0;
}

size_t w15_texel_bytes(uint32_t format, uint32_t type)
{
    int packed;
    int comps = format_components(format);
    int64_t tsz = type_size(type, &packed);
    if (!comps || !tsz || type == 0x1A00 /* GL_BITMAP */)
        return 0;
    return (size_t)(packed ? tsz : tsz * comps);
}

size_t w15_image_bytes(int pack, int three_d, uint32_t format, uint32_t type, int64_t width, int64_t height,
                       int64_t depth)
{
    return w15_image_layout(pack, three_d, format, type, width, height, depth, NULL);
}

size_t w15_image_layout(int pack, int three_d, uint32_t format, uint32_t type, int64_t width,
                        int64_t height, int64_t depth, w15_layout_t *l)
{
    if (width <= 0 || height <= 0 || depth <= 0 || height > UINT32_MAX || depth > UINT32_MAX)
        return 0;
    int packed;
    int comps = format_components(format);
    int64_t tsz = type_size(type, &packed);
    int bitmap = type == 0x1A00; /* GL_BITMAP: 1 bit per pixel */
    if (!bitmap && (!comps || !tsz))
        return 0;
    store_t s;
    read_store(pack, three_d, &s);
    int64_t rl = s.row_length > 0 ? s.row_length : width;
    int64_t ih = s.image_height > 0 ? s.image_height : height;
    int64_t a = s.align;
    if (bitmap) {
        /* rows of ceil(rl/8) bytes padded to the alignment */
        int64_t row = ((rl + 7) / 8 + a - 1) / a * a;
        int64_t last = (s.skip_pixels + width + 7) / 8;
        int64_t img = row * ih;
        int64_t total = s.skip_images * img + (depth - 1) * img + (s.skip_rows + height - 1) * row + last;
        if (total <= 0 || (uint64_t)total > SIZE_MAX)
            return 0;
        if (l)
            *l = (w15_layout_t){0, 0, 0, (uint64_t)total, 1, 1};
        return (size_t)total;
    }
    int64_t group = packed ? tsz : tsz * comps;
    int64_t rowb = group * rl;
    int64_t row = (tsz >= a) ? rowb : (rowb + a - 1) / a * a;
    int64_t img = row * ih;
    /* bytes from the pointer to the end of the last pixel read */
    double est = (double)img * (double)(s.skip_images + depth) + (double)row * (double)(s.skip_rows + height);
    if (est > 1e15)
        return 0;
    int64_t first = s.skip_images * img + s.skip_rows * row + s.skip_pixels * group;
    int64_t total = first + (depth - 1) * img + (height - 1) * row + width * group;
    if (total <= 0)
        return 0;
    if (l)
        *l = (w15_layout_t){(uint64_t)first, (uint64_t)row, (uint64_t)img, (uint64_t)(width * group),
                            (uint32_t)height, (uint32_t)depth};
    return (size_t)total;
}
