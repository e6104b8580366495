#!/usr/bin/env bash
# Installation, tested as a user meets it: `cmake --install` into a fresh prefix, then
#   1. a C program built with `pkg-config kiln` translates a shader,
#   2. the same program built by a CMake project with find_package(kiln),
#   3. a D3D12 program (Debian's libvkd3d) runs on the installed libvkd3d-shader.so.1, selected
#      by LD_LIBRARY_PATH, and every compile it makes is served by kiln.
# usage: install_test.sh BUILD_DIR SOURCE_DIR D3D12_PROGRAM SHARED_DIR
set -euo pipefail
build=$1 source=$2 d3d12_program=$3 shared=$4
# shellcheck source=../vkd3d_shader/stats_line.sh
source "$source/tests/plugin/vkd3d_shader/stats_line.sh"
shader=$shared/conformance/tests/uav-atomics/2.cs.sm5.dxbc
if [ ! -e "$shader" ]; then
  echo "missing $shader"
  [ "${CI:-}" = "true" ] && exit 1
  exit 77
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
prefix=$scratch/prefix
cmake --install "$build" --prefix "$prefix" >/dev/null
libdir=$(find "$prefix" -name libkiln.so -printf '%h\n' | head -n 1)
[ -n "$libdir" ] || { echo "FAIL: libkiln.so not installed"; exit 1; }
export KILN_CACHE_PATH=$scratch/cache

echo "== pkg-config"
export PKG_CONFIG_PATH=$libdir/pkgconfig
# shellcheck disable=SC2046 # pkg-config's flags are words
cc -std=c99 -Wall -Werror "$source/tests/install/consumer/consumer.c" $(pkg-config --cflags --libs kiln) \
  -o "$scratch/consumer-pc"
LD_LIBRARY_PATH=$libdir "$scratch/consumer-pc" "$shader"

echo "== find_package(kiln)"
cmake -S "$source/tests/install/consumer" -B "$scratch/consumer" -DCMAKE_PREFIX_PATH="$prefix" \
  >/dev/null
cmake --build "$scratch/consumer" >/dev/null
LD_LIBRARY_PATH=$libdir "$scratch/consumer/consumer" "$shader"

echo "== D3D12 on the installed libvkd3d-shader.so.1"
[ -e "$libdir/kiln/libvkd3d-shader.so.1" ] || { echo "FAIL: no $libdir/kiln/libvkd3d-shader.so.1"; exit 1; }
stats=$(stats_line "$(LD_LIBRARY_PATH=$libdir/kiln KILN_VKD3D_SHADER_STATS=1 "$d3d12_program" "$shader" 2>&1 >/dev/null)")
echo "$stats"
served_by_kiln "$stats" || { echo "FAIL: kiln did not serve every compile and scan"; exit 1; }
echo "installation works"
