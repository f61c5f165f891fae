/* gles3_egl -- OpenGL ES 3.0 on headless EGL: VAO, a uniform buffer,
 * a 2D array texture from glTexImage3D with one layer uploaded through a
 * pixel-unpack buffer (the pointer argument is an offset), an instanced
 * draw, glReadPixels into a pixel-pack buffer read back with
 * glMapBufferRange, fences, and frames ended by eglSwapBuffers. */
#define APP_NAME "gles3_egl"
#include "app_common.h"
#include "app_egl.h"
#include <GLES3/gl3.h>

enum { W = 32, H = 32, FRAMES = 3 };

static const char *const vs_src =
    "#version 300 es\n"
    "layout(location = 0) in vec2 a_pos;\n"
    "layout(std140) uniform Params { vec4 tint; vec4 offset[2]; };\n"
    "out vec2 v_uv;\n"
    "flat out int v_layer;\n"
    "void main() {\n"
    "  v_uv = a_pos * 0.5 + 0.5; v_layer = gl_InstanceID;\n"
    "  gl_Position = vec4(a_pos * vec2(0.5, 1.0) + offset[gl_InstanceID].xy, 0.0, 1.0);\n"
    "}\n";
static const char *const fs_src =
    "#version 300 es\n"
    "precision mediump float;\n"
    "precision mediump sampler2DArray;\n"
    "layout(std140) uniform Params { vec4 tint; vec4 offset[2]; };\n"
    "uniform sampler2DArray u_tex;\n"
    "in vec2 v_uv;\n"
    "flat in int v_layer;\n"
    "out vec4 o_color;\n"
    "void main() { o_color = texture(u_tex, vec3(v_uv, float(v_layer))) * tint; }\n";

static GLuint compile(GLenum type, const char *src)
{
    GLuint s = glCreateShader(type);
    glShaderSource(s, 1, &src, NULL);
    glCompileShader(s);
    GLint ok = 0;
    char log[512] = "";
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok)
        glGetShaderInfoLog(s, sizeof log, NULL, log);
    APP_CHECK(ok, "shader 0x%x does not compile: %s", type, log);
    return s;
}

static void solid(unsigned char *dst, int n, unsigned char r, unsigned char g, unsigned char b)
{
    for (int i = 0; i < n; i++) {
        dst[i * 4 + 0] = r;
        dst[i * 4 + 1] = g;
        dst[i * 4 + 2] = b;
        dst[i * 4 + 3] = 255;
    }
}

int main(void)
{
    app_egl_t e;
    app_egl_open(&e, EGL_OPENGL_ES_API, 3, 0, W, H);
    GLint major = 0;
    glGetIntegerv(GL_MAJOR_VERSION, &major);
    APP_CHECK(major >= 3, "ES major version %d", major);

    GLuint vs = compile(GL_VERTEX_SHADER, vs_src), fs = compile(GL_FRAGMENT_SHADER, fs_src);
    GLuint prog = glCreateProgram();
    glAttachShader(prog, vs);
    glAttachShader(prog, fs);
    glLinkProgram(prog);
    GLint ok = 0;
    glGetProgramiv(prog, GL_LINK_STATUS, &ok);
    APP_CHECK(ok, "program does not link");
    glUseProgram(prog);
    GLuint block = glGetUniformBlockIndex(prog, "Params");
    APP_CHECK(block != GL_INVALID_INDEX, "no uniform block");
    glUniformBlockBinding(prog, block, 2);
    glUniform1i(glGetUniformLocation(prog, "u_tex"), 0);

    /* Uniform buffer: tint, then the two instance offsets (std140). */
    static const GLfloat params[12] = {
        1.0f, 1.0f, 1.0f, 1.0f, -0.5f, 0.0f, 0.0f, 0.0f, 0.5f, 0.0f, 0.0f, 0.0f,
    };
    GLuint bufs[4]; /* ubo, vbo, unpack pbo, pack pbo */
    glGenBuffers(4, bufs);
    glBindBuffer(GL_UNIFORM_BUFFER, bufs[0]);
    glBufferData(GL_UNIFORM_BUFFER, sizeof params, params, GL_STATIC_DRAW);
    glBindBufferBase(GL_UNIFORM_BUFFER, 2, bufs[0]);

    static const GLfloat quad[8] = {-1, -1, 1, -1, -1, 1, 1, 1};
    GLuint vao;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glBindBuffer(GL_ARRAY_BUFFER, bufs[1]);
    glBufferData(GL_ARRAY_BUFFER, sizeof quad, quad, GL_STATIC_DRAW);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, (const void *)0);
    glEnableVertexAttribArray(0);

    /* Array texture 4x4x2: layer 0 red from client memory, layer 1 blue
     * through the unpack buffer at offset 64. */
    static unsigned char red[4 * 4 * 4], pbo_data[64 + 4 * 4 * 4];
    solid(red, 16, 255, 0, 0);
    memset(pbo_data, 0xee, 64);
    solid(pbo_data + 64, 16, 0, 0, 255);
    GLuint tex;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D_ARRAY, tex);
    glTexParameteri(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexImage3D(GL_TEXTURE_2D_ARRAY, 0, GL_RGBA8, 4, 4, 2, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    glTexSubImage3D(GL_TEXTURE_2D_ARRAY, 0, 0, 0, 0, 4, 4, 1, GL_RGBA, GL_UNSIGNED_BYTE, red);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, bufs[2]);
    glBufferData(GL_PIXEL_UNPACK_BUFFER, sizeof pbo_data, pbo_data, GL_STATIC_DRAW);
    glTexSubImage3D(GL_TEXTURE_2D_ARRAY, 0, 0, 0, 1, 4, 4, 1, GL_RGBA, GL_UNSIGNED_BYTE,
                    (const void *)64);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);

    /* Read-back buffer for the whole surface. */
    glBindBuffer(GL_PIXEL_PACK_BUFFER, bufs[3]);
    glBufferData(GL_PIXEL_PACK_BUFFER, W * H * 4, NULL, GL_STREAM_READ);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    APP_CHECK(glGetError() == GL_NO_ERROR, "GL error during setup");

    glViewport(0, 0, W, H);
    for (int f = 0; f < FRAMES; f++) {
        glClearColor(0.0f, 0.0f, 0.0f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
        glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, 2);
        glBindBuffer(GL_PIXEL_PACK_BUFFER, bufs[3]);
        glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, (void *)0);
        GLsync sync = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
        APP_CHECK(sync, "glFenceSync failed");
        GLenum wait = glClientWaitSync(sync, GL_SYNC_FLUSH_COMMANDS_BIT, 1000000000ull);
        APP_CHECK(wait == GL_ALREADY_SIGNALED || wait == GL_CONDITION_SATISFIED,
                  "glClientWaitSync returned 0x%x", wait);
        glDeleteSync(sync);
        const unsigned char *px = glMapBufferRange(GL_PIXEL_PACK_BUFFER, 0, W * H * 4,
                                                   GL_MAP_READ_BIT);
        APP_CHECK(px, "glMapBufferRange failed");
        const unsigned char *left = px + ((H / 2) * W + W / 4) * 4;
        const unsigned char *right = px + ((H / 2) * W + 3 * W / 4) * 4;
        APP_CHECK(app_near(left, 255, 0, 0, 0) && app_near(right, 0, 0, 255, 0),
                  "frame %d: left %d,%d,%d right %d,%d,%d", f, left[0], left[1], left[2],
                  right[0], right[1], right[2]);
        APP_CHECK(glUnmapBuffer(GL_PIXEL_PACK_BUFFER), "glUnmapBuffer failed");
        glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
        APP_CHECK(eglSwapBuffers(e.dpy, e.surf), "eglSwapBuffers failed (0x%x)", eglGetError());
    }
    APP_CHECK(glGetError() == GL_NO_ERROR, "GL error while drawing");
    glDeleteTextures(1, &tex);
    glDeleteVertexArrays(1, &vao);
    glDeleteBuffers(4, bufs);
    glDeleteProgram(prog);
    glDeleteShader(vs);
    glDeleteShader(fs);
    app_egl_close(&e);
    printf("%s: ok %d frames\n", APP_NAME, FRAMES);
    return 0;
}
