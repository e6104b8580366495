#pragma once
// The demo layer's shaders: pairs of a vertex shader (POSITION in, SV_Position and TEXCOORD0
// out) and a pixel shader (TEXCOORD0 in, SV_Target out) in DXBC SM5, each pair distinct (its
// own constants) and with a chain of arithmetic so translating and compiling it costs what a
// small real shader does.

#include <cstdint>
#include <vector>

namespace kiln::demo {

std::vector<std::uint8_t> vertex_shader(std::uint32_t index);
std::vector<std::uint8_t> pixel_shader(std::uint32_t index);

} // namespace kiln::demo
