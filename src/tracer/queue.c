/* queue.c -- the chunk queue (queue.h).
 *
 * A FIFO under qlock; the output thread waits on qcond for work, producers
 * on qspace for room.  The list links are stored with release and read
 * with acquire so that a crash handler can walk the queue without the lock
 * (it may be held by the thread that crashed). */
#include "queue.h"
#include "state.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define QUEUE_MAX ((size_t)32 << 20) /* with FREE_MAX chunks kept and the writer's buffers: <= 64 MiB extra RSS */
#define IDLE_NS 50000000L /* the output thread's wait when the queue is empty */
#define BUF_INITIAL (((size_t)1 << 20) + 65536)
#define FREE_MAX 8
#define TM_BYTES ((size_t)W15_TM_CAP * sizeof(w15_tmrec_t))

static pthread_mutex_t qlock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t qcond = PTHREAD_COND_INITIALIZER;  /* output thread: work */
static pthread_cond_t qspace = PTHREAD_COND_INITIALIZER; /* producers: room */
static w15_chunk_t *volatile qhead;
static w15_chunk_t *qtail;
static size_t qbytes;
static w15_chunk_t *freelist;
static int nfree;
static w15_chunk_t *volatile cur_chunk; /* popped, not yet written */
static int stopping;
static int open_;           /* the output thread takes chunks */
static _Atomic int frozen;  /* a crash handler is writing the queue out */
static _Atomic uint64_t nwaits; /* pushes that found the queue full and waited */

int w15_queue_fresh(w15_buf_t *buf, w15_tmrec_t **tm)
{
    w15_chunk_t *c = NULL;
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

static void chunk_free(w15_chunk_t *c)
{
    w15_buf_free(&c->buf);
    free(c->tm);
    free(c);
}

void w15_queue_push(w15_buf_t *buf, w15_tmrec_t *tm, uint32_t ntm, void *zone, int flags)
{
    w15_chunk_t *c = malloc(sizeof *c);
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
        w15_queue_recycle(c);
        return;
    }
    size_t n = c->buf.committed + (size_t)ntm * sizeof *tm;
    int wait = flags & W15_PUSH_WAIT;
    pthread_mutex_lock(&qlock);
    if (atomic_load(&frozen)) {
        /* a crash handler is writing the queue out: the process is dying,
         * and it may be reading this memory; leave it alone */
        pthread_mutex_unlock(&qlock);
        return;
    }
    if (!open_) {
        pthread_mutex_unlock(&qlock);
        chunk_free(c);
        return;
    }
    if (wait && !stopping && qbytes > 0 && qbytes + n > QUEUE_MAX)
        atomic_fetch_add_explicit(&nwaits, 1, memory_order_relaxed);
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

uint64_t w15_queue_waits(void)
{
    return atomic_load_explicit(&nwaits, memory_order_relaxed);
}

void w15_queue_recycle(w15_chunk_t *c)
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

void w15_queue_open(void)
{
    pthread_mutex_lock(&qlock);
    open_ = 1;
    pthread_mutex_unlock(&qlock);
}

void w15_queue_stop(void)
{
    pthread_mutex_lock(&qlock);
    stopping = 1;
    pthread_cond_broadcast(&qcond);
    pthread_cond_broadcast(&qspace);
    pthread_mutex_unlock(&qlock);
}

int w15_queue_stopping(void)
{
    return __atomic_load_n(&stopping, __ATOMIC_RELAXED);
}

void w15_queue_close(void)
{
    pthread_mutex_lock(&qlock);
    open_ = 0;
    pthread_mutex_unlock(&qlock);
}

enum w15_take w15_queue_take(w15_chunk_t **out, int wait)
{
    pthread_mutex_lock(&qlock);
    if (!qhead && !stopping) {
        if (!wait) {
            pthread_mutex_unlock(&qlock);
            return W15_TAKE_EMPTY;
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
    w15_chunk_t *c = qhead;
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
    *out = c;
    return c ? W15_TAKE_CHUNK : stop ? W15_TAKE_STOP : W15_TAKE_IDLE;
}

void w15_queue_written(void)
{
    cur_chunk = NULL;
}

void w15_queue_freeze(void)
{
    atomic_store(&frozen, 1);
}

void w15_queue_crash_each(void (*fn)(const w15_chunk_t *c, void *arg), void *arg)
{
    w15_chunk_t *cc = cur_chunk;
    if (cc)
        fn(cc, arg);
    for (w15_chunk_t *c = __atomic_load_n(&qhead, __ATOMIC_ACQUIRE); c; c = __atomic_load_n(&c->next, __ATOMIC_ACQUIRE))
        fn(c, arg);
}

void w15_queue_forget(void)
{
    open_ = 0;
    qhead = NULL;
    qtail = NULL;
    qbytes = 0;
}
