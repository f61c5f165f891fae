#!/usr/bin/env bash
# Installs, builds (release and sanitizer trees) and runs every test.
# Starts its own Xvfb on a free display for the GLX tests.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
bash scripts/setup.sh --all

. scripts/xvfb.sh
xvfb_start
trap xvfb_stop EXIT

export WIP15_WTF_LOADER="$ROOT/build/wtf-loader/package/build-out/wtf_node_js_compiled.js"
status=0
echo "== sanitizer build (ASan + UBSan, clang) =="
(cd build-asan && ctest --output-on-failure -j2 -L asan) || status=1
echo "== release build =="
(cd build && ctest --output-on-failure -j2) || status=1
exit $status
