/* args.c -- option values (see args.h). */
#include "args.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int w15t_parse_u64(const char *s, uint64_t *v)
{
    if (!s || !*s || *s == '-' || *s == '+' || *s == ' ')
        return -1;
    char *end;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 0);
    if (errno || *end)
        return -1;
    *v = x;
    return 0;
}

int w15t_parse_range(const char *s, uint64_t *lo, uint64_t *hi)
{
    const char *dash = strchr(s, '-');
    if (!dash)
        return w15t_parse_u64(s, lo) == 0 ? (*hi = *lo, 0) : -1;
    char a[32], b[32];
    size_t la = (size_t)(dash - s), lb = strlen(dash + 1);
    if (la >= sizeof a || lb >= sizeof b || (la == 0 && lb == 0))
        return -1;
    memcpy(a, s, la);
    a[la] = 0;
    memcpy(b, dash + 1, lb + 1);
    *lo = 0;
    *hi = UINT64_MAX;
    if (la && w15t_parse_u64(a, lo) < 0)
        return -1;
    if (lb && w15t_parse_u64(b, hi) < 0)
        return -1;
    return *lo <= *hi ? 0 : -1;
}
