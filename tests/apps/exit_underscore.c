/* exit_underscore -- draws two frames and leaves with _exit(3): no atexit
 * handlers, no stdio flush.  The tracer must still leave a complete trace
 * and `wip15 trace` must return 3. */
#define APP_NAME "exit_underscore"
#include "app_common.h"
#include "app_egl.h"
#include <GLES2/gl2.h>
#include <unistd.h>

int main(void)
{
    app_egl_t e;
    app_egl_open(&e, EGL_OPENGL_ES_API, 2, 0, 8, 8);
    for (int f = 0; f < 2; f++) {
        glClearColor(0.0f, (float)f, 1.0f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        eglSwapBuffers(e.dpy, e.surf);
    }
    glFinish();
    printf("%s: ok, leaving with _exit(3)\n", APP_NAME);
    fflush(stdout);
    _exit(3);
}
