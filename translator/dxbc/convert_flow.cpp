// Scoped control flow of the DXBC converter (convert_driver.h): if/else/endif, loop, switch,
// break/continue, ret/retc, discard, as ScopedIf/ScopedLoop/ScopedSwitch with their ends
// patched in when the construct closes; and the geometry shader's emit/cut.
#include "translator/dxbc/convert_dispatch.h"
#include "translator/dxbc/convert_walk.h"
#include "translator/ir/ir_op_views.h"

namespace kiln::dxbc {

using ir::Op;
using ir::ScalarType;
using ir::SsaDef;

bool open_if(ConvertContext& ctx, const Instruction& inst) {
  SsaDef c = condition(ctx, inst, ctx.program().operands_of(inst)[0]);
  if (!c) return false;
  SsaDef sif = ctx.emit(Op::ScopedIf(SsaDef(), c));
  ctx.flow.push_back({FlowEntry::Kind::If, false, false, sif});
  return true;
}

bool else_branch(ConvertContext& ctx, const Instruction& inst) {
  close_guards(ctx);
  auto& stack = ctx.flow;
  if (stack.size() <= ctx.phase_base || stack.back().kind != FlowEntry::Kind::If ||
      stack.back().has_else) {
    return ctx.fail(inst, "else without if");
  }
  stack.back().has_else = true;
  ctx.emit(Op::ScopedElse(stack.back().op));
  return true;
}

bool close_if(ConvertContext& ctx, const Instruction& inst) {
  close_guards(ctx);
  auto& stack = ctx.flow;
  if (stack.size() <= ctx.phase_base || stack.back().kind != FlowEntry::Kind::If) {
    return ctx.fail(inst, "endif without if");
  }
  const FlowEntry e = stack.back();
  stack.pop_back();
  SsaDef end = ctx.emit(Op::ScopedEndIf(e.op));
  ctx.builder().rewrite_op(
      e.op, Op::ScopedIf(end, ir::ops::ScopedIf(ctx.builder().op(e.op)).condition().def()));
  closed_construct(ctx, e.returns);
  return true;
}

bool open_loop(ConvertContext& ctx, const Instruction&) {
  SsaDef loop = ctx.emit(Op::ScopedLoop(SsaDef()));
  ctx.flow.push_back({FlowEntry::Kind::Loop, false, false, loop});
  return true;
}

bool close_loop(ConvertContext& ctx, const Instruction& inst) {
  close_guards(ctx);
  auto& stack = ctx.flow;
  if (stack.size() <= ctx.phase_base || stack.back().kind != FlowEntry::Kind::Loop) {
    return ctx.fail(inst, "endloop without loop");
  }
  const FlowEntry e = stack.back();
  stack.pop_back();
  SsaDef end = ctx.emit(Op::ScopedEndLoop(e.op));
  ctx.builder().rewrite_op(e.op, Op::ScopedLoop(end));
  closed_construct(ctx, e.returns);
  return true;
}

bool open_switch(ConvertContext& ctx, const Instruction& inst) {
  SsaDef v = ctx.load_src_scalar(ctx.program().operands_of(inst)[0], ScalarType::U32);
  if (!v) return false;
  SsaDef sw = ctx.emit(Op::ScopedSwitch(SsaDef(), v));
  ctx.flow.push_back({FlowEntry::Kind::Switch, false, false, sw});
  return true;
}

// case n / default.
bool switch_label(ConvertContext& ctx, const Instruction& inst) {
  close_guards(ctx);
  auto& stack = ctx.flow;
  if (stack.size() <= ctx.phase_base || stack.back().kind != FlowEntry::Kind::Switch) {
    return ctx.fail(inst, "case outside a switch");
  }
  SsaDef sw = stack.back().op;
  if (inst.opcode == Opcode::Default) {
    ctx.emit(Op::ScopedSwitchDefault(sw));
    return true;
  }
  const Operand& value = ctx.program().operands_of(inst)[0];
  if (value.type != OperandType::Immediate32) {
    return ctx.fail(inst, "case label is not an immediate");
  }
  ctx.emit(Op::ScopedSwitchCase(sw, value.value[0]));
  return true;
}

bool close_switch(ConvertContext& ctx, const Instruction& inst) {
  close_guards(ctx);
  auto& stack = ctx.flow;
  if (stack.size() <= ctx.phase_base || stack.back().kind != FlowEntry::Kind::Switch) {
    return ctx.fail(inst, "endswitch without switch");
  }
  const FlowEntry e = stack.back();
  stack.pop_back();
  SsaDef end = ctx.emit(Op::ScopedEndSwitch(e.op));
  ctx.builder().rewrite_op(
      e.op, Op::ScopedSwitch(end, ir::ops::ScopedSwitch(ctx.builder().op(e.op)).selector().def()));
  closed_construct(ctx, e.returns);
  return true;
}

// `op` under `if (condition)` (retc, discard, the conditional break/continue).
void conditional(ConvertContext& ctx, const Instruction& inst, const Op& op) {
  SsaDef c = condition(ctx, inst, ctx.program().operands_of(inst)[0]);
  if (!c) return;
  SsaDef sif = ctx.emit(Op::ScopedIf(SsaDef(), c));
  ctx.emit(op);
  SsaDef end = ctx.emit(Op::ScopedEndIf(sif));
  ctx.builder().rewrite_op(sif, Op::ScopedIf(end, c));
}

// break, breakc, continue, continuec.
bool jump(ConvertContext& ctx, const Instruction& inst) {
  const bool is_break = inst.opcode == Opcode::Break || inst.opcode == Opcode::Breakc;
  const FlowEntry* target = innermost(ctx, !is_break);
  if (!target) {
    return ctx.fail(inst, is_break ? "break outside a loop or switch" : "continue outside a loop");
  }
  const Op op = is_break ? break_of(*target) : Op::ScopedLoopContinue(target->op);
  if (inst.opcode == Opcode::Breakc || inst.opcode == Opcode::Continuec)
    conditional(ctx, inst, op);
  else
    ctx.emit(op);
  return true;
}

bool ret(ConvertContext& ctx, const Instruction& inst) {
  if (ctx.inline_depth > 0) {
    body_return(ctx, inst);
    return true;
  }
  if (ctx.flow.size() == ctx.phase_base) {
    if (ctx.in_patch_phase && !ctx.phase_functions) {
      end_phase(ctx);
      ctx.phase_done = true; // the rest of this phase is unreachable
      return true;
    }
    ctx.emit(Op::Return(ir::kVoid, SsaDef()));
    ctx.returned = true;
    return true;
  }
  if (ctx.in_patch_phase && !ctx.phase_functions) // phases_need_functions() said otherwise
    return ctx.fail(inst, "return from inside control flow of a hull shader fork/join phase");
  ctx.emit(Op::Return(ir::kVoid, SsaDef()));
  return true;
}

bool retc(ConvertContext& ctx, const Instruction& inst) {
  if (ctx.inline_depth > 0) {
    body_return(ctx, inst);
    return true;
  }
  if (ctx.in_patch_phase && !ctx.phase_functions) {
    return ctx.fail(inst, "conditional return in a hull shader fork/join phase");
  }
  conditional(ctx, inst, Op::Return(ir::kVoid, SsaDef()));
  return true;
}

bool discard(ConvertContext& ctx, const Instruction& inst) {
  conditional(ctx, inst, Op::Demote());
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
  if (emit && stream == 0 && ctx.point_size)
    ctx.emit(Op::OutputStore(ir::kVoid, ctx.point_size, ir::SsaDef(), ctx.constant_f32(1.0f)));
  if (emit) ctx.emit(Op::EmitVertex(stream));
  if (cut) ctx.emit(Op::EmitPrimitive(stream));
  return true;
}

} // namespace kiln::dxbc
