/* names.c -- recorded value -> replayed value, per namespace.
 *
 * Owns: rp_names_t, the one remapping mechanism (object names, window-
 * system handles, program locations, declared functions all use it), and
 * rp_ns(), which picks the map of a namespace for the calling thread's
 * context: per share group, per context, or global (window system), as
 * rp_scope[] (annotations, replay-scope) says.
 * May use: rp.h.  Must never: call GL.
 *
 * Small keys (GL names are small integers) live in a dense array that
 * grows to at most DENSE_MAX entries; others in an open-addressing table.
 * A key never stored maps to itself.
 */
#include <stdlib.h>
#include <string.h>

#include "rp.h"

#define DENSE_MAX (1u << 20)

static inline uint64_t mix(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    return k;
}

uint64_t rp_names_get_slow(const rp_names_t *m, uint64_t k)
{
    if (!m->mask)
        return k;
    for (uint32_t i = (uint32_t)mix(k) & m->mask;; i = (i + 1) & m->mask) {
        if (!m->used[i])
            return k;
        if (m->keys[i] == k)
            return m->vals[i];
    }
}

int rp_names_has(const rp_names_t *m, uint64_t k)
{
    if (k < m->ndense)
        return m->dense[k] != 0;
    if (!m->mask)
        return 0;
    for (uint32_t i = (uint32_t)mix(k) & m->mask;; i = (i + 1) & m->mask) {
        if (!m->used[i])
            return 0;
        if (m->keys[i] == k)
            return 1;
    }
}

static int grow_dense(rp_names_t *m, uint64_t k)
{
    uint32_t n = m->ndense ? m->ndense : 256;
    while (n <= k)
        n *= 2;
    uint64_t *d = realloc(m->dense, (size_t)n * sizeof *d);
    if (!d)
        return -1;
    memset(d + m->ndense, 0, (size_t)(n - m->ndense) * sizeof *d);
    m->dense = d;
    m->ndense = n;
    return 0;
}

static int rehash(rp_names_t *m, uint32_t cap)
{
    uint64_t *keys = calloc(cap, sizeof *keys), *vals = calloc(cap, sizeof *vals);
    uint8_t *used = calloc(cap, 1);
    if (!keys || !vals || !used) {
        free(keys), free(vals), free(used);
        return -1;
    }
    uint32_t mask = cap - 1;
    for (uint32_t j = 0; m->mask && j <= m->mask; j++) {
        if (!m->used[j])
            continue;
        uint32_t i = (uint32_t)mix(m->keys[j]) & mask;
        while (used[i])
            i = (i + 1) & mask;
        used[i] = 1, keys[i] = m->keys[j], vals[i] = m->vals[j];
    }
    free(m->keys), free(m->vals), free(m->used);
    m->keys = keys, m->vals = vals, m->used = used, m->mask = mask;
    return 0;
}

int rp_names_put(rp_names_t *m, uint64_t k, uint64_t v)
{
    if (k < DENSE_MAX && v != UINT64_MAX) {
        if (k >= m->ndense && grow_dense(m, k))
            return -1;
        uint64_t old = m->dense[k];
        if (old && old - 1 != k)
            m->changed--;
        m->dense[k] = v + 1;
        if (v != k)
            m->changed++;
        return 0;
    }
    if ((m->n + 1) * 2 > (m->mask ? m->mask + 1 : 0) && rehash(m, m->mask ? (m->mask + 1) * 2 : 64))
        return -1;
    uint32_t i = (uint32_t)mix(k) & m->mask;
    while (m->used[i] && m->keys[i] != k)
        i = (i + 1) & m->mask;
    if (m->used[i]) {
        if (m->vals[i] != k)
            m->changed--;
    } else {
        m->used[i] = 1, m->keys[i] = k, m->n++;
    }
    m->vals[i] = v;
    if (v != k)
        m->changed++;
    return 0;
}

void rp_names_del(rp_names_t *m, uint64_t k)
{
    if (k < m->ndense) {
        uint64_t old = m->dense[k];
        if (old && old - 1 != k)
            m->changed--;
        m->dense[k] = 0;
        return;
    }
    if (!m->mask)
        return;
    uint32_t i = (uint32_t)mix(k) & m->mask;
    while (m->used[i] && m->keys[i] != k)
        i = (i + 1) & m->mask;
    if (!m->used[i])
        return;
    if (m->vals[i] != k)
        m->changed--;
    m->used[i] = 0;
    m->n--;
    /* backward-shift deletion keeps every probe chain unbroken */
    for (uint32_t j = (i + 1) & m->mask; m->used[j]; j = (j + 1) & m->mask) {
        uint32_t home = (uint32_t)mix(m->keys[j]) & m->mask;
        if (((j - home) & m->mask) >= ((j - i) & m->mask)) {
            m->used[i] = 1, m->keys[i] = m->keys[j], m->vals[i] = m->vals[j];
            m->used[j] = 0;
            i = j;
        }
    }
}

void rp_names_free(rp_names_t *m)
{
    free(m->dense), free(m->keys), free(m->vals), free(m->used);
    memset(m, 0, sizeof *m);
}

rp_names_t *rp_ns(rp_exec_t *x, unsigned gt)
{
    rp_state_t *st = x->st;
    uint8_t scope = gt < W15_GROUP_TYPE_COUNT_ ? rp_scope[gt] : 0;
    rp_ctx_t *c = x->ctx;
    if (scope == RP_SCOPE_SHARED)
        return c ? &c->share->ns[gt] : &st->noctx_share.ns[gt];
    if (scope == RP_SCOPE_CONTEXT)
        return c ? &c->ns[gt] : &st->noctx_ns[gt];
    return &st->ws[gt < W15_GROUP_TYPE_COUNT_ ? gt : 0];
}
