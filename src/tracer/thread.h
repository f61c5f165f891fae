/* thread.h -- the per-thread state of the tracer.  Owns every GL thread's
 * w15_thread_t (reached inline through an initial-exec TLS pointer: the
 * fast path reads it), its encoding buffer and timing-record array, the
 * hand-over of full buffers ("chunks") to the queue, the registry of live
 * threads and the stealing of idle threads' buffers (thread.c explains the
 * protocol).  Fields that other modules keep per thread live here too, each
 * marked with its owner.  May use state, queue, tmrec, log, and runtime
 * only for the lazy start (the first GL call starts the tracer).  Must
 * never use record, timing, output or context: they use threads. */
#ifndef W15_THREAD_H
#define W15_THREAD_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "attrs.h"
#include "tmrec.h"
#include "wip15/format.h"

/* A chunk is handed over after the call that makes it reach this. */
#define W15_CHUNK_LIMIT ((size_t)1 << 20)
/* Every thread buffer has at least this capacity, so the fast path's single
 * check (len + max < W15_CHUNK_LIMIT) also proves room. */
#define W15_FAST_CAP_MIN (W15_CHUNK_LIMIT + 4096)
/* wip15.ptr entries one call can record (record.c). */
#define W15_MAX_PTR_EXTRA 16
#define W15_MAX_SPANS 2
/* Bytes of w15_thread_t.guard (guard.c). */
#define W15_GUARD_STATE 256

typedef struct w15_thread {
    /* hot: touched by every call */
    _Atomic uint32_t in_call;   /* inside one of our wrappers (reentrancy, steal protocol) */
    _Atomic uint32_t steal_req; /* the output thread wants this buffer */
    uint32_t epoch;             /* flush epoch this buffer belongs to */
    w15_tmrec_t *tm;            /* timing records of this chunk (NULL: timing off) */
    w15_tmrec_t *tm_cur;        /* next record: [tm, tm_cur) are complete (release-published) */
    w15_tmrec_t *tm_lim;        /* the fast path records while tm_cur < tm_lim (tm until
                                 * the thread's zone exists, then tm + W15_TM_SUBMIT) */
    uint32_t nptr;              /* record.c: entries in ptrx for the current call */
    uint64_t seq;               /* record.c: number of calls recorded so far */
    w15_buf_t buf;              /* committed = end of the last complete call */
    size_t call_start;          /* record.c: offset of the current call's opcode */
    uint32_t pre_complete;      /* record.c: all inputs of the current call are encoded */
    uint32_t cur_id;            /* record.c: the current call's function */
    w15_ptr_entry_t ptrx[W15_MAX_PTR_EXTRA]; /* record.c: the current call's wip15.ptr entries */

    /* cold */
    uint32_t tid;
    void *context;              /* context.c: current per the last successful MakeCurrent */
    struct w15_ctx *ctx;        /* context.c: its record (context.h), NULL when none */
    int ctx_kind;               /* context.c: 0 unknown, else cached API/version */
    int ctx_major, ctx_minor;
    void *wtf_zone;             /* timing.c: the thread's zones, once it has records */
    void *gpu;                  /* timing.c: GPU timer queries of the current context (malloc'd) */
    void *cmem_slots;           /* arrays.c: client memory written recently (malloc'd) */
    void *rb_hash;              /* record.c: read-back digests' hash state (fhash.h; free()) */
    /* present.c: the image of the swap under way to hash (present.h) */
    void *pr_dpy;
    int32_t pr_w, pr_h;
    uint32_t pr_state;          /* 0 none, 1 asked for, 2 hashed */
    uint64_t pr_digest;
    void *pr_hash;              /* its hash state (fhash.h; free()) */
    /* present.c: the drawable whose size the driver may ask for */
    void *pg_dpy;
    uint64_t pg_draw;
    int32_t pg_w, pg_h;
    uint32_t pg_state;          /* 0 none, 1 watching, 2 seen */
    uint32_t group_depth;       /* timing.c: open named scopes (debug groups) */
    uint32_t wtf_frame;         /* timing.c: number of this thread's open frame (per zone) */
    uint64_t t_first;           /* timing.c: ticks at the thread's first GL call (frame 0 starts) */
    size_t pseudo_start;        /* pseudo.c: offset of the pseudo-call being written */
    /* record.c: the current call's capture extras (docs/FORMAT.md), filled
     * by record.c and capture.c between w15_pre and w15_post */
    uint32_t noff, nunr, ndig, has_gseq;
    uint32_t rejected;          /* record.c: GL rejects the current call (an OUTSIDE_BEGIN
                                 * command between glBegin and glEnd): its pointers are
                                 * recorded without contents, no capture hook runs */
    w15_offset_entry_t xoff[W15_MAX_PTR_EXTRA];
    w15_ptr_entry_t xunr[W15_MAX_PTR_EXTRA];
    w15_digest_entry_t xdig[W15_MAX_PTR_EXTRA];
    uint32_t nspn;                              /* record.c: wip15.spans entries */
    w15_spans_entry_t xspn[W15_MAX_SPANS];
    uint64_t gseq;
    /* guard.c: its per-thread state (a sigjmp_buf and the armed range),
     * opaque here; guard.c checks that it fits */
    _Alignas(16) unsigned char guard[W15_GUARD_STATE];
    struct w15_thread *next, *prev; /* registry (w15_threads_lock) */
    int dead;
} w15_thread_t;

/* A fresh (or emptied) timing array: no records; the fast path records
 * once the thread's zone exists. */
static inline void w15_tm_reset(w15_thread_t *t)
{
    t->tm_cur = t->tm;
    t->tm_lim = t->tm && t->wtf_zone ? t->tm + W15_TM_SUBMIT : t->tm;
}
/* Number of complete timing records of a thread's array. */
#define W15_TM_COUNT(t) ((uint32_t)(__atomic_load_n(&(t)->tm_cur, __ATOMIC_ACQUIRE) - (t)->tm))

/* The calling thread's state; NULL until its first call went through
 * w15_pre (which creates it), and when the tracer is off. */
extern __thread w15_thread_t *w15_tls __attribute__((tls_model("initial-exec"))) W15_HIDDEN;

/* The calling thread's state, creating it (and starting the tracer) on the
 * first call.  NULL when the tracer is off or this thread is exiting. */
w15_thread_t *w15_thread_slow(void);
/* Whether new thread buffers get a timing-record array (timing on); set
 * once at start, before any thread is created. */
void w15_threads_set_records(int on);

/* Hand the thread's committed bytes to the output queue and give it a fresh
 * buffer.  Called by the owner outside of encoding.  Keeps errno. */
void w15_thread_submit(w15_thread_t *t) W15_HIDDEN;

/* The calling thread's name (prctl PR_GET_NAME), into 17 bytes. */
void w15_thread_name(char *name);

W15_INLINE void w15_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#else
    __asm__ __volatile__("" ::: "memory");
#endif
}

/* Registry of live threads; lock around walks. */
extern pthread_mutex_t w15_threads_lock;
extern w15_thread_t *w15_threads;

/* Take the committed bytes of every thread that is not inside a call (all
 * threads at exit; idle ones otherwise) into the queue.  `all`: also wait
 * for threads inside a call (bounded).  Output-thread or exit use only. */
void w15_threads_collect(int all);

/* Crash (async-signal-safe): keep t's buffer out of the output thread's
 * reach (an idle-buffer steal must not swap it while a signal handler
 * writes it out): t counts as inside a call from now on, and a steal under
 * way is waited for (at most ~0.5 s).  Returns whether t was inside a call. */
int w15_thread_hold(w15_thread_t *t);

/* membarrier-based asymmetric fence (thread.c explains); without
 * membarrier idle threads are collected only at exit. */
extern int w15_have_membarrier;
void w15_heavy_fence(void);

#endif
