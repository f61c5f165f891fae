/* colors_egl.c -- a program that checks its own rendering, for the replay
 * tests: GLES 3.0 on a 64x64 EGL pbuffer, buffer objects only (no client
 * memory), two frames of
 *   left half      red    (a shader with a uniform colour, location from
 *                          glGetUniformLocation),
 *   top right      green  (a 2x2 texture uploaded with glTexImage2D),
 *   bottom right   blue   (the clear colour),
 * each frame read back with glReadPixels and checked before its swap:
 * exits 1 when a pixel is wrong.  tests/replay/run_replay.py knows the same
 * picture and checks the replay's frame MD5 against it. */
#define APP_NAME "colors_egl"
#include "app_common.h"
#include "app_egl.h"

#include <GLES3/gl3.h>

#define W 64
#define H 64

static GLuint shader(GLenum type, const char *src)
{
    GLuint s = glCreateShader(type);
    glShaderSource(s, 1, &src, NULL);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    APP_CHECK(ok, "shader does not compile");
    return s;
}

static GLuint program(const char *fs)
{
    static const char *vs = "#version 300 es\n"
                            "layout(location = 0) in vec2 pos;\n"
                            "out vec2 uv;\n"
                            "void main() { uv = pos * 0.5 + 0.5; gl_Position = vec4(pos, 0.0, 1.0); }\n";
    GLuint p = glCreateProgram();
    GLuint v = shader(GL_VERTEX_SHADER, vs), f = shader(GL_FRAGMENT_SHADER, fs);
    glAttachShader(p, v);
    glAttachShader(p, f);
    glLinkProgram(p);
    GLint ok = 0;
    glGetProgramiv(p, GL_LINK_STATUS, &ok);
    APP_CHECK(ok, "program does not link");
    glDeleteShader(v);
    glDeleteShader(f);
    return p;
}

int main(void)
{
    app_egl_t e;
    app_egl_open(&e, EGL_OPENGL_ES_API, 3, 0, W, H);

    /* names created and deleted first, so that the ones used below are
     * not the first of their namespace */
    GLuint junk[3];
    glGenBuffers(3, junk);
    glDeleteBuffers(3, junk);

    GLuint solid = program("#version 300 es\nprecision mediump float;\n"
                           "uniform float unused;\nuniform vec4 color;\nout vec4 o;\n"
                           "void main() { o = color + vec4(unused * 0.0); }\n");
    GLuint textured = program("#version 300 es\nprecision mediump float;\n"
                              "uniform sampler2D tex;\nin vec2 uv;\nout vec4 o;\n"
                              "void main() { o = texture(tex, uv); }\n");
    GLint u_color = glGetUniformLocation(solid, "color");
    GLint u_tex = glGetUniformLocation(textured, "tex");
    APP_CHECK(u_color >= 0 && u_tex >= 0, "uniforms missing");

    static const GLfloat left[] = {-1, -1, 0, -1, 0, 1, -1, -1, 0, 1, -1, 1};
    static const GLfloat topright[] = {0, 0, 1, 0, 1, 1, 0, 0, 1, 1, 0, 1};
    GLuint vao[2], vbo[2];
    glGenVertexArrays(2, vao);
    glGenBuffers(2, vbo);
    for (int i = 0; i < 2; i++) {
        glBindVertexArray(vao[i]);
        glBindBuffer(GL_ARRAY_BUFFER, vbo[i]);
        glBufferData(GL_ARRAY_BUFFER, sizeof left, i ? topright : left, GL_STATIC_DRAW);
        glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, (const void *)0);
        glEnableVertexAttribArray(0);
    }
    GLuint tex;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    static const GLubyte green[16] = {0, 255, 0, 255, 0, 255, 0, 255, 0, 255, 0, 255, 0, 255, 0, 255};
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 2, 2, 0, GL_RGBA, GL_UNSIGNED_BYTE, green);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glViewport(0, 0, W, H);

    static GLubyte px[W * H * 4];
    for (int frame = 0; frame < 2; frame++) {
        glClearColor(0, 0, 1, 1);
        glClear(GL_COLOR_BUFFER_BIT);
        glUseProgram(solid);
        glUniform4f(u_color, 1, 0, 0, 1);
        glBindVertexArray(vao[0]);
        glDrawArrays(GL_TRIANGLES, 0, 6);
        glUseProgram(textured);
        glUniform1i(u_tex, 0);
        glBindVertexArray(vao[1]);
        glDrawArrays(GL_TRIANGLES, 0, 6);
        glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, px);
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                const GLubyte *p = px + (y * W + x) * 4;
                GLubyte r = x < W / 2 ? 255 : 0, g = x >= W / 2 && y >= H / 2 ? 255 : 0,
                        b = x >= W / 2 && y < H / 2 ? 255 : 0;
                APP_CHECK(p[0] == r && p[1] == g && p[2] == b && p[3] == 255,
                          "frame %d pixel %d,%d is %d,%d,%d,%d", frame, x, y, p[0], p[1], p[2], p[3]);
            }
        eglSwapBuffers(e.dpy, e.surf);
    }
    APP_CHECK(glGetError() == GL_NO_ERROR, "GL error");
    app_egl_close(&e);
    printf("%s: ok 2 frames\n", APP_NAME);
    return 0;
}
