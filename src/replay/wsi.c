/* wsi.c -- the hand-written replay: GLX and EGL, and the default
 * framebuffer's size.
 *
 * Owns: the replay's display, configurations, contexts, surfaces and their
 * maps from the recorded handles; every rp_h_* handler the annotations
 * name (replay-custom); the GL function addresses.
 * May use: rp.h, libEGL (dlopen), libGL's GLX and Xlib (--window).
 * Must never: decode recorded values itself where rp_decode can (handlers
 * get decoded arguments), or be bypassed: it is the one module of
 * hand-written replay.
 *
 * Headless (default): every trace, GLX ones included, replays on EGL's
 * surfaceless platform (Mesa): desktop GL through EGL_OPENGL_API, GLES
 * through EGL_OPENGL_ES_API, each drawable a pbuffer (with the recorded
 * surface's colour space and texture format).  --window: windows are X
 * windows on $DISPLAY, GLX ones through GLX, EGL ones through EGL on the X
 * display (which also holds the EGL pbuffers and contexts then); headless,
 * a call that depends on a window's front buffer is noted once
 * (window_note).
 * Contexts are created at their first MakeCurrent, so that the
 * wip15ContextConfig that follows each creation in the trace (API, version,
 * profile, flags, the exact framebuffer configuration) is known by then;
 * without one (older traces) the create call's attributes and the chosen
 * configuration's attribute list are used.
 * Drawable sizes: wip15DrawableSize (at first MakeCurrent and whenever the
 * size changed) gives every drawable its recorded size, resized when it
 * changes; pbuffers have their recorded size anyway.  Traces without it:
 * a window takes the size of the first glViewport made while it is
 * current, DEFAULT_W x DEFAULT_H until then.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <GL/glx.h>

#include "funcs.h"
#include "rp.h"

#define DEFAULT_W 640
#define DEFAULT_H 480
#define ID_BASE ((uint64_t)1 << 48)

#ifndef EGL_PLATFORM_SURFACELESS_MESA
#define EGL_PLATFORM_SURFACELESS_MESA 0x31DD
#endif
#ifndef GLX_CONTEXT_MAJOR_VERSION_ARB
#define GLX_CONTEXT_MAJOR_VERSION_ARB 0x2091
#define GLX_CONTEXT_MINOR_VERSION_ARB 0x2092
#define GLX_CONTEXT_PROFILE_MASK_ARB 0x9126
#endif
#ifndef GLX_CONTEXT_ES2_PROFILE_BIT_EXT
#define GLX_CONTEXT_ES2_PROFILE_BIT_EXT 0x4
#endif

typedef struct rp_config {
    int red, green, blue, alpha, depth, stencil, samples;
    int srgb;
    int single;         /* single-buffered (wip15ContextConfig double_buffer false) */
    int from_glx;
    EGLConfig egl[3];   /* per RP_API_* chosen lazily (index 0 unused) */
    GLXFBConfig glx;
} rp_config_t;

typedef struct wsi {
    void *libegl;
    PFNEGLGETPROCADDRESSPROC GetProcAddress;
    PFNEGLGETPLATFORMDISPLAYEXTPROC GetPlatformDisplayEXT;
    EGLBoolean (*Initialize)(EGLDisplay, EGLint *, EGLint *);
    EGLBoolean (*Terminate)(EGLDisplay);
    EGLBoolean (*ChooseConfig)(EGLDisplay, const EGLint *, EGLConfig *, EGLint, EGLint *);
    EGLBoolean (*GetConfigAttrib)(EGLDisplay, EGLConfig, EGLint, EGLint *);
    EGLContext (*CreateContext)(EGLDisplay, EGLConfig, EGLContext, const EGLint *);
    EGLBoolean (*DestroyContext)(EGLDisplay, EGLContext);
    EGLSurface (*CreatePbufferSurface)(EGLDisplay, EGLConfig, const EGLint *);
    EGLSurface (*CreateWindowSurface)(EGLDisplay, EGLConfig, EGLNativeWindowType, const EGLint *);
    EGLBoolean (*DestroySurface)(EGLDisplay, EGLSurface);
    EGLBoolean (*MakeCurrent)(EGLDisplay, EGLSurface, EGLSurface, EGLContext);
    EGLBoolean (*SwapBuffers)(EGLDisplay, EGLSurface);
    EGLBoolean (*BindAPI)(EGLenum);
    EGLint (*GetError)(void);
    EGLBoolean (*ReleaseThread)(void);
    const char *(*QueryString)(EGLDisplay, EGLint);
    EGLBoolean (*QuerySurface)(EGLDisplay, EGLSurface, EGLint, EGLint *);
    EGLBoolean (*BindTexImage)(EGLDisplay, EGLSurface, EGLint);
    EGLBoolean (*ReleaseTexImage)(EGLDisplay, EGLSurface, EGLint);
    EGLImage (*CreateImage)(EGLDisplay, EGLContext, EGLenum, EGLClientBuffer, const EGLAttrib *);
    EGLImageKHR (*CreateImageKHR)(EGLDisplay, EGLContext, EGLenum, EGLClientBuffer, const EGLint *);
    EGLBoolean (*DestroyImage)(EGLDisplay, EGLImage);
    EGLBoolean (*DestroyImageKHR)(EGLDisplay, EGLImageKHR);
    int colorspace;     /* EGL_KHR_gl_colorspace */
    int no_config;      /* EGL_KHR_no_config_context */
    int egl_x11;        /* --window: dpy is EGL on the X display (EGL windows are X windows) */
    int front_noted;    /* the note that a headless replay has no front buffer was printed */
    EGLDisplay dpy;
    int initialized;
    /* --window */
    void *libgl;
    Display *xdpy;
    __GLXextFuncPtr (*glXGetProcAddressARB)(const GLubyte *);
    GLXFBConfig *(*glXChooseFBConfig)(Display *, int, const int *, int *);
    XVisualInfo *(*glXGetVisualFromFBConfig)(Display *, GLXFBConfig);
    GLXContext (*glXCreateContextAttribsARB)(Display *, GLXFBConfig, GLXContext, Bool, const int *);
    Bool (*glXMakeContextCurrent)(Display *, GLXDrawable, GLXDrawable, GLXContext);
    void (*glXSwapBuffers)(Display *, GLXDrawable);
    void (*glXDestroyContext)(Display *, GLXContext);
    void (*glXCopySubBufferMESA)(Display *, GLXDrawable, int, int, int, int);
    GLXWindow (*glXCreateWindow)(Display *, GLXFBConfig, Window, const int *);
    void (*glXDestroyWindow)(Display *, GLXWindow);
    /* GL for our own use */
    void (*GetIntegerv)(GLenum, GLint *);
    void (*Viewport)(GLint, GLint, GLsizei, GLsizei);
    const GLubyte *(*GetString)(GLenum);
    /* objects (freed at the end) */
    rp_config_t **cfgs;
    uint32_t ncfgs;
    rp_ctx_t **ctxs;
    uint32_t nctxs;
    rp_surface_t **surfs;
    uint32_t nsurfs;
} wsi_t;

#define W(st) ((wsi_t *)(st)->wsi)

static int surface_bound(rp_state_t *st, const rp_surface_t *s);

static void *grow(void *arr, uint32_t n, size_t es)
{
    if (n & (n - 1) && n > 8)
        return arr; /* room left (capacity is the next power of two) */
    uint32_t cap = n < 8 ? 8 : n * 2;
    return realloc(arr, (size_t)cap * es);
}

#define PUSH(arr, n, v)                                                     \
    ({                                                                      \
        void *na_ = grow((arr), (n), sizeof *(arr));                        \
        int ok_ = na_ != NULL;                                              \
        if (ok_) {                                                          \
            (arr) = na_;                                                    \
            (arr)[(n)++] = (v);                                             \
        }                                                                   \
        ok_;                                                                \
    })

/* ---- setup ------------------------------------------------------------ */

#define LOADE(name)                                                         \
    do {                                                                    \
        *(void **)&w->name = dlsym(w->libegl, "egl" #name);                 \
        if (!w->name) {                                                     \
            rp_fatal(st, "libEGL has no egl%s", #name);                     \
            return -1;                                                      \
        }                                                                   \
    } while (0)

int rp_wsi_init(rp_state_t *st)
{
    wsi_t *w = calloc(1, sizeof *w);
    if (!w) {
        rp_fatal(st, "out of memory");
        return -1;
    }
    st->wsi = w;
    w->libegl = dlopen("libEGL.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!w->libegl) {
        rp_fatal(st, "cannot load libEGL.so.1: %s", dlerror());
        return -1;
    }
    LOADE(GetProcAddress);
    LOADE(Initialize);
    LOADE(Terminate);
    LOADE(ChooseConfig);
    LOADE(GetConfigAttrib);
    LOADE(CreateContext);
    LOADE(DestroyContext);
    LOADE(CreatePbufferSurface);
    LOADE(CreateWindowSurface);
    LOADE(DestroySurface);
    LOADE(MakeCurrent);
    LOADE(SwapBuffers);
    LOADE(BindAPI);
    LOADE(GetError);
    LOADE(ReleaseThread);
    LOADE(QueryString);
    LOADE(QuerySurface);
    LOADE(BindTexImage);
    LOADE(ReleaseTexImage);
    /* EGLImages (EGL 1.5, EGL_KHR_image_base): NULL when absent */
    *(void **)&w->CreateImage = (void *)w->GetProcAddress("eglCreateImage");
    *(void **)&w->CreateImageKHR = (void *)w->GetProcAddress("eglCreateImageKHR");
    *(void **)&w->DestroyImage = (void *)w->GetProcAddress("eglDestroyImage");
    *(void **)&w->DestroyImageKHR = (void *)w->GetProcAddress("eglDestroyImageKHR");
    w->GetPlatformDisplayEXT =
        (PFNEGLGETPLATFORMDISPLAYEXTPROC)w->GetProcAddress("eglGetPlatformDisplayEXT");
    if (st->o->window) {
        w->libgl = dlopen("libGL.so.1", RTLD_NOW | RTLD_LOCAL);
        if (!w->libgl) {
            rp_fatal(st, "--window: cannot load libGL.so.1: %s", dlerror());
            return -1;
        }
        *(void **)&w->glXGetProcAddressARB = dlsym(w->libgl, "glXGetProcAddressARB");
        *(void **)&w->glXChooseFBConfig = dlsym(w->libgl, "glXChooseFBConfig");
        *(void **)&w->glXGetVisualFromFBConfig = dlsym(w->libgl, "glXGetVisualFromFBConfig");
        *(void **)&w->glXMakeContextCurrent = dlsym(w->libgl, "glXMakeContextCurrent");
        *(void **)&w->glXSwapBuffers = dlsym(w->libgl, "glXSwapBuffers");
        *(void **)&w->glXDestroyContext = dlsym(w->libgl, "glXDestroyContext");
        *(void **)&w->glXCreateWindow = dlsym(w->libgl, "glXCreateWindow");
        *(void **)&w->glXDestroyWindow = dlsym(w->libgl, "glXDestroyWindow");
        if (w->glXGetProcAddressARB) {
            *(void **)&w->glXCreateContextAttribsARB =
                (void *)w->glXGetProcAddressARB((const GLubyte *)"glXCreateContextAttribsARB");
            *(void **)&w->glXCopySubBufferMESA =
                (void *)w->glXGetProcAddressARB((const GLubyte *)"glXCopySubBufferMESA");
        }
        if (!w->glXGetProcAddressARB || !w->glXChooseFBConfig || !w->glXGetVisualFromFBConfig ||
            !w->glXMakeContextCurrent || !w->glXSwapBuffers || !w->glXDestroyContext ||
            !w->glXCreateContextAttribsARB) {
            rp_fatal(st, "--window: libGL lacks GLX 1.3 or GLX_ARB_create_context");
            return -1;
        }
        w->xdpy = XOpenDisplay(NULL);
        if (!w->xdpy) {
            rp_fatal(st, "--window: cannot open the X display (is DISPLAY set?)");
            return -1;
        }
    }
    if (w->xdpy && w->GetPlatformDisplayEXT) {
        /* --window: EGL on the same X display, so that EGL window surfaces
         * are X windows too (pbuffers and surfaceless contexts work there
         * as well) */
        w->dpy = w->GetPlatformDisplayEXT(EGL_PLATFORM_X11_KHR, w->xdpy, NULL);
        if (w->dpy && w->Initialize(w->dpy, NULL, NULL))
            w->egl_x11 = 1;
        else
            w->dpy = NULL;
    }
    if (!w->egl_x11 && w->GetPlatformDisplayEXT)
        w->dpy = w->GetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    if (!w->dpy || (!w->egl_x11 && !w->Initialize(w->dpy, NULL, NULL))) {
        if (!st->o->window) {
            rp_fatal(st, "cannot open a headless EGL display (EGL_MESA_platform_surfaceless)");
            return -1;
        }
        w->dpy = NULL;
    } else {
        w->initialized = 1;
        const char *ext = w->QueryString(w->dpy, EGL_EXTENSIONS);
        w->colorspace = ext && strstr(ext, "EGL_KHR_gl_colorspace") != NULL;
        w->no_config = ext && strstr(ext, "EGL_KHR_no_config_context") != NULL;
    }
    *(void **)&w->GetIntegerv = rp_wsi_proc(st, "glGetIntegerv");
    *(void **)&w->Viewport = rp_wsi_proc(st, "glViewport");
    *(void **)&w->GetString = rp_wsi_proc(st, "glGetString");
    if (!w->GetIntegerv || !w->Viewport || !w->GetString) {
        rp_fatal(st, "no GL functions (glGetIntegerv)");
        return -1;
    }
    return 0;
}

void *rp_wsi_proc(rp_state_t *st, const char *name)
{
    wsi_t *w = W(st);
    if (!w)
        return NULL;
    if (w->glXGetProcAddressARB)
        return (void *)w->glXGetProcAddressARB((const GLubyte *)name);
    return (void *)w->GetProcAddress(name);
}

int64_t rp_gl_get_integer(rp_exec_t *x, uint32_t pname)
{
    if (!x->ctx)
        return 0;
    GLint v[4] = {0, 0, 0, 0};
    W(x->st)->GetIntegerv(pname, v);
    return v[0];
}

void rp_ctx_version(rp_exec_t *x, rp_ctx_t *c)
{
    if (c->gl_known || x->ctx != c)
        return;
    c->gl_known = 1;
    const char *v = (const char *)W(x->st)->GetString(GL_VERSION);
    if (!v)
        return;
    if (strncmp(v, "OpenGL ES", 9) == 0) {
        c->gl_es = 1;
        v += 9;
        while (*v && (*v < '0' || *v > '9'))
            v++;
    }
    int ma = 0, mi = 0;
    if (sscanf(v, "%d.%d", &ma, &mi) == 2)
        c->gl_major = ma, c->gl_minor = mi;
}

void rp_wsi_thread_end(rp_exec_t *x)
{
    wsi_t *w = W(x->st);
    if (!w || !x->ctx)
        return;
    if (x->st->o->timing)
        rp_timing_release(x, x->ctx, 1);
    if (x->ctx->glx)
        w->glXMakeContextCurrent(w->xdpy, None, None, NULL);
    else if (w->dpy)
        w->MakeCurrent(w->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    x->ctx->bound = 0;
    x->ctx = NULL;
    if (w->dpy)
        w->ReleaseThread();
}

static void free_share(rp_share_t *s)
{
    if (!s || --s->refs > 0)
        return;
    for (unsigned g = 0; g < W15_GROUP_TYPE_COUNT_; g++)
        rp_names_free(&s->ns[g]);
    rp_names_free(&s->locs);
    free(s);
}

/* Keep every shared object loaded now mapped until the process ends:
 * libEGL unloads the driver at exit while the driver's own exit hooks and
 * threads may still use it (and LeakSanitizer could not name its frames). */
static int pin_one(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size, (void)arg;
    if (info->dlpi_name && info->dlpi_name[0])
        dlopen(info->dlpi_name, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
    return 0;
}

void rp_wsi_end(rp_state_t *st)
{
    dl_iterate_phdr(pin_one, NULL);
    wsi_t *w = W(st);
    if (!w)
        return;
    for (uint32_t i = 0; i < w->nctxs; i++) {
        rp_ctx_t *c = w->ctxs[i];
        if (!c)
            continue;
        if (c->handle) {
            if (c->glx)
                w->glXDestroyContext(w->xdpy, c->handle);
            else if (w->dpy)
                w->DestroyContext(w->dpy, c->handle);
        }
        for (unsigned g = 0; g < W15_GROUP_TYPE_COUNT_; g++)
            rp_names_free(&c->ns[g]);
        free_share(c->share);
        free(c);
    }
    for (uint32_t i = 0; i < w->nsurfs; i++) {
        rp_surface_t *s = w->surfs[i];
        if (s->egl && w->dpy)
            w->DestroySurface(w->dpy, s->egl);
        if (s->glxwin && w->xdpy && w->glXDestroyWindow)
            w->glXDestroyWindow(w->xdpy, s->glxwin);
        if (s->xwin && w->xdpy)
            XDestroyWindow(w->xdpy, s->xwin);
        free(s);
    }
    for (uint32_t i = 0; i < w->ncfgs; i++)
        free(w->cfgs[i]);
    free(w->ctxs), free(w->surfs), free(w->cfgs);
    if (w->initialized)
        w->Terminate(w->dpy);
    if (w->xdpy)
        XCloseDisplay(w->xdpy);
    /* libEGL and libGL stay loaded: drivers keep threads and atexit hooks */
    free(w);
    st->wsi = NULL;
}

/* ---- ids: recorded handle -> our object ------------------------------ */

static uint64_t rec_result(const rp_call_t *c)
{
    const w15_value_t *v = c->wc->result;
    return v && v->count && !v->type.is_array && v->type.base != W15_FLOAT &&
                   v->type.base != W15_DOUBLE && v->type.base != W15_STRING && v->type.base != W15_DATA
               ? v->v.u[0]
               : 0;
}

static uint64_t rec_arg(const rp_call_t *c, uint32_t i)
{
    const w15_value_t *v = &c->wc->args[i];
    if (!v->count || v->type.is_array)
        return 0;
    switch (v->type.base) {
    case W15_UINT: case W15_PTR: return v->v.u[0];
    case W15_INT: return (uint64_t)v->v.i[0];
    case W15_BOOL: return v->v.b[0];
    default: return 0;
    }
}

/* Element k of recorded array argument i (an attribute list), 0 past its
 * end: the recorded value, whatever the C type (EGLint or EGLAttrib). */
static int64_t rec_elem(const rp_call_t *c, uint32_t i, uint32_t k)
{
    const w15_value_t *v = &c->wc->args[i];
    if (i >= c->nargs || !v->type.is_array || k >= v->count)
        return 0;
    switch (v->type.base) {
    case W15_INT: return v->v.i[k];
    case W15_UINT: case W15_PTR: return (int64_t)v->v.u[k];
    default: return 0;
    }
}

static void *obj_at(void **arr, uint32_t n, uint64_t id)
{
    if (id < ID_BASE || id - ID_BASE >= n)
        return NULL;
    return arr[id - ID_BASE];
}

static rp_config_t *cfg_of(rp_state_t *st, uint64_t mapped)
{
    return obj_at((void **)W(st)->cfgs, W(st)->ncfgs, mapped);
}
static rp_ctx_t *ctx_of(rp_state_t *st, uint64_t mapped)
{
    return obj_at((void **)W(st)->ctxs, W(st)->nctxs, mapped);
}
static rp_surface_t *surf_of(rp_state_t *st, uint64_t mapped)
{
    return obj_at((void **)W(st)->surfs, W(st)->nsurfs, mapped);
}

static int map_ws(rp_state_t *st, unsigned gt, uint64_t rec, uint64_t id)
{
    if (!rec)
        return 0;
    if (rp_names_put(&st->ws[gt], rec, id)) {
        rp_fatal(st, "out of memory");
        return -1;
    }
    return 0;
}

int rp_wsi_known_context(rp_state_t *st, uint64_t rec)
{
    return ctx_of(st, rp_names_get(&st->ws[W15_GROUP_EGL_CONTEXTS], rec)) ||
           ctx_of(st, rp_names_get(&st->ws[W15_GROUP_GLX_CONTEXTS], rec));
}

/* ---- configurations --------------------------------------------------- */

static rp_config_t *new_config(rp_state_t *st, uint64_t *id)
{
    wsi_t *w = W(st);
    rp_config_t *c = calloc(1, sizeof *c);
    if (!c || !PUSH(w->cfgs, w->ncfgs, c)) {
        free(c);
        rp_fatal(st, "out of memory");
        return NULL;
    }
    c->red = c->green = c->blue = 8;
    c->depth = 24;
    c->stencil = 8;
    *id = ID_BASE + w->ncfgs - 1;
    return c;
}

/* A GLX attribute list (visual lists: booleans stand alone). */
static void config_from_glx(rp_config_t *c, const int *a, uint32_t n, int visual_list)
{
    c->from_glx = 1;
    c->alpha = 0;
    c->depth = 0;
    c->stencil = 0;
    for (uint32_t i = 0; i < n && a[i] != 0;) {
        int t = a[i];
        if (visual_list && (t == GLX_USE_GL || t == GLX_RGBA || t == GLX_DOUBLEBUFFER || t == GLX_STEREO)) {
            i++;
            continue;
        }
        int v = i + 1 < n ? a[i + 1] : 0;
        switch (t) {
        case GLX_RED_SIZE: c->red = v > 8 ? v : 8; break;
        case GLX_GREEN_SIZE: c->green = v > 8 ? v : 8; break;
        case GLX_BLUE_SIZE: c->blue = v > 8 ? v : 8; break;
        case GLX_ALPHA_SIZE: c->alpha = v > 0 ? (v > 8 ? v : 8) : 0; break;
        case GLX_DEPTH_SIZE: c->depth = v > 0 ? (v > 24 ? v : 24) : 0; break;
        case GLX_STENCIL_SIZE: c->stencil = v > 0 ? 8 : 0; break;
        case GLX_SAMPLES: c->samples = v; break;
        default: break;
        }
        i += 2;
    }
}

static void config_from_egl(rp_config_t *c, const EGLint *a, uint32_t n)
{
    c->alpha = 0;
    c->depth = 0;
    c->stencil = 0;
    for (uint32_t i = 0; i + 1 < n && a[i] != EGL_NONE; i += 2) {
        int v = a[i + 1];
        switch (a[i]) {
        case EGL_RED_SIZE: c->red = v > 8 ? v : 8; break;
        case EGL_GREEN_SIZE: c->green = v > 8 ? v : 8; break;
        case EGL_BLUE_SIZE: c->blue = v > 8 ? v : 8; break;
        case EGL_ALPHA_SIZE: c->alpha = v > 0 ? (v > 8 ? v : 8) : 0; break;
        case EGL_DEPTH_SIZE: c->depth = v > 0 ? (v > 24 ? v : 24) : 0; break;
        case EGL_STENCIL_SIZE: c->stencil = v > 0 ? 8 : 0; break;
        case EGL_SAMPLES: c->samples = v; break;
        default: break;
        }
    }
}

/* The EGL config of c for an API: among the pbuffer configs of that API,
 * the one closest to what was asked (exact alpha, depth and stencil when
 * possible). */
static EGLConfig egl_config(rp_state_t *st, rp_config_t *c, int api, int es_major)
{
    wsi_t *w = W(st);
    if (c->egl[api])
        return c->egl[api];
    EGLint rt = api == RP_API_GL ? EGL_OPENGL_BIT : es_major >= 3 ? EGL_OPENGL_ES3_BIT : EGL_OPENGL_ES2_BIT;
    if (api == RP_API_GLES && es_major == 1)
        rt = EGL_OPENGL_ES_BIT;
    EGLint attrs[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT | (w->egl_x11 ? EGL_WINDOW_BIT : 0), EGL_RENDERABLE_TYPE, rt,
                      EGL_RED_SIZE, 1, EGL_GREEN_SIZE, 1, EGL_BLUE_SIZE, 1, EGL_NONE};
    EGLConfig cfgs[256];
    EGLint n = 0;
    if (!w->ChooseConfig(w->dpy, attrs, cfgs, 256, &n) || n <= 0)
        return NULL;
    long best = -1;
    EGLConfig pick = NULL;
    for (EGLint i = 0; i < n; i++) {
        EGLint r = 0, g = 0, b = 0, a = 0, d = 0, s = 0, ms = 0;
        w->GetConfigAttrib(w->dpy, cfgs[i], EGL_RED_SIZE, &r);
        w->GetConfigAttrib(w->dpy, cfgs[i], EGL_GREEN_SIZE, &g);
        w->GetConfigAttrib(w->dpy, cfgs[i], EGL_BLUE_SIZE, &b);
        w->GetConfigAttrib(w->dpy, cfgs[i], EGL_ALPHA_SIZE, &a);
        w->GetConfigAttrib(w->dpy, cfgs[i], EGL_DEPTH_SIZE, &d);
        w->GetConfigAttrib(w->dpy, cfgs[i], EGL_STENCIL_SIZE, &s);
        w->GetConfigAttrib(w->dpy, cfgs[i], EGL_SAMPLES, &ms);
        if (r < c->red || g < c->green || b < c->blue || a < c->alpha || d < c->depth || s < c->stencil)
            continue;
        long score = (long)(r - c->red) + (g - c->green) + (b - c->blue) + 4L * (a - c->alpha) +
                     2L * (d - c->depth) + 2L * (s - c->stencil) + 8L * labs((long)ms - c->samples);
        if (c->from_glx && c->depth == 0)
            score -= d; /* GLX prefers the deepest depth buffer */
        if (best < 0 || score < best)
            best = score, pick = cfgs[i];
    }
    if (!pick)
        pick = cfgs[0];
    c->egl[api] = pick;
    return pick;
}

static GLXFBConfig glx_config(rp_state_t *st, rp_config_t *c)
{
    wsi_t *w = W(st);
    if (c->glx)
        return c->glx;
    int attrs[] = {GLX_RENDER_TYPE, GLX_RGBA_BIT, GLX_DRAWABLE_TYPE, GLX_WINDOW_BIT,
                   GLX_DOUBLEBUFFER, c->single ? False : True, GLX_RED_SIZE, 1, GLX_GREEN_SIZE, 1, GLX_BLUE_SIZE, 1,
                   GLX_ALPHA_SIZE, c->alpha, GLX_DEPTH_SIZE, c->depth, GLX_STENCIL_SIZE, c->stencil,
                   GLX_SAMPLE_BUFFERS, c->samples > 0, GLX_SAMPLES, c->samples, None};
    int n = 0;
    GLXFBConfig *l = w->glXChooseFBConfig(w->xdpy, DefaultScreen(w->xdpy), attrs, &n);
    if ((!l || n <= 0) && c->single) {
        /* no single-buffered configuration: a double-buffered one */
        if (l)
            XFree(l);
        attrs[5] = True;
        l = w->glXChooseFBConfig(w->xdpy, DefaultScreen(w->xdpy), attrs, &n);
    }
    if (l && n > 0)
        c->glx = l[0];
    if (l)
        XFree(l);
    return c->glx;
}

/* ---- contexts ---------------------------------------------------------- */

static rp_ctx_t *new_ctx(rp_state_t *st, rp_ctx_t *share, uint64_t *id)
{
    wsi_t *w = W(st);
    rp_ctx_t *c = calloc(1, sizeof *c);
    if (!c || !PUSH(w->ctxs, w->nctxs, c)) {
        free(c);
        rp_fatal(st, "out of memory");
        return NULL;
    }
    if (share) {
        c->share = share->share;
        c->share->refs++;
    } else {
        c->share = calloc(1, sizeof *c->share);
        if (!c->share) {
            rp_fatal(st, "out of memory");
            return NULL;
        }
        c->share->refs = 1;
    }
    *id = ID_BASE + w->nctxs - 1;
    return c;
}

#define CTX_FLAGS_ARB 0x2094      /* GLX_CONTEXT_FLAGS_ARB */
#define CTX_FLAGS_KHR 0x30FC      /* EGL_CONTEXT_FLAGS_KHR */

/* X errors while the replay creates a GLX context (attributes the server
 * refuses: BadValue, BadMatch) are that creation's failure, not the end of
 * the process (Xlib's default handler exits). */
static int x_error_seen;
static int x_error_quiet(Display *d, XErrorEvent *e)
{
    (void)d, (void)e;
    x_error_seen = 1;
    return 0;
}

/* Create the real context c (attributes, configuration and the context it
 * shares with already in c), at its first MakeCurrent.  0, or 1 (warned;
 * c->failed). */
static int realize_ctx(rp_exec_t *x, rp_ctx_t *c, uint32_t fn)
{
    rp_state_t *st = x->st;
    wsi_t *w = W(st);
    if (c->handle)
        return 0;
    if (c->failed)
        return rp_cannot(x, fn, "its context could not be created");
    rp_ctx_t *share = c->share_ctx;
    if (share && !share->handle && (share == c || realize_ctx(x, share, fn)))
        share = NULL; /* created alone: objects will not be shared */
    rp_config_t *cfg = c->config;
    c->failed = 1;
    if (w->xdpy && !c->es && (c->glx_rec || !w->egl_x11)) {
        c->glx = 1;
        GLXFBConfig fb = glx_config(st, cfg);
        for (int with_flags = c->flags != 0; with_flags >= 0 && !c->handle && fb; with_flags--) {
            int a[16], k = 0;
            if (c->major) {
                a[k++] = GLX_CONTEXT_MAJOR_VERSION_ARB, a[k++] = c->major;
                a[k++] = GLX_CONTEXT_MINOR_VERSION_ARB, a[k++] = c->minor;
            }
            if (c->profile)
                a[k++] = GLX_CONTEXT_PROFILE_MASK_ARB, a[k++] = c->profile;
            if (with_flags)
                a[k++] = CTX_FLAGS_ARB, a[k++] = c->flags;
            a[k] = None;
            XSync(w->xdpy, False);
            x_error_seen = 0;
            int (*old)(Display *, XErrorEvent *) = XSetErrorHandler(x_error_quiet);
            c->handle = w->glXCreateContextAttribsARB(w->xdpy, fb, share ? share->handle : NULL, True, a);
            XSync(w->xdpy, False);
            XSetErrorHandler(old);
            if (x_error_seen && c->handle) {
                w->glXDestroyContext(w->xdpy, c->handle);
                c->handle = NULL;
            }
        }
        if (!c->handle)
            return rp_cannot(x, fn, "cannot create a GLX context (version %d.%d, profile %d)",
                             c->major, c->minor, c->profile);
        c->failed = 0;
        return 0;
    }
    if (!w->dpy)
        return rp_cannot(x, fn, "no EGL display for an OpenGL ES context with --window");
    int api = c->es ? RP_API_GLES : RP_API_GL;
    /* without a config as the program's was (its framebuffer is then each
     * drawable's own: realize_surface), else one of the recorded sizes */
    if (c->noconfig && !w->no_config)
        c->noconfig = 0;
    EGLConfig ec = c->noconfig ? EGL_NO_CONFIG_KHR : egl_config(st, cfg, api, c->major ? c->major : 2);
    if (!w->BindAPI(c->es ? EGL_OPENGL_ES_API : EGL_OPENGL_API))
        return rp_cannot(x, fn, "eglBindAPI(%s) failed", c->es ? "EGL_OPENGL_ES_API" : "EGL_OPENGL_API");
    for (int with_flags = c->flags != 0; with_flags >= 0 && !c->handle && (ec || c->noconfig); with_flags--) {
        EGLint a[16], k = 0;
        if (c->major) {
            a[k++] = EGL_CONTEXT_MAJOR_VERSION, a[k++] = c->major;
            if (!c->es || c->minor)
                a[k++] = EGL_CONTEXT_MINOR_VERSION, a[k++] = c->minor;
        }
        if (!c->es && c->profile)
            a[k++] = EGL_CONTEXT_OPENGL_PROFILE_MASK, a[k++] = c->profile;
        if (with_flags)
            a[k++] = CTX_FLAGS_KHR, a[k++] = c->flags;
        a[k] = EGL_NONE;
        c->handle = w->CreateContext(w->dpy, ec, share ? share->handle : EGL_NO_CONTEXT, a);
    }
    if (!c->handle)
        return rp_cannot(x, fn, "cannot create an %s %d.%d context (EGL error 0x%x)",
                         c->es ? "OpenGL ES" : "OpenGL", c->major, c->minor, w->GetError());
    c->failed = 0;
    return 0;
}

/* ---- surfaces ----------------------------------------------------------- */

static rp_surface_t *new_surface(rp_state_t *st, int width, int height, uint64_t *id)
{
    wsi_t *w = W(st);
    rp_surface_t *s = calloc(1, sizeof *s);
    if (!s || !PUSH(w->surfs, w->nsurfs, s)) {
        free(s);
        rp_fatal(st, "out of memory");
        return NULL;
    }
    s->guessed = width <= 0 || height <= 0;
    s->width = s->guessed ? DEFAULT_W : width;
    s->height = s->guessed ? DEFAULT_H : height;
    *id = ID_BASE + w->nsurfs - 1;
    return s;
}

static void drop_surface(rp_state_t *st, rp_surface_t *s)
{
    wsi_t *w = W(st);
    if (s->egl)
        w->DestroySurface(w->dpy, s->egl);
    s->egl = NULL;
    if (s->glxwin && w->glXDestroyWindow)
        w->glXDestroyWindow(w->xdpy, s->glxwin);
    s->glxwin = 0;
    if (s->xwin)
        XDestroyWindow(w->xdpy, s->xwin);
    s->xwin = 0;
    s->config = NULL;
    s->native_cfg = NULL;
}

/* Whether surface s, made for a context of configuration `cfg` or one
 * that comes out as the same EGLConfig / GLXFBConfig `native`, serves a
 * context of `cfg` as it is (it then belongs to cfg). */
static int serves(rp_surface_t *s, rp_config_t *cfg, void *native)
{
    if (s->config != cfg && (!native || s->native_cfg != native))
        return 0;
    s->config = cfg;
    return 1;
}

/* The GLX drawable of s (--window): its GLXWindow, else its X window. */
static GLXDrawable gdraw(const rp_surface_t *s)
{
    return s->glxwin ? (GLXDrawable)s->glxwin : (GLXDrawable)s->xwin;
}

/* An X window for s of visual vi (freed here), of s's size, mapped. */
static void make_xwin(rp_state_t *st, rp_surface_t *s, XVisualInfo *vi)
{
    wsi_t *w = W(st);
    Window root = RootWindow(w->xdpy, vi->screen);
    XSetWindowAttributes swa;
    memset(&swa, 0, sizeof swa);
    swa.colormap = XCreateColormap(w->xdpy, root, vi->visual, AllocNone);
    s->xwin = XCreateWindow(w->xdpy, root, 0, 0, (unsigned)s->width, (unsigned)s->height, 0, vi->depth,
                            InputOutput, vi->visual, CWColormap, &swa);
    XFree(vi);
    XStoreName(w->xdpy, s->xwin, "wip15 replay");
    XMapWindow(w->xdpy, s->xwin);
    XSync(w->xdpy, False);
    s->real_w = s->width, s->real_h = s->height;
    s->born = st->calls;
}

/* The X window of s, current or not, takes s's size: made again when
 * nothing was drawn since it was made (at a guessed size: the recorded
 * size comes right after the MakeCurrent), as the program's was made at
 * its size; resizing it would not be the same: Mesa's software GLX then
 * drops the back buffer's contents at the first front-buffer drawing.
 * Returns 1 when it is still there. */
static int xwin_size(rp_state_t *st, rp_surface_t *s)
{
    wsi_t *w = W(st);
    if (s->real_w == s->width && s->real_h == s->height)
        return 1;
    if (s->born == st->calls) {
        if (surface_bound(st, s)) {
            if (s->egl)
                w->MakeCurrent(w->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
            else
                w->glXMakeContextCurrent(w->xdpy, None, None, NULL);
        }
        drop_surface(st, s);
        return 0;
    }
    XResizeWindow(w->xdpy, s->xwin, (unsigned)s->width, (unsigned)s->height);
    XSync(w->xdpy, False);
    s->real_w = s->width, s->real_h = s->height;
    return 1;
}

/* --window, an EGL window surface: an X window of the EGL config's visual
 * with an EGL window surface of the recorded EGL_GL_COLORSPACE and
 * EGL_RENDER_BUFFER. */
static int realize_egl_window(rp_exec_t *x, rp_surface_t *s, rp_ctx_t *ctx, uint32_t fn)
{
    rp_state_t *st = x->st;
    wsi_t *w = W(st);
    rp_config_t *cfg = ctx->noconfig && s->rec_config ? s->rec_config : ctx->config;
    EGLConfig ec = egl_config(st, cfg, ctx->es ? RP_API_GLES : RP_API_GL, ctx->major ? ctx->major : 2);
    if (s->egl && s->xwin && serves(s, cfg, (void *)ec) && xwin_size(st, s))
        return 0;
    drop_surface(st, s);
    EGLint vid = 0, nv = 0;
    if (ec)
        w->GetConfigAttrib(w->dpy, ec, EGL_NATIVE_VISUAL_ID, &vid);
    XVisualInfo tmpl;
    memset(&tmpl, 0, sizeof tmpl);
    tmpl.visualid = (VisualID)vid;
    XVisualInfo *vi = vid ? XGetVisualInfo(w->xdpy, VisualIDMask, &tmpl, &nv) : NULL;
    if (!vi)
        return rp_cannot(x, fn, "no X visual for the EGL configuration");
    make_xwin(st, s, vi);
    EGLint a[8], k = 0;
    EGLint cs = s->colorspace ? s->colorspace : cfg->srgb ? 0x3089 /* EGL_GL_COLORSPACE_SRGB_KHR */ : 0;
    if (cs && w->colorspace)
        a[k++] = 0x309D /* EGL_GL_COLORSPACE_KHR */, a[k++] = cs;
    if (s->render_buffer)
        a[k++] = EGL_RENDER_BUFFER, a[k++] = s->render_buffer;
    a[k] = EGL_NONE;
    s->egl = w->CreateWindowSurface(w->dpy, ec, (EGLNativeWindowType)s->xwin, a);
    if (!s->egl && k) {
        rp_warn(x, fn, "an EGL window with the recorded colour space or render buffer could not be made (EGL "
                       "error 0x%x): made without", w->GetError());
        a[0] = EGL_NONE;
        s->egl = w->CreateWindowSurface(w->dpy, ec, (EGLNativeWindowType)s->xwin, a);
    }
    if (!s->egl) {
        drop_surface(st, s);
        return rp_cannot(x, fn, "cannot create an EGL window surface (EGL error 0x%x)", w->GetError());
    }
    s->config = cfg;
    s->native_cfg = (void *)ec;
    return 0;
}

/* The real drawable of s for context ctx. */
static int realize_surface(rp_exec_t *x, rp_surface_t *s, rp_ctx_t *ctx, uint32_t fn)
{
    rp_state_t *st = x->st;
    wsi_t *w = W(st);
    rp_config_t *cfg = ctx->config;
    if (ctx->glx) {
        GLXFBConfig fb = glx_config(st, cfg);
        if (s->xwin && serves(s, cfg, (void *)fb) && xwin_size(st, s))
            return 0;
        drop_surface(st, s);
        XVisualInfo *vi = fb ? w->glXGetVisualFromFBConfig(w->xdpy, fb) : NULL;
        if (!vi)
            return rp_cannot(x, fn, "no X visual for the GLX configuration");
        make_xwin(st, s, vi);
        if (s->glx_window && w->glXCreateWindow)
            s->glxwin = w->glXCreateWindow(w->xdpy, fb, s->xwin, NULL);
        s->config = cfg;
        s->native_cfg = (void *)fb;
        return 0;
    }
    if (s->window && w->egl_x11)
        return realize_egl_window(x, s, ctx, fn);
    /* the recorded surface's attributes that the replay's pbuffer can
     * have too: its colour space (a window's EGL_GL_COLORSPACE included),
     * and a texture format for eglBindTexImage; for a context without a
     * config, the surface's own config (the context's configuration is
     * then all zeros: the smallest config would be RGB565) */
    if (ctx->noconfig && s->rec_config)
        cfg = s->rec_config;
    EGLConfig ec = egl_config(st, cfg, ctx->es ? RP_API_GLES : RP_API_GL, ctx->major ? ctx->major : 2);
    if (s->egl && serves(s, cfg, (void *)ec) && s->real_w == s->width && s->real_h == s->height)
        return 0;
    drop_surface(st, s);
    /* the context's config it must be (Mesa makes current only a surface
     * of the context's own config, any with EGL_NO_CONFIG_KHR); one
     * without alpha binds as EGL_TEXTURE_RGB what the program bound as
     * RGBA (the same texels: alpha 1 either way) */
    EGLint tf = s->tex_format, can_rgb = 0, can_rgba = 0;
    if (tf && ec) {
        w->GetConfigAttrib(w->dpy, ec, EGL_BIND_TO_TEXTURE_RGB, &can_rgb);
        w->GetConfigAttrib(w->dpy, ec, EGL_BIND_TO_TEXTURE_RGBA, &can_rgba);
        if (tf == EGL_TEXTURE_RGBA && !can_rgba)
            tf = can_rgb ? EGL_TEXTURE_RGB : 0;
        else if (tf == EGL_TEXTURE_RGB && !can_rgb)
            tf = can_rgba ? EGL_TEXTURE_RGBA : 0;
        if (!tf)
            rp_warn(x, fn, "the replay's config cannot bind a pbuffer as a texture");
    }
    int bind = tf != 0;
    EGLint a[16], k = 0;
    a[k++] = EGL_WIDTH, a[k++] = s->width, a[k++] = EGL_HEIGHT, a[k++] = s->height;
    if (s->largest)
        a[k++] = EGL_LARGEST_PBUFFER, a[k++] = EGL_TRUE;
    int plain = k;
    EGLint cs = s->colorspace ? s->colorspace : cfg->srgb ? 0x3089 /* EGL_GL_COLORSPACE_SRGB_KHR */ : 0;
    if (cs && w->colorspace)
        a[k++] = 0x309D /* EGL_GL_COLORSPACE_KHR */, a[k++] = cs;
    if (bind) {
        a[k++] = EGL_TEXTURE_FORMAT, a[k++] = tf;
        a[k++] = EGL_TEXTURE_TARGET, a[k++] = s->tex_target ? s->tex_target : EGL_TEXTURE_2D;
        a[k++] = EGL_MIPMAP_TEXTURE, a[k++] = s->mipmap;
    }
    a[k] = EGL_NONE;
    s->egl = ec ? w->CreatePbufferSurface(w->dpy, ec, a) : NULL;
    if (!s->egl && k > plain) {
        rp_warn(x, fn, "a %dx%d pbuffer with the recorded surface's colour space or texture format could not be "
                       "made (EGL error 0x%x): made without", s->width, s->height, w->GetError());
        a[plain] = EGL_NONE;
        s->egl = w->CreatePbufferSurface(w->dpy, ec, a);
    }
    if (!s->egl)
        return rp_cannot(x, fn, "cannot create a %dx%d pbuffer (EGL error 0x%x)", s->width, s->height,
                         w->GetError());
    s->config = cfg;
    s->native_cfg = (void *)ec;
    if (s->largest) {
        /* what the driver gave, as it gave the program (its
         * wip15DrawableSize says the same on the same driver) */
        s->largest = 0;
        EGLint rw = s->width, rh = s->height;
        w->QuerySurface(w->dpy, s->egl, EGL_WIDTH, &rw);
        w->QuerySurface(w->dpy, s->egl, EGL_HEIGHT, &rh);
        s->width = rw, s->height = rh;
    }
    s->real_w = s->width, s->real_h = s->height;
    return 0;
}

static void window_note(rp_exec_t *x, const rp_call_t *c, const char *why);

static int make_current(rp_exec_t *x, rp_ctx_t *ctx, rp_surface_t *draw, rp_surface_t *read, uint32_t fn)
{
    rp_state_t *st = x->st;
    wsi_t *w = W(st);
    rp_ctx_t *old = x->ctx;
    if (old && old != ctx && st->o->timing)
        rp_timing_release(x, old, 0); /* while it is still current */
    if (old)
        old->bound = 0;
    if (old && (!ctx || old->glx != ctx->glx)) {
        if (old->glx)
            w->glXMakeContextCurrent(w->xdpy, None, None, NULL);
        else
            w->MakeCurrent(w->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    }
    if (!ctx) {
        x->ctx = NULL;
        return 0;
    }
    if (!ctx->handle && realize_ctx(x, ctx, fn))
        return 1;
    if (draw && realize_surface(x, draw, ctx, fn))
        return 1;
    if (read && read != draw && realize_surface(x, read, ctx, fn))
        return 1;
    int ok;
    if (ctx->glx) {
        ok = w->glXMakeContextCurrent(w->xdpy, draw ? gdraw(draw) : None, read ? gdraw(read) : draw ? gdraw(draw) : None,
                                      ctx->handle);
    } else {
        w->BindAPI(ctx->es ? EGL_OPENGL_ES_API : EGL_OPENGL_API);
        ok = w->MakeCurrent(w->dpy, draw ? draw->egl : EGL_NO_SURFACE,
                            read ? read->egl : draw ? draw->egl : EGL_NO_SURFACE, ctx->handle);
    }
    if (!ok) {
        if (!ctx->glx && w->GetError() == EGL_BAD_ACCESS && draw && draw->window && st->cur_call &&
            st->cur_call->func) {
            /* GLX lets threads draw into one window at once, each with its
             * own context; an EGL surface is current in one thread only */
            rp_call_t cc = {.wc = st->cur_call, .fn = fn, .frame = st->frame};
            window_note(x, &cc, "makes a window current in a second thread while the first still has it, which "
                                "a pbuffer cannot be");
        }
        return rp_cannot(x, fn, "MakeCurrent failed");
    }
    if (draw && !draw->xwin && draw->window && ctx->draw && ctx->draw != draw && ctx->draw->window &&
        st->cur_call && st->cur_call->func) {
        /* one context moving between windows: what each window's buffers
         * hold across the moves is the window system's (Mesa's software
         * GLX does not keep a window's back buffer), each pbuffer keeps its
         * own */
        rp_call_t cc = {.wc = st->cur_call, .fn = fn, .frame = st->frame};
        window_note(x, &cc, "makes one context current on several windows; what a window's buffers hold when "
                            "the context comes back to it is up to the window system");
    }
    x->ctx = ctx;
    ctx->bound = 1;
    if (!ctx->ever_bound) {
        ctx->ever_bound = 1;
        ctx->guess_view = draw && draw->guessed;
        ctx->guess_calls = st->calls;
    }
    ctx->draw = draw;
    ctx->read = read ? read : draw;
    rp_ctx_version(x, ctx);
    return 0;
}

/* ---- EGL handlers ------------------------------------------------------ */

int rp_h_unsupported(rp_exec_t *x, const rp_call_t *c)
{
    return rp_cannot(x, c->fn, "not replayed yet");
}

int rp_h_egl_get_display(rp_exec_t *x, const rp_call_t *c)
{
    return map_ws(x->st, W15_GROUP_EGL_DISPLAYS, rec_result(c), ID_BASE);
}

int rp_h_egl_initialize(rp_exec_t *x, const rp_call_t *c)
{
    (void)x, (void)c;
    return 0;
}

int rp_h_egl_bind_api(rp_exec_t *x, const rp_call_t *c)
{
    uint64_t api = rec_arg(c, 0);
    x->api_bound = api == EGL_OPENGL_API ? RP_API_GL : RP_API_GLES;
    return 0;
}

/* eglChooseConfig(dpy, attrib_list, configs, config_size, num_config),
 * eglGetConfigs(dpy, configs, config_size, num_config) */
int rp_h_egl_choose_config(rp_exec_t *x, const rp_call_t *c)
{
    rp_state_t *st = x->st;
    int choose = c->nargs == 5;
    uint32_t ci = choose ? 2 : 1;
    const w15_value_t *out = &c->wc->args[ci];
    for (uint32_t j = 0; j < out->count && out->type.is_array; j++) {
        uint64_t id;
        rp_config_t *cfg = new_config(st, &id);
        if (!cfg)
            return -1;
        if (choose && c->a[1].vp)
            config_from_egl(cfg, c->a[1].vp, c->wc->args[1].count);
        if (map_ws(st, W15_GROUP_EGL_CONFIGS, out->v.u[j], id))
            return -1;
    }
    return 0;
}

/* eglGetConfigAttrib(dpy, config, attribute, value): what the program
 * learnt of the config it chose, exact where eglChooseConfig's list gave
 * a minimum or nothing (the framebuffer of a context without a config is
 * its drawable's config's: realize_surface) */
int rp_h_egl_get_config_attrib(rp_exec_t *x, const rp_call_t *c)
{
    rp_config_t *cfg = cfg_of(x->st, c->a[1].u);
    const w15_value_t *ok = c->wc->result;
    if (!cfg || !ok || !ok->count || !ok->v.b[0] || !c->wc->args[3].count)
        return 0;
    int v = (int)rec_elem(c, 3, 0), *f = NULL;
    switch (rec_arg(c, 2)) {
    case EGL_RED_SIZE: f = &cfg->red; break;
    case EGL_GREEN_SIZE: f = &cfg->green; break;
    case EGL_BLUE_SIZE: f = &cfg->blue; break;
    case EGL_ALPHA_SIZE: f = &cfg->alpha; break;
    case EGL_DEPTH_SIZE: f = &cfg->depth; break;
    case EGL_STENCIL_SIZE: f = &cfg->stencil; break;
    case EGL_SAMPLES: f = &cfg->samples; break;
    default: return 0;
    }
    if (*f != v) {
        *f = v;
        memset(cfg->egl, 0, sizeof cfg->egl); /* chosen again */
    }
    return 0;
}

/* eglCreateContext(dpy, config, share_context, attrib_list) */
int rp_h_egl_create_context(rp_exec_t *x, const rp_call_t *c)
{
    rp_state_t *st = x->st;
    rp_config_t *cfg = cfg_of(st, c->a[1].u);
    rp_ctx_t *share = ctx_of(st, c->a[2].u);
    uint64_t id, cid;
    if (!cfg) {
        cfg = new_config(st, &cid);
        if (!cfg)
            return -1;
    }
    rp_ctx_t *ctx = new_ctx(st, share, &id);
    if (!ctx)
        return -1;
    ctx->traced = rec_result(c);
    ctx->noconfig = rec_arg(c, 1) == 0; /* EGL_NO_CONFIG_KHR */
    ctx->es = x->api_bound != RP_API_GL;
    ctx->major = ctx->es ? 1 : 0;
    const EGLint *a = c->a[3].vp;
    for (uint32_t i = 0; a && i + 1 < c->wc->args[3].count && a[i] != EGL_NONE; i += 2) {
        switch (a[i]) {
        case EGL_CONTEXT_MAJOR_VERSION: ctx->major = a[i + 1]; break;
        case EGL_CONTEXT_MINOR_VERSION: ctx->minor = a[i + 1]; break;
        case EGL_CONTEXT_OPENGL_PROFILE_MASK: ctx->profile = a[i + 1]; break;
        case CTX_FLAGS_KHR: ctx->flags = a[i + 1]; break;
        default: break;
        }
    }
    if (map_ws(st, W15_GROUP_EGL_CONTEXTS, ctx->traced, id))
        return -1;
    ctx->config = cfg;
    ctx->share_ctx = share;
    ctx->create_fn = c->fn;
    return 0; /* created at its first MakeCurrent */
}

/* eglCreateWindowSurface / eglCreatePlatformWindowSurface* /
 * eglCreatePixmapSurface / eglCreatePbufferSurface: a pbuffer each, with
 * the recorded attributes a pbuffer can have (size, EGL_GL_COLORSPACE,
 * EGL_TEXTURE_FORMAT/_TARGET, EGL_MIPMAP_TEXTURE). */
int rp_h_egl_create_surface(rp_exec_t *x, const rp_call_t *c)
{
    rp_state_t *st = x->st;
    uint32_t ai = c->nargs - 1; /* the attribute list is the last parameter */
    int pbuffer = c->nargs == 3; /* (dpy, config, attrib_list); the others name a native drawable */
    int width = 0, height = 0, cs = 0, tf = 0, tt = 0, mm = 0, largest = 0, rb = 0;
    for (uint32_t i = 0; i + 1 < c->wc->args[ai].count && rec_elem(c, ai, i) != EGL_NONE; i += 2) {
        int v = (int)rec_elem(c, ai, i + 1);
        switch (rec_elem(c, ai, i)) {
        case EGL_WIDTH: width = pbuffer ? v : 0; break;
        case EGL_HEIGHT: height = pbuffer ? v : 0; break;
        case 0x309D /* EGL_GL_COLORSPACE */: cs = v; break;
        case EGL_TEXTURE_FORMAT: tf = v; break;
        case EGL_TEXTURE_TARGET: tt = v; break;
        case EGL_MIPMAP_TEXTURE: mm = v; break;
        case EGL_LARGEST_PBUFFER: largest = v != 0; break;
        case EGL_RENDER_BUFFER: rb = v; break;
        default: break;
        }
    }
    uint64_t id;
    rp_surface_t *s = new_surface(st, width, height, &id);
    if (!s)
        return -1;
    s->window = !pbuffer;
    s->rec_config = cfg_of(st, c->a[1].u);
    s->colorspace = cs;
    s->largest = pbuffer && largest;
    s->render_buffer = pbuffer ? 0 : rb;
    if (pbuffer && tf != EGL_NO_TEXTURE)
        s->tex_format = tf, s->tex_target = tt, s->mipmap = mm;
    return map_ws(st, W15_GROUP_EGL_SURFACES, rec_result(c), id);
}

/* eglBindTexImage(dpy, surface, buffer), eglReleaseTexImage(...): on the
 * replay's pbuffer (made now if the trace binds it before drawing to it),
 * created with the recorded EGL_TEXTURE_FORMAT and _TARGET. */
int rp_h_egl_bind_tex_image(rp_exec_t *x, const rp_call_t *c)
{
    wsi_t *w = W(x->st);
    rp_surface_t *s = surf_of(x->st, c->a[1].u);
    int release = c->fn == W15F_eglReleaseTexImage;
    if (!s || !x->ctx || x->ctx->glx || !w->dpy)
        return rp_cannot(x, c->fn, "no replayed EGL pbuffer or context for it");
    if (!s->egl && (release || realize_surface(x, s, x->ctx, c->fn)))
        return 0;
    EGLint buf = (EGLint)rec_arg(c, 2);
    if (!(release ? w->ReleaseTexImage : w->BindTexImage)(w->dpy, s->egl, buf) && c->wc->result &&
        c->wc->result->count && c->wc->result->v.b[0])
        rp_warn(x, c->fn, "failed in the replay (EGL error 0x%x), not when recorded", w->GetError());
    return 0;
}

/* ---- EGLImages --------------------------------------------------------- */

/* The namespace of an EGLImage's client buffer for target t: a GL object
 * of the context given (EGL_KHR_gl_texture_2D/3D/cubemap_image,
 * EGL_KHR_gl_renderbuffer_image), else 0 (dma-bufs, native pixmaps, ...:
 * memory outside GL that the trace does not hold). */
static unsigned image_source_ns(int64_t t)
{
    if (t == 0x30B1 /* EGL_GL_TEXTURE_2D */ || t == 0x30B2 /* EGL_GL_TEXTURE_3D */ ||
        (t >= 0x30B3 && t <= 0x30B8) /* EGL_GL_TEXTURE_CUBE_MAP_{POSITIVE,NEGATIVE}_{X,Y,Z} */)
        return W15_GROUP_GL_TEXTURES;
    if (t == 0x30B9 /* EGL_GL_RENDERBUFFER */)
        return W15_GROUP_GL_RENDERBUFFERS;
    return 0;
}

/* eglCreateImage(dpy, ctx, target, buffer, const EGLAttrib *attrib_list),
 * eglCreateImageKHR(dpy, ctx, target, buffer, const EGLint *attrib_list):
 * the client buffer (a texture or renderbuffer name of ctx's share group)
 * through the replay's names, the attribute list as recorded; the image
 * the replay gets is what the recorded handle maps to from now on
 * (glEGLImageTarget*, eglDestroyImage*). */
int rp_h_egl_create_image(rp_exec_t *x, const rp_call_t *c)
{
    rp_state_t *st = x->st;
    wsi_t *w = W(st);
    uint64_t rec = rec_result(c);
    int64_t target = (int64_t)rec_arg(c, 2);
    unsigned ns = image_source_ns(target);
    rp_ctx_t *ctx = ctx_of(st, c->a[1].u);
    if (!ns)
        return rp_cannot(x, c->fn, "EGLImages of target 0x%llx (not a GL texture or renderbuffer: dma-buf, "
                                   "native pixmap, ...) are not replayed: their memory is not in the trace",
                         (unsigned long long)target);
    if (!ctx || !ctx->handle || ctx->glx || !w->dpy)
        return rp_cannot(x, c->fn, "the image's context 0x%llx was not replayed on EGL",
                         (unsigned long long)rec_arg(c, 1));
    int attrib = c->fn == W15F_eglCreateImage; /* EGLAttrib list, else EGLint */
    if (!(attrib ? (void *)w->CreateImage : (void *)w->CreateImageKHR))
        return rp_cannot(x, c->fn, "the replaying EGL lacks this function");
    EGLClientBuffer buf =
        (EGLClientBuffer)(uintptr_t)rp_names_get(&ctx->share->ns[ns], rec_arg(c, 3));
    uint32_t n = c->wc->args[4].type.is_array ? c->wc->args[4].count : 0;
    EGLAttrib *la = rp_arena_alloc(&x->arena, (n + 1) * sizeof *la);
    EGLint *li = rp_arena_alloc(&x->arena, (n + 1) * sizeof *li);
    if (!la || !li) {
        rp_fatal(st, "out of memory");
        return -1;
    }
    for (uint32_t i = 0; i < n; i++)
        la[i] = (EGLAttrib)rec_elem(c, 4, i), li[i] = (EGLint)la[i];
    la[n] = EGL_NONE, li[n] = EGL_NONE;
    EGLImage img = attrib ? w->CreateImage(w->dpy, ctx->handle, (EGLenum)target, buf, n ? la : NULL)
                          : w->CreateImageKHR(w->dpy, ctx->handle, (EGLenum)target, buf, n ? li : NULL);
    if (!img && rec)
        rp_warn(x, c->fn, "failed in the replay (EGL error 0x%x), not when recorded", w->GetError());
    if (!rec)
        return 0;
    if (rp_names_put(&st->ws[W15_GROUP_EGL_OES_IMAGES], rec, (uint64_t)(uintptr_t)img)) {
        rp_fatal(st, "out of memory");
        return -1;
    }
    return 0;
}

/* eglDestroyImage(dpy, image), eglDestroyImageKHR(dpy, image) */
int rp_h_egl_destroy_image(rp_exec_t *x, const rp_call_t *c)
{
    rp_state_t *st = x->st;
    wsi_t *w = W(st);
    uint64_t rec = rec_arg(c, 1);
    rp_names_t *m = &st->ws[W15_GROUP_EGL_OES_IMAGES];
    if (!rp_names_has(m, rec))
        return 0; /* not replayed (warned at its creation) */
    EGLImage img = (EGLImage)(uintptr_t)c->a[1].u;
    if (img) {
        if (w->DestroyImage)
            w->DestroyImage(w->dpy, img);
        else if (w->DestroyImageKHR)
            w->DestroyImageKHR(w->dpy, img);
    }
    rp_names_del(m, rec);
    return 0;
}

/* glEGLImageTargetTexture2DOES, glEGLImageTargetRenderbufferStorageOES,
 * glEGLImageTarget(Tex|Texture)StorageEXT: parameter 1 is the image,
 * already the replay's (decode maps the EGLImage namespace); an image the
 * replay did not make (a dma-buf, ...) is not passed on as a recorded
 * address. */
int rp_h_egl_image_target(rp_exec_t *x, const rp_call_t *c)
{
    uint64_t rec = rec_arg(c, 1);
    if (rec && !rp_names_has(&x->st->ws[W15_GROUP_EGL_OES_IMAGES], rec))
        return rp_cannot(x, c->fn, "its EGLImage 0x%llx was not replayed", (unsigned long long)rec);
    rp_call_t cc = *c;
    return rp_call_real(x, &cc);
}

/* eglMakeCurrent(dpy, draw, read, ctx) */
int rp_h_egl_make_current(rp_exec_t *x, const rp_call_t *c)
{
    rp_state_t *st = x->st;
    if (c->wc->result && c->wc->result->count && !c->wc->result->v.b[0])
        return 0; /* it failed when recorded */
    rp_ctx_t *ctx = ctx_of(st, c->a[3].u);
    rp_surface_t *draw = surf_of(st, c->a[1].u), *read = surf_of(st, c->a[2].u);
    if (rec_arg(c, 3) && !ctx)
        return rp_cannot(x, c->fn, "unknown context 0x%llx", (unsigned long long)rec_arg(c, 3));
    return make_current(x, ctx, draw, read, c->fn);
}

static int swap(rp_exec_t *x, const rp_call_t *c, rp_surface_t *s)
{
    wsi_t *w = W(x->st);
    if (s && s->xwin && !s->egl && !x->ctx) {
        /* GLX swaps a window with no context current (the last one made
         * current on it decides how) */
        w->glXSwapBuffers(w->xdpy, gdraw(s));
        return 0;
    }
    if (!s || !x->ctx)
        return rp_cannot(x, c->fn, "no current surface to swap");
    if (rp_frame_end(x, s))
        return -1;
    if (s->xwin && !s->egl) {
        w->glXSwapBuffers(w->xdpy, gdraw(s));
    } else if (s->xwin) {
        w->SwapBuffers(w->dpy, s->egl); /* an EGL window (--window) */
    } else if (s->egl) {
        w->SwapBuffers(w->dpy, s->egl);
        /* every drawable is a pbuffer here, and eglSwapBuffers on a
         * pbuffer does nothing, where a window's swap flushes: without a
         * flush per frame llvmpipe keeps queueing frames and replays
         * glmark2 about half as fast (a flush changes nothing the trace's
         * calls can see) */
        void (*fl)(void) = (void (*)(void))rp_addr(x->st, W15F_glFlush);
        if (fl)
            fl();
    }
    if ((s->egl || s->xwin) && (s->real_w != s->width || s->real_h != s->height) &&
        (x->ctx->draw == s || x->ctx->read == s))
        return make_current(x, x->ctx, x->ctx->draw, x->ctx->read, c->fn); /* resized meanwhile */
    return 0;
}

int rp_h_egl_swap_buffers(rp_exec_t *x, const rp_call_t *c)
{
    return swap(x, c, surf_of(x->st, c->a[1].u));
}

int rp_h_egl_destroy_context(rp_exec_t *x, const rp_call_t *c)
{
    rp_ctx_t *ctx = ctx_of(x->st, c->a[1].u);
    if (ctx && ctx->handle && !ctx->bound) {
        W(x->st)->DestroyContext(W(x->st)->dpy, ctx->handle);
        ctx->handle = NULL;
    }
    return 0;
}

int rp_h_egl_destroy_surface(rp_exec_t *x, const rp_call_t *c)
{
    rp_surface_t *s = surf_of(x->st, c->a[1].u);
    if (s && (!x->ctx || (x->ctx->draw != s && x->ctx->read != s)))
        drop_surface(x->st, s);
    return 0;
}

/* ---- GLX handlers ------------------------------------------------------- */

/* glXChooseFBConfig(dpy, screen, attrib_list, nelements) -> configs;
 * glXGetFBConfigs(dpy, screen, nelements) -> configs */
int rp_h_glx_choose_fbconfig(rp_exec_t *x, const rp_call_t *c)
{
    rp_state_t *st = x->st;
    const w15_value_t *out = c->wc->result;
    int choose = c->nargs == 4;
    for (uint32_t j = 0; out && out->type.is_array && j < out->count; j++) {
        uint64_t id;
        rp_config_t *cfg = new_config(st, &id);
        if (!cfg)
            return -1;
        if (choose && c->a[2].vp)
            config_from_glx(cfg, c->a[2].vp, c->wc->args[2].count, 0);
        else
            cfg->from_glx = 1;
        if (map_ws(st, W15_GROUP_GLX_FBCONFIGS, out->v.u[j], id))
            return -1;
    }
    return 0;
}

/* glXChooseVisual(dpy, screen, attribList) -> XVisualInfo * */
int rp_h_glx_choose_visual(rp_exec_t *x, const rp_call_t *c)
{
    rp_state_t *st = x->st;
    uint64_t id;
    rp_config_t *cfg = new_config(st, &id);
    if (!cfg)
        return -1;
    if (c->a[2].vp)
        config_from_glx(cfg, c->a[2].vp, c->wc->args[2].count, 1);
    uint64_t rec = rec_result(c);
    if (rec && rp_names_put(&st->visuals, rec, id)) {
        rp_fatal(st, "out of memory");
        return -1;
    }
    return 0;
}

/* glXGetVisualFromFBConfig(dpy, config) -> XVisualInfo * */
int rp_h_glx_visual_from_fbconfig(rp_exec_t *x, const rp_call_t *c)
{
    rp_state_t *st = x->st;
    uint64_t rec = rec_result(c);
    if (rec && cfg_of(st, c->a[1].u) && rp_names_put(&st->visuals, rec, c->a[1].u)) {
        rp_fatal(st, "out of memory");
        return -1;
    }
    return 0;
}

/* glXCreateContext(dpy, vis, shareList, direct)
 * glXCreateNewContext(dpy, config, render_type, share_list, direct)
 * glXCreateContextAttribsARB(dpy, config, share_context, direct, attrib_list) */
int rp_h_glx_create_context(rp_exec_t *x, const rp_call_t *c)
{
    rp_state_t *st = x->st;
    rp_config_t *cfg;
    rp_ctx_t *share;
    const int *attrs = NULL;
    uint32_t nattrs = 0;
    if (c->nargs == 4) {
        cfg = cfg_of(st, rp_names_get(&st->visuals, rec_arg(c, 1)));
        share = ctx_of(st, c->a[2].u);
    } else if (c->nargs == 5 && c->wc->args[4].type.is_array) {
        cfg = cfg_of(st, c->a[1].u);
        share = ctx_of(st, c->a[2].u);
        attrs = c->a[4].vp;
        nattrs = c->wc->args[4].count;
    } else {
        cfg = cfg_of(st, c->a[1].u);
        share = ctx_of(st, c->a[3].u);
    }
    uint64_t id, cid;
    if (!cfg) {
        cfg = new_config(st, &cid);
        if (!cfg)
            return -1;
        cfg->from_glx = 1;
    }
    rp_ctx_t *ctx = new_ctx(st, share, &id);
    if (!ctx)
        return -1;
    ctx->traced = rec_result(c);
    ctx->glx_rec = 1;
    for (uint32_t i = 0; attrs && i + 1 < nattrs && attrs[i] != 0; i += 2) {
        switch (attrs[i]) {
        case GLX_CONTEXT_MAJOR_VERSION_ARB: ctx->major = attrs[i + 1]; break;
        case GLX_CONTEXT_MINOR_VERSION_ARB: ctx->minor = attrs[i + 1]; break;
        case GLX_CONTEXT_PROFILE_MASK_ARB:
            if (attrs[i + 1] & GLX_CONTEXT_ES2_PROFILE_BIT_EXT)
                ctx->es = 1;
            else
                ctx->profile = attrs[i + 1];
            break;
        case CTX_FLAGS_ARB: ctx->flags = attrs[i + 1]; break;
        default: break;
        }
    }
    if (map_ws(st, W15_GROUP_GLX_CONTEXTS, ctx->traced, id))
        return -1;
    ctx->config = cfg;
    ctx->share_ctx = share;
    ctx->create_fn = c->fn;
    return 0; /* created at its first MakeCurrent */
}

/* A GLX drawable seen for the first time (an X window made current). */
static rp_surface_t *drawable(rp_exec_t *x, uint64_t rec)
{
    rp_state_t *st = x->st;
    if (!rec)
        return NULL;
    rp_surface_t *s = surf_of(st, rp_names_get(&st->ws[W15_GROUP_GLX_DRAWABLES], rec));
    if (s)
        return s;
    uint64_t id;
    s = new_surface(st, 0, 0, &id);
    if (s)
        s->window = 1; /* an X window (or pixmap) the trace made current without glXCreate* */
    if (s && map_ws(st, W15_GROUP_GLX_DRAWABLES, rec, id))
        return NULL;
    return s;
}

/* glXMakeCurrent(dpy, drawable, ctx), glXMakeContextCurrent(dpy, draw, read, ctx) */
int rp_h_glx_make_current(rp_exec_t *x, const rp_call_t *c)
{
    rp_state_t *st = x->st;
    if (c->wc->result && c->wc->result->count && !c->wc->result->v.b[0] && rec_result(c) == 0)
        return 0; /* it failed when recorded */
    int four = c->nargs == 4;
    uint64_t rctx = rec_arg(c, four ? 3 : 2);
    rp_ctx_t *ctx = ctx_of(st, c->a[four ? 3 : 2].u);
    if (rctx && !ctx)
        return rp_cannot(x, c->fn, "unknown context 0x%llx", (unsigned long long)rctx);
    rp_surface_t *draw = drawable(x, rec_arg(c, 1));
    rp_surface_t *read = four ? drawable(x, rec_arg(c, 2)) : draw;
    return make_current(x, ctx, draw, read, c->fn);
}

int rp_h_glx_swap_buffers(rp_exec_t *x, const rp_call_t *c)
{
    return swap(x, c, drawable(x, rec_arg(c, 1)));
}

int rp_h_glx_destroy_context(rp_exec_t *x, const rp_call_t *c)
{
    rp_state_t *st = x->st;
    rp_ctx_t *ctx = ctx_of(st, c->a[1].u);
    if (!ctx || !ctx->handle || ctx->bound)
        return 0;
    if (ctx->glx)
        W(st)->glXDestroyContext(W(st)->xdpy, ctx->handle);
    else
        W(st)->DestroyContext(W(st)->dpy, ctx->handle);
    ctx->handle = NULL;
    return 0;
}

/* glXCreateWindow(dpy, config, win, attrib_list), glXCreatePbuffer(dpy, config, attrib_list) */
int rp_h_glx_create_drawable(rp_exec_t *x, const rp_call_t *c)
{
    rp_state_t *st = x->st;
    int width = 0, height = 0;
    if (c->nargs == 3 && c->a[2].vp) {
        const int *a = c->a[2].vp;
        for (uint32_t i = 0; i + 1 < c->wc->args[2].count && a[i] != 0; i += 2) {
            if (a[i] == GLX_PBUFFER_WIDTH)
                width = a[i + 1];
            if (a[i] == GLX_PBUFFER_HEIGHT)
                height = a[i + 1];
        }
    }
    uint64_t id;
    rp_surface_t *s = new_surface(st, width, height, &id);
    if (!s)
        return -1;
    s->window = c->nargs == 4; /* glXCreateWindow */
    s->glx_window = s->window;
    return map_ws(st, W15_GROUP_GLX_DRAWABLES, rec_result(c), id);
}

/* glXCreatePixmap(dpy, config, pixmap, attrib_list),
 * glXCreateGLXPixmap(dpy, visual, pixmap): a pbuffer of the size the trace
 * records when it is first made current (wip15DrawableSize).  The X
 * pixmap's own contents (X drawing) are not in the trace; what GL draws
 * into it is.  A pixmap is single-buffered and its swaps do nothing, as a
 * pbuffer's. */
int rp_h_glx_create_pixmap(rp_exec_t *x, const rp_call_t *c)
{
    rp_state_t *st = x->st;
    uint64_t id;
    rp_surface_t *s = new_surface(st, 0, 0, &id);
    if (!s)
        return -1;
    return map_ws(st, W15_GROUP_GLX_DRAWABLES, rec_result(c), id);
}

/* glXBindTexImageEXT(dpy, drawable, buffer, attrib_list)
 * (GLX_EXT_texture_from_pixmap): the texture would get a pixmap's pixels,
 * which X drew (GTK 3 draws its widgets there with cairo) and the trace
 * does not hold: not replayed (the texture keeps what it had), said once,
 * an error with --strict. */
int rp_h_glx_bind_tex_image(rp_exec_t *x, const rp_call_t *c)
{
    return rp_cannot(x, c->fn, "the texture would get the pixels of an X pixmap "
                               "(GLX_EXT_texture_from_pixmap), which are not in the trace");
}

/* ---- front buffers ------------------------------------------------------ */

/* Call c depends on how a window behaves, which the replay's pbuffer
 * does not reproduce (`why`): said once, even with -q, since what the
 * program read there (and --check compares) may differ.  A GLX trace
 * replays in X windows with --window. */
static void window_note(rp_exec_t *x, const rp_call_t *c, const char *why)
{
    wsi_t *w = W(x->st);
    if (w->front_noted)
        return;
    w->front_noted = 1;
    rp_error_note(x->st, "note: call %llu (frame %llu): %s %s: %s", (unsigned long long)c->wc->index,
                  (unsigned long long)c->frame, c->wc->func->name, why,
                  !x->st->o->window ? "replay with --window for a faithful replay (X windows)"
                                    : "the replay could not make it an X window (no EGL on the X display?)");
}

static void front_note(rp_exec_t *x, const rp_call_t *c, const char *what)
{
    char why[128];
    snprintf(why, sizeof why, "%s a window's front buffer, which the replay's pbuffer does not have", what);
    window_note(x, c, why);
}

static int names_front(int64_t v)
{
    return v == 0x0404 /* GL_FRONT */ || v == 0x0400 /* GL_FRONT_LEFT */ || v == 0x0401 /* GL_FRONT_RIGHT */ ||
           v == 0x0408 /* GL_FRONT_AND_BACK */ || v == 0x0406 /* GL_LEFT */ || v == 0x0407 /* GL_RIGHT */;
}

/* Calls choosing colour buffers (glReadBuffer, glDrawBuffer(s) and their
 * named and EXT forms): replayed as they are; when the replay draws a
 * window into a pbuffer (headless, or an EGL trace), a front buffer of the
 * default framebuffer is noted (front_note). */
static int color_buffer(rp_exec_t *x, const rp_call_t *c, int read)
{
    rp_ctx_t *ctx = x->ctx;
    rp_surface_t *s = ctx ? (read ? ctx->read : ctx->draw) : NULL;
    if (!W(x->st)->front_noted && s && s->window && !s->xwin) {
        const w15_func_sig_t *fs = &w15_funcs[c->fn];
        int front = 0, fbo = -1; /* -1: no framebuffer parameter */
        for (uint32_t i = 0; i < c->nargs && i < fs->nparams; i++) {
            const w15_param_sig_t *ps = &w15_params[fs->first_param + i];
            if (ps->group != W15_NO_GROUP && ps->group < w15_ngroups &&
                w15_groups[ps->group].type == W15_GROUP_GL_FRAMEBUFFERS) {
                fbo = rec_arg(c, i) != 0;
                continue;
            }
            uint32_t n = c->wc->args[i].type.is_array ? c->wc->args[i].count : 1;
            for (uint32_t k = 0; k < n && !front; k++)
                front = names_front(c->wc->args[i].type.is_array ? rec_elem(c, i, k) : (int64_t)rec_arg(c, i));
        }
        if (front && fbo < 0) {
            /* the bound framebuffer: GL_READ_FRAMEBUFFER_BINDING, or
             * GL_(DRAW_)FRAMEBUFFER_BINDING (also in OpenGL ES 2.0) */
            rp_ctx_version(x, ctx);
            int es2 = ctx->gl_es && ctx->gl_major < 3;
            fbo = rp_gl_get_integer(x, read && !es2 ? 0x8CAA : 0x8CA6) != 0;
        }
        if (front && !fbo)
            front_note(x, c, read ? "reads" : "draws into");
    }
    rp_call_t cc = *c;
    return rp_call_real(x, &cc);
}

int rp_h_read_buffer(rp_exec_t *x, const rp_call_t *c)
{
    return color_buffer(x, c, 1);
}

int rp_h_draw_buffer(rp_exec_t *x, const rp_call_t *c)
{
    return color_buffer(x, c, 0);
}

/* glXCopySubBufferMESA(dpy, drawable, x, y, width, height): a copy from
 * the back to the front buffer of an X window (--window). */
int rp_h_glx_copy_sub_buffer(rp_exec_t *x, const rp_call_t *c)
{
    wsi_t *w = W(x->st);
    rp_surface_t *s = drawable(x, rec_arg(c, 1));
    if (!s)
        return x->st->stop ? -1 : 0;
    if (!s->xwin) {
        front_note(x, c, "copies into");
        return 0;
    }
    if (!w->glXCopySubBufferMESA)
        return rp_cannot(x, c->fn, "the replaying GLX lacks GLX_MESA_copy_sub_buffer");
    w->glXCopySubBufferMESA(w->xdpy, gdraw(s), (int)c->a[2].i, (int)c->a[3].i, (int)c->a[4].i, (int)c->a[5].i);
    return 0;
}

/* ---- sizes: wip15DrawableSize, or the glViewport guess ---------------- */

/* Whether s is the draw or read surface of a context current somewhere. */
static int surface_bound(rp_state_t *st, const rp_surface_t *s)
{
    wsi_t *w = W(st);
    for (uint32_t i = 0; i < w->nctxs; i++) {
        const rp_ctx_t *c = w->ctxs[i];
        if (c && c->bound && (c->draw == s || c->read == s))
            return 1;
    }
    return 0;
}

/* Surface s now has the size wd x ht: its drawable follows at once when it
 * is current on this thread (made current again) or on none (recreated at
 * its next MakeCurrent); when it is current on another thread, at that
 * thread's next MakeCurrent or swap. */
static int resize(rp_exec_t *x, rp_surface_t *s, int wd, int ht, uint32_t fn)
{
    s->guessed = 0;
    if (wd == s->width && ht == s->height)
        return 0;
    s->width = wd, s->height = ht;
    rp_ctx_t *ctx = x->ctx;
    if (ctx && (ctx->draw == s || ctx->read == s)) {
        if (make_current(x, ctx, ctx->draw, ctx->read, fn))
            return 1;
        if (ctx->guess_view && ctx->draw == s && ctx->guess_calls == x->st->calls) {
            /* the context's first MakeCurrent gave it the guessed size as
             * its default viewport and scissor box; the program, made
             * current on the recorded size, had that one */
            typedef void (*pfn_rect)(int, int, int, int);
            pfn_rect vp = (pfn_rect)rp_addr(x->st, W15F_glViewport), sc = (pfn_rect)rp_addr(x->st, W15F_glScissor);
            if (vp)
                vp(0, 0, wd, ht);
            if (sc)
                sc(0, 0, wd, ht);
        }
        ctx->guess_view = 0;
        return 0;
    }
    if (s->xwin) {
        wsi_t *w = W(x->st);
        XResizeWindow(w->xdpy, s->xwin, (unsigned)wd, (unsigned)ht);
        XSync(w->xdpy, False);
        s->real_w = wd, s->real_h = ht;
    } else if (s->egl && !surface_bound(x->st, s)) {
        drop_surface(x->st, s);
    }
    return 0;
}

static int64_t pseudo_arg(const rp_call_t *c, uint32_t i)
{
    return i < c->wc->func->nargs ? (int64_t)rec_arg(c, i) : 0;
}

/* wip15DrawableSize(drawable, width, height) */
int rp_wsi_drawable_size(rp_exec_t *x, const rp_call_t *c)
{
    rp_state_t *st = x->st;
    uint64_t rec = rec_arg(c, 0);
    int64_t wd = pseudo_arg(c, 1), ht = pseudo_arg(c, 2);
    if (!rec)
        return 0;
    if (wd <= 0 || ht <= 0 || wd > 16384 || ht > 16384) {
        rp_warn(x, c->fn, "drawable 0x%llx of %lldx%lld: not a usable size, ignored", (unsigned long long)rec,
                (long long)wd, (long long)ht);
        return 0;
    }
    rp_surface_t *s = surf_of(st, rp_names_get(&st->ws[W15_GROUP_EGL_SURFACES], rec));
    if (!s)
        s = drawable(x, rec); /* a GLX drawable (an X window the trace never created) */
    if (!s)
        return st->stop ? -1 : 0;
    return resize(x, s, (int)wd, (int)ht, c->fn) < 0 ? -1 : 0;
}

/* wip15ContextConfig(context, share_context, api, major, minor,
 * profile_mask, flags, red, green, blue, alpha, depth, stencil, samples,
 * double_buffer, srgb): what the context was created with, after its
 * creation call; it is created (at its first MakeCurrent) with exactly
 * this. */
int rp_wsi_context_config(rp_exec_t *x, const rp_call_t *c)
{
    rp_state_t *st = x->st;
    if (c->wc->func->nargs < 16)
        return 0;
    uint64_t rec = rec_arg(c, 0);
    rp_ctx_t *ctx = ctx_of(st, rp_names_get(&st->ws[W15_GROUP_EGL_CONTEXTS], rec));
    if (!ctx)
        ctx = ctx_of(st, rp_names_get(&st->ws[W15_GROUP_GLX_CONTEXTS], rec));
    if (!ctx) {
        rp_warn(x, c->fn, "a configuration for context 0x%llx, which the trace did not create",
                (unsigned long long)rec);
        return 0;
    }
    if (ctx->handle)
        return 0; /* already created (the configuration came after its MakeCurrent) */
    uint64_t cid;
    rp_config_t *cfg = new_config(st, &cid);
    if (!cfg)
        return -1;
    ctx->es = (uint64_t)pseudo_arg(c, 2) == EGL_OPENGL_ES_API;
    ctx->major = (int)pseudo_arg(c, 3);
    ctx->minor = (int)pseudo_arg(c, 4);
    ctx->profile = ctx->es ? 0 : (int)pseudo_arg(c, 5);
    ctx->flags = (int)pseudo_arg(c, 6);
    if (ctx->es && !ctx->major)
        ctx->major = 1;
    cfg->red = (int)pseudo_arg(c, 7);
    cfg->green = (int)pseudo_arg(c, 8);
    cfg->blue = (int)pseudo_arg(c, 9);
    cfg->alpha = (int)pseudo_arg(c, 10);
    cfg->depth = (int)pseudo_arg(c, 11);
    cfg->stencil = (int)pseudo_arg(c, 12);
    cfg->samples = (int)pseudo_arg(c, 13);
    cfg->single = pseudo_arg(c, 14) == 0;
    cfg->srgb = pseudo_arg(c, 15) != 0;
    cfg->from_glx = 0; /* exact sizes: no preference for the deepest depth buffer */
    ctx->config = cfg;
    return 0;
}

/* glViewport in a trace without wip15DrawableSize: a window takes the
 * size of its first viewport. */
int rp_h_viewport(rp_exec_t *x, const rp_call_t *c)
{
    rp_ctx_t *ctx = x->ctx;
    rp_surface_t *s = ctx ? ctx->draw : NULL;
    if (s && s->guessed) {
        s->guessed = 0;
        int wd = (int)(c->a[0].i + c->a[2].i), ht = (int)(c->a[1].i + c->a[3].i);
        if (wd > 0 && ht > 0 && wd <= 16384 && ht <= 16384 && resize(x, s, wd, ht, c->fn))
            return 1;
    }
    rp_call_t cc = *c;
    return rp_call_real(x, &cc);
}
