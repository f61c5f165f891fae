/* threads4 -- four threads, each with its own EGL context and pbuffer,
 * make the same known sequence of calls at the same time:
 *   for i in 0..N-1: glClearColor(t * 0.25, i / 64, 0.5, 1); glClear(COLOR)
 * then glReadPixels (checked) and glFinish.  The trace test checks that
 * each thread's glClearColor calls all arrived, in order. */
#define APP_NAME "threads4"
#include "app_common.h"
#include "app_egl.h"
#include <GLES2/gl2.h>
#include <pthread.h>

enum { NTHREADS = 4, N = 64, W = 8, H = 8 };

static EGLDisplay dpy;
static EGLConfig cfg;
static pthread_barrier_t barrier;

static void *worker(void *arg)
{
    int t = (int)(intptr_t)arg;
    static const EGLint cattrs[] = {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE};
    static const EGLint pattrs[] = {EGL_WIDTH, W, EGL_HEIGHT, H, EGL_NONE};
    EGLContext ctx = eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, cattrs);
    EGLSurface surf = eglCreatePbufferSurface(dpy, cfg, pattrs);
    APP_CHECK(ctx != EGL_NO_CONTEXT && surf != EGL_NO_SURFACE, "thread %d: no context", t);
    APP_CHECK(eglMakeCurrent(dpy, surf, surf, ctx), "thread %d: eglMakeCurrent failed", t);
    pthread_barrier_wait(&barrier); /* all threads draw at once */
    for (int i = 0; i < N; i++) {
        glClearColor((float)t * 0.25f, (float)i / 64.0f, 0.5f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
    }
    unsigned char px[4];
    glReadPixels(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
    glFinish();
    APP_CHECK(app_near(px, t * 255 / 4, (N - 1) * 255 / 64, 128, 2),
              "thread %d: pixel %d,%d,%d", t, px[0], px[1], px[2]);
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroySurface(dpy, surf);
    eglDestroyContext(dpy, ctx);
    return NULL;
}

int main(void)
{
    dpy = app_egl_display();
    APP_CHECK(dpy != EGL_NO_DISPLAY && eglInitialize(dpy, NULL, NULL), "no EGL");
    APP_CHECK(eglBindAPI(EGL_OPENGL_ES_API), "eglBindAPI failed");
    static const EGLint attrs[] = {
        EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT,
        EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8, EGL_NONE,
    };
    EGLint n = 0;
    APP_CHECK(eglChooseConfig(dpy, attrs, &cfg, 1, &n) && n == 1, "no EGL config");
    pthread_barrier_init(&barrier, NULL, NTHREADS);
    pthread_t th[NTHREADS];
    for (int t = 0; t < NTHREADS; t++)
        APP_CHECK(pthread_create(&th[t], NULL, worker, (void *)(intptr_t)t) == 0,
                  "pthread_create failed");
    for (int t = 0; t < NTHREADS; t++)
        pthread_join(th[t], NULL);
    pthread_barrier_destroy(&barrier);
    eglTerminate(dpy);
    printf("%s: ok %d threads x %d clears\n", APP_NAME, NTHREADS, N);
    return 0;
}
