/* tapp.c -- the GL program the runtime tests run under LD_PRELOAD.
 * Headless EGL (Mesa surfaceless) + GLES2 on a pbuffer.
 *   tapp basic       strings, arrays, blobs, readback, 3 frames told apart
 *                    by their clear colour (red 0.25, 0.5, 0.75)
 *   tapp threads N   N threads, each its own context, 1000 calls each
 *   tapp fork        calls, fork; the child calls GL too; both exit 0
 *   tapp segv        calls, then a NULL dereference
 *   tapp segvhandled calls, a NULL dereference its own SIGSEGV handler
 *                    recovers from (as the JVM does), more calls, exit 0
 *   tapp exit        calls, then _exit(3)
 *   tapp loop        frames forever (killed by the test); prints
 *                    "frame N T" after the N-th swap returned, T =
 *                    CLOCK_REALTIME in ns (what `date +%s%N` prints)
 *   tapp idle        a thread makes 100 calls and sleeps; main sleeps
 *   tapp busyexit    a thread calls GL without pause; main exits meanwhile
 *   tapp pixels      GLES3 pixel transfers under various pixel-store states
 *   tapp gpuswitch   GLES3, two contexts in turn, each made current every
 *                    frame; exits 1 on any GL error (the tracer's GPU timer
 *                    queries must not raise one); glFinish before each
 *                    switch, so every measured frame's GPU time is ready
 *                    when the switch ends the measurement
 *   tapp closefds    closes every descriptor it inherited (as Chromium's
 *                    child processes and daemons do), fills the numbers
 *                    with pipes of its own, makes a frame, then exits 1
 *                    if a byte it never wrote arrived in one of them
 *   tapp resethand   a SIGINT handler with SA_RESETHAND (installed before
 *                    the first GL call) sets a flag; calls; SIGINT; calls;
 *                    SIGINT again: dies of it (as under `timeout`)
 *   tapp reraise     calls; a SIGTERM handler (signal()) that sets the
 *                    default action and raises SIGTERM again; calls; SIGTERM
 *   tapp segvreset   calls; a SIGSEGV handler with SA_RESETHAND that returns
 *                    (as simple crash reporters do): the fault comes again
 *                    and kills
 * Prints "tapp: done" (stdout) on success paths. */
#define _GNU_SOURCE
#include <EGL/egl.h>
#include <GLES3/gl3.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "burst.h"
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

/* Set-up the program cannot do without (not a check of the tracer: run.sh
 * checks what tapp did): one line on stderr and exit status 77. */
static void need(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "tapp: %s failed\n", what);
        exit(77);
    }
}

static EGLDisplay dpy;
static EGLConfig cfg;
static int es_version = 2;

static void egl_init(void)
{
    dpy = eglGetDisplay(EGL_DEFAULT_DISPLAY);
    need(dpy != EGL_NO_DISPLAY, "eglGetDisplay");
    need(eglInitialize(dpy, NULL, NULL), "eglInitialize");
    need(eglBindAPI(EGL_OPENGL_ES_API), "eglBindAPI");
    const EGLint attrs[] = { EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE,
                             es_version >= 3 ? 0x40 /* EGL_OPENGL_ES3_BIT */ : EGL_OPENGL_ES2_BIT,
                             EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_NONE };
    EGLint n = 0;
    need(eglChooseConfig(dpy, attrs, &cfg, 1, &n) && n == 1, "eglChooseConfig");
}

static EGLSurface make_current(EGLContext *ctxp)
{
    const EGLint cattrs[] = { EGL_CONTEXT_CLIENT_VERSION, es_version, EGL_NONE };
    EGLContext ctx = eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, cattrs);
    need(ctx != EGL_NO_CONTEXT, "eglCreateContext");
    const EGLint pattrs[] = { EGL_WIDTH, 64, EGL_HEIGHT, 64, EGL_NONE };
    EGLSurface s = eglCreatePbufferSurface(dpy, cfg, pattrs);
    need(s != EGL_NO_SURFACE, "eglCreatePbufferSurface");
    need(eglMakeCurrent(dpy, s, s, ctx), "eglMakeCurrent");
    *ctxp = ctx;
    return s;
}

static const char *vs_src = "attribute vec4 pos;\nvoid main() { gl_Position = pos; }\n";

static void some_calls(int frames, EGLSurface s)
{
    static const float verts[] = { 0.f, 0.5f, -0.5f, -0.5f, 0.5f, -0.5f };
    GLuint buf = 0;
    glGenBuffers(1, &buf);
    glBindBuffer(GL_ARRAY_BUFFER, buf);
    unsigned char blob[4096];
    for (int i = 0; i < (int)sizeof blob; i++)
        blob[i] = (unsigned char)(i * 7 + (i >> 5));
    glBufferData(GL_ARRAY_BUFFER, sizeof blob, blob, GL_STATIC_DRAW);
    glBufferSubData(GL_ARRAY_BUFFER, 0, sizeof verts, verts);
    GLuint sh = glCreateShader(GL_VERTEX_SHADER);
    glShaderSource(sh, 1, &vs_src, NULL);
    glCompileShader(sh);
    GLint ok = 0;
    glGetShaderiv(sh, GL_COMPILE_STATUS, &ok);
    const GLubyte *ver = glGetString(GL_VERSION);
    (void)ver;
    for (int f = 0; f < frames; f++) {
        /* each frame its own red (0.25, 0.5, 0.75, ...): the frame-range
         * test tells which frames a trace holds */
        glClearColor(0.25f * (float)(f + 1), 0.5f, 0.75f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        glEnable(GL_BLEND);
        glDisable(GL_BLEND);
        eglSwapBuffers(dpy, s);
    }
    unsigned char px[4 * 4 * 4];
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    glReadPixels(0, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, px);
    glDeleteBuffers(1, &buf);
    glDeleteShader(sh);
}

typedef struct { int idx; int calls; } targ_t;

static void *thread_main(void *p)
{
    targ_t *a = p;
    EGLContext ctx;
    EGLSurface s = make_current(&ctx);
    (void)s;
    for (int i = 0; i < a->calls; i++)
        glVertexAttrib4f(0, (float)a->idx, (float)i, 0.f, 1.f);
    glFinish();
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    return NULL;
}

static void *busy_main(void *p)
{
    (void)p;
    EGLContext ctx;
    make_current(&ctx);
    for (long i = 0;; i++)
        glVertexAttrib4f(2, 0.f, (float)(i & 0xffffff), 0.f, 1.f);
    return NULL;
}

static void *idle_main(void *p)
{
    (void)p;
    EGLContext ctx;
    make_current(&ctx);
    for (int i = 0; i < 100; i++)
        glVertexAttrib4f(1, (float)i, 0.f, 0.f, 1.f);
    printf("idle: 100 calls made\n");
    fflush(stdout);
    sleep(30);
    return NULL;
}

/* Uploads/readbacks whose byte counts run.sh checks (see the comments). */
static void pixel_calls(void)
{
    static unsigned char src[4096];
    unsigned char dst[4096];
    GLuint tex[2], pbo;
    glGenTextures(2, tex);
    glBindTexture(GL_TEXTURE_2D, tex[0]);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGB, 3, 3, 0, GL_RGB, GL_UNSIGNED_BYTE, src);            /* 2*12+9 = 33 */
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGB, 3, 3, 0, GL_RGB, GL_UNSIGNED_BYTE, src);            /* 27 */
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 5, 2, 0, GL_RGBA, GL_UNSIGNED_SHORT_4_4_4_4, src); /* 12+10 = 22 */
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 8);
    glPixelStorei(GL_UNPACK_SKIP_PIXELS, 1);
    glPixelStorei(GL_UNPACK_SKIP_ROWS, 2);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 4, 2, 0, GL_RGBA, GL_UNSIGNED_BYTE, src);          /* 64+32+20 = 116 */
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
    glPixelStorei(GL_UNPACK_SKIP_PIXELS, 0);
    glPixelStorei(GL_UNPACK_SKIP_ROWS, 0);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH24_STENCIL8, 2, 2, 0, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8, src); /* 16 */
    glTexImage2D(GL_TEXTURE_2D, 0, GL_R11F_G11F_B10F, 3, 1, 0, GL_RGB, GL_UNSIGNED_INT_10F_11F_11F_REV, src); /* 12 */
    glTexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH32F_STENCIL8, 2, 1, 0, GL_DEPTH_STENCIL, GL_FLOAT_32_UNSIGNED_INT_24_8_REV, src); /* 16 */
    glBindTexture(GL_TEXTURE_3D, tex[1]);
    glPixelStorei(GL_UNPACK_IMAGE_HEIGHT, 3);
    glPixelStorei(GL_UNPACK_SKIP_IMAGES, 1);
    glTexImage3D(GL_TEXTURE_3D, 0, GL_RGBA, 2, 2, 2, 0, GL_RGBA, GL_UNSIGNED_BYTE, src);      /* 2*24+8+8 = 64 */
    glPixelStorei(GL_UNPACK_IMAGE_HEIGHT, 0);
    glPixelStorei(GL_UNPACK_SKIP_IMAGES, 0);
    glPixelStorei(GL_PACK_ALIGNMENT, 8);
    glReadPixels(0, 0, 3, 2, GL_RGBA, GL_UNSIGNED_BYTE, dst);                                  /* 16+12 = 28 */
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    /* a pixel-unpack buffer: the pointer is an offset, recorded in wip15.offset */
    glGenBuffers(1, &pbo);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, pbo);
    glBufferData(GL_PIXEL_UNPACK_BUFFER, 1024, NULL, GL_STREAM_DRAW);
    glBindTexture(GL_TEXTURE_2D, tex[0]);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 2, 2, 0, GL_RGBA, GL_UNSIGNED_BYTE, (const void *)16);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    glDeleteBuffers(1, &pbo);
    glDeleteTextures(2, tex);
}

static sigjmp_buf segv_jmp;
static void on_segv_recover(int sig)
{
    (void)sig;
    siglongjmp(segv_jmp, 1);
}

static volatile sig_atomic_t got_signal;

static void on_flag(int sig)
{
    (void)sig;
    got_signal++;
}

static void on_reraise(int sig)
{
    static const char msg[] = "tapp: handler\n";
    (void)!write(1, msg, sizeof msg - 1);
    signal(sig, SIG_DFL);
    raise(sig);
}

/* what sigaction says a signal's action is now (the tracer must answer
 * what the kernel would) */
static const char *action_now(int sig)
{
    struct sigaction cur;
    if (sigaction(sig, NULL, &cur) != 0)
        return "error";
    if (cur.sa_flags & SA_SIGINFO)
        return "siginfo";
    return cur.sa_handler == SIG_DFL ? "default" : cur.sa_handler == SIG_IGN ? "ignore" : "handler";
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "basic";
    if (!strcmp(mode, "pixels") || !strcmp(mode, "gpuswitch"))
        es_version = 3;
    /* closefds: the write ends of its pipes take every number from 3 up
     * (whichever the launcher gave its own descriptors), the read ends
     * lie above 512 */
    enum { NPIPES = 64 };
    int pipes[NPIPES][2];
    if (!strcmp(mode, "closefds")) {
        for (int fd = 3; fd < 1024; fd++)
            close(fd);
        for (int i = 0; i < NPIPES; i++) {
            int p[2];
            need(pipe2(p, O_NONBLOCK | O_CLOEXEC) == 0, "pipe2"); /* 3 + i and 4 + i */
            pipes[i][0] = fcntl(p[0], F_DUPFD_CLOEXEC, 512);
            need(pipes[i][0] >= 0 && dup3(p[1], p[0], O_CLOEXEC) == p[0], "dup3");
            close(p[1]);
            pipes[i][1] = p[0];
        }
    }
    if (!strcmp(mode, "resethand")) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_flag;
        sa.sa_flags = SA_RESETHAND;
        sigemptyset(&sa.sa_mask);
        need(sigaction(SIGINT, &sa, NULL) == 0, "sigaction");
    }
    egl_init();
    if (!strcmp(mode, "resethand") || !strcmp(mode, "reraise") || !strcmp(mode, "segvreset")) {
        EGLContext ctx;
        EGLSurface s = make_current(&ctx);
        some_calls(1, s);
        int sig = !strcmp(mode, "resethand") ? SIGINT : !strcmp(mode, "reraise") ? SIGTERM : SIGSEGV;
        if (sig == SIGTERM) {
            need(signal(SIGTERM, on_reraise) != SIG_ERR, "signal");
        } else if (sig == SIGSEGV) {
            struct sigaction sa;
            memset(&sa, 0, sizeof sa);
            sa.sa_handler = on_flag;
            sa.sa_flags = SA_RESETHAND | SA_NODEFER;
            sigemptyset(&sa.sa_mask);
            need(sigaction(SIGSEGV, &sa, NULL) == 0, "sigaction");
        }
        printf("tapp: before %s\n", action_now(sig));
        if (sig == SIGINT) {
            raise(SIGINT); /* handled: sets the flag */
            printf("tapp: handled %d, then %s\n", (int)got_signal, action_now(SIGINT));
        }
        fflush(stdout);
        glEnable(GL_SCISSOR_TEST);
        glEnable(GL_SCISSOR_TEST);
        glEnable(GL_SCISSOR_TEST); /* the last call */
        if (sig == SIGSEGV) {
            volatile int *p = NULL;
            *p = 1;
        } else {
            raise(sig);
        }
        printf("tapp: survived\n");
        return 1;
    }
    if (!strcmp(mode, "closefds")) {
        EGLContext ctx;
        EGLSurface s = make_current(&ctx);
        some_calls(1, s);
        glFinish();
        int bad = 0;
        for (int i = 0; i < NPIPES; i++) {
            char buf[256];
            ssize_t r = read(pipes[i][0], buf, sizeof buf - 1);
            if (r > 0) {
                buf[r] = 0;
                fprintf(stderr, "tapp: pipe %d (descriptors %d, %d) got %zd bytes it never wrote: %s\n", i,
                        pipes[i][0], pipes[i][1], r, buf);
                bad = 1;
            }
        }
        if (bad)
            return 1;
        printf("tapp: done\n");
        return 0;
    }
    if (!strcmp(mode, "threads")) {
        int n = argc > 2 ? atoi(argv[2]) : 4;
        pthread_t th[16];
        targ_t a[16];
        for (int i = 0; i < n && i < 16; i++) {
            a[i].idx = i;
            a[i].calls = 1000;
            pthread_create(&th[i], NULL, thread_main, &a[i]);
        }
        for (int i = 0; i < n && i < 16; i++)
            pthread_join(th[i], NULL);
        printf("tapp: done\n");
        return 0;
    }
    if (!strcmp(mode, "busyexit")) {
        pthread_t th;
        pthread_create(&th, NULL, busy_main, NULL);
        EGLContext ctx;
        EGLSurface s = make_current(&ctx);
        some_calls(2, s);
        struct timespec ts = { 0, 300000000 };
        nanosleep(&ts, NULL);
        printf("tapp: done\n");
        fflush(stdout);
        _exit(0); /* flushes like exit(), without Mesa's destructors racing the busy thread */
    }
    if (!strcmp(mode, "idle")) {
        pthread_t th;
        pthread_create(&th, NULL, idle_main, NULL);
        sleep(30);
        return 0;
    }
    EGLContext ctx;
    EGLSurface s = make_current(&ctx);
    if (!strcmp(mode, "pixels")) {
        pixel_calls();
        printf("tapp: done\n");
        return 0;
    }
    if (!strcmp(mode, "gpuswitch")) {
        /* two contexts on this thread: 8 frames in one, 8 in the other,
         * 8 in the first again, each frame made current again (as toolkits
         * do); the tracer's GPU timer queries must raise no GL error and
         * never leak into the other context */
        EGLContext c2;
        EGLSurface s2 = make_current(&c2);
        for (int round = 0; round < 3; round++) {
            EGLContext c = round == 1 ? c2 : ctx;
            EGLSurface sf = round == 1 ? s2 : s;
            for (int f = 0; f < 8; f++) {
                need(eglMakeCurrent(dpy, sf, sf, c), "eglMakeCurrent");
                glClearColor(0.1f * (float)f, 0.2f, 0.3f, 1.0f);
                glClear(GL_COLOR_BUFFER_BIT);
                eglSwapBuffers(dpy, sf);
            }
            glFinish(); /* the stint's GPU times are ready at the switch */
            GLuint q = 0;
            glGenQueries(1, &q);
            glDeleteQueries(1, &q);
            GLenum err = glGetError();
            if (err != GL_NO_ERROR || !q) {
                fprintf(stderr, "tapp: GL error 0x%x in round %d (query %u)\n", err, round, q);
                return 1;
            }
        }
        /* ends the last stint's measurement like the switches did */
        eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        printf("tapp: done\n");
        return 0;
    }
    if (!strcmp(mode, "basic")) {
        some_calls(3, s);
        printf("tapp: done\n");
        return 0;
    }
    if (!strcmp(mode, "upload")) {
        /* N uploads of 64 KiB that do not compress (a pseudo-random stream) */
        int n = argc > 2 ? atoi(argv[2]) : 100;
        static uint32_t data[16384];
        uint32_t x = 2463534242u;
        GLuint b;
        glGenBuffers(1, &b);
        glBindBuffer(GL_ARRAY_BUFFER, b);
        for (int i = 0; i < n; i++) {
            for (int k = 0; k < 16384; k++) {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                data[k] = x;
            }
            glBufferData(GL_ARRAY_BUFFER, sizeof data, data, GL_STREAM_DRAW);
        }
        glDeleteBuffers(1, &b);
        printf("tapp: done\n");
        return 0;
    }
    if (!strcmp(mode, "burst")) {
        /* N uploads of 64 KiB of compressible data as fast as GL takes
         * them (the output thread cannot keep up: its zstd takes workers),
         * then glEnable(GL_SCISSOR_TEST); "segv": then a crash */
        int n = argc > 2 ? atoi(argv[2]) : 1000;
        static uint32_t data[16384];
        GLuint b;
        glGenBuffers(1, &b);
        glBindBuffer(GL_ARRAY_BUFFER, b);
        glBufferData(GL_ARRAY_BUFFER, sizeof data, NULL, GL_STREAM_DRAW);
        for (int i = 0; i < n; i++) {
            for (uint32_t k = 0; k < 16384; k++)
                data[k] = W15_BURST_WORD(i, k);
            glBufferSubData(GL_ARRAY_BUFFER, 0, sizeof data, data);
        }
        glEnable(GL_SCISSOR_TEST);
        if (argc > 3 && !strcmp(argv[3], "segv")) {
            volatile int *p = NULL;
            *p = 1;
        }
        glDeleteBuffers(1, &b);
        printf("tapp: done\n");
        return 0;
    }
    if (!strcmp(mode, "fork")) {
        some_calls(1, s);
        fflush(stdout);
        pid_t pid = fork();
        if (pid == 0) {
            for (int i = 0; i < 50; i++)
                glEnable(GL_DEPTH_TEST); /* must not reach the parent's trace */
            _exit(0);
        }
        int st = 0;
        waitpid(pid, &st, 0);
        glDisable(GL_CULL_FACE);
        printf("tapp: done\n");
        return WIFEXITED(st) ? WEXITSTATUS(st) : 99;
    }
    if (!strcmp(mode, "segv")) {
        some_calls(2, s);
        glEnable(GL_SCISSOR_TEST); /* the last call before the crash */
        volatile int *p = NULL;
        *p = 1;
        return 0;
    }
    if (!strcmp(mode, "segvhandled")) {
        some_calls(2, s);
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_segv_recover;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGSEGV, &sa, NULL);
        for (int k = 0; k < 3; k++) {
            if (sigsetjmp(segv_jmp, 1) == 0) {
                volatile int *p = NULL;
                *p = 1; /* handled: the handler jumps back */
            }
            glEnable(GL_SCISSOR_TEST);
        }
        some_calls(1, s);
        glDisable(GL_SCISSOR_TEST); /* the last call */
        printf("tapp: done\n");
        return 0;
    }
    if (!strcmp(mode, "exit")) {
        some_calls(2, s);
        glEnable(GL_SCISSOR_TEST);
        _exit(3);
    }
    if (!strcmp(mode, "loop")) {
        for (long f = 0;; f++) {
            glClearColor((float)(f % 256) / 255.f, 0.f, 0.f, 1.f);
            glClear(GL_COLOR_BUFFER_BIT);
            eglSwapBuffers(dpy, s);
            /* how far the program got, and when (sigkill test) */
            struct timespec now;
            clock_gettime(CLOCK_REALTIME, &now);
            printf("frame %ld %lld\n", f + 1, (long long)now.tv_sec * 1000000000LL + now.tv_nsec);
            fflush(stdout);
            struct timespec ts = { 0, 2000000 };
            nanosleep(&ts, NULL);
        }
    }
    fprintf(stderr, "tapp: unknown mode %s\n", mode);
    return 2;
}
