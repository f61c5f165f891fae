#!/usr/bin/env node
// check_trace.js WIP15 APP DIR -- end to end: `wip15 trace --timing all`
// runs wtf_gl_app (headless EGL, 2 threads), then the real WTF loader
// (WIP15_WTF_LOADER) must see one zone per thread named "<tid>:<name>", one
// call scope per call recorded in the WIP15 trace (same count per thread as
// `wip15 stats`, call arguments 0..n-1 = the per-thread sequence numbers),
// frames = swaps (frame 0 runs from the thread's first GL call to its first
// swap, every later frame from one swap to the next), the debug
// groups by name, the markers; and `wip15 frames` agrees.
'use strict';
if (!process.env.WIP15_WTF_LOADER && process.env.WIP15_WTF_LOADER_DEFAULT)
  process.env.WIP15_WTF_LOADER = process.env.WIP15_WTF_LOADER_DEFAULT;
var cp = require('child_process');
var fs = require('fs');
var path = require('path');
var wip15 = process.argv[2], app = process.argv[3], dir = process.argv[4];
var failures = 0;
function fail(m) { console.error('FAIL: ' + m); failures++; }
function check(c, m) { if (!c) fail(m); }
var loader = process.env.WIP15_WTF_LOADER;
if (!loader || !fs.existsSync(loader)) { fail('the real WTF loader is missing: WIP15_WTF_LOADER=' + loader); process.exitCode = 1; return; }
fs.mkdirSync(dir, {recursive: true});
var trace = path.join(dir, 'glapp.wip15'), wtfFile = path.join(dir, 'glapp.wtf-trace');
[trace, wtfFile].forEach(function (f) { try { fs.unlinkSync(f); } catch (e) {} });
var env = Object.assign({}, process.env, {EGL_PLATFORM: 'surfaceless'});
var r = cp.spawnSync(wip15, ['trace', '--timing', 'all', '--gpu', 'on', '-o', trace, app], {encoding: 'utf8', env: env});
check(r.status === 0, 'wip15 trace exited ' + r.status + ': ' + r.stderr + r.stdout);
check(fs.existsSync(wtfFile), 'no ' + wtfFile);
if (failures) { process.exitCode = 1; return; }
var stats = JSON.parse(cp.spawnSync(wip15, ['stats', '--json', trace], {encoding: 'utf8'}).stdout);
var l = cp.spawnSync(process.execPath, [path.join(__dirname, 'load_wtf.js'), '--calls', wtfFile], {encoding: 'utf8', maxBuffer: 1 << 30});
var s = JSON.parse(l.stdout);
check(s.ok, 'real loader: ' + s.error);
var cpuZones = s.zones.filter(function (z) { return z.type === 'script'; });
check(cpuZones.length === stats.threads.length, 'zones ' + cpuZones.length + ' != threads ' + stats.threads.length);
var main = {frames: 30, group: 'Shadow pass', n: 30}, side = {frames: 12, group: 'Side pass', n: 12};
stats.threads.forEach(function (t) {
  var name = t.tid + ':' + t.name;
  var z = s.zones.filter(function (z) { return z.name === name; })[0];
  if (!z) { fail('no zone ' + name + ' in ' + s.zones.map(function (z) { return z.name; })); return; }
  var seqs = z.calls.filter(function (c) { return c[1] !== null; }).map(function (c) { return c[1]; }).sort(function (a, b) { return a - b; });
  check(seqs.length === t.calls, name + ': ' + seqs.length + ' call scopes, ' + t.calls + ' calls in the WIP15 trace');
  for (var i = 0; i < seqs.length; i++) if (seqs[i] !== i) { fail(name + ': call numbers not 0..n-1 at ' + i); break; }
  var e = t.name === 'side' ? side : main;
  check(z.frames === e.frames, name + ': frames ' + z.frames + ' != ' + e.frames);
  check(z.scopes[e.group] === e.n && z.scopes['inner pass'] === e.n, name + ': debug groups ' + JSON.stringify(z.scopes));
  check(z.scopes.eglSwapBuffers === e.n, name + ': eglSwapBuffers scopes ' + z.scopes.eglSwapBuffers);
  check(z.timeStamps.filter(function (m) { return m === 'frame marker'; }).length === e.n, name + ': markers ' + z.timeStamps.length);
  // GPU time: the zone "<name> GPU" (native_gpu) has one wip15.gpuFrame
  // scope per measured frame, numbered like the thread's frames 1..n-1
  // (frame 0 has no start query; results are read when ready, never
  // waited for, so the last few frames may be missing; llvmpipe has them
  // within two frames)
  var g = s.zones.filter(function (x) { return x.name === name + ' GPU'; })[0];
  if (!g) { fail(name + ': no GPU zone'); return; }
  check(g.type === 'native_gpu', name + ' GPU: type ' + g.type);
  var gf = g.calls.filter(function (c) { return c[0] === 'wip15.gpuFrame'; });
  // A frame is measured when one of the 8 query slots is free at its start
  // (never waited for: with 8 frames in flight and none ready the frame is
  // skipped); the program calls glFinish before its last MakeCurrent, which
  // collects every frame in flight.  So frames 1..8 (all, with fewer) are
  // always measured, whatever the driver's delay.
  var first = Math.min(e.frames - 1, 8);
  check(gf.length >= first && gf.length <= e.frames - 1,
        name + ' GPU: ' + gf.length + ' frames measured of ' + (e.frames - 1) + ' (at least ' + first + ')');
  for (var k = 0; k < first && k < gf.length; k++)
    if (gf[k][1] !== k + 1) { fail(name + ' GPU: frame ' + (k + 1) + ' not measured: ' + JSON.stringify(gf.map(function (c) { return c[1]; }))); break; }
  gf.forEach(function (c, k) {
    var prev = k ? gf[k - 1][1] : 0;
    if (!(c[1] > prev && c[1] < e.frames) || !(c[3] >= c[2])) fail(name + ' GPU: scope ' + k + ' = ' + JSON.stringify(c));
  });
});
var v = cp.spawnSync(wip15, ['frames', '--json', wtfFile], {encoding: 'utf8'});
check(v.status === 0, 'wip15 frames: ' + v.stderr);
if (v.status === 0) {
  var f = JSON.parse(v.stdout);
  check(f.frames === 30 && !/:side$/.test(f.zone), 'wip15 frames: ' + f.frames + ' frames in ' + f.zone);
}
// default (no --gpu on): no GPU zone (and no timer query in the program's context)
var trace2 = path.join(dir, 'nogpu.wip15'), wtf2 = path.join(dir, 'nogpu.wtf-trace');
[trace2, wtf2].forEach(function (f) { try { fs.unlinkSync(f); } catch (e) {} });
var r2 = cp.spawnSync(wip15, ['trace', '-q', '-o', trace2, app], {encoding: 'utf8', env: env});
check(r2.status === 0, 'wip15 trace (GPU time off) exited ' + r2.status + ': ' + r2.stderr);
var l2 = JSON.parse(cp.spawnSync(process.execPath, [path.join(__dirname, 'load_wtf.js'), wtf2], {encoding: 'utf8'}).stdout);
check(l2.ok && l2.zones.length === 2 && l2.zones.every(function (z) { return z.type === 'script'; }),
      'GPU time off: zones ' + JSON.stringify(l2.zones.map(function (z) { return [z.name, z.type]; })));
process.exitCode = failures ? 1 : 0;
if (!failures) console.log('ok: end to end');
