/* surfaces_glx -- a GLX program for capture.surfaces.* (surfaces.cmake).
 *
 *   surfaces_glx [--ctx legacy|compat|core] [--attr K=V,...] [--size WxH]
 *                [--frames N] [--resize WxH] [--rebind] [--list]
 *
 * --ctx: legacy = glXChooseVisual + glXCreateContext + glXMakeCurrent on
 * the window; compat = glXCreateNewContext + glXMakeCurrent on the window;
 * core = glXCreateContextAttribsARB (3.3 core) + glXMakeContextCurrent on a
 * GLXWindow.  --attr asks for a config whose attributes are exactly these
 * (red green blue alpha depth stencil samples double srgb); the first such
 * one is used.  Prints on stdout:
 *   config red=R green=G blue=B alpha=A depth=D stencil=S samples=N double=D srgb=S
 *     (glXGetFBConfigAttrib of the config, glXGetConfig of the visual)
 *   context 0xHANDLE
 *   drawable ID W H        (at MakeCurrent, and after each resize)
 *   digest ... / state ok FRAME     (surfaces_common.h)
 * --resize: after half the frames, XResizeWindow, wait for the
 * ConfigureNotify with the new size, go on drawing at that size.
 * --rebind: after half the frames, release the context (MakeCurrent of
 * None), resize there if --resize is given, and make the context current
 * on the window again (the tracer knows the drawable's size by then and
 * checks it without waiting; the new size must still come before the
 * first draw). */
#define GL_GLEXT_PROTOTYPES 1
#include "surfaces_common.h"

#include <GL/glx.h>
#include <GL/glxext.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <poll.h>

#ifndef GLX_FRAMEBUFFER_SRGB_CAPABLE_ARB
#define GLX_FRAMEBUFFER_SRGB_CAPABLE_ARB 0x20B2
#endif

static const char *const keys[] = { "red", "green", "blue", "alpha", "depth", "stencil", "samples", "double", "srgb" };
enum { NKEYS = 9 };
static const int glx_attr[NKEYS] = { GLX_RED_SIZE, GLX_GREEN_SIZE, GLX_BLUE_SIZE, GLX_ALPHA_SIZE, GLX_DEPTH_SIZE,
                                     GLX_STENCIL_SIZE, GLX_SAMPLES, GLX_DOUBLEBUFFER,
                                     GLX_FRAMEBUFFER_SRGB_CAPABLE_ARB };

static Display *dpy;
static GLXDrawable draw;

static void do_swap(void *arg)
{
    (void)arg;
    glXSwapBuffers(dpy, draw);
}

static sf_proc getproc(const char *name)
{
    return glXGetProcAddressARB((const GLubyte *)name);
}

static void parse_size(const char *s, int *w, int *h)
{
    SF_CHECK(sscanf(s, "%dx%d", w, h) == 2 && *w > 0 && *h > 0, "bad size '%s'", s);
}

#ifndef GLX_RENDERER_VERSION_MESA
#define GLX_RENDERER_VERSION_MESA 0x8185
#define GLX_RENDERER_VIDEO_MEMORY_MESA 0x8187
#endif

int main(int argc, char **argv)
{
    sf_name = "surfaces_glx";
    const char *ctxkind = "compat", *attrs = "";
    int w = 61, h = 37, frames = 4, rw = 0, rh = 0, list = 0, rebind = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--ctx") && i + 1 < argc)
            ctxkind = argv[++i];
        else if (!strcmp(argv[i], "--attr") && i + 1 < argc)
            attrs = argv[++i];
        else if (!strcmp(argv[i], "--size") && i + 1 < argc)
            parse_size(argv[++i], &w, &h);
        else if (!strcmp(argv[i], "--resize") && i + 1 < argc)
            parse_size(argv[++i], &rw, &rh);
        else if (!strcmp(argv[i], "--frames") && i + 1 < argc)
            frames = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--list"))
            list = 1;
        else if (!strcmp(argv[i], "--rebind"))
            rebind = 1;
        else
            sf_fail("usage: bad argument '%s'", argv[i]);
    }
    int want[NKEYS];
    for (int k = 0; k < NKEYS; k++)
        want[k] = -1;
    want[7] = 1;
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
    int legacy = !strcmp(ctxkind, "legacy"), core = !strcmp(ctxkind, "core");
    SF_CHECK(legacy || core || !strcmp(ctxkind, "compat"), "bad --ctx '%s'", ctxkind);

    dpy = XOpenDisplay(NULL);
    SF_CHECK(dpy, "cannot open the X display (GLX tests need one)");
    int scr = DefaultScreen(dpy);
    int got[NKEYS];
    XVisualInfo *vi = NULL;
    GLXFBConfig cfg = NULL;
    if (legacy) {
        int a[32], n = 0;
        a[n++] = GLX_RGBA;
        if (want[7] == 1)
            a[n++] = GLX_DOUBLEBUFFER;
        for (int k = 0; k < 6; k++)
            if (want[k] >= 0)
                a[n++] = glx_attr[k], a[n++] = want[k];
        a[n++] = None;
        vi = glXChooseVisual(dpy, scr, a);
        SF_CHECK(vi, "no visual");
        for (int k = 0; k < NKEYS; k++) {
            got[k] = 0;
            if (glXGetConfig(dpy, vi, glx_attr[k], &got[k]) != 0)
                got[k] = 0;
        }
        for (int k = 0; k < NKEYS; k++)
            SF_CHECK(want[k] < 0 || k == 6 || k == 8 || got[k] == want[k], "visual %s=%d, asked %d", keys[k], got[k],
                     want[k]);
    } else {
        int a[] = { GLX_X_RENDERABLE, True, GLX_DRAWABLE_TYPE, GLX_WINDOW_BIT, GLX_RENDER_TYPE, GLX_RGBA_BIT, None };
        int n = 0;
        GLXFBConfig *cfgs = glXChooseFBConfig(dpy, scr, a, &n);
        SF_CHECK(cfgs && n > 0, "no GLX configs");
        for (int i = 0; i < n && !cfg; i++) {
            int ok = 1;
            for (int k = 0; k < NKEYS; k++) {
                got[k] = 0;
                if (glXGetFBConfigAttrib(dpy, cfgs[i], glx_attr[k], &got[k]) != 0)
                    got[k] = 0;
                if (want[k] >= 0 && got[k] != want[k])
                    ok = 0;
            }
            if (list)
                printf("cfg %d: r%d g%d b%d a%d d%d s%d ms%d db%d srgb%d\n", i, got[0], got[1], got[2], got[3],
                       got[4], got[5], got[6], got[7], got[8]);
            if (ok && !list)
                cfg = cfgs[i];
        }
        XFree(cfgs);
        if (list)
            return 0;
        SF_CHECK(cfg, "no config with --attr '%s'", attrs);
        vi = glXGetVisualFromFBConfig(dpy, cfg);
        SF_CHECK(vi, "no visual for the config");
    }
    printf("config");
    for (int k = 0; k < NKEYS; k++)
        printf(" %s=%d", keys[k], got[k]);
    printf("\n");

    Window root = RootWindow(dpy, vi->screen);
    XSetWindowAttributes swa;
    memset(&swa, 0, sizeof swa);
    swa.colormap = XCreateColormap(dpy, root, vi->visual, AllocNone);
    swa.event_mask = StructureNotifyMask;
    Window win = XCreateWindow(dpy, root, 0, 0, (unsigned)w, (unsigned)h, 0, vi->depth, InputOutput, vi->visual,
                               CWColormap | CWEventMask, &swa);
    XMapWindow(dpy, win);
    XSync(dpy, False);

    GLXContext ctx;
    if (legacy) {
        ctx = glXCreateContext(dpy, vi, NULL, True);
    } else if (core) {
        PFNGLXCREATECONTEXTATTRIBSARBPROC create =
            (PFNGLXCREATECONTEXTATTRIBSARBPROC)getproc("glXCreateContextAttribsARB");
        SF_CHECK(create, "no glXCreateContextAttribsARB");
        const int ca[] = { GLX_CONTEXT_MAJOR_VERSION_ARB, 3, GLX_CONTEXT_MINOR_VERSION_ARB, 3,
                           GLX_CONTEXT_PROFILE_MASK_ARB, GLX_CONTEXT_CORE_PROFILE_BIT_ARB,
                           GLX_CONTEXT_FLAGS_ARB, GLX_CONTEXT_FORWARD_COMPATIBLE_BIT_ARB, None };
        ctx = create(dpy, cfg, NULL, True, ca);
    } else {
        ctx = glXCreateNewContext(dpy, cfg, GLX_RGBA_TYPE, NULL, True);
    }
    SF_CHECK(ctx, "no context");
    printf("context %p\n", (void *)ctx);
    int made;
    if (core) {
        draw = glXCreateWindow(dpy, cfg, win, NULL);
        made = glXMakeContextCurrent(dpy, draw, draw, ctx);
    } else {
        draw = win;
        made = glXMakeCurrent(dpy, draw, ctx);
    }
    SF_CHECK(made, "MakeCurrent failed");
    printf("drawable %lu %d %d\n", (unsigned long)draw, w, h);
    /* GLX_MESA_query_renderer: the version is 3 values, video memory 1
     * (the trace must hold exactly what GLX wrote) */
    typedef Bool (*query_renderer_fn)(int, unsigned int *);
    query_renderer_fn qr = (query_renderer_fn)getproc("glXQueryCurrentRendererIntegerMESA");
    if (qr) {
        unsigned int v[4] = { 0, 0, 0, 0 }, m[2] = { 0, 0 };
        if (qr(GLX_RENDERER_VERSION_MESA, v) && qr(GLX_RENDERER_VIDEO_MEMORY_MESA, m))
            printf("renderer %u %u %u %u\n", v[0], v[1], v[2], m[0]);
    }

    sf_ctx_t c;
    sf_init(&c, getproc, got[7] != 0);
    for (int f = 0; f < frames; f++) {
        if (rebind && f == frames / 2)
            SF_CHECK(core ? glXMakeContextCurrent(dpy, None, None, NULL) : glXMakeCurrent(dpy, None, NULL),
                     "releasing the context failed");
        if (rw && f == frames / 2) {
            XResizeWindow(dpy, win, (unsigned)rw, (unsigned)rh);
            XFlush(dpy);
            int done = 0;
            for (int tries = 0; !done && tries < 500; tries++) {
                while (XPending(dpy)) {
                    XEvent ev;
                    XNextEvent(dpy, &ev);
                    if (ev.type == ConfigureNotify && ev.xconfigure.width == rw && ev.xconfigure.height == rh)
                        done = 1;
                }
                if (!done) {
                    struct pollfd pfd = { ConnectionNumber(dpy), POLLIN, 0 };
                    poll(&pfd, 1, 10);
                }
            }
            SF_CHECK(done, "no ConfigureNotify for %dx%d", rw, rh);
            w = rw;
            h = rh;
            printf("drawable %lu %d %d\n", (unsigned long)draw, w, h);
        }
        if (rebind && f == frames / 2)
            SF_CHECK(core ? glXMakeContextCurrent(dpy, draw, draw, ctx) : glXMakeCurrent(dpy, draw, ctx),
                     "making the context current again failed");
        sf_frame(&c, f, w, h, do_swap, NULL);
    }
    glXMakeCurrent(dpy, None, NULL);
    glXDestroyContext(dpy, ctx);
    if (core)
        glXDestroyWindow(dpy, draw);
    XDestroyWindow(dpy, win);
    XFree(vi);
    XCloseDisplay(dpy);
    printf("%s: ok\n", sf_name);
    return 0;
}
