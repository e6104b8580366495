#pragma once
// The CTAB comment that the HLSL compiler and D3DX put into D3D9 shaders: names, register
// sets and ranges of the uniforms, for debug names and reflection. The runtime never reads
// it, so a broken table is reported here and never rejects the shader itself.

#include "translator/common/status.h"
#include "translator/d3d9/program.h"

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace kiln::d3d9 {

// D3DXREGISTER_SET. Columns: X(Name, value, register prefix)
#define KILN_D3D9_REGISTER_SETS(X)                                                                 \
  X(Bool, 0, "b")                                                                                  \
  X(Int4, 1, "i")                                                                                  \
  X(Float4, 2, "c")                                                                                \
  X(Sampler, 3, "s")

enum class RegisterSet : std::uint8_t {
#define KILN_X(name, value, prefix) name = value,
  KILN_D3D9_REGISTER_SETS(KILN_X)
#undef KILN_X
};
constexpr std::uint32_t kRegisterSetCount = 0
#define KILN_X(name, value, prefix) +1
    KILN_D3D9_REGISTER_SETS(KILN_X);
#undef KILN_X
static_assert(std::uint32_t(RegisterSet::Sampler) + 1 == kRegisterSetCount,
              "KILN_D3D9_REGISTER_SETS: values are 0..N-1 (the reader range-checks by count)");
std::string_view register_set_prefix(RegisterSet set);

struct Constant {
  std::string_view name; // points into the shader bytes
  RegisterSet set;
  std::uint16_t index;
  std::uint16_t count;
  // D3DXSHADER_TYPEINFO: class (scalar, vector, matrix...), type (float, sampler2D...), shape.
  std::uint16_t type_class;
  std::uint16_t type;
  std::uint16_t rows;
  std::uint16_t columns;
  std::uint16_t elements;
};

struct ConstantTable {
  std::string_view creator; // "Microsoft (R) HLSL Shader Compiler 9.29.952.3111"
  std::string_view target;  // "vs_3_0"
  std::uint32_t version = 0;
  std::vector<Constant> constants;
};

// Parses the CTAB comment `comment` of the shader `bytes` (as decoded into a Program). The
// views in `out` point into `bytes`.
Status read_constant_table(std::span<const std::uint8_t> bytes, const Comment& comment,
                           ConstantTable& out);

} // namespace kiln::d3d9
