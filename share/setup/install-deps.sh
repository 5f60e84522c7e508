#!/bin/sh
# Installs the Debian packages listed in debian-packages.txt (as root, or
# through sudo). Does nothing when all of them are present already.
set -eu
here=$(dirname "$0")
pkgs=$(grep -v '^#' "$here/debian-packages.txt" | tr '\n' ' ')
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
