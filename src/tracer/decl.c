/* decl.c -- declarations and the side buffer (decl.h). */
#include "decl.h"

#include <pthread.h>
#include <stdlib.h>

#include "apitable.h"
#include "funcs.h"

static pthread_mutex_t decl_mutex = PTHREAD_MUTEX_INITIALIZER;
static w15_buf_t declbuf;
static _Atomic uint8_t *gdone; /* per group: declared */

static w15_type_t sig_type(const w15_param_sig_t *s)
{
    w15_type_t ty = { s->base, s->group != W15_NO_GROUP, s->is_array ? 1 : 0 };
    return ty;
}

/* OpDeclFunc of function `id` (its types from the table). */
static int put_func_decl(w15_buf_t *b, uint32_t id)
{
    const w15_func_sig_t *f = &w15_funcs[id];
    const w15_param_sig_t *ps = &w15_params[f->first_param];
    w15_type_t args[256];
    for (unsigned i = 0; i < f->nparams; i++)
        args[i] = sig_type(&ps[i]);
    return w15_put_decl_func(b, id, w15_str(f->name), sig_type(&ps[f->nparams]), f->nparams, args);
}

/* Declare function `id` and the groups its signature uses that are not
 * declared yet, into the side buffer (decl_mutex held, or at start). */
static int decl_func_locked(uint32_t id)
{
    const w15_func_sig_t *f = &w15_funcs[id];
    const w15_param_sig_t *ps = &w15_params[f->first_param];
    if (!gdone)
        gdone = calloc(w15_ngroups ? w15_ngroups : 1, 1);
    if (!gdone)
        return -1;
    for (unsigned i = 0; i <= f->nparams; i++) {
        uint16_t g = ps[i].group;
        if (g == W15_NO_GROUP || g >= w15_ngroups || gdone[g])
            continue;
        if (w15_put_decl_group(&declbuf, g, (w15_group_type_t)w15_groups[g].type, w15_str(w15_groups[g].name)))
            return -1;
        gdone[g] = 1;
    }
    return put_func_decl(&declbuf, id);
}

int w15_decl_start(void)
{
    if (w15_buf_init(&declbuf, 65536))
        return -1;
    /* every pseudo-call (and the groups of its parameters), first */
    for (uint32_t id = W15F__COUNT; id < W15F__TOTAL; id++)
        if (decl_func_locked(id))
            return -1;
    declbuf.committed = declbuf.len;
    return 0;
}

int w15_decl_func(uint32_t id)
{
    pthread_mutex_lock(&decl_mutex);
    int bad = decl_func_locked(id) != 0;
    declbuf.committed = declbuf.len;
    pthread_mutex_unlock(&decl_mutex);
    return bad ? -1 : 0;
}

w15_buf_t *w15_decl_lock(void)
{
    pthread_mutex_lock(&decl_mutex);
    return &declbuf;
}

void w15_decl_unlock(void)
{
    pthread_mutex_unlock(&decl_mutex);
}

const uint8_t *w15_decl_pending(size_t *n)
{
    *n = __atomic_load_n(&declbuf.committed, __ATOMIC_ACQUIRE);
    return declbuf.data;
}
