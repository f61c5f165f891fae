/* timing.c -- the timing hooks: what the recorder tells the WTF emitter
 * (src/wtf/wtf_emitter.h) per WIP15_TIMING level.
 *   frames: frameStart/frameEnd around frame-ending calls on the swapping
 *           thread, debug groups as named scopes, markers as time stamps
 *   draws:  + a scope for each draw, upload, readback, clear, compile, link,
 *           sync and frame-end call
 *   all:    + a scope for every recorded call
 * Call scopes carry the call's per-thread sequence number ("call"), the
 * number in the WIP15 trace (wip15ThreadSwitch.first_seq + position).
 * One zone per thread, named "<tid>:<thread name>".  Without the emitter
 * (library target wip15wtf absent) these are no-ops. */
#include "runtime.h"
#include "funcs.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

int w15_timing_on;
uint32_t w15_timing_mask;

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
    w15_timing_on = 1;
    pthread_atfork(NULL, NULL, timing_in_child);
}

void w15_timing_thread_start(w15_thread_t *t)
{
    if (__atomic_load_n(&wtf, __ATOMIC_ACQUIRE))
        t->t_first = w15_clock_now();
}

static w15_wtf_zone_t *zone(w15_thread_t *t)
{
    if (!t->wtf_zone) {
        char name[64], tn[17] = { 0 };
        w15_thread_name(tn);
        snprintf(name, sizeof name, "%u:%s", t->tid, tn);
        t->wtf_zone = w15_wtf_zone_create(wtf, name, "script");
        if (t->wtf_zone && !t->frame_started) {
            /* one frame per swap: frame 0 runs from the thread's first GL
             * call to its first frame-ending call */
            t->wtf_frame = 0;
            t->frame_started = 1;
            w15_wtf_frame_start(t->wtf_zone, 0, t->t_first);
        }
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
        *len = n > 0 ? (size_t)n : strnlen(s, 1024);
        return s;
    }
    return NULL;
}

void w15_timing_pre(w15_thread_t *t, w15_callctx_t *c, uint32_t id, uint16_t flags, const w15_slot_t *args)
{
    w15_wtf_zone_t *z = zone(t);
    if (!z)
        return;
    uint64_t now = w15_clock_now();
    c->t0 = now;
    if (flags & W15_FN_GROUP_PUSH) {
        size_t n = 0;
        const char *s = str_arg(id, args, &n);
        w15_wtf_scope_enter_named(z, s ? s : "group", s ? n : 5, now);
        t->group_depth++;
    } else if (flags & W15_FN_MARKER) {
        size_t n = 0;
        const char *s = str_arg(id, args, &n);
        w15_wtf_timestamp(z, s ? s : "marker", s ? n : 6, now);
    }
    int lvl = w15_cfg.timing;
    if (lvl == W15_TIMING_ALL || (lvl == W15_TIMING_DRAWS && (flags & W15_FN_DRAWS_MASK))) {
        uint16_t wire = w15_wtf_call_event(wtf, id, w15_str(w15_funcs[id].name));
        if (wire) {
            w15_wtf_scope_enter(z, wire, now, (uint32_t)t->seq);
            c->state |= 1u << 16;
        }
    }
}

/* Call-scope wire ids per function of the fast path (0: not asked yet). */
static _Atomic uint16_t fast_wire[W15F__COUNT];

void w15_timing_fast_enter(w15_thread_t *t, uint32_t id, uint64_t seq)
{
    if (W15_UNLIKELY(!__atomic_load_n(&wtf, __ATOMIC_ACQUIRE)))
        return; /* stopped (exit) or a forked child */
    w15_wtf_zone_t *z = t->wtf_zone;
    uint16_t wire = id < W15F__COUNT ? atomic_load_explicit(&fast_wire[id], memory_order_relaxed) : 0;
    if (W15_UNLIKELY(!z || !wire)) {
        /* first call of this thread or function: the slow lookups */
        w15_wtf_t *w = __atomic_load_n(&wtf, __ATOMIC_ACQUIRE);
        int e = errno;
        z = w ? zone(t) : NULL;
        wire = z ? w15_wtf_call_event(w, id, w15_str(w15_funcs[id].name)) : 0;
        errno = e;
        if (!wire)
            return;
        if (id < W15F__COUNT)
            atomic_store_explicit(&fast_wire[id], wire, memory_order_relaxed);
    }
    w15_wtf_scope_enter(z, wire, w15_clock_now(), (uint32_t)seq);
    t->fast_scope = 1;
}

void w15_timing_fast_leave(w15_thread_t *t)
{
    if (t->fast_scope) {
        t->fast_scope = 0;
        w15_wtf_scope_leave(t->wtf_zone, w15_clock_now());
    }
}

void w15_timing_post(w15_thread_t *t, w15_callctx_t *c, uint16_t flags)
{
    w15_wtf_zone_t *z = t->wtf_zone;
    if (!z)
        return;
    uint64_t now = w15_clock_now();
    if (c->state & (1u << 16))
        w15_wtf_scope_leave(z, now);
    if ((flags & W15_FN_GROUP_POP) && t->group_depth) {
        t->group_depth--;
        w15_wtf_scope_leave(z, now);
    }
    if (flags & W15_FN_FRAME_END) {
        /* frames are numbered per thread (= per zone): the loader pairs
         * frameStart/frameEnd by number within a zone */
        if (t->frame_started)
            w15_wtf_frame_end(z, t->wtf_frame, now);
        t->wtf_frame++;
        w15_wtf_frame_start(z, t->wtf_frame, now);
        t->frame_started = 1;
        w15_wtf_zone_flush(z);
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

void w15_timing_flush(w15_thread_t *t)
{
    if (t && t->wtf_zone && __atomic_load_n(&wtf, __ATOMIC_ACQUIRE))
        w15_wtf_zone_flush(t->wtf_zone);
}

void w15_timing_thread_exit(w15_thread_t *t)
{
    if (t && t->wtf_zone && __atomic_load_n(&wtf, __ATOMIC_ACQUIRE))
        w15_wtf_zone_retire(t->wtf_zone);
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

void w15_timing_crash(void)
{
    if (wtf)
        w15_wtf_flush_all_signal(wtf);
}

#else /* no emitter */

void w15_timing_start(const char *wtf_path) { (void)wtf_path; }
void w15_timing_pre(w15_thread_t *t, w15_callctx_t *c, uint32_t id, uint16_t flags, const w15_slot_t *args)
{
    (void)t; (void)c; (void)id; (void)flags; (void)args;
}
void w15_timing_post(w15_thread_t *t, w15_callctx_t *c, uint16_t flags) { (void)t; (void)c; (void)flags; }
void w15_timing_context(w15_thread_t *t, void *ctx) { (void)t; (void)ctx; }
void w15_timing_fast_enter(w15_thread_t *t, uint32_t id, uint64_t seq) { (void)t; (void)id; (void)seq; }
void w15_timing_fast_leave(w15_thread_t *t) { (void)t; }
void w15_timing_flush(w15_thread_t *t) { (void)t; }
void w15_timing_thread_start(w15_thread_t *t) { (void)t; }
void w15_timing_thread_exit(w15_thread_t *t) { (void)t; }
void w15_timing_stop(void) {}
void w15_timing_crash(void) {}

#endif
