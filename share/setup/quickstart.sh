#!/bin/sh
# Quick start: install the Debian packages, build omptrace, trace the bundled
# example (share/examples/heat.c) with 2 threads and print its summary.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build="$root/build"
"$root/share/setup/install-deps.sh"
CC=${CC:-clang} cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j"$(nproc)" >/dev/null
out="$build/example-trace"
rm -rf "$out"
echo "omptrace: tracing the bundled example with 1 kHz call-stack samples:"
echo "  OMP_NUM_THREADS=2 OMPTRACE_SAMPLING=1kHz build/share/omptrace -o $out build/share/examples/heat"
OMP_NUM_THREADS=2 OMPTRACE_SAMPLING=1kHz "$build/share/omptrace" -o "$out" "$build/share/examples/heat"
echo "omptrace: archive: $out/traces.otf2 (open it in Vampir, or: otf2-print $out/traces.otf2)"
"$build/converters/summary/omptrace-summary" "$out/traces.otf2"
