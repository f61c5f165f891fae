/* bench_calls.c -- per-call cost: millions of cheap GL calls
 * (glVertexAttrib4f, glEnable, glDisable, glBindBuffer), a frame end
 * (eglSwapBuffers) every 4000 calls.  Prints
 *   calls N seconds S ns_per_call X rss_kb R
 * thread_cpu_ns_per_call is the CPU time of the calling thread only (the
 * tracer's writer thread works in parallel on another core);
 * process_cpu_ns_per_call is every thread's CPU time over the same period
 * (the calling thread + the tracer's output thread).  Run natively, under `wip15 trace` and under `apitrace trace`; the
 * difference of ns_per_call is the tracer's cost (bench/tracer/run.sh). */
#include "bench_egl.h"
#include <GLES2/gl2.h>

int main(int argc, char **argv)
{
    long iters = argc > 1 ? atol(argv[1]) : 2000000;
    bench_egl_open();
    GLuint buf[2];
    glGenBuffers(2, buf);
    glFinish();
    struct timespec c0, c1, p0, p1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &p0);
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c0);
    double t0 = bench_now();
    for (long i = 0; i < iters; i++) {
        glVertexAttrib4f(0, (float)i, 1.0f, 2.0f, 1.0f);
        glEnable(GL_BLEND);
        glDisable(GL_BLEND);
        glBindBuffer(GL_ARRAY_BUFFER, buf[i & 1]);
        if ((i % 1000) == 999)
            eglSwapBuffers(bench_dpy, bench_surf);
    }
    glFinish();
    double t = bench_now() - t0;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c1);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &p1);
    double cpu = (double)(c1.tv_sec - c0.tv_sec) + (double)(c1.tv_nsec - c0.tv_nsec) * 1e-9;
    double pcpu = (double)(p1.tv_sec - p0.tv_sec) + (double)(p1.tv_nsec - p0.tv_nsec) * 1e-9;
    long calls = iters * 4 + iters / 1000;
    printf("calls %ld seconds %.3f ns_per_call %.2f thread_cpu_ns_per_call %.2f process_cpu_ns_per_call %.2f "
           "rss_kb %ld\n",
           calls, t, t * 1e9 / (double)calls, cpu * 1e9 / (double)calls, pcpu * 1e9 / (double)calls,
           bench_rss_kb());
    return 0;
}
