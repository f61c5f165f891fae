/* args.h -- the values of command-line options.
 *
 * Owns: parsing option arguments shared by several commands: unsigned
 * numbers (decimal or 0x hex) and inclusive ranges "A-B", "A-", "-B", "A".
 * May use: libc only.  Must never use: stdio or the output buffer (the
 * caller reports a bad value with its own words), the trace reader.
 */
#ifndef W15_TOOLS_ARGS_H
#define W15_TOOLS_ARGS_H

#include <stdint.h>

/* Parse "A-B", "A-", "-B" or "A" into an inclusive range.  Returns 0 or -1. */
int w15t_parse_range(const char *s, uint64_t *lo, uint64_t *hi);
/* Parse an unsigned decimal (or 0x hex) number.  Returns 0 or -1. */
int w15t_parse_u64(const char *s, uint64_t *v);

#endif
