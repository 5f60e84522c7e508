#!/bin/sh
# The project's test command: a warnings-as-errors build running every
# ctest test, an AddressSanitizer + UndefinedBehaviorSanitizer build running
# them again, a ThreadSanitizer build running the tests labelled tsan, then
# a build without the optional features (PAPI counters, libunwind sampling)
# running the tests that still apply there, then the style checks
# (tests/lint.sh, also over that build's stand-in files). Prints the ctest
# summaries; exits non-zero if anything fails.
# Usage: tests/run.sh [extra ctest arguments]
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
jobs=${JOBS:-2}
status=0

step() { printf '\n=== %s ===\n' "$*"; }

build() { # dir, cmake options...
  dir=$1
  shift
  cmake -S "$root" -B "$root/$dir" "$@" >"$root/$dir/configure.log" 2>&1 &&
    cmake --build "$root/$dir" -j"$jobs" >"$root/$dir/build.log" 2>&1
  rc=$?
  if [ $rc -ne 0 ]; then
    echo "build of $dir failed; last lines of the log:"
    tail -n 30 "$root/$dir/configure.log" "$root/$dir/build.log"
  fi
  return $rc
}

summary() { # ctest output file
  sed -n '/tests passed/,$p' "$1"
}

logs="build-test/ctest.log build-asan/ctest.log build-tsan/ctest.log build-min/ctest.log"
mkdir -p "$root/build-test" "$root/build-asan" "$root/build-tsan" "$root/build-min"
for log in $logs; do rm -f "$root/$log"; done

# The LLVM runtime matrix (tests labelled llvm15, llvm16, llvm19: clang-N
# programs on libomp N, tests/llvm/llvm_runtimes.cmake) runs here only: the
# sanitizer builds leave it out by themselves, build-min by its option.
step "build-test: -DOMPTRACE_WERROR=ON, all tests"
if build build-test -DOMPTRACE_WERROR=ON -DOMPTRACE_SANITIZE=; then
  (cd "$root/build-test" && ctest -j"$jobs" --output-on-failure "$@") \
    >"$root/build-test/ctest.log" 2>&1 || status=1
  summary "$root/build-test/ctest.log"
else
  status=1
fi

step "build-asan: -DOMPTRACE_SANITIZE=address,undefined, all tests"
if build build-asan -DOMPTRACE_WERROR=ON -DOMPTRACE_SANITIZE=address,undefined; then
  (cd "$root/build-asan" &&
    UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
      ctest -j"$jobs" --output-on-failure "$@") >"$root/build-asan/ctest.log" 2>&1 ||
    status=1
  summary "$root/build-asan/ctest.log"
else
  status=1
fi

# libomp is not TSan-instrumented: only the tests labelled tsan (tests/tsan/)
# are built so that TSan's reports are meaningful.
step "build-tsan: -DOMPTRACE_SANITIZE=thread, tests labelled tsan"
if build build-tsan -DOMPTRACE_WERROR=ON -DOMPTRACE_SANITIZE=thread; then
  (cd "$root/build-tsan" && ctest -j"$jobs" -L tsan --output-on-failure "$@") \
    >"$root/build-tsan/ctest.log" 2>&1 || status=1
  summary "$root/build-tsan/ctest.log"
else
  status=1
fi

# Keeps the stand-ins of a build without PAPI and libunwind compiling and
# the "unavailable" lines tested; the recorder, summary and unit tests run
# there too (the feature tests are not registered).
step "build-min: -DOMPTRACE_COUNTERS=OFF -DOMPTRACE_SAMPLING=OFF"
if build build-min -DOMPTRACE_WERROR=ON -DOMPTRACE_SANITIZE= -DOMPTRACE_COUNTERS=OFF \
  -DOMPTRACE_SAMPLING=OFF -DCMAKE_EXPORT_COMPILE_COMMANDS=ON -DOMPTRACE_LLVM_MATRIX=OFF; then
  (cd "$root/build-min" && ctest -j"$jobs" -E 'tasks_10m|linear_finalize' --output-on-failure "$@") \
    >"$root/build-min/ctest.log" 2>&1 || status=1
  summary "$root/build-min/ctest.log"
else
  status=1
fi

step "lint"
if [ -f "$root/tests/lint.sh" ]; then
  bash "$root/tests/lint.sh" "$root/build-lint" || status=1
  # The stand-in files are compiled only in build-min.
  if [ -f "$root/build-min/compile_commands.json" ]; then
    (cd "$root" && clang-tidy -p build-min --quiet recorder/services/counters_none.c \
      recorder/services/sampler_none.c >"$root/build-min/clang-tidy.log" 2>&1) || {
      grep -E 'warning:|error:' "$root/build-min/clang-tidy.log" | head -20
      echo "lint: clang-tidy reported problems in the stand-in files"
      status=1
    }
  fi
fi

step "result"
# The output of every failed test, last lines first in reach of a log tail.
for log in $logs; do
  [ -f "$root/$log" ] || continue
  awk -v lg="$log" '
    /Test +#[0-9]+: .*\*\*\*(Failed|Exception|Timeout)|Test +#[0-9]+: .*(Failed|SEGFAULT|Timeout) / {
      keep = 1; n = 0; name = $0; next }
    /^ *(Start +[0-9]+:|[0-9]+\/[0-9]+ Test +#)|tests passed,/ {
      if (keep) { print "--- " lg ": " name; s = n > 30 ? n - 30 : 0
        for (i = s; i < n; i++) print buf[i] }
      keep = 0 }
    keep { buf[n++] = $0 }' "$root/$log"
done
# One closing line over every ctest run: "N passed, N failed".
passed=0
failed=0
for log in $logs; do
  line=$(grep -E 'tests passed, [0-9]+ tests? failed out of [0-9]+' "$root/$log" 2>/dev/null | tail -n 1)
  [ -n "$line" ] || continue
  f=$(echo "$line" | sed -E 's/.*passed, ([0-9]+) tests? failed out of ([0-9]+).*/\1/')
  n=$(echo "$line" | sed -E 's/.*failed out of ([0-9]+).*/\1/')
  passed=$((passed + n - f))
  failed=$((failed + f))
done
if [ $status -eq 0 ]; then
  echo "all tests passed"
else
  echo "FAILED (logs: $logs under $root)"
fi
# A failed build or lint step counts as one failure.
if [ $status -ne 0 ] && [ $failed -eq 0 ]; then failed=1; fi
echo "tests: $passed passed, $failed failed"
exit $status
