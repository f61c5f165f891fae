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
 * Two sides.  A GL thread only appends records (record.h w15_tmrec_t: raw
 * clock ticks, no formatting) to the array that travels with its chunk;
 * the fast path does that inline for call scopes.  The output thread
 * converts each chunk's records into the zone's events and writes them
 * (w15_timing_feed), after the chunk's WIP15 bytes.  So a zone has one
 * writer, and the GL thread pays two clock reads and a few stores per
 * timed call (docs/PERFORMANCE.md "Timing").  Without the emitter (library
 * target wip15wtf absent) these are no-ops. */
#include "runtime.h"
#include "funcs.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

int w15_timing_on;
uint32_t w15_timing_mask;
int w15_ticks_tsc;

#ifdef W15_HAVE_WTF
#include "wtf_emitter.h"
#include "clock.h"

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

void w15_timing_start(const char *wtf_path)
{
    w15_wtf_info_t info;
    memset(&info, 0, sizeof info);
    extern char *program_invocation_name;
    info.program = program_invocation_name;
    info.tracer_version = W15_TRACER_VERSION;
    info.wip15_path = w15_trace_path;
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
    w15_ticks_tsc = w15_clock_ticks_are_tsc();
    w15_timing_on = 1;
    pthread_atfork(NULL, NULL, timing_in_child);
}

void w15_timing_thread_start(w15_thread_t *t)
{
    if (__atomic_load_n(&wtf, __ATOMIC_ACQUIRE))
        t->t_first = w15_ticks();
}

uint64_t w15_ticks_slow(void)
{
    return w15_clock_ticks();
}

/* ------------------------------------------------------------------ */
/* The GL thread's side: records (record.h w15_tmrec_t)                */

/* Room for n records in t's array, or NULL (no array, or full: the record
 * is dropped; the chunk is handed over at W15_TM_SUBMIT, so this happens
 * only when handing over failed). */
static inline w15_tmrec_t *tm_room(w15_thread_t *t, uint32_t n)
{
    if (W15_UNLIKELY(!t->tm || t->tm_len + n > W15_TM_CAP))
        return NULL;
    return &t->tm[t->tm_len];
}

static inline void tm_commit(w15_thread_t *t, uint32_t n)
{
    __atomic_store_n(&t->tm_len, t->tm_len + n, __ATOMIC_RELEASE);
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

/* The thread's zone, created at its first record; frame 0 starts at the
 * thread's first GL call.  Then the fast path may record call scopes. */
static w15_wtf_zone_t *zone(w15_thread_t *t)
{
    if (W15_LIKELY(t->wtf_zone != NULL))
        return t->wtf_zone;
    w15_wtf_t *w = __atomic_load_n(&wtf, __ATOMIC_ACQUIRE);
    if (!w || !t->tm)
        return NULL;
    char name[64], tn[17] = { 0 };
    w15_thread_name(tn);
    snprintf(name, sizeof name, "%u:%s", t->tid, tn);
    t->wtf_zone = w15_wtf_zone_create(w, name, "script");
    if (t->wtf_zone) {
        t->wtf_frame = 0;
        t->frame_started = 1;
        tm_put(t, W15_TM_FRAME_START, 0, t->t_first);
        t->tm_room = W15_TM_SUBMIT;
    }
    return t->wtf_zone;
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

#define SCOPE_OPEN (1u << 16) /* c->state: a call record is open at t->tm[tm_len] */

void w15_timing_pre(w15_thread_t *t, w15_callctx_t *c, uint32_t id, uint16_t flags, const w15_slot_t *args)
{
    if (!zone(t))
        return;
    uint64_t now = w15_ticks();
    c->t0 = now;
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
            c->state |= SCOPE_OPEN;
        }
    }
}

void w15_timing_post(w15_thread_t *t, w15_callctx_t *c, uint16_t flags)
{
    if (!t->wtf_zone || !t->tm)
        return;
    uint64_t now = w15_ticks();
    if (c->state & SCOPE_OPEN) {
        t->tm[t->tm_len].t1 = now;
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
    }
}

/* ------------------------------------------------------------------ */
/* The output thread's side: records to events                          */

void w15_timing_feed(void *zp, const w15_tmrec_t *r, uint32_t n, int retire)
{
    w15_wtf_t *w = __atomic_load_n(&wtf, __ATOMIC_ACQUIRE);
    w15_wtf_zone_t *z = zp;
    if (!w || !z)
        return;
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
    if (retire)
        w15_wtf_zone_retire(z); /* flushes first */
    else
        w15_wtf_zone_flush(z);
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

#else /* no emitter */

uint64_t w15_ticks_slow(void) { return 0; }
void w15_timing_start(const char *wtf_path) { (void)wtf_path; }
void w15_timing_pre(w15_thread_t *t, w15_callctx_t *c, uint32_t id, uint16_t flags, const w15_slot_t *args)
{
    (void)t; (void)c; (void)id; (void)flags; (void)args;
}
void w15_timing_post(w15_thread_t *t, w15_callctx_t *c, uint16_t flags) { (void)t; (void)c; (void)flags; }
void w15_timing_context(w15_thread_t *t, void *ctx) { (void)t; (void)ctx; }
void w15_timing_feed(void *zone, const w15_tmrec_t *tm, uint32_t n, int retire)
{
    (void)zone; (void)tm; (void)n; (void)retire;
}
void w15_timing_thread_start(w15_thread_t *t) { (void)t; }
void w15_timing_stop(void) {}
void w15_timing_crash_begin(void) {}
void w15_timing_crash(void) {}

#endif
