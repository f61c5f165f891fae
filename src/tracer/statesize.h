/* statesize.h -- how many values a getter whose output depends on GL
 * object state (not on its arguments) writes, asked of GL with queries that
 * cannot raise a GL error, whatever the program's call did.  May use
 * context and resolve.  Must never use record, timing or thread: COMPSIZE
 * helpers (compsize.c) ask it. */
#ifndef W15_STATESIZE_H
#define W15_STATESIZE_H
#include <stddef.h>
#include <stdint.h>

/* glGetUniform*v(program, location, params): the components of the uniform
 * at `location` of `program` (an array's element: one; a mat4 16, a sampler
 * 1), found among the program's active uniforms.  Asked only of a linked
 * program outside glBegin/glEnd, so no query raises an error; 0 when the
 * program is not one, not linked, or has no uniform at that location (GL
 * refuses the call and writes nothing), or the type is not known. */
size_t w15_uniform_components(uint32_t program, int64_t location);
/* After every LINK command (glLinkProgram, glProgramBinary,
 * glCreateShaderProgram*, any thread, success or not): the uniform types
 * w15_uniform_components remembered may have changed. */
void w15_statesize_linked(void);
/* glGetPixelMap*v(map, values): GL_PIXEL_MAP_*_SIZE of `map`, asked only
 * in a context with the legacy features, outside glBegin/glEnd; 0 for
 * another map (GL refuses it) or another context. */
size_t w15_pixel_map_values(uint32_t map);
/* glGetMap*v(target, query, v): the values of an evaluator's GL_COEFF
 * (its order(s), asked with GL_ORDER, times the target's components),
 * GL_ORDER (1 or 2) or GL_DOMAIN (2 or 4), asked as w15_pixel_map_values
 * asks; 0 for another target or query. */
size_t w15_eval_map_values(uint32_t target, uint32_t query);

#endif
