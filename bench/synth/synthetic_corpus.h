#pragma once
// The synthetic default corpus of `kiln bench`: deterministic DXBC (SM4/5) and D3D9 (SM2/3)
// shaders whose sizes, stages and opcode mix resemble real game corpora, generated in memory
// (kiln cannot ship other people's shaders). Same seed and count: same bytes, everywhere.

#include "translator/common/input_kind.h"
#include "translator/common/shader_stage.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kiln::synth {

class Random;

struct SyntheticShader {
  std::string name; // "synthetic/0042_ps_5_0.dxbc"
  InputKind kind = InputKind::Unknown;
  ShaderStage stage = ShaderStage::Count;
  std::vector<std::uint8_t> bytes;
};

struct CorpusOptions {
  std::uint64_t seed = 1;
  std::uint32_t count = 1000;
  double d3d9_share = 0.33; // real corpora: about one D3D9 shader for two DXBC ones
};

// Sizes are drawn per shader from a log-normal calibrated so the programs come out like real
// corpora (program tokens: DXBC median ~70, p90 ~1200, capped at 27000; D3D9 median ~85,
// p90 ~600, capped at 6000).
inline constexpr std::uint32_t kDxbcMaxTokens = 27000;
inline constexpr std::uint32_t kD3D9MaxTokens = 6000;

std::vector<SyntheticShader> generate_corpus(const CorpusOptions& options);

// One shader, about `target_tokens` program tokens long (never shorter than the minimal
// program for the stage). DXBC: all six stages; D3D9: vertex and pixel.
std::vector<std::uint8_t> generate_dxbc(Random& rng, ShaderStage stage, std::uint32_t target_tokens,
                                        std::string* profile = nullptr);
std::vector<std::uint8_t> generate_d3d9(Random& rng, ShaderStage stage, std::uint32_t target_tokens,
                                        std::string* profile = nullptr);

} // namespace kiln::synth
