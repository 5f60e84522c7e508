#!/bin/sh
# Instructions per OMPT callback in omptrace's handlers, from callgrind:
# runs one ot_epcc kernel under valgrind with omptrace once per callback,
# counting only inside that handler, and divides by the number of times
# libomp called it (counted with the counting tool on the same run size).
# Also gives finalize's marginal instructions per event. Instruction counts
# do not depend on the machine's load, unlike times.
#
#   bench/epcc_callgrind.sh [--build-dir DIR] [KERNEL] [SCALE]
#
# DIR (default /tmp/omptrace-callgrind-build) is configured with -gdwarf-4:
# valgrind 3.19 cannot read clang 14's default DWARF 5. Extra omptrace
# settings come from the environment (OMPTRACE_*).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
build=/tmp/omptrace-callgrind-build
if [ "${1:-}" = "--build-dir" ] && [ $# -ge 2 ]; then
  build=$2
  shift 2
fi
kernel=${1:-parallel}
scale=${2:-0.05}
command -v valgrind >/dev/null || { echo "valgrind not installed" >&2; exit 1; }

if [ -f "$build/CMakeCache.txt" ]; then
  cmake "$build" >/dev/null # re-glob the source lists
else
  cmake -S "$repo" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_FLAGS=-gdwarf-4 \
    -DOMPTRACE_BUILD_TESTS=OFF >/dev/null
fi
cmake --build "$build" -j2 --target omptrace ot_epcc ot_count_tool >/dev/null

work=$(mktemp -d /tmp/omptrace-callgrind.XXXXXX)
trap 'rm -rf "$work"' EXIT
export OMP_NUM_THREADS=2
args="--blocks 1 --scale $scale $kernel"

OMP_TOOL_LIBRARIES=$build/bench/libot_count_tool.so OT_COUNT_OUT=$work/counts \
  "$build/bench/ot_epcc" $args >/dev/null

# Instructions executed inside the given handlers (and what they call).
# One run per callback: collection toggled on that handler only, which also
# charges tail-called helpers shared by several handlers correctly.
ir_inside() {
  rm -rf "$work/archive"
  OMP_TOOL_LIBRARIES=$build/recorder/libomptrace.so OMPTRACE_QUIET=1 \
    OMPTRACE_OUTPUT=$work/archive valgrind --tool=callgrind --collect-atstart=no \
    --toggle-collect="$1" --callgrind-out-file="$work/cg.out" \
    "$build/bench/ot_epcc" $args >/dev/null 2>"$work/valgrind.log" ||
    { cat "$work/valgrind.log" >&2; exit 1; }
  sed -n 's/^summary: *//p; s/^totals: *//p' "$work/cg.out" | head -1
}

echo "kernel $kernel (scale $scale), 2 threads: instructions per OMPT callback in omptrace"
printf '%-20s %10s %12s %8s\n' callback calls instructions per-call
sum_ir=0 sum_n=0
for line in $(grep '^ompt_callback_' "$work/counts"); do
  cb=${line%%=*}
  cb=${cb#ompt_callback_}
  n=${line#*=}
  case $cb in thread_begin | thread_end) continue ;; esac
  ir=$(ir_inside "on_ompt_callback_$cb")
  [ -n "$ir" ] || exit 1
  sum_ir=$((sum_ir + ir)) sum_n=$((sum_n + n))
  awk -v c="$cb" -v n="$n" -v i="$ir" 'BEGIN { printf "%-20s %10d %12d %8.1f\n", c, n, i, i / n }'
done
awk -v n="$sum_n" -v i="$sum_ir" 'BEGIN { printf "%-20s %10d %12d %8.1f\n", "all", n, i, i / n }'
# Finalize: marginal instructions per event, from this run and one with
# 4 times the instances (fixed costs such as DWARF loading cancel out).
fin1=$(ir_inside "ot_finalize_write")
[ -n "$fin1" ] || exit 1
ev1=$(sed -n 's/^total=//p' "$work/counts")
args="--blocks 1 --scale $(awk -v s="$scale" 'BEGIN { print 4 * s }') $kernel"
OMP_TOOL_LIBRARIES=$build/bench/libot_count_tool.so OT_COUNT_OUT=$work/counts \
  "$build/bench/ot_epcc" $args >/dev/null
fin2=$(ir_inside "ot_finalize_write")
[ -n "$fin2" ] || exit 1
ev2=$(sed -n 's/^total=//p' "$work/counts")
awk -v f1="$fin1" -v f2="$fin2" -v e1="$ev1" -v e2="$ev2" 'BEGIN {
  printf "finalize (ot_finalize_write): %d instructions for %d events, %d for %d: %.0f per event\n",
    f1, e1, f2, e2, (f2 - f1) / (e2 - e1) }'
