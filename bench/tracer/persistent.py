#!/usr/bin/env python3
"""persistent.py [BUILD_DIR] [ROUNDS] [DRAWS] -- persistent-map streaming cost.

Runs build/bench/tracer/bench_persistent (a ring of 4 x 64 KiB segments in
one persistently mapped vertex buffer, 64 KiB of new vertices written per
draw; docs/PERFORMANCE.md "Persistent-map streaming") in each mode
(coherent, flush, barrier; and map: a non-persistent map of the segment per
draw, for comparison) and each configuration, the configurations
interleaved round by round (ROUNDS, default 3; DRAWS per run, default 1000):
  native           the program alone
  wip15            build/src/tools/wip15 trace -q -o FILE (default: WIP15_MAPS=auto,
                   the kernel's write tracking where it exists)
  wip15-protect    the same with WIP15_MAPS=protect (page protection)
  wip15-compare    the same with WIP15_MAPS=compare
  wip15-w0         the same with WIP15_WORKERS=0 (no zstd workers, even when
                   the program waits on the output thread)
  wip15-lz4        the same with WIP15_STREAM=lz4 (LZ4 frames and LZ4 blobs
                   instead of the default zstd stream)
  apitrace         apitrace trace --api egl -o FILE (when installed)
Prints, per mode and configuration, the median time per draw the program
measured (first draw to glFinish after the last), the median CPU time
(user + system, every thread of the process and of the launcher, start-up
included) per draw, their ratios to native, and the median trace size (for
wip15, the .wip15 file; for apitrace, .trace).  CPU time is the steadier
figure on a loaded machine.  MODES=flush,map (comma-separated) runs only those
modes, for more rounds of the ones that matter in the same time;
CONFIGS=wip15,apitrace only those configurations (and native).
"""
import os
import re
import resource
import statistics
import subprocess
import sys

from benchlib import Scratch, build_paths, configs, rotated, surfaceless_env, traced


def main(argv):
    paths = build_paths('persistent.py', argv, 'bench_persistent')
    rounds = int(argv[2]) if len(argv) > 2 else 3
    draws = int(argv[3]) if len(argv) > 3 else 1000
    env = surfaceless_env()
    cfgs = configs('wip15-protect', 'wip15-compare', 'wip15-w0', 'wip15-lz4')
    if os.environ.get('CONFIGS'):
        only = os.environ['CONFIGS'].split(',')
        if not set(only) <= set(cfgs):
            sys.exit('persistent.py: CONFIGS is a comma-separated list of ' + ', '.join(cfgs))
        cfgs = ['native'] + [c for c in cfgs if c in only and c != 'native']
    modes = os.environ.get('MODES', 'coherent,flush,barrier,map').split(',')
    if not set(modes) <= {'coherent', 'flush', 'barrier', 'map'}:
        sys.exit('persistent.py: MODES is a comma-separated list of coherent, flush, barrier, map')
    us = {(m, c): [] for m in modes for c in cfgs}
    size = {(m, c): [] for m in modes for c in cfgs}
    cpu = {(m, c): [] for m in modes for c in cfgs}
    with Scratch('w15persistent.') as tmp:
        for r in range(rounds):
            for m in modes:
                for c in rotated(cfgs, r):
                    out = None if c == 'native' else tmp.path('t.trace' if c == 'apitrace' else 't.wip15')
                    args = traced(c, [paths['prog'], m, str(draws)], paths['wip15'], out)
                    extra = ({'WIP15_STREAM': 'lz4'} if c == 'wip15-lz4' else
                             {'WIP15_WORKERS': '0'} if c == 'wip15-w0' else
                             {'WIP15_MAPS': c[len('wip15-'):]} if c.startswith('wip15-') else {})
                    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
                    p = subprocess.run(args, env=dict(env, **extra), stdout=subprocess.PIPE,
                                       stderr=subprocess.PIPE, text=True)
                    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
                    cpu[(m, c)].append((r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime) * 1e6 / draws)
                    mm = re.search(r'us_per_draw ([0-9.]+)', p.stdout)
                    if p.returncode != 0 or not mm:
                        sys.exit('persistent.py: %s %s failed (%d):\n%s%s' % (c, m, p.returncode, p.stdout,
                                                                             p.stderr))
                    us[(m, c)].append(float(mm.group(1)))
                    if out:
                        size[(m, c)].append(os.path.getsize(out))
                    tmp.clear()
    print('| mode | configuration | wall us/draw | vs native | CPU us/draw | vs native | trace size |')
    print('|---|---|---|---|---|---|---|')
    for m in modes:
        nat = statistics.median(us[(m, 'native')])
        ncpu = statistics.median(cpu[(m, 'native')])
        for c in cfgs:
            u = statistics.median(us[(m, c)])
            k = statistics.median(cpu[(m, c)])
            sz = '%.1f MB' % (statistics.median(size[(m, c)]) / 1e6) if size[(m, c)] else '-'
            print('| %s | %s | %.0f | %.2fx | %.0f | %.2fx | %s |' % (m, c, u, u / nat, k, k / ncpu, sz))
    print('(medians of %d rounds)' % rounds)
    print('(%d draws of 64 KiB each per run; load average %s)' % (draws, os.getloadavg()[0]))


if __name__ == '__main__':
    main(sys.argv)
