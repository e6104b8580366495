// Shader inputs and outputs of the DXBC converter: signatures, dcl_input*/dcl_output*, system
// values (SV_*) as IR built-ins, and reading/writing v#, o#, vicp, vocp, vpc and the special
// registers (vPrim, vThreadID, oDepth, ...).
#include "translator/dxbc/convert_core.h"

#include <string>

namespace kiln::dxbc {

using ir::BuiltIn;
using ir::Op;
using ir::ScalarType;
using ir::SsaDef;
using ir::Type;

namespace {

// D3D10_SB_NAME values used by dcl_*_siv/sgv and signature elements.
namespace sv {
constexpr std::uint32_t Position = 1, ClipDistance = 2, CullDistance = 3,
                        RenderTargetArrayIndex = 4, ViewportArrayIndex = 5, VertexId = 6,
                        PrimitiveId = 7, InstanceId = 8, IsFrontFace = 9, SampleIndex = 10,
                        QuadEdgeTessFactor = 11, QuadInsideTessFactor = 12, TriEdgeTessFactor = 13,
                        TriInsideTessFactor = 14, LineDetailTessFactor = 15,
                        LineDensityTessFactor = 16, Target = 64, Depth = 65, Coverage = 66,
                        DepthGreaterEqual = 67, DepthLessEqual = 68, StencilRef = 69,
                        InnerCoverage = 70;
// Internal codes for one tessellation factor: the array element is part of the code.
constexpr std::uint32_t OuterTessFactor0 = 200, InnerTessFactor0 = 210;
} // namespace sv

// The token stream (D3D10_SB_NAME) names each tessellation factor separately; signatures
// (D3D_NAME) name the kind and use the semantic index. Both become the internal codes.
std::uint32_t tess_code_of_token_name(std::uint32_t name) {
  if (name >= 11 && name <= 14) return sv::OuterTessFactor0 + (name - 11); // quad edges
  if (name >= 15 && name <= 16) return sv::InnerTessFactor0 + (name - 15); // quad inside
  if (name >= 17 && name <= 19) return sv::OuterTessFactor0 + (name - 17); // tri edges
  if (name == 20) return sv::InnerTessFactor0;                             // tri inside
  if (name == 21) return sv::OuterTessFactor0 + 1;                         // line detail
  if (name == 22) return sv::OuterTessFactor0;                             // line density
  return name;
}
std::uint32_t tess_code_of_signature_name(std::uint32_t name, std::uint32_t semantic_index) {
  switch (name) {
  case sv::QuadEdgeTessFactor:
  case sv::TriEdgeTessFactor:
    return sv::OuterTessFactor0 + (semantic_index & 3);
  case sv::QuadInsideTessFactor:
    return sv::InnerTessFactor0 + (semantic_index & 1);
  case sv::TriInsideTessFactor:
    return sv::InnerTessFactor0;
  case sv::LineDetailTessFactor:
    return sv::OuterTessFactor0 + 1;
  case sv::LineDensityTessFactor:
    return sv::OuterTessFactor0;
  default:
    return name;
  }
}

struct BuiltInInfo {
  BuiltIn builtin;
  ScalarType type;
  unsigned size; // vector size, or array length for Array shapes (0: from the signature)
  IoSlot::Shape shape;
};

// The IR built-in of a D3D system value, or false when it is an ordinary location.
bool builtin_of_sv(std::uint32_t name, BuiltInInfo& out) {
  using S = IoSlot::Shape;
  switch (name) {
  case sv::Position:
    out = {BuiltIn::Position, ScalarType::F32, 4, S::Vector};
    return true;
  case sv::ClipDistance:
    out = {BuiltIn::ClipDistance, ScalarType::F32, 0, S::Array};
    return true;
  case sv::CullDistance:
    out = {BuiltIn::CullDistance, ScalarType::F32, 0, S::Array};
    return true;
  case sv::RenderTargetArrayIndex:
    out = {BuiltIn::Layer, ScalarType::U32, 1, S::Scalar};
    return true;
  case sv::ViewportArrayIndex:
    out = {BuiltIn::ViewportIndex, ScalarType::U32, 1, S::Scalar};
    return true;
  case sv::VertexId:
    out = {BuiltIn::VertexId, ScalarType::U32, 1, S::Scalar};
    return true;
  case sv::PrimitiveId:
    out = {BuiltIn::PrimitiveId, ScalarType::U32, 1, S::Scalar};
    return true;
  case sv::InstanceId:
    out = {BuiltIn::InstanceId, ScalarType::U32, 1, S::Scalar};
    return true;
  case sv::IsFrontFace:
    out = {BuiltIn::IsFrontFace, ScalarType::Bool, 1, S::Scalar};
    return true;
  case sv::SampleIndex:
    out = {BuiltIn::SampleId, ScalarType::U32, 1, S::Scalar};
    return true;
  case sv::OuterTessFactor0:
  case sv::OuterTessFactor0 + 1:
  case sv::OuterTessFactor0 + 2:
  case sv::OuterTessFactor0 + 3:
    out = {BuiltIn::TessFactorOuter, ScalarType::F32, 4, S::Array};
    return true;
  case sv::InnerTessFactor0:
  case sv::InnerTessFactor0 + 1:
    out = {BuiltIn::TessFactorInner, ScalarType::F32, 2, S::Array};
    return true;
  case sv::Depth:
  case sv::DepthGreaterEqual:
  case sv::DepthLessEqual:
    out = {BuiltIn::Depth, ScalarType::F32, 1, S::Scalar};
    return true;
  case sv::Coverage:
    out = {BuiltIn::SampleMask, ScalarType::U32, 1, S::Array};
    return true;
  case sv::StencilRef:
    out = {BuiltIn::StencilRef, ScalarType::U32, 1, S::Scalar};
    return true;
  case sv::InnerCoverage:
    out = {BuiltIn::IsFullyCovered, ScalarType::Bool, 1, S::Scalar};
    return true;
  default:
    return false;
  }
}

// Built-ins behind special operand types; false for types that are not system values.
bool builtin_of_operand(OperandType type, BuiltInInfo& out) {
  using S = IoSlot::Shape;
  switch (type) {
  case OperandType::InputPrimitiveId:
    return builtin_of_sv(sv::PrimitiveId, out);
  case OperandType::OutputDepth:
  case OperandType::OutputDepthGreaterEqual:
  case OperandType::OutputDepthLessEqual:
    return builtin_of_sv(sv::Depth, out);
  case OperandType::OutputCoverageMask:
  case OperandType::InputCoverageMask:
    return builtin_of_sv(sv::Coverage, out);
  case OperandType::OutputStencilRef:
    return builtin_of_sv(sv::StencilRef, out);
  case OperandType::InputInnerCoverage:
    return builtin_of_sv(sv::InnerCoverage, out);
  case OperandType::InputThreadId:
    out = {BuiltIn::GlobalThreadId, ScalarType::U32, 3, S::Vector};
    return true;
  case OperandType::InputThreadGroupId:
    out = {BuiltIn::WorkgroupId, ScalarType::U32, 3, S::Vector};
    return true;
  case OperandType::InputThreadIdInGroup:
    out = {BuiltIn::LocalThreadId, ScalarType::U32, 3, S::Vector};
    return true;
  case OperandType::InputThreadIdInGroupFlattened:
    out = {BuiltIn::LocalThreadIndex, ScalarType::U32, 1, S::Scalar};
    return true;
  case OperandType::InputGsInstanceId:
    out = {BuiltIn::GsInstanceId, ScalarType::U32, 1, S::Scalar};
    return true;
  case OperandType::OutputControlPointId:
    out = {BuiltIn::TessControlPointId, ScalarType::U32, 1, S::Scalar};
    return true;
  case OperandType::InputDomainPoint:
    out = {BuiltIn::TessCoord, ScalarType::F32, 3, S::Vector};
    return true;
  default:
    return false;
  }
}

bool is_output_operand(OperandType t) {
  switch (t) {
  case OperandType::Output:
  case OperandType::OutputDepth:
  case OperandType::OutputDepthGreaterEqual:
  case OperandType::OutputDepthLessEqual:
  case OperandType::OutputCoverageMask:
  case OperandType::OutputStencilRef:
  case OperandType::OutputControlPoint:
    return true;
  default:
    return false;
  }
}

ScalarType scalar_of_component_type(std::uint32_t t) {
  return t == 1 ? ScalarType::U32 : t == 2 ? ScalarType::I32 : ScalarType::F32;
}

const SignatureElement* find_element(const PodArray<SignatureElement>& sig, std::uint32_t reg,
                                     std::uint8_t mask, std::uint32_t stream) {
  const SignatureElement* any = nullptr;
  for (const SignatureElement& e : sig) {
    if (e.register_index != reg || !(e.mask & mask)) continue;
    if (e.stream == stream) return &e;
    any = &e;
  }
  return any;
}

ir::InterpolationModes interpolation_of(InterpolationMode m) {
  using I = ir::InterpolationModes;
  switch (m) {
  case InterpolationMode::Constant:
    return I::Flat;
  case InterpolationMode::LinearCentroid:
    return I::Centroid;
  case InterpolationMode::LinearNoPerspective:
    return I::NoPerspective;
  case InterpolationMode::LinearNoPerspectiveCentroid:
    return I::NoPerspective | I::Centroid;
  case InterpolationMode::LinearSample:
    return I::Sample;
  case InterpolationMode::LinearNoPerspectiveSample:
    return I::NoPerspective | I::Sample;
  default:
    return I(0);
  }
}

// Position of (reg, component) among the clip or cull distances of a signature.
unsigned distance_index(const PodArray<SignatureElement>& sig, std::uint32_t name,
                        std::uint32_t reg, unsigned component, unsigned* total) {
  unsigned index = 0, count = 0;
  for (const SignatureElement& e : sig) {
    if (e.system_value != name) continue;
    unsigned n = mask_count(e.mask);
    count += n;
    if (e.register_index < reg)
      index += n;
    else if (e.register_index == reg)
      index += mask_count(e.mask & ((1u << component) - 1));
  }
  *total = count;
  return index;
}

unsigned tess_factor_index(std::uint32_t code) {
  return code >= sv::InnerTessFactor0 ? code - sv::InnerTessFactor0 : code - sv::OuterTessFactor0;
}

bool stage_has_vertex_arrays(const ConvertContext& ctx, bool output) {
  ProgramType t = ctx.program().type;
  if (output) return t == ProgramType::Hull;
  return t == ProgramType::Geometry || t == ProgramType::Hull || t == ProgramType::Domain;
}

struct IoTarget {
  IoFile file;
  bool output;
  bool per_vertex;
  const PodArray<SignatureElement>* sig;
};

// Which register file a declaration or access of `op` goes to.
IoTarget target_of(ConvertContext& ctx, OperandType type) {
  auto& impl = ctx.impl();
  bool hull = ctx.program().type == ProgramType::Hull;
  switch (type) {
  case OperandType::Input:
  case OperandType::InputControlPoint:
    return {IoFile::Input, false, stage_has_vertex_arrays(ctx, false), &impl.isgn};
  case OperandType::OutputControlPoint:
    return {IoFile::Output, true, true, &impl.osgn};
  case OperandType::InputPatchConstant:
    if (hull) return {IoFile::PatchOutput, true, false, &impl.pcsg};
    return {IoFile::PatchInput, false, false, &impl.pcsg};
  case OperandType::Output:
    if (hull && impl.hull_patch_phase) return {IoFile::PatchOutput, true, false, &impl.pcsg};
    return {IoFile::Output, true, hull, &impl.osgn};
  default:
    return {IoFile::Special, is_output_operand(type), false, nullptr};
  }
}

// Declares a built-in for `count` components and fills the slots.
void declare_builtin(ConvertContext& ctx, const IoTarget& where, std::uint32_t reg,
                     std::uint8_t mask, const BuiltInInfo& info, std::uint32_t name,
                     const SignatureElement* element) {
  auto& impl = ctx.impl();
  ir::Builder& b = ctx.builder();
  bool pixel = ctx.program().type == ProgramType::Pixel;
  // Declared before (a hull fork phase declaring vocp the control point phase wrote): keep it.
  bool all_declared = true;
  for (unsigned c = 0; c < 4; ++c) {
    if (!(mask & (1u << c))) continue;
    IoSlot* s = impl.slot(where.file, reg, c);
    all_declared &= s && s->dcl;
  }
  if (all_declared) return;
  unsigned array_len = info.size;
  SsaDef* shared = nullptr;
  unsigned base = 0;
  if (info.builtin == BuiltIn::ClipDistance || info.builtin == BuiltIn::CullDistance) {
    unsigned total = 0;
    unsigned first = unsigned(__builtin_ctz(mask | 0x10u));
    base = where.sig ? distance_index(*where.sig, name, reg, first, &total) : 0;
    array_len = total ? total : 8;
    bool clip = info.builtin == BuiltIn::ClipDistance;
    shared = where.output ? (clip ? &impl.clip_dcl_out : &impl.cull_dcl_out)
                          : (clip ? &impl.clip_dcl_in : &impl.cull_dcl_in);
  } else if ((info.builtin == BuiltIn::TessFactorOuter ||
              info.builtin == BuiltIn::TessFactorInner) &&
             where.per_vertex) {
    // Tessellation factors are per patch: hull fork/join phase outputs, domain vpc# inputs.
    ctx.fail("tessellation factor declared per control point (outside the patch constant "
             "phases)");
    return;
  } else if (info.builtin == BuiltIn::TessFactorOuter) {
    shared = &impl.tess_outer;
  } else if (info.builtin == BuiltIn::TessFactorInner) {
    shared = &impl.tess_inner;
  }
  SsaDef dcl = shared ? *shared : SsaDef();
  if (!dcl) {
    Type t = info.shape == IoSlot::Shape::Vector ? ir::vec(info.type, info.size) : Type(info.type);
    if (info.shape == IoSlot::Shape::Array) t = b.types().make_array(t, array_len);
    if (where.per_vertex)
      t = b.types().make_array(t, where.output ? std::max(impl.output_control_points, 1u)
                                               : std::max(impl.input_vertices, 1u));
    if (where.output) {
      dcl = b.add(Op::DclOutputBuiltIn(t, ctx.entry_point(), info.builtin, impl.gs_stream));
    } else {
      auto interp = ir::InterpolationModes(0);
      if (pixel && (info.type != ScalarType::F32)) interp = ir::InterpolationModes::Flat;
      dcl = b.add(Op::DclInputBuiltIn(t, ctx.entry_point(), info.builtin, interp));
    }
    if (shared) *shared = dcl;
    if (element && !element->semantic_name.empty())
      b.add(Op::Semantic(dcl, element->semantic_index, element->semantic_name));
  }
  unsigned next = 0;
  for (unsigned c = 0; c < 4; ++c) {
    if (!(mask & (1u << c))) continue;
    IoSlot& s = impl.make_slot(where.file, reg, c);
    s.dcl = dcl;
    s.type = info.type;
    s.shape = info.shape;
    s.per_vertex = where.per_vertex;
    s.stream = std::uint8_t(impl.gs_stream);
    if (info.shape == IoSlot::Shape::Vector)
      s.element = std::uint8_t(c);
    else if (info.shape == IoSlot::Shape::Array) {
      if (info.builtin == BuiltIn::TessFactorOuter || info.builtin == BuiltIn::TessFactorInner)
        s.element = std::uint8_t(tess_factor_index(name) + next);
      else
        s.element = std::uint8_t(base + next);
    } else {
      s.element = 0;
      if (next > 0) s.dcl = {}; // a scalar built-in occupies one component
    }
    ++next;
  }
}

// One location variable over `count` components of `reg` from `first`, typed and named by
// `element` (null: f32, no semantic).
void declare_location_run(ConvertContext& ctx, const IoTarget& where, std::uint32_t reg,
                          unsigned first, unsigned count, InterpolationMode mode,
                          const SignatureElement* element) {
  auto& impl = ctx.impl();
  ir::Builder& b = ctx.builder();
  ScalarType scalar = element ? scalar_of_component_type(element->component_type) : ScalarType::F32;
  Type t = ir::vec(scalar, count);
  if (where.per_vertex)
    t = b.types().make_array(t, where.output ? std::max(impl.output_control_points, 1u)
                                             : std::max(impl.input_vertices, 1u));
  SsaDef dcl;
  std::uint32_t location = reg;
  if (where.file == IoFile::PatchOutput || where.file == IoFile::PatchInput) location += 16;
  if (where.output) {
    dcl = b.add(Op::DclOutput(t, ctx.entry_point(), location, first, impl.gs_stream));
  } else {
    auto interp = ir::InterpolationModes(0);
    if (ctx.program().type == ProgramType::Pixel) {
      interp = interpolation_of(mode);
      if (scalar != ScalarType::F32) interp = ir::InterpolationModes::Flat;
    }
    dcl = b.add(Op::DclInput(t, ctx.entry_point(), location, first, interp));
  }
  if (element && !element->semantic_name.empty())
    b.add(Op::Semantic(dcl, element->semantic_index, element->semantic_name));
  for (unsigned c = first; c < first + count; ++c) {
    IoSlot& existing = impl.make_slot(where.file, reg, c);
    IoSlot slot;
    slot.dcl = dcl;
    slot.type = scalar;
    slot.shape = count == 1 ? IoSlot::Shape::Scalar : IoSlot::Shape::Vector;
    slot.element = std::uint8_t(c - first);
    slot.per_vertex = where.per_vertex;
    slot.stream = std::uint8_t(impl.gs_stream);
    if (existing.dcl) // declared by another stream (declare_location)
      impl.stream_mirrors.push_back({reg, c, slot});
    else
      existing = slot;
  }
}

// Whether component `c` of `reg` is declared for the current stream (always, outside geometry
// shader outputs: components keep their first declaration).
bool declared_here(ConvertContext& ctx, const IoTarget& where, std::uint32_t reg, unsigned c) {
  auto& impl = ctx.impl();
  const IoSlot* s = impl.slot(where.file, reg, c);
  if (!s || !s->dcl) return false;
  if (!where.output || ctx.program().type != ProgramType::Geometry) return true;
  if (s->stream == impl.gs_stream) return true;
  for (const auto& m : impl.stream_mirrors)
    if (m.reg == reg && m.component == c && m.slot.stream == impl.gs_stream) return true;
  return false;
}

// One variable per contiguous run of `mask`.
void declare_location_runs(ConvertContext& ctx, const IoTarget& where, std::uint32_t reg,
                           std::uint8_t mask, InterpolationMode mode,
                           const SignatureElement* element) {
  for (unsigned c = 0; c < 4;) {
    if (!(mask & (1u << c))) {
      ++c;
      continue;
    }
    const unsigned first = c;
    while (c < 4 && (mask & (1u << c))) ++c;
    declare_location_run(ctx, where, reg, first, c - first, mode, element);
  }
}

// The variables of a location declaration. A declaration's mask may span several signature
// elements packed into one register (fxc merges the used components of elements with the same
// interpolation mode: `dcl_input_ps linear v2.xyw`) and skip components that belong to an
// element of another mode or type, declared elsewhere (`dcl_input_ps constant v2.z`). So the
// variables follow the elements: one per element the mask touches, over the components of the
// mask in that element, in contiguous runs, at location = register and component = the run's
// first. A variable never covers a component outside its declaration (two variables would
// claim it), each element keeps its own type and interpolation, and both stages of a packed
// signature place each component at the same location and component, whatever masks their
// declarations use.
void declare_location(ConvertContext& ctx, const IoTarget& where, std::uint32_t reg,
                      std::uint8_t mask, InterpolationMode mode, const SignatureElement* element) {
  auto& impl = ctx.impl();
  // Components already declared (overlapping declarations) keep their first declaration; in
  // another geometry shader stream they get a variable of that stream (declared_here).
  for (unsigned c = 0; c < 4; ++c)
    if (declared_here(ctx, where, reg, c)) mask &= std::uint8_t(~(1u << c));
  if (!mask) return;
  // Per-patch and per-vertex variables share one location space in Vulkan (spirv-val checks
  // it), while drivers keep few patch slots (Mesa: 32, and lavapipe fails beyond them): patch
  // constants (hull fork/join outputs, domain vpc#) sit at 16 + register, the same in both
  // stages, above the 16 control point registers shaders use in practice. A shader using more
  // control point registers on the side that also has patch constants (hull outputs, domain
  // inputs) is rejected here: its locations would collide.
  const ProgramType type = ctx.program().type;
  if (where.per_vertex && reg >= 16 &&
      ((type == ProgramType::Hull && where.output) ||
       (type == ProgramType::Domain && !where.output))) {
    ctx.fail("control point register 16 or above beside patch constants (kiln places patch "
             "constants at locations 16 and up): not supported");
    return;
  }
  if (where.sig) {
    const std::uint32_t stream = where.output ? impl.gs_stream : 0;
    for (const SignatureElement& e : *where.sig) {
      if (e.register_index != reg || !(e.mask & mask)) continue;
      if (where.output && e.stream != stream) continue;
      // System values other than this declaration's own element are built-ins, not locations.
      if (e.system_value && e.system_value < 64 && &e != element) continue;
      declare_location_runs(ctx, where, reg, std::uint8_t(mask & e.mask), mode, &e);
      mask &= std::uint8_t(~e.mask);
    }
  }
  // Components no element of the signature covers (or no signature).
  declare_location_runs(ctx, where, reg, mask, mode, element);
}

void declare_special(ConvertContext& ctx, OperandType type, std::uint8_t mask) {
  BuiltInInfo info;
  if (!builtin_of_operand(type, info)) return;
  IoTarget where{IoFile::Special, is_output_operand(type), false, nullptr};
  std::uint32_t name = 0;
  // Outside pixel shaders declare_builtin rejects these outputs; the mode must not come first.
  const bool pixel = ctx.program_type() == ProgramType::Pixel;
  if (type == OperandType::OutputDepthGreaterEqual && pixel)
    ctx.builder().add(Op::SetPsDepthGreaterEqual(ctx.entry_point()));
  if (type == OperandType::OutputDepthLessEqual && pixel)
    ctx.builder().add(Op::SetPsDepthLessEqual(ctx.entry_point()));
  if (info.shape == IoSlot::Shape::Vector) mask = std::uint8_t((1u << info.size) - 1);
  if (!mask) mask = 1;
  declare_builtin(ctx, where, std::uint32_t(type), mask, info, name, nullptr);
}

} // namespace

// Beyond every D3D limit (32 input registers, 32 x 32 control-point registers) with room to
// spare; larger numbers come from damaged bytecode (or mean "no register" in a signature) and
// must not size the per-register tables.
constexpr std::uint32_t kMaxIoRegister = 1024;

Status read_signatures(ConvertContext& ctx) {
  auto& impl = ctx.impl();
  const Container& c = ctx.container();
  impl.isgn.clear();
  impl.osgn.clear();
  impl.pcsg.clear();
  if (c.input.present())
    if (Status s = parse_signature(c.input, impl.isgn); !s) return s;
  if (c.output.present())
    if (Status s = parse_signature(c.output, impl.osgn); !s) return s;
  if (c.patch_constant.present())
    if (Status s = parse_signature(c.patch_constant, impl.pcsg); !s) return s;
  return Status::ok();
}

bool convert_io_declaration(ConvertContext& ctx, const Instruction& inst, const Declaration& decl) {
  auto ops = ctx.program().operands_of(inst);
  if (ops.empty()) return false;
  const Operand& op = ops[0];
  switch (inst.opcode) {
  case Opcode::DclInput:
  case Opcode::DclInputSgv:
  case Opcode::DclInputSiv:
  case Opcode::DclInputPs:
  case Opcode::DclInputPsSgv:
  case Opcode::DclInputPsSiv:
  case Opcode::DclOutput:
  case Opcode::DclOutputSgv:
  case Opcode::DclOutputSiv:
    break;
  default:
    return false;
  }
  std::uint8_t mask = op.component_count == 0 ? 1 : op.component_count == 1 ? 1 : op.mask;
  IoTarget where = target_of(ctx, op.type);
  if (where.file == IoFile::Special) {
    declare_special(ctx, op.type, mask);
    return true;
  }
  // The register is the last index (v[vertices][reg], vicp[cp][reg], o#, vpc#).
  if (op.index_dimension == 0) return true;
  std::uint32_t reg = op.index[op.index_dimension - 1];
  if (reg >= kMaxIoRegister) {
    ctx.fail(inst, "register index out of range");
    return true;
  }
  const SignatureElement* element =
      where.sig ? find_element(*where.sig, reg, mask, where.output ? ctx.impl().gs_stream : 0)
                : nullptr;
  std::uint32_t name = decl.system_value;
  bool has_sv = inst.opcode == Opcode::DclInputSgv || inst.opcode == Opcode::DclInputSiv ||
                inst.opcode == Opcode::DclInputPsSgv || inst.opcode == Opcode::DclInputPsSiv ||
                inst.opcode == Opcode::DclOutputSgv || inst.opcode == Opcode::DclOutputSiv;
  if (!has_sv) name = 0;
  name = tess_code_of_token_name(name);
  // Per-vertex position/clip inputs of GS/HS/DS are declared as plain dcl_input with the
  // system value only in the signature.
  if (!has_sv && element && element->system_value && element->system_value < 64) {
    name = tess_code_of_signature_name(element->system_value, element->semantic_index);
  }
  BuiltInInfo info;
  if (name && builtin_of_sv(name, info)) {
    // A pixel shader reading SV_Position gets the fragment coordinate; vertex shaders read
    // SV_Position as an ordinary input location (it is just an attribute there).
    bool vs_input = ctx.program().type == ProgramType::Vertex && !where.output;
    if (!vs_input || name == sv::VertexId || name == sv::InstanceId) {
      declare_builtin(ctx, where, reg, mask, info, name, element);
      return true;
    }
  } else if (name && name != sv::Target) {
    ctx.fail(inst, "unsupported system value " + std::to_string(name));
    return true;
  }
  declare_location(ctx, where, reg, mask, decl.interpolation, element);
  return true;
}

namespace {

// The slot of a special register (vPrim, vThreadID, oDepth, ...), declared on first use.
IoSlot* special_slot(ConvertContext& ctx, OperandType type, unsigned component) {
  auto& impl = ctx.impl();
  std::uint32_t reg = std::uint32_t(type);
  IoSlot* s = impl.slot(IoFile::Special, reg, component);
  if (!s || !s->dcl) {
    declare_special(ctx, type, std::uint8_t(1u << component));
    s = impl.slot(IoFile::Special, reg, component);
  }
  if (!s || !s->dcl) {
    ctx.fail("unsupported register type " + std::to_string(unsigned(type)));
    return nullptr;
  }
  return s;
}

} // namespace

IoSlot* io_slot_for(ConvertContext& ctx, const Operand& op, unsigned component, bool write) {
  IoTarget where = target_of(ctx, op.type);
  auto& impl = ctx.impl();
  if (where.file == IoFile::Special) return special_slot(ctx, op.type, component);
  unsigned reg_dim = op.index_dimension ? op.index_dimension - 1u : 0u;
  if (op.index_dimension == 0) {
    ctx.fail("register operand without an index");
    return nullptr;
  }
  if (op.has_relative(reg_dim)) {
    ctx.fail("dynamically indexed input/output registers (dcl_indexrange)");
    return nullptr;
  }
  IoSlot* s = impl.slot(where.file, op.index[reg_dim], component);
  if (!s || !s->dcl) {
    // Components that no declaration names (compilers read .w of a .xyz input): zero.
    if (!write) return nullptr;
    ctx.fail(std::string("undeclared ") + (where.output ? "output o" : "input v") +
             std::to_string(op.index[reg_dim]));
    return nullptr;
  }
  return s;
}

namespace {

// The address operand for one slot: [vertex,] element.
SsaDef slot_address(ConvertContext& ctx, const Operand& op, const IoSlot& s, bool output_file) {
  SsaDef vertex;
  if (s.per_vertex) {
    auto& impl = ctx.impl();
    if (op.index_dimension >= 2) {
      vertex = ctx.load_index(op, 0);
    } else if (output_file) {
      // o# in the control point phase: this invocation's control point.
      if (!impl.control_point_id) {
        IoSlot* id = special_slot(ctx, OperandType::OutputControlPointId, 0);
        if (!id) return {};
        impl.control_point_id =
            ctx.builder().add_after(impl.label, Op::InputLoad(ir::kU32, id->dcl, SsaDef()));
      }
      vertex = impl.control_point_id;
    } else {
      ctx.fail("per-vertex input read without a vertex index");
      return {};
    }
  }
  bool has_element = s.shape == IoSlot::Shape::Vector || s.shape == IoSlot::Shape::Array;
  if (!vertex) return has_element ? ctx.constant_u32(s.element) : SsaDef();
  if (!has_element) return vertex;
  return ctx.emit(
      Op::CompositeConstruct(ir::vec(ScalarType::U32, 2), vertex, ctx.constant_u32(s.element)));
}

} // namespace

namespace {

// Register index dimension of an I/O operand (the last one), when it is relative.
bool dynamic_register(const Operand& op, unsigned& reg_dim) {
  if (op.index_dimension == 0) return false;
  reg_dim = op.index_dimension - 1u;
  return op.has_relative(reg_dim);
}

// The operand with register `reg` in place of its relative register index.
Operand with_register(const Operand& op, unsigned reg_dim, std::uint32_t reg) {
  Operand fixed = op;
  fixed.index[reg_dim] = reg;
  fixed.relative[reg_dim] = kNoOperand;
  fixed.index_representation[reg_dim] = IndexRepresentation::Immediate32;
  return fixed;
}

// Candidate registers of a dynamically indexed v#/o#: every declared register from the
// immediate base on (dcl_indexrange bounds what the shader may reach; outside it D3D leaves
// the result undefined, so the declared registers suffice).
std::uint32_t register_limit(ConvertContext& ctx, const Operand& op) {
  IoTarget where = target_of(ctx, op.type);
  return std::uint32_t(ctx.impl().file(where.file).size() / 4);
}

} // namespace

SsaDef io_load(ConvertContext& ctx, const Operand& op, unsigned component, ScalarType type) {
  auto& impl = ctx.impl();
  unsigned reg_dim = 0;
  if (dynamic_register(op, reg_dim) && op.type != OperandType::Null) {
    // v[r0.x + n]: select among the declared registers.
    SsaDef index = ctx.load_index(op, reg_dim);
    SsaDef result = ctx.constant_bits(type, 0);
    for (std::uint32_t reg = op.index[reg_dim], end = register_limit(ctx, op); reg < end; ++reg) {
      IoSlot* s = impl.slot(target_of(ctx, op.type).file, reg, component);
      if (!s || !s->dcl) continue;
      SsaDef v = io_load(ctx, with_register(op, reg_dim, reg), component, type);
      if (!v) return {};
      SsaDef hit = ctx.emit(Op::IEq(index, ctx.constant_u32(reg)));
      result = ctx.emit(Op::Select(Type(type), hit, v, result));
    }
    return result;
  }
  if (op.type == OperandType::InputForkInstanceId || op.type == OperandType::InputJoinInstanceId) {
    if (!impl.fork_instance) return ctx.constant_bits(type, 0);
    return ctx.bitcast(impl.fork_instance, ScalarType::U32, type);
  }
  if (op.type == OperandType::Null) return ctx.constant_bits(type, 0);
  if (op.type == OperandType::Rasterizer || op.type == OperandType::CycleCounter) {
    ctx.fail(op.type == OperandType::CycleCounter ? "unsupported register vCycleCounter"
                                                  : "unsupported register rasterizer");
    return {};
  }
  IoSlot* s = io_slot_for(ctx, op, component, false);
  if (!s) return ctx.ok() ? ctx.constant_bits(type, 0) : SsaDef();
  IoTarget where = target_of(ctx, op.type);
  SsaDef addr = slot_address(ctx, op, *s, where.output);
  if (!ctx.ok()) return {};
  Type t = s->type == ScalarType::Bool ? ir::kBool : Type(s->type);
  SsaDef v;
  bool cacheable = !where.output && !s->per_vertex;
  if (cacheable && s->stamp == impl.function_stamp) {
    v = s->cached;
  } else if (cacheable) {
    // The address is a constant (or null): the load can sit at the function's start.
    v = ctx.builder().add_after(impl.label, Op::InputLoad(t, s->dcl, addr));
    s->cached = v;
    s->stamp = impl.function_stamp;
  } else {
    v = where.output ? ctx.emit(Op::OutputLoad(t, s->dcl, addr))
                     : ctx.emit(Op::InputLoad(t, s->dcl, addr));
  }
  if (ctx.program().type == ProgramType::Pixel && s->shape == IoSlot::Shape::Vector &&
      s->element == 3 && ctx.builder().op(s->dcl).code() == ir::OpCode::DclInputBuiltIn &&
      ctx.builder().op(s->dcl).operand(1).literal_u32() == std::uint32_t(BuiltIn::Position)) {
    // D3D's SV_Position.w is the clip-space w; Vulkan's FragCoord.w is its reciprocal.
    v = ctx.emit(Op::FRcp(ir::kF32, v));
  }
  return ctx.bitcast(v, s->type, type);
}

void io_store(ConvertContext& ctx, const Operand& op, unsigned component, SsaDef value,
              ScalarType type) {
  if (!is_output_operand(op.type)) {
    ctx.fail("write to a read-only register");
    return;
  }
  unsigned reg_dim = 0;
  if (dynamic_register(op, reg_dim)) {
    // o[r0.x + n]: store to the register the index names, one guarded store per candidate.
    SsaDef index = ctx.load_index(op, reg_dim);
    for (std::uint32_t reg = op.index[reg_dim], end = register_limit(ctx, op); reg < end; ++reg) {
      IoSlot* s = ctx.impl().slot(target_of(ctx, op.type).file, reg, component);
      if (!s || !s->dcl) continue;
      SsaDef hit = ctx.emit(Op::IEq(index, ctx.constant_u32(reg)));
      SsaDef sif = ctx.emit(Op::ScopedIf(SsaDef(), hit));
      io_store(ctx, with_register(op, reg_dim, reg), component, value, type);
      SsaDef end_if = ctx.emit(Op::ScopedEndIf(sif));
      ctx.builder().rewrite_op(sif, Op::ScopedIf(end_if, hit));
      if (!ctx.ok()) return;
    }
    return;
  }
  IoSlot* s = io_slot_for(ctx, op, component, true);
  if (!s) return;
  SsaDef addr = slot_address(ctx, op, *s, true);
  if (!ctx.ok()) return;
  SsaDef v = ctx.bitcast(value, type, s->type);
  ctx.emit(Op::OutputStore(ir::kVoid, s->dcl, addr, v));
  // The same register component declared by other geometry shader streams.
  const auto& mirrors = ctx.impl().stream_mirrors;
  if (mirrors.empty() || op.type != OperandType::Output) return;
  const std::uint32_t reg = op.index[op.index_dimension - 1];
  for (std::size_t i = 0; i < mirrors.size(); ++i) {
    if (mirrors[i].reg != reg || mirrors[i].component != component) continue;
    const IoSlot m = mirrors[i].slot;
    SsaDef maddr = slot_address(ctx, op, m, true);
    ctx.emit(Op::OutputStore(ir::kVoid, m.dcl, maddr, ctx.bitcast(value, type, m.type)));
  }
}

} // namespace kiln::dxbc

namespace kiln::dxbc {

SsaDef io_interpolate(ConvertContext& ctx, const Instruction& inst, const Operand& op,
                      unsigned component, SsaDef extra) {
  if (op.type != OperandType::Input || ctx.program().type != ProgramType::Pixel) {
    ctx.fail(inst, "interpolation of a register that is not a pixel shader input");
    return {};
  }
  IoSlot* s = io_slot_for(ctx, op, component, false);
  if (!s) return ctx.ok() ? ctx.constant_f32(0.0f) : SsaDef();
  if (s->type != ScalarType::F32 || ctx.builder().op(s->dcl).code() != ir::OpCode::DclInput) {
    // Flat and built-in inputs are the same at every position.
    return io_load(ctx, op, component, ScalarType::F32);
  }
  SsaDef addr = slot_address(ctx, op, *s, false);
  switch (inst.opcode) {
  case Opcode::EvalCentroid:
    return ctx.emit(Op::InterpolateAtCentroid(ir::kF32, s->dcl, addr));
  case Opcode::EvalSampleIndex:
    return ctx.emit(Op::InterpolateAtSample(ir::kF32, s->dcl, addr, extra));
  default:
    return ctx.emit(Op::InterpolateAtOffset(ir::kF32, s->dcl, addr, extra));
  }
}

} // namespace kiln::dxbc

namespace kiln::dxbc {

void io_hull_passthrough(ConvertContext& ctx) {
  auto& impl = ctx.impl();
  IoSlot* id_slot = special_slot(ctx, OperandType::OutputControlPointId, 0);
  if (!id_slot) return;
  SsaDef id = ctx.emit(Op::InputLoad(ir::kU32, id_slot->dcl, SsaDef()));
  IoTarget in{IoFile::Input, false, true, &impl.isgn};
  IoTarget out{IoFile::Output, true, true, &impl.osgn};
  for (const SignatureElement& e : impl.isgn) {
    // Elements without a register (~0) or with a damaged one declare nothing here.
    if (e.register_index >= kMaxIoRegister) continue;
    if (e.system_value && e.system_value < 64) {
      BuiltInInfo info;
      std::uint32_t code = tess_code_of_signature_name(e.system_value, e.semantic_index);
      if (builtin_of_sv(code, info)) {
        declare_builtin(ctx, in, e.register_index, e.mask, info, code, &e);
        declare_builtin(ctx, out, e.register_index, e.mask, info, code, &e);
      }
    } else {
      declare_location(ctx, in, e.register_index, e.mask, InterpolationMode::Undefined, &e);
      declare_location(ctx, out, e.register_index, e.mask, InterpolationMode::Undefined,
                       find_element(impl.osgn, e.register_index, e.mask, 0));
    }
    for (unsigned c = 0; c < 4; ++c) {
      if (!(e.mask & (1u << c))) continue;
      IoSlot* si = impl.slot(IoFile::Input, e.register_index, c);
      IoSlot* so = impl.slot(IoFile::Output, e.register_index, c);
      if (!si || !so || !si->dcl || !so->dcl) continue;
      auto address = [&](const IoSlot& s) {
        bool has_element = s.shape == IoSlot::Shape::Vector || s.shape == IoSlot::Shape::Array;
        if (!has_element) return id;
        return ctx.emit(
            Op::CompositeConstruct(ir::vec(ScalarType::U32, 2), id, ctx.constant_u32(s.element)));
      };
      SsaDef v = ctx.emit(Op::InputLoad(Type(si->type), si->dcl, address(*si)));
      v = ctx.bitcast(v, si->type, so->type);
      ctx.emit(Op::OutputStore(ir::kVoid, so->dcl, address(*so), v));
    }
  }
}

} // namespace kiln::dxbc
