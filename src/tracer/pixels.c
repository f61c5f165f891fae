/* pixels.c -- the current context per thread, and pixel-transfer sizes
 * under its pixel store state.
 *
 * The API and version of the current context are read once per
 * MakeCurrent (lazily, at the first pixel query) with the real
 * glGetString(GL_VERSION): "OpenGL ES x.y" / "OpenGL ES-CM 1.1" mean GLES.
 * Pixel store values are read with the real glGetIntegerv, only for pnames
 * that exist in that API/version, so no query can raise a GL error; we never
 * call glGetError.
 */
#include "runtime.h"
#include "pixels.h"

#include <errno.h>
#include <string.h>

enum {
    GL_VERSION_ = 0x1F02,
    GL_UNPACK_ROW_LENGTH = 0x0CF2, GL_UNPACK_SKIP_ROWS = 0x0CF3, GL_UNPACK_SKIP_PIXELS = 0x0CF4,
    GL_UNPACK_ALIGNMENT = 0x0CF5, GL_PACK_ROW_LENGTH = 0x0D02, GL_PACK_SKIP_ROWS = 0x0D03,
    GL_PACK_SKIP_PIXELS = 0x0D04, GL_PACK_ALIGNMENT = 0x0D05,
    GL_PACK_SKIP_IMAGES = 0x806B, GL_PACK_IMAGE_HEIGHT = 0x806C,
    GL_UNPACK_SKIP_IMAGES = 0x806D, GL_UNPACK_IMAGE_HEIGHT = 0x806E,
    GL_PIXEL_PACK_BUFFER_BINDING = 0x88ED, GL_PIXEL_UNPACK_BUFFER_BINDING = 0x88EF,
};

/* ctx_kind values */
enum { CTX_UNKNOWN = 0, CTX_NONE, CTX_GL, CTX_GLES };

typedef const unsigned char *(*get_string_fn)(unsigned);
typedef void (*get_integerv_fn)(unsigned, int *);
static int id_get_string = -1, id_get_integerv = -1;

void w15_pixels_init(void)
{
    id_get_string = w15_func_lookup("glGetString");
    id_get_integerv = w15_func_lookup("glGetIntegerv");
}

void w15_context_changed(w15_thread_t *t, void *ctx)
{
    t->context = ctx;
    t->ctx_kind = CTX_UNKNOWN;
}

static int parse_int(const char **s)
{
    int v = 0;
    while (**s >= '0' && **s <= '9')
        v = v * 10 + (*(*s)++ - '0');
    return v;
}

static w15_thread_t *ctx_info(void)
{
    w15_thread_t *t = w15_tls;
    if (!t || id_get_string < 0)
        return NULL;
    if (t->ctx_kind != CTX_UNKNOWN)
        return t;
    int e = errno;
    get_string_fn gs = (get_string_fn)W15_REAL((uint32_t)id_get_string);
    const char *v = (const char *)gs(GL_VERSION_);
    t->ctx_kind = CTX_NONE;
    t->ctx_major = t->ctx_minor = 0;
    if (v) {
        if (strncmp(v, "OpenGL ES", 9) == 0) {
            t->ctx_kind = CTX_GLES;
            v += 9;
            while (*v && (*v < '0' || *v > '9'))
                v++;
        } else {
            t->ctx_kind = CTX_GL;
        }
        t->ctx_major = parse_int(&v);
        if (*v == '.') {
            v++;
            t->ctx_minor = parse_int(&v);
        }
    }
    errno = e;
    return t;
}

static int ver_at_least(const w15_thread_t *t, int major, int minor)
{
    return t->ctx_major > major || (t->ctx_major == major && t->ctx_minor >= minor);
}

int w15_context_api(int *major, int *minor)
{
    w15_thread_t *t = ctx_info();
    if (!t || (t->ctx_kind != CTX_GL && t->ctx_kind != CTX_GLES))
        return 0;
    *major = t->ctx_major;
    *minor = t->ctx_minor;
    return t->ctx_kind == CTX_GL ? 1 : 2;
}

static int get_int(unsigned pname, int dflt)
{
    if (id_get_integerv < 0)
        return dflt;
    get_integerv_fn gi = (get_integerv_fn)W15_REAL((uint32_t)id_get_integerv);
    int v = dflt;
    gi(pname, &v);
    return v;
}

int w15_pixel_buffer_bound(int pack)
{
    w15_thread_t *t = ctx_info();
    if (!t || t->ctx_kind == CTX_NONE)
        return 0;
    if (t->ctx_kind == CTX_GL ? !ver_at_least(t, 2, 1) : !ver_at_least(t, 3, 0))
        return 0;
    int e = errno;
    int v = get_int(pack ? GL_PIXEL_PACK_BUFFER_BINDING : GL_PIXEL_UNPACK_BUFFER_BINDING, 0);
    errno = e;
    return v != 0;
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
    w15_thread_t *t = ctx_info();
    if (!t || t->ctx_kind == CTX_NONE)
        return;
    int e = errno;
    s->align = get_int(pack ? GL_PACK_ALIGNMENT : GL_UNPACK_ALIGNMENT, 4);
    int gl = t->ctx_kind == CTX_GL;
    int es3 = t->ctx_kind == CTX_GLES && t->ctx_major >= 3;
    if (gl || es3) {
        s->row_length = get_int(pack ? GL_PACK_ROW_LENGTH : GL_UNPACK_ROW_LENGTH, 0);
        s->skip_rows = get_int(pack ? GL_PACK_SKIP_ROWS : GL_UNPACK_SKIP_ROWS, 0);
        s->skip_pixels = get_int(pack ? GL_PACK_SKIP_PIXELS : GL_UNPACK_SKIP_PIXELS, 0);
    }
    /* 3D images: GL 1.2+ both directions, GLES 3.0 unpack only */
    if (three_d && ((gl && ver_at_least(t, 1, 2)) || (es3 && !pack))) {
        s->image_height = get_int(pack ? GL_PACK_IMAGE_HEIGHT : GL_UNPACK_IMAGE_HEIGHT, 0);
        s->skip_images = get_int(pack ? GL_PACK_SKIP_IMAGES : GL_UNPACK_SKIP_IMAGES, 0);
    }
    errno = e;
    if (s->align != 1 && s->align != 2 && s->align != 4 && s->align != 8)
        s->align = 4;
    if (s->row_length < 0) s->row_length = 0;
    if (s->skip_rows < 0) s->skip_rows = 0;
    if (s->skip_pixels < 0) s->skip_pixels = 0;
    if (s->image_height < 0) s->image_height = 0;
    if (s->skip_images < 0) s->skip_images = 0;
}

size_t w15_image_bytes(int pack, uint32_t format, uint32_t type, int64_t width, int64_t height,
                       int64_t depth)
{
    if (width <= 0 || height <= 0 || depth <= 0)
        return 0;
    int packed;
    int comps = format_components(format);
    int64_t tsz = type_size(type, &packed);
    int bitmap = type == 0x1A00; /* GL_BITMAP: 1 bit per pixel */
    if (!bitmap && (!comps || !tsz))
        return 0;
    store_t s;
    read_store(pack, depth > 1, &s);
    int64_t rl = s.row_length > 0 ? s.row_length : width;
    int64_t ih = s.image_height > 0 ? s.image_height : height;
    int64_t a = s.align;
    if (bitmap) {
        /* rows of ceil(rl/8) bytes padded to the alignment */
        int64_t row = ((rl + 7) / 8 + a - 1) / a * a;
        int64_t last = (s.skip_pixels + width + 7) / 8;
        int64_t img = row * ih;
        int64_t total = s.skip_images * img + (depth - 1) * img + (s.skip_rows + height - 1) * row + last;
        return total > 0 && (uint64_t)total <= SIZE_MAX ? (size_t)total : 0;
    }
    int64_t group = packed ? tsz : tsz * comps;
    int64_t rowb = group * rl;
    int64_t row = (tsz >= a) ? rowb : (rowb + a - 1) / a * a;
    int64_t img = row * ih;
    /* bytes from the pointer to the end of the last pixel read */
    double est = (double)img * (double)(s.skip_images + depth) + (double)row * (double)(s.skip_rows + height);
    if (est > 1e15)
        return 0;
    int64_t total = (s.skip_images + depth - 1) * img + (s.skip_rows + height - 1) * row +
                    (s.skip_pixels + width) * group;
    return total > 0 ? (size_t)total : 0;
}
