/* rtiming.c -- --timing [LEVEL]: a .wtf-trace of the replay.
 *
 * Owns: the replay's WTF file (the in-process emitter of src/wtf, as the
 * tracer's timing.c uses it), one zone per traced thread named like the
 * capture's, "<tid>:<thread name>" (so `wip15 frames` and `wip15 export`
 * read a replay as they read a capture), and the GPU timer queries.
 *   frames: frameStart/frameEnd at each frame end, debug groups as named
 *           scopes, markers as time stamps;
 *   draws:  + a scope for each draw, upload, readback, clear, compile,
 *           link, sync and frame-end call (W15_FN_DRAWS_MASK);
 *   all:    + a scope for every replayed call.
 * A call scope spans the real call (decoding excluded) and carries the
 * call's per-thread sequence number of the trace ("call"), as the
 * capture's scopes do.
 *
 * GPU time.  In every context that has timer queries (desktop GL 3.3, or
 * GL_ARB_timer_query below 3.0; GLES with GL_EXT_disjoint_timer_query),
 * a GL_TIMESTAMP query before and after each draw, dispatch, clear and blit
 * (flags DRAW, CLEAR), and one right after each frame end and right before
 * the next (the frame's GPU span; a context's first frame starts at its
 * first measured call).  Queries are our own names in a ring of
 * RING per context; results are read only when GL_QUERY_RESULT_AVAILABLE
 * says so, at frame ends and whenever the ring is half full, in order:
 * nothing waits for the GPU while the replay runs (a call met with the
 * ring full is simply not measured).  At the end of the replay each
 * context's last results are waited for (glFinish).  They go, moved onto
 * the CPU clock (offset from glGetInteger64v(GL_TIMESTAMP), measured again
 * every 600 frames), to the thread's zone "<zone> GPU" of type native_gpu:
 * a `wip15.gpuFrame(frame)` scope per measured frame (docs/WTF.md "GPU
 * time") holding a scope per measured call, named after the function, with
 * the same "call" number as its CPU scope.  Our queries never raise a GL
 * error (only calls the context's version has; results are not read while
 * a GL_QUERY_BUFFER is bound), and the replay's own names are remapped, so
 * the queries change nothing the trace's calls see.
 * May use: rp.h, src/wtf (wtf_emitter.h, clock.h), GL through rp_addr.
 * Must never: stall the replay before its end, raise a GL error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "funcs.h"
#include "rp.h"
#include "wtf_emitter.h"

#define RING 1024u           /* queries per context */
#define RESYNC_FRAMES 600
#define GL_TIMESTAMP 0x8E28
#define GL_QUERY_RESULT 0x8866
#define GL_QUERY_RESULT_AVAILABLE 0x8867
#define GL_QUERY_BUFFER_BINDING 0x9193
#define GL_EXTENSIONS 0x1F03
#define GL_RENDERER 0x1F01
#define GL_VERSION 0x1F02

typedef void (*gen_fn)(int, unsigned *);
typedef void (*del_fn)(int, const unsigned *);
typedef void (*counter_fn)(unsigned, unsigned);
typedef void (*get_uiv_fn)(unsigned, unsigned, unsigned *);
typedef void (*get_ui64v_fn)(unsigned, unsigned, uint64_t *);
typedef void (*get_i64v_fn)(unsigned, int64_t *);
typedef void (*get_iv_fn)(unsigned, int *);
typedef const unsigned char *(*get_string_fn)(unsigned);
typedef void (*finish_fn)(void);

enum { S_FRAME_BEGIN = 1, S_FRAME_END, S_CALL_BEGIN, S_CALL_END };

typedef struct slot {
    uint8_t kind;
    uint32_t fn;   /* S_CALL_BEGIN */
    uint32_t arg;  /* frame number, or the call's seq */
} slot_t;

/* Timer queries of one context (rp_ctx_t.timing). */
typedef struct gpu {
    int state;          /* 0 not set up, 1 measuring, -1 not available */
    int check_qbuf;     /* GL >= 4.4: a GL_QUERY_BUFFER may be bound */
    unsigned q[RING];
    slot_t s[RING];
    unsigned head, tail;
    int frame_open;     /* a S_FRAME_BEGIN without its end */
    int call_open;      /* a S_CALL_BEGIN without its end */
    int any_frame;      /* a S_FRAME_BEGIN was ever put */
    int64_t offset;     /* clock ns - GPU ns */
    uint32_t since_sync;
    gen_fn gen;
    del_fn del;
    counter_fn counter;
    get_uiv_fn get_uiv;
    get_ui64v_fn get_ui64v;
    get_i64v_fn get_i64v;
    get_iv_fn get_iv;
    finish_fn finish;
} gpu_t;

/* One traced thread's zones (rp_exec_t.timing). */
typedef struct tzone {
    w15_wtf_zone_t *cpu, *gpu;
    char name[64];
    uint32_t frame;     /* frames ended on this thread (the zone's numbering) */
    int depth;          /* open debug groups */
    int gpu_depth;      /* open scopes in the GPU zone */
} tzone_t;

typedef struct timing {
    w15_wtf_t *w;
    uint32_t mask;      /* flags of the calls that get a CPU scope */
    int meta_done;
} timing_t;

#define T(st) ((timing_t *)(st)->timing)

int rp_timing_start(rp_state_t *st)
{
    const rp_opts_t *o = st->o;
    char def[4096];
    const char *path = o->timing_path;
    if (!path) {
        size_t n = strlen(o->path);
        if (n > 6 && strcmp(o->path + n - 6, ".wip15") == 0)
            n -= 6;
        snprintf(def, sizeof def, "%.*s.replay.wtf-trace", (int)n, o->path);
        path = def;
    }
    timing_t *t = calloc(1, sizeof *t);
    if (!t) {
        rp_fatal(st, "out of memory");
        return -1;
    }
    st->timing = t;
    unlink(path); /* a replay's timing file is replaced */
    w15_wtf_info_t info;
    memset(&info, 0, sizeof info);
    info.program = "wip15 replay";
    info.tracer_version = "wip15 replay";
    info.wip15_path = o->path;
    char err[256] = "";
    t->w = w15_wtf_open(path, &info, err, sizeof err);
    if (!t->w) {
        rp_fatal(st, "--timing: cannot write %s: %s", path, err);
        return -1;
    }
    switch (o->timing) {
    case RP_TIMING_DRAWS: t->mask = W15_FN_DRAWS_MASK; break;
    case RP_TIMING_ALL: t->mask = 0xffffffffu; break;
    default: t->mask = 0; break;
    }
    if (!o->quiet)
        rp_note(st, "timing: %s", path);
    return 0;
}

void rp_timing_end(rp_state_t *st)
{
    timing_t *t = T(st);
    if (!t)
        return;
    w15_wtf_close(t->w);
    free(t);
    st->timing = NULL;
}

/* ---- zones ------------------------------------------------------------ */

static tzone_t *zone(rp_exec_t *x, uint64_t now)
{
    if (x->timing)
        return x->timing;
    timing_t *t = T(x->st);
    tzone_t *z = calloc(1, sizeof *z);
    if (!z)
        return NULL;
    snprintf(z->name, sizeof z->name, "%llu:%s", (unsigned long long)x->tid, x->name[0] ? x->name : "replay");
    z->cpu = w15_wtf_zone_create(t->w, z->name, "script");
    if (!z->cpu) {
        free(z);
        return NULL;
    }
    x->timing = z;
    w15_wtf_frame_start(z->cpu, 0, now);
    return z;
}

static w15_wtf_zone_t *gpu_zone(rp_exec_t *x)
{
    tzone_t *z = x->timing;
    if (!z)
        return NULL;
    if (!z->gpu) {
        char name[80];
        snprintf(name, sizeof name, "%s GPU", z->name);
        z->gpu = w15_wtf_zone_create(T(x->st)->w, name, "native_gpu");
    }
    return z->gpu;
}

void rp_timing_exec_free(rp_exec_t *x)
{
    tzone_t *z = x->timing;
    if (!z)
        return;
    if (z->gpu) {
        while (z->gpu_depth > 0) { /* a frame scope left open: close it */
            w15_wtf_scope_leave(z->gpu, w15_clock_now());
            z->gpu_depth--;
        }
        w15_wtf_zone_retire(z->gpu);
    }
    w15_wtf_zone_retire(z->cpu);
    free(z);
    x->timing = NULL;
}

/* ---- GPU queries -------------------------------------------------------- */

static int has_ext(const char *list, const char *ext)
{
    size_t n = strlen(ext);
    for (const char *p = list; p && (p = strstr(p, ext)) != NULL; p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == 0))
            return 1;
    return 0;
}

static void gpu_sync(gpu_t *g)
{
    int64_t gpu_ns = 0;
    g->get_i64v(GL_TIMESTAMP, &gpu_ns);
    g->offset = (int64_t)w15_clock_now() - gpu_ns;
    g->since_sync = 0;
}

static int gpu_setup(rp_exec_t *x, gpu_t *g)
{
    rp_state_t *st = x->st;
    rp_ctx_t *c = x->ctx;
    rp_ctx_version(x, c);
    get_string_fn gs = (get_string_fn)rp_addr(st, W15F_glGetString);
    int v = c->gl_major * 10 + c->gl_minor;
    int ext = 0;
    if (!c->gl_es) {
        if (v >= 33)
            ext = 0;
        else if (v < 30 && gs && has_ext((const char *)gs(GL_EXTENSIONS), "GL_ARB_timer_query"))
            ext = 0;
        else
            return -1;
        g->check_qbuf = v >= 44;
    } else if (gs && has_ext((const char *)gs(GL_EXTENSIONS), "GL_EXT_disjoint_timer_query")) {
        ext = 1;
    } else {
        return -1;
    }
    if (!T(st)->meta_done && gs) {
        T(st)->meta_done = 1;
        const char *r = (const char *)gs(GL_RENDERER), *ver = (const char *)gs(GL_VERSION);
        if (r)
            w15_wtf_set_meta(T(st)->w, "renderer", r);
        if (ver)
            w15_wtf_set_meta(T(st)->w, "version", ver);
    }
#define F(field, type, core, extname) (g->field = (type)rp_addr(st, ext ? W15F_##extname : W15F_##core))
    F(gen, gen_fn, glGenQueries, glGenQueriesEXT);
    F(del, del_fn, glDeleteQueries, glDeleteQueriesEXT);
    F(counter, counter_fn, glQueryCounter, glQueryCounterEXT);
    F(get_uiv, get_uiv_fn, glGetQueryObjectuiv, glGetQueryObjectuivEXT);
    F(get_ui64v, get_ui64v_fn, glGetQueryObjectui64v, glGetQueryObjectui64vEXT);
    F(get_i64v, get_i64v_fn, glGetInteger64v, glGetInteger64vEXT);
#undef F
    g->get_iv = (get_iv_fn)rp_addr(st, W15F_glGetIntegerv);
    g->finish = (finish_fn)rp_addr(st, W15F_glFinish);
    if (!g->gen || !g->del || !g->counter || !g->get_uiv || !g->get_ui64v || !g->get_i64v || !g->get_iv ||
        !g->finish)
        return -1;
    memset(g->q, 0, sizeof g->q);
    g->gen((int)RING, g->q);
    for (unsigned i = 0; i < RING; i++)
        if (!g->q[i])
            return -1;
    g->head = g->tail = 0;
    g->frame_open = 0;
    gpu_sync(g);
    w15_wtf_gpu_frame_event(T(st)->w);
    return 1;
}

/* The timer queries of the current context, or NULL (none, or not
 * available there). */
static gpu_t *gpu_of(rp_exec_t *x)
{
    rp_ctx_t *c = x->ctx;
    if (!c || !c->handle)
        return NULL;
    gpu_t *g = c->timing;
    if (!g && !(g = c->timing = calloc(1, sizeof *g)))
        return NULL;
    if (g->state == 0)
        g->state = gpu_setup(x, g);
    return g->state == 1 ? g : NULL;
}

static unsigned room(const gpu_t *g)
{
    return RING - (g->head - g->tail);
}

static void put(gpu_t *g, uint8_t kind, uint32_t fn, uint32_t arg)
{
    unsigned k = g->head % RING;
    g->counter(g->q[k], GL_TIMESTAMP);
    g->s[k].kind = kind;
    g->s[k].fn = fn;
    g->s[k].arg = arg;
    g->head++;
}

/* Emit the results that are ready, in order (all of them, waiting for the
 * GPU, when `wait`). */
static void collect(rp_exec_t *x, gpu_t *g, int wait)
{
    if (g->tail == g->head)
        return;
    if (g->check_qbuf) {
        int qb = 0;
        g->get_iv(GL_QUERY_BUFFER_BINDING, &qb);
        if (qb)
            return; /* results would go into the trace's buffer */
    }
    if (wait)
        g->finish();
    w15_wtf_t *w = T(x->st)->w;
    tzone_t *z = x->timing;
    w15_wtf_zone_t *gz = gpu_zone(x);
    uint16_t frame_ev = w15_wtf_gpu_frame_event(w);
    while (g->tail != g->head) {
        unsigned k = g->tail % RING, avail = 0;
        g->get_uiv(g->q[k], GL_QUERY_RESULT_AVAILABLE, &avail);
        if (!avail)
            break;
        uint64_t ts = 0;
        g->get_ui64v(g->q[k], GL_QUERY_RESULT, &ts);
        g->tail++;
        if (!gz || !z)
            continue;
        uint64_t t = (uint64_t)((int64_t)ts + g->offset);
        const slot_t *s = &g->s[k];
        switch (s->kind) {
        case S_FRAME_BEGIN:
            if (frame_ev) {
                w15_wtf_scope_enter(gz, frame_ev, t, s->arg);
                z->gpu_depth++;
            }
            break;
        case S_CALL_BEGIN: {
            uint16_t ev = w15_wtf_call_event(w, s->fn, w15_str(w15_funcs[s->fn].name));
            if (ev) {
                w15_wtf_scope_enter(gz, ev, t, s->arg);
                z->gpu_depth++;
            }
            break;
        }
        case S_CALL_END:
        case S_FRAME_END:
            if (z->gpu_depth > 0) {
                w15_wtf_scope_leave(gz, t);
                z->gpu_depth--;
            }
            break;
        default:
            break;
        }
    }
}

static void frame_close(gpu_t *g)
{
    if (g->frame_open) {
        put(g, S_FRAME_END, 0, 0); /* its slot was kept free */
        g->frame_open = 0;
    }
}

void rp_timing_release(rp_exec_t *x, rp_ctx_t *ctx, int wait)
{
    gpu_t *g = ctx ? ctx->timing : NULL;
    if (!g || g->state != 1 || x->ctx != ctx)
        return;
    frame_close(g);
    /* at the end of the replay (thread end) wait for the last results;
     * between MakeCurrents, take what is ready and keep the rest in the
     * context's ring for later */
    collect(x, g, wait);
}

/* ---- around calls ------------------------------------------------------- */

static const char *string_arg(const w15_call_t *wc, size_t *len)
{
    for (uint32_t i = 0; i < wc->func->nargs; i++) {
        const w15_value_t *v = &wc->args[i];
        if (v->type.is_array || !v->count)
            continue;
        if (v->type.base == W15_STRING) {
            *len = v->v.s[0].len;
            return v->v.s[0].ptr;
        }
    }
    return NULL;
}

uint64_t rp_timing_pre(rp_exec_t *x, const rp_job_t *j, uint32_t fn)
{
    uint64_t now = w15_clock_now();
    tzone_t *z = zone(x, now);
    if (!z)
        return now;
    uint32_t flags = w15_funcs[fn].flags;
    if (flags & W15_FN_FRAME_END) {
        gpu_t *g = gpu_of(x);
        if (g) {
            frame_close(g);
            collect(x, g, 0);
        }
    }
    if (flags & (W15_FN_GROUP_PUSH | W15_FN_MARKER)) {
        size_t n = 0;
        const char *s = string_arg(j->wc, &n);
        int push = (flags & W15_FN_GROUP_PUSH) != 0;
        if (!s)
            s = push ? "group" : "marker", n = strlen(s);
        if (n > 1024)
            n = 1024;
        if (push) {
            w15_wtf_scope_enter_named(z->cpu, s, n, now);
            z->depth++;
        } else {
            w15_wtf_timestamp(z->cpu, s, n, now);
        }
    }
    if (flags & (W15_FN_DRAW | W15_FN_CLEAR)) {
        gpu_t *g = gpu_of(x);
        /* the first frame of a context opens at its first measured call
         * (the others right after the previous frame's end) */
        if (g && !g->any_frame && !g->frame_open && room(g) >= 4) {
            put(g, S_FRAME_BEGIN, 0, z->frame);
            g->frame_open = 1;
            g->any_frame = 1;
        }
        /* a call takes two slots; one more stays free for the frame's end */
        if (g && room(g) >= 2u + (unsigned)g->frame_open) {
            put(g, S_CALL_BEGIN, fn, (uint32_t)j->seq);
            g->call_open = 1;
            if (room(g) < RING / 2)
                collect(x, g, 0);
        }
    }
    return w15_clock_now();
}

void rp_timing_post(rp_exec_t *x, const rp_job_t *j, uint32_t fn, uint64_t t0)
{
    uint64_t now = w15_clock_now();
    tzone_t *z = x->timing;
    if (!z)
        return;
    timing_t *t = T(x->st);
    uint32_t flags = w15_funcs[fn].flags;
    if (flags & (W15_FN_DRAW | W15_FN_CLEAR)) {
        gpu_t *g = x->ctx ? x->ctx->timing : NULL;
        if (g && g->state == 1 && g->call_open) {
            put(g, S_CALL_END, 0, 0); /* its slot was kept by the begin */
            g->call_open = 0;
        }
    }
    if (flags & t->mask) {
        uint16_t ev = w15_wtf_call_event(t->w, fn, w15_str(w15_funcs[fn].name));
        if (ev)
            w15_wtf_scope_call(z->cpu, ev, t0, now, (uint32_t)j->seq);
    }
    if ((flags & W15_FN_GROUP_POP) && z->depth > 0) {
        z->depth--;
        w15_wtf_scope_leave(z->cpu, now);
    }
    if (flags & W15_FN_FRAME_END) {
        w15_wtf_frame_end(z->cpu, z->frame, now);
        z->frame++;
        w15_wtf_frame_start(z->cpu, z->frame, now);
        gpu_t *g = gpu_of(x);
        if (g && room(g) >= 3) {
            if (++g->since_sync >= RESYNC_FRAMES)
                gpu_sync(g);
            put(g, S_FRAME_BEGIN, 0, z->frame);
            g->frame_open = 1;
            g->any_frame = 1;
        }
    }
}
