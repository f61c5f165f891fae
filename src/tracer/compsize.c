/* compsize.c -- the COMPSIZE helpers: how many elements (ARRAY captures)
 * or bytes (DATA captures) a pointer argument covers when gl.xml says only
 * len="COMPSIZE(...)".
 *
 * The generator (codegen/) decides which helper each parameter uses and at
 * which argument positions; it emits gen/compsize_ids.h with one line per
 * instance, X(name, kind, pack, arg...).  This file says what each *kind*
 * computes (a W15_CS_KIND_<kind> macro) and builds w15_compsize[] from the
 * same list with designated initializers, so the table order cannot drift
 * from w15_compsize_names (gen/apitable.c).  codegen refuses to run when a
 * kind it uses has no macro here.
 *
 * Every helper runs inside the traced process: it reads the packed
 * arguments (and, for strings and attribute lists, the memory they point
 * to, through guard: a pointer GL would reject cannot crash it), asks GL
 * only read-only questions that cannot raise an error, and returns 0 when
 * it cannot tell ("unknown": the recorder then writes the pointer as
 * W15_CAP_PTR would).
 *
 * Module: owns the COMPSIZE helper kinds; its interface is the generated
 * table (apitable.h w15_compsize, gen/compsize_ids.h), so it has no header
 * of its own.  May use pixels, statesize, guard and the generated tables.  Must never use
 * record, thread or timing: helpers see packed arguments only.
 */
#include <stdint.h>
#include <string.h>

#include "apitable.h"
#include "guard.h"
#include "pixels.h"
#include "statesize.h"
#include "compsize_ids.h"

/* GL enumerant values used below (gl.xml). */
enum {
    CS_GL_BYTE = 0x1400, CS_GL_UNSIGNED_BYTE = 0x1401, CS_GL_SHORT = 0x1402,
    CS_GL_UNSIGNED_SHORT = 0x1403, CS_GL_INT = 0x1404, CS_GL_UNSIGNED_INT = 0x1405,
    CS_GL_FLOAT = 0x1406, CS_GL_2_BYTES = 0x1407, CS_GL_3_BYTES = 0x1408,
    CS_GL_4_BYTES = 0x1409,
    CS_GL_COLOR_INDEX = 0x1900, CS_GL_BITMAP = 0x1A00,
    CS_GL_COLOR = 0x1800, CS_GL_DEPTH = 0x1801, CS_GL_STENCIL = 0x1802,
    CS_GL_MAP1_COLOR_4 = 0x0D90, CS_GL_MAP2_COLOR_4 = 0x0DB0,
};

/* Building blocks of the kinds below; a build whose registry uses only
 * some kinds (the test fixture) leaves others unused. */
#define CS_HELPER static __attribute__((unused))

/* Longest attribute list a helper walks before giving up. */
#define CS_MAX_ATTRIBS 4096

CS_HELPER size_t nonneg(int64_t v) { return v < 0 ? 0 : (size_t)v; }

/* Bytes per list name of glCallLists(n, type, lists). */
CS_HELPER size_t list_type_size(uint64_t type)
{
    switch (type) {
    case CS_GL_BYTE: case CS_GL_UNSIGNED_BYTE: return 1;
    case CS_GL_SHORT: case CS_GL_UNSIGNED_SHORT: case CS_GL_2_BYTES: return 2;
    case CS_GL_3_BYTES: return 3;
    case CS_GL_INT: case CS_GL_UNSIGNED_INT: case CS_GL_FLOAT: case CS_GL_4_BYTES: return 4;
    default: return 0;
    }
}

/* Bytes per index of glDrawElements*(count, type): GL_UNSIGNED_BYTE,
 * _SHORT, _INT; 0 (unknown: GL refuses the type and reads nothing) else. */
CS_HELPER size_t index_type_size(uint64_t type)
{
    switch (type) {
    case CS_GL_UNSIGNED_BYTE: return 1;
    case CS_GL_UNSIGNED_SHORT: return 2;
    case CS_GL_UNSIGNED_INT: return 4;
    default: return 0;
    }
}

/* Values per control point of an evaluator map target (GL_MAP1_* or
 * GL_MAP2_*, the nine targets in gl.xml order from COLOR_4 to VERTEX_4). */
CS_HELPER size_t map_values(uint64_t target, uint64_t base)
{
    static const unsigned char k[9] = { 4, 1, 3, 1, 2, 3, 4, 3, 4 };
    return target >= base && target < base + 9 ? k[target - base] : 0;
}

/* Elements of a glXChooseVisual attribute list, terminator included (its
 * boolean keys stand alone: apitable.h w15_attrib_has_value). */
CS_HELPER size_t glx_visual_attribs(const int *l)
{
    size_t n = 0;
    if (!l)
        return 0;
    while (n < CS_MAX_ATTRIBS) {
        int tok;
        if (w15_guard_copy(&tok, &l[n++], sizeof tok))
            return 0;
        if (tok == 0)
            return n;
        if (w15_attrib_has_value(W15_ATTRIBS_GLX12, (uint64_t)(int64_t)tok))
            n++;
    }
    return 0;
}

/* Length of a NUL-terminated string, 0 when it cannot be read. */
CS_HELPER size_t cs_strlen(const char *s)
{
    size_t n = w15_guard_strnlen(s, UINT32_MAX);
    return n == (size_t)-1 ? 0 : n;
}

#define ARG_I(a, p) ((p) < 0 ? 1 : (a)[(p) < 0 ? 0 : (p)].i)

/* Number of values of a glGet*, glTexParameter*v, glLight*v, ... pname. */
#define W15_CS_KIND_pname(name, pack, p) \
    static size_t w15_cs_##name(const w15_slot_t *a) { return w15_pname_count((uint32_t)a[p].u); }
/* Pixel rectangles under the current pixel-store state.  An upload with a
 * depth parameter (glTexImage3D, glTexSubImage3D, ...) is a 3D image
 * whatever its depth: GL_UNPACK_IMAGE_HEIGHT and GL_UNPACK_SKIP_IMAGES
 * apply to a depth of 1 too. */
#define W15_CS_KIND_image(name, pack, f, t, w, h, d) \
    static size_t w15_cs_##name(const w15_slot_t *a) \
    { \
        if (pack && (a[w].i <= 0 || ARG_I(a, h) <= 0 || ARG_I(a, d) <= 0)) \
            return W15_CS_REFUSED; /* an empty image, or a size below 0: GL writes nothing */ \
        return w15_image_bytes(pack, pack ? ARG_I(a, d) > 1 : (d) >= 0, (uint32_t)a[f].u, (uint32_t)a[t].u, \
                               a[w].i, ARG_I(a, h), ARG_I(a, d)); \
    }
/* glBitmap: a width x height bitmap. */
#define W15_CS_KIND_bitmap(name, pack, w, h) \
    static size_t w15_cs_##name(const w15_slot_t *a) \
    { return w15_image_bytes(pack, 0, CS_GL_COLOR_INDEX, CS_GL_BITMAP, a[w].i, a[h].i, 1); }
/* glPolygonStipple / glGetPolygonStipple: a 32 x 32 bitmap. */
#define W15_CS_KIND_stipple(name, pack) \
    static size_t w15_cs_##name(const w15_slot_t *a) \
    { (void)a; return w15_image_bytes(pack, 0, CS_GL_COLOR_INDEX, CS_GL_BITMAP, 32, 32, 1); }
/* glCallLists(n, type, lists): bytes. */
#define W15_CS_KIND_lists(name, pack, n, t) \
    static size_t w15_cs_##name(const w15_slot_t *a) { return nonneg(a[n].i) * list_type_size(a[t].u); }
/* The index array of a single draw (count, type): bytes; a negative count
 * reads nothing (GL_INVALID_VALUE). */
#define W15_CS_KIND_indices(name, pack, n, t) \
    static size_t w15_cs_##name(const w15_slot_t *a) { return nonneg(a[n].i) * index_type_size(a[t].u); }
/* glGetTexImage(target, level, format, type): the level's image. */
#define W15_CS_KIND_teximage(name, pack, t, l, f, ty) \
    static size_t w15_cs_##name(const w15_slot_t *a) \
    { return w15_teximage_bytes((uint32_t)a[t].u, a[l].i, (uint32_t)a[f].u, (uint32_t)a[ty].u); }
/* glGetTextureImageEXT(texture, target, level, format, type) and
 * glGetMultiTexImageEXT(texunit, ...): the level's image. */
#define CS_TEXIMAGE_EXT(name, multi, o, t, l, f, ty) \
    static size_t w15_cs_##name(const w15_slot_t *a) \
    { return w15_teximage_ext_bytes(multi, (uint32_t)a[o].u, (uint32_t)a[t].u, a[l].i, (uint32_t)a[f].u, (uint32_t)a[ty].u); }
#define W15_CS_KIND_teximage_ext(name, pack, o, t, l, f, ty) CS_TEXIMAGE_EXT(name, 0, o, t, l, f, ty)
#define W15_CS_KIND_teximage_multi(name, pack, o, t, l, f, ty) CS_TEXIMAGE_EXT(name, 1, o, t, l, f, ty)
/* glGetCompressedTextureImageEXT(texture, target, lod) and
 * glGetCompressedMultiTexImageEXT(texunit, ...): the compressed level. */
#define CS_COMPRESSED_EXT(name, multi, o, t, l) \
    static size_t w15_cs_##name(const w15_slot_t *a) \
    { return w15_compressed_ext_bytes(multi, (uint32_t)a[o].u, (uint32_t)a[t].u, a[l].i); }
#define W15_CS_KIND_compressed_ext(name, pack, o, t, l) CS_COMPRESSED_EXT(name, 0, o, t, l)
#define W15_CS_KIND_compressed_multi(name, pack, o, t, l) CS_COMPRESSED_EXT(name, 1, o, t, l)
/* glGetCompressedTexImage(target, level): the compressed level's bytes. */
#define W15_CS_KIND_compressed(name, pack, t, l) \
    static size_t w15_cs_##name(const w15_slot_t *a) { return w15_compressed_bytes((uint32_t)a[t].u, a[l].i); }
/* glGetUniform*v(program, location): the uniform's components. */
#define W15_CS_KIND_uniform(name, pack, p, l) \
    static size_t w15_cs_##name(const w15_slot_t *a) { return w15_uniform_components((uint32_t)a[p].u, a[l].i); }
/* glGetPixelMap*v(map): the map's size. */
#define W15_CS_KIND_pixelmap(name, pack, m) \
    static size_t w15_cs_##name(const w15_slot_t *a) { return w15_pixel_map_values((uint32_t)a[m].u); }
/* glGetMap*v(target, query): an evaluator's coefficients, order or domain. */
#define W15_CS_KIND_evalmap(name, pack, t, q) \
    static size_t w15_cs_##name(const w15_slot_t *a) \
    { return w15_eval_map_values((uint32_t)a[t].u, (uint32_t)a[q].u); }
/* One texel of clear data (format, type): glClearTex*Image, glClear*BufferData. */
#define W15_CS_KIND_texel(name, pack, f, t) \
    static size_t w15_cs_##name(const w15_slot_t *a) { return w15_texel_bytes((uint32_t)a[f].u, (uint32_t)a[t].u); }
/* A string of `length` bytes, or NUL-terminated when length < 0. */
#define W15_CS_KIND_strn(name, pack, s, len) \
    static size_t w15_cs_##name(const w15_slot_t *a) \
    { return !a[s].p ? 0 : a[len].i >= 0 ? (size_t)a[len].i : cs_strlen((const char *)a[s].p); }
/* glClearBuffer*v(buffer, ...): four values for GL_COLOR, one for depth or stencil. */
#define W15_CS_KIND_clearbuf(name, pack, b) \
    static size_t w15_cs_##name(const w15_slot_t *a) \
    { return a[b].u == CS_GL_COLOR ? 4 : (a[b].u == CS_GL_DEPTH || a[b].u == CS_GL_STENCIL) ? 1 : 0; }
/* A byte count divided by the element size ("bufSize / 4"). */
#define W15_CS_KIND_div(name, pack, p, d) \
    static size_t w15_cs_##name(const w15_slot_t *a) { return nonneg(a[p].i) / (d); }
/* glMap1*(target, u1, u2, stride, order, points) */
#define W15_CS_KIND_map1(name, pack, t, s, o) \
    static size_t w15_cs_##name(const w15_slot_t *a) \
    { size_t k = map_values(a[t].u, CS_GL_MAP1_COLOR_4); \
      return k && a[o].i > 0 ? nonneg(a[s].i) * (size_t)(a[o].i - 1) + k : 0; }
/* glMap2*(target, u1, u2, ustride, uorder, v1, v2, vstride, vorder, points) */
#define W15_CS_KIND_map2(name, pack, t, us, uo, vs, vo) \
    static size_t w15_cs_##name(const w15_slot_t *a) \
    { size_t k = map_values(a[t].u, CS_GL_MAP2_COLOR_4); \
      return k && a[uo].i > 0 && a[vo].i > 0 ? nonneg(a[us].i) * (size_t)(a[uo].i - 1) + \
             nonneg(a[vs].i) * (size_t)(a[vo].i - 1) + k : 0; }
/* glMultiModeDraw{Arrays,Elements}IBM(mode, count, primcount, modestride):
 * bytes of the mode array, whose element i lies i * modestride bytes on;
 * GL reads element i only when count[i] > 0, so the bytes end with the last
 * such element.  0 (unknown: pointer only) for a negative stride (elements
 * before the pointer) or when count cannot be read. */
CS_HELPER size_t multimode_bytes(const int32_t *count, int64_t primcount, int64_t stride)
{
    if (primcount <= 0 || stride < 0 || primcount > (1 << 24) || !count)
        return 0;
    size_t end = 0;
    for (int64_t i = 0; i < primcount; i++) {
        int32_t c;
        if (w15_guard_copy(&c, &count[i], sizeof c))
            return 0;
        if (c > 0)
            end = (size_t)i * (size_t)stride + 4;
    }
    return end;
}
#define W15_CS_KIND_multimode(name, pack, m, c, n, s) \
    static size_t w15_cs_##name(const w15_slot_t *a) \
    { return !a[m].p ? 0 : multimode_bytes((const int32_t *)a[c].p, (int32_t)a[n].i, (int32_t)a[s].i); }
/* glXChooseVisual's attribute list (boolean tokens stand alone). */
#define W15_CS_KIND_glxvisual(name, pack, l) \
    static size_t w15_cs_##name(const w15_slot_t *a) { return glx_visual_attribs((const int *)a[l].p); }

/* glXQueryRendererIntegerMESA's attribute (GLX_MESA_query_renderer): the
 * version is 3 values, a profile version 2 (major, minor), the rest 1; an
 * unknown attribute writes nothing. */
#define W15_CS_KIND_glxrenderer(name, pack, at) \
    static size_t w15_cs_##name(const w15_slot_t *a) \
    { uint32_t v = (uint32_t)a[at].u; \
      return v == 0x8185u ? 3 : v >= 0x818Au && v <= 0x818Cu ? 2 : v >= 0x8183u && v <= 0x8189u ? 1 : 0; }

#define CS_DEFINE_(name, kind, ...) W15_CS_KIND_##kind(name, __VA_ARGS__)
W15_CS_INSTANCES(CS_DEFINE_)

#define CS_ENTRY_(name, kind, ...) [W15_CS_##name] = w15_cs_##name,
const w15_compsize_fn w15_compsize[W15_CS__COUNT + 1] = {
    W15_CS_INSTANCES(CS_ENTRY_)
    [W15_CS__COUNT] = 0,
};
