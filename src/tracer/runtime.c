/* runtime.c -- life cycle of the tracer inside the traced process: the
 * library constructor, lazy start at the first GL call, failure, and the
 * final flush at exit. */
#define _GNU_SOURCE
#include "runtime.h"
#include "config.h"
#include "context.h"
#include "crash.h"
#include "decl.h"
#include "log.h"
#include "output.h"
#include "recorder.h"
#include "resolve.h"
#include "state.h"
#include "surfaces.h"
#include "thread.h"
#include "timing.h"
#include "tracefile.h"

#include <dlfcn.h>
#include <pthread.h>
#include <sys/syscall.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static pthread_mutex_t start_lock = PTHREAD_MUTEX_INITIALIZER;
static int started;      /* output opened in this process */
static pid_t start_pid;
static _Atomic int shut_down;

/* The trace file, its first operations, the timing file, the output
 * thread.  0, or -1 after printing why. */
static int start_output(void)
{
    int fd = w15_tracefile_create();
    if (fd < 0)
        return -1;
    const char *path = w15_tracefile_path();
    if (w15_output_open(fd, path))
        return -1;
    w15_buf_t *b;
    int r = w15_decl_start();
    if (r == 0) {
        b = w15_decl_lock();
        r = w15_tracefile_put_begin(b);
        w15_decl_unlock();
    }
    if (r) {
        w15_msg("out of memory starting the trace; not recording");
        return -1;
    }
    w15_tracefile_report();
    w15_info("tracing to %s", path);
    if (w15_cfg.timing != W15_TIMING_OFF)
        w15_timing_start(w15_tracefile_wtf_path(), path);
    return w15_output_run();
}

void w15_start(void)
{
    int e = errno;
    pthread_mutex_lock(&start_lock);
    if (atomic_load(&w15_state) != W15_ST_UNINIT) {
        pthread_mutex_unlock(&start_lock);
        errno = e;
        return;
    }
    if (w15_record_init()) {
        w15_fail("out of memory at start; not recording");
        w15_tracefile_report_failed();
        pthread_mutex_unlock(&start_lock);
        errno = e;
        return;
    }
    w15_context_init();
    if (start_output() != 0) {
        w15_tracefile_report_failed();
        atomic_store(&w15_state, W15_ST_OFF);
        pthread_mutex_unlock(&start_lock);
        errno = e;
        return;
    }
    w15_threads_set_records(w15_timing_on); /* timing started with the output */
    started = 1;
    start_pid = getpid();
    w15_crash_init();
    atomic_store(&w15_recording, w15_cfg.frame_first <= 0 ? 1 : 0);
    atomic_store(&w15_state, W15_ST_ON);
    pthread_mutex_unlock(&start_lock);
    errno = e;
}

void w15_shutdown(void)
{
    if (!started || getpid() != start_pid)
        return;
    if (atomic_exchange(&shut_down, 1))
        return;
    int e = errno;
    atomic_store(&w15_recording, 0);
    w15_threads_collect(1);
    w15_output_stop(!w15_tracefile_reported()); /* writes the queue, converting its timing records */
    w15_timing_stop();
    w15_surfaces_report();
    w15_tracefile_report_end(w15_fail_reason());
    atomic_store(&w15_state, W15_ST_OFF);
    errno = e;
}

static void at_exit(void)
{
    w15_shutdown();
    w15_tracefile_summary(0);
}

static void in_child(void)
{
    /* After fork the child stops tracing: it must never write into the
     * parent's file and has no output thread.  (An exec'd program starts
     * its own trace.) */
    if (started) {
        atomic_store(&w15_recording, 0);
        atomic_store(&w15_state, W15_ST_OFF);
        w15_output_forget();
        started = 0;
    }
}

__attribute__((constructor)) static void w15_init(void)
{
    w15_config_load();
    atexit(at_exit);
    pthread_atfork(NULL, NULL, in_child);
}

/* _exit and _Exit flush first (the normal exit path is the atexit
 * handler above). */
typedef void (*exit_fn)(int) __attribute__((noreturn));

static void call_real_exit(const char *name, int status) __attribute__((noreturn));
static void call_real_exit(const char *name, int status)
{
    exit_fn f = (exit_fn)w15_real_dlsym(RTLD_NEXT, name);
    if (f)
        f(status);
    for (;;)
        syscall(SYS_exit_group, status);
}

W15_EXPORT void _exit(int status)
{
    w15_shutdown();
    w15_tracefile_summary(0);
    call_real_exit("_exit", status);
}

W15_EXPORT void _Exit(int status)
{
    w15_shutdown();
    w15_tracefile_summary(0);
    call_real_exit("_Exit", status);
}
