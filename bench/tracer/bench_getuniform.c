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
#include "bench_egl.h"
#include <GL/gl.h>
#include <GL/glext.h>
#include <string.h>

int main(int argc, char **argv)
{
    int calls = argc > 1 ? atoi(argv[1]) : 20000;
    int nu = argc > 2 ? atoi(argv[2]) : 64;
    if (calls < 1 || nu < 1 || nu > 1000) {
        fprintf(stderr, "bench_getuniform: bad arguments\n");
        return 1;
    }
    bench_egl_open_api("bench_getuniform", EGL_OPENGL_API, NULL, 16, 16, 0);
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
    double c0 = bench_thread_cpu();
    for (int i = 0; i < calls; i++) {
        glGetUniformfv(p, loc[i % (nu + 1)], v);
        sum += v[0];
    }
    double t = bench_thread_cpu() - c0;
    printf("ns_per_call %.1f\n", t / calls * 1e9);
    if (glGetError() != GL_NO_ERROR || sum < 0)
        fprintf(stderr, "bench_getuniform: GL error\n");
    glDeleteProgram(p);
    glDeleteShader(vs);
    free(loc);
    free(src);
    bench_egl_close();
    return 0;
}
