#!/usr/bin/env bash
# The floor plan (docs/architecture.md, "The floors"): every `#include "..."` of a source folder
# names a header of its own floor or a floor below. Fails with the offending lines.
# usage: layering_test.sh SOURCE_ROOT
set -euo pipefail
cd "$1"

# folder|allowed include prefixes (space-separated; `kiln/` is the public C headers, include/)
rules=(
  "translator/common|translator/common/ kiln/"
  "translator/ir|translator/common/ translator/ir/"
  "translator/dxbc|translator/common/ translator/ir/ translator/dxbc/ kiln/"
  "translator/d3d9|translator/common/ translator/ir/ translator/d3d9/"
  "translator/passes|translator/common/ translator/ir/ translator/passes/"
  "translator/spirv|translator/common/ translator/ir/ translator/spirv/"
  "cache|translator/ cache/"
  "plugin/service|translator/ cache/ plugin/service/"
  "plugin/abi|kiln/ translator/ cache/ plugin/service/ plugin/abi/"
  "plugin/vkd3d_shader|translator/ cache/ plugin/service/ plugin/vkd3d_shader/"
  "hooks|kiln/ translator/ cache/ plugin/service/ plugin/abi/ hooks/"
  # The micro benchmarks share the IR test programs of tests/translator/ir.
  "bench|kiln/ translator/ cache/ plugin/ hooks/ bench/ tests/translator/ir/test_programs.h"
)

bad=0
for rule in "${rules[@]}"; do
  folder=${rule%%|*}
  read -r -a allowed <<<"${rule#*|}"
  # Sources of this folder, not of a deeper folder with a rule of its own (translator/ holds
  # translator/ir etc.; the top-level files of translator/ are checked with translator/*).
  while IFS=: read -r file line text; do
    header=$(sed -E 's/^[[:space:]]*#[[:space:]]*include[[:space:]]+"([^"]+)".*/\1/' <<<"$text")
    [[ $header == */* ]] || continue # a header beside the source
    ok=0
    for prefix in "${allowed[@]}"; do
      [[ $header == "$prefix"* ]] && ok=1 && break
    done
    if [ "$ok" = 0 ]; then
      echo "$file:$line: $folder includes $header (a higher floor)"
      bad=1
    fi
  done < <(grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]+"' "$folder" \
             --include='*.h' --include='*.cpp' --include='*.c' --include='*.inc' || true)
done
# The top-level files of translator/ (translate.*, translation_key.*) use only the translator.
while IFS=: read -r file line text; do
  header=$(sed -E 's/^[[:space:]]*#[[:space:]]*include[[:space:]]+"([^"]+)".*/\1/' <<<"$text")
  [[ $header == */* && $header != translator/* && $header != kiln/* ]] || continue
  echo "$file:$line: translator includes $header (a higher floor)"
  bad=1
done < <(grep -nHE '^[[:space:]]*#[[:space:]]*include[[:space:]]+"' translator/*.h translator/*.cpp)
[ "$bad" = 0 ] && echo "every #include runs down the floors"
exit "$bad"
