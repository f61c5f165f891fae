#!/usr/bin/env python3
"""getuniform.py [BUILD_DIR] [RUNS] [CALLS] [UNIFORMS] -- uniform getters (issue 8).

Runs build/bench/tracer/bench_getuniform (CALLS glGetUniformfv, default
20000, round-robin over the UNIFORMS + 1 uniforms of one linked program,
default 64) natively, under `wip15 trace` and under `apitrace trace`, the
configurations interleaved and rotated, RUNS rounds (default 7, at least
3), and prints the median CPU time of the calling thread per call and what
each tracer adds to it.  The tracer records the values GL wrote, so it has
to know the uniform's type (src/tracer/statesize.c).
"""
import statistics
import subprocess
import sys

from benchlib import Scratch, build_paths, configs, rotated, surfaceless_env, traced


def run(cmd, env):
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    if p.returncode != 0:
        sys.exit('getuniform.py: %s exited %d' % (' '.join(cmd), p.returncode))
    f = p.stdout.split()
    return float(f[f.index('ns_per_call') + 1])


def main(argv):
    paths = build_paths('getuniform.py', argv, 'bench_getuniform')
    runs = max(3, int(argv[2]) if len(argv) > 2 else 7)
    calls = argv[3] if len(argv) > 3 else '20000'
    uniforms = argv[4] if len(argv) > 4 else '64'
    env = surfaceless_env()
    cfgs = configs()
    res = {c: [] for c in cfgs}
    with Scratch('w15gu.') as tmp:
        for i in range(runs):
            for c in rotated(cfgs, i):
                trace = tmp.path('t%d.%s' % (i, 'wip15' if c == 'wip15' else 'trace'))
                res[c].append(run(traced(c, [paths['prog'], calls, uniforms], paths['wip15'], trace), env))
                tmp.clear()
    nat = statistics.median(res['native'])
    print('%-9s %12s %12s   %s' % ('config', 'ns per call', 'over native', 'runs (sorted)'))
    for c in cfgs:
        m = statistics.median(res[c])
        print('%-9s %12.1f %12s   %s' % (c, m, '-' if c == 'native' else '%+.1f' % (m - nat),
                                       ' '.join('%.0f' % v for v in sorted(res[c]))))
    print('(medians of %d interleaved rounds; %s glGetUniformfv over %s + 1 uniforms, calling thread CPU)'
          % (runs, calls, uniforms))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
