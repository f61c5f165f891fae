/* map.h -- a small open-addressing hash map uint64 -> dense index.
 *
 * Owns: mapping sparse keys (a trace's function and group indices, thread
 * ids, context handles) to dense indices 0, 1, 2, ... in order of first
 * insertion, so that callers keep their per-key records in plain arrays.
 * May use: libc (calloc, free).  Must never use: the output buffer, the
 * trace reader; it never prints.
 */
#ifndef W15_TOOLS_MAP_H
#define W15_TOOLS_MAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct w15t_map {
    uint64_t *keys;
    uint32_t *vals; /* dense index + 1; 0 = empty slot */
    size_t cap;     /* power of two */
    size_t n;       /* entries */
} w15t_map_t;

/* Dense index of `key`, or -1.  A zeroed map is an empty map.  */
long w15t_map_get(const w15t_map_t *m, uint64_t key);
/* Dense index of `key`, adding it (as index m->n) when absent; *added is set
 * to 1 when it was added.  Returns -1 when out of memory. */
long w15t_map_put(w15t_map_t *m, uint64_t key, int *added);
/* Frees the arrays and leaves an empty map. */
void w15t_map_free(w15t_map_t *m);

#endif
