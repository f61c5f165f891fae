/* bench_framedigest.c -- the calling thread's CPU time per frame of a
 * trivial 800x600 frame (a clear and a triangle, EGL pbuffer, llvmpipe),
 * for the cost of `wip15 trace --frame-digests` without glmark2's noise
 * (docs/PERFORMANCE.md "Frame digests"):
 *
 *   bench_framedigest [FRAMES] [WIDTH HEIGHT]
 *
 * prints "thread_cpu_ms_per_frame X" (after 10 frames of warm-up).  Run it
 * plain, under `wip15 trace` and under `wip15 trace --frame-digests`: the
 * difference of the last two is the digest's cost on the program's thread
 * (the read of the back buffer and its hash; the rendering itself runs on
 * llvmpipe's threads). */
#define GL_GLEXT_PROTOTYPES 1
#include "bench_egl.h"
#include <GL/gl.h>

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 300;
    int w = argc > 3 ? atoi(argv[2]) : 800, h = argc > 3 ? atoi(argv[3]) : 600;
    if (n < 1 || w < 1 || h < 1) {
        fprintf(stderr, "bench_framedigest: bad arguments\n");
        return 1;
    }
    bench_egl_open_api("bench_framedigest", EGL_OPENGL_API, NULL, w, h, 1);
    for (int i = 0; i < 10; i++) {
        glClear(GL_COLOR_BUFFER_BIT);
        eglSwapBuffers(bench_dpy, bench_surf);
    }
    glFinish();
    double c0 = bench_thread_cpu();
    for (int i = 0; i < n; i++) {
        glClearColor((float)(i % 100) * 0.01f, 0.3f, 0.5f, 1);
        glClear(GL_COLOR_BUFFER_BIT);
        glBegin(GL_TRIANGLES);
        glColor3f(1, 0, 0);
        glVertex2f(-1, -1);
        glColor3f(0, 1, 0);
        glVertex2f(1, -1);
        glColor3f(0, 0, 1);
        glVertex2f(0, 1);
        glEnd();
        eglSwapBuffers(bench_dpy, bench_surf);
    }
    glFinish();
    printf("thread_cpu_ms_per_frame %.4f\n", (bench_thread_cpu() - c0) / n * 1e3);
    bench_egl_close();
    return 0;
}
