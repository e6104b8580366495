#include "bench/synth/synthetic_corpus.h"

#include "bench/synth/random.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace kiln::synth {

namespace {

// Stage shares of real DXBC corpora: ps 65%, vs 20%, cs 10%, gs 2%, hs 2%, ds 1%.
ShaderStage pick_dxbc_stage(Random& rng) {
  const std::uint32_t pick = rng.below(100);
  if (pick < 65) return ShaderStage::Pixel;
  if (pick < 85) return ShaderStage::Vertex;
  if (pick < 95) return ShaderStage::Compute;
  if (pick < 97) return ShaderStage::Geometry;
  if (pick < 99) return ShaderStage::Hull;
  return ShaderStage::Domain;
}

// Size targets, calibrated so the generated programs (which have a minimum size per stage and
// overshoot their target by up to one instruction per block) land near the real figures:
// DXBC median 70 / p90 1200 program tokens, D3D9 median 85 / p90 600. Measured on 3000
// shaders: DXBC median 77, p90 1195; D3D9 median 83, p90 616.
constexpr double kDxbcDrawMedian = 60, kDxbcDrawP90 = 1100;
constexpr double kD3D9DrawMedian = 80, kD3D9DrawP90 = 560;

std::uint32_t draw_size(Random& rng, double median, double p90, std::uint32_t max) {
  const double tokens = rng.lognormal(median, p90);
  return static_cast<std::uint32_t>(std::clamp(tokens, 1.0, double(max)));
}

} // namespace

std::vector<SyntheticShader> generate_corpus(const CorpusOptions& options) {
  std::vector<SyntheticShader> corpus;
  corpus.reserve(options.count);
  for (std::uint32_t i = 0; i < options.count; ++i) {
    // Each shader has its own stream, so shader i does not depend on the corpus size.
    Random rng(options.seed * 0x100000001B3ull + i);
    rng.next();
    SyntheticShader shader;
    std::string profile;
    if (rng.unit() < options.d3d9_share) {
      shader.kind = InputKind::D3D9;
      shader.stage = rng.chance(0.5) ? ShaderStage::Pixel : ShaderStage::Vertex;
      shader.bytes =
          generate_d3d9(rng, shader.stage,
                        draw_size(rng, kD3D9DrawMedian, kD3D9DrawP90, kD3D9MaxTokens), &profile);
    } else {
      shader.kind = InputKind::Dxbc;
      shader.stage = pick_dxbc_stage(rng);
      shader.bytes =
          generate_dxbc(rng, shader.stage,
                        draw_size(rng, kDxbcDrawMedian, kDxbcDrawP90, kDxbcMaxTokens), &profile);
    }
    char name[64];
    std::snprintf(name, sizeof(name), "synthetic/%04u_%s.%s", i, profile.c_str(),
                  shader.kind == InputKind::Dxbc ? "dxbc" : "d3d9");
    shader.name = name;
    corpus.push_back(std::move(shader));
  }
  return corpus;
}

} // namespace kiln::synth
