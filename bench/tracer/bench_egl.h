/* bench_egl.h -- headless EGL (Mesa surfaceless: set EGL_PLATFORM=surfaceless)
 * contexts on a pbuffer, and the clocks, shared by the tracer benchmarks.
 * A benchmark includes the GL header it draws with itself (GLES2/gl2.h,
 * GL/gl.h or GL/glcorearb.h). */
#ifndef W15_BENCH_EGL_H
#define W15_BENCH_EGL_H
#include <EGL/egl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

static EGLDisplay bench_dpy;
static EGLSurface bench_surf;
static EGLContext bench_ctx;

/* Makes current a context of `api` (EGL_OPENGL_ES_API or EGL_OPENGL_API)
 * created with the context attributes `xattrs` (NULL: EGL's defaults) on a
 * w x h pbuffer of 8-bit red, green and blue (and alpha when `alpha`);
 * exits 77 with a message naming `who` when EGL cannot. */
static inline void bench_egl_open_api(const char *who, EGLenum api, const EGLint *xattrs, int w, int h,
                                      int alpha)
{
    EGLConfig cfg;
    EGLint n = 0;
    bench_dpy = eglGetDisplay(EGL_DEFAULT_DISPLAY);
    const EGLint attrs[] = { EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE,
                             api == EGL_OPENGL_API ? EGL_OPENGL_BIT : EGL_OPENGL_ES2_BIT,
                             EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8,
                             EGL_ALPHA_SIZE, alpha ? 8 : 0, EGL_NONE };
    const EGLint pattrs[] = { EGL_WIDTH, w, EGL_HEIGHT, h, EGL_NONE };
    if (bench_dpy == EGL_NO_DISPLAY || !eglInitialize(bench_dpy, NULL, NULL) || !eglBindAPI(api) ||
        !eglChooseConfig(bench_dpy, attrs, &cfg, 1, &n) || n != 1) {
        fprintf(stderr, "%s: no EGL (set EGL_PLATFORM=surfaceless)\n", who);
        exit(77);
    }
    bench_ctx = eglCreateContext(bench_dpy, cfg, EGL_NO_CONTEXT, xattrs);
    bench_surf = eglCreatePbufferSurface(bench_dpy, cfg, pattrs);
    if (bench_ctx == EGL_NO_CONTEXT || bench_surf == EGL_NO_SURFACE ||
        !eglMakeCurrent(bench_dpy, bench_surf, bench_surf, bench_ctx)) {
        fprintf(stderr, "%s: cannot make the EGL context current (0x%x)\n", who, eglGetError());
        exit(77);
    }
}

/* A GLES 2 context on a 16x16 pbuffer. */
static inline void bench_egl_open(void)
{
    static const EGLint es2[] = { EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE };
    bench_egl_open_api("bench", EGL_OPENGL_ES_API, es2, 16, 16, 0);
}

/* Releases and destroys what bench_egl_open_api made. */
static inline void bench_egl_close(void)
{
    eglMakeCurrent(bench_dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroySurface(bench_dpy, bench_surf);
    eglDestroyContext(bench_dpy, bench_ctx);
    eglTerminate(bench_dpy);
}

static inline double bench_clock(clockid_t c)
{
    struct timespec ts;
    clock_gettime(c, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Seconds of wall time, and of the calling thread's CPU time. */
static inline double bench_now(void) { return bench_clock(CLOCK_MONOTONIC); }
static inline double bench_thread_cpu(void) { return bench_clock(CLOCK_THREAD_CPUTIME_ID); }

static inline long bench_rss_kb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}
#endif
