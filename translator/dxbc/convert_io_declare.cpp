// Shader inputs and outputs of the DXBC converter, declaring half: signatures,
// dcl_input*/dcl_output* (the dcl_io handler), and system values (SV_*) as IR built-ins.
// Reading and writing the registers: convert_io.cpp.
#include "translator/dxbc/convert_dispatch.h"
#include "translator/dxbc/convert_io.h"

#include <string>

namespace kiln::dxbc {

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

} // namespace

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

namespace {

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

} // namespace

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

namespace {

ScalarType scalar_of_component_type(std::uint32_t t) {
  return t == 1 ? ScalarType::U32 : t == 2 ? ScalarType::I32 : ScalarType::F32;
}

} // namespace

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

namespace {

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

} // namespace

// Which register file a declaration or access of `op` goes to.
IoTarget target_of(ConvertContext& ctx, OperandType type) {
  bool hull = ctx.program().type == ProgramType::Hull;
  switch (type) {
  case OperandType::Input:
  case OperandType::InputControlPoint:
    return {IoFile::Input, false, stage_has_vertex_arrays(ctx, false), &ctx.isgn};
  case OperandType::OutputControlPoint:
    return {IoFile::Output, true, true, &ctx.osgn};
  case OperandType::InputPatchConstant:
    if (hull) return {IoFile::PatchOutput, true, false, &ctx.pcsg};
    return {IoFile::PatchInput, false, false, &ctx.pcsg};
  case OperandType::Output:
    if (hull && ctx.hull_patch_phase) return {IoFile::PatchOutput, true, false, &ctx.pcsg};
    return {IoFile::Output, true, hull, &ctx.osgn};
  default:
    return {IoFile::Special, is_output_operand(type), false, nullptr};
  }
}

// Declares a built-in for `count` components and fills the slots.
void declare_builtin(ConvertContext& ctx, const IoTarget& where, std::uint32_t reg,
                     std::uint8_t mask, const BuiltInInfo& info, std::uint32_t name,
                     const SignatureElement* element) {
  ir::Builder& b = ctx.builder();
  bool pixel = ctx.program().type == ProgramType::Pixel;
  // Declared before (a hull fork phase declaring vocp the control point phase wrote): keep it.
  bool all_declared = true;
  for (unsigned c = 0; c < 4; ++c) {
    if (!(mask & (1u << c))) continue;
    IoSlot* s = ctx.slot(where.file, reg, c);
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
    shared = where.output ? (clip ? &ctx.clip_dcl_out : &ctx.cull_dcl_out)
                          : (clip ? &ctx.clip_dcl_in : &ctx.cull_dcl_in);
  } else if ((info.builtin == BuiltIn::TessFactorOuter ||
              info.builtin == BuiltIn::TessFactorInner) &&
             where.per_vertex) {
    // Tessellation factors are per patch: hull fork/join phase outputs, domain vpc# inputs.
    ctx.fail(ctx.here(),
             "tessellation factor declared per control point (outside the patch constant "
             "phases)");
    return;
  } else if (info.builtin == BuiltIn::TessFactorOuter) {
    shared = &ctx.tess_outer;
  } else if (info.builtin == BuiltIn::TessFactorInner) {
    shared = &ctx.tess_inner;
  }
  SsaDef dcl = shared ? *shared : SsaDef();
  if (!dcl) {
    Type t = info.shape == IoSlot::Shape::Vector ? ir::vec(info.type, info.size) : Type(info.type);
    if (info.shape == IoSlot::Shape::Array) t = b.types().make_array(t, array_len);
    if (where.per_vertex)
      t = b.types().make_array(t, where.output ? std::max(ctx.output_control_points, 1u)
                                               : std::max(ctx.input_vertices, 1u));
    if (where.output) {
      dcl = b.add(Op::DclOutputBuiltIn(t, ctx.entry_point(), info.builtin, ctx.gs_stream));
    } else {
      auto interp = ir::InterpolationModes(0);
      if (pixel && (info.type != ScalarType::F32)) interp = ir::InterpolationModes::Flat;
      dcl = b.add(Op::DclInputBuiltIn(t, ctx.entry_point(), info.builtin, interp));
    }
    if (shared) *shared = dcl;
    if (element && !element->semantic_name.empty())
      b.add(Op::Semantic(dcl, element->semantic_index, element->semantic_name));
    name_io(ctx, dcl, element);
  }
  unsigned next = 0;
  for (unsigned c = 0; c < 4; ++c) {
    if (!(mask & (1u << c))) continue;
    IoSlot& s = ctx.make_slot(where.file, reg, c);
    s.dcl = dcl;
    s.type = info.type;
    s.shape = info.shape;
    s.per_vertex = where.per_vertex;
    s.stream = std::uint8_t(ctx.gs_stream);
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

namespace {

// The first location of patch constants (hull shader outputs of the fork/join phases, domain
// shader vpc#): after the control point registers of the signature on the same side (hull
// outputs, domain inputs), so both stages agree. kiln's: 16 (above the registers shaders use in
// practice; drivers keep few patch slots, Mesa 32) or past the highest control point register;
// vkd3d-shader's: the number of elements in that signature.
std::uint32_t patch_location_base(ConvertContext& ctx) {
  const auto& control_points = ctx.program().type == ProgramType::Hull ? ctx.osgn : ctx.isgn;
  if (ctx.convention == InterfaceConvention::Vkd3dShader)
    return std::uint32_t(control_points.size());
  std::uint32_t base = 16;
  for (const SignatureElement& e : control_points)
    if (e.register_index < kMaxIoRegister) base = std::max(base, e.register_index + 1);
  return base;
}

// One location variable over `count` components of `reg` from `first`, typed and named by
// `element` (null: f32, no semantic).
void declare_location_run(ConvertContext& ctx, const IoTarget& where, std::uint32_t reg,
                          unsigned first, unsigned count, InterpolationMode mode,
                          const SignatureElement* element) {
  ir::Builder& b = ctx.builder();
  ScalarType scalar = element ? scalar_of_component_type(element->component_type) : ScalarType::F32;
  Type t = ir::vec(scalar, count);
  if (where.per_vertex)
    t = b.types().make_array(t, where.output ? std::max(ctx.output_control_points, 1u)
                                             : std::max(ctx.input_vertices, 1u));
  SsaDef dcl;
  std::uint32_t location = reg;
  if (where.file == IoFile::PatchOutput || where.file == IoFile::PatchInput)
    location += patch_location_base(ctx);
  if (where.output) {
    dcl = b.add(Op::DclOutput(t, ctx.entry_point(), location, first, ctx.gs_stream));
  } else {
    auto interp = ir::InterpolationModes(0);
    if (ctx.program().type == ProgramType::Pixel) {
      interp = interpolation_of(mode);
      if (scalar != ScalarType::F32) interp = ir::InterpolationModes::Flat;
    }
    dcl = b.add(Op::DclInput(t, ctx.entry_point(), location, first, interp));
  }
  if (element && !element->semantic_name.empty()) {
    b.add(Op::Semantic(dcl, element->semantic_index, element->semantic_name));
    // A variable over several elements of an output register (vkd3d-shader's widened
    // register, declare_location_vkd3d): each other element it covers gets a Semantic too,
    // after the first (which names the variable), so that a stream-output request naming any
    // of them finds its components in this variable.
    if (where.output && where.sig)
      for (const SignatureElement& e : *where.sig)
        if (&e != element && e.register_index == reg && e.stream == element->stream &&
            !e.system_value && !e.semantic_name.empty() && (e.mask >> first) & ((1u << count) - 1))
          b.add(Op::Semantic(dcl, e.semantic_index, e.semantic_name));
  }
  name_io(ctx, dcl, element);
  for (unsigned c = first; c < first + count; ++c) {
    IoSlot& existing = ctx.make_slot(where.file, reg, c);
    IoSlot slot;
    slot.dcl = dcl;
    slot.type = scalar;
    slot.shape = count == 1 ? IoSlot::Shape::Scalar : IoSlot::Shape::Vector;
    slot.element = std::uint8_t(c - first);
    slot.per_vertex = where.per_vertex;
    slot.stream = std::uint8_t(ctx.gs_stream);
    if (existing.dcl) // declared by another stream (declare_location)
      ctx.stream_mirrors.push_back({reg, c, slot});
    else
      existing = slot;
  }
}

// Whether component `c` of `reg` is declared for the current stream (always, outside geometry
// shader outputs: components keep their first declaration).
bool declared_here(ConvertContext& ctx, const IoTarget& where, std::uint32_t reg, unsigned c) {
  const IoSlot* s = ctx.slot(where.file, reg, c);
  if (!s || !s->dcl) return false;
  if (!where.output || ctx.program().type != ProgramType::Geometry) return true;
  if (s->stream == ctx.gs_stream) return true;
  for (const auto& m : ctx.stream_mirrors)
    if (m.reg == reg && m.component == c && m.slot.stream == ctx.gs_stream) return true;
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

} // namespace

// vkd3d-shader 1.2's variable for a register (InterfaceConvention::Vkd3dShader): the first
// declaration of a register makes its only variable, over the components of the signature
// element the declaration's mask falls in (the first element of that register covering the
// whole mask; none: no variable), widened to all of the register's elements when there are
// several, none of them a system value, and their masks together are contiguous; typed as that
// element and interpolated as that declaration says. Its pass-through control point phase
// declares each input element alone (`widen` false).
void declare_location_vkd3d(ConvertContext& ctx, const IoTarget& where, std::uint32_t reg,
                            std::uint8_t mask, InterpolationMode mode, bool widen) {
  for (unsigned c = 0; c < 4; ++c) {
    const IoSlot* s = ctx.slot(where.file, reg, c);
    if (s && s->dcl) return;
  }
  const SignatureElement* element = nullptr;
  unsigned elements = 0;
  std::uint8_t all = 0;
  bool system_value = false;
  for (const SignatureElement& e : *where.sig) {
    if (e.register_index != reg) continue;
    ++elements;
    all |= e.mask;
    system_value |= e.system_value != 0;
    if (!element && (e.mask & mask) == mask) element = &e;
  }
  if (!element) return;
  std::uint8_t components = element->mask;
  const unsigned run = unsigned(all) >> __builtin_ctz(all | 0x10u);
  if (widen && elements > 1 && !system_value && (run & (run + 1)) == 0) components = all;
  declare_location_runs(ctx, where, reg, components, mode, element);
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
  // Components already declared (overlapping declarations) keep their first declaration; in
  // another geometry shader stream they get a variable of that stream (declared_here).
  for (unsigned c = 0; c < 4; ++c)
    if (declared_here(ctx, where, reg, c)) mask &= std::uint8_t(~(1u << c));
  if (!mask) return;
  const bool vkd3d = ctx.convention == InterfaceConvention::Vkd3dShader && where.sig;
  if (vkd3d) {
    declare_location_vkd3d(ctx, where, reg, mask, mode, true);
    // An output component vkd3d-shader gives no variable (a register a system value declared
    // first) still gets one, with kiln's rules below: no consumer of either library reads it,
    // and the shader's writes need a place. Inputs stay as vkd3d-shader has them.
    if (!where.output) return;
    for (unsigned c = 0; c < 4; ++c)
      if (declared_here(ctx, where, reg, c)) mask &= std::uint8_t(~(1u << c));
    if (!mask) return;
  }
  // Per-patch and per-vertex variables share one location space in Vulkan (spirv-val checks
  // it): patch constants (hull fork/join outputs, domain vpc#) sit after the control point
  // registers (patch_location_base), the same in both stages. A control point register the
  // signature does not have, at or beyond that base on the side that also has patch constants
  // (hull outputs, domain inputs), is rejected here: its locations would collide.
  const ProgramType type = ctx.program().type;
  if (!vkd3d && where.per_vertex && reg >= patch_location_base(ctx) &&
      ((type == ProgramType::Hull && where.output) ||
       (type == ProgramType::Domain && !where.output))) {
    ctx.fail(ctx.here(),
             "control point register " + std::to_string(reg) +
                 " beyond the control point signature, where patch constants sit: not supported");
    return;
  }
  if (where.sig) {
    const std::uint32_t stream = where.output ? ctx.gs_stream : 0;
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

Status read_signatures(ConvertContext& ctx) {
  const Container& c = ctx.container();
  ctx.isgn.clear();
  ctx.osgn.clear();
  ctx.pcsg.clear();
  if (c.input.present())
    if (Status s = parse_signature(c.input, ctx.isgn); !s) return s;
  if (c.output.present())
    if (Status s = parse_signature(c.output, ctx.osgn); !s) return s;
  if (c.patch_constant.present())
    if (Status s = parse_signature(c.patch_constant, ctx.pcsg); !s) return s;
  return Status::ok();
}

// dcl_input, dcl_input_sgv/siv, dcl_input_ps(_sgv/_siv), dcl_output, dcl_output_sgv/siv.
bool dcl_io(ConvertContext& ctx, const Instruction& inst) {
  const Declaration& decl = ctx.program().declarations[inst.declaration];
  auto ops = ctx.program().operands_of(inst);
  if (ops.empty()) {
    return ctx.fail(inst, "declaration without an operand");
  }
  const Operand& op = ops[0];
  std::uint8_t mask = op.component_count == 0 ? 1 : op.component_count == 1 ? 1 : op.mask;
  IoTarget where = target_of(ctx, op.type);
  if (where.file == IoFile::Special) {
    declare_special(ctx, op.type, mask); // reports into the sink
    return true;
  }
  // The register is the last index (v[vertices][reg], vicp[cp][reg], o#, vpc#).
  if (op.index_dimension == 0) return true;
  std::uint32_t reg = op.index[op.index_dimension - 1];
  if (reg >= kMaxIoRegister) {
    return ctx.fail(inst, "register index out of range");
  }
  const SignatureElement* element =
      where.sig ? find_element(*where.sig, reg, mask, where.output ? ctx.gs_stream : 0) : nullptr;
  std::uint32_t name = decl.system_value;
  bool has_sv = inst.opcode == Opcode::DclInputSgv || inst.opcode == Opcode::DclInputSiv ||
                inst.opcode == Opcode::DclInputPsSgv || inst.opcode == Opcode::DclInputPsSiv ||
                inst.opcode == Opcode::DclOutputSgv || inst.opcode == Opcode::DclOutputSiv;
  if (!has_sv) name = 0;
  name = tess_code_of_token_name(name);
  // Per-vertex position/clip inputs of GS/HS/DS are declared as plain dcl_input with the
  // system value only in the signature. vkd3d-shader 1.2 reads that only for hull shader
  // inputs: elsewhere a plain declaration is an ordinary location (and its producer's plain
  // dcl_output one too).
  const bool signature_names_builtin = ctx.convention != InterfaceConvention::Vkd3dShader ||
                                       (ctx.program().type == ProgramType::Hull && !where.output);
  if (!has_sv && signature_names_builtin && element && element->system_value &&
      element->system_value < 64) {
    name = tess_code_of_signature_name(element->system_value, element->semantic_index);
  }
  BuiltInInfo info;
  if (name && builtin_of_sv(name, info)) {
    // A pixel shader reading SV_Position gets the fragment coordinate; vertex shaders read
    // SV_Position as an ordinary input location (it is just an attribute there).
    bool vs_input = ctx.program().type == ProgramType::Vertex && !where.output;
    if (!vs_input || name == sv::VertexId || name == sv::InstanceId) {
      declare_builtin(ctx, where, reg, mask, info, name, element); // reports into the sink
      return true;
    }
  } else if (name && name != sv::Target) {
    return ctx.fail(inst, "unsupported system value " + std::to_string(name));
  }
  declare_location(ctx, where, reg, mask, decl.interpolation, element);
  return true;
}

} // namespace kiln::dxbc
