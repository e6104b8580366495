#pragma once
// What a blob of bytes is, decided from its content only (never from a file name).

#include <cstdint>
#include <span>
#include <string_view>

namespace kiln {

enum class InputKind : std::uint8_t {
  Dxbc,          // DXBC container with an SHDR/SHEX program: translatable (d3d11 path)
  D3D9,          // D3D9 token stream, vs_1_1..vs_3_0 / ps_1_1..ps_3_0 (d3d9 path)
  Dxil,          // SM6 container (DXIL chunk): out of scope
  Effect,        // effect file (fx_2_0 binary, or FX10/FXLC container): not a shader
  RootSignature, // container holding only a root signature
  NoCode,        // valid container without any program chunk
  Spirv,         // already a SPIR-V module
  Unknown,       // none of the above
};

struct InputInfo {
  InputKind kind = InputKind::Unknown;
  // One line a person can act on, e.g. "DXIL (shader model 6) container: not supported".
  std::string_view description;
};

InputInfo detect_input_kind(std::span<const std::uint8_t> bytes);

std::string_view input_kind_name(InputKind kind);

} // namespace kiln
