/* order_egl.c -- a program whose frames depend on the order of calls
 * across threads, for the replay's order test (run_replay.py `order`).
 *
 * GLES 3.0, headless EGL, two contexts sharing their objects:
 *   thread "upload" makes a 4x4 texture (glGenTextures) and, for each
 *           frame i, fills it with colour(i) (glTexSubImage2D), makes a
 *           fence (glFenceSync), flushes, and hands the fence to the
 *           drawing thread; then waits until that frame is drawn;
 *   thread "draw"   waits for the fence on the GPU (glWaitSync), draws the
 *           texture over its whole 32x32 pbuffer, reads the pixels back
 *           (glReadPixels: the program checks them itself and exits 1 when
 *           they are not colour(i)) and swaps.
 * Only the fences order the upload before the draw in GL terms, and the
 * tracer writes the uploading thread's calls into the file later than the
 * drawing thread's (its chunk is handed over only at the next flush epoch,
 * the drawer's at each swap), so a replay that followed the file's order
 * would draw frame i before its upload.  FRAMES frames, colour(i) as in
 * run_replay.py. */
#define _GNU_SOURCE
#define APP_NAME "order_egl"
#include "app_common.h"
#include "app_egl.h"

#include <GLES3/gl3.h>
#include <pthread.h>

#define W 32
#define H 32
#define FRAMES 6

static app_egl_t e;
static EGLContext up_ctx;
static EGLSurface up_surf;
static GLuint tex;
static GLsync fence;
static int uploaded = -1, drawn = -1;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;

static void colour(int i, unsigned char rgba[4])
{
    rgba[0] = (unsigned char)(40 * i + 20);
    rgba[1] = (unsigned char)(255 - 30 * i);
    rgba[2] = (unsigned char)((i * 97) & 255);
    rgba[3] = 255;
}

static void wait_until(int *v, int want)
{
    pthread_mutex_lock(&mu);
    while (*v < want)
        pthread_cond_wait(&cv, &mu);
    pthread_mutex_unlock(&mu);
}

static void set(int *v, int to)
{
    pthread_mutex_lock(&mu);
    *v = to;
    pthread_cond_broadcast(&cv);
    pthread_mutex_unlock(&mu);
}

static void *upload(void *arg)
{
    (void)arg;
    pthread_setname_np(pthread_self(), "upload");
    APP_CHECK(eglMakeCurrent(e.dpy, up_surf, up_surf, up_ctx), "eglMakeCurrent (upload) failed");
    for (int i = 0; i < FRAMES; i++) {
        unsigned char px[4 * 4 * 4], c[4];
        colour(i, c);
        for (int k = 0; k < 16; k++)
            memcpy(px + 4 * k, c, 4);
        glBindTexture(GL_TEXTURE_2D, tex);
        glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, px);
        GLsync f = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
        glFlush();
        pthread_mutex_lock(&mu);
        fence = f;
        pthread_mutex_unlock(&mu);
        set(&uploaded, i);
        wait_until(&drawn, i);
    }
    eglMakeCurrent(e.dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    return NULL;
}

static GLuint shader(GLenum type, const char *src)
{
    GLuint s = glCreateShader(type);
    glShaderSource(s, 1, &src, NULL);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    APP_CHECK(ok, "shader does not compile");
    return s;
}

static void *draw(void *arg)
{
    (void)arg;
    pthread_setname_np(pthread_self(), "draw");
    APP_CHECK(eglMakeCurrent(e.dpy, e.surf, e.surf, e.ctx), "eglMakeCurrent (draw) failed");
    static const char *vs = "#version 300 es\n"
                            "layout(location = 0) in vec2 pos;\n"
                            "out vec2 uv;\n"
                            "void main() { uv = pos * 0.5 + 0.5; gl_Position = vec4(pos, 0.0, 1.0); }\n";
    static const char *fs = "#version 300 es\n"
                            "precision mediump float;\n"
                            "in vec2 uv;\n"
                            "uniform sampler2D t;\n"
                            "out vec4 o;\n"
                            "void main() { o = texture(t, uv); }\n";
    GLuint p = glCreateProgram();
    glAttachShader(p, shader(GL_VERTEX_SHADER, vs));
    glAttachShader(p, shader(GL_FRAGMENT_SHADER, fs));
    glLinkProgram(p);
    glUseProgram(p);
    static const float quad[] = {-1, -1, 1, -1, -1, 1, 1, 1};
    GLuint vao, vbo;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof quad, quad, GL_STATIC_DRAW);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, 0);
    glEnableVertexAttribArray(0);
    glViewport(0, 0, W, H);
    for (int i = 0; i < FRAMES; i++) {
        wait_until(&uploaded, i);
        pthread_mutex_lock(&mu);
        GLsync f = fence;
        pthread_mutex_unlock(&mu);
        glWaitSync(f, 0, GL_TIMEOUT_IGNORED);
        glBindTexture(GL_TEXTURE_2D, tex);
        glClearColor(0, 0, 0, 1);
        glClear(GL_COLOR_BUFFER_BIT);
        glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
        unsigned char px[W * H * 4], c[4];
        glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, px);
        colour(i, c);
        for (int k = 0; k < W * H; k++)
            APP_CHECK(memcmp(px + 4 * k, c, 4) == 0, "frame %d: pixel %d is %d,%d,%d, expected %d,%d,%d", i, k,
                      px[4 * k], px[4 * k + 1], px[4 * k + 2], c[0], c[1], c[2]);
        eglSwapBuffers(e.dpy, e.surf);
        glDeleteSync(f);
        set(&drawn, i);
    }
    eglMakeCurrent(e.dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    return NULL;
}

int main(void)
{
    app_egl_open(&e, EGL_OPENGL_ES_API, 3, 0, W, H);
    /* the texture exists before either thread starts: made in the drawing
     * context, which the upload context shares */
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glFinish();
    const EGLint xattrs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 0, EGL_NONE};
    up_ctx = eglCreateContext(e.dpy, e.cfg, e.ctx, xattrs);
    APP_CHECK(up_ctx != EGL_NO_CONTEXT, "eglCreateContext (upload) failed (0x%x)", eglGetError());
    const EGLint pattrs[] = {EGL_WIDTH, 1, EGL_HEIGHT, 1, EGL_NONE};
    up_surf = eglCreatePbufferSurface(e.dpy, e.cfg, pattrs);
    APP_CHECK(up_surf != EGL_NO_SURFACE, "eglCreatePbufferSurface (upload) failed");
    eglMakeCurrent(e.dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    pthread_t tu, td;
    pthread_create(&td, NULL, draw, NULL);
    pthread_create(&tu, NULL, upload, NULL);
    pthread_join(tu, NULL);
    pthread_join(td, NULL);
    eglDestroySurface(e.dpy, up_surf);
    eglDestroyContext(e.dpy, up_ctx);
    app_egl_close(&e);
    printf("%s: ok\n", APP_NAME);
    return 0;
}
