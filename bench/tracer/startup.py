#!/usr/bin/env python3
"""startup.py [BUILD_DIR] [RUNS] -- start-up + shutdown cost of a traced program.

Runs build/bench/tracer/bench_tiny (an EGL context, 4 GL calls, teardown)
RUNS times (default 200) in each configuration, the configurations
interleaved run by run, and prints the median wall time of one run and its
difference to native:
  native    the program alone
  preload   LD_PRELOAD=libwip15.so (default settings: timing at level frames)
  trace     build/src/tools/wip15 trace -q -o FILE -- bench_tiny
  apitrace  apitrace trace --api egl -o FILE bench_tiny (when installed)
Each traced run writes a fresh file (removed afterwards), so the
never-overwrite naming never has to skip existing names.  Targets (issue
10): preload <= native + 3 ms, trace <= native + 5 ms.
"""
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    build = os.path.abspath(argv[1] if len(argv) > 1 else os.path.join(here, '..', '..', 'build'))
    runs = int(argv[2]) if len(argv) > 2 else 200
    prog = os.path.join(build, 'bench', 'tracer', 'bench_tiny')
    lib = os.path.join(build, 'src', 'tracer', 'libwip15.so')
    wip15 = os.path.join(build, 'src', 'tools', 'wip15')
    for f in (prog, lib, wip15):
        if not os.path.exists(f):
            sys.exit('startup.py: missing %s (build the project first)' % f)
    env = dict(os.environ, EGL_PLATFORM='surfaceless')
    tmp = tempfile.mkdtemp(prefix='w15startup.')
    out = os.path.join(tmp, 't.wip15')
    cfgs = {
        'native': ([prog], {}),
        'preload': ([prog], {'LD_PRELOAD': lib, 'WIP15_OUTPUT': out, 'WIP15_QUIET': '1'}),
        'trace': ([wip15, 'trace', '-q', '-o', out, '--', prog], {}),
    }
    if shutil.which('apitrace'):
        cfgs['apitrace'] = (['apitrace', 'trace', '--api', 'egl', '-o', os.path.join(tmp, 't.trace'), prog], {})
    times = {c: [] for c in cfgs}
    try:
        for i in range(runs):
            order = list(cfgs)
            order = order[i % len(order):] + order[:i % len(order)]  # rotate
            for c in order:
                cmd, extra = cfgs[c]
                t0 = time.perf_counter()
                r = subprocess.run(cmd, env=dict(env, **extra), stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)
                t1 = time.perf_counter()
                if r.returncode != 0:
                    sys.exit('startup.py: %s exited %d' % (c, r.returncode))
                times[c].append((t1 - t0) * 1e3)
                for f in os.listdir(tmp):
                    os.unlink(os.path.join(tmp, f))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    base = statistics.median(times['native'])
    print('%-10s %10s %10s %8s' % ('config', 'median ms', 'vs native', 'runs'))
    for c in cfgs:
        m = statistics.median(times[c])
        print('%-10s %10.2f %+10.2f %8d' % (c, m, m - base, len(times[c])))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
