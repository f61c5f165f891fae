#!/usr/bin/env bash
# The wip15 demo: installs and builds what is needed (scripts/setup.sh),
# traces the bundled spinning-cube program (tests/apps/demo_cube.c, 300
# frames of GL 3.3 core) under a private Xvfb, and shows what the trace
# holds: header and totals, the busiest functions, the first calls, and the
# per-frame timings; then plays the trace back headless, checking every
# frame against the digest recorded at capture, and saves the last frame.
#
#   scripts/demo.sh              everything, trace in out/demo.wip15
#   WIP15_DEMO_SKIP_SETUP=1 scripts/demo.sh   reuse an existing build
#   WIP15_BUILD=DIR             use the build tree DIR (default: build)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

if [ "${WIP15_DEMO_SKIP_SETUP:-}" != 1 ]; then
  echo "== setup: packages and build (scripts/setup.sh) =="
  bash scripts/setup.sh
fi
BUILD=${WIP15_BUILD:-build}
WIP15=$ROOT/$BUILD/src/tools/wip15
DEMO=$ROOT/$BUILD/tests/apps/demo_cube
for f in "$WIP15" "$DEMO"; do
  if [ ! -x "$f" ]; then
    echo "demo.sh: $f was not built (see the build output above)" >&2
    exit 1
  fi
done

. scripts/xvfb.sh
xvfb_start
trap xvfb_stop EXIT

mkdir -p out
rm -f out/demo.wip15 out/demo.wtf-trace out/demo-frames.svg out/demo-chrome.json out/frame*.png
echo
echo "== wip15 trace --timing all --frame-digests -o out/demo.wip15 -- $BUILD/tests/apps/demo_cube (Xvfb on DISPLAY=$DISPLAY) =="
"$WIP15" trace --timing all --frame-digests -o out/demo.wip15 -- "$DEMO"

section() { echo; echo "== $* =="; }
section "wip15 info out/demo.wip15"
"$WIP15" info out/demo.wip15
section "wip15 stats --top 10 out/demo.wip15"
"$WIP15" stats --top 10 out/demo.wip15
section "wip15 dump out/demo.wip15 | head -40"
# `head` closes the pipe early: that is fine, so ignore dump's SIGPIPE status.
{ "$WIP15" dump out/demo.wip15 || true; } | head -40
if [ -f out/demo.wtf-trace ]; then
  section "wip15 frames --skip 1 out/demo.wtf-trace   (frame 0, the start-up before the first swap, left out)"
  "$WIP15" frames --skip 1 --top 8 --svg out/demo-frames.svg out/demo.wtf-trace || echo "demo.sh: wip15 frames failed (status $?)" >&2
  section "wip15 export --chrome out/demo-chrome.json out/demo.wtf-trace"
  "$WIP15" export --chrome out/demo-chrome.json out/demo.wtf-trace && echo "written out/demo-chrome.json"
fi
section "wip15 replay --check --snapshot last --snapshot-dir out out/demo.wip15   (headless; every frame checked against its recorded digest)"
"$WIP15" replay --check --snapshot last --snapshot-dir out out/demo.wip15
echo
echo "Files: $(ls -1 out/demo* out/frame*.png 2>/dev/null | tr '\n' ' ')"
echo "Next: wip15 dump --json out/demo.wip15 | jq ., wip15 verify out/demo.wip15;"
echo "out/demo-frames.svg is a frame-time chart; out/demo-chrome.json opens in"
echo "Perfetto (ui.perfetto.dev) or chrome://tracing; out/demo.wtf-trace in the WTF UI."
