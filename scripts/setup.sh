#!/usr/bin/env bash
# Installs what building, testing and the demo need on Debian 12 (as root),
# then configures and builds.  Idempotent: a second run installs nothing and
# rebuilds only what changed.
#
#   scripts/setup.sh            release build in ./build
#   scripts/setup.sh --all      also the sanitizer+fuzz build in ./build-asan
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

PKGS=(
  build-essential cmake pkg-config python3 clang libclang-rt-14-dev
  liblz4-dev libzstd-dev zlib1g-dev libjson-c-dev
  libgl-dev libegl-dev libgles-dev libglx-dev libx11-dev libegl1-mesa-dev
  libgl1-mesa-dri libegl-mesa0 libglx-mesa0
  libmd-dev libpng-dev libxxhash-dev
  xvfb xauth mesa-utils glmark2-x11 glmark2-es2-x11 glmark2-es2-drm apitrace
  khronos-api librust-khronos-api-dev jq piglit musl-tools
)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  missing+=(nodejs npm)
fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q "${missing[@]}"
fi

# The real WTF loader, used as the oracle by the timing tests.
WTF_DIR="$ROOT/build/wtf-loader"
if [ ! -f "$WTF_DIR/package/build-out/wtf_node_js_compiled.js" ]; then
  mkdir -p "$WTF_DIR"
  (cd "$WTF_DIR" && npm pack --silent tracing-framework@2015.7.15-1 >/dev/null && tar xzf tracing-framework-2015.7.15-1.tgz)
fi

JOBS=$(nproc)
# Both trees use the loader unpacked above (build-asan has no copy of its own).
WTF_JS="$WTF_DIR/package/build-out/wtf_node_js_compiled.js"
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWIP15_WERROR=ON -DWIP15_WTF_LOADER="$WTF_JS" >/dev/null
cmake --build build -j"$JOBS"
if [ "${1:-}" = "--all" ]; then
  CC=clang cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DWIP15_WERROR=ON \
    -DWIP15_SANITIZE=ON -DWIP15_FUZZ=ON -DWIP15_BENCH=OFF -DWIP15_WTF_LOADER="$WTF_JS" >/dev/null
  cmake --build build-asan -j"$JOBS"
fi
echo "setup: built in $ROOT/build"
