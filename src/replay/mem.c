/* mem.c -- the program's memory that the trace holds apart from call
 * arguments: client memory (wip15ClientMemory), client-side arrays
 * (wip15ClientArray) and writes through buffer mappings (wip15BufferWrite).
 * docs/FORMAT.md "Captured memory and surfaces" defines them.
 *
 * Owns: each thread's pending client memory (struct rp_cmem: the ranges
 * recorded for its next real call, copied into one block the driver reads;
 * used up by that call), the memory recently recorded at each of its slots
 * (wip15ClientMemorySame names it again), the re-pointing of client arrays at those copies,
 * glBegin held back and the arrays' windows for glArrayElement between
 * glBegin and glEnd (rp.h rp_mem_begin), and the writes into the replay's
 * own buffer mappings.
 * May use: rp.h, the GL entry points through rp_addr, the reader (blobs).
 * Must never: leave GL state changed (bindings it touches are restored),
 * raise a GL error (only calls valid in the context's version), free memory
 * a client array of the driver may still point to before the thread ends.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "draws.h"
#include "funcs.h"
#include "rp.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

#define GL_ARRAY_BUFFER 0x8892
#define GL_ARRAY_BUFFER_BINDING 0x8894
#define GL_ELEMENT_ARRAY_BUFFER 0x8893
#define GL_ELEMENT_ARRAY_BUFFER_BINDING 0x8895
#define GL_COPY_WRITE_BUFFER 0x8F37
#define GL_COPY_WRITE_BUFFER_BINDING 0x8F37
#define GL_BUFFER_SIZE 0x8764
#define GL_BUFFER_MAPPED 0x88BC
#define GL_DRAW_INDIRECT_BUFFER 0x8F3F
#define GL_DRAW_INDIRECT_BUFFER_BINDING 0x8F43
#define GL_MAP_READ_BIT 0x0001
#define GL_BUFFER_MAP_POINTER 0x88BD
#define GL_BUFFER_MAP_LENGTH 0x9120
#define GL_BUFFER_MAP_OFFSET 0x9121
#define GL_CLIENT_ACTIVE_TEXTURE 0x84E1
#define GL_TEXTURE0 0x84C0
#define GL_VERTEX_ARRAY 0x8074
#define GL_NORMAL_ARRAY 0x8075
#define GL_COLOR_ARRAY 0x8076
#define GL_INDEX_ARRAY 0x8077
#define GL_TEXTURE_COORD_ARRAY 0x8078
#define GL_EDGE_FLAG_ARRAY 0x8079
#define GL_FOG_COORD_ARRAY 0x8457
#define GL_SECONDARY_COLOR_ARRAY 0x845E
#define GL_POINT_SIZE_ARRAY_OES 0x8B9C
#define GL_VERTEX_ATTRIB_ARRAY_POINTER 0x8645
#define GL_VERTEX_ATTRIB_ARRAY_ENABLED 0x8622
#define GL_PRIMITIVE_RESTART 0x8F9D
#define GL_PRIMITIVE_RESTART_INDEX 0x8F9E
#define GL_PRIMITIVE_RESTART_FIXED_INDEX 0x8D69

typedef struct crange {
    uint64_t addr; /* the program's address */
    size_t size;
    size_t off;    /* its copy: cm->buf + off */
} crange_t;

/* An array's window for glArrayElement between glBegin and glEnd: address
 * space of the replay's own (reserved, pages taken as written) holding
 * each element at its offset from the array's base, which GL was given
 * before glBegin. */
#define WINDOW_BYTES ((size_t)256 << 20)
typedef struct cwin {
    uint32_t array, index;
    uint8_t *base;
    int active; /* GL points the array at base (this glBegin) */
    int size, type, stride;
    uint32_t flags;
} cwin_t;

/* A client array re-pointed by wip15ClientArray at the replay's memory.
 * For the draw it came with (gen: the thread's current rp_cmem.gen), the
 * bytes GL may read around its base, [lo, hi) from the base, are the
 * replay's copy of the memory the trace holds (or its zeros).  Later (a
 * draw without a wip15ClientArray for it: a damaged trace) it still points
 * into the block that held that copy, [blo, bhi), which stays allocated. */
typedef struct cvert {
    uint32_t array, index;
    int64_t lo, hi, blo, bhi;
    uint32_t esize, divisor;
    uint64_t step, gen;
    const void *base;
} cvert_t;

struct rp_cmem {
    cwin_t *win;
    uint32_t nwin;
    int warned_win;
    crange_t *r;
    uint32_t rcap;
    uint8_t *buf;
    size_t used, cap;
    uint8_t **old;      /* earlier blocks: client arrays may still point there */
    uint32_t nold;
    int arrays;         /* wip15ClientArray before the coming call */
    cvert_t *va;        /* the arrays re-pointed (not glArrayElement's windows) */
    uint32_t nva, capva;
    uint64_t gen;       /* counts the real calls */
    uint32_t warn_fn, warn_param; /* a client pointer set without its data */
    int warn_pending;
    struct cslot {      /* draws.h W15_CMEM_SLOTS: the last wip15ClientMemory at each */
        uint64_t addr, size;
        uint8_t *bytes;
    } *slots;
    int warned_same;
};

/* ---- GL entry points -------------------------------------------------- */

typedef unsigned int glenum_t;
typedef void (*pfn_attrib)(unsigned, int, glenum_t, unsigned char, int, const void *);
typedef void (*pfn_attrib_i)(unsigned, int, glenum_t, int, const void *);
typedef void (*pfn_size_type)(int, glenum_t, int, const void *);
typedef void (*pfn_type)(glenum_t, int, const void *);
typedef void (*pfn_stride)(int, const void *);
typedef void (*pfn_enum)(glenum_t);
typedef void (*pfn_geti)(glenum_t, int *);
typedef void (*pfn_bind)(glenum_t, unsigned);
typedef void (*pfn_getptr)(glenum_t, glenum_t, void **);
typedef void (*pfn_getbp)(glenum_t, glenum_t, int *);
typedef void (*pfn_getbp64)(glenum_t, glenum_t, int64_t *);
typedef void (*pfn_subdata)(glenum_t, intptr_t, intptr_t, const void *);
typedef void (*pfn_nptr)(unsigned, glenum_t, void **);
typedef void (*pfn_nbp64)(unsigned, glenum_t, int64_t *);
typedef void (*pfn_nsubdata)(unsigned, intptr_t, intptr_t, const void *);
typedef void (*pfn_getsubdata)(glenum_t, intptr_t, intptr_t, void *);
typedef void *(*pfn_maprange)(glenum_t, intptr_t, intptr_t, unsigned);
typedef unsigned char (*pfn_unmap)(glenum_t);

#define GLF(st, name) rp_addr((st), W15F_##name)

int rp_mem_init(rp_state_t *st)
{
    (void)st;
    return 0;
}

void rp_mem_end(rp_state_t *st)
{
    for (uint32_t i = 0; i < st->npinned; i++)
        free(st->pinned[i]);
    free(st->pinned);
    st->pinned = NULL;
    st->npinned = st->pincap = 0;
}

/* ---- GL_AMD_pinned_memory -------------------------------------------- */

#define GL_EXTERNAL_VIRTUAL_MEMORY_BUFFER_AMD 0x9160

int rp_mem_pin(rp_exec_t *x, rp_call_t *c)
{
    if ((c->fn != W15F_glBufferData && c->fn != W15F_glBufferDataARB) ||
        (uint32_t)c->a[0].u != GL_EXTERNAL_VIRTUAL_MEMORY_BUFFER_AMD || !c->a[2].vp || c->a[1].i <= 0)
        return 0;
    rp_state_t *st = x->st;
    size_t n = (size_t)c->a[1].i, page = (size_t)sysconf(_SC_PAGESIZE);
    void *p = NULL;
    if (posix_memalign(&p, page, (n + page - 1) / page * page)) {
        rp_fatal(st, "out of memory");
        return -1;
    }
    memcpy(p, c->a[2].vp, n); /* decode.c padded the recorded bytes to n */
    pthread_mutex_lock(&st->lock);
    if (st->npinned == st->pincap) {
        uint32_t cap = st->pincap ? st->pincap * 2 : 8;
        void **np = realloc(st->pinned, cap * sizeof *np);
        if (!np) {
            pthread_mutex_unlock(&st->lock);
            free(p);
            rp_fatal(st, "out of memory");
            return -1;
        }
        st->pinned = np;
        st->pincap = cap;
    }
    st->pinned[st->npinned++] = p;
    pthread_mutex_unlock(&st->lock);
    c->a[2].vp = p;
    return 0;
}

void rp_mem_exec_free(rp_exec_t *x)
{
    struct rp_cmem *cm = x->cmem;
    if (!cm)
        return;
    for (uint32_t i = 0; i < cm->nold; i++)
        free(cm->old[i]);
    free(cm->old);
    for (uint32_t i = 0; i < cm->nwin; i++)
        munmap(cm->win[i].base, WINDOW_BYTES);
    free(cm->win);
    for (uint32_t i = 0; cm->slots && i < W15_CMEM_SLOTS; i++)
        free(cm->slots[i].bytes);
    free(cm->slots);
    free(cm->va);
    free(cm->buf);
    free(cm->r);
    free(cm);
    x->cmem = NULL;
    x->ncmem = 0;
}

static struct rp_cmem *cmem(rp_exec_t *x)
{
    if (!x->cmem)
        x->cmem = calloc(1, sizeof *x->cmem);
    return x->cmem;
}

/* ---- wip15ClientMemory(address, bytes) ------------------------------- */

static uint64_t arg_u(const rp_call_t *c, uint32_t i)
{
    const w15_value_t *v = &c->wc->args[i];
    if (i >= c->wc->func->nargs || !v->count || v->type.is_array)
        return 0;
    switch (v->type.base) {
    case W15_UINT: case W15_PTR: return v->v.u[0];
    case W15_INT: return (uint64_t)v->v.i[0];
    case W15_BOOL: return v->v.b[0];
    default: return 0;
    }
}

/* Append [addr, addr + size) holding d (NULL: zeros) to the memory of the
 * thread's coming call.  0, or -1 out of memory (reported). */
static int add_range(rp_exec_t *x, uint64_t addr, const uint8_t *d, uint64_t size)
{
    struct rp_cmem *cm = cmem(x);
    if (!cm || size > ((uint64_t)1 << 40))
        goto nomem;
    if (x->ncmem == cm->rcap) {
        uint32_t n = cm->rcap ? cm->rcap * 2 : 8;
        crange_t *r = realloc(cm->r, (size_t)n * sizeof *r);
        if (!r)
            goto nomem;
        cm->r = r, cm->rcap = n;
    }
    size_t need = cm->used + (((size_t)size + 15u) & ~(size_t)15);
    if (need > cm->cap) {
        /* a new block; the old one stays allocated (the driver may still
         * hold client array pointers into it) until the thread ends */
        size_t cap = cm->cap ? cm->cap * 2 : (64u << 10);
        while (cap < need)
            cap *= 2;
        uint8_t *nb = malloc(cap);
        uint8_t **old = cm->buf ? realloc(cm->old, (size_t)(cm->nold + 1) * sizeof *old) : cm->old;
        if (!nb || (cm->buf && !old)) {
            free(nb);
            goto nomem;
        }
        if (cm->used)
            memcpy(nb, cm->buf, cm->used);
        if (cm->buf) {
            cm->old = old;
            cm->old[cm->nold++] = cm->buf;
        }
        cm->buf = nb, cm->cap = cap;
    }
    crange_t *r = &cm->r[x->ncmem++];
    r->addr = addr;
    r->size = (size_t)size;
    r->off = cm->used;
    if (size && d)
        memcpy(cm->buf + r->off, d, (size_t)size);
    else if (size)
        memset(cm->buf + r->off, 0, (size_t)size);
    cm->used = need;
    return 0;
nomem:
    rp_fatal(x->st, "out of memory (client memory of %llu bytes)", (unsigned long long)size);
    return -1;
}

/* The bytes of pseudo-call c's Data argument i: 1 with *b and *d set, 0
 * when the argument holds none, -1 when they cannot be read (reported). */
static int arg_blob(rp_exec_t *x, const rp_call_t *c, uint32_t i, const w15_blob_t **b, const uint8_t **d)
{
    const w15_value_t *bv = &c->wc->args[i];
    if (!bv->count || bv->type.base != W15_DATA)
        return 0;
    w15_error_t err;
    *b = &bv->v.data[0];
    if (!(*d = w15_reader_blob(x->st->rd, *b, &err))) {
        rp_fatal(x->st, "%s", err.msg);
        return -1;
    }
    return 1;
}

int rp_mem_client_memory(rp_exec_t *x, const rp_call_t *c)
{
    rp_state_t *st = x->st;
    const w15_blob_t *b;
    const uint8_t *d;
    int has = arg_blob(x, c, 1, &b, &d);
    if (has <= 0)
        return has;
    uint64_t addr = arg_u(c, 0);
    if (add_range(x, addr, d, b->size))
        return -1;
    /* kept at its slot for a later wip15ClientMemorySame */
    struct rp_cmem *cm = x->cmem;
    if (b->size >= W15_CMEM_MIN && b->size <= W15_CMEM_MAX) {
        if (!cm->slots && !(cm->slots = calloc(W15_CMEM_SLOTS, sizeof *cm->slots)))
            goto nomem;
        struct cslot *s = &cm->slots[w15_cmem_slot(addr, b->size)];
        if (s->size != b->size) {
            uint8_t *nb = realloc(s->bytes, b->size);
            if (!nb)
                goto nomem;
            s->bytes = nb;
        }
        memcpy(s->bytes, d, b->size);
        s->addr = addr, s->size = b->size;
    }
    return 0;
nomem:
    rp_fatal(st, "out of memory (client memory of %u bytes)", b->size);
    return -1;
}

/* wip15ClientMemorySame(address, size, digest): the bytes the thread's
 * last wip15ClientMemory at that slot held, when they are those (same
 * address and size, XXH3-64 digest); else (a damaged trace, one cut before
 * them) zeros, with a warning, so the draw's memory keeps its numbering. */
int rp_mem_client_memory_same(rp_exec_t *x, const rp_call_t *c)
{
    uint64_t addr = arg_u(c, 0), size = arg_u(c, 1), digest = arg_u(c, 2);
    struct rp_cmem *cm = cmem(x);
    if (!cm)
        return add_range(x, addr, NULL, 0);
    const struct cslot *s = size >= W15_CMEM_MIN && size <= W15_CMEM_MAX && cm->slots
                                ? &cm->slots[w15_cmem_slot(addr, size)] : NULL;
    if (s && s->addr == addr && s->size == size && s->bytes && XXH3_64bits(s->bytes, (size_t)size) == digest)
        return add_range(x, addr, s->bytes, size);
    if (!cm->warned_same) {
        cm->warned_same = 1;
        rp_warn(x, W15F_wip15ClientMemorySame, "names %llu bytes at 0x%llx that this thread's earlier "
                "wip15ClientMemory did not hold (a damaged trace); zeros instead",
                (unsigned long long)size, (unsigned long long)addr);
    }
    return add_range(x, addr, NULL, size > W15_CMEM_MAX ? 0 : size);
}

void *rp_mem_translate(rp_exec_t *x, uint64_t p)
{
    struct rp_cmem *cm = x->cmem;
    for (uint32_t i = 0; i < x->ncmem; i++) {
        const crange_t *r = &cm->r[i];
        if (p >= r->addr && p - r->addr < r->size)
            return cm->buf + r->off + (p - r->addr);
    }
    return NULL;
}

/* The replay's address for an array based at p: inside a range when p is;
 * else (the array's first element read is past its base: glDrawArrays
 * with first > 0) shifted like the nearest range above p.  NULL: none. */
static void *array_base(rp_exec_t *x, uint64_t p)
{
    void *m = rp_mem_translate(x, p);
    if (m || !x->ncmem)
        return m;
    struct rp_cmem *cm = x->cmem;
    const crange_t *best = NULL;
    for (uint32_t i = 0; i < x->ncmem; i++)
        if (cm->r[i].addr > p && (!best || cm->r[i].addr < best->addr))
            best = &cm->r[i];
    if (!best)
        return NULL;
    return (void *)((uintptr_t)(cm->buf + best->off) - (uintptr_t)(best->addr - p));
}

void rp_mem_after_call(rp_exec_t *x, uint32_t fn)
{
    struct rp_cmem *cm = x->cmem;
    if (fn == W15F_glEnd) {
        x->in_begin = 0;
        for (uint32_t i = 0; cm && i < cm->nwin; i++)
            cm->win[i].active = 0;
    }
    if (!cm)
        return;
    if (cm->warn_pending && fn < w15_nfuncs && (w15_funcs[fn].flags & W15_FN_VERTEX_DRAW)) {
        if (!cm->arrays) {
            const w15_func_sig_t *fs = &w15_funcs[cm->warn_fn];
            rp_warn(x, cm->warn_fn,
                    "parameter %s points at client memory, and a draw (%s) reads it without the trace "
                    "holding that memory (no wip15ClientArray before it: a trace made before client "
                    "arrays were captured?); the draw reads zeros",
                    w15_str(w15_params[fs->first_param + cm->warn_param].name), w15_str(w15_funcs[fn].name));
        }
        cm->warn_pending = 0;
    }
    x->ncmem = 0;
    cm->used = 0;
    cm->arrays = 0;
    cm->gen++;
}

/* ---- glBegin held back (rp.h) ------------------------------------------ */

int rp_mem_begin(rp_exec_t *x, rp_call_t *c)
{
    if (!x->ctx || x->in_begin || x->begin_held || !GLF(x->st, glBegin))
        return 0; /* called as it is (GL raises what it raises) */
    x->begin_held = 1;
    x->begin_mode = (uint32_t)c->a[0].u;
    return 1;
}

void rp_mem_before_call(rp_exec_t *x)
{
    if (!x->begin_held)
        return;
    x->begin_held = 0;
    void *f = GLF(x->st, glBegin);
    if (f) {
        ((pfn_enum)f)((glenum_t)x->begin_mode);
        x->st->calls++;
        x->in_begin = 1;
    }
}

/* The window of (array, index), reserved on first use; NULL when the
 * address space cannot be had. */
static cwin_t *window(struct rp_cmem *cm, uint32_t array, uint32_t index)
{
    for (uint32_t i = 0; i < cm->nwin; i++)
        if (cm->win[i].array == array && cm->win[i].index == index)
            return &cm->win[i];
    cwin_t *w = realloc(cm->win, (size_t)(cm->nwin + 1) * sizeof *w);
    if (!w)
        return NULL;
    cm->win = w;
    void *b = mmap(NULL, WINDOW_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (b == MAP_FAILED)
        return NULL;
    w = &cm->win[cm->nwin++];
    memset(w, 0, sizeof *w);
    w->array = array, w->index = index, w->base = b;
    return w;
}

void rp_mem_client_pointer(rp_exec_t *x, uint32_t fn, uint32_t param)
{
    struct rp_cmem *cm = cmem(x);
    if (!cm || cm->warn_pending)
        return;
    cm->warn_pending = 1;
    cm->warn_fn = fn;
    cm->warn_param = param;
}

/* ---- wip15ClientArray(array, index, size, type, stride, flags, memory,
 *      offset, divisor); traces before 2026-11-24 have (..., flags,
 *      pointer, divisor) instead of memory and offset ------------------ */

int rp_mem_client_array_old(const w15_func_t *f)
{
    return f->nargs == 8 && f->args[6].base == W15_PTR && !f->args[6].is_array && f->args[7].base == W15_UINT;
}

/* The replay's address for the array: `offset` bytes from the copy of the
 * draw's wip15ClientMemory number `memory` (offset < 0: the first element
 * read is past the array's base, glDrawArrays with first > 0).  NULL: that
 * memory is not in the trace. */
static void *array_at(rp_exec_t *x, uint64_t memory, int64_t offset)
{
    if (memory >= x->ncmem || !x->cmem->r[memory].size)
        return NULL;
    const crange_t *r = &x->cmem->r[memory];
    return (void *)((uintptr_t)(x->cmem->buf + r->off) + (uintptr_t)offset);
}

static int nomem(rp_exec_t *x)
{
    rp_fatal(x->st, "out of memory");
    return -1;
}

/* Note an array the coming draw reads, pointed at p: its elements, and the
 * bytes [lo, hi) from p that the replay's memory holds (zeros: p is
 * rp_zeros).  0, or -1 out of memory. */
static int add_vert(struct rp_cmem *cm, const rp_call_t *c, uint32_t array, uint32_t index, int size,
                    uint32_t type, int stride, const uint8_t *p, int zeros, int64_t lo, int64_t hi)
{
    uint32_t es = w15_vertex_element_size(array == GL_NORMAL_ARRAY ? 3 : size, type);
    if (array == GL_EDGE_FLAG_ARRAY)
        es = 1;
    else if (array == GL_FOG_COORD_ARRAY || array == GL_INDEX_ARRAY || array == GL_POINT_SIZE_ARRAY_OES)
        es = w15_vertex_element_size(1, type);
    if (!es || stride < 0)
        return 0; /* GL refuses the pointer: the array is not re-pointed */
    cvert_t *v = NULL;
    for (uint32_t i = 0; i < cm->nva && !v; i++)
        if (cm->va[i].array == array && cm->va[i].index == index)
            v = &cm->va[i];
    if (!v) {
        if (cm->nva == cm->capva) {
            uint32_t n = cm->capva ? cm->capva * 2 : 16;
            cvert_t *nv = realloc(cm->va, n * sizeof *nv);
            if (!nv)
                return -1;
            cm->va = nv, cm->capva = n;
        }
        v = &cm->va[cm->nva++];
    }
    v->array = array, v->index = index, v->lo = lo, v->hi = hi, v->esize = es;
    v->blo = zeros ? lo : (int64_t)(cm->buf - p), v->bhi = zeros ? hi : (int64_t)(cm->buf + cm->cap - p);
    v->step = stride ? (uint64_t)stride : es;
    v->divisor = (uint32_t)arg_u(c, 8);
    v->gen = cm->gen;
    v->base = p;
    return 0;
}

int rp_mem_client_array(rp_exec_t *x, const rp_call_t *c)
{
    rp_state_t *st = x->st;
    if (!x->ctx)
        return 0;
    uint32_t array = (uint32_t)arg_u(c, 0), index = (uint32_t)arg_u(c, 1), type = (uint32_t)arg_u(c, 3),
             flags = (uint32_t)arg_u(c, 5);
    int size = (int)(int64_t)arg_u(c, 2), stride = (int)(int64_t)arg_u(c, 4);
    struct rp_cmem *cm = cmem(x);
    if (!cm)
        return 0;
    cm->arrays = 1;
    void *p = NULL;
    int zeros = 0, noted = 0;      /* noted: re-pointed for the draw check */
    int64_t lo = 0, hi = (int64_t)RP_ZEROS; /* the bytes around p it may read */
    if (rp_mem_client_array_old(c->wc->func)) {
        uint64_t rec = arg_u(c, 6);
        if (rec && !(p = array_base(x, rec))) {
            rp_warn(x, W15F_wip15ClientArray, "array 0x%x points at 0x%llx, outside every wip15ClientMemory "
                                              "before the draw; the draw reads zeros",
                    array, (unsigned long long)rec);
            zeros = 1;
        }
    } else if (x->begin_held || x->in_begin) {
        /* glArrayElement inside glBegin/glEnd: the element goes into the
         * array's window; GL is pointed at the window for the first one,
         * before the held glBegin, and not again until glEnd */
        uint64_t memory = arg_u(c, 6);
        int64_t off = (int64_t)arg_u(c, 7);
        cwin_t *w = window(cm, array, index);
        const char *why = NULL;
        if (!w)
            why = "no address space for its window";
        else if (memory >= x->ncmem || !cm->r[memory].size)
            why = "its element is not in the trace";
        else if (off > 0 || (uint64_t)-off > WINDOW_BYTES - cm->r[memory].size)
            why = "its element lies beyond the window (256 MiB)";
        else
            memcpy(w->base - off, cm->buf + cm->r[memory].off, cm->r[memory].size);
        if (x->in_begin && !why && (!w->active || w->size != size || w->type != (int)type ||
                                    w->stride != stride || w->flags != flags))
            why = "GL cannot re-point it between glBegin and glEnd";
        if (why && !cm->warned_win) {
            cm->warned_win = 1;
            rp_warn(x, W15F_wip15ClientArray, "glArrayElement inside glBegin/glEnd: array 0x%x: %s; the "
                    "element is read from what the array held before (further cases are not reported)",
                    array, why);
        }
        if (x->in_begin || why)
            return 0;
        w->active = 1, w->size = size, w->type = (int)type, w->stride = stride, w->flags = flags;
        p = w->base;
    } else {
        uint64_t memory = arg_u(c, 6);
        int64_t off = (int64_t)arg_u(c, 7);
        noted = 1;
        if ((p = array_at(x, memory, off))) {
            lo = -off, hi = (int64_t)cm->r[memory].size - off;
        } else {
            rp_warn(x, W15F_wip15ClientArray, "array 0x%x reads wip15ClientMemory %llu of the draw, which the "
                                              "trace does not hold (%u recorded, or unreadable when recorded); "
                                              "the draw reads zeros",
                    array, (unsigned long long)memory, x->ncmem);
            zeros = 1;
        }
    }
    if (zeros && !(p = rp_zeros(st)))
        return 0;
    if (noted && add_vert(cm, c, array, index, size, type, stride, p, zeros, lo, hi))
        return nomem(x);
    pfn_geti geti = (pfn_geti)GLF(st, glGetIntegerv);
    pfn_bind bind = (pfn_bind)GLF(st, glBindBuffer);
    if (!geti || !bind)
        return 0;
    int ab = 0;
    geti(GL_ARRAY_BUFFER_BINDING, &ab);
    if (ab)
        bind(GL_ARRAY_BUFFER, 0); /* a client pointer: no buffer while it is set */
    void *f;
    switch (array) {
    case GL_VERTEX_ATTRIB_ARRAY_POINTER:
        if (flags & 4) {
            if ((f = GLF(st, glVertexAttribLPointer)))
                ((pfn_attrib_i)f)(index, size, type, stride, p);
        } else if (flags & 2) {
            if ((f = GLF(st, glVertexAttribIPointer)))
                ((pfn_attrib_i)f)(index, size, type, stride, p);
        } else if ((f = GLF(st, glVertexAttribPointer))) {
            ((pfn_attrib)f)(index, size, type, (unsigned char)(flags & 1), stride, p);
        }
        break;
    case GL_VERTEX_ARRAY:
        if ((f = GLF(st, glVertexPointer)))
            ((pfn_size_type)f)(size, type, stride, p);
        break;
    case GL_COLOR_ARRAY:
        if ((f = GLF(st, glColorPointer)))
            ((pfn_size_type)f)(size, type, stride, p);
        break;
    case GL_SECONDARY_COLOR_ARRAY:
        if ((f = GLF(st, glSecondaryColorPointer)))
            ((pfn_size_type)f)(size, type, stride, p);
        break;
    case GL_NORMAL_ARRAY:
        if ((f = GLF(st, glNormalPointer)))
            ((pfn_type)f)(type, stride, p);
        break;
    case GL_FOG_COORD_ARRAY:
        if ((f = GLF(st, glFogCoordPointer)))
            ((pfn_type)f)(type, stride, p);
        break;
    case GL_INDEX_ARRAY:
        if ((f = GLF(st, glIndexPointer)))
            ((pfn_type)f)(type, stride, p);
        break;
    case GL_POINT_SIZE_ARRAY_OES:
        if ((f = GLF(st, glPointSizePointerOES)))
            ((pfn_type)f)(type, stride, p);
        break;
    case GL_EDGE_FLAG_ARRAY:
        if ((f = GLF(st, glEdgeFlagPointer)))
            ((pfn_stride)f)(stride, p);
        break;
    case GL_TEXTURE_COORD_ARRAY: {
        pfn_enum cat = (pfn_enum)GLF(st, glClientActiveTexture);
        int unit = 0;
        if (cat) {
            geti(GL_CLIENT_ACTIVE_TEXTURE, &unit);
            if ((uint32_t)unit != GL_TEXTURE0 + index)
                cat(GL_TEXTURE0 + index);
        }
        if ((f = GLF(st, glTexCoordPointer)))
            ((pfn_size_type)f)(size, type, stride, p);
        if (cat && (uint32_t)unit != GL_TEXTURE0 + index)
            cat((glenum_t)unit);
        break;
    }
    default:
        rp_warn(x, W15F_wip15ClientArray, "unknown client array 0x%x; not re-pointed", array);
        break;
    }
    if (ab)
        bind(GL_ARRAY_BUFFER, (unsigned)ab);
    return 0;
}

/* ---- a draw reads only what the replay holds -------------------------
 * The tracer recorded the bytes each client array, index array and
 * indirect command of a draw reads, computed from the program's state.
 * A damaged trace, or a replay whose state differs (a restart index
 * never set, a count edited), could make GL read past the replay's copies
 * of them; such a draw is not replayed.  Indices and commands in buffers
 * are GL's to check against the buffers; but the vertices they select
 * from client arrays are read from the replay's copies, so with such an
 * array they are read back (glGetBufferSubData, or a read-only
 * glMapBufferRange on GLES 3) and checked like client ones. */

#define MAX_DRAWS (1 << 24)
#define MAX_BUFFER_READ ((uint64_t)1 << 28)

typedef unsigned char (*pfn_is_enabled)(glenum_t);
typedef void (*pfn_attrib_iv)(unsigned, glenum_t, int *);
typedef void (*pfn_attrib_pv)(unsigned, glenum_t, void **);
typedef void (*pfn_getpv)(glenum_t, void **);

typedef struct scratch {
    void *p;
    uint64_t cap;
} scratch_t;

typedef struct dcheck {
    rp_exec_t *x;
    struct rp_cmem *cm;
    int restart_known, restart_on, restart_fixed;
    uint32_t restart_index;
    scratch_t ebo, cmds; /* read back from the element and draw-indirect buffers */
    char why[240];
} dcheck_t;

/* Bytes of the replay's client memory from p to the end of the copy that
 * holds it; -1 when no copy does (an offset into a buffer, NULL). */
static int64_t held_from(const dcheck_t *d, const void *p)
{
    const struct rp_cmem *cm = d->cm;
    for (uint32_t i = 0; i < d->x->ncmem; i++) {
        const uint8_t *b = cm->buf + cm->r[i].off;
        if ((const uint8_t *)p >= b && (const uint8_t *)p < b + cm->r[i].size)
            return (int64_t)(b + cm->r[i].size - (const uint8_t *)p);
    }
    return -1;
}

/* Whether GL still reads array v from v->base: enabled, and pointing there
 * (not re-pointed by the program since, nor disabled, nor another vertex
 * array object's).  Asked only of an array re-pointed for an earlier draw
 * whose block this draw would read past. */
static int still_read(rp_exec_t *x, const cvert_t *v)
{
    static const uint32_t ptr_q[][2] = {
        {GL_VERTEX_ARRAY, 0x808E}, {GL_NORMAL_ARRAY, 0x808F}, {GL_COLOR_ARRAY, 0x8090},
        {GL_INDEX_ARRAY, 0x8091}, {GL_TEXTURE_COORD_ARRAY, 0x8092}, {GL_EDGE_FLAG_ARRAY, 0x8093},
        {GL_FOG_COORD_ARRAY, 0x8456}, {GL_SECONDARY_COLOR_ARRAY, 0x845D}, {GL_POINT_SIZE_ARRAY_OES, 0x898C},
    };
    rp_state_t *st = x->st;
    void *ptr = NULL;
    int on = 0;
    rp_check_keep_error(x); /* the queries' errors (a cap the API lacks) are dropped */
    if (v->array == GL_VERTEX_ATTRIB_ARRAY_POINTER) {
        pfn_attrib_iv aiv = (pfn_attrib_iv)GLF(st, glGetVertexAttribiv);
        pfn_attrib_pv apv = (pfn_attrib_pv)GLF(st, glGetVertexAttribPointerv);
        if (aiv && apv) {
            aiv(v->index, GL_VERTEX_ATTRIB_ARRAY_ENABLED, &on);
            apv(v->index, GL_VERTEX_ATTRIB_ARRAY_POINTER, &ptr);
        }
    } else {
        pfn_is_enabled isen = (pfn_is_enabled)GLF(st, glIsEnabled);
        pfn_getpv gpv = (pfn_getpv)GLF(st, glGetPointerv);
        pfn_enum cat = (pfn_enum)GLF(st, glClientActiveTexture);
        int unit = 0, tex = v->array == GL_TEXTURE_COORD_ARRAY && cat;
        if (tex) {
            unit = (int)rp_gl_get_integer(x, GL_CLIENT_ACTIVE_TEXTURE);
            cat(GL_TEXTURE0 + v->index);
        }
        for (size_t k = 0; k < sizeof ptr_q / sizeof ptr_q[0] && isen && gpv; k++)
            if (ptr_q[k][0] == v->array) {
                on = isen(v->array);
                gpv(ptr_q[k][1], &ptr);
            }
        if (tex)
            cat((glenum_t)unit);
    }
    rp_check_drop_errors(x);
    return on && ptr == v->base;
}

/* Vertices [vlo, vhi] of icount instances from binst: 0 when every array
 * holds its elements, else 1 with d->why. */
static int vertices(dcheck_t *d, int64_t vlo, int64_t vhi, int64_t icount, int64_t binst)
{
    if (icount <= 0 || vhi < vlo || vhi < 0)
        return 0;
    struct rp_cmem *cm = d->cm;
    for (uint32_t i = 0; i < cm->nva; i++) {
        const cvert_t *v = &cm->va[i];
        int now = v->gen == cm->gen; /* re-pointed for this draw */
        int64_t lo = vlo < 0 ? 0 : vlo, hi = vhi;
        if (v->divisor) {
            lo = binst;
            hi = binst + (icount - 1) / (int64_t)v->divisor;
        }
        __int128 a = (__int128)lo * v->step, b = (__int128)hi * v->step + v->esize;
        if (a >= (now ? v->lo : v->blo) && b <= (now ? v->hi : v->bhi))
            continue;
        if (!now && !still_read(d->x, v)) {
            cm->va[i--] = cm->va[--cm->nva]; /* GL no longer reads it from there */
            continue;
        }
        snprintf(d->why, sizeof d->why,
                 "it reads elements %lld to %lld of client array 0x%x (%u), bytes %lld to %lld from its base, "
                 "and the trace holds bytes %lld to %lld%s",
                 (long long)lo, (long long)hi, v->array, v->index, (long long)a, (long long)(b - 1),
                 (long long)v->lo, (long long)(v->hi - 1),
                 now ? "" : " (for an earlier draw: no wip15ClientArray for it before this one)");
        return 1;
    }
    return 0;
}

/* The replay's primitive restart state (asked only when an index lies
 * outside the arrays, so the common draw asks GL nothing). */
static void learn_restart(dcheck_t *d)
{
    if (!d->restart_known) {
        rp_exec_t *x = d->x;
        pfn_is_enabled on = (pfn_is_enabled)GLF(x->st, glIsEnabled);
        d->restart_known = 1;
        if (on) {
            /* each cap exists in some APIs and versions only: the errors
             * of the others are dropped, and the program's kept */
            rp_check_keep_error(x);
            if (on(GL_PRIMITIVE_RESTART_FIXED_INDEX))
                d->restart_on = d->restart_fixed = 1;
            else if (on(GL_PRIMITIVE_RESTART))
                d->restart_on = 1, d->restart_index = (uint32_t)rp_gl_get_integer(x, GL_PRIMITIVE_RESTART_INDEX);
            else if (on(0x8558)) /* GL_PRIMITIVE_RESTART_NV */
                d->restart_on = 1, d->restart_index = (uint32_t)rp_gl_get_integer(x, 0x8559);
            rp_check_drop_errors(x);
        }
    }
}

/* Whether a client array re-pointed by the replay is still read: those of
 * this draw are; one re-pointed for an earlier draw only if GL still reads
 * it from there (else it is forgotten). */
static int arrays_read(dcheck_t *d)
{
    struct rp_cmem *cm = d->cm;
    for (uint32_t i = 0; i < cm->nva; i++)
        if (cm->va[i].gen != cm->gen && !still_read(d->x, &cm->va[i]))
            cm->va[i--] = cm->va[--cm->nva];
    return cm->nva > 0;
}

/* The n bytes at offset off of the buffer bound to target (its binding:
 * pname), read back into *buf, when a client array of the replay's reads
 * the vertices they select; NULL when none does, or they cannot be read
 * (no buffer bound: GL reads nothing there; outside its storage, or
 * mapped: GL's to refuse). */
static const void *bound_bytes(dcheck_t *d, uint32_t target, uint32_t pname, uint64_t off, uint64_t n,
                               scratch_t *buf)
{
    rp_exec_t *x = d->x;
    rp_state_t *st = x->st;
    if (!arrays_read(d) || n > MAX_BUFFER_READ)
        return NULL;
    pfn_getbp getbp = (pfn_getbp)GLF(st, glGetBufferParameteriv);
    if (!getbp)
        return NULL;
    rp_check_keep_error(x); /* a GL without buffers: the query's error is dropped */
    int64_t bound = rp_gl_get_integer(x, pname);
    rp_check_drop_errors(x);
    if (!bound)
        return NULL;
    rp_ctx_version(x, x->ctx);
    int es = x->ctx->gl_es;
    pfn_getsubdata get = es ? NULL : (pfn_getsubdata)GLF(st, glGetBufferSubData);
    pfn_maprange map = es && x->ctx->gl_major >= 3 ? (pfn_maprange)GLF(st, glMapBufferRange) : NULL;
    pfn_unmap unmap = (pfn_unmap)GLF(st, glUnmapBuffer);
    int size = 0, mapped = 0;
    getbp(target, GL_BUFFER_SIZE, &size);
    if (size <= 0 || off >= (uint64_t)size || n > (uint64_t)size - off || (!get && !(map && unmap)))
        return NULL;
    if (map) {
        getbp(target, GL_BUFFER_MAPPED, &mapped);
        if (mapped)
            return NULL;
    }
    if (n > buf->cap) {
        void *b = realloc(buf->p, n);
        if (!b)
            return NULL;
        buf->p = b;
        buf->cap = n;
    }
    if (get) {
        get(target, (intptr_t)off, (intptr_t)n, buf->p);
        return buf->p;
    }
    const void *m = map(target, (intptr_t)off, (intptr_t)n, GL_MAP_READ_BIT);
    if (!m)
        return NULL;
    memcpy(buf->p, m, n);
    unmap(target);
    return buf->p;
}

/* count indices of type at p (held: bytes the replay holds there, -1 when
 * p is an offset into the element buffer), base vertex bv: 0 fine, 1 with d->why.  With
 * range (not NULL): the smallest and largest index the draw reads, set
 * when known (range[0] <= range[1]). */
static int elements(dcheck_t *d, uint32_t type, const void *p, int64_t held, int64_t count, int64_t bv,
                    int64_t icount, int64_t binst, uint32_t *range)
{
    uint32_t ts = w15_index_size(type);
    if (!ts || count <= 0 || icount <= 0)
        return 0; /* GL refuses or draws nothing */
    if (held < 0) { /* an offset into the element buffer (or nothing GL reads) */
        p = bound_bytes(d, GL_ELEMENT_ARRAY_BUFFER, GL_ELEMENT_ARRAY_BUFFER_BINDING, (uintptr_t)p,
                        (uint64_t)count * ts, &d->ebo);
        if (!p)
            return 0;
    } else if ((uint64_t)held / ts < (uint64_t)count) {
        snprintf(d->why, sizeof d->why, "it reads %lld indices of %u bytes, and the trace holds %lld bytes there",
                 (long long)count, ts, (long long)held);
        return 1;
    }
    if (!d->cm->nva && !range)
        return 0;
    uint32_t lo, hi;
    if (!w15_index_minmax(p, ts, count, 0, 0, &lo, &hi))
        return 0;
    if (vertices(d, (int64_t)lo + bv, (int64_t)hi + bv, icount, binst)) {
        learn_restart(d);
        if (!d->restart_on)
            return 1;
        uint32_t skip = d->restart_fixed ? w15_fixed_restart_index(ts) : d->restart_index;
        if (!w15_index_minmax(p, ts, count, 1, skip, &lo, &hi))
            return 0;
        if (vertices(d, (int64_t)lo + bv, (int64_t)hi + bv, icount, binst))
            return 1;
    }
    if (range)
        range[0] = lo, range[1] = hi;
    return 0;
}

/* Indirect commands at p: 0 fine, 1 with d->why. */
static int indirect(dcheck_t *d, const w15_draw_desc_t *ds, const rp_call_t *c)
{
    int el = ds->shape == W15_DRAW_INDIRECT_ELEMENTS;
    const void *p = c->a[ds->indirect].vp;
    int64_t held = held_from(d, p);
    /* indexed commands read their indices from the element buffer, and
     * Mesa does not check them against it (an element buffer without
     * storage: SIGSEGV) */
    uint32_t ts = el ? w15_index_size((uint32_t)c->a[ds->type].u) : 0;
    pfn_getbp getbp = (pfn_getbp)GLF(d->x->st, glGetBufferParameteriv);
    int ebo = ts && getbp && rp_gl_get_integer(d->x, GL_ELEMENT_ARRAY_BUFFER_BINDING), size = 0;
    if (ebo) {
        getbp(GL_ELEMENT_ARRAY_BUFFER, GL_BUFFER_SIZE, &size);
        if (size <= 0) {
            snprintf(d->why, sizeof d->why, "its element buffer has no storage");
            return 1;
        }
    }
    if (ds->maxcount >= 0)
        return 0; /* the count is in a buffer (GL's to check) */
    int64_t dc = ds->drawcount >= 0 ? c->a[ds->drawcount].i : 1;
    int64_t csize = el ? 20 : 16, stride = ds->stride >= 0 ? c->a[ds->stride].i : 0;
    if (dc <= 0 || dc > MAX_DRAWS || stride < 0)
        return 0;
    if (!stride)
        stride = csize;
    if (held < 0) { /* in the draw-indirect buffer: read back when client arrays read their vertices */
        held = (dc - 1) * stride + csize;
        p = bound_bytes(d, GL_DRAW_INDIRECT_BUFFER, GL_DRAW_INDIRECT_BUFFER_BINDING, (uintptr_t)p,
                        (uint64_t)held, &d->cmds);
        if (!p)
            return 0;
    }
    if ((dc - 1) * stride + csize > held) {
        snprintf(d->why, sizeof d->why, "it reads %lld commands of %lld bytes every %lld, and the trace holds "
                 "%lld bytes there", (long long)dc, (long long)csize, (long long)stride, (long long)held);
        return 1;
    }
    rp_ctx_version(d->x, d->x->ctx);
    int es = d->x->ctx->gl_es; /* GLES has no base instance: GL ignores that field */
    for (int64_t k = 0; !el && k < dc; k++) {
        uint32_t cmd[4];
        memcpy(cmd, (const uint8_t *)p + k * stride, sizeof cmd);
        if (cmd[0] && vertices(d, cmd[2], (int64_t)cmd[2] + cmd[0] - 1, cmd[1],
                               es ? 0 : cmd[3]))
            return 1;
    }
    for (int64_t k = 0; ebo && k < dc; k++) {
        uint32_t cmd[5];
        memcpy(cmd, (const uint8_t *)p + k * stride, sizeof cmd);
        if (cmd[0] && cmd[1] && ((uint64_t)cmd[2] + cmd[0]) * ts > (uint64_t)size) {
            snprintf(d->why, sizeof d->why, "command %lld reads indices %u to %llu of %u bytes, and the element "
                     "buffer holds %d bytes", (long long)k, cmd[2], (unsigned long long)cmd[2] + cmd[0] - 1, ts,
                     size);
            return 1;
        }
        /* the vertices its indices select, from client arrays */
        if (d->cm->nva && elements(d, (uint32_t)c->a[ds->type].u, (const void *)(uintptr_t)((uint64_t)cmd[2] * ts),
                                   -1, cmd[0], (int32_t)cmd[3], cmd[1], es ? 0 : cmd[4], NULL))
            return 1;
    }
    return 0;
}

int rp_mem_check_draw(rp_exec_t *x, rp_call_t *c)
{
    if (!x->ctx)
        return 0; /* no current context: GL draws nothing */
    w15_draw_desc_t ds = w15_draw_describe(c->fn);
    struct rp_cmem *cm = x->cmem;
    if (ds.shape != W15_DRAW_MULTI_ELEMENTS && ds.shape != W15_DRAW_INDIRECT_ELEMENTS &&
        (!cm || (!x->ncmem && !cm->nva)))
        return 0; /* nothing of the replay's own memory is read */
    if (!cm && !(cm = cmem(x)))
        return 0;
    dcheck_t d = { .x = x, .cm = cm };
    int bad = 0;
    switch (ds.shape) {
    case W15_DRAW_ARRAYS:
        if (c->a[ds.first].i >= 0 && c->a[ds.count].i > 0)
            bad = vertices(&d, c->a[ds.first].i, c->a[ds.first].i + c->a[ds.count].i - 1,
                           ds.inst >= 0 ? c->a[ds.inst].i : 1, ds.bi >= 0 ? (int64_t)c->a[ds.bi].u : 0);
        break;
    case W15_DRAW_ELEMENTS: {
        const void *p = c->a[ds.indices].vp;
        int64_t held = held_from(&d, p);
        const w15_value_t *v = &c->wc->args[ds.indices];
        if (held < 0 && v->type.base == W15_DATA && v->count && v->v.data[0].size)
            held = v->v.data[0].size; /* the indices in the call (empty: an offset, or not recorded) */
        uint32_t range[2] = {1, 0};
        bad = elements(&d, (uint32_t)c->a[ds.type].u, p, held, c->a[ds.count].i, ds.bv >= 0 ? c->a[ds.bv].i : 0,
                       ds.inst >= 0 ? c->a[ds.inst].i : 1, ds.bi >= 0 ? (int64_t)c->a[ds.bi].u : 0,
                       ds.start >= 0 ? range : NULL);
        /* glDrawRangeElements: Mesa reads every vertex of the hint [start,
         * end], which the trace need not hold (the tracer records what the
         * indices read); the replay gives GL the indices' own range, a
         * hint as valid, and keeps a hint GL refuses (start > end) */
        if (!bad && range[0] <= range[1] && (uint32_t)c->a[ds.start].u <= (uint32_t)c->a[ds.end].u)
            c->a[ds.start].u = range[0], c->a[ds.end].u = range[1];
        break;
    }
    case W15_DRAW_MULTI_ARRAYS:
    case W15_DRAW_MULTI_ELEMENTS: {
        int64_t dc = c->a[ds.drawcount].i;
        const int32_t *count = c->a[ds.count].vp;
        if (dc <= 0 || dc > MAX_DRAWS || !count)
            break;
        for (int64_t k = 0; k < dc && !bad; k++) {
            if (count[k] <= 0)
                continue;
            if (ds.shape == W15_DRAW_MULTI_ARRAYS) {
                const int32_t *first = c->a[ds.first].vp;
                if (first && first[k] >= 0)
                    bad = vertices(&d, first[k], (int64_t)first[k] + count[k] - 1, 1, 0);
            } else {
                const void *const *ind = c->a[ds.indices].vp;
                const int32_t *bv = ds.bv >= 0 ? c->a[ds.bv].vp : NULL;
                if (ind && ind[k] && ind[k] == rp_zeros(x->st)) {
                    snprintf(d.why, sizeof d.why, "parameter %s: element %lld points at client memory the "
                             "trace does not hold", w15_str(w15_params[w15_funcs[c->fn].first_param +
                                                                       (uint32_t)ds.indices].name), (long long)k);
                    bad = 1;
                } else if (ind && ind[k]) {
                    bad = elements(&d, (uint32_t)c->a[ds.type].u, ind[k], held_from(&d, ind[k]), count[k],
                                   bv ? bv[k] : 0, 1, 0, NULL);
                }
            }
        }
        break;
    }
    case W15_DRAW_INDIRECT_ARRAYS:
    case W15_DRAW_INDIRECT_ELEMENTS:
        bad = indirect(&d, &ds, c);
        break;
    default:
        break;
    }
    free(d.ebo.p);
    free(d.cmds.p);
    if (!bad)
        return 0;
    return rp_cannot(x, c->fn, "%s, so GL would read past the replay's memory (a damaged trace, or a replay "
                     "whose state differs from the program's)", d.why);
}

/* ---- wip15BufferWrite(buffer, offset, bytes) ------------------------- */

int rp_mem_buffer_write(rp_exec_t *x, const rp_call_t *c)
{
    rp_state_t *st = x->st;
    rp_ctx_t *ctx = x->ctx;
    const w15_value_t *bv = &c->wc->args[2];
    if (!bv->count || bv->type.base != W15_DATA)
        return 0;
    if (!ctx) {
        rp_warn(x, W15F_wip15BufferWrite, "a buffer write with no context current; not replayed");
        return 0;
    }
    const w15_blob_t *b;
    const uint8_t *d;
    int has = arg_blob(x, c, 2, &b, &d);
    if (has <= 0)
        return has;
    uint64_t buffer = rp_names_get(rp_ns(x, W15_GROUP_GL_BUFFERS), arg_u(c, 0));
    uint64_t off = arg_u(c, 1), size = b->size;
    rp_ctx_version(x, ctx);
    int v = ctx->gl_major * 10 + ctx->gl_minor;
    void *map = NULL;
    int64_t moff = 0, mlen = 0;
    if (!ctx->gl_es && v >= 45) {
        pfn_nptr gp = (pfn_nptr)GLF(st, glGetNamedBufferPointerv);
        pfn_nbp64 gq = (pfn_nbp64)GLF(st, glGetNamedBufferParameteri64v);
        pfn_nsubdata sub = (pfn_nsubdata)GLF(st, glNamedBufferSubData);
        if (!gp || !gq || !sub)
            goto cannot;
        gp((unsigned)buffer, GL_BUFFER_MAP_POINTER, &map);
        if (map) {
            gq((unsigned)buffer, GL_BUFFER_MAP_OFFSET, &moff);
            gq((unsigned)buffer, GL_BUFFER_MAP_LENGTH, &mlen);
        }
        if (map && (int64_t)off >= moff && (int64_t)(off + size) <= moff + mlen)
            memcpy((uint8_t *)map + (off - (uint64_t)moff), d, size);
        else
            sub((unsigned)buffer, (intptr_t)off, (intptr_t)size, d);
        return 0;
    }
    /* bind it at a target of our own choice for the queries, and back */
    int es2 = ctx->gl_es && ctx->gl_major < 3;
    int copyw = ctx->gl_es ? ctx->gl_major >= 3 : v >= 31;
    uint32_t target = copyw ? GL_COPY_WRITE_BUFFER : GL_ARRAY_BUFFER;
    uint32_t binding = copyw ? GL_COPY_WRITE_BUFFER_BINDING : GL_ARRAY_BUFFER_BINDING;
    pfn_geti geti = (pfn_geti)GLF(st, glGetIntegerv);
    pfn_bind bind = (pfn_bind)GLF(st, glBindBuffer);
    pfn_getptr gp = es2 ? (pfn_getptr)GLF(st, glGetBufferPointervOES) : (pfn_getptr)GLF(st, glGetBufferPointerv);
    pfn_getbp gq = (pfn_getbp)GLF(st, glGetBufferParameteriv);
    pfn_subdata sub = (pfn_subdata)GLF(st, glBufferSubData);
    if (!geti || !bind || !gq || !sub)
        goto cannot;
    int old = 0;
    geti(binding, &old);
    if ((uint64_t)old != buffer)
        bind(target, (unsigned)buffer);
    if (gp)
        gp(target, GL_BUFFER_MAP_POINTER, &map);
    if (map) {
        int has_range = ctx->gl_es ? ctx->gl_major >= 3 : v >= 30;
        int o = 0, l = 0;
        if (has_range) {
            gq(target, GL_BUFFER_MAP_OFFSET, &o);
            gq(target, GL_BUFFER_MAP_LENGTH, &l);
        } else {
            gq(target, GL_BUFFER_SIZE, &l); /* glMapBuffer(OES): the whole buffer */
        }
        moff = o, mlen = l;
    }
    if (map && (int64_t)off >= moff && (int64_t)(off + size) <= moff + mlen)
        memcpy((uint8_t *)map + (off - (uint64_t)moff), d, size);
    else
        sub(target, (intptr_t)off, (intptr_t)size, d);
    if ((uint64_t)old != buffer)
        bind(target, (unsigned)old);
    return 0;
cannot:
    rp_warn(x, W15F_wip15BufferWrite, "the replaying GL lacks the buffer functions to replay mapped writes");
    return 0;
}
