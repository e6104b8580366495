#pragma once
// Internal to the DXBC converter's inputs and outputs: what the declaring half
// (convert_io_declare.cpp) and the access half (convert_io.cpp) share.

#include "translator/dxbc/convert_core.h"

#include <cstdint>

namespace kiln::dxbc {

// The IR names both halves (convert_io.cpp, convert_io_declare.cpp) spell unqualified.
using ir::BuiltIn;
using ir::Op;
using ir::ScalarType;
using ir::SsaDef;
using ir::Type;

struct BuiltInInfo {
  ir::BuiltIn builtin;
  ir::ScalarType type;
  unsigned size; // vector size, or array length for Array shapes (0: from the signature)
  IoSlot::Shape shape;
};

struct IoTarget {
  IoFile file;
  bool output;
  bool per_vertex;
  const PodArray<SignatureElement>* sig;
};

// Beyond every D3D limit (32 input registers, 32 x 32 control-point registers) with room to
// spare; larger numbers come from damaged bytecode (or mean "no register" in a signature) and
// must not size the per-register tables.
constexpr std::uint32_t kMaxIoRegister = 1024;

// Operand types that are written (o#, oDepth, oMask, ...).
bool is_output_operand(OperandType t);
// Which register file a declaration or access of an operand of `type` goes to.
IoTarget target_of(ConvertContext& ctx, OperandType type);
// The signature element at `reg` overlapping `mask` (of `stream`, else any stream's).
const SignatureElement* find_element(const PodArray<SignatureElement>& sig, std::uint32_t reg,
                                     std::uint8_t mask, std::uint32_t stream);
// A signature's system value (D3D_NAME) as kiln's internal code (tessellation factors by element).
std::uint32_t tess_code_of_signature_name(std::uint32_t name, std::uint32_t semantic_index);
// The IR built-in of a system value code; false when it is an ordinary location.
bool builtin_of_sv(std::uint32_t name, BuiltInInfo& out);
// Declares the built-in `info` for the components of `mask` of `reg` and fills their slots.
void declare_builtin(ConvertContext& ctx, const IoTarget& where, std::uint32_t reg,
                     std::uint8_t mask, const BuiltInInfo& info, std::uint32_t name,
                     const SignatureElement* element);
// Declares the location variables of `mask` of `reg`, following the signature's elements.
void declare_location(ConvertContext& ctx, const IoTarget& where, std::uint32_t reg,
                      std::uint8_t mask, InterpolationMode mode, const SignatureElement* element);
// vkd3d-shader 1.2's variable of a location declaration (InterfaceConvention::Vkd3dShader);
// `widen` is false for the pass-through control point phase, which declares elements alone.
void declare_location_vkd3d(ConvertContext& ctx, const IoTarget& where, std::uint32_t reg,
                            std::uint8_t mask, InterpolationMode mode, bool widen);
// Declares a special register's built-in (vThreadID, oDepth, ...); nothing for other types.
void declare_special(ConvertContext& ctx, OperandType type, std::uint8_t mask);

} // namespace kiln::dxbc
