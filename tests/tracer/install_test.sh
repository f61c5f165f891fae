#!/bin/sh
# `cmake --install` into a fresh prefix, then the installed `wip15 trace`
# must preload the installed libwip15.so (not the build tree's) and trace a
# real program.
#   install_test.sh CMAKE BUILD_DIR WORK_DIR TAPP
set -u
cmake=$1 build=$2 work=$3 tapp=$4
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
# the prefix must lie outside the build tree
prefix=$(mktemp -d /tmp/wip15-install.XXXXXX) || exit 1
trap 'rm -rf "$prefix"' EXIT
"$cmake" --install "$build" --prefix "$prefix" > install.log 2>&1 || fail "install: $(cat install.log)"
w15="$prefix/bin/wip15"
[ -x "$w15" ] || fail "no $w15"
[ -f "$prefix/lib/wip15/libwip15.so" ] || fail "no prefix/lib/wip15/libwip15.so"
"$w15" trace -q -o env.wip15 -- sh -c 'echo "$LD_PRELOAD"' > env.txt 2> err.txt || fail "trace sh: $(cat err.txt)"
case "$(head -n1 env.txt)" in
  "$prefix/lib/wip15/libwip15.so"*) ;;
  *) fail "installed wip15 preloaded '$(cat env.txt)', expected $prefix/lib/wip15/libwip15.so" ;;
esac
EGL_PLATFORM=surfaceless "$w15" trace -q -o app.wip15 -- "$tapp" basic > out.txt 2> err.txt || fail "trace app: $(cat err.txt)"
"$w15" verify app.wip15 || fail "installed trace does not verify"
"$w15" stats app.wip15 | grep -q glClear || fail "no glClear in the installed trace"
echo "PASS install"
