#pragma once
// Normalized instruction lines of a D3D9 assembly listing, so kiln's disassembly can be compared
// with hand-written or tool-written listings (the corpus .asm.txt sidecars). Normalization
// removes notation differences only: case, spaces, comments, .rgba vs .xyzw, short swizzles,
// number spelling (1.0 vs 1), dcl_texcoord0 vs dcl_texcoord, c[a0.x + 3] vs c3[a0.x].
// Lines that are not a version or an instruction of the opcode table are dropped.

#include <string>
#include <string_view>
#include <vector>

namespace kiln::d3d9::test {

std::vector<std::string> normalized_listing(std::string_view text);

} // namespace kiln::d3d9::test
