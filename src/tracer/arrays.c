/* arrays.c -- client-side vertex arrays (arrays.h; the trace side is
 * docs/FORMAT.md "Client-side vertex arrays").
 *
 * Which arrays to look at.  A context pays nothing at draws until one of
 * its pointer setters (gl*Pointer*, glInterleavedArrays, flag VERTEX_STATE)
 * is given a client pointer: a pointer of at least 64 KiB (nothing is
 * mapped below mmap_min_addr, so a smaller value is an offset or NULL)
 * while no buffer is bound to GL_ARRAY_BUFFER.  The setter's array is then
 * a candidate for good (a bit per legacy array, texture unit and generic
 * attribute): only candidates are queried at draws, and a candidate whose
 * array is disabled or has a buffer is skipped after one or two queries.
 * Bits are never cleared: another vertex array object, glPopClientAttrib,
 * ... may bring the client pointer back.
 *
 * What a draw reads.  For each candidate that is enabled and has no
 * buffer: pointer, size, type, stride (and normalized, integer, long and
 * divisor for generic attributes, each only when the context has the query
 * and the program used the feature), all with the real glGet* and only
 * where the context's API and version have them (context.h), so no query
 * raises a GL error.  Texture-coordinate arrays of other units are read
 * with glClientActiveTexture switched and put back.  The draw's vertex
 * range comes from first/count, or from the indices: client memory read
 * through w15_guard_copy, or an element buffer read with
 * glGetBufferSubData (desktop GL), glMapBufferRange(GL_MAP_READ_BIT) +
 * glUnmapBuffer (GLES 3, GL_EXT_map_buffer_range), or the program's own
 * mapping when the buffer is mapped (persistent).  Primitive restart
 * (GL_PRIMITIVE_RESTART, _FIXED_INDEX, NV) indices are left out.
 * glDrawRangeElements' start/end are ignored (a hint).  Arrays with a
 * divisor read the instances' elements: baseinstance +
 * (instancecount - 1) / divisor.  Indirect draws read their commands
 * (client memory in compatibility contexts, else the draw-indirect buffer,
 * the count from the parameter buffer).
 *
 * A draw GL rejects before reading (a mode above GL_PATCHES, a negative
 * count or first, no instance, an unknown index type) records nothing.
 *
 * Inside glBegin/glEnd no query is legal: glBegin (before the real call)
 * reads the candidates' state once, and each glArrayElement uses it.  This
 * module keeps w15_ctx_t.in_begin (a glBegin GL executes: not one compiled
 * into a display list with GL_COMPILE), which keeps the whole tracer from
 * asking GL anything until glEnd (context.c, record.c).
 * Tests: tests/capture/arrays.cmake (capture.arrays.*).
 *
 * What is written before the draw: the byte span of every array (from its
 * first to its last element read), merged where spans overlap or touch,
 * as wip15ClientMemory; the per-draw index arrays of glMultiDrawElements*
 * and indirect commands in client memory likewise; then one
 * wip15ClientArray per array.  Memory that cannot be read (a fault in
 * w15_guard_copy) is written as empty bytes with one warning. */
#include "arrays.h"
#include "context.h"
#include "draws.h"
#include "fhash.h"
#include "guard.h"
#include "log.h"
#include "pseudo.h"
#include "resolve.h"

#include <stdlib.h>
#include <string.h>

#include "funcs.h"

/* ------------------------------------------------------------ GL names */
enum {
    GL_UNSIGNED_BYTE_ = 0x1401, GL_UNSIGNED_SHORT_ = 0x1403, GL_UNSIGNED_INT_ = 0x1405,
    GL_BYTE_ = 0x1400, GL_SHORT_ = 0x1402, GL_INT_ = 0x1404, GL_FLOAT_ = 0x1406, GL_DOUBLE_ = 0x140A,
    GL_HALF_FLOAT_ = 0x140B, GL_FIXED_ = 0x140C, GL_UNSIGNED_INT64_ = 0x140F, GL_HALF_FLOAT_OES_ = 0x8D61,
    GL_INT_2_10_10_10_REV_ = 0x8D9F, GL_UNSIGNED_INT_2_10_10_10_REV_ = 0x8368,
    GL_UNSIGNED_INT_10F_11F_11F_REV_ = 0x8C3B, GL_BGRA_ = 0x80E1,
    GL_VERTEX_ARRAY_ = 0x8074, GL_TEXTURE_COORD_ARRAY_ = 0x8078,
    GL_VERTEX_ATTRIB_ARRAY_ENABLED_ = 0x8622, GL_VERTEX_ATTRIB_ARRAY_SIZE_ = 0x8623,
    GL_VERTEX_ATTRIB_ARRAY_STRIDE_ = 0x8624, GL_VERTEX_ATTRIB_ARRAY_TYPE_ = 0x8625,
    GL_VERTEX_ATTRIB_ARRAY_NORMALIZED_ = 0x886A, GL_VERTEX_ATTRIB_ARRAY_POINTER_ = 0x8645,
    GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING_ = 0x889F, GL_VERTEX_ATTRIB_ARRAY_INTEGER_ = 0x88FD,
    GL_VERTEX_ATTRIB_ARRAY_DIVISOR_ = 0x88FE, GL_VERTEX_ATTRIB_ARRAY_LONG_ = 0x874E,
    GL_ARRAY_BUFFER_BINDING_ = 0x8894, GL_ELEMENT_ARRAY_BUFFER_ = 0x8893,
    GL_ELEMENT_ARRAY_BUFFER_BINDING_ = 0x8895, GL_DRAW_INDIRECT_BUFFER_ = 0x8F3F,
    GL_DRAW_INDIRECT_BUFFER_BINDING_ = 0x8F43, GL_PARAMETER_BUFFER_ = 0x80EE,
    GL_PARAMETER_BUFFER_BINDING_ = 0x80EF, GL_CLIENT_ACTIVE_TEXTURE_ = 0x84E1, GL_TEXTURE0_ = 0x84C0,
    GL_MAX_VERTEX_ATTRIBS_ = 0x8869, GL_MAX_TEXTURE_COORDS_ = 0x8871, GL_MAX_TEXTURE_UNITS_ = 0x84E2,
    GL_PRIMITIVE_RESTART_ = 0x8F9D, GL_PRIMITIVE_RESTART_INDEX_ = 0x8F9E,
    GL_PRIMITIVE_RESTART_FIXED_INDEX_ = 0x8D69, GL_PRIMITIVE_RESTART_NV_ = 0x8558,
    GL_PRIMITIVE_RESTART_INDEX_NV_ = 0x8559, GL_BUFFER_SIZE_ = 0x8764, GL_BUFFER_MAPPED_ = 0x88BC,
    GL_BUFFER_MAP_POINTER_ = 0x88BD, GL_BUFFER_MAP_OFFSET_ = 0x9121, GL_BUFFER_MAP_LENGTH_ = 0x9120,
    GL_MAP_READ_BIT_ = 1, GL_PATCHES_ = 0xE, GL_COMPILE_ = 0x1300, GL_COMPILE_AND_EXECUTE_ = 0x1301,
};

/* The legacy arrays but texture coordinates, in candidate-bit order. */
enum { L_VERTEX, L_NORMAL, L_COLOR, L_SECONDARY, L_FOG, L_INDEX, L_EDGE, L_PSIZE, L_COUNT_ };
typedef struct leg {
    uint32_t cap, size_q, type_q, stride_q, ptr_q, buf_q;
    int32_t size;  /* when size_q is 0 */
    uint32_t type; /* when type_q is 0 */
} leg_t;
static const leg_t legs[L_COUNT_] = {
    [L_VERTEX] = { 0x8074, 0x807A, 0x807B, 0x807C, 0x808E, 0x8896, 0, 0 },
    [L_NORMAL] = { 0x8075, 0, 0x807E, 0x807F, 0x808F, 0x8897, 3, 0 },
    [L_COLOR] = { 0x8076, 0x8081, 0x8082, 0x8083, 0x8090, 0x8898, 0, 0 },
    [L_SECONDARY] = { 0x845E, 0x845A, 0x845B, 0x845C, 0x845D, 0x889C, 0, 0 },
    [L_FOG] = { 0x8457, 0, 0x8454, 0x8455, 0x8456, 0x889D, 1, 0 },
    [L_INDEX] = { 0x8077, 0, 0x8085, 0x8086, 0x8091, 0x8899, 1, 0 },
    [L_EDGE] = { 0x8079, 0, 0, 0x808C, 0x8093, 0x889B, 1, GL_UNSIGNED_BYTE_ },
    [L_PSIZE] = { 0x8B9C, 0, 0x898A, 0x898B, 0x898C, 0x8B9F, 1, 0 },
};
static const leg_t tex_leg = { GL_TEXTURE_COORD_ARRAY_, 0x8088, 0x8089, 0x808A, 0x8092, 0x889A, 0, 0 };

#define MAX_TEX 32
#define MAX_ATTR 64
#define MAX_ARRAYS (L_COUNT_ + MAX_TEX + MAX_ATTR)
/* Larger spans are not recorded (one warning): a garbage index or count. */
#define MAX_SPAN ((uint64_t)1 << 31)
/* Below this a pointer is an offset or NULL, never client memory. */
#define MIN_CLIENT_PTR ((uintptr_t)65536)

/* One client array a draw reads. */
typedef struct carr {
    uint32_t array;   /* GL_VERTEX_ARRAY ... or GL_VERTEX_ATTRIB_ARRAY_POINTER */
    uint32_t index;   /* texture unit, generic attribute */
    int32_t size;     /* as GL reports it (GL_BGRA possible) */
    uint32_t type;
    int32_t stride;   /* as set: 0 = packed */
    uint32_t flags;   /* 1 normalized, 2 integer, 4 long */
    uint64_t ptr;
    uint32_t divisor;
    uint32_t esize;   /* bytes of one element */
    uint64_t step;    /* bytes from one element to the next */
    int64_t lo, hi;   /* elements the draw reads; lo > hi: none */
} carr_t;

/* Per context (w15_ctx_t.arrays). */
typedef struct arr_ctx {
    uint32_t legacy;      /* L_* bits ever given a client pointer */
    uint32_t tex;         /* texture units likewise */
    uint64_t attr;        /* generic attributes likewise */
    uint8_t any;          /* legacy | tex | attr */
    uint8_t divisor_used, int_used, long_used;
    uint8_t kind[MAX_ATTR]; /* last setter of each attribute: 0 plain, 1 I, 2 L */
    uint32_t list_mode;   /* glNewList's mode while a display list is being
                           * compiled, else 0 (GL_COMPILE: glBegin is not executed) */
    uint8_t snap_ok;      /* snap holds the arrays read at glBegin */
    uint8_t snap_restart; /* at glBegin: primitive restart (GL_PRIMITIVE_RESTART
                           * or _NV) is on: glArrayElement(snap_restart_index)
                           * restarts the primitive and reads no element */
    uint32_t snap_restart_index;
    uint8_t facts;        /* the facts below are known */
    /* facts of the context (its API, version, extensions) */
    uint8_t gl, es, compat, vbo, generic, multitex, q_integer, q_divisor, q_long;
    uint8_t restart, restart_nv, restart_fixed, getbuf, mapread, q_mapped, q_maprange;
    uint8_t indirect, parambuf;
    uint32_t leg_ok;      /* L_* bits the context has */
    int max_attr, max_tex;
    uint32_t nsnap;
    carr_t snap[MAX_ARRAYS];
    uint8_t *scratch;
    size_t scap;
    uint8_t *mem;         /* copies of client memory being written */
    size_t mcap;
    struct span *spans;   /* a draw's spans, kept from draw to draw */
    uint32_t capspans;
} arr_ctx_t;

/* ------------------------------------------------------------ GL calls */
typedef void (*get_integerv_fn)(unsigned, int *);
typedef unsigned char (*is_enabled_fn)(unsigned);
typedef void (*get_pointerv_fn)(unsigned, void **);
typedef void (*get_attrib_iv_fn)(unsigned, unsigned, int *);
typedef void (*get_attrib_pv_fn)(unsigned, unsigned, void **);
typedef void (*client_active_fn)(unsigned);
typedef void (*get_buffer_sub_fn)(unsigned, intptr_t, intptr_t, void *);
typedef void (*get_buffer_iv_fn)(unsigned, unsigned, int *);
typedef void (*get_buffer_pv_fn)(unsigned, unsigned, void **);
typedef void *(*map_range_fn)(unsigned, intptr_t, intptr_t, unsigned);
typedef unsigned char (*unmap_fn)(unsigned);

static int gi(unsigned pname)
{
    int v = 0;
    ((get_integerv_fn)W15_REAL(W15F_glGetIntegerv))(pname, &v);
    return v;
}
static int on(unsigned cap)
{
    return ((is_enabled_fn)W15_REAL(W15F_glIsEnabled))(cap) != 0;
}
static uint64_t gp(unsigned pname)
{
    void *p = NULL;
    ((get_pointerv_fn)W15_REAL(W15F_glGetPointerv))(pname, &p);
    return (uint64_t)(uintptr_t)p;
}
static int gai(unsigned index, unsigned pname)
{
    int v = 0;
    ((get_attrib_iv_fn)W15_REAL(W15F_glGetVertexAttribiv))(index, pname, &v);
    return v;
}
static uint64_t gap(unsigned index)
{
    void *p = NULL;
    ((get_attrib_pv_fn)W15_REAL(W15F_glGetVertexAttribPointerv))(index, GL_VERTEX_ATTRIB_ARRAY_POINTER_, &p);
    return (uint64_t)(uintptr_t)p;
}
static void client_active(unsigned unit)
{
    ((client_active_fn)W15_REAL(W15F_glClientActiveTexture))(GL_TEXTURE0_ + unit);
}
static int gbi(unsigned target, unsigned pname)
{
    int v = 0;
    ((get_buffer_iv_fn)W15_REAL(W15F_glGetBufferParameteriv))(target, pname, &v);
    return v;
}

/* ---------------------------------------------------------- the state */

static arr_ctx_t *state_of(w15_thread_t *t, int create)
{
    w15_ctx_t *c = t->ctx;
    if (!c)
        return NULL;
    arr_ctx_t *a = c->arrays;
    if (!a && create && (a = calloc(1, sizeof *a)) != NULL)
        c->arrays = a;
    return a;
}

static int at_least(int major, int minor, int M, int m)
{
    return major > M || (major == M && minor >= m);
}

/* What the current context has; asked once (outside Begin/End). */
static void learn_facts(arr_ctx_t *a)
{
    if (a->facts)
        return;
    a->facts = 1;
    int M = 0, m = 0;
    int api = w15_context_api(&M, &m);
    a->gl = api == 1;
    a->es = api == 2;
    if (!api)
        return;
    a->compat = (uint8_t)w15_context_compat();
    if (a->gl) {
        a->vbo = at_least(M, m, 1, 5);
        a->generic = at_least(M, m, 2, 0);
        a->multitex = a->compat && at_least(M, m, 1, 3);
        a->q_integer = at_least(M, m, 3, 0);
        a->q_divisor = at_least(M, m, 3, 3) || w15_context_has_ext("GL_ARB_instanced_arrays");
        a->q_long = at_least(M, m, 4, 3);
        a->restart = at_least(M, m, 3, 1);
        a->restart_nv = !a->restart && w15_context_has_ext("GL_NV_primitive_restart");
        a->restart_fixed = at_least(M, m, 4, 3) || w15_context_has_ext("GL_ARB_ES3_compatibility");
        a->getbuf = a->vbo;
        a->q_mapped = a->vbo;
        a->q_maprange = at_least(M, m, 3, 0);
        a->indirect = at_least(M, m, 4, 0) || w15_context_has_ext("GL_ARB_draw_indirect");
        a->parambuf = at_least(M, m, 4, 6) || w15_context_has_ext("GL_ARB_indirect_parameters");
        if (a->compat) {
            a->leg_ok = 1u << L_VERTEX | 1u << L_NORMAL | 1u << L_COLOR | 1u << L_INDEX | 1u << L_EDGE;
            if (at_least(M, m, 1, 4))
                a->leg_ok |= 1u << L_SECONDARY | 1u << L_FOG;
        }
    } else {
        a->vbo = at_least(M, m, 1, 1);
        a->generic = M >= 2;
        a->multitex = M == 1;
        a->q_integer = M >= 3;
        a->q_divisor = M >= 3 || w15_context_has_ext("GL_EXT_instanced_arrays") ||
                       w15_context_has_ext("GL_ANGLE_instanced_arrays") ||
                       w15_context_has_ext("GL_NV_instanced_arrays");
        a->restart_fixed = M >= 3;
        if (M >= 3)
            a->mapread = 1;
        else if (w15_context_has_ext("GL_EXT_map_buffer_range"))
            a->mapread = 2;
        a->q_mapped = M >= 3 || w15_context_has_ext("GL_OES_mapbuffer");
        a->q_maprange = M >= 3;
        a->indirect = at_least(M, m, 3, 1);
        if (M == 1)
            a->leg_ok = 1u << L_VERTEX | 1u << L_NORMAL | 1u << L_COLOR | 1u << L_PSIZE;
    }
    if (a->generic) {
        a->max_attr = gi(GL_MAX_VERTEX_ATTRIBS_);
        if (a->max_attr > MAX_ATTR)
            a->max_attr = MAX_ATTR;
    }
    a->max_tex = 1;
    if (a->multitex) {
        a->max_tex = gi(a->gl && at_least(M, m, 2, 0) ? GL_MAX_TEXTURE_COORDS_ : GL_MAX_TEXTURE_UNITS_);
        if (a->max_tex > MAX_TEX)
            a->max_tex = MAX_TEX;
        if (a->max_tex < 1)
            a->max_tex = 1;
    }
}

static uint8_t *scratch(arr_ctx_t *a, size_t n)
{
    if (n > a->scap) {
        size_t cap = n < 4096 ? 4096 : n;
        uint8_t *p = realloc(a->scratch, cap);
        if (!p)
            return NULL;
        a->scratch = p;
        a->scap = cap;
    }
    return a->scratch;
}

static void warn_once(int *done, const char *what, uint64_t addr, uint64_t size)
{
    if (__atomic_exchange_n(done, 1, __ATOMIC_RELAXED))
        return;
    w15_msg("%s (0x%llx, %llu bytes); such memory is recorded empty (this warning is shown once)", what,
            (unsigned long long)addr, (unsigned long long)size);
}
static int warned_fault, warned_span, warned_ebo;

/* ------------------------------------------------------- array state */

/* Element size and step of c; 0 when its type or size is unknown. */
static int finish(carr_t *c)
{
    c->esize = w15_vertex_element_size(c->size, c->type);
    if (!c->esize || c->stride < 0)
        return 0;
    c->step = c->stride ? (uint64_t)c->stride : c->esize;
    c->lo = INT64_MAX;
    c->hi = -1;
    return c->ptr != 0;
}

static int leg_read(const arr_ctx_t *a, const leg_t *l, uint32_t array, uint32_t index, carr_t *c)
{
    if (!on(l->cap))
        return 0;
    if (a->vbo && gi(l->buf_q))
        return 0;
    memset(c, 0, sizeof *c);
    c->array = array;
    c->index = index;
    c->size = l->size_q ? gi(l->size_q) : l->size;
    c->type = l->type_q ? (uint32_t)gi(l->type_q) : l->type;
    c->stride = gi(l->stride_q);
    c->ptr = gp(l->ptr_q);
    return finish(c);
}

/* The enabled client arrays among the candidates, into out[]. */
static uint32_t collect(arr_ctx_t *a, carr_t *out)
{
    uint32_t n = 0;
    uint32_t lm = a->legacy & a->leg_ok;
    for (uint32_t i = 0; lm; i++, lm >>= 1)
        if ((lm & 1) && leg_read(a, &legs[i], legs[i].cap, 0, &out[n]))
            n++;
    if (a->tex && a->compat) {
        int cur = a->multitex ? gi(GL_CLIENT_ACTIVE_TEXTURE_) - GL_TEXTURE0_ : 0;
        int active = cur;
        for (int u = 0; u < a->max_tex; u++) {
            if (!(a->tex >> u & 1))
                continue;
            if (u != active) {
                client_active((unsigned)u);
                active = u;
            }
            if (leg_read(a, &tex_leg, GL_TEXTURE_COORD_ARRAY_, (uint32_t)u, &out[n]))
                n++;
        }
        if (active != cur)
            client_active((unsigned)cur);
    }
    if (a->attr && a->generic) {
        for (int i = 0; i < a->max_attr; i++) {
            if (!(a->attr >> i & 1) || !gai((unsigned)i, GL_VERTEX_ATTRIB_ARRAY_ENABLED_) ||
                gai((unsigned)i, GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING_))
                continue;
            carr_t *c = &out[n];
            memset(c, 0, sizeof *c);
            c->array = GL_VERTEX_ATTRIB_ARRAY_POINTER_;
            c->index = (uint32_t)i;
            c->size = gai((unsigned)i, GL_VERTEX_ATTRIB_ARRAY_SIZE_);
            c->type = (uint32_t)gai((unsigned)i, GL_VERTEX_ATTRIB_ARRAY_TYPE_);
            c->stride = gai((unsigned)i, GL_VERTEX_ATTRIB_ARRAY_STRIDE_);
            c->ptr = gap((unsigned)i);
            if (gai((unsigned)i, GL_VERTEX_ATTRIB_ARRAY_NORMALIZED_))
                c->flags |= 1;
            if (a->int_used && a->q_integer && gai((unsigned)i, GL_VERTEX_ATTRIB_ARRAY_INTEGER_))
                c->flags |= 2;
            if (a->long_used &&
                (a->q_long ? gai((unsigned)i, GL_VERTEX_ATTRIB_ARRAY_LONG_) != 0 : a->kind[i] == 2))
                c->flags = (c->flags & ~3u) | 4;
            if (a->divisor_used && a->q_divisor)
                c->divisor = (uint32_t)gai((unsigned)i, GL_VERTEX_ATTRIB_ARRAY_DIVISOR_);
            if (finish(c))
                n++;
        }
    }
    return n;
}

/* -------------------------------------------------------- buffer reads */

/* Copy [off, off + len) of the buffer bound to `target` into dst without
 * changing anything the program can see.  0, or -1 when it cannot be read. */
static int read_buffer(arr_ctx_t *a, unsigned target, uint64_t off, uint64_t len, void *dst)
{
    if (!len)
        return 0;
    int size = gbi(target, GL_BUFFER_SIZE_);
    if (size <= 0 || off >= (uint64_t)size || len > (uint64_t)size - off)
        return -1;
    if (a->q_mapped && gbi(target, GL_BUFFER_MAPPED_)) {
        /* mapped (persistent, or the draw fails anyway): the mapping */
        void *p = NULL;
        uint32_t fn = a->es && !a->q_maprange ? (uint32_t)W15F_glGetBufferPointervOES
                                                : (uint32_t)W15F_glGetBufferPointerv;
        ((get_buffer_pv_fn)W15_REAL(fn))(target, GL_BUFFER_MAP_POINTER_, &p);
        uint64_t moff = 0, mlen = (uint64_t)size;
        if (a->q_maprange) {
            moff = (uint64_t)gbi(target, GL_BUFFER_MAP_OFFSET_);
            mlen = (uint64_t)gbi(target, GL_BUFFER_MAP_LENGTH_);
        }
        if (!p || off < moff || off + len > moff + mlen)
            return -1;
        return w15_guard_copy(dst, (const uint8_t *)p + (off - moff), len);
    }
    if (a->getbuf) {
        ((get_buffer_sub_fn)W15_REAL(W15F_glGetBufferSubData))(target, (intptr_t)off, (intptr_t)len, dst);
        return 0;
    }
    if (a->mapread) {
        uint32_t mf = a->mapread == 1 ? (uint32_t)W15F_glMapBufferRange : (uint32_t)W15F_glMapBufferRangeEXT;
        uint32_t uf = a->mapread == 1 ? (uint32_t)W15F_glUnmapBuffer : (uint32_t)W15F_glUnmapBufferOES;
        void *p = ((map_range_fn)W15_REAL(mf))(target, (intptr_t)off, (intptr_t)len, GL_MAP_READ_BIT_);
        if (!p)
            return -1;
        int r = w15_guard_copy(dst, p, len);
        ((unmap_fn)W15_REAL(uf))(target);
        return r;
    }
    return -1;
}

/* ------------------------------------------------------------- draws */

/* A byte range of client memory to write. */
typedef struct span {
    uint64_t lo, hi; /* [lo, hi) */
    uint32_t num;    /* once merged: its wip15ClientMemory's number in the draw */
} span_t;
/* wip15ClientArray.memory of an array whose span was not written */
#define NO_MEMORY UINT32_MAX

/* What one draw call collects. */
typedef struct draw {
    arr_ctx_t *a;
    carr_t *arr;
    uint32_t narr;
    int drew;                 /* some sub-draw reads vertices */
    int restart_known, restart_on, restart_fixed;
    uint32_t restart_index;
    span_t *spans;            /* client memory besides the arrays' */
    uint32_t nspans, capspans;
} draw_t;

static void add_span(draw_t *d, uint64_t lo, uint64_t len)
{
    if (!len || lo > UINT64_MAX - len)
        return;
    if (d->nspans == d->capspans) {
        uint32_t cap = d->capspans ? d->capspans * 2 : 16;
        span_t *p = realloc(d->spans, cap * sizeof *p);
        if (!p)
            return;
        d->spans = p;
        d->capspans = cap;
    }
    d->spans[d->nspans].lo = lo;
    d->spans[d->nspans].hi = lo + len;
    d->nspans++;
}

/* One sub-draw: vertices [vlo, vhi], instancecount instances from
 * baseinstance. */
static void add_sub(draw_t *d, int64_t vlo, int64_t vhi, int64_t icount, int64_t binst)
{
    if (icount <= 0 || vhi < 0 || vlo > vhi)
        return;
    if (vlo < 0)
        vlo = 0;
    d->drew = 1;
    for (uint32_t i = 0; i < d->narr; i++) {
        carr_t *c = &d->arr[i];
        int64_t lo = vlo, hi = vhi;
        if (c->divisor) {
            lo = binst;
            hi = binst + (icount - 1) / (int64_t)c->divisor;
        }
        if (lo < c->lo)
            c->lo = lo;
        if (hi > c->hi)
            c->hi = hi;
    }
}

/* Primitive restart with an index of the program's (GL_PRIMITIVE_RESTART
 * or GL_PRIMITIVE_RESTART_NV): 1 with *index, else 0. */
static int restart_with_index(arr_ctx_t *a, uint32_t *index)
{
    if (a->restart && on(GL_PRIMITIVE_RESTART_)) {
        *index = (uint32_t)gi(GL_PRIMITIVE_RESTART_INDEX_);
        return 1;
    }
    if (a->restart_nv && on(GL_PRIMITIVE_RESTART_NV_)) {
        *index = (uint32_t)gi(GL_PRIMITIVE_RESTART_INDEX_NV_);
        return 1;
    }
    return 0;
}

static void learn_restart(draw_t *d)
{
    if (d->restart_known)
        return;
    arr_ctx_t *a = d->a;
    d->restart_known = 1;
    if (a->restart_fixed && on(GL_PRIMITIVE_RESTART_FIXED_INDEX_))
        d->restart_on = d->restart_fixed = 1;
    else
        d->restart_on = restart_with_index(a, &d->restart_index);
}

/* The smallest and largest of `count` indices of `type` (client memory at
 * `indices`, or at that offset of the element buffer when `ebo`), restart
 * indices left out.  1 with lo and hi set, 0 when there is none, -1 when
 * they cannot be read. */
static int index_range(draw_t *d, uint32_t type, uint64_t indices, int64_t count, int ebo, int64_t *lo,
                       int64_t *hi)
{
    uint32_t ts = w15_index_size(type);
    if (!ts || count <= 0)
        return 0;
    uint64_t n = (uint64_t)count * ts;
    if (n > MAX_SPAN)
        return -1;
    uint8_t *p = scratch(d->a, (size_t)n);
    if (!p)
        return -1;
    if (ebo) {
        if (read_buffer(d->a, GL_ELEMENT_ARRAY_BUFFER_, indices, n, p)) {
            warn_once(&warned_ebo, "indices in an element buffer could not be read", indices, n);
            return -1;
        }
    } else {
        if (indices < MIN_CLIENT_PTR || w15_guard_copy(p, (const void *)(uintptr_t)indices, (size_t)n))
            return -1;
    }
    learn_restart(d);
    int rs = d->restart_on;
    uint32_t skip = d->restart_fixed ? w15_fixed_restart_index(ts) : d->restart_index;
    uint32_t mn, mx;
    if (!w15_index_minmax(p, ts, count, rs, skip, &mn, &mx))
        return 0;
    *lo = mn;
    *hi = mx;
    return 1;
}

static int ebo_bound(arr_ctx_t *a)
{
    return a->vbo && gi(GL_ELEMENT_ARRAY_BUFFER_BINDING_) != 0;
}

/* Read n bytes of the program's memory at p (a parameter array GL reads). */
static void *read_param(const void *p, size_t n)
{
    if (!n)
        return malloc(1);
    if ((uintptr_t)p < MIN_CLIENT_PTR)
        return NULL;
    void *m = malloc(n);
    if (m && w15_guard_copy(m, p, n)) {
        free(m);
        return NULL;
    }
    return m;
}

static void sub_elements(draw_t *d, uint32_t type, uint64_t indices, int64_t count, int ebo, int64_t bv,
                         int64_t icount, int64_t binst)
{
    int64_t lo, hi;
    if (d->narr && icount > 0 && index_range(d, type, indices, count, ebo, &lo, &hi) > 0)
        add_sub(d, lo + bv, hi + bv, icount, binst);
}

static void draw_multi(draw_t *d, const w15_draw_desc_t *ds, const w15_slot_t *args)
{
    arr_ctx_t *a = d->a;
    int64_t dc = args[ds->drawcount].i;
    if (dc <= 0 || dc > (1 << 24))
        return;
    size_t n = (size_t)dc;
    int32_t *count = read_param(args[ds->count].p, n * 4);
    if (ds->shape == W15_DRAW_MULTI_ARRAYS) {
        int32_t *first = read_param(args[ds->first].p, n * 4);
        if (first && count)
            for (size_t k = 0; k < n; k++)
                if (first[k] >= 0 && count[k] > 0)
                    add_sub(d, first[k], (int64_t)first[k] + count[k] - 1, 1, 0);
        free(first);
    } else {
        uint32_t type = args[ds->type].u;
        uint32_t ts = w15_index_size(type);
        uint64_t *ind = read_param(args[ds->indices].p, n * sizeof(void *));
        int32_t *bv = ds->bv >= 0 ? read_param(args[ds->bv].p, n * 4) : NULL;
        int ebo = ebo_bound(a);
        if (ts && count && ind && (ds->bv < 0 || bv)) {
            for (size_t k = 0; k < n; k++) {
                if (count[k] <= 0)
                    continue;
                if (!ebo)
                    add_span(d, ind[k], (uint64_t)count[k] * ts);
                sub_elements(d, type, ind[k], count[k], ebo, bv ? bv[k] : 0, 1, 0);
            }
        }
        free(ind);
        free(bv);
    }
    free(count);
}

static void draw_indirect(draw_t *d, const w15_draw_desc_t *ds, const w15_slot_t *args)
{
    arr_ctx_t *a = d->a;
    if (!a->indirect)
        return;
    int elements = ds->shape == W15_DRAW_INDIRECT_ELEMENTS;
    uint32_t type = elements ? args[ds->type].u : 0;
    if (elements && !(type == GL_UNSIGNED_BYTE_ || type == GL_UNSIGNED_SHORT_ || type == GL_UNSIGNED_INT_))
        return;
    int64_t dc = ds->drawcount >= 0 ? args[ds->drawcount].i : 1;
    uint64_t stride = ds->stride >= 0 ? (uint64_t)args[ds->stride].i : 0;
    uint64_t csize = elements ? 20 : 16;
    if (ds->stride >= 0 && args[ds->stride].i < 0)
        return;
    if (!stride)
        stride = csize;
    int in_buffer = gi(GL_DRAW_INDIRECT_BUFFER_BINDING_) != 0;
    if (in_buffer && !d->narr)
        return; /* nothing in client memory */
    if (ds->maxcount >= 0) {
        /* the draw count is in the parameter buffer, at offset `drawcount` */
        int64_t maxc = args[ds->maxcount].i;
        int32_t pc = 0;
        if (!a->parambuf || !gi(GL_PARAMETER_BUFFER_BINDING_) || maxc < 0 ||
            read_buffer(a, GL_PARAMETER_BUFFER_, (uint64_t)dc, 4, &pc))
            return;
        dc = pc < maxc ? pc : maxc;
    }
    if (dc <= 0 || dc > (1 << 24))
        return;
    uint64_t ind = (uint64_t)(uintptr_t)args[ds->indirect].p;
    uint64_t len = (uint64_t)(dc - 1) * stride + csize;
    if (!in_buffer && !(a->gl && a->compat))
        return; /* GL_INVALID_OPERATION: nothing is read */
    if (len > MAX_SPAN || (in_buffer && !d->narr))
        return;
    uint8_t *cmds = malloc((size_t)len);
    if (!cmds)
        return;
    int bad;
    if (in_buffer) {
        bad = read_buffer(a, GL_DRAW_INDIRECT_BUFFER_, ind, len, cmds);
    } else {
        bad = ind < MIN_CLIENT_PTR || w15_guard_copy(cmds, (const void *)(uintptr_t)ind, (size_t)len);
        if (!bad)
            add_span(d, ind, len);
    }
    int ebo = elements && ebo_bound(a);
    if (!bad && d->narr && (!elements || ebo)) {
        uint32_t ts = type == GL_UNSIGNED_BYTE_ ? 1 : type == GL_UNSIGNED_SHORT_ ? 2 : 4;
        for (int64_t k = 0; k < dc; k++) {
            uint32_t c[5];
            memcpy(c, cmds + (uint64_t)k * stride, csize);
            if (!elements)
                add_sub(d, c[2], (int64_t)c[2] + c[0] - 1, c[1], a->es ? 0 : c[3]);
            else if (c[0])
                sub_elements(d, type, (uint64_t)c[2] * ts, c[0], 1, (int32_t)c[3], c[1], a->es ? 0 : c[4]);
        }
    }
    free(cmds);
}

/* ------------------------------------------------------------ writing */

static int put_values(w15_thread_t *t, uint32_t id, const uint64_t *v)
{
    const w15_func_sig_t *f = &w15_funcs[id];
    if (w15_pseudo_begin(t, id, (size_t)f->nparams * 16))
        return -1;
    const w15_param_sig_t *ps = &w15_params[f->first_param];
    w15_buf_t *b = &t->buf;
    for (uint32_t i = 0; i < f->nparams; i++) {
        if (ps[i].base == W15_INT)
            w15_put_svari(b, (int64_t)v[i]);
        else if (ps[i].base == W15_BOOL)
            w15_put_u8(b, v[i] != 0);
        else
            w15_put_uvari(b, v[i]);
        if (ps[i].group != W15_NO_GROUP)
            w15_put_u32(b, ps[i].group);
    }
    return w15_pseudo_end(t);
}

/* A slot of the thread's recent client memory (draws.h W15_CMEM_SLOTS). */
typedef struct cmem_slot {
    uint64_t address, size, digest;
} cmem_slot_t;

/* 0 written, 1 not written (too large, no memory), -1 the stream failed. */
static int put_memory(w15_thread_t *t, arr_ctx_t *a, uint64_t lo, uint64_t hi)
{
    uint64_t n = hi - lo;
    if (n > MAX_SPAN) {
        warn_once(&warned_span, "a client array span is too large to be recorded", lo, n);
        return 1;
    }
    if (n > a->mcap) {
        uint8_t *p = realloc(a->mem, (size_t)n);
        if (!p)
            return 1;
        a->mem = p;
        a->mcap = (size_t)n;
    }
    int bad = lo < MIN_CLIENT_PTR || w15_guard_copy(a->mem, (const void *)(uintptr_t)lo, (size_t)n);
    if (bad)
        warn_once(&warned_fault, "client memory a draw reads could not be read", lo, n);
    /* the same bytes as this thread last wrote there: named, not written */
    cmem_slot_t *slot = NULL;
    uint64_t digest = 0;
    if (!bad && n >= W15_CMEM_MIN && n <= W15_CMEM_MAX) {
        if (!t->cmem_slots)
            t->cmem_slots = calloc(W15_CMEM_SLOTS, sizeof(cmem_slot_t));
        if (t->cmem_slots) {
            slot = (cmem_slot_t *)t->cmem_slots + w15_cmem_slot(lo, n);
            digest = w15_fhash_bytes(a->mem, (size_t)n);
            if (slot->address == lo && slot->size == n && slot->digest == digest) {
                if (w15_pseudo_begin(t, W15F_wip15ClientMemorySame, 30))
                    return -1;
                w15_put_uvari(&t->buf, lo);
                w15_put_uvari(&t->buf, n);
                w15_put_uvari(&t->buf, digest);
                return w15_pseudo_end(t);
            }
        }
    }
    if (w15_pseudo_begin(t, W15F_wip15ClientMemory, 10 + W15_MAX_EMPTY))
        return -1;
    w15_buf_t *b = &t->buf;
    w15_put_uvari(b, lo);
    if (bad)
        w15_put_empty(b, W15_DATA, 0);
    else if (w15_put_data(b, a->mem, (uint32_t)n)) {
        w15_pseudo_cancel(t);
        return -1;
    }
    int r = w15_pseudo_end(t);
    if (slot && !r)
        slot->address = lo, slot->size = n, slot->digest = digest;
    if (a->mcap > ((size_t)64 << 20)) {
        free(a->mem);
        a->mem = NULL;
        a->mcap = 0;
    }
    return r;
}

static int cmp_span(const void *x, const void *y)
{
    const span_t *p = x, *q = y;
    return p->lo < q->lo ? -1 : p->lo > q->lo;
}

/* Write the draw's pseudo-calls: the merged spans as wip15ClientMemory
 * (numbered 0, 1, ... in the order written), then each array as
 * wip15ClientArray naming the span its first element read lies in and its
 * pointer's offset from that span's address (no absolute address: it
 * changes at every draw and would cost the trace incompressible bytes). */
static void write_draw(w15_thread_t *t, draw_t *d)
{
    for (uint32_t i = 0; i < d->narr; i++) {
        carr_t *c = &d->arr[i];
        if (c->lo > c->hi)
            continue;
        uint64_t lo = (uint64_t)c->lo, hi = (uint64_t)c->hi;
        if (hi > MAX_SPAN / c->step) {
            warn_once(&warned_span, "a client array span is too large to be recorded", c->ptr, hi * c->step);
            c->lo = INT64_MAX;
            continue;
        }
        uint64_t s = c->ptr + lo * c->step, e = c->ptr + hi * c->step + c->esize;
        if (s < c->ptr || e < s) {
            c->lo = INT64_MAX;
            continue;
        }
        add_span(d, s, e - s);
    }
    /* merge in place: spans[0 .. n) sorted, disjoint, not touching */
    uint32_t n = 0;
    if (d->nspans) {
        qsort(d->spans, d->nspans, sizeof *d->spans, cmp_span);
        for (uint32_t i = 1; i < d->nspans; i++) {
            if (d->spans[i].lo <= d->spans[n].hi) {
                if (d->spans[i].hi > d->spans[n].hi)
                    d->spans[n].hi = d->spans[i].hi;
            } else {
                d->spans[++n] = d->spans[i];
            }
        }
        n++;
    }
    /* written[i]: the number of span i among those written, or NO_MEMORY */
    uint32_t nwritten = 0;
    for (uint32_t i = 0; i < n; i++) {
        int r = put_memory(t, d->a, d->spans[i].lo, d->spans[i].hi);
        if (r < 0)
            return;
        d->spans[i].num = r ? NO_MEMORY : nwritten++;
    }
    for (uint32_t i = 0; i < d->narr; i++) {
        carr_t *c = &d->arr[i];
        if (c->lo > c->hi)
            continue;
        uint64_t s = c->ptr + (uint64_t)c->lo * c->step;
        uint32_t lo = 0, hi = n; /* the last span with spans[].lo <= s */
        while (hi - lo > 1) {
            uint32_t mid = lo + (hi - lo) / 2;
            if (d->spans[mid].lo <= s)
                lo = mid;
            else
                hi = mid;
        }
        uint64_t mem = NO_MEMORY, off = 0;
        if (n && d->spans[lo].lo <= s && s < d->spans[lo].hi && d->spans[lo].num != NO_MEMORY) {
            mem = d->spans[lo].num;
            off = c->ptr - d->spans[lo].lo;
        }
        uint64_t v[9] = { c->array, c->index, (uint64_t)(int64_t)c->size, c->type, (uint64_t)(int64_t)c->stride,
                          c->flags, mem, off, c->divisor };
        if (put_values(t, W15F_wip15ClientArray, v))
            return;
    }
}

static void draw_pre(w15_thread_t *t, uint32_t id, const w15_slot_t *args, int rec)
{
    w15_draw_desc_t ds = w15_draw_describe(id);
    if (ds.shape == W15_DRAW_NONE || !rec)
        return;
    if (ds.shape != W15_DRAW_ARRAY_ELEMENT && !ds.modes && args[0].u > GL_PATCHES_)
        return; /* GL_INVALID_ENUM (every draw's mode is first): nothing is read */
    /* the index arrays of a multi-draw and client-memory indirect commands
     * are recorded even without client vertex arrays */
    int other = ds.shape == W15_DRAW_MULTI_ELEMENTS || ds.shape == W15_DRAW_INDIRECT_ARRAYS || ds.shape == W15_DRAW_INDIRECT_ELEMENTS;
    arr_ctx_t *a = state_of(t, 0);
    if ((!a || !a->any) && !other)
        return;
    if (!a && !(a = state_of(t, 1)))
        return;
    if (t->ctx->in_begin && ds.shape != W15_DRAW_ARRAY_ELEMENT)
        return; /* GL_INVALID_OPERATION: nothing is read */
    carr_t arr[MAX_ARRAYS];
    draw_t d;
    memset(&d, 0, sizeof d);
    d.a = a;
    d.arr = arr;
    d.spans = a->spans;
    d.capspans = a->capspans;
    if (t->ctx->in_begin) {
        if (!a->snap_ok)
            return; /* no query is legal here */
        memcpy(arr, a->snap, a->nsnap * sizeof *arr);
        d.narr = a->nsnap;
    } else {
        learn_facts(a);
        if (a->any)
            d.narr = collect(a, arr);
    }
    if (!d.narr && !other)
        return;
    switch (ds.shape) {
    case W15_DRAW_ARRAYS: {
        int64_t first = args[ds.first].i, count = args[ds.count].i;
        int64_t icount = ds.inst >= 0 ? args[ds.inst].i : 1;
        int64_t binst = ds.bi >= 0 ? (int64_t)args[ds.bi].u : 0;
        if (first >= 0 && count > 0)
            add_sub(&d, first, first + count - 1, icount, binst);
        break;
    }
    case W15_DRAW_ELEMENTS: {
        int64_t count = args[ds.count].i;
        int64_t icount = ds.inst >= 0 ? args[ds.inst].i : 1;
        int64_t binst = ds.bi >= 0 ? (int64_t)args[ds.bi].u : 0;
        int64_t bv = ds.bv >= 0 ? args[ds.bv].i : 0;
        if (count > 0 && icount > 0)
            sub_elements(&d, args[ds.type].u, (uint64_t)(uintptr_t)args[ds.indices].p, count, ebo_bound(a), bv,
                         icount, binst);
        break;
    }
    case W15_DRAW_MULTI_ARRAYS:
    case W15_DRAW_MULTI_ELEMENTS:
        draw_multi(&d, &ds, args);
        break;
    case W15_DRAW_INDIRECT_ARRAYS:
    case W15_DRAW_INDIRECT_ELEMENTS:
        draw_indirect(&d, &ds, args);
        break;
    case W15_DRAW_ARRAY_ELEMENT:
        /* inside glBegin/glEnd the restart index restarts the primitive */
        if (args[0].i >= 0 &&
            !(t->ctx->in_begin && a->snap_restart && (uint32_t)args[0].i == a->snap_restart_index))
            add_sub(&d, args[0].i, args[0].i, 1, 0);
        break;
    }
    if (d.drew || d.nspans)
        write_draw(t, &d);
    if (d.capspans > 4096) {
        free(d.spans);
        d.spans = NULL;
        d.capspans = 0;
    }
    a->spans = d.spans;
    a->capspans = d.capspans;
}

/* ------------------------------------------------------------ setters */

static void begin_pre(w15_thread_t *t, const w15_slot_t *args, int rec)
{
    arr_ctx_t *a = state_of(t, 1);
    if (!a || t->ctx->in_begin || args[0].u > GL_PATCHES_ || a->list_mode == GL_COMPILE_)
        return; /* GL_INVALID_OPERATION / _ENUM, or compiled: GL stays where it is */
    w15_context_prime(); /* nothing may be asked until glEnd */
    a->snap_ok = 0;
    if (a->any && rec) {
        learn_facts(a);
        a->nsnap = collect(a, a->snap);
        a->snap_ok = 1;
        /* not GL_PRIMITIVE_RESTART_FIXED_INDEX: it applies to element
         * draws with an index type, not to glArrayElement */
        a->snap_restart = (uint8_t)restart_with_index(a, &a->snap_restart_index);
    }
    t->ctx->in_begin = 1;
}

/* glNewList / glEndList, before the real call: whether glBegin will be
 * executed or only compiled.  GL rejects a glNewList with list 0, another
 * list open, an unknown mode or inside glBegin/glEnd, and a glEndList
 * without one open. */
static void list_pre(w15_thread_t *t, uint32_t id, const w15_slot_t *args)
{
    arr_ctx_t *a = state_of(t, 1);
    if (!a || t->ctx->in_begin)
        return;
    if (id == W15F_glEndList)
        a->list_mode = 0;
    else if (!a->list_mode && args[0].u != 0 && (args[1].u == GL_COMPILE_ || args[1].u == GL_COMPILE_AND_EXECUTE_))
        a->list_mode = (uint32_t)args[1].u;
}

void w15_arrays_pre(w15_thread_t *t, uint32_t id, uint32_t flags, const w15_slot_t *args, int rec)
{
    if (!t->ctx)
        return;
    if (flags & W15_FN_VERTEX_DRAW)
        draw_pre(t, id, args, rec);
    else if (id == W15F_glBegin)
        begin_pre(t, args, rec);
    else if (id == W15F_glNewList || id == W15F_glEndList)
        list_pre(t, id, args);
}

enum { K_NONE, K_LEGACY, K_TEX, K_TEX_UNIT, K_INTERLEAVED, K_ATTR, K_DIVISOR };

static int setter_kind(uint32_t id, uint32_t *bit, uint8_t *akind)
{
    *akind = 0;
    switch (id) {
    case W15F_glVertexPointer: case W15F_glVertexPointerEXT: *bit = L_VERTEX; return K_LEGACY;
    case W15F_glNormalPointer: case W15F_glNormalPointerEXT: *bit = L_NORMAL; return K_LEGACY;
    case W15F_glColorPointer: case W15F_glColorPointerEXT: *bit = L_COLOR; return K_LEGACY;
    case W15F_glSecondaryColorPointer: case W15F_glSecondaryColorPointerEXT: *bit = L_SECONDARY; return K_LEGACY;
    case W15F_glFogCoordPointer: case W15F_glFogCoordPointerEXT: *bit = L_FOG; return K_LEGACY;
    case W15F_glIndexPointer: case W15F_glIndexPointerEXT: *bit = L_INDEX; return K_LEGACY;
    case W15F_glEdgeFlagPointer: case W15F_glEdgeFlagPointerEXT: *bit = L_EDGE; return K_LEGACY;
    case W15F_glPointSizePointerOES: *bit = L_PSIZE; return K_LEGACY;
    case W15F_glTexCoordPointer: case W15F_glTexCoordPointerEXT: return K_TEX;
    case W15F_glMultiTexCoordPointerEXT: return K_TEX_UNIT;
    case W15F_glInterleavedArrays: return K_INTERLEAVED;
    case W15F_glVertexAttribPointer: case W15F_glVertexAttribPointerARB: return K_ATTR;
    case W15F_glVertexAttribIPointer: case W15F_glVertexAttribIPointerEXT: *akind = 1; return K_ATTR;
    case W15F_glVertexAttribLPointer: case W15F_glVertexAttribLPointerEXT: *akind = 2; return K_ATTR;
    case W15F_glVertexAttribDivisor: case W15F_glVertexAttribDivisorARB: case W15F_glVertexAttribDivisorEXT:
    case W15F_glVertexAttribDivisorANGLE: case W15F_glVertexAttribDivisorNV: case W15F_glVertexBindingDivisor:
    case W15F_glVertexArrayBindingDivisor: case W15F_glVertexArrayVertexBindingDivisorEXT:
    case W15F_glVertexArrayVertexAttribDivisorEXT:
        return K_DIVISOR;
    default: return K_NONE;
    }
}

static void setter_post(w15_thread_t *t, uint32_t id, const w15_slot_t *args)
{
    uint32_t bit = 0;
    uint8_t akind;
    int k = setter_kind(id, &bit, &akind);
    if (k == K_NONE)
        return;
    arr_ctx_t *a = state_of(t, 1);
    if (!a)
        return;
    if (k == K_DIVISOR) {
        a->divisor_used = 1;
        return;
    }
    if (k == K_ATTR) {
        bit = args[0].u;
        if (bit >= MAX_ATTR)
            return;
        a->kind[bit] = akind;
        if (akind == 1)
            a->int_used = 1;
        else if (akind == 2)
            a->long_used = 1;
    }
    uintptr_t ptr = (uintptr_t)args[w15_funcs[id].nparams - 1].p;
    if (ptr < MIN_CLIENT_PTR)
        return; /* NULL or an offset */
    if (t->ctx->in_begin) {
        /* no query is legal: assume the worst */
        if (k == K_LEGACY)
            a->legacy |= 1u << bit;
        else if (k == K_ATTR)
            a->attr |= (uint64_t)1 << bit;
        else
            a->tex = ~0u, a->legacy |= 1u << L_VERTEX | 1u << L_NORMAL | 1u << L_COLOR;
        a->any = 1;
        return;
    }
    learn_facts(a);
    uint32_t unit = 0;
    if (k == K_TEX_UNIT)
        unit = args[0].u - GL_TEXTURE0_;
    else if ((k == K_TEX || k == K_INTERLEAVED) && a->multitex)
        unit = (uint32_t)(gi(GL_CLIENT_ACTIVE_TEXTURE_) - GL_TEXTURE0_);
    if (unit >= MAX_TEX)
        return;
    /* already a candidate: nothing to ask */
    if ((k == K_LEGACY && (a->legacy >> bit & 1)) || (k == K_ATTR && (a->attr >> bit & 1)) ||
        ((k == K_TEX || k == K_TEX_UNIT) && (a->tex >> unit & 1)))
        return;
    if (k == K_TEX_UNIT) {
        /* glMultiTexCoordPointerEXT sets the unit's array directly */
    } else if (a->vbo && gi(GL_ARRAY_BUFFER_BINDING_)) {
        return; /* an offset into the bound buffer */
    }
    if (k == K_LEGACY)
        a->legacy |= 1u << bit;
    else if (k == K_ATTR)
        a->attr |= (uint64_t)1 << bit;
    else if (k == K_INTERLEAVED)
        a->tex |= 1u << unit, a->legacy |= 1u << L_VERTEX | 1u << L_NORMAL | 1u << L_COLOR;
    else
        a->tex |= 1u << unit;
    a->any = 1;
}

static void free_state(arr_ctx_t *a)
{
    free(a->scratch);
    free(a->mem);
    free(a->spans);
    free(a);
}

void w15_arrays_post(w15_thread_t *t, uint32_t id, uint32_t flags, const w15_slot_t *args,
                     const w15_slot_t *ret, int rec)
{
    (void)rec;
    if (flags & W15_FN_CONTEXT_DESTROY) {
        /* glXDestroyContext (void) / eglDestroyContext (EGLBoolean), both
         * (dpy, ctx); a context still current somewhere keeps its state */
        if ((ret && !ret->u) || !args[1].p)
            return;
        w15_ctx_t *c = w15_ctx_find((void *)args[1].p, 0);
        if (c && c->arrays && !w15_ctx_current_anywhere(c)) {
            free_state(c->arrays);
            c->arrays = NULL;
        }
        return;
    }
    if (!t->ctx)
        return;
    if (id == W15F_glEnd) {
        arr_ctx_t *a = t->ctx->arrays;
        if (a && a->list_mode != GL_COMPILE_)
            a->snap_ok = t->ctx->in_begin = 0;
        return;
    }
    setter_post(t, id, args);
}
