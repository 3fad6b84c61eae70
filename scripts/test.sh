#!/usr/bin/env bash
# Install everything mpcalc's tests need (Debian's libdpdk-dev included) and run the whole suite.
# Run as root (or with sudo) on Debian 12: the conformance suite builds a probe against the real
# DPDK 22.11 library and reserves 2 MiB hugepages, restoring the machine's settings afterwards.
# For arm64 it cross-builds the probe against Debian's libdpdk-dev:arm64, unpacked into a git-ignored
# sysroot (scripts/arm64-sysroot.sh), and runs it under qemu-aarch64-static.
set -euo pipefail
cd "$(dirname "$0")/.."

apt_packages=(libdpdk-dev dpdk-dev pkg-config gcc libc6-dev gcc-aarch64-linux-gnu qemu-user-static)
missing=()
for pkg in "${apt_packages[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if ((${#missing[@]})); then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# arm64 conformance: Debian's libdpdk-dev:arm64 and its dependencies in tests/conformance/.build/
# (does nothing when that sysroot is already complete)
bash scripts/arm64-sysroot.sh

python3 -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check -e '.[test]'
exec .venv/bin/python -m pytest "$@"
