/* surfaces_egl -- an EGL program (Mesa surfaceless platform, pbuffers) for
 * capture.surfaces.* (surfaces.cmake).
 *
 *   surfaces_egl [--api es2|es3|core|compat] [--attr K=V,...] [--size WxH]
 *                [--second WxH] [--frames N] [--no-config]
 *
 * --attr asks eglChooseConfig for these sizes (red green blue alpha depth
 * stencil samples) and takes the first config that has exactly them.
 * --second: a second pbuffer of that size, made current for the second
 * half of the frames.  --no-config: the context is created with
 * EGL_NO_CONFIG_KHR (a config is still used for the pbuffer).  Prints:
 *   config red=R green=G blue=B alpha=A depth=D stencil=S samples=N double=D srgb=S
 *     (eglGetConfigAttrib; EGL configs have no double buffering or colour
 *     space: a pbuffer renders to a back buffer, 1, and is linear, 0;
 *     all 0 with --no-config)
 *   context 0xHANDLE
 *   drawable ID W H        (each surface when made current)
 *   digest ... / state ok FRAME     (surfaces_common.h) */
#include "surfaces_common.h"

#include <EGL/egl.h>
#include <EGL/eglext.h>

#ifndef EGL_PLATFORM_SURFACELESS_MESA
#define EGL_PLATFORM_SURFACELESS_MESA 0x31DD
#endif
#ifndef EGL_NO_CONFIG_KHR
#define EGL_NO_CONFIG_KHR ((EGLConfig)0)
#endif

static const char *const keys[] = { "red", "green", "blue", "alpha", "depth", "stencil", "samples" };
enum { NKEYS = 7 };
static const EGLint egl_attr[NKEYS] = { EGL_RED_SIZE, EGL_GREEN_SIZE, EGL_BLUE_SIZE, EGL_ALPHA_SIZE,
                                        EGL_DEPTH_SIZE, EGL_STENCIL_SIZE, EGL_SAMPLES };

static EGLDisplay dpy;
static EGLSurface surf;

static void do_swap(void *arg)
{
    (void)arg;
    SF_CHECK(eglSwapBuffers(dpy, surf), "eglSwapBuffers failed (0x%x)", eglGetError());
}

static sf_proc getproc(const char *name)
{
    return eglGetProcAddress(name);
}

static void parse_size(const char *s, int *w, int *h)
{
    SF_CHECK(sscanf(s, "%dx%d", w, h) == 2 && *w > 0 && *h > 0, "bad size '%s'", s);
}

static EGLSurface pbuffer(EGLConfig cfg, int w, int h)
{
    const EGLint pa[] = { EGL_WIDTH, w, EGL_HEIGHT, h, EGL_NONE };
    EGLSurface s = eglCreatePbufferSurface(dpy, cfg, pa);
    SF_CHECK(s != EGL_NO_SURFACE, "eglCreatePbufferSurface failed (0x%x)", eglGetError());
    return s;
}

int main(int argc, char **argv)
{
    sf_name = "surfaces_egl";
    const char *api = "es3", *attrs = "";
    int w = 61, h = 37, w2 = 0, h2 = 0, frames = 4, noconfig = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--api") && i + 1 < argc)
            api = argv[++i];
        else if (!strcmp(argv[i], "--attr") && i + 1 < argc)
            attrs = argv[++i];
        else if (!strcmp(argv[i], "--size") && i + 1 < argc)
            parse_size(argv[++i], &w, &h);
        else if (!strcmp(argv[i], "--second") && i + 1 < argc)
            parse_size(argv[++i], &w2, &h2);
        else if (!strcmp(argv[i], "--frames") && i + 1 < argc)
            frames = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--no-config"))
            noconfig = 1;
        else
            sf_fail("usage: bad argument '%s'", argv[i]);
    }
    int want[NKEYS];
    for (int k = 0; k < NKEYS; k++)
        want[k] = -1;
    for (const char *p = attrs; *p;) {
        int k, n = 0, v;
        for (k = 0; k < NKEYS; k++) {
            size_t l = strlen(keys[k]);
            if (!strncmp(p, keys[k], l) && p[l] == '=' && sscanf(p + l + 1, "%d%n", &v, &n) == 1) {
                want[k] = v;
                p += l + 1 + n;
                break;
            }
        }
        SF_CHECK(k < NKEYS, "bad --attr at '%s'", p);
        if (*p == ',')
            p++;
    }
    int es2 = !strcmp(api, "es2"), es3 = !strcmp(api, "es3"), core = !strcmp(api, "core");
    int compat = !strcmp(api, "compat");
    SF_CHECK(es2 || es3 || core || compat, "bad --api '%s'", api);

    const char *cext = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    dpy = EGL_NO_DISPLAY;
    if (cext && strstr(cext, "EGL_MESA_platform_surfaceless")) {
        PFNEGLGETPLATFORMDISPLAYEXTPROC get =
            (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
        if (get)
            dpy = get(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    }
    if (dpy == EGL_NO_DISPLAY)
        dpy = eglGetDisplay(EGL_DEFAULT_DISPLAY);
    SF_CHECK(dpy != EGL_NO_DISPLAY, "no EGL display");
    SF_CHECK(eglInitialize(dpy, NULL, NULL), "eglInitialize failed (0x%x)", eglGetError());
    SF_CHECK(eglBindAPI(es2 || es3 ? EGL_OPENGL_ES_API : EGL_OPENGL_API), "eglBindAPI failed");
    EGLint rtype = es2 ? EGL_OPENGL_ES2_BIT : es3 ? EGL_OPENGL_ES3_BIT : EGL_OPENGL_BIT;
    EGLint ca[32];
    int n = 0;
    ca[n++] = EGL_SURFACE_TYPE, ca[n++] = EGL_PBUFFER_BIT;
    ca[n++] = EGL_RENDERABLE_TYPE, ca[n++] = rtype;
    for (int k = 0; k < NKEYS; k++)
        if (want[k] >= 0)
            ca[n++] = egl_attr[k], ca[n++] = want[k];
    ca[n++] = EGL_NONE;
    EGLConfig cfgs[256];
    EGLint ncfg = 0;
    SF_CHECK(eglChooseConfig(dpy, ca, cfgs, 256, &ncfg) && ncfg > 0, "no EGL config");
    EGLConfig cfg = NULL;
    int got[NKEYS];
    for (EGLint i = 0; i < ncfg && !cfg; i++) {
        int ok = 1;
        for (int k = 0; k < NKEYS; k++) {
            EGLint v = 0;
            if (!eglGetConfigAttrib(dpy, cfgs[i], egl_attr[k], &v))
                v = 0;
            got[k] = v;
            if (want[k] >= 0 && got[k] != want[k])
                ok = 0;
        }
        if (ok)
            cfg = cfgs[i];
    }
    SF_CHECK(cfg, "no config with exactly --attr '%s'", attrs);
    surf = pbuffer(cfg, w, h);
    EGLint rb = 0;
    eglQuerySurface(dpy, surf, EGL_RENDER_BUFFER, &rb);
    if (noconfig)
        printf("config red=0 green=0 blue=0 alpha=0 depth=0 stencil=0 samples=0 double=0 srgb=0\n");
    else
        printf("config red=%d green=%d blue=%d alpha=%d depth=%d stencil=%d samples=%d double=%d srgb=0\n", got[0],
               got[1], got[2], got[3], got[4], got[5], got[6], rb == EGL_BACK_BUFFER);

    EGLint xa[16];
    n = 0;
    if (es2 || es3) {
        xa[n++] = EGL_CONTEXT_MAJOR_VERSION, xa[n++] = es2 ? 2 : 3;
    } else {
        xa[n++] = EGL_CONTEXT_MAJOR_VERSION, xa[n++] = core ? 3 : 2;
        xa[n++] = EGL_CONTEXT_MINOR_VERSION, xa[n++] = core ? 3 : 1;
        if (core)
            xa[n++] = EGL_CONTEXT_OPENGL_PROFILE_MASK, xa[n++] = EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT;
    }
    xa[n++] = EGL_NONE;
    EGLContext ctx = eglCreateContext(dpy, noconfig ? EGL_NO_CONFIG_KHR : cfg, EGL_NO_CONTEXT, xa);
    SF_CHECK(ctx != EGL_NO_CONTEXT, "eglCreateContext failed (0x%x)", eglGetError());
    printf("context %p\n", (void *)ctx);
    SF_CHECK(eglMakeCurrent(dpy, surf, surf, ctx), "eglMakeCurrent failed (0x%x)", eglGetError());
    printf("drawable %lu %d %d\n", (unsigned long)(uintptr_t)surf, w, h);

    sf_ctx_t c;
    sf_init(&c, getproc, rb == EGL_BACK_BUFFER);
    EGLSurface first = surf;
    for (int f = 0; f < frames; f++) {
        if (w2 && f == frames / 2) {
            surf = pbuffer(cfg, w2, h2);
            SF_CHECK(eglMakeCurrent(dpy, surf, surf, ctx), "eglMakeCurrent failed (0x%x)", eglGetError());
            w = w2;
            h = h2;
            printf("drawable %lu %d %d\n", (unsigned long)(uintptr_t)surf, w, h);
        }
        sf_frame(&c, f, w, h, do_swap, NULL);
    }
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    if (surf != first)
        eglDestroySurface(dpy, surf);
    eglDestroySurface(dpy, first);
    eglDestroyContext(dpy, ctx);
    eglTerminate(dpy);
    printf("%s: ok\n", sf_name);
    return 0;
}
