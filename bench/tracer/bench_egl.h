/* bench_egl.h -- headless EGL (Mesa surfaceless) GLES2 context on a small
 * pbuffer, shared by the tracer benchmarks. */
#ifndef W15_BENCH_EGL_H
#define W15_BENCH_EGL_H
#include <EGL/egl.h>
#include <GLES2/gl2.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

static EGLDisplay bench_dpy;
static EGLSurface bench_surf;

static inline void bench_egl_open(void)
{
    EGLConfig cfg;
    EGLint n = 0;
    bench_dpy = eglGetDisplay(EGL_DEFAULT_DISPLAY);
    const EGLint attrs[] = { EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT,
                             EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_NONE };
    const EGLint cattrs[] = { EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE };
    const EGLint pattrs[] = { EGL_WIDTH, 16, EGL_HEIGHT, 16, EGL_NONE };
    if (bench_dpy == EGL_NO_DISPLAY || !eglInitialize(bench_dpy, NULL, NULL) || !eglBindAPI(EGL_OPENGL_ES_API) ||
        !eglChooseConfig(bench_dpy, attrs, &cfg, 1, &n) || n != 1) {
        fprintf(stderr, "bench: no EGL (set EGL_PLATFORM=surfaceless)\n");
        exit(77);
    }
    EGLContext ctx = eglCreateContext(bench_dpy, cfg, EGL_NO_CONTEXT, cattrs);
    bench_surf = eglCreatePbufferSurface(bench_dpy, cfg, pattrs);
    if (ctx == EGL_NO_CONTEXT || bench_surf == EGL_NO_SURFACE ||
        !eglMakeCurrent(bench_dpy, bench_surf, bench_surf, ctx)) {
        fprintf(stderr, "bench: cannot make an EGL context current\n");
        exit(77);
    }
}

static inline double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static inline long bench_rss_kb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}
#endif
