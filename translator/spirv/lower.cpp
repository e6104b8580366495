// SPIR-V backend: the driver. One walk over the final-form IR (docs/pipeline.md) hands every op
// to its handler through lower_op, the handler table generated from KILN_SPIRV_LOWERINGS
// (lower_table.h): declarations become types, constants and variables; functions are emitted as
// they come; the entry point, its interface and the stage's execution modes are added at the end.
#include "translator/spirv/lower.h"

#include "translator/spirv/lower_state.h"
#include "translator/spirv/lower_table.h"

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

namespace {
// The handler of each opcode, from KILN_SPIRV_LOWERINGS (lower_table.h): its rows follow the
// opcodes (static_asserted there), so the opcode indexes the table. A load and an indirect call
// per op, where a switch over ~230 opcodes compiled to a jump table plus bit-test chains. The
// table holds plain functions that jump to the member: State has several bases (its parts,
// lower_state_parts.h), and a call through a member pointer would adjust `this` on every op.
using Handler = bool (*)(Lowering::State&, ir::OpView);
template <bool (Lowering::State::*Member)(ir::OpView)>
bool call_handler(Lowering::State& s, ir::OpView o) {
  return (s.*Member)(o);
}
constexpr Handler kHandlers[] = {
#define KILN_X(name, handler, ...) &call_handler<&Lowering::State::handler>,
    KILN_SPIRV_LOWERINGS(KILN_X)
#undef KILN_X
};
static_assert(std::size(kHandlers) == std::size_t(ir::OpCode::Count));
} // namespace

// The one dispatch: KILN_SPIRV_LOWERINGS (lower_table.h) names each opcode's handler. Inline:
// it runs once per op, from the walk below.
inline bool Lowering::State::lower_op(ir::OpView o) {
  const auto code = std::size_t(o.code());
  if (code >= std::size(kHandlers)) [[unlikely]]
    return fail(at(o.def()), "opcode out of range");
  return kHandlers[code](*this, o);
}

Lowering::Lowering() : state_(std::make_unique<State>()) {}
Lowering::~Lowering() = default;

void Lowering::recycle(Reflection& reflection) {
  state_->names.take_from(reflection);
  reflection.clear();
}

Status Lowering::lower(const ir::Builder& builder, const LowerOptions& options,
                       std::vector<std::uint32_t>& words, Reflection& reflection) {
  State& s = *state_;
  s.ir = &builder;
  s.options = options;
  s.reflection = &reflection;
  recycle(reflection);
  words.clear();
  // A quarter of the IR's ids: about what large modules intern, and small ones stay within the
  // tables' first slots.
  s.mb.reset(options.target, builder.id_limit() / 4);
  s.ValueMaps::clear(builder.id_limit());
  s.TypeCache::clear();
  s.EntryState::clear();
  s.ControlFlowState::clear();
  s.ResourceState::clear();
  s.IoLayoutState::clear();
  s.OutputState::clear();
  s.render_io.clear();
  s.error.clear();
  s.errors.reset();
  s.collect_output_semantics(); // after OutputState::clear: stream output's names, ahead
  // The stage boundary: every handler reports into s.errors; its first report is the Status.
  const bool lowered = s.lower_module(builder);
  if (lowered) {
    reflection.stage = s.stage;
    s.mb.finish(words);
  }
  return s.errors.outcome(lowered);
}

bool Lowering::State::lower_module(const ir::Builder& builder) {
  if (!check_parameters()) return false;

  mb.require_capability(spv::CapabilityShader);
  mb.set_memory_model(spv::AddressingModelLogical, spv::MemoryModelGLSL450);
  glsl = mb.glsl_std_450();

  // The stage first: declarations (interface lookups) may precede the EntryPoint.
  for (ir::OpView op : builder.ops()) {
    if (op.code() != ir::OpCode::EntryPoint || op.ref_count() >= op.operand_count()) continue;
    stage = ir::ops::EntryPoint(op).stage().literal_enum<ShaderStage>();
    break;
  }

  bool in_code = false;
  for (ir::OpView op : builder.ops()) {
    if (!in_code) {
      const ir::OpCategory category = op.info().category;
      if (category == ir::OpCategory::Function || category == ir::OpCategory::FunctionEnd ||
          category == ir::OpCategory::Label || category == ir::OpCategory::Terminator ||
          category == ir::OpCategory::Code) {
        in_code = true;
        if (!ir_entry) return fail(Where(), "no EntryPoint");
        build_push_block();
      }
    }
    if (!has_final_type(op)) [[unlikely]]
      return fail(at(op.def()), "value of Unknown type (not final form)");
    if (!lower_op(op)) [[unlikely]]
      return false;
  }
  if (!ir_entry) return fail(Where(), "no EntryPoint");
  if (!finish_entry_point()) return false;
  emit_discard_function();
  return true;
}

void Lowering::State::add_interface(Id var, spv::StorageClass storage) {
  if (storage == spv::StorageClassInput || storage == spv::StorageClassOutput ||
      mb.interface_lists_all_globals())
    interface.push_back(var);
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

bool Lowering::State::finish_entry_point() {
  if (!check_stream_output()) return false;
  if (stage == ShaderStage::Hull) {
    // One SPIR-V entry: the control-point function in every invocation, then the
    // patch-constant function in invocation 0 only, after a barrier when it reads control-point
    // outputs (other invocations write them). Without that read the barrier only costs: a
    // driver may split the shader at it (llvmpipe resumes a coroutine per invocation).
    Id void_type = mb.type_void();
    mb.begin_function(void_type, spv::FunctionControlMaskNone, mb.type_function(void_type, {}),
                      entry_function);
    mb.label();
    if (hs_functions[0]) mb.op(spv::OpFunctionCall, void_type, {id_for(hs_functions[0])});
    if (hs_reads_control_points)
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
  return true;
}

} // namespace kiln::spirv
