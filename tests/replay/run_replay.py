#!/usr/bin/env python3
"""Tests of `wip15 replay` on real programs (Mesa llvmpipe).  One
invocation runs one test:

  run_replay.py [options] KIND -- PROGRAM [ARGS...]

KIND:
  frames     trace PROGRAM with `wip15 trace --frame-digests`, replay it
             headless with --checksums: exit 0, one "frame N <hex>" line per
             recorded swap, and the same lines from a second replay (a replay
             is deterministic); `--check` finds no mismatch and compares
             every frame (the replay shows what the program showed, reads
             back what it read, gets the GL errors it got); with --window
             also replayed with --window on $DISPLAY: the same checksums
             (headless == window).
  selfcheck  PROGRAM is tests/replay/colors_egl (it checks its own pixels
             natively): the replay's MD5 of each frame must be the MD5 of
             the picture the program draws, computed here.
  gears      PROGRAM never ends (glxgears, es2gears): traced for --seconds,
             stopped with SIGINT; then as `frames`.
  bench      trace PROGRAM and print `wip15 replay --benchmark` (no check).
  midstart   PROGRAM traced with --frames 1- (the trace starts inside a
             context it never created): the replay refuses it, exit 1, with
             a message saying why.
  data       replay --trace FILE (tests/replay/data/colors.wip15, a trace of
             colors_egl): its frames are the picture colors_egl draws.
  usage      options and exit codes of `wip15 replay` (--trace FILE: a good
             trace): 2 for bad usage, 1 for a missing file, 0 otherwise.
  order      PROGRAM is tests/replay/order_egl (one thread uploads a texture,
             another draws it after a fence; the program checks its own
             pixels): the replay with --check --checksums must show frame i
             in colour(i) with no mismatch, and the same replay in the
             file's order (--order file) must NOT: else the trace does not
             put the upload after the draw in the file, and the test could
             not tell a right order from a wrong one.

  timing     PROGRAM traced, replayed with --check --timing: no mismatch;
             the replay's .wtf-trace is read by `wip15 frames` (one frame
             per swap, GPU time), `wip15 export --chrome` and the real WTF
             loader (tests/wtf/load_wtf.js, --load-wtf; $WIP15_WTF_LOADER):
             a zone per traced thread with its frames, and a native_gpu
             zone "<zone> GPU" of wip15.gpuFrame scopes holding the GPU
             time of the draws and clears.
  drawcheck  PROGRAM is tests/capture/arrays_egl: cases restart,
             multidraw, buffers and indirect traced without stream
             compression replay without a mismatch; then each is damaged: a
             call removed (the restart's glPrimitiveRestartIndex; the
             wip15ClientMemory of one index array of
             glMultiDrawElementsBaseVertex), an index in an element buffer
             or a command in a draw-indirect buffer edited (client vertex
             arrays drawn through them): the replay must not give GL the
             draw that would read past its copies (a warning naming the
             draw) and exit 0 or 1, never die of a signal.
  bounded    PROGRAM is tests/replay/readback_egl (read-backs GL sizes from
             a texture level; it prints "readback NAME SIZE XXH3" and
             "error NAME 0x..." lines): traced without compression, the
             replay --check finds no mismatch; then every recorded digest
             of those read-backs is edited to 16 bytes (as a damaged trace
             or a replay whose state differs would have it): the replay must
             still give GL outputs as large as its own texture levels, so it
             exits 1, never dies of a signal, and the program's GL errors
             replay as they were (GL_INVALID_ENUM kept across a read-back);
             glMap1f's stride is edited from 65536 to 1048575 floats: the
             replay gives GL that many (zeros past the recorded ones), not
             the 65540 the trace holds; glBindBuffer is renamed:
             glDrawArraysIndirect then has no GL_DRAW_INDIRECT_BUFFER in
             the replay and is skipped with a warning, its offset never
             given to GL as a pointer.  Mismatches: one per edited
             read-back and one error value (glBufferData of the unbound
             target fails).
  progress   PROGRAM traced, replayed with --progress-after 0: progress
             lines on stderr ("progress: frame N, ...", then "replayed:
             frame <swaps>, ..."), stdout untouched; none with -q.

Options:
  --wip15 PATH       the wip15 command
  --load-wtf JS      timing: tests/wtf/load_wtf.js
  --window           frames/gears: also compare with a --window replay
  --warn REGEX       frames: a warning the replay must print (a known capture
                     gap, e.g. client arrays), may be repeated
  --no-warn          frames: the replay must print no warning at all
  --seconds S        gears: how long to run the program (default 3)
  --trace FILE       data, usage: the committed trace
  --keep DIR         keep the traces in DIR
Exit status: 0 pass, 1 fail, 2 usage.
"""

import argparse
import hashlib
import json
import os
import re
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time


def fail(msg):
    print('FAIL: ' + msg, file=sys.stderr)
    sys.exit(1)


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          timeout=kw.pop('timeout', 300), **kw)


def trace(a, prog, out):
    r = run([a.wip15, 'trace', '-q', '--stream', 'none', '--frame-digests', '-o', out, '--'] + prog)
    if r.returncode != 0:
        fail('traced program exited %d:\n%s%s' % (r.returncode, r.stdout, r.stderr))


def trace_for(a, prog, out, seconds):
    p = subprocess.Popen([a.wip15, 'trace', '-q', '--frame-digests', '-o', out, '--'] + prog,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    time.sleep(seconds)
    p.send_signal(signal.SIGINT)
    try:
        p.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
    if not os.path.exists(out):
        fail('no trace written')


def swaps(a, path):
    r = run([a.wip15, 'stats', path])
    m = re.search(r'^frames\s*:?\s*(\d+)', r.stdout, re.M)
    if m:
        return int(m.group(1))
    r = run([a.wip15, 'dump', '--no-pseudo', path])
    return len(re.findall(r'\b(glXSwapBuffers|eglSwapBuffers\w*)\(', r.stdout))


def replay(a, path, *opts):
    r = run([a.wip15, 'replay'] + list(opts) + [path])
    if r.returncode != 0:
        fail('wip15 replay %s exited %d:\n%s' % (' '.join(opts), r.returncode, r.stderr))
    return r


def frame_lines(r):
    lines = r.stdout.splitlines()
    for ln in lines:
        if not re.fullmatch(r'frame \d+ [0-9a-f]+', ln):
            fail('unexpected output line %r' % ln)
    return lines


def check_warnings(a, r):
    warns = [ln for ln in r.stderr.splitlines() if 'warning' in ln]
    for w in a.warn or []:
        if not any(re.search(w, ln) for ln in warns):
            fail('expected a warning matching %r, got:\n%s' % (w, r.stderr))
    if a.no_warn and warns:
        fail('unexpected warnings:\n%s' % '\n'.join(warns))


def kind_frames(a, path):
    n = swaps(a, path)
    r1 = replay(a, path, '--checksums')
    check_warnings(a, r1)
    l1 = frame_lines(r1)
    if len(l1) != n:
        fail('%d checksum lines for %d swaps' % (len(l1), n))
    l2 = frame_lines(replay(a, path, '-q', '--checksums'))
    if l1 != l2:
        fail('two headless replays differ')
    # what the program read back and showed (digests recorded at capture)
    r = run([a.wip15, 'replay', '-q', '--check', path])
    checked = check_line(r)
    if r.returncode != 0 or checked[3]:
        fail('--check: exit %d, %s\n%s%s' % (r.returncode, checked, r.stdout, r.stderr))
    if checked[1] != n:
        fail('--check compared %d frames of %d swaps (frame digests missing?)' % (checked[1], n))
    if a.window:
        if not os.environ.get('DISPLAY'):
            fail('--window needs DISPLAY')
        lw = frame_lines(replay(a, path, '-q', '--window', '--checksums'))
        if lw != l1:
            diff = [(x, y) for x, y in zip(l1, lw) if x != y][:5]
            fail('headless and window checksums differ: %s' % diff)
    print('ok: %d frames%s; --check: %d readbacks, %d frames, %d error values, no mismatch'
          % (len(l1), ', headless == window' if a.window else '', checked[0], checked[1], checked[2]))


def colors_md5():
    w = h = 64
    b = bytearray()
    for row in range(h):
        y = h - 1 - row
        for x in range(w):
            b += bytes([255 if x < w // 2 else 0, 255 if x >= w // 2 and y >= h // 2 else 0,
                        255 if x >= w // 2 and y < h // 2 else 0, 255])
    return hashlib.md5(b).hexdigest()


def kind_selfcheck(a, path):
    r = replay(a, path, '--checksums', '--checksum-format', 'md5')
    a.no_warn = True
    check_warnings(a, r)
    want = colors_md5()
    lines = frame_lines(r)
    if lines != ['frame 0 ' + want, 'frame 1 ' + want]:
        fail('replayed frames %s, the program drew %s' % (lines, want))
    print('ok: both frames are the picture the program checked')


def kind_midstart(a, prog, path):
    r = run([a.wip15, 'trace', '-q', '--frames', '1-', '-o', path, '--'] + prog)
    if r.returncode != 0:
        fail('traced program exited %d' % r.returncode)
    r = run([a.wip15, 'replay', path])
    if r.returncode != 1 or 'never created' not in r.stderr:
        fail('replay of a trace recorded from frame 1: exit %d\n%s' % (r.returncode, r.stderr))
    print('ok: refused')


ORDER_W, ORDER_H, ORDER_FRAMES = 32, 32, 6


def order_colour(i):
    return bytes([(40 * i + 20) & 255, (255 - 30 * i) & 255, (i * 97) & 255, 255])


def check_line(r):
    m = re.search(r'^checked (\d+) readbacks, (\d+) frames, (\d+) error values: (\d+) mismatches$',
                  r.stdout, re.M)
    if not m:
        fail('no --check summary line in:\n%s' % r.stdout)
    return [int(x) for x in m.groups()]


def kind_order(a, path):
    want = ['frame %d %s' % (i, hashlib.md5(order_colour(i) * (ORDER_W * ORDER_H)).hexdigest())
            for i in range(ORDER_FRAMES)]
    r = run([a.wip15, 'replay', '--check', '--checksums', '--checksum-format', 'md5', path])
    got = [ln for ln in r.stdout.splitlines() if ln.startswith('frame ')]
    checked = check_line(r)
    if r.returncode != 0 or got != want or checked[3]:
        fail('replay in wip15.gseq order: exit %d, frames %s (expected %s), check %s\n%s'
             % (r.returncode, got, want, checked, r.stderr))
    r2 = run([a.wip15, 'replay', '-q', '--order', 'file', '--check', '--checksums', '--checksum-format', 'md5',
              path])
    got2 = [ln for ln in r2.stdout.splitlines() if ln.startswith('frame ')]
    checked2 = check_line(r2)
    if got2 == want and not checked2[3]:
        fail('the replay in the file\'s order gives the right frames too: this trace does not test the '
             'order (the tracer wrote the upload before the draws)')
    print('ok: %d frames right in wip15.gseq order (checked %d readbacks, %d frames); in the file\'s order '
          '%d of them wrong, %d check mismatches (exit %d)'
          % (len(got), checked[0], checked[1], sum(1 for x, y in zip(got2, want) if x != y) +
             max(0, len(want) - len(got2)), checked2[3], r2.returncode))


def kind_window(a, path):
    # headless: the note that the trace needs a window, also with -q
    r = run([a.wip15, 'replay', '-q', '--check', path])
    hint = [ln for ln in r.stderr.splitlines() if 'replay with --window' in ln]
    if not hint:
        fail('the headless replay of a trace reading the front buffer did not ask for --window:\n%s%s'
             % (r.stdout, r.stderr))
    headless = check_line(r)
    # in an X window: every read-back, frame and error value as recorded
    r2 = run([a.wip15, 'replay', '-q', '--window', '--check', path])
    checked = check_line(r2)
    if r2.returncode != 0 or checked[3] or checked[0] < 4:
        fail('--window --check: exit %d, %s (readbacks, frames, errors, mismatches)\n%s'
             % (r2.returncode, checked, r2.stderr))
    if 'replay with --window' in r2.stderr:
        fail('the --window replay still asks for --window:\n%s' % r2.stderr)
    print('ok: headless: %s; %d mismatches; --window: %d readbacks, %d frames, %d error values, no mismatch'
          % (hint[0], headless[3], checked[0], checked[1], checked[2]))


def kind_pixmap(a, path):
    # what X drew into the pixmap is not in the trace: said, not replayed
    r = run([a.wip15, 'replay', '--check', path])
    warn = [ln for ln in r.stderr.splitlines() if re.search(r'warning: glXBindTexImageEXT .*not in the trace', ln)]
    if r.returncode not in (0, 1) or not warn:
        fail('the replay of a trace binding an X pixmap as a texture did not warn that glXBindTexImageEXT is '
             'not replayed (exit %d):\n%s%s' % (r.returncode, r.stdout, r.stderr))
    r2 = run([a.wip15, 'replay', '--strict', path])
    if r2.returncode != 1 or 'error (--strict): glXBindTexImageEXT' not in r2.stderr:
        fail('--strict: exit %d (1 expected, an error naming glXBindTexImageEXT)\n%s' % (r2.returncode, r2.stderr))
    print('ok: %s; --strict: exit 1' % warn[0])


def kind_timing(a, path):
    import json
    n = swaps(a, path)
    wtf = path[:-len('.wip15')] + '.replay.wtf-trace'
    r = run([a.wip15, 'replay', '-q', '--check', '--timing', path])
    checked = check_line(r)
    if r.returncode != 0 or checked[3] or not os.path.exists(wtf):
        fail('--check --timing: exit %d, %s, %s\n%s' % (r.returncode, checked, os.path.exists(wtf), r.stderr))
    r = run([a.wip15, 'frames', '--json', wtf])
    if r.returncode != 0:
        fail('wip15 frames: exit %d\n%s' % (r.returncode, r.stderr))
    fr = json.loads(r.stdout)
    if fr.get('frames') != n:
        fail('wip15 frames: %s frames, %d swaps in the trace' % (fr.get('frames'), n))
    gpu = fr.get('gpu') or {}
    if not gpu.get('frames') or not gpu.get('scopes'):
        fail('wip15 frames: no GPU time in %s' % r.stdout[:2000])
    if not any(f['name'].startswith('glDraw') for f in fr.get('functions', [])):
        fail('wip15 frames: no draw call scopes: %s' % fr.get('functions'))
    chrome = path + '.chrome.json'
    r = run([a.wip15, 'export', '--chrome', chrome, wtf])
    if r.returncode != 0:
        fail('wip15 export: exit %d\n%s' % (r.returncode, r.stderr))
    with open(chrome) as f:
        doc = json.load(f)
    events = doc['traceEvents'] if isinstance(doc, dict) else doc
    if not any(e.get('name', '').startswith('glDraw') for e in events):
        fail('wip15 export: no draw in %d events' % len(events))
    loader = os.environ.get('WIP15_WTF_LOADER') or os.environ.get('WIP15_WTF_LOADER_DEFAULT', '')
    os.environ['WIP15_WTF_LOADER'] = loader
    if not (a.load_wtf and loader and os.path.exists(loader) and shutil.which('node')):
        fail('the real WTF loader is missing (WIP15_WTF_LOADER=%r, --load-wtf %r, node)' % (loader, a.load_wtf))
    r = run(['node', a.load_wtf, '--calls', wtf])
    try:
        d = json.loads(r.stdout)
    except ValueError:
        fail('load_wtf.js printed no JSON (exit %d): %s' % (r.returncode, r.stderr[-1000:]))
    if r.returncode != 0 or not d.get('ok'):
        fail('the WTF loader rejected the replay\'s file: %s' % d.get('error'))
    cpu = [z for z in d['zones'] if z['type'] == 'script']
    gz = [z for z in d['zones'] if z['type'] == 'native_gpu']
    if sum(z['frames'] for z in cpu) != n:
        fail('loader: %d frames in the script zones, %d swaps' % (sum(z['frames'] for z in cpu), n))
    if not gz or not all(z['name'].endswith(' GPU') and z['name'][:-4] in [c['name'] for c in cpu] for z in gz):
        fail('loader: GPU zones %s, thread zones %s' % ([z['name'] for z in gz], [z['name'] for z in cpu]))
    frames = [c for z in gz for c in z['calls'] if c[0] == 'wip15.gpuFrame']
    nums = [c[1] for c in frames]
    if not frames or nums != sorted(set(nums)) or any(c[4] != 0 for c in frames):
        fail('loader: GPU frame scopes %s' % frames[:8])
    draws = [c for z in gz for c in z['calls'] if c[0] != 'wip15.gpuFrame']
    if not draws or any(c[4] != 1 for c in draws) or not any(c[3] > c[2] for c in draws):
        fail('loader: GPU call scopes (inside a frame, some time) %s' % draws[:8])
    print('ok: --check --timing, %d frames; wip15 frames: %d GPU frames; export: %d events; loader: %d zones, '
          '%d GPU frames, %d GPU call scopes' % (n, gpu['frames'], len(events), len(d['zones']), len(frames),
                                                 len(draws)))


def kind_progress(a, path):
    n = swaps(a, path)
    r = replay(a, path, '--progress-after', '0')
    if r.stdout:
        fail('stdout not empty: %r' % r.stdout[:500])
    lines = [ln for ln in r.stderr.replace('\r', '\n').splitlines() if 'progress: ' in ln or 'replayed: ' in ln]
    if not any(re.search(r'progress: frame \d+, \d+ calls, [\d.]+ s, [\d.]+ frames/s$', ln) for ln in lines):
        fail('no progress line:\n%s' % r.stderr)
    if not re.search(r'replayed: frame %d, \d+ calls, [\d.]+ s, [\d.]+ frames/s$' % n, lines[-1]):
        fail('last progress line %r (%d frames)' % (lines[-1], n))
    r = replay(a, path, '-q', '--progress-after', '0')
    if r.stderr or r.stdout:
        fail('-q: output %r %r' % (r.stdout[:300], r.stderr[:300]))
    r = replay(a, path)
    if 'progress' in r.stderr or 'replayed:' in r.stderr:
        fail('a short replay shows progress:\n%s' % r.stderr)
    print('ok: %d progress lines, none with -q or for a short replay' % len(lines))


def kind_bounded(a, path):
    r = run([a.wip15, 'trace', '-q', '--compression', 'none', '--stream', 'none', '-o', path, '--'] + a.prog)
    if r.returncode == 77:
        print(r.stdout, end='')
        sys.exit(77)
    if r.returncode != 0 or 'readback_egl: ok' not in r.stdout:
        fail('traced program exited %d:\n%s%s' % (r.returncode, r.stdout, r.stderr))
    reads = [(int(m.group(1)), int(m.group(2), 16))
             for m in re.finditer(r'^readback \S+ (\d+) ([0-9a-f]{16})$', r.stdout, re.M)]
    errors = re.findall(r'^error (\S+) (0x[0-9a-f]+)$', r.stdout, re.M)
    if len(reads) != 7 or ('glEnable(0)', '0x0500') not in errors:
        fail('unexpected program output:\n' + r.stdout)
    done = re.compile(r'^checked (\d+) readbacks, \d+ frames, (\d+) error values: (\d+) mismatches$', re.M)
    r = run([a.wip15, 'replay', '--check', path])
    m = done.search(r.stdout)
    if r.returncode != 0 or not m or int(m.group(1)) < 7 or int(m.group(2)) != len(errors):
        fail('replay --check of the trace as recorded: exit %d\n%s%s' % (r.returncode, r.stdout, r.stderr))
    data = bytearray(open(path, 'rb').read())
    edited = 0
    for size, h in set(reads):
        old, new = struct.pack('<QQ', size, h), struct.pack('<QQ', 16, h)
        at = data.find(old)
        while at >= 0:
            data[at:at + 16] = new
            edited += 1
            at = data.find(old, at + 16)
    if edited != len(reads):
        fail('found %d digest entries of the %d read-backs in the trace' % (edited, len(reads)))
    # glMap1f(GL_MAP1_VERTEX_4, 0.125, 0.875, stride 65536, order 2): the
    # stride (svari: uvari(v << 1), 3 bytes) becomes 1048575, as many bytes
    old = struct.pack('<ff', 0.125, 0.875)[4:] + bytes([0x80, 0x80, 0x08, 0x04])
    at = data.find(old)
    if at < 0 or data.find(old, at + 1) >= 0:
        fail('glMap1f\'s arguments not found once in the trace')
    data[at + 4:at + 7] = bytes([0xfe, 0xff, 0x7f])
    # glBindBuffer renamed (its OpDeclFunc name): the replay skips it, so
    # glDrawArraysIndirect finds no indirect buffer
    at = [m.start() for m in re.finditer(rb'glBindBuffer(?![A-Za-z0-9_])', bytes(data))]
    if len(at) != 1:
        fail('glBindBuffer\'s name found %d times in the trace, not once' % len(at))
    data[at[0] + 11] = ord('X')
    with open(path, 'wb') as f:
        f.write(data)
    r = run([a.wip15, 'replay', '--check', path])
    m = done.search(r.stdout)
    if r.returncode != 1 or 'Sanitizer' in r.stderr or 'runtime error' in r.stderr:
        fail('replay --check of the edited trace: exit %d (1 expected)\n%s%s' % (r.returncode, r.stdout,
                                                                                 r.stderr[-3000:]))
    if 'glDrawArraysIndirect' not in r.stderr or 'no buffer bound there' not in r.stderr:
        fail('replay --check of the edited trace: no word of the indirect draw without its buffer:\n'
             + r.stderr)
    differ = re.findall(r'parameter \w+: the 16 bytes read back differ', r.stderr)
    # and one error value: the glBufferData of the unbound target fails
    # (GL_INVALID_OPERATION), read by the glGetError after the draw
    stray = 'glGetError returned 0x0000 when recorded, 0x0502 now'
    if (not m or int(m.group(3)) != edited + 1 or len(differ) != edited or r.stderr.count(stray) != 1
            or int(m.group(2)) != len(errors)):
        fail('replay --check of the edited trace: %d mismatches expected, one per edited read-back and '
             'the glBufferData without its buffer:\n%s%s' % (edited + 1, r.stdout, r.stderr))
    print('ok: %d read-backs edited to 16 bytes, a glMap1f stride to 1048575, glBindBuffer renamed: '
          '%d mismatches, no crash, %s GL errors compared' % (edited, edited + 1, m.group(2)))


def kind_data(a):
    kind_selfcheck(a, a.trace)


def kind_usage(a):
    cases = [([], 2), (['--checksum-format', 'sha1', a.trace], 2), (['--snapshot', 'x-y', a.trace], 2),
             (['--frames', 'nope', a.trace], 2), (['--snapshot-dir', '/tmp', a.trace], 2),
             (['--benchmark', '--checksums', a.trace], 2), (['--bogus', a.trace], 2),
             ([a.trace, a.trace], 2), (['/nonexistent/trace.wip15'], 1), (['--help'], 0),
             (['-q', a.trace], 0), (['-q', '--benchmark', a.trace], 0)]
    for args, want in cases:
        r = run([a.wip15, 'replay'] + args)
        if r.returncode != want:
            fail('wip15 replay %s: exit %d, expected %d\n%s' % (' '.join(args), r.returncode, want,
                                                                r.stderr))
    r = run([a.wip15, 'replay', '-q', '--benchmark', a.trace])
    if not re.fullmatch(r'replayed \d+ calls in [\d.]+ s: \d+ calls/s, 2 frames: [\d.]+ frames/s\n',
                        r.stdout):
        fail('unexpected --benchmark output %r' % r.stdout)
    print('ok: %d usage cases' % len(cases))


def dump_calls(wip15, path):
    r = subprocess.run([wip15, 'dump', '--json', path], stdout=subprocess.PIPE, text=True)
    return [json.loads(ln) for ln in r.stdout.splitlines()]


def drop_call(wip15, path, pick):
    """Remove from the uncompressed trace at path the call that pick(calls)
    returns the index of (calls: `wip15 dump --json` objects)."""
    calls = dump_calls(wip15, path)
    i = pick(calls)
    data = open(path, 'rb').read()
    end = calls[i + 1]['offset'] if i + 1 < len(calls) else len(data)
    with open(path, 'wb') as f:
        f.write(data[:calls[i]['offset']] + data[end:])
    return 'the call %s removed' % calls[i]['function']


def kind_drawcheck(a, path):
    """arrays_egl traced, then damaged (a call removed, an index edited);
    the replay must refuse the draw that would read past its copies, not
    crash."""

    def restart_index(calls):
        # the first glPrimitiveRestartIndex(65535): the restart index of
        # the draw after it stays 0, so index 65535 reads vertex 65535
        return next(i for i, c in enumerate(calls) if c['function'] == 'glPrimitiveRestartIndex')

    def index_memory(calls):
        # the wip15ClientMemory of the second of the three index arrays of
        # glMultiDrawElementsBaseVertex: two of its pointers lead nowhere
        d = next(i for i, c in enumerate(calls) if c['function'] == 'glMultiDrawElementsBaseVertex')
        mem = [i for i in range(d - 1, 0, -1) if calls[i]['function'] == 'wip15ClientMemory']
        return sorted(mem[:3])[1]

    def edit_buffer(target, size, fmt, at, old, new, what):
        # the data of the first glBufferData(target) (size bytes, stored
        # uncompressed 9 bytes after the blob's offset): the value at byte
        # `at` becomes `new`
        def damage(path):
            calls = dump_calls(a.wip15, path)
            c = next(c for c in calls if c['function'] == 'glBufferData' and c['args'][0]['value'] == target)
            blob = c['args'][2]
            if blob['method'] != 'none' or blob['size'] != size:
                fail('%s: the buffer data is not %d bytes stored as they are: %r' % (what, size, blob))
            data = bytearray(open(path, 'rb').read())
            if struct.unpack_from(fmt, data, blob['offset'] + 9 + at)[0] != old:
                fail('%s: the value at byte %d of the buffer data is not %d' % (what, at, old))
            struct.pack_into(fmt, data, blob['offset'] + 9 + at, new)
            open(path, 'wb').write(data)
            return '%s edited from %d to %d' % (what, old, new)
        return damage

    cases = [('restart', lambda p: drop_call(a.wip15, p, restart_index), 'glDrawElements',
              'of client array 0x8074 (0)'),
             ('multidraw', lambda p: drop_call(a.wip15, p, index_memory), 'glMultiDrawElementsBaseVertex',
              'parameter indices: element 0 points at client memory the trace does not hold'),
             # element buffer {0xAAAA x4, 33, 30, 31, 40, 32, 34}: index 40
             # selects vertex 28672 of a client array held for 30 to 40
             ('buffers', edit_buffer(0x8893, 20, '<H', 14, 40, 0x7000, 'an index in the element buffer'),
              'glDrawElements', 'it reads elements 30 to 28672 of client array 0x8074 (0)'),
             # draw-indirect buffer {3, 1, 20, 0, ...}: the first command's
             # first vertex, read by a client array held for 20 to 22
             ('indirect', edit_buffer(0x8F3F, 36, '<I', 8, 20, 30000, 'a command in the draw-indirect buffer'),
              'glDrawArraysIndirect', 'it reads elements 30000 to 30002 of client array 0x8074 (0)')]
    for case, damage, func, words in cases:
        for f in (path, path[:-len('.wip15')] + '.wtf-trace'):
            if os.path.exists(f):
                os.unlink(f)  # else the tracer picks another name
        r = run([a.wip15, 'trace', '-q', '--stream', 'none', '-o', path, '--'] + a.prog + [case, os.devnull])
        if r.returncode != 0:
            fail('%s: traced program exited %d:\n%s%s' % (case, r.returncode, r.stdout, r.stderr))
        r = run([a.wip15, 'replay', '--check', path])
        if r.returncode != 0 or r.stderr:
            fail('%s: replay --check of the trace as recorded: exit %d\n%s%s' % (case, r.returncode, r.stdout,
                                                                                 r.stderr))
        damaged = damage(path)
        r = run([a.wip15, 'replay', '--check', path])
        if r.returncode not in (0, 1) or 'Sanitizer' in r.stderr or 'runtime error' in r.stderr:
            fail('%s: replay --check with %s: exit %d (0 or 1 expected)\n%s%s' % (
                case, damaged, r.returncode, r.stdout, r.stderr[-3000:]))
        if not re.search(r'warning: %s .*%s' % (func, re.escape(words)), r.stderr):
            fail('%s: no warning that %s was not replayed (%r):\n%s' % (case, func, words, r.stderr))
        print('ok: %s with %s: %s not replayed, no crash' % (case, damaged, func))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('kind', choices=['frames', 'selfcheck', 'gears', 'bench', 'data',
                                     'usage', 'midstart', 'order', 'timing', 'progress', 'window',
                                     'pixmap', 'bounded', 'drawcheck'])
    ap.add_argument('--load-wtf')
    ap.add_argument('--wip15', default='wip15')
    ap.add_argument('--window', action='store_true')
    ap.add_argument('--warn', action='append')
    ap.add_argument('--no-warn', action='store_true')
    ap.add_argument('--seconds', type=float, default=3)
    ap.add_argument('--trace')
    ap.add_argument('--keep')
    argv = sys.argv[1:]
    prog = []
    if '--' in argv:
        i = argv.index('--')
        argv, prog = argv[:i], argv[i + 1:]
    a = ap.parse_args(argv)
    a.prog = prog
    if a.kind in ('data', 'usage'):
        if not a.trace:
            ap.error('%s needs --trace' % a.kind)
        return {'data': kind_data, 'usage': kind_usage}[a.kind](a)
    if not a.prog:
        ap.error('PROGRAM missing')
    d = a.keep or tempfile.mkdtemp(prefix='w15replay.')
    os.makedirs(d, exist_ok=True)
    try:
        path = os.path.join(d, os.path.basename(a.prog[0]) + '.wip15')
        if os.path.exists(path):
            os.unlink(path)
        if a.kind == 'midstart':
            return kind_midstart(a, a.prog, path)
        if a.kind == 'bounded':
            return kind_bounded(a, path)
        if a.kind == 'drawcheck':
            return kind_drawcheck(a, path)
        if a.kind == 'gears':
            trace_for(a, a.prog, path, a.seconds)
        else:
            trace(a, a.prog, path)
        if a.kind in ('frames', 'gears'):
            kind_frames(a, path)
        elif a.kind == 'selfcheck':
            kind_selfcheck(a, path)
        elif a.kind == 'order':
            kind_order(a, path)
        elif a.kind == 'timing':
            kind_timing(a, path)
        elif a.kind == 'progress':
            kind_progress(a, path)
        elif a.kind == 'window':
            kind_window(a, path)
        elif a.kind == 'pixmap':
            kind_pixmap(a, path)
        else:
            print(replay(a, path, '-q', '--benchmark').stdout, end='')
    finally:
        if not a.keep:
            shutil.rmtree(d, ignore_errors=True)
    return 0


if __name__ == '__main__':
    sys.exit(main())
