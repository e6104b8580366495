// The DXBC converter's subroutines and class-linkage function bodies (convert_driver.h):
// each body is converted again at every call, so the temporaries it shares with its callers
// stay plain temporaries of one function. fcall's switch and selection: convert_linkage.cpp.
#include "translator/dxbc/convert_driver.h"
#include "translator/ir/ir_op_views.h"

#include <string>

namespace kiln::dxbc {

using ir::Op;
using ir::SsaDef;

// Where each `label` is: subroutines (l#) and class-linkage function bodies (fb#) by number.
void Driver::find_labels() {
  auto& subroutine_labels = impl_.linkage.subroutine_labels;
  auto& body_labels = impl_.linkage.body_labels;
  subroutine_labels.clear();
  body_labels.clear();
  for (std::uint32_t i = 0; i < p_.instructions.size(); ++i) {
    const Instruction& inst = p_.instructions[i];
    if (inst.opcode != Opcode::Label || inst.operand_count != 1) continue;
    const Operand& op = p_.operands[inst.first_operand];
    if (op.index_dimension < 1 || op.index[0] >= (1u << 16)) continue;
    auto& labels = op.type == OperandType::FunctionBody ? body_labels : subroutine_labels;
    if (labels.size() <= op.index[0]) labels.resize(op.index[0] + 1, Linkage::kNone);
    if (labels[op.index[0]] == Linkage::kNone) labels[op.index[0]] = i;
  }
}

// fcall: a switch on the function table the selection names for the slot, one case per table
// the interface allows, each running (inlined) the body the table has at the call site.
bool Driver::interface_call(ConvertContext&, const Instruction& inst) {
  Linkage& l = impl_.linkage;
  const std::size_t first = l.targets.size(); // nested calls append after and drop theirs
  SsaDef table = linkage_call(ctx_, inst, l.targets);
  if (table) {
    SsaDef sw = ctx_.emit(Op::ScopedSwitch(SsaDef(), table));
    for (std::size_t i = first; i < l.targets.size() && ctx_.ok(); ++i) {
      const CallTarget t = l.targets[i]; // a copy: inlining may grow the list
      if (t.body >= l.body_labels.size() || l.body_labels[t.body] == Linkage::kNone) {
        ctx_.fail(inst, "function body fb" + std::to_string(t.body) + " has no label");
        break;
      }
      ctx_.emit(Op::ScopedSwitchCase(sw, t.table));
      if (!inline_body(l.body_labels[t.body])) break;
      ctx_.set_current(&inst);
      ctx_.emit(Op::ScopedSwitchBreak(sw));
    }
    if (ctx_.ok()) b_.rewrite_op(sw, Op::ScopedSwitch(ctx_.emit(Op::ScopedEndSwitch(sw)), table));
  }
  l.targets.resize(first);
  return true;
}

// call l# / callc: the subroutine inlined (under an if for callc).
bool Driver::subroutine_call(ConvertContext&, const Instruction& inst) {
  auto ops = p_.operands_of(inst);
  const Operand& label = ops[ops.size() - 1];
  if (label.type != OperandType::Label || label.index_dimension < 1 ||
      label.index[0] >= impl_.linkage.subroutine_labels.size() ||
      impl_.linkage.subroutine_labels[label.index[0]] == Linkage::kNone) {
    return ctx_.fail(inst, "call of a subroutine label that does not exist");
  }
  SsaDef sif, c;
  if (inst.opcode == Opcode::Callc) {
    c = condition(inst, ops[0]);
    if (!c) return false;
    sif = ctx_.emit(Op::ScopedIf(SsaDef(), c));
  }
  if (!inline_body(impl_.linkage.subroutine_labels[label.index[0]])) return false;
  ctx_.set_current(&inst);
  if (sif) b_.rewrite_op(sif, Op::ScopedIf(ctx_.emit(Op::ScopedEndIf(sif)), c));
  return true;
}

// label: the main program (or a body being inlined) ends here; bodies run where called.
bool Driver::label(ConvertContext&, const Instruction&) {
  past_main_ = true;
  return true;
}

// ret / retc in an inlined body. At the body's top level a ret ends it and a retc guards the
// rest of it (an if that closes at the body's end). Inside its control flow a return sets the
// body's returned flag and leaves (leave_returned_body).
void Driver::body_return(const Instruction& inst) {
  if (impl_.flow.size() == body_base_) {
    if (inst.opcode == Opcode::Ret) {
      body_returned_ = true;
      return;
    }
    SsaDef c = condition(inst, p_.operands_of(inst)[0]);
    if (!c) return;
    SsaDef go_on = ctx_.emit(Op::BNot(c));
    SsaDef sif = ctx_.emit(Op::ScopedIf(SsaDef(), go_on));
    impl_.flow.push_back({FlowEntry::Kind::If, false, false, sif});
    body_base_ = phase_base_ = impl_.flow.size();
    return;
  }
  if (!body_flag_) // returns_inside_control_flow() saw no such return: damaged nesting
  {
    ctx_.fail(inst, "return inside inconsistently nested control flow of a subroutine or "
                    "function body");
    return;
  }
  SsaDef sif, c;
  if (inst.opcode == Opcode::Retc) {
    c = condition(inst, p_.operands_of(inst)[0]);
    if (!c) return;
    sif = ctx_.emit(Op::ScopedIf(SsaDef(), c));
  }
  ctx_.emit(Op::TmpStore(body_flag_, b_.constant_bool(true)));
  FlowEntry* target = innermost(false);
  if (target) {
    ctx_.emit(break_of(*target));
    target->returns = true;
  }
  if (sif) b_.rewrite_op(sif, Op::ScopedIf(ctx_.emit(Op::ScopedEndIf(sif)), c));
  if (!target) guard_rest_of_block();
}

// A construct inside an inlined body closed; `returns`: the body returned from inside it, so
// the code after it runs only while the returned flag is clear.
void Driver::closed_construct(bool returns) {
  if (returns) leave_returned_body();
}

// After a construct the body returned from: at the body's top level the rest of the body goes
// under if (!returned), like a top-level retc; inside a loop or switch of the body, that
// construct is left too (its end continues the chain); inside ifs only, the rest of the
// enclosing block is skipped.
void Driver::leave_returned_body() {
  SsaDef returned = ctx_.emit(Op::TmpLoad(ir::kBool, body_flag_));
  if (impl_.flow.size() == body_base_) {
    SsaDef sif = ctx_.emit(Op::ScopedIf(SsaDef(), ctx_.emit(Op::BNot(returned))));
    impl_.flow.push_back({FlowEntry::Kind::If, false, false, sif});
    body_base_ = phase_base_ = impl_.flow.size();
    return;
  }
  FlowEntry* target = innermost(false);
  if (!target) return guard_rest_of_block();
  SsaDef sif = ctx_.emit(Op::ScopedIf(SsaDef(), returned));
  ctx_.emit(break_of(*target));
  b_.rewrite_op(sif, Op::ScopedIf(ctx_.emit(Op::ScopedEndIf(sif)), returned));
  target->returns = true;
}

// A return inside ifs of the body (no loop or switch of its own around it): the rest of the
// innermost block runs under if (!returned), and the if around it continues the chain when it
// closes.
void Driver::guard_rest_of_block() {
  for (std::size_t i = impl_.flow.size(); i-- > body_base_;) {
    if (impl_.flow[i].kind == FlowEntry::Kind::Guard) continue;
    impl_.flow[i].returns = true;
    break;
  }
  SsaDef returned = ctx_.emit(Op::TmpLoad(ir::kBool, body_flag_));
  SsaDef sif = ctx_.emit(Op::ScopedIf(SsaDef(), ctx_.emit(Op::BNot(returned))));
  impl_.flow.push_back({FlowEntry::Kind::Guard, false, false, sif});
}

// The guards of the block that ends here (else, endif, case, endloop, ...), innermost first.
void Driver::close_guards() {
  auto& stack = impl_.flow;
  while (stack.size() > phase_base_ && stack.back().kind == FlowEntry::Kind::Guard) {
    SsaDef sif = stack.back().op;
    stack.pop_back();
    b_.rewrite_op(sif, Op::ScopedIf(ctx_.emit(Op::ScopedEndIf(sif)),
                                    ir::ops::ScopedIf(b_.op(sif)).condition().def()));
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
bool Driver::inline_body(std::uint32_t label) {
  constexpr std::uint32_t kMaxDepth = 32;         // D3D11's subroutine nesting limit
  constexpr std::uint64_t kMaxInlined = 1u << 18; // instructions, all calls together
  if (inline_depth_ >= kMaxDepth) {
    ctx_.fail(ctx_.here(), "subroutine or function body calls nested deeper than 32 (recursion?)");
    return false;
  }
  const bool saved_returned = body_returned_;
  const std::size_t saved_phase_base = phase_base_, saved_body_base = body_base_;
  const SsaDef saved_flag = body_flag_;
  const std::size_t base = impl_.flow.size();
  ++inline_depth_;
  body_returned_ = false;
  body_base_ = phase_base_ = base;
  body_flag_ = {};
  if (returns_inside_control_flow(p_, label)) {
    body_flag_ = b_.add(Op::DclTmp(ir::kBool, ctx_.entry_point()));
    ctx_.emit(Op::TmpStore(body_flag_, b_.constant_bool(false)));
  }
  bool converted = true; // false: a handler stopped (after its report)
  for (std::uint32_t i = label + 1; converted && i < p_.instructions.size() && ctx_.ok(); ++i) {
    const Instruction& inst = p_.instructions[i];
    if (inst.opcode == Opcode::Label || body_returned_) break;
    const std::uint16_t flags = opcode_info(inst.opcode).flags;
    if (flags & opflag::Custom) continue;
    ctx_.set_current(&inst);
    if (++inlined_ > kMaxInlined)
      converted =
          ctx_.fail(inst, "subroutines and function bodies inline to more than 2^18 instructions");
    else if (!operands_indexed(p_, inst))
      converted = ctx_.fail(inst, "register operand without its register index");
    else if (flags & (opflag::Decl | opflag::Phase))
      converted = ctx_.fail(inst, "declaration or phase inside a subroutine or function body");
    else
      converted = instruction(inst); // ret and retc go to body_return() while inline_depth_ > 0
  }
  if (converted && ctx_.ok() && impl_.flow.size() != body_base_)
    ctx_.fail(ctx_.here(), "unterminated control flow in a subroutine or function body");
  // Close the guards of top-level returns, innermost first.
  while (converted && ctx_.ok() && impl_.flow.size() > base) {
    SsaDef sif = impl_.flow.back().op;
    impl_.flow.pop_back();
    SsaDef end = ctx_.emit(Op::ScopedEndIf(sif));
    b_.rewrite_op(sif, Op::ScopedIf(end, ir::ops::ScopedIf(b_.op(sif)).condition().def()));
  }
  --inline_depth_;
  body_returned_ = saved_returned;
  body_flag_ = saved_flag;
  phase_base_ = saved_phase_base;
  body_base_ = saved_body_base;
  return converted && ctx_.ok();
}

} // namespace kiln::dxbc
