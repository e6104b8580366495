// SPIR-V backend: the driver. One walk over the final-form IR (docs/pipeline.md): declarations
// become types, constants and variables; functions are emitted as they come; the entry point,
// its interface and the stage's execution modes are added at the end.
#include "translator/spirv/lower.h"

#include "translator/spirv/lower_state.h"

#include <algorithm>

namespace kiln::spirv {

namespace {
spv::ExecutionModel execution_model(ShaderStage stage) {
  switch (stage) {
  case ShaderStage::Vertex:
    return spv::ExecutionModelVertex;
  case ShaderStage::Hull:
    return spv::ExecutionModelTessellationControl;
  case ShaderStage::Domain:
    return spv::ExecutionModelTessellationEvaluation;
  case ShaderStage::Geometry:
    return spv::ExecutionModelGeometry;
  case ShaderStage::Pixel:
    return spv::ExecutionModelFragment;
  default:
    return spv::ExecutionModelGLCompute;
  }
}
} // namespace

spv::Scope spirv_scope(ir::Scope scope) {
  switch (scope) {
  case ir::Scope::Thread:
    return spv::ScopeInvocation;
  case ir::Scope::Quad:
  case ir::Scope::Subgroup:
    return spv::ScopeSubgroup;
  case ir::Scope::Workgroup:
    return spv::ScopeWorkgroup;
  default:
    return spv::ScopeDevice;
  }
}

Lowering::Lowering() : state_(std::make_unique<State>()) {}
Lowering::~Lowering() = default;

Status Lowering::lower(const ir::Builder& builder, const LowerOptions& options,
                       std::vector<std::uint32_t>& words, Reflection& reflection) {
  State& s = *state_;
  s.ir = &builder;
  s.options = options;
  s.reflection = &reflection;
  reflection.stage = ShaderStage::Count;
  reflection.resources.clear();
  reflection.inputs.clear();
  reflection.outputs.clear();
  words.clear();
  s.mb.reset(options.target);
  s.ids.assign(builder.id_limit(), 0);
  s.decl_of.assign(builder.id_limit(), 0);
  s.decls.clear();
  s.interface.clear();
  s.aggregates.clear();
  std::fill(std::begin(s.basic_types), std::end(s.basic_types), 0);
  s.params.clear();
  s.push_decls.clear();
  s.constant_vars.clear();
  s.combined_vars.clear();
  s.xfb = false;
  s.gs_locations_ready = false;
  std::fill(std::begin(s.gs_locations_taken), std::end(s.gs_locations_taken), 0u);
  s.gs_input_vertices = 0;
  s.rov = s.rov_unordered = s.rov_sample = s.block_is_first = false;
  s.discard_function_id = 0;
  s.swizzled_outputs.clear();
  s.swizzled_targets = s.declared_targets = 0;
  s.xfb_captured.clear();
  s.split_outputs.clear();
  s.xfb_mirrors.clear();
  s.output_semantics.clear();
  s.collect_output_semantics();
  s.push_var = 0;
  s.push_built = false;
  s.stage = ShaderStage::Count;
  s.entry_function = 0;
  s.ir_entry = ir::SsaDef();
  s.hs_functions[0] = s.hs_functions[1] = ir::SsaDef();
  s.uses_depth_output = s.sample_shading = s.has_workgroup_size = s.has_gs_instances = false;
  s.gs_streams = 0;
  s.invocation_id_var = 0;
  s.invocation_id_decl = 0;
  s.block_construct = ir::Construct::None;
  s.error.clear();
  s.render_io.fog_out = s.render_io.psize_out = s.render_io.color1_out = s.render_io.fog_in = ~0u;
  s.render_io.sprite_inputs.clear();
  s.render_io.point_coord = s.render_io.point_size = s.render_io.clip_distance = 0;
  if (Status st = s.check_parameters(); !st) return st;

  s.mb.require_capability(spv::CapabilityShader);
  s.mb.set_memory_model(spv::AddressingModelLogical, spv::MemoryModelGLSL450);
  s.glsl = s.mb.glsl_std_450();

  // The stage first: declarations (interface lookups) may precede the EntryPoint.
  for (ir::OpView op : builder.ops()) {
    if (op.code() != ir::OpCode::EntryPoint || op.operand_count() < 1) continue;
    s.stage = op.operand(op.operand_count() - 1).literal_enum<ShaderStage>();
    break;
  }

  bool in_code = false;
  for (ir::OpView op : builder.ops()) {
    ir::OpCategory category = op.info().category;
    Status status = Status::ok();
    if (category == ir::OpCategory::Function || category == ir::OpCategory::FunctionEnd ||
        category == ir::OpCategory::Label || category == ir::OpCategory::Terminator ||
        category == ir::OpCategory::Code) {
      if (!in_code) {
        in_code = true;
        if (!s.ir_entry) return s.fail(ir::SsaDef(), "no EntryPoint");
        s.build_push_block();
      }
      status = s.lower_code(op);
    } else {
      status = s.lower_declaration(op);
    }
    if (!status) return status;
  }
  if (!s.ir_entry) return s.fail(ir::SsaDef(), "no EntryPoint");
  if (Status st = s.finish_entry_point(); !st) return st;
  s.emit_discard_function();
  reflection.stage = s.stage;
  s.mb.finish(words);
  return Status::ok();
}

void Lowering::State::add_interface(Id var, spv::StorageClass storage) {
  if (storage == spv::StorageClassInput || storage == spv::StorageClassOutput ||
      mb.interface_lists_all_globals())
    interface.push_back(var);
}

Status Lowering::State::lower_declaration(ir::OpView o) {
  using ir::OpCode;
  switch (o.code()) {
  case OpCode::EntryPoint: {
    if (ir_entry) return fail(o.def(), "more than one EntryPoint");
    ir_entry = o.def();
    if (o.operand_count() < 2) return fail(o.def(), "EntryPoint without function");
    stage = o.operand(o.operand_count() - 1).literal_enum<ShaderStage>();
    if (stage >= ShaderStage::Count) return fail(o.def(), "unknown shader stage");
    std::uint32_t functions = o.ref_count();
    if (stage == ShaderStage::Hull) {
      if (functions != 2) return fail(o.def(), "hull EntryPoint needs two functions");
      hs_functions[0] = o.operand(0).def();
      hs_functions[1] = o.operand(1).def();
      entry_function = mb.allocate_id();
    } else {
      if (functions != 1) return fail(o.def(), "EntryPoint needs one function");
      entry_function = id_for(o.operand(0).def());
    }
    return Status::ok();
  }
  case OpCode::Constant: {
    Id id = constant(o.def());
    if (!id) return fail(o.def(), "malformed or unbounded constant");
    ids[o.def().id()] = id;
    return Status::ok();
  }
  case OpCode::Undef:
    ids[o.def().id()] = mb.undef(type(o.type()));
    return Status::ok();
  case OpCode::DclSpecConstant: {
    ir::Type t = o.type();
    if (!t.is_scalar() || o.operand_count() < 3)
      return fail(o.def(), "aggregate specialization constants not supported");
    std::uint32_t spec_id = o.operand(1).literal_u32();
    Id id;
    if (t.scalar_type() == ir::ScalarType::Bool) {
      id = mb.spec_constant_bool(o.operand(2).bits() != 0);
      mb.decorate(id, spv::DecorationSpecId, {spec_id});
    } else {
      std::uint64_t bits = o.operand(2).bits();
      std::uint32_t words[2] = {std::uint32_t(bits), std::uint32_t(bits >> 32)};
      id = mb.spec_constant_with_id(
          basic(t),
          std::span<const std::uint32_t>(words, scalar_size(t.scalar_type()) == 8 ? 2 : 1),
          spec_id);
    }
    ids[o.def().id()] = id;
    return Status::ok();
  }
  case OpCode::SetCsWorkgroupSize:
    has_workgroup_size = true;
    mb.add_execution_mode(
        entry_function, spv::ExecutionModeLocalSize,
        {o.operand(1).literal_u32(), o.operand(2).literal_u32(), o.operand(3).literal_u32()});
    return Status::ok();
  case OpCode::SetGsInstances:
    has_gs_instances = true;
    mb.add_execution_mode(entry_function, spv::ExecutionModeInvocations,
                          {std::max(1u, o.operand(1).literal_u32())});
    return Status::ok();
  case OpCode::SetGsInputPrimitive: {
    spv::ExecutionMode mode;
    switch (o.operand(1).literal_enum<ir::PrimitiveType>()) {
    case ir::PrimitiveType::Point:
      mode = spv::ExecutionModeInputPoints;
      gs_input_vertices = 1;
      break;
    case ir::PrimitiveType::Line:
      mode = spv::ExecutionModeInputLines;
      gs_input_vertices = 2;
      break;
    case ir::PrimitiveType::Triangle:
      mode = spv::ExecutionModeTriangles;
      gs_input_vertices = 3;
      break;
    case ir::PrimitiveType::LineAdj:
      mode = spv::ExecutionModeInputLinesAdjacency;
      gs_input_vertices = 4;
      break;
    case ir::PrimitiveType::TriangleAdj:
      mode = spv::ExecutionModeInputTrianglesAdjacency;
      gs_input_vertices = 6;
      break;
    default:
      return fail(o.def(), "geometry input primitive not expressible in SPIR-V");
    }
    mb.add_execution_mode(entry_function, mode);
    return Status::ok();
  }
  case OpCode::SetGsOutputVertices:
    mb.add_execution_mode(entry_function, spv::ExecutionModeOutputVertices,
                          {o.operand(1).literal_u32()});
    return Status::ok();
  case OpCode::SetGsOutputPrimitive: {
    spv::ExecutionMode mode;
    switch (o.operand(1).literal_enum<ir::PrimitiveType>()) {
    case ir::PrimitiveType::Point:
      mode = spv::ExecutionModeOutputPoints;
      break;
    case ir::PrimitiveType::Line:
      mode = spv::ExecutionModeOutputLineStrip;
      break;
    case ir::PrimitiveType::Triangle:
      mode = spv::ExecutionModeOutputTriangleStrip;
      break;
    default:
      return fail(o.def(), "geometry output primitive not expressible in SPIR-V");
    }
    mb.add_execution_mode(entry_function, mode);
    gs_streams |= o.operand(2).literal_u32();
    return Status::ok();
  }
  case OpCode::SetPsEarlyFragmentTest:
    mb.add_execution_mode(entry_function, spv::ExecutionModeEarlyFragmentTests);
    return Status::ok();
  case OpCode::SetPsDepthGreaterEqual:
    mb.add_execution_mode(entry_function, spv::ExecutionModeDepthGreater);
    return Status::ok();
  case OpCode::SetPsDepthLessEqual:
    mb.add_execution_mode(entry_function, spv::ExecutionModeDepthLess);
    return Status::ok();
  case OpCode::SetTessPrimitive: {
    auto prim = o.operand(1).literal_enum<ir::PrimitiveType>();
    auto winding = o.operand(2).literal_enum<ir::TessWindingOrder>();
    auto partitioning = o.operand(3).literal_enum<ir::TessPartitioning>();
    // The IR's primitive here is the tessellator's output topology: points and lines need no
    // winding, triangles take the winding order.
    if (prim == ir::PrimitiveType::Point)
      mb.add_execution_mode(entry_function, spv::ExecutionModePointMode);
    if (prim == ir::PrimitiveType::Triangle)
      mb.add_execution_mode(entry_function, winding == ir::TessWindingOrder::Cw
                                                ? spv::ExecutionModeVertexOrderCw
                                                : spv::ExecutionModeVertexOrderCcw);
    spv::ExecutionMode spacing = spv::ExecutionModeSpacingEqual;
    if (partitioning == ir::TessPartitioning::FractionalOdd)
      spacing = spv::ExecutionModeSpacingFractionalOdd;
    else if (partitioning == ir::TessPartitioning::FractionalEven)
      spacing = spv::ExecutionModeSpacingFractionalEven;
    mb.add_execution_mode(entry_function, spacing);
    return Status::ok();
  }
  case OpCode::SetTessDomain: {
    auto prim = o.operand(1).literal_enum<ir::PrimitiveType>();
    spv::ExecutionMode mode = prim == ir::PrimitiveType::Quad   ? spv::ExecutionModeQuads
                              : prim == ir::PrimitiveType::Line ? spv::ExecutionModeIsolines
                                                                : spv::ExecutionModeTriangles;
    mb.add_execution_mode(entry_function, mode);
    return Status::ok();
  }
  case OpCode::SetTessControlPoints:
    if (stage == ShaderStage::Hull)
      mb.add_execution_mode(entry_function, spv::ExecutionModeOutputVertices,
                            {std::max(1u, o.operand(2).literal_u32())});
    return Status::ok();
  case OpCode::SetFpMode:
    // Allowed to be ignored (ir-reference.md): the default float behaviour applies.
    return Status::ok();
  case OpCode::DebugName:
    if (options.debug_names && o.operand(0).def() && ids[o.operand(0).def().id()]) {
      char name[256] = {}; // unpack_string does not terminate: keep the last byte zero
      ir::unpack_string(o.literals(), name, sizeof(name) - 1);
      mb.add_name(ids[o.operand(0).def().id()], name);
    }
    return Status::ok();
  case OpCode::DebugMemberName:
  case OpCode::DclParam:
  case OpCode::DclTmp:
    return Status::ok();
  case OpCode::Semantic: {
    DeclInfo* d = decl(o.operand(0).def());
    if (d && d->signature >= 0) {
      char name[256] = {}; // unpack_string does not terminate: keep the last byte zero
      ir::unpack_string(o.literals().subspan(1), name, sizeof(name) - 1);
      auto& list = d->kind == DeclInfo::Kind::Input ? reflection->inputs : reflection->outputs;
      list[std::size_t(d->signature)].semantic = name;
      list[std::size_t(d->signature)].semantic_index = o.operand(1).literal_u32();
      if (options.interface) {
        if (Status st = render_state_semantic(o.operand(0).def(), name, o.operand(1).literal_u32());
            !st)
          return st;
      }
      return apply_stream_output(o.def(), *d, name, o.operand(1).literal_u32());
    }
    return Status::ok();
  }
  case OpCode::DclInput:
  case OpCode::DclInputBuiltIn:
  case OpCode::DclOutput:
  case OpCode::DclOutputBuiltIn:
  case OpCode::DclXfb:
    return lower_io_decl(o);
  case OpCode::DclCbv:
  case OpCode::DclSrv:
  case OpCode::DclUav:
  case OpCode::DclUavCounter:
  case OpCode::DclSampler:
  case OpCode::DclLds:
  case OpCode::DclScratch:
  case OpCode::DclPushData:
    return lower_resource_decl(o);
  case OpCode::MinValue:
  case OpCode::MaxValue:
    return fail(o.def(), "not lowered by the passes");
  default:
    return fail(o.def(), "declaration not supported");
  }
}

Status Lowering::State::lower_code(ir::OpView o) {
  using ir::OpCode;
  for (std::uint32_t i = 0; i < o.ref_count(); ++i) {
    // Final form has no Unknown left; a value of that type cannot be expressed.
    ir::SsaDef r = o.operand(i).def();
    if (r && r.id() < ids.size() && ir->op(r).type().is_basic() &&
        ir->op(r).type().scalar_type() == ir::ScalarType::Unknown)
      return fail(o.def(), "operand of Unknown type (not final form)");
  }
  if (o.type().is_basic() && o.type().scalar_type() == ir::ScalarType::Unknown)
    return fail(o.def(), "result of Unknown type (not final form)");
  switch (o.code()) {
  case OpCode::Function:
  case OpCode::FunctionEnd:
  case OpCode::FunctionCall:
  case OpCode::ParamLoad:
  case OpCode::Label:
  case OpCode::Branch:
  case OpCode::BranchConditional:
  case OpCode::Switch:
  case OpCode::Unreachable:
  case OpCode::Return:
  case OpCode::Phi:
    return lower_cf(o);
  case OpCode::InputLoad:
  case OpCode::OutputLoad:
  case OpCode::OutputStore:
  case OpCode::InterpolateAtCentroid:
  case OpCode::InterpolateAtSample:
  case OpCode::InterpolateAtOffset:
  case OpCode::EmitVertex:
  case OpCode::EmitPrimitive:
    return lower_io_op(o);
  default:
    break;
  }
  bool handled = false;
  if (Status st = lower_arith(o, handled); !st || handled) return st;
  return lower_resource_op(o);
}

Id Lowering::State::load_invocation_id() {
  Id i32 = basic(ir::ScalarType::I32, 1);
  if (!invocation_id_var) {
    invocation_id_var =
        mb.global_variable(mb.type_pointer(spv::StorageClassInput, i32), spv::StorageClassInput);
    mb.decorate(invocation_id_var, spv::DecorationBuiltIn, {spv::BuiltInInvocationId});
    add_interface(invocation_id_var, spv::StorageClassInput);
  }
  return mb.op(spv::OpLoad, i32, {invocation_id_var});
}

Status Lowering::State::finish_entry_point() {
  if (Status st = check_stream_output(); !st) return st;
  if (stage == ShaderStage::Hull) {
    // One SPIR-V entry: the control-point function in every invocation, a barrier, then the
    // patch-constant function (which reads control-point outputs) in invocation 0 only.
    Id void_type = mb.type_void();
    mb.begin_function(void_type, spv::FunctionControlMaskNone, mb.type_function(void_type, {}),
                      entry_function);
    mb.label();
    if (hs_functions[0]) mb.op(spv::OpFunctionCall, void_type, {id_for(hs_functions[0])});
    mb.op_void(spv::OpControlBarrier,
               {const_u32(spv::ScopeWorkgroup), const_u32(spv::ScopeInvocation), const_u32(0)});
    Id invocation = load_invocation_id();
    Id is_first = mb.op(spv::OpIEqual, mb.type_bool(), {invocation, mb.constant_i32(0)});
    Id then_block = mb.allocate_id(), merge = mb.allocate_id();
    mb.op_void(spv::OpSelectionMerge, {merge, spv::SelectionControlMaskNone});
    mb.op_void(spv::OpBranchConditional, {is_first, then_block, merge});
    mb.label(then_block);
    if (hs_functions[1]) mb.op(spv::OpFunctionCall, void_type, {id_for(hs_functions[1])});
    mb.op_void(spv::OpBranch, {merge});
    mb.label(merge);
    mb.op_void(spv::OpReturn, {});
    mb.end_function();
  }
  switch (stage) {
  case ShaderStage::Pixel:
    mb.add_execution_mode(entry_function, spv::ExecutionModeOriginUpperLeft);
    if (uses_depth_output) mb.add_execution_mode(entry_function, spv::ExecutionModeDepthReplacing);
    if (sample_shading) mb.require_capability(spv::CapabilitySampleRateShading);
    break;
  case ShaderStage::Compute:
    if (!has_workgroup_size)
      mb.add_execution_mode(entry_function, spv::ExecutionModeLocalSize, {1, 1, 1});
    break;
  case ShaderStage::Geometry:
    mb.require_capability(spv::CapabilityGeometry);
    if (!has_gs_instances)
      mb.add_execution_mode(entry_function, spv::ExecutionModeInvocations, {1});
    if (gs_streams & ~1u) {
      if (!extension_enabled(Extension::TransformFeedback))
        return missing_extension(ir_entry, "geometry shader output to a stream other than 0",
                                 Extension::TransformFeedback);
      mb.require_capability(spv::CapabilityGeometryStreams);
    }
    break;
  case ShaderStage::Hull:
  case ShaderStage::Domain:
    mb.require_capability(spv::CapabilityTessellation);
    break;
  default:
    break;
  }
  mb.add_entry_point(execution_model(stage), entry_function, "main", interface);
  return Status::ok();
}

} // namespace kiln::spirv
