/* bench_tiny.c -- the shortest useful GL program: an EGL context, four GL
 * calls, teardown.  bench/tracer/startup.py runs it many times natively,
 * under libwip15.so, through `wip15 trace` and under apitrace: what a
 * tracer adds to start-up and shutdown (issue 10, docs/PERFORMANCE.md). */
#include "bench_egl.h"
#include <GLES2/gl2.h>

int main(void)
{
    bench_egl_open();
    glClearColor(0, 0, 0, 1);
    glEnable(GL_BLEND);
    glDisable(GL_BLEND);
    glFinish();
    EGLContext ctx = eglGetCurrentContext();
    eglMakeCurrent(bench_dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroySurface(bench_dpy, bench_surf);
    eglDestroyContext(bench_dpy, ctx);
    eglTerminate(bench_dpy);
    return 0;
}
