/* queue.h -- the chunk queue between the GL threads and the output
 * thread.  Owns the FIFO of finished chunks (a thread's encoded calls and
 * its timing records), bounded to 32 MiB of bytes and records (a producer
 * waits while it is full), the chunk being written (popped, not yet done),
 * the free list of recycled buffers, and whether the queue takes chunks at
 * all (open from the output thread's start to its stop; frozen by a crash
 * handler).  May use state (w15_fail), tmrec and log.  Must never use
 * thread, output, record or timing: the producers and the consumer use the
 * queue, the queue knows neither. */
#ifndef W15_QUEUE_H
#define W15_QUEUE_H

#include <stddef.h>
#include <stdint.h>

#include "tmrec.h"
#include "wip15/format.h"

typedef struct w15_chunk {
    struct w15_chunk *next;
    w15_buf_t buf;     /* the thread's encoded calls, up to buf.committed */
    w15_tmrec_t *tm;   /* W15_TM_CAP records, or NULL */
    uint32_t ntm;      /* records in tm */
    int flags;         /* W15_PUSH_RETIRE */
    void *zone;        /* the thread's timing zones (timing.c), or NULL */
} w15_chunk_t;

/* Producers.  Append a chunk: buf's committed bytes and the timing records
 * tm[0..ntm) of `zone`.  W15_PUSH_WAIT: block while the queue is over its
 * limit (never from the output thread).  W15_PUSH_RETIRE: the thread exits,
 * its zone retires after these records.  Takes ownership of buf's memory
 * (buf is zeroed) and of tm (a W15_TM_CAP array from w15_queue_fresh, or
 * NULL); a closed or frozen queue drops them. */
#define W15_PUSH_WAIT 1
#define W15_PUSH_RETIRE 2
void w15_queue_push(w15_buf_t *buf, w15_tmrec_t *tm, uint32_t ntm, void *zone, int flags);
/* A recycled (empty) buffer, or a new one; with tm, also an array of
 * W15_TM_CAP timing records into *tm.  0, or -1 with nothing allocated. */
int w15_queue_fresh(w15_buf_t *buf, w15_tmrec_t **tm);

/* The consumer (the output thread). */
void w15_queue_open(void);  /* take chunks from now on */
void w15_queue_stop(void);  /* wake everyone: take drains what is left, then says STOP */
void w15_queue_close(void); /* take nothing any more (after the consumer stopped) */
int w15_queue_stopping(void); /* w15_queue_stop was called */
enum w15_take { W15_TAKE_CHUNK, W15_TAKE_EMPTY, W15_TAKE_IDLE, W15_TAKE_STOP };
/* The oldest chunk into *c (CHUNK; it becomes the current chunk); EMPTY
 * when there is none and `wait` is 0; IDLE when there was none for ~50 ms;
 * STOP when stopping and empty. */
enum w15_take w15_queue_take(w15_chunk_t **c, int wait);
/* How many pushes so far found the queue full and waited (the producers
 * are then faster than the output thread). */
uint64_t w15_queue_waits(void);
/* The current chunk is written: it is no longer current. */
void w15_queue_written(void);
/* Keep a written chunk's memory for w15_queue_fresh, or free it. */
void w15_queue_recycle(w15_chunk_t *c);

/* Crash (async-signal-safe): from now on producers leave the queue alone;
 * then each pending chunk, oldest first (the current one, then the queue),
 * is passed to fn. */
void w15_queue_freeze(void);
void w15_queue_crash_each(void (*fn)(const w15_chunk_t *c, void *arg), void *arg);
/* Forked child: forget the parent's chunks (no frees, no writes). */
void w15_queue_forget(void);

#endif
