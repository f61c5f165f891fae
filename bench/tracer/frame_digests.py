#!/usr/bin/env python3
"""frame_digests.py [options] -- the cost of `wip15 trace --frame-digests` on glmark2.

For each program (glmark2: GLX; glmark2-es2: EGL on X11) runs the same
glmark2 scenes, each for --duration seconds, in three configurations:
  native    the program alone
  trace     wip15 trace -q -o FILE -- PROGRAM ...
  digests   wip15 trace -q --frame-digests -o FILE -- PROGRAM ...
--rounds times, the configurations interleaved round by round (rotated), and
prints the median fps of each scene (glmark2's own "FPS:" lines) per
configuration, and the cost of the digests: 1 - digests/trace (target, issue
8: <= 5 %).  Needs DISPLAY (an X server: `. scripts/xvfb.sh; xvfb_start`).
The load average before and after is printed: the machine is shared, and a
loaded machine makes the numbers noisy.

Options:
  --build DIR      build tree (default: build next to this script's repo)
  --rounds N       default 3
  --duration S     seconds per scene (default 3)
  --size WxH       window size (default glmark2's 800x600)
  --scenes LIST    comma-separated glmark2 -b arguments
                   (default build,texture,shading,bump,pulsar)
  --programs LIST  default glmark2,glmark2-es2
  --markdown       print the table as Markdown rows (docs/PERFORMANCE.md)
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

FPS = re.compile(r'^\[(\S+)\]\s*(.*?):?\s*FPS:\s*(\d+)', re.M)


def run_once(cmd, env):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, timeout=900)
    if r.returncode != 0:
        sys.exit('frame_digests.py: %s exited %d:\n%s' % (' '.join(cmd), r.returncode, r.stdout[-2000:]))
    out = {}
    for m in FPS.finditer(r.stdout):
        out[m.group(1)] = int(m.group(3))
    return out


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
    ap.add_argument('--markdown', action='store_true')
    o = ap.parse_args()
    wip15 = os.path.join(os.path.abspath(o.build), 'src', 'tools', 'wip15')
    if not os.path.exists(wip15):
        sys.exit('frame_digests.py: missing %s (build the project first)' % wip15)
    if not os.environ.get('DISPLAY'):
        sys.exit('frame_digests.py: DISPLAY is not set (glmark2 needs an X server)')
    scenes = [s for s in o.scenes.split(',') if s]
    args = []
    for s in scenes:
        args += ['-b', '%s:duration=%g' % (s, o.duration)]
    if o.size:
        args += ['-s', o.size]
    tmp = tempfile.mkdtemp(prefix='w15fd.')
    out = os.path.join(tmp, 't.wip15')
    cfgs = ['native', 'trace', 'digests']
    res = {}  # (program, config) -> scene -> [fps]
    load0 = loadavg()
    try:
        for prog in o.programs.split(','):
            path = shutil.which(prog)
            if not path:
                sys.exit('frame_digests.py: %s not found' % prog)
            for i in range(o.rounds):
                order = cfgs[i % 3:] + cfgs[:i % 3]
                for c in order:
                    cmd = [path] + args
                    if c != 'native':
                        cmd = [wip15, 'trace', '-q', '-o', out] + (['--frame-digests'] if c == 'digests' else []) \
                            + ['--'] + cmd
                    env = dict(os.environ)
                    env.pop('WIP15_FRAME_DIGESTS', None)
                    fps = run_once(cmd, env)
                    for f in os.listdir(tmp):
                        os.unlink(os.path.join(tmp, f))
                    for s, v in fps.items():
                        res.setdefault((prog, c), {}).setdefault(s, []).append(v)
                    print('# %s %s round %d: %s' % (prog, c, i + 1, fps), file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    load1 = loadavg()
    rows = []
    for prog in o.programs.split(','):
        for s in scenes:
            name = s.split(':')[0]
            med = {}
            for c in cfgs:
                v = res.get((prog, c), {}).get(name, [])
                med[c] = statistics.median(v) if v else float('nan')
            cost = 100.0 * (1.0 - med['digests'] / med['trace']) if med['trace'] else float('nan')
            rows.append((prog, name, med['native'], med['trace'], med['digests'], cost))
    if o.markdown:
        print('| program | scene | native fps | traced fps | traced + digests fps | digest cost |')
        print('|---|---|---:|---:|---:|---:|')
        for r in rows:
            print('| %s | %s | %g | %g | %g | %.1f %% |' % r)
    else:
        print('%-12s %-10s %10s %10s %10s %8s' % ('program', 'scene', 'native', 'trace', 'digests', 'cost'))
        for r in rows:
            print('%-12s %-10s %10g %10g %10g %7.1f%%' % r)
    print('load average before: %s, after: %s (%d CPUs); %d rounds, %gs per scene, medians' %
          (load0, load1, os.cpu_count() or 0, o.rounds, o.duration))
    return 0


if __name__ == '__main__':
    sys.exit(main())
