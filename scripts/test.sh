#!/usr/bin/env bash
# Install everything mpcalc's tests need (Debian's libdpdk-dev included) and run the whole suite.
# Run as root (or with sudo) on Debian 12: the conformance suite builds a probe against the real
# DPDK 22.11 library and reserves 2 MiB hugepages, restoring the machine's settings afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."

apt_packages=(libdpdk-dev pkg-config gcc libc6-dev)
missing=()
for pkg in "${apt_packages[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if ((${#missing[@]})); then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

python3 -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check -e '.[test]'
exec .venv/bin/python -m pytest "$@"
