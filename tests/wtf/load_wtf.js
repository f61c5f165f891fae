#!/usr/bin/env node
// load_wtf.js -- load a .wtf-trace with the REAL WTF loader (tracing-framework
// 2015.7.15-1, build-out/wtf_node_js_compiled.js) and print a JSON summary
// on stdout, so tests can assert on what the real viewer would see.
//
//   node load_wtf.js [--calls] [--frames] FILE.wtf-trace
//
// The loader path comes from $WIP15_WTF_LOADER.  Exit status: 0 when the
// loader accepted the file, 1 when it reported an error (summary still
// printed, with "ok": false and "error"), 2 on usage or a missing loader.
//
// Summary: {"ok", "error", "timebase", "zones": [{"name", "type", "events":
// {name: count} (every event, hidden ones included), "scopes": {name: count},
// "scopeCount", "instanceCount", "maxDepth", "frames" (count),
// "frameDurations" (ms, with --frames), "timeStamps": [names in order],
// "marks": [{"name", "value"}], "calls": [[name, call arg (or frame arg), time ms, end ms,
// depth]...] (with --calls)}]}.
'use strict';
var path = require('path');
var args = process.argv.slice(2);
var wantCalls = false, wantFrames = false, file = null;
args.forEach(function (a) {
  if (a === '--calls') wantCalls = true;
  else if (a === '--frames') wantFrames = true;
  else file = a;
});
var loader = process.env.WIP15_WTF_LOADER;
if (!file || !loader) {
  console.error('usage: WIP15_WTF_LOADER=.../wtf_node_js_compiled.js node load_wtf.js [--calls] [--frames] FILE.wtf-trace');
  process.exitCode = 2;
  return;
}
var wtf;
try {
  wtf = require(path.resolve(loader));
} catch (e) {
  console.error('load_wtf.js: cannot load the WTF loader ' + loader + ': ' + e.message);
  process.exitCode = 2;
  return;
}
global.wtf = wtf;

var done = false;
function report(summary) {
  if (done) return;
  done = true;
  process.stdout.write(JSON.stringify(summary, null, 1) + '\n');
  process.exitCode = summary.ok ? 0 : 1;
}
process.on('uncaughtException', function (e) {
  report({ok: false, error: 'exception: ' + (e && e.message ? e.message : String(e)), zones: []});
});
process.on('exit', function () {
  if (!done) {
    process.stdout.write(JSON.stringify({ok: false, error: 'loader never called back', zones: []}) + '\n');
    process.exitCode = 1;
  }
});

function summarize(db) {
  var out = {ok: true, error: null, timebase: db.getTimebase(), zones: []};
  var zones = db.getZones();
  for (var i = 0; i < zones.length; i++) {
    var zone = zones[i];
    var z = {name: zone.getName(), type: zone.getType(), events: {}, scopes: {},
             scopeCount: 0, instanceCount: 0, maxDepth: 0, frames: 0,
             timeStamps: [], marks: []};
    if (wantCalls) z.calls = [];
    var list = zone.getEventList();
    for (var it = list.begin(); !it.done(); it.next()) {
      var name = it.getName();
      z.events[name] = (z.events[name] || 0) + 1;
      var depth = it.getDepth();
      if (depth > z.maxDepth) z.maxDepth = depth;
      if (it.isScope()) {
        z.scopeCount++;
        z.scopes[name] = (z.scopes[name] || 0) + 1;
        if (wantCalls) {
          var a = it.getArguments();
          z.calls.push([name, a && a.call !== undefined ? a.call : a && a.frame !== undefined ? a.frame : null, it.getTime(), it.getEndTime(), depth]);
        }
      } else {
        z.instanceCount++;
        var tf = it.getTypeFlags();
        // wtf.trace#timeStamp events are renamed by the loader to their name
        if (tf === 0 && name.indexOf('wtf.') !== 0) z.timeStamps.push(name);
      }
    }
    var frames = zone.getFrameList();
    z.frames = frames.getCount();
    if (wantFrames) {
      z.frameDurations = frames.getAllFrames().map(function (f) { return f.getDuration(); });
      z.frameNumbers = frames.getAllFrames().map(function (f) { return f.getNumber(); });
    }
    var marks = zone.getMarkList();
    if (marks && marks.getAllMarks) {
      marks.getAllMarks().forEach(function (m) { z.marks.push({name: m.getName(), value: m.getValue()}); });
    }
    out.zones.push(z);
  }
  return out;
}

try {
  wtf.db.load(file, function (db) {
    if (!db) {
      report({ok: false, error: 'loader could not read ' + file, zones: []});
    } else if (db instanceof Error) {
      report({ok: false, error: 'loader error: ' + db.message, zones: []});
    } else {
      try {
        report(summarize(db));
      } catch (e) {
        report({ok: false, error: 'exception while reading the database: ' + e.message, zones: []});
      }
    }
  });
} catch (e) {
  report({ok: false, error: 'exception: ' + e.message, zones: []});
}
