/* dlopen_glx -- a GLX program that does not link libGL: it dlopens
 * libGL.so.1 at run time.  Default mode: dlsym only glXGetProcAddressARB
 * and fetch every GLX and GL function through it.  With --direct: dlsym
 * every function directly from the library handle.  Either way it draws,
 * checks pixels and swaps three times.  Links only libX11. */
#define APP_NAME "dlopen_glx"
#define GL_GLEXT_PROTOTYPES 1
#include "app_common.h"
#include <dlfcn.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <GL/gl.h>
#include <GL/glx.h>

enum { W = 48, H = 48, FRAMES = 3 };

typedef void (*fn_t)(void);
typedef fn_t (*gpa_t)(const GLubyte *);

static void *lib;
static gpa_t gpa;

static fn_t get(const char *name)
{
    fn_t f;
    if (gpa) {
        f = gpa((const GLubyte *)name);
    } else {
        void *p = dlsym(lib, name);
        memcpy(&f, &p, sizeof f);
    }
    APP_CHECK(f, "cannot resolve %s", name);
    return f;
}

/* The prototypes come from the headers; __typeof__ does not reference the
 * symbol, so nothing links against libGL. */
#define LOAD(name) __typeof__(&name) p_##name = (__typeof__(&name))get(#name)

int main(int argc, char **argv)
{
    int direct = argc > 1 && strcmp(argv[1], "--direct") == 0;
    lib = dlopen("libGL.so.1", RTLD_NOW | RTLD_LOCAL);
    APP_CHECK(lib, "dlopen(libGL.so.1): %s", dlerror());
    if (!direct) {
        void *p = dlsym(lib, "glXGetProcAddressARB");
        APP_CHECK(p, "no glXGetProcAddressARB");
        memcpy(&gpa, &p, sizeof gpa);
    }

    LOAD(glXChooseFBConfig);
    LOAD(glXGetVisualFromFBConfig);
    LOAD(glXCreateNewContext);
    LOAD(glXMakeCurrent);
    LOAD(glXSwapBuffers);
    LOAD(glXDestroyContext);
    LOAD(glClearColor);
    LOAD(glClear);
    LOAD(glViewport);
    LOAD(glBegin);
    LOAD(glEnd);
    LOAD(glColor3f);
    LOAD(glVertex2f);
    LOAD(glReadPixels);
    LOAD(glGetError);
    LOAD(glGenBuffers);
    LOAD(glDeleteBuffers);

    Display *dpy = XOpenDisplay(NULL);
    APP_CHECK(dpy, "cannot open X display '%s' (GLX tests need an X server)",
              getenv("DISPLAY") ? getenv("DISPLAY") : "(DISPLAY unset)");
    static const int attrs[] = {
        GLX_DRAWABLE_TYPE, GLX_WINDOW_BIT, GLX_RENDER_TYPE, GLX_RGBA_BIT,
        GLX_DOUBLEBUFFER, True, GLX_RED_SIZE, 8, GLX_GREEN_SIZE, 8, GLX_BLUE_SIZE, 8, None,
    };
    int n = 0;
    GLXFBConfig *cfgs = p_glXChooseFBConfig(dpy, DefaultScreen(dpy), attrs, &n);
    APP_CHECK(cfgs && n > 0, "no GLX framebuffer config");
    GLXFBConfig cfg = cfgs[0];
    XFree(cfgs);
    XVisualInfo *vi = p_glXGetVisualFromFBConfig(dpy, cfg);
    APP_CHECK(vi, "no visual");
    XSetWindowAttributes swa;
    memset(&swa, 0, sizeof swa);
    Window root = RootWindow(dpy, vi->screen);
    swa.colormap = XCreateColormap(dpy, root, vi->visual, AllocNone);
    Window win = XCreateWindow(dpy, root, 0, 0, W, H, 0, vi->depth, InputOutput, vi->visual,
                               CWColormap, &swa);
    XFree(vi);
    XMapWindow(dpy, win);
    XSync(dpy, False);

    GLXContext ctx = p_glXCreateNewContext(dpy, cfg, GLX_RGBA_TYPE, NULL, True);
    APP_CHECK(ctx, "glXCreateNewContext failed");
    APP_CHECK(p_glXMakeCurrent(dpy, win, ctx), "glXMakeCurrent failed");

    GLuint buf = 0;
    p_glGenBuffers(1, &buf);
    APP_CHECK(buf != 0, "glGenBuffers gave 0");
    p_glViewport(0, 0, W, H);
    for (int f = 0; f < FRAMES; f++) {
        p_glClearColor(0.0f, 0.0f, 1.0f, 1.0f);
        p_glClear(GL_COLOR_BUFFER_BIT);
        p_glBegin(GL_TRIANGLES);
        p_glColor3f(0.0f, 1.0f, 0.0f);
        p_glVertex2f(-1.0f, -1.0f);
        p_glVertex2f(1.0f, -1.0f);
        p_glVertex2f(-1.0f, 1.0f);
        p_glEnd();
        unsigned char px[2][4];
        p_glReadPixels(2, 2, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px[0]);
        p_glReadPixels(W - 2, H - 2, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px[1]);
        APP_CHECK(app_near(px[0], 0, 255, 0, 0) && app_near(px[1], 0, 0, 255, 0),
                  "frame %d: corner pixels %d,%d,%d and %d,%d,%d", f, px[0][0], px[0][1],
                  px[0][2], px[1][0], px[1][1], px[1][2]);
        p_glXSwapBuffers(dpy, win);
    }
    APP_CHECK(p_glGetError() == GL_NO_ERROR, "GL error");
    p_glDeleteBuffers(1, &buf);
    p_glXMakeCurrent(dpy, None, NULL);
    p_glXDestroyContext(dpy, ctx);
    XDestroyWindow(dpy, win);
    XFreeColormap(dpy, swa.colormap);
    XCloseDisplay(dpy);
    dlclose(lib);
    printf("%s: ok %d frames (%s)\n", APP_NAME, FRAMES, direct ? "dlsym" : "glXGetProcAddressARB");
    return 0;
}
