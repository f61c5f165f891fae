/* output.c -- the output thread (output.h).
 *
 * The output thread pops chunks one by one (queue.c), writes the pending
 * declarations first (decl.c), submits the chunk to the writer (which
 * compresses its blobs) and flushes the writer whenever the queue runs
 * empty, so the file is never more than a batch behind.  Every ~100 ms it
 * bumps the flush epoch (each thread then hands over its buffer at its next
 * call) and collects idle threads' buffers (thread.c).
 *
 * Under back-pressure (a producer waited for room in the queue) the
 * writer's zstd compression takes worker threads (pace_workers).
 *
 * Timing: a chunk carries its thread's timing records (tmrec.h); the
 * output thread converts them into the thread's WTF zone right after
 * writing the chunk (timing.c w15_timing_feed), so the GL threads never
 * format or write timing events themselves.
 *
 * Crash path: `wlock` is held by the output thread while it is inside the
 * writer; a fatal-signal handler takes it (value 2) and then appends the
 * remaining chunks raw (w15_writer_crash_write: after the writer's staging
 * buffer; with WIP15_STREAM=lz4 through the open LZ4 frame); raw chunks are
 * valid WIP15 (their blobs stay uncompressed).
 */
#include "output.h"
#include "config.h"
#include "decl.h"
#include "log.h"
#include "queue.h"
#include "thread.h"
#include "timing.h"
#include "state.h"
#include "funcs.h"
#include "wip15/trace_env.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define EPOCH_NS 100000000ull

static w15_writer_t *writer;
static int out_fd = -1;
static const char *out_path;
static _Atomic int wlock; /* 0 free, 1 output thread in the writer, 2 crash */
static pthread_t out_thread;
static int out_started;
static pid_t out_pid;
static int writer_dead;
static int crash_file; /* the crash path writes into the trace */

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Writer failure: one message, recording stops, queued data is dropped. */
static void writer_failed(const w15_error_t *err)
{
    char m[600];
    snprintf(m, sizeof m, "cannot write the trace: %s; recording stopped", err->msg);
    w15_fail(m);
}

/* Drain declarations, then submit `b`.  Caller holds wlock. */
static void submit(w15_buf_t *b)
{
    w15_error_t err;
    if (writer_dead)
        return;
    w15_buf_t *db = w15_decl_lock();
    if (db->committed && w15_writer_submit(writer, db, &err)) {
        w15_decl_unlock();
        writer_dead = 1;
        writer_failed(&err);
        return;
    }
    w15_decl_unlock();
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
            snprintf(m, sizeof m, "trace reached %s (%llu bytes); recording stopped", W15_ENV_MAX_SIZE,
                     (unsigned long long)w15_cfg.max_size);
            w15_stop(m);
        }
    }
}

/* zstd workers (writer.c w15_writer_set_workers): when a producer had to
 * wait for room in the queue, the output thread is what the program waits
 * on, so its compression takes w15_cfg.workers threads (the program's
 * core is idle meanwhile); CALM_NS after the last wait, one again.  Each
 * change ends a zstd frame.  Under wlock. */
#define CALM_NS 1000000000ull
static int workers;
static uint64_t waits_seen, last_wait;

static void pace_workers(void)
{
    uint64_t wt = w15_queue_waits(), t = now_ns();
    int want = workers;
    if (wt != waits_seen) {
        waits_seen = wt;
        last_wait = t;
        want = w15_cfg.workers;
    } else if (workers && t - last_wait >= CALM_NS) {
        want = 0;
    }
    if (want == workers || writer_dead)
        return;
    w15_error_t err;
    int r = w15_writer_set_workers(writer, want, &err);
    if (r < 0) {
        writer_dead = 1;
        writer_failed(&err);
    } else if (r > 0) {
        w15_cfg.workers = 0; /* this libzstd has no threads */
    } else {
        workers = want;
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
        w15_chunk_t *c;
        enum w15_take r = w15_queue_take(&c, !dirty);
        if (r == W15_TAKE_EMPTY) {
            /* queue empty: flush what we have */
            if (take_wlock()) {
                submit(NULL);
                if (workers)
                    pace_workers();
                writer_flush();
                atomic_store(&wlock, 0);
            }
            dirty = 0;
            continue;
        }
        if (r == W15_TAKE_CHUNK) {
            if (!take_wlock())
                break; /* a crash handler owns the file */
            submit(&c->buf);
            if (w15_cfg.workers)
                pace_workers();
            if (c->zone)
                w15_timing_feed(c->zone, c->tm, c->ntm, c->flags & W15_PUSH_RETIRE);
            w15_queue_written();
            atomic_store(&wlock, 0);
            w15_queue_recycle(c);
            dirty = 1;
        }
        uint64_t t = now_ns();
        if (t - last_epoch >= EPOCH_NS) {
            last_epoch = t;
            atomic_fetch_add_explicit(&w15_flush_epoch, 1, memory_order_relaxed);
            if (!w15_queue_stopping())
                w15_threads_collect(0);
            if (dirty && take_wlock()) {
                submit(NULL);
                writer_flush();
                atomic_store(&wlock, 0);
                dirty = 0;
            }
        }
        if (r == W15_TAKE_STOP)
            break;
    }
    if (take_wlock()) {
        submit(NULL);
        writer_flush();
        atomic_store(&wlock, 0);
    }
    return NULL;
}

#define W15_STREAM_MIN_BLOB 4096u

int w15_output_open(int fd, const char *path)
{
    w15_writer_opts_t o;
    w15_writer_opts_default(&o);
    o.blob_method = (w15_comp_t)w15_cfg.blob_method;
    o.stream_lz4 = w15_cfg.stream_lz4;
    o.stream_zstd = w15_cfg.stream_zstd;
    o.zstd_level = w15_cfg.zstd_level;
    /* Inside a zstd frame blobs are not compressed alone unless asked:
     * zstd's window (512 KiB at its fast levels) finds what LZ4's blob
     * pass would, in one pass (docs/PERFORMANCE.md). */
    if (o.stream_zstd && !w15_cfg.blob_method_set)
        o.blob_method = W15_COMP_NONE;
    /* Inside the LZ4 frame, small blobs compress better with the stream's
     * context than alone (client arrays of a few hundred bytes: traces
     * 8-13 % smaller, docs/PERFORMANCE.md); larger ones keep their own. */
    if (o.stream_lz4 && o.min_blob < W15_STREAM_MIN_BLOB)
        o.min_blob = W15_STREAM_MIN_BLOB;
    o.max_functions = W15F__TOTAL;
    o.max_groups = w15_ngroups;
    w15_error_t err;
    writer = w15_writer_open_fd(fd, path, &o, &err);
    if (!writer) {
        w15_msg("cannot write trace file %s: %s; not recording", path, err.msg);
        unlink(path);
        return -1;
    }
    out_fd = fd;
    out_pid = getpid();
    out_path = path;
    return 0;
}

int w15_output_run(void)
{
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
    out_started = 1;
    w15_queue_open();
    return 0;
}

void w15_output_stop(int say_written)
{
    if (!out_started)
        return;
    w15_queue_stop();
    pthread_join(out_thread, NULL);
    out_started = 0;
    w15_queue_close();
    if (atomic_load(&wlock) == 0) {
        w15_error_t err;
        w15_writer_stats_t st;
        w15_writer_get_stats(writer, &st);
        const char *why = w15_fail_reason();
        if (w15_writer_close(writer, &err) && !writer_dead)
            w15_msg("cannot finish the trace %s: %s", out_path, err.msg);
        else if (why && say_written)
            w15_msg("trace %s is INCOMPLETE (%s): it holds what was recorded before", out_path, why);
        else if (!writer_dead && say_written)
            w15_info("trace written to %s (%llu bytes)", out_path, (unsigned long long)st.file_bytes);
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
    w15_queue_forget();
}

/* ------------------------------------------------------------------ */
/* Crash path (async-signal-safe)                                      */

/* Raw stream bytes after what the writer has (writer.c
 * w15_writer_crash_write: the staging buffer first; with WIP15_STREAM=lz4
 * through the open frame).  Nothing without a file (the writer failed). */
static void crash_append(const void *p, size_t n)
{
    if (crash_file)
        w15_writer_crash_write(writer, p, n);
}

/* A queued (or half-written) chunk: its bytes raw into the trace and its
 * timing records into its zone. */
static void crash_chunk(const w15_chunk_t *c, void *arg)
{
    (void)arg;
    if (c->zone)
        w15_timing_feed(c->zone, c->tm, c->ntm, 0);
    crash_append(c->buf.data, c->buf.committed);
}

int w15_output_crash_begin(w15_thread_t *self)
{
    atomic_store(&w15_recording, 0);
    if (!writer || getpid() != out_pid)
        return 0;
    int got = 0;
    for (int i = 0; i < 500 && !got; i++) {
        int z = 0;
        if (atomic_compare_exchange_strong(&wlock, &z, 2)) {
            got = 1;
            break;
        }
        if (pthread_equal(pthread_self(), out_thread))
            return 0;
        struct timespec ts = { 0, 1000000 };
        nanosleep(&ts, NULL);
    }
    if (!got)
        return 0;
    /* the output thread is out of the zones too (it feeds them under
     * wlock): every pending chunk, oldest first (the one being written, the
     * queue, then each thread's own, the crashing thread's last), goes into
     * the trace raw and its timing records into the thread's zone */
    w15_queue_freeze();
    w15_timing_crash_begin();
    crash_file = !writer_dead;
    size_t n;
    const uint8_t *d = w15_decl_pending(&n);
    crash_append(d, n);
    w15_queue_crash_each(crash_chunk, NULL);
    for (w15_thread_t *t = w15_threads; t; t = t->next) {
        if (t->wtf_zone && t->tm)
            w15_timing_feed(t->wtf_zone, t->tm, W15_TM_COUNT(t), 0);
        if (t != self)
            crash_append(t->buf.data, __atomic_load_n(&t->buf.committed, __ATOMIC_ACQUIRE));
    }
    return crash_file;
}

void w15_output_crash_append(const void *p, size_t n)
{
    crash_append(p, n);
}

void w15_output_crash_end(void)
{
    if (crash_file)
        w15_writer_crash_end(writer);
}
