/* gl33_core_glx -- GL 3.3 core profile through GLX: context made with
 * glXCreateContextAttribsARB, VAO/VBO/EBO, shaders with info logs, uniforms,
 * textures with unusual unpack state, a compressed texture, debug groups,
 * glReadPixels checks and three swaps. */
#define APP_NAME "gl33_core_glx"
#define GL_GLEXT_PROTOTYPES 1
#include "app_common.h"
#include "app_glx.h"
#include <GL/glext.h>
#include <GL/glxext.h>

enum { W = 64, H = 64, FRAMES = 3 };

static const char *const vs_src =
    "#version 330 core\n"
    "layout(location = 0) in vec2 a_pos;\n"
    "layout(location = 1) in vec2 a_uv;\n"
    "uniform mat4 u_mvp;\n"
    "out vec2 v_uv;\n"
    "void main() { v_uv = a_uv; gl_Position = u_mvp * vec4(a_pos, 0.0, 1.0); }\n";
static const char *const fs_src =
    "#version 330 core\n"
    "uniform vec4 u_color;\n"
    "uniform sampler2D u_tex;\n"
    "in vec2 v_uv;\n"
    "out vec4 o_color;\n"
    "void main() { o_color = texture(u_tex, v_uv) * u_color; }\n";

static GLuint compile(GLenum type, const char *src)
{
    GLuint s = glCreateShader(type);
    glShaderSource(s, 1, &src, NULL);
    glCompileShader(s);
    GLint ok = 0, len = 0;
    char log[512];
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    glGetShaderiv(s, GL_INFO_LOG_LENGTH, &len);
    glGetShaderInfoLog(s, sizeof log, NULL, log);
    APP_CHECK(ok, "shader 0x%x does not compile: %s", type, log);
    return s;
}

static int has_format(GLint fmt)
{
    GLint n = 0;
    glGetIntegerv(GL_NUM_COMPRESSED_TEXTURE_FORMATS, &n);
    APP_CHECK(n >= 0 && n < 256, "odd number of compressed formats %d", n);
    GLint fmts[256];
    glGetIntegerv(GL_COMPRESSED_TEXTURE_FORMATS, fmts);
    for (GLint i = 0; i < n; i++)
        if (fmts[i] == fmt)
            return 1;
    return 0;
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
    app_glx_t g;
    app_glx_open(&g, W, H);

    PFNGLXCREATECONTEXTATTRIBSARBPROC create = (PFNGLXCREATECONTEXTATTRIBSARBPROC)
        glXGetProcAddressARB((const GLubyte *)"glXCreateContextAttribsARB");
    APP_CHECK(create, "no glXCreateContextAttribsARB");
    static const int cattrs[] = {
        GLX_CONTEXT_MAJOR_VERSION_ARB, 3, GLX_CONTEXT_MINOR_VERSION_ARB, 3,
        GLX_CONTEXT_PROFILE_MASK_ARB, GLX_CONTEXT_CORE_PROFILE_BIT_ARB, None,
    };
    GLXContext ctx = create(g.dpy, g.cfg, NULL, True, cattrs);
    APP_CHECK(ctx, "glXCreateContextAttribsARB(3.3 core) failed");
    APP_CHECK(glXMakeContextCurrent(g.dpy, g.win, g.win, ctx), "glXMakeContextCurrent failed");

    const char *version = (const char *)glGetString(GL_VERSION);
    APP_CHECK(version && glGetString(GL_RENDERER), "no GL_VERSION/GL_RENDERER");
    GLint major = 0, minor = 0, maxtex = 0;
    glGetIntegerv(GL_MAJOR_VERSION, &major);
    glGetIntegerv(GL_MINOR_VERSION, &minor);
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &maxtex);
    APP_CHECK(major * 10 + minor >= 33 && maxtex >= 64, "GL %d.%d, max texture %d", major,
              minor, maxtex);

    /* Program. */
    GLuint vs = compile(GL_VERTEX_SHADER, vs_src), fs = compile(GL_FRAGMENT_SHADER, fs_src);
    GLuint prog = glCreateProgram();
    glAttachShader(prog, vs);
    glAttachShader(prog, fs);
    glLinkProgram(prog);
    GLint ok = 0, len = 0;
    char log[512];
    glGetProgramiv(prog, GL_LINK_STATUS, &ok);
    glGetProgramiv(prog, GL_INFO_LOG_LENGTH, &len);
    glGetProgramInfoLog(prog, sizeof log, NULL, log);
    APP_CHECK(ok, "program does not link: %s", log);
    glDeleteShader(vs);
    glDeleteShader(fs);
    glUseProgram(prog);
    GLint u_mvp = glGetUniformLocation(prog, "u_mvp");
    GLint u_color = glGetUniformLocation(prog, "u_color");
    GLint u_tex = glGetUniformLocation(prog, "u_tex");
    APP_CHECK(u_mvp >= 0 && u_color >= 0 && u_tex >= 0, "missing uniforms");
    glUniform1i(u_tex, 0);

    /* Geometry: a full-screen quad (4 vertices, drawn with indices) and a
     * small triangle around the centre, uploaded in two sub-ranges. */
    static const GLfloat quad[] = {
        -1, -1, 0, 0, 1, -1, 1, 0, 1, 1, 1, 1, -1, 1, 0, 1,
    };
    static const GLfloat tri[] = {
        -0.2f, -0.2f, 0.5f, 0.5f, 0.2f, -0.2f, 0.5f, 0.5f, 0.0f, 0.2f, 0.5f, 0.5f,
    };
    static const GLushort idx[] = {0, 1, 2, 0, 2, 3};
    GLuint vao, bufs[2];
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenBuffers(2, bufs);
    glBindBuffer(GL_ARRAY_BUFFER, bufs[0]);
    glBufferData(GL_ARRAY_BUFFER, sizeof quad + sizeof tri, NULL, GL_STATIC_DRAW);
    glBufferSubData(GL_ARRAY_BUFFER, 0, sizeof quad, quad);
    glBufferSubData(GL_ARRAY_BUFFER, sizeof quad, sizeof tri, tri);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, bufs[1]);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, sizeof idx, idx, GL_STATIC_DRAW);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 4 * sizeof(GLfloat), (const void *)0);
    glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, 4 * sizeof(GLfloat),
                          (const void *)(2 * sizeof(GLfloat)));
    glEnableVertexAttribArray(0);
    glEnableVertexAttribArray(1);

    /* Texture 0: 8x8 RGB from rows 10 texels long, 1-byte aligned; the two
     * extra texels per row are black, so ignoring ROW_LENGTH shows. */
    static unsigned char rgb[10 * 8 * 3];
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 10; x++)
            memset(rgb + (y * 10 + x) * 3, x < 8 ? 255 : 0, 3);
    GLuint tex[2];
    glGenTextures(2, tex);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, tex[0]);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 10);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGB8, 8, 8, 0, GL_RGB, GL_UNSIGNED_BYTE, rgb);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    /* Top-right quadrant green. */
    static unsigned char green[4 * 4 * 4];
    for (int i = 0; i < 16; i++)
        memcpy(green + i * 4, "\x00\xff\x00\xff", 4);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 4, 4, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, green);

    /* Texture 1: one compressed 4x4 block, solid red (DXT1), or an ETC2
     * block when S3TC is missing (then only checked for errors). */
    glBindTexture(GL_TEXTURE_2D, tex[1]);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    static const unsigned char dxt1_red[8] = {0x00, 0xf8, 0x00, 0xf8, 0, 0, 0, 0};
    static const unsigned char etc2_any[8] = {0};
    int s3tc = has_format(GL_COMPRESSED_RGB_S3TC_DXT1_EXT);
    if (s3tc)
        glCompressedTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RGB_S3TC_DXT1_EXT, 4, 4, 0, 8,
                               dxt1_red);
    else
        glCompressedTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RGB8_ETC2, 4, 4, 0, 8, etc2_any);
    GLint compressed = 0;
    glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_COMPRESSED, &compressed);
    APP_CHECK(compressed, "compressed upload not compressed");
    APP_CHECK(glGetError() == GL_NO_ERROR, "GL error during setup");

    static const GLfloat ident[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    static const GLfloat color[4] = {1.0f, 0.5f, 1.0f, 1.0f};
    glViewport(0, 0, W, H);
    for (int f = 0; f < FRAMES; f++) {
        glDebugMessageInsert(GL_DEBUG_SOURCE_APPLICATION, GL_DEBUG_TYPE_MARKER, 1,
                             GL_DEBUG_SEVERITY_NOTIFICATION, -1, "frame start");
        glClearColor(0.0f, 0.0f, 0.25f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);

        glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 1, -1, "quad");
        glBindTexture(GL_TEXTURE_2D, tex[0]);
        glUniformMatrix4fv(u_mvp, 1, GL_FALSE, ident);
        glUniform4fv(u_color, 1, color);
        glDrawElements(GL_TRIANGLES, 6, GL_UNSIGNED_SHORT, (const void *)0);
        glPopDebugGroup();

        glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 2, 8, "triangle");
        glBindTexture(GL_TEXTURE_2D, tex[1]);
        glDrawArrays(GL_TRIANGLES, 4, 3);
        glPopDebugGroup();

        check_px(W / 4, H / 4, 255, 128, 255, f);
        check_px(3 * W / 4, 3 * H / 4, 0, 128, 0, f);
        if (s3tc)
            check_px(W / 2, H / 2, 255, 0, 0, f);
        glXSwapBuffers(g.dpy, g.win);
    }
    APP_CHECK(glGetError() == GL_NO_ERROR, "GL error while drawing");

    glDeleteTextures(2, tex);
    glDeleteBuffers(2, bufs);
    glDeleteVertexArrays(1, &vao);
    glDeleteProgram(prog);
    glXMakeContextCurrent(g.dpy, None, None, NULL);
    glXDestroyContext(g.dpy, ctx);
    app_glx_close(&g);
    printf("%s: ok %d frames, compressed=%s\n", APP_NAME, FRAMES, s3tc ? "s3tc" : "etc2");
    return 0;
}
