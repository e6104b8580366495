#!/usr/bin/env bash
# Runs kiln-demo-layer twice on a fresh cache directory: the first run records its pipelines
# (every draw waits: nothing was recorded), the second must find every one of them built by
# the replay before its first draw (W = 0). Exit 77 (skip) without a Vulkan device.
# With --driver-cache, the second run must also have loaded the first run's VkPipelineCache.
# usage: run_twice.sh DEMO DIR PIPELINES [--driver-cache]
set -u
demo=$1 dir=$2 n=$3 extra=${4:-}
rm -rf "$dir"
for run in first second; do
  output=$("$demo" --cache "$dir" --pipelines "$n" --load-ms 60000 $extra)
  status=$?
  [ $status -eq 77 ] && exit 77
  [ $status -ne 0 ] && { echo "$run run failed ($status): $output"; exit 1; }
  echo "$run run: $output"
  last=$(printf '%s\n' "$output" | tail -n 1)
  waited=$(printf '%s' "$last" | sed -n 's/.*draws that waited \([0-9]*\),.*/\1/p')
  ready=$(printf '%s' "$last" | sed -n 's/.*ready before first draw \([0-9]*\),.*/\1/p')
  if [ $run = first ] && { [ "$waited" != "$n" ] || [ "$ready" != 0 ]; }; then
    echo "first run: expected all $n draws to wait"; exit 1
  fi
  if [ $run = second ] && { [ "$waited" != 0 ] || [ "$ready" != "$n" ]; }; then
    echo "second run: $waited draws waited, $ready of $n ready"; exit 1
  fi
  loaded=$(printf '%s\n' "$output" | sed -n 's/.*driver cache loaded \([0-9]*\) bytes.*/\1/p')
  if [ $run = second ] && [ -n "$extra" ] && [ "${loaded:-0}" = 0 ]; then
    echo "second run: the driver cache saved by the first run was not loaded"; exit 1
  fi
done
rm -rf "$dir"
