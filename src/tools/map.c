/* map.c -- hash map uint64 -> dense index (see map.h). */
#include "map.h"

#include <stdlib.h>
#include <string.h>

static size_t map_hash(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    return (size_t)k;
}

long w15t_map_get(const w15t_map_t *m, uint64_t key)
{
    if (!m->cap)
        return -1;
    size_t mask = m->cap - 1;
    for (size_t i = map_hash(key) & mask;; i = (i + 1) & mask) {
        if (!m->vals[i])
            return -1;
        if (m->keys[i] == key)
            return (long)m->vals[i] - 1;
    }
}

static int map_grow(w15t_map_t *m)
{
    size_t ncap = m->cap ? m->cap * 2 : 64;
    uint64_t *nk = calloc(ncap, sizeof *nk);
    uint32_t *nv = calloc(ncap, sizeof *nv);
    if (!nk || !nv) {
        free(nk);
        free(nv);
        return -1;
    }
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->vals[i])
            continue;
        size_t j = map_hash(m->keys[i]) & (ncap - 1);
        while (nv[j])
            j = (j + 1) & (ncap - 1);
        nk[j] = m->keys[i];
        nv[j] = m->vals[i];
    }
    free(m->keys);
    free(m->vals);
    m->keys = nk;
    m->vals = nv;
    m->cap = ncap;
    return 0;
}

long w15t_map_put(w15t_map_t *m, uint64_t key, int *added)
{
    *added = 0;
    long got = w15t_map_get(m, key);
    if (got >= 0)
        return got;
    if (m->n >= UINT32_MAX - 1)
        return -1;
    if ((m->n + 1) * 2 > m->cap && map_grow(m) < 0)
        return -1;
    size_t mask = m->cap - 1;
    size_t i = map_hash(key) & mask;
    while (m->vals[i])
        i = (i + 1) & mask;
    m->keys[i] = key;
    m->vals[i] = (uint32_t)(m->n + 1);
    *added = 1;
    return (long)m->n++;
}

void w15t_map_free(w15t_map_t *m)
{
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof *m);
}
