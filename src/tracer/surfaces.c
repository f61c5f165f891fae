/* surfaces.c -- contexts' configurations, drawable sizes, frame digests
 * (surfaces.h; the trace side is docs/FORMAT.md "Contexts, drawables and
 * frames").
 *
 * Configurations.  After a successful context creation the configuration
 * it was created with is asked of GLX or EGL: glXGetFBConfigAttrib (a
 * GLXFBConfig), glXGetConfig (an XVisualInfo), eglGetConfigAttrib.  Mesa
 * answers these from the configs it fetched at display initialisation: no
 * X round trip, nothing the program can see (the EGL error is already
 * EGL_SUCCESS after the successful creation, and stays so).  The version,
 * profile and flags are the ones the attribute list asked for.  The values
 * are kept with the context, so that a context created while nothing was
 * recorded (WIP15_FRAMES) gets its wip15ContextConfig before its first
 * recorded MakeCurrent, draw, clear, read, consuming call or swap.
 *
 * Drawable sizes.  A GLX drawable's size is one GetDrawableAttributes
 * request through XCB on the program's own connection
 * (XGetXCBConnection): an error comes back with the reply instead of
 * reaching the program's X error handler, so the query is safe on a
 * drawable the program destroyed.  Without libxcb-glx (not a Mesa GLX)
 * glXQueryDrawable is used, only where the drawable is known to be alive
 * (a MakeCurrent that succeeded, a swap).  An EGL surface's size is
 * eglQuerySurface, only where the EGL error is EGL_SUCCESS anyway (after an
 * EGL call that succeeded, egl_clean) or is about to be replaced (before a
 * swap): the program's eglGetError never sees ours.  The size is checked at
 * every MakeCurrent (for a GLX drawable whose size is already written,
 * without waiting: recheck_send), then once per frame: at the first call
 * after the swap that draws, clears, reads or consumes (where Mesa itself
 * asks the X server for the size of the new back buffer; EGL only while
 * egl_clean), else before the swap.  One table remembers the last size written per
 * drawable (64 entries, least recently used out: a drawable evicted is
 * written again at its next check).
 *
 * Frame digests (WIP15_FRAME_DIGESTS).  Before a swap of the draw drawable
 * of the thread's current context (and only when it is also the read
 * drawable), the buffer the swap shows is read with glReadPixels from the
 * default framebuffer, rows bottom-up, tightly packed, and hashed with
 * XXH3-64.  Every state the read depends on is read first and set only when
 * it differs from what the read needs, then put back (wip15/readstate.h,
 * which the replay's frame reads use too): pack alignment (only
 * when rows would be padded), row length, skips, byte swapping (multi-byte
 * types only), GL_PACK_INVERT_MESA, GL_PACK_REVERSE_ROW_ORDER_ANGLE, the
 * pack buffer binding, the read framebuffer binding and the default
 * framebuffer's read buffer, and on compatibility contexts the colour
 * scale/bias, GL_MAP_COLOR and (GL_ARB_imaging) the imaging pipeline's
 * enables and scales/biases.  Each query and call is one that exists in the
 * context's API, version and extensions (context.h), so none raises a GL
 * error.  The format is the implementation's preferred read format
 * (GL_IMPLEMENTATION_COLOR_READ_FORMAT/TYPE, asked once per context) when
 * it is a plain colour format, else GL_RGBA/GL_UNSIGNED_BYTE. */
#define _GNU_SOURCE
#include "surfaces.h"
#include "config.h"
#include "context.h"
#include "fhash.h"
#include "log.h"
#include "present.h"
#include "pseudo.h"
#include "resolve.h"
#include "state.h"
#include "wip15/readstate.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "funcs.h"

/* ------------------------------------------------------------ state */

enum { K_NONE = 0, K_GLX, K_EGL };
enum { NCFG = 16 }; /* wip15ContextConfig's parameters */

/* Per context (w15_ctx_t.surfaces).  The fields below "while current" are
 * touched only by the thread the context is current on. */
typedef struct surf {
    int kind;              /* K_GLX / K_EGL */
    int destroyed;         /* destroyed while current: forgotten once released (surf_lock) */
    int have_cfg;          /* cfg holds the configuration */
    int cfg_written;       /* wip15ContextConfig is in the trace */
    int dbl;               /* double-buffered config: 1, 0, -1 unknown */
    uint64_t cfg[NCFG];    /* wip15ContextConfig's arguments */
    /* while current */
    void *dpy;
    uint64_t draw, read;   /* the current drawables (0: none) */
    int w, h;              /* draw's size at its last check (0: unknown) */
    int pending;           /* draw's size is to be checked (a swap happened) */
    /* a size request for `draw` sent at MakeCurrent, its reply taken
     * before the drawable changes (recheck_send / recheck_take) */
    int ck_out;
    void *ck_conn;
    unsigned ck_seq;
    /* frame digests */
    int caps_known;
    uint32_t caps;         /* W15_RS_* (wip15/readstate.h) */
    uint32_t rfmt, rtype, rbpp; /* read format and type, bytes per pixel */
    uint8_t *pix;          /* one strip of rows */
    size_t pixcap;
    w15_fhash_t *hash;
    /* frame digests from the image the driver shows (present.h) */
    int put_mode;          /* 0 not known yet, 1 taken from it, -1 read back */
    int put_agreed;        /* frames whose two digests agreed */
    int put_armed;         /* the swap under way: 0, PUT_TRUST, PUT_VERIFY */
    uint32_t put_since;    /* frames taken from it since the last verification */
    uint64_t put_frame;    /* the frame the swap under way ends */
    uint64_t rp_digest;    /* PUT_VERIFY: the digest glReadPixels gave */
    int geo_armed;         /* the call under way may tell draw's size (present.h): taken in
                            * w15_surfaces_extras */
} surf_t;

enum { PUT_TRUST = 1, PUT_VERIFY = 2 };
/* frame digests written: read back, taken from the images shown */
static _Atomic uint64_t n_read, n_shown;
/* Frames whose digests must agree before the driver's image stands for
 * glReadPixels, and how often that is checked again afterwards. */
enum { PUT_AGREE = 2, PUT_RECHECK = 256 };

/* Bytes of one strip of a frame digest's read (fits the L2 cache). */
#define STRIP_BYTES ((size_t)192 << 10)

/* one lock for the drawable table and the forgetting of contexts */
static pthread_mutex_t surf_lock = PTHREAD_MUTEX_INITIALIZER;

static surf_t *surf_of(w15_ctx_t *c, int create)
{
    if (!c)
        return NULL;
    surf_t *s = c->surfaces;
    if (!s && create && (s = calloc(1, sizeof *s)) != NULL) {
        s->dbl = -1;
        c->surfaces = s;
    }
    return s;
}

/* Forget context `handle`: our state, then its record (surf_lock held;
 * every other module freed its own at CONTEXT_DESTROY). */
static void forget_locked(void *handle)
{
    w15_ctx_t *c = w15_ctx_find(handle, 0);
    if (!c)
        return;
    surf_t *s = c->surfaces;
    if (s) {
        free(s->pix);
        w15_fhash_free(s->hash);
        free(s);
        c->surfaces = NULL;
    }
    w15_ctx_forget(handle);
}

/* ------------------------------------------------------------ writing */

/* Write pseudo-call `id` with scalar arguments v[0..n), each encoded as the
 * table declares it (base, group).  0 or -1. */
static int put_pseudo_at(w15_thread_t *t, uint32_t id, const uint64_t *v, uint32_t n, int before_call)
{
    const w15_func_sig_t *f = &w15_funcs[id];
    const w15_param_sig_t *ps = &w15_params[f->first_param];
    if (f->nparams != n) {
        static int warned;
        if (!warned) {
            warned = 1;
            w15_msg("pseudo-call %u: the table declares %u parameters, the tracer writes %u; not recorded",
                    (unsigned)id, (unsigned)f->nparams, (unsigned)n);
        }
        return -1;
    }
    for (uint32_t i = 0; i < n; i++)
        if (ps[i].is_array || ps[i].base == W15_VOID || ps[i].base > W15_BOOL)
            return -1;
    if (w15_pseudo_begin(t, id, (size_t)n * 16))
        return -1;
    w15_buf_t *b = &t->buf;
    for (uint32_t i = 0; i < n; i++) {
        switch (ps[i].base) {
        case W15_INT: w15_put_svari(b, (int64_t)v[i]); break;
        case W15_BOOL: w15_put_u8(b, v[i] != 0); break;
        default: w15_put_uvari(b, v[i]); break;
        }
        if (ps[i].group != W15_NO_GROUP)
            w15_put_u32(b, ps[i].group);
    }
    return before_call ? w15_pseudo_end_before_call(t) : w15_pseudo_end(t);
}

static int put_pseudo(w15_thread_t *t, uint32_t id, const uint64_t *v, uint32_t n)
{
    return put_pseudo_at(t, id, v, n, 0);
}

static void write_config(w15_thread_t *t, surf_t *s)
{
    if (s->have_cfg && !s->cfg_written && put_pseudo(t, W15F_wip15ContextConfig, s->cfg, NCFG) == 0)
        s->cfg_written = 1;
}

/* ------------------------------------------------------------ configurations */

enum {
    /* GLX */
    GLX_DOUBLEBUFFER_ = 5, GLX_RED_SIZE_ = 8, GLX_GREEN_SIZE_ = 9, GLX_BLUE_SIZE_ = 10,
    GLX_ALPHA_SIZE_ = 11, GLX_DEPTH_SIZE_ = 12, GLX_STENCIL_SIZE_ = 13, GLX_SAMPLES_ = 100001,
    GLX_FRAMEBUFFER_SRGB_CAPABLE_ = 0x20B2, GLX_CONTEXT_MAJOR_VERSION_ = 0x2091,
    GLX_CONTEXT_MINOR_VERSION_ = 0x2092, GLX_CONTEXT_FLAGS_ = 0x2094, GLX_CONTEXT_PROFILE_MASK_ = 0x9126,
    GLX_CONTEXT_ES_PROFILE_BIT_ = 4, GLX_CONTEXT_RESET_NOTIFICATION_STRATEGY_ = 0x8256,
    GLX_LOSE_CONTEXT_ON_RESET_ = 0x8252, GLX_CONTEXT_OPENGL_NO_ERROR_ = 0x31B3,
    GLX_WIDTH_ = 0x801D, GLX_HEIGHT_ = 0x801E,
    /* EGL */
    EGL_ALPHA_SIZE_ = 0x3021, EGL_BLUE_SIZE_ = 0x3022, EGL_GREEN_SIZE_ = 0x3023, EGL_RED_SIZE_ = 0x3024,
    EGL_DEPTH_SIZE_ = 0x3025, EGL_STENCIL_SIZE_ = 0x3026, EGL_SAMPLES_ = 0x3031, EGL_NONE_ = 0x3038,
    EGL_HEIGHT_ = 0x3056, EGL_WIDTH_ = 0x3057, EGL_CONTEXT_MAJOR_VERSION_ = 0x3098,
    EGL_CONTEXT_MINOR_VERSION_ = 0x30FB, EGL_CONTEXT_FLAGS_ = 0x30FC, EGL_CONTEXT_OPENGL_PROFILE_MASK_ = 0x30FD,
    EGL_CONTEXT_OPENGL_DEBUG_ = 0x31B0, EGL_CONTEXT_OPENGL_FORWARD_COMPATIBLE_ = 0x31B1,
    EGL_CONTEXT_OPENGL_ROBUST_ACCESS_ = 0x31B2, EGL_CONTEXT_OPENGL_NO_ERROR_ = 0x31B3,
    EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY_ = 0x31BD,
    EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY_EXT_ = 0x3138, EGL_LOSE_CONTEXT_ON_RESET_ = 0x31BF,
    EGL_OPENGL_ES_API_ = 0x30A0, EGL_OPENGL_API_ = 0x30A2,
};

/* wip15ContextConfig's flags beyond the creation APIs' bits 1 debug,
 * 2 forward-compatible, 4 robust access, 8 reset isolation. */
#define CFG_NO_ERROR 0x10000u
#define CFG_LOSE_ON_RESET 0x20000u
/* argument positions */
enum {
    A_CONTEXT, A_SHARE, A_API, A_MAJOR, A_MINOR, A_PROFILE, A_FLAGS, A_RED, A_GREEN, A_BLUE, A_ALPHA,
    A_DEPTH, A_STENCIL, A_SAMPLES, A_DOUBLE, A_SRGB,
};

typedef int (*glx_attr_fn)(void *dpy, const void *cfg_or_visual, int attr, int *value);
typedef unsigned (*egl_attr_fn)(void *dpy, const void *cfg, int attr, int *value);
typedef unsigned (*egl_query_api_fn)(void);

/* The configuration's bits, from GLX (fn: glXGetFBConfigAttrib or
 * glXGetConfig) or EGL. */
static void glx_bits(uint64_t *v, void *dpy, const void *cfg, glx_attr_fn fn)
{
    static const int attr[] = { GLX_RED_SIZE_, GLX_GREEN_SIZE_, GLX_BLUE_SIZE_, GLX_ALPHA_SIZE_,
                                GLX_DEPTH_SIZE_, GLX_STENCIL_SIZE_, GLX_SAMPLES_, GLX_DOUBLEBUFFER_,
                                GLX_FRAMEBUFFER_SRGB_CAPABLE_ };
    for (unsigned i = 0; i < sizeof attr / sizeof attr[0]; i++) {
        int x = 0;
        if (fn(dpy, cfg, attr[i], &x) != 0) /* GLX_BAD_ATTRIBUTE...: not known there */
            x = 0;
        v[A_RED + i] = (uint64_t)(int64_t)x;
    }
}

static void egl_bits(uint64_t *v, void *dpy, const void *cfg)
{
    static const int attr[] = { EGL_RED_SIZE_, EGL_GREEN_SIZE_, EGL_BLUE_SIZE_, EGL_ALPHA_SIZE_,
                                EGL_DEPTH_SIZE_, EGL_STENCIL_SIZE_, EGL_SAMPLES_ };
    egl_attr_fn fn = (egl_attr_fn)W15_REAL(W15F_eglGetConfigAttrib);
    for (unsigned i = 0; i < sizeof attr / sizeof attr[0]; i++) {
        int x = 0;
        if (!fn(dpy, cfg, attr[i], &x))
            x = 0;
        v[A_RED + i] = (uint64_t)(int64_t)x;
    }
    /* EGL configs have neither: double buffering and the colour space are
     * chosen per surface (EGL_RENDER_BUFFER, EGL_GL_COLORSPACE), and every
     * surface but a pixmap or a single-buffered window renders to a back
     * buffer */
    v[A_DOUBLE] = 1;
    v[A_SRGB] = 0;
}

/* The version, profile and flags an attribute list asks for (pairs up to
 * the terminator; the creation succeeded, so the list was well formed). */
static void glx_attribs(uint64_t *v, const int *a)
{
    for (; a && a[0] != 0; a += 2) {
        switch (a[0]) {
        case GLX_CONTEXT_MAJOR_VERSION_: v[A_MAJOR] = (uint64_t)(int64_t)a[1]; break;
        case GLX_CONTEXT_MINOR_VERSION_: v[A_MINOR] = (uint64_t)(int64_t)a[1]; break;
        case GLX_CONTEXT_PROFILE_MASK_: v[A_PROFILE] = (uint32_t)a[1]; break;
        case GLX_CONTEXT_FLAGS_: v[A_FLAGS] |= (uint32_t)a[1] & 0xFFFFu; break;
        case GLX_CONTEXT_OPENGL_NO_ERROR_: if (a[1]) v[A_FLAGS] |= CFG_NO_ERROR; break;
        case GLX_CONTEXT_RESET_NOTIFICATION_STRATEGY_:
            if (a[1] == GLX_LOSE_CONTEXT_ON_RESET_)
                v[A_FLAGS] |= CFG_LOSE_ON_RESET;
            break;
        default: break;
        }
    }
    if (v[A_PROFILE] & GLX_CONTEXT_ES_PROFILE_BIT_)
        v[A_API] = EGL_OPENGL_ES_API_;
}

static void egl_attribs(uint64_t *v, const int *a)
{
    for (; a && a[0] != EGL_NONE_; a += 2) {
        switch (a[0]) {
        case EGL_CONTEXT_MAJOR_VERSION_: v[A_MAJOR] = (uint64_t)(int64_t)a[1]; break;
        case EGL_CONTEXT_MINOR_VERSION_: v[A_MINOR] = (uint64_t)(int64_t)a[1]; break;
        case EGL_CONTEXT_OPENGL_PROFILE_MASK_: v[A_PROFILE] = (uint32_t)a[1]; break;
        case EGL_CONTEXT_FLAGS_: v[A_FLAGS] |= (uint32_t)a[1] & 0xFFFFu; break;
        case EGL_CONTEXT_OPENGL_DEBUG_: if (a[1]) v[A_FLAGS] |= 1; break;
        case EGL_CONTEXT_OPENGL_FORWARD_COMPATIBLE_: if (a[1]) v[A_FLAGS] |= 2; break;
        case EGL_CONTEXT_OPENGL_ROBUST_ACCESS_: if (a[1]) v[A_FLAGS] |= 4; break;
        case EGL_CONTEXT_OPENGL_NO_ERROR_: if (a[1]) v[A_FLAGS] |= CFG_NO_ERROR; break;
        case EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY_:
        case EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY_EXT_:
            if (a[1] == EGL_LOSE_CONTEXT_ON_RESET_)
                v[A_FLAGS] |= CFG_LOSE_ON_RESET;
            break;
        default: break;
        }
    }
}

/* After creation call `id` returned context `ctx`: its configuration into
 * s->cfg, its share group.  Returns the share context. */
static void *config_of(uint32_t id, const w15_slot_t *args, void *ctx, surf_t *s)
{
    uint64_t *v = s->cfg;
    memset(v, 0, sizeof s->cfg);
    v[A_CONTEXT] = (uint64_t)(uintptr_t)ctx;
    v[A_API] = EGL_OPENGL_API_;
    v[A_MAJOR] = 1; /* every creation API's default version is 1.0 */
    void *dpy = (void *)args[0].p, *share = NULL;
    const void *cfg = args[1].p;
    switch (id) {
    case W15F_glXCreateContext: /* (dpy, visual, share, direct) */
        share = (void *)args[2].p;
        if (cfg)
            glx_bits(v, dpy, cfg, (glx_attr_fn)W15_REAL(W15F_glXGetConfig));
        s->kind = K_GLX;
        break;
    case W15F_glXCreateNewContext:              /* (dpy, config, render_type, share, direct) */
    case W15F_glXCreateContextWithConfigSGIX: /* the same */
        share = (void *)args[3].p;
        if (cfg)
            glx_bits(v, dpy, cfg, (glx_attr_fn)W15_REAL(W15F_glXGetFBConfigAttrib));
        s->kind = K_GLX;
        break;
    case W15F_glXCreateContextAttribsARB: /* (dpy, config, share, direct, attribs) */
        share = (void *)args[2].p;
        if (cfg)
            glx_bits(v, dpy, cfg, (glx_attr_fn)W15_REAL(W15F_glXGetFBConfigAttrib));
        glx_attribs(v, (const int *)args[4].p);
        s->kind = K_GLX;
        break;
    case W15F_eglCreateContext: /* (dpy, config, share, attribs) */
        share = (void *)args[2].p;
        v[A_API] = ((egl_query_api_fn)W15_REAL(W15F_eglQueryAPI))();
        if (cfg) /* not EGL_NO_CONFIG_KHR */
            egl_bits(v, dpy, cfg);
        egl_attribs(v, (const int *)args[3].p);
        s->kind = K_EGL;
        break;
    default:
        return NULL;
    }
    v[A_SHARE] = (uint64_t)(uintptr_t)share;
    s->dbl = cfg ? (int)v[A_DOUBLE] : -1;
    s->have_cfg = 1;
    return share;
}

static void context_created(w15_thread_t *t, uint32_t id, const w15_slot_t *args, void *ctx, int rec)
{
    pthread_mutex_lock(&surf_lock);
    /* a record under this handle is a destroyed context's whose memory the
     * driver reused: it goes */
    w15_ctx_t *c = w15_ctx_find(ctx, 0);
    if (c)
        forget_locked(ctx);
    c = w15_ctx_find(ctx, 1);
    surf_t *s = surf_of(c, 1);
    pthread_mutex_unlock(&surf_lock);
    if (!s)
        return;
    void *share = config_of(id, args, ctx, s);
    if (share) {
        w15_ctx_t *sc = w15_ctx_find(share, 1);
        if (sc)
            c->share_group = sc->share_group;
    }
    if (rec)
        write_config(t, s);
}

static void context_destroyed(void *ctx)
{
    pthread_mutex_lock(&surf_lock);
    w15_ctx_t *c = w15_ctx_find(ctx, 0);
    if (c) {
        if (!w15_ctx_current_anywhere(c)) {
            forget_locked(ctx);
        } else {
            surf_t *s = surf_of(c, 1);
            if (s)
                s->destroyed = 1; /* current somewhere: forgotten when released */
        }
    }
    pthread_mutex_unlock(&surf_lock);
}

/* ------------------------------------------------------------ drawable sizes */

/* The last size written per drawable. */
#define NDRAW 64
static struct dsize {
    int kind;
    uint64_t handle;
    int w, h;
    uint64_t used;
} dtab[NDRAW];
static uint64_t dclock;

/* Note drawable (kind, d) at w x h; returns 1 when that is news (first
 * sight, or another size than the last one written). */
/* Drawable (kind, d)'s entry, or NULL (surf_lock held). */
static struct dsize *dsize_find(int kind, uint64_t d)
{
    for (int i = 0; i < NDRAW; i++)
        if (dtab[i].kind == kind && dtab[i].handle == d)
            return &dtab[i];
    return NULL;
}

static int dsize_changed(int kind, uint64_t d, int w, int h)
{
    pthread_mutex_lock(&surf_lock);
    struct dsize *e = dsize_find(kind, d);
    int news = !e || e->w != w || e->h != h;
    if (!e) {
        e = &dtab[0]; /* the least recently used */
        for (int i = 1; i < NDRAW; i++)
            if (dtab[i].used < e->used)
                e = &dtab[i];
        e->kind = kind;
        e->handle = d;
    }
    e->w = w;
    e->h = h;
    e->used = ++dclock;
    pthread_mutex_unlock(&surf_lock);
    return news;
}

/* The last size written for drawable (kind, d), if it is still in the
 * table: 1 with *w, *h. */
static int dsize_known(int kind, uint64_t d, int *w, int *h)
{
    pthread_mutex_lock(&surf_lock);
    const struct dsize *e = dsize_find(kind, d);
    int found = e && e->w > 0 && e->h > 0;
    if (found) {
        *w = e->w;
        *h = e->h;
    }
    pthread_mutex_unlock(&surf_lock);
    return found;
}

/* GLX through XCB: GetDrawableAttributes on the program's connection, the
 * error (if any) returned with the reply. */
typedef struct { unsigned int sequence; } xcb_cookie_t_;
typedef void *(*x_get_xcb_fn)(void *dpy);
typedef xcb_cookie_t_ (*xcb_gda_fn)(void *conn, uint32_t drawable);
typedef void *(*xcb_gda_reply_fn)(void *conn, xcb_cookie_t_ cookie, void **error);
static pthread_once_t xcb_once = PTHREAD_ONCE_INIT;
static x_get_xcb_fn x_get_xcb;
static xcb_gda_fn xcb_gda;
static xcb_gda_reply_fn xcb_gda_reply;

static void xcb_init(void)
{
    /* loaded already by Mesa's GLX (never loaded by us) */
    void *hx = dlopen("libX11-xcb.so.1", RTLD_LAZY | RTLD_NOLOAD);
    void *hg = dlopen("libxcb-glx.so.0", RTLD_LAZY | RTLD_NOLOAD);
    if (!hx || !hg)
        return;
    x_get_xcb = (x_get_xcb_fn)w15_real_dlsym(hx, "XGetXCBConnection");
    xcb_gda = (xcb_gda_fn)w15_real_dlsym(hg, "xcb_glx_get_drawable_attributes");
    xcb_gda_reply = (xcb_gda_reply_fn)w15_real_dlsym(hg, "xcb_glx_get_drawable_attributes_reply");
    if (!x_get_xcb || !xcb_gda || !xcb_gda_reply)
        x_get_xcb = NULL;
}

/* Our own connection to the program's X server, for the size requests
 * whose replies are taken later (recheck_send): the program may close its
 * display in between, and nothing of ours then touches its connection.
 * One, to the display first asked for; opened at the first need, and again
 * in a forked child (which leaves the parent's alone).  NULL when it cannot
 * be had (the size is then asked on the program's connection, waited for). */
typedef void *(*xcb_connect_fn)(const char *name, int *screen);
typedef int (*xcb_has_error_fn)(void *conn);
typedef const char *(*x_display_string_fn)(void *dpy);
static pthread_mutex_t own_lock = PTHREAD_MUTEX_INITIALIZER;
static void *own_conn;
static char own_name[256];
static pid_t own_pid;
static int own_failed;

static void *own_connection(void *dpy)
{
    static xcb_connect_fn connect_;
    static xcb_has_error_fn has_error;
    static x_display_string_fn display_string;
    void *c = NULL;
    pthread_mutex_lock(&own_lock);
    if (own_pid != getpid()) {
        own_pid = getpid();
        own_conn = NULL;
        own_name[0] = 0;
    }
    if (!connect_ && !own_failed) {
        void *hx = dlopen("libxcb.so.1", RTLD_LAZY | RTLD_NOLOAD);
        void *h11 = dlopen("libX11.so.6", RTLD_LAZY | RTLD_NOLOAD);
        if (hx && h11) {
            connect_ = (xcb_connect_fn)w15_real_dlsym(hx, "xcb_connect");
            has_error = (xcb_has_error_fn)w15_real_dlsym(hx, "xcb_connection_has_error");
            display_string = (x_display_string_fn)w15_real_dlsym(h11, "XDisplayString");
        }
        if (!connect_ || !has_error || !display_string) {
            connect_ = NULL;
            own_failed = 1;
        }
    }
    const char *name = own_failed ? NULL : display_string(dpy);
    if (name && !own_conn && strlen(name) < sizeof own_name) {
        void *nc = connect_(name, NULL);
        if (nc && !has_error(nc)) {
            own_conn = nc;
            strcpy(own_name, name);
        } else {
            own_failed = 1; /* (a failed connection is kept: it holds no socket) */
        }
    }
    if (own_conn && name && !strcmp(name, own_name))
        c = own_conn;
    pthread_mutex_unlock(&own_lock);
    return c;
}

/* The reply to GetDrawableAttributes `seq` on conn (waited for): 1 with
 * the width and height, else 0. */
static int gda_take(void *conn, unsigned seq, int *w, int *h)
{
    void *err = NULL;
    uint8_t *r = xcb_gda_reply(conn, (xcb_cookie_t_){seq}, &err);
    free(err);
    if (!r)
        return 0;
    uint32_t n;
    memcpy(&n, r + 8, 4); /* num_attribs; the pairs follow the 32-byte reply */
    int got = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t kv[2];
        memcpy(kv, r + 32 + 8 * (size_t)i, 8);
        if (kv[0] == GLX_WIDTH_)
            *w = (int)kv[1], got |= 1;
        else if (kv[0] == GLX_HEIGHT_)
            *h = (int)kv[1], got |= 2;
    }
    free(r);
    return got == 3;
}

/* 1 with the size, 0 when unknown.  `safe_only`: only a query that cannot
 * reach the program (XCB), no glXQueryDrawable. */
static int glx_size(void *dpy, uint64_t d, int safe_only, int *w, int *h)
{
    pthread_once(&xcb_once, xcb_init);
    if (x_get_xcb) {
        void *conn = x_get_xcb(dpy);
        return conn && gda_take(conn, xcb_gda(conn, (uint32_t)d).sequence, w, h);
    }
    if (safe_only)
        return 0;
    typedef void (*qd_fn)(void *, unsigned long, int, unsigned *);
    qd_fn qd = (qd_fn)W15_REAL(W15F_glXQueryDrawable);
    unsigned uw = 0, uh = 0;
    qd(dpy, (unsigned long)d, GLX_WIDTH_, &uw);
    qd(dpy, (unsigned long)d, GLX_HEIGHT_, &uh);
    *w = (int)uw;
    *h = (int)uh;
    return uw > 0 && uh > 0;
}

static int egl_size(void *dpy, uint64_t d, int *w, int *h)
{
    typedef unsigned (*qs_fn)(void *, void *, int, int *);
    qs_fn qs = (qs_fn)W15_REAL(W15F_eglQuerySurface);
    return qs(dpy, (void *)(uintptr_t)d, EGL_WIDTH_, w) && qs(dpy, (void *)(uintptr_t)d, EGL_HEIGHT_, h);
}

/* Drawable (kind, d) is w x h: wip15DrawableSize when that is news (in
 * front of the call being encoded when `before_call`). */
static void note_size_at(w15_thread_t *t, int kind, uint64_t d, int w, int h, int before_call)
{
    if (dsize_changed(kind, d, w, h)) {
        uint64_t v[3] = { d, (uint64_t)(int64_t)w, (uint64_t)(int64_t)h };
        if (put_pseudo_at(t, W15F_wip15DrawableSize, v, 3, before_call))
            dsize_changed(kind, d, 0, 0); /* not written: write it next time */
    }
}

static void note_size(w15_thread_t *t, int kind, uint64_t d, int w, int h)
{
    note_size_at(t, kind, d, w, h, 0);
}

/* Check drawable d's size (the thread's current context's, kind s->kind)
 * and write wip15DrawableSize when it is news.  Returns 1 with *w, *h. */
static int check_drawable_at(w15_thread_t *t, surf_t *s, uint64_t d, int safe_only, int *w, int *h,
                             int before_call)
{
    int ok = s->kind == K_GLX ? glx_size(s->dpy, d, safe_only, w, h) : egl_size(s->dpy, d, w, h);
    if (!ok)
        return 0;
    note_size_at(t, s->kind, d, *w, *h, before_call);
    return 1;
}

static int check_drawable(w15_thread_t *t, surf_t *s, uint64_t d, int safe_only, int *w, int *h)
{
    return check_drawable_at(t, s, d, safe_only, w, h, 0);
}

/* MakeCurrent of a GLX drawable whose size was written before: that size
 * is taken as the drawable's, and the request that checks it is sent on
 * our own connection without waiting for the reply (recheck_take takes
 * it).  A round trip to the X server inside every MakeCurrent costs the
 * program its latency, and changed Mesa's own work in a program making
 * many contexts (docs/PERFORMANCE.md "Start-up, short programs"): 1, or 0
 * when the size is to be checked now. */
static int recheck_send(surf_t *s)
{
    int w, h;
    if (s->kind != K_GLX || !dsize_known(K_GLX, s->draw, &w, &h))
        return 0;
    pthread_once(&xcb_once, xcb_init);
    void *conn = x_get_xcb ? own_connection(s->dpy) : NULL;
    if (!conn)
        return 0;
    s->ck_seq = xcb_gda(conn, (uint32_t)s->draw).sequence;
    s->ck_conn = conn;
    s->ck_out = 1;
    s->w = w;
    s->h = h;
    return 1;
}

/* The reply to recheck_send's request, at the context's next call that
 * draws, clears, reads or consumes, its swap or the thread's next
 * MakeCurrent (always before its drawable changes): a size other than the
 * one written goes into the trace there (with `rec`). */
static void recheck_take(w15_thread_t *t, surf_t *s, int rec)
{
    if (!s || !s->ck_out)
        return;
    s->ck_out = 0;
    /* sent by the parent of a forked child: its connection is the
     * parent's, and its reply the parent's to take */
    pthread_mutex_lock(&own_lock);
    int ours = own_pid == getpid() && s->ck_conn == own_conn;
    pthread_mutex_unlock(&own_lock);
    int w, h;
    if (!ours || !gda_take(s->ck_conn, s->ck_seq, &w, &h))
        return;
    s->w = w;
    s->h = h;
    if (rec)
        note_size(t, K_GLX, s->draw, w, h);
}

/* The per-frame check of the draw drawable. */
static void check_frame_at(w15_thread_t *t, surf_t *s, int safe_only, int before_call)
{
    int w = 0, h = 0;
    if (check_drawable_at(t, s, s->draw, safe_only, &w, &h, before_call)) {
        s->w = w;
        s->h = h;
        s->pending = 0;
    }
}

static void check_frame(w15_thread_t *t, surf_t *s, int safe_only)
{
    check_frame_at(t, s, safe_only, 0);
}

/* The size the driver asked the X server for during the call under way
 * (present.h), when it asked: the drawable's size is then known without a
 * round trip of ours.  1 with it noted (in front of the call being encoded
 * when `before_call`), else 0. */
static int driver_size(w15_thread_t *t, surf_t *s, int before_call)
{
    int w, h;
    if (!w15_present_geometry(t, &w, &h))
        return 0;
    s->w = w;
    s->h = h;
    s->pending = 0;
    note_size_at(t, K_GLX, s->draw, w, h, before_call);
    return 1;
}

/* ------------------------------------------------------------ frame digests */

enum {
    GL_BACK_ = 0x0405, GL_FRONT_ = 0x0404, GL_IMPLEMENTATION_COLOR_READ_TYPE_ = 0x8B9A,
    GL_IMPLEMENTATION_COLOR_READ_FORMAT_ = 0x8B9B,
    GL_RGB_ = 0x1907, GL_RGBA_ = 0x1908, GL_BGRA_ = 0x80E1, GL_UNSIGNED_BYTE_ = 0x1401,
    GL_UNSIGNED_SHORT_5_6_5_ = 0x8363, GL_UNSIGNED_SHORT_4_4_4_4_ = 0x8033,
    GL_UNSIGNED_SHORT_5_5_5_1_ = 0x8034, GL_UNSIGNED_SHORT_1_5_5_5_REV_ = 0x8366,
    GL_UNSIGNED_INT_8_8_8_8_REV_ = 0x8367, GL_UNSIGNED_INT_2_10_10_10_REV_ = 0x8368,
};

/* has_ext for w15_rs_caps: the current context's extensions */
static int ctx_has_ext(void *arg, const char *ext)
{
    (void)arg;
    return w15_context_has_ext(ext);
}

static uint32_t caps_of(void)
{
    int major = 0, minor = 0, api = w15_context_api(&major, &minor);
    return w15_rs_caps(api, major, minor, api == 1 && w15_context_compat(), ctx_has_ext, NULL);
}

/* A read format the implementation prefers, if it is a plain colour one:
 * bytes per pixel, else 0. */
static uint32_t format_bpp(uint32_t fmt, uint32_t type)
{
    switch (type) {
    case GL_UNSIGNED_BYTE_:
        return fmt == GL_RGBA_ || fmt == GL_BGRA_ ? 4 : fmt == GL_RGB_ ? 3 : 0;
    case GL_UNSIGNED_INT_8_8_8_8_REV_:
    case GL_UNSIGNED_INT_2_10_10_10_REV_:
        return fmt == GL_RGBA_ || fmt == GL_BGRA_ ? 4 : 0;
    case GL_UNSIGNED_SHORT_5_6_5_:
        return fmt == GL_RGB_ ? 2 : 0;
    case GL_UNSIGNED_SHORT_4_4_4_4_:
    case GL_UNSIGNED_SHORT_5_5_5_1_:
    case GL_UNSIGNED_SHORT_1_5_5_5_REV_:
        return fmt == GL_RGBA_ || fmt == GL_BGRA_ ? 2 : 0;
    default:
        return 0;
    }
}

typedef void (*read_fn)(int, int, int, int, unsigned, unsigned, void *);

#define REAL(id, type) ((type)W15_REAL(W15F_##id))

/* The real GL functions readstate.h calls, for a context with `caps` (the
 * framebuffer binding call the caps name). */
static void rs_functions(uint32_t caps, w15_rs_gl_t *gl)
{
    gl->GetIntegerv = REAL(glGetIntegerv, void (*)(unsigned, int *));
    gl->GetFloatv = REAL(glGetFloatv, void (*)(unsigned, float *));
    gl->PixelStorei = REAL(glPixelStorei, void (*)(unsigned, int));
    gl->PixelTransferi = (caps & W15_RS_XFER) ? REAL(glPixelTransferi, void (*)(unsigned, int)) : NULL;
    gl->PixelTransferf = (caps & W15_RS_XFER) ? REAL(glPixelTransferf, void (*)(unsigned, float)) : NULL;
    gl->IsEnabled = REAL(glIsEnabled, unsigned char (*)(unsigned));
    gl->Enable = REAL(glEnable, void (*)(unsigned));
    gl->Disable = REAL(glDisable, void (*)(unsigned));
    gl->BindBuffer = (caps & W15_RS_PBO) ? REAL(glBindBuffer, void (*)(unsigned, unsigned)) : NULL;
    gl->ReadBuffer = (caps & W15_RS_READBUF) ? REAL(glReadBuffer, void (*)(unsigned)) : NULL;
    gl->BindFramebuffer = NULL;
    if (caps & W15_RS_FB_OES)
        gl->BindFramebuffer = REAL(glBindFramebufferOES, void (*)(unsigned, unsigned));
    else if (caps & W15_RS_FB_EXT)
        gl->BindFramebuffer = REAL(glBindFramebufferEXT, void (*)(unsigned, unsigned));
    else if (caps & (W15_RS_FB_READ | W15_RS_FB_BOTH))
        gl->BindFramebuffer = REAL(glBindFramebuffer, void (*)(unsigned, unsigned));
}

/* The digest of the frame the swap shows, read back and written; 1 with
 * it in *digest, else 0. */
static int frame_digest(w15_thread_t *t, surf_t *s, uint64_t *digest)
{
    int w = s->w, h = s->h;
    if (w <= 0 || h <= 0 || (t->ctx && t->ctx->in_begin))
        return 0; /* no query is legal between glBegin and glEnd */
    if (!s->caps_known) {
        s->caps = caps_of();
        s->caps_known = 1;
    }
    uint32_t caps = s->caps;
    int e = errno;
    w15_rs_gl_t gl;
    rs_functions(caps, &gl);
    w15_rs_saved_t sv;
    memset(&sv, 0, sizeof sv);

    /* the default framebuffer, its back buffer (front when single-buffered) */
    w15_rs_bind(&gl, caps, s->dbl == 0 ? GL_FRONT_ : GL_BACK_, &sv);
    if (!s->rbpp) {
        uint32_t f = GL_RGBA_, ty = GL_UNSIGNED_BYTE_, bpp = 4;
        const uint64_t *v = s->cfg;
        if (s->have_cfg && v[A_RED] == 8 && v[A_GREEN] == 8 && v[A_BLUE] == 8 && v[A_ALPHA] == 8 &&
            ((caps & W15_RS_DESKTOP) || w15_context_has_ext("GL_EXT_read_format_bgra"))) {
            /* X11's 32-bit visuals are B8G8R8A8 in memory, and Mesa reads
             * them without a conversion only as GL_BGRA (4x faster on
             * llvmpipe), though it names GL_RGBA as its preferred format;
             * it is also the order of the image a software driver shows
             * (present.h).  GLES reads it with GL_EXT_read_format_bgra. */
            f = GL_BGRA_;
        } else if (caps & W15_RS_IMPL_FMT) {
            uint32_t f2 = (uint32_t)w15_context_get_int(GL_IMPLEMENTATION_COLOR_READ_FORMAT_, 0);
            uint32_t t2 = (uint32_t)w15_context_get_int(GL_IMPLEMENTATION_COLOR_READ_TYPE_, 0);
            uint32_t b2 = format_bpp(f2, t2);
            if (b2)
                f = f2, ty = t2, bpp = b2;
        }
        s->rfmt = f;
        s->rtype = ty;
        s->rbpp = bpp;
    }
    size_t row = (size_t)w * s->rbpp;
    /* pack buffer, pack store, pixel transfer */
    w15_rs_pack(&gl, s->rtype != GL_UNSIGNED_BYTE_, row, &sv);

    /* In strips of rows, bottom-up, each hashed while it is still in the
     * cache: the same bytes in the same order as one read of the whole
     * buffer, so the same digest, without writing 1.9 MB (800x600) to
     * memory and reading it back (docs/PERFORMANCE.md "Frame digests").  A
     * multisampled buffer is read in one piece (each read resolves it). */
    int ok = 0;
    int strip = h;
    if (s->have_cfg && s->cfg[A_SAMPLES] <= 1) {
        size_t rows = STRIP_BYTES / row;
        strip = rows < 1 ? 1 : rows > (size_t)h ? h : (int)rows;
    }
    size_t need = row * (size_t)strip;
    if (need > s->pixcap) {
        uint8_t *p = realloc(s->pix, need);
        if (p) {
            s->pix = p;
            s->pixcap = need;
        }
    }
    if (!s->hash)
        s->hash = w15_fhash_new();
    if (need <= s->pixcap && s->hash) {
        w15_fhash_reset(s->hash);
        for (int y = 0; y < h; y += strip) {
            int n = h - y < strip ? h - y : strip;
            REAL(glReadPixels, read_fn)(0, y, w, n, s->rfmt, s->rtype, s->pix);
            w15_fhash_update(s->hash, s->pix, row * (size_t)n);
        }
        ok = 1;
    }

    w15_rs_restore(&gl, &sv);
    errno = e;

    if (!ok)
        return 0;
    *digest = w15_fhash_digest(s->hash);
    uint64_t v[6] = { atomic_load_explicit(&w15_frame, memory_order_relaxed), (uint64_t)(int64_t)w,
                      (uint64_t)(int64_t)h, s->rfmt, s->rtype, *digest };
    if (put_pseudo(t, W15F_wip15FrameDigest, v, 6))
        return 0;
    atomic_fetch_add_explicit(&n_read, 1, memory_order_relaxed);
    return 1;
}

/* Whether the frame's digest may come from the image the driver shows:
 * a double-buffered drawable read as GL_BGRA bytes, whose size is known. */
static int put_eligible(const surf_t *s)
{
    return s->put_mode >= 0 && !w15_cfg.frame_readback && s->dbl == 1 && s->rfmt == GL_BGRA_ && s->rtype == GL_UNSIGNED_BYTE_ &&
           s->w > 0 && s->h > 0;
}

/* Before the swap: a digest for this frame, read back (then, while the
 * driver's image is not known to give the same, hashed from it too, to
 * compare) or taken from the driver's image during the swap. */
static void digest_frame(w15_thread_t *t, surf_t *s)
{
    s->put_armed = 0;
    void *dpy = s->kind == K_GLX ? s->dpy : NULL;
    if (s->put_mode == 1 && put_eligible(s) && ++s->put_since < PUT_RECHECK) {
        s->put_frame = atomic_load_explicit(&w15_frame, memory_order_relaxed);
        w15_present_expect(t, dpy, s->w, s->h);
        s->put_armed = PUT_TRUST;
        return;
    }
    uint64_t d;
    if (frame_digest(t, s, &d) && put_eligible(s)) {
        s->rp_digest = d;
        s->put_since = 0;
        w15_present_expect(t, dpy, s->w, s->h);
        s->put_armed = PUT_VERIFY;
    }
}

void w15_surfaces_report(void)
{
    uint64_t r = atomic_load(&n_read), sh = atomic_load(&n_shown);
    if (w15_cfg.frame_digests && r + sh)
        w15_info("%llu frame digests: %llu from the images shown, %llu read back", (unsigned long long)(r + sh),
                 (unsigned long long)sh, (unsigned long long)r);
}

void w15_surfaces_extras(w15_thread_t *t)
{
    surf_t *s = surf_of(t->ctx, 0);
    if (s && s->geo_armed) {
        /* the frame's first drawing call: its size, from the driver's
         * question or asked now, goes in front of it */
        s->geo_armed = 0;
        if (!driver_size(t, s, 1))
            check_frame_at(t, s, 1, 1);
    }
    if (!s || !s->put_armed)
        return;
    int armed = s->put_armed;
    s->put_armed = 0;
    uint64_t d;
    int got = w15_present_take(t, &d);
    if (armed == PUT_TRUST) {
        if (got) {
            uint64_t v[6] = { s->put_frame, (uint64_t)(int64_t)s->w, (uint64_t)(int64_t)s->h, s->rfmt, s->rtype,
                              d };
            if (put_pseudo_at(t, W15F_wip15FrameDigest, v, 6, 1) == 0)
                atomic_fetch_add_explicit(&n_shown, 1, memory_order_relaxed);
            return;
        }
        static int warned;
        if (!warned) {
            warned = 1;
            w15_msg("frame %llu was not shown as the image of %dx%d pixels it was taken from so far: it has no "
                    "frame digest, and later frames are read back",
                    (unsigned long long)s->put_frame, s->w, s->h);
        }
        s->put_mode = -1;
        return;
    }
    if (got && d == s->rp_digest) {
        if (s->put_mode == 0 && ++s->put_agreed >= PUT_AGREE)
            s->put_mode = 1;
        return;
    }
    if (s->put_mode == 1 && got) {
        /* they agreed before and do no longer: the frames since the last
         * check may not be what glReadPixels would have read */
        static int warned;
        if (!warned) {
            warned = 1;
            w15_msg("the image shown for frame %llu differs from the frame read back: frame digests of the %u "
                    "frames before it may not match a replay; later frames are read back",
                    (unsigned long long)atomic_load_explicit(&w15_frame, memory_order_relaxed),
                    (unsigned)PUT_RECHECK - 1);
        }
    }
    s->put_mode = -1;
}

/* ------------------------------------------------------------ the hooks */

/* the context current before the MakeCurrent under way (pre -> post) */
static __thread void *mc_old;
/* 1 while the thread's EGL error is known to be EGL_SUCCESS: after an EGL
 * call that succeeded (every EGL command sets the error then) or
 * eglGetError (which resets it); 0 after one that failed or whose effect
 * on the error is not known.  eglQuerySurface is asked only then before
 * a swap, so the program's eglGetError never sees ours. */
static __thread int egl_clean;

/* The EGL error after EGL command `id` returned `ret`: 1 known
 * EGL_SUCCESS, 0 perhaps not, -1 unchanged (a call that sets no error
 * when it succeeds, and succeeded). */
static int egl_after(uint32_t id, const w15_slot_t *ret)
{
    if (id == W15F_eglGetError)
        return 1;
    if (!ret)
        return 0;
    switch (id) {
    case W15F_eglGetCurrentContext: case W15F_eglGetCurrentDisplay: case W15F_eglGetCurrentSurface:
    case W15F_eglGetProcAddress: case W15F_eglGetDisplay: case W15F_eglGetPlatformDisplay:
    case W15F_eglGetPlatformDisplayEXT:
        /* they need not set the error when they succeed (eglGetDisplay
         * "generates no error"); NULL: none, or an error */
        return ret->p ? -1 : 0;
    case W15F_eglQueryAPI:
        return -1; /* cannot fail */
    case W15F_eglClientWaitSync: case W15F_eglClientWaitSyncKHR: case W15F_eglClientWaitSyncNV:
        return ret->i != 0; /* EGL_FALSE on an error */
    default:
        break;
    }
    const w15_param_sig_t *r = &w15_params[w15_funcs[id].first_param + w15_funcs[id].nparams];
    switch (r->ctype) {
    case W15_C_PTR:
        return ret->p != NULL; /* a handle or string: NULL (EGL_NO_*) on an error */
    case W15_C_U32:
        return ret->u != 0; /* EGLBoolean */
    default:
        return 0;
    }
}

static uint64_t drawable_arg(const w15_slot_t *a)
{
    return (uint64_t)(uintptr_t)a->p;
}

void w15_surfaces_pre(w15_thread_t *t, uint32_t id, uint32_t flags, const w15_slot_t *args, int rec)
{
    if (flags & W15_FN_FRAME_END) {
        surf_t *s = surf_of(t->ctx, 0);
        /* the swap of the draw drawable of the current context */
        recheck_take(t, s, rec);
        if (!rec || !s || !s->draw || drawable_arg(&args[1]) != s->draw)
            return;
        write_config(t, s);
        if (s->pending)
            check_frame(t, s, 0);
        if (w15_cfg.frame_digests && s->read == s->draw && !s->pending &&
            atomic_load_explicit(&w15_frame, memory_order_relaxed) % w15_cfg.frame_digests == 0)
            digest_frame(t, s);
        return;
    }
    if (flags & W15_FN_MAKE_CURRENT) {
        recheck_take(t, surf_of(t->ctx, 0), rec); /* before the drawable changes */
        mc_old = t->context;
        if (rec && id != W15F_eglMakeCurrent && args[1].p)
            w15_present_watch(t, (void *)args[0].p, drawable_arg(&args[1])); /* GLX: (dpy, draw, ...) */
        const w15_func_sig_t *f = &w15_funcs[id];
        void *ctx = f->context_param < f->nparams ? (void *)args[f->context_param].p : NULL;
        if (rec && ctx) {
            /* created while nothing was recorded: its configuration now */
            surf_t *s = surf_of(w15_ctx_find(ctx, 0), 0);
            if (s)
                write_config(t, s);
        }
        return;
    }
    if (flags & (W15_FN_CONTEXT_CREATE | W15_FN_CONTEXT_DESTROY))
        return;
    /* a call that draws, clears, reads or consumes: the configuration of a
     * context created while nothing was recorded goes before its first
     * recorded use (not at the swap: an EGL frame's draws come first); the
     * first such call of a frame checks the drawable's size (an EGL one
     * while the EGL error is EGL_SUCCESS anyway, else at the swap) */
    surf_t *s = surf_of(t->ctx, 0);
    recheck_take(t, s, rec);
    if (!rec || !s)
        return;
    if (!s->cfg_written)
        write_config(t, s);
    if (s->geo_armed) {
        /* armed for a call whose extras did not run (not recorded) */
        int w, h;
        w15_present_geometry(t, &w, &h);
        s->geo_armed = 0;
    }
    if (s->pending && s->draw && s->kind == K_GLX) {
        /* the driver validates the drawable in this call: its size is
         * taken in w15_surfaces_extras, asked there only if it did not */
        w15_present_watch(t, s->dpy, s->draw);
        s->geo_armed = 1;
    } else if (s->pending && s->draw && egl_clean) {
        check_frame(t, s, 1);
    }
}

void w15_surfaces_post(w15_thread_t *t, uint32_t id, uint32_t flags, const w15_slot_t *args,
                       const w15_slot_t *ret, int rec)
{
    if (flags & W15_FN_EGL_ERROR) {
        int e = egl_after(id, ret);
        if (e >= 0)
            egl_clean = e;
    }
    if (flags & W15_FN_FRAME_END) {
        surf_t *s = surf_of(t->ctx, 0);
        if (s && s->put_armed) {
            /* the call was not recorded (w15_surfaces_extras did not run) */
            uint64_t d;
            w15_present_take(t, &d);
            s->put_armed = 0;
        }
        if (s && s->draw && drawable_arg(&args[1]) == s->draw)
            s->pending = 1; /* the next frame's size is checked */
        return;
    }
    if (flags & W15_FN_CONTEXT_CREATE) {
        void *ctx = ret ? (void *)ret->p : NULL;
        if (ctx)
            context_created(t, id, args, ctx, rec);
        return;
    }
    if (flags & W15_FN_CONTEXT_DESTROY) {
        /* glXDestroyContext (void) / eglDestroyContext (EGLBoolean), both
         * (dpy, ctx) */
        if ((!ret || ret->u) && args[1].p)
            context_destroyed((void *)args[1].p);
        return;
    }
    if (!(flags & W15_FN_MAKE_CURRENT))
        return;
    int geo_w, geo_h, geo = w15_present_geometry(t, &geo_w, &geo_h); /* the watch ends here */
    if (!ret || !ret->u)
        return;
    void *old = mc_old;
    mc_old = NULL;
    w15_ctx_t *c = t->ctx; /* the new current context (record.c set it) */
    surf_t *s = surf_of(c, 1);
    if (s) {
        s->kind = id == W15F_eglMakeCurrent ? K_EGL : K_GLX;
        s->dpy = (void *)args[0].p;
        s->draw = drawable_arg(&args[1]);
        s->read = id == W15F_glXMakeCurrent ? s->draw : drawable_arg(&args[2]);
        s->w = s->h = 0;
        s->pending = 1;
        if (rec && s->draw) {
            if (geo && s->kind == K_GLX) {
                /* the size the driver asked for inside the MakeCurrent */
                s->w = geo_w;
                s->h = geo_h;
                s->pending = 0;
                note_size(t, K_GLX, s->draw, geo_w, geo_h);
            } else if (recheck_send(s)) {
                s->pending = 0;
            } else {
                check_frame(t, s, 0);
            }
            int w, h;
            if (s->read && s->read != s->draw)
                check_drawable(t, s, s->read, 0, &w, &h);
        }
        if (!s->draw)
            s->pending = 0;
    }
    if (old && old != t->context) {
        /* a context destroyed while current is forgotten once released */
        pthread_mutex_lock(&surf_lock);
        w15_ctx_t *oc = w15_ctx_find(old, 0);
        surf_t *os = surf_of(oc, 0);
        if (os && os->destroyed && !w15_ctx_current_anywhere(oc))
            forget_locked(old);
        pthread_mutex_unlock(&surf_lock);
    }
}
