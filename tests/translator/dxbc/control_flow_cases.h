#pragma once
// A table of structured control flow nestings as the reference compiler (fxc) emits them, each a
// cs_5_0 program built token by token, and the value each thread must compute. Shared by the
// translate-and-validate table (tests/translator/dxbc) and the execution test on lavapipe
// (tests/conformance).
//
// Every program runs 8 threads (dcl_thread_group 8, 1, 1). Before the case body r1.x holds the
// thread id (vThreadID.x), r4.x its byte address in u0 (tid * 4) and r0.x, r2.x, r5.x are 0;
// after it, `store_raw u0.x, r4.x, r0.x`. A body that returns early stores r0.x itself first
// (FlowBody::store) when the value must survive: the store at the end does not run then.

#include "tests/translator/dxbc/token_builder.h"
#include "translator/dxbc/opcodes.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kiln::dxbc::test {

// The body of one case: instructions on the .x component of r0..r11.
class FlowBody {
 public:
  static constexpr std::uint32_t kNonZero = 1u << 18;

  FlowBody& if_nz(unsigned r) { return op1(Opcode::If, r, kNonZero); }
  FlowBody& if_z(unsigned r) { return op1(Opcode::If, r, 0); }
  FlowBody& else_() { return op0(Opcode::Else); }
  FlowBody& endif() { return op0(Opcode::EndIf); }
  FlowBody& loop() { return op0(Opcode::Loop); }
  FlowBody& endloop() { return op0(Opcode::EndLoop); }
  FlowBody& break_() { return op0(Opcode::Break); }
  FlowBody& breakc_nz(unsigned r) { return op1(Opcode::Breakc, r, kNonZero); }
  FlowBody& breakc_z(unsigned r) { return op1(Opcode::Breakc, r, 0); }
  FlowBody& continue_() { return op0(Opcode::Continue); }
  FlowBody& continuec_nz(unsigned r) { return op1(Opcode::Continuec, r, kNonZero); }
  FlowBody& switch_(unsigned r) { return op1(Opcode::Switch, r, 0); }
  FlowBody& case_(std::uint32_t v) { return emit(Opcode::Case, {kImm, v}); }
  FlowBody& default_() { return op0(Opcode::Default); }
  FlowBody& endswitch() { return op0(Opcode::EndSwitch); }
  FlowBody& ret() { return op0(Opcode::Ret); }
  FlowBody& retc_nz(unsigned r) { return op1(Opcode::Retc, r, kNonZero); }
  FlowBody& call(std::uint32_t label) {
    return emit(Opcode::Call, {operand_token(OperandType::Label, kComp0, 0, 1), label});
  }
  // rD.x = rA.x + imm
  FlowBody& iadd(unsigned d, unsigned a, std::uint32_t imm) {
    return emit(Opcode::IAdd, {kDst, d, kSrc, a, kImm, imm});
  }
  // rD.x = rA.x + rB.x
  FlowBody& iadd_r(unsigned d, unsigned a, unsigned b) {
    return emit(Opcode::IAdd, {kDst, d, kSrc, a, kSrc, b});
  }
  FlowBody& mov(unsigned d, std::uint32_t imm) { return emit(Opcode::Mov, {kDst, d, kImm, imm}); }
  // rD.x = rA.x < imm / >= imm / == imm / & imm (unsigned; masks of all ones for true)
  FlowBody& ult(unsigned d, unsigned a, std::uint32_t imm) { return cmp(Opcode::ULt, d, a, imm); }
  FlowBody& uge(unsigned d, unsigned a, std::uint32_t imm) { return cmp(Opcode::UGe, d, a, imm); }
  FlowBody& ieq(unsigned d, unsigned a, std::uint32_t imm) { return cmp(Opcode::IEq, d, a, imm); }
  FlowBody& and_(unsigned d, unsigned a, std::uint32_t imm) { return cmp(Opcode::And, d, a, imm); }
  // rD.x = rA.x >= rB.x
  FlowBody& uge_r(unsigned d, unsigned a, unsigned b) {
    return emit(Opcode::UGe, {kDst, d, kSrc, a, kSrc, b});
  }
  // store_raw u0.x, r4.x, r0.x
  FlowBody& store() {
    return emit(Opcode::StoreRaw,
                {operand_token(OperandType::Uav, kComp4, mask(1), 1), 0, kSrc, 4, kSrc, 0});
  }

  const std::vector<std::uint32_t>& tokens() const { return tokens_; }

 private:
  // Operand tokens of rN.x (the register number follows) and of a scalar immediate.
  static constexpr std::uint32_t kDst = operand_token(OperandType::Temp, kComp4, mask(1), 1);
  static constexpr std::uint32_t kSrc = operand_token(OperandType::Temp, kComp4, select1(0), 1);
  static constexpr std::uint32_t kImm = operand_token(OperandType::Immediate32, kComp1, 0, 0);
  FlowBody& emit(Opcode op, std::initializer_list<std::uint32_t> rest, std::uint32_t controls = 0) {
    tokens_.push_back(std::uint32_t(op) | controls | std::uint32_t(rest.size() + 1) << 24);
    tokens_.insert(tokens_.end(), rest);
    return *this;
  }
  FlowBody& op0(Opcode op) { return emit(op, {}); }
  FlowBody& op1(Opcode op, unsigned r, std::uint32_t controls) {
    return emit(op, {kSrc, r}, controls);
  }
  FlowBody& cmp(Opcode op, unsigned d, unsigned a, std::uint32_t imm) {
    return emit(op, {kDst, d, kSrc, a, kImm, imm});
  }
  std::vector<std::uint32_t> tokens_;
};

struct FlowCase {
  std::string name;
  FlowBody body;
  std::uint32_t (*expected)(std::uint32_t tid); // u0[tid] after the dispatch
};

constexpr std::uint32_t kFlowThreads = 8;

// The whole cs_5_0 program of a case.
inline std::vector<std::uint32_t> flow_program(const FlowBody& body) {
  ProgramBuilder p(ProgramType::Compute, 5, 0);
  p.inst(Opcode::DclUavRaw, {operand_token(OperandType::Uav, kComp0, 0, 1), 0});
  p.inst(Opcode::DclInput, {operand_token(OperandType::InputThreadId, kComp4, mask(1), 0)});
  p.inst(Opcode::DclTemps, {12});
  p.inst(Opcode::DclThreadGroup, {kFlowThreads, 1, 1});
  const std::uint32_t r_x = operand_token(OperandType::Temp, kComp4, mask(1), 1);
  const std::uint32_t imm = operand_token(OperandType::Immediate32, kComp1, 0, 0);
  p.inst(Opcode::Mov, {r_x, 1, operand_token(OperandType::InputThreadId, kComp4, select1(0), 0)});
  p.inst(Opcode::IShl,
         {r_x, 4, operand_token(OperandType::Temp, kComp4, select1(0), 1), 1, imm, 2});
  for (unsigned r : {0u, 2u, 5u}) p.inst(Opcode::Mov, {r_x, r, imm, 0});
  std::vector<std::uint32_t> words = p.finish();
  words.insert(words.end(), body.tokens().begin(), body.tokens().end());
  FlowBody tail;
  tail.store().ret();
  words.insert(words.end(), tail.tokens().begin(), tail.tokens().end());
  words[1] = std::uint32_t(words.size());
  return words;
}

// The same body in the second fork phase of an hs_5_0 (2 instances, r1 = vForkInstanceID; the
// first phase writes the tri tess factors), the stored value going to u0 as in flow_program():
// the hull-phase form of every nesting, inlined into the patch-constant function, or with a
// function per phase where the body returns from inside its control flow.
inline std::vector<std::uint32_t> flow_hull_program(const FlowBody& body) {
  ProgramBuilder p(ProgramType::Hull, 5, 0);
  const std::uint32_t r_x = operand_token(OperandType::Temp, kComp4, mask(1), 1);
  const std::uint32_t o_x = operand_token(OperandType::Output, kComp4, mask(1), 1);
  const std::uint32_t imm = operand_token(OperandType::Immediate32, kComp1, 0, 0);
  const std::uint32_t fork_id = operand_token(OperandType::InputForkInstanceId, kComp1, 0, 0);
  p.inst(Opcode::HsDecls, {});
  p.inst(Opcode::DclInputControlPointCount, {}, 3u << 11);
  p.inst(Opcode::DclOutputControlPointCount, {}, 3u << 11);
  p.inst(Opcode::DclTessDomain, {}, 2u << 11);          // tri
  p.inst(Opcode::DclTessPartitioning, {}, 1u << 11);    // integer
  p.inst(Opcode::DclTessOutputPrimitive, {}, 3u << 11); // triangle_cw
  p.inst(Opcode::DclUavRaw, {operand_token(OperandType::Uav, kComp0, 0, 1), 0});
  p.inst(Opcode::HsForkPhase, {});
  for (std::uint32_t i = 0; i < 4; ++i) p.inst(Opcode::DclOutputSiv, {o_x, i, 17 + i});
  for (std::uint32_t i = 0; i < 4; ++i) p.inst(Opcode::Mov, {o_x, i, imm, 0x3f800000u});
  p.inst(Opcode::Ret, {});
  p.inst(Opcode::HsForkPhase, {});
  p.inst(Opcode::DclHsForkPhaseInstanceCount, {2});
  p.inst(Opcode::DclInput, {fork_id});
  p.inst(Opcode::DclTemps, {12});
  p.inst(Opcode::Mov, {r_x, 1, fork_id});
  p.inst(Opcode::IShl,
         {r_x, 4, operand_token(OperandType::Temp, kComp4, select1(0), 1), 1, imm, 2});
  for (unsigned r : {0u, 2u, 5u}) p.inst(Opcode::Mov, {r_x, r, imm, 0});
  std::vector<std::uint32_t> words = p.finish();
  words.insert(words.end(), body.tokens().begin(), body.tokens().end());
  FlowBody tail;
  tail.store().ret();
  words.insert(words.end(), tail.tokens().begin(), tail.tokens().end());
  words[1] = std::uint32_t(words.size());
  return words;
}

// r0 = accumulator, r1 = tid, r2 = loop counter, r3 = condition, r5 = inner counter,
// r6 = condition.
inline std::vector<FlowCase> flow_cases() {
  std::vector<FlowCase> cases;
  auto add = [&](const char* name, FlowBody body, std::uint32_t (*expected)(std::uint32_t)) {
    cases.push_back({name, std::move(body), expected});
  };

  // for (i = 0; i < tid; ++i) r0 += 2, with the exit test as breakc.
  add("loop_breakc",
      FlowBody().loop().uge_r(3, 2, 1).breakc_nz(3).iadd(0, 0, 2).iadd(2, 2, 1).endloop(),
      [](std::uint32_t t) { return 2 * t; });
  // The same with the exit as break inside if.
  add("loop_break_in_if",
      FlowBody()
          .loop()
          .uge_r(3, 2, 1)
          .if_nz(3)
          .break_()
          .endif()
          .iadd(0, 0, 3)
          .iadd(2, 2, 1)
          .endloop(),
      [](std::uint32_t t) { return 3 * t; });
  // break in both branches of an if/else: the loop runs once, the if's merge is unreachable.
  add("loop_break_in_if_and_else",
      FlowBody()
          .loop()
          .and_(3, 1, 1)
          .if_nz(3)
          .iadd(0, 0, 10)
          .break_()
          .else_()
          .iadd(0, 0, 20)
          .break_()
          .endif()
          .iadd(0, 0, 99)
          .endloop(),
      [](std::uint32_t t) { return (t & 1) ? 10u : 20u; });
  // continuec skips odd i: sums the even i below 8.
  add("loop_continuec",
      FlowBody()
          .loop()
          .uge(3, 2, 8)
          .breakc_nz(3)
          .and_(6, 2, 1)
          .iadd(2, 2, 1)
          .continuec_nz(6)
          .iadd_r(0, 0, 2)
          .endloop(),
      [](std::uint32_t) { return 1u + 3 + 5 + 7; });
  // continue inside if inside the loop.
  add("loop_continue_in_if",
      FlowBody()
          .loop()
          .uge(3, 2, 6)
          .breakc_nz(3)
          .iadd(2, 2, 1)
          .ult(6, 2, 3)
          .if_nz(6)
          .continue_()
          .endif()
          .iadd(0, 0, 1)
          .endloop(),
      [](std::uint32_t) { return 4u; });
  // Nested loops: break and continue of the inner loop only.
  add("nested_loops",
      FlowBody()
          .loop()
          .uge(3, 2, 3)
          .breakc_nz(3)
          .iadd(2, 2, 1)
          .mov(5, 0)
          .loop()
          .uge_r(6, 5, 1)
          .breakc_nz(6)
          .iadd(5, 5, 1)
          .ieq(6, 5, 2)
          .continuec_nz(6)
          .iadd(0, 0, 1)
          .endloop()
          .iadd(0, 0, 100)
          .endloop(),
      [](std::uint32_t t) { return 3 * (100 + (t >= 2 ? t - 1 : t)); });
  // A loop whose body ends in break (fxc's one-trip loops).
  add("loop_ending_in_break", FlowBody().loop().iadd(0, 0, 7).break_().endloop(),
      [](std::uint32_t) { return 7u; });

  // switch with a break per case, default last.
  add("switch_cases_default_last",
      FlowBody()
          .switch_(1)
          .case_(0)
          .mov(0, 10)
          .break_()
          .case_(1)
          .mov(0, 11)
          .break_()
          .default_()
          .mov(0, 12)
          .break_()
          .endswitch(),
      [](std::uint32_t t) { return t == 0   ? 10u
                                   : t == 1 ? 11u
                                            : 12u; });
  // default first, then cases.
  add("switch_default_first",
      FlowBody().switch_(1).default_().mov(0, 5).break_().case_(2).mov(0, 6).break_().endswitch(),
      [](std::uint32_t t) { return t == 2 ? 6u : 5u; });
  // default in the middle.
  add("switch_default_middle",
      FlowBody()
          .switch_(1)
          .case_(0)
          .mov(0, 1)
          .break_()
          .default_()
          .mov(0, 2)
          .break_()
          .case_(3)
          .mov(0, 3)
          .break_()
          .endswitch(),
      [](std::uint32_t t) { return t == 0   ? 1u
                                   : t == 3 ? 3u
                                            : 2u; });
  // Cases sharing a body, and a case sharing the default's body.
  add("switch_shared_bodies",
      FlowBody()
          .switch_(1)
          .case_(1)
          .case_(2)
          .case_(5)
          .mov(0, 40)
          .break_()
          .case_(3)
          .default_()
          .mov(0, 41)
          .break_()
          .case_(4)
          .mov(0, 42)
          .break_()
          .endswitch(),
      [](std::uint32_t t) { return t == 1 || t == 2 || t == 5 ? 40u
                                   : t == 4                   ? 42u
                                                              : 41u; });
  // No default: unmatched threads skip the switch.
  add("switch_without_default",
      FlowBody()
          .mov(0, 9)
          .switch_(1)
          .case_(6)
          .mov(0, 60)
          .break_()
          .case_(7)
          .mov(0, 70)
          .break_()
          .endswitch(),
      [](std::uint32_t t) { return t == 6   ? 60u
                                   : t == 7 ? 70u
                                            : 9u; });
  // Only a default.
  add("switch_only_default", FlowBody().switch_(1).default_().iadd(0, 1, 1000).break_().endswitch(),
      [](std::uint32_t t) { return 1000 + t; });
  // Fall-through from case to case, into the default and out of the default into a case.
  add("switch_fallthrough",
      FlowBody()
          .switch_(1)
          .case_(0)
          .iadd(0, 0, 1)
          .case_(1)
          .iadd(0, 0, 10)
          .break_()
          .case_(2)
          .iadd(0, 0, 100)
          .default_()
          .iadd(0, 0, 1000)
          .case_(3)
          .iadd(0, 0, 10000)
          .break_()
          .case_(4)
          .iadd(0, 0, 5)
          .endswitch(),
      [](std::uint32_t t) {
        switch (t) {
        case 0:
          return 11u;
        case 1:
          return 10u;
        case 2:
          return 11100u;
        case 3:
          return 10000u;
        case 4:
          return 5u;
        default:
          return 11000u;
        }
      });
  // A case that is only a break, and dead code after a break.
  add("switch_empty_case_and_dead_code",
      FlowBody()
          .mov(0, 3)
          .switch_(1)
          .case_(0)
          .break_()
          .iadd(0, 0, 50)
          .case_(1)
          .mov(0, 4)
          .break_()
          .iadd(0, 0, 60)
          .default_()
          .mov(0, 5)
          .break_()
          .endswitch(),
      [](std::uint32_t t) { return t == 0   ? 3u
                                   : t == 1 ? 4u
                                            : 5u; });
  // break inside an if inside a case: leaves the switch.
  add("switch_break_in_if",
      FlowBody()
          .switch_(1)
          .default_()
          .mov(0, 1)
          .and_(3, 1, 1)
          .if_nz(3)
          .mov(0, 2)
          .break_()
          .endif()
          .mov(0, 3)
          .break_()
          .endswitch(),
      [](std::uint32_t t) { return (t & 1) ? 2u : 3u; });
  // breakc inside a case, and a case whose if falls through to the next case.
  add("switch_breakc_and_if_fallthrough",
      FlowBody()
          .switch_(1)
          .case_(0)
          .case_(1)
          .ieq(3, 1, 1)
          .iadd(0, 0, 1)
          .breakc_nz(3)
          .iadd(0, 0, 2)
          .if_z(3)
          .iadd(0, 0, 4)
          .endif()
          .case_(2)
          .iadd(0, 0, 8)
          .break_()
          .default_()
          .mov(0, 100)
          .endswitch(),
      [](std::uint32_t t) {
        return t == 0 ? 15u : t == 1 ? 1u : t == 2 ? 8u : 100u;
      });
  // Nested switches: the inner break leaves the inner switch only.
  add("nested_switches",
      FlowBody()
          .switch_(1)
          .case_(1)
          .case_(2)
          .and_(3, 1, 1)
          .switch_(3)
          .case_(1)
          .mov(0, 21)
          .break_()
          .default_()
          .mov(0, 22)
          .break_()
          .endswitch()
          .iadd(0, 0, 100)
          .break_()
          .default_()
          .mov(0, 7)
          .break_()
          .endswitch(),
      [](std::uint32_t t) { return t == 1   ? 121u
                                   : t == 2 ? 122u
                                            : 7u; });
  // A loop inside a case: its break leaves the loop, the case's break the switch.
  add("loop_in_case",
      FlowBody()
          .switch_(1)
          .case_(3)
          .case_(4)
          .loop()
          .uge_r(3, 2, 1)
          .breakc_nz(3)
          .iadd(0, 0, 2)
          .iadd(2, 2, 1)
          .endloop()
          .iadd(0, 0, 1)
          .break_()
          .default_()
          .mov(0, 9)
          .endswitch(),
      [](std::uint32_t t) { return t == 3 || t == 4 ? 2 * t + 1 : 9u; });
  // A switch inside a loop: break inside an if inside the switch leaves the switch; the loop
  // goes on.
  add("break_in_if_in_switch_in_loop",
      FlowBody()
          .loop()
          .uge(3, 2, 4)
          .breakc_nz(3)
          .iadd(2, 2, 1)
          .switch_(1)
          .default_()
          .ieq(6, 2, 2)
          .if_nz(6)
          .iadd(0, 0, 100)
          .break_()
          .endif()
          .iadd(0, 0, 1)
          .break_()
          .endswitch()
          .iadd(0, 0, 10)
          .endloop(),
      [](std::uint32_t) { return 100u + 3 + 40; });
  // continue inside a switch inside a loop.
  add("continue_in_switch_in_loop",
      FlowBody()
          .loop()
          .uge(3, 2, 5)
          .breakc_nz(3)
          .iadd(2, 2, 1)
          .switch_(2)
          .case_(2)
          .case_(4)
          .continue_()
          .default_()
          .iadd(0, 0, 1)
          .break_()
          .endswitch()
          .iadd(0, 0, 10)
          .endloop(),
      [](std::uint32_t) { return 3 * 11u; });
  // continuec inside a switch inside a loop, the loop's exit after the switch.
  add("continuec_in_switch_in_loop",
      FlowBody()
          .loop()
          .iadd(2, 2, 1)
          .switch_(1)
          .default_()
          .and_(6, 2, 1)
          .continuec_nz(6)
          .iadd(0, 0, 1)
          .break_()
          .endswitch()
          .uge(3, 2, 6)
          .breakc_nz(3)
          .endloop(),
      [](std::uint32_t) { return 3u; });
  // break after the switch leaves the loop.
  add("break_after_switch_in_loop",
      FlowBody()
          .loop()
          .switch_(1)
          .case_(0)
          .iadd(0, 0, 5)
          .break_()
          .default_()
          .iadd(0, 0, 6)
          .break_()
          .endswitch()
          .break_()
          .endloop(),
      [](std::uint32_t t) { return t == 0 ? 5u : 6u; });

  // ret at the top of control flow, inside a loop, a switch and a switch in a loop.
  add("ret_in_if",
      FlowBody()
          .mov(0, 1)
          .store()
          .ult(3, 1, 4)
          .retc_nz(3)
          .mov(0, 2)
          .if_z(3)
          .mov(0, 3)
          .store()
          .ret()
          .endif()
          .mov(0, 4),
      [](std::uint32_t t) { return t < 4 ? 1u : 3u; });
  add("ret_in_loop",
      FlowBody().loop().iadd(0, 0, 1).uge_r(3, 0, 1).if_nz(3).store().ret().endif().endloop(),
      [](std::uint32_t t) { return t == 0 ? 1u : t; });
  add("ret_in_switch",
      FlowBody()
          .switch_(1)
          .case_(5)
          .mov(0, 55)
          .store()
          .ret()
          .default_()
          .mov(0, 1)
          .break_()
          .endswitch()
          .iadd(0, 0, 1),
      [](std::uint32_t t) { return t == 5 ? 55u : 2u; });
  add("ret_in_switch_in_loop",
      FlowBody()
          .loop()
          .iadd(2, 2, 1)
          .switch_(2)
          .case_(3)
          .iadd_r(0, 0, 1)
          .store()
          .ret()
          .default_()
          .iadd(0, 0, 1)
          .endswitch()
          .endloop(),
      [](std::uint32_t t) { return 2 + t; });
  add("retc_in_nested_loops",
      FlowBody()
          .loop()
          .iadd(2, 2, 1)
          .mov(5, 0)
          .loop()
          .iadd(5, 5, 1)
          .iadd(0, 0, 1)
          .uge_r(6, 0, 1)
          .if_nz(6)
          .store()
          .endif()
          .retc_nz(6)
          .uge(6, 5, 2)
          .breakc_nz(6)
          .endloop()
          .endloop(),
      [](std::uint32_t t) { return t == 0 ? 1u : t; });
  return cases;
}

} // namespace kiln::dxbc::test
