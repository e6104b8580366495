#include "translator/passes/scoped_to_structured.h"

#include "translator/passes/pass_util.h"

#include <string>

namespace kiln::passes {

using ir::Construct;
using ir::Op;
using ir::OpCode;
using ir::SsaDef;

namespace {

std::string at(const char* what, SsaDef def) {
  return std::string("scoped control flow: ") + what + " (%" + std::to_string(def.id()) + ")";
}

bool opens_construct(OpCode c) {
  return c == OpCode::ScopedIf || c == OpCode::ScopedLoop || c == OpCode::ScopedSwitch;
}

bool is_scoped_marker(OpCode c) {
  return ir::has_trait(c, ir::OpTraits::Scoped);
}

} // namespace

Status ScopedToStructured::run(ir::Builder& b) {
  dropped_.clear();
  // Without a Scoped* marker every function is one block already, ending in its Return (the
  // front ends emit nothing after a top-level return): nothing to do, and no walk.
  if (!b.ever_added_with<ir::OpTraits::Scoped>()) return Status::ok();
  // Functions follow the declarations; each one's FunctionEnd leads to the next.
  for (SsaDef fn = first_code_op(b); fn; fn = b.next(fn)) {
    if (b.op(fn).code() != OpCode::Function) continue;
    if (Status s = run_function(b, fn); !s) return s;
    fn = function_end_;
  }
  if (!dropped_.empty()) {
    // Unreachable code removed; a value of it that is still referenced becomes Undef.
    forward_.assign(b.id_limit(), SsaDef());
    for (SsaDef d : dropped_) forward_[d.id()] = b.add(Op::Undef(b.op(d).type()));
    for (SsaDef d : dropped_) b.remove(d);
    b.replace_uses(forward_);
  }
  return Status::ok();
}

ScopedToStructured::Frame* ScopedToStructured::find_frame(SsaDef begin, OpCode kind) {
  for (std::size_t i = frames_.size(); i-- > 0;)
    if (frames_[i].begin == begin && frames_[i].kind == kind) return &frames_[i];
  return nullptr;
}

void ScopedToStructured::ensure_plain_block(ir::Builder& b, SsaDef before) {
  if (ir::ops::Label(b.op(cur_)).construct().literal_enum<Construct>() == Construct::None &&
      b.op(cur_).ref_count() == 0)
    return;
  SsaDef fresh = b.add_before(before, Op::Label(Construct::None));
  b.add_before(fresh, Op::Branch(fresh));
  cur_ = fresh;
}

// Closes a construct at its merge label: reachable merges continue the code, unreachable ones
// get `Unreachable` and the code after them is dropped up to the next live marker.
void ScopedToStructured::close_merge(ir::Builder& b, Frame& f) {
  if (f.merge_reached) {
    cur_ = f.merge;
  } else {
    b.add_after(f.merge, Op::Unreachable());
    cur_ = SsaDef();
  }
}

Status ScopedToStructured::run_function(ir::Builder& b, SsaDef function) {
  frames_.clear();
  cases_.clear();
  cur_ = SsaDef();
  bool seen_label = false;
  SsaDef next;
  for (SsaDef d = b.next(function); d; d = next) {
    next = b.next(d);
    ir::OpView op = b.op(d);
    OpCode code = op.code();
    if (code == OpCode::FunctionEnd) {
      if (!frames_.empty()) return Status::error(at("construct not closed", frames_.back().begin));
      if (cur_) b.add_before(d, Op::Return(b.op(function).type(), SsaDef()));
      function_end_ = d;
      return Status::ok();
    }
    if (code == OpCode::Label) {
      // The function's single Label; the others are merge/continue labels placed by this pass.
      if (!seen_label) {
        seen_label = true;
        cur_ = d;
      }
      continue;
    }
    if (!seen_label) return Status::error(at("code before the function's Label", d));
    // Branches placed by this pass ahead of a marker (loop back edges).
    if (code == OpCode::Branch || code == OpCode::Unreachable) continue;

    if (!is_scoped_marker(code)) {
      if (!cur_) {
        // Unreachable (after a break, continue or return).
        if (!op.type().is_void())
          dropped_.push_back(d);
        else
          b.remove(d);
        continue;
      }
      if (code == OpCode::Return) cur_ = SsaDef();
      continue;
    }

    // Every marker names its partner first: the op that closes (or opens) its construct.
    SsaDef target = ir::ops::ScopedElse(op).partner().def();
    if (!cur_ && (opens_construct(code) || code == OpCode::ScopedLoopBreak ||
                  code == OpCode::ScopedLoopContinue || code == OpCode::ScopedSwitchBreak)) {
      b.remove(d); // dead: its own markers no longer match a live frame and are dropped too
      continue;
    }
    switch (code) {
    case OpCode::ScopedIf: {
      if (!target || b.op(target).code() != OpCode::ScopedEndIf)
        return Status::error(at("ScopedIf without its ScopedEndIf", d));
      ensure_plain_block(b, d);
      Frame f{};
      f.kind = code;
      f.begin = d;
      f.merge = b.add_before(target, Op::Label(Construct::None));
      b.rewrite_op(cur_, Op::Label(f.merge, Construct::StructuredSelection));
      SsaDef then_label = b.add_before(d, Op::Label(Construct::None));
      f.branch =
          b.add_before(then_label, Op::BranchConditional(ir::ops::ScopedIf(op).condition().def(),
                                                         then_label, f.merge));
      frames_.push_back(f);
      cur_ = then_label;
      b.remove(d);
      break;
    }
    case OpCode::ScopedElse: {
      if (frames_.empty() || frames_.back().begin != target) {
        if (!find_frame(target, OpCode::ScopedIf)) {
          b.remove(d); // marker of a construct dropped as unreachable
          break;
        }
        return Status::error(at("ScopedElse crosses another construct", d));
      }
      Frame& f = frames_.back();
      if (f.has_else) return Status::error(at("second ScopedElse", d));
      if (cur_) {
        b.add_before(d, Op::Branch(f.merge));
        f.merge_reached = true;
      }
      SsaDef else_label = b.add_before(d, Op::Label(Construct::None));
      ir::Op bc = b.op(f.branch).to_op();
      bc.set_operand(ir::ops::BranchConditional::index_of("false_block"), ir::Operand(else_label));
      b.rewrite_op(f.branch, bc);
      f.has_else = true;
      cur_ = else_label;
      b.remove(d);
      break;
    }
    case OpCode::ScopedEndIf:
    case OpCode::ScopedEndLoop:
    case OpCode::ScopedEndSwitch: {
      OpCode kind = code == OpCode::ScopedEndIf     ? OpCode::ScopedIf
                    : code == OpCode::ScopedEndLoop ? OpCode::ScopedLoop
                                                    : OpCode::ScopedSwitch;
      if (frames_.empty() || frames_.back().begin != target) {
        if (!find_frame(target, kind)) {
          b.remove(d);
          break;
        }
        return Status::error(at("construct end crosses another construct", d));
      }
      Frame f = frames_.back();
      frames_.pop_back();
      if (kind == OpCode::ScopedIf) {
        if (cur_) {
          b.add_before(f.merge, Op::Branch(f.merge));
          f.merge_reached = true;
        }
        if (!f.has_else) f.merge_reached = true;
      } else if (kind == OpCode::ScopedLoop) {
        if (cur_) b.add_before(f.cont, Op::Branch(f.cont));
      } else {
        if (cur_) {
          b.add_before(f.merge, Op::Branch(f.merge));
          f.merge_reached = true;
        }
        if (!f.default_label) f.merge_reached = true;
        scratch_.clear();
        scratch_.push_back(ir::Operand(f.selector));
        scratch_.push_back(ir::Operand(f.default_label ? f.default_label : f.merge));
        scratch_.insert(scratch_.end(), cases_.begin() + f.case_start, cases_.end());
        cases_.resize(f.case_start);
        b.rewrite_op(f.branch, Op::with_operands(OpCode::Switch, ir::kVoid, scratch_,
                                                 std::uint32_t(scratch_.size())));
      }
      close_merge(b, f);
      b.remove(d);
      break;
    }
    case OpCode::ScopedLoop: {
      if (!target || b.op(target).code() != OpCode::ScopedEndLoop)
        return Status::error(at("ScopedLoop without its ScopedEndLoop", d));
      Frame f{};
      f.kind = code;
      f.begin = d;
      f.header = b.add_before(d, Op::Label(Construct::None));
      b.add_before(f.header, Op::Branch(f.header));
      SsaDef body = b.add_before(d, Op::Label(Construct::None));
      b.add_before(body, Op::Branch(body));
      f.cont = b.add_before(target, Op::Label(Construct::None));
      b.add_before(target, Op::Branch(f.header));
      f.merge = b.add_before(target, Op::Label(Construct::None));
      b.rewrite_op(f.header, Op::Label(f.merge, f.cont, Construct::StructuredLoop));
      frames_.push_back(f);
      cur_ = body;
      b.remove(d);
      break;
    }
    case OpCode::ScopedLoopBreak:
    case OpCode::ScopedLoopContinue: {
      Frame* f = find_frame(target, OpCode::ScopedLoop);
      if (!f) return Status::error(at("loop break/continue outside its loop", d));
      if (code == OpCode::ScopedLoopBreak) {
        b.add_before(d, Op::Branch(f->merge));
        f->merge_reached = true;
      } else {
        b.add_before(d, Op::Branch(f->cont));
      }
      cur_ = SsaDef();
      b.remove(d);
      break;
    }
    case OpCode::ScopedSwitch: {
      if (!target || b.op(target).code() != OpCode::ScopedEndSwitch)
        return Status::error(at("ScopedSwitch without its ScopedEndSwitch", d));
      ensure_plain_block(b, d);
      Frame f{};
      f.kind = code;
      f.begin = d;
      f.selector = ir::ops::ScopedSwitch(op).selector().def();
      ir::Type sel_type = f.selector ? b.op(f.selector).type() : ir::Type();
      f.case_type =
          sel_type.is_scalar() && ir::is_integer(sel_type.scalar_type()) ? sel_type : ir::kU32;
      f.merge = b.add_before(target, Op::Label(Construct::None));
      b.rewrite_op(cur_, Op::Label(f.merge, Construct::StructuredSelection));
      f.branch = b.add_before(d, Op::Switch(f.selector, f.merge));
      f.case_start = std::uint32_t(cases_.size());
      frames_.push_back(f);
      cur_ = SsaDef(); // code before the first case is unreachable
      b.remove(d);
      break;
    }
    case OpCode::ScopedSwitchCase:
    case OpCode::ScopedSwitchDefault: {
      if (frames_.empty() || frames_.back().begin != target) {
        if (!find_frame(target, OpCode::ScopedSwitch)) {
          b.remove(d);
          break;
        }
        return Status::error(at("switch case crosses another construct", d));
      }
      Frame& f = frames_.back();
      SsaDef label;
      // Consecutive case markers share one block.
      if (cur_ && b.next(cur_) == d) {
        bool is_case_block = false;
        for (std::size_t i = f.case_start + 1; i < cases_.size(); i += 2)
          if (cases_[i].def() == cur_) is_case_block = true;
        if (f.default_label == cur_) is_case_block = true;
        if (is_case_block) label = cur_;
      }
      if (!label) {
        label = b.add_before(d, Op::Label(Construct::None));
        if (cur_) b.add_before(label, Op::Branch(label)); // fall-through
      }
      if (code == OpCode::ScopedSwitchDefault) {
        if (f.default_label) return Status::error(at("second ScopedSwitchDefault", d));
        f.default_label = label;
      } else {
        std::uint64_t value = ir::ops::ScopedSwitchCase(op).case_value().bits();
        if (scalar_bits(f.case_type.scalar_type()) <= 32) value &= 0xffffffffu;
        SsaDef constant = b.add(Op::Constant(f.case_type, value));
        bool duplicate = false;
        for (std::size_t i = f.case_start; i < cases_.size(); i += 2)
          if (cases_[i].def() == constant) duplicate = true;
        if (!duplicate) {
          cases_.push_back(ir::Operand(constant));
          cases_.push_back(ir::Operand(label));
        }
      }
      cur_ = label;
      b.remove(d);
      break;
    }
    case OpCode::ScopedSwitchBreak: {
      Frame* f = find_frame(target, OpCode::ScopedSwitch);
      if (!f) return Status::error(at("ScopedSwitchBreak outside its switch", d));
      b.add_before(d, Op::Branch(f->merge));
      f->merge_reached = true;
      cur_ = SsaDef();
      b.remove(d);
      break;
    }
    default:
      return Status::error(at("unexpected scoped op", d));
    }
  }
  return Status::error(at("function without FunctionEnd", function));
}

} // namespace kiln::passes
