/* test_emitter.c -- drives the in-process WTF emitter directly and prints on
 * stdout, as JSON, what the real loader must then see (tests/wtf/check_emitter.js
 * compares the two).
 *
 *   test_emitter basic  OUT.wtf-trace   threads, calls, nested debug groups,
 *                                       markers, frames, metadata
 *   test_emitter rotate OUT.wtf-trace   synthetic times over 150 minutes:
 *                                       files OUT, OUT.1, OUT.2 (clean and
 *                                       forced rotation)
 *   test_emitter kill   OUT.wtf-trace   child killed by SIGKILL mid-run
 *   test_emitter segv   OUT.wtf-trace   child crashes, its SIGSEGV handler
 *                                       calls w15_wtf_flush_all_signal
 *   test_emitter full   OUT.wtf-trace   the file size limit is hit inside a
 *                                       chunk (disk full)
 */
#define _GNU_SOURCE
#include "clock.h"
#include "wtf_emitter.h"

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define NTHREADS 3
#define NFRAMES 40
#define NCALLS 25 /* per frame, outside groups */

static w15_wtf_t *g_w;
static const char *g_fn[] = {"glClear", "glDrawArrays", "glUniform4f", "glBindBuffer", "glSwapBuffers"};
enum { F_CLEAR, F_DRAW, F_UNIFORM, F_BIND, F_SWAP };

static uint16_t ev(int f)
{
    return w15_wtf_call_event(g_w, (uint32_t)f, g_fn[f]);
}

typedef struct {
    int idx;
    char zone_name[64];
    unsigned counts[5];
    unsigned groups_outer, groups_inner, markers, frames;
} worker_t;

/* One call scope of function f at the current time. */
static void call(w15_wtf_zone_t *z, int f, uint32_t *seq, worker_t *wk)
{
    uint64_t t0 = w15_clock_now();
    w15_wtf_scope_enter(z, ev(f), t0, (*seq)++);
    w15_wtf_scope_leave(z, w15_clock_now());
    wk->counts[f]++;
}

static void *worker(void *arg)
{
    worker_t *wk = arg;
    pid_t tid = (pid_t)syscall(SYS_gettid);
    snprintf(wk->zone_name, sizeof wk->zone_name, "%d:worker%d", (int)tid, wk->idx);
    w15_wtf_zone_t *z = w15_wtf_zone_create(g_w, wk->zone_name, "script");
    if (!z)
        return NULL;
    uint32_t seq = 0;
    for (uint32_t f = 1; f <= NFRAMES; f++) {
        w15_wtf_frame_start(z, f, w15_clock_now());
        for (int i = 0; i < NCALLS; i++)
            call(z, i % 4, &seq, wk);
        /* nested debug groups with calls inside */
        const char outer[] = "Shadow pass";
        w15_wtf_scope_enter_named(z, outer, strlen(outer), w15_clock_now());
        wk->groups_outer++;
        call(z, F_DRAW, &seq, wk);
        const char inner[] = "Cascade \xc3\xa9t\xc3\xa9 #1"; /* UTF-8 */
        w15_wtf_scope_enter_named(z, inner, strlen(inner), w15_clock_now());
        wk->groups_inner++;
        call(z, F_DRAW, &seq, wk);
        w15_wtf_scope_leave(z, w15_clock_now());
        w15_wtf_scope_leave(z, w15_clock_now());
        if (f % 10 == 0) {
            char m[32];
            int n = snprintf(m, sizeof m, "marker-%d-%u", wk->idx, f);
            w15_wtf_timestamp(z, m, (size_t)n, w15_clock_now());
            wk->markers++;
        }
        call(z, F_SWAP, &seq, wk);
        w15_wtf_frame_end(z, f, w15_clock_now());
        wk->frames++;
        if (f % 7 == 0)
            w15_wtf_zone_flush(z);
        struct timespec ts = {0, 200000};
        nanosleep(&ts, NULL);
    }
    w15_wtf_zone_retire(z); /* flushes; later events are dropped */
    w15_wtf_scope_enter(z, ev(F_DRAW), w15_clock_now(), seq);
    w15_wtf_frame_start(z, 999, w15_clock_now());
    return NULL;
}

static int open_or_die(const char *out)
{
    char err[256];
    static const char *argv[] = {"test_emitter", "--quoted \"arg\"", NULL};
    w15_wtf_info_t info = {"/usr/bin/test_emitter", argv, "0.1-test", "/tmp/x.wip15"};
    g_w = w15_wtf_open(out, &info, err, sizeof err);
    if (!g_w) {
        fprintf(stderr, "test_emitter: %s\n", err);
        return 1;
    }
    return 0;
}

static int mode_basic(const char *out)
{
    if (open_or_die(out))
        return 1;
    w15_wtf_set_meta(g_w, "renderer", "llvmpipe (LLVM 15.0.6, 256 bits)");
    worker_t wk[NTHREADS];
    pthread_t th[NTHREADS];
    memset(wk, 0, sizeof wk);
    for (int i = 0; i < NTHREADS; i++) {
        wk[i].idx = i;
        pthread_create(&th[i], NULL, worker, &wk[i]);
    }
    for (int i = 0; i < NTHREADS; i++)
        pthread_join(th[i], NULL);
    w15_wtf_set_meta(g_w, "late", "after the header");
    /* pairs already set are not set again (a program making hundreds of
     * contexts reports the same renderer for each): no second mark */
    for (int i = 0; i < 3; i++) {
        w15_wtf_set_meta(g_w, "late", "after the header");
        w15_wtf_set_meta(g_w, "renderer", "llvmpipe (LLVM 15.0.6, 256 bits)");
    }
    w15_wtf_set_meta(g_w, "late", "changed");
    w15_wtf_close(g_w);
    /* expectations */
    printf("{\"files\":[{\"file\":\"%s\",\"zones\":[", out);
    for (int i = 0; i < NTHREADS; i++) {
        printf("%s{\"name\":\"%s\",\"frames\":%u,\"scopes\":{", i ? "," : "", wk[i].zone_name, wk[i].frames);
        for (int f = 0; f < 5; f++)
            printf("\"%s\":%u,", g_fn[f], wk[i].counts[f]);
        printf("\"Shadow pass\":%u,\"Cascade \xc3\xa9t\xc3\xa9 #1\":%u},\"timeStamps\":%u,\"maxDepth\":3}", wk[i].groups_outer,
               wk[i].groups_inner, wk[i].markers);
    }
    printf("]}]}\n");
    return 0;
}

/* Synthetic times: ms since the emitter's timebase. */
static uint64_t g_t0;
static uint64_t at_ms(double ms)
{
    return g_t0 + (uint64_t)(ms * 1e6);
}

static int mode_rotate(const char *out)
{
    if (open_or_die(out))
        return 1;
    g_t0 = w15_clock_now();
    /* zone A: one 10 ms frame per minute for 150 minutes, a call in each;
     * the call argument is its time in ms since g_t0. */
    w15_wtf_zone_t *a = w15_wtf_zone_create(g_w, "1:frames", "script");
    /* zone B: no frames, a call every minute; forced rotation inside a
     * debug group open from minute 50 to minute 100. */
    w15_wtf_zone_t *b = w15_wtf_zone_create(g_w, "2:calls", "script");
    for (int m = 1; m <= 150; m++) {
        double t = m * 60000.0;
        w15_wtf_frame_start(a, (uint32_t)m, at_ms(t));
        w15_wtf_scope_enter(a, ev(F_DRAW), at_ms(t + 1), (uint32_t)(t + 1));
        w15_wtf_scope_leave(a, at_ms(t + 2));
        w15_wtf_frame_end(a, (uint32_t)m, at_ms(t + 10));
        if (m == 50)
            w15_wtf_scope_enter_named(b, "long group", 10, at_ms(t));
        w15_wtf_scope_enter(b, ev(F_CLEAR), at_ms(t + 5), (uint32_t)(t + 5));
        w15_wtf_scope_leave(b, at_ms(t + 6));
        if (m == 100)
            w15_wtf_scope_leave(b, at_ms(t + 7));
    }
    w15_wtf_close(g_w);
    printf("{\"rotate\":true,\"minutes\":150}\n");
    return 0;
}

/* done (may be NULL): after each flushed frame, the number of frames
 * flushed so far (the kill test's parent reads it after the kill) */
static volatile uint32_t *done;

static void frames_forever(w15_wtf_zone_t *z, int flush_each, uint32_t first, uint32_t nmax)
{
    static uint32_t seq;
    worker_t wk;
    memset(&wk, 0, sizeof wk);
    for (uint32_t k = 0; k < nmax; k++) {
        uint32_t f = first + k;
        w15_wtf_frame_start(z, f, w15_clock_now());
        for (int i = 0; i < 50; i++)
            call(z, i % 4, &seq, &wk);
        w15_wtf_scope_enter_named(z, "group", 5, w15_clock_now());
        call(z, F_DRAW, &seq, &wk);
        w15_wtf_frame_end(z, f, w15_clock_now());
        w15_wtf_scope_leave(z, w15_clock_now());
        if (flush_each) {
            w15_wtf_zone_flush(z);
            if (done)
                __atomic_store_n(done, k + 1, __ATOMIC_RELEASE);
        }
        struct timespec ts = {0, 100000};
        nanosleep(&ts, NULL);
    }
}

/* The child flushes each frame and counts the flushed frames in shared
 * memory: after SIGKILL the file holds every frame counted (n), and at most
 * one more (flushed, killed before counting it). */
static int mode_kill(const char *out)
{
    done = mmap(NULL, sizeof *done, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (done == MAP_FAILED) {
        perror("test_emitter: mmap");
        return 1;
    }
    *done = 0;
    pid_t pid = fork();
    if (pid == 0) {
        if (open_or_die(out))
            _exit(1);
        w15_wtf_zone_t *z = w15_wtf_zone_create(g_w, "1:main", "script");
        frames_forever(z, 1, 1, UINT32_MAX);
        _exit(0);
    }
    struct timespec ts = {0, 300000000};
    nanosleep(&ts, NULL);
    kill(pid, SIGKILL);
    int st;
    waitpid(pid, &st, 0);
    if (!WIFSIGNALED(st) || WTERMSIG(st) != SIGKILL) {
        fprintf(stderr, "test_emitter: child was not killed by SIGKILL\n");
        return 1;
    }
    uint32_t n = __atomic_load_n(done, __ATOMIC_ACQUIRE);
    if (n < 2) {
        fprintf(stderr, "test_emitter: the child flushed only %u frames in 0.3 s\n", n);
        return 1;
    }
    printf("{\"kill\":true,\"minFrames\":%u,\"maxFrames\":%u}\n", n, n + 1);
    return 0;
}

static void on_segv(int sig)
{
    w15_wtf_flush_all_signal(g_w);
    signal(sig, SIG_DFL);
    raise(sig);
}

#define SEGV_FRAMES 12

static int mode_segv(const char *out)
{
    pid_t pid = fork();
    if (pid == 0) {
        if (open_or_die(out))
            _exit(1);
        signal(SIGSEGV, on_segv);
        w15_wtf_set_meta(g_w, "renderer", "crashy");
        w15_wtf_zone_t *z = w15_wtf_zone_create(g_w, "1:main", "script");
        /* a second zone that has flushed once: its later events too must
         * reach the file from the handler */
        w15_wtf_zone_t *z2 = w15_wtf_zone_create(g_w, "2:other", "script");
        frames_forever(z2, 0, 1, 3);
        w15_wtf_zone_flush(z2);
        frames_forever(z2, 0, 4, 2);
        frames_forever(z, 0, 1, SEGV_FRAMES); /* never flushed normally */
        volatile int *p = NULL;
        *p = 1;
        _exit(0);
    }
    int st;
    waitpid(pid, &st, 0);
    if (!WIFSIGNALED(st) || WTERMSIG(st) != SIGSEGV) {
        fprintf(stderr, "test_emitter: child did not die of SIGSEGV\n");
        return 1;
    }
    printf("{\"segv\":true,\"frames\":{\"1:main\":%d,\"2:other\":%d}}\n", SEGV_FRAMES, 5);
    return 0;
}

/* The file system fills up (RLIMIT_FSIZE) in the middle of a chunk: the
 * emitter must cut the partial chunk off, say so once and stop. */
static int mode_full(const char *out)
{
    int pfd[2];
    if (pipe(pfd) != 0)
        return 1;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(pfd[1], 2);
        signal(SIGXFSZ, SIG_IGN);
        struct rlimit rl = {50000, 50000};
        setrlimit(RLIMIT_FSIZE, &rl);
        if (open_or_die(out))
            _exit(1);
        w15_wtf_zone_t *z = w15_wtf_zone_create(g_w, "1:main", "script");
        frames_forever(z, 1, 1, 400); /* ~240 KiB of events, flushed each frame */
        w15_wtf_close(g_w);
        _exit(0);
    }
    close(pfd[1]);
    char buf[4096];
    ssize_t n, tot = 0;
    while ((n = read(pfd[0], buf + tot, sizeof buf - 1 - (size_t)tot)) > 0)
        tot += n;
    buf[tot > 0 ? tot : 0] = 0;
    int st;
    waitpid(pid, &st, 0);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        fprintf(stderr, "test_emitter: child failed\n");
        return 1;
    }
    int lines = 0;
    for (char *p = buf; (p = strstr(p, "wip15: ")); p++)
        lines++;
    if (lines != 1) {
        fprintf(stderr, "test_emitter: expected one \"wip15: \" line, got: %s\n", buf);
        return 1;
    }
    printf("{\"full\":true,\"maxBytes\":50000,\"minFrames\":10}\n");
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: test_emitter basic|rotate|kill|segv|full OUT.wtf-trace\n");
        return 2;
    }
    unlink(argv[2]);
    if (strcmp(argv[1], "rotate") == 0) {
        char p[4096];
        for (int g = 1; g < 5; g++) {
            snprintf(p, sizeof p, "%.*s.%d.wtf-trace", (int)strlen(argv[2]) - 10, argv[2], g);
            unlink(p);
        }
    }
    if (strcmp(argv[1], "basic") == 0)
        return mode_basic(argv[2]);
    if (strcmp(argv[1], "rotate") == 0)
        return mode_rotate(argv[2]);
    if (strcmp(argv[1], "kill") == 0)
        return mode_kill(argv[2]);
    if (strcmp(argv[1], "segv") == 0)
        return mode_segv(argv[2]);
    if (strcmp(argv[1], "full") == 0)
        return mode_full(argv[2]);
    fprintf(stderr, "test_emitter: unknown mode %s\n", argv[1]);
    return 2;
}
