#!/usr/bin/env bash
# `kiln bench` through the command line: exits 0 on the synthetic corpus and on a corpus folder
# (even while translation rejects everything), leaves the JSON and SVG it was asked for,
# reports cold first calls beside the warm figures with --cold, the driver's times with
# --driver, and exits 2 on a usage error.
# usage: cli_bench.sh KILN CORPUS_DIR
set -u
kiln=$1
corpus=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

"$kiln" bench --synthetic 25 --reps 1 --quiet --json "$work/s.json" --plot "$work/s.svg" \
  >"$work/out" 2>"$work/err" || fail "bench --synthetic exited $?: $(head -3 "$work/err")"
[ -s "$work/s.json" ] || fail "no JSON written"
grep -q '"schema":"kiln-bench/1"' "$work/s.json" || fail "JSON without its schema tag"
grep -q '^<svg' "$work/s.svg" || fail "no SVG written"
grep -q '^1. Translation' "$work/out" || fail "no translation section in the report"
grep -q '^3. Cache' "$work/out" || fail "no cache section in the report"

# --cold: first-call times beside the warm ones, in the text and the JSON.
"$kiln" bench --synthetic 12 --reps 1 --quiet --no-service --cold --cold-evict-mb 1 \
  --json "$work/cold.json" --plot "$work/cold.svg" >"$work/out" 2>"$work/err" ||
  fail "bench --cold exited $?: $(head -3 "$work/err")"
grep -q '^  p50 .* shaders/s$' "$work/out" || fail "--cold lost the warm latency line"
grep -q '^  cold (first call, 1 MiB written before it), over [1-9]' "$work/out" ||
  fail "no cold latency line in the report"
grep -q '"cold":true,"cold_evict_bytes":1048576' "$work/cold.json" || fail "JSON options without cold"
grep -q '"cold_us":[0-9]' "$work/cold.json" || fail "JSON records without cold_us"
grep -q 'kiln dxbc cold' "$work/cold.svg" || fail "SVG without the cold series"
"$kiln" bench --synthetic 3 --reps 1 --quiet --no-service --json "$work/warm.json" >/dev/null 2>&1
grep -q '"cold_us"' "$work/warm.json" && fail "cold_us without --cold"
"$kiln" bench --help | grep -q -- '--cold-evict-mb' || fail "--help does not mention --cold-evict-mb"

"$kiln" bench --cold --cold-evict-mb 0 --synthetic 1 >/dev/null 2>&1
[ $? = 2 ] || fail "--cold-evict-mb 0 is not a usage error"
"$kiln" bench --cold-evict-mb 8 --synthetic 1 >/dev/null 2>&1
[ $? = 2 ] || fail "--cold-evict-mb without --cold is not a usage error"
"$kiln" bench --reps 0 >/dev/null 2>&1
[ $? = 2 ] || fail "--reps 0 is not a usage error"
"$kiln" bench --vs nothing --synthetic 1 >/dev/null 2>&1
[ $? = 2 ] || fail "--vs nothing is not a usage error"
"$kiln" bench --driver --synthetic 1 >/dev/null 2>&1
[ $? = 2 ] || fail "--driver without a PATH is not a usage error"
"$kiln" bench --help | grep -q -- '--driver' || fail "--help does not mention --driver"

if [ -d "$corpus/d3d9" ]; then
  "$kiln" bench "$corpus/d3d9" --reps 1 --quiet --no-service --json "$work/c.json" \
    >"$work/out" 2>"$work/err" || fail "bench over $corpus/d3d9 exited $?: $(head -3 "$work/err")"
  # --driver: one small DXBC shader built and run on the device (lavapipe) by both translators.
  if [ -f "$corpus/dxbc/001e00fc9a11.dxbc" ]; then
    "$kiln" bench "$corpus/dxbc/001e00fc9a11.dxbc" --reps 1 --quiet --no-service --driver \
      --json "$work/d.json" --plot "$work/d.svg" >"$work/out" 2>"$work/err" ||
      fail "bench --driver exited $?: $(head -3 "$work/err")"
    grep -q '^5. Driver time' "$work/out" || fail "no driver section in the report"
    grep -q '^  all  *1 ' "$work/out" || fail "the driver section has no row for the shader"
    grep -q '"driver_times":\[' "$work/d.json" || fail "JSON without driver_times"
    [ "$(grep -c '<svg' "$work/d.svg")" = 3 ] || fail "SVG without the driver chart under the CDF"
  fi
else
  echo "corpus not found at $corpus: corpus part skipped"
fi
[ "$failures" = 0 ] && echo "cli bench: ok"
exit "$failures"
