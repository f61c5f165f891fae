/* gles2_egl -- OpenGL ES 2.0 on headless EGL (Mesa surfaceless platform):
 * a pbuffer surface plus an FBO, shaders given with a lengths array,
 * client-side vertex attributes, a texture uploaded with UNPACK_ALIGNMENT 1,
 * glReadPixels checks and frames ended by eglSwapBuffers on the pbuffer. */
#define APP_NAME "gles2_egl"
#include "app_common.h"
#include "app_egl.h"
#include <GLES2/gl2.h>

enum { W = 32, H = 32, FRAMES = 4 };

/* Two pieces per shader, the first with an explicit length that cuts off
 * trailing garbage, the second NUL-terminated (length -1). */
static const char vs_a[] = "attribute vec2 a_pos;\nattribute vec2 a_uv;\nGARBAGE";
static const char vs_b[] = "varying vec2 v_uv;\n"
                           "void main() { v_uv = a_uv; gl_Position = vec4(a_pos, 0.0, 1.0); }\n";
static const char fs_a[] = "precision mediump float;\nuniform sampler2D u_tex;\nXX";
static const char fs_b[] = "uniform vec4 u_tint;\nvarying vec2 v_uv;\n"
                           "void main() { gl_FragColor = texture2D(u_tex, v_uv) * u_tint; }\n";

static GLuint compile(GLenum type, const char *a, GLint alen, const char *b)
{
    const char *src[2] = {a, b};
    const GLint lens[2] = {alen, -1};
    GLuint s = glCreateShader(type);
    glShaderSource(s, 2, src, lens);
    glCompileShader(s);
    GLint ok = 0;
    char log[512] = "";
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok)
        glGetShaderInfoLog(s, sizeof log, NULL, log);
    APP_CHECK(ok, "shader 0x%x does not compile: %s", type, log);
    return s;
}

static void check_px(int x, int y, int r, int g, int b, int frame)
{
    unsigned char px[4];
    glReadPixels(x, y, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
    APP_CHECK(app_near(px, r, g, b, 2), "frame %d pixel (%d,%d) is %d,%d,%d, want %d,%d,%d",
              frame, x, y, px[0], px[1], px[2], r, g, b);
}

int main(void)
{
    app_egl_t e;
    app_egl_open(&e, EGL_OPENGL_ES_API, 2, 0, W, H);

    GLuint vs = compile(GL_VERTEX_SHADER, vs_a, (GLint)(sizeof vs_a - 1 - 7), vs_b);
    GLuint fs = compile(GL_FRAGMENT_SHADER, fs_a, (GLint)(sizeof fs_a - 1 - 2), fs_b);
    GLuint prog = glCreateProgram();
    glAttachShader(prog, vs);
    glAttachShader(prog, fs);
    glBindAttribLocation(prog, 0, "a_pos");
    glBindAttribLocation(prog, 1, "a_uv");
    glLinkProgram(prog);
    GLint ok = 0;
    glGetProgramiv(prog, GL_LINK_STATUS, &ok);
    APP_CHECK(ok, "program does not link");
    APP_CHECK(glGetAttribLocation(prog, "a_uv") == 1, "a_uv not at location 1");
    glUseProgram(prog);
    glUniform1i(glGetUniformLocation(prog, "u_tex"), 0);
    GLint u_tint = glGetUniformLocation(prog, "u_tint");

    /* 3x2 RGB texture, rows of 9 bytes packed (alignment 1): left column
     * red, middle green, right blue; both rows the same. */
    static const unsigned char texels[18] = {
        255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 0, 0, 0, 255, 0, 0, 0, 255,
    };
    GLuint tex;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGB, 3, 2, 0, GL_RGB, GL_UNSIGNED_BYTE, texels);

    /* An FBO with a colour renderbuffer, drawn into and read back, then the
     * same drawing to the pbuffer. */
    GLuint fbo, rb;
    glGenFramebuffers(1, &fbo);
    glGenRenderbuffers(1, &rb);
    glBindRenderbuffer(GL_RENDERBUFFER, rb);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA4, W, H);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
    APP_CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE,
              "FBO incomplete");

    /* Client-side arrays: the tracer must capture them at draw time. */
    static const GLfloat pos[8] = {-1, -1, 1, -1, -1, 1, 1, 1};
    static const GLfloat uv[8] = {0, 0, 1, 0, 0, 1, 1, 1};
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, pos);
    glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, 0, uv);
    glEnableVertexAttribArray(0);
    glEnableVertexAttribArray(1);

    glViewport(0, 0, W, H);
    for (int f = 0; f < FRAMES; f++) {
        for (int target = 0; target < 2; target++) {
            glBindFramebuffer(GL_FRAMEBUFFER, target == 0 ? fbo : 0);
            glClearColor(0.0f, 0.0f, 0.0f, 1.0f);
            glClear(GL_COLOR_BUFFER_BIT);
            /* Tint by frame: 1, 1/2, 1/4, 1/8 on green. */
            glUniform4f(u_tint, 1.0f, 1.0f / (float)(1 << f), 1.0f, 1.0f);
            glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
            int tol_g = 255 / (1 << f);
            check_px(2, H / 2, 255, 0, 0, f);
            if (target == 1) {
                check_px(W / 2, H / 2, 0, tol_g, 0, f);
                check_px(W - 2, H / 2, 0, 0, 255, f);
            }
        }
        APP_CHECK(eglSwapBuffers(e.dpy, e.surf), "eglSwapBuffers failed (0x%x)", eglGetError());
    }
    APP_CHECK(glGetError() == GL_NO_ERROR, "GL error while drawing");
    glDeleteFramebuffers(1, &fbo);
    glDeleteRenderbuffers(1, &rb);
    glDeleteTextures(1, &tex);
    glDeleteProgram(prog);
    glDeleteShader(vs);
    glDeleteShader(fs);
    app_egl_close(&e);
    printf("%s: ok %d frames\n", APP_NAME, FRAMES);
    return 0;
}
