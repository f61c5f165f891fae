/* check.h -- the checks of every C test of wip15 (tests/README.md).
 *
 * Owns: counting checks and failures, the failure line, the summary and the
 * exit status.  Uses: the C library only.  Never: knowledge of wip15 (byte
 * builders, fixtures and runners stay in each test directory).
 *
 * Header only, for a test program made of one .c file (plus headers):
 * include it once.  Every failure prints one line on stderr,
 *     FAIL file.c:123: [case] message
 * ("[case]" when RUN or check_case names one) and the test goes on;
 * check_summary() at the end gives the exit status (0 all passed, 1 not).
 *
 *   CHECK(cond)            a check; the message is the expression
 *   CHECKF(cond, fmt, ...) a check with a printf-style message
 *   CHECK_EQ(a, b)         integers (compared as unsigned long long), both printed
 *   CHECK_STR(a, b)        strings (NULL allowed), both printed
 *   CHECK_HAS(hay, needle) `hay` contains `needle`
 *   REQUIRE(cond)          a check that returns from the (void) function on failure
 *   RUN(fn)                runs `void fn(void)` as a case named fn, prints "fn  ok|FAILED"
 *   check_summary()        prints "N checks, M failed" on stdout; returns the exit status
 *
 * A program may define CHECK_MAX_FAILURES (> 0) before including this: it
 * exits with status 1 after that many failures (a broken input would
 * otherwise print thousands of lines).  Each CHECK evaluates its arguments
 * once. */
#ifndef W15_CHECK_H
#define W15_CHECK_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef CHECK_MAX_FAILURES
#define CHECK_MAX_FAILURES 0
#endif

static int check_count;             /* checks done */
static int check_failed;            /* of which failed */
static const char *check_case = ""; /* the case named in failure lines */

/* Counts one check; prints the failure line when !ok.  Returns ok. */
__attribute__((format(printf, 4, 5))) static inline int check_at(int ok, const char *file, int line,
                                                                  const char *fmt, ...)
{
    check_count++;
    if (ok)
        return 1;
    check_failed++;
    fprintf(stderr, "FAIL %s:%d: ", file, line);
    if (check_case && *check_case)
        fprintf(stderr, "[%s] ", check_case);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    if (CHECK_MAX_FAILURES > 0 && check_failed >= CHECK_MAX_FAILURES) {
        fprintf(stderr, "FAIL: %d failures, giving up\n", check_failed);
        exit(1);
    }
    return 0;
}

#define CHECK(cond) check_at(!!(cond), __FILE__, __LINE__, "%s", #cond)
#define CHECKF(cond, ...) check_at(!!(cond), __FILE__, __LINE__, __VA_ARGS__)

#define CHECK_EQ(a, b)                                                                                                 \
    do {                                                                                                               \
        unsigned long long a_ = (unsigned long long)(a), b_ = (unsigned long long)(b);                                 \
        check_at(a_ == b_, __FILE__, __LINE__, "%s == %s (%llu vs %llu)", #a, #b, a_, b_);                             \
    } while (0)

#define CHECK_STR(a, b)                                                                                                \
    do {                                                                                                               \
        const char *a_ = (a), *b_ = (b);                                                                               \
        check_at(a_ && b_ && strcmp(a_, b_) == 0, __FILE__, __LINE__, "%s == %s (\"%s\" vs \"%s\")", #a, #b,           \
                 a_ ? a_ : "(null)", b_ ? b_ : "(null)");                                                              \
    } while (0)

#define CHECK_HAS(hay, needle)                                                                                         \
    do {                                                                                                               \
        const char *h_ = (hay), *n_ = (needle);                                                                        \
        check_at(h_ && n_ && strstr(h_, n_) != NULL, __FILE__, __LINE__, "\"%s\" does not contain \"%s\"",             \
                 h_ ? h_ : "(null)", n_ ? n_ : "(null)");                                                              \
    } while (0)

#define REQUIRE(cond)                                                                                                  \
    do {                                                                                                               \
        if (!check_at(!!(cond), __FILE__, __LINE__, "required: %s", #cond))                                            \
            return;                                                                                                    \
    } while (0)

#define RUN(fn)                                                                                                        \
    do {                                                                                                               \
        int before_ = check_failed;                                                                                    \
        check_case = #fn;                                                                                              \
        fn();                                                                                                          \
        check_case = "";                                                                                               \
        printf("%-44s %s\n", #fn, check_failed == before_ ? "ok" : "FAILED");                                          \
    } while (0)

/* Prints "N checks, M failed" (stdout); 0 when nothing failed, else 1. */
static inline int check_summary(void)
{
    printf("%d checks, %d failed\n", check_count, check_failed);
    fflush(stdout);
    return check_failed ? 1 : 0;
}

#endif
