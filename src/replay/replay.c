/* replay.c -- the driver of a replay.
 *
 * Owns: rp_run (stream the trace with the format library's reader, never
 * loading it whole), the declared functions (a trace names its functions;
 * each is matched by name to the generated table once, at its
 * declaration, and checked against its recorded signature), the dispatch
 * of every call to the executor of its traced thread (threads.c), the
 * frame count, warnings and errors, progress and the benchmark line.
 * May use: every module of rp.h.
 * Must never: decode arguments (decode.c) or touch the window system
 * (wsi.c).
 *
 * rp_exec_call runs one call on its thread: the pseudo-calls through
 * their modules (mem.c, check.c, wsi.c), the real ones decoded, timed
 * (--timing, rtiming.c), called and checked (--check, check.c, after the
 * real call while the decoded outputs are still in the arena).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "funcs.h"
#include "rp.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void rp_opts_default(rp_opts_t *o)
{
    memset(o, 0, sizeof *o);
    o->first = 0;
    o->last = UINT64_MAX;
    o->out = stdout;
    o->snapshot_dir = ".";
    o->progress_after = 2.0;
}

int rp_frameset_parse(rp_frameset_t *s, const char *text, char *err)
{
    memset(s, 0, sizeof *s);
    const char *p = text;
    if (!*p) {
        snprintf(err, 256, "empty frame list");
        return -1;
    }
    while (*p) {
        const char *e = strchr(p, ',');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        char item[64];
        if (n == 0 || n >= sizeof item) {
            snprintf(err, 256, "bad frame list '%s'", text);
            return -1;
        }
        memcpy(item, p, n);
        item[n] = 0;
        if (strcmp(item, "last") == 0) {
            s->last = 1;
        } else {
            char *end;
            errno = 0;
            unsigned long long lo = strtoull(item, &end, 10), hi = lo;
            if (end == item || errno || item[0] == '-') {
                snprintf(err, 256, "bad frame '%s' (N, A-B, A- or last)", item);
                return -1;
            }
            if (*end == '-') {
                const char *h = end + 1;
                if (!*h) {
                    hi = UINT64_MAX;
                } else {
                    hi = strtoull(h, &end, 10);
                    if (end == h || *end || errno || hi < lo) {
                        snprintf(err, 256, "bad frame range '%s'", item);
                        return -1;
                    }
                }
            } else if (*end) {
                snprintf(err, 256, "bad frame '%s' (N, A-B, A- or last)", item);
                return -1;
            }
            if (s->n == RP_MAX_RANGES) {
                snprintf(err, 256, "at most %d frame ranges", RP_MAX_RANGES);
                return -1;
            }
            s->lo[s->n] = lo, s->hi[s->n] = hi, s->n++;
        }
        p += n;
        if (*p == ',')
            p++;
    }
    return 0;
}

int rp_frameset_has(const rp_frameset_t *s, uint64_t f, int is_last)
{
    if (s->all || (s->last && is_last))
        return 1;
    for (uint32_t i = 0; i < s->n; i++)
        if (f >= s->lo[i] && f <= s->hi[i])
            return 1;
    return 0;
}

static void vmsg(rp_state_t *st, const char *kind, const char *fmt, va_list ap)
{
    if (st->progress_shown) {
        fputc('\n', stderr);
        st->progress_shown = 0;
    }
    fprintf(stderr, RP_PREFIX "%s", kind);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

void rp_fatal(rp_state_t *st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pthread_mutex_lock(&st->lock);
    if (!st->stop)
        vmsg(st, "", fmt, ap);
    st->failed = 1;
    st->stop = 1;
    pthread_mutex_unlock(&st->lock);
    va_end(ap);
}

void rp_error_note(rp_state_t *st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pthread_mutex_lock(&st->lock);
    vmsg(st, "", fmt, ap);
    pthread_mutex_unlock(&st->lock);
    va_end(ap);
}

void rp_note(rp_state_t *st, const char *fmt, ...)
{
    if (st->o->quiet)
        return;
    va_list ap;
    va_start(ap, fmt);
    pthread_mutex_lock(&st->lock);
    vmsg(st, "", fmt, ap);
    pthread_mutex_unlock(&st->lock);
    va_end(ap);
}

/* The first warning about function fn, with the call and frame it came
 * from (st->lock held); later ones about fn are counted, not printed. */
static void warn_once_v(rp_state_t *st, uint32_t fn, const char *fmt, va_list ap)
{
    if (fn >= w15_nfuncs + w15_npseudo || st->warned[fn])
        return;
    st->warned[fn] = 1;
    if (st->o->quiet)
        return;
    char buf[600];
    vsnprintf(buf, sizeof buf, fmt, ap);
    if (st->progress_shown)
        fputc('\n', stderr), st->progress_shown = 0;
    fprintf(stderr, RP_PREFIX "warning: %s (first at call %llu, frame %llu): %s%s\n",
            w15_str(w15_funcs[fn].name), st->cur_call ? (unsigned long long)st->cur_call->index : 0ull,
            (unsigned long long)st->frame, buf, " (further calls of this function are not reported)");
}

int rp_cannot(rp_exec_t *x, uint32_t fn, const char *fmt, ...)
{
    rp_state_t *st = x->st;
    pthread_mutex_lock(&st->lock);
    if (st->o->strict) {
        if (!st->stop) {
            char buf[600];
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(buf, sizeof buf, fmt, ap);
            va_end(ap);
            if (st->progress_shown)
                fputc('\n', stderr), st->progress_shown = 0;
            fprintf(stderr, RP_PREFIX "error (--strict): %s (call %llu, frame %llu): %s\n",
                    fn < w15_nfuncs + w15_npseudo ? w15_str(w15_funcs[fn].name) : "?",
                    x->st->cur_call ? (unsigned long long)x->st->cur_call->index : 0ull,
                    (unsigned long long)st->frame, buf);
        }
        st->failed = 1;
        st->stop = 1;
    } else {
        va_list ap;
        va_start(ap, fmt);
        warn_once_v(st, fn, fmt, ap);
        va_end(ap);
    }
    st->skipped++;
    pthread_mutex_unlock(&st->lock);
    return 1;
}

void rp_warn(rp_exec_t *x, uint32_t fn, const char *fmt, ...)
{
    rp_state_t *st = x->st;
    pthread_mutex_lock(&st->lock);
    va_list ap;
    va_start(ap, fmt);
    warn_once_v(st, fn, fmt, ap);
    va_end(ap);
    pthread_mutex_unlock(&st->lock);
}

void *rp_zeros(rp_state_t *st)
{
    pthread_mutex_lock(&st->lock);
    if (!st->zeros) {
        void *p = mmap(NULL, RP_ZEROS, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        st->zeros = p == MAP_FAILED ? NULL : p;
    }
    pthread_mutex_unlock(&st->lock);
    return st->zeros;
}

void *rp_addr(rp_state_t *st, uint32_t fn)
{
    if (__builtin_expect(st->addr_done[fn], 1))
        return st->addr[fn];
    pthread_mutex_lock(&st->lock);
    if (!st->addr_done[fn]) {
        st->addr[fn] = rp_wsi_proc(st, w15_str(w15_funcs[fn].name));
        __atomic_store_n(&st->addr_done[fn], 1, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&st->lock);
    return st->addr[fn];
}

int rp_call_real(rp_exec_t *x, rp_call_t *c)
{
    void *fn = rp_addr(x->st, c->fn);
    if (!fn)
        return rp_cannot(x, c->fn, "the replaying GL has no such function");
    rp_funcs[c->fn].thunk(fn, c->a, &c->r);
    x->st->calls++;
    return 0;
}

/* A pseudo-call this version replays (the others are skipped with a note). */
static int replayed_pseudo(uint32_t g)
{
    switch (g) {
    case W15F_wip15ClientMemory: case W15F_wip15ClientMemorySame: case W15F_wip15ClientArray:
    case W15F_wip15BufferWrite: case W15F_wip15FrameDigest: case W15F_wip15ContextConfig: case W15F_wip15DrawableSize:
        return 1;
    default:
        return 0;
    }
}

static int exec_pseudo(rp_exec_t *x, rp_call_t *c)
{
    switch (c->fn) {
    case W15F_wip15ClientMemory: return rp_mem_client_memory(x, c);
    case W15F_wip15ClientMemorySame: return rp_mem_client_memory_same(x, c);
    case W15F_wip15ClientArray: return rp_mem_client_array(x, c);
    case W15F_wip15BufferWrite: return rp_mem_buffer_write(x, c);
    case W15F_wip15FrameDigest: return rp_check_frame_digest(x, c);
    case W15F_wip15ContextConfig: return rp_wsi_context_config(x, c);
    case W15F_wip15DrawableSize: return rp_wsi_drawable_size(x, c);
    default: return 0;
    }
}

/* wip15.unreadable: the program's memory behind a parameter could not be
 * read when recorded (the value is empty; the replay gives zeros). */
static int unreadable(rp_exec_t *x, rp_call_t *c)
{
    rp_state_t *st = x->st;
    const w15_ptr_entry_t *e;
    uint32_t n;
    w15_error_t err;
    if (w15_reader_unreadable(st->rd, c->wc, &e, &n, &err)) {
        rp_fatal(st, "%s", err.msg);
        return -1;
    }
    if (!n)
        return 0;
    const w15_func_sig_t *fs = &w15_funcs[c->fn];
    const char *pn = e[0].param < fs->nparams ? w15_str(w15_params[fs->first_param + e[0].param].name) : "?";
    if (st->o->strict)
        return rp_cannot(x, c->fn, "the memory behind parameter %s could not be read when it was recorded "
                                   "(wip15.unreadable)", pn) ? -1 : 0;
    pthread_mutex_lock(&st->lock);
    int first = !st->warned_unreadable[c->fn];
    st->warned_unreadable[c->fn] = 1;
    pthread_mutex_unlock(&st->lock);
    if (first && !st->o->quiet)
        rp_note(st, "warning: %s (first at call %llu, frame %llu): the memory behind parameter %s could not "
                    "be read when it was recorded (wip15.unreadable); replayed with zeros (further calls of "
                    "this function are not reported)",
                w15_str(fs->name), (unsigned long long)c->wc->index, (unsigned long long)st->frame, pn);
    return 0;
}

int rp_exec_call(rp_exec_t *x, const rp_job_t *j)
{
    rp_state_t *st = x->st;
    uint32_t fn = j->fn;
    if (fn == RP_FN_NOOP)
        return 0;
    rp_call_t c;
    c.wc = j->wc;
    c.fn = fn;
    c.frame = st->frame;
    c.r.u = 0;
    c.dig = NULL;
    c.ndig = 0;
    c.spn = NULL;
    c.nspn = 0;
    if (!j->ok) {
        rp_cannot(x, fn, "recorded with another signature");
        return st->stop ? -1 : 0;
    }
    if (fn >= w15_nfuncs) {
        c.nargs = j->wc->func->nargs;
        int rc = exec_pseudo(x, &c);
        return rc < 0 || st->stop ? -1 : 0;
    }
    const rp_func_t *rf = &rp_funcs[fn];
    int rc = 0;
    if (rf->kind == RP_KIND_SKIP) {
        st->skipped++;
        goto out;
    }
    rp_arena_reset(&x->arena);
    if (j->wc->nextras && unreadable(x, &c) < 0)
        return -1;
    rc = rp_decode(x, &c);
    if (rc) {
        rc = rc < 0 ? -1 : 0;
        goto out;
    }
    /* glBegin waits for its first glArrayElement's arrays (mem.c) */
    if (fn == W15F_glBegin && rf->kind == RP_KIND_CALL && rp_mem_begin(x, &c))
        goto out;
    rp_mem_before_call(x);
    uint64_t t0 = st->o->timing ? rp_timing_pre(x, j, fn) : 0;
    if (rf->kind == RP_KIND_CUSTOM) {
        if (rf->handler && rf->handler < rp_nhandlers)
            rc = rp_handlers[rf->handler](x, &c);
    } else if (__builtin_expect(fn == st->fn_get_error && x->ctx && x->ctx->pending_error, 0)) {
        /* an error check.c took from GL (a failed read-back): this is the
         * value GL would return; the real call clears what came after, as
         * GL keeps only the first error */
        rc = rp_call_real(x, &c);
        c.r.u = x->ctx->pending_error;
        x->ctx->pending_error = 0;
    } else {
        rc = rp_mem_pin(x, &c);
        if (rc == 0 && (w15_funcs[fn].flags & W15_FN_VERTEX_DRAW) && (rc = rp_mem_check_draw(x, &c)) > 0)
            goto out;
        if (rc == 0)
            rc = rp_call_real(x, &c);
        if (rc == 0)
            rp_roles_after(x, &c);
    }
    if (st->o->timing)
        rp_timing_post(x, j, fn, t0);
    if (rc == 0 && st->o->check)
        rp_check_call(x, &c);
    rc = rc < 0 ? -1 : 0;
out:
    rp_mem_after_call(x, fn);
    return rc < 0 || st->stop ? -1 : 0;
}

void rp_exec_free(rp_exec_t *x)
{
    rp_arena_free(&x->arena);
    free(x->fbuf);
    rp_mem_exec_free(x);
    rp_timing_exec_free(x);
}

/* ---- declarations ---------------------------------------------------- */

#define DENSE_DECLS 65536u

/* The declaration of trace function `index`: a direct array for the small
 * indices every trace of ours uses, the map for the others. */
static rp_decl_t *decl_of(rp_state_t *st, uint32_t index)
{
    uint32_t k;
    if (index < DENSE_DECLS) {
        k = st->decl_dense ? st->decl_dense[index] : 0;
    } else {
        uint64_t v = rp_names_get(&st->decl_index, (uint64_t)index + ((uint64_t)1 << 40));
        k = v < ((uint64_t)1 << 40) ? (uint32_t)v : 0;
    }
    return k >= 1 && k <= st->ndecls ? &st->decls[k - 1] : NULL;
}

static int declare(rp_state_t *st, const w15_func_t *f)
{
    rp_decl_t *d = decl_of(st, f->index);
    if (!d) {
        if (st->ndecls == st->decap) {
            uint32_t cap = st->decap ? st->decap * 2 : 64;
            rp_decl_t *nd = realloc(st->decls, (size_t)cap * sizeof *nd);
            if (!nd)
                return -1;
            st->decls = nd;
            st->decap = cap;
        }
        d = &st->decls[st->ndecls++];
        if (f->index < DENSE_DECLS) {
            if (!st->decl_dense && !(st->decl_dense = calloc(DENSE_DECLS, sizeof *st->decl_dense)))
                return -1;
            st->decl_dense[f->index] = st->ndecls;
        } else if (rp_names_put(&st->decl_index, (uint64_t)f->index + ((uint64_t)1 << 40), st->ndecls)) {
            return -1;
        }
    }
    memset(d, 0, sizeof *d);
    d->fn = RP_FN_UNKNOWN;
    int g = w15_func_lookup(f->name);
    uint32_t gflags = g >= 0 ? w15_funcs[g].flags : 0;
    if (gflags & W15_FN_TRACE_BEGIN) {
        d->fn = RP_FN_TRACE_BEGIN;
    } else if (gflags & W15_FN_THREAD_SWITCH) {
        d->fn = RP_FN_THREAD_SWITCH;
        d->ok = f->nargs >= 1 && f->args[0].base == W15_UINT && !f->args[0].is_array;
    } else if ((gflags & W15_FN_PSEUDO) && replayed_pseudo((uint32_t)g)) {
        d->fn = (uint32_t)g;
        d->ok = rp_signature_ok(f, (uint32_t)g) || (g == W15F_wip15ClientArray && rp_mem_client_array_old(f));
        if (!d->ok)
            rp_note(st, "warning: pseudo-call %s is recorded with another signature than this version's; "
                        "it is not replayed", f->name);
    } else if ((gflags & W15_FN_PSEUDO) || (g < 0 && strncmp(f->name, "wip15", 5) == 0)) {
        d->fn = RP_FN_OTHER_PSEUDO;
        rp_note(st, "note: pseudo-call %s is not replayed by this version", f->name);
    } else {
        if (g >= 0 && (uint32_t)g < rp_nfuncs) {
            d->fn = (uint32_t)g;
            d->ok = rp_signature_ok(f, (uint32_t)g);
            if (!d->ok)
                rp_note(st, "warning: %s is recorded with another signature than this version's; "
                            "its calls are not replayed", f->name);
        } else {
            rp_note(st, "warning: %s is unknown to this version; its calls are not replayed", f->name);
        }
    }
    return 0;
}

/* ---- progress -------------------------------------------------------- */

/* A line on stderr once the replay has run progress_after seconds: on a
 * terminal rewritten in place every second, else (CI logs) a new line
 * every 10 s; the final one when any was shown. */
static void progress(rp_state_t *st, int final)
{
    double t = now_s();
    if (!final && t < st->next_progress)
        return;
    int tty = st->progress_tty;
    st->next_progress = t + (tty ? 1.0 : 10.0);
    if (st->o->quiet)
        return;
    double el = t - st->t0;
    if (!final && el < st->o->progress_after)
        return;
    if (final && !st->progress_any)
        return;
    pthread_mutex_lock(&st->lock);
    fprintf(stderr, "%s" RP_PREFIX "%sframe %llu, %llu calls, %.1f s, %.1f frames/s%s",
            tty ? "\r" : "", final ? "replayed: " : "progress: ", (unsigned long long)st->frame,
            (unsigned long long)st->calls, el, el > 0 ? (double)st->frame / el : 0.0,
            final || !tty ? "\n" : "");
    st->progress_shown = tty && !final;
    st->progress_any = 1;
    pthread_mutex_unlock(&st->lock);
}

/* ---- the run --------------------------------------------------------- */

int rp_run(const rp_opts_t *o)
{
    rp_state_t *st = calloc(1, sizeof *st);
    if (!st) {
        fprintf(stderr, RP_PREFIX "out of memory\n");
        return 1;
    }
    st->o = o;
    pthread_mutex_init(&st->lock, NULL);
    st->addr = calloc(w15_nfuncs, sizeof *st->addr);
    st->addr_done = calloc(w15_nfuncs, 1);
    st->warned = calloc(w15_nfuncs + w15_npseudo, 1);
    st->plan_state = calloc(w15_nfuncs, 1);
    st->warned_unreadable = calloc(w15_nfuncs, 1);
    uint32_t nparams = 0;
    for (uint32_t i = 0; i < w15_nfuncs; i++)
        if (w15_funcs[i].first_param + w15_funcs[i].nparams + 1u > nparams)
            nparams = w15_funcs[i].first_param + w15_funcs[i].nparams + 1u;
    st->plan = calloc(nparams, 1);
    int rc = 1;
    if (!st->addr || !st->addr_done || !st->warned || !st->plan || !st->plan_state || !st->warned_unreadable) {
        fprintf(stderr, RP_PREFIX "out of memory\n");
        goto out;
    }
    w15_error_t err;
    st->rd = w15_reader_open(o->path, &err);
    if (!st->rd) {
        fprintf(stderr, RP_PREFIX "%s\n", err.msg);
        goto out;
    }
    if (rp_wsi_init(st) || rp_mem_init(st))
        goto out;
    rp_check_init(st);
    if (o->timing && rp_timing_start(st))
        goto out;
    st->noctx_share.refs = 1;
    st->t0 = now_s();
    st->next_progress = st->t0 + o->progress_after;
    st->progress_tty = isatty(2);
    rp_exec_t *x = NULL;
    w15_op_t op;
    w15_next_t n;
    uint32_t tick = 0;
    uint64_t tick_frame = 0;
    int truncated = 0;
    while (!st->stop && (n = w15_reader_next(st->rd, &op, &err)) <= W15_NEXT_CALL) {
        if (n == W15_NEXT_DECL_FUNC) {
            if (declare(st, op.func)) {
                rp_fatal(st, "out of memory");
                break;
            }
            continue;
        }
        if (n != W15_NEXT_CALL)
            continue;
        const w15_call_t *wc = op.call;
        rp_decl_t *d = decl_of(st, wc->func->index);
        if (!d || d->fn == RP_FN_TRACE_BEGIN)
            continue;
        if (d->fn == RP_FN_THREAD_SWITCH) {
            if (!d->ok || !wc->args[0].count)
                continue;
            uint32_t had = st->nexecs;
            x = rp_thread_get(st, wc->args[0].v.u[0]);
            if (!x) {
                rp_fatal(st, "cannot start a replay thread");
                break;
            }
            int first = st->nexecs != had;
            if (wc->func->nargs >= 3 && wc->args[2].type.base == W15_UINT && !wc->args[2].type.is_array &&
                wc->args[2].count)
                x->next_seq = wc->args[2].v.u[0];
            if (first && wc->func->nargs >= 4 && wc->args[3].type.base == W15_STRING &&
                !wc->args[3].type.is_array && wc->args[3].count) {
                uint32_t len = wc->args[3].v.s[0].len;
                if (len >= sizeof x->name)
                    len = sizeof x->name - 1;
                memcpy(x->name, wc->args[3].v.s[0].ptr, len);
                x->name[len] = 0;
            }
            /* a thread whose first chunk starts with a context current that
             * the trace never created: recorded from the middle of the
             * program */
            if (first && wc->func->nargs >= 2 && wc->args[1].type.base == W15_PTR &&
                !wc->args[1].type.is_array && wc->args[1].count && wc->args[1].v.u[0] &&
                !rp_wsi_known_context(st, wc->args[1].v.u[0])) {
                rp_fatal(st, "%s: the trace starts with a GL context current that it never created "
                             "(recorded from the middle of the program, e.g. with a frame range "
                             "--frames A-B with A > 0); such traces lack the state before their first "
                             "frame and cannot be replayed yet", o->path);
                break;
            }
            continue;
        }
        if (!x) {
            x = rp_thread_get(st, 0); /* a trace without ThreadSwitch */
            if (!x) {
                rp_fatal(st, "out of memory");
                break;
            }
        }
        rp_job_t j;
        j.next = NULL;
        j.wc = wc;
        j.fn = d->fn;
        j.ok = d->ok;
        j.bytes = 0;
        j.gseq = RP_NO_GSEQ;
        j.seq = 0;
        if (wc->nextras) {
            uint64_t g;
            int r = w15_reader_gseq(st->rd, wc, &g, &err);
            if (r < 0) {
                rp_fatal(st, "%s", err.msg);
                break;
            }
            if (r == 1)
                j.gseq = g;
        }
        if (d->fn < w15_nfuncs || d->fn == RP_FN_UNKNOWN)
            j.seq = x->next_seq++; /* a real call (pseudo-calls have no number) */
        if (d->fn == RP_FN_UNKNOWN || d->fn == RP_FN_OTHER_PSEUDO) {
            if (j.gseq == RP_NO_GSEQ)
                continue;
            j.fn = RP_FN_NOOP; /* not replayed, but it takes its place in the order */
        }
        if (rp_sched_call(st, x, &j) < 0)
            break;
        if (++tick == 2048 || st->frame != tick_frame) { /* a look at the clock now and then */
            tick = 0;
            tick_frame = st->frame;
            progress(st, 0);
        }
    }
    if (!st->stop) {
        if (n == W15_NEXT_TRUNCATED) {
            truncated = 1;
            rp_note(st, "%s; replayed up to the last complete call", err.msg);
        } else if (n == W15_NEXT_ERROR) {
            rp_fatal(st, "%s", err.msg);
        }
    }
    if (!st->stop)
        rp_sched_finish(st);
    progress(st, 1);
    double el = now_s() - st->t0;
    rp_frames_end(st);
    rp_threads_end(st);
    rp_timing_end(st);
    if (o->check && rp_check_end(st))
        st->failed = 1;
    if (o->benchmark && !st->failed)
        fprintf(o->out, "replayed %llu calls in %.3f s: %.0f calls/s, %llu frames: %.2f frames/s%s\n",
                (unsigned long long)st->calls, el, el > 0 ? (double)st->calls / el : 0.0,
                (unsigned long long)st->frame, el > 0 ? (double)st->frame / el : 0.0,
                truncated ? " (truncated trace)" : "");
    rc = st->failed ? 1 : 0;
out:
    rp_threads_end(st);
    rp_timing_end(st);
    rp_wsi_end(st);
    rp_mem_end(st); /* after the contexts: pinned buffers use its memory */
    if (st->rd)
        w15_reader_close(st->rd);
    for (unsigned g = 0; g < W15_GROUP_TYPE_COUNT_; g++) {
        rp_names_free(&st->ws[g]);
        rp_names_free(&st->noctx_ns[g]);
        rp_names_free(&st->noctx_share.ns[g]);
    }
    rp_names_free(&st->noctx_share.locs);
    rp_names_free(&st->visuals);
    rp_names_free(&st->decl_index);
    free(st->decls);
    free(st->decl_dense);
    free(st->addr);
    free(st->addr_done);
    free(st->warned);
    free(st->warned_unreadable);
    free(st->plan);
    free(st->plan_state);
    free(st->pixels);
    if (st->zeros)
        munmap(st->zeros, RP_ZEROS);
    pthread_mutex_destroy(&st->lock);
    free(st);
    return rc;
}
