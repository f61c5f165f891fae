#!/usr/bin/env python3
"""startup.py [BUILD_DIR] [RUNS] -- start-up + shutdown cost of a traced program.

Runs build/bench/tracer/bench_tiny (an EGL context, 4 GL calls, teardown)
RUNS times (default 200) in each configuration, the configurations
interleaved run by run, and prints the median wall time of one run and its
difference to native:
  native    the program alone
  preload   LD_PRELOAD=libwip15.so (default settings: timing at level frames)
  trace     build/src/tools/wip15 trace -q -o FILE -- bench_tiny
  preload-lz4  preload with WIP15_STREAM=lz4 (the LZ4 stream instead of zstd)
  apitrace  apitrace trace --api egl -o FILE bench_tiny (when installed)
Each traced run writes a fresh file (removed afterwards), so the
never-overwrite naming never has to skip existing names.  Targets (issue
10): preload <= native + 3 ms, trace <= native + 5 ms.

LOAD=N runs N busy loops (one process each, at the same priority) for the
whole measurement: a machine running parallel jobs, where every wake-up of
a process that waits (a launcher that forks the program and waits for it,
a thread handing work to another) waits for a CPU too (docs/PERFORMANCE.md
"Session 22").
"""
import os
import shutil
import statistics
import subprocess
import sys
import time

from benchlib import Scratch, build_paths, rotated, surfaceless_env, traced


def main(argv):
    paths = build_paths('startup.py', argv, 'bench_tiny', lib=True)
    runs = int(argv[2]) if len(argv) > 2 else 200
    prog = paths['prog']
    env = surfaceless_env()
    load = int(os.environ.get('LOAD', '0'))
    hogs = [subprocess.Popen([sys.executable, '-c', 'while True: pass']) for _ in range(load)]
    try:
        return measure(paths, runs, prog, env, load)
    finally:
        for h in hogs:
            h.kill()
            h.wait()


def measure(paths, runs, prog, env, load):
    with Scratch('w15startup.') as tmp:
        out = tmp.path('t.wip15')
        cfgs = {
            'native': ([prog], {}),
            'preload': ([prog], {'LD_PRELOAD': paths['lib'], 'WIP15_OUTPUT': out, 'WIP15_QUIET': '1'}),
            'trace': (traced('wip15', [prog], paths['wip15'], out), {}),
            'preload-lz4': ([prog], {'LD_PRELOAD': paths['lib'], 'WIP15_OUTPUT': out, 'WIP15_QUIET': '1',
                                     'WIP15_STREAM': 'lz4'}),
        }
        if shutil.which('apitrace'):
            cfgs['apitrace'] = (traced('apitrace', [prog], paths['wip15'], tmp.path('t.trace')), {})
        times = {c: [] for c in cfgs}
        for i in range(runs):
            for c in rotated(list(cfgs), i):
                cmd, extra = cfgs[c]
                t0 = time.perf_counter()
                r = subprocess.run(cmd, env=dict(env, **extra), stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)
                t1 = time.perf_counter()
                if r.returncode != 0:
                    sys.exit('startup.py: %s exited %d' % (c, r.returncode))
                times[c].append((t1 - t0) * 1e3)
                tmp.clear()
    base = statistics.median(times['native'])
    print('%-10s %10s %10s %8s' % ('config', 'median ms', 'vs native', 'runs'))
    for c in cfgs:
        m = statistics.median(times[c])
        print('%-10s %10.2f %+10.2f %8d' % (c, m, m - base, len(times[c])))
    if load:
        print('(with %d busy loops beside every run)' % load)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
