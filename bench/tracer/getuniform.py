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
import os
import shutil
import statistics
import subprocess
import sys
import tempfile


def run(cmd, env):
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    if p.returncode != 0:
        sys.exit('getuniform.py: %s exited %d' % (' '.join(cmd), p.returncode))
    f = p.stdout.split()
    return float(f[f.index('ns_per_call') + 1])


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    build = os.path.abspath(argv[1] if len(argv) > 1 else os.path.join(here, '..', '..', 'build'))
    runs = max(3, int(argv[2]) if len(argv) > 2 else 7)
    calls = argv[3] if len(argv) > 3 else '20000'
    uniforms = argv[4] if len(argv) > 4 else '64'
    prog = os.path.join(build, 'bench', 'tracer', 'bench_getuniform')
    wip15 = os.path.join(build, 'src', 'tools', 'wip15')
    for f in (prog, wip15):
        if not os.path.exists(f):
            sys.exit('getuniform.py: missing %s (build the project first)' % f)
    env = dict(os.environ, EGL_PLATFORM='surfaceless')
    tmp = tempfile.mkdtemp(prefix='w15gu.')
    cfgs = ['native', 'wip15'] + (['apitrace'] if shutil.which('apitrace') else [])
    res = {c: [] for c in cfgs}
    try:
        for i in range(runs):
            order = cfgs[i % len(cfgs):] + cfgs[:i % len(cfgs)]
            for c in order:
                args = [prog, calls, uniforms]
                trace = os.path.join(tmp, 't%d.%s' % (i, 'wip15' if c == 'wip15' else 'trace'))
                if c == 'wip15':
                    args = [wip15, 'trace', '-q', '-o', trace, '--'] + args
                elif c == 'apitrace':
                    args = ['apitrace', 'trace', '--api', 'egl', '-o', trace] + args
                res[c].append(run(args, env))
                for f in os.listdir(tmp):
                    os.unlink(os.path.join(tmp, f))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
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
