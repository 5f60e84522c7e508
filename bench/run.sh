#!/bin/sh
# Benchmark omptrace against no tool and a no-op OMPT tool on EPCC-style
# microbenchmarks. Builds the needed targets if missing, then runs
# bench/epcc_run.py (interleaved processes, medians over repetitions).
#
#   bench/run.sh [--build-dir DIR] [--quick] [--reps N] [--constructs a,b] [--keep] ...
#
# DIR defaults to $OMPTRACE_BUILD_DIR or <repo>/build. Other options go to
# epcc_run.py (see bench/epcc_run.py --help). A full run takes about a minute
# on a quiet 2-core machine (up to ~5 when it is busy); --quick a third of that.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
build=${OMPTRACE_BUILD_DIR:-$repo/build}
if [ "${1:-}" = "--build-dir" ] && [ $# -ge 2 ]; then
  build=$2
  shift 2
fi

# Configure every time, so a changed CMake option or source list is picked up.
if [ -f "$build/CMakeCache.txt" ]; then
  cmake "$build" >/dev/null
else
  cmake -S "$repo" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
cmake --build "$build" -j2 --target ot_epcc ot_hotpath ot_noop_tool ot_count_tool >/dev/null
# If the recorder does not build, measure no tool vs no-op only (never a
# stale libomptrace.so).
extra=
if ! cmake --build "$build" -j2 --target omptrace >/dev/null 2>&1; then
  echo "note: target omptrace did not build (cmake --build $build --target omptrace)" >&2
  extra=--no-omptrace
fi

exec /usr/bin/python3 "$here/epcc_run.py" --build "$build" $extra "$@"
