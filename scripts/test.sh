#!/usr/bin/env bash
# Install everything mpcalc's tests need (Debian's libdpdk-dev included) and run the whole suite.
#
# Run as root (or with sudo) on Debian 12: the conformance suite builds a probe against the real
# DPDK 22.11 library and reserves 2 MiB hugepages, restoring the machine's settings afterwards.
# For arm64 it cross-builds the probe against Debian's libdpdk-dev:arm64, unpacked into a git-ignored
# sysroot (scripts/arm64-sysroot.sh), and runs it under qemu-aarch64-static.
#
# Each step says what it does and how long it took; the tools' own output goes to
# tests/conformance/.build/test-setup.log (its tail is shown when a step fails).  What it changes on
# the machine, and what it puts back, is listed in docs/setup.md ("What scripts/test.sh changes on the machine").
# Extra arguments go to pytest: bash scripts/test.sh -k rib
set -euo pipefail
cd "$(dirname "$0")/.."

if ((EUID != 0)); then
    if command -v sudo >/dev/null; then
        echo "scripts/test.sh: root is needed (apt, hugepages): running it again with sudo" >&2
        exec sudo --preserve-env=PIP_INDEX_URL,PIP_EXTRA_INDEX_URL,PIP_CERT,http_proxy,https_proxy bash "$0" "$@"
    fi
    echo "scripts/test.sh: run me as root (apt-get, hugepages)" >&2
    exit 2
fi

build=tests/conformance/.build
mkdir -p "$build"
log="$build/test-setup.log"
: >"$log"
start=$SECONDS
step_no=0
steps=3

# step "what it does" command...: one line on the terminal, the command's output in the log
step() {
    local what=$1 t0=$SECONDS
    shift
    step_no=$((step_no + 1))
    printf '==> [%d/%d] %s ... ' "$step_no" "$steps" "$what"
    printf '\n==> %s\n$ %s\n' "$what" "$*" >>"$log"
    if "$@" >>"$log" 2>&1; then
        printf 'done (%ds)\n' $((SECONDS - t0))
    else
        local rc=$?
        printf 'FAILED (exit %d after %ds); the end of %s:\n' "$rc" $((SECONDS - t0)) "$log"
        tail -n 25 "$log" | sed 's/^/    /'
        exit "$rc"
    fi
}

export DEBIAN_FRONTEND=noninteractive # no debconf dialogs or their warnings
apt_quiet=(-q -o Dpkg::Use-Pty=0 -o Dpkg::Progress-Fancy=0 -o APT::Color=0)

# 1. Debian packages: DPDK 22.11 and the C tool chain for the probe, the arm64 cross compiler and qemu
#    for the arm64 probe, Python's venv module, Open vSwitch's DPDK build (for `mpcalc app ovs` checks)
apt_packages=(python3 python3-venv libdpdk-dev dpdk-dev dpdk-doc make pkg-config gcc libc6-dev gcc-aarch64-linux-gnu
              qemu-user-static openvswitch-switch-dpdk)
missing=()
for pkg in "${apt_packages[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
# (functions run by step: errexit does not apply inside its `if`, so each command checks its own status)
apt_install() {
    apt-get "${apt_quiet[@]}" update || return
    apt-get "${apt_quiet[@]}" install -y --no-install-recommends "$@"
}
if ((${#missing[@]})); then
    step "apt: installing ${missing[*]} (the first run downloads about 210 MB)" apt_install "${missing[@]}"
else
    step "apt: ${#apt_packages[@]} packages already installed" true
fi

# 2. arm64 sysroot: Debian's libdpdk-dev:arm64 and what it depends on, unpacked (nothing arm64 is
#    installed).  arm64-sysroot.sh adds arm64 as a foreign apt architecture to download them; when this
#    machine did not have it, it is removed again and apt's lists are brought back to what they were.
had_arm64=0
dpkg --print-foreign-architectures | grep -qx arm64 && had_arm64=1
drop_arm64() {
    if ((!had_arm64)) && dpkg --print-foreign-architectures | grep -qx arm64; then
        dpkg --remove-architecture arm64 && apt-get "${apt_quiet[@]}" update
    fi
}
sysroot() {
    bash scripts/arm64-sysroot.sh || return
    drop_arm64
}
trap drop_arm64 EXIT # also when the download fails or is interrupted
step "arm64 sysroot in $build/arm64-sysroot (the first run downloads about 290 packages, 55 MB)" sysroot
trap - EXIT

# 3. the virtual environment: mpcalc, editable, with the test tools (pytest, hypothesis, jsonschema,
#    matplotlib, ruff, mypy, mkdocs, jq)
step "Python: .venv with mpcalc and its test tools" \
    bash -c 'python3 -m venv .venv && .venv/bin/python -m pip install -q --disable-pip-version-check -e ".[test]"'

echo "==> setup took $((SECONDS - start))s; now pytest: the conformance suite against the real DPDK (probes" \
    "built with gcc, at most ${MPCALC_MAX_PROBES:-4} running at once, arm64 under qemu), the unit tests, the doctests"
exec .venv/bin/python -m pytest "$@"
