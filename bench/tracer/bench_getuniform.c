/* bench_getuniform.c -- the calling thread's CPU time per glGetUniformfv on
 * a program with many active uniforms (EGL pbuffer, llvmpipe), for the cost
 * of recording the values a uniform getter returns (docs/PERFORMANCE.md
 * "Uniform getters"):
 *
 *   bench_getuniform [CALLS] [UNIFORMS]
 *
 * links a vertex shader with UNIFORMS (default 64) float uniforms and one
 * vec4 array, then asks, CALLS times (default 20000), for the value of a
 * uniform chosen round-robin; prints "ns_per_call X".  Run it plain and
 * under `wip15 trace`: the difference is what the tracer adds per call
 * (the lookup of the uniform's type, and the record). */
#define GL_GLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <GL/gl.h>
#include <GL/glext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double cpu(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    int calls = argc > 1 ? atoi(argv[1]) : 20000;
    int nu = argc > 2 ? atoi(argv[2]) : 64;
    EGLDisplay d = eglGetDisplay(EGL_DEFAULT_DISPLAY);
    const EGLint ca[] = { EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE };
    const EGLint pa[] = { EGL_WIDTH, 16, EGL_HEIGHT, 16, EGL_NONE };
    EGLConfig c;
    EGLint k = 0;
    if (calls < 1 || nu < 1 || nu > 1000 || d == EGL_NO_DISPLAY || !eglInitialize(d, NULL, NULL) ||
        !eglBindAPI(EGL_OPENGL_API) || !eglChooseConfig(d, ca, &c, 1, &k) || k != 1) {
        fprintf(stderr, "bench_getuniform: no EGL (set EGL_PLATFORM=surfaceless) or bad arguments\n");
        return 1;
    }
    EGLContext x = eglCreateContext(d, c, EGL_NO_CONTEXT, NULL);
    EGLSurface s = eglCreatePbufferSurface(d, c, pa);
    if (x == EGL_NO_CONTEXT || s == EGL_NO_SURFACE || !eglMakeCurrent(d, s, s, x)) {
        fprintf(stderr, "bench_getuniform: no context\n");
        return 1;
    }
    /* "uniform float u0; ... uniform vec4 arr[8]; void main() { gl_Position = vec4(u0 + ... ) + arr[..]; }" */
    size_t cap = (size_t)nu * 48 + 256;
    char *src = malloc(cap);
    if (!src)
        return 1;
    size_t n = 0;
    n += (size_t)snprintf(src + n, cap - n, "#version 120\nuniform vec4 arr[8];\n");
    for (int i = 0; i < nu; i++)
        n += (size_t)snprintf(src + n, cap - n, "uniform float u%d;\n", i);
    n += (size_t)snprintf(src + n, cap - n, "void main() { float s = 0.0;");
    for (int i = 0; i < nu; i++)
        n += (size_t)snprintf(src + n, cap - n, " s += u%d;", i);
    snprintf(src + n, cap - n, " gl_Position = vec4(s) + arr[0] + arr[7]; }\n");
    GLuint vs = glCreateShader(GL_VERTEX_SHADER), p = glCreateProgram();
    const char *srcs[1] = { src };
    glShaderSource(vs, 1, srcs, NULL);
    glCompileShader(vs);
    glAttachShader(p, vs);
    glLinkProgram(p);
    GLint ok = 0;
    glGetProgramiv(p, GL_LINK_STATUS, &ok);
    if (!ok) {
        fprintf(stderr, "bench_getuniform: link failed\n");
        return 1;
    }
    glUseProgram(p);
    GLint *loc = malloc(sizeof(GLint) * (size_t)(nu + 1));
    char name[32];
    for (int i = 0; i < nu; i++) {
        snprintf(name, sizeof name, "u%d", i);
        loc[i] = glGetUniformLocation(p, name);
        glUniform1f(loc[i], (float)i);
    }
    loc[nu] = glGetUniformLocation(p, "arr[7]");
    float v[4] = {0, 0, 0, 0}, sum = 0;
    double c0 = cpu();
    for (int i = 0; i < calls; i++) {
        glGetUniformfv(p, loc[i % (nu + 1)], v);
        sum += v[0];
    }
    double t = cpu() - c0;
    printf("ns_per_call %.1f\n", t / calls * 1e9);
    if (glGetError() != GL_NO_ERROR || sum < 0)
        fprintf(stderr, "bench_getuniform: GL error\n");
    glDeleteProgram(p);
    glDeleteShader(vs);
    free(loc);
    free(src);
    eglMakeCurrent(d, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroySurface(d, s);
    eglDestroyContext(d, x);
    eglTerminate(d);
    return 0;
}
