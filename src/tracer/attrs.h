/* attrs.h -- compiler attributes every file of src/tracer uses: symbol
 * visibility (only the wrappers and interposers are exported), branch
 * hints, forced inlining for the fast path.  Owns nothing else; uses and
 * must use nothing (it is included everywhere, generated code too). */
#ifndef W15_ATTRS_H
#define W15_ATTRS_H

#define W15_EXPORT __attribute__((visibility("default")))
#define W15_HIDDEN __attribute__((visibility("hidden")))
#define W15_LIKELY(x) __builtin_expect(!!(x), 1)
#define W15_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define W15_INLINE static inline __attribute__((always_inline))
/* Out of line and out of the way: the general path of a fast-shape
 * wrapper, so the fast path needs no stack frame for the slots. */
#define W15_COLD __attribute__((noinline, cold))
/* Code that runs before a preloaded AddressSanitizer runtime has set
 * itself up: while it initialises it calls dlsym, which is ours
 * (resolve.c), and instrumented code would touch shadow memory that does
 * not exist yet.  No effect in builds without ASan. */
#define W15_NO_ASAN __attribute__((no_sanitize("address")))

#endif
