/* surfaces_egl -- an EGL program (Mesa surfaceless platform, pbuffers) for
 * capture.surfaces.* (surfaces.cmake).
 *
 *   surfaces_egl [--api es2|es3|core|compat] [--attr K=V,...] [--size WxH]
 *                [--second WxH] [--frames N] [--no-config] [--x11 [--resize WxH]]
 *
 * --attr asks eglChooseConfig for these sizes (red green blue alpha depth
 * stencil samples) and takes the first config that has exactly them.
 * --second: a second pbuffer of that size, made current for the second
 * half of the frames.  --no-config: the context is created with
 * EGL_NO_CONFIG_KHR (a config is still used for the pbuffer).  --x11: the
 * X11 platform on $DISPLAY and a window surface instead of a pbuffer;
 * --resize: after half the frames, XResizeWindow, wait for the
 * ConfigureNotify with the new size, go on drawing at that size.  Frame 1
 * starts with an EGL call that fails, and checks before its swap that
 * eglGetError still returns its error.  Prints:
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
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <poll.h>

#ifndef EGL_PLATFORM_SURFACELESS_MESA
#define EGL_PLATFORM_SURFACELESS_MESA 0x31DD
#endif
#ifndef EGL_PLATFORM_X11_KHR
#define EGL_PLATFORM_X11_KHR 0x31D5
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

/* frame 1 begins with an EGL call that fails (EGL_BAD_ATTRIBUTE); the
 * error must still be there after the frame's drawing, when it is read
 * just before the swap: the tracer's own EGL queries must not reset it */
static int error_pending;

static void do_swap(void *arg)
{
    (void)arg;
    if (error_pending) {
        EGLint e = eglGetError();
        SF_CHECK(e == EGL_BAD_ATTRIBUTE, "eglGetError after the frame's drawing: 0x%x, not EGL_BAD_ATTRIBUTE", e);
        printf("egl error kept 0x%x\n", e);
        error_pending = 0;
    }
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
    int w = 61, h = 37, w2 = 0, h2 = 0, rw = 0, rh = 0, frames = 4, noconfig = 0, x11 = 0;
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
        else if (!strcmp(argv[i], "--resize") && i + 1 < argc)
            parse_size(argv[++i], &rw, &rh);
        else if (!strcmp(argv[i], "--x11"))
            x11 = 1;
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
    Display *xdpy = NULL;
    PFNEGLGETPLATFORMDISPLAYEXTPROC get =
        (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
    if (x11) {
        xdpy = XOpenDisplay(NULL);
        SF_CHECK(xdpy, "cannot open the X display (--x11 needs one)");
        SF_CHECK(get && cext && strstr(cext, "EGL_EXT_platform_x11"), "no EGL_EXT_platform_x11");
        dpy = get(EGL_PLATFORM_X11_KHR, xdpy, NULL);
        SF_CHECK(dpy != EGL_NO_DISPLAY, "no EGL display on X11");
    } else if (get && cext && strstr(cext, "EGL_MESA_platform_surfaceless")) {
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
    ca[n++] = EGL_SURFACE_TYPE, ca[n++] = x11 ? EGL_WINDOW_BIT : EGL_PBUFFER_BIT;
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
    Window win = 0;
    if (x11) {
        EGLint vid = 0;
        SF_CHECK(eglGetConfigAttrib(dpy, cfg, EGL_NATIVE_VISUAL_ID, &vid), "no native visual");
        XVisualInfo tmpl, *vi;
        int nvi = 0;
        memset(&tmpl, 0, sizeof tmpl);
        tmpl.visualid = (VisualID)vid;
        vi = XGetVisualInfo(xdpy, VisualIDMask, &tmpl, &nvi);
        SF_CHECK(vi && nvi > 0, "no X visual 0x%x", vid);
        Window root = RootWindow(xdpy, vi->screen);
        XSetWindowAttributes swa;
        memset(&swa, 0, sizeof swa);
        swa.colormap = XCreateColormap(xdpy, root, vi->visual, AllocNone);
        swa.event_mask = StructureNotifyMask;
        win = XCreateWindow(xdpy, root, 0, 0, (unsigned)w, (unsigned)h, 0, vi->depth, InputOutput, vi->visual,
                            CWColormap | CWEventMask, &swa);
        XFree(vi);
        XMapWindow(xdpy, win);
        XSync(xdpy, False);
        surf = eglCreateWindowSurface(dpy, cfg, (EGLNativeWindowType)win, NULL);
        SF_CHECK(surf != EGL_NO_SURFACE, "eglCreateWindowSurface failed (0x%x)", eglGetError());
    } else {
        surf = pbuffer(cfg, w, h);
    }
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
        if (rw && f == frames / 2) {
            XResizeWindow(xdpy, win, (unsigned)rw, (unsigned)rh);
            XFlush(xdpy);
            int done = 0;
            for (int tries = 0; !done && tries < 500; tries++) {
                while (XPending(xdpy)) {
                    XEvent ev;
                    XNextEvent(xdpy, &ev);
                    if (ev.type == ConfigureNotify && ev.xconfigure.width == rw && ev.xconfigure.height == rh)
                        done = 1;
                }
                if (!done) {
                    struct pollfd pfd = { ConnectionNumber(xdpy), POLLIN, 0 };
                    poll(&pfd, 1, 10);
                }
            }
            SF_CHECK(done, "no ConfigureNotify for %dx%d", rw, rh);
            w = rw;
            h = rh;
            printf("drawable %lu %d %d\n", (unsigned long)(uintptr_t)surf, w, h);
        }
        if (f == 1) {
            EGLint v = 0;
            SF_CHECK(!eglQuerySurface(dpy, surf, EGL_SUCCESS /* not an attribute */, &v),
                     "eglQuerySurface accepted a bad attribute");
            error_pending = 1;
        }
        sf_frame(&c, f, w, h, do_swap, NULL);
    }
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    if (surf != first)
        eglDestroySurface(dpy, surf);
    eglDestroySurface(dpy, first);
    eglDestroyContext(dpy, ctx);
    eglTerminate(dpy);
    if (x11) {
        XDestroyWindow(xdpy, win);
        XCloseDisplay(xdpy);
    }
    printf("%s: ok\n", sf_name);
    return 0;
}
