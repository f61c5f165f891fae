/* crash.c -- fatal signals (crash.h).
 *
 * Signals.  When tracing starts we install our handler for SIGSEGV, SIGBUS,
 * SIGILL, SIGFPE and SIGABRT, and for SIGTERM / SIGINT when the program has
 * left them at SIG_DFL.  The handler writes what is recorded with write(2)
 * (output.c and record.c, async-signal-safe) and then does exactly what would have
 * happened without us: it calls the program's handler, or restores the
 * default action and re-raises.
 *
 * sigaction() and signal() are interposed so a program that installs its
 * own handler for one of the fatal signals later keeps ours in front: we
 * remember its action (and return it as the old action when asked) and
 * chain to it (for a fault the program handles, its handler runs first and
 * recording goes on: see on_signal).  For SIGTERM/SIGINT/SIGHUP/SIGQUIT a
 * program handler decides how the program ends (exit() flushes): ours only
 * calls it, and flushes when the program's action is the default again
 * (it set SIG_DFL to re-raise, or SA_RESETHAND reset it: `timeout` sends
 * SIGINT twice, to the program and to its group).  SA_RESETHAND is emulated:
 * the kernel would reset ours.  A program that ignores one of these gets a
 * real SIG_IGN (an ignored signal never interrupts a system call, and stays
 * ignored across exec).
 */
#define _GNU_SOURCE
#include "crash.h"
#include "guard.h"
#include "maps.h"
#include "output.h"
#include "recorder.h"
#include "resolve.h"
#include "thread.h"
#include "timing.h"
#include "tracefile.h"

#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static const int fatal_sigs[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTERM, SIGINT, SIGHUP, SIGQUIT };

/* Signals that ask the program to end (kill, Ctrl-C, `timeout`, a closed
 * terminal): ours only while the program leaves them at their default. */
static int terminating(int sig)
{
    return sig == SIGTERM || sig == SIGINT || sig == SIGHUP || sig == SIGQUIT;
}
#define NSIGS_ (sizeof fatal_sigs / sizeof fatal_sigs[0])

static struct sigaction app_act[NSIG];
static volatile sig_atomic_t ours[NSIG]; /* our handler is installed for this signal */
static _Atomic int crash_done;
static pid_t crash_pid;

typedef int (*sigaction_fn)(int, const struct sigaction *, struct sigaction *);
static sigaction_fn real_sigaction_fn;

static void on_signal(int sig, siginfo_t *si, void *uc);

static int real_sigaction(int sig, const struct sigaction *a, struct sigaction *o)
{
    if (!real_sigaction_fn)
        real_sigaction_fn = (sigaction_fn)w15_real_dlsym(RTLD_NEXT, "sigaction");
    if (!real_sigaction_fn) {
        errno = ENOSYS;
        return -1;
    }
    return real_sigaction_fn(sig, a, o);
}

static int is_default(const struct sigaction *a)
{
    return !(a->sa_flags & SA_SIGINFO) && a->sa_handler == SIG_DFL;
}

static int is_ignore(const struct sigaction *a)
{
    return !(a->sa_flags & SA_SIGINFO) && a->sa_handler == SIG_IGN;
}

/* Our handler in front of the program's action *app (remembered in
 * app_act).  A handler of the program's keeps the flags that change what
 * the program sees while it runs (SA_RESTART: whether the interrupted call
 * restarts; SA_NODEFER: whether the signal is blocked during it, which a
 * handler leaving with longjmp relies on); SA_RESETHAND is ours to emulate
 * (on_signal).  A fault runs on the alternate stack, if any (a stack
 * overflow); a terminating signal, there only when the program asked. */
static int take(int sig, const struct sigaction *app)
{
    struct sigaction k;
    memset(&k, 0, sizeof k);
    k.sa_sigaction = on_signal;
    if (is_default(app) || is_ignore(app)) {
        k.sa_flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK;
        sigemptyset(&k.sa_mask);
    } else {
        k.sa_flags = SA_SIGINFO | (app->sa_flags & (SA_RESTART | SA_NODEFER | SA_ONSTACK));
        if (!terminating(sig))
            k.sa_flags |= SA_ONSTACK;
        k.sa_mask = app->sa_mask;
    }
    app_act[sig] = *app;
    if (real_sigaction(sig, &k, NULL) != 0)
        return -1;
    ours[sig] = 1;
    return 0;
}

/* Write everything recorded and stop recording: the process is about to
 * die.  Once per process. */
static void crash_flush(void)
{
    if (getpid() == crash_pid && !atomic_exchange(&crash_done, 1)) {
        w15_thread_t *self = w15_tls;
        int in_call = self ? w15_thread_hold(self) : 0;
        if (w15_output_crash_begin(self)) {
            if (self)
                w15_output_crash_append(self->buf.data, w15_record_crash_complete(self, in_call));
            /* nothing is recorded after this: the stream ends here */
            w15_output_crash_end();
        }
        w15_timing_crash();
    }
}

static void on_signal(int sig, siginfo_t *si, void *uc)
{
    int e = errno;
    /* A write to a page maps.c protects to see the program's writes through
     * a persistent mapping: handled there, the write retries. */
    if (sig == SIGSEGV && si && w15_maps_fault(si)) {
        errno = e;
        return;
    }
    /* A read of program memory the tracer guards (guard.c: an argument GL
     * would have rejected): it returns an error instead; does not return. */
    if ((sig == SIGSEGV || sig == SIGBUS) && si) {
        errno = e;
        w15_guard_fault(sig, si, uc);
    }
    /* a copy: SA_RESETHAND changes app_act before the handler runs */
    struct sigaction act = app_act[sig], *a = &act;
    int app_handles = ((a->sa_flags & SA_SIGINFO) && a->sa_sigaction) ||
                      (!(a->sa_flags & SA_SIGINFO) && a->sa_handler != SIG_DFL && a->sa_handler != SIG_IGN);
    /* A fault the program handles itself is not necessarily fatal: the JVM,
     * emulators and sandboxes take SIGSEGV as part of normal work and go on.
     * Their handler runs first and tracing continues; a handler that gives
     * up ends in abort(), _exit() or the default action, which flush.  A
     * terminating signal the program handles is its to act on (exit()
     * flushes).  Everything else (default action, SIGABRT, whose abort()
     * kills the process even when a handler returns) flushes first. */
    int fault = sig == SIGSEGV || sig == SIGBUS || sig == SIGILL || sig == SIGFPE;
    if (!(app_handles && (fault || terminating(sig))))
        crash_flush();
    if (app_handles && (a->sa_flags & SA_RESETHAND)) {
        /* what the kernel does on entry to such a handler: the next one
         * takes the default action (and finds ours in front to flush) */
        memset(&app_act[sig], 0, sizeof app_act[sig]);
        app_act[sig].sa_handler = SIG_DFL;
        sigemptyset(&app_act[sig].sa_mask);
    }
    if ((a->sa_flags & SA_SIGINFO) && a->sa_sigaction) {
        a->sa_sigaction(sig, si, uc);
    } else if (a->sa_handler == SIG_IGN && (terminating(sig) || sig == SIGABRT)) {
        /* ignored: nothing happens */
    } else if (a->sa_handler == SIG_DFL || a->sa_handler == SIG_IGN) {
        struct sigaction d;
        memset(&d, 0, sizeof d);
        d.sa_handler = SIG_DFL;
        sigemptyset(&d.sa_mask);
        real_sigaction(sig, &d, NULL);
        ours[sig] = 0;
        w15_tracefile_summary(sig); /* `wip15 trace`'s root: the default action ends it */
        /* a fault re-executes the instruction and dies; anything else is
         * re-raised and delivered when we return (it is blocked here) */
        if (!(si && si->si_code > 0 && (sig == SIGSEGV || sig == SIGBUS || sig == SIGILL || sig == SIGFPE)))
            syscall(SYS_tgkill, getpid(), syscall(SYS_gettid), sig);
    } else {
        a->sa_handler(sig);
    }
    errno = e;
}

void w15_crash_init(void)
{
    crash_pid = getpid();
    for (size_t i = 0; i < NSIGS_; i++) {
        int sig = fatal_sigs[i];
        struct sigaction old;
        if (real_sigaction(sig, NULL, &old) != 0)
            continue;
        if (is_ignore(&old))
            continue;
        take(sig, &old);
    }
}

W15_EXPORT int sigaction(int sig, const struct sigaction *act, struct sigaction *oldact)
{
    /* a terminating signal the program ignored is taken again when it
     * handles it or sets the default (after the tracer started) */
    int take_back = act && sig > 0 && sig < NSIG && terminating(sig) && crash_pid == getpid() &&
                    !is_ignore(act);
    if (sig <= 0 || sig >= NSIG || (!ours[sig] && !take_back))
        return real_sigaction(sig, act, oldact);
    struct sigaction prev;
    if (ours[sig])
        prev = app_act[sig];
    else if (real_sigaction(sig, NULL, &prev) != 0)
        return -1;
    if (act) {
        if (terminating(sig) && is_ignore(act)) {
            /* a real SIG_IGN (see the top of this file) */
            if (real_sigaction(sig, act, NULL) != 0)
                return -1;
            ours[sig] = 0;
        } else if (take(sig, act) != 0) {
            return -1;
        }
    }
    if (oldact)
        *oldact = prev;
    return 0;
}

W15_EXPORT sighandler_t signal(int sig, sighandler_t handler)
{
    int take_back = sig > 0 && sig < NSIG && terminating(sig) && crash_pid == getpid() && handler != SIG_IGN;
    if (sig <= 0 || sig >= NSIG || (!ours[sig] && !take_back)) {
        typedef sighandler_t (*signal_fn)(int, sighandler_t);
        static signal_fn real_signal;
        if (!real_signal)
            real_signal = (signal_fn)w15_real_dlsym(RTLD_NEXT, "signal");
        if (!real_signal) {
            errno = ENOSYS;
            return SIG_ERR;
        }
        return real_signal(sig, handler);
    }
    struct sigaction a, o;
    memset(&a, 0, sizeof a);
    a.sa_handler = handler;
    a.sa_flags = SA_RESTART;
    sigemptyset(&a.sa_mask);
    if (sigaction(sig, &a, &o) != 0)
        return SIG_ERR;
    return (o.sa_flags & SA_SIGINFO) ? (sighandler_t)(void *)o.sa_sigaction : o.sa_handler;
}
