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
