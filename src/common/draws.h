/* draws.h -- what a draw command reads from the arrays: which parameters
 * hold its first vertex, counts, index type and indices, instances, base
 * vertex and instance, draw count and indirect commands, and the sizes of
 * vertex elements and indices.  Shared by the tracer (src/tracer/arrays.c:
 * which client memory a draw reads, to record it) and the replayer
 * (src/replay/mem.c: that the memory it gives GL covers what the draw
 * reads). */
#ifndef WIP15_DRAWS_H
#define WIP15_DRAWS_H

#include <stdint.h>

enum w15_draw_shape {
    W15_DRAW_NONE,             /* not a draw */
    W15_DRAW_ARRAYS,           /* first, count */
    W15_DRAW_ELEMENTS,         /* count, type, indices */
    W15_DRAW_MULTI_ARRAYS,     /* first[], count[], drawcount */
    W15_DRAW_MULTI_ELEMENTS,   /* count[], type, indices[], drawcount */
    W15_DRAW_INDIRECT_ARRAYS,  /* commands of 4 uint32: count, instances, first, baseinstance */
    W15_DRAW_INDIRECT_ELEMENTS,/* commands of 5 uint32: count, instances, firstindex, basevertex,
                                  baseinstance */
    W15_DRAW_ARRAY_ELEMENT,    /* glArrayElement(i) */
};

/* Parameter positions, -1 where the command has none. */
typedef struct w15_draw_desc {
    uint8_t shape; /* enum w15_draw_shape */
    int8_t first, count, type, indices, inst, bv, bi, drawcount, stride, maxcount, indirect;
    int8_t start, end; /* glDrawRangeElements' hint (GL may read all of it) */
    uint8_t modes; /* an array of modes (glMultiModeDraw*IBM), not a mode first */
} w15_draw_desc_t;

w15_draw_desc_t w15_draw_describe(uint32_t fn);

/* Client memory written again unchanged (docs/FORMAT.md
 * "wip15ClientMemorySame"): each thread keeps W15_CMEM_SLOTS slots, the
 * last wip15ClientMemory of W15_CMEM_MIN to W15_CMEM_MAX bytes written at
 * each slot (address, size, and the bytes or their XXH3-64): 1024 slots
 * for spans up to W15_CMEM_SMALL bytes, 64 for larger ones (a replayer
 * holds at most 64 MiB + 256 MiB a thread).  The tracer and every replayer
 * compute the same slot, so a replayer holds exactly the memory a
 * wip15ClientMemorySame names. */
#define W15_CMEM_SLOTS (1024 + 64)
#define W15_CMEM_MIN 256
#define W15_CMEM_SMALL ((uint64_t)64 << 10)
#define W15_CMEM_MAX ((uint64_t)4 << 20)

static inline uint32_t w15_cmem_slot(uint64_t address, uint64_t size)
{
    uint64_t h = address ^ (size * 0x9E3779B97F4A7C15ull); /* MurmurHash3's 64-bit finalizer */
    h ^= h >> 33;
    h *= 0xFF51AFD7ED558CCDull;
    h ^= h >> 33;
    h *= 0xC4CEB9FE1A85EC53ull;
    h ^= h >> 33;
    return size <= W15_CMEM_SMALL ? (uint32_t)(h >> 54) : 1024u + (uint32_t)(h >> 58);
}

/* Bytes of one index of `type` (GL_UNSIGNED_BYTE/SHORT/INT), 0 for another
 * type (GL refuses the draw). */
uint32_t w15_index_size(uint32_t type);

/* The index GL_PRIMITIVE_RESTART_FIXED_INDEX restarts at for indices of
 * `size` bytes: the largest such index. */
uint32_t w15_fixed_restart_index(uint32_t size);

/* Bytes of one element of a vertex array of `size` components (GL_BGRA:
 * 4) of `type`, packed types included; 0 when GL would refuse them. */
uint32_t w15_vertex_element_size(int32_t size, uint32_t type);

/* The smallest and largest of `count` indices of `size` bytes at p, the
 * value `skip` left out when `restart` (primitive restart).  1 with *lo
 * and *hi set, 0 when there is none. */
int w15_index_minmax(const void *p, uint32_t size, int64_t count, int restart, uint32_t skip, uint32_t *lo,
                     uint32_t *hi);

#endif
