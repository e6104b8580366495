#include "bench/execute/mad_fusion.h"

#include <cstring>
#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.hpp>

namespace kiln::execute {

bool unfuse_fma(std::vector<std::uint32_t>& spirv) {
  if (spirv.size() < 5) return false;
  std::uint32_t glsl = 0; // the GLSL.std.450 import's id
  std::uint32_t bound = spirv[3];
  std::vector<std::uint32_t> out(spirv.begin(), spirv.begin() + 5);
  out.reserve(spirv.size() + 16);
  bool changed = false;
  for (std::size_t at = 5; at < spirv.size();) {
    const std::uint32_t count = spirv[at] >> 16;
    if (count == 0 || at + count > spirv.size()) return false; // not a module this reads
    const auto op = spv::Op(spirv[at] & 0xffff);
    const std::uint32_t* w = &spirv[at];
    if (op == spv::OpExtInstImport && count >= 3 &&
        std::strncmp(reinterpret_cast<const char*>(w + 2), "GLSL.std.450",
                     (count - 2) * sizeof(std::uint32_t)) == 0)
      glsl = w[1];
    // OpExtInst type result set Fma a b c
    if (op == spv::OpExtInst && count == 8 && glsl && w[3] == glsl && w[4] == GLSLstd450Fma) {
      const std::uint32_t product = bound++;
      out.insert(out.end(), {5u << 16 | spv::OpFMul, w[1], product, w[5], w[6]});
      out.insert(out.end(), {5u << 16 | spv::OpFAdd, w[1], w[2], product, w[7]});
      changed = true;
    } else {
      out.insert(out.end(), w, w + count);
    }
    at += count;
  }
  if (!changed) return false;
  out[3] = bound;
  spirv = std::move(out);
  return true;
}

} // namespace kiln::execute
