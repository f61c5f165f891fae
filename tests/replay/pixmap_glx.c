/* pixmap_glx.c -- a GLX program that textures from an X pixmap
 * (GLX_EXT_texture_from_pixmap), as GTK 3 does with the widgets cairo drew,
 * for the replay tests (replay.pixmap): a 16x16 pixmap filled red by X
 * (XFillRectangle), bound as a texture with glXBindTexImageEXT and drawn
 * over a 64x64 window cleared blue, the middle read back (red) and
 * swapped.  What X drew is not GL's and not in the trace: the replay must
 * say that it does not replay glXBindTexImageEXT (--strict: an error)
 * instead of going on silently with an empty texture. */
#define APP_NAME "pixmap_glx"
#include "app_common.h"
#include "app_glx.h"

#include <GL/gl.h>
#include <GL/glxext.h>

#define W 64
#define H 64

typedef void (*bind_fn)(Display *, GLXDrawable, int, const int *);
typedef void (*release_fn)(Display *, GLXDrawable, int);

int main(void)
{
    app_glx_t g;
    app_glx_open(&g, W, H);
    const char *ext = glXQueryExtensionsString(g.dpy, DefaultScreen(g.dpy));
    APP_CHECK(ext && strstr(ext, "GLX_EXT_texture_from_pixmap"), "no GLX_EXT_texture_from_pixmap");
    bind_fn bind = (bind_fn)glXGetProcAddressARB((const GLubyte *)"glXBindTexImageEXT");
    release_fn release = (release_fn)glXGetProcAddressARB((const GLubyte *)"glXReleaseTexImageEXT");
    APP_CHECK(bind && release, "no glXBindTexImageEXT");

    /* a config that binds a pixmap of the screen's depth as RGB */
    static const int pa[] = { GLX_DRAWABLE_TYPE, GLX_PIXMAP_BIT, GLX_BIND_TO_TEXTURE_RGB_EXT, True,
                              GLX_BIND_TO_TEXTURE_TARGETS_EXT, GLX_TEXTURE_2D_BIT_EXT, GLX_RENDER_TYPE,
                              GLX_RGBA_BIT, GLX_DOUBLEBUFFER, False, None };
    int n = 0, depth = DefaultDepth(g.dpy, DefaultScreen(g.dpy));
    GLXFBConfig *cfgs = glXChooseFBConfig(g.dpy, DefaultScreen(g.dpy), pa, &n);
    GLXFBConfig pcfg = NULL;
    for (int i = 0; cfgs && i < n && !pcfg; i++) {
        XVisualInfo *vi = glXGetVisualFromFBConfig(g.dpy, cfgs[i]);
        if (vi && vi->depth == depth)
            pcfg = cfgs[i];
        if (vi)
            XFree(vi);
    }
    if (cfgs)
        XFree(cfgs);
    APP_CHECK(pcfg, "no GLX config binds a depth-%d pixmap as RGB", depth);

    Pixmap pix = XCreatePixmap(g.dpy, g.win, 16, 16, (unsigned)depth);
    GC gc = XCreateGC(g.dpy, pix, 0, NULL);
    XSetForeground(g.dpy, gc, 0xff0000);
    XFillRectangle(g.dpy, pix, gc, 0, 0, 16, 16);
    XSync(g.dpy, False);
    static const int xa[] = { GLX_TEXTURE_TARGET_EXT, GLX_TEXTURE_2D_EXT, GLX_TEXTURE_FORMAT_EXT,
                              GLX_TEXTURE_FORMAT_RGB_EXT, None };
    GLXPixmap gpix = glXCreatePixmap(g.dpy, pcfg, pix, xa);
    APP_CHECK(gpix, "glXCreatePixmap failed");

    GLXContext ctx = glXCreateNewContext(g.dpy, g.cfg, GLX_RGBA_TYPE, NULL, True);
    APP_CHECK(ctx, "glXCreateNewContext failed");
    APP_CHECK(glXMakeContextCurrent(g.dpy, g.win, g.win, ctx), "glXMakeContextCurrent failed");
    glViewport(0, 0, W, H);
    glClearColor(0, 0, 1, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    GLuint tex = 0;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    bind(g.dpy, gpix, GLX_FRONT_LEFT_EXT, NULL);
    glEnable(GL_TEXTURE_2D);
    glBegin(GL_QUADS);
    glTexCoord2f(0, 0); glVertex2f(-0.5f, -0.5f);
    glTexCoord2f(1, 0); glVertex2f(0.5f, -0.5f);
    glTexCoord2f(1, 1); glVertex2f(0.5f, 0.5f);
    glTexCoord2f(0, 1); glVertex2f(-0.5f, 0.5f);
    glEnd();
    release(g.dpy, gpix, GLX_FRONT_LEFT_EXT);
    unsigned char px[4] = { 0 };
    glReadPixels(W / 2, H / 2, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
    GLenum err = glGetError();
    glXSwapBuffers(g.dpy, g.win);

    glDeleteTextures(1, &tex);
    glXMakeContextCurrent(g.dpy, None, None, NULL);
    glXDestroyContext(g.dpy, ctx);
    glXDestroyPixmap(g.dpy, gpix);
    XFreeGC(g.dpy, gc);
    XFreePixmap(g.dpy, pix);
    app_glx_close(&g);
    APP_CHECK(!err, "GL error 0x%x", err);
    APP_CHECK(px[0] == 0xff && px[1] == 0 && px[2] == 0, "the middle is %02x%02x%02x, not the pixmap's red", px[0],
              px[1], px[2]);
    printf("%s: ok middle %02x%02x%02x (the pixmap's red)\n", APP_NAME, px[0], px[1], px[2]);
    return 0;
}
