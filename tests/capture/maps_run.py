#!/usr/bin/env python3
"""One capture.maps test (tests/capture/maps.cmake):

  maps_run.py --preload LIB --check MAPS_CHECK [--wip15 WIP15] [--mode M]
              [--keep DIR] -- MAPS_APP CASE

1. MAPS_APP CASE alone: exit 0 and its line
   "maps_app: ok CASE bytes MIN MAX checks N" (it checks its own buffers).
2. The same under LD_PRELOAD=LIB with WIP15_MAPS=M (auto, uffd, protect or
   compare; uffd where the kernel lacks it: exit 77, skipped) and frame
   digests on: exit 0, the same line (the program saw the same
   bytes), nothing on stderr but the tracer's own lines.
3. maps_check TRACE: every read-back (glGetNamedBufferSubData) equals the
   buffer rebuilt from the trace (data calls + wip15BufferWrite), N checks,
   no mismatch, and the wip15BufferWrite bytes in [MIN, MAX].
4. With --wip15: `wip15 replay --check TRACE`: exit 0, no mismatch, every
   read-back and every frame compared, no warning.
Exit 0 pass, 1 fail, 77 skipped.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile


def fail(msg):
    print('FAIL: ' + msg, file=sys.stderr)
    sys.exit(1)


def run(cmd, env=None, timeout=240):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                          timeout=timeout)


LINE = re.compile(r'^maps_app: ok (\S+) bytes (\d+) (\d+) checks (\d+)$', re.M)


def app_line(r, what):
    if r.returncode != 0:
        fail('%s: exit %d\n%s%s' % (what, r.returncode, r.stdout, r.stderr))
    m = LINE.search(r.stdout)
    if not m:
        fail('%s: no result line in\n%s' % (what, r.stdout))
    return m


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--preload', required=True)
    ap.add_argument('--check', required=True)
    ap.add_argument('--wip15')
    ap.add_argument('--mode', default='auto', choices=['auto', 'uffd', 'protect', 'compare'])
    ap.add_argument('--keep')
    ap.add_argument('cmd', nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.cmd[1:] if a.cmd and a.cmd[0] == '--' else a.cmd
    if len(cmd) != 2:
        ap.error('expected -- MAPS_APP CASE')

    env = dict(os.environ)
    for k in list(env):
        if k.startswith('WIP15_') and k != 'WIP15_WTF_LOADER':
            del env[k]
    native = app_line(run(cmd, env=env), 'native run')

    tmp = tempfile.mkdtemp(prefix='w15maps-')
    try:
        trace = os.path.join(tmp, 'maps.wip15')
        tenv = dict(env)
        tenv.update({'LD_PRELOAD': a.preload, 'WIP15_OUTPUT': trace, 'WIP15_STREAM': 'none',
                     'WIP15_TIMING': 'off', 'WIP15_FRAME_DIGESTS': 'on', 'WIP15_MAPS': a.mode,
                     'WIP15_QUIET': '1'})
        if 'asan' in a.preload or 'libclang_rt' in a.preload:
            tenv['ASAN_OPTIONS'] = 'handle_segv=0:handle_sigbus=0:handle_sigfpe=0:handle_sigill=0:detect_leaks=0'
        r = run(cmd, env=tenv)
        if a.mode == 'uffd' and 'WIP15_MAPS=uffd: no ' in r.stderr:
            # the kernel lacks the write tracking (Linux 6.7+): nothing to test
            print('skipped: %s' % r.stderr.strip())
            return 77
        traced = app_line(r, 'traced run (WIP15_MAPS=%s)' % a.mode)
        if traced.groups() != native.groups():
            fail('traced run printed %r, native %r' % (traced.group(0), native.group(0)))
        if r.stderr.strip():
            fail('traced run wrote on stderr:\n%s' % r.stderr)
        if not os.path.exists(trace):
            fail('no trace written')
        case, lo, hi, nchecks = traced.group(1), int(traced.group(2)), int(traced.group(3)), int(traced.group(4))

        c = run([a.check, trace])
        if c.returncode != 0:
            fail('maps_check: exit %d\n%s%s' % (c.returncode, c.stdout, c.stderr))
        mw = re.search(r'^writes (\d+) bytes (\d+)$', c.stdout, re.M)
        mc = re.search(r'^checks (\d+) mismatches (\d+)$', c.stdout, re.M)
        if not mw or not mc:
            fail('maps_check printed\n%s' % c.stdout)
        writes, wbytes = int(mw.group(1)), int(mw.group(2))
        checks, bad = int(mc.group(1)), int(mc.group(2))
        if bad:
            fail('the trace does not rebuild what GL read back (%d of %d checks):\n%s' % (bad, checks, c.stdout))
        if checks != nchecks:
            fail('maps_check found %d read-backs, the program made %d' % (checks, nchecks))
        if not lo <= wbytes <= hi:
            fail('%d wip15BufferWrite calls hold %d bytes; the program changed %d..%d through mappings'
                 % (writes, wbytes, lo, hi))
        msg = '%s (%s): %d checks ok; %d wip15BufferWrite, %d bytes (expected %d..%d)' % (
            case, a.mode, checks, writes, wbytes, lo, hi)

        if a.wip15:
            r = run([a.wip15, 'replay', '-q', '--check', trace])
            m = re.search(r'^checked (\d+) readbacks, (\d+) frames, (\d+) error values: (\d+) mismatches$',
                          r.stdout, re.M)
            if r.returncode != 0 or not m:
                fail('replay --check: exit %d\n%s%s' % (r.returncode, r.stdout, r.stderr))
            rb, frames, mism = int(m.group(1)), int(m.group(2)), int(m.group(4))
            if mism:
                fail('replay --check: %d mismatches\n%s%s' % (mism, r.stdout, r.stderr))
            if rb < nchecks:
                fail('replay --check compared %d read-backs, the program made %d' % (rb, nchecks))
            if r.stderr.strip():
                fail('replay --check warned:\n%s' % r.stderr)
            msg += '; replay --check: %d read-backs, %d frames, no mismatch' % (rb, frames)
        print('ok: ' + msg)
    finally:
        if a.keep:
            os.makedirs(a.keep, exist_ok=True)
            for f in os.listdir(tmp):
                shutil.copy(os.path.join(tmp, f), a.keep)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == '__main__':
    main()
