#!/usr/bin/env python3
"""clientarrays.py [BUILD_DIR] [RUNS] [FRAMES] [DRAWS] -- client-side vertex arrays (issue 8).

Runs build/bench/tracer/bench_clientarrays (legacy arrays, many small draws:
FRAMES frames of DRAWS draws of 24 vertices, defaults 100 x 500) in both
modes (arrays: glDrawArrays; elements: glDrawElements with client indices,
pointers set before every draw) natively, under `wip15 trace` and under
`apitrace trace`, the configurations interleaved and rotated, RUNS rounds
(default 5, at least 3), and prints the medians of: wall time of the frame
loop, the calling thread's CPU time in it, ns per draw over native (wall),
the whole process's CPU time (every thread, start to exit: llvmpipe's and
the tracer's writer thread too), the trace's size, and the peak RSS.  Target: overhead and trace size
no worse than apitrace's.
"""
import os
import shutil
import statistics
import subprocess
import sys
import tempfile


def run(cmd, env):
    p = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    out = p.stdout.read()
    _, status, ru = os.wait4(p.pid, 0)
    rc = os.waitstatus_to_exitcode(status)
    if rc != 0:
        sys.exit('clientarrays.py: %s exited %d' % (' '.join(cmd), rc))
    f = out.split()
    v = {f[i]: float(f[i + 1]) for i in range(0, len(f) - 1, 2) if f[i].isidentifier()}
    # process CPU: every thread's (llvmpipe's, the tracer's writer), from exit
    return v['seconds'], v['thread_cpu_s'], int(v['draws']), ru.ru_maxrss, ru.ru_utime + ru.ru_stime


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    build = os.path.abspath(argv[1] if len(argv) > 1 else os.path.join(here, '..', '..', 'build'))
    runs = max(3, int(argv[2]) if len(argv) > 2 else 5)
    frames = argv[3] if len(argv) > 3 else '100'
    draws = argv[4] if len(argv) > 4 else '500'
    prog = os.path.join(build, 'bench', 'tracer', 'bench_clientarrays')
    wip15 = os.path.join(build, 'src', 'tools', 'wip15')
    for f in (prog, wip15):
        if not os.path.exists(f):
            sys.exit('clientarrays.py: missing %s (build the project first)' % f)
    env = dict(os.environ, EGL_PLATFORM='surfaceless')
    tmp = tempfile.mkdtemp(prefix='w15carr.')
    cfgs = ['native', 'wip15'] + (['apitrace'] if shutil.which('apitrace') else [])
    print('%-9s %-9s %9s %9s %9s %12s %10s %9s' % ('mode', 'config', 'wall ms', 'cpu ms', '+ns/draw',
                                                    'proc cpu ms', 'trace MB', 'rss MiB'))
    try:
        for mode in ('arrays', 'elements'):
            res = {c: [] for c in cfgs}
            for i in range(runs):
                order = cfgs[i % len(cfgs):] + cfgs[:i % len(cfgs)]
                for c in order:
                    args = [prog, mode, frames, draws]
                    trace = os.path.join(tmp, 't.wip15' if c == 'wip15' else 't.trace')
                    if c == 'wip15':
                        args = [wip15, 'trace', '-q', '-o', trace, '--'] + args
                    elif c == 'apitrace':
                        args = ['apitrace', 'trace', '--api', 'egl', '-o', trace] + args
                    wall, cpu, ndraws, rss, pcpu = run(args, env)
                    size = sum(os.path.getsize(os.path.join(tmp, f)) for f in os.listdir(tmp)
                               if f.endswith(('.wip15', '.trace')))
                    res[c].append((wall, cpu, size, rss, ndraws, pcpu))
                    for f in os.listdir(tmp):
                        os.unlink(os.path.join(tmp, f))
            med = {c: [statistics.median(r[k] for r in res[c]) for k in range(6)] for c in cfgs}
            for c in cfgs:
                w, cpu, size, rss, nd, pcpu = med[c]
                over = (w - med['native'][0]) / nd * 1e9
                print('%-9s %-9s %9.1f %9.1f %9.0f %12.1f %10.2f %9.1f' % (mode, c, w * 1e3, cpu * 1e3, over,
                                                                           pcpu * 1e3, size / 1e6, rss / 1024))
            sys.stdout.flush()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print('(medians of %d interleaved rounds; %s frames x %s draws of 24 vertices, legacy arrays: vertex 3f, '
          'normal 3f, colour 4ub, texcoord 2f)' % (runs, frames, draws))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
