/* app_egl.h -- headless EGL (Mesa surfaceless platform) for the test
 * programs that link libEGL.  Include after app_common.h. */
#ifndef W15_APP_EGL_H
#define W15_APP_EGL_H

#include <EGL/egl.h>
#include <EGL/eglext.h>

#ifndef EGL_PLATFORM_SURFACELESS_MESA
#define EGL_PLATFORM_SURFACELESS_MESA 0x31DD
#endif

typedef struct app_egl {
    EGLDisplay dpy;
    EGLConfig cfg;
    EGLContext ctx;
    EGLSurface surf; /* a pbuffer, or EGL_NO_SURFACE */
} app_egl_t;

/* The surfaceless display: EGL_MESA_platform_surfaceless through
 * eglGetPlatformDisplayEXT when the client extensions offer it, else
 * eglGetDisplay(EGL_DEFAULT_DISPLAY) (set EGL_PLATFORM=surfaceless). */
static inline EGLDisplay app_egl_display(void)
{
    const char *ext = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    if (ext && strstr(ext, "EGL_MESA_platform_surfaceless")) {
        PFNEGLGETPLATFORMDISPLAYEXTPROC get =
            (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
        if (get)
            return get(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    }
    return eglGetDisplay(EGL_DEFAULT_DISPLAY);
}

/* Initialises EGL, binds `api` (EGL_OPENGL_ES_API or EGL_OPENGL_API),
 * creates a context of version major.minor (core profile for desktop GL)
 * and, when pb_w > 0, a pb_w x pb_h pbuffer; makes them current. */
static inline void app_egl_open(app_egl_t *e, EGLenum api, int major, int minor, int pb_w, int pb_h)
{
    EGLint vmaj = 0, vmin = 0;
    e->dpy = app_egl_display();
    APP_CHECK(e->dpy != EGL_NO_DISPLAY, "no EGL display");
    APP_CHECK(eglInitialize(e->dpy, &vmaj, &vmin), "eglInitialize failed (0x%x)", eglGetError());
    APP_CHECK(eglBindAPI(api), "eglBindAPI failed");
    EGLint rtype = api == EGL_OPENGL_API ? EGL_OPENGL_BIT
                   : major >= 3          ? EGL_OPENGL_ES3_BIT
                                         : EGL_OPENGL_ES2_BIT;
    const EGLint cattrs[] = {
        EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, rtype,
        EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8,
        EGL_DEPTH_SIZE, 24, EGL_NONE,
    };
    EGLint n = 0;
    APP_CHECK(eglChooseConfig(e->dpy, cattrs, &e->cfg, 1, &n) && n == 1, "no EGL config");
    const EGLint xattrs_es[] = {
        EGL_CONTEXT_MAJOR_VERSION, major, EGL_CONTEXT_MINOR_VERSION, minor, EGL_NONE,
    };
    const EGLint xattrs_gl[] = {
        EGL_CONTEXT_MAJOR_VERSION, major, EGL_CONTEXT_MINOR_VERSION, minor,
        EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE,
    };
    e->ctx = eglCreateContext(e->dpy, e->cfg, EGL_NO_CONTEXT,
                              api == EGL_OPENGL_API ? xattrs_gl : xattrs_es);
    APP_CHECK(e->ctx != EGL_NO_CONTEXT, "eglCreateContext %d.%d failed (0x%x)", major, minor,
              eglGetError());
    e->surf = EGL_NO_SURFACE;
    if (pb_w > 0) {
        const EGLint pattrs[] = {EGL_WIDTH, pb_w, EGL_HEIGHT, pb_h, EGL_NONE};
        e->surf = eglCreatePbufferSurface(e->dpy, e->cfg, pattrs);
        APP_CHECK(e->surf != EGL_NO_SURFACE, "eglCreatePbufferSurface failed (0x%x)",
                  eglGetError());
    }
    APP_CHECK(eglMakeCurrent(e->dpy, e->surf, e->surf, e->ctx), "eglMakeCurrent failed (0x%x)",
              eglGetError());
}

static inline void app_egl_close(app_egl_t *e)
{
    eglMakeCurrent(e->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    if (e->surf != EGL_NO_SURFACE)
        eglDestroySurface(e->dpy, e->surf);
    eglDestroyContext(e->dpy, e->ctx);
    eglTerminate(e->dpy);
}

#endif
