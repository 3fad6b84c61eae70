#!/usr/bin/env bash
# Record what real DPDK builds write about themselves, for tests/conformance/test_build_headers.py:
# for each build below, `meson setup` (configuration only: nothing is compiled) on a tag of the DPDK git
# mirror, in a scratch directory under /tmp, then copy ONLY the files meson generates:
#     rte_build_config.h                      (config/meson.build: configure_file)
#     compile_commands.json                   (the one entry that compiles lib/mempool/rte_mempool.c,
#                                              its paths made relative: it holds the build's c_args)
#     libdpdk.pc, libdpdk-libs.pc             (buildtools/pkg-config/meson.build)
# into tests/conformance/builds/<name>/.  No DPDK source, build tree or binary is kept.
#
# usage: scripts/record-build-headers.sh [DPDK_GIT_DIR]   (default /work/.mirror/DPDK+dpdk/repo)
# meson comes from PyPI into a throwaway venv under /tmp; arm64 builds need aarch64-linux-gnu-gcc.
set -euo pipefail
cd "$(dirname "$0")/.."
repo_root=$PWD
mirror="${1:-/work/.mirror/DPDK+dpdk/repo}"
out="$repo_root/tests/conformance/builds"
scratch=$(mktemp -d /tmp/mpcalc-build-headers.XXXXXX)
trap 'rm -rf "$scratch"' EXIT

venv="${MPCALC_MESON_VENV:-/tmp/mpcalc-meson-venv}"
if [[ ! -x "$venv/bin/meson" ]]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q meson pyelftools
fi
export PATH="$venv/bin:$PATH"

# name | tag | arch (x86_64: native; else an arm64 -Dplatform= SoC for a cross setup) | -D option | c_args
builds=(
    "v24.11.6-x86_64-debug|v24.11.6|x86_64|-Dmax_lcores=128|-DRTE_LIBRTE_MEMPOOL_DEBUG"
    "v24.11.6-x86_64-stats|v24.11.6|x86_64|-Dmax_lcores=128|-DRTE_LIBRTE_MEMPOOL_STATS"
    "v21.11.9-x86_64-debug|v21.11.9|x86_64|-Dmax_lcores=128|-DRTE_LIBRTE_MEMPOOL_DEBUG"
    "v21.11.9-arm64|v21.11.9|generic|-Dmax_lcores=default|"
    "v22.11.11-arm64|v22.11.11|generic|-Dmax_lcores=default|"
    "v23.11.7-arm64|v23.11.7|generic|-Dmax_lcores=default|"
    "v24.11.6-arm64|v24.11.6|generic|-Dmax_lcores=default|"
    "v25.11.2-arm64|v25.11.2|generic|-Dmax_lcores=default|"
    "v26.07-arm64|v26.07|generic|-Dmax_lcores=default|"
    "v24.11.6-arm64-cn10k|v24.11.6|cn10k|-Dmax_lcores=default|"
)

for row in "${builds[@]}"; do
    IFS='|' read -r name tag arch lcores cargs <<<"$row"
    src="$scratch/src-$tag"
    if [[ ! -d "$src" ]]; then
        mkdir -p "$src"
        git -C "$mirror" archive "$tag" | tar -x -C "$src"
    fi
    build="$scratch/build-$name"
    opts=(-Ddefault_library=static "$lcores" -Dtests=false -Denable_docs=false -Dexamples=
          -Denable_drivers=mempool/ring,mempool/stack --prefix=/usr/local)
    [[ -n "$cargs" ]] && opts+=("-Dc_args=$cargs")
    if [[ "$arch" == x86_64 ]]; then
        opts+=(-Dplatform=generic)
    else
        cross="$scratch/cross-$arch"
        printf '%s\n' "[binaries]" "c = 'aarch64-linux-gnu-gcc'" "ar = 'aarch64-linux-gnu-gcc-ar'" \
            "strip = 'aarch64-linux-gnu-strip'" "pkg-config = 'false'" "[host_machine]" "system = 'linux'" \
            "cpu_family = 'aarch64'" "cpu = 'armv8-a'" "endian = 'little'" "[properties]" \
            "platform = '$arch'" >"$cross"
        opts+=(--cross-file "$cross")
    fi
    (cd "$src" && nice meson setup "$build" "${opts[@]}" >"$scratch/setup-$name.log" 2>&1) || {
        tail -30 "$scratch/setup-$name.log" >&2
        exit 1
    }
    dest="$out/$name"
    rm -rf "$dest"
    mkdir -p "$dest"
    cp "$build/rte_build_config.h" "$build/meson-private/libdpdk.pc" "$build/meson-private/libdpdk-libs.pc" "$dest/"
    python3 - "$build" "$dest" <<'EOF'
import json, sys
build, dest = sys.argv[1], sys.argv[2]
entries = [e for e in json.load(open(f"{build}/compile_commands.json"))
           if e["file"].endswith("lib/mempool/rte_mempool.c")]
assert len(entries) == 1, entries
e = entries[0]
for key in ("command", "file", "output"):
    e[key] = e[key].replace(build + "/", "").replace(build, ".")
e["directory"] = "."
with open(f"{dest}/compile_commands.json", "w") as f:
    json.dump([e], f, indent=1)
    f.write("\n")
EOF
    echo "recorded $dest ($(grep -c '#define' "$dest/rte_build_config.h") defines)"
done
