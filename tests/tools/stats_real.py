#!/usr/bin/env python3
"""stats_real.py -- `wip15 stats` bytes by kind on real traces (tools.stats_real).

    stats_real.py --wip15 WIP15 --tapp W15_TAPP --work DIR

Traces tests/tracer's tapp (headless EGL/GLES) with `wip15 trace`:
`basic` (shaders, a 4 KiB buffer upload, glReadPixels), the same with
--readback-data, and `pixels` (texture uploads and read-backs).  For each,
`wip15 stats --json` must account for every byte of the (uncompressed)
trace file exactly once, and each kind must agree with what `wip15 dump
--json` shows: the calls, the blobs of uploads and pixel transfers, the
read-back digests, the pseudo-calls.  The text table must give the same
numbers.  Exit 0 pass, 1 fail, 77 skip (tapp does not run here).
"""

import argparse
import json
import os
import subprocess
import sys

PSEUDO_KINDS = {'wip15ClientMemory': 'client arrays', 'wip15ClientMemorySame': 'client arrays',
                'wip15ClientArray': 'client arrays',
                'wip15BufferWrite': 'mapped writes', 'wip15FrameDigest': 'frame digests'}
BUFFER_UPLOADS = ('glBufferData', 'glBufferSubData')
PIXEL_UPLOADS = ('glTexImage2D', 'glTexSubImage2D', 'glTexImage3D', 'glTexSubImage3D',
                 'glCompressedTexImage2D', 'glCompressedTexSubImage2D')


class Fail(Exception):
    pass


def run(cmd, env=None):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, timeout=120)
    return p.returncode, p.stdout.decode('utf-8', 'replace'), p.stderr.decode('utf-8', 'replace')


def blobs(a):
    """Data blobs in a dumped argument (a blob is a dict with size/stored)."""
    if isinstance(a, dict) and 'stored' in a and 'size' in a:
        return [a]
    if isinstance(a, list):
        return [b for x in a for b in blobs(x)]
    return []


def check(wip15, trace, name, with_data):
    rc, out, err = run([wip15, 'stats', '--json', trace])
    if rc != 0:
        raise Fail('%s: wip15 stats failed: %s' % (name, err))
    st = json.loads(out)
    kinds = {k['kind']: k for k in st['bytes_by_kind']}
    size = os.path.getsize(trace)
    if st['stream_bytes'] != size:
        raise Fail('%s: stream_bytes %d, the file has %d' % (name, st['stream_bytes'], size))
    total = sum(k['bytes_stored'] for k in st['bytes_by_kind'])
    if total != size:
        raise Fail('%s: the kinds add up to %d bytes, the file has %d' % (name, total, size))
    rc, out, err = run([wip15, 'dump', '--json', trace])
    if rc != 0:
        raise Fail('%s: wip15 dump failed: %s' % (name, err))
    calls = [json.loads(l) for l in out.splitlines() if l.strip()]
    real = [c for c in calls if not c['function'].startswith('wip15')]
    want = {'call arguments': len(real)}
    for c in calls:
        f = c['function']
        if f.startswith('wip15'):
            k = PSEUDO_KINDS.get(f, 'other pseudo-calls')
            want[k] = want.get(k, 0) + 1
    dig = sum(1 for c in real for a in c['args'] if isinstance(a, dict) and 'readback' in a)
    dig_data = [b for c in real if c['function'] == 'glReadPixels' for b in blobs(c['args'][6])]
    want['readback digests'] = dig + (len(dig_data) if with_data else 0)
    for k, n in want.items():
        if kinds[k]['items'] != n:
            raise Fail('%s: %s: %d items, the dump shows %d' % (name, k, kinds[k]['items'], n))
    for k, fns in (('buffer data', BUFFER_UPLOADS), ('pixel data', PIXEL_UPLOADS)):
        bs = [b for c in real if c['function'] in fns for a in c['args'] for b in blobs(a) if b['size']]
        got = (kinds[k]['items'], kinds[k]['bytes'], kinds[k]['bytes_stored'])
        exp = (len(bs), sum(b['size'] for b in bs), sum(b['stored'] for b in bs))
        if got != exp:
            raise Fail('%s: %s (items, bytes, stored) %s, the dump shows %s' % (name, k, got, exp))
    if with_data:
        exp = (len(dig_data), sum(b['size'] for b in dig_data))
        got = (kinds['readback data']['items'], kinds['readback data']['bytes'])
        if not dig_data or got != exp:
            raise Fail('%s: readback data (items, bytes) %s, the dump shows %s' % (name, got, exp))
    # the text table: same numbers
    rc, out, err = run([wip15, 'stats', trace])
    rows = {}
    in_table = False
    for line in out.splitlines():
        if line.startswith('bytes by kind'):
            in_table = True
            continue
        if in_table:
            if not line.strip():
                break
            w = line.rsplit(None, 4)
            if line.startswith('total'):
                rows['total'] = int(line.split()[-1])
            elif not line.startswith('kind'):
                rows[w[0]] = (int(w[1]), int(w[2]), int(w[3]))
    for k in kinds.values():
        if rows.get(k['kind']) != (k['items'], k['bytes'], k['bytes_stored']):
            raise Fail('%s: text row %r %s, JSON %s' % (name, k['kind'], rows.get(k['kind']), k))
    if rows.get('total') != size:
        raise Fail('%s: text total %s, file %d' % (name, rows.get('total'), size))
    return kinds


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--wip15', required=True)
    ap.add_argument('--tapp', required=True)
    ap.add_argument('--work', required=True)
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    env = dict(os.environ, EGL_PLATFORM='surfaceless')
    rc, out, err = run([args.tapp, 'basic'], env)
    if rc != 0:
        print('SKIP: tapp does not run here: %s' % err.strip())
        return 77
    try:
        for name, mode, extra in (('basic', 'basic', []), ('basic_data', 'basic', ['--readback-data']),
                                  ('pixels', 'pixels', [])):
            trace = os.path.join(args.work, name + '.wip15')
            if os.path.exists(trace):
                os.unlink(trace)
            rc, out, err = run([args.wip15, 'trace', '-o', trace, '--timing', 'off', '--stream', 'none'] +
                               extra + ['--', args.tapp, mode], env)
            if rc != 0:
                raise Fail('%s: wip15 trace failed (%d): %s' % (name, rc, err))
            kinds = check(args.wip15, trace, name, bool(extra))
            if name == 'basic' and (kinds['buffer data']['bytes'] < 4096 or
                                    kinds['readback digests']['items'] < 1):
                raise Fail('basic: no buffer data or no read-back digest: %s' % kinds)
            if name == 'pixels' and kinds['pixel data']['items'] < 1:
                raise Fail('pixels: no pixel data: %s' % kinds)
    except (Fail, subprocess.TimeoutExpired, KeyError, ValueError) as e:
        print('FAIL(tools.stats_real): %s' % e)
        return 1
    print('tools.stats_real: ok')
    return 0


if __name__ == '__main__':
    sys.exit(main())
