/* guard.c -- reads of the program's memory that cannot crash the process
 * (guard.h explains the mechanism).
 *
 * The state is the calling thread's w15_thread_t.guard: the sigjmp_buf of
 * the read in progress and its armed range.  Every field the signal
 * handler reads is written before `armed` is set and after it is cleared,
 * with compiler barriers between (the handler runs on the same thread: no
 * memory ordering beyond the compiler's is needed).
 *
 * A thread without tracer state (w15_tls NULL: not a GL thread of ours)
 * reads unguarded; the tracer reads program memory only inside wrappers,
 * where it exists. */
#define _GNU_SOURCE
#include "guard.h"
#include "thread.h"

#include <errno.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

typedef struct w15_guard {
    sigjmp_buf env;
    uintptr_t lo, hi;          /* armed range, whole pages: [lo, hi) */
    volatile sig_atomic_t armed;
} w15_guard_t;

_Static_assert(sizeof(w15_guard_t) <= W15_GUARD_STATE, "W15_GUARD_STATE (thread.h) too small");
_Static_assert(_Alignof(w15_guard_t) <= 16, "w15_thread_t.guard is 16-byte aligned");

#if defined(__SANITIZE_ADDRESS__)
#define W15_GUARD_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define W15_GUARD_ASAN 1
#endif
#endif

#define PAGE_ ((uintptr_t)4096)

static inline w15_guard_t *guard_of(w15_thread_t *t)
{
    return (w15_guard_t *)(void *)t->guard;
}

static inline void arm(w15_guard_t *g, const void *p, size_t n)
{
    uintptr_t a = (uintptr_t)p;
    uintptr_t end = n > UINTPTR_MAX - a ? UINTPTR_MAX : a + n;
    g->lo = a & ~(PAGE_ - 1);
    g->hi = end > UINTPTR_MAX - (PAGE_ - 1) ? UINTPTR_MAX : (end + PAGE_ - 1) & ~(PAGE_ - 1);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    g->armed = 1;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
}

static inline void disarm(w15_guard_t *g)
{
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    g->armed = 0;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
}

#ifdef W15_GUARD_ASAN
/* Sanitizer builds: the program may hand GL memory ASan considers freed or
 * foreign; plain loops that ASan does not instrument (and that the
 * compiler cannot turn into calls of the intercepted memcpy/strnlen). */
__attribute__((no_sanitize("address"), noinline)) static void raw_copy(void *dst, const void *src, size_t n)
{
    volatile const unsigned char *s = src;
    unsigned char *d = dst;
    for (size_t i = 0; i < n; i++)
        d[i] = s[i];
}
__attribute__((no_sanitize("address"), noinline)) static size_t raw_strnlen(const char *str, size_t max)
{
    volatile const char *s = str;
    size_t n = 0;
    while (n < max && s[n])
        n++;
    return n;
}
__attribute__((no_sanitize("address"), noinline)) static int raw_equal(const void *p, const void *q, size_t n)
{
    volatile const unsigned char *a = p;
    const unsigned char *b = q;
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i])
            return 0;
    return 1;
}
#else
#define raw_copy memcpy
#define raw_strnlen strnlen
#define raw_equal(p, q, n) (memcmp((p), (q), (n)) == 0)
#endif

/* Run STMT with [lo, lo + n) armed, in the calling function's frame (the
 * sigsetjmp point must stay live while STMT runs): 0, or -1 when a read in
 * it faulted.  Threads without tracer state run STMT unguarded. */
#define GUARDED(lo, n, STMT)                                                                                \
    ({                                                                                                      \
        int r_ = 0;                                                                                         \
        w15_thread_t *t_ = w15_tls;                                                                         \
        if (!t_) {                                                                                          \
            STMT;                                                                                           \
        } else {                                                                                            \
            w15_guard_t *g_ = guard_of(t_);                                                                 \
            int e_ = errno;                                                                                 \
            if (sigsetjmp(g_->env, 0)) {                                                                    \
                errno = e_;                                                                                 \
                r_ = -1;                                                                                    \
            } else {                                                                                        \
                arm(g_, (lo), (n));                                                                         \
                STMT;                                                                                       \
                disarm(g_);                                                                                 \
            }                                                                                               \
        }                                                                                                   \
        r_;                                                                                                 \
    })

int w15_guard_copy(void *dst, const void *src, size_t n)
{
    if (!n)
        return 0;
    return GUARDED(src, n, raw_copy(dst, src, n));
}

int w15_guard_call(const void *lo, size_t n, void (*fn)(void *arg), void *arg)
{
    return GUARDED(lo, n, fn(arg));
}

int w15_guard_feed(const void *src, size_t n, void *scratch, size_t scratch_n,
                   void (*fn)(void *arg, const void *bytes, size_t k), void *arg)
{
    if (!n)
        return 0;
#ifdef W15_GUARD_ASAN
    for (size_t off = 0; off < n; off += scratch_n) {
        size_t k = n - off < scratch_n ? n - off : scratch_n;
        if (w15_guard_copy(scratch, (const unsigned char *)src + off, k))
            return -1;
        fn(arg, scratch, k);
    }
    return 0;
#else
    (void)scratch;
    (void)scratch_n;
    return GUARDED(src, n, fn(arg, src, n));
#endif
}

int w15_guard_equal(const void *p, const void *q, size_t n)
{
    if (!n)
        return 1;
    volatile int eq = 0;
    if (GUARDED(p, n, eq = raw_equal(p, q, n)))
        return -1;
    return eq;
}

size_t w15_guard_strnlen(const char *s, size_t max)
{
    volatile size_t len = 0;
    if (GUARDED(s, max, len = raw_strnlen(s, max)))
        return (size_t)-1;
    return len;
}

/* Not a canonical x86-64 address (bits 63..47 differ). */
static inline int wild(uintptr_t x)
{
    uintptr_t top = (uintptr_t)((uint64_t)x >> 47);
    return top != 0 && top != 0x1ffff;
}

int w15_guard_fault(int sig, siginfo_t *si, void *uc)
{
    if ((sig != SIGSEGV && sig != SIGBUS) || !si || si->si_code <= 0)
        return 0; /* not a fault the kernel raised (kill, sigqueue, raise) */
    w15_thread_t *t = w15_tls;
    if (!t)
        return 0;
    w15_guard_t *g = guard_of(t);
    if (!g->armed)
        return 0;
    uintptr_t a = (uintptr_t)si->si_addr;
    /* x86-64 reports a non-canonical address (a garbage pointer) as a
     * general protection fault with si_addr 0 (SI_KERNEL): claim it when
     * the armed range reaches outside the canonical half it started in */
    int noncanonical = a == 0 && si->si_code == SI_KERNEL &&
                       (wild(g->lo) || wild(g->hi - 1) || (g->lo >> 47) != ((g->hi - 1) >> 47));
    if (!noncanonical && (a < g->lo || a >= g->hi))
        return 0;
    g->armed = 0;
    if (uc) {
        /* back to the mask the thread had when it faulted (the kernel added
         * the signal and the handler's sa_mask for the handler) */
        int e = errno;
        /* the system call itself: maps.c interposes sigprocmask (it keeps
         * SIGSEGV out of the kernel's mask, with a per-thread record) */
        syscall(SYS_rt_sigprocmask, SIG_SETMASK, &((ucontext_t *)uc)->uc_sigmask, NULL, _NSIG / 8);
        errno = e;
    }
    siglongjmp(g->env, 1);
}
