#!/usr/bin/env node
// check_emitter.js MODE TEST_EMITTER OUTDIR -- runs `test_emitter MODE`,
// loads what it wrote with the real WTF loader (load_wtf.js) and compares
// with the expectations test_emitter printed.  Exit 0 on success.
'use strict';
// the runtime environment wins over the path CMake was configured with
if (!process.env.WIP15_WTF_LOADER && process.env.WIP15_WTF_LOADER_DEFAULT)
  process.env.WIP15_WTF_LOADER = process.env.WIP15_WTF_LOADER_DEFAULT;
var cp = require('child_process');
var path = require('path');
var fs = require('fs');
var mode = process.argv[2], bin = process.argv[3], dir = process.argv[4], wip15 = process.argv[5];
var loaderJs = path.join(__dirname, 'load_wtf.js');
var failures = 0;
function fail(msg) { console.error('FAIL: ' + msg); failures++; }
function check(cond, msg) { if (!cond) fail(msg); }
if (!process.env.WIP15_WTF_LOADER || !fs.existsSync(process.env.WIP15_WTF_LOADER)) {
  console.error('FAIL: the real WTF loader is missing: WIP15_WTF_LOADER=' + process.env.WIP15_WTF_LOADER);
  process.exitCode = 1;
  return;
}
fs.mkdirSync(dir, {recursive: true});
var out = path.join(dir, mode + '.wtf-trace');
var r = cp.spawnSync(bin, [mode, out], {encoding: 'utf8'});
if (r.status !== 0) {
  console.error(r.stderr);
  fail('test_emitter ' + mode + ' exited with ' + r.status);
  process.exitCode = 1;
  return;
}
var expect = JSON.parse(r.stdout);
function load(file) {
  // our own framing checks (strict: no partial chunk, nothing after the
  // last chunk) when the wip15 command is given
  if (wip15) {
    var v = cp.spawnSync(wip15, ['wtf-json', file, '-'], {encoding: 'utf8', maxBuffer: 1 << 30});
    check(v.status === 0, 'wip15 reader rejected ' + file + ': ' + v.stderr);
  }
  var l = cp.spawnSync(process.execPath, [loaderJs, '--calls', '--frames', file], {encoding: 'utf8', maxBuffer: 1 << 30});
  var s;
  try { s = JSON.parse(l.stdout); } catch (e) { fail('load_wtf.js output for ' + file + ' is not JSON: ' + l.stdout + l.stderr); return null; }
  check(s.ok && l.status === 0, 'real loader rejected ' + file + ': ' + s.error);
  return s;
}
function zone(s, name) {
  for (var i = 0; i < s.zones.length; i++) if (s.zones[i].name === name) return s.zones[i];
  fail('no zone ' + name + ' in ' + JSON.stringify(s.zones.map(function (z) { return z.name; })));
  return null;
}

if (mode === 'basic') {
  var s = load(out);
  if (s) {
    var ez = expect.files[0].zones;
    check(s.zones.length === ez.length, 'zones: ' + s.zones.length + ' != ' + ez.length + ' (one per thread)');
    ez.forEach(function (e) {
      var z = zone(s, e.name);
      if (!z) return;
      check(z.type === 'script', e.name + ' type ' + z.type);
      check(z.frames === e.frames, e.name + ' frames ' + z.frames + ' != ' + e.frames);
      Object.keys(e.scopes).forEach(function (n) {
        check(z.scopes[n] === e.scopes[n], e.name + ' scope "' + n + '": ' + z.scopes[n] + ' != ' + e.scopes[n]);
      });
      check(z.timeStamps.length === e.timeStamps, e.name + ' time stamps ' + z.timeStamps.length + ' != ' + e.timeStamps);
      check(z.maxDepth === e.maxDepth, e.name + ' max depth ' + z.maxDepth + ' != ' + e.maxDepth);
      // every call scope carries the per-thread sequence number 0, 1, 2, ...
      var seqs = z.calls.filter(function (c) { return c[1] !== null; }).map(function (c) { return c[1]; });
      seqs.sort(function (a, b) { return a - b; });
      for (var i = 0; i < seqs.length; i++) if (seqs[i] !== i) { fail(e.name + ' call sequence broken at ' + i); break; }
      // group scopes contain their calls
      var groups = z.calls.filter(function (c) { return c[0] === 'Shadow pass'; });
      check(groups.length && groups.every(function (g) { return g[3] > g[2] || g[3] === g[2]; }), 'group scope times');
    });
    var marks = [];
    s.zones.forEach(function (z) { marks = marks.concat(z.marks); });
    check(marks.some(function (m) { return m.name === 'late' && m.value === 'after the header'; }), 'late metadata mark missing');
    // a pair set again is not marked again; a changed value is
    var late = marks.filter(function (m) { return m.name === 'late'; }).map(function (m) { return m.value; });
    check(JSON.stringify(late) === JSON.stringify(['after the header', 'changed']),
          'late metadata marks: ' + JSON.stringify(late) + ' (want the first value and the change, once each)');
    check(!marks.some(function (m) { return m.name === 'renderer'; }), 'renderer set again after the header was marked again');
  }
} else if (mode === 'rotate') {
  var files = [out, out.replace(/\.wtf-trace$/, '.1.wtf-trace'), out.replace(/\.wtf-trace$/, '.2.wtf-trace')];
  var frames = 0, calls = 0;
  files.forEach(function (f, g) {
    check(fs.existsSync(f), 'missing rotated file ' + f);
    var s = load(f);
    if (!s) return;
    s.zones.forEach(function (z) {
      frames += z.frames;
      z.calls.forEach(function (c) {
        if (c[1] === null) return;
        calls++;
        // call arg = time in ms since the start; loader time is relative to
        // this file's timebase = start + g hours
        var abs = c[2] + g * 3600000;
        check(Math.abs(abs - c[1]) < 2, f + ': call at ' + c[2] + ' ms (abs ' + abs + ') expected ' + c[1]);
        check(c[2] < 4294967, 'time wrapped in ' + f);
      });
      z.frameDurations.forEach(function (d) { check(Math.abs(d - 10) < 0.01, 'split frame, duration ' + d); });
    });
  });
  check(frames === 150, 'frames over all files ' + frames + ' != 150');
  check(calls === 300, 'calls over all files ' + calls + ' != 300');
  check(!fs.existsSync(out.replace(/\.wtf-trace$/, '.3.wtf-trace')), 'unexpected 4th file');
} else if (mode === 'kill') {
  var s = load(out);
  if (s) {
    var z = zone(s, '1:main');
    // every frame the child had flushed before the kill, at most one more
    if (z) check(z.frames >= expect.minFrames && z.frames <= expect.maxFrames,
                 'frames after SIGKILL: ' + z.frames + ', the child had flushed ' + expect.minFrames);
  }
} else if (mode === 'segv') {
  var s = load(out);
  if (s) {
    Object.keys(expect.frames).forEach(function (n) {
      var z = zone(s, n);
      if (z) check(z.frames === expect.frames[n], n + ' frames after SIGSEGV: ' + z.frames + ' != ' + expect.frames[n]);
    });
  }
} else if (mode === 'full') {
  var size = fs.statSync(out).size;
  check(size <= expect.maxBytes, 'file larger than the limit: ' + size);
  var s = load(out);
  if (s) {
    var z = zone(s, '1:main');
    if (z) check(z.frames >= expect.minFrames, 'frames before the disk filled: ' + z.frames);
  }
} else {
  fail('unknown mode ' + mode);
}
process.exitCode = failures ? 1 : 0;
if (!failures) console.log('ok: ' + mode);
