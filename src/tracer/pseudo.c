/* pseudo.c -- the pseudo-calls a thread writes into its own buffer
 * (pseudo.h). */
#include "pseudo.h"
#include "state.h"

#include <string.h>

#include "funcs.h"

int w15_pseudo_thread_switch(w15_thread_t *t)
{
    char name[17] = { 0 };
    w15_thread_name(name);
    size_t nl = strlen(name);
    w15_buf_t *b = &t->buf;
    if (w15_buf_reserve(b, 1 + 4 + 10 + 10 + 10 + 4 + nl + 4))
        return -1;
    w15_put_u8(b, W15_OP_CALL);
    w15_put_u32(b, W15F_wip15ThreadSwitch);
    w15_put_uvari(b, t->tid);
    w15_put_uvari(b, (uint64_t)(uintptr_t)t->context);
    w15_put_uvari(b, t->seq);
    w15_put_string(b, name, (uint32_t)nl);
    w15_put_u32(b, 0);
    __atomic_store_n(&b->committed, b->len, __ATOMIC_RELEASE);
    return 0;
}

int w15_pseudo_begin(w15_thread_t *t, uint32_t id, size_t reserve)
{
    w15_buf_t *b = &t->buf;
    if ((b->len == 0 && w15_pseudo_thread_switch(t)) || w15_buf_reserve(b, 5 + reserve + 4)) {
        w15_fail("out of memory while recording captured memory; recording stopped");
        return -1;
    }
    t->pseudo_start = b->len;
    w15_put_u8(b, W15_OP_CALL);
    w15_put_u32(b, id);
    return 0;
}

int w15_pseudo_end(w15_thread_t *t)
{
    w15_buf_t *b = &t->buf;
    if (b->failed || w15_buf_reserve(b, 4)) {
        w15_pseudo_cancel(t);
        w15_fail("out of memory while recording captured memory; recording stopped");
        return -1;
    }
    w15_put_u32(b, 0);
    __atomic_store_n(&b->committed, b->len, __ATOMIC_RELEASE);
    return 0;
}

int w15_pseudo_end_before_call(w15_thread_t *t)
{
    w15_buf_t *b = &t->buf;
    size_t cs = t->call_start, ps = t->pseudo_start;
    if (b->failed || w15_buf_reserve(b, 4)) {
        w15_pseudo_cancel(t);
        w15_fail("out of memory while recording captured memory; recording stopped");
        return -1;
    }
    w15_put_u32(b, 0);
    size_t n = b->len - ps;
    uint8_t op[256];
    if (ps < cs || n > sizeof op) {
        w15_pseudo_cancel(t);
        return -1;
    }
    memcpy(op, b->data + ps, n);
    memmove(b->data + cs + n, b->data + cs, ps - cs);
    memcpy(b->data + cs, op, n);
    for (size_t i = b->nblobs; i > 0 && b->blobs[i - 1] >= cs; i--)
        b->blobs[i - 1] += (uint32_t)n;
    t->call_start = cs + n;
    __atomic_store_n(&b->committed, cs + n, __ATOMIC_RELEASE);
    return 0;
}

void w15_pseudo_cancel(w15_thread_t *t)
{
    t->buf.len = t->pseudo_start;
    t->buf.failed = 0;
}
