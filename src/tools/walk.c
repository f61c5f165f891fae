/* walk.c -- reading a trace call by call for the commands (see walk.h). */
#include "walk.h"

#include <stdlib.h>
#include <string.h>

#include "apitable.h"
#include "out.h"

int w15t_open(w15t_trace_t *t, const char *cmd, const char *path)
{
    memset(t, 0, sizeof *t);
    t->path = path;
    w15_error_t err;
    memset(&err, 0, sizeof err);
    t->r = w15_reader_open(path, &err);
    if (!t->r) {
        if (!cmd)
            return 1;
        if (err.msg[0])
            w15t_err(cmd, "%s", err.msg);
        else
            w15t_err(cmd, "%s: %s", path, w15_errcode_message(err.code));
        return 1;
    }
    t->hdr = *w15_reader_header(t->r);
    return 0;
}

void w15t_close(w15t_trace_t *t)
{
    w15_reader_close(t->r);
    w15t_map_free(&t->fmap);
    w15t_map_free(&t->gmap);
    free(t->finfo);
    free(t->gtable);
    memset(t, 0, sizeof *t);
}

static void fninfo_compute(w15t_fninfo_t *fi, const w15_func_t *f)
{
    memset(fi, 0, sizeof *fi);
    fi->table = -1;
    const char *name = f->name ? f->name : "";
    int idx = w15_func_lookup(name);
    if (idx < 0) {
        /* a pseudo-call of another tracer version is still one */
        if (strncmp(name, "wip15", 5) == 0)
            fi->kind = W15T_FN_PSEUDO;
        return;
    }
    uint32_t flags = w15_funcs[idx].flags;
    fi->table = idx;
    fi->frame_end = (flags & W15_FN_FRAME_END) != 0;
    if (flags & W15_FN_THREAD_SWITCH)
        fi->kind = W15T_FN_THREAD_SWITCH;
    else if (flags & W15_FN_PSEUDO)
        fi->kind = W15T_FN_PSEUDO;
}

const w15t_fninfo_t *w15t_fninfo(w15t_trace_t *t, const w15_func_t *f)
{
    static w15t_fninfo_t fallback;
    int added;
    long i = w15t_map_put(&t->fmap, f->index, &added);
    if (i < 0) {
        fninfo_compute(&fallback, f);
        return &fallback;
    }
    if (added) {
        if ((size_t)i >= t->capfinfo) {
            size_t ncap = t->capfinfo ? t->capfinfo * 2 : 64;
            w15t_fninfo_t *n = realloc(t->finfo, ncap * sizeof *n);
            if (!n) {
                /* keep the map consistent: drop it and start over */
                w15t_map_free(&t->fmap);
                t->nfinfo = 0;
                fninfo_compute(&fallback, f);
                return &fallback;
            }
            t->finfo = n;
            t->capfinfo = ncap;
        }
        fninfo_compute(&t->finfo[i], f);
        t->nfinfo = (size_t)i + 1;
    }
    return &t->finfo[i];
}

/* A trace function can be re-declared with another name at the same index
 * (a reader keeps the last declaration): forget the cached record. */
static void fninfo_forget(w15t_trace_t *t, uint32_t index)
{
    long i = w15t_map_get(&t->fmap, index);
    if (i >= 0)
        fninfo_compute(&t->finfo[i], w15_reader_func(t->r, index));
}

static int32_t gtable_compute(w15t_trace_t *t, uint32_t group)
{
    const w15_group_t *g = w15_reader_group(t->r, group);
    if (g && g->name)
        return w15_group_lookup(g->name);
    return -1;
}

int32_t w15t_gtable(w15t_trace_t *t, uint32_t group)
{
    int added;
    long i = w15t_map_put(&t->gmap, group, &added);
    if (i < 0)
        return gtable_compute(t, group);
    if (added) {
        if ((size_t)i >= t->capgtable) {
            size_t ncap = t->capgtable ? t->capgtable * 2 : 64;
            int32_t *n = realloc(t->gtable, ncap * sizeof *n);
            if (!n) {
                w15t_map_free(&t->gmap);
                t->ngtable = 0;
                return gtable_compute(t, group);
            }
            t->gtable = n;
            t->capgtable = ncap;
        }
        t->gtable[i] = gtable_compute(t, group);
        t->ngtable = (size_t)i + 1;
    }
    return t->gtable[i];
}

uint64_t w15t_scalar_u64(const w15_value_t *v, int *ok)
{
    if (ok)
        *ok = 1;
    if (v->type.is_array || v->count < 1) {
        if (ok)
            *ok = 0;
        return 0;
    }
    switch (v->type.base) {
    case W15_UINT:
    case W15_PTR:
        return v->v.u[0];
    case W15_INT:
        return (uint64_t)v->v.i[0];
    case W15_BOOL:
        return v->v.b[0];
    default:
        if (ok)
            *ok = 0;
        return 0;
    }
}

w15_next_t w15t_next(w15t_trace_t *t, w15_op_t *op)
{
    w15_next_t k = w15_reader_next(t->r, op, &t->err);
    if (k == W15_NEXT_DECL_FUNC && op->func) {
        fninfo_forget(t, op->func->index);
    } else if (k == W15_NEXT_DECL_GROUP && op->group) {
        long i = w15t_map_get(&t->gmap, op->group->index);
        if (i >= 0)
            t->gtable[i] = gtable_compute(t, op->group->index);
    } else if (k == W15_NEXT_CALL) {
        const w15_call_t *c = op->call;
        const w15t_fninfo_t *fi = w15t_fninfo(t, c->func);
        if (fi->kind == W15T_FN_THREAD_SWITCH && c->func->nargs >= 1) {
            int ok;
            uint64_t tid = w15t_scalar_u64(&c->args[0], &ok);
            if (ok) {
                t->have_thread = 1;
                t->thread = tid;
            }
        }
    }
    return k;
}

const char *w15t_version_name(unsigned v)
{
    switch (v) {
    case W15_VERSION_0_0: return "0.0";
    case W15_VERSION_0_0A: return "0.0a";
    default: return "?";
    }
}
