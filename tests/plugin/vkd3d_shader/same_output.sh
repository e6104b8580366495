#!/usr/bin/env bash
# Runs a program twice, the reference run and one with kiln's libvkd3d-shader (DROPIN_DIR first
# on LD_LIBRARY_PATH, a fresh cache, KILN_VKD3D_SHADER_STATS=1), and fails unless
#   - both runs succeed (with --as-kiln: end alike) and print the same output,
#   - that output is EXPECTED,
#   - kiln's stats line shows every compile served by kiln: "N compiles, N by kiln, 0 forwarded",
#     and every scan, if the program scanned: "; S scans, S by kiln, 0 forwarded". With
#     KILN_VKD3D_SHADER_FORWARD set (stages sent to the system library on purpose), the compiles
#     are kiln's or forwarded as `forced` instead, at least one of each.
# With EXPECTED = --as-kiln, PROGRAM is kiln-conformance: the reference run is kiln translating
# itself, the second adds `--translator vkd3d`, and their last lines (the pass counts) must agree.
# Otherwise the reference run uses the system's libvkd3d-shader.
# usage: same_output.sh DROPIN_DIR (EXPECTED | --as-kiln) PROGRAM [ARGS...]
# Exit 77 (skipped) when an input file named in ARGS is missing, unless CI=true.
set -uo pipefail
# shellcheck source=stats_line.sh
source "$(dirname "${BASH_SOURCE[0]}")/stats_line.sh"
dropin_dir=$1 expected=$2
shift 2
for arg in "$@"; do
  if [[ $arg == /* && $arg == *.dxbc && ! -e $arg ]]; then
    echo "missing $arg"
    [ "${CI:-}" = "true" ] && exit 1
    exit 77
  fi
done
vkd3d_translator=()
[ "$expected" = "--as-kiln" ] && vkd3d_translator=(--translator vkd3d)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

"$@" >"$scratch/real.out" 2>"$scratch/real.err"
status=$?
[ $status -eq 77 ] && { cat "$scratch/real.out"; exit 77; }
LD_LIBRARY_PATH="$dropin_dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" KILN_VKD3D_SHADER_STATS=1 \
  KILN_CACHE_PATH="$scratch/cache" "$@" ${vkd3d_translator[@]+"${vkd3d_translator[@]}"} \
  >"$scratch/kiln.out" 2>"$scratch/kiln.err"
kiln_status=$?

if [ "$expected" = "--as-kiln" ]; then
  real=$(tail -n 1 "$scratch/real.out") kiln=$(tail -n 1 "$scratch/kiln.out")
else
  real=$(cat "$scratch/real.out") kiln=$(cat "$scratch/kiln.out")
fi
stats=$(stats_line "$(cat "$scratch/kiln.err")")
echo "reference run (exit $status): $real"
echo "with kiln's libvkd3d-shader (exit $kiln_status): $kiln"
echo "$stats"
fail=0
if [ "$expected" = "--as-kiln" ]; then
  # kiln-conformance exits 1 when a verified case fails; both runs must fail the same cases.
  [ $status -eq $kiln_status ] || { echo "FAIL: the runs ended differently"; fail=1; }
else
  [ $status -eq 0 ] || { echo "FAIL: the reference run failed"; tail -n 5 "$scratch/real.err"; fail=1; }
  [ $kiln_status -eq 0 ] || { echo "FAIL: the run with kiln's library failed"; tail -n 5 "$scratch/kiln.err"; fail=1; }
fi
[ "$real" = "$kiln" ] || { echo "FAIL: the outputs differ"; fail=1; }
if [ "$expected" != "--as-kiln" ] && [ "$kiln" != "$expected" ]; then
  echo "FAIL: expected: $expected"
  fail=1
fi
if [ -n "${KILN_VKD3D_SHADER_FORWARD:-}" ]; then
  if ! served_with_forced "$stats"; then
    echo "FAIL: expected every compile by kiln or forced to the system library" \
      "(KILN_VKD3D_SHADER_FORWARD=$KILN_VKD3D_SHADER_FORWARD), at least one of each"
    fail=1
  fi
elif ! served_by_kiln "$stats"; then
  echo "FAIL: kiln did not serve every compile and scan"
  fail=1
fi
exit $fail
