// ConvertOptions::debug_names in the DXBC converter: DebugName ops for constant buffers and
// resources from the names the compiler wrote to RDEF, and for input/output variables from
// their signature elements' semantics (TEXCOORD1, SV_Position). The SPIR-V backend turns them
// into OpName when its own debug_names option is on. Without the option nothing is emitted.
#include "translator/dxbc/convert_core.h"
#include "translator/dxbc/signature.h"

#include <string>

namespace kiln::dxbc {

namespace {

// Whether an RDEF binding type (D3D_SHADER_INPUT_TYPE) declares registers of class `cls`.
bool rdef_type_is(std::uint32_t type, ResourceClass cls) {
  switch (type) {
  case 0: // CBUFFER
    return cls == ResourceClass::Cbv;
  case 1: // TBUFFER (a buffer SRV in the bytecode)
  case 2: // TEXTURE
  case 5: // STRUCTURED
  case 7: // BYTEADDRESS
    return cls == ResourceClass::Srv;
  case 3: // SAMPLER
    return cls == ResourceClass::Sampler;
  case 4:  // UAV_RWTYPED
  case 6:  // UAV_RWSTRUCTURED
  case 8:  // UAV_RWBYTEADDRESS
  case 9:  // UAV_APPEND_STRUCTURED
  case 10: // UAV_CONSUME_STRUCTURED
  case 11: // UAV_RWSTRUCTURED_WITH_COUNTER
    return cls == ResourceClass::Uav;
  default:
    return false;
  }
}

} // namespace

void name_binding(ConvertContext& ctx, ir::SsaDef dcl, ResourceClass cls, std::uint32_t space,
                  std::uint32_t lower, std::uint32_t id) {
  if (!ctx.debug_names || !dcl || cls == ResourceClass::Tgsm) return;
  ReflectionView rdef;
  if (!rdef.open(ctx.container().rdef)) return; // a damaged RDEF only costs the names
  const bool sm51 = ctx.program().is_sm51();
  for (std::uint32_t i = 0; i < rdef.binding_count(); ++i) {
    RdefBinding b;
    if (!rdef.binding(i, b) || !rdef_type_is(b.type, cls)) continue;
    const bool same = sm51 ? b.id == id && b.space == space : b.bind_point == lower;
    if (!same || b.name.empty()) continue;
    ctx.builder().add(ir::Op::DebugName(dcl, b.name));
    return;
  }
}

void name_io(ConvertContext& ctx, ir::SsaDef dcl, const SignatureElement* element) {
  if (!ctx.debug_names || !dcl || !element || element->semantic_name.empty()) return;
  std::string name(element->semantic_name);
  if (element->semantic_index != 0) name += std::to_string(element->semantic_index);
  ctx.builder().add(ir::Op::DebugName(dcl, std::string_view(name)));
}

} // namespace kiln::dxbc
