// SPIR-V backend: functions and structured control flow. A Label's construct becomes the merge
// instruction right before the block's terminator, as SPIR-V wants it.
#include "translator/spirv/lower_state.h"

namespace kiln::spirv {

namespace {
constexpr std::uint32_t kMaxParams = 64;
}

// Merge instructions precede the terminator of a header block.
void Lowering::State::emit_merge(bool selection_allowed) {
  if (block_construct == ir::Construct::StructuredLoop) {
    mb.op_void(spv::OpLoopMerge,
               {id_for(block_merge), id_for(block_continue), spv::LoopControlMaskNone});
  } else if (block_construct == ir::Construct::StructuredSelection && selection_allowed) {
    mb.op_void(spv::OpSelectionMerge, {id_for(block_merge), spv::SelectionControlMaskNone});
  }
  block_construct = ir::Construct::None;
}

bool Lowering::State::lower_function(ir::OpView o) {
  const ir::SsaDef def = o.def();
  if (o.ref_count() > kMaxParams) return fail(at(def), "too many function parameters");
  Id ret = type(o.type());
  Id param_types[kMaxParams];
  for (std::uint32_t i = 0; i < o.ref_count(); ++i)
    param_types[i] = type(type_of(o.operand(i).def()));
  Id fn_type = mb.type_function(ret, std::span<const Id>(param_types, o.ref_count()));
  mb.begin_function(ret, spv::FunctionControlMaskNone, fn_type, id_for(def));
  params.clear();
  for (std::uint32_t i = 0; i < o.ref_count(); ++i)
    params.emplace_back(o.operand(i).def().id(), mb.function_parameter(param_types[i]));
  current_function = def;
  block_is_first = true;
  return true;
}

bool Lowering::State::lower_function_end(ir::OpView) {
  mb.end_function();
  current_function = ir::SsaDef();
  return true;
}

bool Lowering::State::lower_param_load(ir::OpView o) {
  const ir::SsaDef def = o.def();
  std::uint32_t param = ir::ops::ParamLoad(o).param().def().id();
  for (const auto& [dcl, id] : params)
    if (dcl == param) {
      bind(def, id, o.type());
      return true;
    }
  return fail(at(def), "parameter of another function");
}

bool Lowering::State::lower_function_call(ir::OpView o) {
  const ir::SsaDef def = o.def();
  const ir::ops::FunctionCall call(o);
  ir::SsaDef callee = call.function().def();
  ir::OpView fn = op(callee);
  if (fn.code() != ir::OpCode::Function || fn.ref_count() + 1 != o.ref_count())
    return fail(at(def), "call does not match the function's parameters");
  scratch_words.clear();
  scratch_words.push_back(id_for(callee));
  const ir::RepeatedOperand args = call.args(), params = ir::ops::Function(fn).params();
  for (std::size_t i = 0; i < args.size(); ++i)
    scratch_words.push_back(value_as(args[i].def(), type_of(params[i].def())));
  mb.op(spv::OpFunctionCall, type(fn.type()), scratch_words, id_for(def));
  return true;
}

bool Lowering::State::lower_label(ir::OpView o) {
  const ir::SsaDef def = o.def();
  mb.label(id_for(def));
  if (block_is_first && rov && id_for(current_function) == entry_function)
    mb.op_void(spv::OpBeginInvocationInterlockEXT, {});
  if (block_is_first && options.interface && id_for(current_function) == entry_function)
    if (!render_state_prologue()) return false;
  block_is_first = false;
  const ir::ops::Label label(o);
  block_construct =
      o.literals().empty() ? ir::Construct::None : label.construct().literal_enum<ir::Construct>();
  // The construct's blocks: the merge block, then (loops) the continue target.
  const ir::RepeatedOperand blocks = label.construct_blocks();
  block_merge = blocks.size() > 0 ? blocks[0].def() : ir::SsaDef();
  block_continue = blocks.size() > 1 ? blocks[1].def() : ir::SsaDef();
  if ((block_construct != ir::Construct::None && !block_merge) ||
      (block_construct == ir::Construct::StructuredLoop && !block_continue))
    return fail(at(def), "construct without merge/continue block");
  return true;
}

bool Lowering::State::lower_branch(ir::OpView o) {
  emit_merge(false);
  mb.op_void(spv::OpBranch, {id_for(ir::ops::Branch(o).target().def())});
  return true;
}

bool Lowering::State::lower_branch_conditional(ir::OpView o) {
  emit_merge(true);
  const ir::ops::BranchConditional branch(o);
  mb.op_void(spv::OpBranchConditional,
             {id_for(branch.condition().def()), id_for(branch.true_block().def()),
              id_for(branch.false_block().def())});
  return true;
}

bool Lowering::State::lower_switch(ir::OpView o) {
  const ir::SsaDef def = o.def();
  const ir::ops::Switch sw(o);
  ir::Type selector = type_of(sw.selector().def());
  if (!selector.is_scalar() || !ir::is_integer(selector.scalar_type()) ||
      scalar_size(selector.scalar_type()) != 4)
    return fail(at(def), "switch selector is not a 32-bit integer");
  emit_merge(true);
  scratch_words.clear();
  scratch_words.push_back(id_for(sw.selector().def()));
  scratch_words.push_back(id_for(sw.default_block().def()));
  const ir::RepeatedOperand values = sw.case_value(), blocks = sw.case_block();
  for (std::size_t i = 0; i < values.size(); ++i) {
    ir::OpView value = op(values[i].def());
    if (value.code() != ir::OpCode::Constant || value.operand_count() != 1)
      return fail(at(def), "switch case value is not a constant");
    scratch_words.push_back(ir::ops::Constant(value).values()[0].literal_u32());
    scratch_words.push_back(id_for(blocks[i].def()));
  }
  mb.op_void(spv::OpSwitch, scratch_words);
  return true;
}

bool Lowering::State::lower_unreachable(ir::OpView) {
  emit_merge(false);
  mb.op_void(spv::OpUnreachable, {});
  return true;
}

bool Lowering::State::lower_return(ir::OpView o) {
  const ir::SsaDef def = o.def();
  // Render state first (alpha test and fog read the shader's own outputs), then the copies
  // of swizzled and split outputs to the variables the pipeline sees.
  if (!render_state_before_return(def)) return false;
  if (id_for(current_function) == entry_function) {
    if (!swizzled_outputs.empty()) emit_output_epilogue();
    if (stage != ShaderStage::Geometry) emit_split_outputs();
  }
  if (rov && id_for(current_function) == entry_function)
    mb.op_void(spv::OpEndInvocationInterlockEXT, {});
  emit_merge(false);
  ir::SsaDef value = o.operand_count() ? ir::ops::Return(o).value().def() : ir::SsaDef();
  if (!value) {
    mb.op_void(spv::OpReturn, {});
  } else {
    ir::Type ret = current_function ? type_of(current_function) : o.type();
    mb.op_void(spv::OpReturnValue, {value_as(value, ret)});
  }
  return true;
}

bool Lowering::State::lower_phi(ir::OpView o) {
  const ir::SsaDef def = o.def();
  scratch_words.clear();
  const ir::ops::Phi phi(o);
  const ir::RepeatedOperand blocks = phi.block(), values = phi.value();
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    ir::SsaDef value = values[i].def();
    if (!value) return fail(at(def), "Phi with a null value");
    scratch_words.push_back(id_for(value));
    scratch_words.push_back(id_for(blocks[i].def()));
  }
  mb.op(spv::OpPhi, type(o.type()), scratch_words, id_for(def));
  return true;
}

} // namespace kiln::spirv
