/* threads.c -- one OS thread per traced thread, and the order of calls
 * across them.
 *
 * Owns: the executors (rp_exec_t) and their threads, and the scheduler
 * (rp_sched_*) that decides when each recorded call runs.  The first
 * traced thread replays on the reading thread itself (a single-threaded
 * trace never switches threads and never queues); every other one gets its
 * own OS thread, so each keeps its own current context as in the traced
 * program.  A call is handed to its thread and the reader waits for it
 * (two semaphores): one call runs at a time, so the replay's own state
 * (name maps, contexts, the reader's scratch) needs no lock and a replay is
 * deterministic.
 *
 * Order.  Each thread's calls run in their recorded order.  Across threads
 * the file's order (the order in which the tracer wrote each thread's
 * chunks) says nothing: a thread's chunk may reach the file long after
 * calls another thread made later.  What does order them is `wip15.gseq`
 * (docs/FORMAT.md): the synchronising calls (MakeCurrent, flush, finish,
 * fences and waits, swaps, creation and deletion in shared namespaces)
 * carry one process-wide number, taken after the call returned.  A call
 * with number g runs only once every number below g has run: until then
 * its thread is blocked, and that thread's later calls are copied into its
 * queue (rp_job_t copies) while the reader goes on with the other threads.
 * When g - 1 has run, the queues are drained in a fixed order (executor
 * creation order), which keeps the replay deterministic.
 *
 * Gaps: a number that never comes (a trace cut short, a thread whose last
 * chunk was lost) would block forever; at the end of the trace, and when
 * the queues hold more than RP_QUEUE_MAX bytes, the scheduler skips to the
 * smallest number waiting, with a note.  --order file (rp_opts_t.file_order)
 * turns all of this off: calls run in the file's order (for tests of the
 * order itself).
 * May use: rp.h.  Must never: decode or call GL itself.
 */
#include <stdlib.h>
#include <string.h>

#include "rp.h"

#define RP_QUEUE_MAX ((size_t)256 << 20)

static void *worker(void *arg)
{
    rp_exec_t *x = arg;
    for (;;) {
        while (sem_wait(&x->go) != 0)
            ;
        if (x->quit)
            break;
        x->pending_rc = rp_exec_call(x, x->pending);
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

/* Run job j on its executor's thread and wait for it. */
static int thread_run(rp_exec_t *x, const rp_job_t *j)
{
    if (x->is_main)
        return rp_exec_call(x, j);
    x->pending = j;
    sem_post(&x->go);
    while (sem_wait(&x->done) != 0)
        ;
    return x->pending_rc;
}

/* ---- copies of calls (queued while their thread waits) -------------- */

static size_t align16(size_t n)
{
    return (n + 15) & ~(size_t)15;
}

static size_t elem_size(uint8_t base)
{
    switch (base) {
    case W15_UINT: case W15_PTR: case W15_INT: case W15_DOUBLE: return 8;
    case W15_FLOAT: return 4;
    case W15_BOOL: return 1;
    case W15_STRING: return sizeof(w15_str_t);
    case W15_DATA: return sizeof(w15_blob_t);
    default: return 0;
    }
}

static size_t value_payload(const w15_value_t *v)
{
    size_t n = align16(elem_size(v->type.base) * v->count);
    if (v->type.base == W15_STRING)
        for (uint32_t i = 0; i < v->count; i++)
            n += align16(v->v.s[i].len);
    else if (v->type.base == W15_DATA)
        for (uint32_t i = 0; i < v->count; i++)
            n += align16(v->v.data[i].csize);
    return n;
}

/* Copy value *v into *out, its elements at *p (advanced). */
static void value_copy(w15_value_t *out, const w15_value_t *v, uint8_t **p)
{
    *out = *v;
    size_t es = elem_size(v->type.base);
    if (!es || !v->count || !v->v.u) {
        if (!es)
            out->v.u = v->v.u; /* Void, FunctionPtr: no elements */
        return;
    }
    uint8_t *e = *p;
    memcpy(e, v->v.u, es * v->count);
    *p += align16(es * v->count);
    out->v.u = (const uint64_t *)(void *)e;
    if (v->type.base == W15_STRING) {
        w15_str_t *s = (w15_str_t *)(void *)e;
        for (uint32_t i = 0; i < v->count; i++) {
            if (s[i].len)
                memcpy(*p, v->v.s[i].ptr, s[i].len);
            s[i].ptr = (const char *)*p;
            *p += align16(s[i].len);
        }
    } else if (v->type.base == W15_DATA) {
        w15_blob_t *b = (w15_blob_t *)(void *)e;
        for (uint32_t i = 0; i < v->count; i++) {
            if (b[i].csize)
                memcpy(*p, v->v.data[i].cdata, b[i].csize);
            b[i].cdata = *p;
            *p += align16(b[i].csize);
        }
    }
}

/* A job holding its own copy of the call (one allocation), or NULL. */
static rp_job_t *job_copy(const rp_job_t *j)
{
    const w15_call_t *wc = j->wc;
    uint32_t na = wc->func->nargs;
    size_t n = align16(sizeof(rp_job_t)) + align16(sizeof(w15_call_t)) +
               align16((size_t)(na + 1) * sizeof(w15_value_t)) + align16((size_t)wc->nextras * sizeof(w15_extra_t));
    for (uint32_t i = 0; i < na; i++)
        n += value_payload(&wc->args[i]);
    if (wc->result)
        n += value_payload(wc->result);
    for (uint32_t e = 0; e < wc->nextras; e++)
        n += align16(wc->extras[e].name.len) + align16(wc->extras[e].data.csize);
    uint8_t *mem = aligned_alloc(16, n);
    if (!mem)
        return NULL;
    uint8_t *p = mem;
    rp_job_t *c = (rp_job_t *)(void *)p;
    p += align16(sizeof *c);
    w15_call_t *cc = (w15_call_t *)(void *)p;
    p += align16(sizeof *cc);
    w15_value_t *vals = (w15_value_t *)(void *)p;
    p += align16((size_t)(na + 1) * sizeof *vals);
    w15_extra_t *ex = (w15_extra_t *)(void *)p;
    p += align16((size_t)wc->nextras * sizeof *ex);
    *c = *j;
    c->next = NULL;
    c->bytes = n;
    c->wc = cc;
    *cc = *wc;
    for (uint32_t i = 0; i < na; i++)
        value_copy(&vals[i], &wc->args[i], &p);
    cc->args = vals;
    if (wc->result) {
        value_copy(&vals[na], wc->result, &p);
        cc->result = &vals[na];
    }
    for (uint32_t e = 0; e < wc->nextras; e++) {
        ex[e] = wc->extras[e];
        if (ex[e].name.len)
            memcpy(p, wc->extras[e].name.ptr, ex[e].name.len);
        ex[e].name.ptr = (const char *)p;
        p += align16(ex[e].name.len);
        if (ex[e].data.csize)
            memcpy(p, wc->extras[e].data.cdata, ex[e].data.csize);
        ex[e].data.cdata = p;
        p += align16(ex[e].data.csize);
    }
    cc->extras = ex;
    return c;
}

/* ---- the scheduler ---------------------------------------------------- */

/* Run job j now, on its thread. */
static int run(rp_state_t *st, rp_exec_t *x, const rp_job_t *j)
{
    st->cur_call = j->wc;
    st->cur_exec = x;
    int rc = thread_run(x, j);
    if (j->gseq != RP_NO_GSEQ && j->gseq >= st->next_gseq)
        st->next_gseq = j->gseq + 1;
    if (j->fn < w15_nfuncs && (w15_funcs[j->fn].flags & W15_FN_FRAME_END))
        st->frame++;
    return rc;
}

static int ready(const rp_state_t *st, const rp_job_t *j)
{
    return j->gseq == RP_NO_GSEQ || j->gseq <= st->next_gseq;
}

/* Run every queued job whose turn has come, until none has. */
static int drain(rp_state_t *st)
{
    int progress = 1;
    while (progress && st->nqueued && !st->stop) {
        progress = 0;
        for (uint32_t i = 0; i < st->nexecs && !st->stop; i++) {
            rp_exec_t *x = st->execs[i];
            while (x->qhead && ready(st, x->qhead) && !st->stop) {
                rp_job_t *j = x->qhead;
                x->qhead = j->next;
                if (!x->qhead)
                    x->qtail = NULL;
                st->nqueued--;
                st->queued_bytes -= j->bytes;
                int rc = run(st, x, j);
                free(j);
                if (rc < 0)
                    return -1;
                progress = 1;
            }
        }
    }
    return 0;
}

/* The queues cannot move: skip to the smallest number a queue waits for. */
static void skip_gap(rp_state_t *st, const char *why)
{
    uint64_t lo = RP_NO_GSEQ;
    for (uint32_t i = 0; i < st->nexecs; i++) {
        rp_exec_t *x = st->execs[i];
        if (x->qhead && x->qhead->gseq < lo)
            lo = x->qhead->gseq;
    }
    if (lo == RP_NO_GSEQ || lo <= st->next_gseq)
        return;
    rp_note(st, "note: the synchronising calls numbered %llu..%llu (wip15.gseq) are not in the trace (%s); "
                "the calls waiting for them replay now",
            (unsigned long long)st->next_gseq, (unsigned long long)lo - 1, why);
    st->next_gseq = lo;
    st->gaps++;
}

int rp_sched_call(rp_state_t *st, rp_exec_t *x, const rp_job_t *j)
{
    if (st->o->file_order || (!x->qhead && ready(st, j))) {
        if (run(st, x, j) < 0)
            return -1;
        return st->nqueued ? drain(st) : 0;
    }
    rp_job_t *c = job_copy(j);
    if (!c) {
        rp_fatal(st, "out of memory (a call of %s waiting for its turn)", j->wc->func->name);
        return -1;
    }
    if (x->qtail)
        x->qtail->next = c;
    else
        x->qhead = c;
    x->qtail = c;
    st->nqueued++;
    st->queued_bytes += c->bytes;
    if (st->queued_bytes > RP_QUEUE_MAX) {
        skip_gap(st, "more than 256 MiB of calls waited for them");
        return drain(st);
    }
    return 0;
}

int rp_sched_finish(rp_state_t *st)
{
    while (st->nqueued && !st->stop) {
        uint64_t before = st->next_gseq;
        skip_gap(st, "the trace ends");
        if (drain(st) < 0)
            return -1;
        if (st->next_gseq == before && st->nqueued) {
            /* cannot happen (a queue head is always past next_gseq) */
            rp_fatal(st, "internal error: %llu calls left waiting", (unsigned long long)st->nqueued);
            return -1;
        }
    }
    return 0;
}

void rp_threads_end(rp_state_t *st)
{
    for (uint32_t i = 0; i < st->nexecs; i++) {
        rp_exec_t *x = st->execs[i];
        while (x->qhead) {
            rp_job_t *j = x->qhead;
            x->qhead = j->next;
            free(j);
        }
        if (x->started) {
            x->quit = 1;
            sem_post(&x->go);
            pthread_join(x->thread, NULL);
            sem_destroy(&x->go);
            sem_destroy(&x->done);
        } else {
            rp_wsi_thread_end(x);
        }
        rp_exec_free(x);
        free(x);
    }
    free(st->execs);
    st->execs = NULL;
    st->nexecs = 0;
    st->nqueued = 0;
    st->queued_bytes = 0;
}
