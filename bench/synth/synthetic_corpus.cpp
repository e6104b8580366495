#include "bench/synth/synthetic_corpus.h"

#include "bench/synth/random.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace kiln::synth {

namespace {

// Stage shares of real DXBC corpora: ps 65%, vs 20%, cs 10%, the rest geometry.
ShaderStage pick_dxbc_stage(Random& rng) {
  const std::uint32_t pick = rng.below(100);
  if (pick < 65) return ShaderStage::Pixel;
  if (pick < 85) return ShaderStage::Vertex;
  if (pick < 95) return ShaderStage::Compute;
  return ShaderStage::Geometry;
}

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
          generate_d3d9(rng, shader.stage, draw_size(rng, 85, 600, kD3D9MaxTokens), &profile);
    } else {
      shader.kind = InputKind::Dxbc;
      shader.stage = pick_dxbc_stage(rng);
      shader.bytes =
          generate_dxbc(rng, shader.stage, draw_size(rng, 70, 1200, kDxbcMaxTokens), &profile);
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
