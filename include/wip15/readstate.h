/* readstate.h -- the GL state a read of a whole frame with glReadPixels
 * depends on: which state a context has (w15_rs_caps), setting it to what
 * the read needs (w15_rs_bind: the default framebuffer and its read
 * buffer; w15_rs_pack: the pack buffer, pack store and pixel transfer),
 * each only when it differs, and putting it back (w15_rs_restore).  The
 * tracer's frame digests (src/tracer/surfaces.c) and the replay's frame
 * reads (src/replay/frames.c, `wip15 replay --check`) use it, so that
 * both read the same bytes whatever state the program left at its swap.
 * Each call is one that exists in a context with those caps, so none
 * raises a GL error.  Header-only; no GL headers needed. */
#ifndef W15_READSTATE_H
#define W15_READSTATE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* what a context has */
#define W15_RS_ROWS 0x1u        /* PACK_ROW_LENGTH, SKIP_ROWS, SKIP_PIXELS */
#define W15_RS_SWAP 0x2u        /* PACK_SWAP_BYTES */
#define W15_RS_INVERT 0x4u      /* GL_MESA_pack_invert */
#define W15_RS_REVERSE 0x8u     /* GL_ANGLE_pack_reverse_row_order */
#define W15_RS_PBO 0x10u        /* a pixel pack buffer binding */
#define W15_RS_READBUF 0x20u    /* glReadBuffer */
#define W15_RS_XFER 0x40u       /* pixel transfer (compatibility desktop GL) */
#define W15_RS_IMAGING 0x80u    /* GL_ARB_imaging, with W15_RS_XFER */
#define W15_RS_FB_READ 0x100u   /* a read framebuffer binding */
#define W15_RS_FB_BOTH 0x200u   /* one framebuffer binding (GLES 2, EXT_framebuffer_object alone) */
#define W15_RS_FB_EXT 0x400u    /* ... bound with glBindFramebufferEXT */
#define W15_RS_FB_OES 0x800u    /* ... bound with glBindFramebufferOES */
#define W15_RS_IMPL_FMT 0x1000u /* GL_IMPLEMENTATION_COLOR_READ_FORMAT/TYPE */
#define W15_RS_DESKTOP 0x2000u  /* desktop GL (GL_BGRA is a valid read format) */

/* The caps of a context of `api` (1 desktop GL, 2 GLES; 0 none) and
 * version major.minor; `compat`: it has the legacy features;
 * has_ext(arg, "GL_...") whether it advertises an extension. */
static inline uint32_t w15_rs_caps(int api, int major, int minor, int compat,
                                   int (*has_ext)(void *arg, const char *ext), void *arg)
{
    uint32_t c = 0;
#define W15_RS_AT_LEAST(a, b) (major > (a) || (major == (a) && minor >= (b)))
    if (api == 1) {
        c |= W15_RS_DESKTOP | W15_RS_ROWS | W15_RS_SWAP | W15_RS_READBUF;
        if (W15_RS_AT_LEAST(2, 1) || has_ext(arg, "GL_ARB_pixel_buffer_object") ||
            has_ext(arg, "GL_EXT_pixel_buffer_object"))
            c |= W15_RS_AT_LEAST(1, 5) ? W15_RS_PBO : 0;
        if (W15_RS_AT_LEAST(3, 0) || has_ext(arg, "GL_ARB_framebuffer_object"))
            c |= W15_RS_FB_READ;
        else if (has_ext(arg, "GL_EXT_framebuffer_object"))
            c |= W15_RS_FB_EXT | (has_ext(arg, "GL_EXT_framebuffer_blit") ? W15_RS_FB_READ : W15_RS_FB_BOTH);
        if (compat) {
            c |= W15_RS_XFER;
            if (has_ext(arg, "GL_ARB_imaging"))
                c |= W15_RS_IMAGING;
        }
        if (W15_RS_AT_LEAST(4, 1) || has_ext(arg, "GL_ARB_ES2_compatibility"))
            c |= W15_RS_IMPL_FMT;
    } else if (api == 2) {
        if (major >= 3)
            c |= W15_RS_ROWS | W15_RS_READBUF | W15_RS_PBO | W15_RS_FB_READ;
        else if (major == 2)
            c |= W15_RS_FB_BOTH | (has_ext(arg, "GL_NV_pixel_buffer_object") ? W15_RS_PBO : 0);
        else if (has_ext(arg, "GL_OES_framebuffer_object"))
            c |= W15_RS_FB_BOTH | W15_RS_FB_OES;
        if (major >= 2 || has_ext(arg, "GL_OES_read_format"))
            c |= W15_RS_IMPL_FMT;
    }
#undef W15_RS_AT_LEAST
    if (api && has_ext(arg, "GL_MESA_pack_invert"))
        c |= W15_RS_INVERT;
    if (api && has_ext(arg, "GL_ANGLE_pack_reverse_row_order"))
        c |= W15_RS_REVERSE;
    return c;
}

/* The GL functions it calls (the real ones, in the tracer).  Those a
 * context's caps do not use may be NULL; BindFramebuffer is the binding
 * call the caps name (core, EXT or OES). */
typedef struct w15_rs_gl {
    void (*GetIntegerv)(unsigned, int *);
    void (*GetFloatv)(unsigned, float *);
    void (*PixelStorei)(unsigned, int);
    void (*PixelTransferi)(unsigned, int);
    void (*PixelTransferf)(unsigned, float);
    unsigned char (*IsEnabled)(unsigned);
    void (*Enable)(unsigned);
    void (*Disable)(unsigned);
    void (*BindBuffer)(unsigned, unsigned);
    void (*ReadBuffer)(unsigned);
    void (*BindFramebuffer)(unsigned, unsigned);
} w15_rs_gl_t;

#define W15_RS_MAX_SAVED 40
/* What w15_rs_bind and w15_rs_pack changed (zero it first). */
typedef struct w15_rs_saved {
    uint32_t caps;
    int fb, rb, pbo, rb_set;
    int n;
    struct {
        uint8_t kind; /* 'i' pixel store, 'f' transfer float, 'm' map colour, 'e' enable */
        unsigned pname;
        int i;
        float f;
    } e[W15_RS_MAX_SAVED];
} w15_rs_saved_t;

enum {
    W15_RS_GL_READ_BUFFER = 0x0C02, W15_RS_GL_PACK_SWAP_BYTES = 0x0D00, W15_RS_GL_PACK_ROW_LENGTH = 0x0D02,
    W15_RS_GL_PACK_SKIP_ROWS = 0x0D03, W15_RS_GL_PACK_SKIP_PIXELS = 0x0D04, W15_RS_GL_PACK_ALIGNMENT = 0x0D05,
    W15_RS_GL_MAP_COLOR = 0x0D10, W15_RS_GL_PACK_INVERT_MESA = 0x8758,
    W15_RS_GL_PACK_REVERSE_ROW_ORDER_ANGLE = 0x93A4, W15_RS_GL_PIXEL_PACK_BUFFER = 0x88EB,
    W15_RS_GL_PIXEL_PACK_BUFFER_BINDING = 0x88ED, W15_RS_GL_FRAMEBUFFER = 0x8D40,
    W15_RS_GL_FRAMEBUFFER_BINDING = 0x8CA6, W15_RS_GL_READ_FRAMEBUFFER = 0x8CA8,
    W15_RS_GL_READ_FRAMEBUFFER_BINDING = 0x8CAA,
};

static inline int w15_rs_get_int(const w15_rs_gl_t *gl, unsigned pname, int dflt)
{
    int v = dflt;
    gl->GetIntegerv(pname, &v);
    return v;
}

/* The default framebuffer bound for reading and `read_buffer` (GL_BACK, or
 * GL_FRONT for a single-buffered one) as its read buffer. */
static inline void w15_rs_bind(const w15_rs_gl_t *gl, uint32_t caps, unsigned read_buffer, w15_rs_saved_t *sv)
{
    sv->caps = caps;
    if (caps & (W15_RS_FB_READ | W15_RS_FB_BOTH)) {
        sv->fb = w15_rs_get_int(gl, (caps & W15_RS_FB_READ) ? W15_RS_GL_READ_FRAMEBUFFER_BINDING
                                                             : W15_RS_GL_FRAMEBUFFER_BINDING, 0);
        if (sv->fb)
            gl->BindFramebuffer((caps & W15_RS_FB_READ) ? W15_RS_GL_READ_FRAMEBUFFER : W15_RS_GL_FRAMEBUFFER, 0);
    }
    if (caps & W15_RS_READBUF) {
        sv->rb = w15_rs_get_int(gl, W15_RS_GL_READ_BUFFER, (int)read_buffer);
        if ((unsigned)sv->rb != read_buffer) {
            gl->ReadBuffer(read_buffer);
            sv->rb_set = 1;
        }
    }
}

/* Pixel store pname made `want`, remembering what it was. */
static inline void w15_rs_store(const w15_rs_gl_t *gl, w15_rs_saved_t *sv, unsigned pname, int want)
{
    int old = w15_rs_get_int(gl, pname, want);
    if (old != want && sv->n < W15_RS_MAX_SAVED) {
        gl->PixelStorei(pname, want);
        sv->e[sv->n].kind = 'i';
        sv->e[sv->n].pname = pname;
        sv->e[sv->n++].i = old;
    }
}

/* Is pixel-transfer pname one of the scales (default 1; else a bias, 0)? */
static inline int w15_rs_is_scale(unsigned pname)
{
    switch (pname) {
    case 0x0D14: case 0x0D18: case 0x0D1A: case 0x0D1C:
    case 0x801C: case 0x801D: case 0x801E: case 0x801F:
    case 0x80B4: case 0x80B5: case 0x80B6: case 0x80B7:
        return 1;
    default:
        return 0;
    }
}

static inline void w15_rs_xfer_float(const w15_rs_gl_t *gl, w15_rs_saved_t *sv, unsigned pname)
{
    float want = w15_rs_is_scale(pname) ? 1.0f : 0.0f, old = want;
    gl->GetFloatv(pname, &old);
    if (memcmp(&old, &want, sizeof want) != 0 && sv->n < W15_RS_MAX_SAVED) {
        gl->PixelTransferf(pname, want);
        sv->e[sv->n].kind = 'f';
        sv->e[sv->n].pname = pname;
        sv->e[sv->n++].f = old;
    }
}

/* No pack buffer, rows of `row` bytes tightly packed bottom-up (alignment
 * changed only when rows would be padded), bytes not swapped (for a type
 * of more than one byte per component: `multibyte`), and on compatibility
 * contexts no colour scale, bias, map or imaging stage. */
static inline void w15_rs_pack(const w15_rs_gl_t *gl, int multibyte, size_t row, w15_rs_saved_t *sv)
{
    /* pixel transfer state a colour read goes through (compatibility GL) */
    static const unsigned xfer_f[] = {0x0D14, 0x0D15, 0x0D18, 0x0D19, 0x0D1A, 0x0D1B, 0x0D1C, 0x0D1D};
    /* GL_ARB_imaging: post-convolution and post-colour-matrix scales/biases */
    static const unsigned imaging_f[] = {0x801C, 0x801D, 0x801E, 0x801F, 0x8020, 0x8021, 0x8022, 0x8023,
                                         0x80B4, 0x80B5, 0x80B6, 0x80B7, 0x80B8, 0x80B9, 0x80BA, 0x80BB};
    /* ... and its enables: colour tables, convolutions, histogram, minmax */
    static const unsigned imaging_en[] = {0x80D0, 0x80D1, 0x80D2, 0x8010, 0x8011, 0x8012, 0x8024, 0x802E};
    uint32_t caps = sv->caps;
    if (caps & W15_RS_PBO) {
        sv->pbo = w15_rs_get_int(gl, W15_RS_GL_PIXEL_PACK_BUFFER_BINDING, 0);
        if (sv->pbo)
            gl->BindBuffer(W15_RS_GL_PIXEL_PACK_BUFFER, 0);
    }
    int align = w15_rs_get_int(gl, W15_RS_GL_PACK_ALIGNMENT, 4);
    if (align <= 0 || row % (size_t)align)
        w15_rs_store(gl, sv, W15_RS_GL_PACK_ALIGNMENT, 1);
    if (caps & W15_RS_ROWS) {
        w15_rs_store(gl, sv, W15_RS_GL_PACK_ROW_LENGTH, 0);
        w15_rs_store(gl, sv, W15_RS_GL_PACK_SKIP_ROWS, 0);
        w15_rs_store(gl, sv, W15_RS_GL_PACK_SKIP_PIXELS, 0);
    }
    if ((caps & W15_RS_SWAP) && multibyte)
        w15_rs_store(gl, sv, W15_RS_GL_PACK_SWAP_BYTES, 0);
    if (caps & W15_RS_INVERT)
        w15_rs_store(gl, sv, W15_RS_GL_PACK_INVERT_MESA, 0);
    if (caps & W15_RS_REVERSE)
        w15_rs_store(gl, sv, W15_RS_GL_PACK_REVERSE_ROW_ORDER_ANGLE, 0);
    if (!(caps & W15_RS_XFER))
        return;
    int mc = w15_rs_get_int(gl, W15_RS_GL_MAP_COLOR, 0);
    if (mc && sv->n < W15_RS_MAX_SAVED) {
        gl->PixelTransferi(W15_RS_GL_MAP_COLOR, 0);
        sv->e[sv->n].kind = 'm';
        sv->e[sv->n].pname = W15_RS_GL_MAP_COLOR;
        sv->e[sv->n++].i = mc;
    }
    for (unsigned i = 0; i < sizeof xfer_f / sizeof xfer_f[0]; i++)
        w15_rs_xfer_float(gl, sv, xfer_f[i]);
    if (!(caps & W15_RS_IMAGING))
        return;
    for (unsigned i = 0; i < sizeof imaging_f / sizeof imaging_f[0]; i++)
        w15_rs_xfer_float(gl, sv, imaging_f[i]);
    for (unsigned i = 0; i < sizeof imaging_en / sizeof imaging_en[0] && sv->n < W15_RS_MAX_SAVED; i++) {
        if (gl->IsEnabled(imaging_en[i])) {
            gl->Disable(imaging_en[i]);
            sv->e[sv->n].kind = 'e';
            sv->e[sv->n++].pname = imaging_en[i];
        }
    }
}

/* Everything w15_rs_bind and w15_rs_pack changed, as it was. */
static inline void w15_rs_restore(const w15_rs_gl_t *gl, w15_rs_saved_t *sv)
{
    for (int k = sv->n - 1; k >= 0; k--) {
        switch (sv->e[k].kind) {
        case 'i': gl->PixelStorei(sv->e[k].pname, sv->e[k].i); break;
        case 'f': gl->PixelTransferf(sv->e[k].pname, sv->e[k].f); break;
        case 'm': gl->PixelTransferi(sv->e[k].pname, sv->e[k].i); break;
        case 'e': gl->Enable(sv->e[k].pname); break;
        default: break;
        }
    }
    sv->n = 0;
    if (sv->pbo)
        gl->BindBuffer(W15_RS_GL_PIXEL_PACK_BUFFER, (unsigned)sv->pbo);
    if (sv->rb_set)
        gl->ReadBuffer((unsigned)sv->rb);
    if (sv->fb)
        gl->BindFramebuffer((sv->caps & W15_RS_FB_READ) ? W15_RS_GL_READ_FRAMEBUFFER : W15_RS_GL_FRAMEBUFFER,
                            (unsigned)sv->fb);
    sv->pbo = sv->rb_set = sv->fb = 0;
}

#endif
