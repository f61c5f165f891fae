#!/bin/sh
# bench/tracer/run.sh [BUILD_DIR] [REPS] -- tracer benchmarks: each program
# natively, under wip15 (default settings, with WIP15_WORKERS=0 (wip15_w0:
# no zstd workers), with WIP15_STREAM=none and with WIP15_STREAM=lz4) and
# under apitrace, interleaved, REPS rounds (default 5; at least 3); prints
# medians.  Each round runs every configuration once, in an order rotated
# by one each round (round 0 starts with native, round 1 with the second
# configuration, ...), so no configuration always runs first or right after
# another.  Every table says how many rounds it kept; with fewer than 3
# kept (or measured) rounds it reports no medians and the script exits 1.
#   bench_calls   ns per call (overhead = traced - native), trace size, peak RSS
#   bench_upload  MB/s of glBufferSubData (64 KiB blocks), trace size, peak RSS
#   glmark2       score (a few scenes in a window on Xvfb, so every frame ends
#                 with a swap) if available;
#                 wip15 also with per-frame GPU time (WIP15_GPU=on)
# bench_calls also runs under wip15 at the other timing levels (timing_off,
# timing_draws, timing_all; LEVELS="" to skip; "wip15" is level frames) and
# with per-frame GPU time (gpu_on: WIP15_GPU=on at level frames).
# thread_cpu_ns: the calling thread's CPU time per call; process_cpu_ns:
# every thread's (the tracer's output thread converts and writes on the
# other core).
# bench_calls keeps only the rounds where the native run was not slowed
# by the host (QUIET_ONLY=0: all rounds).
# Environment: CALLS_ITERS (default 1000000: 4 calls each), UPLOAD_BLOCKS
# (default 4096 = 256 MiB), GLMARK=0 to skip glmark2, XDISPLAY (default :38),
# BENCHES (default "calls upload glmark2": the ones to run).
set -u
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build}
reps=${2:-5}
[ "$reps" -ge 3 ] 2> /dev/null || { echo "run.sh: REPS must be at least 3 (a median of fewer rounds is no median)"; exit 2; }
build=$(cd "$build" && pwd)
lib=$build/src/tracer/libwip15.so
calls=$build/bench/tracer/bench_calls
upload=$build/bench/tracer/bench_upload
for f in "$lib" "$calls" "$upload"; do
    [ -e "$f" ] || { echo "missing $f (build the targets wip15_preload bench_calls bench_upload)"; exit 1; }
done
have_apitrace=0
command -v apitrace > /dev/null 2>&1 && have_apitrace=1
export EGL_PLATFORM=surfaceless
tmp=$(mktemp -d /tmp/w15bench.XXXXXX)
trap 'rm -rf "$tmp"; [ -n "${xpid:-}" ] && kill $xpid 2>/dev/null' EXIT INT TERM

# median: of the numbers on stdin (one a line; empty lines, from runs that
# printed nothing, are not numbers); "-" when there are none
median() { grep -E '^[0-9.]+$' | sort -n | awk '{a[NR]=$1} END {if (NR==0) print "-"; else if (NR%2) print a[(NR+1)/2]; else printf "%.10g\n", (a[NR/2]+a[NR/2+1])/2}'; }
# count: how many numbers on stdin
count() { grep -cE '^[0-9.]+$'; }
field() { sed -n "s/.* $1 \([0-9.]*\).*/\1/p"; }
# rotate K WORD...: the words, starting with the (K mod n)-th (from 0)
rotate() {
    _rk=$(($1 % ($# - 1))); shift
    _ri=0 _rhead= _rtail=
    for _rw in "$@"; do
        if [ $_ri -lt $_rk ]; then _rtail="$_rtail $_rw"; else _rhead="$_rhead $_rw"; fi
        _ri=$((_ri + 1))
    done
    echo $_rhead $_rtail
}
status=0

# run_cfg NAME PROG ARGS...: one run in configuration NAME; appends
# "value rss size" to $tmp/NAME.txt
run_cfg() {
    cfg=$1 prog=$2 key=$3; shift 3
    rm -f "$tmp"/t.*
    case $cfg in
    native) out=$("$prog" "$@") ;;
    wip15) out=$(WIP15_QUIET=1 WIP15_TIMING=${W15_TIMING:-frames} WIP15_OUTPUT=$tmp/t.wip15 LD_PRELOAD=$lib "$prog" "$@") ;;
    wip15_nostream) out=$(WIP15_QUIET=1 WIP15_STREAM=none WIP15_TIMING=${W15_TIMING:-frames} WIP15_OUTPUT=$tmp/t.wip15 LD_PRELOAD=$lib "$prog" "$@") ;;
    wip15_w0) out=$(WIP15_QUIET=1 WIP15_WORKERS=0 WIP15_TIMING=${W15_TIMING:-frames} WIP15_OUTPUT=$tmp/t.wip15 LD_PRELOAD=$lib "$prog" "$@") ;;
    wip15_lz4) out=$(WIP15_QUIET=1 WIP15_STREAM=lz4 WIP15_TIMING=${W15_TIMING:-frames} WIP15_OUTPUT=$tmp/t.wip15 LD_PRELOAD=$lib "$prog" "$@") ;;
    timing_*) out=$(WIP15_QUIET=1 WIP15_TIMING=${cfg#timing_} WIP15_OUTPUT=$tmp/t.wip15 LD_PRELOAD=$lib "$prog" "$@") ;;
    gpu_on) out=$(WIP15_QUIET=1 WIP15_GPU=on WIP15_OUTPUT=$tmp/t.wip15 LD_PRELOAD=$lib "$prog" "$@") ;;
    apitrace) out=$(apitrace trace --api egl -o "$tmp/t.trace" "$prog" "$@" 2>/dev/null) ;;
    esac
    size=$(cat "$tmp"/t.wip15 "$tmp"/t.trace 2>/dev/null | wc -c)
    cpu=$(echo "$out" | field thread_cpu_ns_per_call)
    pcpu=$(echo "$out" | field process_cpu_ns_per_call)
    echo "$(echo "$out" | field "$key") $(echo "$out" | field rss_kb) $size ${cpu:--} ${pcpu:--}" >> "$tmp/$cfg.txt"
}

bench() {
    name=$1 prog=$2 key=$3; shift 3
    cfgs="native wip15 wip15_w0 wip15_nostream wip15_lz4"
    # per-call cost of each WIP15_TIMING level (bench_calls only)
    [ "$key" = ns_per_call ] && cfgs="$cfgs ${LEVELS-timing_off timing_draws timing_all gpu_on}"
    [ $have_apitrace = 1 ] && cfgs="$cfgs apitrace"
    rm -f "$tmp"/*.txt
    i=0
    while [ $i -lt "$reps" ]; do
        for c in $(rotate $i $cfgs); do run_cfg "$c" "$prog" "$key" "$@"; done
        i=$((i + 1))
    done
    if [ "$key" = ns_per_call ] && [ "${QUIET_ONLY:-1}" != 0 ]; then
        # The host sometimes runs this VM at half speed for minutes (native
        # itself then takes 2x): keep the rounds whose native run is within
        # 8 % of the fastest one (each round runs every config once, in
        # turn), and say how many were kept.
        best=$(cut -d' ' -f4 "$tmp/native.txt" | sort -n | head -1)
        keep=$(awk -v b="$best" '{ if ($4 <= b * 1.08) print NR }' "$tmp/native.txt" | tr '\n' ' ')
        for c in $cfgs; do
            awk -v k=" $keep" 'index(k, " " NR " ")' "$tmp/$c.txt" > "$tmp/$c.q" && mv "$tmp/$c.q" "$tmp/$c.txt"
        done
        echo "# $name: $(echo $keep | wc -w) of $reps rounds kept (native thread CPU within 8 % of its best, $best ns; QUIET_ONLY=0 keeps all)"
    else
        echo "# $name: all $reps rounds kept"
    fi
    # every configuration needs 3 measured rounds among those kept
    for c in $cfgs; do
        n=$(cut -d' ' -f1 "$tmp/$c.txt" | count)
        if [ "$n" -lt 3 ]; then
            echo "# $name: only $n kept rounds measured $c: fewer than 3, no medians reported (more rounds, or a quieter machine)"
            status=1
            return
        fi
    done
    nat=$(cut -d' ' -f1 "$tmp/native.txt" | median)
    natc=$(cut -d' ' -f4 "$tmp/native.txt" | median)
    printf '%-16s %-16s %12s %12s %14s %10s %s\n' "$name" config "$key" "overhead" "trace_bytes" "rss_kb" \
        "$([ "$key" = ns_per_call ] && echo 'thread_cpu_ns (overhead)  process_cpu_ns')"
    for c in $cfgs; do
        v=$(cut -d' ' -f1 "$tmp/$c.txt" | median)
        r=$(cut -d' ' -f2 "$tmp/$c.txt" | median)
        s=$(cut -d' ' -f3 "$tmp/$c.txt" | median)
        if [ "$key" = ns_per_call ]; then
            o=$(awk -v a="$v" -v b="$nat" 'BEGIN{printf "%+.1f ns", a-b}')
        else
            o=$(awk -v a="$v" -v b="$nat" 'BEGIN{printf "%.0f%%", 100*a/b}')
        fi
        extra=
        if [ "$key" = ns_per_call ]; then
            cc=$(cut -d' ' -f4 "$tmp/$c.txt" | median)
            pc=$(cut -d' ' -f5 "$tmp/$c.txt" | median)
            extra="$cc ($(awk -v a="$cc" -v b="$natc" 'BEGIN{printf "%+.1f", a-b}'))  $pc"
        fi
        printf '%-16s %-16s %12s %12s %14s %10s %s\n' "" "$c" "$v" "$o" "$s" "$r" "$extra"
    done
}

echo "# $(date -u +%FT%TZ) $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), reps $reps (medians)"
case " ${BENCHES:-calls upload glmark2} " in *" calls "*) bench bench_calls "$calls" ns_per_call "${CALLS_ITERS:-1000000}" ;; esac
case " ${BENCHES:-calls upload glmark2} " in *" upload "*) bench bench_upload "$upload" mb_per_s "${UPLOAD_BLOCKS:-4096}" ;; esac

case " ${BENCHES:-calls upload glmark2} " in *" glmark2 "*) ;; *) GLMARK=0 ;; esac
if [ "${GLMARK:-1}" != 0 ] && command -v glmark2 > /dev/null 2>&1 && command -v Xvfb > /dev/null 2>&1; then
    disp=${XDISPLAY:-:38}
    Xvfb "$disp" -screen 0 1024x768x24 > /dev/null 2>&1 &
    xpid=$!
    sleep 1
    # a window, not --off-screen: off-screen glmark2 never swaps, so the
    # per-frame work (frame records, GPU queries) would not run at all
    gmopt=${GLMARK_OPTS:-}
    scenes="-b build:duration=3 -b texture:duration=3 -b shading:shading=phong:duration=3"
    rm -f "$tmp"/gm.*
    # gm_run CFG: one glmark2 run; its score goes to gm.CFG, the size of its
    # trace to gm.CFG.size
    gm_run() {
        score() { sed -n 's/.*Score: \([0-9]*\).*/\1/p'; }
        rm -f "$tmp"/gm.wip15 "$tmp"/gm.wtf-trace "$tmp"/gm.trace
        case $1 in
        native) DISPLAY=$disp glmark2 $gmopt $scenes 2>/dev/null | score >> "$tmp/gm.native" ;;
        wip15) DISPLAY=$disp WIP15_QUIET=1 WIP15_OUTPUT=$tmp/gm.wip15 LD_PRELOAD=$lib glmark2 $gmopt $scenes 2>/dev/null |
                   score >> "$tmp/gm.wip15" ;;
        # the default plus per-frame GPU time (WIP15_GPU=on)
        wip15_gpu_on) DISPLAY=$disp WIP15_QUIET=1 WIP15_GPU=on WIP15_OUTPUT=$tmp/gm.wip15 LD_PRELOAD=$lib glmark2 $gmopt $scenes 2>/dev/null |
                          score >> "$tmp/gm.wip15_gpu_on" ;;
        apitrace) DISPLAY=$disp apitrace trace -o "$tmp/gm.trace" glmark2 $gmopt $scenes 2>/dev/null |
                      score >> "$tmp/gm.apitrace" ;;
        esac
        case $1 in
        wip15) wc -c < "$tmp/gm.wip15" >> "$tmp/gm.wip15.size" ;;
        apitrace) wc -c < "$tmp/gm.trace" >> "$tmp/gm.apitrace.size" ;;
        esac
        rm -f "$tmp"/gm.wip15 "$tmp"/gm.wtf-trace "$tmp"/gm.trace
    }
    gcfgs="native wip15 wip15_gpu_on"
    [ $have_apitrace = 1 ] && gcfgs="$gcfgs apitrace"
    i=0
    while [ $i -lt "$reps" ]; do
        for c in $(rotate $i $gcfgs); do gm_run "$c"; done
        i=$((i + 1))
    done
    few=
    for c in $gcfgs; do
        [ "$(count < "$tmp/gm.$c")" -ge 3 ] || few="$few $c"
    done
    echo "# glmark2: $reps rounds; scores per configuration:$(for c in $gcfgs; do printf ' %s %s' "$c" "$(count < "$tmp/gm.$c")"; done)"
    if [ -n "$few" ]; then
        echo "# glmark2: fewer than 3 scores for$few: no medians reported"
        status=1
    else
        n=$(median < "$tmp/gm.native")
        printf '%-16s %-16s %12s %12s %14s\n' glmark2 config score "of native" "trace_bytes"
        printf '%-16s %-16s %12s %12s\n' "" native "$n" "100%"
        for c in $gcfgs; do
            [ $c = native ] && continue
            v=$(median < "$tmp/gm.$c")
            sz=-
            [ -f "$tmp/gm.$c.size" ] && sz=$(median < "$tmp/gm.$c.size")
            printf '%-16s %-16s %12s %12s %14s\n' "" "$c" "$v" "$(awk -v a="$v" -v b="$n" 'BEGIN{printf "%.1f%%", 100*a/b}')" "$sz"
        done
    fi
    kill $xpid 2>/dev/null
    xpid=
fi
exit $status
