#pragma once
// The six D3D shader stages. Defined once here; the IR (ir::ShaderStage), the front ends, the
// reflection and the C ABI all use this enum.

#include <cstdint>
#include <string_view>

namespace kiln {

#define KILN_SHADER_STAGES(X)                                                                      \
  X(Vertex, "vs", "vertex")                                                                        \
  X(Hull, "hs", "hull")                                                                            \
  X(Domain, "ds", "domain")                                                                        \
  X(Geometry, "gs", "geometry")                                                                    \
  X(Pixel, "ps", "pixel")                                                                          \
  X(Compute, "cs", "compute")

enum class ShaderStage : std::uint8_t {
#define KILN_X(name, abbrev, word) name,
  KILN_SHADER_STAGES(KILN_X)
#undef KILN_X
      Count,
};

// "vs", "ps", ... as used in shader model names and the corpus manifest.
constexpr std::string_view shader_stage_abbrev(ShaderStage stage) {
  switch (stage) {
#define KILN_X(name, abbrev, word)                                                                 \
  case ShaderStage::name: return abbrev;
    KILN_SHADER_STAGES(KILN_X)
#undef KILN_X
  default: return "??";
  }
}

constexpr std::string_view shader_stage_name(ShaderStage stage) {
  switch (stage) {
#define KILN_X(name, abbrev, word)                                                                 \
  case ShaderStage::name: return word;
    KILN_SHADER_STAGES(KILN_X)
#undef KILN_X
  default: return "unknown";
  }
}

} // namespace kiln
