/* check.c -- --check: does the replay produce what the program saw?
 *
 * Owns: the comparisons and their counts.  Three kinds:
 *  - readbacks: every `wip15.digest` entry of a call (an output GL filled
 *    with data: glReadPixels, glGetTexImage, glGetBufferSubData, ...: its
 *    size and XXH3-64) against XXH3-64 of the same bytes of the replayed
 *    call's output (decode.c zeroes such outputs first and makes them at
 *    least that large): the first `size` bytes, or with a wip15.spans
 *    entry only the rows GL wrote (an image packed with GL_PACK_SKIP_*,
 *    ROW_LENGTH, ...);
 *  - frames: each wip15FrameDigest pseudo-call (written by
 *    `wip15 trace --frame-digests` just before a swap) against XXH3-64 of
 *    the replay's back buffer read at the same point with the recorded
 *    size, format and type (rows bottom-up, tightly packed, frames.c);
 *  - error values: the result of every glGetError against the recorded one.
 * A read-back call that raises a GL error in the replay is not compared
 * (it wrote nothing; the recorded digest is of the program's own memory);
 * taking that error with glGetError here, check.c hands it to the
 * program's next glGetError call in that context (rp_ctx_t.pending_error),
 * which returns it as GL would have.  rp_check_keep_error does the same
 * before the replayer's own queries that may raise errors (decode.c).
 * The first mismatch is reported with the call's index in the trace, its
 * traced thread, its frame and its function, the next ones (up to
 * MAX_REPORTED, not with -q) more briefly; the last line, on stdout, reads
 * "checked N readbacks, M frames, E error values: K mismatches".
 * With --frames A-B only the calls of frames A..B are compared.
 * May use: rp.h, frames.c (rp_frames_read), libxxhash (and wip15/spans_hash.h,
 * the row digest the tracer uses too).
 * Must never: change GL state or raise a GL error (frames.c restores what
 * its readback touches).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define XXH_INLINE_ALL
#include <xxhash.h>
#include "wip15/spans_hash.h"

#include "funcs.h"
#include "rp.h"

#define MAX_REPORTED 10

void rp_check_init(rp_state_t *st)
{
    st->fn_get_error = W15F_glGetError;
}

uint32_t (*rp_check_get_error(rp_state_t *st))(void)
{
    return st->fn_get_error == UINT32_MAX ? NULL : (uint32_t(*)(void))rp_addr(st, st->fn_get_error);
}

void rp_check_drop_errors(rp_exec_t *x)
{
    uint32_t (*ge)(void) = rp_check_get_error(x->st);
    for (int k = 0; ge && k < 8 && ge(); k++)
        ;
}

uint32_t rp_check_keep_error(rp_exec_t *x)
{
    uint32_t (*ge)(void) = rp_check_get_error(x->st);
    uint32_t e = ge ? ge() : 0;
    if (e && !x->ctx->pending_error)
        x->ctx->pending_error = e;
    return e;
}

static int in_range(const rp_state_t *st)
{
    return st->frame >= st->o->first && st->frame <= st->o->last;
}

static void mismatch(rp_exec_t *x, const w15_call_t *wc, const char *fname, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void mismatch(rp_exec_t *x, const w15_call_t *wc, const char *fname, const char *fmt, ...)
{
    rp_state_t *st = x->st;
    uint64_t k = ++st->chk_mismatches;
    if (k > MAX_REPORTED || (k > 1 && st->o->quiet))
        return; /* the first one is the reason of the exit status: shown even with -q */
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (k == 1)
        rp_error_note(st, "check: first mismatch at call %llu (thread %llu, frame %llu, %s): %s",
                (unsigned long long)wc->index, (unsigned long long)x->tid, (unsigned long long)st->frame,
                fname, buf);
    else
        rp_note(st, "check: mismatch at call %llu (thread %llu, frame %llu, %s): %s%s",
                (unsigned long long)wc->index, (unsigned long long)x->tid, (unsigned long long)st->frame,
                fname, buf, k == MAX_REPORTED ? " (further mismatches are only counted)" : "");
}

static uint64_t rec_u(const w15_value_t *v)
{
    if (!v || !v->count || v->type.is_array)
        return 0;
    switch (v->type.base) {
    case W15_UINT: case W15_PTR: return v->v.u[0];
    case W15_INT: return (uint64_t)v->v.i[0];
    default: return 0;
    }
}

/* Outputs of c whose recorded values --check compares (RP_ROLE_CHECK:
 * glGetUniform*v) and the trace holds (not a bare pointer): how many. */
static uint32_t recorded_values(const rp_call_t *c)
{
    const rp_func_t *f = &rp_funcs[c->fn];
    uint32_t n = 0;
    for (uint32_t k = 0; k < f->nroles; k++) {
        const rp_role_t *r = &rp_roles[f->first_role + k];
        if (r->role == RP_ROLE_CHECK && r->param < c->nargs && r->param < c->wc->func->nargs) {
            const w15_value_t *v = &c->wc->args[r->param];
            n += v->count && v->type.base != W15_PTR && c->a[r->param].vp;
        }
    }
    return n;
}

/* Element j of recorded value v as the bytes a C output of type ct holds
 * (*out, up to 8 bytes): 1, or 0 when the types do not go together. */
static int recorded_elem(const w15_value_t *v, uint32_t j, uint8_t ct, uint8_t *out)
{
    union { int32_t i32; uint32_t u32; int64_t i64; uint64_t u64; float f; double d; } e;
    switch (ct) {
    case W15_C_F32:
        if (v->type.base != W15_FLOAT)
            return 0;
        e.f = v->v.f[j];
        memcpy(out, &e.f, 4);
        return 1;
    case W15_C_F64:
        if (v->type.base != W15_DOUBLE)
            return 0;
        e.d = v->v.d[j];
        memcpy(out, &e.d, 8);
        return 1;
    case W15_C_I32: case W15_C_U32: case W15_C_I64: case W15_C_U64:
        if (v->type.base == W15_INT)
            e.i64 = v->v.i[j];
        else if (v->type.base == W15_UINT)
            e.u64 = v->v.u[j];
        else
            return 0;
        if (ct == W15_C_I32 || ct == W15_C_U32) {
            e.u32 = (uint32_t)e.u64;
            memcpy(out, &e.u32, 4);
        } else {
            memcpy(out, &e.u64, 8);
        }
        return 1;
    default:
        return 0;
    }
}

/* The RP_ROLE_CHECK outputs of c: each recorded value against what the
 * replayed call wrote there, bit for bit (one read-back each). */
static void check_values(rp_exec_t *x, const rp_call_t *c, const char *fname)
{
    const rp_func_t *f = &rp_funcs[c->fn];
    for (uint32_t k = 0; k < f->nroles; k++) {
        const rp_role_t *r = &rp_roles[f->first_role + k];
        if (r->role != RP_ROLE_CHECK || r->param >= c->nargs || r->param >= c->wc->func->nargs)
            continue;
        const w15_value_t *v = &c->wc->args[r->param];
        const uint8_t *p = c->a[r->param].vp;
        if (!v->count || v->type.base == W15_PTR || !p)
            continue;
        const w15_param_sig_t *ps = &w15_params[w15_funcs[c->fn].first_param + r->param];
        size_t es = ps->ctype == W15_C_F64 || ps->ctype == W15_C_I64 || ps->ctype == W15_C_U64 ? 8 : 4;
        x->st->chk_readbacks++;
        for (uint32_t j = 0; j < v->count; j++) {
            uint8_t want[8];
            if (!recorded_elem(v, j, ps->ctype, want))
                break;
            if (memcmp(want, p + j * es, es) != 0) {
                mismatch(x, c->wc, fname, "parameter %s: value %u of %u differs from the recorded one",
                         w15_str(ps->name), j + 1, v->count);
                break;
            }
        }
    }
}

void rp_check_call(rp_exec_t *x, const rp_call_t *c)
{
    rp_state_t *st = x->st;
    if (!in_range(st))
        return;
    const char *fname = w15_str(w15_funcs[c->fn].name);
    if (c->fn == st->fn_get_error && c->wc->result) {
        st->chk_errors++;
        uint32_t rec = (uint32_t)rec_u(c->wc->result), got = (uint32_t)c->r.u;
        if (rec != got)
            mismatch(x, c->wc, fname, "glGetError returned 0x%04x when recorded, 0x%04x now", rec, got);
    }
    int values = recorded_values(c) > 0;
    if ((c->ndig || values) && x->ctx && st->fn_get_error != UINT32_MAX) {
        /* A read-back call that raised a GL error wrote nothing: the
         * recorded digest is of the program's own memory (whatever it held),
         * not of GL's data.  Not compared; the error is kept for the
         * program's next glGetError (replay.c), as GL keeps it. */
        if (rp_check_keep_error(x)) {
            st->chk_failed_reads++;
            return;
        }
    }
    if (values)
        check_values(x, c, fname);
    for (uint32_t k = 0; k < c->ndig; k++) {
        const w15_digest_entry_t *d = &c->dig[k];
        if (d->param >= c->nargs)
            continue; /* a result's digest: nothing to compare here */
        const w15_param_sig_t *ps = &w15_params[w15_funcs[c->fn].first_param + d->param];
        const void *p = c->a[d->param].vp;
        st->chk_readbacks++;
        if (!p) {
            mismatch(x, c->wc, fname, "parameter %s: %llu bytes read back when recorded, none now",
                     w15_str(ps->name), (unsigned long long)d->size);
            continue;
        }
        const w15_spans_entry_t *sp = NULL;
        for (uint32_t j = 0; j < c->nspn; j++)
            if (c->spn[j].param == d->param)
                sp = &c->spn[j];
        uint64_t h;
        if (sp && w15_spans_extent(sp) <= d->size) {
            /* only the rows GL wrote (an image under the pack state) */
            h = w15_rows_xxh3(p, sp->first, sp->span, sp->rows, sp->row_stride, sp->images, sp->image_stride);
        } else {
            h = XXH3_64bits(p, (size_t)d->size);
        }
        if (h != d->hash)
            mismatch(x, c->wc, fname, "parameter %s: the %llu bytes read back differ (xxh3 %016llx when "
                                      "recorded, %016llx now)",
                     w15_str(ps->name), (unsigned long long)d->size, (unsigned long long)d->hash,
                     (unsigned long long)h);
    }
}

/* wip15FrameDigest(frame, width, height, format, type, digest) */
int rp_check_frame_digest(rp_exec_t *x, const rp_call_t *c)
{
    rp_state_t *st = x->st;
    if (!st->o->check || !in_range(st) || c->wc->func->nargs < 6)
        return 0;
    const w15_value_t *a = c->wc->args;
    uint64_t frame = rec_u(&a[0]), want = rec_u(&a[5]);
    int64_t w = (int64_t)rec_u(&a[1]), h = (int64_t)rec_u(&a[2]);
    uint32_t format = (uint32_t)rec_u(&a[3]), type = (uint32_t)rec_u(&a[4]);
    const char *fname = w15_str(w15_funcs[c->fn].name);
    if (!x->ctx) {
        st->chk_frames++;
        mismatch(x, c->wc, fname, "frame %llu: no context current to read it from", (unsigned long long)frame);
        return 0;
    }
    if (w <= 0 || h <= 0 || w > 16384 || h > 16384) {
        rp_warn(x, c->fn, "a frame digest of %lldx%lld pixels: not checked", (long long)w, (long long)h);
        return 0;
    }
    size_t n = rp_frames_read(x, (int)w, (int)h, format, type, &x->fbuf, &x->fcap);
    if (!n) {
        if (st->stop)
            return -1;
        rp_warn(x, c->fn, "frame digests read as format 0x%x, type 0x%x: not known here, not checked", format,
                type);
        return 0;
    }
    st->chk_frames++;
    uint64_t got = XXH3_64bits(x->fbuf, n);
    if (got != want) {
        rp_surface_t *s = x->ctx->draw;
        char size[96] = "";
        if (s && (s->width != w || s->height != h))
            snprintf(size, sizeof size, " (the replay's drawable is %dx%d, the recorded frame %lldx%lld)",
                     s->width, s->height, (long long)w, (long long)h);
        mismatch(x, c->wc, fname, "frame %llu differs: xxh3 %016llx when recorded, %016llx now%s",
                 (unsigned long long)frame, (unsigned long long)want, (unsigned long long)got, size);
    }
    return 0;
}

int rp_check_end(rp_state_t *st)
{
    fprintf(st->o->out, "checked %llu readbacks, %llu frames, %llu error values: %llu mismatches\n",
            (unsigned long long)st->chk_readbacks, (unsigned long long)st->chk_frames,
            (unsigned long long)st->chk_errors, (unsigned long long)st->chk_mismatches);
    return st->chk_mismatches != 0;
}
