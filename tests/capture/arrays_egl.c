/* arrays_egl.c -- draws from client-side vertex arrays (tests/capture/
 * arrays.cmake) and writes what each draw reads into an expectation file,
 * which arrays_check compares with the trace's wip15ClientMemory and
 * wip15ClientArray pseudo-calls.
 *
 *   arrays_egl CASE EXPECT_FILE
 *
 * EGL surfaceless, a 64x64 pbuffer; desktop GL cases use a compatibility
 * context (client arrays do not exist in core), es2/es3 an OpenGL ES one.
 * Each case swaps once at its end (frame digests for `wip15 replay
 * --check`).  The expectation file, one item per line:
 *   draw NAME                      the next draw call (every glDraw*,
 *                                  glMultiDraw*, glArrayElement in order)
 *   arr ARRAY INDEX SIZE TYPE STRIDE FLAGS POINTER DIVISOR
 *                                  a wip15ClientArray the draw must have
 *   mem ADDRESS LENGTH HEX         bytes the draw reads (merged by the
 *                                  checker where they overlap or touch)
 * Numbers in hex without 0x.  The rule for a client array: from its first
 * to its last element the draw reads, pointer + lo * step up to
 * pointer + hi * step + element size (docs/FORMAT.md).
 */
#define APP_NAME "arrays_egl"
#define GL_GLEXT_PROTOTYPES 1
#include "app_common.h"
#include "app_egl.h"

#include <GL/gl.h>
#include <GL/glext.h>
#include <stdint.h>

static FILE *ex;
static app_egl_t egl;

/* ---------------------------------------------------------- expectations */

static void exp_draw(const char *name)
{
    fprintf(ex, "draw %s\n", name);
}

static void exp_mem(const void *p, size_t len)
{
    fprintf(ex, "mem %llx %zx ", (unsigned long long)(uintptr_t)p, len);
    for (size_t i = 0; i < len; i++)
        fprintf(ex, "%02x", ((const unsigned char *)p)[i]);
    fputc('\n', ex);
}

/* Of the draw's memory, n are unchanged since the thread last recorded
 * them at the same address and size (wip15ClientMemorySame). */
static void exp_same(int n)
{
    fprintf(ex, "same %d\n", n);
}

/* A client array and the elements [lo, hi] the draw reads. */
static void exp_arr(unsigned array, unsigned index, int size, unsigned type, int stride, unsigned flags,
                    const void *ptr, unsigned divisor, size_t esize, long lo, long hi)
{
    fprintf(ex, "arr %x %x %x %x %x %x %llx %x\n", array, index, (unsigned)size, type, (unsigned)stride, flags,
            (unsigned long long)(uintptr_t)ptr, divisor);
    size_t step = stride ? (size_t)stride : esize;
    exp_mem((const unsigned char *)ptr + (size_t)lo * step, (size_t)(hi - lo) * step + esize);
}

static void check_error(const char *where)
{
    GLenum e = glGetError();
    APP_CHECK(e == GL_NO_ERROR, "%s: GL error 0x%x", where, e);
}

static void frame_end(void)
{
    unsigned char px[4];
    glReadPixels(32, 32, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
    eglSwapBuffers(egl.dpy, egl.surf);
}

/* The smallest and largest indices, restart index left out (when rs). */
static void minmax(const void *idx, unsigned type, int count, int rs, unsigned restart, long *lo, long *hi)
{
    *lo = 1L << 40;
    *hi = -1;
    for (int i = 0; i < count; i++) {
        unsigned v = type == GL_UNSIGNED_BYTE    ? ((const uint8_t *)idx)[i]
                     : type == GL_UNSIGNED_SHORT ? ((const uint16_t *)idx)[i]
                                                 : ((const uint32_t *)idx)[i];
        if (rs && v == restart)
            continue;
        if (v < *lo)
            *lo = v;
        if ((long)v > *hi)
            *hi = v;
    }
}

static GLuint shader(GLenum kind, const char *src)
{
    GLuint s = glCreateShader(kind);
    glShaderSource(s, 1, &src, NULL);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[2048];
        glGetShaderInfoLog(s, sizeof log, NULL, log);
        app_fail("shader: %s", log);
    }
    return s;
}

static GLuint program(const char *vs, const char *fs, const char *const *attrs, int nattrs)
{
    GLuint p = glCreateProgram();
    glAttachShader(p, shader(GL_VERTEX_SHADER, vs));
    glAttachShader(p, shader(GL_FRAGMENT_SHADER, fs));
    for (int i = 0; i < nattrs; i++)
        glBindAttribLocation(p, (GLuint)i, attrs[i]);
    glLinkProgram(p);
    GLint ok = 0;
    glGetProgramiv(p, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[2048];
        glGetProgramInfoLog(p, sizeof log, NULL, log);
        app_fail("link: %s", log);
    }
    glUseProgram(p);
    return p;
}

/* Deterministic vertex data. */
static void fill_f(float *v, size_t n, float scale)
{
    for (size_t i = 0; i < n; i++)
        v[i] = (float)((i * 37) % 101) / 101.0f * scale - scale / 2;
}
static void fill_b(unsigned char *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        v[i] = (unsigned char)(i * 53 + 7);
}

#define NV 300 /* vertices in every array */

/* --------------------------------------------------------- legacy (compat) */

static void case_legacy(void)
{
    static float pos[NV * 3], nrm[NV * 4], sec[NV * 3], fog[NV], tc0[NV * 2], tc2[NV * 5];
    static short tc1[NV * 3];
    static unsigned char col[NV * 4], edge[NV];
    fill_f(pos, NV * 3, 1.5f);
    fill_f(nrm, NV * 4, 1);
    fill_f(sec, NV * 3, 1);
    fill_f(fog, NV, 1);
    fill_f(tc0, NV * 2, 1);
    fill_f(tc2, NV * 5, 1);
    for (int i = 0; i < NV * 3; i++)
        tc1[i] = (short)(i * 3 - 100);
    fill_b(col, NV * 4);
    for (int i = 0; i < NV; i++)
        edge[i] = (unsigned char)(i % 3 != 0);

    glEnableClientState(GL_VERTEX_ARRAY);
    glVertexPointer(3, GL_FLOAT, 0, pos);
    glEnableClientState(GL_NORMAL_ARRAY);
    glNormalPointer(GL_FLOAT, 16, nrm);
    glEnableClientState(GL_COLOR_ARRAY);
    glColorPointer(4, GL_UNSIGNED_BYTE, 0, col);
    glEnableClientState(GL_SECONDARY_COLOR_ARRAY);
    glSecondaryColorPointer(3, GL_FLOAT, 0, sec);
    glEnableClientState(GL_FOG_COORD_ARRAY);
    glFogCoordPointer(GL_FLOAT, 0, fog);
    glEnableClientState(GL_EDGE_FLAG_ARRAY);
    glEdgeFlagPointer(0, edge);
    glClientActiveTexture(GL_TEXTURE0);
    glEnableClientState(GL_TEXTURE_COORD_ARRAY);
    glTexCoordPointer(2, GL_FLOAT, 0, tc0);
    glClientActiveTexture(GL_TEXTURE1);
    glEnableClientState(GL_TEXTURE_COORD_ARRAY);
    glTexCoordPointer(3, GL_SHORT, 0, tc1);
    glClientActiveTexture(GL_TEXTURE2);
    glEnableClientState(GL_TEXTURE_COORD_ARRAY);
    glTexCoordPointer(4, GL_FLOAT, 20, tc2);
    glClientActiveTexture(GL_TEXTURE1); /* left on unit 1: the tracer must put it back */
    check_error("legacy setup");

#define LEGACY_ALL(lo, hi, with_sec, with_tc1)                                                           \
    do {                                                                                                 \
        exp_arr(GL_VERTEX_ARRAY, 0, 3, GL_FLOAT, 0, 0, pos, 0, 12, lo, hi);                              \
        exp_arr(GL_NORMAL_ARRAY, 0, 3, GL_FLOAT, 16, 0, nrm, 0, 12, lo, hi);                             \
        exp_arr(GL_COLOR_ARRAY, 0, 4, GL_UNSIGNED_BYTE, 0, 0, col, 0, 4, lo, hi);                        \
        if (with_sec)                                                                                    \
            exp_arr(GL_SECONDARY_COLOR_ARRAY, 0, 3, GL_FLOAT, 0, 0, sec, 0, 12, lo, hi);                 \
        exp_arr(GL_FOG_COORD_ARRAY, 0, 1, GL_FLOAT, 0, 0, fog, 0, 4, lo, hi);                            \
        exp_arr(GL_EDGE_FLAG_ARRAY, 0, 1, GL_UNSIGNED_BYTE, 0, 0, edge, 0, 1, lo, hi);                   \
        exp_arr(GL_TEXTURE_COORD_ARRAY, 0, 2, GL_FLOAT, 0, 0, tc0, 0, 8, lo, hi);                        \
        if (with_tc1)                                                                                    \
            exp_arr(GL_TEXTURE_COORD_ARRAY, 1, 3, GL_SHORT, 0, 0, tc1, 0, 6, lo, hi);                    \
        exp_arr(GL_TEXTURE_COORD_ARRAY, 2, 4, GL_FLOAT, 20, 0, tc2, 0, 16, lo, hi);                      \
    } while (0)

    exp_draw("glDrawArrays");
    LEGACY_ALL(3, 8, 1, 1);
    glDrawArrays(GL_TRIANGLES, 3, 6);
    GLint active = 0;
    glGetIntegerv(GL_CLIENT_ACTIVE_TEXTURE, &active);
    APP_CHECK(active == GL_TEXTURE1, "client active texture changed to 0x%x", active);
    check_error("legacy draw");

    /* disabled arrays are not read */
    glDisableClientState(GL_TEXTURE_COORD_ARRAY); /* unit 1 */
    glDisableClientState(GL_SECONDARY_COLOR_ARRAY);
    exp_draw("glDrawArrays");
    LEGACY_ALL(100, 102, 0, 0);
    glDrawArrays(GL_TRIANGLES, 100, 3);

    /* a draw of nothing reads nothing; an invalid one neither */
    exp_draw("glDrawArrays");
    glDrawArrays(GL_TRIANGLES, 5, 0);
    exp_draw("glDrawArrays");
    glDrawArrays(GL_TRIANGLES, 5, -1);
    APP_CHECK(glGetError() == GL_INVALID_VALUE, "glDrawArrays count -1: no GL_INVALID_VALUE");


    /* GL_BGRA colours, elements with every index type */
    glColorPointer(GL_BGRA, GL_UNSIGNED_BYTE, 0, col);
    static const uint8_t i8[] = { 9, 4, 30, 12, 4, 17 };
    static const uint16_t i16[] = { 250, 40, 41, 260, 40, 99 };
    static const uint32_t i32[] = { 7, 299, 150, 8, 9, 10 };
    const void *idx[3] = { i8, i16, i32 };
    const GLenum types[3] = { GL_UNSIGNED_BYTE, GL_UNSIGNED_SHORT, GL_UNSIGNED_INT };
    for (int k = 0; k < 3; k++) {
        long lo, hi;
        minmax(idx[k], types[k], 6, 0, 0, &lo, &hi);
        exp_draw("glDrawElements");
        exp_arr(GL_VERTEX_ARRAY, 0, 3, GL_FLOAT, 0, 0, pos, 0, 12, lo, hi);
        exp_arr(GL_NORMAL_ARRAY, 0, 3, GL_FLOAT, 16, 0, nrm, 0, 12, lo, hi);
        exp_arr(GL_COLOR_ARRAY, 0, GL_BGRA, GL_UNSIGNED_BYTE, 0, 0, col, 0, 4, lo, hi);
        exp_arr(GL_FOG_COORD_ARRAY, 0, 1, GL_FLOAT, 0, 0, fog, 0, 4, lo, hi);
        exp_arr(GL_EDGE_FLAG_ARRAY, 0, 1, GL_UNSIGNED_BYTE, 0, 0, edge, 0, 1, lo, hi);
        exp_arr(GL_TEXTURE_COORD_ARRAY, 0, 2, GL_FLOAT, 0, 0, tc0, 0, 8, lo, hi);
        exp_arr(GL_TEXTURE_COORD_ARRAY, 2, 4, GL_FLOAT, 20, 0, tc2, 0, 16, lo, hi);
        glDrawElements(GL_TRIANGLES, 6, types[k], idx[k]);
    }
    check_error("legacy elements");
    frame_end();
}

/* Draws GL rejects read nothing: nothing is recorded. */
static void case_invalid(void)
{
    static float pos[NV * 3];
    fill_f(pos, NV * 3, 1.5f);
    glEnableClientState(GL_VERTEX_ARRAY);
    glVertexPointer(3, GL_FLOAT, 0, pos);
    exp_draw("glDrawArrays");
    glDrawArrays(0x20, 5, 3); /* no such mode */
    APP_CHECK(glGetError() == GL_INVALID_ENUM, "glDrawArrays mode 0x20: no GL_INVALID_ENUM");
    exp_draw("glDrawElements");
    static const float fidx[] = { 1, 2, 3 };
    glDrawElements(GL_TRIANGLES, 3, GL_FLOAT, fidx); /* no such index type */
    APP_CHECK(glGetError() == GL_INVALID_ENUM, "glDrawElements GL_FLOAT: no GL_INVALID_ENUM");
    exp_draw("glDrawElements");
    glDrawElements(GL_TRIANGLES, -3, GL_UNSIGNED_BYTE, fidx);
    APP_CHECK(glGetError() == GL_INVALID_VALUE, "glDrawElements count -3: no GL_INVALID_VALUE");
    exp_draw("glDrawArraysInstanced");
    glDrawArraysInstanced(GL_TRIANGLES, 0, 3, -1);
    APP_CHECK(glGetError() == GL_INVALID_VALUE, "glDrawArraysInstanced -1 instances: no GL_INVALID_VALUE");
    /* inside glBegin/glEnd a draw is GL_INVALID_OPERATION */
    glBegin(GL_POINTS);
    exp_draw("glDrawArrays");
    glDrawArrays(GL_POINTS, 0, 3);
    glEnd();
    APP_CHECK(glGetError() == GL_INVALID_OPERATION, "glDrawArrays in glBegin: no GL_INVALID_OPERATION");
    exp_draw("glDrawArrays");
    exp_arr(GL_VERTEX_ARRAY, 0, 3, GL_FLOAT, 0, 0, pos, 0, 12, 0, 2);
    glDrawArrays(GL_POINTS, 0, 3);
    check_error("invalid");
    frame_end();
}

/* glInterleavedArrays: one block of memory, recorded once per draw. */
static void case_interleaved(void)
{
    static float blk[NV * 12];
    fill_f(blk, NV * 12, 1.5f);
    glInterleavedArrays(GL_T2F_C4F_N3F_V3F, 0, blk);
    exp_draw("glDrawArrays");
    exp_arr(GL_VERTEX_ARRAY, 0, 3, GL_FLOAT, 48, 0, blk + 9, 0, 12, 2, 7);
    exp_arr(GL_NORMAL_ARRAY, 0, 3, GL_FLOAT, 48, 0, blk + 6, 0, 12, 2, 7);
    exp_arr(GL_COLOR_ARRAY, 0, 4, GL_FLOAT, 48, 0, blk + 2, 0, 16, 2, 7);
    exp_arr(GL_TEXTURE_COORD_ARRAY, 0, 2, GL_FLOAT, 48, 0, blk, 0, 8, 2, 7);
    glDrawArrays(GL_TRIANGLES, 2, 6);

    /* on unit 1, with an explicit stride; unit 0 keeps its array */
    static float blk2[NV * 8];
    fill_f(blk2, NV * 8, 1);
    glClientActiveTexture(GL_TEXTURE1);
    glInterleavedArrays(GL_T2F_V3F, 32, blk2);
    glClientActiveTexture(GL_TEXTURE0);
    exp_draw("glDrawArrays");
    exp_arr(GL_VERTEX_ARRAY, 0, 3, GL_FLOAT, 32, 0, blk2 + 2, 0, 12, 10, 12);
    exp_arr(GL_TEXTURE_COORD_ARRAY, 0, 2, GL_FLOAT, 48, 0, blk, 0, 8, 10, 12);
    exp_arr(GL_TEXTURE_COORD_ARRAY, 1, 2, GL_FLOAT, 32, 0, blk2, 0, 8, 10, 12);
    glDrawArrays(GL_TRIANGLES, 10, 3);

    /* two arrays in one block, with a gap between draws' elements: a multi-draw */
    static const GLint first[] = { 20, 5, 9 };
    static const GLsizei count[] = { 3, 3, 0 };
    exp_draw("glMultiDrawArrays");
    exp_arr(GL_VERTEX_ARRAY, 0, 3, GL_FLOAT, 32, 0, blk2 + 2, 0, 12, 5, 22);
    exp_arr(GL_TEXTURE_COORD_ARRAY, 0, 2, GL_FLOAT, 48, 0, blk, 0, 8, 5, 22);
    exp_arr(GL_TEXTURE_COORD_ARRAY, 1, 2, GL_FLOAT, 32, 0, blk2, 0, 8, 5, 22);
    glMultiDrawArrays(GL_TRIANGLES, first, count, 3);
    check_error("interleaved");
    frame_end();
}

/* ------------------------------------------------ generic attributes */

static const char *const attr_names[] = { "a_pos", "a_col", "a_int", "a_dbl", "a_off", "a_sc" };

static void case_generic(void)
{
    const char *vs = "#version 410\n"
                     "in vec2 a_pos; in vec4 a_col; in ivec2 a_int; in dvec2 a_dbl;\n"
                     "out vec4 v_col;\n"
                     "void main() { v_col = a_col + vec4(float(a_int.x + a_int.y) * 0.001) +"
                     " vec4(float(a_dbl.x * 0.001)); gl_Position = vec4(a_pos, 0.0, 1.0); }\n";
    const char *fs = "#version 410\nin vec4 v_col; out vec4 o; void main() { o = v_col; }\n";
    program(vs, fs, attr_names, 4);
    static float pos[NV * 2];
    static unsigned char col[NV * 4 + 8];
    static short ints[NV * 3];
    static double dbl[NV * 2];
    fill_f(pos, NV * 2, 1.5f);
    fill_b(col, sizeof col);
    for (int i = 0; i < NV * 3; i++)
        ints[i] = (short)(i * 7 - 300);
    for (int i = 0; i < NV * 2; i++)
        dbl[i] = i * 0.25;
    for (int i = 0; i < 4; i++)
        glEnableVertexAttribArray((GLuint)i);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, pos);
    glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, 0, col + 3); /* unaligned */
    glVertexAttribIPointer(2, 2, GL_SHORT, 6, ints);
    glVertexAttribLPointer(3, 2, GL_DOUBLE, 0, dbl);
    check_error("generic setup");

#define GENERIC_ALL(lo, hi)                                                                              \
    do {                                                                                                 \
        exp_arr(0x8645, 0, 2, GL_FLOAT, 0, 0, pos, 0, 8, lo, hi);                                        \
        exp_arr(0x8645, 1, 4, GL_UNSIGNED_BYTE, 0, 1, col + 3, 0, 4, lo, hi);                            \
        exp_arr(0x8645, 2, 2, GL_SHORT, 6, 2, ints, 0, 4, lo, hi);                                       \
        exp_arr(0x8645, 3, 2, GL_DOUBLE, 0, 4, dbl, 0, 16, lo, hi);                                      \
    } while (0)

    exp_draw("glDrawArrays");
    GENERIC_ALL(1, 4);
    glDrawArrays(GL_TRIANGLE_STRIP, 1, 4);
    static const uint8_t i8[] = { 3, 200, 17 };
    static const uint16_t i16[] = { 299, 0, 17 };
    static const uint32_t i32[] = { 150, 151, 152, 40, 41, 42 };
    exp_draw("glDrawElements");
    GENERIC_ALL(3, 200);
    glDrawElements(GL_TRIANGLES, 3, GL_UNSIGNED_BYTE, i8);
    exp_draw("glDrawElements");
    GENERIC_ALL(0, 299);
    glDrawElements(GL_TRIANGLES, 3, GL_UNSIGNED_SHORT, i16);
    exp_draw("glDrawElements");
    GENERIC_ALL(40, 152);
    glDrawElements(GL_TRIANGLES, 6, GL_UNSIGNED_INT, i32);
    /* a disabled attribute is not read; a plain pointer replaces the I one */
    glDisableVertexAttribArray(3);
    glVertexAttribPointer(2, 2, GL_SHORT, GL_FALSE, 0, ints);
    exp_draw("glDrawArrays");
    exp_arr(0x8645, 0, 2, GL_FLOAT, 0, 0, pos, 0, 8, 7, 9);
    exp_arr(0x8645, 1, 4, GL_UNSIGNED_BYTE, 0, 1, col + 3, 0, 4, 7, 9);
    exp_arr(0x8645, 2, 2, GL_SHORT, 0, 0, ints, 0, 4, 7, 9);
    glDrawArrays(GL_TRIANGLES, 7, 3);
    check_error("generic draws");
    frame_end();
}

/* Primitive restart: the restart index is not a vertex. */
static void case_restart(void)
{
    static float pos[NV * 3];
    fill_f(pos, NV * 3, 1.5f);
    glEnableClientState(GL_VERTEX_ARRAY);
    glVertexPointer(3, GL_FLOAT, 0, pos);
    static const uint16_t s1[] = { 10, 11, 12, 0xFFFF, 13, 14, 15 };
    static const uint16_t s2[] = { 20, 21, 250, 22, 23, 24 };
    static const uint8_t b1[] = { 30, 31, 32, 0xFF, 33, 34, 35 };
    static const uint32_t u1[] = { 40, 41, 42, 0xFFFFFFFFu, 43, 44, 45 };
    long lo, hi;

    glEnable(GL_PRIMITIVE_RESTART);
    glPrimitiveRestartIndex(0xFFFF);
    exp_draw("glDrawElements");
    exp_arr(GL_VERTEX_ARRAY, 0, 3, GL_FLOAT, 0, 0, pos, 0, 12, 10, 15);
    glDrawElements(GL_TRIANGLE_STRIP, 7, GL_UNSIGNED_SHORT, s1);
    glPrimitiveRestartIndex(250);
    exp_draw("glDrawElements");
    exp_arr(GL_VERTEX_ARRAY, 0, 3, GL_FLOAT, 0, 0, pos, 0, 12, 20, 24);
    glDrawElements(GL_TRIANGLE_STRIP, 6, GL_UNSIGNED_SHORT, s2);
    /* a restart index that no index equals leaves all of them */
    glPrimitiveRestartIndex(1000);
    exp_draw("glDrawElements");
    exp_arr(GL_VERTEX_ARRAY, 0, 3, GL_FLOAT, 0, 0, pos, 0, 12, 20, 250);
    glDrawElements(GL_TRIANGLE_STRIP, 6, GL_UNSIGNED_SHORT, s2);
    glDisable(GL_PRIMITIVE_RESTART);
    /* fixed index: 0xFF for bytes, 0xFFFFFFFF for ints */
    glEnable(GL_PRIMITIVE_RESTART_FIXED_INDEX);
    exp_draw("glDrawElements");
    exp_arr(GL_VERTEX_ARRAY, 0, 3, GL_FLOAT, 0, 0, pos, 0, 12, 30, 35);
    glDrawElements(GL_TRIANGLE_STRIP, 7, GL_UNSIGNED_BYTE, b1);
    exp_draw("glDrawElements");
    exp_arr(GL_VERTEX_ARRAY, 0, 3, GL_FLOAT, 0, 0, pos, 0, 12, 40, 45);
    glDrawElements(GL_TRIANGLE_STRIP, 7, GL_UNSIGNED_INT, u1);
    glDisable(GL_PRIMITIVE_RESTART_FIXED_INDEX);
    /* no restart: 0xFF is vertex 255 */
    minmax(b1, GL_UNSIGNED_BYTE, 7, 0, 0, &lo, &hi);
    exp_draw("glDrawElements");
    exp_arr(GL_VERTEX_ARRAY, 0, 3, GL_FLOAT, 0, 0, pos, 0, 12, lo, hi);
    glDrawElements(GL_TRIANGLE_STRIP, 7, GL_UNSIGNED_BYTE, b1);
    /* only restart indices: nothing is read */
    static const uint16_t only[] = { 7, 7 };
    glEnable(GL_PRIMITIVE_RESTART);
    glPrimitiveRestartIndex(7);
    exp_draw("glDrawElements");
    glDrawElements(GL_TRIANGLES, 2, GL_UNSIGNED_SHORT, only);
    glDisable(GL_PRIMITIVE_RESTART);
    check_error("restart");
    frame_end();
}

/* glDrawRangeElements: start/end are a hint; base vertex. */
static void case_range(void)
{
    static float pos[NV * 3];
    static unsigned char col[NV * 5];
    fill_f(pos, NV * 3, 1.5f);
    fill_b(col, sizeof col);
    glEnableClientState(GL_VERTEX_ARRAY);
    glVertexPointer(3, GL_FLOAT, 0, pos);
    glEnableClientState(GL_COLOR_ARRAY);
    glColorPointer(3, GL_UNSIGNED_BYTE, 5, col);
    static const uint16_t s[] = { 12, 10, 20, 11, 15, 13 };
#define RANGE_ALL(lo, hi)                                                                                \
    do {                                                                                                 \
        exp_arr(GL_VERTEX_ARRAY, 0, 3, GL_FLOAT, 0, 0, pos, 0, 12, lo, hi);                              \
        exp_arr(GL_COLOR_ARRAY, 0, 3, GL_UNSIGNED_BYTE, 5, 0, col, 0, 3, lo, hi);                        \
    } while (0)
    exp_draw("glDrawRangeElements");
    RANGE_ALL(10, 20);
    glDrawRangeElements(GL_TRIANGLES, 0, 99, 6, GL_UNSIGNED_SHORT, s);
    exp_draw("glDrawRangeElementsBaseVertex");
    RANGE_ALL(110, 120);
    glDrawRangeElementsBaseVertex(GL_TRIANGLES, 100, 130, 6, GL_UNSIGNED_SHORT, s, 100);
    exp_draw("glDrawElementsBaseVertex");
    RANGE_ALL(3, 13);
    glDrawElementsBaseVertex(GL_TRIANGLES, 6, GL_UNSIGNED_SHORT, s, -7);
    static const uint8_t b[] = { 0, 1, 2 };
    exp_draw("glDrawElementsBaseVertex");
    RANGE_ALL(250, 252);
    glDrawElementsBaseVertex(GL_TRIANGLES, 3, GL_UNSIGNED_BYTE, b, 250);
    check_error("range");
    frame_end();
}

/* Instancing: arrays with a divisor read baseinstance + (instances-1)/divisor. */
static void case_instanced(void)
{
    const char *vs = "#version 410\n"
                     "in vec2 a_pos; in vec4 a_col; in vec2 a_off; in float a_sc;\n"
                     "out vec4 v_col;\n"
                     "void main() { v_col = a_col; gl_Position = vec4(a_pos * a_sc + a_off, 0.0, 1.0); }\n";
    const char *fs = "#version 410\nin vec4 v_col; out vec4 o; void main() { o = v_col; }\n";
    static const char *const names[] = { "a_pos", "a_col", "a_off", "a_sc" };
    program(vs, fs, names, 4);
    static float pos[NV * 2], off[NV * 2], sc[NV];
    static unsigned char col[NV * 4];
    fill_f(pos, NV * 2, 0.3f);
    fill_f(off, NV * 2, 1.5f);
    fill_f(sc, NV, 1);
    fill_b(col, sizeof col);
    for (int i = 0; i < 4; i++)
        glEnableVertexAttribArray((GLuint)i);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, pos);
    glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, 0, col);
    glVertexAttribPointer(2, 2, GL_FLOAT, GL_FALSE, 0, off);
    glVertexAttribPointer(3, 1, GL_FLOAT, GL_FALSE, 0, sc);
    glVertexAttribDivisor(2, 1);
    glVertexAttribDivisor(3, 2);
#define INST_ALL(lo, hi, ilo, ihi, slo, shi)                                                             \
    do {                                                                                                 \
        exp_arr(0x8645, 0, 2, GL_FLOAT, 0, 0, pos, 0, 8, lo, hi);                                        \
        exp_arr(0x8645, 1, 4, GL_UNSIGNED_BYTE, 0, 1, col, 0, 4, lo, hi);                                \
        exp_arr(0x8645, 2, 2, GL_FLOAT, 0, 0, off, 1, 8, ilo, ihi);                                      \
        exp_arr(0x8645, 3, 1, GL_FLOAT, 0, 0, sc, 2, 4, slo, shi);                                       \
    } while (0)
    exp_draw("glDrawArraysInstanced");
    INST_ALL(4, 6, 0, 4, 0, 2);
    glDrawArraysInstanced(GL_TRIANGLES, 4, 3, 5);
    exp_draw("glDrawArraysInstancedBaseInstance");
    INST_ALL(0, 2, 20, 23, 20, 21);
    glDrawArraysInstancedBaseInstance(GL_TRIANGLES, 0, 3, 4, 20);
    static const uint32_t idx[] = { 50, 60, 55 };
    exp_draw("glDrawElementsInstanced");
    INST_ALL(50, 60, 0, 0, 0, 0);
    glDrawElementsInstanced(GL_TRIANGLES, 3, GL_UNSIGNED_INT, idx, 1);
    exp_draw("glDrawElementsInstancedBaseVertexBaseInstance");
    INST_ALL(52, 62, 7, 13, 7, 10);
    glDrawElementsInstancedBaseVertexBaseInstance(GL_TRIANGLES, 3, GL_UNSIGNED_INT, idx, 7, 2, 7);
    exp_draw("glDrawElementsInstancedBaseVertex");
    INST_ALL(40, 50, 0, 2, 0, 1);
    glDrawElementsInstancedBaseVertex(GL_TRIANGLES, 3, GL_UNSIGNED_INT, idx, 3, -10);
    /* no instance: nothing is read */
    exp_draw("glDrawArraysInstanced");
    glDrawArraysInstanced(GL_TRIANGLES, 0, 3, 0);
    check_error("instanced");
    frame_end();
}

/* Multi-draws: every sub-draw's range; glMultiDrawElements' index arrays. */
static void case_multidraw(void)
{
    static float pos[NV * 3];
    fill_f(pos, NV * 3, 1.5f);
    glEnableClientState(GL_VERTEX_ARRAY);
    glVertexPointer(3, GL_FLOAT, 16, pos); /* 4 floats apart: element 3 floats */
    static const GLint first[] = { 40, 3, 90 };
    static const GLsizei count[] = { 3, 6, 3 };
    exp_draw("glMultiDrawArrays");
    exp_arr(GL_VERTEX_ARRAY, 0, 3, GL_FLOAT, 16, 0, pos, 0, 12, 3, 92);
    glMultiDrawArrays(GL_TRIANGLES, first, count, 3);
    static const uint16_t a[] = { 70, 71, 72 }, b[] = { 5, 6, 7, 8, 9, 10 };
    static const uint16_t c[] = { 200, 201, 202 };
    const void *ind[] = { a, b, c };
    static const GLsizei cnt[] = { 3, 6, 3 };
    exp_draw("glMultiDrawElements");
    exp_arr(GL_VERTEX_ARRAY, 0, 3, GL_FLOAT, 16, 0, pos, 0, 12, 5, 202);
    exp_mem(a, sizeof a);
    exp_mem(b, sizeof b);
    exp_mem(c, sizeof c);
    glMultiDrawElements(GL_TRIANGLES, cnt, GL_UNSIGNED_SHORT, ind, 3);
    static const GLint bv[] = { 1, 0, -100 };
    exp_draw("glMultiDrawElementsBaseVertex");
    exp_arr(GL_VERTEX_ARRAY, 0, 3, GL_FLOAT, 16, 0, pos, 0, 12, 5, 102);
    exp_mem(a, sizeof a);
    exp_mem(b, sizeof b);
    exp_mem(c, sizeof c);
    glMultiDrawElementsBaseVertex(GL_TRIANGLES, cnt, GL_UNSIGNED_SHORT, ind, 3, bv);
    /* one sub-draw of nothing: its index array is not read */
    static const GLsizei cnt0[] = { 3, 0 };
    exp_draw("glMultiDrawElements");
    exp_arr(GL_VERTEX_ARRAY, 0, 3, GL_FLOAT, 16, 0, pos, 0, 12, 70, 72);
    exp_mem(a, sizeof a);
    glMultiDrawElements(GL_TRIANGLES, cnt0, GL_UNSIGNED_SHORT, ind, 2);
    check_error("multidraw");
    frame_end();
}

/* glArrayElement inside glBegin/glEnd: one element per call. */
static void case_arrayelement(void)
{
    static float pos[NV * 3];
    static float col[NV * 3];
    fill_f(pos, NV * 3, 1.5f);
    fill_f(col, NV * 3, 1);
    glEnableClientState(GL_VERTEX_ARRAY);
    glVertexPointer(3, GL_FLOAT, 0, pos);
    glEnableClientState(GL_COLOR_ARRAY);
    glColorPointer(3, GL_FLOAT, 0, col);
    static const int els[] = { 4, 7, 2, 7, 299, 0 };
    glBegin(GL_TRIANGLES);
    for (int i = 0; i < 6; i++) {
        exp_draw("glArrayElement");
        exp_arr(GL_VERTEX_ARRAY, 0, 3, GL_FLOAT, 0, 0, pos, 0, 12, els[i], els[i]);
        exp_arr(GL_COLOR_ARRAY, 0, 3, GL_FLOAT, 0, 0, col, 0, 12, els[i], els[i]);
        glArrayElement(els[i]);
    }
    glEnd();
    /* and outside Begin/End */
    exp_draw("glArrayElement");
    exp_arr(GL_VERTEX_ARRAY, 0, 3, GL_FLOAT, 0, 0, pos, 0, 12, 9, 9);
    exp_arr(GL_COLOR_ARRAY, 0, 3, GL_FLOAT, 0, 0, col, 0, 12, 9, 9);
    glArrayElement(9);
    check_error("arrayelement");
    exp_draw("glDrawArrays");
    exp_arr(GL_VERTEX_ARRAY, 0, 3, GL_FLOAT, 0, 0, pos, 0, 12, 0, 2);
    exp_arr(GL_COLOR_ARRAY, 0, 3, GL_FLOAT, 0, 0, col, 0, 12, 0, 2);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    frame_end();
}

/* Arrays in buffers are not client memory; client vertex arrays with the
 * indices in an element buffer: the range comes from the buffer, and the
 * program sees nothing change. */
static void case_buffers(void)
{
    static float pos[NV * 3], col[NV * 3];
    fill_f(pos, NV * 3, 1.5f);
    fill_f(col, NV * 3, 1);
    GLuint vbo, ebo, ebo2;
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof col, col, GL_STATIC_DRAW);
    glEnableClientState(GL_VERTEX_ARRAY);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glVertexPointer(3, GL_FLOAT, 0, pos);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glEnableClientState(GL_COLOR_ARRAY);
    glColorPointer(3, GL_FLOAT, 0, (const void *)12); /* an offset */
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    exp_draw("glDrawArrays");
    exp_arr(GL_VERTEX_ARRAY, 0, 3, GL_FLOAT, 0, 0, pos, 0, 12, 6, 8);
    glDrawArrays(GL_TRIANGLES, 6, 3);

    static const uint16_t idx[] = { 0xAAAA, 0xAAAA, 0xAAAA, 0xAAAA, 33, 30, 31, 40, 32, 34 };
    glGenBuffers(1, &ebo);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ebo);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, sizeof idx, idx, GL_STATIC_DRAW);
    exp_draw("glDrawElements");
    exp_arr(GL_VERTEX_ARRAY, 0, 3, GL_FLOAT, 0, 0, pos, 0, 12, 30, 40);
    glDrawElements(GL_TRIANGLES, 6, GL_UNSIGNED_SHORT, (const void *)8);
    /* nothing the program sees changed */
    GLint v = -1;
    glGetIntegerv(GL_ELEMENT_ARRAY_BUFFER_BINDING, &v);
    APP_CHECK(v == (GLint)ebo, "element buffer binding %d", v);
    glGetBufferParameteriv(GL_ELEMENT_ARRAY_BUFFER, GL_BUFFER_MAPPED, &v);
    APP_CHECK(v == GL_FALSE, "element buffer left mapped");
    uint16_t back[10];
    glGetBufferSubData(GL_ELEMENT_ARRAY_BUFFER, 0, sizeof back, back);
    APP_CHECK(!memcmp(back, idx, sizeof idx), "element buffer contents changed");
    check_error("buffers: element buffer draw");

    /* an element buffer the program keeps mapped (persistent) */
    glGenBuffers(1, &ebo2);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ebo2);
    glBufferStorage(GL_ELEMENT_ARRAY_BUFFER, 64, NULL,
                    GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT);
    uint32_t *m = glMapBufferRange(GL_ELEMENT_ARRAY_BUFFER, 16, 32,
                                   GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT);
    APP_CHECK(m != NULL, "persistent map failed");
    static const uint32_t pidx[] = { 77, 70, 79, 71, 75, 72 };
    memcpy(m, pidx, sizeof pidx);
    exp_draw("glDrawElements");
    exp_arr(GL_VERTEX_ARRAY, 0, 3, GL_FLOAT, 0, 0, pos, 0, 12, 70, 79);
    glDrawElements(GL_TRIANGLES, 6, GL_UNSIGNED_INT, (const void *)16);
    void *mp = NULL;
    glGetBufferPointerv(GL_ELEMENT_ARRAY_BUFFER, GL_BUFFER_MAP_POINTER, &mp);
    APP_CHECK(mp == m, "map pointer changed");
    check_error("buffers: persistent element buffer draw");
    glUnmapBuffer(GL_ELEMENT_ARRAY_BUFFER);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, 0);

    /* everything in buffers: nothing is recorded */
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glVertexPointer(3, GL_FLOAT, 0, (const void *)0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    exp_draw("glDrawArrays");
    glDrawArrays(GL_TRIANGLES, 0, 3);
    check_error("buffers");
    frame_end();
}

/* Indirect draws: commands in client memory (compatibility profile) or in
 * a GL_DRAW_INDIRECT_BUFFER; indices of indirect element draws in an
 * element buffer. */
static void case_indirect(void)
{
    static float pos[NV * 3];
    fill_f(pos, NV * 3, 1.5f);
    glEnableClientState(GL_VERTEX_ARRAY);
    glVertexPointer(3, GL_FLOAT, 0, pos);
    /* count, instancecount, first, baseinstance */
    static const GLuint cmd[] = { 3, 1, 5, 0 };
    exp_draw("glDrawArraysIndirect");
    exp_mem(cmd, sizeof cmd);
    exp_arr(GL_VERTEX_ARRAY, 0, 3, GL_FLOAT, 0, 0, pos, 0, 12, 5, 7);
    glDrawArraysIndirect(GL_TRIANGLES, cmd);
    /* two commands 20 bytes apart (the 5th word is not read) */
    static const GLuint cmds[] = { 3, 1, 50, 0, 0xDEAD, 6, 2, 40, 0 };
    exp_draw("glMultiDrawArraysIndirect");
    exp_mem(cmds, 20 + 16);
    exp_arr(GL_VERTEX_ARRAY, 0, 3, GL_FLOAT, 0, 0, pos, 0, 12, 40, 52);
    glMultiDrawArraysIndirect(GL_TRIANGLES, cmds, 2, 20);
    /* indices in an element buffer; count, instancecount, firstIndex, basevertex, baseinstance */
    static const uint16_t idx[] = { 1, 2, 9, 4, 6, 3, 200 };
    GLuint ebo, ibo;
    glGenBuffers(1, &ebo);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ebo);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, sizeof idx, idx, GL_STATIC_DRAW);
    static const GLuint ecmd[] = { 3, 1, 2, 10, 0 };
    exp_draw("glDrawElementsIndirect");
    exp_mem(ecmd, sizeof ecmd);
    exp_arr(GL_VERTEX_ARRAY, 0, 3, GL_FLOAT, 0, 0, pos, 0, 12, 14, 19);
    glDrawElementsIndirect(GL_TRIANGLES, GL_UNSIGNED_SHORT, ecmd);
    /* commands in a buffer: only the arrays are client memory */
    static const GLuint bcmd[] = { 3, 1, 20, 0, 3, 1, 1, 7, 0 };
    glGenBuffers(1, &ibo);
    glBindBuffer(GL_DRAW_INDIRECT_BUFFER, ibo);
    glBufferData(GL_DRAW_INDIRECT_BUFFER, sizeof bcmd, bcmd, GL_STATIC_DRAW);
    exp_draw("glDrawArraysIndirect");
    exp_arr(GL_VERTEX_ARRAY, 0, 3, GL_FLOAT, 0, 0, pos, 0, 12, 20, 22);
    glDrawArraysIndirect(GL_TRIANGLES, (const void *)0);
    exp_draw("glDrawElementsIndirect");
    exp_arr(GL_VERTEX_ARRAY, 0, 3, GL_FLOAT, 0, 0, pos, 0, 12, 9, 16); /* idx[1..3] + 7 */
    glDrawElementsIndirect(GL_TRIANGLES, GL_UNSIGNED_SHORT, (const void *)16);
    glBindBuffer(GL_DRAW_INDIRECT_BUFFER, 0);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, 0);
    check_error("indirect");
    frame_end();
}

/* Client state the tracer must follow: the client attribute stack, the
 * client-active texture unit, arrays disabled and enabled again.  (Client
 * arrays in a vertex array object other than 0 are GL_INVALID_OPERATION.) */
static void case_state(void)
{
    static float pa[NV * 3], pc[NV * 4], tc3[NV * 2];
    static unsigned char col[NV * 4];
    fill_f(pa, NV * 3, 1.5f);
    fill_f(pc, NV * 4, 1.0f);
    fill_f(tc3, NV * 2, 1);
    fill_b(col, sizeof col);
    glEnableClientState(GL_VERTEX_ARRAY);
    glVertexPointer(3, GL_FLOAT, 0, pa);
    glEnableClientState(GL_COLOR_ARRAY);
    glColorPointer(4, GL_UNSIGNED_BYTE, 0, col);
    glClientActiveTexture(GL_TEXTURE3);
    glEnableClientState(GL_TEXTURE_COORD_ARRAY);
    glTexCoordPointer(2, GL_FLOAT, 0, tc3);
    glClientActiveTexture(GL_TEXTURE0);
    exp_draw("glDrawArrays");
    exp_arr(GL_VERTEX_ARRAY, 0, 3, GL_FLOAT, 0, 0, pa, 0, 12, 0, 2);
    exp_arr(GL_COLOR_ARRAY, 0, 4, GL_UNSIGNED_BYTE, 0, 0, col, 0, 4, 0, 2);
    exp_arr(GL_TEXTURE_COORD_ARRAY, 3, 2, GL_FLOAT, 0, 0, tc3, 0, 8, 0, 2);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    /* the attribute stack brings a pointer and an enable back */
    glPushClientAttrib(GL_CLIENT_VERTEX_ARRAY_BIT);
    glVertexPointer(4, GL_FLOAT, 0, pc);
    glDisableClientState(GL_COLOR_ARRAY);
    glClientActiveTexture(GL_TEXTURE3);
    glDisableClientState(GL_TEXTURE_COORD_ARRAY);
    glClientActiveTexture(GL_TEXTURE0);
    exp_draw("glDrawArrays");
    exp_arr(GL_VERTEX_ARRAY, 0, 4, GL_FLOAT, 0, 0, pc, 0, 16, 6, 8);
    glDrawArrays(GL_TRIANGLES, 6, 3);
    glPopClientAttrib();
    exp_draw("glDrawArrays");
    exp_arr(GL_VERTEX_ARRAY, 0, 3, GL_FLOAT, 0, 0, pa, 0, 12, 9, 11);
    exp_arr(GL_COLOR_ARRAY, 0, 4, GL_UNSIGNED_BYTE, 0, 0, col, 0, 4, 9, 11);
    exp_arr(GL_TEXTURE_COORD_ARRAY, 3, 2, GL_FLOAT, 0, 0, tc3, 0, 8, 9, 11);
    glDrawArrays(GL_TRIANGLES, 9, 3);
    /* a vertex array object (its arrays in a buffer) hides the client arrays */
    GLuint vao, vbo;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBufferData(GL_ARRAY_BUFFER, 36, pa, GL_STATIC_DRAW);
    glEnableClientState(GL_VERTEX_ARRAY);
    glVertexPointer(3, GL_FLOAT, 0, (const void *)0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    exp_draw("glDrawArrays");
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glBindVertexArray(0);
    exp_draw("glDrawArrays");
    exp_arr(GL_VERTEX_ARRAY, 0, 3, GL_FLOAT, 0, 0, pa, 0, 12, 1, 3);
    exp_arr(GL_COLOR_ARRAY, 0, 4, GL_UNSIGNED_BYTE, 0, 0, col, 0, 4, 1, 3);
    exp_arr(GL_TEXTURE_COORD_ARRAY, 3, 2, GL_FLOAT, 0, 0, tc3, 0, 8, 1, 3);
    glDrawArrays(GL_TRIANGLES, 1, 3);
    check_error("state");
    frame_end();
}

/* Recorded from frame 1 (wip15 trace --frames 1-): the pointers were set in
 * frame 0, while nothing was recorded. */
static void case_frames(void)
{
    static float pos[NV * 3];
    static unsigned char col[NV * 4];
    fill_f(pos, NV * 3, 1.5f);
    fill_b(col, sizeof col);
    glEnableClientState(GL_VERTEX_ARRAY);
    glVertexPointer(3, GL_FLOAT, 0, pos);
    glEnableClientState(GL_COLOR_ARRAY);
    glColorPointer(4, GL_UNSIGNED_BYTE, 0, col);
    glDrawArrays(GL_TRIANGLES, 0, 3); /* frame 0: not recorded, not expected */
    frame_end();
    for (int f = 1; f < 3; f++) {
        pos[3 * 20] = (float)f; /* new bytes each frame */
        exp_draw("glDrawArrays");
        exp_arr(GL_VERTEX_ARRAY, 0, 3, GL_FLOAT, 0, 0, pos, 0, 12, 20, 22);
        exp_arr(GL_COLOR_ARRAY, 0, 4, GL_UNSIGNED_BYTE, 0, 0, col, 0, 4, 20, 22);
        glDrawArrays(GL_TRIANGLES, 20, 3);
        frame_end();
    }
    check_error("frames");
}

/* Memory drawn again unchanged is named, not written again
 * (wip15ClientMemorySame, from W15_CMEM_MIN = 256 bytes): a mesh drawn
 * three times, one vertex changed, drawn twice more (its colours never
 * change); 3 vertices (36 bytes: always written); the same address with
 * another size (written). */
static void case_repeat(void)
{
    /* apart: memory that touches is one span (the counts below are per array) */
    static struct {
        float pos[NV * 3];
        unsigned char gap[64];
        unsigned char col[NV * 4];
    } m;
    float *pos = m.pos;
    unsigned char *col = m.col;
    fill_f(pos, NV * 3, 2.5f);
    fill_b(col, sizeof m.col);
    glEnableClientState(GL_VERTEX_ARRAY);
    glVertexPointer(3, GL_FLOAT, 0, pos);
    glEnableClientState(GL_COLOR_ARRAY);
    glColorPointer(4, GL_UNSIGNED_BYTE, 0, col);
    static const int same[] = { 0, 2, 2, 1, 2 };
    for (int k = 0; k < 5; k++) {
        if (k == 3)
            pos[3 * 7] = 9.f;
        exp_draw("glDrawArrays");
        exp_arr(GL_VERTEX_ARRAY, 0, 3, GL_FLOAT, 0, 0, pos, 0, 12, 0, NV - 1);
        exp_arr(GL_COLOR_ARRAY, 0, 4, GL_UNSIGNED_BYTE, 0, 0, col, 0, 4, 0, NV - 1);
        exp_same(same[k]);
        glDrawArrays(GL_TRIANGLES, 0, NV);
    }
    for (int k = 0; k < 2; k++) {
        exp_draw("glDrawArrays");
        exp_arr(GL_VERTEX_ARRAY, 0, 3, GL_FLOAT, 0, 0, pos, 0, 12, 0, 2);
        exp_arr(GL_COLOR_ARRAY, 0, 4, GL_UNSIGNED_BYTE, 0, 0, col, 0, 4, 0, 2);
        exp_same(0);
        glDrawArrays(GL_TRIANGLES, 0, 3);
    }
    exp_draw("glDrawArrays");
    exp_arr(GL_VERTEX_ARRAY, 0, 3, GL_FLOAT, 0, 0, pos, 0, 12, 0, NV / 2 - 1);
    exp_arr(GL_COLOR_ARRAY, 0, 4, GL_UNSIGNED_BYTE, 0, 0, col, 0, 4, 0, NV / 2 - 1);
    exp_same(0);
    glDrawArrays(GL_TRIANGLES, 0, NV / 2);
    check_error("repeat");
    frame_end();
}

/* -------------------------------------------------------------- GLES */

static void case_es(int major)
{
    const char *vs2 = "attribute vec2 a_pos; attribute vec4 a_col; varying vec4 v_col;\n"
                      "void main() { v_col = a_col; gl_Position = vec4(a_pos, 0.0, 1.0); }\n";
    const char *fs2 = "precision mediump float; varying vec4 v_col; void main() { gl_FragColor = v_col; }\n";
    const char *vs3 = "#version 300 es\nin vec2 a_pos; in vec4 a_col; in vec2 a_off; out vec4 v_col;\n"
                      "void main() { v_col = a_col; gl_Position = vec4(a_pos + a_off, 0.0, 1.0); }\n";
    const char *fs3 = "#version 300 es\nprecision mediump float; in vec4 v_col; out vec4 o;\n"
                      "void main() { o = v_col; }\n";
    static const char *const names[] = { "a_pos", "a_col", "a_off" };
    program(major >= 3 ? vs3 : vs2, major >= 3 ? fs3 : fs2, names, major >= 3 ? 3 : 2);
    static float pos[NV * 4], off[NV * 2];
    static unsigned char col[NV * 4];
    fill_f(pos, NV * 4, 1.5f);
    fill_f(off, NV * 2, 0.2f);
    fill_b(col, sizeof col);
    glEnableVertexAttribArray(0);
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 16, pos);
    glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, 0, col);
#define ES_ALL(lo, hi)                                                                                   \
    do {                                                                                                 \
        exp_arr(0x8645, 0, 2, GL_FLOAT, 16, 0, pos, 0, 8, lo, hi);                                       \
        exp_arr(0x8645, 1, 4, GL_UNSIGNED_BYTE, 0, 1, col, 0, 4, lo, hi);                                \
    } while (0)
    exp_draw("glDrawArrays");
    ES_ALL(5, 9);
    glDrawArrays(GL_TRIANGLE_FAN, 5, 5);
    static const uint8_t b[] = { 1, 90, 40 };
    static const uint16_t s[] = { 100, 7, 200, 8 };
    exp_draw("glDrawElements");
    ES_ALL(1, 90);
    glDrawElements(GL_TRIANGLES, 3, GL_UNSIGNED_BYTE, b);
    exp_draw("glDrawElements");
    ES_ALL(7, 200);
    glDrawElements(GL_LINES, 4, GL_UNSIGNED_SHORT, s);
    /* indices in an element buffer */
    GLuint ebo;
    glGenBuffers(1, &ebo);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ebo);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, sizeof s, s, GL_STATIC_DRAW);
    exp_draw("glDrawElements");
    ES_ALL(8, 200);
    glDrawElements(GL_LINES, 2, GL_UNSIGNED_SHORT, (const void *)4);
    GLint v = -1;
    glGetIntegerv(GL_ELEMENT_ARRAY_BUFFER_BINDING, &v);
    APP_CHECK(v == (GLint)ebo, "element buffer binding %d", v);
    check_error("es element buffer");
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, 0);
    if (major >= 3) {
        static const uint32_t u[] = { 30, 31, 0xFFFFFFFFu, 32, 33 };
        glEnable(GL_PRIMITIVE_RESTART_FIXED_INDEX);
        exp_draw("glDrawElements");
        ES_ALL(30, 33);
        glDrawElements(GL_LINE_STRIP, 5, GL_UNSIGNED_INT, u);
        glDisable(GL_PRIMITIVE_RESTART_FIXED_INDEX);
        glEnableVertexAttribArray(2);
        glVertexAttribPointer(2, 2, GL_FLOAT, GL_FALSE, 0, off);
        glVertexAttribDivisor(2, 3);
        exp_draw("glDrawArraysInstanced");
        ES_ALL(0, 2);
        exp_arr(0x8645, 2, 2, GL_FLOAT, 0, 0, off, 3, 8, 0, 3);
        glDrawArraysInstanced(GL_TRIANGLES, 0, 3, 10);
        exp_draw("glDrawElementsInstanced");
        ES_ALL(7, 200);
        exp_arr(0x8645, 2, 2, GL_FLOAT, 0, 0, off, 3, 8, 0, 0);
        glDrawElementsInstanced(GL_LINES, 4, GL_UNSIGNED_SHORT, s, 2);
    }
    check_error("es");
    frame_end();
}

/* OpenGL ES 1.x: vertex, colour, point size (OES) and texture coordinates
 * on two units. */
typedef void (*point_size_pointer_fn)(GLenum, GLsizei, const void *);
static void case_es1(void)
{
    point_size_pointer_fn psp = (point_size_pointer_fn)eglGetProcAddress("glPointSizePointerOES");
    APP_CHECK(psp != NULL, "no glPointSizePointerOES");
    static float pos[NV * 3], tc0[NV * 2], psz[NV * 2];
    static short tc1[NV * 4];
    static unsigned char col[NV * 4];
    fill_f(pos, NV * 3, 1.5f);
    fill_f(tc0, NV * 2, 1);
    fill_f(psz, NV * 2, 8);
    for (int i = 0; i < NV * 4; i++)
        tc1[i] = (short)(i * 5);
    fill_b(col, sizeof col);
    glEnableClientState(GL_VERTEX_ARRAY);
    glVertexPointer(3, GL_FLOAT, 0, pos);
    glEnableClientState(GL_COLOR_ARRAY);
    glColorPointer(4, GL_UNSIGNED_BYTE, 0, col);
    glEnableClientState(0x8B9C /* GL_POINT_SIZE_ARRAY_OES */);
    psp(GL_FLOAT, 8, psz);
    glClientActiveTexture(GL_TEXTURE0);
    glEnableClientState(GL_TEXTURE_COORD_ARRAY);
    glTexCoordPointer(2, GL_FLOAT, 0, tc0);
    glClientActiveTexture(GL_TEXTURE1);
    glEnableClientState(GL_TEXTURE_COORD_ARRAY);
    glTexCoordPointer(4, GL_SHORT, 0, tc1);
#define ES1_ALL(lo, hi)                                                                                  \
    do {                                                                                                 \
        exp_arr(GL_VERTEX_ARRAY, 0, 3, GL_FLOAT, 0, 0, pos, 0, 12, lo, hi);                              \
        exp_arr(GL_COLOR_ARRAY, 0, 4, GL_UNSIGNED_BYTE, 0, 0, col, 0, 4, lo, hi);                        \
        exp_arr(0x8B9C, 0, 1, GL_FLOAT, 8, 0, psz, 0, 4, lo, hi);                                        \
        exp_arr(GL_TEXTURE_COORD_ARRAY, 0, 2, GL_FLOAT, 0, 0, tc0, 0, 8, lo, hi);                        \
        exp_arr(GL_TEXTURE_COORD_ARRAY, 1, 4, GL_SHORT, 0, 0, tc1, 0, 8, lo, hi);                        \
    } while (0)
    exp_draw("glDrawArrays");
    ES1_ALL(10, 15);
    glDrawArrays(GL_POINTS, 10, 6);
    static const uint8_t b[] = { 40, 30, 35 };
    static const uint16_t u[] = { 299, 100, 200 };
    exp_draw("glDrawElements");
    ES1_ALL(30, 40);
    glDrawElements(GL_TRIANGLES, 3, GL_UNSIGNED_BYTE, b);
    exp_draw("glDrawElements");
    ES1_ALL(100, 299);
    glDrawElements(GL_TRIANGLES, 3, GL_UNSIGNED_SHORT, u);
    check_error("es1");
    frame_end();
}

static void open_es1(void)
{
    EGLint vmaj = 0, vmin = 0;
    egl.dpy = app_egl_display();
    APP_CHECK(egl.dpy != EGL_NO_DISPLAY, "no EGL display");
    APP_CHECK(eglInitialize(egl.dpy, &vmaj, &vmin), "eglInitialize failed");
    APP_CHECK(eglBindAPI(EGL_OPENGL_ES_API), "eglBindAPI failed");
    const EGLint cattrs[] = {
        EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_ES_BIT, EGL_RED_SIZE, 8,
        EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8, EGL_NONE,
    };
    EGLint n = 0;
    APP_CHECK(eglChooseConfig(egl.dpy, cattrs, &egl.cfg, 1, &n) && n == 1, "no EGL config for ES 1");
    const EGLint xattrs[] = { EGL_CONTEXT_CLIENT_VERSION, 1, EGL_NONE };
    egl.ctx = eglCreateContext(egl.dpy, egl.cfg, EGL_NO_CONTEXT, xattrs);
    APP_CHECK(egl.ctx != EGL_NO_CONTEXT, "no OpenGL ES 1 context (0x%x)", eglGetError());
    const EGLint pattrs[] = { EGL_WIDTH, 64, EGL_HEIGHT, 64, EGL_NONE };
    egl.surf = eglCreatePbufferSurface(egl.dpy, egl.cfg, pattrs);
    APP_CHECK(egl.surf != EGL_NO_SURFACE, "eglCreatePbufferSurface failed");
    APP_CHECK(eglMakeCurrent(egl.dpy, egl.surf, egl.surf, egl.ctx), "eglMakeCurrent failed");
}

/* ------------------------------------------------------------------ main */

static void open_gl_compat(void)
{
    EGLint vmaj = 0, vmin = 0;
    egl.dpy = app_egl_display();
    APP_CHECK(egl.dpy != EGL_NO_DISPLAY, "no EGL display");
    APP_CHECK(eglInitialize(egl.dpy, &vmaj, &vmin), "eglInitialize failed");
    APP_CHECK(eglBindAPI(EGL_OPENGL_API), "eglBindAPI failed");
    const EGLint cattrs[] = {
        EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_RED_SIZE, 8,
        EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8, EGL_DEPTH_SIZE, 24, EGL_NONE,
    };
    EGLint n = 0;
    APP_CHECK(eglChooseConfig(egl.dpy, cattrs, &egl.cfg, 1, &n) && n == 1, "no EGL config");
    const EGLint xattrs[] = {
        EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 5, EGL_CONTEXT_OPENGL_PROFILE_MASK,
        EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT, EGL_NONE,
    };
    egl.ctx = eglCreateContext(egl.dpy, egl.cfg, EGL_NO_CONTEXT, xattrs);
    APP_CHECK(egl.ctx != EGL_NO_CONTEXT, "no OpenGL 4.5 compatibility context (0x%x)", eglGetError());
    const EGLint pattrs[] = { EGL_WIDTH, 64, EGL_HEIGHT, 64, EGL_NONE };
    egl.surf = eglCreatePbufferSurface(egl.dpy, egl.cfg, pattrs);
    APP_CHECK(egl.surf != EGL_NO_SURFACE, "eglCreatePbufferSurface failed");
    APP_CHECK(eglMakeCurrent(egl.dpy, egl.surf, egl.surf, egl.ctx), "eglMakeCurrent failed");
}

static const struct {
    const char *name;
    void (*fn)(void);
} cases[] = {
    { "legacy", case_legacy },         { "interleaved", case_interleaved }, { "generic", case_generic },
    { "restart", case_restart },       { "range", case_range },             { "instanced", case_instanced },
    { "multidraw", case_multidraw },   { "arrayelement", case_arrayelement }, { "buffers", case_buffers },
    { "indirect", case_indirect },     { "state", case_state },             { "frames", case_frames },
    { "invalid", case_invalid },       { "repeat", case_repeat },
};

int main(int argc, char **argv)
{
    if (argc != 3)
        app_fail("usage: arrays_egl CASE EXPECT_FILE");
    ex = fopen(argv[2], "w");
    APP_CHECK(ex != NULL, "cannot write %s", argv[2]);
    int es = !strcmp(argv[1], "es1") ? 1 : !strcmp(argv[1], "es2") ? 2 : !strcmp(argv[1], "es3") ? 3 : 0;
    size_t i = 0;
    if (!es) {
        for (i = 0; i < sizeof cases / sizeof cases[0]; i++)
            if (!strcmp(argv[1], cases[i].name))
                break;
        if (i == sizeof cases / sizeof cases[0])
            app_fail("unknown case %s", argv[1]);
    }
    if (es == 1)
        open_es1();
    else if (es)
        app_egl_open(&egl, EGL_OPENGL_ES_API, es, 0, 64, 64);
    else
        open_gl_compat();
    /* a defined picture under the draws (the frame digest covers it) */
    glViewport(0, 0, 64, 64);
    glClearColor(0.1f, 0.2f, 0.3f, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    if (es == 1)
        case_es1();
    else if (es)
        case_es(es);
    else
        cases[i].fn();
    APP_CHECK(fclose(ex) == 0, "cannot write %s", argv[2]);
    app_egl_close(&egl);
    printf("%s: ok %s\n", APP_NAME, argv[1]);
    return 0;
}
