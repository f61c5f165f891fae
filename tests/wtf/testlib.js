// testlib.js -- what check_tools.js and check_gpu_loader.js share: the
// loader's path, counting failures, running load_wtf.js.
//
//   var testlib = require('./testlib');
//   testlib.check(cond, msg); testlib.fail(msg); ...
//   process.exitCode = testlib.failures() ? 1 : 0;
'use strict';
var cp = require('child_process');
var fs = require('fs');
var path = require('path');

// the runtime environment wins over the path CMake was configured with
if (!process.env.WIP15_WTF_LOADER && process.env.WIP15_WTF_LOADER_DEFAULT)
  process.env.WIP15_WTF_LOADER = process.env.WIP15_WTF_LOADER_DEFAULT;

var failures = 0;
function fail(msg) { console.error('FAIL: ' + msg); failures++; }
function check(c, msg) { if (!c) fail(msg); }

// true when the real WTF loader is there; otherwise a failure and false
function haveLoader() {
  var loader = process.env.WIP15_WTF_LOADER;
  if (loader && fs.existsSync(loader)) return true;
  fail('the real WTF loader is missing: WIP15_WTF_LOADER=' + loader);
  return false;
}

// `node load_wtf.js FLAGS... FILE` (the real loader): spawnSync's result,
// the JSON summary on its stdout
function loadWtf(file, flags) {
  return cp.spawnSync(process.execPath, [path.join(__dirname, 'load_wtf.js')].concat(flags || [], [file]),
                      {encoding: 'utf8', maxBuffer: 1 << 30});
}

module.exports = {
  fail: fail,
  check: check,
  failures: function () { return failures; },
  haveLoader: haveLoader,
  loadWtf: loadWtf,
};
