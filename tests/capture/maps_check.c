/* maps_check.c -- rebuilds every buffer's bytes from a trace and checks them
 * against what GL read back (tests/capture/maps.cmake).
 *
 *   maps_check TRACE
 *
 * Follows the calls that set buffer contents from the program's memory
 * (glBufferData, glBufferStorage, glBufferSubData and their DSA forms,
 * through each thread's glBindBuffer for the targeted ones) and the
 * wip15BufferWrite pseudo-calls (the bytes written through mappings), in
 * each thread's order, the threads merged by wip15.gseq (a call with a
 * gseq runs after every call with a smaller one, as in a replay).  At
 * each glGetBufferSubData / glGetNamedBufferSubData it compares the rebuilt
 * range with what GL returned: the wip15.digest extra (XXH3-64 and size),
 * or the bytes themselves when the trace has them (--readback-data).
 * Prints
 *   writes N bytes B
 *   checks C mismatches M
 * and one "mismatch ..." line per bad check (before the totals); exit 0
 * when the trace reads completely, 1 otherwise (mismatches are for the
 * caller to judge). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "wip15/format.h"

typedef struct {
    uint64_t name;
    size_t size;
    uint8_t *bytes;
} mbuf_t;

static mbuf_t bufs[4096];
static int nbufs;

static mbuf_t *get_buf(uint64_t name)
{
    for (int i = 0; i < nbufs; i++)
        if (bufs[i].name == name)
            return &bufs[i];
    if (nbufs == 4096) {
        fprintf(stderr, "maps_check: too many buffers\n");
        exit(1);
    }
    bufs[nbufs].name = name;
    return &bufs[nbufs++];
}

static uint64_t num(const w15_value_t *v)
{
    if (!v->count)
        return 0;
    switch (v->type.base) {
    case W15_UINT:
    case W15_PTR:
        return v->v.u[0];
    case W15_INT:
        return (uint64_t)v->v.i[0];
    default:
        return 0;
    }
}

static w15_reader_t *rd;

/* The bytes of a Data argument (NULL when it has none). */
static const uint8_t *data_of(const w15_value_t *v, uint32_t *size)
{
    *size = 0;
    if (v->type.base != W15_DATA || !v->count || !v->v.data[0].size)
        return NULL;
    w15_error_t err;
    const uint8_t *d = w15_reader_blob(rd, &v->v.data[0], &err);
    if (!d) {
        fprintf(stderr, "maps_check: %s\n", err.msg);
        exit(1);
    }
    *size = v->v.data[0].size;
    return d;
}

static uint64_t nwrites, wbytes, nchecks, nbad;

/* One event of one thread, replayed later in merged order. */
enum { E_BIND, E_STORE, E_SUB, E_WRITE, E_CHECK, E_ORDER };
typedef struct {
    int kind, named;
    uint64_t index, a0, a1, a2; /* target or buffer, offset or size, size */
    uint8_t *data;              /* copy of the Data argument (STORE, SUB, WRITE, CHECK with bytes) */
    uint32_t ndata;
    int has_data, has_digest;
    uint64_t dsize, dhash;
    int has_gseq;
    uint64_t gseq;
} ev_t;

typedef struct {
    uint64_t tid;
    ev_t *ev;
    size_t n, cap, pos;
    struct {
        uint64_t target, buffer;
    } binds[64];
    int nbinds;
} thr_t;

static thr_t thr[64];
static int nthr;

static thr_t *thread_of(uint64_t tid)
{
    for (int i = 0; i < nthr; i++)
        if (thr[i].tid == tid)
            return &thr[i];
    if (nthr == 64) {
        fprintf(stderr, "maps_check: too many threads\n");
        exit(1);
    }
    thr[nthr].tid = tid;
    return &thr[nthr++];
}

static ev_t *push(thr_t *t, int kind, const w15_call_t *c)
{
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 256;
        t->ev = realloc(t->ev, t->cap * sizeof *t->ev);
        if (!t->ev) {
            fprintf(stderr, "maps_check: out of memory\n");
            exit(1);
        }
    }
    ev_t *e = &t->ev[t->n++];
    memset(e, 0, sizeof *e);
    e->kind = kind;
    e->index = c->index;
    w15_error_t err;
    e->has_gseq = w15_reader_gseq(rd, c, &e->gseq, &err) == 1;
    return e;
}

static void copy_data(ev_t *e, const w15_value_t *v)
{
    const uint8_t *d = data_of(v, &e->ndata);
    if (d) {
        e->data = malloc(e->ndata);
        if (!e->data) {
            fprintf(stderr, "maps_check: out of memory\n");
            exit(1);
        }
        memcpy(e->data, d, e->ndata);
        e->has_data = 1;
    }
}

static uint64_t t_bound(thr_t *t, uint64_t target)
{
    for (int i = 0; i < t->nbinds; i++)
        if (t->binds[i].target == target)
            return t->binds[i].buffer;
    return 0;
}

static void t_bind(thr_t *t, uint64_t target, uint64_t buffer)
{
    for (int i = 0; i < t->nbinds; i++) {
        if (t->binds[i].target == target) {
            t->binds[i].buffer = buffer;
            return;
        }
    }
    if (t->nbinds < 64) {
        t->binds[t->nbinds].target = target;
        t->binds[t->nbinds++].buffer = buffer;
    }
}

static void apply_bytes(mbuf_t *b, uint64_t off, const ev_t *e, const char *what)
{
    if (!e->has_data)
        return;
    if (off > b->size || e->ndata > b->size - off) {
        printf("mismatch call %llu: %s of %u bytes at %llu outside buffer %llu (%zu bytes)\n",
               (unsigned long long)e->index, what, e->ndata, (unsigned long long)off,
               (unsigned long long)b->name, b->size);
        nbad++;
        return;
    }
    memcpy(b->bytes + off, e->data, e->ndata);
}

static void run_event(thr_t *t, const ev_t *e)
{
    mbuf_t *b = NULL;
    if (e->kind == E_ORDER)
        return;
    if (e->kind != E_BIND)
        b = get_buf(e->named ? e->a0 : t_bound(t, e->a0));
    switch (e->kind) {
    case E_BIND:
        t_bind(t, e->a0, e->a1);
        break;
    case E_STORE:
        free(b->bytes);
        b->size = (size_t)e->a1;
        b->bytes = calloc(1, b->size ? b->size : 1);
        if (e->has_data)
            memcpy(b->bytes, e->data, e->ndata < b->size ? e->ndata : b->size);
        break;
    case E_SUB:
        apply_bytes(b, e->a1, e, "sub-data");
        break;
    case E_WRITE:
        nwrites++;
        wbytes += e->ndata;
        apply_bytes(b, e->a1, e, "wip15BufferWrite");
        break;
    case E_CHECK: {
        uint64_t off = e->a1, size = e->a2;
        nchecks++;
        if (off > b->size || size > b->size - off) {
            printf("mismatch call %llu: read-back [%llu, +%llu) outside buffer %llu (%zu bytes)\n",
                   (unsigned long long)e->index, (unsigned long long)off, (unsigned long long)size,
                   (unsigned long long)b->name, b->size);
            nbad++;
        } else if (e->has_data) {
            if (e->ndata != size || memcmp(e->data, b->bytes + off, e->ndata) != 0) {
                printf("mismatch call %llu: buffer %llu differs from the read-back bytes\n",
                       (unsigned long long)e->index, (unsigned long long)b->name);
                nbad++;
            }
        } else if (e->has_digest) {
            uint64_t h = XXH3_64bits(b->bytes + off, (size_t)size);
            if (e->dsize != size || e->dhash != h) {
                printf("mismatch call %llu: buffer %llu [%llu, +%llu): GL read back %llu bytes, xxh3 %016llx; "
                       "the trace rebuilds xxh3 %016llx\n",
                       (unsigned long long)e->index, (unsigned long long)b->name, (unsigned long long)off,
                       (unsigned long long)size, (unsigned long long)e->dsize, (unsigned long long)e->dhash,
                       (unsigned long long)h);
                nbad++;
            }
        } else {
            printf("mismatch call %llu: a read-back with neither bytes nor digest\n", (unsigned long long)e->index);
            nbad++;
        }
        break;
    }
    }
}

/* Run every thread's events, threads merged by gseq: the thread whose next
 * gseq is the smallest runs up to and including that call; then the
 * threads' remaining calls (no gseq left), thread by thread. */
static void run_all(void)
{
    for (;;) {
        thr_t *best = NULL;
        size_t best_at = 0;
        uint64_t best_g = UINT64_MAX;
        for (int i = 0; i < nthr; i++) {
            for (size_t k = thr[i].pos; k < thr[i].n; k++) {
                if (thr[i].ev[k].has_gseq) {
                    if (thr[i].ev[k].gseq < best_g) {
                        best_g = thr[i].ev[k].gseq;
                        best = &thr[i];
                        best_at = k;
                    }
                    break;
                }
            }
        }
        if (!best)
            break;
        for (; best->pos <= best_at; best->pos++)
            run_event(best, &best->ev[best->pos]);
    }
    for (int i = 0; i < nthr; i++)
        for (; thr[i].pos < thr[i].n; thr[i].pos++)
            run_event(&thr[i], &thr[i].ev[thr[i].pos]);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: maps_check TRACE\n");
        return 2;
    }
    w15_error_t err;
    rd = w15_reader_open(argv[1], &err);
    if (!rd) {
        fprintf(stderr, "maps_check: %s\n", err.msg);
        return 1;
    }
    w15_op_t op;
    w15_next_t nx;
    thr_t *cur = thread_of(0);
    while ((nx = w15_reader_next(rd, &op, &err)) <= W15_NEXT_CALL) {
        if (nx != W15_NEXT_CALL)
            continue;
        const w15_call_t *c = op.call;
        const char *f = c->func->name;
        const w15_value_t *a = c->args;
        uint32_t na = c->func->nargs;
        ev_t *e;
        if (!strcmp(f, "wip15ThreadSwitch") && na >= 1) {
            cur = thread_of(num(&a[0]));
        } else if (!strcmp(f, "glBindBuffer") && na == 2) {
            e = push(cur, E_BIND, c);
            e->a0 = num(&a[0]);
            e->a1 = num(&a[1]);
        } else if ((!strcmp(f, "glBindBufferBase") && na == 3) || (!strcmp(f, "glBindBufferRange") && na == 5)) {
            e = push(cur, E_BIND, c);
            e->a0 = num(&a[0]);
            e->a1 = num(&a[2]);
        } else if ((!strcmp(f, "glBufferData") || !strcmp(f, "glBufferStorage") || !strcmp(f, "glNamedBufferData") ||
                    !strcmp(f, "glNamedBufferStorage")) && na == 4) {
            e = push(cur, E_STORE, c);
            e->named = f[2] == 'N';
            e->a0 = num(&a[0]);
            e->a1 = num(&a[1]);
            copy_data(e, &a[2]);
        } else if ((!strcmp(f, "glBufferSubData") || !strcmp(f, "glNamedBufferSubData")) && na == 4) {
            e = push(cur, E_SUB, c);
            e->named = f[2] == 'N';
            e->a0 = num(&a[0]);
            e->a1 = num(&a[1]);
            copy_data(e, &a[3]);
        } else if (!strcmp(f, "wip15BufferWrite") && na == 3) {
            e = push(cur, E_WRITE, c);
            e->named = 1;
            e->a0 = num(&a[0]);
            e->a1 = num(&a[1]);
            copy_data(e, &a[2]);
        } else if ((!strcmp(f, "glGetBufferSubData") || !strcmp(f, "glGetNamedBufferSubData")) && na == 4) {
            e = push(cur, E_CHECK, c);
            e->named = f[5] == 'N';
            e->a0 = num(&a[0]);
            e->a1 = num(&a[1]);
            e->a2 = num(&a[2]);
            copy_data(e, &a[3]);
            const w15_digest_entry_t *d;
            uint32_t nd = 0;
            w15_error_t derr;
            if (!e->has_data && w15_reader_digests(rd, c, &d, &nd, &derr) == 0) {
                for (uint32_t i = 0; i < nd; i++) {
                    if (d[i].param == 3) {
                        e->has_digest = 1;
                        e->dsize = d[i].size;
                        e->dhash = d[i].hash;
                    }
                }
            }
        } else {
            /* any other call with a gseq orders its thread's calls */
            uint64_t g;
            w15_error_t gerr;
            if (w15_reader_gseq(rd, c, &g, &gerr) == 1)
                push(cur, E_ORDER, c);
        }
    }
    int ok = nx == W15_NEXT_END;
    if (!ok)
        fprintf(stderr, "maps_check: %s\n", err.msg);
    run_all();
    printf("writes %llu bytes %llu\n", (unsigned long long)nwrites, (unsigned long long)wbytes);
    printf("checks %llu mismatches %llu\n", (unsigned long long)nchecks, (unsigned long long)nbad);
    w15_reader_close(rd);
    for (int i = 0; i < nbufs; i++)
        free(bufs[i].bytes);
    for (int i = 0; i < nthr; i++) {
        for (size_t k = 0; k < thr[i].n; k++)
            free(thr[i].ev[k].data);
        free(thr[i].ev);
    }
    return ok ? 0 : 1;
}
