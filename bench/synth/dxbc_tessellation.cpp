// Hull and domain shaders (hs_5_0, ds_5_0) over a triangle patch of 3 control points: the hull
// shader passes control points through and computes the tessellation factors in fork phases;
// the domain shader interpolates the control points at vDomain and runs a random body.

#include "bench/synth/dxbc_body.h"

#include <bit>

namespace kiln::synth::detail {

namespace {

// Tokenized-format system value names of the triangle tessellation factors (dcl_output_siv),
// and their D3D_NAME values in signatures.
constexpr std::uint32_t kSivTriEdge[3] = {17, 18, 19}; // finalTri{U,V,W}eq0EdgeTessFactor
constexpr std::uint32_t kSivTriInside = 20;
constexpr std::uint32_t kNameTriEdge = 13, kNameTriInside = 14;
constexpr std::uint32_t kControlPoints = 3;

std::vector<SignatureElement> control_point_signature() {
  return {{"POSITION", 0, 0, 3, 0, 0xf, 0xf}, {"TEXCOORD", 0, 0, 3, 1, 0xf, 0xf}};
}

std::vector<SignatureElement> patch_constant_signature(std::uint8_t used) {
  std::vector<SignatureElement> elements;
  for (std::uint32_t i = 0; i < 3; ++i)
    elements.push_back({"SV_TessFactor", i, kNameTriEdge, 3, i, 0x1, used});
  elements.push_back({"SV_InsideTessFactor", 0, kNameTriInside, 3, 3, 0x1, used});
  return elements;
}

// vicp[n][reg] (2-D) as a declaration or a source.
Operand control_point(std::uint32_t point, std::uint32_t reg, std::uint32_t swz) {
  Operand op = opd::input_2d(point, reg, swz);
  op.tokens[0] = (op.tokens[0] & ~0x000ff000u) | std::uint32_t(OperandType::InputControlPoint)
                                                     << 12;
  return op;
}

Operand control_point_dcl(std::uint32_t reg) {
  Operand op;
  op.push(std::uint32_t(2 | 0xfu << 4 | std::uint32_t(OperandType::InputControlPoint) << 12 |
                        2u << 20));
  op.push(kControlPoints);
  op.push(reg);
  return op;
}

Operand domain_point(bool as_dcl, std::uint32_t swz_or_mask) {
  Operand op;
  const std::uint32_t mode = as_dcl ? 0 : 1;
  op.push(2 | mode << 2 | swz_or_mask << 4 | std::uint32_t(OperandType::InputDomainPoint) << 12);
  return op;
}

void declare_tessellation(ProgramWriter& w) {
  w.emit(Op::DclInputControlPointCount, {}, kControlPoints);
  w.emit(Op::DclTessDomain, {}, 2 /* triangle */);
}

std::vector<std::uint8_t> finish(ProgramWriter& w, const std::vector<SignatureElement>& inputs,
                                 const std::vector<SignatureElement>& patch,
                                 const std::vector<SignatureElement>& outputs, bool hull) {
  const std::vector<std::uint32_t> program = w.finish();
  ContainerWriter container;
  container.add_chunk(fourcc('I', 'S', 'G', 'N'), signature_chunk(inputs));
  if (!hull) container.add_chunk(fourcc('P', 'C', 'S', 'G'), signature_chunk(patch));
  container.add_chunk(fourcc('O', 'S', 'G', 'N'), signature_chunk(outputs));
  if (hull) container.add_chunk(fourcc('P', 'C', 'S', 'G'), signature_chunk(patch));
  container.add_chunk(fourcc('S', 'H', 'E', 'X'), std::span<const std::uint32_t>(program));
  return container.finish();
}

} // namespace

std::vector<std::uint8_t> generate_dxbc_tessellation(Random& rng, ShaderStage stage,
                                                     std::uint32_t target_tokens,
                                                     std::string* profile) {
  ProgramWriter w(stage, 5, 0);
  Resources res;
  res.general_temps = std::clamp<std::uint32_t>(target_tokens / 60, 2, 16);
  res.cb_elements = rng.between(2, 16);
  if (profile) *profile = stage == ShaderStage::Hull ? "hs_5_0" : "ds_5_0";

  if (stage == ShaderStage::Hull) {
    w.emit(Op::HsDecls, {});
    declare_tessellation(w);
    w.emit(Op::DclOutputControlPointCount, {}, kControlPoints);
    w.emit(Op::DclTessPartitioning, {}, rng.chance(0.5) ? 1 : 3); // integer, fractional_odd
    w.emit(Op::DclTessOutputPrimitive, {}, 3 /* triangle_cw */);
    w.emit(Op::DclHsMaxTessFactor, {}, 0, {std::bit_cast<std::uint32_t>(64.0f)}); // raw float
    declare_common(w, res);
    // Fork phase 1: the three edge factors, from a random body.
    w.emit(Op::HsForkPhase, {});
    for (std::uint32_t i = 0; i < 3; ++i)
      w.emit(Op::DclOutputSiv, {opd::output_dst(i, 0x1)}, 0, {kSivTriEdge[i]});
    w.emit(Op::DclTemps, {}, 0, {res.general_temps + kLoopCounters});
    w.emit(Op::Mov, {opd::temp_dst(0, 0xf), opd::cb(0, 0)});
    const std::size_t used = w.token_count() + 40;
    BodyGenerator body(w, rng, stage, res);
    body.block(target_tokens > used ? target_tokens - used : 4, 0);
    for (std::uint32_t i = 0; i < 3; ++i)
      w.emit(Op::Max, {opd::output_dst(i, 0x1), opd::temp_scalar(i % res.general_temps, i),
                       opd::imm1(1.0f)});
    w.emit(Op::Ret, {});
    // Fork phase 2: the inside factor.
    w.emit(Op::HsForkPhase, {});
    w.emit(Op::DclOutputSiv, {opd::output_dst(3, 0x1)}, 0, {kSivTriInside});
    w.emit(Op::Mov, {opd::output_dst(3, 0x1), opd::cb(0, 0, swizzle(1, 1, 1, 1))});
    w.emit(Op::Ret, {});
    return finish(w, control_point_signature(), patch_constant_signature(0xe),
                  control_point_signature(), true);
  }

  declare_tessellation(w);
  declare_common(w, res);
  w.emit(Op::DclInput, {domain_point(true, 0x7)});
  w.emit(Op::DclInput, {control_point_dcl(0)});
  w.emit(Op::DclInput, {control_point_dcl(1)});
  w.emit(Op::DclOutputSiv, {opd::output_dst(0)}, 0, {1 /* position */});
  w.emit(Op::DclOutput, {opd::output_dst(1)});
  w.emit(Op::DclTemps, {}, 0, {res.general_temps + kLoopCounters});
  // Barycentric interpolation of the control points.
  for (std::uint32_t reg = 0; reg < 2; ++reg) {
    const std::uint32_t t = reg % res.general_temps;
    w.emit(Op::Mul, {opd::temp_dst(t, 0xf), domain_point(false, swizzle(0, 0, 0, 0)),
                     control_point(0, reg, kXyzw)});
    for (std::uint32_t p = 1; p < kControlPoints; ++p)
      w.emit(Op::Mad, {opd::temp_dst(t, 0xf), domain_point(false, swizzle(p, p, p, p)),
                       control_point(p, reg, kXyzw), opd::temp(t)});
  }
  const std::size_t used = w.token_count() + 12;
  BodyGenerator body(w, rng, stage, res);
  body.block(target_tokens > used ? target_tokens - used : 4, 0);
  w.emit(Op::Mov, {opd::output_dst(0), opd::temp(0)});
  w.emit(Op::Mov, {opd::output_dst(1), opd::temp(1 % res.general_temps)});
  w.emit(Op::Ret, {});
  return finish(w, control_point_signature(), patch_constant_signature(0x1),
                {{"SV_Position", 0, 1, 3, 0, 0xf, 0x0}, {"TEXCOORD", 0, 0, 3, 1, 0xf, 0x0}}, false);
}

} // namespace kiln::synth::detail
