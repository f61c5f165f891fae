/* safety_prog.c -- the programs of capture.safety.<case> (tests/capture/
 * safety.cmake, checked by check_safety.py): GL calls whose pointer
 * arguments are buffer offsets, invalid arguments GL rejects without
 * reading them (pointers to unmapped memory included), and read-backs.
 *
 *     safety_prog CASE
 *
 * Headless: EGL surfaceless, a desktop GL 4.5 compatibility context and a
 * 16 x 16 pbuffer.  Every line it prints is deterministic and is compared
 * between the native and the traced run: after each call of interest
 * "NAME err=0x..." (glGetError), and for read-backs "readback NAME SIZE
 * XXH3" (what the program got), which the checker finds in the trace's
 * wip15.digest.  Exit status 0; 77 when no such context can be made. */
#define _GNU_SOURCE
#define GL_GLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/gl.h>
#include <GL/glext.h>

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#ifndef EGL_PLATFORM_SURFACELESS_MESA
#define EGL_PLATFORM_SURFACELESS_MESA 0x31DD
#endif

static EGLDisplay dpy;
static EGLConfig cfg;

static void skip(const char *why)
{
    printf("SKIP: %s\n", why);
    exit(77);
}

/* A surfaceless EGL context: desktop GL 4.5, compatibility profile, or
 * core when `core` (a few queries exist in core profiles only). */
static void open_gl(int core)
{
    PFNEGLGETPLATFORMDISPLAYEXTPROC get =
        (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
    dpy = get ? get(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL) : EGL_NO_DISPLAY;
    EGLint maj, min, n = 0;
    if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, &maj, &min) || !eglBindAPI(EGL_OPENGL_API))
        skip("no surfaceless EGL display with desktop GL");
    const EGLint cattrs[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT,
                             EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8,
                             EGL_NONE};
    if (!eglChooseConfig(dpy, cattrs, &cfg, 1, &n) || n != 1)
        skip("no EGL config");
    const EGLint xattrs[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 5,
                             EGL_CONTEXT_OPENGL_PROFILE_MASK,
                             core ? EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT
                                  : EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT,
                             EGL_NONE};
    EGLContext ctx = eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, xattrs);
    if (ctx == EGL_NO_CONTEXT)
        skip(core ? "no GL 4.5 core context" : "no GL 4.5 compatibility context");
    const EGLint pattrs[] = {EGL_WIDTH, 16, EGL_HEIGHT, 16, EGL_NONE};
    EGLSurface s = eglCreatePbufferSurface(dpy, cfg, pattrs);
    if (s == EGL_NO_SURFACE || !eglMakeCurrent(dpy, s, s, ctx))
        skip("eglMakeCurrent failed");
}

/* The GL error after the call just made, one line. */
static void err(const char *what)
{
    GLenum e = glGetError();
    printf("%s err=0x%x\n", what, e);
    while (glGetError() != GL_NO_ERROR)
        ;
}

static void readback(const char *what, const void *p, size_t n)
{
    printf("readback %s %zu %016" PRIx64 "\n", what, n, (uint64_t)XXH3_64bits(p, n));
}

/* A 1x1 RGBA8 cube map made with glGenTextures + glBindTexture (left
 * bound), face f from data + 4 f. */
static GLuint cube_1x1(const uint8_t *data)
{
    GLuint cube;
    glGenTextures(1, &cube);
    glBindTexture(GL_TEXTURE_CUBE_MAP, cube);
    for (int f = 0; f < 6; f++)
        glTexImage2D(GL_TEXTURE_CUBE_MAP_POSITIVE_X + f, 0, GL_RGBA8, 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                     data + 4 * f);
    return cube;
}

/* glGetTextureImage of level `level` as RGBA bytes into the n bytes of buf,
 * filled with 0xcd first (what GL does not write stays so), its error
 * line, and the readback line of the first `got` bytes. */
static void texture_image(const char *what, GLuint tex, int level, uint8_t *buf, size_t n, size_t got)
{
    memset(buf, 0xcd, n);
    glGetTextureImage(tex, level, GL_RGBA, GL_UNSIGNED_BYTE, (GLsizei)n, buf);
    err(what);
    readback(what, buf, got);
}

static GLuint buffer(GLenum target, size_t size, const void *data)
{
    GLuint b;
    glGenBuffers(1, &b);
    glBindBuffer(target, b);
    glBufferData(target, (GLsizeiptr)size, data, GL_STATIC_DRAW);
    return b;
}

static GLuint program_of(GLenum type, const char *src)
{
    GLuint sh = glCreateShader(type);
    glShaderSource(sh, 1, &src, NULL);
    glCompileShader(sh);
    GLuint p = glCreateProgram();
    glAttachShader(p, sh);
    glLinkProgram(p);
    glDeleteShader(sh);
    return p;
}

/* A page nobody may read, and one the program has given back. */
static void *noaccess_page(void)
{
    void *p = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

static void *unmapped_page(void)
{
    void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    munmap(p, 4096);
    return p;
}

/* Offsets into GL_QUERY_BUFFER (glGetQueryObject*). */
static void case_query(void)
{
    GLuint q;
    glGenQueries(1, &q);
    glBeginQuery(GL_ANY_SAMPLES_PASSED, q);
    glEndQuery(GL_ANY_SAMPLES_PASSED);
    static const uint32_t zero[8];
    buffer(GL_QUERY_BUFFER, sizeof zero, zero);
    glGetQueryObjectuiv(q, GL_QUERY_RESULT, (GLuint *)(uintptr_t)8);
    err("glGetQueryObjectuiv");
    glGetQueryObjecti64v(q, GL_QUERY_RESULT, (GLint64 *)(uintptr_t)16);
    err("glGetQueryObjecti64v");
    glBindBuffer(GL_QUERY_BUFFER, 0);
    GLuint r = 7;
    glGetQueryObjectuiv(q, GL_QUERY_RESULT, &r); /* into program memory */
    err("glGetQueryObjectuiv client");
    printf("result %u\n", r);
}

/* Offsets into GL_DRAW_INDIRECT_BUFFER and GL_PARAMETER_BUFFER. */
static void case_indirect(void)
{
    static const uint32_t cmds[16] = {3, 1, 0, 0, 3, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    static const uint32_t counts[4] = {0, 2, 1, 0};
    static const uint16_t idx[4] = {0, 1, 2, 0};
    GLuint vao;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    buffer(GL_ELEMENT_ARRAY_BUFFER, sizeof idx, idx);
    buffer(GL_DRAW_INDIRECT_BUFFER, sizeof cmds, cmds);
    glDrawArraysIndirect(GL_POINTS, (const void *)(uintptr_t)16);
    err("glDrawArraysIndirect");
    glDrawElementsIndirect(GL_POINTS, GL_UNSIGNED_SHORT, (const void *)(uintptr_t)12);
    err("glDrawElementsIndirect");
    glMultiDrawArraysIndirect(GL_POINTS, NULL, 2, 16);
    err("glMultiDrawArraysIndirect");
    PFNGLMULTIDRAWARRAYSINDIRECTCOUNTARBPROC mdaic =
        (PFNGLMULTIDRAWARRAYSINDIRECTCOUNTARBPROC)eglGetProcAddress("glMultiDrawArraysIndirectCountARB");
    if (mdaic) {
        buffer(GL_PARAMETER_BUFFER_ARB, sizeof counts, counts);
        mdaic(GL_POINTS, (const void *)(uintptr_t)16, 4, 2, 16);
        err("glMultiDrawArraysIndirectCountARB");
    } else {
        printf("glMultiDrawArraysIndirectCountARB missing\n");
    }
}

/* Offsets into GL_DISPATCH_INDIRECT_BUFFER. */
static void case_dispatch(void)
{
    static const uint32_t groups[8] = {0, 0, 0, 0, 1, 1, 1, 0};
    GLuint p = program_of(GL_COMPUTE_SHADER, "#version 430\nlayout(local_size_x = 1) in;\nvoid main() {}\n");
    glUseProgram(p);
    buffer(GL_DISPATCH_INDIRECT_BUFFER, sizeof groups, groups);
    glDispatchComputeIndirect(16);
    err("glDispatchComputeIndirect");
}

/* Index arrays: an offset into GL_ELEMENT_ARRAY_BUFFER, or client memory
 * (count x sizeof(type) bytes recorded). */
static void case_elements(void)
{
    static const uint16_t idx[6] = {0, 1, 2, 2, 1, 0};
    static const uint8_t idx8[5] = {4, 3, 2, 1, 0};
    GLuint ebo = buffer(GL_ELEMENT_ARRAY_BUFFER, sizeof idx, idx);
    glDrawElements(GL_POINTS, 3, GL_UNSIGNED_SHORT, (const void *)(uintptr_t)6);
    err("glDrawElements ebo");
    glDrawRangeElements(GL_POINTS, 0, 2, 2, GL_UNSIGNED_SHORT, NULL);
    err("glDrawRangeElements ebo");
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, 0);
    glDrawElements(GL_POINTS, 6, GL_UNSIGNED_SHORT, idx);
    err("glDrawElements client");
    glDrawElementsInstancedBaseVertexBaseInstance(GL_POINTS, 5, GL_UNSIGNED_BYTE, idx8, 1, 0, 0);
    err("glDrawElementsInstancedBaseVertexBaseInstance client");
    glDeleteBuffers(1, &ebo);
}

/* Attribute pointers: offsets into GL_ARRAY_BUFFER. */
static void case_attribs(void)
{
    static const double data[16];
    float client[8] = {0};
    buffer(GL_ARRAY_BUFFER, sizeof data, data);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, (const void *)(uintptr_t)16);
    err("glVertexAttribPointer");
    /* issue 8: this one was read as `size` bytes at 0x10 */
    glVertexAttribLPointer(1, 3, GL_DOUBLE, 24, (const void *)(uintptr_t)0x10);
    err("glVertexAttribLPointer");
    glVertexPointer(2, GL_FLOAT, 0, (const void *)(uintptr_t)8);
    err("glVertexPointer");
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glVertexAttribPointer(2, 2, GL_FLOAT, GL_FALSE, 0, client); /* a client pointer */
    err("glVertexAttribPointer client");
}

/* Pixel pointers: offsets into GL_PIXEL_UNPACK_BUFFER / GL_PIXEL_PACK_BUFFER. */
static void case_pixels(void)
{
    static uint8_t texels[256];
    GLuint tex;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    GLuint unpack = buffer(GL_PIXEL_UNPACK_BUFFER, sizeof texels, texels);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, (const void *)(uintptr_t)64);
    err("glTexImage2D");
    glCompressedTexImage2D(GL_TEXTURE_2D, 1, GL_COMPRESSED_RED_RGTC1, 4, 4, 0, 8, (const void *)(uintptr_t)32);
    err("glCompressedTexImage2D");
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    glDeleteBuffers(1, &unpack);
    buffer(GL_PIXEL_PACK_BUFFER, 4096, NULL);
    glReadPixels(0, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, (void *)(uintptr_t)128);
    err("glReadPixels");
    glReadnPixels(0, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, 64, (void *)(uintptr_t)256);
    err("glReadnPixels");
    glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, (void *)(uintptr_t)512);
    err("glGetTexImage");
    glGetTextureImage(tex, 0, GL_RGBA, GL_UNSIGNED_BYTE, 64, (void *)(uintptr_t)1024);
    err("glGetTextureImage");
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    /* a 3D upload of depth 1 is a 3D image all the same: GL first skips
     * GL_UNPACK_SKIP_IMAGES images of GL_UNPACK_IMAGE_HEIGHT rows (one
     * image of two 4-byte rows here), so it reads bytes 8..11 and the
     * trace holds the 12 bytes from the pointer (it held 4, the wrong
     * ones, when the image height and skip were applied to depths > 1 only) */
    static const uint8_t vol[12] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
    GLuint t3;
    glGenTextures(1, &t3);
    glBindTexture(GL_TEXTURE_3D, t3);
    glTexImage3D(GL_TEXTURE_3D, 0, GL_RGBA8, 1, 1, 2, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    glPixelStorei(GL_UNPACK_IMAGE_HEIGHT, 2);
    glPixelStorei(GL_UNPACK_SKIP_IMAGES, 1);
    glTexSubImage3D(GL_TEXTURE_3D, 0, 0, 0, 1, 1, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, vol);
    err("glTexSubImage3D");
    glPixelStorei(GL_UNPACK_IMAGE_HEIGHT, 0);
    glPixelStorei(GL_UNPACK_SKIP_IMAGES, 0);
}

/* Arguments GL rejects: it raises an error and reads nothing; the tracer
 * must neither crash nor read more than GL would. */
static void case_invalid(void)
{
    void *none = noaccess_page(), *gone = unmapped_page();
    if (!none || !gone)
        skip("mmap failed");
    static const char text[] = "void main() { gl_FragColor = vec4(1.0); }";
    GLuint sh = glCreateShader(GL_FRAGMENT_SHADER);
    /* negative counts */
    glShaderSource(sh, -1, NULL, NULL);
    err("glShaderSource count -1");
    glDeleteTextures(-1, NULL);
    err("glDeleteTextures -1");
    glDrawArrays(GL_POINTS, 0, -1);
    err("glDrawArrays count -1");
    glDrawElements(GL_POINTS, -1, GL_UNSIGNED_SHORT, none);
    err("glDrawElements count -1");
    /* NULL with a non-zero count, to a location GL ignores */
    glUniform4fv(-1, 2, NULL);
    err("glUniform4fv NULL");
    /* not a shader: GL reads none of the strings (the text itself passed as
     * the array of pointers, as piglit's shadersource-errors does) */
    glShaderSource(99, 1, (const GLchar *const *)(const void *)text, NULL);
    err("glShaderSource bogus array");
    const char *pnone = none;
    glShaderSource(99, 1, &pnone, NULL);
    err("glShaderSource PROT_NONE string");
    /* short bufSize: GL refuses and writes nothing */
    GLuint prog = program_of(GL_FRAGMENT_SHADER,
                             "#version 130\nuniform vec4 u;\nout vec4 c;\nvoid main() { c = u; }\n");
    GLint loc = glGetUniformLocation(prog, "u");
    float four[4] = {9, 9, 9, 9};
    glGetnUniformfv(prog, loc, 4, four);
    err("glGetnUniformfv bufSize 4");
    printf("untouched %g\n", (double)four[0]);
    uint8_t small[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    glReadnPixels(0, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, 8, small);
    err("glReadnPixels bufSize 8");
    /* glGetTexImage of a level or a target GL refuses whatever the state
     * (GL_INVALID_VALUE, GL_INVALID_ENUM): the tracer asks GL nothing (its
     * query would raise an error of its own) and reads nothing; GL writes
     * nothing, so the digest is empty, and a replay makes the call for
     * its error */
    GLuint tex;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 2, 2, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    uint8_t img[64];
    glGetTexImage(GL_TEXTURE_2D, 99, GL_RGBA, GL_UNSIGNED_BYTE, img);
    err("glGetTexImage level 99");
    readback("glGetTexImageLevel99", img, 0);
    glGetTexImage(GL_TEXTURE_CUBE_MAP, 0, GL_RGBA, GL_UNSIGNED_BYTE, img);
    err("glGetTexImage GL_TEXTURE_CUBE_MAP");
    readback("glGetTexImageCube", img, 0);
    glGetTexImage(GL_TEXTURE_2D, -1, GL_RGBA, GL_UNSIGNED_BYTE, img);
    err("glGetTexImage level -1");
    readback("glGetTexImageLevelNeg", img, 0);
    glGetCompressedTexImage(GL_TEXTURE_CUBE_MAP, 0, img);
    err("glGetCompressedTexImage GL_TEXTURE_CUBE_MAP");
    readback("glGetCompressedTexImageCube", img, 0);
    /* glReadPixels of an empty image, or a width below 0 (GL_INVALID_VALUE):
     * GL writes nothing, an empty digest */
    glReadPixels(0, 0, 0, 4, GL_RGBA, GL_UNSIGNED_BYTE, img);
    err("glReadPixels width 0");
    readback("glReadPixelsEmpty", img, 0);
    glReadPixels(0, 0, -1, 4, GL_RGBA, GL_UNSIGNED_BYTE, img);
    err("glReadPixels width -1");
    readback("glReadPixelsNegative", img, 0);
    glDeleteTextures(1, &tex);
    /* unknown enums: no size known, nothing read */
    GLint iv[4] = {0};
    glGetIntegerv(0xDEAD, iv);
    err("glGetIntegerv 0xDEAD");
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 0, 0xDEAD, GL_UNSIGNED_BYTE, none);
    err("glTexImage2D format 0xDEAD");
    glDrawElements(GL_POINTS, 3, 0xDEAD, none);
    err("glDrawElements type 0xDEAD");
    /* pointers to memory nobody may read, in calls GL rejects first */
    glTexImage2D(GL_TEXTURE_2D, -1, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, none);
    err("glTexImage2D level -1 PROT_NONE");
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glBufferSubData(GL_ARRAY_BUFFER, 0, 16, none);
    err("glBufferSubData unbound PROT_NONE");
    glBufferData(GL_ARRAY_BUFFER, 64, gone, GL_STATIC_DRAW);
    err("glBufferData unbound unmapped");
    glUniformMatrix4fv(loc, 1, GL_FALSE, gone); /* no program in use */
    err("glUniformMatrix4fv unmapped");
    /* an EGL attribute list with an unknown key whose "value" is the
     * terminator, at the end of a readable page */
    uint8_t *two = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (two != MAP_FAILED && mprotect(two + 4096, 4096, PROT_NONE) == 0) {
        EGLint *attrs = (EGLint *)(void *)(two + 4096 - 2 * sizeof(EGLint));
        attrs[0] = (EGLint)0xffff0000;
        attrs[1] = EGL_NONE;
        EGLContext c = eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, attrs);
        printf("eglCreateContext bad attribute %s egl=0x%x\n", c == EGL_NO_CONTEXT ? "failed" : "made",
               eglGetError());
    }
    glDeleteShader(sh);
    glDeleteProgram(prog);
}


/* Getters whose output size depends on GL object state: glGetUniform*v
 * (GL writes one uniform, an array's element, of the program's),
 * glGetPixelMap*v (the map's size), glGetMap*v (an evaluator's order);
 * the trace holds those values.  Each output is filled with -7 first and
 * printed in full, so the runs compare what GL wrote. */
static void get_uniform_f(const char *what, GLuint p, GLint loc)
{
    float v[20];
    for (int i = 0; i < 20; i++)
        v[i] = -7.0f;
    glGetUniformfv(p, loc, v);
    err(what);
    printf("%s", what);
    for (int i = 0; i < 20; i++)
        printf(" %g", v[i]);
    printf("\n");
}

static void case_getters(void)
{
    static const char *cs =
        "#version 450\n"
        "layout(local_size_x = 1) in;\n"
        "layout(std430, binding = 0) buffer B { float o[]; };\n"
        "uniform vec3 v3;\n"
        "uniform mat4 m;\n"
        "uniform float arr[3];\n"
        "uniform dmat2x3 dm;\n"
        "uniform ivec2 iv;\n"
        "layout(location = 10) uniform vec2 ex[2];\n"
        "uniform sampler2D s;\n"
        "struct S { float a; vec4 b; };\n"
        "uniform S st;\n"
        "void main() {\n"
        "    o[0] = v3.x + m[3][3] + arr[2] + float(dm[1][2]) + float(iv.y) + ex[1].y +\n"
        "           texture(s, vec2(0.0)).x + st.a + st.b.w;\n"
        "}\n";
    GLuint p = program_of(GL_COMPUTE_SHADER, cs);
    GLint linked = 0;
    glGetProgramiv(p, GL_LINK_STATUS, &linked);
    printf("linked %d\n", linked);
    glProgramUniform3f(p, glGetUniformLocation(p, "v3"), 0.5f, 1.5f, 2.5f);
    float m[16];
    for (int i = 0; i < 16; i++)
        m[i] = 0.25f * (float)i;
    glProgramUniformMatrix4fv(p, glGetUniformLocation(p, "m"), 1, GL_FALSE, m);
    const float arr[3] = {4.0f, 5.0f, 6.5f};
    glProgramUniform1fv(p, glGetUniformLocation(p, "arr"), 3, arr);
    const double dm[6] = {0.5, 1.0, 1.5, 2.0, 2.5, 3.0};
    glProgramUniformMatrix2x3dv(p, glGetUniformLocation(p, "dm"), 1, GL_FALSE, dm);
    glProgramUniform2i(p, glGetUniformLocation(p, "iv"), -3, 9);
    const float ex[4] = {7.0f, 7.5f, 8.0f, 8.5f};
    glProgramUniform2fv(p, 10, 2, ex);
    glProgramUniform1i(p, glGetUniformLocation(p, "s"), 3);
    glProgramUniform4f(p, glGetUniformLocation(p, "st.b"), 1.0f, 2.0f, 3.0f, 4.0f);
    err("set");
    get_uniform_f("v3", p, glGetUniformLocation(p, "v3"));
    get_uniform_f("m", p, glGetUniformLocation(p, "m"));
    get_uniform_f("arr[2]", p, glGetUniformLocation(p, "arr[2]"));
    get_uniform_f("ex[1]", p, 11);
    get_uniform_f("st.b", p, glGetUniformLocation(p, "st.b"));
    double d[8];
    for (int i = 0; i < 8; i++)
        d[i] = -7.0;
    glGetUniformdv(p, glGetUniformLocation(p, "dm"), d);
    err("dm");
    printf("dm %g %g %g %g %g %g %g %g\n", d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7]);
    GLint iv[4] = {-7, -7, -7, -7};
    glGetUniformiv(p, glGetUniformLocation(p, "iv"), iv);
    err("iv");
    printf("iv %d %d %d %d\n", iv[0], iv[1], iv[2], iv[3]);
    GLint su[2] = {-7, -7};
    glGetUniformiv(p, glGetUniformLocation(p, "s"), su);
    err("s");
    printf("s %d %d\n", su[0], su[1]);
    /* refused: no such location, not a program, not linked: GL writes
     * nothing, and the tracer's own queries raise no error either */
    get_uniform_f("location 9999", p, 9999);
    get_uniform_f("location -1", p, -1);
    get_uniform_f("not a program", 12345, 0);
    GLuint unlinked = glCreateProgram();
    get_uniform_f("not linked", unlinked, 0);

    /* A link gives a location another type: the tracer must not keep the
     * one it looked up before (statesize.c remembers them until a link).
     * Location 3 is a float, then (the same program linked again) a vec4,
     * then (the name deleted; glCreateShaderProgramv, which links too; Mesa
     * gives it a new name, other drivers may give the same) an ivec2. */
    static const char *rl_a = "#version 450\nlayout(local_size_x = 1) in;\n"
                              "layout(std430, binding = 0) buffer B { float o[]; };\n"
                              "layout(location = 3) uniform float r;\nvoid main() { o[0] = r; }\n";
    static const char *rl_b = "#version 450\nlayout(local_size_x = 1) in;\n"
                              "layout(std430, binding = 0) buffer B { float o[]; };\n"
                              "layout(location = 3) uniform vec4 r;\nvoid main() { o[0] = r.w; }\n";
    static const char *rl_c = "#version 450\nlayout(local_size_x = 1) in;\n"
                              "layout(std430, binding = 0) buffer B { float o[]; };\n"
                              "layout(location = 3) uniform ivec2 r;\nvoid main() { o[0] = float(r.y); }\n";
    GLuint q = program_of(GL_COMPUTE_SHADER, rl_a);
    glProgramUniform1f(q, 3, 2.5f);
    get_uniform_f("relink: float", q, 3);
    GLuint sh = glCreateShader(GL_COMPUTE_SHADER);
    glShaderSource(sh, 1, &rl_b, NULL);
    glCompileShader(sh);
    GLuint old[1] = {0};
    glGetAttachedShaders(q, 1, NULL, old);
    glDetachShader(q, old[0]);
    glAttachShader(q, sh);
    glLinkProgram(q);
    glDeleteShader(sh);
    glProgramUniform4f(q, 3, 1.0f, 2.0f, 3.0f, 4.0f);
    get_uniform_f("relink: vec4", q, 3);
    glDeleteProgram(q);
    GLuint q2 = glCreateShaderProgramv(GL_COMPUTE_SHADER, 1, &rl_c);
    glProgramUniform2i(q2, 3, 5, -6);
    GLint ri[4] = {-7, -7, -7, -7};
    glGetUniformiv(q2, 3, ri);
    err("relink: ivec2");
    printf("relink: ivec2 %d %d %d %d (same name: %d)\n", ri[0], ri[1], ri[2], ri[3], q2 == q);
    glDeleteProgram(q2);

    const float map[5] = {0.0f, 0.25f, 0.5f, 0.75f, 1.0f};
    glPixelMapfv(GL_PIXEL_MAP_R_TO_R, 5, map);
    const GLuint imap[3] = {3, 1, 2};
    glPixelMapuiv(GL_PIXEL_MAP_I_TO_I, 3, imap);
    err("glPixelMap");
    float pm[8];
    for (int i = 0; i < 8; i++)
        pm[i] = -7.0f;
    glGetPixelMapfv(GL_PIXEL_MAP_R_TO_R, pm);
    err("glGetPixelMapfv");
    printf("R_TO_R %g %g %g %g %g %g\n", pm[0], pm[1], pm[2], pm[3], pm[4], pm[5]);
    GLushort us[4] = {7, 7, 7, 7};
    glGetPixelMapusv(GL_PIXEL_MAP_I_TO_I, us);
    err("glGetPixelMapusv");
    printf("I_TO_I %u %u %u %u\n", us[0], us[1], us[2], us[3]);
    GLuint bad[2] = {7, 7};
    glGetPixelMapuiv(GL_TEXTURE_2D, bad); /* GL_INVALID_ENUM */
    err("glGetPixelMapuiv bad map");

    /* a 1D evaluator of order 3 (vertex 3: 9 values) and a 2D one of
     * orders 2 x 3 (color 4: 24 values) */
    const float pts1[9] = {0, 0, 0, 0.5f, 1, 0, 1, 0, 0};
    glMap1f(GL_MAP1_VERTEX_3, 0.0f, 2.0f, 3, 3, pts1);
    float pts2[24];
    for (int i = 0; i < 24; i++)
        pts2[i] = 0.125f * (float)i;
    glMap2f(GL_MAP2_COLOR_4, 0.0f, 1.0f, 4, 2, -1.0f, 1.0f, 8, 3, pts2);
    err("glMap");
    float g[32];
    for (int i = 0; i < 32; i++)
        g[i] = -7.0f;
    glGetMapfv(GL_MAP1_VERTEX_3, GL_COEFF, g);
    err("glGetMapfv coeff");
    printf("MAP1 coeff %g %g %g %g %g %g %g %g %g %g\n", g[0], g[1], g[2], g[3], g[4], g[5], g[6], g[7], g[8], g[9]);
    GLint order[3] = {-7, -7, -7};
    glGetMapiv(GL_MAP2_COLOR_4, GL_ORDER, order);
    err("glGetMapiv order");
    printf("MAP2 order %d %d %d\n", order[0], order[1], order[2]);
    double dom[5] = {-7, -7, -7, -7, -7};
    glGetMapdv(GL_MAP2_COLOR_4, GL_DOMAIN, dom);
    err("glGetMapdv domain");
    printf("MAP2 domain %g %g %g %g %g\n", dom[0], dom[1], dom[2], dom[3], dom[4]);
    for (int i = 0; i < 32; i++)
        g[i] = -7.0f;
    glGetMapfv(GL_MAP2_COLOR_4, GL_COEFF, g);
    err("glGetMapfv coeff 2");
    printf("MAP2 coeff %g %g %g\n", g[23], g[24], g[25]);
    glGetMapfv(GL_MAP2_COLOR_4, GL_TEXTURE_2D, g); /* GL_INVALID_ENUM */
    err("glGetMapfv bad query");
}

/* Debug messages of type error GL sends the program (case_beginend). */
static int debug_errors;
static void GLAPIENTRY on_debug(GLenum source, GLenum type, GLuint id, GLenum severity, GLsizei length,
                                const GLchar *message, const void *user);

/* Read-backs: the trace keeps size + XXH3 of what the program got. */
static void case_readback(void)
{
    glClearColor(0.25f, 0.5f, 0.75f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    uint8_t px[4 * 4 * 4];
    glReadPixels(0, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, px);
    err("glReadPixels");
    readback("glReadPixels", px, sizeof px);
    uint8_t px2[2 * 3 * 4];
    glReadnPixels(1, 1, 2, 3, GL_RGBA, GL_UNSIGNED_BYTE, sizeof px2, px2);
    err("glReadnPixels");
    readback("glReadnPixels", px2, sizeof px2);
    uint8_t data[100];
    for (int i = 0; i < 100; i++)
        data[i] = (uint8_t)(i * 7 + 3);
    buffer(GL_ARRAY_BUFFER, sizeof data, data);
    uint8_t got[40];
    glGetBufferSubData(GL_ARRAY_BUFFER, 10, sizeof got, got);
    err("glGetBufferSubData");
    readback("glGetBufferSubData", got, sizeof got);
    GLuint tex;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 2, 2, 0, GL_RGBA, GL_UNSIGNED_BYTE, data);
    uint8_t tx[16];
    glGetTextureImage(tex, 0, GL_RGBA, GL_UNSIGNED_BYTE, sizeof tx, tx);
    err("glGetTextureImage");
    readback("glGetTextureImage", tx, sizeof tx);
    /* a bufSize larger than the level: in a compatibility profile the
     * tracer cannot ask the texture's target without a GL error (Mesa), so
     * it asks the level's width, height and depth (docs/FORMAT.md): the
     * image of a 2D texture, the first face of a cube map (a prefix of the
     * six GL writes).  For a level other than 0 only when an error of its
     * own would go unseen (after the call; no GL_DEBUG_OUTPUT): a level GL
     * refuses then gives an empty digest (GL writes nothing); with debug
     * output on, the whole bufSize, and no message of the tracer's */
    uint8_t big[64];
    texture_image("glGetTextureImageCompat", tex, 0, big, sizeof big, 16);
    texture_image("glGetTextureImageCompatCube", cube_1x1(data), 0, big, sizeof big, 4);
    glBindTexture(GL_TEXTURE_2D, tex);
    glGenerateMipmap(GL_TEXTURE_2D);
    texture_image("glGetTextureImageCompatLevel1", tex, 1, big, sizeof big, 4);
    texture_image("glGetTextureImageCompatLevel9", tex, 9, big, sizeof big, 0);
    glEnable(GL_DEBUG_OUTPUT);
    glDebugMessageCallback(on_debug, NULL);
    texture_image("glGetTextureImageCompatLevel9Debug", tex, 9, big, sizeof big, sizeof big);
    texture_image("glGetTextureImageCompatLevel1Debug", tex, 1, big, sizeof big, sizeof big);
    glDebugMessageCallback(NULL, NULL);
    glDisable(GL_DEBUG_OUTPUT);
    printf("debug errors %d\n", debug_errors);
    /* a compressed level: its size asked of GL
     * (GL_TEXTURE_COMPRESSED_IMAGE_SIZE); an uncompressed one: GL refuses
     * (GL_INVALID_OPERATION) and writes nothing, an empty digest */
    GLuint ctex;
    glGenTextures(1, &ctex);
    glBindTexture(GL_TEXTURE_2D, ctex);
    glCompressedTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RED_RGTC1, 4, 4, 0, 8, data + 20);
    err("glCompressedTexImage2D");
    uint8_t cbuf[64];
    memset(cbuf, 0xcd, sizeof cbuf);
    glGetCompressedTexImage(GL_TEXTURE_2D, 0, cbuf);
    err("glGetCompressedTexImage");
    readback("glGetCompressedTexImage", cbuf, 8);
    /* the same level through glGetCompressedTextureImage, bufSize larger */
    memset(cbuf, 0xcd, sizeof cbuf);
    glGetCompressedTextureImage(ctex, 0, sizeof cbuf, cbuf);
    err("glGetCompressedTextureImage");
    readback("glGetCompressedTextureImage", cbuf, 8);
    /* and through GL_EXT_direct_state_access: by name, and on texture unit 0 */
    PFNGLGETCOMPRESSEDTEXTUREIMAGEEXTPROC get_ctex_ext =
        (PFNGLGETCOMPRESSEDTEXTUREIMAGEEXTPROC)eglGetProcAddress("glGetCompressedTextureImageEXT");
    PFNGLGETCOMPRESSEDMULTITEXIMAGEEXTPROC get_cmulti_ext =
        (PFNGLGETCOMPRESSEDMULTITEXIMAGEEXTPROC)eglGetProcAddress("glGetCompressedMultiTexImageEXT");
    if (!get_ctex_ext || !get_cmulti_ext)
        skip("no GL_EXT_direct_state_access");
    memset(cbuf, 0xcd, sizeof cbuf);
    get_ctex_ext(ctex, GL_TEXTURE_2D, 0, cbuf);
    err("glGetCompressedTextureImageEXT");
    readback("glGetCompressedTextureImageEXT", cbuf, 8);
    memset(cbuf, 0xcd, sizeof cbuf);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, ctex);
    get_cmulti_ext(GL_TEXTURE0, GL_TEXTURE_2D, 0, cbuf);
    err("glGetCompressedMultiTexImageEXT");
    readback("glGetCompressedMultiTexImageEXT", cbuf, 8);
    glBindTexture(GL_TEXTURE_2D, tex);
    glGetCompressedTexImage(GL_TEXTURE_2D, 0, cbuf);
    err("glGetCompressedTexImage uncompressed");
    readback("glGetCompressedTexImageUncompressed", cbuf, 0);
    get_ctex_ext(tex, GL_TEXTURE_2D, 0, cbuf);
    err("glGetCompressedTextureImageEXT uncompressed");
    readback("glGetCompressedTextureImageEXTUncompressed", cbuf, 0);
    get_cmulti_ext(GL_TEXTURE0, GL_TEXTURE_2D, 0, cbuf);
    err("glGetCompressedMultiTexImageEXT uncompressed");
    readback("glGetCompressedMultiTexImageEXTUncompressed", cbuf, 0);
    /* its size asked of GL (the level's width and height) */
    uint8_t tx2[16];
    glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, tx2);
    err("glGetTexImage");
    readback("glGetTexImage", tx2, sizeof tx2);
    /* GL_EXT_direct_state_access: the same level through a texture name
     * and through texture unit 0 (the level's size asked with
     * glGetTextureLevelParameterivEXT / glGetMultiTexLevelParameterivEXT) */
    PFNGLGETTEXTUREIMAGEEXTPROC get_tex_ext = (PFNGLGETTEXTUREIMAGEEXTPROC)eglGetProcAddress("glGetTextureImageEXT");
    PFNGLGETMULTITEXIMAGEEXTPROC get_multi_ext =
        (PFNGLGETMULTITEXIMAGEEXTPROC)eglGetProcAddress("glGetMultiTexImageEXT");
    if (!get_tex_ext || !get_multi_ext)
        skip("no GL_EXT_direct_state_access");
    memset(tx2, 0xcd, sizeof tx2);
    get_tex_ext(tex, GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, tx2);
    err("glGetTextureImageEXT");
    readback("glGetTextureImageEXT", tx2, sizeof tx2);
    memset(tx2, 0xcd, sizeof tx2);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, tex);
    get_multi_ext(GL_TEXTURE0, GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, tx2);
    err("glGetMultiTexImageEXT");
    readback("glGetMultiTexImageEXT", tx2, sizeof tx2);
    /* under the pack state GL writes only the image's rows: 2 x 2 pixels
     * one row and one pixel in, rows 6 pixels apart; the digest covers
     * those 2 rows of 8 bytes, concatenated (docs/FORMAT.md wip15.spans),
     * and its size is the extent (to the end of the last row: 60 bytes) */
    uint8_t pk[6 * 3 * 4];
    memset(pk, 0xab, sizeof pk);
    glPixelStorei(GL_PACK_ROW_LENGTH, 6);
    glPixelStorei(GL_PACK_SKIP_ROWS, 1);
    glPixelStorei(GL_PACK_SKIP_PIXELS, 1);
    glReadPixels(0, 0, 2, 2, GL_RGBA, GL_UNSIGNED_BYTE, pk);
    err("glReadPixels");
    uint8_t rows[16];
    memcpy(rows, pk + 1 * 24 + 4, 8);
    memcpy(rows + 8, pk + 2 * 24 + 4, 8);
    printf("readback glReadPixelsPacked 60 %016" PRIx64 "\n", (uint64_t)XXH3_64bits(rows, sizeof rows));
    /* an empty image: GL writes nothing, the digest is of no bytes */
    glGetTextureSubImage(tex, 0, 0, 0, 0, 0, 2, 1, GL_RGBA, GL_UNSIGNED_BYTE, sizeof pk, pk);
    err("glGetTextureSubImage");
    readback("glGetTextureSubImage", pk, 0);
}

/* glGetTextureImage with a bufSize larger than the image, in a core
 * profile: the digest covers the bytes GL writes (the level's size asked
 * of GL: its target, then its width, height and depth), not the rest of
 * the program's buffer (0xcd here). */
/* The rows an 8x8 RGTC1 image read back under case_readback_core's
 * compressed pack state fills (2 rows of 16 bytes at bytes 40 and 72 of
 * an extent of 88): their XXH3, as a "readback" line. */
static void packed_rows(const char *name, const uint8_t *buf)
{
    uint8_t crow[32];
    memcpy(crow, buf + 40, 16);
    memcpy(crow + 16, buf + 72, 16);
    printf("readback %s 88 %016" PRIx64 "\n", name, (uint64_t)XXH3_64bits(crow, sizeof crow));
}

static void case_readback_core(void)
{
    uint8_t data[6 * 4 * 4];
    for (size_t i = 0; i < sizeof data; i++)
        data[i] = (uint8_t)(i * 13 + 5);
    uint8_t buf[256];
    GLuint t2d, arr;
    glCreateTextures(GL_TEXTURE_2D, 1, &t2d);
    glTextureStorage2D(t2d, 2, GL_RGBA8, 2, 2);
    glTextureSubImage2D(t2d, 0, 0, 0, 2, 2, GL_RGBA, GL_UNSIGNED_BYTE, data);
    glTextureSubImage2D(t2d, 1, 0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, data + 16);
    texture_image("tex2D", t2d, 0, buf, sizeof buf, 2 * 2 * 4);
    texture_image("tex2DLevel1", t2d, 1, buf, sizeof buf, 4);
    /* a cube map created with glGenTextures + glBindTexture: its six faces */
    texture_image("texCube", cube_1x1(data), 0, buf, sizeof buf, 6 * 4);
    glCreateTextures(GL_TEXTURE_2D_ARRAY, 1, &arr);
    glTextureStorage3D(arr, 1, GL_RGBA8, 2, 1, 3);
    glTextureSubImage3D(arr, 0, 0, 0, 0, 2, 1, 3, GL_RGBA, GL_UNSIGNED_BYTE, data);
    texture_image("tex2DArray", arr, 0, buf, sizeof buf, 2 * 1 * 3 * 4);
    /* a compressed cube map (RGTC1, 4x4: 8 bytes a face): its six faces */
    GLuint ccube;
    glCreateTextures(GL_TEXTURE_CUBE_MAP, 1, &ccube);
    glTextureStorage2D(ccube, 1, GL_COMPRESSED_RED_RGTC1, 4, 4);
    glCompressedTextureSubImage3D(ccube, 0, 0, 0, 0, 4, 4, 6, GL_COMPRESSED_RED_RGTC1, 48, data);
    err("glCompressedTextureSubImage3D");
    memset(buf, 0xcd, sizeof buf);
    glGetCompressedTextureImage(ccube, 0, sizeof buf, buf);
    err("glGetCompressedTextureImage cube");
    readback("compressedCube", buf, 48);
    /* a region of it: faces 2 and 3 (whole 4x4 blocks, 8 bytes each) */
    memset(buf, 0xcd, sizeof buf);
    glGetCompressedTextureSubImage(ccube, 0, 0, 0, 2, 4, 4, 2, sizeof buf, buf);
    err("glGetCompressedTextureSubImage");
    readback("compressedCubeFaces", buf, 16);
    /* under a compressed pack state (GL_ARB_compressed_texture_pixel_storage)
     * GL lays the blocks out with the pack strides: an 8x8 RGTC1 image (2x2
     * blocks of 8 bytes), rows 16 texels (4 blocks) apart, 4 texels and 4
     * rows skipped: 2 rows of 16 bytes at bytes 40 and 72 (extent 88) */
    GLuint c2d;
    glCreateTextures(GL_TEXTURE_2D, 1, &c2d);
    glTextureStorage2D(c2d, 1, GL_COMPRESSED_RED_RGTC1, 8, 8);
    glCompressedTextureSubImage2D(c2d, 0, 0, 0, 8, 8, GL_COMPRESSED_RED_RGTC1, 32, data);
    memset(buf, 0xcd, sizeof buf);
    glPixelStorei(GL_PACK_COMPRESSED_BLOCK_WIDTH, 4);
    glPixelStorei(GL_PACK_COMPRESSED_BLOCK_HEIGHT, 4);
    glPixelStorei(GL_PACK_COMPRESSED_BLOCK_SIZE, 8);
    glPixelStorei(GL_PACK_ROW_LENGTH, 16);
    glPixelStorei(GL_PACK_SKIP_PIXELS, 4);
    glPixelStorei(GL_PACK_SKIP_ROWS, 4);
    glGetCompressedTextureSubImage(c2d, 0, 0, 0, 0, 8, 8, 1, sizeof buf, buf);
    err("glGetCompressedTextureSubImage packed");
    packed_rows("compressedPacked", buf);
    /* the whole level, the same rows: glGetCompressedTextureImage and
     * glGetCompressedTexImage of the bound texture */
    memset(buf, 0xcd, sizeof buf);
    glGetCompressedTextureImage(c2d, 0, sizeof buf, buf);
    err("glGetCompressedTextureImage packed");
    packed_rows("compressedImagePacked", buf);
    memset(buf, 0xcd, sizeof buf);
    glBindTexture(GL_TEXTURE_2D, c2d);
    glGetCompressedTexImage(GL_TEXTURE_2D, 0, buf);
    err("glGetCompressedTexImage packed");
    packed_rows("compressedTexImagePacked", buf);
    glPixelStorei(GL_PACK_COMPRESSED_BLOCK_WIDTH, 0);
    glPixelStorei(GL_PACK_COMPRESSED_BLOCK_HEIGHT, 0);
    glPixelStorei(GL_PACK_COMPRESSED_BLOCK_SIZE, 0);
    glPixelStorei(GL_PACK_ROW_LENGTH, 0);
    glPixelStorei(GL_PACK_SKIP_PIXELS, 0);
    glPixelStorei(GL_PACK_SKIP_ROWS, 0);
    /* a 3D texture read one layer at a time is still a 3D image: GL first
     * skips GL_PACK_SKIP_IMAGES images (one of one 4-byte row here) and
     * writes bytes 4..7; the digest covers those, its size is 8 */
    GLuint t3;
    glCreateTextures(GL_TEXTURE_3D, 1, &t3);
    glTextureStorage3D(t3, 1, GL_RGBA8, 1, 1, 2);
    glTextureSubImage3D(t3, 0, 0, 0, 0, 1, 1, 2, GL_RGBA, GL_UNSIGNED_BYTE, data);
    memset(buf, 0xcd, sizeof buf);
    glPixelStorei(GL_PACK_SKIP_IMAGES, 1);
    glGetTextureSubImage(t3, 0, 0, 0, 1, 1, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, sizeof buf, buf);
    err("glGetTextureSubImage 3D");
    glPixelStorei(GL_PACK_SKIP_IMAGES, 0);
    printf("readback texSub3DSkip 8 %016" PRIx64 "\n", (uint64_t)XXH3_64bits(buf + 4, 4));
    /* a name that is no texture: GL refuses (GL_INVALID_OPERATION) and
     * writes nothing; the tracer asks nothing more (glIsTexture) and the
     * digest is of the whole bufSize */
    texture_image("texNone", 4242, 0, buf, 64, 64);
    /* a level the texture does not have: GL_INVALID_VALUE, nothing asked */
    texture_image("texLevel40", t2d, 40, buf, 64, 64);
}

/* Debug messages of type error GL sends the program (the tracer must add none). */
static void GLAPIENTRY on_debug(GLenum source, GLenum type, GLuint id, GLenum severity, GLsizei length,
                                const GLchar *message, const void *user)
{
    (void)source, (void)id, (void)severity, (void)length, (void)message, (void)user;
    if (type == GL_DEBUG_TYPE_ERROR)
        debug_errors++;
}

/* Between glBegin and glEnd GL rejects read-backs, uploads, maps and queries
 * with GL_INVALID_OPERATION and touches no memory; the tracer must not make
 * GL calls of its own there (each would be one more error message) nor
 * record digests or bytes.  glBegin compiled into a display list
 * (GL_COMPILE) is not executed: a read-back after it writes pixels. */
static void case_beginend(void)
{
    glEnable(GL_DEBUG_OUTPUT);
    glEnable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
    glDebugMessageCallback(on_debug, NULL);
    glClearColor(0.25f, 0.5f, 0.75f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    uint8_t data[64];
    for (int i = 0; i < 64; i++)
        data[i] = (uint8_t)(i * 5 + 1);
    GLuint tex;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 2, 2, 0, GL_RGBA, GL_UNSIGNED_BYTE, data);
    buffer(GL_ARRAY_BUFFER, sizeof data, data);
    GLuint q;
    glGenQueries(1, &q);
    glBeginQuery(GL_SAMPLES_PASSED, q);
    glEndQuery(GL_SAMPLES_PASSED);
    glPixelStorei(GL_PACK_ROW_LENGTH, 8);
    err("setup");
    debug_errors = 0;

    uint8_t px[8 * 4 * 4];
    memset(px, 0x5a, sizeof px);
    glBegin(GL_TRIANGLES);
    glReadPixels(0, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, px);
    glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, px);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 2, 2, GL_RGBA, GL_UNSIGNED_BYTE, data);
    glBufferSubData(GL_ARRAY_BUFFER, 0, 16, data);
    void *m = glMapBuffer(GL_ARRAY_BUFFER, GL_WRITE_ONLY);
    GLuint qr = 77;
    glGetQueryObjectuiv(q, GL_QUERY_RESULT, &qr);
    glEnd();
    printf("inside glBegin/glEnd: map %s, query result %u, debug errors %d\n", m ? "non-NULL" : "NULL", qr,
           debug_errors);
    err("glEnd");
    readback("untouched", px, sizeof px);

    /* compiled, not executed: the read-back runs and writes its pixels */
    glPixelStorei(GL_PACK_ROW_LENGTH, 0);
    GLuint list = glGenLists(1);
    glNewList(list, GL_COMPILE);
    glBegin(GL_TRIANGLES);
    glReadPixels(0, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, px);
    err("glReadPixels in GL_COMPILE");
    readback("glReadPixelsCompiled", px, 4 * 4 * 4);
    glEnd();
    glEndList();
    memset(px, 0, sizeof px);
    glReadPixels(0, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, px);
    err("glReadPixels");
    readback("glReadPixels", px, 4 * 4 * 4);
    printf("debug errors %d\n", debug_errors);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: safety_prog query|indirect|dispatch|elements|attribs|pixels|invalid|readback|readback_core|beginend|getters\n");
        return 2;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    const char *c = argv[1];
    open_gl(!strcmp(c, "readback_core"));
    if (!strcmp(c, "query"))
        case_query();
    else if (!strcmp(c, "indirect"))
        case_indirect();
    else if (!strcmp(c, "dispatch"))
        case_dispatch();
    else if (!strcmp(c, "elements"))
        case_elements();
    else if (!strcmp(c, "attribs"))
        case_attribs();
    else if (!strcmp(c, "pixels"))
        case_pixels();
    else if (!strcmp(c, "invalid"))
        case_invalid();
    else if (!strcmp(c, "readback"))
        case_readback();
    else if (!strcmp(c, "readback_core"))
        case_readback_core();
    else if (!strcmp(c, "beginend"))
        case_beginend();
    else if (!strcmp(c, "getters"))
        case_getters();
    else {
        fprintf(stderr, "safety_prog: unknown case %s\n", c);
        return 2;
    }
    glFinish();
    printf("done\n");
    return 0;
}
