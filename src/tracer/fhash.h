/* fhash.h -- XXH3-64 (seed 0) of a byte sequence given in pieces: the
 * same digest as XXH3_64bits over the pieces put end to end, the bulk
 * hashed with AVX2 when the CPU has it (1.9 MB in ~0.07 ms instead of
 * ~0.13 ms on this project's machine; docs/PERFORMANCE.md "Frame
 * digests"); also the read-back and client-memory digests).  Owns
 * nothing but the hash state it allocates.  May use
 * nothing of the tracer.  Must never use anything else of it. */
#ifndef W15_FHASH_H
#define W15_FHASH_H

#include <stddef.h>
#include <stdint.h>

typedef struct w15_fhash w15_fhash_t;

/* A new state (NULL when out of memory), ready for w15_fhash_update. */
w15_fhash_t *w15_fhash_new(void);
void w15_fhash_free(w15_fhash_t *h);
/* Start again: the digest of nothing. */
void w15_fhash_reset(w15_fhash_t *h);
void w15_fhash_update(w15_fhash_t *h, const void *p, size_t n);
uint64_t w15_fhash_digest(const w15_fhash_t *h);
/* The digest of the n bytes at p in one piece (XXH3_64bits(p, n)). */
uint64_t w15_fhash_bytes(const void *p, size_t n);

#endif
