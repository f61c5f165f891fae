/* frames.c -- what a replay shows of its frames: checksums and snapshots.
 *
 * Owns: the readback of the back buffer just before each swap (RGBA,
 * 8 bits per channel, of the whole drawable), its digest (--checksums:
 * XXH3-64 by default, MD5 with --checksum-format md5; both over the rows
 * top to bottom, as the PNG holds them: MD5 then equals the MD5 of the
 * decoded PNG pixels, as Mesa's trace CI computes it), PNG snapshots
 * (libpng), and the GL state the readback touches, saved and restored
 * (wip15/readstate.h, as the tracer's frame digests do: read framebuffer
 * and read buffer, pack buffer, alignment, row length, skips, byte
 * swapping, GL_MESA_pack_invert, on compatibility contexts the colour
 * scale/bias, GL_MAP_COLOR and the imaging stages), also for check.c's
 * frame digests (rp_frames_read: any format/type, rows bottom-up).
 * May use: rp.h, GL through rp_wsi_proc, libpng, libxxhash, libmd.
 * Must never: leave the replayed context's state changed.
 */
#include <errno.h>
#include <md5.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#define XXH_INLINE_ALL
#include <xxhash.h>

#include "rp.h"
#include "wip15/readstate.h"

#define GL_BACK 0x0405
#define GL_RGBA 0x1908
#define GL_BGRA 0x80E1
#define GL_UNSIGNED_BYTE 0x1401
#define GL_EXTENSIONS 0x1F03
#define GL_NUM_EXTENSIONS 0x821D
#define GL_CONTEXT_PROFILE_MASK 0x9126
#define GL_CONTEXT_COMPATIBILITY_PROFILE_BIT 0x2

typedef unsigned int glenum_t;
typedef struct gl {
    void (*GetIntegerv)(glenum_t, int *);
    void (*ReadPixels)(int, int, int, int, glenum_t, glenum_t, void *);
    const unsigned char *(*GetString)(glenum_t);
    const unsigned char *(*GetStringi)(glenum_t, unsigned);
    void (*BindFramebuffer)(glenum_t, unsigned), (*BindFramebufferEXT)(glenum_t, unsigned),
        (*BindFramebufferOES)(glenum_t, unsigned);
    w15_rs_gl_t rs; /* readstate.h's (its BindFramebuffer: the one the context's caps name) */
} gl_t;

static gl_t g;
static int g_ok = -1;
/* --snapshot last: the most recent frame, written at the end */
static uint64_t last_frame = UINT64_MAX;
static int last_w, last_h;

static int load_gl(rp_state_t *st)
{
    if (g_ok >= 0)
        return g_ok;
    *(void **)&g.GetIntegerv = rp_wsi_proc(st, "glGetIntegerv");
    *(void **)&g.ReadPixels = rp_wsi_proc(st, "glReadPixels");
    *(void **)&g.GetString = rp_wsi_proc(st, "glGetString");
    *(void **)&g.GetStringi = rp_wsi_proc(st, "glGetStringi");
    w15_rs_gl_t *r = &g.rs;
    r->GetIntegerv = g.GetIntegerv;
    *(void **)&r->GetFloatv = rp_wsi_proc(st, "glGetFloatv");
    *(void **)&r->PixelStorei = rp_wsi_proc(st, "glPixelStorei");
    *(void **)&r->PixelTransferi = rp_wsi_proc(st, "glPixelTransferi");
    *(void **)&r->PixelTransferf = rp_wsi_proc(st, "glPixelTransferf");
    *(void **)&r->IsEnabled = rp_wsi_proc(st, "glIsEnabled");
    *(void **)&r->Enable = rp_wsi_proc(st, "glEnable");
    *(void **)&r->Disable = rp_wsi_proc(st, "glDisable");
    *(void **)&r->BindBuffer = rp_wsi_proc(st, "glBindBuffer");
    *(void **)&r->ReadBuffer = rp_wsi_proc(st, "glReadBuffer");
    *(void **)&g.BindFramebuffer = rp_wsi_proc(st, "glBindFramebuffer");
    *(void **)&g.BindFramebufferEXT = rp_wsi_proc(st, "glBindFramebufferEXT");
    *(void **)&g.BindFramebufferOES = rp_wsi_proc(st, "glBindFramebufferOES");
    g_ok = g.GetIntegerv && g.ReadPixels && g.GetString && r->GetFloatv && r->PixelStorei && r->IsEnabled &&
           r->Enable && r->Disable && r->BindBuffer && r->ReadBuffer && g.BindFramebuffer;
    return g_ok;
}

/* has_ext for w15_rs_caps: an extension of the current context (arg: its
 * rp_ctx_t), from glGetStringi on GL / GLES 3.0 and later, else from the
 * glGetString(GL_EXTENSIONS) list. */
static int ctx_has_ext(void *arg, const char *ext)
{
    const rp_ctx_t *c = arg;
    size_t el = strlen(ext);
    if (!c->gl_major)
        return 0; /* the version is not known: which query is valid neither */
    if (c->gl_major >= 3 && g.GetStringi) {
        int n = 0;
        g.GetIntegerv(GL_NUM_EXTENSIONS, &n);
        for (int i = 0; i < n; i++) {
            const char *e = (const char *)g.GetStringi(GL_EXTENSIONS, (unsigned)i);
            if (e && strcmp(e, ext) == 0)
                return 1;
        }
        return 0;
    }
    const char *l = (const char *)g.GetString(GL_EXTENSIONS);
    for (const char *p = l; p && (p = strstr(p, ext)) != NULL; p += el)
        if ((p == l || p[-1] == ' ') && (p[el] == ' ' || p[el] == 0))
            return 1;
    return 0;
}

/* The replaying context's W15_RS_* caps (asked once per context). */
static uint32_t read_caps(rp_exec_t *x, rp_ctx_t *c)
{
    if (c->read_caps_known)
        return c->read_caps;
    rp_ctx_version(x, c);
    int es = c->gl_major ? c->gl_es : c->es;
    int major = c->gl_major ? c->gl_major : c->major, minor = c->gl_major ? c->gl_minor : c->minor;
    int compat = 0;
    if (!es) {
        if (major < 3 || (major == 3 && minor == 0))
            compat = 1;
        else if (major == 3 && minor == 1)
            compat = ctx_has_ext(c, "GL_ARB_compatibility");
        else {
            int mask = 0;
            g.GetIntegerv(GL_CONTEXT_PROFILE_MASK, &mask);
            compat = (mask & GL_CONTEXT_COMPATIBILITY_PROFILE_BIT) != 0;
        }
    }
    c->read_caps = w15_rs_caps(es ? 2 : 1, major, minor, compat, ctx_has_ext, c);
    /* GLES reads GL_BGRA only with GL_EXT_read_format_bgra */
    c->bgra_read = !es || ctx_has_ext(c, "GL_EXT_read_format_bgra");
    if (((c->read_caps & W15_RS_FB_EXT) && !g.BindFramebufferEXT) ||
        ((c->read_caps & W15_RS_FB_OES) && !g.BindFramebufferOES))
        c->read_caps &= ~(W15_RS_FB_EXT | W15_RS_FB_OES | W15_RS_FB_READ | W15_RS_FB_BOTH);
    c->read_caps_known = 1;
    return c->read_caps;
}

/* Bytes per pixel of format/type, 0 when this file does not know them. */
static size_t pixel_size(uint32_t format, uint32_t type)
{
    size_t comps;
    switch (format) {
    case 0x1903: case 0x1904: case 0x1905: case 0x1906: case 0x1909: case 0x1902: case 0x1901:
    case 0x8D94: case 0x8D95: case 0x8D96: case 0x1910: comps = 1; break; /* one component */
    case 0x8227: case 0x190A: case 0x8228: comps = 2; break;             /* RG, LUMINANCE_ALPHA */
    case 0x1907: case 0x80E0: case 0x8D98: case 0x8D9A: comps = 3; break; /* RGB, BGR */
    case 0x1908: case 0x80E1: case 0x8D99: case 0x8D9B: comps = 4; break; /* RGBA, BGRA */
    default: return 0;
    }
    switch (type) {
    case 0x1400: case 0x1401: return comps;                 /* BYTE, UNSIGNED_BYTE */
    case 0x1402: case 0x1403: case 0x140B: case 0x8D61: return 2 * comps; /* SHORT, HALF_FLOAT */
    case 0x1404: case 0x1405: case 0x1406: return 4 * comps;
    case 0x8033: case 0x8034: case 0x8363: case 0x8364: case 0x8365: case 0x8366: return 2;
    case 0x8035: case 0x8367: case 0x8036: case 0x8368: case 0x8C3B: case 0x8C3E: return 4;
    default: return 0;
    }
}

size_t rp_frames_read(rp_exec_t *x, int w, int h, uint32_t format, uint32_t type, uint8_t **out, size_t *cap)
{
    rp_state_t *st = x->st;
    rp_ctx_t *c = x->ctx;
    size_t bpp = pixel_size(format, type);
    if (!c || w <= 0 || h <= 0 || !bpp || load_gl(st) != 1)
        return 0;
    size_t n = (size_t)w * bpp * (size_t)h;
    if (n + (size_t)w * bpp > *cap) {
        uint8_t *p = realloc(*out, n + (size_t)w * bpp);
        if (!p) {
            rp_fatal(st, "out of memory (frame of %dx%d)", w, h);
            return 0;
        }
        *out = p, *cap = n + (size_t)w * bpp;
    }
    uint32_t caps = read_caps(x, c);
    g.rs.BindFramebuffer = (caps & W15_RS_FB_OES)   ? g.BindFramebufferOES
                           : (caps & W15_RS_FB_EXT) ? g.BindFramebufferEXT
                                                    : g.BindFramebuffer;
    w15_rs_saved_t sv;
    memset(&sv, 0, sizeof sv);
    w15_rs_bind(&g.rs, caps, GL_BACK, &sv);
    w15_rs_pack(&g.rs, type != GL_UNSIGNED_BYTE && type != 0x1400 /* GL_BYTE */, (size_t)w * bpp, &sv);
    /* GL_BGRA bytes where the context reads only GL_RGBA: read those and
     * swap red and blue */
    int swap = format == GL_BGRA && type == GL_UNSIGNED_BYTE && !c->bgra_read;
    g.ReadPixels(0, 0, w, h, swap ? GL_RGBA : format, type, *out);
    w15_rs_restore(&g.rs, &sv);
    if (swap) {
        uint8_t *p = *out;
        for (size_t i = 0; i < n; i += 4) {
            uint8_t r = p[i];
            p[i] = p[i + 2];
            p[i + 2] = r;
        }
    }
    return n;
}

/* Read the back buffer of the current drawable (w x h) into st->pixels,
 * RGBA, rows top to bottom. */
static int readback(rp_exec_t *x, int w, int h)
{
    rp_state_t *st = x->st;
    size_t row = (size_t)w * 4, n = rp_frames_read(x, w, h, GL_RGBA, GL_UNSIGNED_BYTE, &st->pixels, &st->npixels);
    if (!n)
        return -1;
    /* bottom-up -> top-down, through the spare row at the end */
    uint8_t *tmp = st->pixels + n;
    for (int y = 0; y < h / 2; y++) {
        uint8_t *a = st->pixels + (size_t)y * row, *b = st->pixels + (size_t)(h - 1 - y) * row;
        memcpy(tmp, a, row);
        memcpy(a, b, row);
        memcpy(b, tmp, row);
    }
    return 0;
}

static int write_png(rp_state_t *st, uint64_t frame, const uint8_t *px, int w, int h)
{
    const char *dir = st->o->snapshot_dir ? st->o->snapshot_dir : ".";
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        rp_fatal(st, "cannot create %s: %s", dir, strerror(errno));
        return -1;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/frame%llu.png", dir, (unsigned long long)frame);
    FILE *f = fopen(path, "wb");
    if (!f) {
        rp_fatal(st, "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    png_structp p = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = p ? png_create_info_struct(p) : NULL;
    if (!p || !info || setjmp(png_jmpbuf(p))) {
        png_destroy_write_struct(&p, &info);
        fclose(f);
        rp_fatal(st, "cannot write %s (libpng)", path);
        return -1;
    }
    png_init_io(p, f);
    png_set_IHDR(p, info, (png_uint_32)w, (png_uint_32)h, 8, PNG_COLOR_TYPE_RGB_ALPHA,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(p, info);
    for (int y = 0; y < h; y++)
        png_write_row(p, (png_const_bytep)(px + (size_t)y * (size_t)w * 4));
    png_write_end(p, NULL);
    png_destroy_write_struct(&p, &info);
    if (fclose(f) != 0) {
        rp_fatal(st, "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

int rp_frame_end(rp_exec_t *x, rp_surface_t *s)
{
    rp_state_t *st = x->st;
    const rp_opts_t *o = st->o;
    uint64_t f = st->frame;
    if (o->benchmark || f < o->first || f > o->last)
        return 0;
    int sum = o->checksums;
    int snap = rp_frameset_has(&o->snapshots, f, 0);
    int keep = o->snapshots.last;
    if (!sum && !snap && !keep)
        return 0;
    if (!x->ctx || load_gl(st) != 1)
        return 0;
    int w = s->width, h = s->height;
    if (readback(x, w, h))
        return -1;
    size_t n = (size_t)w * (size_t)h * 4;
    if (sum) {
        char hex[33];
        if (o->digest == RP_DIGEST_MD5) {
            MD5_CTX m;
            uint8_t d[16];
            MD5Init(&m);
            MD5Update(&m, st->pixels, n);
            MD5Final(d, &m);
            for (int i = 0; i < 16; i++)
                snprintf(hex + 2 * i, 3, "%02x", d[i]);
        } else {
            snprintf(hex, sizeof hex, "%016llx", (unsigned long long)XXH3_64bits(st->pixels, n));
        }
        fprintf(o->out, "frame %llu %s\n", (unsigned long long)f, hex);
    }
    if (snap && write_png(st, f, st->pixels, w, h))
        return -1;
    if (keep && !snap) {
        last_frame = f, last_w = w, last_h = h;
    } else {
        last_frame = UINT64_MAX;
    }
    return 0;
}

void rp_frames_end(rp_state_t *st)
{
    /* --snapshot last: the pixels of the last frame are still in
     * st->pixels when no frame was read after it */
    if (st->o->snapshots.last && last_frame != UINT64_MAX && st->pixels && !st->failed)
        write_png(st, last_frame, st->pixels, last_w, last_h);
    last_frame = UINT64_MAX;
    g_ok = -1;
}
