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
# ctest_all DIR ARGS...: ctest in DIR; fails when a test failed, and also
# when one was skipped or not run: this is the full run, everything it
# needs is installed (tests/README.md "Skipped tests").
ctest_all() {
    local dir=$1 log
    shift
    log=$(mktemp)
    (cd "$dir" && ctest --output-on-failure -j2 "$@") 2>&1 | tee "$log"
    local rc=${PIPESTATUS[0]}
    if grep -Eq '\*\*\*(Skipped|Not Run)|Not Run \(Disabled\)' "$log"; then
        echo "FAIL: tests in $dir were skipped or not run (listed above)"
        rc=1
    fi
    rm -f "$log"
    return "$rc"
}
echo "== sanitizer build (ASan + UBSan, clang): label sanitize =="
ctest_all build-asan -L sanitize || status=1
echo "== release build =="
ctest_all build || status=1
exit $status
