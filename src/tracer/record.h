/* record.h -- the recorder's side for the generated wrappers
 * (gen/wrappers.c, codegen/templates/wrapper*.c.in) and custom.c: the
 * general path's entry points (w15_pre, w15_post) and the inline fast path,
 * with only what they need: the thread's state (thread.h), whether we
 * record (state.h), the real entry points (resolve.h), the timing records
 * (tmrec.h).  The recorder's module statement (owns, may use, must never
 * use) is in recorder.h, its side for the rest of the runtime.
 *
 * A generated wrapper has one of two shapes.
 *
 * The general shape, for a function with a pointer or an output:
 *
 *   W15_EXPORT GLenum APIENTRY glFoo(GLenum a, const GLint *b)
 *   {
 *       w15_slot_t s_[2], rs_; w15_callctx_t c_;   // s_: at least 1 element
 *       s_[0].u = a; s_[1].p = b;                  // pack every argument
 *       w15_pre(&c_, W15F_glFoo, s_);              // what is known before the call
 *       GLenum r_ = R_(glFoo)(a, b);
 *       rs_.u = r_;                                // only when the result is not void
 *       w15_post(&c_, s_, &rs_);                   // outputs, result, extras; ends the call
 *       return r_;
 *   }
 *
 * Packing: w15_slot_t (src/common/apitable.h).
 *
 * The fast shape, for a function whose parameters (and result) are all
 * recorded by value (W15_CAP_VALUE, or handles: W15_CAP_PTR of base Ptr)
 * and that is not a frame end, a MakeCurrent or a pixel transfer: the
 * generator knows every parameter's encoding, so the call is encoded inline
 * with constants (function index, group indices, the largest size); the
 * general shape is the fallback, out of line so the fast path needs no
 * stack frame for the slots:
 *
 *   static W15_COLD void w15s_glBindBuffer(GLenum target, GLuint buffer)
 *   {
 *       ... the general shape ...
 *   }
 *   W15_EXPORT void APIENTRY glBindBuffer(GLenum target, GLuint buffer)
 *   {
 *       w15_thread_t *t_; uint8_t *p_ = w15_fast_begin(&t_, W15F_glBindBuffer, 37);
 *       if (W15_UNLIKELY(p_ == 0)) {              // not now: the general path
 *           w15s_glBindBuffer(target, buffer);
 *           return;
 *       }
 *       p_ = w15_fput_uv(p_, (uint32_t)(target)); p_ = w15_fput_g(p_, 19);
 *       p_ = w15_fput_uv(p_, (uint32_t)(buffer)); p_ = w15_fput_g(p_, 277);
 *       w15_fast_commit(t_, p_);                  // extra count (0), commit, seq++
 *       R_(glBindBuffer)(target, buffer);
 *       w15_fast_end(t_, W15F_glBindBuffer);      // timing scope's leave, hand the
 *   }                                             // chunk over when due, leave
 *
 * With a result: w15_fast_inputs(t_, p_, id) before the real call (for the
 * crash path: the inputs are complete), the result's put after it, then
 * w15_fast_commit and w15_fast_end.  The bytes are exactly those the
 * general path writes (docs/FORMAT.md): the fast path is taken only once
 * the function is declared (w15_fast_ok), and never for a nested call, a
 * thread's first call of a chunk (its wip15ThreadSwitch), a call that could
 * reach the chunk limit, a pending steal, or a function whose timing hooks
 * at the configured level are more than a call scope (frame ends, debug
 * groups, markers: those go through w15_pre/w15_post).  A call scope (levels
 * draws, all) is opened by w15_fast_begin and closed by w15_fast_end.
 */
#ifndef W15_RECORD_H
#define W15_RECORD_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "apitable.h"
#include "attrs.h"
#include "resolve.h"
#include "state.h"
#include "thread.h"
#include "tmrec.h"
#include "wip15/format.h"

/* State carried from w15_pre to w15_post on the wrapper's stack. */
typedef struct w15_callctx {
    struct w15_thread *t; /* NULL when this call is not recorded */
    uint32_t id;          /* function index */
    uint32_t state;       /* runtime-private */
} w15_callctx_t;

/* Called by every generated wrapper (the fast shape: when the fast path
 * declines); never fail, never change errno. */
void w15_pre(w15_callctx_t *c, uint32_t id, const w15_slot_t *args) W15_HIDDEN;
void w15_post(w15_callctx_t *c, const w15_slot_t *args, const w15_slot_t *ret) W15_HIDDEN;

/* Per function index: 0 until the function and its groups are declared
 * (set with release after the declaration is queued), then W15_FAST_OK when
 * the function gets no timing hooks at the configured level, W15_FAST_OK |
 * W15_FAST_TIMED when its only hook is a call scope (levels draws, all),
 * and 0 for other hooks (frames, debug groups, markers).  Never reset. */
extern uint8_t w15_fast_ok[] W15_HIDDEN;
#define W15_FAST_OK 1u
#define W15_FAST_TIMED 2u
/* The unusual end of a fast-path call (record.c): hand the chunk over. */
void w15_fast_end_slow(w15_thread_t *t) W15_HIDDEN;
/* ------------------------------------------------------------------ */
/* The fast path (see the top of this file)                            */

/* Enter a fast-path call of function `id` whose encoding takes at most
 * `max` bytes (opcode, index, values, groups, result, extra count; each
 * varint counted as W15_MAX_UVARI).  Returns where the first argument goes
 * (the opcode and the index are written) and sets *tp, with the thread
 * inside the call (in_call = 1); or NULL, changing nothing: then use
 * w15_pre/w15_post. */
W15_INLINE uint8_t *w15_fast_begin(w15_thread_t **tp, uint32_t id, size_t max)
{
    w15_thread_t *t = w15_tls;
    if (W15_UNLIKELY(!t) || W15_UNLIKELY(atomic_load_explicit(&t->in_call, memory_order_relaxed)) ||
        W15_UNLIKELY(!atomic_load_explicit(&w15_recording, memory_order_relaxed)))
        return NULL;
    unsigned ok = __atomic_load_n(&w15_fast_ok[id], __ATOMIC_ACQUIRE);
    if (W15_UNLIKELY(!ok))
        return NULL;
    atomic_store_explicit(&t->in_call, 1, memory_order_relaxed);
    atomic_signal_fence(memory_order_seq_cst); /* paired with w15_heavy_fence (thread.c) */
    /* the buffer is read only after steal_req (the stealer may have swapped it) */
    if (W15_UNLIKELY(atomic_load_explicit(&t->steal_req, memory_order_acquire)))
        goto no;
    size_t len = t->buf.len;
    /* one compare: len == 0 (a new chunk: ThreadSwitch first), or the call
     * could reach the chunk limit (the general path then hands the chunk
     * over after it, as before; and cap >= W15_FAST_CAP_MIN) */
    if (W15_UNLIKELY(len - 1 >= W15_CHUNK_LIMIT - 1 - max))
        goto no;
    if (W15_UNLIKELY(ok & W15_FAST_TIMED)) {
        /* the call scope: a record with the enter time; w15_fast_end
         * completes it (tm_lim leaves room for the general path) */
        w15_tmrec_t *r = t->tm_cur;
        if (W15_UNLIKELY(r >= t->tm_lim))
            goto no;
        r->kind = id;
        r->arg = (uint32_t)t->seq;
        r->t0 = w15_fast_ticks();
    }
    uint8_t *p = t->buf.data + len;
    uint32_t le = w15_to_le32(id);
    p[0] = W15_OP_CALL;
    memcpy(p + 1, &le, 4);
    *tp = t;
    return p + 5;
no:
    atomic_store_explicit(&t->in_call, 0, memory_order_relaxed);
    return NULL;
}

/* Unsigned varint (uvari).  Writes at most W15_MAX_UVARI bytes (the
 * unusual sizes store 8 bytes at once: scratch within the reserve). */
uint8_t *w15_fput_uv_big(uint8_t *p, uint64_t v) W15_HIDDEN;
W15_INLINE uint8_t *w15_fput_uv(uint8_t *p, uint64_t v)
{
    if (W15_LIKELY(v < 0x80)) {
        *p = (uint8_t)v;
        return p + 1;
    }
    if (v < 0x4000) {
        p[0] = (uint8_t)(v | 0x80);
        p[1] = (uint8_t)(v >> 7);
        return p + 2;
    }
    if (v < 0x200000) { /* most enumerants */
        p[0] = (uint8_t)(v | 0x80);
        p[1] = (uint8_t)((v >> 7) | 0x80);
        p[2] = (uint8_t)(v >> 14);
        return p + 3;
    }
    return w15_fput_uv_big(p, v);
}
/* Signed varint of version 0.0: sign and magnitude, INT64_MIN as uvari(1). */
W15_INLINE uint8_t *w15_fput_sv(uint8_t *p, int64_t v)
{
    if (W15_UNLIKELY(v == INT64_MIN)) {
        *p = 1;
        return p + 1;
    }
    uint64_t mag = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    return w15_fput_uv(p, (mag << 1) | (uint64_t)(v < 0));
}
W15_INLINE uint8_t *w15_fput_u8(uint8_t *p, uint8_t v)
{
    *p = v;
    return p + 1;
}
/* A group index (u32) after a value. */
W15_INLINE uint8_t *w15_fput_g(uint8_t *p, uint32_t g)
{
    uint32_t le = w15_to_le32(g);
    memcpy(p, &le, 4);
    return p + 4;
}
W15_INLINE uint8_t *w15_fput_f32(uint8_t *p, float v)
{
    uint32_t u;
    memcpy(&u, &v, 4);
    u = w15_to_le32(u);
    memcpy(p, &u, 4);
    return p + 4;
}
W15_INLINE uint8_t *w15_fput_f64(uint8_t *p, double v)
{
    uint64_t u;
    memcpy(&u, &v, 8);
    u = w15_to_le64(u);
    memcpy(p, &u, 8);
    return p + 8;
}

/* A function with a result, before the real call: the inputs (up to p) are
 * complete, for the crash path (record.c w15_record_crash_complete). */
W15_INLINE void w15_fast_inputs(w15_thread_t *t, uint8_t *p, uint32_t id)
{
    t->call_start = t->buf.len;
    t->nptr = 0;
    t->cur_id = id;
    t->pre_complete = 1;
    t->buf.len = (size_t)(p - t->buf.data);
}

/* The call is encoded up to p: write the extra count (0) and commit it. */
W15_INLINE void w15_fast_commit(w15_thread_t *t, uint8_t *p)
{
    memset(p, 0, 4);
    size_t n = (size_t)(p + 4 - t->buf.data);
    t->buf.len = n;
    __atomic_store_n(&t->buf.committed, n, __ATOMIC_RELEASE);
    t->seq++;
}

/* After the real call (and the commit) of function `id`: the timing
 * scope's leave (w15_fast_ok[id] is the value w15_fast_begin saw: set once,
 * never changed), hand the chunk over when the flush epoch changed, leave
 * the call.  (A fast-path call never makes the chunk reach W15_CHUNK_LIMIT
 * or W15_TM_SUBMIT: see w15_fast_begin.) */
W15_INLINE void w15_fast_end(w15_thread_t *t, uint32_t id)
{
    if (W15_UNLIKELY(__atomic_load_n(&w15_fast_ok[id], __ATOMIC_RELAXED) & W15_FAST_TIMED)) {
        /* the call scope's record: its leave time completes it */
        w15_tmrec_t *r = t->tm_cur;
        r->t1 = w15_fast_ticks();
        __atomic_store_n(&t->tm_cur, r + 1, __ATOMIC_RELEASE);
    }
    if (W15_UNLIKELY(t->epoch != atomic_load_explicit(&w15_flush_epoch, memory_order_relaxed)))
        w15_fast_end_slow(t);
    atomic_store_explicit(&t->in_call, 0, memory_order_release);
}

#endif
