#!/usr/bin/env bash
# Installs the Debian packages realm-replay needs to build and test (skips apt when all are present).
set -euo pipefail

PACKAGES=(
  g++ cmake ninja-build pkg-config python3 git
  libboost-dev libboost-graph-dev libtbb-dev
  libzstd-dev liblzma-dev zlib1g-dev libarchive-dev libxxhash-dev
  libcli11-dev nlohmann-json3-dev libfmt-dev libtomlplusplus-dev
  libgtest-dev libbenchmark-dev libsqlite3-dev sqlite3
  python3-dev pybind11-dev python3-pybind11 python3-numpy python3-pandas python3-matplotlib python3-pytest
  zstd xz-utils gzip tar
  openmpi-bin libopenmpi-dev
  chromium
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "Installing: ${missing[*]}" >&2
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
