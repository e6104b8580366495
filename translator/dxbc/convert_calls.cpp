// The DXBC converter's subroutines and class-linkage function bodies (convert_driver.h):
// each body is converted again at every call, so the temporaries it shares with its callers
// stay plain temporaries of one function. fcall's switch and selection: convert_linkage.cpp.
#include "translator/dxbc/convert_walk.h"
#include "translator/ir/ir_op_views.h"

#include <string>

namespace kiln::dxbc {

using ir::Op;
using ir::SsaDef;

// Where each `label` is: subroutines (l#) and class-linkage function bodies (fb#) by number.
void find_labels(ConvertContext& ctx) {
  auto& subroutine_labels = ctx.linkage.subroutine_labels;
  auto& body_labels = ctx.linkage.body_labels;
  subroutine_labels.clear();
  body_labels.clear();
  for (std::uint32_t i = 0; i < ctx.program().instructions.size(); ++i) {
    const Instruction& inst = ctx.program().instructions[i];
    if (inst.opcode != Opcode::Label || inst.operand_count != 1) continue;
    const Operand& op = ctx.program().operands[inst.first_operand];
    if (op.index_dimension < 1 || op.index[0] >= (1u << 16)) continue;
    auto& labels = op.type == OperandType::FunctionBody ? body_labels : subroutine_labels;
    if (labels.size() <= op.index[0]) labels.resize(op.index[0] + 1, Linkage::kNone);
    if (labels[op.index[0]] == Linkage::kNone) labels[op.index[0]] = i;
  }
}

// fcall: a switch on the function table the selection names for the slot, one case per table
// the interface allows, each running (inlined) the body the table has at the call site.
bool interface_call(ConvertContext& ctx, const Instruction& inst) {
  Linkage& l = ctx.linkage;
  const std::size_t first = l.targets.size(); // nested calls append after and drop theirs
  SsaDef table = linkage_call(ctx, inst, l.targets);
  if (table) {
    SsaDef sw = ctx.emit(Op::ScopedSwitch(SsaDef(), table));
    for (std::size_t i = first; i < l.targets.size() && ctx.ok(); ++i) {
      const CallTarget t = l.targets[i]; // a copy: inlining may grow the list
      if (t.body >= l.body_labels.size() || l.body_labels[t.body] == Linkage::kNone) {
        ctx.fail(inst, "function body fb" + std::to_string(t.body) + " has no label");
        break;
      }
      ctx.emit(Op::ScopedSwitchCase(sw, t.table));
      if (!inline_body(ctx, l.body_labels[t.body])) break;
      ctx.set_current(&inst);
      ctx.emit(Op::ScopedSwitchBreak(sw));
    }
    if (ctx.ok())
      ctx.builder().rewrite_op(sw, Op::ScopedSwitch(ctx.emit(Op::ScopedEndSwitch(sw)), table));
  }
  l.targets.resize(first);
  return true;
}

// call l# / callc: the subroutine inlined (under an if for callc).
bool subroutine_call(ConvertContext& ctx, const Instruction& inst) {
  auto ops = ctx.program().operands_of(inst);
  const Operand& label = ops[ops.size() - 1];
  if (label.type != OperandType::Label || label.index_dimension < 1 ||
      label.index[0] >= ctx.linkage.subroutine_labels.size() ||
      ctx.linkage.subroutine_labels[label.index[0]] == Linkage::kNone) {
    return ctx.fail(inst, "call of a subroutine label that does not exist");
  }
  SsaDef sif, c;
  if (inst.opcode == Opcode::Callc) {
    c = condition(ctx, inst, ops[0]);
    if (!c) return false;
    sif = ctx.emit(Op::ScopedIf(SsaDef(), c));
  }
  if (!inline_body(ctx, ctx.linkage.subroutine_labels[label.index[0]])) return false;
  ctx.set_current(&inst);
  if (sif) ctx.builder().rewrite_op(sif, Op::ScopedIf(ctx.emit(Op::ScopedEndIf(sif)), c));
  return true;
}

// label: the main program (or a body being inlined) ends here; bodies run where called.
bool label(ConvertContext& ctx, const Instruction&) {
  ctx.past_main = true;
  return true;
}

// ret / retc in an inlined body. At the body's top level a ret ends it and a retc guards the
// rest of it (an if that closes at the body's end). Inside its control flow a return sets the
// body's returned flag and leaves (leave_returned_body).
void body_return(ConvertContext& ctx, const Instruction& inst) {
  if (ctx.flow.size() == ctx.body_base) {
    if (inst.opcode == Opcode::Ret) {
      ctx.body_returned = true;
      return;
    }
    SsaDef c = condition(ctx, inst, ctx.program().operands_of(inst)[0]);
    if (!c) return;
    SsaDef go_on = ctx.emit(Op::BNot(c));
    SsaDef sif = ctx.emit(Op::ScopedIf(SsaDef(), go_on));
    ctx.flow.push_back({FlowEntry::Kind::If, false, false, sif});
    ctx.body_base = ctx.phase_base = ctx.flow.size();
    return;
  }
  if (!ctx.body_flag) // returns_inside_control_flow() saw no such return: damaged nesting
  {
    ctx.fail(inst, "return inside inconsistently nested control flow of a subroutine or "
                   "function body");
    return;
  }
  SsaDef sif, c;
  if (inst.opcode == Opcode::Retc) {
    c = condition(ctx, inst, ctx.program().operands_of(inst)[0]);
    if (!c) return;
    sif = ctx.emit(Op::ScopedIf(SsaDef(), c));
  }
  ctx.emit(Op::TmpStore(ctx.body_flag, ctx.builder().constant_bool(true)));
  FlowEntry* target = innermost(ctx, false);
  if (target) {
    ctx.emit(break_of(*target));
    target->returns = true;
  }
  if (sif) ctx.builder().rewrite_op(sif, Op::ScopedIf(ctx.emit(Op::ScopedEndIf(sif)), c));
  if (!target) guard_rest_of_block(ctx);
}

// A construct inside an inlined body closed; `returns`: the body returned from inside it, so
// the code after it runs only while the returned flag is clear.
void closed_construct(ConvertContext& ctx, bool returns) {
  if (returns) leave_returned_body(ctx);
}

// After a construct the body returned from: at the body's top level the rest of the body goes
// under if (!returned), like a top-level retc; inside a loop or switch of the body, that
// construct is left too (its end continues the chain); inside ifs only, the rest of the
// enclosing block is skipped.
void leave_returned_body(ConvertContext& ctx) {
  SsaDef returned = ctx.emit(Op::TmpLoad(ir::kBool, ctx.body_flag));
  if (ctx.flow.size() == ctx.body_base) {
    SsaDef sif = ctx.emit(Op::ScopedIf(SsaDef(), ctx.emit(Op::BNot(returned))));
    ctx.flow.push_back({FlowEntry::Kind::If, false, false, sif});
    ctx.body_base = ctx.phase_base = ctx.flow.size();
    return;
  }
  FlowEntry* target = innermost(ctx, false);
  if (!target) return guard_rest_of_block(ctx);
  SsaDef sif = ctx.emit(Op::ScopedIf(SsaDef(), returned));
  ctx.emit(break_of(*target));
  ctx.builder().rewrite_op(sif, Op::ScopedIf(ctx.emit(Op::ScopedEndIf(sif)), returned));
  target->returns = true;
}

// A return inside ifs of the body (no loop or switch of its own around it): the rest of the
// innermost block runs under if (!returned), and the if around it continues the chain when it
// closes.
void guard_rest_of_block(ConvertContext& ctx) {
  for (std::size_t i = ctx.flow.size(); i-- > ctx.body_base;) {
    if (ctx.flow[i].kind == FlowEntry::Kind::Guard) continue;
    ctx.flow[i].returns = true;
    break;
  }
  SsaDef returned = ctx.emit(Op::TmpLoad(ir::kBool, ctx.body_flag));
  SsaDef sif = ctx.emit(Op::ScopedIf(SsaDef(), ctx.emit(Op::BNot(returned))));
  ctx.flow.push_back({FlowEntry::Kind::Guard, false, false, sif});
}

// The guards of the block that ends here (else, endif, case, endloop, ...), innermost first.
void close_guards(ConvertContext& ctx) {
  auto& stack = ctx.flow;
  while (stack.size() > ctx.phase_base && stack.back().kind == FlowEntry::Kind::Guard) {
    SsaDef sif = stack.back().op;
    stack.pop_back();
    ctx.builder().rewrite_op(
        sif, Op::ScopedIf(ctx.emit(Op::ScopedEndIf(sif)),
                          ir::ops::ScopedIf(ctx.builder().op(sif)).condition().def()));
  }
}

namespace {

// Whether the body after `label` returns from inside its own control flow (a ret or retc under
// an if, loop or switch of the body): it then needs a flag that says it has returned.
bool returns_inside_control_flow(const Program& p, std::uint32_t label) {
  int depth = 0;
  for (std::uint32_t i = label + 1; i < p.instructions.size(); ++i) {
    depth += block_nesting_change(p.instructions[i].opcode);
    switch (p.instructions[i].opcode) {
    case Opcode::Label:
      return false;
    case Opcode::Ret:
      return depth > 0; // at the top level it ends the body
    case Opcode::Retc:
      if (depth > 0) return true;
      break;
    default:
      break;
    }
  }
  return false;
}

} // namespace

// Converts the instructions after `label` up to the next label at the cursor. The body's
// control flow is its own: break, else and endif cannot reach the caller's constructs, and a
// return leaves only the body.
bool inline_body(ConvertContext& ctx, std::uint32_t label) {
  constexpr std::uint32_t kMaxDepth = 32;         // D3D11's subroutine nesting limit
  constexpr std::uint64_t kMaxInlined = 1u << 18; // instructions, all calls together
  if (ctx.inline_depth >= kMaxDepth) {
    ctx.fail(ctx.here(), "subroutine or function body calls nested deeper than 32 (recursion?)");
    return false;
  }
  const bool saved_returned = ctx.body_returned;
  const std::size_t saved_phase_base = ctx.phase_base, saved_body_base = ctx.body_base;
  const SsaDef saved_flag = ctx.body_flag;
  const std::size_t base = ctx.flow.size();
  ++ctx.inline_depth;
  ctx.body_returned = false;
  ctx.body_base = ctx.phase_base = base;
  ctx.body_flag = {};
  if (returns_inside_control_flow(ctx.program(), label)) {
    ctx.body_flag = ctx.builder().add(Op::DclTmp(ir::kBool, ctx.entry_point()));
    ctx.emit(Op::TmpStore(ctx.body_flag, ctx.builder().constant_bool(false)));
  }
  bool converted = true; // false: a handler stopped (after its report)
  for (std::uint32_t i = label + 1; converted && i < ctx.program().instructions.size() && ctx.ok();
       ++i) {
    const Instruction& inst = ctx.program().instructions[i];
    if (inst.opcode == Opcode::Label || ctx.body_returned) break;
    const std::uint16_t flags = opcode_info(inst.opcode).flags;
    if (flags & opflag::Custom) continue;
    ctx.set_current(&inst);
    if (++ctx.inlined > kMaxInlined)
      converted =
          ctx.fail(inst, "subroutines and function bodies inline to more than 2^18 instructions");
    else if (!operands_indexed(ctx.program(), inst))
      converted = ctx.fail(inst, "register operand without its register index");
    else if (flags & (opflag::Decl | opflag::Phase))
      converted = ctx.fail(inst, "declaration or phase inside a subroutine or function body");
    else
      converted =
          instruction(ctx, inst); // ret and retc go to body_return() while ctx.inline_depth > 0
  }
  if (converted && ctx.ok() && ctx.flow.size() != ctx.body_base)
    ctx.fail(ctx.here(), "unterminated control flow in a subroutine or function body");
  // Close the guards of top-level returns, innermost first.
  while (converted && ctx.ok() && ctx.flow.size() > base) {
    SsaDef sif = ctx.flow.back().op;
    ctx.flow.pop_back();
    SsaDef end = ctx.emit(Op::ScopedEndIf(sif));
    ctx.builder().rewrite_op(
        sif, Op::ScopedIf(end, ir::ops::ScopedIf(ctx.builder().op(sif)).condition().def()));
  }
  --ctx.inline_depth;
  ctx.body_returned = saved_returned;
  ctx.body_flag = saved_flag;
  ctx.phase_base = saved_phase_base;
  ctx.body_base = saved_body_base;
  return converted && ctx.ok();
}

} // namespace kiln::dxbc
