#!/usr/bin/env python3
"""uploads.py [BUILD_DIR] [RUNS] [BLOCKS] -- upload cost by kind of data (issue 10).

For each data kind (repeat, random, image) and call (buffer: glBufferSubData,
texture: glTexSubImage2D) runs build/bench/tracer/bench_uploads BLOCKS times
64 KiB (default 4000) natively, under libwip15.so (default settings: the zstd stream; and wip15-lz4: WIP15_STREAM=lz4) and
under apitrace, the configurations interleaved and rotated, RUNS rounds
(default 5, at least 3), and prints the medians of: wall time of the upload
loop, the calling thread's CPU time in it, the trace's size, and the
process's peak RSS (its increase over native).  Targets: wall time and trace
size <= apitrace's on every kind; extra peak RSS <= 64 MiB.
"""
import statistics
import sys

from benchlib import Scratch, build_paths, configs, key_values, rotated, run_child, surfaceless_env, traced


def run(cmd, env):
    out, ru = run_child(cmd, env, 'uploads.py')
    v = key_values(out)
    return v['seconds'], v['thread_cpu_s'], ru.ru_maxrss  # KiB


def main(argv):
    paths = build_paths('uploads.py', argv, 'bench_uploads', lib=True)
    runs = max(3, int(argv[2]) if len(argv) > 2 else 5)
    blocks = argv[3] if len(argv) > 3 else '4000'
    env = surfaceless_env()
    cfgs = configs('wip15-lz4')
    print('%-7s %-8s %-9s %9s %9s %10s %9s' % ('kind', 'call', 'config', 'wall ms', 'cpu ms', 'trace MB',
                                               '+rss MiB'))
    with Scratch('w15uploads.') as tmp:
        for kind in ('repeat', 'random', 'image'):
            for call in ('buffer', 'texture'):
                res = {c: [] for c in cfgs}
                for i in range(runs):
                    for c in rotated(cfgs, i):
                        e = dict(env)
                        trace = tmp.path('t.wip15' if c.startswith('wip15') else 't.trace')
                        args = [paths['prog'], kind, call, blocks]
                        if c.startswith('wip15'):  # preloaded: the upload loop's cost without the launcher
                            e.update(LD_PRELOAD=paths['lib'], WIP15_OUTPUT=trace, WIP15_QUIET='1')
                            if c == 'wip15-lz4':
                                e['WIP15_STREAM'] = 'lz4'
                        else:
                            args = traced(c, args, paths['wip15'], trace)
                        wall, cpu, rss = run(args, e)
                        res[c].append((wall, cpu, tmp.trace_bytes(), rss))
                        tmp.clear()
                med = {c: [statistics.median(r[k] for r in res[c]) for k in range(4)] for c in cfgs}
                for c in cfgs:
                    w, cpu, size, rss = med[c]
                    print('%-7s %-8s %-9s %9.1f %9.1f %10.1f %9.1f' % (
                        kind, call, c, w * 1e3, cpu * 1e3, size / 1e6, (rss - med['native'][3]) / 1024))
                sys.stdout.flush()
    print('(medians of %d interleaved rounds, %s blocks of 64 KiB each)' % (runs, blocks))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
