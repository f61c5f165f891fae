/* rp.h -- what the modules of libwip15replay share.
 *
 * Owns: the replay state (rp_state_t), the per-thread executor (rp_exec_t),
 * the decoded call (rp_call_t), contexts and surfaces (rp_ctx_t,
 * rp_surface_t), and the module interfaces below.
 * Used by: every file of src/replay/.
 * Must never: include GL/GLX/EGL system headers (wsi.c alone does) or the
 * generated protos.h (only the generated table does).
 *
 * Modules:
 *   replay.c   the driver: streams the trace, maps declared functions to
 *              the generated table, dispatches calls to threads, frames,
 *              progress, statistics, the end.
 *   decode.c   recorded values -> C arguments (rp_call_t), the roles after
 *              the call (names created/deleted, locations, programs in use).
 *   names.c    one remapping mechanism: recorded value -> replayed value
 *              per namespace (rp_names_t), scopes (share group / context /
 *              window system).
 *   threads.c  one OS thread per traced thread; the scheduler: each
 *              thread's calls in their recorded order, the synchronising
 *              calls of all threads in wip15.gseq order.
 *   wsi.c      the hand-written replay of GLX and EGL (contexts, surfaces,
 *              MakeCurrent, swaps) on headless EGL or GLX windows, and the
 *              GL function addresses.
 *   frames.c   frame checksums (XXH3, MD5) and PNG snapshots.
 *   check.c    --check: readback digests, frame digests, glGetError values.
 *   mem.c      client memory from the trace (wip15ClientMemory and
 *              wip15ClientArray) and mapped-buffer writes (wip15BufferWrite).
 *   rtiming.c  --timing: the replay's WTF trace (CPU time per call, GPU
 *              time per draw from timer queries).
 *   arena.c    per-call scratch memory (no malloc per call).
 */
#ifndef RP_RP_H
#define RP_RP_H

#include <pthread.h>
#include <semaphore.h>
#include <stddef.h>
#include <stdint.h>

#include "apitable.h"
#include "replay.h"
#include "table.h"
#include "wip15/format.h"

#define RP_PREFIX "wip15 replay: "
#define RP_MAX_ARGS 32

/* ---- arena.c: per-call scratch ---------------------------------------- */
typedef struct rp_arena {
    uint8_t *base;
    size_t used, cap;
    uint8_t **big;     /* blocks beyond the first (freed at reset) */
    size_t nbig, bigcap;
} rp_arena_t;
/* 16-byte aligned memory valid until rp_arena_reset; NULL when out of memory. */
void *rp_arena_alloc(rp_arena_t *a, size_t n);
void rp_arena_reset(rp_arena_t *a);
void rp_arena_free(rp_arena_t *a);

/* ---- names.c ------------------------------------------------------------ */
/* A map uint64 -> uint64; absent keys map to themselves (a name used
 * without being created keeps its number). */
typedef struct rp_names {
    uint64_t *dense;   /* key < ndense: value + 1 (0 = absent) */
    uint32_t ndense;
    uint64_t *keys, *vals; /* open addressing, key 0 never stored here */
    uint8_t *used;
    uint32_t mask, n;
    uint32_t changed;  /* entries whose value differs from the key */
} rp_names_t;
static inline uint64_t rp_names_get(const rp_names_t *m, uint64_t k);
uint64_t rp_names_get_slow(const rp_names_t *m, uint64_t k);
/* 0, or -1 when out of memory. */
int rp_names_put(rp_names_t *m, uint64_t k, uint64_t v);
void rp_names_del(rp_names_t *m, uint64_t k);
/* Whether the map holds k. */
int rp_names_has(const rp_names_t *m, uint64_t k);
void rp_names_free(rp_names_t *m);

static inline uint64_t rp_names_get(const rp_names_t *m, uint64_t k)
{
    if (k < m->ndense) {
        uint64_t v = m->dense[k];
        return v ? v - 1 : k;
    }
    return m->n ? rp_names_get_slow(m, k) : k;
}

/* Objects shared by the contexts of a share group. */
typedef struct rp_share {
    rp_names_t ns[W15_GROUP_TYPE_COUNT_];
    rp_names_t locs;   /* (kind, program, recorded location) -> replayed */
    int refs;
} rp_share_t;

/* ---- contexts and surfaces (wsi.c) ------------------------------------ */
typedef struct rp_surface {
    void *egl;          /* EGLSurface (headless) */
    unsigned long xwin; /* X window (--window) */
    unsigned long glxwin; /* its GLXWindow, when the program made one
                             (glXCreateWindow): Mesa keeps a GLX window's
                             buffers across MakeCurrent on other drawables */
    int glx_window;     /* recorded from glXCreateWindow */
    int width, height;  /* its recorded size */
    int real_w, real_h; /* the size of the replay's drawable (0: none yet) */
    int guessed;        /* size not known yet: taken from the first viewport */
    void *config;       /* the rp_config_t of the context it was made for */
    void *rec_config;   /* the rp_config_t it was created with (EGL): a
                           context without a config (EGL_NO_CONFIG_KHR)
                           draws into a drawable of this one */
    void *native_cfg;   /* the EGLConfig / GLXFBConfig it was made with: a
                           context of another rp_config_t that maps to the
                           same one shares the surface (several contexts
                           drawing into one window) */
    int dead;
    int window;         /* recorded as a window (has a front buffer), not a pbuffer */
    int colorspace;     /* EGL_GL_COLORSPACE of the recorded surface (0: none given) */
    int tex_format, tex_target, mipmap; /* EGL_TEXTURE_FORMAT/_TARGET, EGL_MIPMAP_TEXTURE (eglBindTexImage) */
    int largest;        /* EGL_LARGEST_PBUFFER: the driver's size, at most the one asked */
    int render_buffer;  /* EGL_RENDER_BUFFER of a recorded EGL window (0: none given) */
    uint64_t born;      /* rp_state_t.calls when its X window was made (--window) */
} rp_surface_t;

typedef struct rp_ctx {
    void *handle;       /* EGLContext or GLXContext of the replay (NULL: not
                           created yet: contexts are created at their first
                           MakeCurrent, once wip15ContextConfig is known) */
    uint64_t traced;    /* the recorded handle */
    rp_share_t *share;
    struct rp_ctx *share_ctx; /* the context it shares with (created first) */
    rp_names_t ns[W15_GROUP_TYPE_COUNT_]; /* per-context namespaces */
    int api;            /* RP_API_* */
    int major, minor;   /* requested version (0: any) */
    int profile;        /* 1 core, 2 compatibility, 0 unspecified */
    int flags;          /* EGL_CONTEXT_OPENGL_*: debug, forward compatible, robust */
    int es;             /* an OpenGL ES context */
    int glx;            /* a GLX context (--window), else EGL */
    int glx_rec;        /* recorded as a GLX context (--window would make it one) */
    int failed;         /* creation failed (warned once) */
    uint32_t create_fn; /* the function that created it (warnings) */
    void *config;
    int noconfig;       /* created with EGL_NO_CONFIG_KHR, as the program's
                           was: each drawable of its own recorded config */
    rp_surface_t *draw, *read;
    uint64_t program;   /* replayed name of the program in use */
    int bound;          /* current on some thread */
    int ever_bound;     /* made current at least once */
    /* --check: the GL error a read-back call raised, taken with glGetError
     * to tell (check.c) and handed to the trace's next glGetError in this
     * context (replay.c) */
    uint32_t pending_error;
    /* first made current on a drawable of guessed size (its size comes
     * with the wip15DrawableSize right after): the default viewport and
     * scissor box are set again to the recorded size if no call ran since
     * (guess_calls: rp_state_t.calls then) */
    int guess_view;
    uint64_t guess_calls;
    /* what the replaying context is (glGetString(GL_VERSION) at its first
     * MakeCurrent) */
    int gl_major, gl_minor, gl_es, gl_known;
    /* frames.c: what the frame reads' state handling may touch
     * (wip15/readstate.h W15_RS_*), asked once */
    uint32_t read_caps;
    int read_caps_known;
    int bgra_read;          /* frames.c: glReadPixels takes GL_BGRA (set with read_caps) */
    void *timing;       /* rtiming.c: timer queries of this context */
} rp_ctx_t;

/* ---- the decoded call --------------------------------------------------- */
struct rp_call {
    const w15_call_t *wc;   /* the recorded call */
    uint32_t fn;            /* index in w15_funcs / rp_funcs */
    uint32_t nargs;
    rp_val_t a[RP_MAX_ARGS];
    rp_val_t r;             /* result of the replayed call */
    uint64_t frame;         /* frame the call belongs to */
    /* --check: the call's wip15.digest entries (NULL when none or no --check) */
    const w15_digest_entry_t *dig;
    uint32_t ndig;
    /* and their wip15.spans entries (digests of rows of a packed image) */
    const w15_spans_entry_t *spn;
    uint32_t nspn;
};

/* ---- a call to run (threads.c) ------------------------------------------ */
#define RP_NO_GSEQ UINT64_MAX
typedef struct rp_job {
    struct rp_job *next;    /* queue link (copies only) */
    const w15_call_t *wc;   /* the recorded call (the reader's, or a copy's) */
    uint32_t fn;            /* generated index (pseudo-calls included), or RP_FN_NOOP */
    uint8_t ok;             /* its signature is the generated one */
    uint64_t seq;           /* per-thread sequence number (real calls) */
    uint64_t gseq;          /* wip15.gseq, or RP_NO_GSEQ */
    size_t bytes;           /* size of a copy (0: the reader's call) */
} rp_job_t;

/* ---- per traced thread -------------------------------------------------- */
struct rp_state;
struct rp_exec {
    struct rp_state *st;
    uint64_t tid;           /* traced thread id */
    rp_ctx_t *ctx;          /* current context of this thread */
    rp_arena_t arena;
    int is_main;            /* runs on the reading thread */
    /* threads.c */
    pthread_t thread;
    int started, quit;
    sem_t go, done;
    const rp_job_t *pending;
    int pending_rc;
    rp_job_t *qhead, *qtail; /* calls waiting for their turn (copies) */
    uint64_t next_seq;      /* seq of the thread's next real call */
    char name[32];          /* the traced thread's name (wip15ThreadSwitch) */
    unsigned api_bound;     /* eglBindAPI of this thread (RP_API_*) */
    /* mem.c: client memory recorded for the thread's next real call */
    struct rp_cmem *cmem;
    uint32_t ncmem;         /* its ranges (0: none) */
    /* mem.c: glBegin(begin_mode) held back until the thread's next GL call
     * (begin_held), so that the arrays of a first glArrayElement can still
     * be pointed; in_begin: GL is between glBegin and glEnd */
    int begin_held, in_begin;
    uint32_t begin_mode;
    /* check.c: frame digest readbacks */
    uint8_t *fbuf;
    size_t fcap;
    /* rtiming.c: this thread's zones */
    void *timing;
};

enum { RP_API_GL = 1, RP_API_GLES = 2 };

/* A declared function of the trace. */
typedef struct rp_decl {
    uint32_t fn;            /* generated index, or RP_FN_* */
    uint8_t ok;             /* signature matches the generated table */
    void *addr;             /* resolved real function (NULL: not yet) */
    uint8_t resolved;
} rp_decl_t;
#define RP_FN_UNKNOWN 0xffffffffu
#define RP_FN_TRACE_BEGIN 0xfffffff0u
#define RP_FN_THREAD_SWITCH 0xfffffff1u
#define RP_FN_OTHER_PSEUDO 0xfffffff2u
#define RP_FN_NOOP 0xfffffff3u   /* a job that only takes its place in the order */

typedef struct rp_state {
    const rp_opts_t *o;
    w15_reader_t *rd;
    /* declarations: trace function index -> rp_decl_t */
    rp_decl_t *decls;
    uint32_t ndecls, decap;
    uint32_t *decl_dense;   /* trace index < 65536 -> index into decls + 1 */
    rp_names_t decl_index;  /* larger trace indices -> index into decls + 1 */
    /* real function addresses per generated function */
    void **addr;
    uint8_t *addr_done;
    uint8_t *warned;        /* per generated function: warned once */
    void *zeros;            /* rp_zeros() */
    void **pinned;          /* mem.c: memory GL_AMD_pinned_memory buffers use (lock) */
    uint32_t npinned, pincap;
    uint8_t *plan;          /* decode.c: per parameter (w15_params index) */
    uint8_t *plan_state;    /* per function: 0 not built, 1 general, 2 fast */
    int failed;             /* an error was reported (exit 1) */
    int stop;               /* stop reading (fatal) */
    /* window-system handles (EGL/GLX namespaces) */
    rp_names_t ws[W15_GROUP_TYPE_COUNT_];
    rp_names_t visuals;     /* XVisualInfo * recorded -> config */
    rp_share_t noctx_share; /* names used with no context current */
    rp_names_t noctx_ns[W15_GROUP_TYPE_COUNT_];
    /* threads */
    rp_exec_t **execs;
    uint32_t nexecs;
    rp_exec_t *cur;         /* thread of the calls being read */
    const w15_call_t *cur_call; /* the call being replayed (messages) */
    rp_exec_t *cur_exec;    /* its thread */
    /* the scheduler (threads.c) */
    uint64_t next_gseq;     /* the next synchronising call to run */
    uint64_t nqueued;       /* calls waiting in the executors' queues */
    size_t queued_bytes;
    uint64_t gaps;          /* gseq numbers skipped */
    /* check.c */
    uint64_t chk_readbacks, chk_frames, chk_errors, chk_mismatches;
    uint64_t chk_failed_reads; /* read-backs not compared: the call raised a GL error */
    uint32_t fn_get_error;  /* glGetError's index (UINT32_MAX: none) */
    uint8_t *warned_unreadable; /* per function: wip15.unreadable warned */
    void *timing;           /* rtiming.c: the WTF emitter */
    void *mem;              /* mem.c: GL entry points it uses */
    pthread_mutex_t lock;   /* contexts, warnings, frames (worker threads) */
    /* frames */
    uint64_t frame;         /* frames completed so far */
    uint64_t calls;         /* calls replayed (real functions) */
    uint64_t skipped;       /* calls not replayed */
    uint8_t *pixels;        /* frame readback */
    size_t npixels;
    /* wsi.c */
    void *wsi;
    /* progress */
    double t0, next_progress;
    int progress_shown;        /* a \r line is on the terminal */
    int progress_any;          /* a progress line was printed */
    int progress_tty;          /* stderr is a terminal */
} rp_state_t;

/* ---- replay.c ----------------------------------------------------------- */
/* One warning for function `fn` (printed once per function; under --strict
 * an error).  Returns -1. */
int rp_cannot(rp_exec_t *x, uint32_t fn, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* One warning for function fn, printed once per function; the call is
 * still replayed (not an error under --strict). */
void rp_warn(rp_exec_t *x, uint32_t fn, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* RP_ZEROS bytes of read-only zeros (mapped once, backed by the zero
 * page), given to the driver for client memory the trace does not hold;
 * NULL when the mapping fails. */
#define RP_ZEROS ((size_t)1 << 30)
void *rp_zeros(rp_state_t *st);
/* An error that stops the replay (exit 1). */
void rp_fatal(rp_state_t *st, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A note on stderr unless -q. */
void rp_note(rp_state_t *st, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A note on stderr even with -q (the reason of a failure that does not
 * stop the replay: the first --check mismatch). */
void rp_error_note(rp_state_t *st, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The real address of generated function fn (resolved once), or NULL. */
void *rp_addr(rp_state_t *st, uint32_t fn);
/* Run one recorded call on this thread: decode, call, roles, checks
 * (pseudo-calls: their handler).  0 or -1 (fatal). */
int rp_exec_call(rp_exec_t *x, const rp_job_t *j);
/* Free what an executor holds (arena, client memory, timing zones). */
void rp_exec_free(rp_exec_t *x);
/* Call generated function fn through its thunk with c's arguments. */
int rp_call_real(rp_exec_t *x, rp_call_t *c);

/* ---- decode.c ----------------------------------------------------------- */
/* Fill c->a from the recorded call.  0, 1 = do not replay (warned), -1 fatal. */
int rp_decode(rp_exec_t *x, rp_call_t *c);
/* After the real call: names created/deleted, locations, program in use. */
void rp_roles_after(rp_exec_t *x, rp_call_t *c);
/* Whether the function's signature in the trace is the generated one. */
int rp_signature_ok(const w15_func_t *f, uint32_t fn);
/* The names map of group type gt for this thread's current context. */
rp_names_t *rp_ns(rp_exec_t *x, unsigned gt);

/* ---- threads.c ---------------------------------------------------------- */
/* The executor of traced thread `tid` (created on first use). */
rp_exec_t *rp_thread_get(rp_state_t *st, uint64_t tid);
/* Job j (the reader's current call, or a copy) of traced thread x: run it
 * now when its turn has come (its thread waits for nothing and j->gseq is
 * the next number), else queue a copy.  Then run whatever queued calls can
 * run.  0, or -1 (fatal). */
int rp_sched_call(rp_state_t *st, rp_exec_t *x, const rp_job_t *j);
/* The trace has ended: run every queued call (skipping the gseq numbers
 * that never came).  0 or -1. */
int rp_sched_finish(rp_state_t *st);
/* Stop and join every worker, free every executor. */
void rp_threads_end(rp_state_t *st);

/* ---- wsi.c -------------------------------------------------------------- */
int rp_wsi_init(rp_state_t *st);
void rp_wsi_end(rp_state_t *st);
/* Address of a GL function by name (eglGetProcAddress / glXGetProcAddress). */
void *rp_wsi_proc(rp_state_t *st, const char *name);
/* Whether the trace created the context it recorded as `rec`. */
int rp_wsi_known_context(rp_state_t *st, uint64_t rec);
/* Release the executor's context before its thread ends. */
void rp_wsi_thread_end(rp_exec_t *x);
/* A query of the current context (glGetIntegerv), 0 when no context. */
int64_t rp_gl_get_integer(rp_exec_t *x, uint32_t pname);

/* Parse glGetString(GL_VERSION) of the current context into c->gl_* (once). */
void rp_ctx_version(rp_exec_t *x, rp_ctx_t *c);
/* Handlers of the pseudo-calls wip15ContextConfig and wip15DrawableSize. */
int rp_wsi_context_config(rp_exec_t *x, const rp_call_t *c);
int rp_wsi_drawable_size(rp_exec_t *x, const rp_call_t *c);

/* ---- frames.c ----------------------------------------------------------- */
/* Before the swap that ends frame st->frame on surface s: checksum and
 * snapshot as the options ask.  0, or -1 (error reported). */
int rp_frame_end(rp_exec_t *x, rp_surface_t *s);
void rp_frames_end(rp_state_t *st);
/* Read the current drawable's back buffer (x, y, w, h) with format/type,
 * rows bottom-up and tightly packed, leaving every state it touches as it
 * was: into *out (grown as needed, *cap bytes); returns the byte count, or
 * 0 when format/type are not readable here. */
size_t rp_frames_read(rp_exec_t *x, int w, int h, uint32_t format, uint32_t type, uint8_t **out,
                      size_t *cap);

/* ---- check.c ------------------------------------------------------------ */
void rp_check_init(rp_state_t *st);
/* After the replayed call c: its readback digests and glGetError value. */
void rp_check_call(rp_exec_t *x, const rp_call_t *c);
/* glGetError's address, NULL when the replay has none. */
uint32_t (*rp_check_get_error(rp_state_t *st))(void);
/* Takes the error GL holds in the current context (x->ctx), if any, and
 * keeps it for the program's next glGetError (rp_ctx_t.pending_error,
 * unless one is kept already); returns it, 0 for none.  For the
 * replayer's own GL work that may raise errors: what it raises after
 * this is not the program's. */
uint32_t rp_check_keep_error(rp_exec_t *x);
/* Drops the errors GL holds (the replayer's own, after rp_check_keep_error). */
void rp_check_drop_errors(rp_exec_t *x);
/* The pseudo-call wip15FrameDigest. */
int rp_check_frame_digest(rp_exec_t *x, const rp_call_t *c);
/* The last line of --check.  Returns 1 when something mismatched. */
int rp_check_end(rp_state_t *st);

/* ---- mem.c -------------------------------------------------------------- */
int rp_mem_init(rp_state_t *st);
void rp_mem_end(rp_state_t *st);
/* Pseudo-calls wip15ClientMemory, wip15ClientMemorySame, wip15ClientArray,
 * wip15BufferWrite. */
int rp_mem_client_memory(rp_exec_t *x, const rp_call_t *c);
int rp_mem_client_memory_same(rp_exec_t *x, const rp_call_t *c);
int rp_mem_client_array(rp_exec_t *x, const rp_call_t *c);
/* wip15ClientArray as traces before 2026-11-24 recorded it (a pointer,
 * not memory and offset): also replayed. */
int rp_mem_client_array_old(const w15_func_t *f);
int rp_mem_buffer_write(rp_exec_t *x, const rp_call_t *c);
/* Before a draw (decoded: c->a): 0 when every client array it reads and
 * its indices and indirect commands in client memory lie within the copies
 * the replay gave GL; 1 when not (rp_cannot: the call is not replayed). */
int rp_mem_check_draw(rp_exec_t *x, rp_call_t *c);
/* The replay's copy of recorded client address p (inside a
 * wip15ClientMemory range of this thread's coming call), or NULL. */
void *rp_mem_translate(rp_exec_t *x, uint64_t p);
/* Before the real call c: glBufferData*(GL_EXTERNAL_VIRTUAL_MEMORY_BUFFER_AMD,
 * size, data) makes `data` the buffer's memory (GL_AMD_pinned_memory): the
 * recorded bytes are given in page-aligned memory of the replay's own,
 * kept until the replay ends.  0, or -1 (out of memory, reported). */
int rp_mem_pin(rp_exec_t *x, rp_call_t *c);
/* After each real call fn: the thread's client memory is used up. */
void rp_mem_after_call(rp_exec_t *x, uint32_t fn);
/* glBegin/glEnd and glArrayElement.  GL refuses to re-point an array
 * between glBegin and glEnd (GL_INVALID_OPERATION), so a glArrayElement
 * there cannot be given its element the way a draw is: rp_mem_begin holds
 * glBegin back (1: do not call it now), rp_mem_before_call issues it
 * before the thread's next GL call, after the first glArrayElement's
 * arrays were pointed at windows of the replay's own (one per array, the
 * element at its offset from the array's base); later elements are copied
 * into the windows and no GL call is made for them (rp_mem_after_call
 * notes glEnd). */
int rp_mem_begin(rp_exec_t *x, rp_call_t *c);
void rp_mem_before_call(rp_exec_t *x);
/* Call fn set a client array's pointer (parameter param) into client
 * memory the trace does not hold: harmless when every draw that reads it
 * comes with wip15ClientArray; the next draw of this thread without one
 * warns. */
void rp_mem_client_pointer(rp_exec_t *x, uint32_t fn, uint32_t param);
void rp_mem_exec_free(rp_exec_t *x);

/* ---- rtiming.c ---------------------------------------------------------- */
/* --timing: open the WTF file (0, or -1 with the error reported). */
int rp_timing_start(rp_state_t *st);
void rp_timing_end(rp_state_t *st);
/* Around one real call (j: its job); the handle returned by _pre goes to
 * _post.  Frame ends: rp_timing_frame. */
uint64_t rp_timing_pre(rp_exec_t *x, const rp_job_t *j, uint32_t fn);
void rp_timing_post(rp_exec_t *x, const rp_job_t *j, uint32_t fn, uint64_t t0);
/* The context ctx (current on x) stops being current: the GPU results
 * that are ready (all of them, waiting for the GPU, when `wait`: the end). */
void rp_timing_release(rp_exec_t *x, rp_ctx_t *ctx, int wait);
void rp_timing_exec_free(rp_exec_t *x);

#endif
