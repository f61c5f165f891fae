/* front_glx.c -- a GLX program that uses its window's front buffer, for
 * the replay tests (replay.window): a 64x64 double-buffered window,
 *   frame 0  back buffer green, swapped;
 *   frame 1  the front buffer cleared red (glDrawBuffer(GL_FRONT)) and read
 *            back (glReadBuffer(GL_FRONT)); the back buffer cleared blue
 *            and its middle copied to the front with glXCopySubBufferMESA
 *            (when the server has it), the front read back again; swapped.
 * glGetError after each step.  It checks nothing itself: the trace holds
 * what it read (read-back digests), which `wip15 replay --window --check`
 * must reproduce and a headless replay, which has no front buffer, says it
 * cannot. */
#define APP_NAME "front_glx"
#include "app_common.h"
#include "app_glx.h"

#include <GL/gl.h>

#define W 64
#define H 64

typedef void (*copy_sub_buffer_fn)(Display *, GLXDrawable, int, int, int, int);

int main(void)
{
    app_glx_t g;
    app_glx_open(&g, W, H);
    GLXContext ctx = glXCreateNewContext(g.dpy, g.cfg, GLX_RGBA_TYPE, NULL, True);
    APP_CHECK(ctx, "glXCreateNewContext failed");
    APP_CHECK(glXMakeContextCurrent(g.dpy, g.win, g.win, ctx), "glXMakeContextCurrent failed");
    glViewport(0, 0, W, H);
    unsigned errors = 0;

    glClearColor(0, 1, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    errors |= glGetError();
    glXSwapBuffers(g.dpy, g.win);

    unsigned char px[4][4];
    glDrawBuffer(GL_FRONT);
    glClearColor(1, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    glFlush();
    glDrawBuffer(GL_BACK);
    errors |= glGetError();
    glReadBuffer(GL_FRONT);
    glReadPixels(W / 2, H / 2, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px[0]);
    errors |= glGetError();

    glClearColor(0, 0, 1, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    copy_sub_buffer_fn copy = (copy_sub_buffer_fn)glXGetProcAddressARB((const GLubyte *)"glXCopySubBufferMESA");
    const char *ext = glXQueryExtensionsString(g.dpy, DefaultScreen(g.dpy));
    int have_copy = copy && ext && strstr(ext, "GLX_MESA_copy_sub_buffer");
    if (have_copy)
        copy(g.dpy, g.win, W / 4, H / 4, W / 2, H / 2);
    glReadPixels(W / 2, H / 2, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px[1]);
    glReadPixels(2, 2, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px[2]);
    glReadBuffer(GL_BACK);
    glReadPixels(2, 2, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px[3]);
    errors |= glGetError();
    glXSwapBuffers(g.dpy, g.win);

    glXMakeContextCurrent(g.dpy, None, None, NULL);
    glXDestroyContext(g.dpy, ctx);
    app_glx_close(&g);
    APP_CHECK(!errors, "GL error 0x%x", errors);
    printf("%s: ok front %02x%02x%02x, after copy middle %02x%02x%02x corner %02x%02x%02x, back %02x%02x%02x%s\n",
           APP_NAME, px[0][0], px[0][1], px[0][2], px[1][0], px[1][1], px[1][2], px[2][0], px[2][1], px[2][2],
           px[3][0], px[3][1], px[3][2], have_copy ? "" : " (no GLX_MESA_copy_sub_buffer)");
    return 0;
}
