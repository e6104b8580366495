#!/usr/bin/env bash
# Checks the kiln command's contract: every subcommand answers --help with exit 0, usage
# errors exit 2, rejected inputs exit 1 with one "kiln: FILE: reason" line, and no file of the
# corpus (valid, DXIL, effects, malformed) makes `kiln translate` crash or hang.
set -u
kiln=$1
corpus=${KILN_CORPUS_DIR:-$2}
failures=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

check() { # check EXPECTED_RC DESCRIPTION CMD...
  local expected=$1 what=$2
  shift 2
  "$@" >"$work/out" 2>"$work/err"
  local rc=$?
  if [ "$rc" != "$expected" ]; then
    echo "FAIL: $what: exit $rc, expected $expected"; sed 's/^/  /' "$work/err" | head -5
    failures=$((failures + 1))
  fi
}

check 0 "kiln --help" "$kiln" --help
check 2 "kiln with no command" "$kiln"
check 2 "unknown command" "$kiln" frobnicate
for cmd in translate disasm bench execute cache; do
  check 0 "kiln $cmd --help" "$kiln" "$cmd" --help
  grep -q "usage: kiln $cmd" "$work/out" || { echo "FAIL: $cmd --help prints no usage"; failures=$((failures + 1)); }
done
check 2 "translate without input" "$kiln" translate
check 2 "translate with unknown option" "$kiln" translate x --bogus
check 2 "translate with bad target" "$kiln" translate x --target vulkan9
check 2 "translate with an unknown extension" "$kiln" translate x --extensions demote,frob
check 2 "unknown cache action" "$kiln" cache frob
check 2 "execute without a path" "$kiln" execute
check 2 "execute with a bad timeout" "$kiln" execute x --timeout 0
check 1 "translate of a missing file" "$kiln" translate "$work/missing.dxbc"
grep -q "^kiln: $work/missing.dxbc: " "$work/err" || { echo "FAIL: no 'kiln: FILE: reason' line"; failures=$((failures + 1)); }
printf 'garbage!' >"$work/garbage.bin"
check 1 "translate of garbage" "$kiln" translate "$work/garbage.bin" -o "$work/garbage.spv"

if [ -d "$corpus" ]; then
  # Vulkan 1.0 without optional extensions: a shader needing one is rejected naming it.
  stencil=$(grep -l "SV_StencilRef" "$corpus"/dxbc/*.hlsl 2>/dev/null | head -1)
  for file in "$corpus"/dxbc/*.dxbc; do
    check 0 "translate --target vulkan1.0 --extensions none --validate" \
      "$kiln" translate "$file" -o "$work/v10.spv" --target vulkan1.0 --extensions none --validate
    break
  done
  # --debug-names: valid SPIR-V that carries names (OpName) the plain translation does not.
  for file in "$corpus"/dxbc/*.dxbc; do
    check 0 "translate --debug-names --validate" \
      "$kiln" translate "$file" -o "$work/named.spv" --debug-names --validate
    check 0 "translate without --debug-names" "$kiln" translate "$file" -o "$work/plain.spv"
    if [ "$(stat -c %s "$work/named.spv")" -le "$(stat -c %s "$work/plain.spv")" ]; then
      echo "FAIL: --debug-names added no names to $file"; failures=$((failures + 1))
    fi
    break
  done
  if [ -n "$stencil" ] && [ -f "${stencil%.hlsl}.dxbc" ]; then
    check 1 "stencil export without the extension" \
      "$kiln" translate "${stencil%.hlsl}.dxbc" -o "$work/v10.spv" --target vulkan1.0 --extensions none
    grep -q "VK_EXT_shader_stencil_export" "$work/err" ||
      { echo "FAIL: the rejection does not name VK_EXT_shader_stencil_export"; failures=$((failures + 1)); }
    check 0 "stencil export with the extension" \
      "$kiln" translate "${stencil%.hlsl}.dxbc" -o "$work/v10.spv" --target vulkan1.0 \
      --extensions stencil-export --validate
  fi

  crashes=0 total=0
  while IFS= read -r -d '' file; do
    case "$file" in *.hlsl|*.txt|*.json|*.tsv|*.md) continue ;; esac
    total=$((total + 1))
    timeout 20 "$kiln" translate "$file" -o "$work/out.spv" >/dev/null 2>"$work/err"
    rc=$?
    if [ "$rc" != 0 ] && [ "$rc" != 1 ]; then
      echo "FAIL: kiln translate $file: exit $rc"; head -3 "$work/err"
      crashes=$((crashes + 1))
    elif [ "$rc" = 1 ] && ! grep -q "^kiln: " "$work/err"; then
      echo "FAIL: kiln translate $file: rejected without a reason"; crashes=$((crashes + 1))
    fi
  done < <(find "$corpus" -type f -print0)
  echo "corpus: $total files, $crashes crashed or hung"
  failures=$((failures + crashes))
else
  echo "corpus not found at $corpus: corpus part skipped"
fi

if [ "$failures" -ne 0 ]; then
  echo "cli contract: $failures failure(s)"
  exit 1
fi
echo "cli contract: ok"
