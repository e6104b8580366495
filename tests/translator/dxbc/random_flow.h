#pragma once
// Random legal nestings of structured control flow (RandomFlow) in the registers of
// control_flow_cases.h, and a CPU interpreter of those bodies (interpret_flow) giving the value
// each thread must store, for the translate-and-validate test (tests/translator/dxbc) and the
// execution test on lavapipe (tests/conformance).

#include "tests/translator/dxbc/control_flow_cases.h"

#include <algorithm>
#include <cstdint>
#include <vector>
namespace kiln::dxbc::test {

// A random legal nesting of if/else, loop and switch (cases, shared cases, default anywhere,
// fall-through) with break, breakc, continue, continuec, ret and retc wherever D3D allows them,
// on the registers of flow_program(). Each loop first counts a register of its own (r8 + its
// loop nesting level) up to a small bound, so every program terminates.
class RandomFlow {
 public:
  explicit RandomFlow(std::uint32_t seed) : state_(seed * 2654435761u + 1) {}

  FlowBody make() {
    FlowBody body;
    block(body, 0);
    return body;
  }

 private:
  enum class Kind { Loop, Switch, If };
  std::uint32_t next(std::uint32_t n) {
    state_ ^= state_ << 13;
    state_ ^= state_ >> 17;
    state_ ^= state_ << 5;
    return state_ % n;
  }
  bool in(Kind k) const {
    for (Kind s : stack_)
      if (s == k) return true;
    return false;
  }
  // The innermost loop or switch, for break.
  bool breakable() const { return in(Kind::Loop) || in(Kind::Switch); }

  void block(FlowBody& b, unsigned depth) {
    const unsigned count = 1 + next(3);
    for (unsigned i = 0; i < count; ++i) statement(b, depth);
  }

  void statement(FlowBody& b, unsigned depth) {
    const std::uint32_t choice = next(depth >= 4 ? 5 : 11);
    switch (choice) {
    case 0:
    case 1:
      b.iadd(0, 0, 1 + next(9));
      return;
    case 2:
      if (breakable()) {
        if (next(2))
          b.break_();
        else
          b.and_(6, 0, 1u << next(3)).breakc_nz(6);
      } else {
        b.iadd(0, 0, 100);
      }
      return;
    case 3:
      if (in(Kind::Loop)) {
        if (next(2))
          b.continue_();
        else
          b.and_(6, 0, 1u << next(3)).continuec_nz(6);
      } else {
        b.ieq(6, 1, next(8)).retc_nz(6);
      }
      return;
    case 4:
      if (next(4) == 0)
        b.store().ret();
      else
        b.iadd(0, 1, 3);
      return;
    case 5:
    case 6:
      b.and_(3, 1, 1u << next(3)).if_nz(3);
      stack_.push_back(Kind::If);
      block(b, depth + 1);
      if (next(2)) {
        b.else_();
        block(b, depth + 1);
      }
      stack_.pop_back();
      b.endif();
      return;
    case 7:
    case 8: {
      // A bounded loop on a counter of its own nesting level (r8..r11).
      const unsigned counter = 8 + unsigned(std::count(stack_.begin(), stack_.end(), Kind::Loop));
      b.mov(counter, 0).loop().uge(7, counter, 1 + next(3)).breakc_nz(7).iadd(counter, counter, 1);
      stack_.push_back(Kind::Loop);
      block(b, depth + 1);
      stack_.pop_back();
      b.endloop();
      return;
    }
    default: {
      b.switch_(1);
      stack_.push_back(Kind::Switch);
      const unsigned labels = 1 + next(4);
      bool has_default = false;
      std::uint32_t value = next(3);
      for (unsigned i = 0; i < labels; ++i) {
        // One to two labels per body; a default at most once, anywhere.
        const unsigned shared = 1 + (next(3) == 0);
        for (unsigned j = 0; j < shared; ++j) {
          if (!has_default && next(4) == 0) {
            b.default_();
            has_default = true;
          } else {
            b.case_(value);
            value += 1 + next(2);
          }
        }
        block(b, depth + 1);
        if (next(3)) b.break_(); // else fall through to the next label (or out of the switch)
      }
      stack_.pop_back();
      b.endswitch();
      return;
    }
    }
  }

  std::uint32_t state_;
  std::vector<Kind> stack_;
};

} // namespace kiln::dxbc::test

namespace kiln::dxbc::test {

// What a return of the body leaves in u0[tid]: the value it stored last (the body is the
// program: flow_program), or r0.x at the return (a subroutine or function body, whose caller
// stores r0.x after it: flow_call_program).
enum class FlowReturn { EndsProgram, EndsBody };

// What flow_program(body) leaves in u0[tid], computed on the CPU: a direct interpreter of the
// instructions FlowBody emits (D3D semantics: break leaves the innermost loop or switch,
// continue restarts the innermost loop, a case without break falls into the next label).
// Returns false when the body is malformed or does not finish within `step_limit` steps.
inline bool interpret_flow(const FlowBody& body, std::uint32_t tid, std::uint32_t& result,
                           FlowReturn returns = FlowReturn::EndsProgram,
                           unsigned step_limit = 1u << 20) {
  struct Inst {
    Opcode op;
    bool nonzero;
    std::uint32_t a[3];              // register or immediate operands, in order
    bool imm_last;                   // the last source is an immediate
    std::size_t jump = 0, jump2 = 0; // matching else/endif, end, loop start, ...
  };
  std::vector<Inst> code;
  const std::vector<std::uint32_t>& t = body.tokens();
  for (std::size_t i = 0; i < t.size();) {
    const std::uint32_t len = t[i] >> 24;
    if (len == 0 || i + len > t.size()) return false;
    Inst in{Opcode(t[i] & 0x7ffu), (t[i] & FlowBody::kNonZero) != 0, {0, 0, 0}, false};
    // Operands come as (operand token, value) pairs.
    unsigned n = 0;
    for (std::size_t k = i + 1; k + 1 < i + len && n < 3; k += 2) {
      in.a[n++] = t[k + 1];
      in.imm_last = OperandType((t[k] >> 12) & 0xffu) == OperandType::Immediate32;
    }
    code.push_back(in);
    i += len;
  }
  // Match the blocks; a break's jump is its loop's or switch's end, a continue's its loop.
  std::vector<std::size_t> open;
  std::vector<std::vector<std::size_t>> labels(code.size());
  for (std::size_t i = 0; i < code.size(); ++i) {
    Inst& in = code[i];
    auto innermost = [&](bool loops_only) -> std::size_t {
      for (std::size_t k = open.size(); k-- > 0;) {
        const Opcode o = code[open[k]].op;
        if (o == Opcode::Loop || (!loops_only && o == Opcode::Switch)) return open[k];
      }
      return SIZE_MAX;
    };
    switch (in.op) {
    case Opcode::If:
    case Opcode::Loop:
    case Opcode::Switch:
      open.push_back(i);
      break;
    case Opcode::Else:
      if (open.empty() || code[open.back()].op != Opcode::If) return false;
      code[open.back()].jump = i;
      break;
    case Opcode::Case:
    case Opcode::Default:
      if (open.empty() || code[open.back()].op != Opcode::Switch) return false;
      labels[open.back()].push_back(i);
      break;
    case Opcode::EndIf:
    case Opcode::EndLoop:
    case Opcode::EndSwitch: {
      if (open.empty()) return false;
      Inst& head = code[open.back()];
      if (in.op == Opcode::EndIf) {
        if (head.op != Opcode::If) return false;
        if (head.jump)
          code[head.jump].jump = i; // else -> endif
        else
          head.jump = i;
        head.jump2 = i;
      } else {
        if (head.op != (in.op == Opcode::EndLoop ? Opcode::Loop : Opcode::Switch)) return false;
        head.jump2 = i;
        in.jump = open.back();
      }
      open.pop_back();
      break;
    }
    case Opcode::Break:
    case Opcode::Breakc:
    case Opcode::Continue:
    case Opcode::Continuec: {
      const bool is_break = in.op == Opcode::Break || in.op == Opcode::Breakc;
      const std::size_t target = innermost(!is_break);
      if (target == SIZE_MAX) return false;
      in.jump = target; // resolved to the end below, once the construct is closed
      break;
    }
    default:
      break;
    }
  }
  if (!open.empty()) return false;

  std::uint32_t r[16] = {};
  r[1] = tid;
  r[4] = tid * 4;
  std::uint32_t stored = 0;
  std::size_t pc = 0;
  for (unsigned steps = 0; pc < code.size(); ++steps) {
    if (steps > step_limit) return false;
    const Inst& in = code[pc];
    const std::uint32_t src_last = in.imm_last ? in.a[2] : r[in.a[2] & 15];
    auto test = [&](std::uint32_t reg) { return (r[reg & 15] != 0) == in.nonzero; };
    switch (in.op) {
    case Opcode::If:
      pc = test(in.a[0]) ? pc + 1 : (code[pc].jump != code[pc].jump2 ? in.jump + 1 : in.jump2 + 1);
      continue;
    case Opcode::Else:
      pc = in.jump + 1;
      continue;
    case Opcode::EndLoop:
      pc = in.jump + 1;
      continue;
    case Opcode::Break:
    case Opcode::Breakc:
      if (in.op == Opcode::Break || test(in.a[0])) {
        pc = code[in.jump].jump2 + 1;
        continue;
      }
      break;
    case Opcode::Continue:
    case Opcode::Continuec:
      if (in.op == Opcode::Continue || test(in.a[0])) {
        pc = in.jump + 1;
        continue;
      }
      break;
    case Opcode::Switch: {
      std::size_t to = code[pc].jump2 + 1, fallback = to;
      for (std::size_t l : labels[pc]) {
        if (code[l].op == Opcode::Default)
          fallback = l + 1;
        else if (code[l].a[0] == r[in.a[0] & 15])
          to = std::min(to, l + 1);
      }
      pc = to != code[pc].jump2 + 1 ? to : fallback;
      continue;
    }
    case Opcode::Ret:
      result = returns == FlowReturn::EndsBody ? r[0] : stored;
      return true;
    case Opcode::Retc:
      if (test(in.a[0])) {
        result = returns == FlowReturn::EndsBody ? r[0] : stored;
        return true;
      }
      break;
    case Opcode::IAdd:
      r[in.a[0] & 15] = r[in.a[1] & 15] + src_last;
      break;
    case Opcode::Mov:
      r[in.a[0] & 15] = in.a[1];
      break;
    case Opcode::ULt:
      r[in.a[0] & 15] = r[in.a[1] & 15] < src_last ? ~0u : 0u;
      break;
    case Opcode::UGe:
      r[in.a[0] & 15] = r[in.a[1] & 15] >= src_last ? ~0u : 0u;
      break;
    case Opcode::IEq:
      r[in.a[0] & 15] = r[in.a[1] & 15] == src_last ? ~0u : 0u;
      break;
    case Opcode::And:
      r[in.a[0] & 15] = r[in.a[1] & 15] & src_last;
      break;
    case Opcode::StoreRaw:
      stored = r[0];
      break;
    default: // labels, endif, endswitch, loop: fall through to the next instruction
      break;
    }
    ++pc;
  }
  result = r[0]; // the program's own store_raw at the end
  return true;
}

} // namespace kiln::dxbc::test
