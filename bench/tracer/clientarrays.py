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
import statistics
import sys

from benchlib import Scratch, build_paths, configs, key_values, rotated, run_child, surfaceless_env, traced


def run(cmd, env):
    out, ru = run_child(cmd, env, 'clientarrays.py')
    v = key_values(out)
    # process CPU: every thread's (llvmpipe's, the tracer's writer), from exit
    return v['seconds'], v['thread_cpu_s'], int(v['draws']), ru.ru_maxrss, ru.ru_utime + ru.ru_stime


def main(argv):
    paths = build_paths('clientarrays.py', argv, 'bench_clientarrays')
    runs = max(3, int(argv[2]) if len(argv) > 2 else 5)
    frames = argv[3] if len(argv) > 3 else '100'
    draws = argv[4] if len(argv) > 4 else '500'
    env = surfaceless_env()
    cfgs = configs()
    print('%-9s %-9s %9s %9s %9s %12s %10s %9s' % ('mode', 'config', 'wall ms', 'cpu ms', '+ns/draw',
                                                    'proc cpu ms', 'trace MB', 'rss MiB'))
    with Scratch('w15carr.') as tmp:
        for mode in ('arrays', 'elements'):
            res = {c: [] for c in cfgs}
            for i in range(runs):
                for c in rotated(cfgs, i):
                    args = traced(c, [paths['prog'], mode, frames, draws], paths['wip15'],
                                  tmp.path('t.wip15' if c == 'wip15' else 't.trace'))
                    wall, cpu, ndraws, rss, pcpu = run(args, env)
                    res[c].append((wall, cpu, tmp.trace_bytes(), rss, ndraws, pcpu))
                    tmp.clear()
            med = {c: [statistics.median(r[k] for r in res[c]) for k in range(6)] for c in cfgs}
            for c in cfgs:
                w, cpu, size, rss, nd, pcpu = med[c]
                over = (w - med['native'][0]) / nd * 1e9
                print('%-9s %-9s %9.1f %9.1f %9.0f %12.1f %10.2f %9.1f' % (mode, c, w * 1e3, cpu * 1e3, over,
                                                                           pcpu * 1e3, size / 1e6, rss / 1024))
            sys.stdout.flush()
    print('(medians of %d interleaved rounds; %s frames x %s draws of 24 vertices, legacy arrays: vertex 3f, '
          'normal 3f, colour 4ub, texcoord 2f)' % (runs, frames, draws))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
