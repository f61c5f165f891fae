/* record.c -- the generic recorder: w15_pre / w15_post walk a function's
 * parameter signatures (apitable.h) and encode one OpCall into the calling
 * thread's buffer.
 *
 * Layout of a call (docs/FORMAT.md): opcode, u32 function index, each
 * argument Value, the result Value (unless Void), u32 extra count, extras.
 * Arguments before the function's first output parameter are encoded in
 * w15_pre, so a crash inside the driver still finds the inputs buffered;
 * the rest (outputs, the result, the extras) in w15_post.
 *
 * Most by-value calls never come here: their generated wrappers encode
 * inline (record.h, the fast shape) once declare_slow has set their
 * w15_fast_ok byte; this file keeps the general path, the declarations and
 * the out-of-line pieces of the fast path (w15_fast_end_slow,
 * w15_fput_uv_big).
 */
#include "record.h"
#include "recorder.h"
#include "capture.h"
#include "pseudo.h"
#include "config.h"
#include "context.h"
#include "decl.h"
#include "log.h"
#include "pixels.h"
#include "state.h"
#include "statesize.h"
#include "thread.h"
#include "timing.h"
#include "fhash.h"
#include "guard.h"
#include "funcs.h"

#define XXH_INLINE_ALL
#include <xxhash.h>
#include "wip15/spans_hash.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* Per function, set (release) once its declaration is queued: bits 0-7 =
 * index of the first parameter encoded after the call + 1, W15_FI_* flags,
 * bits 16-23 the number of parameters, bits 32-63 first_param (a copy of
 * w15_funcs[id], so the fast path needs one load). */
static _Atomic uint64_t *w15_declared;
#define W15_FI_SIMPLE 0x100u  /* every parameter and the result by value: fast path */
#define W15_FI_VOID 0x200u    /* ... and no result: the whole call is encoded in w15_pre */
/* Per parameter (w15_params order): the fast-path encoding op. */
static uint8_t *w15_prog;
uint8_t w15_fast_ok[W15F__TOTAL];

#define CHUNK_LIMIT W15_CHUNK_LIMIT


/* c->state bits; bits 8..15 hold the index of the first parameter encoded
 * in w15_post. */
#define ST_REC 1u     /* this call is encoded */
#define ST_SLOW 2u    /* w15_post has work beyond encoding (MakeCurrent, frame end, timing) */
#define ST_TIMING 4u  /* timing hooks run for this call */
#define ST_DONE 8u    /* fast path: the call is encoded and committed */
#define ST_FASTRES 16u /* fast path: only the result and the extras are left */
#define ST_SCOPE (1u << 16) /* timing: the call's scope record is open */
#define ST_CAPTURE (1u << 17) /* capture hooks run around this call (capture.h) */

/* Fast-path ops, one per parameter (w15_prog); 0x80 = a group index follows. */
enum { P_SLOW = 0, P_U8, P_U16, P_U32, P_U64, P_SVARI, P_F32, P_F64, P_BOOL, P_NONE };
#define P_GROUP 0x80u

static const uint8_t ctype_size[] = {
    [W15_C_VOID] = 0, [W15_C_I8] = 1, [W15_C_U8] = 1, [W15_C_I16] = 2, [W15_C_U16] = 2,
    [W15_C_I32] = 4, [W15_C_U32] = 4, [W15_C_I64] = 8, [W15_C_U64] = 8, [W15_C_F32] = 4,
    [W15_C_F64] = 8, [W15_C_PTR] = sizeof(void *), [W15_C_FUNCPTR] = sizeof(void *),
    [W15_C_LONG] = sizeof(long),
};

/* Largest encoding of one element of each base type. */
static const uint8_t base_max[W15_BASE_COUNT_] = {
    [W15_UINT] = 10, [W15_INT] = 10, [W15_PTR] = 10, [W15_BOOL] = 1,
    [W15_FLOAT] = 4, [W15_DOUBLE] = 8,
};

static inline int ctype_signed(uint8_t ct)
{
    return ct == W15_C_I8 || ct == W15_C_I16 || ct == W15_C_I32 || ct == W15_C_I64 ||
           ct == W15_C_LONG;
}

/* A slot's value as a count: negative -> 0. */
static inline uint64_t slot_count(const w15_param_sig_t *ps, const w15_slot_t *args, uint32_t i)
{
    w15_slot_t v = args[i];
    if (ctype_signed(ps[i].ctype))
        return v.i < 0 ? 0 : (uint64_t)v.i;
    if (ps[i].ctype == W15_C_F32)
        return v.f > 0 ? (uint64_t)v.f : 0;
    return v.u;
}

#define LEN_UNKNOWN UINT64_MAX
#define LEN_FAULT (UINT64_MAX - 1) /* reading the length from program memory faulted */
#define LEN_REFUSED ((uint64_t)W15_CS_REFUSED) /* a size helper: GL refuses the call, writes nothing */
_Static_assert(LEN_REFUSED != LEN_UNKNOWN && LEN_REFUSED != LEN_FAULT, "distinct length sentinels");

/* put_param's result when the parameter's memory could not be read (a
 * guarded read faulted, or an attribute list has no terminator within its
 * bound): the caller records the parameter as unreadable. */
#define UNREADABLE (-2)

/* Longest attribute list walked (elements), and longest string. */
#define MAX_ATTRIBS 4096
#define MAX_STR ((size_t)UINT32_MAX)

/* Elements (ARRAY) or bytes (DATA, STR) a pointer covers, per its rule.
 * TERMINATED and NUL are computed by the caller from the pointer. */
static uint64_t param_len(const w15_param_sig_t *s, const w15_param_sig_t *ps, uint32_t np,
                          const w15_slot_t *args)
{
    switch (s->len_op) {
    case W15_LEN_CONST:
        return s->len_b;
    case W15_LEN_PARAM:
        return s->len_a < np ? slot_count(ps, args, s->len_a) : LEN_UNKNOWN;
    case W15_LEN_PARAM_MUL:
        return s->len_a < np ? slot_count(ps, args, s->len_a) * s->len_b : LEN_UNKNOWN;
    case W15_LEN_PARAM_MUL_PARAM:
        if (s->len_a >= np || s->len_b >= np)
            return LEN_UNKNOWN;
        return slot_count(ps, args, s->len_a) * slot_count(ps, args, s->len_b);
    case W15_LEN_DEREF: {
        if (s->len_a >= np)
            return LEN_UNKNOWN;
        const void *p = args[s->len_a].p;
        int32_t v;
        if (!p)
            return 0;
        if (w15_guard_copy(&v, p, sizeof v))
            return LEN_FAULT;
        return v < 0 ? 0 : (uint64_t)v;
    }
    case W15_LEN_HELPER:
        if (s->len_b >= w15_ncompsize || !w15_compsize[s->len_b])
            return LEN_UNKNOWN;
        return w15_compsize[s->len_b](args);
    default:
        return LEN_UNKNOWN;
    }
}

static inline uint64_t load_u(const uint8_t *p, uint8_t ct)
{
    switch (ct) {
    case W15_C_I8: return (uint64_t)(int64_t)*(const int8_t *)p;
    case W15_C_U8: return *p;
    case W15_C_I16: { int16_t v; memcpy(&v, p, 2); return (uint64_t)(int64_t)v; }
    case W15_C_U16: { uint16_t v; memcpy(&v, p, 2); return v; }
    case W15_C_I32: { int32_t v; memcpy(&v, p, 4); return (uint64_t)(int64_t)v; }
    case W15_C_U32: case W15_C_F32: { uint32_t v; memcpy(&v, p, 4); return v; }
    default: { uint64_t v; memcpy(&v, p, 8); return v; }
    }
}

static inline double load_d(const uint8_t *p, uint8_t ct)
{
    if (ct == W15_C_F32) { float f; memcpy(&f, p, 4); return f; }
    if (ct == W15_C_F64) { double d; memcpy(&d, p, 8); return d; }
    uint64_t u = load_u(p, ct);
    return ctype_signed(ct) ? (double)(int64_t)u : (double)u;
}

static void add_ptr(w15_thread_t *t, uint32_t param, const void *p)
{
    if (t->nptr < W15_MAX_PTR_EXTRA) {
        t->ptrx[t->nptr].param = param;
        t->ptrx[t->nptr].value = (uint64_t)(uintptr_t)p;
        t->nptr++;
    }
}

static inline void put_group(w15_buf_t *b, const w15_param_sig_t *s)
{
    if (s->group != W15_NO_GROUP)
        w15_put_u32(b, s->group);
}

/* The empty value of s and its group. */
static int put_empty_value(w15_thread_t *t, const w15_param_sig_t *s)
{
    if (w15_buf_reserve(&t->buf, W15_MAX_EMPTY + 4))
        return -1;
    w15_put_empty(&t->buf, s->base, s->is_array);
    put_group(&t->buf, s);
    return 0;
}

/* Empty value + group + an entry in wip15.ptr. */
static int put_ptr_only(w15_thread_t *t, const w15_param_sig_t *s, uint32_t idx, const void *p)
{
    if (put_empty_value(t, s))
        return -1;
    add_ptr(t, idx, p);
    return 0;
}

/* Empty value + group + an entry in wip15.offset: the pointer is an offset
 * into the buffer bound to `target`. */
static void add_offset(w15_thread_t *t, uint32_t idx, uint32_t target, uint64_t off)
{
    if (t->noff < W15_MAX_PTR_EXTRA) {
        t->xoff[t->noff].param = idx;
        t->xoff[t->noff].target = target;
        t->xoff[t->noff].offset = off;
        t->noff++;
    }
}

static int put_offset(w15_thread_t *t, const w15_param_sig_t *s, uint32_t idx, uint32_t target, uint64_t off)
{
    if (put_empty_value(t, s))
        return -1;
    add_offset(t, idx, target, off);
    return 0;
}

/* A scalar passed by value. */
static inline void put_scalar(w15_buf_t *b, const w15_param_sig_t *s, w15_slot_t v)
{
    switch (s->base) {
    case W15_UINT: {
        uint64_t u = v.u;
        unsigned sz = ctype_size[s->ctype];
        if (sz && sz < 8)
            u &= (1ull << (sz * 8)) - 1;
        w15_put_uvari(b, u);
        break;
    }
    case W15_INT:
        w15_put_svari(b, s->ctype == W15_C_U64 && v.u > INT64_MAX ? INT64_MAX : v.i);
        break;
    case W15_PTR:
        w15_put_uvari(b, v.u);
        break;
    case W15_BOOL:
        w15_put_u8(b, (uint8_t)(v.u != 0));
        break;
    case W15_FLOAT:
        w15_put_f32(b, s->ctype == W15_C_F64 ? (float)v.d : s->ctype == W15_C_F32 ? v.f : (float)v.i);
        break;
    case W15_DOUBLE:
        w15_put_f64(b, s->ctype == W15_C_F32 ? (double)v.f : s->ctype == W15_C_F64 ? v.d : (double)v.i);
        break;
    default: /* String, Data: empty; Void, FunctionPtr: nothing */
        w15_put_empty(b, s->base, 0);
        break;
    }
}

/* Length of the program's string at str, at most max (guarded); LEN_FAULT
 * when it cannot be read. */
static inline uint64_t prog_strnlen(const char *str, size_t max)
{
    size_t l = w15_guard_strnlen(str, max);
    return l == (size_t)-1 ? LEN_FAULT : l;
}
#define prog_strlen(str) prog_strnlen((str), MAX_STR)

/* A String of the n bytes of the program's memory at str: 4 + n bytes
 * must be reserved.  0 or UNREADABLE. */
static int put_prog_string(w15_buf_t *b, const char *str, uint32_t n)
{
    w15_put_u32(b, n);
    if (n && w15_guard_copy(b->data + b->len, str, n))
        return UNREADABLE;
    b->len += n;
    return 0;
}

/* One NUL-terminated string of the program (NULL: empty) as a String. */
static int put_prog_cstring(w15_buf_t *b, const char *e, const int32_t *lenp)
{
    uint64_t l = 0;
    if (e) {
        int32_t ln = -1;
        if (lenp && w15_guard_copy(&ln, lenp, sizeof ln))
            return UNREADABLE;
        l = ln >= 0 ? (uint64_t)ln : prog_strlen(e);
        if (l == LEN_FAULT)
            return UNREADABLE;
    }
    if (l > UINT32_MAX || w15_buf_reserve(b, 8 + l))
        return -1;
    return put_prog_string(b, e, (uint32_t)l);
}

/* n elements of the program's memory at vp (read with one guarded copy,
 * then converted from our copy). */
static int put_array(w15_thread_t *t, const w15_param_sig_t *s, const void *vp, uint64_t n)
{
    w15_buf_t *b = &t->buf;
    uint8_t ct = s->ctype, base = s->base;
    size_t es = ctype_size[ct];
    if (base == W15_STRING) {
        if (w15_buf_reserve(b, 8))
            return -1;
        w15_put_u32(b, (uint32_t)n);
        for (uint64_t i = 0; i < n; i++) {
            const char *e;
            if (w15_guard_copy(&e, (const char *const *)vp + i, sizeof e))
                return UNREADABLE;
            int r = put_prog_cstring(b, e, NULL);
            if (r)
                return r;
        }
        if (w15_buf_reserve(b, 4))
            return -1;
        put_group(b, s);
        return 0;
    }
    size_t m = base < W15_BASE_COUNT_ ? base_max[base] : 0;
    size_t bytes = (size_t)n * es;
    /* count, the largest encoding, the group, then room for our copy */
    if (w15_buf_reserve(b, 8 + n * m + bytes))
        return -1;
    w15_put_u32(b, (uint32_t)n);
    if ((base == W15_FLOAT && ct == W15_C_F32) || (base == W15_DOUBLE && ct == W15_C_F64)) {
        /* the bytes as they are, straight into the trace */
        if (bytes && w15_guard_copy(b->data + b->len, vp, bytes))
            return UNREADABLE;
        b->len += bytes;
        put_group(b, s);
        return 0;
    }
    /* our copy goes past the largest encoding, which can never reach it */
    const uint8_t *p = b->data + b->len + n * m;
    if (bytes && w15_guard_copy((void *)p, vp, bytes))
        return UNREADABLE;
    switch (base) {
    case W15_FLOAT:
        for (uint64_t i = 0; i < n; i++)
            w15_put_f32(b, (float)load_d(p + i * es, ct));
        break;
    case W15_DOUBLE:
        for (uint64_t i = 0; i < n; i++)
            w15_put_f64(b, load_d(p + i * es, ct));
        break;
    case W15_BOOL:
        for (uint64_t i = 0; i < n; i++)
            w15_put_u8(b, load_u(p + i * es, ct) != 0);
        break;
    case W15_UINT:
        if (ct == W15_C_U32 || ct == W15_C_I32) {
            for (uint64_t i = 0; i < n; i++) {
                uint32_t v;
                memcpy(&v, p + i * 4, 4);
                w15_put_uvari(b, v);
            }
        } else {
            uint64_t mask = es && es < 8 ? (1ull << (es * 8)) - 1 : ~0ull;
            for (uint64_t i = 0; i < n; i++)
                w15_put_uvari(b, load_u(p + i * es, ct) & mask);
        }
        break;
    case W15_PTR:
        for (uint64_t i = 0; i < n; i++)
            w15_put_uvari(b, load_u(p + i * es, ct));
        break;
    case W15_INT:
        if (ct == W15_C_F32 || ct == W15_C_F64) {
            for (uint64_t i = 0; i < n; i++)
                w15_put_svari(b, (int64_t)load_d(p + i * es, ct));
        } else {
            for (uint64_t i = 0; i < n; i++)
                w15_put_svari(b, (int64_t)load_u(p + i * es, ct));
        }
        break;
    default:
        break;
    }
    put_group(b, s);
    return 0;
}

/* Elements of a TERMINATED attribute list up to and including the
 * terminator, walked by key: a key of a PAIRS list is followed by its value
 * (glXChooseVisual's GLX 1.2 list: only keys that take one), and only a key
 * can end the list.  Each element is read guarded.  0 with *n set, or
 * UNREADABLE (a fault, or no terminator within MAX_ATTRIBS elements: not a
 * list GL could have read either). */
static int terminated_len(const void *p, const w15_param_sig_t *s, uint64_t *n)
{
    size_t es = ctype_size[s->ctype] ? ctype_size[s->ctype] : 4;
    const uint8_t *b = p;
    uint64_t term = s->len_b;
    if (es == 4)
        term &= 0xffffffffu;
    for (uint64_t i = 0; i < MAX_ATTRIBS;) {
        uint8_t e[8];
        if (w15_guard_copy(e, b + i * es, es))
            return UNREADABLE;
        uint64_t key = load_u(e, s->ctype);
        if (es == 4)
            key &= 0xffffffffu;
        if (key == term) {
            *n = i + 1;
            return 0;
        }
        i += w15_attrib_has_value(s->attribs, key) ? 2 : 1;
    }
    return UNREADABLE;
}

/* Readbacks (READBACK functions' data outputs): the XXH3-64 of the bytes
 * of layout l at p (rows of l->span bytes; docs/FORMAT.md "wip15.spans"),
 * hashed where GL wrote them under the guard (w15_guard_feed: sanitizer
 * builds copy them through the spare room of t's buffer first; the bytes
 * are not kept).  0 or UNREADABLE (-1: out of memory). */
#define DIGEST_PIECE ((size_t)64 << 10)
static void feed_one(void *arg, const void *p, size_t n)
{
    *(uint64_t *)arg = w15_fhash_bytes(p, n);
}
static void feed_stream(void *arg, const void *p, size_t n)
{
    w15_fhash_update(arg, p, n);
}
static int prog_digest(w15_thread_t *t, const void *p, const w15_layout_t *l, uint64_t *hash)
{
    w15_buf_t *b = &t->buf;
    uint64_t total = l->span * l->rows * l->images;
    size_t piece = total < DIGEST_PIECE ? (size_t)total : DIGEST_PIECE;
    if (w15_buf_reserve(b, piece))
        return -1;
    uint8_t *tmp = b->data + b->len;
    if (total <= piece && l->rows == 1 && l->images == 1) {
        /* one piece in every build: one call of feed_one */
        *hash = w15_fhash_bytes(tmp, 0);
        if (total && w15_guard_feed((const uint8_t *)p + l->first, (size_t)total, tmp, piece, feed_one, hash))
            return UNREADABLE;
        return 0;
    }
    if (!t->rb_hash && !(t->rb_hash = w15_fhash_new()))
        return -1;
    w15_fhash_t *st = t->rb_hash;
    w15_fhash_reset(st);
    for (uint32_t i = 0; i < l->images; i++)
        for (uint32_t r = 0; r < l->rows; r++) {
            const uint8_t *row = (const uint8_t *)p + l->first + i * l->image_stride + r * l->row_stride;
            if (w15_guard_feed(row, (size_t)l->span, tmp, piece, feed_stream, st))
                return UNREADABLE;
        }
    *hash = w15_fhash_digest(st);
    return 0;
}

/* The XXH3-64 of layout l over bytes the recorder holds already. */
static uint64_t held_digest(const uint8_t *d, const w15_layout_t *l)
{
    return w15_rows_xxh3(d, l->first, l->span, l->rows, l->row_stride, l->images, l->image_stride);
}

/* The bytes of an n-byte read-back output that GL writes: the image's rows
 * under the pack state (w15_readback_layout) when they fit in the n bytes
 * (else GL raises an error and writes nothing: all n), else all n. */
static void readback_layout(const w15_thread_t *t, const w15_slot_t *args, uint64_t n, w15_layout_t *l)
{
    if (w15_readback_layout(t->cur_id, args, l)) {
        if (!l->rows || !l->images || !l->span)
            *l = (w15_layout_t){0, 0, 0, 0, 1, 1}; /* nothing written */
        if (w15_layout_extent(l) <= n)
            return;
    }
    *l = (w15_layout_t){0, n, n, n, 1, 1};
}

/* The digest entry of parameter idx for the bytes of layout l, and its
 * wip15.spans entry when they are not all the bytes from the pointer on. */
static void add_digest(w15_thread_t *t, uint32_t idx, const w15_layout_t *l, uint64_t hash)
{
    uint64_t extent = w15_layout_extent(l);
    if (t->ndig < W15_MAX_PTR_EXTRA) {
        t->xdig[t->ndig].param = idx;
        t->xdig[t->ndig].size = extent;
        t->xdig[t->ndig].hash = hash;
        t->ndig++;
    }
    int gaps = l->first || (l->rows > 1 && l->row_stride != l->span) ||
               (l->images > 1 && l->image_stride != l->span * l->rows);
    if (gaps && t->nspn < W15_MAX_SPANS && l->span <= UINT32_MAX) {
        t->xspn[t->nspn] = (w15_spans_entry_t){idx, (uint32_t)l->span, l->rows, l->images, l->first,
                                               l->row_stride, l->image_stride};
        t->nspn++;
    }
}

/* Encode one parameter (idx = its index, 0xFFFFFFFF = the result): 0, -1
 * (out of memory) or UNREADABLE (nothing the caller need undo but what it
 * saved: the buffer's length and blobs, the extras' counts). */
static int put_param(w15_thread_t *t, const w15_param_sig_t *s, uint32_t idx, w15_slot_t v,
                     const w15_param_sig_t *ps, uint32_t np, const w15_slot_t *args, uint32_t flags)
{
    w15_buf_t *b = &t->buf;
    /* GL rejects the call (inside glBegin/glEnd): no binding asked, no
     * memory read, no digest */
    if (W15_UNLIKELY(t->rejected) && s->cap != W15_CAP_VALUE)
        return put_ptr_only(t, s, idx, v.p);
    if (W15_UNLIKELY(s->offset != W15_OFF_NONE) && !t->rejected) {
        /* an offset while a buffer is bound to its target (NULL too: offset
         * 0); a GLintptr that is always an offset keeps its value as well */
        if (w15_offset_bound(s->offset)) {
            if (s->cap != W15_CAP_VALUE)
                return put_offset(t, s, idx, w15_offset_target_enum(s->offset), v.u);
            add_offset(t, idx, w15_offset_target_enum(s->offset), v.u);
        }
        if (s->offset == W15_OFF_ARRAY_BUFFER && v.p && t->ctx)
            t->ctx->client_pointers = 1; /* arrays.c captures them at draws */
    }
    switch (s->cap) {
    case W15_CAP_VALUE:
        if (w15_buf_reserve(b, 24))
            return -1;
        put_scalar(b, s, v);
        put_group(b, s);
        return 0;
    case W15_CAP_PTR:
        if (s->base != W15_PTR)
            return put_ptr_only(t, s, idx, v.p);
        if (w15_buf_reserve(b, 24))
            return -1;
        w15_put_uvari(b, v.u);
        put_group(b, s);
        return 0;
    case W15_CAP_STR_IN:
    case W15_CAP_STR_OUT: {
        const char *str = v.p;
        if (!str)
            return put_ptr_only(t, s, idx, str);
        uint64_t n;
        if (s->cap == W15_CAP_STR_IN) {
            if (s->len_op == W15_LEN_NONE || s->len_op == W15_LEN_NUL ||
                (s->len_op == W15_LEN_PARAM && s->len_a < np && ctype_signed(ps[s->len_a].ctype) &&
                 args[s->len_a].i < 0)) {
                n = prog_strlen(str);
            } else {
                n = param_len(s, ps, np, args);
                if (n == LEN_UNKNOWN)
                    n = prog_strlen(str);
            }
        } else {
            uint64_t capn = param_len(s, ps, np, args);
            if (capn == LEN_FAULT)
                return UNREADABLE;
            if (capn == LEN_UNKNOWN)
                capn = s->len_op == W15_LEN_NUL ? prog_strlen(str) : 0;
            const int32_t *lp = (s->len2 != W15_NO_PARAM && s->len2 < np) ? args[s->len2].p : NULL;
            int32_t lv = 0;
            if (capn == LEN_FAULT || (lp && capn && w15_guard_copy(&lv, lp, sizeof lv)))
                return UNREADABLE;
            if (lp && capn)
                n = lv < 0 ? 0 : (uint64_t)lv > capn ? capn : (uint64_t)lv;
            else
                n = capn ? prog_strnlen(str, capn > MAX_STR ? MAX_STR : (size_t)capn) : 0;
        }
        if (n == LEN_FAULT)
            return UNREADABLE;
        if (n > UINT32_MAX)
            return put_ptr_only(t, s, idx, str);
        if (w15_buf_reserve(b, 8 + n + 4))
            return -1;
        if (s->is_array)
            w15_put_u32(b, 1);
        if (put_prog_string(b, str, (uint32_t)n))
            return UNREADABLE;
        put_group(b, s);
        return 0;
    }
    case W15_CAP_STR_ARRAY_IN: {
        const char *const *sv = v.p;
        uint64_t n = param_len(s, ps, np, args);
        if (n == LEN_FAULT)
            return UNREADABLE;
        if (!sv || n == LEN_UNKNOWN || n > UINT32_MAX)
            return put_ptr_only(t, s, idx, sv);
        const int32_t *lens = (s->len2 != W15_NO_PARAM && s->len2 < np) ? args[s->len2].p : NULL;
        if (w15_buf_reserve(b, 8))
            return -1;
        w15_put_u32(b, (uint32_t)n);
        for (uint64_t i = 0; i < n; i++) {
            const char *e;
            if (w15_guard_copy(&e, sv + i, sizeof e))
                return UNREADABLE;
            int r = put_prog_cstring(b, e, lens ? lens + i : NULL);
            if (r)
                return r;
        }
        if (w15_buf_reserve(b, 4))
            return -1;
        put_group(b, s);
        return 0;
    }
    case W15_CAP_ARRAY_IN:
    case W15_CAP_ARRAY_OUT: {
        const void *p = v.p;
        if (!p)
            return put_ptr_only(t, s, idx, p);
        uint64_t n;
        if (s->len_op == W15_LEN_TERMINATED) {
            int r = terminated_len(p, s, &n);
            if (r)
                return r;
        } else if (s->len_op == W15_LEN_NUL) {
            n = prog_strlen(p);
        } else {
            n = param_len(s, ps, np, args);
        }
        if (n == LEN_FAULT)
            return UNREADABLE;
        if (n == LEN_UNKNOWN || n > UINT32_MAX / 16 || (n == 0 && s->len_op == W15_LEN_HELPER))
            return put_ptr_only(t, s, idx, p);
        if (!s->is_array) {
            /* a single element behind a pointer */
            uint8_t e8[8] = {0};
            size_t es = ctype_size[s->ctype] ? ctype_size[s->ctype] : 8;
            if (w15_guard_copy(e8, p, es))
                return UNREADABLE;
            if (w15_buf_reserve(b, 24))
                return -1;
            w15_slot_t e;
            e.u = load_u(e8, s->ctype);
            if (s->ctype == W15_C_F32)
                memcpy(&e.f, e8, 4);
            put_scalar(b, s, e);
            put_group(b, s);
            return 0;
        }
        return put_array(t, s, p, n);
    }
    case W15_CAP_DATA_IN:
    case W15_CAP_DATA_OUT: {
        const void *p = v.p;
        if (!p)
            return put_ptr_only(t, s, idx, p);
        uint64_t n;
        if (s->len_op == W15_LEN_NUL) {
            n = prog_strlen(p);
        } else {
            n = param_len(s, ps, np, args);
        }
        if (n == LEN_FAULT)
            return UNREADABLE;
        int digest = (flags & W15_FN_READBACK) && s->cap == W15_CAP_DATA_OUT;
        w15_layout_t lay;
        if (n == LEN_REFUSED && digest) {
            /* GL refuses the call (an invalid target or level) and writes
             * nothing: an empty digest, which a replay makes the call for */
            lay = (w15_layout_t){0, 0, 0, 0, 1, 1};
            n = 0;
        } else if (n == LEN_UNKNOWN || n > UINT32_MAX || (n == 0 && s->len_op == W15_LEN_HELPER)) {
            return put_ptr_only(t, s, idx, p);
        } else if (digest) {
            readback_layout(t, args, n, &lay);
            /* --readback-data keeps the bytes up to the end of what GL wrote */
            n = w15_layout_extent(&lay);
        }
        if (digest && !w15_cfg.readback_data) {
            /* what the program read back: its size and digest, not the bytes */
            uint64_t h;
            int r = prog_digest(t, p, &lay, &h);
            if (r)
                return r;
            add_digest(t, idx, &lay, h);
            return put_empty_value(t, s);
        }
        if (s->is_array) {
            if (w15_buf_reserve(b, 4))
                return -1;
            w15_put_u32(b, 1);
        }
        uint8_t *dst = w15_put_data_begin(b, (size_t)n, NULL);
        if (!dst)
            return -1;
        if (n && w15_guard_copy(dst, p, (size_t)n))
            return UNREADABLE;
        if (digest)
            add_digest(t, idx, &lay, held_digest(dst, &lay));
        if (w15_buf_reserve(b, 4))
            return -1;
        put_group(b, s);
        return 0;
    }
    default:
        return put_ptr_only(t, s, idx, v.p);
    }
}

/* Functions that already had an unreadable parameter reported on stderr. */
static _Atomic uint8_t w15_unreadable_told[W15F__TOTAL];

/* put_param, recording the parameter as unreadable (its empty value, an
 * entry in wip15.unreadable, one warning per function) when its memory
 * could not be read: whatever it had written is dropped first. */
static int put_one(w15_thread_t *t, const w15_param_sig_t *s, uint32_t idx, w15_slot_t v,
                   const w15_param_sig_t *ps, uint32_t np, const w15_slot_t *args, uint32_t flags)
{
    size_t len = t->buf.len, nblobs = t->buf.nblobs;
    uint32_t nptr = t->nptr, noff = t->noff, ndig = t->ndig, nspn = t->nspn;
    int r = put_param(t, s, idx, v, ps, np, args, flags);
    if (W15_LIKELY(r != UNREADABLE))
        return r;
    t->buf.len = len;
    t->buf.nblobs = nblobs;
    t->nptr = nptr;
    t->noff = noff;
    t->ndig = ndig;
    t->nspn = nspn;
    if (put_empty_value(t, s))
        return -1;
    if (t->nunr < W15_MAX_PTR_EXTRA) {
        t->xunr[t->nunr].param = idx;
        t->xunr[t->nunr].value = (uint64_t)(uintptr_t)v.p;
        t->nunr++;
    }
    uint32_t id = t->cur_id;
    if (id < W15F__TOTAL && !atomic_exchange_explicit(&w15_unreadable_told[id], 1, memory_order_relaxed))
        w15_msg("%s: the memory %s %s points to (%p) could not be read; recorded as unreadable "
                "(reported once per function)",
                w15_str(w15_funcs[id].name), idx == W15_PTR_RESULT ? "the result" : "parameter",
                idx == W15_PTR_RESULT ? "" : w15_str(s->name), v.p);
    return 0;
}

static int put_extras(w15_thread_t *t)
{
    w15_buf_t *b = &t->buf;
    uint32_t n = (t->nptr != 0) + (t->noff != 0) + (t->nunr != 0) + (t->ndig != 0) + (t->nspn != 0) +
                 (t->has_gseq != 0);
    if (W15_LIKELY(n == 0)) {
        if (w15_buf_reserve(b, 4))
            return -1;
        w15_put_u32(b, 0);
        return 0;
    }
    if (w15_buf_reserve(b, 4 + W15_EXTRA_PTR_SIZE(t->nptr) + W15_EXTRA_OFFSET_SIZE(t->noff) +
                               W15_EXTRA_UNREADABLE_SIZE(t->nunr) + W15_EXTRA_DIGEST_SIZE(t->ndig) +
                               W15_EXTRA_SPANS_SIZE(t->nspn) +
                               W15_EXTRA_GSEQ_SIZE))
        return -1;
    w15_put_u32(b, n);
    if (t->nptr)
        w15_put_extra_ptr(b, t->ptrx, t->nptr);
    if (t->noff)
        w15_put_extra_offset(b, t->xoff, t->noff);
    if (t->nunr)
        w15_put_extra_unreadable(b, t->xunr, t->nunr);
    if (t->ndig)
        w15_put_extra_digest(b, t->xdig, t->ndig);
    if (t->nspn)
        w15_put_extra_spans(b, t->xspn, t->nspn);
    if (t->has_gseq)
        w15_put_extra_gseq(b, t->gseq);
    return 0;
}

/* Out of memory while encoding: drop the call and stop recording. */
static void encode_failed(w15_thread_t *t, w15_callctx_t *c)
{
    t->buf.len = t->call_start;
    t->buf.failed = 0;
    c->state &= ~ST_REC;
    w15_fail("out of memory while recording a call; recording stopped");
}

static inline void commit(w15_thread_t *t)
{
    __atomic_store_n(&t->buf.committed, t->buf.len, __ATOMIC_RELEASE);
    t->seq++;
}

/* The first parameter that must wait for the call: outputs and lengths
 * read after the call. */
static unsigned first_output(const w15_func_sig_t *f)
{
    const w15_param_sig_t *ps = &w15_params[f->first_param];
    for (unsigned i = 0; i < f->nparams; i++) {
        uint8_t cap = ps[i].cap;
        if (cap == W15_CAP_ARRAY_OUT || cap == W15_CAP_DATA_OUT || cap == W15_CAP_STR_OUT ||
            ps[i].len_op == W15_LEN_DEREF)
            return i;
    }
    return f->nparams;
}

/* The fast-path op of a by-value parameter, P_SLOW when it needs the
 * generic encoder. */
static uint8_t fast_op(const w15_param_sig_t *s)
{
    uint8_t op = P_SLOW;
    if (s->cap == W15_CAP_PTR && s->base == W15_PTR)
        op = P_U64;
    else if (s->cap != W15_CAP_VALUE || s->is_array)
        return P_SLOW;
    else {
        switch (s->base) {
        case W15_UINT:
            switch (ctype_size[s->ctype]) {
            case 1: op = P_U8; break;
            case 2: op = P_U16; break;
            case 4: op = P_U32; break;
            case 8: op = P_U64; break;
            }
            break;
        case W15_INT:
            op = (s->ctype == W15_C_F32 || s->ctype == W15_C_F64 || s->ctype == W15_C_U64) ? P_SLOW : P_SVARI;
            break;
        case W15_PTR: op = P_U64; break;
        case W15_BOOL: op = P_BOOL; break;
        case W15_FLOAT: op = s->ctype == W15_C_F32 ? P_F32 : P_SLOW; break;
        case W15_DOUBLE: op = s->ctype == W15_C_F64 ? P_F64 : P_SLOW; break;
        case W15_VOID: case W15_FUNCPTR: op = P_NONE; break;
        default: op = P_SLOW; break;
        }
    }
    if (op != P_SLOW && s->group != W15_NO_GROUP)
        op |= P_GROUP;
    return op;
}

/* W15_FI_* of a function; fills w15_prog for its parameters. */
static unsigned fast_info(const w15_func_sig_t *f)
{
    const w15_param_sig_t *ps = &w15_params[f->first_param];
    uint8_t *prog = &w15_prog[f->first_param];
    int simple = f->nparams <= 16;
    for (unsigned i = 0; i <= f->nparams; i++) {
        prog[i] = fast_op(&ps[i]);
        if (prog[i] == P_SLOW)
            simple = 0;
    }
    if ((f->flags & W15_FN_GENERAL) || (((f->flags | W15_TIMING_EVERY_CALL) & w15_timing_mask) && w15_timing_on))
        simple = 0;
    if (!simple)
        return 0;
    return W15_FI_SIMPLE | (ps[f->nparams].base == W15_VOID ? W15_FI_VOID : 0);
}

int w15_record_init(void)
{
    uint32_t np = 0;
    for (uint32_t i = 0; i < w15_nfuncs; i++)
        if (w15_funcs[i].first_param + w15_funcs[i].nparams + 1u > np)
            np = w15_funcs[i].first_param + w15_funcs[i].nparams + 1u;
    w15_declared = calloc(w15_nfuncs + w15_npseudo, sizeof *w15_declared);
    w15_prog = calloc(np + 1, 1);
    return w15_declared && w15_prog ? 0 : -1;
}

/* Largest fast-path encoding: opcode + index + 16 x (10 + 4) + result + extras. */
#define FAST_MAX (5 + 17 * 14 + 4)

static inline __attribute__((always_inline)) uint8_t *uv(uint8_t *p, uint64_t v)
{
    if (W15_LIKELY(v < 0x80)) {
        *p = (uint8_t)v;
        return p + 1;
    }
    if (W15_LIKELY(v < 0x4000)) {
        p[0] = (uint8_t)(v | 0x80);
        p[1] = (uint8_t)(v >> 7);
        return p + 2;
    }
    while (v >= 0x80) {
        *p++ = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    *p++ = (uint8_t)v;
    return p;
}

static inline __attribute__((always_inline)) uint8_t *put_g(uint8_t *p, const w15_param_sig_t *s)
{
    uint32_t g = s->group;
    memcpy(p, &g, 4); /* little-endian hosts only (as the whole encoder) */
    return p + 4;
}

static inline __attribute__((always_inline)) uint8_t *fast_put(uint8_t *p, uint8_t op, w15_slot_t v,
                                                               const w15_param_sig_t *s)
{
    /* one switch over every op, with and without a group (one jump table) */
    switch (op) {
    case P_U32 | P_GROUP: return put_g(uv(p, (uint32_t)v.u), s); /* enums: the common case */
    case P_U32: return uv(p, (uint32_t)v.u);
    case P_F32: memcpy(p, &v.f, 4); return p + 4;
    case P_SVARI | P_GROUP:
    case P_SVARI:
        if (v.i == INT64_MIN)
            *p++ = 1;
        else
            p = uv(p, v.i < 0 ? (((uint64_t)0 - (uint64_t)v.i) << 1) | 1 : (uint64_t)v.i << 1);
        return op & P_GROUP ? put_g(p, s) : p;
    case P_U8 | P_GROUP: return put_g(uv(p, (uint8_t)v.u), s);
    case P_U8: return uv(p, (uint8_t)v.u);
    case P_U16 | P_GROUP: return put_g(uv(p, (uint16_t)v.u), s);
    case P_U16: return uv(p, (uint16_t)v.u);
    case P_U64 | P_GROUP: return put_g(uv(p, v.u), s);
    case P_U64: return uv(p, v.u);
    case P_F32 | P_GROUP: memcpy(p, &v.f, 4); return put_g(p + 4, s);
    case P_F64 | P_GROUP: memcpy(p, &v.d, 8); return put_g(p + 8, s);
    case P_F64: memcpy(p, &v.d, 8); return p + 8;
    case P_BOOL | P_GROUP: *p = v.u != 0; return put_g(p + 1, s);
    case P_BOOL: *p = v.u != 0; return p + 1;
    case P_NONE | P_GROUP: return put_g(p, s);
    default: return p; /* P_NONE */
    }
}

void w15_fast_end_slow(w15_thread_t *t)
{
    if (t->epoch != atomic_load_explicit(&w15_flush_epoch, memory_order_relaxed) || t->buf.len >= CHUNK_LIMIT ||
        W15_TM_COUNT(t) >= W15_TM_SUBMIT)
        w15_thread_submit(t);
}

uint8_t *w15_fput_uv_big(uint8_t *p, uint64_t v)
{
    if (v < ((uint64_t)1 << 56)) {
        /* up to 8 bytes, assembled in a register, one store */
        uint64_t enc = v & 0x7f;
        unsigned k = 1;
        for (v >>= 7; v; v >>= 7, k++)
            enc |= (uint64_t)0x80 << (8 * (k - 1)) | (v & 0x7f) << (8 * k);
        enc = w15_to_le64(enc);
        memcpy(p, &enc, 8);
        return p + k;
    }
    while (v >= 0x80) {
        *p++ = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    *p++ = (uint8_t)v;
    return p;
}

/* w15_fast_ok of a function with these flags: W15_FAST_OK without timing
 * hooks, | W15_FAST_TIMED when the hook is only a call scope (as
 * w15_timing_pre would open), 0 for anything else. */
static uint8_t fast_timing(uint32_t flags)
{
    if (!w15_timing_on || !((flags | W15_TIMING_EVERY_CALL) & w15_timing_mask))
        return W15_FAST_OK;
    if (flags & (W15_FN_FRAME_END | W15_FN_GROUP_PUSH | W15_FN_GROUP_POP | W15_FN_MARKER))
        return 0;
    int lvl = w15_cfg.timing;
    if (!W15_FAST_TICKS || !w15_ticks_tsc)
        return 0; /* the fast path's clock is rdtsc: else the general path times the call */
    if (lvl == W15_TIMING_ALL || (lvl == W15_TIMING_DRAWS && (flags & W15_FN_DRAWS_MASK)))
        return W15_FAST_OK | W15_FAST_TIMED;
    return 0;
}

/* Ready function `id` for recording, once: its declaration (and its
 * groups') queued (decl.c), then its w15_declared word and its fast-path
 * byte published.  prep_lock makes the three one step. */
static __attribute__((noinline)) void declare_slow(uint32_t id)
{
    static pthread_mutex_t prep_lock = PTHREAD_MUTEX_INITIALIZER;
    int e = errno;
    pthread_mutex_lock(&prep_lock);
    if (!atomic_load_explicit(&w15_declared[id], memory_order_relaxed)) {
        const w15_func_sig_t *f = &w15_funcs[id];
        int bad = w15_decl_func(id) != 0;
        uint64_t info = fast_info(f) | (first_output(f) + 1) | (uint64_t)f->nparams << 16 |
                        (uint64_t)f->first_param << 32;
        if (w15_timing_on)
            w15_timing_declare(id, f->flags); /* its WTF event, before any record */
        atomic_store_explicit(&w15_declared[id], info, memory_order_release);
        /* the generated fast path (record.h): the generator chose which
         * functions have one; here only what is known at run time */
        if (!bad && id < W15F__COUNT && !(f->flags & W15_FN_GENERAL))
            __atomic_store_n(&w15_fast_ok[id], fast_timing(f->flags), __ATOMIC_RELEASE);
        if (bad) {
            pthread_mutex_unlock(&prep_lock);
            errno = e;
            w15_fail("out of memory writing a declaration; recording stopped");
            return;
        }
    }
    pthread_mutex_unlock(&prep_lock);
    errno = e;
}

static void wait_steal(w15_thread_t *t)
{
    /* The output thread wants this thread's buffer (thread.c): park outside
     * the call (in_call = 0) until it is done, whichever way it decided,
     * then enter again. */
    do {
        atomic_store_explicit(&t->in_call, 0, memory_order_release);
        while (atomic_load_explicit(&t->steal_req, memory_order_acquire))
            w15_cpu_relax();
        atomic_store_explicit(&t->in_call, 1, memory_order_relaxed);
        atomic_signal_fence(memory_order_seq_cst);
    } while (atomic_load_explicit(&t->steal_req, memory_order_acquire));
}

/* Everything but the fast path: first call of a thread, nested calls,
 * not recording, declarations, outputs, pointers. */
static __attribute__((noinline)) void pre_general(w15_thread_t *t, w15_callctx_t *c, uint32_t id,
                                                  const w15_slot_t *args)
{
    if (W15_UNLIKELY(w15_funcs[id].flags & W15_FN_LINK))
        w15_statesize_linked(); /* again after it (post_slow), for the calls that race it */
    if (!t) {
        t = w15_thread_slow();
        if (!t) {
            c->t = NULL;
            return;
        }
        if (w15_timing_on)
            w15_timing_thread_start(t); /* its frame 0 starts now */
    }
    if (W15_UNLIKELY(atomic_load_explicit(&t->in_call, memory_order_relaxed))) {
        c->t = NULL; /* a call from inside one of our wrappers: forward only */
        return;
    }
    atomic_store_explicit(&t->in_call, 1, memory_order_relaxed);
    atomic_signal_fence(memory_order_seq_cst); /* paired with w15_heavy_fence (thread.c) */
    if (W15_UNLIKELY(atomic_load_explicit(&t->steal_req, memory_order_acquire)))
        wait_steal(t);
    c->t = t;
    c->id = id;
    const w15_func_sig_t *f = &w15_funcs[id];
    uint32_t flags = f->flags;
    uint32_t slow = (flags & (W15_FN_FRAME_END | W15_FN_MAKE_CURRENT | W15_FN_LINK)) ? ST_SLOW : 0;
    if (flags & W15_FN_CAPTURE)
        slow |= ST_SLOW | ST_CAPTURE;
    /* between glBegin and glEnd GL rejects most commands and touches no
     * memory: record their pointers only and ask GL nothing (capture.h's
     * hooks would) */
    t->rejected = W15_UNLIKELY(flags & W15_FN_OUTSIDE_BEGIN) && t->ctx && t->ctx->in_begin;
    if (W15_UNLIKELY(t->rejected))
        slow &= ~ST_CAPTURE;
    if (W15_UNLIKELY(flags & W15_FN_MAKE_CURRENT) && t->gpu) {
        /* another context: end the GPU timing of the old one while it is
         * still current */
        if (f->context_param >= f->nparams || args[f->context_param].p != t->context)
            w15_timing_gpu_release(t);
    }
    if (W15_UNLIKELY(!atomic_load_explicit(&w15_recording, memory_order_relaxed))) {
        c->state = slow;
        if (slow & ST_CAPTURE)
            w15_capture_pre(t, id, flags, args, 0);
        return;
    }
    unsigned info = (unsigned)atomic_load_explicit(&w15_declared[id], memory_order_acquire);
    if (W15_UNLIKELY(!info)) {
        declare_slow(id);
        info = (unsigned)atomic_load_explicit(&w15_declared[id], memory_order_acquire);
        if (!info || !atomic_load_explicit(&w15_recording, memory_order_relaxed)) {
            c->state = slow;
            if (slow & ST_CAPTURE)
                w15_capture_pre(t, id, flags, args, 0);
            return;
        }
    }
    w15_buf_t *b = &t->buf;
    unsigned fo = (info & 0xff) - 1;
    if (W15_UNLIKELY(b->len == 0) && w15_pseudo_thread_switch(t)) {
        c->state = slow;
        encode_failed(t, c);
        return;
    }
    if (slow & ST_CAPTURE) {
        /* pseudo-calls the capture writes precede this call */
        w15_capture_pre(t, id, flags, args, 1);
        if (W15_UNLIKELY(!atomic_load_explicit(&w15_recording, memory_order_relaxed))) {
            c->state = slow; /* it failed (out of memory): forward only */
            return;
        }
    }
    c->state = ST_REC | slow | (fo << 8);
    t->call_start = b->len;
    t->nptr = 0;
    t->noff = t->nunr = t->ndig = t->nspn = t->has_gseq = 0;
    t->pre_complete = 0;
    t->cur_id = id;
    if (W15_UNLIKELY(w15_buf_reserve(b, 16))) {
        encode_failed(t, c);
        return;
    }
    w15_put_u8(b, W15_OP_CALL);
    w15_put_u32(b, id);
    const w15_param_sig_t *ps = &w15_params[f->first_param];
    uint32_t np = f->nparams;
    for (unsigned i = 0; i < fo; i++) {
        const w15_param_sig_t *s = &ps[i];
        if (W15_LIKELY(s->cap == W15_CAP_VALUE && s->offset == W15_OFF_NONE)) {
            /* 16 bytes were reserved above for the opcode; keep 24 free */
            if (W15_UNLIKELY(w15_buf_reserve(b, 24))) {
                encode_failed(t, c);
                return;
            }
            put_scalar(b, s, args[i]);
            put_group(b, s);
        } else if (put_one(t, s, i, args[i], ps, np, args, flags)) {
            encode_failed(t, c);
            return;
        }
    }
    t->pre_complete = fo == np;
    if (W15_UNLIKELY((flags | W15_TIMING_EVERY_CALL) & w15_timing_mask) && w15_timing_on) {
        c->state |= ST_TIMING | ST_SLOW;
        if (w15_timing_pre(t, id, flags, args))
            c->state |= ST_SCOPE;
    }
}


void w15_pre(w15_callctx_t *c, uint32_t id, const w15_slot_t *args)
{
    w15_thread_t *t = w15_tls;
    if (W15_UNLIKELY(!t || atomic_load_explicit(&t->in_call, memory_order_relaxed) ||
                     !atomic_load_explicit(&w15_recording, memory_order_relaxed))) {
        pre_general(t, c, id, args);
        return;
    }
    atomic_store_explicit(&t->in_call, 1, memory_order_relaxed);
    atomic_signal_fence(memory_order_seq_cst); /* paired with w15_heavy_fence (thread.c) */
    uint64_t info = atomic_load_explicit(&w15_declared[id], memory_order_acquire);
    w15_buf_t *b = &t->buf;
    if (W15_UNLIKELY(atomic_load_explicit(&t->steal_req, memory_order_acquire) || !(info & W15_FI_SIMPLE) ||
                     b->len == 0 || b->cap - b->len < FAST_MAX)) {
        atomic_store_explicit(&t->in_call, 0, memory_order_relaxed);
        pre_general(t, c, id, args);
        return;
    }
    c->t = t;
    c->id = id;
    {
        /* fast path: every parameter by value */
        uint8_t *p = b->data + b->len;
        *p++ = W15_OP_CALL;
        memcpy(p, &id, 4);
        p += 4;
        uint32_t fp = (uint32_t)(info >> 32);
        const w15_param_sig_t *ps = &w15_params[fp];
        const uint8_t *prog = &w15_prog[fp];
        for (unsigned i = 0, n = (info >> 16) & 0xff; i < n; i++)
            p = fast_put(p, prog[i], args[i], &ps[i]);
        if (info & W15_FI_VOID) {
            memset(p, 0, 4); /* no extras */
            p += 4;
            b->len = (size_t)(p - b->data);
            __atomic_store_n(&b->committed, b->len, __ATOMIC_RELEASE);
            t->seq++;
            c->state = ST_DONE;
        } else {
            /* for the crash path (w15_record_crash_complete): the inputs are complete */
            t->call_start = b->len;
            t->nptr = 0;
            t->noff = t->nunr = t->ndig = t->nspn = t->has_gseq = 0;
            t->cur_id = id;
            t->pre_complete = 1;
            b->len = (size_t)(p - b->data);
            c->state = ST_FASTRES;
        }
        return;
    }
}

static void post_slow(w15_thread_t *t, w15_callctx_t *c, const w15_slot_t *args, const w15_slot_t *ret,
                      uint32_t flags)
{
    if (c->state & ST_TIMING)
        w15_timing_post(t, (c->state & ST_SCOPE) != 0, flags);
    if ((flags & W15_FN_MAKE_CURRENT) && ret && ret->u != 0) {
        const w15_func_sig_t *f = &w15_funcs[c->id];
        void *ctx = f->context_param < f->nparams ? (void *)args[f->context_param].p : NULL;
        w15_context_changed(t, ctx);
        if (ctx && w15_timing_on)
            w15_timing_context(t, ctx);
    }
    if (flags & W15_FN_FRAME_END)
        w15_frame_ended();
    if (flags & W15_FN_LINK)
        w15_statesize_linked();
}

void w15_post(w15_callctx_t *c, const w15_slot_t *args, const w15_slot_t *ret)
{
    w15_thread_t *t = c->t;
    if (!t)
        return;
    uint32_t st = c->state;
    if (W15_LIKELY(st & (ST_DONE | ST_FASTRES))) {
        if (st & ST_FASTRES) {
            const w15_func_sig_t *f = &w15_funcs[c->id];
            w15_buf_t *b = &t->buf;
            uint8_t *p = b->data + b->len;
            w15_slot_t rv;
            rv.u = 0;
            if (ret)
                rv = *ret;
            p = fast_put(p, w15_prog[f->first_param + f->nparams], rv, &w15_params[f->first_param + f->nparams]);
            memset(p, 0, 4);
            p += 4;
            b->len = (size_t)(p - b->data);
            __atomic_store_n(&b->committed, b->len, __ATOMIC_RELEASE);
            t->seq++;
        }
        if (W15_UNLIKELY(t->epoch != atomic_load_explicit(&w15_flush_epoch, memory_order_relaxed) ||
                         t->buf.len >= CHUNK_LIMIT))
            w15_thread_submit(t);
        atomic_store_explicit(&t->in_call, 0, memory_order_release);
        return;
    }
    const w15_func_sig_t *f = &w15_funcs[c->id];
    if (W15_LIKELY(st & ST_REC)) {
        const w15_param_sig_t *ps = &w15_params[f->first_param];
        uint32_t np = f->nparams;
        for (unsigned i = (st >> 8) & 0xff; i < np; i++) {
            if (put_one(t, &ps[i], i, args[i], ps, np, args, f->flags))
                goto fail;
        }
        const w15_param_sig_t *rs = &ps[np];
        if (rs->base != W15_VOID || rs->cap != W15_CAP_VALUE) {
            w15_slot_t rv;
            rv.u = 0;
            if (ret)
                rv = *ret;
            if (rs->base != W15_VOID && put_one(t, rs, 0xFFFFFFFFu, rv, ps, np, args, f->flags))
                goto fail;
        }
        if (st & ST_CAPTURE)
            w15_capture_extras(t, c->id, f->flags, args, ret);
        if (put_extras(t))
            goto fail;
        commit(t);
    }
    if (W15_UNLIKELY(st & ST_SLOW))
        post_slow(t, c, args, ret, f->flags);
    if (st & ST_CAPTURE)
        w15_capture_post(t, c->id, f->flags, args, ret, (st & ST_REC) != 0);
    if (W15_LIKELY(st & ST_REC)) {
        if (W15_UNLIKELY(t->epoch != atomic_load_explicit(&w15_flush_epoch, memory_order_relaxed) ||
                         t->buf.len >= CHUNK_LIMIT || W15_TM_COUNT(t) >= W15_TM_SUBMIT ||
                         (f->flags & W15_FN_FRAME_END)))
            w15_thread_submit(t);
    }
    atomic_store_explicit(&t->in_call, 0, memory_order_release);
    return;
fail:
    encode_failed(t, c);
    if (st & ST_SLOW)
        post_slow(t, c, args, ret, f->flags);
    if (st & ST_CAPTURE)
        w15_capture_post(t, c->id, f->flags, args, ret, 0);
    atomic_store_explicit(&t->in_call, 0, memory_order_release);
}

/* Complete the crashing thread's current call when all its inputs are
 * encoded: an empty result and the extra "wip15.crash" (empty Data), so
 * the fatal call itself is in the trace. */
size_t w15_record_crash_complete(w15_thread_t *t, int in_call)
{
    w15_buf_t *b = &t->buf;
    size_t committed = __atomic_load_n(&b->committed, __ATOMIC_ACQUIRE);
    if (!in_call || !t->pre_complete || t->call_start != committed ||
        t->cur_id >= w15_nfuncs)
        return committed;
    const w15_func_sig_t *f = &w15_funcs[t->cur_id];
    const w15_param_sig_t *rs = &w15_params[f->first_param + f->nparams];
    if (b->cap - b->len < 4 + W15_MAX_EMPTY + 4 + W15_EXTRA_CRASH_SIZE + W15_EXTRA_PTR_SIZE(t->nptr))
        return committed;
    if (rs->base != W15_VOID) {
        w15_put_empty(b, rs->base, rs->is_array);
        if (rs->group != W15_NO_GROUP)
            w15_put_u32(b, rs->group);
    }
    w15_put_u32(b, t->nptr ? 2 : 1);
    w15_put_extra_crash(b);
    if (t->nptr)
        w15_put_extra_ptr(b, t->ptrx, t->nptr);
    return b->len;
}
