#!/bin/sh
# run.sh TEST LIBWIP15 TAPP TCHECK WORKDIR -- one runtime test of libwip15.so.
# Exit 0 pass, 1 fail, 77 skip (no EGL surfaceless).
set -u
t=$1 lib=$2 tapp=$3 tcheck=$4 work=$5
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
export EGL_PLATFORM=surfaceless
unset WIP15_OUTPUT WIP15_FRAMES WIP15_MAX_SIZE WIP15_STREAM WIP15_COMPRESSION WIP15_STATUS_DIR
export WIP15_TIMING=off

fail() { echo "FAIL($t): $*"; [ -f check.txt ] && sed 's/^/  | /' check.txt | head -40; exit 1; }
# expect/reject PATTERN: a whole line of the trace summary (grep -x, a basic
# regular expression for the entire line: "func glClear 3" never matches
# "func glClear 30", "last glEnable" never "last glEnableVertexAttribArray")
expect() { grep -qx -- "$1" check.txt || fail "expected a line '$1' in the trace summary"; }
reject() { ! grep -qx -- "$1" check.txt || fail "did not expect a line '$1'"; }
check() { "$tcheck" "$1" > check.txt 2>&1; }
# clearcolors: the red of every glClearColor in the trace, in order (tapp's
# frames are told apart by it)
clearcolors() { sed -n 's/^clearcolor \([^ ]*\) .*/\1/p' check.txt | tr '\n' ' '; }

# does EGL work here at all?
"$tapp" basic > /dev/null 2>&1 || { echo "SKIP: tapp does not run without the tracer"; exit 77; }

run() { LD_PRELOAD="$lib" "$@"; }

# wtf_loads FILE: the real WTF loader (tests/wtf/load_wtf.js) opens FILE;
# prints its JSON summary into wtf.json.  The loader is part of the test
# set-up (scripts/setup.sh fetches it): missing is a failure, not a skip.
wtf_loads() {
    command -v node > /dev/null 2>&1 || fail "node is missing"
    [ -f "${WIP15_WTF_LOADER:-/nonexistent}" ] || fail "the real WTF loader is missing: WIP15_WTF_LOADER=${WIP15_WTF_LOADER:-}"
    [ -f "${W15_LOAD_WTF_JS:-/nonexistent}" ] || fail "tests/wtf/load_wtf.js is missing"
    node "$W15_LOAD_WTF_JS" "$@" > wtf.json 2> wtf.err || fail "the WTF loader rejected $1: $(cat wtf.json wtf.err)"
    python3 -c 'import json,sys; d=json.load(open("wtf.json")); sys.exit(0 if d.get("ok") else 1)' \
        || fail "the WTF loader rejected $1: $(cat wtf.json)"
}

case $t in
basic)
    run "$tapp" basic > out.txt 2> err.txt || fail "tapp failed: $(cat err.txt)"
    grep -q "tapp: done" out.txt || fail "app output changed"
    check w15_tapp.wip15
    expect "end END"
    expect "tracebegin .*w15_tapp args=2"
    expect "func eglMakeCurrent 1"
    expect "func glClear 3"
    expect "func eglSwapBuffers 3"
    expect "func wip15ThreadSwitch [1-9][0-9]*"
    expect "shader-source attribute vec4 pos;|void main() { gl_Position = pos; }|"
    expect "bufferdata 4096 ok"
    expect "clearcolor 0.25 0.5 0.75 1"
    [ "$(clearcolors)" = "0.25 0.5 0.75 " ] || fail "clear colours of the 3 frames: '$(clearcolors)'"
    expect "readpixels 64"
    expect "getshaderiv 1"
    expect "threads 1"
    expect "last glDeleteShader"
    reject "seq-error.*"
    # a second run never overwrites the first
    run "$tapp" basic > /dev/null 2>&1
    [ -f w15_tapp.1.wip15 ] || fail "second trace not written as w15_tapp.1.wip15"
    ;;
threads)
    run "$tapp" threads 4 > out.txt 2> err.txt || fail "tapp failed"
    check w15_tapp.wip15
    expect "end END"
    expect "threads 5"   # main + 4
    expect "func glVertexAttrib4f 4000"
    expect "func eglMakeCurrent 8"
    reject "seq-error.*"
    reject "va-order-error.*"
    ;;
fork)
    run "$tapp" fork > out.txt 2> err.txt || fail "tapp failed"
    check w15_tapp.wip15
    expect "end END"
    expect "func glEnable 1"     # the child's 50 glEnable calls must not be here
    expect "func glDisable 2"    # some_calls(1) + after the fork
    n=$(ls *.wip15 | wc -l)
    [ "$n" = 1 ] || fail "expected one trace file, got: $(ls)"
    ;;
segv)
    # the last calls are still in the thread's buffer when the program dies:
    # the signal handler writes them (raw, or as LZ4 or zstd frame blocks)
    for stream in lz4 zstd none; do
        rm -f w15_tapp.wip15
        rm -f w15_tapp.wtf-trace
        WIP15_TIMING=all WIP15_STREAM=$stream run "$tapp" segv > out.txt 2> err.txt
        rc=$?
        [ $rc -ge 128 ] || fail "expected death by signal, exit code $rc"
        wtf_loads w15_tapp.wtf-trace
        # the timing records still in the thread's array and in the queue
        # are converted by the signal handler: every glEnable has its scope
        python3 -c 'import json,sys; z=json.load(open("wtf.json"))["zones"]; n=sum(x["scopes"].get("glEnable",0) for x in z); sys.exit(0 if n == 3 else print("glEnable scopes:", n) or 1)' \
            || fail "the .wtf-trace lacks the last calls' scopes (stream $stream): $(cat wtf.json)"
        check w15_tapp.wip15
        expect "func eglSwapBuffers 2"
        expect "func glEnable 3"
        expect "last glEnable"
        reject "seq-error.*"
        # the handler ends the stream: the trace is complete, not cut
        expect "end END"
    done
    ;;
segvhandled)
    # a SIGSEGV the program's own handler recovers from (as the JVM does)
    # is not a crash: tracing goes on and the trace ends complete
    run "$tapp" segvhandled > out.txt 2> err.txt || fail "tapp failed: $(cat err.txt)"
    grep -q "tapp: done" out.txt || fail "app output changed"
    check w15_tapp.wip15
    expect "end END"
    expect "last glDisable"
    reject "seq-error.*"
    n=$(sed -n 's/^func glEnable //p' check.txt)
    [ "${n:-0}" -ge 6 ] || fail "only ${n:-0} glEnable calls: recording stopped at the handled SIGSEGV"
    ;;
sigreset)
    # a program's own handlers that give the signal back to the default
    # action (SA_RESETHAND, or SIG_DFL and raise): the signal that then
    # kills finds the tracer's handler, and the trace is complete
    for c in "resethand 130 handled_1,_then_default" "reraise 143 handler" "segvreset 139 before_handler"; do
        set -- $c
        rm -f w15_tapp.wip15
        run timeout -s KILL 30 "$tapp" $1 > out.txt 2> err.txt
        rc=$?
        [ $rc = $2 ] || fail "$1: exit status $rc, expected $2 ($(cat out.txt err.txt))"
        grep -qx "tapp: $(echo "$3" | tr _ ' ')" out.txt || fail "$1: the program saw something else: $(cat out.txt)"
        check w15_tapp.wip15
        expect "end END"
        expect "last glEnable"
        expect "func glEnable 4"
        reject "seq-error.*"
    done
    ;;
exit)
    run "$tapp" exit > out.txt 2> err.txt
    rc=$?
    [ $rc = 3 ] || fail "expected exit code 3, got $rc"
    check w15_tapp.wip15
    expect "end END"
    expect "func glEnable 3"
    expect "last glEnable"
    ;;
sigkill)
    # (started directly, not through the shell function, so that $! is the
    # program itself and kill -9 reaches it)
    WIP15_TIMING=all WIP15_STREAM=${SIGKILL_STREAM:-lz4} LD_PRELOAD="$lib" "$tapp" loop > out.txt 2> err.txt &
    pid=$!
    # about 2 s of frames, and at least 60 (a loaded machine is slower)
    sleep 2
    i=0
    while [ $i -lt 300 ] && ! grep -q "^frame 6[0-9] " out.txt; do sleep 0.1; i=$((i + 1)); done
    killed_at=$(date +%s%N)
    kill -9 $pid
    wait $pid 2>/dev/null
    kill -0 $pid 2>/dev/null && fail "the program survived kill -9"
    wtf_loads w15_tapp.wtf-trace
    check w15_tapp.wip15
    grep -q "^end ERROR" check.txt && fail "trace unreadable"
    frames=$(sed -n 's/^frames //p' check.txt)
    made=$(sed -n 's/^frame \([0-9]*\) .*/\1/p' out.txt | tail -1)
    # README: after SIGKILL the trace is readable up to its last flush, at
    # most ~0.2 s old: every frame whose swap returned 0.2 s before the kill
    # is in it ("frame N T": tapp finished frame N at T, date +%s%N's clock)
    due=$(awk -v k="$killed_at" '$1 == "frame" && $3 + 200000000 <= k { n = $2 } END { print n + 0 }' out.txt)
    [ "${made:-0}" -ge 50 ] || fail "the program made only ${made:-0} frames"
    [ "${frames:-0}" -ge "$due" ] || fail "only ${frames:-0} frames survived SIGKILL; $due were done 0.2 s before it (of ${made})"
    [ "${frames:-0}" -le $((made + 1)) ] || fail "${frames} frames in the trace, the program made ${made}"
    reject "seq-error.*"
    ;;
unwritable)
    WIP15_OUTPUT=/nonexistent/dir/x.wip15 run "$tapp" basic > out.txt 2> err.txt
    rc=$?
    [ $rc = 0 ] || fail "app exit code changed: $rc"
    grep -q "tapp: done" out.txt || fail "app output changed"
    n=$(grep -c "^wip15:" err.txt)
    [ "$n" = 1 ] || fail "expected one wip15: line, got $n: $(cat err.txt)"
    ;;
idle)
    # a thread that goes idle: its calls reach the file without thread exit
    LD_PRELOAD="$lib" "$tapp" idle > out.txt 2> err.txt &
    pid=$!
    # once the thread made its calls (a loaded machine may take long to get
    # there), the idle collection has 1 s to write them
    i=0
    while [ $i -lt 300 ] && ! grep -q "idle: 100 calls made" out.txt; do sleep 0.1; i=$((i + 1)); done
    sleep 1
    kill -9 $pid
    wait $pid 2>/dev/null
    kill -0 $pid 2>/dev/null && fail "the program survived kill -9"
    check w15_tapp.wip15
    expect "func glVertexAttrib4f 100"
    ;;
stream)
    WIP15_STREAM=lz4 run "$tapp" basic > out.txt 2> err.txt || fail "tapp failed"
    check w15_tapp.wip15
    expect "end END"
    expect "bufferdata 4096 ok"
    expect "func glClear 3"
    WIP15_COMPRESSION=zlib WIP15_OUTPUT=z.wip15 run "$tapp" basic > out.txt 2> err.txt || fail "tapp failed"
    check z.wip15
    expect "end END"
    expect "bufferdata 4096 ok"
    # zstd frames, at the default level and at one given; blobs raw inside
    for s in zstd zstd:-2; do
        rm -f zs.wip15 zs.wtf-trace
        WIP15_STREAM=$s WIP15_OUTPUT=zs.wip15 run "$tapp" basic > out.txt 2> err.txt || fail "tapp failed ($s)"
        [ "$(head -c 4 zs.wip15 | od -An -tx1 | tr -d ' ')" = 28b52ffd ] || fail "$s: not a zstd frame"
        check zs.wip15
        expect "end END"
        expect "bufferdata 4096 ok"
        expect "func glClear 3"
    done
    # a level out of range: said once, and the trace stays zstd (the default)
    rm -f zs.wip15 zs.wtf-trace
    WIP15_STREAM=zstd:0 WIP15_OUTPUT=zs.wip15 run "$tapp" basic > out.txt 2> err.txt || fail "tapp failed (zstd:0)"
    [ "$(grep -c 'WIP15_STREAM=zstd:0: expected lz4, zstd, zstd:LEVEL' err.txt)" = 1 ] || fail "no single warning: $(cat err.txt)"
    [ "$(head -c 4 zs.wip15 | od -An -tx1 | tr -d ' ')" = 28b52ffd ] || fail "zstd:0 did not fall back to the default zstd"
    ;;
workers)
    # tapp burst: uploads faster than one thread compresses them.  The
    # level is zstd:6 (about 70 MB/s on one thread), not the default: at
    # the default one thread keeps up with a slow producer (the sanitizer
    # build's) and the program never waits.  With WIP15_WORKERS=2 the
    # output thread's zstd takes two threads once the program waits (a
    # new frame begins), with 0 it never does; every byte reaches the
    # trace either way, and a crash while the workers run still leaves a
    # complete trace up to the last call
    frames="$(dirname "$0")/zstd_frames.py"
    for c in "2 -" "0 -" "2 segv"; do
        set -- $c
        rm -f wk.wip15 wk.wtf-trace
        WIP15_STREAM=zstd:6 WIP15_WORKERS=$1 WIP15_OUTPUT=wk.wip15 run "$tapp" burst 1500 $2 > out.txt 2> err.txt
        rc=$?
        if [ "$2" = segv ]; then [ $rc -ge 128 ] || fail "expected death by signal, exit code $rc"
        else [ $rc = 0 ] || fail "tapp burst failed ($c): $(cat err.txt)"; fi
        check wk.wip15
        expect "end END"
        expect "burst 1500 ok"
        if [ "$2" = segv ]; then expect "last glEnable"; else expect "last glDeleteBuffers"; fi
        python3 "$frames" wk.wip15 > frames.txt || fail "not a zstd stream ($c): $(cat frames.txt)"
        n=$(sed -n 's/.* compressed \([0-9]*\)$/\1/p' frames.txt)
        if [ "$1" = 0 ]; then [ "$n" = 1 ] || fail "WIP15_WORKERS=0 began new frames: $(cat frames.txt)"
        else [ "$n" -ge 2 ] || fail "the workers never started ($c): $(cat frames.txt)"; fi
    done
    WIP15_WORKERS=x WIP15_OUTPUT=wk2.wip15 run "$tapp" basic > out.txt 2> err.txt || fail "tapp failed"
    [ "$(grep -c 'WIP15_WORKERS=x: expected auto or 0 to 8; using auto' err.txt)" = 1 ] || fail "no single warning: $(cat err.txt)"
    ;;
frames)
    # tapp basic: frame 0 = set-up (glBufferData, ...) + the first frame
    # (red 0.25), frames 1 and 2 (red 0.5, 0.75), frame 3 = what follows
    # the last swap (glReadPixels, deletes).  RANGE SWAPS REDS BUFFERDATA READPIXELS
    for c in "0-0 1 0.25 1 0" "1-1 1 0.5 0 0" "1 1 0.5 0 0" "1-2 2 0.5_0.75 0 0" "2- 1 0.75 0 1" "0- 3 0.25_0.5_0.75 1 1"; do
        set -- $c
        rm -f w15_tapp.wip15
        WIP15_FRAMES=$1 run "$tapp" basic > out.txt 2> err.txt || fail "tapp failed (frames $1)"
        check w15_tapp.wip15
        expect "end END"
        expect "func eglSwapBuffers $2"
        expect "func glClear $2"
        reds=$(echo "$3" | tr _ ' ')
        [ "$(clearcolors)" = "$reds " ] || fail "WIP15_FRAMES=$1: frames with red '$(clearcolors)', expected '$reds '"
        if [ "$4" = 1 ]; then expect "bufferdata 4096 ok"; else reject "func glBufferData [0-9]*"; fi
        if [ "$5" = 1 ]; then expect "readpixels 64"; else reject "func glReadPixels [0-9]*"; fi
    done
    ;;
maxsize)
    WIP15_STREAM=none WIP15_MAX_SIZE=20k LD_PRELOAD="$lib" "$tapp" loop > out.txt 2> err.txt &
    pid=$!
    # wait for the stop (a loaded machine may take long to start the
    # program), then a little longer: nothing more may be written after it
    i=0
    while [ $i -lt 300 ] && ! grep -q "WIP15_MAX_SIZE" err.txt; do sleep 0.1; i=$((i + 1)); done
    sleep 0.5
    kill -9 $pid
    wait $pid 2>/dev/null
    kill -0 $pid 2>/dev/null && fail "the program survived kill -9"
    grep -q "WIP15_MAX_SIZE" err.txt || fail "no max-size message: $(cat err.txt)"
    # USAGE.md: recording stops once the file exceeds the limit; it ends
    # slightly above it (what was queued is written: a frame is ~90 bytes,
    # 4 KiB is ~45 frames behind)
    sz=$(stat -c %s w15_tapp.wip15)
    [ "$sz" -gt 20480 ] || fail "trace stopped at $sz bytes, below the 20k limit"
    [ "$sz" -le $((20480 + 4096)) ] || fail "trace grew to $sz bytes, more than 4 KiB above the 20k limit"
    check w15_tapp.wip15
    grep -q "^end ERROR" check.txt && fail "trace unreadable"
    ;;
dlopen)
    # glXGetProcAddress / dlsym paths through a dlopen'd libEGL: eglGetProcAddress
    # must hand out our wrappers (calls through them are recorded)
    run python3 - "$lib" > out.txt 2> err.txt <<'EOF' || fail "python ctypes program failed: $(cat err.txt)"
import ctypes, sys
egl = ctypes.CDLL("libEGL.so.1")
gpa = egl.eglGetProcAddress
gpa.restype = ctypes.c_void_p
gpa.argtypes = [ctypes.c_char_p]
p = gpa(b"glClear")
self = ctypes.CDLL(sys.argv[1])
mine = ctypes.cast(self.glClear, ctypes.c_void_p).value
print("same" if p == mine else "different %r %r" % (p, mine))
print("dlsym-same" if ctypes.cast(egl.eglGetDisplay, ctypes.c_void_p).value ==
      ctypes.cast(self.eglGetDisplay, ctypes.c_void_p).value else "dlsym-different")
EOF
    grep -q "^same" out.txt || fail "eglGetProcAddress did not return our wrapper: $(cat out.txt)"
    grep -q "^dlsym-same" out.txt || fail "dlsym(libEGL handle) did not return our wrapper: $(cat out.txt)"
    ;;
timing)
    # WIP15_TIMING=draws: app.wtf-trace beside the trace; the real WTF loader
    # sees one zone with the frames
    WIP15_TIMING=draws WIP15_OUTPUT=app.wip15 run "$tapp" basic > out.txt 2> err.txt || fail "tapp failed"
    [ -s app.wtf-trace ] || fail "no app.wtf-trace written: $(ls)"
    check app.wip15
    expect "end END"
    wtf_loads app.wtf-trace
    python3 - wtf.json <<'EOF' || fail "unexpected WTF content: $(cat wtf.json)"
import json, sys
d = json.load(open(sys.argv[1]))
zs = [z for z in d["zones"] if ":" in z["name"] and z["type"] == "script"]
assert d["ok"] and len(zs) == 1, d
z = zs[0]
# GPU time is off by default: no GPU zone
gz = [g for g in d["zones"] if g["type"] == "native_gpu"]
assert not gz, gz
assert z["frames"] == 3, z["frames"]  # one frame per swap
assert z["scopes"].get("glClear") == 3, z["scopes"]
assert z["scopes"].get("eglSwapBuffers") == 3, z["scopes"]
EOF
    ;;
gpuswitch)
    # GPU time with two contexts in turn, each made current again every
    # frame: no GL error for the program, GPU frames only while a context
    # stays current (8 swaps each), numbered like the thread's frames
    WIP15_TIMING=frames WIP15_GPU=on WIP15_OUTPUT=app.wip15 run "$tapp" gpuswitch > out.txt 2> err.txt || fail "tapp failed: $(cat err.txt)"
    grep -q "tapp: done" out.txt || fail "app output changed"
    wtf_loads app.wtf-trace --calls
    python3 - wtf.json <<'EOF' || fail "unexpected WTF content: $(cat wtf.json)"
import json, sys
d = json.load(open(sys.argv[1]))
zs = [z for z in d["zones"] if z["type"] == "script"]
gz = [z for z in d["zones"] if z["type"] == "native_gpu"]
assert d["ok"] and len(zs) == 1 and zs[0]["frames"] == 24, d
assert len(gz) == 1 and gz[0]["name"] == zs[0]["name"] + " GPU", [(z["name"], z["type"]) for z in d["zones"]]
# every frame but each stint's first (it has no start query) is measured:
# tapp calls glFinish before each switch, so all are ready when the switch
# ends the measurement; numbered like the thread's frames 0..23
got = [c[1] for c in gz[0]["calls"] if c[0] == "wip15.gpuFrame"]
want = [f for f in range(24) if f % 8]
assert got == want, (got, want)
EOF
    # GPU time is off by default: the same program, which would have its
    # frames measured, gets no GPU zone
    WIP15_TIMING=frames WIP15_OUTPUT=off.wip15 run "$tapp" gpuswitch > out.txt 2> err.txt || fail "tapp failed (GPU time off): $(cat err.txt)"
    wtf_loads off.wtf-trace
    python3 -c 'import json,sys; d=json.load(open("wtf.json")); sys.exit(1 if [z for z in d["zones"] if z["type"] == "native_gpu"] else 0)' \
        || fail "GPU time measured without WIP15_GPU=on: $(cat wtf.json)"
    ;;
cmdtrace)
    # `wip15 trace`: options -> environment, exit status, where the trace went
    [ -x "${W15_WIP15:-}" ] || { echo "SKIP: no wip15 command"; exit 77; }
    "$W15_WIP15" trace --help > help.txt || fail "--help failed"
    grep -q "WIP15_MAX_SIZE" help.txt || fail "--help does not document WIP15_MAX_SIZE"
    "$W15_WIP15" trace --compression bogus -- true 2> err.txt
    [ $? = 2 ] || fail "bad --compression is not a usage error"
    for s in zstd:20 zstd: zstd:x zstd:0 zstdx; do
        "$W15_WIP15" trace --stream "$s" -- true 2> err.txt
        [ $? = 2 ] || fail "bad --stream $s is not a usage error"
    done
    "$W15_WIP15" trace -q -o z7.wip15 --stream zstd:-7 -- "$tapp" basic > out.txt 2> err.txt || fail "--stream zstd:-7 failed: $(cat err.txt)"
    check z7.wip15
    expect "end END"
    "$W15_WIP15" trace -q -o mine.wip15 --stream none --frames 0- -- "$tapp" exit > out.txt 2> err.txt
    rc=$?
    [ $rc = 3 ] || fail "exit status not passed through: $rc"
    grep -q "trace written to .*/mine.wip15" err.txt || fail "no 'trace written to': $(cat err.txt)"
    check mine.wip15
    expect "func glEnable 3"
    "$W15_WIP15" trace -q -o seg.wip15 -- "$tapp" segv > out.txt 2> err.txt
    rc=$?
    [ $rc = 139 ] || fail "SIGSEGV not reported as 139: $rc"
    grep -q "killed by signal 11" err.txt || fail "no 'killed by signal' message: $(cat err.txt)"
    "$W15_WIP15" trace -q -- /nonexistent/program > out.txt 2> err.txt
    [ $? = 127 ] || fail "missing program is not 127"
    # no trace: the program (the root process) says it made no GL call; a
    # program the library cannot be loaded into (ldconfig: statically
    # linked) is named before it runs; no status file is left behind
    mkdir -p tmpd
    TMPDIR=$PWD/tmpd "$W15_WIP15" trace -o none.wip15 -- sh -c 'exit 0' > out.txt 2> err.txt || fail "sh failed"
    grep -q "no trace was written: sh made no GL call" err.txt || fail "no 'made no GL call': $(cat err.txt)"
    if [ -x /sbin/ldconfig ] && ! readelf -l /sbin/ldconfig 2> /dev/null | grep -q "program interpreter"; then
        TMPDIR=$PWD/tmpd "$W15_WIP15" trace -o none.wip15 -- /sbin/ldconfig --version > out.txt 2> err.txt ||
            fail "ldconfig failed: $(cat err.txt)"
        grep -q "libwip15.so cannot be loaded into /sbin/ldconfig (statically linked)" err.txt ||
            fail "a static program not named as one the library cannot be loaded into: $(cat err.txt)"
    fi
    [ -z "$(ls tmpd)" ] || fail "status files left: $(ls tmpd)"
    # a traced process that starts after the root has ended (the status
    # directory gone) says itself where its trace went
    rm -f late.wip15
    "$W15_WIP15" trace -o late.wip15 -- sh -c '(sleep 0.5; exec "$0" basic > /dev/null) & exit 0' "$tapp" \
        > out.txt 2> late.txt || fail "the late child's root failed: $(cat late.txt)"
    i=0
    while [ $i -lt 100 ] && ! grep -q "trace written to late.wip15" late.txt; do sleep 0.1; i=$((i + 1)); done
    grep -q "trace written to late.wip15" late.txt || fail "a process ending after the root did not report its trace: $(cat late.txt)"
    check late.wip15
    expect "end END"
    # a program that closes what it inherited and opens descriptors of its
    # own: none receives a byte of ours, and the trace is still reported
    "$W15_WIP15" trace -o cf.wip15 -- "$tapp" closefds > out.txt 2> err.txt || fail "closefds: $(cat err.txt)"
    grep -q "trace written to .*/cf.wip15" err.txt || fail "closefds: trace not reported: $(cat err.txt)"
    # the program gets the signal dispositions wip15 was given: the same
    # ignored signals as without it (wip15 ignores SIGPIPE for its own
    # output, and once passed that on), with SIGHUP ignored (nohup) and not
    grep SigIgn /proc/self/status > ign.want
    "$W15_WIP15" trace -q -o ign.wip15 -- grep SigIgn /proc/self/status > ign.got 2> err.txt
    cmp -s ign.want ign.got || fail "ignored signals changed under wip15 trace: $(cat ign.got), natively $(cat ign.want)"
    sh -c 'trap "" HUP; grep SigIgn /proc/self/status' > ign.want
    sh -c 'trap "" HUP; exec "$0" trace -q -o ign2.wip15 -- grep SigIgn /proc/self/status' "$W15_WIP15" > ign.got 2> err.txt
    cmp -s ign.want ign.got || fail "ignored signals changed under wip15 trace (SIGHUP ignored): $(cat ign.got), natively $(cat ign.want)"
    # every other command runs in wip15-tool: its exit status comes back
    "$W15_WIP15" verify -q mine.wip15 || fail "wip15 verify (wip15-tool) rejects a good trace"
    "$W15_WIP15" help dump | grep -q "usage: wip15 dump" || fail "wip15 help dump does not reach wip15-tool"
    "$W15_WIP15" verify /nonexistent.wip15 2> err.txt
    [ $? = 1 ] || fail "wip15 verify of a missing file: status not 1"
    # `wip15 trace` becomes the program (exec): SIGTERM, SIGINT and SIGHUP
    # sent to its process alone (not its group) are the program's, which
    # ends as it would natively (the shell sees 128+N)
    # (a non-interactive shell starts background jobs with SIGINT ignored,
    # and ignored signals stay ignored across exec: perl puts SIGINT back
    # to its default before running wip15, as an interactive shell would)
    for sig in TERM INT HUP; do
        rm -f sig.wip15
        perl -e '$SIG{INT} = "DEFAULT"; exec @ARGV or die' \
            "$W15_WIP15" trace -q -o sig.wip15 -- "$tapp" loop > out.txt 2> err.txt &
        wpid=$!
        sleep 1
        # the process is the program now, and no launcher waits beside it
        grep -q "w15_tapp" /proc/$wpid/cmdline || fail "wip15 trace did not become the program after 1 s"
        [ -z "$(pgrep -P $wpid)" ] || fail "wip15 trace left a process beside the program: $(pgrep -a -P $wpid)"
        cpid=$wpid
        kill -s $sig $wpid
        wait $wpid
        rc=$?
        case $sig in TERM) want=143 ;; INT) want=130 ;; HUP) want=129 ;; esac
        [ $rc = $want ] || fail "SIG$sig to wip15 trace: status $rc, expected $want ($(cat err.txt))"
        kill -0 "$cpid" 2> /dev/null && fail "the program survived SIG$sig sent to wip15 trace"
        grep -q "w15_tapp was killed by signal $((want - 128)) .*the trace holds everything up to then" err.txt ||
            fail "SIG$sig: the program's end not reported: $(cat err.txt)"
        check sig.wip15
        # complete: every call before the signal, and the stream's end
        expect "end END"
        expect "func eglSwapBuffers [1-9][0-9]*"
        "$W15_WIP15" verify -q sig.wip15 > /dev/null 2>&1 || fail "wip15 verify rejects the trace after SIG$sig"
    done
    # killed before its first frame (no timing event yet): the timing file
    # still has its header, as after a normal exit
    rm -f early.wip15 early.wtf-trace
    "$W15_WIP15" trace -q --timing frames -o early.wip15 -- "$tapp" idle > out.txt 2> err.txt &
    wpid=$!
    i=0
    while [ $i -lt 300 ] && ! grep -q "idle: 100 calls made" out.txt; do sleep 0.1; i=$((i + 1)); done
    kill -s TERM $wpid
    wait $wpid
    [ -s early.wtf-trace ] || fail "killed before its first frame: the .wtf-trace is empty"
    "$W15_WIP15" frames early.wtf-trace > out.txt 2> err.txt ||
        fail "wip15 frames rejects the .wtf-trace of a program killed before its first frame: $(cat err.txt)"
    ;;
diskfull)
    # the file system refuses more bytes (a file-size limit, SIGXFSZ ignored:
    # writes fail with EFBIG as on a full disk): recording stops with one
    # message and the trace is reported INCOMPLETE, never "written"
    sh -c 'trap "" XFSZ; ulimit -f 100; exec "$0" trace -o full.wip15 -- "$1" upload 400' \
        "$W15_WIP15" "$tapp" > out.txt 2> err.txt
    rc=$?
    [ $rc = 0 ] || fail "the program's status changed: $rc ($(cat err.txt))"
    grep -q "cannot write the trace: .*full.wip15.*recording stopped" err.txt || fail "no failure message: $(cat err.txt)"
    grep -q "trace .*full.wip15 is INCOMPLETE: cannot write the trace" err.txt || fail "not reported incomplete: $(cat err.txt)"
    grep -q "trace written to" err.txt && fail "an incomplete trace reported as written: $(cat err.txt)"
    [ "$(grep -c 'cannot write the trace: .*recording stopped' err.txt)" = 1 ] || fail "not one failure message: $(cat err.txt)"
    # preloaded directly: the library says it itself
    sh -c 'trap "" XFSZ; ulimit -f 100; WIP15_OUTPUT=full2.wip15 LD_PRELOAD="$0" exec "$1" upload 400' \
        "$lib" "$tapp" > out.txt 2> err.txt || fail "the program failed: $(cat err.txt)"
    grep -q "trace full2.wip15 is INCOMPLETE (cannot write the trace" err.txt || fail "not reported incomplete: $(cat err.txt)"
    # a --max-size stop is what the user asked for: not incomplete
    "$W15_WIP15" trace -o lim.wip15 --max-size 64k -- "$tapp" upload 400 > out.txt 2> err.txt || fail "max-size run failed"
    grep -q "trace written to .*lim.wip15" err.txt || fail "a max-size trace is not reported written: $(cat err.txt)"
    grep -q "INCOMPLETE" err.txt && fail "a max-size trace reported incomplete: $(cat err.txt)"
    ;;
busyexit)
    # the program exits while another thread is inside GL calls all the time
    run "$tapp" busyexit > out.txt 2> err.txt || fail "tapp failed: $(cat err.txt)"
    check w15_tapp.wip15
    expect "end END"
    expect "func glClear 2"
    expect "threads 2"      # main, the busy thread
    reject "va-order-error.*"
    reject "seq-error.*"
    n=$(sed -n 's/^func glVertexAttrib4f //p' check.txt)
    [ "${n:-0}" -ge 1000 ] || fail "only ${n:-0} calls of the busy thread"
    ;;
pixels)
    # pixel-transfer sizes under the pixel-store state (GLES 3 context)
    run "$tapp" pixels > out.txt 2> err.txt || fail "tapp failed: $(cat err.txt)"
    check w15_tapp.wip15
    expect "end END"
    grep '^pixels ' check.txt | awk '{print $3}' | tr '\n' ' ' > sizes.txt
    want="33 27 22 116 16 12 16 64 28 0 "
    [ "$(cat sizes.txt)" = "$want" ] || fail "pixel sizes: got '$(cat sizes.txt)', want '$want'"
    expect "offset glTexImage2D 8 0x88ec 16"  # offset 16 into the GL_PIXEL_UNPACK_BUFFER (param 8: pixels)
    ;;
*)
    fail "unknown test"
    ;;
esac
echo "PASS($t)"
exit 0
