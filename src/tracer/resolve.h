/* resolve.h -- the real entry points.  Owns w15_real_ptr (each function's
 * real address, resolved at its first call: dlsym(RTLD_NEXT), the loaded
 * GL/EGL/GLX libraries, their GetProcAddress), the interposed dlsym that
 * hands applications our wrappers, and the stub for functions nobody
 * provides.  May use log and the generated tables.  Must never use any
 * other module of src/tracer: everything that calls a real function uses
 * resolve, resolve calls no GL function itself. */
#ifndef W15_RESOLVE_H
#define W15_RESOLVE_H

#include <stdint.h>

#include "attrs.h"

/* Real entry points, resolved lazily.  w15_real_ptr[id] is NULL until the
 * first call; w15_resolve never returns NULL (a function the driver does not
 * have resolves to a stub that returns 0, with one warning on stderr). */
extern void *w15_real_ptr[] W15_HIDDEN;
void *w15_resolve(uint32_t id) W15_HIDDEN;
#define W15_REAL(id) (__builtin_expect(w15_real_ptr[id] != 0, 1) ? w15_real_ptr[id] : w15_resolve(id))

/* Our wrapper for a name (the address of the exported function), or NULL.
 * Generated (gen/wrappers.c): a table parallel to w15_funcs. */
extern void *const w15_wrapper_ptr[];

/* The real dlsym (the exported dlsym is ours). */
void *w15_real_dlsym(void *handle, const char *name);
/* Real function by name from the GL/EGL/GLX libraries (NULL if none). */
void *w15_find_real(const char *name, unsigned api);
/* Function index of a wrapper name we export, -1 otherwise. */
int w15_known(const char *name);

#endif
