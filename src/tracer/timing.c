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

#include <stdio.h>
#include <string.h>

int w15_timing_on;
uint32_t w15_timing_mask;

#ifdef W15_HAVE_WTF
#include "wtf_emitter.h"
#include "clock.h"

static w15_wtf_t *wtf;

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
}

static w15_wtf_zone_t *zone(w15_thread_t *t)
{
    if (!t->wtf_zone) {
        char name[64], tn[17] = { 0 };
        w15_thread_name(tn);
        snprintf(name, sizeof name, "%u:%s", t->tid, tn);
        t->wtf_zone = w15_wtf_zone_create(wtf, name, "script");
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
        uint32_t fr = (uint32_t)atomic_load(&w15_frame);
        if (t->frame_started)
            w15_wtf_frame_end(z, fr, now);
        w15_wtf_frame_start(z, fr + 1, now);
        t->frame_started = 1;
        w15_wtf_zone_flush(z);
    }
}

void w15_timing_thread_exit(w15_thread_t *t)
{
    if (t && t->wtf_zone && __atomic_load_n(&wtf, __ATOMIC_ACQUIRE))
        w15_wtf_zone_flush(t->wtf_zone);
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
void w15_timing_thread_exit(w15_thread_t *t) { (void)t; }
void w15_timing_stop(void) {}
void w15_timing_crash(void) {}

#endif
