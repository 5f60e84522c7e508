#!/bin/sh
# Installs the Debian packages listed in debian-packages.txt (as root, or
# through sudo), the clang-N of the test matrix's other LLVM versions, and
# unpacks their libomp N into OMPTRACE_LLVM_CACHE (see below). Does nothing
# when all of them are present already.
set -eu
here=$(dirname "$0")
# The test matrix (tests/llvm/llvm_runtimes.cmake): LLVM 14 is the system's
# clang and libomp-dev; these install clang side by side.
llvm_versions="15 16 19"
pkgs=$(grep -v '^#' "$here/debian-packages.txt" | tr '\n' ' ')
for n in $llvm_versions; do pkgs="$pkgs clang-$n"; done
missing=""
for p in $pkgs; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
# npm comes with Debian's nodejs package or with another nodejs build already
# installed (which must not be replaced), so it is checked by command.
command -v npm >/dev/null 2>&1 || missing="$missing nodejs npm"
if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
if [ -n "$missing" ]; then
  echo "omptrace: installing:$missing"
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  # shellcheck disable=SC2086
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing
fi
# Tests only: the speedscope viewer (its offline app in dist/release), pinned.
speedscope_version=1.25.0
root=$(npm root -g 2>/dev/null || true)
if ! grep -q "\"version\": \"$speedscope_version\"" "$root/speedscope/package.json" 2>/dev/null; then
  echo "omptrace: installing speedscope $speedscope_version (npm)"
  $sudo npm install -g --no-fund --no-audit --loglevel=error "speedscope@$speedscope_version"
fi
# Tests only: libomp N of the matrix. libomp-N-dev conflicts with the
# system's libomp-dev (14), so libomp5-N and libomp-N-dev are never installed
# but downloaded and unpacked: <cache>/llvm-N/usr/lib/llvm-N/lib holds
# libomp.so.5 and clang/<ver>/include/omp.h, omp-tools.h; the .deb files stay
# in <cache>/debs.
cache=${OMPTRACE_LLVM_CACHE:-/var/cache/omptrace}
for n in $llvm_versions; do
  lib="$cache/llvm-$n/usr/lib/llvm-$n/lib"
  if [ -e "$lib/libomp.so.5" ] && ls "$lib"/clang/*/include/omp-tools.h >/dev/null 2>&1; then
    continue
  fi
  echo "omptrace: unpacking libomp5-$n and libomp-$n-dev into $cache/llvm-$n"
  $sudo mkdir -p "$cache/debs" "$cache/llvm-$n"
  # apt-get download writes to the current directory, as the invoking user.
  (cd "$cache/debs" && $sudo apt-get download -qq "libomp5-$n" "libomp-$n-dev")
  for deb in "$cache/debs/libomp5-${n}_"*.deb "$cache/debs/libomp-$n-dev_"*.deb; do
    $sudo dpkg -x "$deb" "$cache/llvm-$n"
  done
done
