// Scoped control flow of the DXBC converter (convert_driver.h): if/else/endif, loop, switch,
// break/continue, ret/retc, discard, as ScopedIf/ScopedLoop/ScopedSwitch with their ends
// patched in when the construct closes; and the geometry shader's emit/cut.
#include "translator/dxbc/convert_dispatch.h"
#include "translator/dxbc/convert_driver.h"
#include "translator/ir/ir_op_views.h"

namespace kiln::dxbc {

using ir::Op;
using ir::ScalarType;
using ir::SsaDef;

bool Driver::open_if(ConvertContext&, const Instruction& inst) {
  SsaDef c = condition(inst, p_.operands_of(inst)[0]);
  if (!c) return false;
  SsaDef sif = ctx_.emit(Op::ScopedIf(SsaDef(), c));
  impl_.flow.push_back({FlowEntry::Kind::If, false, false, sif});
  return true;
}

bool Driver::else_branch(ConvertContext&, const Instruction& inst) {
  close_guards();
  auto& stack = impl_.flow;
  if (stack.size() <= phase_base_ || stack.back().kind != FlowEntry::Kind::If ||
      stack.back().has_else) {
    return ctx_.fail(inst, "else without if");
  }
  stack.back().has_else = true;
  ctx_.emit(Op::ScopedElse(stack.back().op));
  return true;
}

bool Driver::close_if(ConvertContext&, const Instruction& inst) {
  close_guards();
  auto& stack = impl_.flow;
  if (stack.size() <= phase_base_ || stack.back().kind != FlowEntry::Kind::If) {
    return ctx_.fail(inst, "endif without if");
  }
  const FlowEntry e = stack.back();
  stack.pop_back();
  SsaDef end = ctx_.emit(Op::ScopedEndIf(e.op));
  b_.rewrite_op(e.op, Op::ScopedIf(end, ir::ops::ScopedIf(b_.op(e.op)).condition().def()));
  closed_construct(e.returns);
  return true;
}

bool Driver::open_loop(ConvertContext&, const Instruction&) {
  SsaDef loop = ctx_.emit(Op::ScopedLoop(SsaDef()));
  impl_.flow.push_back({FlowEntry::Kind::Loop, false, false, loop});
  return true;
}

bool Driver::close_loop(ConvertContext&, const Instruction& inst) {
  close_guards();
  auto& stack = impl_.flow;
  if (stack.size() <= phase_base_ || stack.back().kind != FlowEntry::Kind::Loop) {
    return ctx_.fail(inst, "endloop without loop");
  }
  const FlowEntry e = stack.back();
  stack.pop_back();
  SsaDef end = ctx_.emit(Op::ScopedEndLoop(e.op));
  b_.rewrite_op(e.op, Op::ScopedLoop(end));
  closed_construct(e.returns);
  return true;
}

bool Driver::open_switch(ConvertContext&, const Instruction& inst) {
  SsaDef v = ctx_.load_src_scalar(p_.operands_of(inst)[0], ScalarType::U32);
  if (!v) return false;
  SsaDef sw = ctx_.emit(Op::ScopedSwitch(SsaDef(), v));
  impl_.flow.push_back({FlowEntry::Kind::Switch, false, false, sw});
  return true;
}

// case n / default.
bool Driver::switch_label(ConvertContext&, const Instruction& inst) {
  close_guards();
  auto& stack = impl_.flow;
  if (stack.size() <= phase_base_ || stack.back().kind != FlowEntry::Kind::Switch) {
    return ctx_.fail(inst, "case outside a switch");
  }
  SsaDef sw = stack.back().op;
  if (inst.opcode == Opcode::Default) {
    ctx_.emit(Op::ScopedSwitchDefault(sw));
    return true;
  }
  const Operand& value = p_.operands_of(inst)[0];
  if (value.type != OperandType::Immediate32) {
    return ctx_.fail(inst, "case label is not an immediate");
  }
  ctx_.emit(Op::ScopedSwitchCase(sw, value.value[0]));
  return true;
}

bool Driver::close_switch(ConvertContext&, const Instruction& inst) {
  close_guards();
  auto& stack = impl_.flow;
  if (stack.size() <= phase_base_ || stack.back().kind != FlowEntry::Kind::Switch) {
    return ctx_.fail(inst, "endswitch without switch");
  }
  const FlowEntry e = stack.back();
  stack.pop_back();
  SsaDef end = ctx_.emit(Op::ScopedEndSwitch(e.op));
  b_.rewrite_op(e.op, Op::ScopedSwitch(end, ir::ops::ScopedSwitch(b_.op(e.op)).selector().def()));
  closed_construct(e.returns);
  return true;
}

// `op` under `if (condition)` (retc, discard, the conditional break/continue).
void Driver::conditional(const Instruction& inst, const Op& op) {
  SsaDef c = condition(inst, p_.operands_of(inst)[0]);
  if (!c) return;
  SsaDef sif = ctx_.emit(Op::ScopedIf(SsaDef(), c));
  ctx_.emit(op);
  SsaDef end = ctx_.emit(Op::ScopedEndIf(sif));
  b_.rewrite_op(sif, Op::ScopedIf(end, c));
}

// break, breakc, continue, continuec.
bool Driver::jump(ConvertContext&, const Instruction& inst) {
  const bool is_break = inst.opcode == Opcode::Break || inst.opcode == Opcode::Breakc;
  const FlowEntry* target = innermost(!is_break);
  if (!target) {
    return ctx_.fail(inst, is_break ? "break outside a loop or switch" : "continue outside a loop");
  }
  const Op op = is_break ? break_of(*target) : Op::ScopedLoopContinue(target->op);
  if (inst.opcode == Opcode::Breakc || inst.opcode == Opcode::Continuec)
    conditional(inst, op);
  else
    ctx_.emit(op);
  return true;
}

bool Driver::ret(ConvertContext&, const Instruction& inst) {
  if (inline_depth_ > 0) {
    body_return(inst);
    return true;
  }
  if (impl_.flow.size() == phase_base_) {
    if (in_patch_phase_ && !phase_functions_) {
      end_phase();
      phase_done_ = true; // the rest of this phase is unreachable
      return true;
    }
    ctx_.emit(Op::Return(ir::kVoid, SsaDef()));
    returned_ = true;
    return true;
  }
  if (in_patch_phase_ && !phase_functions_) // phases_need_functions() said otherwise
    return ctx_.fail(inst, "return from inside control flow of a hull shader fork/join phase");
  ctx_.emit(Op::Return(ir::kVoid, SsaDef()));
  return true;
}

bool Driver::retc(ConvertContext&, const Instruction& inst) {
  if (inline_depth_ > 0) {
    body_return(inst);
    return true;
  }
  if (in_patch_phase_ && !phase_functions_) {
    return ctx_.fail(inst, "conditional return in a hull shader fork/join phase");
  }
  conditional(inst, Op::Return(ir::kVoid, SsaDef()));
  return true;
}

bool Driver::discard(ConvertContext&, const Instruction& inst) {
  conditional(inst, Op::Demote());
  return true;
}

// emit, cut, emitThenCut and their _stream forms.
bool emit_cut(ConvertContext& ctx, const Instruction& inst) {
  auto ops = ctx.program().operands_of(inst);
  const std::uint32_t stream = ops.empty() ? 0 : ops[0].index[0];
  if (stream >= 4) {
    return ctx.fail(inst, "stream index out of range");
  }
  const Opcode o = inst.opcode;
  const bool emit = o == Opcode::Emit || o == Opcode::EmitThenCut || o == Opcode::EmitStream ||
                    o == Opcode::EmitThenCutStream;
  const bool cut = o == Opcode::Cut || o == Opcode::EmitThenCut || o == Opcode::CutStream ||
                   o == Opcode::EmitThenCutStream;
  if (emit && stream == 0 && ctx.impl().point_size)
    ctx.emit(
        Op::OutputStore(ir::kVoid, ctx.impl().point_size, ir::SsaDef(), ctx.constant_f32(1.0f)));
  if (emit) ctx.emit(Op::EmitVertex(stream));
  if (cut) ctx.emit(Op::EmitPrimitive(stream));
  return true;
}

} // namespace kiln::dxbc
