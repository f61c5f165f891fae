/* readback_egl.c -- read-backs whose extent is GL state, for replay.bounded
 * (tests/replay/run_replay.py kind `bounded`): desktop GL 4.5
 * compatibility, EGL surfaceless, no surface.
 *
 * A 256x256 RGBA8 texture and a 256x256 RGTC1 one (32 KiB) are read back
 * whole through every function whose output GL sizes from the level:
 * glGetTexImage, glGetCompressedTexImage and their GL_EXT_direct_state_access
 * forms by name and by texture unit.  Before one of them the program leaves
 * a GL error unread (glEnable(0): GL_INVALID_ENUM) and reads it after.
 * Prints "readback NAME SIZE XXH3" for each read-back and "error NAME 0x..."
 * for each glGetError, then "readback_egl: ok".  The test edits the
 * recorded sizes of these read-backs to 16 bytes: a replay must then give
 * GL an output as large as its own level, not 16 bytes.  Last, glMap1f
 * with a stride of 65536 floats and order 2 (GL reads 65540 floats); the
 * test edits the stride to 1048575: the replay must give GL that many.
 * Then glDrawArraysIndirect from a GL_DRAW_INDIRECT_BUFFER: the test
 * renames glBindBuffer in the trace, and the replay, with no buffer bound
 * there, must not give GL the offset as a pointer. */
#define APP_NAME "readback_egl"
#include "app_common.h"
#include "app_egl.h"

#include <inttypes.h>
#include <stdint.h>

#define GL_GLEXT_PROTOTYPES
#include <GL/gl.h>
#include <GL/glext.h>
#define XXH_INLINE_ALL
#include <xxhash.h>

#define S 256

static void readback(const char *what, const void *p, size_t n)
{
    printf("readback %s %zu %016" PRIx64 "\n", what, n, (uint64_t)XXH3_64bits(p, n));
}

static void error(const char *what)
{
    printf("error %s 0x%04x\n", what, glGetError());
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    app_egl_t e;
    e.dpy = app_egl_display();
    EGLint vmaj = 0, vmin = 0, n = 0;
    APP_CHECK(e.dpy != EGL_NO_DISPLAY && eglInitialize(e.dpy, &vmaj, &vmin), "no EGL display");
    APP_CHECK(eglBindAPI(EGL_OPENGL_API), "eglBindAPI failed");
    const EGLint cattrs[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
    APP_CHECK(eglChooseConfig(e.dpy, cattrs, &e.cfg, 1, &n) && n == 1, "no EGL config");
    const EGLint xattrs[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 5,
                             EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT,
                             EGL_NONE};
    e.ctx = eglCreateContext(e.dpy, e.cfg, EGL_NO_CONTEXT, xattrs);
    APP_CHECK(e.ctx != EGL_NO_CONTEXT, "no GL 4.5 compatibility context (0x%x)", eglGetError());
    APP_CHECK(eglMakeCurrent(e.dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, e.ctx), "eglMakeCurrent failed");
    PFNGLGETTEXTUREIMAGEEXTPROC tex_ext = (PFNGLGETTEXTUREIMAGEEXTPROC)eglGetProcAddress("glGetTextureImageEXT");
    PFNGLGETMULTITEXIMAGEEXTPROC multi_ext = (PFNGLGETMULTITEXIMAGEEXTPROC)eglGetProcAddress("glGetMultiTexImageEXT");
    PFNGLGETCOMPRESSEDTEXTUREIMAGEEXTPROC ctex_ext =
        (PFNGLGETCOMPRESSEDTEXTUREIMAGEEXTPROC)eglGetProcAddress("glGetCompressedTextureImageEXT");
    PFNGLGETCOMPRESSEDMULTITEXIMAGEEXTPROC cmulti_ext =
        (PFNGLGETCOMPRESSEDMULTITEXIMAGEEXTPROC)eglGetProcAddress("glGetCompressedMultiTexImageEXT");
    const char *exts = (const char *)glGetString(GL_EXTENSIONS);
    if (!exts || !strstr(exts, "GL_EXT_direct_state_access") || !tex_ext || !multi_ext || !ctex_ext ||
        !cmulti_ext) {
        printf("SKIP: no GL_EXT_direct_state_access\n");
        return 77;
    }

    static uint8_t img[S * S * 4], got[S * S * 4];
    for (size_t i = 0; i < sizeof img; i++)
        img[i] = (uint8_t)(i * 31 + (i >> 10) * 7);
    GLuint tex[2];
    glGenTextures(2, tex);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, tex[0]);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, S, S, 0, GL_RGBA, GL_UNSIGNED_BYTE, img);

    glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, got);
    readback("glGetTexImage", got, sizeof got);
    error("glGetTexImage");
    /* an error left for the program: GL keeps it across the read-back */
    glEnable(0);
    memset(got, 0, sizeof got);
    glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, got);
    readback("glGetTexImagePending", got, sizeof got);
    error("glEnable(0)");
    memset(got, 0, sizeof got);
    tex_ext(tex[0], GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, got);
    readback("glGetTextureImageEXT", got, sizeof got);
    error("glGetTextureImageEXT");
    memset(got, 0, sizeof got);
    multi_ext(GL_TEXTURE0, GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, got);
    readback("glGetMultiTexImageEXT", got, sizeof got);
    error("glGetMultiTexImageEXT");

    /* RGTC1: 8 bytes per 4x4 block */
    const size_t csize = (S / 4) * (S / 4) * 8;
    glBindTexture(GL_TEXTURE_2D, tex[1]);
    glCompressedTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RED_RGTC1, S, S, 0, (GLsizei)csize, img);
    error("glCompressedTexImage2D");
    memset(got, 0, sizeof got);
    glGetCompressedTexImage(GL_TEXTURE_2D, 0, got);
    readback("glGetCompressedTexImage", got, csize);
    error("glGetCompressedTexImage");
    memset(got, 0, sizeof got);
    ctex_ext(tex[1], GL_TEXTURE_2D, 0, got);
    readback("glGetCompressedTextureImageEXT", got, csize);
    error("glGetCompressedTextureImageEXT");
    memset(got, 0, sizeof got);
    cmulti_ext(GL_TEXTURE0, GL_TEXTURE_2D, 0, got);
    readback("glGetCompressedMultiTexImageEXT", got, csize);
    error("glGetCompressedMultiTexImageEXT");

    /* evaluator control points: GL reads stride x (order - 1) + 4 floats */
    static GLfloat pts[65536 + 4];
    for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++)
        pts[i] = (GLfloat)(i % 7);
    glMap1f(GL_MAP1_VERTEX_4, 0.125f, 0.875f, 65536, 2, pts);
    error("glMap1f");

    /* an indirect draw from a buffer (into a framebuffer object: there is
     * no surface); the test makes the replay skip the glBindBuffer */
    GLuint fb, rb, ib;
    glGenFramebuffers(1, &fb);
    glBindFramebuffer(GL_FRAMEBUFFER, fb);
    glGenRenderbuffers(1, &rb);
    glBindRenderbuffer(GL_RENDERBUFFER, rb);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 16, 16);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
    static const GLuint draw[4] = {3, 1, 0, 0};
    glGenBuffers(1, &ib);
    glBindBuffer(GL_DRAW_INDIRECT_BUFFER, ib);
    glBufferData(GL_DRAW_INDIRECT_BUFFER, sizeof draw, draw, GL_STATIC_DRAW);
    glDrawArraysIndirect(GL_TRIANGLES, (const void *)0);
    error("glDrawArraysIndirect");

    glDeleteTextures(2, tex);
    eglMakeCurrent(e.dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(e.dpy, e.ctx);
    eglTerminate(e.dpy);
    printf("readback_egl: ok\n");
    return 0;
}
