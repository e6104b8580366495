#pragma once
// Generated pass-through stages, written as SPIR-V words: the vertex shader that feeds a pixel
// shader under test. Each of the pixel shader's input variables (location, component, scalar
// type, width) gets an output of the same shape, copied from a vertex attribute of its own;
// the position comes from one more attribute. One module serves both translations, which
// declare the same stage interface (docs/vkd3d-shader.md, "Stage interfaces").

#include <cstdint>
#include <vector>

namespace kiln::execute {

// One varying the generated stage writes: `count` components from `component` at `location`.
struct Varying {
  std::uint32_t location = 0;
  std::uint32_t component = 0;
  std::uint32_t count = 4;
  char scalar = 'f'; // 'f', 'i', 'u'
};

// A vertex shader with attribute i feeding `varyings[i]` and attribute varyings.size() (a
// vec4) feeding Position; with `clip_distances` > 0 it also writes that many ClipDistance
// values of 1 (nothing clipped) for pixel shaders that read them.
std::vector<std::uint32_t> passthrough_vertex_shader(const std::vector<Varying>& varyings,
                                                     std::uint32_t clip_distances);

} // namespace kiln::execute
