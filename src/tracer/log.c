/* log.c -- messages on stderr (log.h). */
#include "log.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

int w15_log_quiet;

static void vmsg(const char *fmt, va_list ap)
{
    int e = errno;
    char line[1024];
    int n = snprintf(line, sizeof line, "wip15: ");
    int m = vsnprintf(line + n, sizeof line - (size_t)n - 1, fmt, ap);
    if (m < 0)
        m = 0;
    size_t len = (size_t)n + ((size_t)m < sizeof line - (size_t)n - 1 ? (size_t)m : sizeof line - (size_t)n - 2);
    line[len++] = '\n';
    ssize_t r = write(2, line, len);
    (void)r;
    errno = e;
}

void w15_msg(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmsg(fmt, ap);
    va_end(ap);
}

void w15_info(const char *fmt, ...)
{
    if (w15_log_quiet)
        return;
    va_list ap;
    va_start(ap, fmt);
    vmsg(fmt, ap);
    va_end(ap);
}
