#!/bin/sh
# Conversion speed, output size and peak memory of omptrace-convert on a
# synthetic archive of about EVENTS records (tests/summary/gen_archive.c
# "big": parallel loops on 2 threads). Prints one line per format.
#
#   bench/convert.sh [--build-dir DIR] [EVENTS]     (default 1000000)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
build=${OMPTRACE_BUILD_DIR:-$repo/build}
if [ "${1:-}" = "--build-dir" ] && [ $# -ge 2 ]; then
  build=$2
  shift 2
fi
events=${1:-1000000}
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$repo" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
cmake --build "$build" -j2 --target omptrace-convert summary_gen_archive >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$build/tests/summary/summary_gen_archive" big "$work/big" "$events"
for fmt in chrome speedscope; do
  /usr/bin/time -f "%e %M" -o "$work/time" \
    "$build/converters/convert/omptrace-convert" "$work/big" --to "$fmt" -o "$work/out.json" \
    2>"$work/err"
  read -r secs kb <"$work/time"
  tail -n 1 "$work/err" | sed "s|$work/||"
  awk -v f="$fmt" -v s="$secs" -v kb="$kb" -v e="$events" \
    'BEGIN { printf "%s: %.2f s for ~%d archive records (%.2f M records/s), peak RSS %.1f MB\n",
             f, s, e, e / s / 1e6, kb / 1024 }'
done
