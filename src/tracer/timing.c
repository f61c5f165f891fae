/* timing.c -- the timing hooks: what the recorder tells the WTF emitter
 * (src/wtf/wtf_emitter.h) per WIP15_TIMING level.
 *   frames: frameStart/frameEnd around frame-ending calls on the swapping
 *           thread, debug groups as named scopes, markers as time stamps
 *   draws:  + a scope for each draw, upload, readback, clear, compile, link,
 *           sync and frame-end call
 *   all:    + a scope for every recorded call
 * Call scopes carry the call's per-thread sequence number ("call"), the
 * number in the WIP15 trace (wip15ThreadSwitch.first_seq + position).
 * One zone per thread, named "<tid>:<thread name>".
 *
 * Two sides.  A GL thread only appends records (tmrec.h w15_tmrec_t: raw
 * clock ticks, no formatting) to the array that travels with its chunk;
 * the fast path does that inline for call scopes.  The output thread
 * converts each chunk's records into the zone's events and writes them
 * (w15_timing_feed), after the chunk's WIP15 bytes.  So a zone has one
 * writer, and the GL thread pays two clock reads and a few stores per
 * timed call (docs/PERFORMANCE.md "Timing"). */
#include "timing.h"
#include "config.h"
#include "context.h"
#include "log.h"
#include "resolve.h"
#include "funcs.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wtf_emitter.h"
#include "clock.h"

int w15_timing_on;
uint32_t w15_timing_mask;

static w15_wtf_t *wtf;

/* fork(): the child must never write into the parent's timing file (same
 * descriptors, the parent's zones).  Drop the emitter without closing it;
 * the tracer itself stops recording in the child (runtime.c). */
static void timing_in_child(void)
{
    w15_timing_on = 0;
    w15_timing_mask = 0;
    __atomic_store_n(&wtf, NULL, __ATOMIC_RELEASE);
}

void w15_timing_start(const char *wtf_path, const char *wip15_path)
{
    w15_wtf_info_t info;
    memset(&info, 0, sizeof info);
    extern char *program_invocation_name;
    info.program = program_invocation_name;
    info.tracer_version = W15_TRACER_VERSION;
    info.wip15_path = wip15_path;
    char err[256] = "";
    wtf = w15_wtf_open(wtf_path, &info, err, sizeof err);
    if (!wtf) {
        w15_msg("cannot write timing file %s: %s; timing off", wtf_path, err);
        return;
    }
    switch (w15_cfg.timing) {
    case W15_TIMING_FRAMES:
        w15_timing_mask = W15_FN_FRAME_END | W15_FN_GROUP_PUSH | W15_FN_GROUP_POP | W15_FN_MARKER;
        break;
    case W15_TIMING_DRAWS:
        w15_timing_mask = W15_FN_DRAWS_MASK | W15_FN_GROUP_PUSH | W15_FN_GROUP_POP | W15_FN_MARKER;
        break;
    case W15_TIMING_ALL:
        w15_timing_mask = 0xffffffffu;
        break;
    default:
        w15_timing_mask = 0;
        break;
    }
    w15_ticks_init();
    w15_timing_on = 1;
    pthread_atfork(NULL, NULL, timing_in_child);
}

void w15_timing_thread_start(w15_thread_t *t)
{
    if (__atomic_load_n(&wtf, __ATOMIC_ACQUIRE))
        t->t_first = w15_ticks();
}

/* ------------------------------------------------------------------ */
/* The GL thread's side: records (tmrec.h w15_tmrec_t)                 */

/* Room for n records in t's array, or NULL (no array, or full: the record
 * is dropped; the chunk is handed over at W15_TM_SUBMIT, so this happens
 * only when handing over failed). */
static inline w15_tmrec_t *tm_room(w15_thread_t *t, uint32_t n)
{
    if (W15_UNLIKELY(!t->tm || (size_t)(t->tm_cur - t->tm) + n > W15_TM_CAP))
        return NULL;
    return t->tm_cur;
}

static inline void tm_commit(w15_thread_t *t, uint32_t n)
{
    __atomic_store_n(&t->tm_cur, t->tm_cur + n, __ATOMIC_RELEASE);
}

static void tm_put(w15_thread_t *t, uint32_t kind, uint32_t arg, uint64_t ticks)
{
    w15_tmrec_t *r = tm_room(t, 1);
    if (!r)
        return;
    r->kind = kind;
    r->arg = arg;
    r->t0 = ticks;
    r->t1 = 0;
    tm_commit(t, 1);
}

#define NAME_MAX_BYTES 1024u

/* A record with a name: the name's bytes fill the records after it. */
static void tm_put_named(w15_thread_t *t, uint32_t kind, const char *s, size_t len, uint64_t ticks)
{
    if (len > NAME_MAX_BYTES)
        len = NAME_MAX_BYTES;
    uint32_t extra = (uint32_t)((len + sizeof(w15_tmrec_t) - 1) / sizeof(w15_tmrec_t));
    w15_tmrec_t *r = tm_room(t, 1 + extra);
    if (!r)
        return;
    r->kind = kind;
    r->arg = (uint32_t)len;
    r->t0 = ticks;
    r->t1 = 0;
    memcpy(r + 1, s, len);
    tm_commit(t, 1 + extra);
}

/* A thread's zones (t->wtf_zone, and what a chunk carries to
 * w15_timing_feed): its timeline, and the GPU timeline of the contexts it
 * swaps, created at its first GPU time.  Freed at w15_timing_stop. */
typedef struct tzones {
    w15_wtf_zone_t *cpu;
    w15_wtf_zone_t *gpu; /* published (release) before the first GPU record */
    char name[64];
    struct tzones *next;
} tzones_t;
static tzones_t *all_tzones;
static pthread_mutex_t tzones_lock = PTHREAD_MUTEX_INITIALIZER;

/* The thread's zones, created at its first record; frame 0 starts at the
 * thread's first GL call.  Then the fast path may record call scopes. */
static tzones_t *zone(w15_thread_t *t)
{
    if (W15_LIKELY(t->wtf_zone != NULL))
        return t->wtf_zone;
    w15_wtf_t *w = __atomic_load_n(&wtf, __ATOMIC_ACQUIRE);
    if (!w || !t->tm)
        return NULL;
    tzones_t *tz = calloc(1, sizeof *tz);
    if (!tz)
        return NULL;
    char tn[17] = { 0 };
    w15_thread_name(tn);
    snprintf(tz->name, sizeof tz->name, "%u:%s", t->tid, tn);
    tz->cpu = w15_wtf_zone_create(w, tz->name, "script");
    if (!tz->cpu) {
        free(tz);
        return NULL;
    }
    pthread_mutex_lock(&tzones_lock);
    tz->next = all_tzones;
    all_tzones = tz;
    pthread_mutex_unlock(&tzones_lock);
    t->wtf_zone = tz;
    t->wtf_frame = 0;
    tm_put(t, W15_TM_FRAME_START, 0, t->t_first);
    t->tm_lim = t->tm + W15_TM_SUBMIT; /* the fast path may record now */
    return tz;
}

/* The string argument of a group / marker call and its length. */
static const char *str_arg(uint32_t id, const w15_slot_t *args, size_t *len)
{
    const w15_func_sig_t *f = &w15_funcs[id];
    const w15_param_sig_t *ps = &w15_params[f->first_param];
    for (unsigned i = 0; i < f->nparams; i++) {
        if (ps[i].cap != W15_CAP_STR_IN && ps[i].cap != W15_CAP_DATA_IN)
            continue;
        const char *s = args[i].p;
        if (!s)
            return NULL;
        int64_t n = -1;
        if (ps[i].len_op == W15_LEN_PARAM && ps[i].len_a < f->nparams)
            n = args[ps[i].len_a].i;
        *len = n > 0 ? (size_t)n : strnlen(s, NAME_MAX_BYTES);
        return s;
    }
    return NULL;
}

static void gpu_frame_end(w15_thread_t *t);
static void gpu_frame_start(w15_thread_t *t);

void w15_timing_declare(uint32_t id, uint32_t flags)
{
    w15_wtf_t *w = __atomic_load_n(&wtf, __ATOMIC_ACQUIRE);
    int lvl = w15_cfg.timing;
    if (w && (lvl == W15_TIMING_ALL || (lvl == W15_TIMING_DRAWS && (flags & W15_FN_DRAWS_MASK))))
        w15_wtf_call_event(w, id, w15_str(w15_funcs[id].name));
}

int w15_timing_pre(w15_thread_t *t, uint32_t id, uint32_t flags, const w15_slot_t *args)
{
    if (!zone(t))
        return 0;
    if (W15_UNLIKELY(flags & W15_FN_FRAME_END)) {
        int e = errno;
        gpu_frame_end(t);
        errno = e;
    }
    uint64_t now = w15_ticks();
    int open = 0;
    if (flags & (W15_FN_GROUP_PUSH | W15_FN_MARKER)) {
        size_t n = 0;
        const char *s = str_arg(id, args, &n);
        int push = (flags & W15_FN_GROUP_PUSH) != 0;
        if (!s)
            s = push ? "group" : "marker", n = strlen(s);
        tm_put_named(t, push ? W15_TM_GROUP_PUSH : W15_TM_MARKER, s, n, now);
        if (push)
            t->group_depth++;
    }
    int lvl = w15_cfg.timing;
    if (lvl == W15_TIMING_ALL || (lvl == W15_TIMING_DRAWS && (flags & W15_FN_DRAWS_MASK))) {
        /* the call's record, completed (and committed) by w15_timing_post:
         * nothing else is recorded by this thread in between */
        w15_tmrec_t *r = tm_room(t, 1);
        if (r) {
            r->kind = id;
            r->arg = (uint32_t)t->seq;
            r->t0 = now;
            open = 1;
        }
    }
    return open;
}

void w15_timing_post(w15_thread_t *t, int scope_open, uint32_t flags)
{
    if (!t->wtf_zone || !t->tm)
        return;
    uint64_t now = w15_ticks();
    if (scope_open) {
        t->tm_cur->t1 = now;
        tm_commit(t, 1);
    }
    if ((flags & W15_FN_GROUP_POP) && t->group_depth) {
        t->group_depth--;
        tm_put(t, W15_TM_GROUP_POP, 0, now);
    }
    if (flags & W15_FN_FRAME_END) {
        /* frames are numbered per thread (= per zone): the loader pairs
         * frameStart/frameEnd by number within a zone */
        tm_put(t, W15_TM_FRAME, t->wtf_frame, now);
        t->wtf_frame++;
        if (t->gpu) {
            int e = errno;
            gpu_frame_start(t);
            errno = e;
        }
    }
}

/* ------------------------------------------------------------------ */
/* GPU time (docs/WTF.md "GPU time")                                    */
/*
 * Per frame, two GL_TIMESTAMP queries in the swapping thread's current
 * context: one right after the previous swap (the frame's first command
 * reaches the GPU) and one right before this swap (its last command is
 * done).  Results are read only when GL_QUERY_RESULT_AVAILABLE says so, a
 * few frames later: nothing waits for the GPU.  With GPU_SLOTS frames in
 * flight and none ready, the next frame is not measured.
 *
 * Only our own query names, made with glGenQueries in that context (the app
 * may see other names from its own later glGenQueries); no query of the
 * app's is touched; only calls that cannot raise a GL error in that
 * API/version (we never call glGetError); results are not read while a
 * GL_QUERY_BUFFER is bound (they would go into the app's buffer).  GLES
 * needs GL_EXT_disjoint_timer_query; its GPU_DISJOINT flag is not read (it
 * resets when read: the app's own check would miss it), implausible results
 * are dropped instead.  A MakeCurrent ends the measurement in the old
 * context (w15_timing_gpu_release) and it starts again in the new one.
 */
#define GPU_SLOTS 8
#define GPU_RESYNC_FRAMES 600 /* re-measure the GPU-to-CPU clock offset */
enum {
    GL_QUERY_RESULT_ = 0x8866, GL_QUERY_RESULT_AVAILABLE_ = 0x8867,
    GL_TIMESTAMP_ = 0x8E28, GL_QUERY_BUFFER_BINDING_ = 0x9193,
};
typedef void (*gen_fn)(int, unsigned *);
typedef void (*del_fn)(int, const unsigned *);
typedef void (*counter_fn)(unsigned, unsigned);
typedef void (*get_uiv_fn)(unsigned, unsigned, unsigned *);
typedef void (*get_ui64v_fn)(unsigned, unsigned, uint64_t *);
typedef void (*get_i64v_fn)(unsigned, int64_t *);
typedef void (*get_iv_fn)(unsigned, int *);
typedef const unsigned char *(*get_string_fn)(unsigned);

typedef struct gpu {
    int state;              /* 0 not set up in this context, 1 measuring, -1 not available */
    int check_qbuf;         /* GL >= 4.4: GL_QUERY_BUFFER may be bound */
    unsigned q[2 * GPU_SLOTS]; /* slot k: start q[2k], end q[2k+1] */
    uint32_t frame[GPU_SLOTS];
    unsigned head, tail;    /* slots started, slots collected */
    int open;               /* slot head-1 has its start, not yet its end */
    int64_t offset;         /* clock ns - GPU ns */
    uint32_t since_sync;
    gen_fn gen;
    del_fn del;
    counter_fn counter;
    get_uiv_fn get_uiv;
    get_ui64v_fn get_ui64v;
    get_i64v_fn get_i64v;
    get_iv_fn get_iv;
} gpu_t;

/* The real entry point of `name`, or NULL when we do not know it. */
static void *real_fn(const char *name)
{
    int id = w15_func_lookup(name);
    return id < 0 ? NULL : W15_REAL((uint32_t)id);
}

static void gpu_sync(gpu_t *g)
{
    int64_t gpu_ns = 0;
    g->get_i64v(GL_TIMESTAMP_, &gpu_ns);
    g->offset = (int64_t)w15_clock_now() - gpu_ns;
    g->since_sync = 0;
}

/* Set up measuring in the current context: 1 on, -1 not available. */
static int gpu_setup(gpu_t *g)
{
    int major = 0, minor = 0, api = w15_context_api(&major, &minor);
    const char *sfx = NULL;
    if (api == 1) {
        int v = major * 10 + minor;
        if (v >= 33)
            sfx = "";
        else if (v < 30 && w15_context_has_ext("GL_ARB_timer_query"))
            sfx = ""; /* GL_EXTENSIONS is valid below 3.0 only (core profiles) */
        g->check_qbuf = v >= 44;
    } else if (api == 2 && w15_context_has_ext("GL_EXT_disjoint_timer_query")) {
        sfx = "EXT";
    }
    if (!sfx)
        return -1;
    char n[64];
#define GPU_FN(field, type, base) (snprintf(n, sizeof n, "%s%s", base, sfx), g->field = (type)real_fn(n))
    GPU_FN(gen, gen_fn, "glGenQueries");
    GPU_FN(del, del_fn, "glDeleteQueries");
    GPU_FN(counter, counter_fn, "glQueryCounter");
    GPU_FN(get_uiv, get_uiv_fn, "glGetQueryObjectuiv");
    GPU_FN(get_ui64v, get_ui64v_fn, "glGetQueryObjectui64v");
    GPU_FN(get_i64v, get_i64v_fn, "glGetInteger64v");
#undef GPU_FN
    g->get_iv = (get_iv_fn)real_fn("glGetIntegerv");
    if (!g->gen || !g->del || !g->counter || !g->get_uiv || !g->get_ui64v || !g->get_i64v || !g->get_iv)
        return -1;
    memset(g->q, 0, sizeof g->q);
    g->gen(2 * GPU_SLOTS, g->q);
    for (unsigned i = 0; i < 2 * GPU_SLOTS; i++)
        if (!g->q[i])
            return -1;
    g->head = g->tail = 0;
    g->open = 0;
    gpu_sync(g);
    /* defined now: a crash handler converting GPU records cannot define it */
    w15_wtf_gpu_frame_event(__atomic_load_n(&wtf, __ATOMIC_ACQUIRE));
    return 1;
}

/* Read the frames whose results are ready, oldest first; never waits. */
static void gpu_collect(w15_thread_t *t, gpu_t *g)
{
    if (g->tail == g->head - (unsigned)g->open)
        return;
    if (g->check_qbuf) {
        int qb = 0;
        g->get_iv(GL_QUERY_BUFFER_BINDING_, &qb);
        if (qb)
            return; /* results would be written into the app's buffer */
    }
    while (g->tail != g->head - (unsigned)g->open) {
        unsigned k = g->tail % GPU_SLOTS, a0 = 0, a1 = 0;
        g->get_uiv(g->q[2 * k + 1], GL_QUERY_RESULT_AVAILABLE_, &a1);
        if (!a1)
            break;
        g->get_uiv(g->q[2 * k], GL_QUERY_RESULT_AVAILABLE_, &a0);
        if (!a0)
            break;
        uint64_t s = 0, e = 0;
        g->get_ui64v(g->q[2 * k], GL_QUERY_RESULT_, &s);
        g->get_ui64v(g->q[2 * k + 1], GL_QUERY_RESULT_, &e);
        g->tail++;
        if (e < s || e - s > 60000000000ull || !s)
            continue; /* implausible (a disjoint event, a driver quirk) */
        /* the thread's GPU timeline, named after its CPU one, at its
         * first GPU time */
        tzones_t *tz = t->wtf_zone;
        if (!__atomic_load_n(&tz->gpu, __ATOMIC_ACQUIRE)) {
            char name[80];
            snprintf(name, sizeof name, "%s GPU", tz->name);
            w15_wtf_t *w = __atomic_load_n(&wtf, __ATOMIC_ACQUIRE);
            w15_wtf_zone_t *z = w ? w15_wtf_zone_create(w, name, "native_gpu") : NULL;
            if (!z)
                break;
            __atomic_store_n(&tz->gpu, z, __ATOMIC_RELEASE);
        }
        w15_tmrec_t *r = tm_room(t, 1);
        if (!r)
            break;
        r->kind = W15_TM_GPU_FRAME;
        r->arg = g->frame[k];
        r->t0 = (uint64_t)((int64_t)s + g->offset);
        r->t1 = (uint64_t)((int64_t)e + g->offset);
        tm_commit(t, 1);
    }
}

/* A frame-ending call, before the real call: the frame's end query, and
 * whatever results are ready. */
static void gpu_frame_end(w15_thread_t *t)
{
    if (!w15_cfg.gpu || !t->context)
        return;
    gpu_t *g = t->gpu;
    if (!g && !(g = t->gpu = calloc(1, sizeof *g)))
        return;
    if (g->state == 0)
        g->state = gpu_setup(g);
    if (g->state != 1)
        return;
    if (g->open) {
        unsigned k = (g->head - 1) % GPU_SLOTS;
        g->counter(g->q[2 * k + 1], GL_TIMESTAMP_);
        g->frame[k] = t->wtf_frame;
        g->open = 0;
    }
    gpu_collect(t, g);
}

/* After the real frame-ending call: the next frame's start query. */
static void gpu_frame_start(w15_thread_t *t)
{
    gpu_t *g = t->gpu;
    if (!g || g->state != 1 || g->head - g->tail >= GPU_SLOTS)
        return; /* full: this frame is not measured */
    if (++g->since_sync >= GPU_RESYNC_FRAMES)
        gpu_sync(g);
    g->counter(g->q[2 * (g->head % GPU_SLOTS)], GL_TIMESTAMP_);
    g->head++;
    g->open = 1;
}

void w15_timing_gpu_release(w15_thread_t *t)
{
    gpu_t *g = t->gpu;
    if (!g)
        return;
    if (g->state == 1) {
        int e = errno;
        gpu_collect(t, g);
        g->del(2 * GPU_SLOTS, g->q);
        errno = e;
    }
    g->state = 0; /* set up again in the next context */
}

/* ------------------------------------------------------------------ */
/* The output thread's side: records to events                          */

void w15_timing_feed(void *zp, const w15_tmrec_t *r, uint32_t n, int retire)
{
    w15_wtf_t *w = __atomic_load_n(&wtf, __ATOMIC_ACQUIRE);
    tzones_t *tz = zp;
    if (!w || !tz)
        return;
    w15_wtf_zone_t *z = tz->cpu;
    w15_clock_scale_t sc;
    w15_clock_get_scale(&sc);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t k = r[i].kind;
        uint64_t t0 = w15_clock_scaled(&sc, r[i].t0);
        if (W15_LIKELY(k < w15_nfuncs)) {
            uint16_t wire = w15_wtf_call_event(w, k, w15_str(w15_funcs[k].name));
            w15_wtf_scope_call(z, wire, t0, w15_clock_scaled(&sc, r[i].t1), r[i].arg);
            continue;
        }
        switch (k) {
        case W15_TM_FRAME_START:
            w15_wtf_frame_start(z, r[i].arg, t0);
            break;
        case W15_TM_FRAME:
            w15_wtf_frame_end(z, r[i].arg, t0);
            w15_wtf_frame_start(z, r[i].arg + 1, t0);
            break;
        case W15_TM_GROUP_POP:
            w15_wtf_scope_leave(z, t0);
            break;
        case W15_TM_GPU_FRAME: {
            /* times already in clock ns (GPU timestamps moved onto our clock) */
            w15_wtf_zone_t *g = __atomic_load_n(&tz->gpu, __ATOMIC_ACQUIRE);
            uint16_t wire = w15_wtf_gpu_frame_event(w);
            if (g && wire) {
                w15_wtf_scope_enter(g, wire, r[i].t0, r[i].arg);
                w15_wtf_scope_leave(g, r[i].t1);
            }
            break;
        }
        case W15_TM_GROUP_PUSH:
        case W15_TM_MARKER: {
            uint32_t len = r[i].arg <= NAME_MAX_BYTES ? r[i].arg : 0;
            uint32_t extra = (uint32_t)((len + sizeof *r - 1) / sizeof *r);
            if (extra > n - i - 1)
                return; /* cannot happen: records are committed whole */
            const char *s = (const char *)(r + i + 1);
            if (k == W15_TM_GROUP_PUSH)
                w15_wtf_scope_enter_named(z, s, len, t0);
            else
                w15_wtf_timestamp(z, s, len, t0);
            i += extra;
            break;
        }
        default:
            break;
        }
    }
    w15_wtf_zone_t *g = __atomic_load_n(&tz->gpu, __ATOMIC_ACQUIRE);
    if (retire) {
        w15_wtf_zone_retire(z); /* flushes first */
        w15_wtf_zone_retire(g);
    } else {
        w15_wtf_zone_flush(z);
        w15_wtf_zone_flush(g);
    }
}

/* Contexts whose renderer strings were recorded (a few; MakeCurrent is rare). */
#define SEEN_CTX 16
static void *seen_ctx[SEEN_CTX];
static unsigned nseen;
static pthread_mutex_t seen_lock = PTHREAD_MUTEX_INITIALIZER;

void w15_timing_context(w15_thread_t *t, void *ctx)
{
    (void)t;
    w15_wtf_t *w = __atomic_load_n(&wtf, __ATOMIC_ACQUIRE);
    if (!w || !ctx)
        return;
    pthread_mutex_lock(&seen_lock);
    int seen = 0;
    for (unsigned i = 0; i < nseen && i < SEEN_CTX; i++)
        if (seen_ctx[i] == ctx)
            seen = 1;
    if (!seen)
        seen_ctx[nseen++ % SEEN_CTX] = ctx;
    pthread_mutex_unlock(&seen_lock);
    if (seen)
        return;
    static int id_get_string = -2;
    if (id_get_string == -2)
        id_get_string = w15_func_lookup("glGetString");
    if (id_get_string < 0)
        return;
    int e = errno;
    /* the context was just made current on this thread: glGetString only
     * reads (no error is raised with a current context) */
    typedef const unsigned char *(*get_string_fn)(unsigned);
    get_string_fn gs = (get_string_fn)W15_REAL((uint32_t)id_get_string);
    static const struct { unsigned e; const char *key; } q[] = {
        { 0x1F01, "renderer" }, { 0x1F00, "vendor" }, { 0x1F02, "version" },
    };
    for (unsigned i = 0; i < sizeof q / sizeof q[0]; i++) {
        const char *v = (const char *)gs(q[i].e);
        if (v)
            w15_wtf_set_meta(w, q[i].key, v);
    }
    errno = e;
}

void w15_timing_stop(void)
{
    if (!wtf)
        return;
    w15_wtf_t *w = wtf;
    w15_timing_on = 0;
    __atomic_store_n(&wtf, NULL, __ATOMIC_RELEASE);
    w15_wtf_close(w);
    pthread_mutex_lock(&tzones_lock);
    for (tzones_t *tz = all_tzones, *next; tz; tz = next) {
        next = tz->next;
        free(tz);
    }
    all_tzones = NULL;
    pthread_mutex_unlock(&tzones_lock);
}

void w15_timing_crash_begin(void)
{
    w15_wtf_signal_mode(__atomic_load_n(&wtf, __ATOMIC_ACQUIRE));
}

void w15_timing_crash(void)
{
    w15_wtf_t *w = __atomic_load_n(&wtf, __ATOMIC_ACQUIRE);
    if (w)
        w15_wtf_flush_all_signal(w);
}
