/* extras.c -- decoding the tracer's extras (wip15.ptr); their encoders are
 * inline in wip15/format.h, w15_reader_ptrs is in reader.c. */
#include "internal.h"

#include <string.h>

int w15_extra_is(const w15_extra_t *x, const char *name)
{
    size_t n = strlen(name);
    return x->name.len == n && (n == 0 || memcmp(x->name.ptr, name, n) == 0);
}

long w15_ptr_decode(const uint8_t *data, uint32_t size, w15_ptr_entry_t *out)
{
    if (size % W15_PTR_ENTRY_SIZE != 0)
        return -1;
    uint32_t n = size / W15_PTR_ENTRY_SIZE;
    for (uint32_t i = 0; i < n; i++, data += W15_PTR_ENTRY_SIZE) {
        out[i].param = w15_le32(data);
        out[i].value = w15_le64(data + 4);
    }
    return (long)n;
}

int w15_ptr_find(const w15_ptr_entry_t *e, uint32_t n, uint32_t param, uint64_t *value)
{
    for (uint32_t i = 0; i < n; i++) {
        if (e[i].param == param) {
            *value = e[i].value;
            return 1;
        }
    }
    return 0;
}
