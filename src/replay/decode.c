/* decode.c -- recorded values -> the C arguments of the real call, and
 * what the call's roles do afterwards.
 *
 * Owns: rp_decode (one generic, table-driven decoder: each parameter by its
 * capture rule, base type and C type from apitable.h, object names through
 * rp_ns), rp_roles_after (names created and deleted, program locations,
 * program in use, from the replay roles of the generated table).
 * May use: rp.h, the reader's current operation (values are used in place
 * where their C layout allows: float, double and 64-bit arrays, raw blobs).
 * Must never: allocate per call (the executor's arena only), call GL other
 * than to ask state: buffer bindings and pixel-store state
 * (rp_gl_get_integer), and the extent of outputs GL sizes from its state
 * (level_bytes, getter_elems: their errors dropped, an error GL held kept
 * for the program's next glGetError by check.c).
 */
#include <string.h>

#include "compsize_ids.h"
#include "funcs.h"
#include "rp.h"

/* The generated COMPSIZE helper instances (gen/compsize_ids.h): kind and
 * parameter positions, args[1..] ('image': format, type, width, height,
 * depth; -1 when absent). */
typedef struct cs_inst {
    const char *kind;
    int pack;
    int args[8];
} cs_inst_t;
#define RP_CS_X(name, kind, pack, ...) {#kind, pack, {0, __VA_ARGS__}},
static const cs_inst_t cs_table[] = {W15_CS_INSTANCES(RP_CS_X)};
#undef RP_CS_X
#define NCS (sizeof cs_table / sizeof cs_table[0])
/* An input sized by a helper this file does not compute (a texel of clear
 * data, evaluator control points, ...): the recorded bytes, padded with
 * zeros to at least this many, so a damaged trace cannot make the driver
 * read far past them. */
#define HELPER_MIN_IN 256u

/* Bytes of one element of each w15_ctype. */
static const uint8_t csize[] = {
    [W15_C_VOID] = 1, [W15_C_I8] = 1, [W15_C_U8] = 1, [W15_C_I16] = 2, [W15_C_U16] = 2,
    [W15_C_I32] = 4, [W15_C_U32] = 4, [W15_C_I64] = 8, [W15_C_U64] = 8, [W15_C_F32] = 4,
    [W15_C_F64] = 8, [W15_C_PTR] = 8, [W15_C_FUNCPTR] = 8, [W15_C_LONG] = 8,
};

#define MAX_ELEMS (64u << 20)        /* outputs and padded inputs */
#define MIN_OUT 256u                 /* bytes of any output buffer */
#define UNKNOWN_OUT (64u << 10)      /* an output of unknown size (not pixels) */
#define GL_PIXEL_PACK_BUFFER_BINDING 0x88ED
#define GL_PIXEL_UNPACK_BUFFER_BINDING 0x88EF
#define GL_ELEMENT_ARRAY_BUFFER 0x8893

int rp_signature_ok(const w15_func_t *f, uint32_t fn)
{
    if (fn >= w15_nfuncs + w15_npseudo)
        return 0;
    const w15_func_sig_t *s = &w15_funcs[fn];
    const w15_param_sig_t *ps = &w15_params[s->first_param];
    if (f->nargs != s->nparams || s->nparams > RP_MAX_ARGS)
        return 0;
    for (uint32_t i = 0; i <= s->nparams; i++) {
        w15_type_t t = i < s->nparams ? f->args[i] : f->result;
        if (t.base != ps[i].base || t.is_array != ps[i].is_array ||
            t.has_group != (ps[i].group != W15_NO_GROUP))
            return 0;
    }
    return 1;
}

static inline unsigned obj_type(const w15_param_sig_t *s)
{
    if (s->group == W15_NO_GROUP || s->group >= w15_ngroups)
        return 0;
    unsigned t = w15_groups[s->group].type;
    return t >= W15_GROUP_GL_BUFFERS ? t : 0;
}

/* A scalar value as a count (negative -> 0). */
static uint64_t as_count(const w15_param_sig_t *s, rp_val_t v)
{
    switch (s->ctype) {
    case W15_C_I8: case W15_C_I16: case W15_C_I32: case W15_C_I64: case W15_C_LONG:
        return v.i < 0 ? 0 : (uint64_t)v.i;
    case W15_C_F32:
        return v.f > 0 ? (uint64_t)v.f : 0;
    case W15_C_F64:
        return v.d > 0 ? (uint64_t)v.d : 0;
    default:
        return v.u;
    }
}

/* Elements (bytes for DATA/STR) the rule says a pointer covers, from the
 * arguments decoded so far; UINT64_MAX when the rule cannot tell. */
static uint64_t rule_len(const w15_param_sig_t *s, const w15_param_sig_t *ps, uint32_t np,
                         const rp_val_t *a, uint32_t ndone)
{
    switch (s->len_op) {
    case W15_LEN_CONST:
        return s->len_b;
    case W15_LEN_PARAM:
        return s->len_a < ndone ? as_count(&ps[s->len_a], a[s->len_a]) : UINT64_MAX;
    case W15_LEN_PARAM_MUL:
        return s->len_a < ndone ? as_count(&ps[s->len_a], a[s->len_a]) * s->len_b : UINT64_MAX;
    case W15_LEN_PARAM_MUL_PARAM:
        if (s->len_a >= ndone || s->len_b >= ndone || s->len_b >= np)
            return UINT64_MAX;
        return as_count(&ps[s->len_a], a[s->len_a]) * as_count(&ps[s->len_b], a[s->len_b]);
    default:
        return UINT64_MAX;
    }
}

/* Bytes per pixel of format/type (an upper bound when unknown). */
static uint64_t pixel_bytes(uint32_t format, uint32_t type)
{
    switch (type) {
    case 0x8032: case 0x8362: return 1;                          /* 3_3_2 */
    case 0x8033: case 0x8034: case 0x8363: case 0x8364: case 0x8365: case 0x8366: return 2;
    case 0x8035: case 0x8367: case 0x8036: case 0x8368: case 0x84FA: case 0x8C3B: case 0x8C3E:
        return 4;                                                /* 32-bit packed */
    case 0x8DAD: return 8;                                       /* FLOAT_32_UNSIGNED_INT_24_8_REV */
    default: break;
    }
    uint64_t size;
    switch (type) {
    case 0x1400: case 0x1401: case 0x1A00: size = 1; break;     /* BYTE, UNSIGNED_BYTE, BITMAP */
    case 0x1402: case 0x1403: case 0x140B: case 0x8D61: size = 2; break;
    case 0x1404: case 0x1405: case 0x1406: case 0x140C: size = 4; break;
    case 0x140A: size = 8; break;                               /* DOUBLE */
    default: return 16;
    }
    uint64_t n;
    switch (format) {
    case 0x1903: case 0x1904: case 0x1905: case 0x1906: case 0x1909: case 0x1902: case 0x1901:
    case 0x1900: case 0x8D94: case 0x8D95: case 0x8D96: case 0x8D97: case 0x1910:
        n = 1; break;                                           /* one component */
    case 0x8227: case 0x190A: case 0x8228: case 0x84F9: n = 2; break;
    case 0x1907: case 0x80E0: case 0x8D98: case 0x8D9A: n = 3; break;
    case 0x1908: case 0x80E1: case 0x8D99: case 0x8D9B: n = 4; break;
    default: n = 4; break;
    }
    return n * size;
}

/* Whether the current context is at least desktop GL `gl` or GLES `es`
 * (major * 10 + minor), so that a binding those versions bring can be
 * asked without a GL error of the replay's own (GL_INVALID_ENUM, which the
 * program's next glGetError would then read); unknown version: 1. */
static int ctx_at_least(rp_exec_t *x, int gl, int es)
{
    rp_ctx_t *c = x->ctx;
    rp_ctx_version(x, c);
    if (!c->gl_major)
        return 1;
    return c->gl_major * 10 + c->gl_minor >= (c->gl_es ? es : gl);
}

/* Whether the current context has pixel buffer objects (desktop GL 2.1,
 * GLES 3.0). */
static int pixel_buffers(rp_exec_t *x)
{
    return x->ctx && ctx_at_least(x, 21, 30);
}

/* The pixel-store state of the replaying context (glGetIntegerv; pack:
 * GL_PACK_*, else GL_UNPACK_*), each value as 0 where the context lacks
 * it and negative skips as 0; an alignment outside 1..8 as 8. */
typedef struct store {
    int64_t align, rowlen, skipr, skipp, imgh, skipi;
} store_t;

static void read_store(rp_exec_t *x, int pack, store_t *st)
{
    rp_ctx_t *c = x->ctx;
    int es2 = !c || (c->es && c->major < 3);
    *st = (store_t){rp_gl_get_integer(x, pack ? 0x0D05 : 0x0CF5), 0, 0, 0, 0, 0};
    if (!es2) {
        st->rowlen = rp_gl_get_integer(x, pack ? 0x0D02 : 0x0CF2);
        st->skipr = rp_gl_get_integer(x, pack ? 0x0D03 : 0x0CF3);
        st->skipp = rp_gl_get_integer(x, pack ? 0x0D04 : 0x0CF4);
        if (!c->es || !pack) {
            st->imgh = rp_gl_get_integer(x, pack ? 0x806C : 0x806E);
            st->skipi = rp_gl_get_integer(x, pack ? 0x806B : 0x806D);
        }
    }
    if (st->align <= 0 || st->align > 8)
        st->align = 8;
    if (st->skipr < 0)
        st->skipr = 0;
    if (st->skipp < 0)
        st->skipp = 0;
    if (st->skipi < 0)
        st->skipi = 0;
}

/* Whether a w x ht x d image is one this file sizes: 1; 0 when empty (GL
 * moves nothing); -1 when too large to tell. */
static int image_dims_ok(int64_t w, int64_t ht, int64_t d)
{
    if (w <= 0 || ht <= 0 || d <= 0)
        return 0;
    return w > (1 << 20) || ht > (1 << 20) || d > (1 << 20) ? -1 : 1;
}

/* The bytes a pixel transfer of a w x ht x d image of format/type reads or
 * writes under the replaying context's pixel-store state (read_store);
 * 0 for an empty image, UINT64_MAX when it cannot tell.  Image height and
 * skipped images count whenever the context has them: for a 2D image that
 * is an upper bound. */
static uint64_t store_bytes(rp_exec_t *x, int pack, uint32_t format, uint32_t type, int64_t w, int64_t ht,
                            int64_t d)
{
    int ok = image_dims_ok(w, ht, d);
    if (ok <= 0)
        return ok ? UINT64_MAX : 0;
    uint64_t bpp = pixel_bytes(format, type);
    store_t st;
    read_store(x, pack, &st);
    uint64_t rl = (uint64_t)(st.rowlen > w ? st.rowlen : w), align = (uint64_t)st.align;
    uint64_t row = (rl * bpp + align - 1) / align * align;
    uint64_t img = row * (uint64_t)(st.imgh > ht ? st.imgh : ht);
    return (uint64_t)st.skipi * img + (uint64_t)st.skipr * row + (uint64_t)st.skipp * bpp +
           (uint64_t)(d - 1) * img + (uint64_t)(ht - 1) * row + (uint64_t)w * bpp;
}

/* The bytes a pixel transfer of an image helper reads or writes, from its
 * arguments and the pixel-store state; UINT64_MAX when it cannot tell. */
static uint64_t image_bytes(rp_exec_t *x, const cs_inst_t *h, const rp_val_t *a, uint32_t ndone)
{
    for (int k = 1; k <= 5; k++)
        if (h->args[k] >= (int)ndone)
            return UINT64_MAX;
    int64_t w = h->args[3] >= 0 ? a[h->args[3]].i : 1, ht = h->args[4] >= 0 ? a[h->args[4]].i : 1,
            d = h->args[5] >= 0 ? a[h->args[5]].i : 1;
    return store_bytes(x, h->pack, (uint32_t)a[h->args[1]].u, (uint32_t)a[h->args[2]].u, w, ht, d);
}

/* ---- outputs whose extent is GL state (glGetTexImage, ...) ----
 * The recorded digest says how much the program's GL wrote.  A replay
 * whose state differs (a damaged or edited trace, a driver that rounds a
 * level differently) would let GL write more than that, so these outputs
 * are also made as large as the replay's own state says.  The queries run
 * after rp_check_keep_error (an error GL held is the program's: its next
 * glGetError gets it) and before rp_check_drop_errors (theirs are dropped). */

typedef void (*tex_level_fn)(uint32_t, int32_t, uint32_t, int32_t *);
typedef void (*obj_level_fn)(uint32_t, uint32_t, int32_t, uint32_t, int32_t *);

/* A level parameter of (obj, target, level): obj 0 with glGetTexLevelParameteriv,
 * else the texture or texture unit of GL_EXT_direct_state_access. */
static int32_t level_param(rp_exec_t *x, int ext, int multi, uint32_t obj, uint32_t target, int32_t level,
                           uint32_t pname)
{
    int32_t v = 0;
    if (!ext) {
        tex_level_fn f = (tex_level_fn)rp_addr(x->st, W15F_glGetTexLevelParameteriv);
        if (f)
            f(target, level, pname, &v);
    } else {
        obj_level_fn f = (obj_level_fn)rp_addr(x->st, multi ? W15F_glGetMultiTexLevelParameterivEXT
                                                            : W15F_glGetTextureLevelParameterivEXT);
        if (f)
            f(obj, target, level, pname, &v);
    }
    return v;
}

/* The most bytes a read-back of a whole texture level writes under the
 * replay's state (helper kinds teximage*, compressed*); 0 for a level
 * without an image, UINT64_MAX when not such an output. */
static uint64_t level_bytes(rp_exec_t *x, const cs_inst_t *h, const rp_val_t *a, uint32_t ndone)
{
    enum { WIDTH = 0x1000, HEIGHT = 0x1001, DEPTH = 0x8071, COMPRESSED_IMAGE_SIZE = 0x86A0 };
    int ext = strncmp(h->kind, "teximage_", 9) == 0 || strncmp(h->kind, "compressed_", 11) == 0;
    int multi = ext && strstr(h->kind, "_multi") != NULL;
    int comp = strncmp(h->kind, "compressed", 10) == 0;
    if (!comp && strncmp(h->kind, "teximage", 8) != 0)
        return UINT64_MAX;
    int nargs = (ext ? 3 : 2) + (comp ? 0 : 2);
    for (int k = 1; k <= nargs; k++)
        if (h->args[k] < 0 || h->args[k] >= (int)ndone)
            return UINT64_MAX;
    const rp_val_t *p = &a[h->args[ext ? 2 : 1]];
    uint32_t obj = ext ? (uint32_t)a[h->args[1]].u : 0, target = (uint32_t)p[0].u;
    int32_t level = (int32_t)p[1].i;
    rp_check_keep_error(x);
    int64_t w = level_param(x, ext, multi, obj, target, level, WIDTH);
    int64_t ht = level_param(x, ext, multi, obj, target, level, HEIGHT);
    int64_t d = level_param(x, ext, multi, obj, target, level, DEPTH);
    uint64_t n;
    if (!comp) {
        n = store_bytes(x, 1, (uint32_t)p[2].u, (uint32_t)p[3].u, w, ht, d);
    } else {
        n = (uint64_t)(uint32_t)level_param(x, ext, multi, obj, target, level, COMPRESSED_IMAGE_SIZE);
        /* GL_PACK_COMPRESSED_BLOCK_{WIDTH,HEIGHT,DEPTH,SIZE} (GL 4.2): whole
         * blocks under the pack state's row length, image height and skips */
        int64_t bw = rp_gl_get_integer(x, 0x912B), bh = rp_gl_get_integer(x, 0x912C),
                bd = rp_gl_get_integer(x, 0x912D), bs = rp_gl_get_integer(x, 0x912E);
        if (bs > 0 && bw > 0 && image_dims_ok(w, ht, d) > 0) {
            store_t st;
            read_store(x, 1, &st);
            uint64_t cols = (uint64_t)((st.rowlen > w ? st.rowlen : w) + st.skipp + bw - 1) / (uint64_t)bw;
            uint64_t rows = (uint64_t)((st.imgh > ht ? st.imgh : ht) + st.skipr);
            uint64_t layers = (uint64_t)(d + st.skipi);
            if (bh > 0)
                rows = (rows + (uint64_t)bh - 1) / (uint64_t)bh;
            if (bd > 0)
                layers = (layers + (uint64_t)bd - 1) / (uint64_t)bd;
            uint64_t blocks = cols * rows * layers * (uint64_t)bs;
            if (blocks > n)
                n = blocks;
        }
    }
    rp_check_drop_errors(x);
    return n;
}

/* The most elements a getter of state-dependent extent writes (helper
 * kinds pixelmap: a map of up to GL_MAX_PIXEL_MAP_TABLE entries; evalmap:
 * up to GL_MAX_EVAL_ORDER^2 control points of 4 components); 0 when not
 * such an output.  glGetUniform*v writes at most 16 values, less than any
 * output is given (MIN_OUT). */
static uint64_t getter_elems(rp_exec_t *x, const cs_inst_t *h)
{
    enum { MAX_EVAL_ORDER = 0x0D30, MAX_PIXEL_MAP_TABLE = 0x0D34 };
    int pm = strcmp(h->kind, "pixelmap") == 0;
    if (!pm && strcmp(h->kind, "evalmap") != 0)
        return 0;
    rp_check_keep_error(x);
    int64_t m = rp_gl_get_integer(x, pm ? MAX_PIXEL_MAP_TABLE : MAX_EVAL_ORDER);
    rp_check_drop_errors(x);
    if (m <= 0)
        return 0; /* a context without pixel maps or evaluators: GL refuses the call */
    if (m > (1 << 16))
        m = 1 << 16;
    return pm ? (uint64_t)m : (uint64_t)m * (uint64_t)m * 4;
}

/* rule_len, and for image helpers the bytes of the pixel transfer. */
/* Bytes of one index of a draw (GL_UNSIGNED_BYTE, _SHORT, _INT); 0: none. */
static uint64_t index_bytes(uint64_t type)
{
    return type == 0x1401 ? 1 : type == 0x1403 ? 2 : type == 0x1405 ? 4 : 0;
}

/* Bytes of one name of glCallLists (GL_BYTE .. GL_4_BYTES); 0: none. */
static uint64_t list_bytes(uint64_t type)
{
    switch (type) {
    case 0x1400: case 0x1401: return 1;                       /* BYTE, UNSIGNED_BYTE */
    case 0x1402: case 0x1403: case 0x1407: return 2;          /* SHORT, UNSIGNED_SHORT, 2_BYTES */
    case 0x1408: return 3;                                    /* 3_BYTES */
    case 0x1404: case 0x1405: case 0x1406: case 0x1409: return 4; /* INT, UNSIGNED_INT, FLOAT, 4_BYTES */
    default: return 0;
    }
}

static uint64_t data_len(rp_exec_t *x, const w15_param_sig_t *s, const w15_param_sig_t *ps, uint32_t np,
                         const rp_val_t *a, uint32_t ndone)
{
    if (s->len_op == W15_LEN_HELPER && s->len_b < NCS) {
        const cs_inst_t *h = &cs_table[s->len_b];
        if (strcmp(h->kind, "image") == 0)
            return image_bytes(x, h, a, ndone);
        if (strcmp(h->kind, "bitmap") == 0 && h->args[1] >= 0 && h->args[1] < (int)ndone && h->args[2] >= 0 &&
            h->args[2] < (int)ndone) /* a byte per pixel: at least the bits GL reads */
            return store_bytes(x, h->pack, 0x1900 /* COLOR_INDEX */, 0x1A00 /* BITMAP */, a[h->args[1]].i,
                               a[h->args[2]].i, 1);
        int li = strcmp(h->kind, "indices") == 0, ll = !li && strcmp(h->kind, "lists") == 0;
        if ((li || ll) && h->args[1] >= 0 && (uint32_t)h->args[1] < ndone && h->args[2] >= 0 &&
            (uint32_t)h->args[2] < ndone) {
            /* (count, type): a count < 0 reads nothing (GL_INVALID_VALUE) */
            int64_t n = (int32_t)a[h->args[1]].i;
            uint64_t t = a[h->args[2]].u & 0xffffffffu;
            return n <= 0 ? 0 : (uint64_t)n * (li ? index_bytes(t) : list_bytes(t));
        }
    }
    return rule_len(s, ps, np, a, ndone);
}

/* Elements an array input sized by a helper this file cannot compute from
 * its arguments can hold at most, so that a damaged trace cannot make GL
 * read far past the recorded ones: evaluator control points (glMap1*,
 * glMap2*: stride x (order - 1) + up to 4 components, per direction), else
 * `n` padded to HELPER_MIN_IN bytes (values of a pname, ...). */
static uint64_t helper_in_elems(const w15_param_sig_t *s, const rp_val_t *a, uint32_t ndone, uint64_t n)
{
    const cs_inst_t *h = &cs_table[s->len_b];
    int m1 = strcmp(h->kind, "map1") == 0, m2 = !m1 && strcmp(h->kind, "map2") == 0;
    for (int k = 2; (m1 || m2) && k <= (m1 ? 3 : 5); k++)
        if (h->args[k] < 0 || h->args[k] >= (int)ndone)
            m1 = m2 = 0;
    if (m1 || m2) {
        uint64_t e = 4;
        for (int k = 2; k <= (m1 ? 3 : 5); k += 2) {
            int64_t stride = (int32_t)a[h->args[k]].i, order = (int32_t)a[h->args[k + 1]].i;
            if (stride <= 0 || order <= 0)
                return n; /* GL refuses the call (GL_INVALID_VALUE) */
            e += (uint64_t)stride * (uint64_t)(order - 1);
        }
        return e > n ? e : n;
    }
    uint64_t pad = HELPER_MIN_IN / (csize[s->ctype] ? csize[s->ctype] : 8);
    return n > pad ? n : pad;
}

static inline void store_elem(uint8_t *p, uint8_t ct, uint64_t v)
{
    switch (csize[ct]) {
    case 1: *p = (uint8_t)v; break;
    case 2: { uint16_t x = (uint16_t)v; memcpy(p, &x, 2); break; }
    case 4: { uint32_t x = (uint32_t)v; memcpy(p, &x, 4); break; }
    default: memcpy(p, &v, 8); break;
    }
}

static inline uint64_t load_elem(const uint8_t *p, uint8_t ct)
{
    switch (ct) {
    case W15_C_I8: return (uint64_t)(int64_t)(int8_t)*p;
    case W15_C_U8: return *p;
    case W15_C_I16: { int16_t x; memcpy(&x, p, 2); return (uint64_t)(int64_t)x; }
    case W15_C_U16: { uint16_t x; memcpy(&x, p, 2); return x; }
    case W15_C_I32: { int32_t x; memcpy(&x, p, 4); return (uint64_t)(int64_t)x; }
    case W15_C_U32: case W15_C_F32: { uint32_t x; memcpy(&x, p, 4); return x; }
    default: { uint64_t x; memcpy(&x, p, 8); return x; }
    }
}

/* Element j of a recorded array as a 64-bit integer. */
static inline uint64_t rec_elem(const w15_value_t *v, uint32_t j)
{
    switch (v->type.base) {
    case W15_INT: return (uint64_t)v->v.i[j];
    case W15_BOOL: return v->v.b[j];
    case W15_UINT: case W15_PTR: return v->v.u[j];
    default: return 0;
    }
}

/* Key of a program-relative number in rp_share_t.locs. */
static inline uint64_t loc_key(unsigned kind, uint64_t program, uint64_t loc)
{
    return ((uint64_t)kind << 61) | ((program & 0x1fffffffu) << 32) | (uint32_t)loc;
}

static int nomem(rp_exec_t *x)
{
    rp_fatal(x->st, "out of memory");
    return -1;
}

static const rp_role_t *role_of(uint32_t fn, uint32_t param, unsigned role)
{
    const rp_func_t *f = &rp_funcs[fn];
    for (uint32_t k = 0; k < f->nroles; k++) {
        const rp_role_t *r = &rp_roles[f->first_role + k];
        if (r->param == param && r->role == role)
            return r;
    }
    return NULL;
}

/* A pointer held as a number: an offset when a buffer is bound where the
 * role says; else client memory that the trace does not hold.  The
 * binding is asked only where the context has it (GLES has no draw
 * indirect buffer before 3.1). */
static int offset_ok(rp_exec_t *x, rp_call_t *c, uint32_t i, uint64_t value)
{
    enum { DRAW_INDIRECT_BUFFER_BINDING = 0x8F43 };
    const rp_role_t *r = role_of(c->fn, i, RP_ROLE_OFFSET);
    if (!r || r->kind >= rp_nbindings)
        return 0;
    if (rp_bindings[r->kind] == DRAW_INDIRECT_BUFFER_BINDING && x->ctx && !ctx_at_least(x, 0, 31))
        return 0;
    if (rp_gl_get_integer(x, rp_bindings[r->kind]) != 0)
        return 1;
    (void)value;
    return 0;
}

/* An output of state-dependent extent (replay-scratch): zeroed scratch
 * memory of the most elements GL can write there.  1 done, 0 no such
 * role, -1 out of memory. */
static int scratch_out(rp_exec_t *x, rp_call_t *c, uint32_t i, uint8_t ctype)
{
    const rp_role_t *r = role_of(c->fn, i, RP_ROLE_SCRATCH);
    if (!r)
        return 0;
    size_t n = (size_t)r->count * (csize[ctype] ? csize[ctype] : 8);
    if (n < MIN_OUT)
        n = MIN_OUT;
    void *p = rp_arena_alloc(&x->arena, n);
    if (!p)
        return nomem(x);
    memset(p, 0, n);
    c->a[i].vp = p;
    return 1;
}

/* Parameter i's recorded readback digest, NULL when none (an empty one:
 * GL wrote nothing). */
static const w15_digest_entry_t *digest_of(const rp_call_t *c, uint32_t i)
{
    for (uint32_t k = 0; k < c->ndig; k++)
        if (c->dig[k].param == i)
            return &c->dig[k];
    return NULL;
}

/* Bytes of parameter i's recorded readback digest, 0 when none. */
static uint64_t dig_size(const rp_call_t *c, uint32_t i)
{
    const w15_digest_entry_t *d = digest_of(c, i);
    return d ? d->size : 0;
}

static const w15_offset_entry_t *offset_of(const w15_offset_entry_t *e, uint32_t n, uint32_t param)
{
    for (uint32_t k = 0; k < n; k++)
        if (e[k].param == param)
            return &e[k];
    return NULL;
}

/* Whether the replaying context has a buffer bound at the binding point
 * `target` of a wip15.offset entry: without one GL would take the offset
 * for a pointer into client memory (a damaged trace, or a replay that
 * skipped the glBindBuffer).  Array and element array bindings exist in
 * every context; the others are asked quietly (a binding the context
 * lacks raises GL_INVALID_ENUM). */
static int offset_bound(rp_exec_t *x, uint32_t target)
{
    static const uint32_t bindings[][2] = {
        {0x8892, 0x8894}, {0x8893, 0x8895}, {0x88EB, 0x88ED}, {0x88EC, 0x88EF},
        {0x8F3F, 0x8F43}, {0x90EE, 0x90EF}, {0x80EE, 0x80EF}, {0x9192, 0x9193},
    };
    if (!x->ctx)
        return 0;
    for (size_t k = 0; k < sizeof bindings / sizeof bindings[0]; k++) {
        if (bindings[k][0] != target)
            continue;
        if (k < 2)
            return rp_gl_get_integer(x, bindings[k][1]) != 0;
        rp_check_keep_error(x);
        int bound = rp_gl_get_integer(x, bindings[k][1]) != 0;
        rp_check_drop_errors(x);
        return bound;
    }
    return 0;
}

static const char *pname(uint32_t fn, uint32_t i)
{
    return w15_str(w15_params[w15_funcs[fn].first_param + i].name);
}

/* Copy the data of the previous decompressed blob of this call out of the
 * reader's buffer (the next w15_reader_blob reuses it). */
static int keep_blob(rp_exec_t *x, rp_call_t *c, int *last, size_t size)
{
    if (*last < 0)
        return 0;
    void *p = rp_arena_alloc(&x->arena, size ? size : 1);
    if (!p)
        return nomem(x);
    memcpy(p, c->a[*last].vp, size);
    c->a[*last].vp = p;
    *last = -1;
    return 0;
}

/* The fast plan of a function whose parameters are all scalars passed by
 * value with no location role: one op per parameter (the union member to
 * fill, or the namespace of an object name), built once per function. */
enum { OP_U = 1, OP_I, OP_F, OP_D, OP_B, OP_NAME = 16 /* + group type */ };

static int build_plan(rp_state_t *st, uint32_t fn)
{
    const w15_func_sig_t *fs = &w15_funcs[fn];
    const w15_param_sig_t *ps = &w15_params[fs->first_param];
    uint8_t *ops = &st->plan[fs->first_param];
    int ok = rp_funcs[fn].kind == RP_KIND_CALL;
    const rp_func_t *rf = &rp_funcs[fn];
    for (uint32_t k = 0; k < rf->nroles; k++)
        if (rp_roles[rf->first_role + k].role == RP_ROLE_LOCATION)
            ok = 0;
    for (uint32_t i = 0; ok && i < fs->nparams; i++) {
        const w15_param_sig_t *s = &ps[i];
        if (s->cap != W15_CAP_VALUE || s->is_array) {
            ok = 0;
            break;
        }
        unsigned gt = obj_type(s);
        switch (s->base) {
        case W15_FLOAT: ops[i] = OP_F; break;
        case W15_DOUBLE: ops[i] = OP_D; break;
        case W15_INT: ops[i] = OP_I; break;
        case W15_BOOL: ops[i] = OP_B; break;
        case W15_UINT: case W15_PTR: ops[i] = gt ? (uint8_t)(OP_NAME + gt) : OP_U; break;
        default: ok = 0; break;
        }
        if (gt && s->base != W15_UINT && s->base != W15_PTR)
            ok = 0;
    }
    st->plan_state[fn] = ok ? 2 : 1;
    return ok;
}

int rp_decode(rp_exec_t *x, rp_call_t *c)
{
    const w15_call_t *wc = c->wc;
    const w15_func_sig_t *fs = &w15_funcs[c->fn];
    uint32_t np = fs->nparams;
    rp_state_t *st = x->st;
    uint8_t plan = st->plan_state[c->fn];
    if (__builtin_expect(plan == 0, 0))
        plan = (uint8_t)(build_plan(st, c->fn) ? 2 : 1);
    if (plan == 2 && !wc->nextras) {
        const uint8_t *ops = &st->plan[fs->first_param];
        c->nargs = np;
        for (uint32_t i = 0; i < np; i++) {
            const w15_value_t *v = &wc->args[i];
            rp_val_t *a = &c->a[i];
            switch (ops[i]) {
            case OP_F: a->u = 0; a->f = v->v.f[0]; break;
            case OP_D: a->d = v->v.d[0]; break;
            case OP_I: a->i = v->v.i[0]; break;
            case OP_B: a->u = v->v.b[0]; break;
            case OP_U: a->u = v->v.u[0]; break;
            default: a->u = rp_names_get(rp_ns(x, ops[i] - OP_NAME), v->v.u[0]); break;
            }
        }
        return 0;
    }
    const w15_param_sig_t *ps = &w15_params[fs->first_param];
    const w15_ptr_entry_t *pe = NULL, *ue = NULL;
    const w15_offset_entry_t *oe = NULL;
    uint32_t npe = 0, nue = 0, noe = 0;
    if (wc->nextras) {
        w15_error_t err;
        if (w15_reader_ptrs(st->rd, wc, &pe, &npe, &err) || w15_reader_offsets(st->rd, wc, &oe, &noe, &err) ||
            w15_reader_unreadable(st->rd, wc, &ue, &nue, &err) ||
            /* the digests size the read-backs whose extent GL was asked
             * (glGetTexImage): read with or without --check */
            w15_reader_digests(st->rd, wc, &c->dig, &c->ndig, &err) ||
            w15_reader_spans(st->rd, wc, &c->spn, &c->nspn, &err)) {
            rp_fatal(st, "%s", err.msg);
            return -1;
        }
    }
    int last_blob = -1;
    size_t last_blob_size = 0;
    c->nargs = np;
    for (uint32_t i = 0; i < np; i++) {
        const w15_param_sig_t *s = &ps[i];
        const w15_value_t *v = &wc->args[i];
        rp_val_t *a = &c->a[i];
        a->u = 0;
        uint64_t p;
        const w15_offset_entry_t *off = noe ? offset_of(oe, noe, i) : NULL;
        if (off) {
            if (!offset_bound(x, off->target))
                return rp_cannot(x, c->fn, "parameter %s is an offset into the buffer bound at 0x%04x when "
                                           "recorded; the replay has no buffer bound there",
                                 pname(c->fn, i), off->target);
            a->u = off->offset; /* an offset into the buffer bound at its target (wip15.offset) */
            continue;
        }
        if (nue && w15_ptr_find(ue, nue, i, &p)) {
            /* memory that could not be read when recorded (warned in
             * replay.c): zeros for an input, scratch for an output */
            if (s->cap == W15_CAP_ARRAY_OUT || s->cap == W15_CAP_STR_OUT || s->cap == W15_CAP_DATA_OUT) {
                a->vp = rp_arena_alloc(&x->arena, UNKNOWN_OUT);
                if (!a->vp)
                    return nomem(x);
                memset(a->vp, 0, UNKNOWN_OUT);
            } else {
                a->vp = rp_zeros(st);
                if (!a->vp)
                    return rp_cannot(x, c->fn, "parameter %s: no memory for zeros", pname(c->fn, i));
            }
            continue;
        }
        if (npe && w15_ptr_find(pe, npe, i, &p)) {
            {
                if (p == 0)
                    continue; /* NULL */
                void *m = rp_mem_translate(x, p);
                if (m) {
                    a->vp = m; /* client memory the trace holds (wip15ClientMemory) */
                    continue;
                }
                int unpack = (fs->flags & W15_FN_PIXEL_UNPACK) && s->cap == W15_CAP_DATA_IN;
                int pack = (fs->flags & W15_FN_PIXEL_PACK) && s->cap == W15_CAP_DATA_OUT;
                if ((unpack || pack) && pixel_buffers(x) &&
                    rp_gl_get_integer(x, unpack ? GL_PIXEL_UNPACK_BUFFER_BINDING
                                                : GL_PIXEL_PACK_BUFFER_BINDING) != 0) {
                    a->u = p; /* an offset into the bound pixel buffer */
                    continue;
                }
                if (offset_ok(x, c, i, p)) {
                    a->u = p;
                    continue;
                }
                int sr = scratch_out(x, c, i, s->ctype);
                if (sr < 0)
                    return -1;
                if (sr)
                    continue;
                /* an output the tracer could not size (unknown pname):
                 * zeroed scratch memory, except for pixel data, unless
                 * GL is between glBegin and glEnd (mem.c), where it
                 * refuses the call and writes nothing: the call replays
                 * for its GL_INVALID_OPERATION */
                if (s->cap == W15_CAP_ARRAY_OUT || s->cap == W15_CAP_STR_OUT ||
                    (s->cap == W15_CAP_DATA_OUT &&
                     (!(fs->flags & (W15_FN_READBACK | W15_FN_PIXEL_PACK)) || x->begin_held || x->in_begin))) {
                    a->vp = rp_arena_alloc(&x->arena, UNKNOWN_OUT);
                    if (!a->vp)
                        return nomem(x);
                    memset(a->vp, 0, UNKNOWN_OUT);
                    continue;
                }
                if (s->cap == W15_CAP_DATA_IN || s->cap == W15_CAP_ARRAY_IN || s->cap == W15_CAP_STR_IN) {
                    /* an input the tracer measured as empty or could not
                     * size: GL reads nothing (an empty image) or refuses
                     * the arguments (an unknown type or pname) before it
                     * reads; read-only zeros let it do so, errors included */
                    uint64_t want = s->cap == W15_CAP_DATA_IN ? data_len(x, s, ps, np, c->a, i)
                                    : s->cap == W15_CAP_ARRAY_IN ? rule_len(s, ps, np, c->a, i)
                                                                 : UINT64_MAX;
                    if (want != UINT64_MAX && s->cap == W15_CAP_ARRAY_IN)
                        want = want > RP_ZEROS ? UINT64_MAX : want * csize[s->ctype];
                    a->vp = want == UINT64_MAX || want <= RP_ZEROS ? rp_zeros(st) : NULL;
                    if (a->vp && want == UINT64_MAX)
                        a->vp = (uint8_t *)a->vp + RP_ZEROS / 2; /* zeros on both sides (strides < 0) */
                    if (a->vp && want) {
                        rp_warn(x, c->fn, "the memory behind parameter %s is not in the trace; replayed "
                                          "with zeros", pname(c->fn, i));
                    }
                    if (a->vp)
                        continue;
                }
                return rp_cannot(x, c->fn, "the memory behind parameter %s is not in the trace",
                                 pname(c->fn, i));
            }
        }
        switch (s->cap) {
        case W15_CAP_VALUE:
        case W15_CAP_PTR:
            if (v->type.is_array) {
                a->vp = NULL; /* only PTR arrays of unknown extent land here */
                break;
            }
            switch (v->type.base) {
            case W15_FLOAT: a->f = v->v.f[0]; break;
            case W15_DOUBLE: a->d = v->v.d[0]; break;
            case W15_INT: a->i = v->v.i[0]; break;
            case W15_BOOL: a->u = v->v.b[0]; break;
            case W15_UINT: case W15_PTR: a->u = v->v.u[0]; break;
            default: a->u = 0; break; /* Void, FunctionPtr, empty String/Data */
            }
            if (s->cap == W15_CAP_PTR && a->u) {
                if (rp_funcs[c->fn].kind == RP_KIND_CUSTOM)
                    break; /* the handler reads the recorded value itself */
                if (role_of(c->fn, i, RP_ROLE_PASS))
                    break; /* never dereferenced: the recorded value */
                const rp_role_t *ro = role_of(c->fn, i, RP_ROLE_OBJECT);
                if (ro) {
                    a->u = rp_names_get(rp_ns(x, ro->kind), a->u); /* the replay's object */
                    break;
                }
                void *m = rp_mem_translate(x, a->u);
                if (m) {
                    a->vp = m; /* client memory the trace holds (wip15ClientMemory) */
                    break;
                }
                if (offset_ok(x, c, i, a->u))
                    break;
                if (role_of(c->fn, i, RP_ROLE_OFFSET)) {
                    /* client memory that this call does not read (a
                     * client array's pointer: the draws that read it
                     * come with wip15ClientArray, which re-points it at
                     * the replay's copy): point the driver at zeros, never
                     * at garbage */
                    void *z = rp_zeros(x->st);
                    if (!z)
                        return rp_cannot(x, c->fn, "parameter %s points at client memory the trace "
                                                   "does not hold", pname(c->fn, i));
                    if (!(fs->flags & W15_FN_VERTEX_DRAW))
                        rp_mem_client_pointer(x, c->fn, i);
                    else
                        rp_warn(x, c->fn, "parameter %s points at client memory the trace does not hold; "
                                          "replayed with zeros instead", pname(c->fn, i));
                    a->vp = z;
                    break;
                }
                int sr = scratch_out(x, c, i, s->ctype);
                if (sr < 0)
                    return -1;
                if (sr)
                    break;
                /* memory of unknown extent (the tracer kept only the
                 * pointer): neither an input nor an output can be given */
                return rp_cannot(x, c->fn, "parameter %s is a pointer whose data the trace does not hold",
                                 pname(c->fn, i));
            }
            if (s->cap == W15_CAP_VALUE) {
                unsigned gt = obj_type(s);
                if (gt)
                    a->u = rp_names_get(rp_ns(x, gt), a->u);
            }
            break;
        case W15_CAP_STR_IN: {
            const w15_str_t *str = v->count ? &v->v.s[0] : NULL;
            uint32_t n = str ? str->len : 0;
            char *p = rp_arena_alloc(&x->arena, (size_t)n + 1);
            if (!p)
                return nomem(x);
            if (n)
                memcpy(p, str->ptr, n);
            p[n] = 0;
            a->vp = p;
            break;
        }
        case W15_CAP_STR_OUT: {
            uint64_t n = rule_len(s, ps, np, c->a, i);
            uint64_t rec = v->count ? v->v.s[0].len + 1u : 1u;
            if (n == UINT64_MAX || n < rec)
                n = rec;
            if (dig_size(c, i) > n)
                n = dig_size(c, i);
            if (n < MIN_OUT)
                n = MIN_OUT;
            if (n > MAX_ELEMS)
                return rp_cannot(x, c->fn, "parameter %s: output of %llu bytes", pname(c->fn, i),
                                 (unsigned long long)n);
            a->vp = rp_arena_alloc(&x->arena, n);
            if (!a->vp)
                return nomem(x);
            if (c->ndig)
                memset(a->vp, 0, n);
            break;
        }
        case W15_CAP_STR_ARRAY_IN: {
            char **arr = rp_arena_alloc(&x->arena, (size_t)(v->count ? v->count : 1) * sizeof *arr);
            if (!arr)
                return nomem(x);
            for (uint32_t j = 0; j < v->count; j++) {
                uint32_t n = v->v.s[j].len;
                char *p = rp_arena_alloc(&x->arena, (size_t)n + 1);
                if (!p)
                    return nomem(x);
                if (n)
                    memcpy(p, v->v.s[j].ptr, n);
                p[n] = 0;
                arr[j] = p;
            }
            a->vp = arr;
            uint64_t want = rule_len(s, ps, np, c->a, i);
            if (want != UINT64_MAX && want > v->count)
                return rp_cannot(x, c->fn, "parameter %s holds %u strings, the call reads %llu",
                                 pname(c->fn, i), v->count, (unsigned long long)want);
            break;
        }
        case W15_CAP_ARRAY_IN: {
            uint32_t n = v->count;
            uint8_t ct = s->ctype;
            unsigned gt = obj_type(s);
            uint64_t want = rule_len(s, ps, np, c->a, i);
            if (want == UINT64_MAX && s->len_op == W15_LEN_HELPER && s->len_b < NCS)
                want = helper_in_elems(s, c->a, i, n);
            uint64_t alloc = n;
            if (want != UINT64_MAX && want > n) {
                if (want > MAX_ELEMS)
                    return rp_cannot(x, c->fn, "parameter %s: %llu elements", pname(c->fn, i),
                                     (unsigned long long)want);
                alloc = want; /* pad with zeros: the trace holds fewer */
            }
            int direct = alloc == n && !gt && ct != W15_C_PTR &&
                         ((ct == W15_C_F32 && v->type.base == W15_FLOAT) ||
                          (ct == W15_C_F64 && v->type.base == W15_DOUBLE) ||
                          ((ct == W15_C_I64 || ct == W15_C_U64 || ct == W15_C_LONG) &&
                           (v->type.base == W15_INT || v->type.base == W15_UINT || v->type.base == W15_PTR)) ||
                          ((ct == W15_C_U8 || ct == W15_C_I8) && v->type.base == W15_BOOL));
            if (direct) {
                a->vp = (void *)(v->type.base == W15_FLOAT ? (const void *)v->v.f
                                 : v->type.base == W15_DOUBLE ? (const void *)v->v.d
                                 : v->type.base == W15_BOOL ? (const void *)v->v.b
                                                            : (const void *)v->v.u);
                break;
            }
            size_t es = csize[ct];
            uint8_t *p = rp_arena_alloc(&x->arena, (size_t)(alloc ? alloc : 1) * es);
            if (!p)
                return nomem(x);
            if (alloc > n)
                memset(p + (size_t)n * es, 0, (size_t)(alloc - n) * es);
            rp_names_t *ns = gt ? rp_ns(x, gt) : NULL;
            if (v->type.base == W15_FLOAT && ct == W15_C_F32) {
                memcpy(p, v->v.f, (size_t)n * 4);
            } else if (v->type.base == W15_DOUBLE && ct == W15_C_F64) {
                memcpy(p, v->v.d, (size_t)n * 8);
            } else if (v->type.base == W15_FLOAT || v->type.base == W15_DOUBLE) {
                for (uint32_t j = 0; j < n; j++) {
                    double d = v->type.base == W15_FLOAT ? v->v.f[j] : v->v.d[j];
                    if (ct == W15_C_F32) { float f = (float)d; memcpy(p + j * es, &f, 4); }
                    else if (ct == W15_C_F64) memcpy(p + j * es, &d, 8);
                    else store_elem(p + j * es, ct, (uint64_t)(int64_t)d);
                }
            } else {
                /* pointers into client memory (glMultiDrawElements'
                 * index arrays): each one the trace holds (this call's
                 * wip15ClientMemory), or an offset while an element
                 * buffer is bound; never the program's address: another
                 * one (the tracer records none for an empty draw) points
                 * at zeros, and mem.c refuses a draw that reads them */
                int ptrs = ct == W15_C_PTR, offsets = -1;
                for (uint32_t j = 0; j < n; j++) {
                    uint64_t e = rec_elem(v, j);
                    if (ns)
                        e = rp_names_get(ns, e);
                    if (ptrs && e) {
                        void *m = rp_mem_translate(x, e);
                        if (m)
                            e = (uint64_t)(uintptr_t)m;
                        else {
                            if (offsets < 0)
                                offsets = (fs->flags & W15_FN_VERTEX_DRAW) &&
                                          offset_bound(x, GL_ELEMENT_ARRAY_BUFFER);
                            if (!offsets && !(e = (uint64_t)(uintptr_t)rp_zeros(st)))
                                return rp_cannot(x, c->fn, "parameter %s: no memory for zeros", pname(c->fn, i));
                        }
                    }
                    if (ct == W15_C_F32) { float f = v->type.base == W15_INT ? (float)(int64_t)e : (float)e; memcpy(p + j * es, &f, 4); }
                    else if (ct == W15_C_F64) { double d = v->type.base == W15_INT ? (double)(int64_t)e : (double)e; memcpy(p + j * es, &d, 8); }
                    else store_elem(p + j * es, ct, e);
                }
            }
            a->vp = p;
            break;
        }
        case W15_CAP_ARRAY_OUT: {
            uint64_t n = rule_len(s, ps, np, c->a, i);
            if (n == UINT64_MAX || n < v->count)
                n = v->count;
            if (s->len_op == W15_LEN_DEREF && n < 4096)
                n = 4096;
            uint64_t dig = dig_size(c, i);
            if (dig / csize[s->ctype] + 1 > n && dig)
                n = dig / csize[s->ctype] + 1;
            if (x->ctx && s->len_op == W15_LEN_HELPER && s->len_b < NCS) {
                uint64_t most = getter_elems(x, &cs_table[s->len_b]);
                if (most > n)
                    n = most;
            }
            size_t bytes = (size_t)n * csize[s->ctype];
            if (n > MAX_ELEMS)
                return rp_cannot(x, c->fn, "parameter %s: output of %llu elements", pname(c->fn, i),
                                 (unsigned long long)n);
            if (bytes < MIN_OUT)
                bytes = MIN_OUT;
            a->vp = rp_arena_alloc(&x->arena, bytes);
            if (!a->vp)
                return nomem(x);
            memset(a->vp, 0, bytes);
            break;
        }
        case W15_CAP_DATA_IN: {
            if (!v->count) {
                a->vp = NULL;
                break;
            }
            const w15_blob_t *b = &v->v.data[0];
            const uint8_t *d = b->cdata;
            if (b->method != W15_COMP_NONE) {
                if (keep_blob(x, c, &last_blob, last_blob_size))
                    return -1;
                w15_error_t err;
                d = w15_reader_blob(x->st->rd, b, &err);
                if (!d) {
                    rp_fatal(x->st, "%s", err.msg);
                    return -1;
                }
                last_blob = (int)i;
                last_blob_size = b->size;
            }
            uint64_t want = data_len(x, s, ps, np, c->a, i);
            if (want == UINT64_MAX && s->len_op == W15_LEN_HELPER)
                want = b->size < HELPER_MIN_IN ? HELPER_MIN_IN : b->size; /* what the tracer measured, padded */
            /* text of a given length: a NUL after it, as the program had
             * (replay-text) */
            if (role_of(c->fn, i, RP_ROLE_TEXT) && (want == UINT64_MAX || want <= b->size))
                want = (uint64_t)b->size + 1;
            if (want != UINT64_MAX && want > b->size) {
                if (want > (256u << 20))
                    return rp_cannot(x, c->fn, "parameter %s: %llu bytes, the trace holds %u",
                                     pname(c->fn, i), (unsigned long long)want, b->size);
                uint8_t *p = rp_arena_alloc(&x->arena, want);
                if (!p)
                    return nomem(x);
                memcpy(p, d, b->size);
                memset(p + b->size, 0, want - b->size);
                d = p;
                if (last_blob == (int)i)
                    last_blob = -1;
            }
            a->vp = (void *)d;
            break;
        }
        case W15_CAP_DATA_OUT: {
            uint64_t n = v->count ? v->v.data[0].size : 0;
            uint64_t want = data_len(x, s, ps, np, c->a, i);
            uint64_t dig = dig_size(c, i);
            /* an empty digest of a helper-sized output: GL refused the
             * call (tracer: W15_CS_REFUSED), which replays for its error */
            if (want == UINT64_MAX && s->len_op == W15_LEN_HELPER && !digest_of(c, i))
                return rp_cannot(x, c->fn, "parameter %s: cannot size the output", pname(c->fn, i));
            if (want != UINT64_MAX && want > n)
                n = want;
            if (dig > n)
                n = dig;
            if (x->ctx && s->len_op == W15_LEN_HELPER && s->len_b < NCS) {
                uint64_t most = level_bytes(x, &cs_table[s->len_b], c->a, i);
                if (most != UINT64_MAX && most > n)
                    n = most; /* as much as the replay's level holds */
            }
            if (n > (1ull << 31))
                return rp_cannot(x, c->fn, "parameter %s: output of %llu bytes", pname(c->fn, i),
                                 (unsigned long long)n);
            if (n < MIN_OUT)
                n = MIN_OUT;
            a->vp = rp_arena_alloc(&x->arena, n);
            if (!a->vp)
                return nomem(x);
            if (c->ndig)
                memset(a->vp, 0, n); /* compared with the recorded digest: nothing left over */
            break;
        }
        default:
            a->vp = NULL;
            break;
        }
    }
    /* program-relative numbers (uniform locations, ...) */
    const rp_func_t *rf = &rp_funcs[c->fn];
    for (uint32_t k = 0; k < rf->nroles; k++) {
        const rp_role_t *r = &rp_roles[rf->first_role + k];
        if (r->role != RP_ROLE_LOCATION || r->param >= np)
            continue;
        rp_ctx_t *ctx = x->ctx;
        if (!ctx || !ctx->share->locs.changed)
            continue;
        uint64_t prog = r->arg == RP_CURRENT ? ctx->program : r->arg < np ? c->a[r->arg].u : 0;
        const w15_param_sig_t *s = &ps[r->param];
        if (s->cap == W15_CAP_VALUE) {
            c->a[r->param].i = (int64_t)(int32_t)rp_names_get(
                &ctx->share->locs, loc_key(r->kind, prog, (uint64_t)c->a[r->param].i));
        } else if (s->cap == W15_CAP_ARRAY_IN && c->a[r->param].vp) {
            const w15_value_t *v = &wc->args[r->param];
            uint8_t *p = rp_arena_alloc(&x->arena, (size_t)(v->count ? v->count : 1) * csize[s->ctype]);
            if (!p)
                return nomem(x);
            for (uint32_t j = 0; j < v->count; j++)
                store_elem(p + j * csize[s->ctype], s->ctype,
                           rp_names_get(&ctx->share->locs, loc_key(r->kind, prog, (uint32_t)rec_elem(v, j))) );
            c->a[r->param].vp = p;
        }
    }
    return 0;
}

static void put_name(rp_exec_t *x, rp_names_t *ns, uint64_t rec, uint64_t rep)
{
    if (rp_names_put(ns, rec, rep))
        rp_fatal(x->st, "out of memory");
}

void rp_roles_after(rp_exec_t *x, rp_call_t *c)
{
    const rp_func_t *rf = &rp_funcs[c->fn];
    const w15_func_sig_t *fs = &w15_funcs[c->fn];
    const w15_param_sig_t *ps = &w15_params[fs->first_param];
    const w15_call_t *wc = c->wc;
    uint32_t np = fs->nparams;
    for (uint32_t k = 0; k < rf->nroles; k++) {
        const rp_role_t *r = &rp_roles[rf->first_role + k];
        const w15_param_sig_t *s = r->param == RP_RESULT ? &ps[np] : r->param < np ? &ps[r->param] : NULL;
        if (!s)
            continue;
        const w15_value_t *v = r->param == RP_RESULT ? wc->result : &wc->args[r->param];
        if (!v)
            continue;
        switch (r->role) {
        case RP_ROLE_CREATE: {
            unsigned gt = obj_type(s);
            if (!gt)
                break;
            rp_names_t *ns = rp_ns(x, gt);
            if (r->param == RP_RESULT) {
                if (!v->count || v->type.is_array)
                    break;
                uint64_t rec = rec_elem(v, 0), rep = c->r.u;
                if (r->arg == RP_NO_ARG) {
                    put_name(x, ns, rec, rep);
                } else {
                    uint64_t range = r->arg < np ? as_count(&ps[r->arg], c->a[r->arg]) : 1;
                    if (range > (1u << 20))
                        range = 1u << 20;
                    for (uint64_t j = 0; j < range && rec; j++)
                        put_name(x, ns, rec + j, rep ? rep + j : 0);
                }
            } else if (s->cap == W15_CAP_ARRAY_OUT && c->a[r->param].vp) {
                const uint8_t *out = c->a[r->param].vp;
                for (uint32_t j = 0; j < v->count; j++)
                    put_name(x, ns, rec_elem(v, j), load_elem(out + (size_t)j * csize[s->ctype], s->ctype));
            }
            break;
        }
        case RP_ROLE_DELETE: {
            unsigned gt = obj_type(s);
            if (!gt)
                break;
            rp_names_t *ns = rp_ns(x, gt);
            if (!v->type.is_array) {
                uint64_t rec = v->count ? rec_elem(v, 0) : 0;
                uint64_t range = r->arg != RP_NO_ARG && r->arg < np ? as_count(&ps[r->arg], c->a[r->arg]) : 1;
                if (range > (1u << 20))
                    range = 1u << 20;
                for (uint64_t j = 0; j < range && rec; j++)
                    rp_names_del(ns, rec + j);
            } else {
                for (uint32_t j = 0; j < v->count; j++)
                    if (rec_elem(v, j))
                        rp_names_del(ns, rec_elem(v, j));
            }
            break;
        }
        case RP_ROLE_LOCATION:
            if (r->param == RP_RESULT && x->ctx && v->count && !v->type.is_array) {
                uint64_t prog = r->arg == RP_CURRENT ? x->ctx->program : r->arg < np ? c->a[r->arg].u : 0;
                uint64_t rec = (uint32_t)rec_elem(v, 0);
                uint64_t rep = (uint32_t)c->r.u;
                put_name(x, &x->ctx->share->locs, loc_key(r->kind, prog, rec), rep);
            }
            break;
        case RP_ROLE_USE_PROGRAM:
            if (x->ctx && r->param < np)
                x->ctx->program = c->a[r->param].u;
            break;
        default:
            break;
        }
    }
}
