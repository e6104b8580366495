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

# One pass: every quoted #include of every source, as "file:line:header", checked by awk against
# the rule of the longest folder that contains the file.
rules_text=$(printf '%s\n' "${rules[@]}")
grep -rnoE '^[[:space:]]*#[[:space:]]*include[[:space:]]+"[^"]+"' translator cache plugin hooks bench \
  --include='*.h' --include='*.cpp' --include='*.c' --include='*.inc' |
  awk -v rules="$rules_text" '
    BEGIN {
      n = split(rules, lines, "\n")
      for (i = 1; i <= n; i++) {
        if (lines[i] == "") continue
        split(lines[i], parts, "|")
        folder[++count] = parts[1]; allowed[count] = parts[2]
      }
    }
    {
      split($0, field, ":"); file = field[1]; line = field[2]
      header = $0; sub(/^[^"]*"/, "", header); sub(/".*$/, "", header)
      if (header !~ /\//) next # a header beside the source
      best = 0
      for (i = 1; i <= count; i++)
        if (index(file, folder[i] "/") == 1 && (best == 0 || length(folder[i]) > length(folder[best])))
          best = i
      if (best == 0) {
        # The top-level files of translator/ (translate.*, translation_key.*): the translator only.
        if (file ~ /^translator\/[^\/]+$/ && header !~ /^(translator|kiln)\//) {
          print file ":" line ": translator includes " header " (a higher floor)"; bad = 1
        }
        next
      }
      ok = 0; m = split(allowed[best], prefixes, " ")
      for (j = 1; j <= m; j++) if (index(header, prefixes[j]) == 1) { ok = 1; break }
      if (!ok) { print file ":" line ": " folder[best] " includes " header " (a higher floor)"; bad = 1 }
    }
    END {
      if (!bad) print "every #include runs down the floors"
      exit bad
    }'
