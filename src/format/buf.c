/* buf.c -- the growable encoding buffer and its out-of-line encoders. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

int w15_buf_init(w15_buf_t *b, size_t cap)
{
    memset(b, 0, sizeof *b);
    if (cap == 0)
        return 0;
    b->data = malloc(cap);
    if (!b->data) {
        b->failed = 1;
        return -1;
    }
    b->cap = cap;
    return 0;
}

void w15_buf_free(w15_buf_t *b)
{
    free(b->data);
    free(b->blobs);
    memset(b, 0, sizeof *b);
}

int w15_buf_grow(w15_buf_t *b, size_t need)
{
    if (b->failed)
        return -1;
    if (b->cap - b->len >= need)
        return 0;
    if (need > SIZE_MAX / 2 - b->len) {
        b->failed = 1;
        return -1;
    }
    size_t cap = b->cap ? b->cap : 4096;
    while (cap - b->len < need)
        cap *= 2;
    uint8_t *p = realloc(b->data, cap);
    if (!p) {
        b->failed = 1;
        return -1;
    }
    b->data = p;
    b->cap = cap;
    return 0;
}

uint8_t *w15_put_data_begin(w15_buf_t *b, size_t size, w15_error_t *err)
{
    if (size > W15_MAX_BLOB) {
        w15_set_error(err, W15_E_TOO_BIG, 0,
                      "blob of %zu bytes is larger than the WIP15 limit of %u bytes (uint32 size); "
                      "not recorded",
                      size, (unsigned)W15_MAX_BLOB);
        return NULL;
    }
    if (b->len > UINT32_MAX) {
        w15_set_error(err, W15_E_TOO_BIG, 0,
                      "encoding buffer holds %zu bytes, over the 4 GiB a blob offset can address; "
                      "submit it before adding a blob",
                      b->len);
        return NULL;
    }
    if (b->nblobs == b->blobcap) {
        size_t cap = b->blobcap ? b->blobcap * 2 : 16;
        uint32_t *p = b->failed ? NULL : realloc(b->blobs, cap * sizeof *p);
        if (!p) {
            b->failed = 1;
            w15_set_error(err, W15_E_NOMEM, 0, "out of memory growing the blob list of an encoding buffer");
            return NULL;
        }
        b->blobs = p;
        b->blobcap = cap;
    }
    if (w15_buf_reserve(b, W15_DATA_HEADER + size) != 0) {
        w15_set_error(err, W15_E_NOMEM, 0, "out of memory: a blob of %zu bytes does not fit in memory",
                      size);
        return NULL;
    }
    b->blobs[b->nblobs++] = (uint32_t)b->len;
    w15_put_u8(b, W15_COMP_NONE);
    w15_put_u32(b, (uint32_t)size);
    w15_put_u32(b, (uint32_t)size);
    uint8_t *dst = b->data + b->len;
    b->len += size;
    return dst;
}

int w15_put_data_sz(w15_buf_t *b, const void *data, size_t size, w15_error_t *err)
{
    uint8_t *dst = w15_put_data_begin(b, size, err);
    if (!dst)
        return -1;
    if (size)
        memcpy(dst, data, size);
    return 0;
}

int w15_put_data(w15_buf_t *b, const void *data, uint32_t size)
{
    return w15_put_data_sz(b, data, size, NULL);
}

int w15_put_decl_func(w15_buf_t *b, uint32_t index, const char *name, w15_type_t result,
                      uint32_t nargs, const w15_type_t *args)
{
    size_t len = strlen(name);
    if (len > UINT32_MAX || nargs > (SIZE_MAX - 64 - len) / 3)
        return -1;
    if (w15_buf_reserve(b, 1 + 4 + 4 + len + 3 + 4 + (size_t)nargs * 3) != 0)
        return -1;
    int commit = b->committed == b->len;
    w15_put_u8(b, W15_OP_DECL_FUNC);
    w15_put_u32(b, index);
    w15_put_string(b, name, (uint32_t)len);
    w15_put_type(b, result);
    w15_put_u32(b, nargs);
    for (uint32_t i = 0; i < nargs; i++)
        w15_put_type(b, args[i]);
    if (commit)
        w15_buf_commit(b, 0);
    return 0;
}

int w15_put_decl_group(w15_buf_t *b, uint32_t index, w15_group_type_t type, const char *name)
{
    size_t len = strlen(name);
    if (len > UINT32_MAX)
        return -1;
    if (w15_buf_reserve(b, 1 + 1 + 4 + 4 + len) != 0)
        return -1;
    int commit = b->committed == b->len;
    w15_put_u8(b, W15_OP_DECL_GROUP);
    w15_put_u8(b, (uint8_t)type);
    w15_put_u32(b, index);
    w15_put_string(b, name, (uint32_t)len);
    if (commit)
        w15_buf_commit(b, 0);
    return 0;
}
