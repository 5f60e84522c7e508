#!/bin/sh
# The project's test command: a warnings-as-errors build running every
# ctest test, an AddressSanitizer + UndefinedBehaviorSanitizer build running
# them again, a ThreadSanitizer build running the tests labelled tsan, then
# the style checks (tests/lint.sh). Prints the ctest summaries; exits
# non-zero if anything fails.
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

mkdir -p "$root/build-test" "$root/build-asan" "$root/build-tsan"

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

step "lint"
if [ -f "$root/tests/lint.sh" ]; then
  bash "$root/tests/lint.sh" "$root/build-lint" || status=1
fi

step "result"
if [ $status -eq 0 ]; then
  echo "all tests passed"
else
  echo "FAILED (logs: build-test/ctest.log, build-asan/ctest.log, build-tsan/ctest.log under $root)"
fi
exit $status
