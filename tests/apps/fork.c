/* fork -- the parent draws a frame, forks, and draws another frame while
 * the child makes its own context on the inherited EGL display and draws
 * one frame of its own.  The child alone calls glLineWidth (a marker the
 * trace test looks for: it must not appear in the parent's trace).
 * llvmpipe's rasterizer threads do not survive fork(), so the program
 * asks for none (LP_NUM_THREADS=0) before EGL starts. */
#define APP_NAME "fork"
#include "app_common.h"
#include "app_egl.h"
#include <GLES2/gl2.h>
#include <sys/wait.h>
#include <unistd.h>

enum { W = 8, H = 8 };

static void frame(app_egl_t *e, float r, float g, float b, const char *who)
{
    glClearColor(r, g, b, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    unsigned char px[4];
    glReadPixels(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
    APP_CHECK(app_near(px, (int)(r * 255.0f + 0.5f), (int)(g * 255.0f + 0.5f),
                       (int)(b * 255.0f + 0.5f), 1),
              "%s: pixel %d,%d,%d", who, px[0], px[1], px[2]);
    APP_CHECK(eglSwapBuffers(e->dpy, e->surf), "%s: eglSwapBuffers failed", who);
}

int main(void)
{
    setenv("LP_NUM_THREADS", "0", 1);
    app_egl_t e;
    app_egl_open(&e, EGL_OPENGL_ES_API, 2, 0, W, H);
    frame(&e, 0.25f, 0.25f, 0.25f, "parent before fork");
    fflush(stdout);

    pid_t pid = fork();
    APP_CHECK(pid >= 0, "fork failed");
    if (pid == 0) {
        static const EGLint cattrs[] = {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE};
        static const EGLint pattrs[] = {EGL_WIDTH, W, EGL_HEIGHT, H, EGL_NONE};
        app_egl_t c = e;
        c.ctx = eglCreateContext(e.dpy, e.cfg, EGL_NO_CONTEXT, cattrs);
        c.surf = eglCreatePbufferSurface(e.dpy, e.cfg, pattrs);
        APP_CHECK(c.ctx != EGL_NO_CONTEXT && c.surf != EGL_NO_SURFACE, "child: no context");
        APP_CHECK(eglMakeCurrent(c.dpy, c.surf, c.surf, c.ctx), "child: eglMakeCurrent failed");
        glLineWidth(7.0f);
        frame(&c, 0.75f, 0.0f, 0.75f, "child");
        eglMakeCurrent(c.dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        eglDestroySurface(c.dpy, c.surf);
        eglDestroyContext(c.dpy, c.ctx);
        exit(0);
    }
    int status = 0;
    APP_CHECK(waitpid(pid, &status, 0) == pid, "waitpid failed");
    APP_CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child failed (status 0x%x)",
              status);
    frame(&e, 0.5f, 0.25f, 0.0f, "parent after fork");
    app_egl_close(&e);
    printf("%s: ok parent and child\n", APP_NAME);
    return 0;
}
