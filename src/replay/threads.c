/* threads.c -- one OS thread per traced thread.
 *
 * Owns: the executors (rp_exec_t) and their threads.  The first traced
 * thread replays on the reading thread itself (a single-threaded trace
 * never switches threads); every other one gets its own OS thread, so each
 * keeps its own current context as in the traced program.  A call is
 * handed to its thread and the reader waits for it (two semaphores): the
 * calls of all threads replay one at a time in the order of the file,
 * which is the recorded order of each thread and, across threads, the
 * order in which the tracer wrote their chunks.
 *
 * The hook for issue 8's global order: calls that carry `wip15.gseq` will
 * go through rp_order_wait/rp_order_done, and the hand-over can then let
 * threads run ahead between two synchronising calls.
 * May use: rp.h.  Must never: decode or call GL itself.
 */
#include <stdlib.h>

#include "rp.h"

static void *worker(void *arg)
{
    rp_exec_t *x = arg;
    for (;;) {
        while (sem_wait(&x->go) != 0)
            ;
        if (x->quit)
            break;
        x->pending_rc = rp_exec_call(x, x->pending, x->pending_fn);
        sem_post(&x->done);
    }
    rp_wsi_thread_end(x);
    sem_post(&x->done);
    return NULL;
}

rp_exec_t *rp_thread_get(rp_state_t *st, uint64_t tid)
{
    for (uint32_t i = 0; i < st->nexecs; i++)
        if (st->execs[i]->tid == tid)
            return st->execs[i];
    rp_exec_t **ne = realloc(st->execs, (size_t)(st->nexecs + 1) * sizeof *ne);
    if (!ne)
        return NULL;
    st->execs = ne;
    rp_exec_t *x = calloc(1, sizeof *x);
    if (!x)
        return NULL;
    x->st = st;
    x->tid = tid;
    x->is_main = st->nexecs == 0;
    if (!x->is_main) {
        if (sem_init(&x->go, 0, 0) || sem_init(&x->done, 0, 0) ||
            pthread_create(&x->thread, NULL, worker, x)) {
            free(x);
            return NULL;
        }
        x->started = 1;
    }
    st->execs[st->nexecs++] = x;
    return x;
}

int rp_thread_run(rp_exec_t *x, const w15_call_t *wc, uint32_t fn)
{
    if (x->is_main)
        return rp_exec_call(x, wc, fn);
    x->pending = wc;
    x->pending_fn = fn;
    sem_post(&x->go);
    while (sem_wait(&x->done) != 0)
        ;
    return x->pending_rc;
}

void rp_threads_end(rp_state_t *st)
{
    for (uint32_t i = 0; i < st->nexecs; i++) {
        rp_exec_t *x = st->execs[i];
        if (x->started) {
            x->quit = 1;
            sem_post(&x->go);
            pthread_join(x->thread, NULL);
            sem_destroy(&x->go);
            sem_destroy(&x->done);
        } else {
            rp_wsi_thread_end(x);
        }
        rp_arena_free(&x->arena);
        free(x);
    }
    free(st->execs);
    st->execs = NULL;
    st->nexecs = 0;
}

void rp_order_wait(rp_state_t *st, uint64_t gseq)
{
    (void)st, (void)gseq;
}

void rp_order_done(rp_state_t *st, uint64_t gseq)
{
    (void)st, (void)gseq;
}
