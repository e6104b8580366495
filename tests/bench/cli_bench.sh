#!/usr/bin/env bash
# `kiln bench` through the command line: exits 0 on the synthetic corpus and on a corpus folder
# (even while translation rejects everything), leaves the JSON and SVG it was asked for,
# and exits 2 on a usage error.
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

"$kiln" bench --reps 0 >/dev/null 2>&1
[ $? = 2 ] || fail "--reps 0 is not a usage error"
"$kiln" bench --vs nothing --synthetic 1 >/dev/null 2>&1
[ $? = 2 ] || fail "--vs nothing is not a usage error"

if [ -d "$corpus/d3d9" ]; then
  "$kiln" bench "$corpus/d3d9" --reps 1 --quiet --no-service --json "$work/c.json" \
    >"$work/out" 2>"$work/err" || fail "bench over $corpus/d3d9 exited $?: $(head -3 "$work/err")"
else
  echo "corpus not found at $corpus: corpus part skipped"
fi
[ "$failures" = 0 ] && echo "cli bench: ok"
exit "$failures"
