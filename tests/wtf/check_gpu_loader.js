#!/usr/bin/env node
// check_gpu_loader.js TEST_GPU_TOOLS DIR -- the real WTF loader opens a
// capture with GPU time (docs/WTF.md "GPU time in the tools").
//
// `TEST_GPU_TOOLS --write DIR` writes DIR/gpu.wtf-trace (and its later
// generations) with the real emitter and prints what must be there; each
// generation is loaded with load_wtf.js (WIP15_WTF_LOADER): every file
// loads, the zone "21:main GPU" has type "native_gpu" and holds only
// wip15.gpuFrame scopes, never nested, and over all generations there is one
// per measured frame with the expected durations, in frame order; the CPU
// zone "21:main" keeps every frame.
'use strict';
var cp = require('child_process');
var fs = require('fs');
var path = require('path');
var testlib = require('./testlib');
var fail = testlib.fail, check = testlib.check;

var bin = process.argv[2], dir = process.argv[3];
if (!bin || !dir) {
  console.error('usage: node check_gpu_loader.js TEST_GPU_TOOLS DIR');
  process.exit(2);
}
if (!testlib.haveLoader())
  process.exit(1);
fs.mkdirSync(dir, {recursive: true});
fs.readdirSync(dir).forEach(function (f) {
  if (/^gpu(\.\d+)?\.wtf-trace$/.test(f)) fs.unlinkSync(path.join(dir, f));
});
var w = cp.spawnSync(bin, ['--write', dir], {encoding: 'utf8'});
check(w.status === 0, 'test_gpu_tools --write exited ' + w.status + ': ' + w.stderr);
var want = JSON.parse(w.stdout);

var files = fs.readdirSync(dir).filter(function (f) { return /^gpu(\.\d+)?\.wtf-trace$/.test(f); });
files.sort(function (a, b) {
  function g(f) { var m = /^gpu\.(\d+)\./.exec(f); return m ? +m[1] : 0; }
  return g(a) - g(b);
});
check(files.length >= 2, 'expected a rotated capture, got ' + files.join(' '));

var durs = [], frames = 0, gpuScopes = 0, sawType = 0;
files.forEach(function (f) {
  var r = testlib.loadWtf(path.join(dir, f), ['--calls', '--frames']);
  var s;
  try { s = JSON.parse(r.stdout); } catch (e) { fail(f + ': load_wtf.js printed no JSON: ' + r.stderr); return; }
  check(r.status === 0 && s.ok, f + ': the loader rejected the file: ' + s.error);
  s.zones.forEach(function (z) {
    if (z.name === want.gpu_zone) {
      check(z.type === 'native_gpu', f + ': zone ' + z.name + ' has type ' + z.type);
      sawType++;
      Object.keys(z.scopes).forEach(function (k) {
        check(k === 'wip15.gpuFrame', f + ': scope ' + k + ' in the GPU zone');
      });
      gpuScopes += z.scopes['wip15.gpuFrame'] || 0;
      // depth 1: right under the zone's root, never nested
      check(z.maxDepth === 1, f + ': GPU scopes at depth ' + z.maxDepth);
      check(z.frames === 0, f + ': frames in the GPU zone');
      z.calls.forEach(function (c) {
        if (c[0] === 'wip15.gpuFrame') durs.push(c[3] - c[2]);
      });
    } else if (z.name === '21:main') {
      check(z.type === 'script', f + ': zone 21:main has type ' + z.type);
      check(!z.scopes['wip15.gpuFrame'], f + ': GPU scopes in the CPU zone');
      frames += z.frames;
    }
  });
});
check(sawType >= 1, 'no file has the zone ' + want.gpu_zone);
check(gpuScopes === want.gpu_scopes, 'the loader sees ' + gpuScopes + ' GPU frame scopes, expected ' + want.gpu_scopes);
check(durs.length === want.gpu_ms.length, 'GPU scope durations: ' + durs.length + ' of ' + want.gpu_ms.length);
for (var i = 0; i < Math.min(durs.length, want.gpu_ms.length); i++)
  check(Math.abs(durs[i] - want.gpu_ms[i]) < 0.0015, 'GPU scope ' + i + ' lasts ' + durs[i] + ' ms, expected ' + want.gpu_ms[i]);
check(frames === want.frames, 'the loader sees ' + frames + ' frames of 21:main, expected ' + want.frames);
if (testlib.failures()) {
  process.exitCode = 1;
} else {
  console.log('ok: ' + files.length + ' files, ' + gpuScopes + ' GPU frame scopes, ' + frames + ' frames');
}
