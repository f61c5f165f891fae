/* pnames_gl.c -- capture.safety.pnames_gl: glapi/pnames.txt against Mesa.
 *
 * For every pname the generated table gives a count (how many values a
 * glGet*v reads back or a glTexParameter*v / glLight*v / glPatchParameterfv
 * ... passes), each getter below is called with a buffer of sentinel
 * values, in a GL 4.5 compatibility and a core context: when GL accepts
 * the pname and writes more values than the table says, the tracer records
 * (and the replay passes) too few -- GL_PATCH_DEFAULT_OUTER_LEVEL was
 * listed with 1 value for 4, and tessellation replays drew nothing.  Fewer
 * values written is not a fault (a query may write less than its setter
 * takes).  Exit 0 pass, 1 a count too small, 77 no surfaceless EGL / GL 4.5.
 */
#define GL_GLEXT_PROTOTYPES
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/gl.h>
#include <GL/glext.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "apitable.h"

static GLuint tex, prog, sh, samp;

typedef void (*getter_fn)(GLenum pname, float *out);
static void g_double(GLenum p, float *o) { glGetDoublev(p, (GLdouble *)(void *)o); }
static void g_indexed(GLenum p, float *o) { glGetFloati_v(p, 0, o); }
static void g_tex(GLenum p, float *o) { glGetTexParameterfv(GL_TEXTURE_2D, p, o); }
static void g_texlevel(GLenum p, float *o) { glGetTexLevelParameterfv(GL_TEXTURE_2D, 0, p, o); }
static void g_light(GLenum p, float *o) { glGetLightfv(GL_LIGHT0, p, o); }
static void g_material(GLenum p, float *o) { glGetMaterialfv(GL_FRONT, p, o); }
static void g_texenv(GLenum p, float *o) { glGetTexEnvfv(GL_TEXTURE_ENV, p, o); }
static void g_texgen(GLenum p, float *o) { glGetTexGenfv(GL_S, p, o); }
static void g_program(GLenum p, float *o) { glGetProgramiv(prog, p, (GLint *)(void *)o); }
static void g_shader(GLenum p, float *o) { glGetShaderiv(sh, p, (GLint *)(void *)o); }
static void g_buffer(GLenum p, float *o) { glGetBufferParameteriv(GL_ARRAY_BUFFER, p, (GLint *)(void *)o); }
static void g_sampler(GLenum p, float *o) { glGetSamplerParameterfv(samp, p, o); }
static void g_query(GLenum p, float *o) { glGetQueryiv(GL_SAMPLES_PASSED, p, (GLint *)(void *)o); }
static void g_attachment(GLenum p, float *o)
{
    glGetFramebufferAttachmentParameteriv(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, p, (GLint *)(void *)o);
}

static const struct getter {
    const char *name;
    getter_fn fn;
    int words; /* 32-bit words per value (glGetDoublev: 2) */
    int compat_only;
} getters[] = {
    {"glGetDoublev", g_double, 2, 0},        {"glGetFloati_v", g_indexed, 1, 0},
    {"glGetTexParameterfv", g_tex, 1, 0},    {"glGetTexLevelParameterfv", g_texlevel, 1, 0},
    {"glGetLightfv", g_light, 1, 1},         {"glGetMaterialfv", g_material, 1, 1},
    {"glGetTexEnvfv", g_texenv, 1, 1},       {"glGetTexGenfv", g_texgen, 1, 1},
    {"glGetProgramiv", g_program, 1, 0},     {"glGetShaderiv", g_shader, 1, 0},
    {"glGetBufferParameteriv", g_buffer, 1, 0}, {"glGetSamplerParameterfv", g_sampler, 1, 0},
    {"glGetQueryiv", g_query, 1, 0},         {"glGetFramebufferAttachmentParameteriv", g_attachment, 1, 0},
};

/* Values GL writes for pname through g: the last 32-bit word that differs
 * from either of two sentinels, in values; -1 when GL refuses the pname. */
static int written(const struct getter *g, GLenum pname)
{
    enum { WORDS = 4096 };
    int most = 0;
    for (int s = 0; s < 2; s++) {
        uint32_t buf[WORDS], sent = s ? 0x7f7f7f7fu : 0x13572468u;
        for (int i = 0; i < WORDS; i++)
            buf[i] = sent;
        while (glGetError() != GL_NO_ERROR)
            ;
        g->fn(pname, (float *)(void *)buf);
        if (glGetError() != GL_NO_ERROR)
            return -1;
        int last = 0;
        for (int i = 0; i < WORDS; i++)
            if (buf[i] != sent)
                last = i + 1;
        int vals = (last + g->words - 1) / g->words;
        if (vals > most)
            most = vals;
    }
    return most;
}

static int check_context(EGLDisplay d, EGLConfig cfg, int core)
{
    EGLint attrs[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 5, EGL_CONTEXT_OPENGL_PROFILE_MASK,
                      core ? EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT : EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT,
                      EGL_NONE};
    EGLContext c = eglCreateContext(d, cfg, EGL_NO_CONTEXT, attrs);
    if (c == EGL_NO_CONTEXT || !eglMakeCurrent(d, EGL_NO_SURFACE, EGL_NO_SURFACE, c)) {
        printf("SKIP: no GL 4.5 %s context\n", core ? "core" : "compatibility");
        return 77;
    }
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    sh = glCreateShader(GL_VERTEX_SHADER);
    const char *src = "#version 150\nvoid main() { gl_Position = vec4(0.0); }\n";
    glShaderSource(sh, 1, &src, NULL);
    glCompileShader(sh);
    prog = glCreateProgram();
    glAttachShader(prog, sh);
    glLinkProgram(prog);
    GLuint buf, fb, vao;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenBuffers(1, &buf);
    glBindBuffer(GL_ARRAY_BUFFER, buf);
    glBufferData(GL_ARRAY_BUFFER, 16, NULL, GL_STATIC_DRAW);
    glGenSamplers(1, &samp);
    glGenFramebuffers(1, &fb);
    glBindFramebuffer(GL_FRAMEBUFFER, fb);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
    int bad = 0, pairs = 0;
    for (size_t k = 0; k < sizeof getters / sizeof getters[0]; k++) {
        if (core && getters[k].compat_only)
            continue;
        for (uint32_t i = 0; i < w15_npname_counts; i++) {
            const w15_pname_count_t *p = &w15_pname_counts[i];
            if (!p->count)
                continue;
            int n = written(&getters[k], p->pname);
            if (n < 0)
                continue;
            pairs++;
            if (n > (int)p->count) {
                const char *name = w15_enum_name(W15_NO_GROUP, p->pname, 0);
                printf("FAIL: %s %s: GL writes %d values, glapi/pnames.txt says %u (%s context)\n",
                       getters[k].name, name ? name : "?", n, p->count, core ? "core" : "compatibility");
                bad = 1;
            }
        }
    }
    printf("%s: %d pname/getter pairs GL accepts, checked\n", core ? "core" : "compatibility", pairs);
    /* pnames the table lacks: every enumerant of the registry a getter
     * accepts and writes values for must have a count (else the tracer
     * records a setter's values, glFogiv(GL_FOG_DISTANCE_MODE_NV, ...),
     * as a bare pointer and the replay passes zeros) -- but those whose
     * count another query gives */
    static const uint32_t variable[] = {0x86A3 /* GL_COMPRESSED_TEXTURE_FORMATS */,
                                        0x87FF /* GL_PROGRAM_BINARY_FORMATS */,
                                        0x8DF8 /* GL_SHADER_BINARY_FORMATS */};
    int missing = 0;
    for (size_t k = 0; k < sizeof getters / sizeof getters[0]; k++) {
        if (core && getters[k].compat_only)
            continue;
        for (uint32_t e = 1; e < 0x10000; e++) {
            const char *name = w15_enum_name(W15_NO_GROUP, e, 0);
            int skip = !name || w15_pname_count(e) != 0;
            for (size_t v = 0; v < sizeof variable / sizeof variable[0]; v++)
                skip |= variable[v] == e;
            /* GL_EXT_memory_object's UUIDs and LUIDs (glGetUnsignedBytevEXT
             * pnames): Mesa's glGetDoublev of GL_DEVICE_LUID_EXT calls a
             * driver hook llvmpipe lacks (a NULL function) */
            skip |= e >= 0x9596 && e <= 0x959C;
            int n = skip ? 0 : written(&getters[k], e);
            if (n <= 0)
                continue;
            printf("FAIL: %s %s (0x%04X): GL accepts it and writes %d value(s); glapi/pnames.txt has no "
                   "count (%s context)\n", getters[k].name, name, e, n, core ? "core" : "compatibility");
            missing++;
        }
    }
    if (missing)
        bad = 1;
    eglMakeCurrent(d, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(d, c);
    return bad;
}

int main(void)
{
    PFNEGLGETPLATFORMDISPLAYEXTPROC gpd = (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
    EGLDisplay d = gpd ? gpd(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL) : EGL_NO_DISPLAY;
    EGLConfig cfg;
    EGLint n = 0, ca[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
    if (d == EGL_NO_DISPLAY || !eglInitialize(d, NULL, NULL) || !eglBindAPI(EGL_OPENGL_API) ||
        !eglChooseConfig(d, ca, &cfg, 1, &n) || n < 1) {
        printf("SKIP: no surfaceless EGL with desktop GL\n");
        return 77;
    }
    int a = check_context(d, cfg, 0), b = check_context(d, cfg, 1);
    if (a == 1 || b == 1)
        return 1;
    return a == 77 || b == 77 ? 77 : 0;
}
