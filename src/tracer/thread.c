/* thread.c -- per-thread buffers.
 *
 * Each thread that calls GL gets a w15_thread_t (initial-exec TLS pointer)
 * with its own w15_buf_t.  The owner hands the buffer to the output queue
 * when it is full, at a frame end or when the flush epoch changed, and at
 * thread exit (pthread key destructor).
 *
 * Idle threads: a thread that stopped calling GL would keep its last calls
 * forever.  The output thread "steals" such a buffer with an asymmetric
 * Dekker protocol:
 *   owner (every call):  in_call = 1; compiler fence; if (steal_req) wait
 *   stealer:             steal_req = 1; membarrier(); if (!in_call) take
 *                        the buffer; steal_req = 0
 * membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) makes every running thread
 * execute a full barrier, so either the owner sees steal_req or the stealer
 * sees in_call; the owner's fast path pays no fence.  The process registers
 * for it at the first steal (membarrier_ready: the registration takes
 * ~10-15 ms, which start-up must not pay).  Without membarrier
 * (old kernels, seccomp) idle threads are collected only at thread or
 * process exit.
 */
#include "thread.h"
#include "queue.h"
#include "runtime.h" /* w15_start: the lazy start */
#include "state.h"

#include <errno.h>
#include <linux/membarrier.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

__thread w15_thread_t *w15_tls __attribute__((tls_model("initial-exec")));
/* 0 normal, 1 creating (calls forwarded), 2 exiting/off */
static __thread int tls_state __attribute__((tls_model("initial-exec")));

pthread_mutex_t w15_threads_lock = PTHREAD_MUTEX_INITIALIZER;
w15_thread_t *w15_threads;
int w15_have_membarrier;

static pthread_key_t thread_key;
static int with_records; /* new buffers get a timing-record array */

void w15_threads_set_records(int on)
{
    with_records = on;
}
static pthread_once_t key_once = PTHREAD_ONCE_INIT;

void w15_thread_name(char *name)
{
    int e = errno;
    if (prctl(PR_GET_NAME, name, 0, 0, 0) != 0)
        name[0] = 0;
    name[16] = 0;
    errno = e;
}

static void thread_exit(void *p);

/* A fresh (empty) buffer with room for a whole chunk: the fast path
 * (record.h w15_fast_begin) checks only the chunk limit, not the capacity;
 * with tm (timing on), an array of timing records too.  0, or -1 (out of
 * memory) with nothing allocated. */
static int fresh_buf(w15_buf_t *b, w15_tmrec_t **tm)
{
    if (w15_queue_fresh(b, tm))
        return -1;
    if (w15_buf_reserve(b, W15_FAST_CAP_MIN)) {
        w15_buf_free(b);
        if (tm) {
            free(*tm);
            *tm = NULL;
        }
        return -1;
    }
    return 0;
}

static void make_key(void)
{
    pthread_key_create(&thread_key, thread_exit);
}

/* Register for MEMBARRIER_CMD_PRIVATE_EXPEDITED the first time a steal
 * needs it, under w15_threads_lock: the registration waits for an RCU grace
 * period (~10-15 ms measured), which a program that never has a buffer to
 * steal (one GL thread, a short run) must not pay at start-up. */
static int membarrier_ready(void)
{
    static int tried;
    if (!tried) {
        tried = 1;
        if (syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0)
            w15_have_membarrier = 1;
    }
    return w15_have_membarrier;
}

void w15_heavy_fence(void)
{
    if (w15_have_membarrier)
        syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0);
    atomic_thread_fence(memory_order_seq_cst);
}

w15_thread_t *w15_thread_slow(void)
{
    if (tls_state)
        return NULL;
    int e = errno;
    tls_state = 1;
    if (atomic_load(&w15_state) == W15_ST_UNINIT)
        w15_start();
    w15_thread_t *t = NULL;
    if (atomic_load(&w15_state) == W15_ST_ON) {
        pthread_once(&key_once, make_key);
        t = calloc(1, sizeof *t);
        if (!t || fresh_buf(&t->buf, with_records ? &t->tm : NULL)) {
            free(t);
            t = NULL;
            w15_fail("out of memory for a thread buffer; recording stopped");
        } else {
            w15_tm_reset(t);
            t->tid = (uint32_t)syscall(SYS_gettid);
            t->epoch = atomic_load_explicit(&w15_flush_epoch, memory_order_relaxed);
            pthread_mutex_lock(&w15_threads_lock);
            t->next = w15_threads;
            if (w15_threads)
                w15_threads->prev = t;
            w15_threads = t;
            pthread_mutex_unlock(&w15_threads_lock);
            pthread_setspecific(thread_key, t);
            w15_tls = t;
        }
    }
    tls_state = t ? 0 : (atomic_load(&w15_state) == W15_ST_UNINIT ? 0 : 2);
    errno = e;
    return t;
}

int w15_thread_hold(w15_thread_t *t)
{
    int was = (int)atomic_exchange_explicit(&t->in_call, 1, memory_order_relaxed);
    atomic_signal_fence(memory_order_seq_cst); /* paired with w15_heavy_fence */
    for (int i = 0; i < 500 && atomic_load_explicit(&t->steal_req, memory_order_acquire); i++) {
        struct timespec ts = { 0, 1000000 };
        nanosleep(&ts, NULL);
    }
    return was;
}

void w15_thread_submit(w15_thread_t *t)
{
    int e = errno;
    w15_buf_t b = t->buf;
    b.len = b.committed;
    w15_tmrec_t *tm = t->tm;
    uint32_t ntm = W15_TM_COUNT(t);
    if (fresh_buf(&t->buf, tm ? &t->tm : NULL)) {
        t->buf = b;
        t->buf.len = t->buf.committed = 0;
        t->buf.nblobs = 0;
        t->tm = tm;
        w15_tm_reset(t);
        w15_fail("out of memory for a thread buffer; recording stopped");
    } else {
        w15_tm_reset(t);
        w15_queue_push(&b, tm, ntm, t->wtf_zone, W15_PUSH_WAIT);
    }
    t->epoch = atomic_load_explicit(&w15_flush_epoch, memory_order_relaxed);
    errno = e;
}

static void unlink_thread(w15_thread_t *t)
{
    if (t->prev)
        t->prev->next = t->next;
    else
        w15_threads = t->next;
    if (t->next)
        t->next->prev = t->prev;
    t->next = t->prev = NULL;
}

static void thread_exit(void *p)
{
    w15_thread_t *t = p;
    int e = errno;
    tls_state = 2;
    w15_tls = NULL;
    pthread_mutex_lock(&w15_threads_lock);
    unlink_thread(t);
    pthread_mutex_unlock(&w15_threads_lock);
    /* private now: nobody else can reach t */
    t->buf.len = t->buf.committed;
    if (atomic_load(&w15_state) == W15_ST_ON) {
        /* the last chunk, and the zone retires after its records */
        w15_queue_push(&t->buf, t->tm, W15_TM_COUNT(t), t->wtf_zone, W15_PUSH_WAIT | W15_PUSH_RETIRE);
        t->tm = NULL;
    }
    w15_buf_free(&t->buf);
    free(t->tm);
    free(t->gpu);
    free(t->cmem_slots);
    free(t->rb_hash);
    free(t->pr_hash);
    free(t);
    errno = e;
}

/* Try to take t's committed bytes (output thread or exit path; caller
 * holds w15_threads_lock).  Returns 1 when taken or nothing to take. */
static int steal(w15_thread_t *t, int wait_ms, int nowait_push)
{
    /* at exit (wait_ms > 0) also wait for an idle buffer's owner to leave
     * its call: the timing zone is closed next */
    if (!__atomic_load_n(&t->buf.committed, __ATOMIC_ACQUIRE) && !W15_TM_COUNT(t) &&
        !wait_ms)
        return 1;
    atomic_store_explicit(&t->steal_req, 1, memory_order_relaxed);
    w15_heavy_fence();
    int taken = 0;
    for (int i = 0;; i++) {
        if (!atomic_load_explicit(&t->in_call, memory_order_acquire)) {
            if (!__atomic_load_n(&t->buf.committed, __ATOMIC_ACQUIRE) && !W15_TM_COUNT(t)) {
                taken = 1;
                break;
            }
            w15_buf_t fresh;
            w15_tmrec_t *ftm = NULL;
            if (fresh_buf(&fresh, t->tm ? &ftm : NULL) == 0) {
                /* the owner is parked: its chunk and timing records */
                w15_buf_t b = t->buf;
                b.len = b.committed;
                w15_tmrec_t *tm = t->tm;
                uint32_t ntm = W15_TM_COUNT(t);
                t->buf = fresh;
                t->tm = ftm;
                w15_tm_reset(t);
                t->epoch = atomic_load_explicit(&w15_flush_epoch, memory_order_relaxed);
                w15_queue_push(&b, tm, ntm, t->wtf_zone, nowait_push ? 0 : W15_PUSH_WAIT);
                taken = 1;
            }
            break;
        }
        if (i >= wait_ms)
            break;
        /* the owner is inside a call: it parks (in_call = 0) at its next
         * call when it sees steal_req */
        struct timespec ts = { 0, 1000000 };
        nanosleep(&ts, NULL);
    }
    atomic_store_explicit(&t->steal_req, 0, memory_order_release);
    return taken;
}

void w15_threads_collect(int all)
{
    uint32_t ep = atomic_load_explicit(&w15_flush_epoch, memory_order_relaxed);
    w15_thread_t *self = w15_tls;
    if (all) {
        pthread_mutex_lock(&w15_threads_lock);
    } else if (pthread_mutex_trylock(&w15_threads_lock) != 0) {
        /* the output thread never waits for this lock: its holder may be
         * waiting for the output thread (queue full at exit) */
        return;
    }
    /* another thread's buffer to take: the fence needs membarrier */
    int others = 0;
    for (w15_thread_t *t = w15_threads; t && !others; t = t->next)
        others = t != self && (all || ep - t->epoch >= 2);
    if (others && !membarrier_ready() && !all) {
        pthread_mutex_unlock(&w15_threads_lock);
        return;
    }
    for (w15_thread_t *t = w15_threads; t; t = t->next) {
        if (t == self) {
            /* exit path: our own buffer, we are not inside a call */
            if (all && (t->buf.committed || W15_TM_COUNT(t)))
                w15_thread_submit(t);
            continue;
        }
        if (all)
            steal(t, 200, 0);
        else if (ep - t->epoch >= 2)
            steal(t, 0, 1);
    }
    pthread_mutex_unlock(&w15_threads_lock);
}
