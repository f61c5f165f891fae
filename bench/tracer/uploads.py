#!/usr/bin/env python3
"""uploads.py [BUILD_DIR] [RUNS] [BLOCKS] -- upload cost by kind of data (issue 10).

For each data kind (repeat, random, image) and call (buffer: glBufferSubData,
texture: glTexSubImage2D) runs build/bench/tracer/bench_uploads BLOCKS times
64 KiB (default 4000) natively, under libwip15.so (default settings) and
under apitrace, the configurations interleaved and rotated, RUNS rounds
(default 5, at least 3), and prints the medians of: wall time of the upload
loop, the calling thread's CPU time in it, the trace's size, and the
process's peak RSS (its increase over native).  Targets: wall time and trace
size <= apitrace's on every kind; extra peak RSS <= 64 MiB.
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
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        sys.exit('uploads.py: %s exited %d' % (' '.join(cmd), p.returncode))
    f = out.split()
    v = {f[i]: float(f[i + 1]) for i in range(0, len(f) - 1, 2) if f[i].isidentifier()}
    return v['seconds'], v['thread_cpu_s'], ru.ru_maxrss  # KiB


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    build = os.path.abspath(argv[1] if len(argv) > 1 else os.path.join(here, '..', '..', 'build'))
    runs = max(3, int(argv[2]) if len(argv) > 2 else 5)
    blocks = argv[3] if len(argv) > 3 else '4000'
    prog = os.path.join(build, 'bench', 'tracer', 'bench_uploads')
    lib = os.path.join(build, 'src', 'tracer', 'libwip15.so')
    for f in (prog, lib):
        if not os.path.exists(f):
            sys.exit('uploads.py: missing %s (build the project first)' % f)
    env = dict(os.environ, EGL_PLATFORM='surfaceless')
    tmp = tempfile.mkdtemp(prefix='w15uploads.')
    cfgs = ['native', 'wip15'] + (['apitrace'] if shutil.which('apitrace') else [])
    print('%-7s %-8s %-9s %9s %9s %10s %9s' % ('kind', 'call', 'config', 'wall ms', 'cpu ms', 'trace MB',
                                               '+rss MiB'))
    try:
        for kind in ('repeat', 'random', 'image'):
            for call in ('buffer', 'texture'):
                res = {c: [] for c in cfgs}
                for i in range(runs):
                    order = cfgs[i % len(cfgs):] + cfgs[:i % len(cfgs)]
                    for c in order:
                        args = [prog, kind, call, blocks]
                        e = dict(env)
                        trace = os.path.join(tmp, 't.wip15' if c == 'wip15' else 't.trace')
                        if c == 'wip15':
                            e.update(LD_PRELOAD=lib, WIP15_OUTPUT=trace, WIP15_QUIET='1')
                        elif c == 'apitrace':
                            args = ['apitrace', 'trace', '--api', 'egl', '-o', trace] + args
                        wall, cpu, rss = run(args, e)
                        size = sum(os.path.getsize(os.path.join(tmp, f)) for f in os.listdir(tmp)
                                   if f.endswith(('.wip15', '.trace')))
                        res[c].append((wall, cpu, size, rss))
                        for f in os.listdir(tmp):
                            os.unlink(os.path.join(tmp, f))
                med = {c: [statistics.median(r[k] for r in res[c]) for k in range(4)] for c in cfgs}
                for c in cfgs:
                    w, cpu, size, rss = med[c]
                    print('%-7s %-8s %-9s %9.1f %9.1f %10.1f %9.1f' % (
                        kind, call, c, w * 1e3, cpu * 1e3, size / 1e6, (rss - med['native'][3]) / 1024))
                sys.stdout.flush()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print('(medians of %d interleaved rounds, %s blocks of 64 KiB each)' % (runs, blocks))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
