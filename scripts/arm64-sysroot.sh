#!/usr/bin/env bash
# Build an arm64 sysroot holding Debian's libdpdk-dev:arm64 (DPDK 22.11, generic armv8 build) and
# everything it depends on, for the cross-built conformance probe (tests/conformance/test_arm64.py).
#
# The amd64 and arm64 libdpdk-dev packages conflict, so nothing arm64 is installed system-wide: the
# .debs are fetched with `apt-get download` and unpacked with `dpkg -x` into
#     tests/conformance/.build/arm64-sysroot   (git-ignored; or the directory given as $1)
# The package list is libdpdk-dev:arm64's full recursive Depends/Pre-Depends closure, as apt resolves
# it, restricted to arm64 packages (pkg-config needs every -dev package's .pc file for libdpdk's
# Requires.private, the link needs every librte_*.so.23 its .pc names, and the probe's EAL needs the
# runtime libraries and the mempool ring driver plugin).  About 280 packages, 53 MB to download.
#
# Idempotent: when the sysroot is complete (stamp file plus the files the probe needs) it does
# nothing; `--force` rebuilds it.  Needs root for `dpkg --add-architecture` and `apt-get update`
# (only when arm64 is not yet a foreign architecture or apt knows no libdpdk-dev:arm64).
set -euo pipefail
cd "$(dirname "$0")/.."

force=0
if [[ "${1:-}" == "--force" ]]; then force=1; shift; fi
sysroot="${1:-$PWD/tests/conformance/.build/arm64-sysroot}"
multiarch=aarch64-linux-gnu
stamp="$sysroot/.mpcalc-sysroot-complete"

# files whose presence means a usable sysroot (checked again at the end)
required=(
    "usr/lib/$multiarch/pkgconfig/libdpdk.pc"
    "usr/lib/$multiarch/pkgconfig/libdpdk-libs.pc"
    "usr/include/dpdk/rte_mempool.h"
    "usr/include/$multiarch/dpdk/rte_build_config.h"
    "usr/lib/$multiarch/librte_eal.so.23"
    "usr/lib/$multiarch/librte_mempool.so.23"
    "usr/lib/$multiarch/librte_fib.so.23"
    "usr/lib/$multiarch/dpdk/pmds-23.0/librte_mempool_ring.so.23"
    "usr/lib/$multiarch/libc.so.6"
    "usr/lib/$multiarch/crt1.o"
    "usr/include/stdio.h"
    "lib/ld-linux-aarch64.so.1"
)

complete() {
    [[ -f "$stamp" ]] || return 1
    local f
    for f in "${required[@]}"; do
        [[ -e "$sysroot/$f" ]] || return 1
    done
}

if ((!force)) && complete; then
    echo "arm64 sysroot complete: $sysroot ($(wc -l <"$stamp") packages)"
    exit 0
fi

export DEBIAN_FRONTEND=noninteractive
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
    dpkg --add-architecture arm64
    apt-get update -qq
elif ! apt-cache show --no-all-versions libdpdk-dev:arm64 >/dev/null 2>&1; then
    apt-get update -qq
fi

# the recursive closure; lines of "pkg:arm64" are real packages ("<...>" are virtual ones, their
# providers are listed too, and Architecture: all packages carry no :arm64 suffix)
mapfile -t packages < <(
    apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks \
        --no-replaces --no-enhances libdpdk-dev:arm64 |
        grep -E '^[a-z0-9][a-z0-9.+-]*:arm64$' | sort -u
)
if ((${#packages[@]} < 20)); then
    echo "arm64-sysroot: apt resolved only ${#packages[@]} arm64 packages for libdpdk-dev:arm64" >&2
    exit 1
fi
# exact versions (the candidates: one apt-cache call, a per-package loop takes minutes)
mapfile -t pinned < <(
    apt-cache show --no-all-versions "${packages[@]}" |
        awk '/^Package:/ {p = $2} /^Architecture:/ {a = $2} /^Version:/ {v = $2}
             /^$/ {if (p != "") print p ":" a "=" v; p = ""}
             END {if (p != "") print p ":" a "=" v}' | sort -u
)
if ((${#pinned[@]} != ${#packages[@]})) || printf '%s\n' "${pinned[@]}" | grep -qv ':arm64='; then
    echo "arm64-sysroot: apt-cache show gave ${#pinned[@]} arm64 versions for ${#packages[@]} packages" >&2
    exit 1
fi

debs="$sysroot.debs"
mkdir -p "$debs"
# fetch what is not cached yet (apt-get download names files pkg_version_arch.deb, ':' as %3a)
need=()
for pv in "${pinned[@]}"; do
    name=${pv%%:arm64=*}
    ver=${pv#*=}
    [[ -s "$debs/${name}_${ver//:/%3a}_arm64.deb" ]] || need+=("$pv")
done
if ((${#need[@]})); then
    echo "arm64-sysroot: downloading ${#need[@]} of ${#pinned[@]} packages"
    (cd "$debs" && apt-get download -q -o APT::Sandbox::User=root "${need[@]}" >/dev/null)
fi

tmp="$sysroot.tmp$$"
rm -rf "$tmp"
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
for pv in "${pinned[@]}"; do
    name=${pv%%:arm64=*}
    ver=${pv#*=}
    dpkg -x "$debs/${name}_${ver//:/%3a}_arm64.deb" "$tmp"
done
# Debian 12 installs merged-/usr (/lib -> usr/lib), but bookworm's packages (libc6 among them) still
# ship files under /lib: merge them into usr/ and make the links, so the sysroot looks like a system
for d in lib bin sbin; do
    mkdir -p "$tmp/usr/$d"
    if [[ -d "$tmp/$d" && ! -L "$tmp/$d" ]]; then
        cp -a "$tmp/$d/." "$tmp/usr/$d/"
        rm -rf "${tmp:?}/$d"
    fi
    [[ -e "$tmp/$d" ]] || ln -s "usr/$d" "$tmp/$d"
done
# absolute symlinks (libz.so -> /lib/aarch64-linux-gnu/libz.so.1...) would point into the host:
# make them relative, inside the sysroot
while IFS= read -r -d '' link; do
    target=$(readlink "$link")
    ln -sfn "$(realpath -m --relative-to="$(dirname "$link")" "$tmp$target")" "$link"
done < <(find "$tmp" -type l -lname '/*' -print0)
printf '%s\n' "${pinned[@]}" >"$tmp/.mpcalc-sysroot-complete"
rm -rf "$sysroot"
mv "$tmp" "$sysroot"
trap - EXIT

if ! complete; then
    for f in "${required[@]}"; do
        [[ -e "$sysroot/$f" ]] || echo "arm64-sysroot: missing $sysroot/$f" >&2
    done
    rm -f "$stamp"
    exit 1
fi
echo "arm64 sysroot built: $sysroot (${#pinned[@]} packages)"
