/* demo_cube -- the bundled wip15 demo: a textured, lit, spinning cube in
 * an OpenGL 3.3 core context, with a small overlay whose texture is
 * rewritten every 30 frames.  Each pass is wrapped in a debug group, so the
 * trace shows the frame structure.  Uses GLX when $DISPLAY is set, else a
 * headless EGL pbuffer (Mesa surfaceless platform) with the same GL code.
 * Animation depends on the frame number only, so traces are reproducible.
 *
 *   demo_cube [--frames N] [--size WxH]      (defaults: 300, 480x360)
 *
 * Prints the context it got and the frame rate; exits 1 if the cube is not
 * where it should be at the end. */
#define APP_NAME "demo_cube"
#define GL_GLEXT_PROTOTYPES 1
#include "app_common.h"
#include "app_egl.h"
#include "app_glx.h"
#include <GL/glext.h>
#include <GL/glxext.h>
#include <math.h>
#include <time.h>

static const char *const vs_src =
    "#version 330 core\n"
    "layout(location = 0) in vec3 a_pos;\n"
    "layout(location = 1) in vec3 a_normal;\n"
    "layout(location = 2) in vec2 a_uv;\n"
    "uniform mat4 u_mvp;\n"
    "uniform mat4 u_model;\n"
    "out vec3 v_normal;\n"
    "out vec2 v_uv;\n"
    "void main() {\n"
    "  v_normal = mat3(u_model) * a_normal; v_uv = a_uv;\n"
    "  gl_Position = u_mvp * vec4(a_pos, 1.0);\n"
    "}\n";
static const char *const fs_src =
    "#version 330 core\n"
    "uniform sampler2D u_tex;\n"
    "uniform vec3 u_light;\n"
    "uniform float u_ambient;\n"
    "in vec3 v_normal;\n"
    "in vec2 v_uv;\n"
    "out vec4 o_color;\n"
    "void main() {\n"
    "  float d = max(dot(normalize(v_normal), u_light), 0.0);\n"
    "  o_color = vec4(texture(u_tex, v_uv).rgb * (u_ambient + (1.0 - u_ambient) * d), 1.0);\n"
    "}\n";

typedef struct {
    GLfloat m[16];
} mat4_t;

static mat4_t mat_mul(mat4_t a, mat4_t b)
{
    mat4_t r;
    for (int c = 0; c < 4; c++)
        for (int row = 0; row < 4; row++) {
            float s = 0;
            for (int k = 0; k < 4; k++)
                s += a.m[k * 4 + row] * b.m[c * 4 + k];
            r.m[c * 4 + row] = s;
        }
    return r;
}

static mat4_t mat_identity(void)
{
    mat4_t r = {{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}};
    return r;
}

static mat4_t mat_rotate(float angle, float x, float y, float z)
{
    float len = sqrtf(x * x + y * y + z * z), c = cosf(angle), s = sinf(angle), t = 1 - c;
    x /= len, y /= len, z /= len;
    mat4_t r = {{t * x * x + c, t * x * y + s * z, t * x * z - s * y, 0,
                 t * x * y - s * z, t * y * y + c, t * y * z + s * x, 0,
                 t * x * z + s * y, t * y * z - s * x, t * z * z + c, 0, 0, 0, 0, 1}};
    return r;
}

static mat4_t mat_perspective(float fovy, float aspect, float znear, float zfar)
{
    float f = 1.0f / tanf(fovy / 2);
    mat4_t r = {{f / aspect, 0, 0, 0, 0, f, 0, 0, 0, 0, (zfar + znear) / (znear - zfar), -1,
                 0, 0, 2 * zfar * znear / (znear - zfar), 0}};
    return r;
}

static GLuint compile(GLenum type, const char *src)
{
    GLuint s = glCreateShader(type);
    glShaderSource(s, 1, &src, NULL);
    glCompileShader(s);
    GLint ok = 0;
    char log[1024] = "";
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok)
        glGetShaderInfoLog(s, sizeof log, NULL, log);
    APP_CHECK(ok, "shader does not compile: %s", log);
    return s;
}

static GLuint link_program(void)
{
    GLuint vs = compile(GL_VERTEX_SHADER, vs_src), fs = compile(GL_FRAGMENT_SHADER, fs_src);
    GLuint p = glCreateProgram();
    glAttachShader(p, vs);
    glAttachShader(p, fs);
    glLinkProgram(p);
    GLint ok = 0;
    glGetProgramiv(p, GL_LINK_STATUS, &ok);
    APP_CHECK(ok, "program does not link");
    glDeleteShader(vs);
    glDeleteShader(fs);
    return p;
}

/* 24 vertices (position, normal, uv), 4 per face, and 36 indices. */
static void cube_geometry(GLfloat *v, GLushort *idx)
{
    static const int faces[6][3] = {{0, 1, 2}, {0, 1, 2}, {1, 2, 0}, {1, 2, 0}, {2, 0, 1}, {2, 0, 1}};
    static const float corners[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
    for (int f = 0; f < 6; f++) {
        float sign = (f & 1) ? -1.0f : 1.0f;
        int a = faces[f][0], b = faces[f][1], n = faces[f][2];
        for (int c = 0; c < 4; c++) {
            GLfloat *p = v + (f * 4 + c) * 8;
            float u = corners[c][0], w = corners[c][1] * sign;
            memset(p, 0, 8 * sizeof *p);
            p[a] = u, p[b] = w, p[n] = sign;
            p[3 + n] = sign;
            p[6] = (corners[c][0] + 1) / 2, p[7] = (corners[c][1] + 1) / 2;
        }
        static const int tri[6] = {0, 1, 2, 0, 2, 3};
        for (int i = 0; i < 6; i++)
            idx[f * 6 + i] = (GLushort)(f * 4 + tri[i]);
    }
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    int frames = 300, w = 480, h = 360;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc)
            frames = atoi(argv[++i]);
        else if (strcmp(argv[i], "--size") == 0 && i + 1 < argc)
            sscanf(argv[++i], "%dx%d", &w, &h);
        else {
            fprintf(stderr, "usage: demo_cube [--frames N] [--size WxH]\n");
            return 2;
        }
    }
    APP_CHECK(frames > 0 && w >= 16 && h >= 16, "bad arguments");

    /* Window system: GLX with $DISPLAY, else headless EGL. */
    int use_glx = getenv("DISPLAY") && getenv("DISPLAY")[0];
    app_glx_t g;
    app_egl_t e;
    memset(&g, 0, sizeof g);
    memset(&e, 0, sizeof e);
    GLXContext glx_ctx = NULL;
    if (use_glx) {
        app_glx_open(&g, w, h);
        PFNGLXCREATECONTEXTATTRIBSARBPROC create = (PFNGLXCREATECONTEXTATTRIBSARBPROC)
            glXGetProcAddressARB((const GLubyte *)"glXCreateContextAttribsARB");
        APP_CHECK(create, "no glXCreateContextAttribsARB");
        static const int cattrs[] = {
            GLX_CONTEXT_MAJOR_VERSION_ARB, 3, GLX_CONTEXT_MINOR_VERSION_ARB, 3,
            GLX_CONTEXT_PROFILE_MASK_ARB, GLX_CONTEXT_CORE_PROFILE_BIT_ARB, None,
        };
        glx_ctx = create(g.dpy, g.cfg, NULL, True, cattrs);
        APP_CHECK(glx_ctx, "no GL 3.3 core context");
        APP_CHECK(glXMakeContextCurrent(g.dpy, g.win, g.win, glx_ctx), "glXMakeContextCurrent");
    } else {
        app_egl_open(&e, EGL_OPENGL_API, 3, 3, w, h);
    }
    printf("demo_cube: %s, %s, %s, %dx%d, %d frames\n", use_glx ? "GLX" : "EGL pbuffer",
           (const char *)glGetString(GL_RENDERER), (const char *)glGetString(GL_VERSION), w, h,
           frames);

    GLuint prog = link_program();
    glUseProgram(prog);
    GLint u_mvp = glGetUniformLocation(prog, "u_mvp");
    GLint u_model = glGetUniformLocation(prog, "u_model");
    GLint u_light = glGetUniformLocation(prog, "u_light");
    GLint u_ambient = glGetUniformLocation(prog, "u_ambient");
    glUniform1i(glGetUniformLocation(prog, "u_tex"), 0);

    static GLfloat verts[24 * 8];
    static GLushort idx[36];
    cube_geometry(verts, idx);
    static const GLfloat overlay[4 * 8] = {
        -1, -1, 0, 0, 0, 1, 0, 0, 1, -1, 0, 0, 0, 1, 1, 0,
        1, 1, 0, 0, 0, 1, 1, 1, -1, 1, 0, 0, 0, 1, 0, 1,
    };
    GLuint vao[2], buf[3];
    glGenVertexArrays(2, vao);
    glGenBuffers(3, buf);
    for (int i = 0; i < 2; i++) {
        glBindVertexArray(vao[i]);
        glBindBuffer(GL_ARRAY_BUFFER, buf[i]);
        if (i == 0) {
            glBufferData(GL_ARRAY_BUFFER, sizeof verts, verts, GL_STATIC_DRAW);
            glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, buf[2]);
            glBufferData(GL_ELEMENT_ARRAY_BUFFER, sizeof idx, idx, GL_STATIC_DRAW);
        } else {
            glBufferData(GL_ARRAY_BUFFER, sizeof overlay, overlay, GL_STATIC_DRAW);
        }
        for (GLuint a = 0; a < 3; a++) {
            static const GLint sizes[3] = {3, 3, 2};
            glVertexAttribPointer(a, sizes[a], GL_FLOAT, GL_FALSE, 8 * sizeof(GLfloat),
                                  (const void *)(uintptr_t)(a * 3 * sizeof(GLfloat)));
            glEnableVertexAttribArray(a);
        }
    }

    /* Textures: a 64x64 checker on the cube (mipmapped), a 32x32 overlay
     * rewritten every 30 frames. */
    static unsigned char texels[64 * 64 * 4];
    GLuint tex[2];
    glGenTextures(2, tex);
    glBindTexture(GL_TEXTURE_2D, tex[0]);
    app_fill_texture(texels, 64, 64, 64, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 64, 64, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels);
    glGenerateMipmap(GL_TEXTURE_2D);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glBindTexture(GL_TEXTURE_2D, tex[1]);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 32, 32, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    APP_CHECK(glGetError() == GL_NO_ERROR, "GL error during setup");

    static const GLfloat light[3] = {0.408248f, 0.408248f, 0.816497f};
    mat4_t proj = mat_perspective(0.9f, (float)w / (float)h, 0.5f, 20.0f);
    mat4_t view = mat_identity();
    view.m[14] = -5.0f;
    glEnable(GL_DEPTH_TEST);
    glEnable(GL_CULL_FACE);
    double t0 = now(), slowest = 0;
    unsigned char px[4] = {0};
    for (int f = 0; f < frames; f++) {
        double tf = now();
        float angle = (float)f * 0.02f;
        mat4_t model = mat_mul(mat_rotate(angle, 0.3f, 1.0f, 0.1f), mat_rotate(angle * 0.5f, 1, 0, 0));
        mat4_t mvp = mat_mul(proj, mat_mul(view, model));

        glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 1, -1, "clear");
        glViewport(0, 0, w, h);
        glClearColor(0.08f, 0.09f, 0.12f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
        glPopDebugGroup();

        glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 2, -1, "cube");
        glEnable(GL_DEPTH_TEST);
        glBindVertexArray(vao[0]);
        glBindTexture(GL_TEXTURE_2D, tex[0]);
        glUniformMatrix4fv(u_mvp, 1, GL_FALSE, mvp.m);
        glUniformMatrix4fv(u_model, 1, GL_FALSE, model.m);
        glUniform3fv(u_light, 1, light);
        glUniform1f(u_ambient, 0.25f);
        glDrawElements(GL_TRIANGLES, 36, GL_UNSIGNED_SHORT, (const void *)0);
        glPopDebugGroup();

        glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 3, -1, "overlay");
        glBindTexture(GL_TEXTURE_2D, tex[1]);
        if (f % 30 == 0) {
            static unsigned char small[32 * 32 * 4];
            app_fill_texture(small, 32, 32, 32, f / 30);
            glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 32, 32, GL_RGBA, GL_UNSIGNED_BYTE, small);
        }
        glDisable(GL_DEPTH_TEST);
        glViewport(8, 8, 48, 48);
        glBindVertexArray(vao[1]);
        glUniformMatrix4fv(u_mvp, 1, GL_FALSE, mat_identity().m);
        glUniformMatrix4fv(u_model, 1, GL_FALSE, mat_identity().m);
        glUniform1f(u_ambient, 1.0f);
        glDrawArrays(GL_TRIANGLE_FAN, 0, 4);
        glPopDebugGroup();

        if (f == frames - 1)
            glReadPixels(w / 2, h / 2, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
        if (use_glx)
            glXSwapBuffers(g.dpy, g.win);
        else
            eglSwapBuffers(e.dpy, e.surf);
        double dt = now() - tf;
        if (dt > slowest)
            slowest = dt;
    }
    glFinish();
    double total = now() - t0;
    APP_CHECK(glGetError() == GL_NO_ERROR, "GL error while drawing");
    /* The cube covers the centre: not the background colour. */
    APP_CHECK(!app_near(px, 20, 23, 31, 3), "no cube at the centre (%d,%d,%d)", px[0], px[1],
              px[2]);
    printf("demo_cube: %d frames in %.2f s: %.1f fps, %.2f ms/frame average, %.2f ms slowest\n",
           frames, total, frames / total, total * 1e3 / frames, slowest * 1e3);

    glDeleteTextures(2, tex);
    glDeleteBuffers(3, buf);
    glDeleteVertexArrays(2, vao);
    glDeleteProgram(prog);
    if (use_glx) {
        glXMakeContextCurrent(g.dpy, None, None, NULL);
        glXDestroyContext(g.dpy, glx_ctx);
        app_glx_close(&g);
    } else {
        app_egl_close(&e);
    }
    return 0;
}
