#pragma once
// The control flow bodies of control_flow_cases.h and RandomFlow as subroutines and D3D11
// class-linkage function bodies, which kiln inlines where they are called: a ret or retc at
// any depth of the body's loops, switches and ifs must leave only the body, and the caller
// (its own loops included) goes on. Shared by the translate-and-validate test
// (tests/translator/dxbc) and the execution test on lavapipe (tests/conformance).
//
// Every program sets up r0..r5 as flow_program() does, calls the body and then stores r0.x to
// u0[tid]: what the body leaves in r0.x when it returns or ends (interpret_flow with
// FlowReturn::EndsBody), plus kNestedAdd in the forms with a loop around the call.

#include "tests/translator/dxbc/random_flow.h"

#include <cstdint>
#include <vector>

namespace kiln::dxbc::test {

enum class FlowCall {
  Subroutine,           // call l0
  NestedInALoop,        // call l1; l1: loop { call l0; r0.x += kNestedAdd; break }
  InterfaceCall,        // fcall fp0[0][0], fp0 = {ft0}, ft0 = {fb0}: the all-zero selection's
  InterfaceCallInALoop, // loop { fcall fp0[0][0]; r0.x += kNestedAdd; break }
};
constexpr FlowCall kFlowCalls[] = {FlowCall::Subroutine, FlowCall::NestedInALoop,
                                   FlowCall::InterfaceCall, FlowCall::InterfaceCallInALoop};
constexpr std::uint32_t kNestedAdd = 1000; // what the loop around the call adds after it

inline const char* flow_call_name(FlowCall form) {
  switch (form) {
  case FlowCall::Subroutine:
    return "subroutine";
  case FlowCall::NestedInALoop:
    return "nested in a loop";
  case FlowCall::InterfaceCall:
    return "interface call";
  case FlowCall::InterfaceCallInALoop:
    return "interface call in a loop";
  }
  return "?";
}

inline std::vector<std::uint32_t> flow_call_program(const FlowBody& body, FlowCall form) {
  using OT = OperandType;
  const std::uint32_t r_x = operand_token(OT::Temp, kComp4, mask(1), 1);
  const std::uint32_t r_src = operand_token(OT::Temp, kComp4, select1(0), 1);
  const std::uint32_t imm = operand_token(OT::Immediate32, kComp1, 0, 0);
  const std::uint32_t label = operand_token(OT::Label, kComp0, 0, 1);
  const std::uint32_t function_body = operand_token(OT::FunctionBody, kComp0, 0, 1);
  const bool interface_call =
      form == FlowCall::InterfaceCall || form == FlowCall::InterfaceCallInALoop;
  const std::uint32_t fcall[] = {0, operand_token(OT::Interface, kComp0, 0, 2), 0, 0};
  ProgramBuilder p(ProgramType::Compute, 5, 0);
  if (interface_call) {
    p.inst(Opcode::DclFunctionBody, {0});
    p.inst(Opcode::DclFunctionTable, {0, 1, 0});           // ft0 = {fb0}
    p.inst(Opcode::DclInterface, {0, 1, 1u << 16 | 1, 0}); // fp0[1][1] = {ft0}
  }
  p.inst(Opcode::DclUavRaw, {operand_token(OT::Uav, kComp0, 0, 1), 0});
  p.inst(Opcode::DclInput, {operand_token(OT::InputThreadId, kComp4, mask(1), 0)});
  p.inst(Opcode::DclTemps, {12});
  p.inst(Opcode::DclThreadGroup, {kFlowThreads, 1, 1});
  p.inst(Opcode::Mov, {r_x, 1, operand_token(OT::InputThreadId, kComp4, select1(0), 0)});
  p.inst(Opcode::IShl, {r_x, 4, r_src, 1, imm, 2});
  for (unsigned r : {0u, 2u, 5u}) p.inst(Opcode::Mov, {r_x, r, imm, 0});
  switch (form) {
  case FlowCall::Subroutine:
    p.inst(Opcode::Call, {label, 0});
    break;
  case FlowCall::NestedInALoop:
    p.inst(Opcode::Call, {label, 1});
    break;
  case FlowCall::InterfaceCall:
    p.inst(Opcode::InterfaceCall, {fcall[0], fcall[1], fcall[2], fcall[3]});
    break;
  case FlowCall::InterfaceCallInALoop:
    p.inst(Opcode::Loop, {});
    p.inst(Opcode::InterfaceCall, {fcall[0], fcall[1], fcall[2], fcall[3]});
    p.inst(Opcode::IAdd, {r_x, 0, r_src, 0, imm, kNestedAdd});
    p.inst(Opcode::Break, {});
    p.inst(Opcode::EndLoop, {});
    break;
  }
  p.raw(FlowBody().store().ret().tokens());
  if (form == FlowCall::NestedInALoop) {
    p.inst(Opcode::Label, {label, 1});
    p.inst(Opcode::Loop, {});
    p.inst(Opcode::Call, {label, 0});
    p.inst(Opcode::IAdd, {r_x, 0, r_src, 0, imm, kNestedAdd});
    p.inst(Opcode::Break, {});
    p.inst(Opcode::EndLoop, {});
    p.inst(Opcode::Ret, {});
  }
  p.inst(Opcode::Label, {interface_call ? function_body : label, 0});
  p.raw(body.tokens());
  p.inst(Opcode::Ret, {});
  return p.finish();
}

// What flow_call_program(body, form) stores for thread `tid` (false: the interpreter could not
// finish the body).
inline bool flow_call_expected(const FlowBody& body, FlowCall form, std::uint32_t tid,
                               std::uint32_t& value) {
  if (!interpret_flow(body, tid, value, FlowReturn::EndsBody)) return false;
  if (form == FlowCall::NestedInALoop || form == FlowCall::InterfaceCallInALoop)
    value += kNestedAdd;
  return true;
}

// flow_hull_program() whose second fork phase (two instances, inlined in the patch-constant
// function or a function of its own) calls `body` as subroutine l0.
inline std::vector<std::uint32_t> flow_hull_call_program(const FlowBody& body) {
  std::vector<std::uint32_t> words = flow_hull_program(FlowBody().call(0));
  ProgramBuilder tail(ProgramType::Hull, 5, 0); // only its instructions are kept
  tail.inst(Opcode::Label, {operand_token(OperandType::Label, kComp0, 0, 1), 0});
  tail.raw(body.tokens());
  tail.inst(Opcode::Ret, {});
  const std::vector<std::uint32_t> t = tail.finish();
  words.insert(words.end(), t.begin() + 2, t.end());
  words[1] = std::uint32_t(words.size());
  return words;
}

} // namespace kiln::dxbc::test
