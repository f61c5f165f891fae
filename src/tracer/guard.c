/* guard.c -- reads of the program's memory that cannot crash the process
 * (guard.h).
 *
 * PLACEHOLDER (lead, scaffolding for issue 8): a plain copy until the guarded
 * implementation lands; w15_guard_fault never claims a fault yet. */
#include "guard.h"

#include <string.h>

int w15_guard_copy(void *dst, const void *src, size_t n)
{
    memcpy(dst, src, n);
    return 0;
}

int w15_guard_fault(int sig, siginfo_t *si, void *uc)
{
    (void)sig;
    (void)si;
    (void)uc;
    return 0;
}
