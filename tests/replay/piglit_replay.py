#!/usr/bin/env python3
"""Replays piglit traces with `wip15 replay --check`.

  piglit_replay.py [options]

Traces a list of piglit tests (tests/piglit/run_piglit.py --mode traced,
each run under `wip15 trace --frame-digests`), then replays every trace it
wrote with `wip15 replay -q --check` (headless) and reads the summary line
`checked N readbacks, M frames, E error values: K mismatches`.  A trace
whose headless replay says it used a window's front buffer ("replay with
--window", docs/REPLAY.md) is replayed again with --window (X windows on
$DISPLAY), and that replay is its result.  A trace passes when the replay
exits 0 with K = 0.  A test listed in the exceptions
file (piglit_exceptions.txt beside this script: a regular expression on the
test's name, a tab, why) may fail; one that then passes is reported as such
(so the list can shrink) but is no failure.

Options:
  --wip15 PATH        the wip15 command
  --list FILE         the piglit list (default tests/piglit/quick.list)
  --only REGEX        only these tests (run_piglit.py --only); repeatable
  --every N           only every N-th test of the list (after --only):
                      a sample that fits a CTest budget
  --exceptions FILE   the exceptions (default piglit_exceptions.txt here)
  --expect-window REGEX  the tests (names) matching REGEX must be the ones
                      whose headless replay asks for --window (a test:
                      the replayer's detection); others failing that are
                      failures
  --traces DIR        use the traces already in DIR (a run of this script
                      with --keep DIR, or run_piglit.py --keep-traces with
                      --frame-digests): no piglit run
  --keep DIR          keep the traces in DIR
  --strict            also replay each trace without --check and with
                      --strict: every call must replay (sizes of read-backs
                      then come from the trace alone)
  -j, --jobs N        piglit runs and replays at once (default 2)
  --timeout S         per run and per replay (default 60)
  -v, --verbose       a line per trace

Exit status: 0 no unexpected failure, 1 some, 2 usage or harness error,
77 piglit is not installed (CTest: skipped).
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
RUN_PIGLIT = os.path.join(HERE, '..', 'piglit', 'run_piglit.py')
CHECK_RE = re.compile(r'^checked (\d+) readbacks, (\d+) frames, (\d+) error values: (\d+) mismatches$', re.M)


def load_exceptions(path):
    out = []
    if not os.path.exists(path):
        return out
    with open(path, encoding='utf-8') as f:
        for ln in f:
            ln = ln.rstrip('\n')
            if not ln.strip() or ln.startswith('#'):
                continue
            pat, _, why = ln.partition('\t')
            out.append((re.compile(pat), why.strip()))
    return out


WINDOW_HINT = 'replay with --window'


def replay_one(wip15, path, timeout, window=False, strict=False):
    t0 = time.monotonic()
    try:
        r = subprocess.run([wip15, 'replay', '-q', '--check'] + (['--window'] if window else []) + [path],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {'trace': path, 'status': 'timeout', 'seconds': timeout, 'checked': None, 'stderr': '',
                'window': window}
    if not window and WINDOW_HINT in r.stderr and os.environ.get('DISPLAY'):
        # the trace uses a window's front buffer, which the headless
        # replay's pbuffers lack (the replayer says so): its result is the
        # replay in X windows
        return replay_one(wip15, path, timeout, window=True, strict=strict)
    if strict and r.returncode == 0:
        # a plain replay (no --check: the trace's digests are then not
        # compared) must replay every call (--strict)
        s = subprocess.run([wip15, 'replay', '-q', '--strict'] + (['--window'] if window else []) + [path],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=timeout)
        if s.returncode != 0:
            return {'trace': path, 'status': 'plain --strict replay: exit %d' % s.returncode,
                    'seconds': time.monotonic() - t0, 'checked': None, 'stderr': s.stderr, 'window': window}
    m = CHECK_RE.search(r.stdout)
    checked = [int(x) for x in m.groups()] if m else None
    if r.returncode < 0:
        status = 'signal %d' % -r.returncode
    elif checked is None:
        status = 'exit %d, no summary' % r.returncode
    elif checked[3]:
        status = '%d mismatches' % checked[3]
    elif r.returncode != 0:
        status = 'exit %d' % r.returncode
    else:
        status = 'ok'
    return {'trace': path, 'status': status, 'seconds': time.monotonic() - t0, 'checked': checked,
            'stderr': r.stderr[-2000:] + r.stdout[-1000:] if status != 'ok' else '', 'window': window}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--wip15', default='wip15')
    ap.add_argument('--list', default=os.path.join(HERE, '..', 'piglit', 'quick.list'))
    ap.add_argument('--only', action='append', default=[])
    ap.add_argument('--every', type=int, default=1)
    ap.add_argument('--exceptions', default=os.path.join(HERE, 'piglit_exceptions.txt'))
    ap.add_argument('--expect-window')
    ap.add_argument('--traces')
    ap.add_argument('--keep')
    ap.add_argument('-j', '--jobs', type=int, default=2)
    ap.add_argument('--timeout', type=float, default=60)
    ap.add_argument('--strict', action='store_true')
    ap.add_argument('-v', '--verbose', action='store_true')
    a = ap.parse_args()
    if '/' in a.wip15:
        a.wip15 = os.path.abspath(a.wip15)
    exceptions = load_exceptions(a.exceptions)
    work = tempfile.mkdtemp(prefix='w15pigrp.')
    t0 = time.monotonic()
    try:
        names = {}  # trace base id -> test name
        if a.traces:
            tdir = a.traces
        else:
            tdir = a.keep or os.path.join(work, 'traces')
            lst = a.list
            if a.every > 1 or a.only:
                # a sample of the list: the same format, fewer lines
                lst = os.path.join(work, 'sample.list')
                only = [re.compile(p) for p in a.only]
                k = 0
                with open(a.list, encoding='utf-8') as src, open(lst, 'w', encoding='utf-8') as dst:
                    for ln in src:
                        if not ln.strip() or ln.startswith('#'):
                            dst.write(ln)
                            continue
                        name = ln.split('\t', 1)[0]
                        if only and not any(p.search(name) for p in only):
                            continue
                        if k % a.every == 0:
                            dst.write(ln)
                        k += 1
            js = os.path.join(work, 'piglit.json')
            cmd = [sys.executable, RUN_PIGLIT, '--wip15', a.wip15, '--list', lst, '--mode', 'traced',
                   '--jobs', str(a.jobs), '--timeout', str(a.timeout), '--keep-traces', tdir, '--json', js,
                   '--tracer-cmd', '{wip15} trace -q --frame-digests -o {out}.wip15 --']
            r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            if r.returncode == 77:
                print(r.stderr, end='')
                return 77
            if r.returncode != 0 or not os.path.exists(js):
                print('piglit_replay: run_piglit.py exited %d:\n%s%s' % (r.returncode, r.stdout[-3000:],
                                                                       r.stderr[-3000:]), file=sys.stderr)
                return 2
            with open(js, encoding='utf-8') as f:
                doc = json.load(f)
            for t in doc['tests']:
                names[t['id']] = t['name']
            print('traced %d piglit tests in %.1f s' % (len(doc['tests']), time.monotonic() - t0))
        traces = sorted(os.path.join(tdir, f) for f in os.listdir(tdir) if f.endswith('.wip15'))
        if not traces:
            print('piglit_replay: no trace in %s' % tdir, file=sys.stderr)
            return 2
        t1 = time.monotonic()
        with ThreadPoolExecutor(max_workers=a.jobs) as pool:
            res = list(pool.map(lambda p: replay_one(a.wip15, p, a.timeout, strict=a.strict), traces))
        bad, expected, fixed = [], [], []
        tot = [0, 0, 0, 0]
        for r in res:
            base = os.path.basename(r['trace'])[:-len('.wip15')]
            tid = re.sub(r'\.\d+$', '', base)
            name = names.get(tid, tid)
            why = next((w for p, w in exceptions if p.search(name)), None)
            if r['checked']:
                tot = [x + y for x, y in zip(tot, r['checked'])]
            if a.verbose:
                print('%-8s %5.2f s %s %s%s' % (r['status'], r['seconds'], r['checked'], name,
                                               ' (--window)' if r['window'] else ''))
            if a.expect_window is not None and bool(re.search(a.expect_window, name)) != r['window']:
                r['stderr'] = ('its headless replay %s --window, --expect-window says it should%s\n'
                               % ('asked for' if r['window'] else 'did not ask for',
                                  ' not' if r['window'] else '')) + r['stderr']
                r['status'] = 'window detection'
                why = None
            if r['status'] == 'ok':
                if why:
                    fixed.append(name)
                continue
            (expected if why else bad).append((name, r, why))
        for name, r, why in expected:
            print('expected: %s: %s (%s)' % (name, r['status'], why))
        for name in fixed:
            print('note: %s is in the exceptions but replayed with no mismatch' % name)
        for name, r, _ in bad:
            print('FAIL: %s: %s\n  %s' % (name, r['status'], r['stderr'].strip().replace('\n', '\n  ')))
        print('replayed %d traces in %.1f s (%d in X windows): %d ok, %d expected failures, %d failures; '
              'checked %d readbacks, %d frames, %d error values: %d mismatches'
              % (len(res), time.monotonic() - t1, sum(1 for r in res if r['window']),
                 len(res) - len(expected) - len(bad), len(expected), len(bad), tot[0], tot[1], tot[2], tot[3]))
        return 1 if bad else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == '__main__':
    sys.exit(main())
