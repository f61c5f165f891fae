/* fuzz_reader.c -- libFuzzer target: read every operation of the input
 * with the WIP15 reader and decompress every blob.  Any crash, leak,
 * sanitizer report or hang is a bug. */
#include "wip15/format.h"

#include <stdint.h>
#include <string.h>

static void touch(w15_reader_t *r, const w15_value_t *v, uint64_t *sink)
{
    w15_error_t err;
    for (uint32_t i = 0; i < v->count; i++) {
        switch (v->type.base) {
        case W15_UINT:
        case W15_PTR: *sink += v->v.u[i]; break;
        case W15_INT: *sink += (uint64_t)v->v.i[i]; break;
        case W15_BOOL: *sink += v->v.b[i]; break;
        case W15_FLOAT: *sink += (uint64_t)(v->v.f[i] == v->v.f[i]); break;
        case W15_DOUBLE: *sink += (uint64_t)(v->v.d[i] == v->v.d[i]); break;
        case W15_STRING:
            if (v->v.s[i].len)
                *sink += (uint8_t)v->v.s[i].ptr[v->v.s[i].len - 1];
            break;
        case W15_DATA: {
            const uint8_t *p = w15_reader_blob(r, &v->v.data[i], &err);
            if (p && v->v.data[i].size)
                *sink += p[v->v.data[i].size - 1];
            break;
        }
        default: break;
        }
    }
    if (v->type.has_group && w15_reader_group(r, v->group) == NULL)
        __builtin_trap(); /* the reader promised a declared group */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    w15_error_t err;
    w15_reader_t *r = w15_reader_open_mem(data, size, "fuzz", &err);
    if (!r)
        return 0;
    w15_op_t op;
    w15_next_t x;
    uint64_t sink = 0;
    while ((x = w15_reader_next(r, &op, &err)) <= W15_NEXT_CALL) {
        if (x == W15_NEXT_DECL_FUNC) {
            sink += strlen(op.func->name);
            continue;
        }
        if (x != W15_NEXT_CALL)
            continue;
        const w15_call_t *c = op.call;
        if (w15_reader_func(r, c->func->index) != c->func)
            __builtin_trap();
        for (uint32_t i = 0; i < c->func->nargs; i++)
            touch(r, &c->args[i], &sink);
        if (c->result)
            touch(r, c->result, &sink);
        for (uint32_t i = 0; i < c->nextras; i++) {
            const uint8_t *p = w15_reader_blob(r, &c->extras[i].data, &err);
            if (p && c->extras[i].data.size)
                sink += p[0];
            if (c->extras[i].name.len)
                sink += (uint8_t)c->extras[i].name.ptr[0];
        }
    }
    if (err.msg[0] == 0)
        __builtin_trap(); /* every final status carries a message */
    w15_reader_stats_t st;
    w15_reader_get_stats(r, &st);
    w15_reader_close(r);
    return (int)(sink & 0) + (int)(st.calls & 0);
}
