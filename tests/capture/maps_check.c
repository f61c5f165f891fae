/* maps_check.c -- rebuilds every buffer's bytes from a trace and checks them
 * against what GL read back (tests/capture/maps.cmake).
 *
 *   maps_check TRACE
 *
 * Follows, in file order, the calls that set buffer contents from the
 * program's memory (glBufferData, glBufferStorage, glBufferSubData and
 * their DSA forms, through glBindBuffer for the targeted ones) and the
 * wip15BufferWrite pseudo-calls (the bytes written through mappings).  At
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

static struct {
    uint64_t target, buffer;
} binds[64];
static int nbinds;

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

static uint64_t bound(uint64_t target)
{
    for (int i = 0; i < nbinds; i++)
        if (binds[i].target == target)
            return binds[i].buffer;
    return 0;
}

static void bind(uint64_t target, uint64_t buffer)
{
    for (int i = 0; i < nbinds; i++) {
        if (binds[i].target == target) {
            binds[i].buffer = buffer;
            return;
        }
    }
    if (nbinds < 64) {
        binds[nbinds].target = target;
        binds[nbinds++].buffer = buffer;
    }
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

/* New contents of size `size` (the program's data, or zeros). */
static void set_store(mbuf_t *b, uint64_t size, const w15_value_t *data)
{
    free(b->bytes);
    b->size = (size_t)size;
    b->bytes = calloc(1, b->size ? b->size : 1);
    uint32_t n;
    const uint8_t *d = data_of(data, &n);
    if (d)
        memcpy(b->bytes, d, n < b->size ? n : b->size);
}

static uint64_t nwrites, wbytes, nchecks, nbad;

static void write_bytes(mbuf_t *b, uint64_t off, const w15_value_t *data, const char *what, uint64_t index)
{
    uint32_t n;
    const uint8_t *d = data_of(data, &n);
    if (!d)
        return;
    if (off > b->size || n > b->size - off) {
        printf("mismatch call %llu: %s of %u bytes at %llu outside buffer %llu (%zu bytes)\n",
               (unsigned long long)index, what, n, (unsigned long long)off, (unsigned long long)b->name, b->size);
        nbad++;
        return;
    }
    memcpy(b->bytes + off, d, n);
}

static void check(w15_reader_t *r, const w15_call_t *c, mbuf_t *b, uint64_t off, uint64_t size)
{
    nchecks++;
    if (off > b->size || size > b->size - off) {
        printf("mismatch call %llu: read-back [%llu, +%llu) outside buffer %llu (%zu bytes)\n",
               (unsigned long long)c->index, (unsigned long long)off, (unsigned long long)size,
               (unsigned long long)b->name, b->size);
        nbad++;
        return;
    }
    uint32_t n;
    const uint8_t *d = data_of(&c->args[3], &n);
    if (d) {
        if (n != size || memcmp(d, b->bytes + off, n) != 0) {
            size_t i = 0;
            while (i < n && i < size && d[i] == b->bytes[off + i])
                i++;
            printf("mismatch call %llu: buffer %llu differs at byte %llu\n", (unsigned long long)c->index,
                   (unsigned long long)b->name, (unsigned long long)(off + i));
            nbad++;
        }
        return;
    }
    const w15_digest_entry_t *e;
    uint32_t ne = 0;
    w15_error_t err;
    if (w15_reader_digests(r, c, &e, &ne, &err) != 0)
        ne = 0;
    for (uint32_t i = 0; i < ne; i++) {
        if (e[i].param != 3)
            continue;
        uint64_t h = XXH3_64bits(b->bytes + off, (size_t)size);
        if (e[i].size != size || e[i].hash != h) {
            printf("mismatch call %llu: buffer %llu [%llu, +%llu): GL read back %llu bytes, xxh3 %016llx; the "
                   "trace rebuilds xxh3 %016llx\n",
                   (unsigned long long)c->index, (unsigned long long)b->name, (unsigned long long)off,
                   (unsigned long long)size, (unsigned long long)e[i].size, (unsigned long long)e[i].hash,
                   (unsigned long long)h);
            nbad++;
        }
        return;
    }
    printf("mismatch call %llu: a read-back with neither bytes nor digest\n", (unsigned long long)c->index);
    nbad++;
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
    while ((nx = w15_reader_next(rd, &op, &err)) <= W15_NEXT_CALL) {
        if (nx != W15_NEXT_CALL)
            continue;
        const w15_call_t *c = op.call;
        const char *f = c->func->name;
        const w15_value_t *a = c->args;
        uint32_t na = c->func->nargs;
        if (!strcmp(f, "glBindBuffer") && na == 2) {
            bind(num(&a[0]), num(&a[1]));
        } else if (!strcmp(f, "glBindBufferBase") && na == 3) {
            bind(num(&a[0]), num(&a[2]));
        } else if (!strcmp(f, "glBindBufferRange") && na == 5) {
            bind(num(&a[0]), num(&a[2]));
        } else if ((!strcmp(f, "glBufferData") || !strcmp(f, "glBufferStorage")) && na == 4) {
            set_store(get_buf(bound(num(&a[0]))), num(&a[1]), &a[2]);
        } else if ((!strcmp(f, "glNamedBufferData") || !strcmp(f, "glNamedBufferStorage")) && na == 4) {
            set_store(get_buf(num(&a[0])), num(&a[1]), &a[2]);
        } else if (!strcmp(f, "glBufferSubData") && na == 4) {
            write_bytes(get_buf(bound(num(&a[0]))), num(&a[1]), &a[3], f, c->index);
        } else if (!strcmp(f, "glNamedBufferSubData") && na == 4) {
            write_bytes(get_buf(num(&a[0])), num(&a[1]), &a[3], f, c->index);
        } else if (!strcmp(f, "wip15BufferWrite") && na == 3) {
            uint32_t n;
            data_of(&a[2], &n);
            nwrites++;
            wbytes += n;
            write_bytes(get_buf(num(&a[0])), num(&a[1]), &a[2], f, c->index);
        } else if (!strcmp(f, "glGetBufferSubData") && na == 4) {
            check(rd, c, get_buf(bound(num(&a[0]))), num(&a[1]), num(&a[2]));
        } else if (!strcmp(f, "glGetNamedBufferSubData") && na == 4) {
            check(rd, c, get_buf(num(&a[0])), num(&a[1]), num(&a[2]));
        }
    }
    int ok = nx == W15_NEXT_END;
    if (!ok)
        fprintf(stderr, "maps_check: %s\n", err.msg);
    printf("writes %llu bytes %llu\n", (unsigned long long)nwrites, (unsigned long long)wbytes);
    printf("checks %llu mismatches %llu\n", (unsigned long long)nchecks, (unsigned long long)nbad);
    w15_reader_close(rd);
    for (int i = 0; i < nbufs; i++)
        free(bufs[i].bytes);
    return ok ? 0 : 1;
}
