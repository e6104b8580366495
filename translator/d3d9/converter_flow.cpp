// D3D9 -> IR: flow control as scoped IR (if/else/endif, rep/loop, break, call: subroutines are
// inlined at each call, ret, label) and texkill.
#include "translator/d3d9/converter_state.h"

namespace kiln::d3d9::detail {

namespace {

constexpr std::uint8_t kXYZ = 0x7;

} // namespace

ControlFrame* State::innermost_loop() {
  for (std::size_t i = control.size(); i > frame_base; --i)
    if (control[i - 1].kind != ControlFrame::If) return &control[i - 1];
  return nullptr;
}

// The condition of if b#/p0, breakp, callnz; null after fail().
SsaDef State::condition_of(const Instruction& ins, const SourceParam& s) {
  if (s.type == RegisterType::ConstBool) {
    if (s.index >= 16 && !(s.index < 32 && (bool_defined & (1u << s.index)))) {
      fail(ins, "boolean constant register out of range");
      return {};
    }
    return bool_const(s.index);
  }
  if (s.type == RegisterType::Predicate) return predicate_of(s, 0);
  fail(ins, "condition is neither b# nor p0");
  return {};
}

// src0.x <cmp> src1.x of if_cmp and break_cmp; null after fail().
SsaDef State::comparison_of(const Instruction& ins) {
  SsaDef x = read_scalar(ins, ins.src[0], 0), y = read_scalar(ins, ins.src[1], 0);
  if (!x || !y) return {};
  return compare(Comparison(ins.control), x, y);
}

void State::emit_break_if(SsaDef cond, SsaDef loop) {
  SsaDef iff = emit(ir::Op::ScopedIf(SsaDef(), cond));
  emit(ir::Op::ScopedLoopBreak(loop));
  SsaDef end = emit(ir::Op::ScopedEndIf(iff));
  b->rewrite_op(iff, ir::Op::ScopedIf(end, cond));
}

bool State::emit_if(const Instruction& ins) { // if b#/p0, if_cmp
  if (ins.predicated()) return fail(ins, "predicated flow control");
  SsaDef cond = ins.opcode == Opcode::If ? condition_of(ins, ins.src[0]) : comparison_of(ins);
  if (!cond) return false;
  ControlFrame f{};
  f.kind = ControlFrame::If;
  f.cond = cond;
  f.op = emit(ir::Op::ScopedIf(SsaDef(), cond));
  control.push_back(f);
  return true;
}

bool State::emit_else(const Instruction& ins) {
  if (ins.predicated()) return fail(ins, "predicated flow control");
  if (control.size() <= frame_base || control.back().kind != ControlFrame::If ||
      control.back().has_else)
    return fail(ins, "else without if");
  control.back().has_else = true;
  emit(ir::Op::ScopedElse(control.back().op));
  return true;
}

bool State::emit_endif(const Instruction& ins) {
  if (ins.predicated()) return fail(ins, "predicated flow control");
  if (control.size() <= frame_base || control.back().kind != ControlFrame::If)
    return fail(ins, "endif without if");
  ControlFrame f = control.back();
  control.pop_back();
  SsaDef end = emit(ir::Op::ScopedEndIf(f.op));
  b->rewrite_op(f.op, ir::Op::ScopedIf(end, f.cond));
  return true;
}

// rep i# (count i#.x); loop aL, i# (count i#.x, aL from i#.y in steps of i#.z).
bool State::emit_loop(const Instruction& ins) {
  if (ins.predicated()) return fail(ins, "predicated flow control");
  const SourceParam& i = ins.opcode == Opcode::Rep ? ins.src[0] : ins.src[1];
  if (i.type != RegisterType::ConstInt) return fail(ins, "loop count is not an integer constant");
  SsaDef count = int_const(ins, i.index, 0);
  if (!count) return false;
  ControlFrame f{};
  f.kind = ins.opcode == Opcode::Rep ? ControlFrame::Rep : ControlFrame::Loop;
  if (f.kind == ControlFrame::Loop) {
    SsaDef start = int_const(ins, i.index, 1);
    f.step = int_const(ins, i.index, 2);
    f.loop_reg = tmp(ir::kI32);
    emit(ir::Op::TmpStore(f.loop_reg, start));
  }
  SsaDef counter = tmp(ir::kI32);
  emit(ir::Op::TmpStore(counter, i32(0)));
  f.op = emit(ir::Op::ScopedLoop(SsaDef()));
  SsaDef n = emit(ir::Op::TmpLoad(ir::kI32, counter));
  emit_break_if(emit(ir::Op::SGe(n, count)), f.op);
  emit(ir::Op::TmpStore(counter, emit(ir::Op::IAdd(ir::kI32, n, i32(1)))));
  control.push_back(f);
  return true;
}

bool State::emit_end_loop(const Instruction& ins) { // endrep, endloop
  if (ins.predicated()) return fail(ins, "predicated flow control");
  const auto kind = ins.opcode == Opcode::EndRep ? ControlFrame::Rep : ControlFrame::Loop;
  if (control.size() <= frame_base || control.back().kind != kind)
    return fail(ins, "end of a loop that is not open");
  ControlFrame f = control.back();
  control.pop_back();
  if (kind == ControlFrame::Loop) {
    SsaDef al = emit(ir::Op::TmpLoad(ir::kI32, f.loop_reg));
    emit(ir::Op::TmpStore(f.loop_reg, emit(ir::Op::IAdd(ir::kI32, al, f.step))));
  }
  SsaDef end = emit(ir::Op::ScopedEndLoop(f.op));
  b->rewrite_op(f.op, ir::Op::ScopedLoop(end));
  return true;
}

bool State::emit_break(const Instruction& ins) { // break, break_cmp, breakp
  if (ins.predicated()) return fail(ins, "predicated flow control");
  ControlFrame* loop = innermost_loop();
  if (!loop) return fail(ins, "break outside a loop");
  if (ins.opcode == Opcode::Break) {
    emit(ir::Op::ScopedLoopBreak(loop->op));
    return true;
  }
  SsaDef cond = ins.opcode == Opcode::BreakP ? condition_of(ins, ins.src[0]) : comparison_of(ins);
  if (!cond) return false;
  emit_break_if(cond, loop->op);
  return true;
}

// call, callnz: the subroutine is inlined here (D3D9 forbids recursion; depth is bounded).
bool State::emit_call(const Instruction& ins) {
  if (ins.predicated()) return fail(ins, "predicated flow control");
  const SourceParam& l = ins.src[0];
  if (l.type != RegisterType::Label || l.index >= label_pos.size() || !label_pos[l.index])
    return fail(ins, "call of an undefined label");
  if (call_depth >= kMaxCallDepth) return fail(ins, "calls nested too deep (recursion?)");
  SsaDef iff, cond;
  if (ins.opcode == Opcode::CallNz) {
    cond = condition_of(ins, ins.src[1]);
    if (!cond) return false;
    iff = emit(ir::Op::ScopedIf(SsaDef(), cond));
  }
  const std::size_t saved_base = frame_base;
  frame_base = control.size();
  ++call_depth;
  if (!emit_range(label_pos[l.index], std::uint32_t(program->instructions.size()))) return false;
  --call_depth;
  if (control.size() != frame_base) return fail(ins, "subroutine leaves a block open");
  frame_base = saved_base;
  if (iff) {
    SsaDef end = emit(ir::Op::ScopedEndIf(iff));
    b->rewrite_op(iff, ir::Op::ScopedIf(end, cond));
  }
  return true;
}

// ret at the top level ends main or the subroutine; inside flow control of main it stores the
// outputs and returns.
bool State::emit_ret(const Instruction& ins) {
  if (control.size() <= frame_base) {
    range_done = true;
    return true;
  }
  if (call_depth > 0) return fail(ins, "ret inside flow control of a subroutine");
  if (!flush_pending()) return false;
  emit_output_stores();
  emit(ir::Op::Return(SsaDef()));
  return true;
}

// label: main (or the subroutine) ends where the next subroutine begins.
bool State::emit_label(const Instruction&) {
  range_done = true;
  return true;
}

bool State::emit_texkill(const Instruction& ins) {
  if (ins.predicated()) return fail(ins, "predicated texkill");
  // ps_1_x tests xyz; later models the components of the mask.
  const bool ps1 = model_bit(model) & models::Ps1All;
  const std::uint8_t mask = ps1 ? kXYZ : ins.dst.write_mask;
  SsaDef any;
  Vec4 value;
  const bool coords = ins.dst.type == RegisterType::Address && (model_bit(model) & models::Ps1Tex);
  if (!coords) {
    // The destination token names the register tested (any readable one, c# included).
    SourceParam s{};
    s.index = ins.dst.index;
    s.type = ins.dst.type;
    s.modifier = SourceModifier::None;
    s.swizzle = kIdentitySwizzle;
    if (!read_src(ins, s, mask, value)) return false;
  }
  for (unsigned c = 0; c < 4; ++c) {
    if (!(mask & (1u << c))) continue;
    // ps_1_1-1_3 texkill tests the texture coordinates.
    SsaDef v = coords ? texcoord(ins, ins.dst.index, c) : value.c[c];
    if (!v) return false;
    SsaDef lt = emit(ir::Op::FLt(v, f32(0.0f)));
    any = any ? emit(ir::Op::BOr(any, lt)) : lt;
  }
  if (!any) return true;
  SsaDef iff = emit(ir::Op::ScopedIf(SsaDef(), any));
  emit(ir::Op::Demote());
  SsaDef end = emit(ir::Op::ScopedEndIf(iff));
  b->rewrite_op(iff, ir::Op::ScopedIf(end, any));
  return true;
}

} // namespace kiln::d3d9::detail
