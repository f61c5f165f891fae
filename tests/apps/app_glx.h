/* app_glx.h -- an X11 window with a GLX framebuffer config for the test
 * programs that link libGL.  Include after app_common.h. */
#ifndef W15_APP_GLX_H
#define W15_APP_GLX_H

#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <GL/glx.h>

typedef struct app_glx {
    Display *dpy;
    GLXFBConfig cfg;
    Window win;
    Colormap cmap;
} app_glx_t;

/* Opens $DISPLAY (failing, never skipping, when there is none), picks a
 * double-buffered RGBA8 config with depth and maps a w x h window. */
static inline void app_glx_open(app_glx_t *g, int w, int h)
{
    const char *name = getenv("DISPLAY");
    g->dpy = XOpenDisplay(NULL);
    APP_CHECK(g->dpy, "cannot open X display '%s' (GLX tests need an X server)",
              name ? name : "(DISPLAY unset)");
    static const int attrs[] = {
        GLX_X_RENDERABLE, True, GLX_DRAWABLE_TYPE, GLX_WINDOW_BIT,
        GLX_RENDER_TYPE, GLX_RGBA_BIT, GLX_DOUBLEBUFFER, True,
        GLX_RED_SIZE, 8, GLX_GREEN_SIZE, 8, GLX_BLUE_SIZE, 8, GLX_ALPHA_SIZE, 8,
        GLX_DEPTH_SIZE, 24, None,
    };
    int n = 0;
    GLXFBConfig *cfgs = glXChooseFBConfig(g->dpy, DefaultScreen(g->dpy), attrs, &n);
    APP_CHECK(cfgs && n > 0, "no GLX framebuffer config");
    g->cfg = cfgs[0];
    XFree(cfgs);
    XVisualInfo *vi = glXGetVisualFromFBConfig(g->dpy, g->cfg);
    APP_CHECK(vi, "no visual for the GLX config");
    Window root = RootWindow(g->dpy, vi->screen);
    XSetWindowAttributes swa;
    memset(&swa, 0, sizeof swa);
    g->cmap = XCreateColormap(g->dpy, root, vi->visual, AllocNone);
    swa.colormap = g->cmap;
    g->win = XCreateWindow(g->dpy, root, 0, 0, (unsigned)w, (unsigned)h, 0, vi->depth,
                           InputOutput, vi->visual, CWColormap, &swa);
    XFree(vi);
    XStoreName(g->dpy, g->win, APP_NAME);
    XMapWindow(g->dpy, g->win);
    XSync(g->dpy, False);
}

static inline void app_glx_close(app_glx_t *g)
{
    XDestroyWindow(g->dpy, g->win);
    XFreeColormap(g->dpy, g->cmap);
    XCloseDisplay(g->dpy);
}

#endif
