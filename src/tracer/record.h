/* record.h -- the interface between the generated wrappers (gen/wrappers.c)
 * and the tracer runtime (src/tracer/).  Every generated wrapper has this
 * shape, and nothing else:
 *
 *   W15_EXPORT GLenum APIENTRY glFoo(GLenum a, const GLint *b)
 *   {
 *       w15_slot_t s[2];                 // at least 1 element
 *       w15_callctx_t c;
 *       s[0].u = a; s[1].p = b;          // pack every argument
 *       w15_pre(&c, W15F_glFoo, s);      // records what is known before the call
 *       GLenum r = ((PFN_glFoo)W15_REAL(W15F_glFoo))(a, b);
 *       w15_slot_t rs; rs.u = r;         // only when the result is not void
 *       w15_post(&c, s, &rs);            // outputs, result, extras; ends the call
 *       return r;
 *   }
 *
 * Packing: integer types of any width are stored sign- or zero-extended in
 * .u/.i as their C type dictates, GLfloat in .f, GLdouble in .d, pointers,
 * handles and callbacks in .p.
 */
#ifndef W15_RECORD_H
#define W15_RECORD_H

#include <stddef.h>
#include <stdint.h>

#define W15_EXPORT __attribute__((visibility("default")))

typedef union w15_slot {
    uint64_t u;
    int64_t i;
    double d;
    float f;
    const void *p;
} w15_slot_t;

struct w15_thread;

/* State carried from w15_pre to w15_post on the wrapper's stack. */
typedef struct w15_callctx {
    struct w15_thread *t; /* NULL when this call is not recorded */
    uint32_t id;          /* function index */
    uint32_t state;       /* runtime-private */
    uint64_t t0;          /* timestamp at entry, when timing is on */
} w15_callctx_t;

/* Real entry points, resolved lazily.  w15_real_ptr[id] is NULL until the
 * first call; w15_resolve never returns NULL (a function the driver does not
 * have resolves to a stub that returns 0, with one warning on stderr). */
extern void *w15_real_ptr[];
void *w15_resolve(uint32_t id);
#define W15_REAL(id) (__builtin_expect(w15_real_ptr[id] != 0, 1) ? w15_real_ptr[id] : w15_resolve(id))

/* Called by every generated wrapper; never fail, never change errno. */
void w15_pre(w15_callctx_t *c, uint32_t id, const w15_slot_t *args);
void w15_post(w15_callctx_t *c, const w15_slot_t *args, const w15_slot_t *ret);

/* Our wrapper for a name (the address of the exported function), or NULL.
 * Generated (gen/wrappers.c): a table parallel to w15_funcs. */
extern void *const w15_wrapper_ptr[];

#endif
