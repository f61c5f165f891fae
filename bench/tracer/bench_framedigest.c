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
#include <EGL/egl.h>
#include <GL/gl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double cpu(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 300;
    int w = argc > 3 ? atoi(argv[2]) : 800, h = argc > 3 ? atoi(argv[3]) : 600;
    EGLDisplay d = eglGetDisplay(EGL_DEFAULT_DISPLAY);
    const EGLint ca[] = { EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_RED_SIZE, 8,
                          EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8, EGL_NONE };
    const EGLint pa[] = { EGL_WIDTH, w, EGL_HEIGHT, h, EGL_NONE };
    EGLConfig c;
    EGLint k = 0;
    if (n < 1 || w < 1 || h < 1 || d == EGL_NO_DISPLAY || !eglInitialize(d, NULL, NULL) ||
        !eglBindAPI(EGL_OPENGL_API) || !eglChooseConfig(d, ca, &c, 1, &k) || k != 1) {
        fprintf(stderr, "bench_framedigest: no EGL (set EGL_PLATFORM=surfaceless) or bad arguments\n");
        return 1;
    }
    EGLContext x = eglCreateContext(d, c, EGL_NO_CONTEXT, NULL);
    EGLSurface s = eglCreatePbufferSurface(d, c, pa);
    if (x == EGL_NO_CONTEXT || s == EGL_NO_SURFACE || !eglMakeCurrent(d, s, s, x)) {
        fprintf(stderr, "bench_framedigest: no context\n");
        return 1;
    }
    for (int i = 0; i < 10; i++) {
        glClear(GL_COLOR_BUFFER_BIT);
        eglSwapBuffers(d, s);
    }
    glFinish();
    double c0 = cpu();
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
        eglSwapBuffers(d, s);
    }
    glFinish();
    printf("thread_cpu_ms_per_frame %.4f\n", (cpu() - c0) / n * 1e3);
    eglMakeCurrent(d, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroySurface(d, s);
    eglDestroyContext(d, x);
    eglTerminate(d);
    return 0;
}
