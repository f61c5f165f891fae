#!/usr/bin/env python3
"""frame_digests.py [options] -- the cost of `wip15 trace --frame-digests` on glmark2.

For each program (glmark2: GLX; glmark2-es2: EGL on X11) and each scene,
runs glmark2 on that one scene for --duration seconds in three
configurations:
  native    the program alone
  trace     wip15 trace -q -o FILE -- PROGRAM ...
  digests   wip15 trace -q --frame-digests -o FILE -- PROGRAM ...
  every     with --every N: wip15 trace -q --frame-digests=N ... (a digest
            for every N-th frame only)
--rounds times, the configurations interleaved round by round (rotated).
Two measures, medians over the rounds:
  fps       glmark2's own "FPS:" line (wall clock: at the mercy of the
            machine's other load)
  cpu/frame the CPU time of the whole process tree (every thread: the
            program's, llvmpipe's, the tracer's writer; user + system, from
            getrusage of the waited-for children) divided by the frames
            drawn (fps x duration); steadier on a shared machine.  It
            includes the start-up (context, shader compilation), the same
            in every configuration.
  frame ms  traced runs only: the median frame time the tracer's own timing
            file holds (`wip15 frames --json --skip 10`): no start-up, and a
            median over hundreds of frames, so the steadiest of the three.
The digests' cost: 1 - fps(digests)/fps(trace), and cpu/frame(digests) /
cpu/frame(trace) - 1, frame ms(digests) / frame ms(trace) - 1 (target, issue 8: <= 5 %).  Needs DISPLAY (an X
server: `. scripts/xvfb.sh; xvfb_start`).  The load average before and
after is printed: the machine is shared.

Options:
  --build DIR      build tree (default: build next to this script's repo)
  --rounds N       default 3
  --duration S     seconds per scene (default 3)
  --size WxH       window size (default glmark2's 800x600)
  --scenes LIST    comma-separated glmark2 -b arguments
                   (default build,texture,shading,bump,pulsar)
  --programs LIST  default glmark2,glmark2-es2
  --every N        also measure --frame-digests=N (columns "/N")
  --markdown       print the table as Markdown rows (docs/PERFORMANCE.md)
  --paired         instead of the above: one run per scene and round with
                   --frame-digests=N (--period), for each way of taking the
                   digests (WIP15_FRAME_READ=auto: from the image the driver
                   shows, once verified; readback: glReadPixels), and the
                   cost from that run's own frame times (`wip15 frames
                   --csv`, the first 10 frames left out): the frames that
                   end with a digest and the one after each against the
                   others (--period).  Both kinds run at the same moment,
                   so the machine's drift, which moves glmark2's fps by
                   10-30 % between runs on a shared VM, cancels out.
  --period N       with --paired: a digest every N-th frame (default 4,
                   at least 2).  The cost is (m0 + m1) - 2 * mq: m0 the
                   median of the frames that end with a digest, m1 that of
                   the frames right after them, mq that of the others.  The
                   frame after a digest counts because it can be shorter:
                   on EGL/X11 the driver's next frame waits for the X
                   server to take in the image, and the digest's time was
                   time the server had for that.  With N = 2 every frame is
                   one or the other, and the cost is m0 - m1 (the
                   estimate before 2026-12-02, which counts that overlap
                   twice).
"""
import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile

FPS = re.compile(r'^\[(\S+)\]\s*(.*?):?\s*FPS:\s*(\d+)', re.M)


def cpu_children():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_once(cmd, env):
    """(fps of the one scene, CPU seconds of the process tree)"""
    c0 = cpu_children()
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, timeout=900)
    cpu = cpu_children() - c0
    if r.returncode != 0:
        sys.exit('frame_digests.py: %s exited %d:\n%s' % (' '.join(cmd), r.returncode, r.stdout[-2000:]))
    fps = [int(m.group(3)) for m in FPS.finditer(r.stdout)]
    if len(fps) != 1:
        sys.exit('frame_digests.py: %s: no single FPS line:\n%s' % (' '.join(cmd), r.stdout[-2000:]))
    return fps[0], cpu


def each_run(o, scenes, configs):
    """(program path, program, round, scene, config) for every run, the
    configurations of a round in the order configs(round) gives."""
    for prog in o.programs.split(','):
        path = shutil.which(prog)
        if not path:
            sys.exit('frame_digests.py: %s not found' % prog)
        for i in range(o.rounds):
            for scene in scenes:
                for c in configs(i):
                    yield path, prog, i, scene, c


def paired(o, wip15, scenes, extra):
    """--paired (see the usage text)."""
    tmp = tempfile.mkdtemp(prefix='w15fd.')
    out = os.path.join(tmp, 't.wip15')
    modes = ['auto', 'readback']
    res = {}  # (program, scene, mode) -> [(fps, ms without, ms with)]
    load0 = loadavg()
    try:
        for path, prog, i, scene, m in each_run(o, scenes, lambda i: modes if i % 2 == 0 else modes[::-1]):
            cmd = [wip15, 'trace', '-q', '-o', out, '--frame-digests=%d' % o.period, '--', path, '-b',
                   '%s:duration=%g' % (scene, o.duration)] + extra
            env = dict(os.environ, WIP15_FRAME_READ=m)
            env.pop('WIP15_FRAME_DIGESTS', None)
            fps, _ = run_once(cmd, env)
            c = subprocess.run([wip15, 'frames', '--csv', '--skip', '10', out[:-len('.wip15')] + '.wtf-trace'],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            if c.returncode != 0:
                sys.exit('frame_digests.py: wip15 frames --csv: %s' % c.stderr)
            phase = [[] for _ in range(o.period)]  # phase 0: the frames that end with a digest
            for line in c.stdout.splitlines()[1:]:
                f = line.split(',')
                phase[int(f[0]) % o.period].append(float(f[2]))
            for f in os.listdir(tmp):
                os.unlink(os.path.join(tmp, f))
            m0, m1 = statistics.median(phase[0]), statistics.median(phase[1])
            if o.period == 2:
                r = (fps, m1, m0)
            else:
                mq = statistics.median([x for p in phase[2:] for x in p])
                # one frame "with a digest" costs what it and the next cost over two plain ones
                r = (fps, mq, m0 + m1 - mq)
            res.setdefault((prog, scene, m), []).append(r)
            print('# %s %s %s round %d: %d fps, frames %.3f ms, with a digest %.3f ms (phases: %s)' %
                  ((prog, scene, m, i + 1) + r + (' '.join('%.3f' % statistics.median(p) for p in phase),)),
                  file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    load1 = loadavg()
    print('| program | scene | fps | frame ms | + digest, from the image | cost | + digest, read back | cost |')
    print('|---|---|---:|---:|---:|---:|---:|---:|')
    for prog in o.programs.split(','):
        for scene in scenes:
            row = [prog, scene.split(':')[0]]
            a = res[(prog, scene, 'auto')]
            b = res[(prog, scene, 'readback')]
            base = statistics.median([x[1] for x in a] + [x[1] for x in b])
            row += ['%d' % statistics.median(x[0] for x in a + b), '%.3f' % base]
            for v in (a, b):
                # each run's own pair, then the median over the rounds
                d = statistics.median(x[2] - x[1] for x in v)
                cost = statistics.median(100.0 * (x[2] / x[1] - 1.0) for x in v)
                row += ['+%.3f ms' % d if d >= 0 else '%.3f ms' % d, '%.1f %%' % cost]
            print('| ' + ' | '.join(row) + ' |')
    print('load average before: %s, after: %s (%d CPUs); %d rounds, %gs per scene; frame times from each '
          'run\'s .wtf-trace, medians' % (load0, load1, os.cpu_count() or 0, o.rounds, o.duration))
    return 0


def loadavg():
    try:
        with open('/proc/loadavg') as f:
            return ' '.join(f.read().split()[:3])
    except OSError:
        return '?'


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--build', default=os.path.join(here, '..', '..', 'build'))
    ap.add_argument('--rounds', type=int, default=3)
    ap.add_argument('--duration', type=float, default=3)
    ap.add_argument('--size')
    ap.add_argument('--scenes', default='build,texture,shading,bump,pulsar')
    ap.add_argument('--programs', default='glmark2,glmark2-es2')
    ap.add_argument('--every', type=int, default=0)
    ap.add_argument('--markdown', action='store_true')
    ap.add_argument('--paired', action='store_true')
    ap.add_argument('--period', type=int, default=4)
    o = ap.parse_args()
    wip15 = os.path.join(os.path.abspath(o.build), 'src', 'tools', 'wip15')
    if not os.path.exists(wip15):
        sys.exit('frame_digests.py: missing %s (build the project first)' % wip15)
    if not os.environ.get('DISPLAY'):
        sys.exit('frame_digests.py: DISPLAY is not set (glmark2 needs an X server)')
    scenes = [s for s in o.scenes.split(',') if s]
    extra = ['-s', o.size] if o.size else []
    if o.paired:
        if o.period < 2:
            sys.exit('frame_digests.py: --period must be 2 or more')
        return paired(o, wip15, scenes, extra)
    tmp = tempfile.mkdtemp(prefix='w15fd.')
    out = os.path.join(tmp, 't.wip15')
    cfgs = ['native', 'trace', 'digests'] + (['every'] if o.every > 1 else [])
    res = {}  # (program, scene, config) -> [(fps, cpu ms per frame)]
    load0 = loadavg()
    try:
        for path, prog, i, scene, c in each_run(o, scenes, lambda i: cfgs[i % len(cfgs):] + cfgs[:i % len(cfgs)]):
            cmd = [path, '-b', '%s:duration=%g' % (scene, o.duration)] + extra
            if c != 'native':
                dig = {'digests': ['--frame-digests'], 'every': ['--frame-digests=%d' % o.every]}.get(c, [])
                cmd = [wip15, 'trace', '-q', '-o', out] + dig + ['--'] + cmd
            env = dict(os.environ)
            env.pop('WIP15_FRAME_DIGESTS', None)
            fps, cpu = run_once(cmd, env)
            fms = float('nan')
            if c != 'native':
                j = subprocess.run([wip15, 'frames', '--json', '--skip', '10', out[:-len('.wip15')] + '.wtf-trace'],
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
                if j.returncode == 0:
                    fms = json.loads(j.stdout)['frame_ms']['median']
            for f in os.listdir(tmp):
                os.unlink(os.path.join(tmp, f))
            per = 1e3 * cpu / max(1.0, fps * o.duration)
            res.setdefault((prog, scene, c), []).append((fps, per, fms))
            print('# %s %s %s round %d: %d fps, %.2f cpu ms/frame, %.3f frame ms' %
                  (prog, scene, c, i + 1, fps, per, fms), file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    load1 = loadavg()
    rows = []
    for prog in o.programs.split(','):
        for scene in scenes:
            m = {}
            for c in cfgs:
                v = res.get((prog, scene, c), [])
                m[c] = tuple(statistics.median(x[k] for x in v) for k in range(3)) if v else (0, 0, 0)
            fcost = 100.0 * (1.0 - m['digests'][0] / m['trace'][0]) if m['trace'][0] else float('nan')
            ccost = 100.0 * (m['digests'][1] / m['trace'][1] - 1.0) if m['trace'][1] else float('nan')
            mcost = 100.0 * (m['digests'][2] / m['trace'][2] - 1.0) if m['trace'][2] else float('nan')
            row = (prog, scene.split(':')[0], m['native'][0], m['trace'][0], m['digests'][0], fcost,
                   m['native'][1], m['trace'][1], m['digests'][1], ccost, m['trace'][2], m['digests'][2], mcost)
            if 'every' in cfgs:
                e = m['every']
                row += (e[0], 100.0 * (1.0 - e[0] / m['trace'][0]) if m['trace'][0] else float('nan'),
                        e[1], 100.0 * (e[1] / m['trace'][1] - 1.0) if m['trace'][1] else float('nan'))
            rows.append(row)
    if o.markdown:
        print('| program | scene | fps native | fps traced | fps + digests | cost (fps) '
              '| cpu ms/frame native | traced | + digests | cost (cpu) | frame ms traced | + digests | cost (frame ms) |')
        print('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|')
        for r in rows:
            print('| %s | %s | %g | %g | %g | %.1f %% | %.2f | %.2f | %.2f | %.1f %% | %.3f | %.3f | %.1f %% |' % r[:13])
        if 'every' in cfgs:
            print()
            print('| program | scene | fps traced | fps + digests/%d | cost (fps) | cpu ms/frame traced '
                  '| + digests/%d | cost (cpu) |' % (o.every, o.every))
            print('|---|---|---:|---:|---:|---:|---:|---:|')
            for r in rows:
                print('| %s | %s | %g | %g | %.1f %% | %.2f | %.2f | %.1f %% |' %
                      (r[0], r[1], r[3], r[13], r[14], r[7], r[15], r[16]))
    else:
        print('%-12s %-9s %7s %7s %7s %7s %9s %9s %9s %7s %8s %8s %7s' % (
            'program', 'scene', 'fps nat', 'trace', 'digests', 'cost', 'cpu/f nat', 'trace', 'digests', 'cost',
            'ms trace', 'digests', 'cost'))
        for r in rows:
            print('%-12s %-9s %7g %7g %7g %6.1f%% %9.2f %9.2f %9.2f %6.1f%% %8.3f %8.3f %6.1f%%' % r[:13])
        if 'every' in cfgs:
            print('%-12s %-9s %7s %9s %7s %9s %9s %7s' % ('program', 'scene', 'trace', 'every/%d' % o.every,
                                                          'cost', 'cpu/f tr', 'every', 'cost'))
            for r in rows:
                print('%-12s %-9s %7g %9g %6.1f%% %9.2f %9.2f %6.1f%%' %
                      (r[0], r[1], r[3], r[13], r[14], r[7], r[15], r[16]))
    print('load average before: %s, after: %s (%d CPUs); %d rounds, %gs per scene, medians' %
          (load0, load1, os.cpu_count() or 0, o.rounds, o.duration))
    return 0


if __name__ == '__main__':
    sys.exit(main())
