/* wtf_gl_app.c -- a small headless GLES program for the end-to-end timing
 * test (check_trace.js): EGL surfaceless + pbuffer, two threads with a
 * context each, debug groups, markers, eglSwapBuffers frames (the threads'
 * swaps interleave).
 *   wtf_gl_app            main thread: 30 frames; second thread: 12 frames
 * Prints "wtf_gl_app: ok" and exits 0; exits 1 when EGL/GLES are missing. */
#define _GNU_SOURCE
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl32.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAIN_FRAMES 30
#define SIDE_FRAMES 12

static EGLDisplay dpy;
static EGLConfig cfg;
/* The two threads swap in lock step for the first SIDE_FRAMES frames, so
 * their frames always interleave (frame numbers must still pair up within
 * each thread's zone). */
static pthread_barrier_t lockstep;

static void die(const char *what)
{
    fprintf(stderr, "wtf_gl_app: %s failed (0x%x)\n", what, eglGetError());
    exit(1);
}

static void frames(int n, const char *group)
{
    EGLSurface s;
    const EGLint pattrs[] = {EGL_WIDTH, 64, EGL_HEIGHT, 64, EGL_NONE};
    const EGLint xattrs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 2, EGL_NONE};
    EGLContext ctx = eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, xattrs);
    if (ctx == EGL_NO_CONTEXT)
        die("eglCreateContext 3.2");
    if ((s = eglCreatePbufferSurface(dpy, cfg, pattrs)) == EGL_NO_SURFACE)
        die("eglCreatePbufferSurface");
    if (!eglMakeCurrent(dpy, s, s, ctx))
        die("eglMakeCurrent");
    for (int f = 0; f < n; f++) {
        glClearColor((float)f / (float)n, 0.2f, 0.3f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 1, -1, group);
        glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 2, -1, "inner pass");
        glClear(GL_DEPTH_BUFFER_BIT);
        glPopDebugGroup();
        glPopDebugGroup();
        glDebugMessageInsert(GL_DEBUG_SOURCE_APPLICATION, GL_DEBUG_TYPE_MARKER, 3, GL_DEBUG_SEVERITY_NOTIFICATION, -1,
                             "frame marker");
        eglSwapBuffers(dpy, s);
        if (f < SIDE_FRAMES)
            pthread_barrier_wait(&lockstep);
    }
    glFinish();
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroySurface(dpy, s);
    eglDestroyContext(dpy, ctx);
}

static void *side(void *arg)
{
    /* named before its first GL call: the tracer reads the name then */
    pthread_setname_np(pthread_self(), "side");
    (void)arg;
    frames(SIDE_FRAMES, "Side pass");
    return NULL;
}

int main(void)
{
    setenv("EGL_PLATFORM", "surfaceless", 0);
    dpy = eglGetDisplay(EGL_DEFAULT_DISPLAY);
    EGLint maj, min, n = 0;
    if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, &maj, &min))
        die("eglInitialize");
    if (!eglBindAPI(EGL_OPENGL_ES_API))
        die("eglBindAPI");
    const EGLint cattrs[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT,
                             EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_NONE};
    if (!eglChooseConfig(dpy, cattrs, &cfg, 1, &n) || n != 1)
        die("eglChooseConfig");
    pthread_t th;
    pthread_barrier_init(&lockstep, NULL, 2);
    pthread_create(&th, NULL, side, NULL);
    frames(MAIN_FRAMES, "Shadow pass");
    pthread_join(th, NULL);
    eglTerminate(dpy);
    printf("wtf_gl_app: ok\n");
    return 0;
}
