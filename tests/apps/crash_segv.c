/* crash_segv -- draws three frames, makes one more call, then writes
 * through a NULL pointer.  The process must die of SIGSEGV under the
 * tracer as it does without it, and the trace must hold the three swaps. */
#define APP_NAME "crash_segv"
#include "app_common.h"
#include "app_egl.h"
#include <GLES2/gl2.h>

static int *volatile nowhere; /* NULL, and the compiler cannot know it */

int main(void)
{
    app_egl_t e;
    app_egl_open(&e, EGL_OPENGL_ES_API, 2, 0, 8, 8);
    for (int f = 0; f < 3; f++) {
        glClearColor(1.0f, 0.0f, (float)f * 0.5f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        eglSwapBuffers(e.dpy, e.surf);
    }
    glFlush();
    printf("%s: 3 frames drawn, now crashing\n", APP_NAME);
    fflush(stdout);
    *nowhere = 1;
    printf("%s: FAIL survived a NULL write\n", APP_NAME);
    return 1;
}
