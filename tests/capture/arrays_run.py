#!/usr/bin/env python3
"""capture.arrays.<case>: trace one case of arrays_egl, compare the trace with
what the program says its draws read (arrays_check), then replay the trace
with `wip15 replay --check` and require no mismatch and no warning.

usage: arrays_run.py --wip15 WIP15 --check ARRAYS_CHECK [--no-replay] [--frames A-B] CASE -- PROGRAM
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile


def fail(msg):
    print('FAIL: ' + msg, file=sys.stderr)
    sys.exit(1)


def run(cmd):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=240)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--wip15', required=True)
    ap.add_argument('--check', required=True)
    ap.add_argument('--no-replay', action='store_true')
    ap.add_argument('--frames', help='wip15 trace --frames RANGE')
    ap.add_argument('case')
    ap.add_argument('prog', nargs=argparse.REMAINDER)
    a = ap.parse_args()
    prog = [p for p in a.prog if p != '--']
    with tempfile.TemporaryDirectory(prefix='w15arrays.') as d:
        # natively: the program's own checks pass without the tracer
        r = run(prog + [a.case, os.path.join(d, 'native.exp')])
        if r.returncode != 0:
            fail('natively: exit %d\n%s%s' % (r.returncode, r.stdout, r.stderr))
        trace = os.path.join(d, 't.wip15')
        exp = os.path.join(d, 'traced.exp')
        opts = ['--frames', a.frames] if a.frames else []
        r = run([a.wip15, 'trace', '-q', '--stream', 'none', '--frame-digests', '-o', trace] + opts + ['--'] +
                prog + [a.case, exp])
        if r.returncode != 0:
            fail('traced: exit %d\n%s%s' % (r.returncode, r.stdout, r.stderr))
        said = [l for l in r.stderr.splitlines() if l.strip() and not l.startswith('wip15: trace written')]
        if said:
            fail('the tracer printed:\n' + '\n'.join(said))
        r = run([a.check, trace, exp])
        sys.stdout.write(r.stdout)
        if r.returncode != 0:
            fail('arrays_check: exit %d\n%s' % (r.returncode, r.stderr))
        if a.no_replay:
            return
        r = run([a.wip15, 'replay', '-q', '--check', trace])
        m = re.search(r'^checked (\d+) readbacks, (\d+) frames, (\d+) error values: (\d+) mismatches$',
                      r.stdout, re.M)
        if r.returncode != 0 or not m or int(m.group(4)) != 0 or int(m.group(2)) < 1:
            fail('wip15 replay --check: exit %d\n%s%s' % (r.returncode, r.stdout, r.stderr))
        if r.stderr.strip():
            fail('wip15 replay --check warned:\n' + r.stderr)
        print('replay --check: %s readbacks, %s frames, %s error values, no mismatch'
              % (m.group(1), m.group(2), m.group(3)))


if __name__ == '__main__':
    main()
