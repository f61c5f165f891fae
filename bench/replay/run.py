#!/usr/bin/env python3
"""Replay speed: `wip15 replay --benchmark` against apitrace's
`glretrace --benchmark` (eglretrace for EGL programs) of the same program,
and against the program itself.

  bench/replay/run.py [options]

Programs (each recorded once with `wip15 trace` and once with
`apitrace trace`, then replayed ROUNDS times, the configurations
interleaved, rotated by one each round; medians):
  calls    bench/tracer/bench_calls ITERS (4 cheap GL calls per iteration,
           EGL pbuffer, a swap every 1000 iterations): calls per second =
           the program's calls / the replayer's own replay time (wip15:
           "replayed N calls in S s"; glretrace: "Rendered F frames in S
           secs"), and the wall-clock time of the whole process
  glmark2  glmark2 scenes (GLX, in a window on $DISPLAY, --size WxH,
           SECONDS each): frames per second (glmark2's own FPS natively;
           the replayer's frames / its replay time); wip15 headless
           (pbuffer, its default) and with --window (an X window, like
           glretrace)
  memory   max RSS of `wip15 replay --benchmark` of bench_calls traces of
           ITERS and 10 x ITERS iterations (and of glretrace's)

Options:
  --build DIR        the build tree (default ../../build from here)
  --rounds N         at least 3 (default 5)
  --iters N          bench_calls iterations (default 500000)
  --scenes LIST      glmark2 scenes, comma-separated (default
                     build,texture,shading,bump)
  --seconds S        glmark2 duration per scene (default 3)
  --size WxH         glmark2 window (default 400x300)
  --only LIST        calls,glmark2,memory (default all)
  --json FILE        every measurement
Needs DISPLAY (eglretrace and glretrace need an X display; glmark2 runs in
a window).  Prints markdown tables.
"""

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def run(cmd, env=None, timeout=900):
    """(exit status, stdout, stderr, wall seconds)"""
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    out, err = p.communicate(timeout=timeout)
    return p.returncode, out, err, time.monotonic() - t0


def run_rss(cmd, env=None, timeout=900):
    """Like run, plus the child's own max RSS (KiB) through /usr/bin/time."""
    tf = tempfile.NamedTemporaryFile(prefix='w15rss.', delete=False)
    tf.close()
    rc, out, err, wall = run(['/usr/bin/time', '-f', '%M', '-o', tf.name] + cmd, env, timeout)
    try:
        rss = int(open(tf.name).read().strip().splitlines()[-1])
    except (ValueError, IndexError, OSError):
        rss = None
    os.unlink(tf.name)
    return rc, out, err, wall, rss


def med(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def need(ok, what):
    if not ok:
        print('run.py: ' + what, file=sys.stderr)
        sys.exit(1)


def wip15_bench(out):
    m = re.search(r'replayed (\d+) calls in ([\d.]+) s: \d+ calls/s, (\d+) frames', out)
    return (int(m.group(1)), float(m.group(2)), int(m.group(3))) if m else None


def retrace_bench(out):
    m = re.search(r'Rendered (\d+) frames in ([\d.]+) secs', out)
    return (int(m.group(1)), float(m.group(2))) if m else None


def fmt(x, nd=0):
    if x is None:
        return '-'
    return ('{:,.%df}' % nd).format(x)


def bench_calls(a, d, res):
    prog = os.path.join(a.build, 'bench', 'tracer', 'bench_calls')
    need(os.access(prog, os.X_OK), 'no %s (build bench_calls)' % prog)
    env = dict(os.environ, EGL_PLATFORM='surfaceless')
    wt, at = os.path.join(d, 'calls.wip15'), os.path.join(d, 'calls.trace')
    rc, out, err, _ = run([a.wip15, 'trace', '-q', '--stream', 'none', '-o', wt, '--', prog, str(a.iters)], env)
    need(rc == 0, 'wip15 trace bench_calls: %d %s' % (rc, err))
    rc, out, err, _ = run(['apitrace', 'trace', '--api', 'egl', '-o', at, prog, str(a.iters)], env)
    need(rc == 0, 'apitrace trace bench_calls: %d %s' % (rc, err))
    calls = a.iters * 4 + a.iters // 1000
    confs = ['native', 'wip15', 'glretrace']
    r = {c: {'cps': [], 'wall': [], 'rss': []} for c in confs}
    for k in range(a.rounds):
        for c in confs[k % 3:] + confs[:k % 3]:
            if c == 'native':
                rc, out, err, wall, rss = run_rss([prog, str(a.iters)], env)
                m = re.search(r'seconds ([\d.]+)', out)
                cps = calls / float(m.group(1)) if rc == 0 and m else None
            elif c == 'wip15':
                rc, out, err, wall, rss = run_rss([a.wip15, 'replay', '-q', '--benchmark', wt], env)
                b = wip15_bench(out)
                cps = calls / b[1] if rc == 0 and b else None
            else:
                rc, out, err, wall, rss = run_rss(['eglretrace', '--benchmark', at], env)
                b = retrace_bench(out)
                cps = calls / b[1] if rc == 0 and b else None
            if cps is None:
                print('calls: %s failed: %d %s %s' % (c, rc, out[-500:], err[-500:]), file=sys.stderr)
            r[c]['cps'].append(cps)
            r[c]['wall'].append(wall)
            r[c]['rss'].append(rss)
    res['calls'] = {'iters': a.iters, 'calls': calls, 'rounds': r,
                    'trace_bytes': {'wip15': os.path.getsize(wt), 'apitrace': os.path.getsize(at)}}
    print('\n### bench_calls %d (%s calls), %d rounds, medians\n' % (a.iters, fmt(calls), a.rounds))
    print('| | calls/s (replay loop) | wall clock, whole process | max RSS |')
    print('|---|---|---|---|')
    for c, label in (('native', 'native (the program)'), ('wip15', '`wip15 replay --benchmark`'),
                     ('glretrace', '`eglretrace --benchmark`')):
        print('| %s | %s | %.3f s | %s MB |' % (label, fmt(med(r[c]['cps'])), med(r[c]['wall']),
                                                 fmt((med(r[c]['rss']) or 0) / 1024, 1)))
    w, g = med(r['wip15']['cps']), med(r['glretrace']['cps'])
    if w and g:
        print('\nwip15 / glretrace calls/s: %.2fx (target >= 1.5x)' % (w / g))


def bench_glmark2(a, d, res):
    need(shutil.which('glmark2') and os.environ.get('DISPLAY'), 'glmark2 and DISPLAY needed')
    out_rows = []
    res['glmark2'] = {}
    for scene in a.scenes:
        gm = ['glmark2', '--size', a.size, '-b', '%s:duration=%s' % (scene, a.seconds)]
        wt, at = os.path.join(d, 'gm-%s.wip15' % scene), os.path.join(d, 'gm-%s.trace' % scene)
        rc, out, err, _ = run([a.wip15, 'trace', '-q', '--stream', 'none', '-o', wt, '--'] + gm)
        need(rc == 0, 'wip15 trace glmark2 %s: %s' % (scene, err))
        rc, out, err, _ = run(['apitrace', 'trace', '--api', 'gl', '-o', at] + gm)
        need(rc == 0, 'apitrace trace glmark2 %s: %s' % (scene, err))
        confs = ['native', 'wip15', 'wip15_window', 'glretrace']
        r = {c: [] for c in confs}
        for k in range(a.rounds):
            for c in confs[k % 4:] + confs[:k % 4]:
                fps = None
                if c == 'native':
                    rc, out, err, _ = run(gm)
                    m = re.search(r'FPS: (\d+)', out)
                    fps = float(m.group(1)) if m else None
                elif c.startswith('wip15'):
                    rc, out, err, _ = run([a.wip15, 'replay', '-q', '--benchmark'] +
                                          (['--window'] if c == 'wip15_window' else []) + [wt])
                    b = wip15_bench(out)
                    fps = b[2] / b[1] if rc == 0 and b and b[1] > 0 else None
                else:
                    rc, out, err, _ = run(['glretrace', '--benchmark', at])
                    b = retrace_bench(out)
                    fps = b[0] / b[1] if rc == 0 and b and b[1] > 0 else None
                if fps is None:
                    print('glmark2 %s: %s failed: %s %s' % (scene, c, out[-300:], err[-300:]), file=sys.stderr)
                r[c].append(fps)
        res['glmark2'][scene] = r
        out_rows.append((scene, [med(r[c]) for c in confs]))
    print('\n### glmark2 scenes (%s, %s s each, GLX on Xvfb), frames/s, %d rounds, medians\n'
          % (a.size, a.seconds, a.rounds))
    print('| scene | native (glmark2 FPS) | wip15 headless | wip15 --window | glretrace | wip15 --window / glretrace |')
    print('|---|---|---|---|---|---|')
    for scene, v in out_rows:
        ratio = '%.2fx' % (v[2] / v[3]) if v[2] and v[3] else '-'
        print('| %s | %s | %s | %s | %s | %s |' % (scene, fmt(v[0]), fmt(v[1]), fmt(v[2]), fmt(v[3]), ratio))


def bench_memory(a, d, res):
    prog = os.path.join(a.build, 'bench', 'tracer', 'bench_calls')
    env = dict(os.environ, EGL_PLATFORM='surfaceless')
    rows = []
    res['memory'] = []
    for iters in (a.iters // 10, a.iters, a.iters * 10):
        wt = os.path.join(d, 'mem-%d.wip15' % iters)
        rc, out, err, _ = run([a.wip15, 'trace', '-q', '--stream', 'none', '-o', wt, '--', prog, str(iters)], env)
        need(rc == 0, 'wip15 trace: %s' % err)
        rss = []
        for _ in range(3):
            rc, out, err, wall, m = run_rss([a.wip15, 'replay', '-q', '--benchmark', wt], env)
            rss.append(m if rc == 0 else None)
        b = wip15_bench(out)
        rows.append((iters, b[0] if b else None, os.path.getsize(wt), med(rss)))
        res['memory'].append({'iters': iters, 'calls': rows[-1][1], 'trace_bytes': rows[-1][2], 'rss_kb': rss})
        os.unlink(wt)
    print('\n### max RSS of `wip15 replay --benchmark` against trace length (bench_calls traces)\n')
    print('| calls replayed | trace size | max RSS (median of 3) |')
    print('|---|---|---|')
    for iters, calls, size, rss in rows:
        print('| %s | %.1f MB | %.1f MB |' % (fmt(calls), size / 1e6, (rss or 0) / 1024))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--build', default=os.path.join(HERE, '..', '..', 'build'))
    ap.add_argument('--rounds', type=int, default=5)
    ap.add_argument('--iters', type=int, default=500000)
    ap.add_argument('--scenes', default='build,texture,shading,bump')
    ap.add_argument('--seconds', default='3')
    ap.add_argument('--size', default='400x300')
    ap.add_argument('--only', default='calls,glmark2,memory')
    ap.add_argument('--json')
    a = ap.parse_args()
    need(a.rounds >= 3, '--rounds: at least 3')
    a.build = os.path.abspath(a.build)
    a.wip15 = os.path.join(a.build, 'src', 'tools', 'wip15')
    a.scenes = [s for s in a.scenes.split(',') if s]
    need(os.access(a.wip15, os.X_OK), 'no %s' % a.wip15)
    need(shutil.which('apitrace') and os.environ.get('DISPLAY'), 'apitrace and DISPLAY needed')
    only = set(a.only.split(','))
    res = {'when': time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime()), 'rounds': a.rounds}
    d = tempfile.mkdtemp(prefix='w15rpbench.')
    try:
        print('replay benchmarks, %s, load average %s' % (res['when'], ' '.join(os.getloadavg().__repr__()
                                                                                 .strip('()').split(', '))))
        if 'calls' in only:
            bench_calls(a, d, res)
        if 'glmark2' in only:
            bench_glmark2(a, d, res)
        if 'memory' in only:
            bench_memory(a, d, res)
    finally:
        shutil.rmtree(d, ignore_errors=True)
    if a.json:
        with open(a.json, 'w') as f:
            json.dump(res, f, indent=1)
    return 0


if __name__ == '__main__':
    sys.exit(main())
