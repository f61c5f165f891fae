/* draws.c -- see draws.h. */
#include "draws.h"

#include <string.h>

#include "funcs.h"

enum {
    GL_BYTE_ = 0x1400, GL_UNSIGNED_BYTE_ = 0x1401, GL_SHORT_ = 0x1402, GL_UNSIGNED_SHORT_ = 0x1403,
    GL_INT_ = 0x1404, GL_UNSIGNED_INT_ = 0x1405, GL_FLOAT_ = 0x1406, GL_DOUBLE_ = 0x140A,
    GL_HALF_FLOAT_ = 0x140B, GL_FIXED_ = 0x140C, GL_UNSIGNED_INT64_ = 0x140F, GL_HALF_FLOAT_OES_ = 0x8D61,
    GL_INT_2_10_10_10_REV_ = 0x8D9F, GL_UNSIGNED_INT_2_10_10_10_REV_ = 0x8368,
    GL_UNSIGNED_INT_10F_11F_11F_REV_ = 0x8C3B, GL_BGRA_ = 0x80E1,
};

w15_draw_desc_t w15_draw_describe(uint32_t fn)
{
    w15_draw_desc_t d = { W15_DRAW_NONE, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0 };
    switch (fn) {
    case W15F_glDrawArrays: case W15F_glDrawArraysEXT:
        d.shape = W15_DRAW_ARRAYS, d.first = 1, d.count = 2;
        break;
    case W15F_glDrawArraysInstanced: case W15F_glDrawArraysInstancedANGLE: case W15F_glDrawArraysInstancedARB:
    case W15F_glDrawArraysInstancedNV: case W15F_glDrawArraysInstancedEXT:
        d.shape = W15_DRAW_ARRAYS, d.first = 1, d.count = 2, d.inst = 3;
        break;
    case W15F_glDrawArraysInstancedBaseInstance: case W15F_glDrawArraysInstancedBaseInstanceEXT:
        d.shape = W15_DRAW_ARRAYS, d.first = 1, d.count = 2, d.inst = 3, d.bi = 4;
        break;
    case W15F_glDrawElements:
        d.shape = W15_DRAW_ELEMENTS, d.count = 1, d.type = 2, d.indices = 3;
        break;
    case W15F_glDrawElementsBaseVertex: case W15F_glDrawElementsBaseVertexEXT:
    case W15F_glDrawElementsBaseVertexOES:
        d.shape = W15_DRAW_ELEMENTS, d.count = 1, d.type = 2, d.indices = 3, d.bv = 4;
        break;
    case W15F_glDrawElementsInstanced: case W15F_glDrawElementsInstancedANGLE:
    case W15F_glDrawElementsInstancedARB: case W15F_glDrawElementsInstancedNV:
    case W15F_glDrawElementsInstancedEXT:
        d.shape = W15_DRAW_ELEMENTS, d.count = 1, d.type = 2, d.indices = 3, d.inst = 4;
        break;
    case W15F_glDrawElementsInstancedBaseInstance: case W15F_glDrawElementsInstancedBaseInstanceEXT:
        d.shape = W15_DRAW_ELEMENTS, d.count = 1, d.type = 2, d.indices = 3, d.inst = 4, d.bi = 5;
        break;
    case W15F_glDrawElementsInstancedBaseVertex: case W15F_glDrawElementsInstancedBaseVertexEXT:
    case W15F_glDrawElementsInstancedBaseVertexOES:
        d.shape = W15_DRAW_ELEMENTS, d.count = 1, d.type = 2, d.indices = 3, d.inst = 4, d.bv = 5;
        break;
    case W15F_glDrawElementsInstancedBaseVertexBaseInstance:
    case W15F_glDrawElementsInstancedBaseVertexBaseInstanceEXT:
        d.shape = W15_DRAW_ELEMENTS, d.count = 1, d.type = 2, d.indices = 3, d.inst = 4, d.bv = 5, d.bi = 6;
        break;
    case W15F_glDrawRangeElements: case W15F_glDrawRangeElementsEXT:
        d.shape = W15_DRAW_ELEMENTS, d.count = 3, d.type = 4, d.indices = 5, d.start = 1, d.end = 2;
        break;
    case W15F_glDrawRangeElementsBaseVertex: case W15F_glDrawRangeElementsBaseVertexEXT:
    case W15F_glDrawRangeElementsBaseVertexOES:
        d.shape = W15_DRAW_ELEMENTS, d.count = 3, d.type = 4, d.indices = 5, d.bv = 6, d.start = 1, d.end = 2;
        break;
    case W15F_glMultiDrawArrays: case W15F_glMultiDrawArraysEXT:
        d.shape = W15_DRAW_MULTI_ARRAYS, d.first = 1, d.count = 2, d.drawcount = 3;
        break;
    case W15F_glMultiDrawElements: case W15F_glMultiDrawElementsEXT:
        d.shape = W15_DRAW_MULTI_ELEMENTS, d.count = 1, d.type = 2, d.indices = 3, d.drawcount = 4;
        break;
    case W15F_glMultiModeDrawElementsIBM:
        d.shape = W15_DRAW_MULTI_ELEMENTS, d.count = 1, d.type = 2, d.indices = 3, d.drawcount = 4, d.modes = 1;
        break;
    case W15F_glMultiModeDrawArraysIBM:
        d.shape = W15_DRAW_MULTI_ARRAYS, d.first = 1, d.count = 2, d.drawcount = 3, d.modes = 1;
        break;
    case W15F_glMultiDrawElementsBaseVertex: case W15F_glMultiDrawElementsBaseVertexEXT:
        d.shape = W15_DRAW_MULTI_ELEMENTS, d.count = 1, d.type = 2, d.indices = 3, d.drawcount = 4, d.bv = 5;
        break;
    case W15F_glDrawArraysIndirect:
        d.shape = W15_DRAW_INDIRECT_ARRAYS, d.indirect = 1;
        break;
    case W15F_glMultiDrawArraysIndirect: case W15F_glMultiDrawArraysIndirectAMD:
        d.shape = W15_DRAW_INDIRECT_ARRAYS, d.indirect = 1, d.drawcount = 2, d.stride = 3;
        break;
    case W15F_glMultiDrawArraysIndirectCount: case W15F_glMultiDrawArraysIndirectCountARB:
        d.shape = W15_DRAW_INDIRECT_ARRAYS, d.indirect = 1, d.drawcount = 2, d.maxcount = 3, d.stride = 4;
        break;
    case W15F_glDrawElementsIndirect:
        d.shape = W15_DRAW_INDIRECT_ELEMENTS, d.type = 1, d.indirect = 2;
        break;
    case W15F_glMultiDrawElementsIndirect: case W15F_glMultiDrawElementsIndirectAMD:
        d.shape = W15_DRAW_INDIRECT_ELEMENTS, d.type = 1, d.indirect = 2, d.drawcount = 3, d.stride = 4;
        break;
    case W15F_glMultiDrawElementsIndirectCount: case W15F_glMultiDrawElementsIndirectCountARB:
        d.shape = W15_DRAW_INDIRECT_ELEMENTS, d.type = 1, d.indirect = 2, d.drawcount = 3, d.maxcount = 4,
        d.stride = 5;
        break;
    case W15F_glArrayElement: case W15F_glArrayElementEXT:
        d.shape = W15_DRAW_ARRAY_ELEMENT, d.first = 0;
        break;
    default:
        break;
    }
    return d;
}

uint32_t w15_index_size(uint32_t type)
{
    return type == GL_UNSIGNED_BYTE_ ? 1 : type == GL_UNSIGNED_SHORT_ ? 2 : type == GL_UNSIGNED_INT_ ? 4 : 0;
}

uint32_t w15_fixed_restart_index(uint32_t size)
{
    return size == 1 ? 0xFFu : size == 2 ? 0xFFFFu : 0xFFFFFFFFu;
}

static uint32_t type_size(uint32_t type)
{
    switch (type) {
    case GL_BYTE_: case GL_UNSIGNED_BYTE_: return 1;
    case GL_SHORT_: case GL_UNSIGNED_SHORT_: case GL_HALF_FLOAT_: case GL_HALF_FLOAT_OES_: return 2;
    case GL_INT_: case GL_UNSIGNED_INT_: case GL_FLOAT_: case GL_FIXED_: return 4;
    case GL_DOUBLE_: case GL_UNSIGNED_INT64_: return 8;
    default: return 0;
    }
}

uint32_t w15_vertex_element_size(int32_t size, uint32_t type)
{
    if (size <= 0 || (size > 4 && size != GL_BGRA_))
        return 0;
    if (type == GL_INT_2_10_10_10_REV_ || type == GL_UNSIGNED_INT_2_10_10_10_REV_ ||
        type == GL_UNSIGNED_INT_10F_11F_11F_REV_)
        return 4;
    return (size == GL_BGRA_ ? 4u : (uint32_t)size) * type_size(type);
}

/* memcpy per index: the indices may be unaligned (a blob in the reader's
 * buffer); the compiler makes it a plain load */
#define MINMAX(T)                                                                                   \
    do {                                                                                            \
        const unsigned char *v = p;                                                                 \
        for (int64_t i = 0; i < count; i++) {                                                       \
            T e;                                                                                    \
            memcpy(&e, v + i * (int64_t)sizeof e, sizeof e);                                        \
            uint32_t x = e;                                                                         \
            if (x == skip && restart)                                                               \
                continue;                                                                           \
            if (x < mn)                                                                             \
                mn = x;                                                                             \
            if (x > mx)                                                                             \
                mx = x;                                                                             \
            any = 1;                                                                                \
        }                                                                                           \
    } while (0)

int w15_index_minmax(const void *p, uint32_t size, int64_t count, int restart, uint32_t skip, uint32_t *lo,
                     uint32_t *hi)
{
    uint32_t mn = UINT32_MAX, mx = 0;
    int any = 0;
    if (size == 1)
        MINMAX(uint8_t);
    else if (size == 2)
        MINMAX(uint16_t);
    else if (size == 4)
        MINMAX(uint32_t);
    if (!any)
        return 0;
    *lo = mn;
    *hi = mx;
    return 1;
}
