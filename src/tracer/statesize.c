/* statesize.c -- output sizes that depend on GL object state (statesize.h).
 * Every query here is valid for the objects it is asked about once the
 * checks before it passed (a program name glIsProgram knows, linked), so
 * none raises a GL error or a debug message, whether the program's own
 * call succeeded or not; we never call glGetError. */
#include "statesize.h"
#include "context.h"
#include "resolve.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apitable.h"
#include "funcs.h"

enum {
    GL_LINK_STATUS = 0x8B82, GL_ACTIVE_UNIFORMS = 0x8B86, GL_ACTIVE_UNIFORM_MAX_LENGTH = 0x8B87,
    GL_PIXEL_MAP_I_TO_I = 0x0C70, GL_PIXEL_MAP_A_TO_A = 0x0C79, GL_PIXEL_MAP_SIZE_OFFSET = 0x40,
    GL_COEFF = 0x0A00, GL_ORDER = 0x0A01, GL_DOMAIN = 0x0A02,
    GL_MAP1_COLOR_4 = 0x0D90, GL_MAP2_COLOR_4 = 0x0DB0,
};

typedef unsigned char (*is_program_fn)(uint32_t);
typedef void (*get_programiv_fn)(uint32_t, uint32_t, int32_t *);
typedef void (*get_active_uniform_fn)(uint32_t, uint32_t, int32_t, int32_t *, int32_t *, uint32_t *, char *);
typedef int32_t (*get_uniform_location_fn)(uint32_t, const char *);

static void *real_fn(const char *name)
{
    int id = w15_func_lookup(name);
    return id < 0 ? NULL : W15_REAL((uint32_t)id);
}

/* Components of a value of uniform type `type` (glGetActiveUniform); 0
 * when not known. */
static size_t type_components(uint32_t type)
{
    switch (type) {
    case 0x1406: case 0x1404: case 0x1405: case 0x8B56: /* FLOAT, INT, UNSIGNED_INT, BOOL */
    case 0x140A: case 0x140E: case 0x140F:             /* DOUBLE, INT64_ARB, UNSIGNED_INT64_ARB */
        return 1;
    case 0x8B50: case 0x8B53: case 0x8B57: case 0x8DC6: case 0x8FFC: case 0x8FE9: case 0x8FF5: /* *VEC2 */
        return 2;
    case 0x8B51: case 0x8B54: case 0x8B58: case 0x8DC7: case 0x8FFD: case 0x8FEA: case 0x8FF6: /* *VEC3 */
        return 3;
    case 0x8B52: case 0x8B55: case 0x8B59: case 0x8DC8: case 0x8FFE: case 0x8FEB: case 0x8FF7: /* *VEC4 */
    case 0x8B5A: case 0x8F46:                                                                  /* MAT2 */
        return 4;
    case 0x8B65: case 0x8B67: case 0x8F49: case 0x8F4B: /* MAT2x3, MAT3x2 */
        return 6;
    case 0x8B66: case 0x8B69: case 0x8F4A: case 0x8F4D: /* MAT2x4, MAT4x2 */
        return 8;
    case 0x8B5B: case 0x8F47: /* MAT3 */
        return 9;
    case 0x8B68: case 0x8B6A: case 0x8F4C: case 0x8F4E: /* MAT3x4, MAT4x3 */
        return 12;
    case 0x8B5C: case 0x8F48: /* MAT4 */
        return 16;
    case 0x8D66: /* SAMPLER_EXTERNAL_OES */
        return 1;
    default:
        break;
    }
    /* samplers and images: one value (the unit) */
    if ((type >= 0x8B5D && type <= 0x8B64) || (type >= 0x8DC0 && type <= 0x8DC5) ||
        (type >= 0x8DC9 && type <= 0x8DD8) || (type >= 0x900C && type <= 0x900F) ||
        (type >= 0x9108 && type <= 0x910D) || (type >= 0x904C && type <= 0x906C))
        return 1;
    return 0;
}

/* Whether active uniform `name` (glGetActiveUniform's, an array's with
 * "[0]"), whose first element is at `base` and which has `size` elements,
 * has an element at `location`: its first, or element k of an array when
 * GL gives "name[k]" that location. */
static int uniform_at(get_uniform_location_fn loc, uint32_t program, char *name, size_t len, int32_t base,
                      int32_t size, int64_t location)
{
    if (base < 0)
        return 0; /* in a block, or a built-in: no location */
    if (base == location)
        return 1;
    if (size <= 1 || location < base || location - base >= size || len < 3 ||
        strcmp(name + len - 3, "[0]") != 0)
        return 0;
    char elem[32];
    snprintf(elem, sizeof elem, "[%d]", (int)(location - base));
    size_t el = strlen(elem);
    char *s = malloc(len - 3 + el + 1);
    if (!s)
        return 0;
    memcpy(s, name, len - 3);
    memcpy(s + len - 3, elem, el + 1);
    int r = loc(program, s) == location;
    free(s);
    return r;
}

/* The uniforms looked up, per thread: (share group, program, location) ->
 * components, valid while no program has been linked anywhere since
 * (`link_gen`, bumped after every LINK command: glLinkProgram,
 * glProgramBinary, glCreateShaderProgram*, whether it succeeded or not).
 * A program that keeps its link keeps its uniforms' locations and types,
 * so only a link can make an entry wrong; that the name is still a linked
 * program is asked at every call (glIsProgram, GL_LINK_STATUS: a deleted
 * name, or one given to a new unlinked program).  Without it each
 * glGetUniform* asked GL for every active uniform until it found the one
 * at `location` (docs/PERFORMANCE.md "Uniform getters"). */
static _Atomic uint64_t link_gen = 1;
enum { UCACHE = 64 };
typedef struct {
    uint64_t gen;
    uint32_t group; /* w15_ctx_t.share_group */
    uint32_t program;
    int32_t location;
    uint32_t comps;
} ucache_t;
static __thread ucache_t ucache[UCACHE];

void w15_statesize_linked(void)
{
    atomic_fetch_add_explicit(&link_gen, 1, memory_order_acq_rel);
}

size_t w15_uniform_components(uint32_t program, int64_t location)
{
    w15_ctx_t *c = w15_context_current();
    int major = 0, minor = 0, api = w15_context_api(&major, &minor);
    if (!c || c->in_begin || location < 0 || location > INT32_MAX || program == 0 ||
        (api == 1 && major < 2) || (api == 2 && major < 2) || !api)
        return 0;
    is_program_fn is = (is_program_fn)W15_REAL(W15F_glIsProgram);
    get_programiv_fn getp = (get_programiv_fn)W15_REAL(W15F_glGetProgramiv);
    if (!is || !getp)
        return 0;
    int e = errno;
    size_t r = 0;
    int32_t linked = 0, n = 0, maxlen = 0;
    get_active_uniform_fn active;
    get_uniform_location_fn loc;
    /* read before GL is asked: a link that ends after this makes what
     * is stored below stale, and bumps the generation after it */
    uint64_t gen = atomic_load_explicit(&link_gen, memory_order_acquire);
    ucache_t *u = &ucache[(program * 31u + (uint32_t)location) % UCACHE];
    if (!is(program))
        goto out;
    getp(program, GL_LINK_STATUS, &linked);
    if (!linked)
        goto out;
    if (u->gen == gen && u->group == c->share_group && u->program == program && u->location == (int32_t)location) {
        r = u->comps;
        goto out;
    }
    active = (get_active_uniform_fn)W15_REAL(W15F_glGetActiveUniform);
    loc = (get_uniform_location_fn)W15_REAL(W15F_glGetUniformLocation);
    if (!active || !loc)
        goto out;
    getp(program, GL_ACTIVE_UNIFORMS, &n);
    getp(program, GL_ACTIVE_UNIFORM_MAX_LENGTH, &maxlen);
    if (n <= 0 || maxlen <= 0 || maxlen > (1 << 20))
        goto out;
    char *name = malloc((size_t)maxlen + 1);
    if (!name)
        goto out;
    for (int32_t i = 0; i < n && i < (1 << 16); i++) {
        int32_t len = 0, size = 0;
        uint32_t type = 0;
        name[0] = 0;
        active(program, (uint32_t)i, maxlen + 1, &len, &size, &type, name);
        if (len <= 0 || len > maxlen)
            continue;
        name[len] = 0;
        if (uniform_at(loc, program, name, (size_t)len, loc(program, name), size, location)) {
            r = type_components(type);
            break;
        }
    }
    free(name);
    if (r) {
        u->group = c->share_group;
        u->program = program;
        u->location = (int32_t)location;
        u->comps = (uint32_t)r;
        u->gen = gen;
    }
out:
    errno = e;
    return r;
}

/* A desktop GL context with the legacy features, outside glBegin/glEnd:
 * where pixel maps and evaluators exist and can be asked. */
static int legacy_ready(void)
{
    w15_ctx_t *c = w15_context_current();
    int major = 0, minor = 0;
    return c && !c->in_begin && w15_context_api(&major, &minor) == 1 && w15_context_compat();
}

size_t w15_pixel_map_values(uint32_t map)
{
    if (map < GL_PIXEL_MAP_I_TO_I || map > GL_PIXEL_MAP_A_TO_A || !legacy_ready())
        return 0;
    int n = w15_context_get_int(map + GL_PIXEL_MAP_SIZE_OFFSET, 0);
    return n > 0 ? (size_t)n : 0;
}

/* Components of evaluator target t's control points (GL_MAP1_* from
 * `base` GL_MAP1_COLOR_4, GL_MAP2_* from GL_MAP2_COLOR_4): color 4,
 * index 1, normal 3, texture coordinates 1-4, vertex 3-4; 0 when not one. */
static size_t eval_components(uint32_t t, uint32_t base)
{
    static const unsigned char k[9] = {4, 1, 3, 1, 2, 3, 4, 3, 4};
    return t >= base && t < base + 9 ? k[t - base] : 0;
}

size_t w15_eval_map_values(uint32_t target, uint32_t query)
{
    typedef void (*get_mapiv_fn)(uint32_t, uint32_t, int32_t *);
    size_t k1 = eval_components(target, GL_MAP1_COLOR_4), k2 = eval_components(target, GL_MAP2_COLOR_4);
    size_t k = k1 ? k1 : k2;
    if (!k || (query != GL_COEFF && query != GL_ORDER && query != GL_DOMAIN) || !legacy_ready())
        return 0;
    if (query == GL_ORDER)
        return k1 ? 1 : 2;
    if (query == GL_DOMAIN)
        return k1 ? 2 : 4;
    get_mapiv_fn get = (get_mapiv_fn)real_fn("glGetMapiv");
    if (!get)
        return 0;
    int e = errno;
    int32_t order[2] = {0, 0};
    get(target, GL_ORDER, order);
    errno = e;
    if (order[0] <= 0 || (k2 && order[1] <= 0))
        return 0;
    return (size_t)order[0] * (k2 ? (size_t)order[1] : 1) * k;
}
