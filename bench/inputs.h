#pragma once
// What `kiln bench` runs over: files and folders walked in a stable order, or the synthetic
// corpus, held in memory so no file I/O falls inside a timed region.

#include "translator/common/input_kind.h"
#include "translator/common/shader_stage.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kiln::bench {

struct BenchInput {
  std::string path; // as given or found; "synthetic/..." for generated shaders
  InputKind kind = InputKind::Unknown;
  ShaderStage stage = ShaderStage::Count; // Count when unknown
  std::vector<std::uint8_t> bytes;
};

// Sidecars of shader dumps that are not shaders (.hlsl, .txt, .json, .tsv, .md, .spv output).
bool is_sidecar(const std::string& path);

// The stage a DXBC (SHDR/SHEX version token) or D3D9 (version token) program declares.
ShaderStage detect_stage(const std::vector<std::uint8_t>& bytes, InputKind kind);

// Walks `paths` (files, or folders recursively, sorted by path), reads every non-sidecar file
// and detects its kind and stage. Unreadable paths are reported in `errors` (one line each).
std::vector<BenchInput> collect_inputs(const std::vector<std::string>& paths,
                                       std::vector<std::string>& errors);

std::vector<BenchInput> synthetic_inputs(std::uint64_t seed, std::uint32_t count);

} // namespace kiln::bench
