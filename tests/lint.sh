#!/usr/bin/env bash
# Style and static checks: clang-format must leave every C file unchanged and
# clang-tidy (.clang-tidy) must report nothing. Usage: tests/lint.sh [build-dir]
# (the build dir provides compile_commands.json; configured if missing).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-lint}
cd "$root"
mapfile -t files < <(git ls-files -co --exclude-standard -- '*.c' '*.h' | grep -v '^build')
fail=0
for f in "${files[@]}"; do
  if ! clang-format --dry-run -Werror "$f" >/dev/null 2>&1; then
    echo "lint: clang-format would change $f (run: clang-format -i $f)"
    fail=1
  fi
done
if [ ! -f "$build/compile_commands.json" ]; then
  CC=${CC:-clang} cmake -S "$root" -B "$build" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null
fi
# Only translation units the build knows (test programs included).
mapfile -t units < <(grep -o '"file": *"[^"]*\.c"' "$build/compile_commands.json" |
  sed 's/.*"\([^"]*\)"$/\1/' | sort -u)
if ((${#units[@]})); then
  if ! clang-tidy -p "$build" --quiet "${units[@]}" >"$build/clang-tidy.log" 2>&1; then
    grep -E 'warning:|error:' "$build/clang-tidy.log" | head -40
    echo "lint: clang-tidy reported problems (full log: $build/clang-tidy.log)"
    fail=1
  fi
fi
if [ "$fail" -eq 0 ]; then
  echo "lint: ${#files[@]} files formatted, ${#units[@]} translation units tidy"
fi
exit "$fail"
