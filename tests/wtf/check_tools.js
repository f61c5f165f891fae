#!/usr/bin/env node
// check_tools.js WHAT ... -- drives the `wip15` timing tools for CTest.
//
//   roundtrip WIP15 TEST_EMITTER DIR   .wtf-trace -> .wtf-json -> .wtf-trace:
//        every event kept, the real loader (WIP15_WTF_LOADER) opens the
//        result, `wip15 frames --json` prints the same numbers on all forms
//   fixture WIP15 FIXTURES DIR         `wip15 frames` on hand-computed fixtures
//   export WIP15 TEST_CHROME_JSON TEST_EMITTER DIR
//        `wip15 export --chrome` validated with json-c (test_chrome_json)
'use strict';
var cp = require('child_process');
var fs = require('fs');
var path = require('path');
var testlib = require('./testlib');
var fail = testlib.fail, check = testlib.check;
function run(bin, args) {
  var r = cp.spawnSync(bin, args, {encoding: 'utf8', maxBuffer: 1 << 30});
  if (r.status !== 0) fail(path.basename(bin) + ' ' + args.join(' ') + ' exited ' + r.status + ': ' + r.stderr);
  return r.stdout || '';
}
function near(a, b, what) { check(Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(b)), what + ': ' + a + ' != ' + b); }
var what = process.argv[2];

if (what === 'roundtrip') {
  var wip15 = process.argv[3], emitter = process.argv[4], dir = process.argv[5];
  fs.mkdirSync(dir, {recursive: true});
  if (!testlib.haveLoader()) { process.exitCode = 1; return; }
  var a = path.join(dir, 'rt.wtf-trace'), j = path.join(dir, 'rt.wtf-json'), b = path.join(dir, 'rt2.wtf-trace'), j2 = path.join(dir, 'rt2.wtf-json');
  run(emitter, ['basic', a]);
  run(wip15, ['wtf-json', a, j]);
  run(wip15, ['wtf-json', j, b]);
  run(wip15, ['wtf-json', b, j2]);
  var ja = fs.readFileSync(j, 'utf8'), jb = fs.readFileSync(j2, 'utf8');
  check(ja === jb, 'trace -> json -> trace -> json is not stable');
  var na = ja.split('\n').filter(function (l) { return l.indexOf('{"event"') === 0 || l.indexOf('{"type":"wtf.event.define"') === 0; }).length;
  // the real loader opens the converted file and sees the same zones/events
  function load(f) {
    var r = testlib.loadWtf(f);
    var s = JSON.parse(r.stdout);
    check(s.ok, 'loader rejected ' + f + ': ' + s.error);
    return s;
  }
  var sa = load(a), sb = load(b);
  check(JSON.stringify(sa.zones) === JSON.stringify(sb.zones), 'the loader sees different zones/events in the converted file');
  // count events in the binary: wip15 reads both identically
  var fa = JSON.parse(run(wip15, ['frames', '--json', '--top', '0', a]));
  var fj = JSON.parse(run(wip15, ['frames', '--json', '--top', '0', j]));
  var fb = JSON.parse(run(wip15, ['frames', '--json', '--top', '0', b]));
  delete fa.file; delete fj.file; delete fb.file;
  check(JSON.stringify(fa) === JSON.stringify(fj), 'frames differ between .wtf-trace and .wtf-json');
  check(JSON.stringify(fa) === JSON.stringify(fb), 'frames differ after the round trip');
  check(fa.frames === 40 && fa.calls === 3 * 40 * 28, 'frames ' + fa.frames + ' calls ' + fa.calls);
  check(na > 3000, 'too few events in the JSON: ' + na);
} else if (what === 'fixture') {
  var wip15 = process.argv[3], fixtures = process.argv[4], dir = process.argv[5];
  fs.mkdirSync(dir, {recursive: true});
  // frames20.wtf-json (no final ']', trailing comma): 20 frames of
  // 12,10,14,50,10,12,16,10,14,12,30,10,14,16,12,10,20,14,12,14 ms.
  // Sorted: 10x5, 12x5, 14x5, 16x2, 20, 30, 50; sum 312.
  //   mean 312/20 = 15.6, fps 1000/15.6 = 64.1025641
  //   median (d[9]+d[10])/2 = (12+14)/2 = 13
  //   p90: rank ceil(18) = 18 -> 20;  p95: rank 19 -> 30;  p99: rank ceil(19.8)=20 -> 50
  //   1% low: ceil(0.2) = 1 slowest frame, 1000/50 = 20 fps; 0.1% low likewise 20
  //   worst: frame 4 (50 ms), 11 (30), 17 (20); every frame has 3 calls
  //   (frame 1: 5, glFinish with glFlush nested inside)
  //   glDrawArrays 40 x 1 ms = 40 ms; glClear 20 x 0.5 ms = 10 ms;
  //   glFinish 3 ms inclusive, 2 ms self; glFlush 1 ms
  // (stored as .in: the repository ignores *.wtf-json; the tools choose the
  // reader by extension)
  var f20 = path.join(dir, 'frames20.wtf-json');
  fs.copyFileSync(path.join(fixtures, 'frames20.wtf-json.in'), f20);
  var s = JSON.parse(run(wip15, ['frames', '--json', '--top', '0', f20]));
  check(s.frames === 20, 'frames ' + s.frames);
  near(s.frame_ms.mean, 15.6, 'mean');
  near(s.fps, 1000 / 15.6, 'fps');
  near(s.frame_ms.median, 13, 'median');
  near(s.frame_ms.p90, 20, 'p90');
  near(s.frame_ms.p95, 30, 'p95');
  near(s.frame_ms.p99, 50, 'p99');
  near(s.frame_ms.max, 50, 'max');
  near(s.low_fps['1%'], 20, '1% low');
  near(s.low_fps['0.1%'], 20, '0.1% low');
  check(s.worst[0].frame === 4 && s.worst[1].frame === 11 && s.worst[2].frame === 17, 'worst frames ' + JSON.stringify(s.worst.slice(0, 3)));
  check(s.worst[0].calls === 3, 'calls in frame 4: ' + s.worst[0].calls);
  var fn = {};
  s.functions.forEach(function (f) { fn[f.name] = f; });
  check(s.functions[0].name === 'glDrawArrays', 'top function ' + s.functions[0].name);
  near(fn.glDrawArrays.total_ms, 40, 'glDrawArrays total'); check(fn.glDrawArrays.count === 40, 'glDrawArrays count');
  near(fn.glDrawArrays.mean_us, 1000, 'glDrawArrays mean');
  near(fn.glClear.total_ms, 10, 'glClear total');
  near(fn.glFinish.total_ms, 3, 'glFinish inclusive'); near(fn.glFinish.self_ms, 2, 'glFinish self');
  near(fn.glFlush.total_ms, 1, 'glFlush');
  // --skip 4 leaves out 12,10,14,50: 16 frames, sum 226 -> mean 14.125;
  // sorted 10x4, 12x4, 14x4, 16x2, 20, 30: median (12+14)/2 = 13, max 30,
  // worst frame 11 (30 ms)
  var k = JSON.parse(run(wip15, ['frames', '--json', '--skip', '4', f20]));
  check(k.frames === 16, '--skip 4: frames ' + k.frames);
  near(k.frame_ms.mean, 14.125, '--skip 4 mean');
  near(k.frame_ms.median, 13, '--skip 4 median');
  near(k.frame_ms.max, 30, '--skip 4 max');
  check(k.worst[0].frame === 11, '--skip 4: worst frame ' + k.worst[0].frame);
  // CSV: one row per frame
  var csv = run(wip15, ['frames', '--csv', f20]).trim().split('\n');
  check(csv.length === 21 && csv[0] === 'frame,start_ms,duration_ms,calls', 'csv header/rows');
  check(csv[4] === '4,37.000,50.000,3', 'csv row of frame 4: ' + csv[4]);
  // 150 frames: 148 x 10 ms, one 40 ms (frame 50), one 60 ms (frame 100):
  //   mean (1480 + 100) / 150 = 10.5333.. ms; median 10; p95 rank 143 -> 10;
  //   p99 rank ceil(148.5) = 149 -> 40; max 60
  //   1% low: ceil(1.5) = 2 slowest: (60 + 40) / 2 = 50 ms -> 20 fps
  //   0.1% low: ceil(0.15) = 1 slowest: 60 ms -> 16.666.. fps
  var L = ['[', '{"type":"wtf.json.header","timebase":5}', ','];
  var t = 1;
  L.push('{"event":"wtf.zone#create","time":0,"args":[1,"7:gl","script",null]},{"event":"wtf.zone#set","time":0,"args":[1]}');
  for (var n = 1; n <= 150; n++) {
    var d = n === 50 ? 40 : n === 100 ? 60 : 10;
    L.push(',{"event":"wtf.timing#frameStart","time":' + t + ',"args":[' + n + ']}');
    t += d;
    L.push(',{"event":"wtf.timing#frameEnd","time":' + t + ',"args":[' + n + ']}');
  }
  var f150 = path.join(dir, 'frames150.wtf-json');
  fs.writeFileSync(f150, L.join('\n') + '\n]\n');
  s = JSON.parse(run(wip15, ['frames', '--json', f150]));
  check(s.frames === 150, 'frames150 count');
  near(s.frame_ms.mean, 1580 / 150, 'mean 150');
  near(s.frame_ms.median, 10, 'median 150');
  near(s.frame_ms.p95, 10, 'p95 150');
  near(s.frame_ms.p99, 40, 'p99 150');
  near(s.frame_ms.max, 60, 'max 150');
  near(s.low_fps['1%'], 20, '1% low 150');
  near(s.low_fps['0.1%'], 1000 / 60, '0.1% low 150');
  // the SVG chart is written and is SVG
  var svg = path.join(dir, 'frames150.svg');
  run(wip15, ['frames', '--svg', svg, f150]);
  var txt = fs.existsSync(svg) ? fs.readFileSync(svg, 'utf8') : '';
  check(/^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/.test(txt) && /<\/svg>\s*$/.test(txt), 'svg output');
  check(txt.indexOf('p99 40.00 ms') >= 0 && txt.indexOf('median 10.00 ms') >= 0, 'svg labels');
} else if (what === 'export') {
  var wip15 = process.argv[3], checker = process.argv[4], emitter = process.argv[5], dir = process.argv[6];
  fs.mkdirSync(dir, {recursive: true});
  var tr = path.join(dir, 'ex.wtf-trace'), out = path.join(dir, 'ex.json');
  run(emitter, ['basic', tr]);
  run(wip15, ['export', '--chrome', out, tr]);
  // 3 threads x 40 frames x 28 calls; 120 frames; 3 threads
  run(checker, [out, String(3 * 40 * 28), '120', '3']);
} else {
  fail('unknown check ' + what);
}
process.exitCode = testlib.failures() ? 1 : 0;
if (!testlib.failures()) console.log('ok: ' + what);
