#pragma once
// Facts read from a SPIR-V module's words that more than one of the harness's module rewrites
// needs (contraction.h, descriptor_arrays.h).

#include <cstdint>
#include <cstring>
#include <span>
#include <spirv/unified1/spirv.hpp>

namespace kiln::execute {

inline constexpr char kGlslImportName[] = "GLSL.std.450";

// The id of the module's GLSL.std.450 import, or 0 (also for words this cannot walk).
inline std::uint32_t glsl_import_id(std::span<const std::uint32_t> spirv) {
  for (std::size_t at = 5; at < spirv.size();) {
    const std::uint32_t count = spirv[at] >> 16;
    if (count == 0 || at + count > spirv.size()) return 0;
    if ((spirv[at] & 0xffff) == spv::OpExtInstImport && count >= 3 &&
        std::strncmp(reinterpret_cast<const char*>(&spirv[at + 2]), kGlslImportName,
                     (count - 2) * sizeof(std::uint32_t)) == 0)
      return spirv[at + 1];
    at += count;
  }
  return 0;
}

} // namespace kiln::execute
