/* tracefile.c -- the trace file's name and first call (tracefile.h). */
#define _GNU_SOURCE
#include "tracefile.h"
#include "config.h"
#include "log.h"

#include "wip15/trace_env.h"

#include <errno.h>
#include <string.h>
#include <stdatomic.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "funcs.h"

static char path_buf[PATH_MAX];
static char wtf_path_buf[PATH_MAX + 16];

const char *w15_tracefile_path(void)
{
    return path_buf;
}

const char *w15_tracefile_wtf_path(void)
{
    return wtf_path_buf;
}

static const char *program_name(void)
{
    extern char *program_invocation_short_name;
    const char *p = program_invocation_short_name;
    return p && *p ? p : "trace";
}

static int ends_with(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && strcmp(s + a - b, suf) == 0;
}

/* "<stem><suffix>" where the stem is `path` without ".wip15". */
static void derive(char *out, size_t n, const char *path, const char *mid, const char *suffix)
{
    size_t l = strlen(path);
    if (ends_with(path, ".wip15"))
        l -= 6;
    snprintf(out, n, "%.*s%s%s", (int)l, path, mid, suffix);
}

int w15_tracefile_create(void)
{
    char base[PATH_MAX];
    if (w15_cfg.output && *w15_cfg.output)
        snprintf(base, sizeof base, "%s", w15_cfg.output);
    else
        snprintf(base, sizeof base, "%s.wip15", program_name());
    int keep_ext = ends_with(base, ".wip15");
    for (int i = 0; i < 1000; i++) {
        char mid[16] = "";
        if (i)
            snprintf(mid, sizeof mid, ".%d", i);
        derive(path_buf, sizeof path_buf, base, mid, keep_ext ? ".wip15" : "");
        if (!keep_ext && i)
            snprintf(path_buf, sizeof path_buf, "%s%s", base, mid);
        derive(wtf_path_buf, sizeof wtf_path_buf, path_buf, "", ".wtf-trace");
        if (w15_cfg.timing != W15_TIMING_OFF && access(wtf_path_buf, F_OK) == 0)
            continue;
        int fd = open(path_buf, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (fd >= 0)
            return fd;
        if (errno != EEXIST) {
            w15_msg("cannot create trace file %s: %s; not recording", path_buf, strerror(errno));
            return -1;
        }
    }
    w15_msg("cannot create trace file %s: %s.1 ... %s.999 exist too; not recording", base, base, base);
    return -1;
}

int w15_tracefile_put_begin(w15_buf_t *b)
{
    char args[8192];
    size_t alen = 0;
    int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        ssize_t r;
        while (alen < sizeof args && (r = read(fd, args + alen, sizeof args - alen)) > 0)
            alen += (size_t)r;
        close(fd);
    }
    uint32_t nargs = 0;
    for (size_t i = 0; i < alen; i++)
        nargs += args[i] == 0;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t unix_ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
    const char *prog = alen ? args : program_name();
    const char *wtf = w15_cfg.timing != W15_TIMING_OFF ? wtf_path_buf : "";
    if (w15_buf_reserve(b, 64 + 2 * alen + 8 * nargs + strlen(prog) + strlen(wtf) + 32))
        return -1;
    w15_put_u8(b, W15_OP_CALL);
    w15_put_u32(b, W15F_wip15TraceBegin);
    w15_put_string(b, prog, (uint32_t)strlen(prog));
    w15_put_u32(b, nargs);
    for (size_t i = 0, s = 0; i < alen; i++) {
        if (args[i] == 0) {
            w15_put_string(b, args + s, (uint32_t)(i - s));
            s = i + 1;
        }
    }
    w15_put_uvari(b, (uint64_t)getpid());
    w15_put_uvari(b, unix_ns);
    w15_put_string(b, W15_TRACER_VERSION, (uint32_t)strlen(W15_TRACER_VERSION));
    w15_put_string(b, wtf, (uint32_t)strlen(wtf));
    w15_put_u32(b, 0);
    b->committed = b->len;
    return 0;
}

static char status_path[2 * PATH_MAX + 8]; /* the trace's absolute path, once reported */

static int status_ok; /* the trace's start line is in the status file */

/* Append one line to the status file (trace_env.h): one write(2) with
 * O_APPEND, so the lines of several processes never mix.  0, or -1 when
 * it could not be written. */
static int status_line(const char *line, size_t n)
{
    if (!w15_cfg.status_traces)
        return -1;
    /* (O_CREAT: the root's directory is there until it exits) */
    int fd = open(w15_cfg.status_traces, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0)
        return -1; /* the root has exited, or this process may not write there (a sandbox) */
    ssize_t r = write(fd, line, n);
    close(fd);
    return r == (ssize_t)n ? 0 : -1;
}

int w15_tracefile_reported(void)
{
    if (!w15_cfg.launched || !status_ok)
        return 0;
    if (w15_cfg.root_pid == getpid())
        return 1;
    /* another process: the root reports it if it has not exited yet */
    struct stat st;
    return w15_cfg.status_traces && stat(w15_cfg.status_traces, &st) == 0;
}

/* ---- the root's summary (async-signal-safe: it also runs in a fatal
 * signal's handler) ---- */

static char sum_in[1 << 20]; /* the status file (bss: no memory until used) */
static char sum_line[2 * PATH_MAX + 512];
static size_t sum_len;

static void sum_put(const char *s)
{
    while (*s && sum_len < sizeof sum_line - 1)
        sum_line[sum_len++] = *s++;
}

static void sum_putn(const char *s, size_t n)
{
    while (n-- && sum_len < sizeof sum_line - 1)
        sum_line[sum_len++] = *s++;
}

static void sum_uint(unsigned u)
{
    char d[16];
    int n = 0;
    do
        d[n++] = (char)('0' + u % 10);
    while ((u /= 10) && n < (int)sizeof d);
    while (n)
        sum_putn(&d[--n], 1);
}

static void sum_flush(void)
{
    sum_line[sum_len++] = '\n';
    ssize_t r = write(2, sum_line, sum_len);
    (void)r;
    sum_len = 0;
}

/* The next line of buf[*at..n) (its length; *at moves past it), or -1. */
static ssize_t next_line(const char *buf, size_t n, size_t *at, const char **line)
{
    if (*at >= n)
        return -1;
    *line = buf + *at;
    const char *e = memchr(*line, W15_STATUS_EOL[0], n - *at);
    size_t len = e ? (size_t)(e - *line) : n - *at;
    *at += len + (e ? 1 : 0);
    return (ssize_t)len;
}

void w15_tracefile_summary(int sig)
{
    static _Atomic int done;
    if (!w15_cfg.launched || w15_cfg.root_pid != getpid() || atomic_exchange(&done, 1))
        return;
    int e = errno;
    size_t n = 0;
    if (w15_cfg.status_traces) {
        int fd = open(w15_cfg.status_traces, O_RDONLY | O_CLOEXEC);
        ssize_t k = 1;
        while (fd >= 0 && n < sizeof sum_in && (k = read(fd, sum_in + n, sizeof sum_in - n)) != 0) {
            if (k < 0 && errno != EINTR)
                break;
            n += k > 0 ? (size_t)k : 0;
        }
        if (fd >= 0)
            close(fd);
        unlink(w15_cfg.status_traces);
        rmdir(w15_cfg.status_dir);
    }
    /* one line per trace, "!PATH<TAB>REASON" for an incomplete one, "?"
     * for a process whose tracer could not start */
    const size_t il = sizeof W15_STATUS_INCOMPLETE - 1;
    int ntraces = 0, failed = 0;
    const char *l;
    ssize_t len;
    for (size_t at = 0; (len = next_line(sum_in, n, &at, &l)) >= 0;) {
        if (len == 1 && l[0] == W15_STATUS_FAILED[0]) {
            failed = 1;
            continue;
        }
        if (!len || !strncmp(l, W15_STATUS_INCOMPLETE, il))
            continue;
        const char *why = NULL, *m;
        ssize_t wl = 0, ml;
        for (size_t at2 = at; !why && (ml = next_line(sum_in, n, &at2, &m)) >= 0;)
            if (ml > (ssize_t)il + len && !strncmp(m, W15_STATUS_INCOMPLETE, il) &&
                !memcmp(m + il, l, (size_t)len) && m[il + len] == '\t')
                why = m + il + len + 1, wl = ml - (ssize_t)il - len - 1;
        sum_put("wip15: trace ");
        if (why) {
            sum_putn(l, (size_t)len);
            sum_put(" is INCOMPLETE: ");
            sum_putn(why, (size_t)wl);
            sum_put("; it holds what was recorded before");
        } else {
            sum_put("written to ");
            sum_putn(l, (size_t)len);
        }
        sum_flush();
        ntraces++;
    }
    const char *name = w15_cfg.root_name ? w15_cfg.root_name : "the program";
    if (sig > 0) {
        const char *d = sigdescr_np(sig);
        sum_put("wip15: ");
        sum_put(name);
        sum_put(" was killed by signal ");
        sum_uint((unsigned)sig);
        sum_put(" (");
        sum_put(d ? d : "?");
        sum_put(ntraces ? "); the trace holds everything up to then" : ")");
        sum_flush();
    }
    if (!ntraces && !w15_cfg.quiet) {
        sum_put("wip15: no trace was written: ");
        if (failed) {
            sum_put("the tracer could not start in ");
            sum_put(name);
            sum_put(" (its message above says why)");
        } else {
            sum_put(name);
            sum_put(" made no GL call");
        }
        sum_flush();
    }
    errno = e;
}

void w15_tracefile_report(void)
{
    if (!w15_cfg.status_dir || status_path[0])
        return;
    char cwd[PATH_MAX];
    if (path_buf[0] != '/' && getcwd(cwd, sizeof cwd))
        snprintf(status_path, sizeof status_path, "%s/%s", cwd, path_buf);
    else
        snprintf(status_path, sizeof status_path, "%s", path_buf);
    char line[sizeof status_path + 8];
    int n = snprintf(line, sizeof line, "%s" W15_STATUS_EOL, status_path);
    if (n > 0 && (size_t)n < sizeof line)
        status_ok = status_line(line, (size_t)n) == 0;
}

void w15_tracefile_report_failed(void)
{
    status_line(W15_STATUS_FAILED W15_STATUS_EOL, sizeof W15_STATUS_FAILED W15_STATUS_EOL - 1);
}

void w15_tracefile_report_end(const char *why)
{
    if (!status_path[0] || !why)
        return;
    char line[sizeof status_path + 320];
    int n = snprintf(line, sizeof line, W15_STATUS_INCOMPLETE "%s\t%s" W15_STATUS_EOL, status_path, why);
    if (n > 0 && (size_t)n >= sizeof line) { /* a reason too long: cut, the line still ends */
        n = (int)sizeof line - 1;
        line[n - 1] = W15_STATUS_EOL[0];
    }
    if (n > 0)
        status_line(line, (size_t)n);
}
