/* output.c -- the output queue, the background output thread that owns the
 * w15_writer_t, the declarations side buffer, start-up and shut-down.
 *
 * Producers (GL threads) push finished chunks into a FIFO bounded to
 * QUEUE_MAX bytes (back-pressure: a producer waits while it is full).  The
 * output thread pops them one by one, writes the pending declarations
 * first, submits the chunk to the writer (which compresses its blobs) and
 * flushes the writer whenever the queue runs empty, so the file is never
 * more than a batch behind.  Every ~100 ms it bumps the flush epoch (each
 * thread then hands over its buffer at its next call) and collects idle
 * threads' buffers (thread.c).
 *
 * Timing: a chunk carries its thread's timing records (record.h
 * w15_tmrec_t); the output thread converts them into the thread's WTF zone
 * right after writing the chunk (timing.c w15_timing_feed), so the GL
 * threads never format or write timing events themselves.
 *
 * Crash path: `wlock` is held by the output thread while it is inside the
 * writer; a fatal-signal handler takes it (value 2) and then appends the
 * remaining chunks raw with write(2): the writer's own buffer is always
 * empty outside wlock, and raw chunks are valid WIP15 (blobs stay
 * uncompressed); with WIP15_STREAM=lz4 they go in as uncompressed blocks
 * of the open LZ4 frame.
 */
#include "runtime.h"
#include "funcs.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define QUEUE_MAX ((size_t)64 << 20)
#define IDLE_NS 50000000L /* the output thread's wait when the queue is empty */
#define BUF_INITIAL (((size_t)1 << 20) + 65536)
#define FREE_MAX 16
#define EPOCH_NS 100000000ull

typedef struct chunk {
    struct chunk *next;
    w15_buf_t buf;
    w15_tmrec_t *tm;  /* W15_TM_CAP records, or NULL */
    uint32_t ntm;
    int flags;        /* W15_PUSH_RETIRE */
    void *zone;
} chunk_t;

#define TM_BYTES ((size_t)W15_TM_CAP * sizeof(w15_tmrec_t))

static pthread_mutex_t qlock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t qcond = PTHREAD_COND_INITIALIZER;  /* output thread: work */
static pthread_cond_t qspace = PTHREAD_COND_INITIALIZER; /* producers: room */
static chunk_t *volatile qhead;
static chunk_t *qtail;
static size_t qbytes;
static chunk_t *freelist;
static int nfree;
static chunk_t *volatile cur_chunk; /* popped, not yet submitted */
static int stopping;

static pthread_mutex_t decl_mutex = PTHREAD_MUTEX_INITIALIZER;
static w15_buf_t declbuf;

static w15_writer_t *writer;
static int out_fd = -1;
static _Atomic int wlock; /* 0 free, 1 output thread in the writer, 2 crash */
static pthread_t out_thread;
static int out_started;
static pid_t out_pid;
const char *w15_trace_path;
static char path_buf[PATH_MAX];
static char wtf_path_buf[PATH_MAX + 16];

pthread_mutex_t *w15_decl_lock(void) { return &decl_mutex; }
w15_buf_t *w15_decl_buf(void) { return &declbuf; }

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int w15_output_fresh(w15_buf_t *buf, w15_tmrec_t **tm)
{
    chunk_t *c = NULL;
    pthread_mutex_lock(&qlock);
    if (freelist) {
        c = freelist;
        freelist = c->next;
        nfree--;
    }
    pthread_mutex_unlock(&qlock);
    w15_tmrec_t *t = c ? c->tm : NULL;
    if (tm && !t && !(t = malloc(TM_BYTES))) {
        if (c) {
            w15_buf_free(&c->buf);
            free(c);
        }
        return -1;
    }
    if (!tm)
        free(t);
    else
        *tm = t;
    if (c) {
        *buf = c->buf;
        w15_buf_clear(buf);
        free(c);
        return 0;
    }
    if (w15_buf_init(buf, BUF_INITIAL) == 0)
        return 0;
    if (tm) {
        free(*tm);
        *tm = NULL;
    }
    return -1;
}

static void chunk_free(chunk_t *c)
{
    w15_buf_free(&c->buf);
    free(c->tm);
    free(c);
}

static void recycle(chunk_t *c);

void w15_output_push(w15_buf_t *buf, w15_tmrec_t *tm, uint32_t ntm, void *zone, int flags)
{
    chunk_t *c = malloc(sizeof *c);
    if (!c) {
        w15_buf_free(buf);
        free(tm);
        w15_fail("out of memory queueing trace data; recording stopped");
        return;
    }
    c->next = NULL;
    c->buf = *buf;
    memset(buf, 0, sizeof *buf);
    c->tm = tm;
    c->ntm = ntm;
    c->zone = zone;
    c->flags = flags;
    if (!c->buf.committed && !ntm && !(flags & W15_PUSH_RETIRE)) {
        recycle(c);
        return;
    }
    size_t n = c->buf.committed + (size_t)ntm * sizeof *tm;
    int wait = flags & W15_PUSH_WAIT;
    pthread_mutex_lock(&qlock);
    if (atomic_load(&wlock) == 2) {
        /* a crash handler is writing the queue out: the process is dying,
         * and it may be reading this memory; leave it alone */
        pthread_mutex_unlock(&qlock);
        return;
    }
    if (!out_started) {
        pthread_mutex_unlock(&qlock);
        chunk_free(c);
        return;
    }
    while (wait && !stopping && qbytes > 0 && qbytes + n > QUEUE_MAX)
        pthread_cond_wait(&qspace, &qlock);
    if (qtail)
        __atomic_store_n(&qtail->next, c, __ATOMIC_RELEASE);
    else
        __atomic_store_n(&qhead, c, __ATOMIC_RELEASE);
    qtail = c;
    qbytes += n;
    pthread_cond_signal(&qcond);
    pthread_mutex_unlock(&qlock);
}

static void recycle(chunk_t *c)
{
    if (c->buf.cap <= 2 * BUF_INITIAL && !c->buf.failed) {
        pthread_mutex_lock(&qlock);
        if (nfree < FREE_MAX) {
            c->next = freelist;
            freelist = c;
            nfree++;
            c = NULL;
        }
        pthread_mutex_unlock(&qlock);
    }
    if (c)
        chunk_free(c);
}

/* Writer failure: one message, recording stops, queued data is dropped. */
static void writer_failed(const w15_error_t *err)
{
    char m[600];
    snprintf(m, sizeof m, "cannot write the trace: %s; recording stopped", err->msg);
    w15_fail(m);
}

static int writer_dead;

/* Drain declarations, then submit `b`.  Caller holds wlock. */
static void submit(w15_buf_t *b)
{
    w15_error_t err;
    if (writer_dead)
        return;
    pthread_mutex_lock(&decl_mutex);
    if (declbuf.committed && w15_writer_submit(writer, &declbuf, &err)) {
        pthread_mutex_unlock(&decl_mutex);
        writer_dead = 1;
        writer_failed(&err);
        return;
    }
    pthread_mutex_unlock(&decl_mutex);
    if (b && b->committed && w15_writer_submit(writer, b, &err)) {
        writer_dead = 1;
        writer_failed(&err);
    }
}

static void writer_flush(void)
{
    w15_error_t err;
    if (writer_dead)
        return;
    if (w15_writer_flush(writer, &err)) {
        writer_dead = 1;
        writer_failed(&err);
        return;
    }
    if (w15_cfg.max_size) {
        w15_writer_stats_t st;
        w15_writer_get_stats(writer, &st);
        if (st.file_bytes > w15_cfg.max_size && atomic_load(&w15_state) == W15_ST_ON) {
            char m[160];
            snprintf(m, sizeof m, "trace reached WIP15_MAX_SIZE (%llu bytes); recording stopped",
                     (unsigned long long)w15_cfg.max_size);
            w15_fail(m);
        }
    }
}

static int take_wlock(void)
{
    int z = 0;
    return atomic_compare_exchange_strong(&wlock, &z, 1);
}

static void *output_main(void *arg)
{
    (void)arg;
    uint64_t last_epoch = now_ns();
    int dirty = 0;
    for (;;) {
        pthread_mutex_lock(&qlock);
        if (!qhead && !stopping) {
            if (dirty) {
                /* queue empty: flush what we have */
                pthread_mutex_unlock(&qlock);
                if (take_wlock()) {
                    submit(NULL);
                    writer_flush();
                    atomic_store(&wlock, 0);
                }
                dirty = 0;
                continue;
            }
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts);
            ts.tv_nsec += IDLE_NS;
            if (ts.tv_nsec >= 1000000000) {
                ts.tv_sec++;
                ts.tv_nsec -= 1000000000;
            }
            pthread_cond_timedwait(&qcond, &qlock, &ts);
        }
        chunk_t *c = qhead;
        if (c) {
            qhead = c->next;
            if (!qhead)
                qtail = NULL;
            qbytes -= c->buf.committed + (size_t)c->ntm * sizeof(w15_tmrec_t);
            cur_chunk = c;
            pthread_cond_broadcast(&qspace);
        }
        int stop = stopping && !c;
        pthread_mutex_unlock(&qlock);
        if (c) {
            if (!take_wlock())
                break; /* a crash handler owns the file */
            submit(&c->buf);
            if (c->zone)
                w15_timing_feed(c->zone, c->tm, c->ntm, c->flags & W15_PUSH_RETIRE);
            cur_chunk = NULL;
            atomic_store(&wlock, 0);
            recycle(c);
            dirty = 1;
        }
        uint64_t t = now_ns();
        if (t - last_epoch >= EPOCH_NS) {
            last_epoch = t;
            atomic_fetch_add_explicit(&w15_flush_epoch, 1, memory_order_relaxed);
            if (!stopping)
                w15_threads_collect(0);
            if (dirty && take_wlock()) {
                submit(NULL);
                writer_flush();
                atomic_store(&wlock, 0);
                dirty = 0;
            }
        }
        if (stop)
            break;
    }
    if (take_wlock()) {
        submit(NULL);
        writer_flush();
        atomic_store(&wlock, 0);
    }
    return NULL;
}

/* ------------------------------------------------------------------ */
/* Start-up                                                            */

static const char *program_name(void)
{
    extern char *program_invocation_short_name;
    const char *p = program_invocation_short_name;
    return p && *p ? p : "trace";
}

static int ends_with(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && strcmp(s + a - b, suf) == 0;
}

/* "<stem><suffix>" where the stem is `path` without ".wip15". */
static void derive(char *out, size_t n, const char *path, const char *mid, const char *suffix)
{
    size_t l = strlen(path);
    if (ends_with(path, ".wip15"))
        l -= 6;
    snprintf(out, n, "%.*s%s%s", (int)l, path, mid, suffix);
}

/* Create the trace file, never overwriting: app.wip15, app.1.wip15, ... */
static int open_trace(void)
{
    char base[PATH_MAX];
    if (w15_cfg.output && *w15_cfg.output)
        snprintf(base, sizeof base, "%s", w15_cfg.output);
    else
        snprintf(base, sizeof base, "%s.wip15", program_name());
    int keep_ext = ends_with(base, ".wip15");
    for (int i = 0; i < 1000; i++) {
        char mid[16] = "";
        if (i)
            snprintf(mid, sizeof mid, ".%d", i);
        derive(path_buf, sizeof path_buf, base, mid, keep_ext ? ".wip15" : "");
        if (!keep_ext && i)
            snprintf(path_buf, sizeof path_buf, "%s%s", base, mid);
        derive(wtf_path_buf, sizeof wtf_path_buf, path_buf, "", ".wtf-trace");
        if (w15_cfg.timing != W15_TIMING_OFF && access(wtf_path_buf, F_OK) == 0)
            continue;
        int fd = open(path_buf, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (fd >= 0)
            return fd;
        if (errno != EEXIST) {
            w15_msg("cannot create trace file %s: %s; not recording", path_buf, strerror(errno));
            return -1;
        }
    }
    w15_msg("cannot create trace file %s: %s.1 ... %s.999 exist too; not recording", base, base, base);
    return -1;
}

static int put_trace_begin(w15_buf_t *b)
{
    char args[8192];
    size_t alen = 0;
    int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        ssize_t r;
        while (alen < sizeof args && (r = read(fd, args + alen, sizeof args - alen)) > 0)
            alen += (size_t)r;
        close(fd);
    }
    uint32_t nargs = 0;
    for (size_t i = 0; i < alen; i++)
        nargs += args[i] == 0;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t unix_ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
    const char *prog = alen ? args : program_name();
    const char *wtf = w15_cfg.timing != W15_TIMING_OFF ? wtf_path_buf : "";
    if (w15_buf_reserve(b, 64 + 2 * alen + 8 * nargs + strlen(prog) + strlen(wtf) + 32))
        return -1;
    w15_put_u8(b, W15_OP_CALL);
    w15_put_u32(b, W15F_wip15TraceBegin);
    w15_put_string(b, prog, (uint32_t)strlen(prog));
    w15_put_u32(b, nargs);
    for (size_t i = 0, s = 0; i < alen; i++) {
        if (args[i] == 0) {
            w15_put_string(b, args + s, (uint32_t)(i - s));
            s = i + 1;
        }
    }
    w15_put_uvari(b, (uint64_t)getpid());
    w15_put_uvari(b, unix_ns);
    w15_put_string(b, W15_TRACER_VERSION, (uint32_t)strlen(W15_TRACER_VERSION));
    w15_put_string(b, wtf, (uint32_t)strlen(wtf));
    w15_put_u32(b, 0);
    b->committed = b->len;
    return 0;
}

/* The pseudo-calls are declared first (docs/FORMAT.md). */
static int put_pseudo_decls(w15_buf_t *b)
{
    for (uint32_t id = W15F__COUNT; id < W15F__TOTAL; id++)
        if (w15_put_func_decl(b, id))
            return -1;
    b->committed = b->len;
    return 0;
}

/* Tell `wip15 trace` where the trace goes (WIP15_STATUS_FD, a pipe). */
static void report_path(void)
{
    int fd = w15_cfg.status_fd;
    if (fd < 0)
        return;
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode)) {
        char line[2 * PATH_MAX + 64];
        char cwd[PATH_MAX];
        const char *p = path_buf;
        if (path_buf[0] != '/' && getcwd(cwd, sizeof cwd)) {
            snprintf(line, sizeof line, "%s/%s\n", cwd, path_buf);
        } else {
            snprintf(line, sizeof line, "%s\n", p);
        }
        ssize_t r = write(fd, line, strlen(line));
        (void)r;
        close(fd);
    }
    w15_cfg.status_fd = -1;
}

int w15_output_start(void)
{
    int fd = open_trace();
    if (fd < 0)
        return -1;
    w15_writer_opts_t o;
    w15_writer_opts_default(&o);
    o.blob_method = (w15_comp_t)w15_cfg.blob_method;
    o.stream_lz4 = w15_cfg.stream_lz4;
    o.max_functions = W15F__TOTAL;
    o.max_groups = w15_ngroups;
    w15_error_t err;
    writer = w15_writer_open_fd(fd, path_buf, &o, &err);
    if (!writer) {
        w15_msg("cannot write trace file %s: %s; not recording", path_buf, err.msg);
        unlink(path_buf);
        return -1;
    }
    out_fd = fd;
    out_pid = getpid();
    w15_trace_path = path_buf;
    if (w15_buf_init(&declbuf, 65536) || put_pseudo_decls(&declbuf) || put_trace_begin(&declbuf)) {
        w15_msg("out of memory starting the trace; not recording");
        return -1;
    }
    report_path();
    w15_info("tracing to %s", path_buf);
    if (w15_cfg.timing != W15_TIMING_OFF)
        w15_timing_start(wtf_path_buf);
    /* the output thread must not take the application's signals */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    int r = pthread_create(&out_thread, NULL, output_main, NULL);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (r != 0) {
        w15_msg("cannot start the output thread: %s; not recording", strerror(r));
        return -1;
    }
    pthread_mutex_lock(&qlock);
    out_started = 1;
    pthread_mutex_unlock(&qlock);
    return 0;
}

void w15_output_stop(void)
{
    if (!out_started)
        return;
    pthread_mutex_lock(&qlock);
    stopping = 1;
    pthread_cond_broadcast(&qcond);
    pthread_cond_broadcast(&qspace);
    pthread_mutex_unlock(&qlock);
    pthread_join(out_thread, NULL);
    pthread_mutex_lock(&qlock);
    out_started = 0;
    pthread_mutex_unlock(&qlock);
    if (atomic_load(&wlock) == 0) {
        w15_error_t err;
        w15_writer_stats_t st;
        w15_writer_get_stats(writer, &st);
        if (w15_writer_close(writer, &err) && !writer_dead)
            w15_msg("cannot finish the trace %s: %s", path_buf, err.msg);
        else if (!writer_dead && !w15_cfg.launched)
            w15_info("trace written to %s (%llu bytes)", path_buf, (unsigned long long)st.file_bytes);
        writer = NULL;
    }
}

void w15_output_forget(void)
{
    /* forked child: the parent's file and threads are not ours */
    if (out_fd >= 0)
        close(out_fd);
    out_fd = -1;
    writer = NULL;
    out_started = 0;
    qhead = NULL;
    qtail = NULL;
    qbytes = 0;
}

/* ------------------------------------------------------------------ */
/* Crash path (async-signal-safe)                                      */

static void write_all(int fd, const uint8_t *p, size_t n)
{
    while (n) {
        ssize_t r = write(fd, p, n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return;
        p += r;
        n -= (size_t)r;
    }
}

/* XXH32 (seed 0), for the block checksums of the LZ4 frame (the writer
 * enables them); written from the algorithm's specification. */
static uint32_t rotl32(uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }
static uint32_t rd32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static uint32_t xxh32(const uint8_t *p, size_t len)
{
    const uint32_t P1 = 0x9E3779B1u, P2 = 0x85EBCA77u, P3 = 0xC2B2AE3Du, P4 = 0x27D4EB2Fu, P5 = 0x165667B1u;
    const uint8_t *end = p + len;
    uint32_t h;
    if (len >= 16) {
        uint32_t v1 = P1 + P2, v2 = P2, v3 = 0, v4 = 0u - P1;
        while (end - p >= 16) {
            v1 = rotl32(v1 + rd32(p) * P2, 13) * P1;
            v2 = rotl32(v2 + rd32(p + 4) * P2, 13) * P1;
            v3 = rotl32(v3 + rd32(p + 8) * P2, 13) * P1;
            v4 = rotl32(v4 + rd32(p + 12) * P2, 13) * P1;
            p += 16;
        }
        h = rotl32(v1, 1) + rotl32(v2, 7) + rotl32(v3, 12) + rotl32(v4, 18);
    } else {
        h = P5;
    }
    h += (uint32_t)len;
    while (end - p >= 4) {
        h = rotl32(h + rd32(p) * P3, 17) * P4;
        p += 4;
    }
    while (p < end) {
        h = rotl32(h + (*p++) * P5, 11) * P1;
    }
    h ^= h >> 15;
    h *= P2;
    h ^= h >> 13;
    h *= P3;
    h ^= h >> 16;
    return h;
}

/* Append raw stream bytes: as they are, or with WIP15_STREAM=lz4 as
 * uncompressed blocks of the writer's LZ4 frame (64 KiB, under any block
 * size the frame allows; each with its XXH32 block checksum). */
static void crash_append(int fd, const uint8_t *p, size_t n)
{
    if (!w15_cfg.stream_lz4) {
        write_all(fd, p, n);
        return;
    }
    while (n) {
        size_t k = n < 65536 ? n : 65536;
        uint8_t h[4], c[4];
        uint32_t sz = (uint32_t)k | 0x80000000u, x = xxh32(p, k);
        for (int i = 0; i < 4; i++) {
            h[i] = (uint8_t)(sz >> (8 * i));
            c[i] = (uint8_t)(x >> (8 * i));
        }
        write_all(fd, h, 4);
        write_all(fd, p, k);
        write_all(fd, c, 4);
        p += k;
        n -= k;
    }
}

/* Complete the crashing thread's current call when all its inputs are
 * encoded: an empty result and the extra "wip15.crash" (empty Data), so
 * the fatal call itself is in the trace. */
static size_t complete_crashed_call(w15_thread_t *t)
{
    w15_buf_t *b = &t->buf;
    size_t committed = __atomic_load_n(&b->committed, __ATOMIC_ACQUIRE);
    if (!atomic_load(&t->in_call) || !t->pre_complete || t->call_start != committed ||
        t->cur_id >= w15_nfuncs)
        return committed;
    const w15_func_sig_t *f = &w15_funcs[t->cur_id];
    const w15_param_sig_t *rs = &w15_params[f->first_param + f->nparams];
    if (b->cap - b->len < 4 + W15_MAX_EMPTY + 4 + W15_EXTRA_CRASH_SIZE + W15_EXTRA_PTR_SIZE(t->nptr))
        return committed;
    if (rs->base != W15_VOID) {
        w15_put_empty(b, rs->base, rs->is_array);
        if (rs->group != W15_NO_GROUP)
            w15_put_u32(b, rs->group);
    }
    w15_put_u32(b, t->nptr ? 2 : 1);
    w15_put_extra_crash(b);
    if (t->nptr)
        w15_put_extra_ptr(b, t->ptrx, t->nptr);
    return b->len;
}

/* A queued (or half-written) chunk: its bytes raw into the trace (fd < 0:
 * the writer failed earlier) and its timing records into its zone. */
static void crash_chunk(int fd, const chunk_t *c)
{
    if (c->zone)
        w15_timing_feed(c->zone, c->tm, c->ntm, 0);
    if (fd >= 0)
        crash_append(fd, c->buf.data, c->buf.committed);
}

void w15_output_crash_flush(w15_thread_t *self)
{
    atomic_store(&w15_recording, 0);
    if (!writer || getpid() != out_pid)
        return;
    int got = 0;
    for (int i = 0; i < 500 && !got; i++) {
        int z = 0;
        if (atomic_compare_exchange_strong(&wlock, &z, 2)) {
            got = 1;
            break;
        }
        if (pthread_equal(pthread_self(), out_thread))
            return;
        struct timespec ts = { 0, 1000000 };
        nanosleep(&ts, NULL);
    }
    if (!got)
        return;
    /* the output thread is out of the zones too (it feeds them under
     * wlock): every pending chunk, oldest first (the one being written, the
     * queue, then each thread's own, the crashing thread's last), goes into
     * the trace raw and its timing records into the thread's zone */
    w15_timing_crash_begin();
    int fd = writer_dead ? -1 : out_fd;
    if (fd >= 0)
        crash_append(fd, declbuf.data, __atomic_load_n(&declbuf.committed, __ATOMIC_ACQUIRE));
    chunk_t *cc = cur_chunk;
    if (cc)
        crash_chunk(fd, cc);
    for (chunk_t *c = __atomic_load_n(&qhead, __ATOMIC_ACQUIRE); c; c = __atomic_load_n(&c->next, __ATOMIC_ACQUIRE))
        crash_chunk(fd, c);
    for (w15_thread_t *t = w15_threads; t; t = t->next) {
        if (t->wtf_zone && t->tm)
            w15_timing_feed(t->wtf_zone, t->tm, W15_TM_COUNT(t), 0);
        if (t != self && fd >= 0)
            crash_append(fd, t->buf.data, __atomic_load_n(&t->buf.committed, __ATOMIC_ACQUIRE));
    }
    if (self && fd >= 0)
        crash_append(fd, self->buf.data, complete_crashed_call(self));
}
