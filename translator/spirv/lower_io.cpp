// SPIR-V backend: shader inputs and outputs. User I/O becomes Location/Component decorated
// variables of the declared IR type; built-ins become BuiltIn variables of the type SPIR-V
// demands (the loads and stores that convert between that type and the IR's: lower_io_ops.cpp).
#include "translator/spirv/lower_state.h"

#include <algorithm>

namespace kiln::spirv {

namespace {

// Stage masks for the table below: the stages where Vulkan allows a built-in as an input or
// an output (the Vulkan spec's BuiltIn VUIDs). Anything else is refused by name instead of
// becoming SPIR-V that no driver may accept.
constexpr std::uint8_t kV = stage_bit(ShaderStage::Vertex), kH = stage_bit(ShaderStage::Hull),
                       kD = stage_bit(ShaderStage::Domain), kG = stage_bit(ShaderStage::Geometry),
                       kP = stage_bit(ShaderStage::Pixel), kC = stage_bit(ShaderStage::Compute);
constexpr std::uint8_t kNone = 0, kAll = kV | kH | kD | kG | kP | kC;

// X(ir built-in, spv built-in, SPIR-V scalar, components, forced array size, needs an array,
//   input stages, output stages)
// `Unsupported` marks built-ins SPIR-V has no variable for.
constexpr spv::BuiltIn kUnsupported = spv::BuiltInMax;
constexpr spv::BuiltIn kSpecConstant = spv::BuiltIn(spv::BuiltInMax - 1);
constexpr spv::BuiltIn kVertexCount = spv::BuiltIn(spv::BuiltInMax - 2);
#define KILN_SPIRV_BUILTINS(X)                                                                     \
  X(Position, spv::BuiltInPosition, F32, 4, 0, false, kH | kD | kG | kP, kV | kH | kD | kG)        \
  X(ClipDistance, spv::BuiltInClipDistance, F32, 1, 0, true, kH | kD | kG | kP, kV | kH | kD | kG) \
  X(CullDistance, spv::BuiltInCullDistance, F32, 1, 0, true, kH | kD | kG | kP, kV | kH | kD | kG) \
  X(VertexId, spv::BuiltInVertexIndex, I32, 1, 0, false, kV, kNone)                                \
  X(InstanceId, spv::BuiltInInstanceIndex, I32, 1, 0, false, kV, kNone)                            \
  X(PrimitiveId, spv::BuiltInPrimitiveId, I32, 1, 0, false, kH | kD | kG | kP, kG)                 \
  X(Layer, spv::BuiltInLayer, I32, 1, 0, false, kP, kV | kD | kG)                                  \
  X(ViewportIndex, spv::BuiltInViewportIndex, I32, 1, 0, false, kP, kV | kD | kG)                  \
  X(GsVertexCountIn, kVertexCount, U32, 1, 0, false, kG, kNone)                                    \
  X(GsInstanceId, spv::BuiltInInvocationId, I32, 1, 0, false, kG, kNone)                           \
  X(TessControlPointCountIn, spv::BuiltInPatchVertices, I32, 1, 0, false, kH | kD, kNone)          \
  X(TessControlPointId, spv::BuiltInInvocationId, I32, 1, 0, false, kH, kNone)                     \
  X(TessCoord, spv::BuiltInTessCoord, F32, 3, 0, false, kD, kNone)                                 \
  X(TessFactorInner, spv::BuiltInTessLevelInner, F32, 1, 2, true, kH | kD, kH)                     \
  X(TessFactorOuter, spv::BuiltInTessLevelOuter, F32, 1, 4, true, kH | kD, kH)                     \
  X(SampleCount, kSpecConstant, U32, 1, 0, false, kAll, kNone)                                     \
  X(SampleId, spv::BuiltInSampleId, I32, 1, 0, false, kP, kNone)                                   \
  X(SamplePosition, spv::BuiltInSamplePosition, F32, 2, 0, false, kP, kNone)                       \
  X(SampleMask, spv::BuiltInSampleMask, I32, 1, 0, true, kP, kP)                                   \
  X(IsFrontFace, spv::BuiltInFrontFacing, Bool, 1, 0, false, kP, kNone)                            \
  X(Depth, spv::BuiltInFragDepth, F32, 1, 0, false, kNone, kP)                                     \
  X(StencilRef, spv::BuiltInFragStencilRefEXT, I32, 1, 0, false, kNone, kP)                        \
  X(GlobalThreadId, spv::BuiltInGlobalInvocationId, U32, 3, 0, false, kC, kNone)                   \
  X(LocalThreadId, spv::BuiltInLocalInvocationId, U32, 3, 0, false, kC, kNone)                     \
  X(LocalThreadIndex, spv::BuiltInLocalInvocationIndex, U32, 1, 0, false, kC, kNone)               \
  X(WorkgroupId, spv::BuiltInWorkgroupId, U32, 3, 0, false, kC, kNone)                             \
  X(IsFullyCovered, spv::BuiltInFullyCoveredEXT, Bool, 1, 0, false, kP, kNone)                     \
  X(PointSize, spv::BuiltInPointSize, F32, 1, 0, false, kNone, kG)

struct BuiltInTable {
  BuiltInInfo entries[32] = {};
  constexpr BuiltInTable() {
#define KILN_X(name, spv_builtin, scalar, components, fixed, needs_array, inputs, outputs)         \
  entries[std::size_t(ir::BuiltIn::name)] = BuiltInInfo{                                           \
      spv_builtin, ir::ScalarType::scalar, components, fixed, needs_array, inputs, outputs};
    KILN_SPIRV_BUILTINS(KILN_X)
#undef KILN_X
  }
};
constexpr BuiltInTable kBuiltIns{};

const char* builtin_name(ir::BuiltIn b) {
  const ir::EnumTable& t = ir::kBuiltInTable;
  std::string_view name = ir::enum_value_name(t, std::uint32_t(b));
  return name.empty() ? "?" : name.data();
}

// Built-ins that live once per patch or per primitive even in arrayed stages.
bool builtin_is_per_vertex(ir::BuiltIn b) {
  switch (b) {
  case ir::BuiltIn::Position:
  case ir::BuiltIn::ClipDistance:
  case ir::BuiltIn::CullDistance:
    return true;
  default:
    return false;
  }
}
} // namespace

Id Lowering::State::convert_basic_types(Id id, ir::Type from, ir::Type to) {
  if (!from.is_basic() || !to.is_basic()) return id;
  unsigned n = from.vector_size(), m = to.vector_size();
  if (m < n) {
    ir::Type narrowed = from.with_vector_size(m);
    if (m == 1) {
      id = mb.op(spv::OpCompositeExtract, basic(narrowed), {id, 0});
    } else {
      std::uint32_t words[6] = {id, id, 0, 1, 2, 3};
      id = mb.op(spv::OpVectorShuffle, basic(narrowed),
                 std::span<const std::uint32_t>(words, 2 + m));
    }
    from = narrowed;
  }
  ir::ScalarType fs = from.scalar_type(), ts = to.scalar_type();
  if (basic(from) == basic(to)) return id;
  if (fs == ir::ScalarType::Bool) {
    // D3D booleans are ~0 / 0 as integers, 1.0 / 0.0 as floats.
    bool is_float = ir::is_float(ts);
    Id one = splat_constant(to, is_float ? 0x3f800000u : ~0ull);
    Id zero = splat_constant(to, 0);
    return mb.op(spv::OpSelect, basic(to), {id, one, zero});
  }
  if (ts == ir::ScalarType::Bool) {
    Id zero = splat_constant(from, 0);
    return mb.op(ir::is_float(fs) ? spv::OpFUnordNotEqual : spv::OpINotEqual, basic(to),
                 {id, zero});
  }
  if (ir::is_float(fs) != ir::is_float(ts)) {
    if (scalar_size(fs) == scalar_size(ts)) return mb.op(spv::OpBitcast, basic(to), {id});
    return id;
  }
  return bitcast_id(id, from, to);
}

bool Lowering::State::reuse_io(DeclInfo& d, ir::SsaDef def, Id var_type) {
  // HS phases each declare what they touch: one SPIR-V variable per built-in / location.
  for (std::size_t i = 0; i + 1 < decls.size(); ++i) {
    const DeclInfo& e = decls[i];
    if (e.kind != d.kind || e.is_builtin != d.is_builtin || !e.var || e.stream != d.stream)
      continue;
    if (d.is_builtin ? e.builtin != d.builtin
                     : (e.location != d.location || e.component != d.component))
      continue;
    if (e.var_type != var_type) continue;
    DeclInfo copy = e;
    copy.ir_type = d.ir_type;
    copy.insert_index = d.insert_index;
    std::copy(std::begin(d.spv_types), std::end(d.spv_types), std::begin(copy.spv_types));
    d = copy;
    ids[def.id()] = d.var;
    return true;
  }
  return false;
}

// A geometry shader's o# registers are shared by its streams, so outputs of two streams can
// have the same register and components (the front end gives each stream's element a variable
// of its own). Vulkan counts the outputs of every stream in one location space, but only the
// rasterized stream meets the pixel shader by location; the other streams are read by transform
// feedback, by Offset. So the rasterized stream's outputs keep location = register, and an
// output of another stream whose components are taken at its location moves to the lowest
// location where they are free.
bool Lowering::State::place_gs_output(ir::SsaDef def, DeclInfo& d, ir::Type element) {
  const ShaderInterface* si = options.interface;
  const std::uint32_t rasterized = si ? si->stream_output.rasterized_stream : 0;
  auto components = [](std::uint32_t component, ir::Type e) {
    const std::uint32_t count =
        std::min(4u, e.vector_size() * (ir::is_64bit(e.scalar_type()) ? 2u : 1u));
    return ((1u << count) - 1u) << component;
  };
  if (!gs_locations_ready) {
    gs_locations_ready = true;
    for (ir::OpView o : ir->declarations()) {
      if (o.code() != ir::OpCode::DclOutput) continue;
      const ir::ops::DclOutput output(o);
      if (output.stream().literal_u32() != rasterized) continue;
      const std::uint32_t taken = output.location().literal_u32();
      ir::TypeView view = ir->types().view(o.type());
      if (taken < kMaxGsLocations && view.member_count() == 1)
        gs_locations_taken[taken] |= components(output.component().literal_u32(), view.member(0));
    }
  }
  if (d.stream == rasterized) return true; // taken up front
  const std::uint32_t want = components(d.component, element);
  if (d.location < kMaxGsLocations && !(gs_locations_taken[d.location] & want)) {
    gs_locations_taken[d.location] |= want;
    return true;
  }
  for (std::uint32_t location = 0; location < kMaxGsLocations; ++location) {
    if (gs_locations_taken[location] & want) continue;
    gs_locations_taken[location] |= want;
    d.location = location;
    return true;
  }
  return fail(at(def), "geometry shader output of stream " + std::to_string(d.stream) +
                           ": no free output location");
}

bool Lowering::State::lower_xfb_decl(ir::OpView o) {
  const ir::SsaDef def = o.def();
  const ir::ops::DclXfb xfb_decl(o);
  DeclInfo* target = decl(xfb_decl.output().def());
  if (!target || target->kind != DeclInfo::Kind::Output)
    return fail(at(def), "Xfb on a non-output");
  if (!extension_enabled(Extension::TransformFeedback))
    return missing_extension(def, "stream output", Extension::TransformFeedback);
  mb.require_capability(spv::CapabilityTransformFeedback);
  if (!xfb) mb.add_execution_mode(entry_function, spv::ExecutionModeXfb);
  xfb = true;
  mb.decorate(target->var, spv::DecorationXfbBuffer, {xfb_decl.buffer().literal_u32()});
  mb.decorate(target->var, spv::DecorationXfbStride, {xfb_decl.stride().literal_u32()});
  mb.decorate(target->var, spv::DecorationOffset, {xfb_decl.offset().literal_u32()});
  return true;
}

// DclInput, DclInputBuiltIn, DclOutput, DclOutputBuiltIn.
bool Lowering::State::lower_io_decl(ir::OpView o) {
  using ir::OpCode;
  const ir::SsaDef def = o.def();
  const bool input = o.code() == OpCode::DclInput || o.code() == OpCode::DclInputBuiltIn;
  const bool is_builtin =
      o.code() == OpCode::DclInputBuiltIn || o.code() == OpCode::DclOutputBuiltIn;
  const ir::Type t = o.type();
  if (t.is_void()) return fail(at(def), "I/O of void type");
  DeclInfo& d = new_decl(def);
  d.kind = input ? DeclInfo::Kind::Input : DeclInfo::Kind::Output;
  d.storage = input ? spv::StorageClassInput : spv::StorageClassOutput;
  d.ir_type = t;
  d.is_builtin = is_builtin;
  ir::TypeView view = ir->types().view(t);
  if (view.member_count() != 1) return fail(at(def), "I/O of struct type");
  d.per_control_point =
      stage == ShaderStage::Hull && !input && view.dim_count > 0 &&
      (!is_builtin ||
       builtin_is_per_vertex(ir::ops::DclInputBuiltIn(o).builtin().literal_enum<ir::BuiltIn>()));
  ir::Type element = view.member(0);

  SignatureElement sig;
  sig.component_mask = (1u << element.vector_size()) - 1;
  if (!is_builtin) {
    // DclInput and DclOutput name the location and component alike.
    const ir::ops::DclInput user_io(o);
    std::uint32_t location = user_io.location().literal_u32();
    std::uint32_t component = user_io.component().literal_u32();
    if (component + element.vector_size() > 4) return fail(at(def), "component out of range");
    d.location = location;
    d.component = component;
    if (!input && stage == ShaderStage::Geometry) {
      d.stream = ir::ops::DclOutput(o).stream().literal_u32();
      if (!place_gs_output(def, d, element)) return false;
      location = d.location;
    }
    if (reuse_io(d, def, type(t))) return true;
    d.var_type = type(t);
    sig.stream = d.stream;
    if (!declare_user_io(def, d, element, view.dim_count > 0)) return false;
    sig.location = location;
    sig.component_mask <<= component;
    if (input && stage == ShaderStage::Pixel) {
      auto modes = user_io.interpolation().literal_enum<ir::InterpolationModes>();
      if (ir::has(modes, ir::InterpolationModes::Flat) || !ir::is_float(element.scalar_type()))
        mb.decorate(d.var, spv::DecorationFlat);
      else {
        if (ir::has(modes, ir::InterpolationModes::NoPerspective))
          mb.decorate(d.var, spv::DecorationNoPerspective);
        if (ir::has(modes, ir::InterpolationModes::Sample)) {
          mb.decorate(d.var, spv::DecorationSample);
          sample_shading = true;
        } else if (ir::has(modes, ir::InterpolationModes::Centroid)) {
          mb.decorate(d.var, spv::DecorationCentroid);
        }
      }
    }
    bool arrayed = view.dim_count > 0;
    if ((stage == ShaderStage::Hull && !input && !arrayed) ||
        (stage == ShaderStage::Domain && input && !arrayed))
      mb.decorate(d.var, spv::DecorationPatch);
    if (!input && stage == ShaderStage::Geometry && ir::ops::DclOutput(o).stream().literal_u32()) {
      if (!extension_enabled(Extension::TransformFeedback))
        return missing_extension(def, "geometry shader output to a stream other than 0",
                                 Extension::TransformFeedback);
      mb.require_capability(spv::CapabilityGeometryStreams);
      // A split output's pieces carry the stream themselves (lower_outputs.cpp).
      if (!d.xfb_split)
        mb.decorate(d.var, spv::DecorationStream, {ir::ops::DclOutput(o).stream().literal_u32()});
    }
  } else {
    // DclInputBuiltIn and DclOutputBuiltIn name the built-in alike.
    auto b = ir::ops::DclInputBuiltIn(o).builtin().literal_enum<ir::BuiltIn>();
    if (std::uint32_t(b) >= std::size(kBuiltIns.entries)) return fail(at(def), "unknown built-in");
    const BuiltInInfo& info = kBuiltIns.entries[std::size_t(b)];
    if (!((input ? info.input_stages : info.output_stages) & stage_bit(stage))) {
      std::string what = "built-in ";
      what += builtin_name(b);
      what += input ? " is not an input of " : " is not an output of ";
      what += shader_stage_name(stage);
      what += " shaders";
      return fail(at(def), what);
    }
    if (info.builtin == kUnsupported) {
      std::string what = "built-in ";
      what += builtin_name(b);
      what += " has no SPIR-V equivalent";
      return fail(at(def), what);
    }
    if (info.builtin == kVertexCount) {
      if (!input || stage != ShaderStage::Geometry)
        return fail(at(def), "GsVertexCountIn outside geometry shader inputs");
      d.gs_vertex_count = true;
      d.builtin_scalar = info.scalar;
      return true;
    }
    if (info.builtin == kSpecConstant) {
      if (!input) return fail(at(def), "output of an input-only built-in");
      std::uint32_t one = 1;
      d.constant_value = parameter_of(ParameterName::RASTERIZER_SAMPLE_COUNT)
                             ? parameter(ParameterName::RASTERIZER_SAMPLE_COUNT)
                             : mb.spec_constant_with_id(basic(info.scalar, 1),
                                                        std::span<const std::uint32_t>(&one, 1),
                                                        kSampleCountSpecId);
      d.builtin_scalar = info.scalar;
      d.builtin_components = 1;
      ids[def.id()] = 0;
      return true;
    }
    spv::BuiltIn builtin = info.builtin;
    if (b == ir::BuiltIn::Position && input && stage == ShaderStage::Pixel)
      builtin = spv::BuiltInFragCoord;
    d.builtin = builtin;
    d.builtin_scalar = info.scalar;
    d.builtin_components = info.components;
    sig.builtin = builtin;
    // Per-vertex arrays: inputs of GS/HS/DS and HS outputs carry an outer vertex dimension.
    bool arrayed_stage = (input && (stage == ShaderStage::Geometry || stage == ShaderStage::Hull ||
                                    stage == ShaderStage::Domain)) ||
                         (!input && stage == ShaderStage::Hull);
    bool per_vertex = arrayed_stage && builtin_is_per_vertex(b) && view.dim_count > 0;
    unsigned own_dims = view.dim_count - (per_vertex ? 1 : 0);
    std::uint32_t dims[4];
    unsigned dim_count = 0;
    for (unsigned i = 0; i < own_dims; ++i) dims[dim_count++] = view.dims[i];
    if (info.needs_array && own_dims == 0) {
      dims[dim_count++] = info.fixed_array ? info.fixed_array : 1;
      // The IR sees a scalar: accesses index element 0 of the SPIR-V array.
      d.insert_index = true;
      // Keep the inserted dim innermost: shift the per-vertex dimension after it.
    }
    if (info.fixed_array && dim_count > 0) dims[0] = info.fixed_array;
    if (per_vertex) dims[dim_count++] = view.dims[view.dim_count - 1];
    if (dim_count > 3) return fail(at(def), "built-in array too deep");
    Id current = basic(info.scalar, info.components);
    d.spv_types[0] = current;
    for (unsigned i = 0; i < dim_count; ++i) {
      if (dims[i] == 0) return fail(at(def), "unbounded built-in array");
      current = mb.type_array(current, const_u32(dims[i]));
      d.spv_types[i + 1] = current;
    }
    if (reuse_io(d, def, current)) return true;
    d.var_type = current;
    d.var = mb.global_variable(mb.type_pointer(d.storage, current), d.storage);
    mb.decorate(d.var, spv::DecorationBuiltIn, {std::uint32_t(builtin)});
    if (!input && stage == ShaderStage::Geometry &&
        ir::ops::DclOutputBuiltIn(o).stream().literal_u32() != 0) {
      // A built-in of another stream (the rasterized stream is the layer's choice).
      d.stream = ir::ops::DclOutputBuiltIn(o).stream().literal_u32();
      if (!extension_enabled(Extension::TransformFeedback))
        return missing_extension(def, "geometry shader output to a stream other than 0",
                                 Extension::TransformFeedback);
      mb.require_capability(spv::CapabilityGeometryStreams);
      mb.decorate(d.var, spv::DecorationStream, {d.stream});
    }
    switch (b) {
    case ir::BuiltIn::TessFactorInner:
    case ir::BuiltIn::TessFactorOuter:
      mb.decorate(d.var, spv::DecorationPatch);
      break;
    case ir::BuiltIn::ClipDistance:
      mb.require_capability(spv::CapabilityClipDistance);
      break;
    case ir::BuiltIn::CullDistance:
      mb.require_capability(spv::CapabilityCullDistance);
      break;
    case ir::BuiltIn::SampleId:
    case ir::BuiltIn::SamplePosition:
      sample_shading = true;
      // Integer fragment inputs must be Flat (VUID-StandaloneSpirv-Flat-04744).
      if (b == ir::BuiltIn::SampleId && stage == ShaderStage::Pixel && input)
        mb.decorate(d.var, spv::DecorationFlat);
      break;
    case ir::BuiltIn::PrimitiveId:
      if (stage == ShaderStage::Pixel) mb.require_capability(spv::CapabilityGeometry);
      if (stage == ShaderStage::Pixel && input) mb.decorate(d.var, spv::DecorationFlat);
      break;
    case ir::BuiltIn::Layer:
    case ir::BuiltIn::ViewportIndex:
      if (stage == ShaderStage::Geometry || stage == ShaderStage::Pixel) {
        mb.require_capability(b == ir::BuiltIn::Layer ? spv::CapabilityGeometry
                                                      : spv::CapabilityMultiViewport);
      } else {
        if (!extension_enabled(Extension::ViewportIndexLayer))
          return missing_extension(def,
                                   std::string(builtin_name(b)) + " output of " +
                                       std::string(shader_stage_name(stage)) + " shaders",
                                   Extension::ViewportIndexLayer);
        mb.require_capability(spv::CapabilityShaderViewportIndexLayerEXT);
        use_spirv_extension(Extension::ViewportIndexLayer);
      }
      if (stage == ShaderStage::Pixel) mb.decorate(d.var, spv::DecorationFlat);
      break;
    case ir::BuiltIn::Depth:
      if (!input) uses_depth_output = true;
      break;
    case ir::BuiltIn::StencilRef:
      if (!extension_enabled(Extension::StencilExport))
        return missing_extension(def, "SV_StencilRef", Extension::StencilExport);
      mb.require_capability(spv::CapabilityStencilExportEXT);
      use_spirv_extension(Extension::StencilExport);
      break;
    case ir::BuiltIn::IsFullyCovered:
      if (!extension_enabled(Extension::FragmentFullyCovered))
        return missing_extension(def, "SV_InnerCoverage", Extension::FragmentFullyCovered);
      mb.require_capability(spv::CapabilityFragmentFullyCoveredEXT);
      use_spirv_extension(Extension::FragmentFullyCovered);
      break;
    case ir::BuiltIn::VertexId:
    case ir::BuiltIn::InstanceId: {
      // D3D counts from the draw's first vertex / instance; Vulkan's index includes the base.
      // Without draw parameters (fallback) the index is Vulkan's, base included.
      if (!extension_enabled(Extension::ShaderDrawParameters)) break;
      mb.require_capability(spv::CapabilityDrawParameters);
      use_spirv_extension(Extension::ShaderDrawParameters);
      d.base_var = mb.global_variable(mb.type_pointer(d.storage, d.spv_types[0]), d.storage);
      mb.decorate(d.base_var, spv::DecorationBuiltIn,
                  {std::uint32_t(b == ir::BuiltIn::VertexId ? spv::BuiltInBaseVertex
                                                            : spv::BuiltInBaseInstance)});
      add_interface(d.base_var, d.storage);
      break;
    }
    case ir::BuiltIn::TessControlPointId:
      if (stage == ShaderStage::Hull) {
        invocation_id_var = d.var;
      }
      break;
    default:
      break;
    }
  }
  add_interface(d.var, d.storage);
  if (!is_builtin || sig.builtin != ~0u) {
    auto& list = input ? reflection->inputs : reflection->outputs;
    d.signature = std::int32_t(list.size());
    list.push_back(std::move(sig));
  }
  ids[def.id()] = d.var;
  return true;
}

} // namespace kiln::spirv
