#pragma once
// Hand-assembled DXBC programs (tests/translator/dxbc/token_builder.h) for the interface tests: small
// enough to check every binding, with a result the test can compute on the CPU.

#include "tests/translator/dxbc/token_builder.h"

#include <cstdint>
#include <vector>

namespace kiln::test {

using dxbc::Opcode;
using dxbc::ProgramType;
using dxbc::test::ProgramBuilder;
using OT = dxbc::OperandType;
using namespace dxbc::test;

constexpr std::uint32_t kThreads = 64; // one group

inline std::uint32_t reg(OT type, std::uint32_t selection) {
  return operand_token(type, kComp4, selection, 1);
}
inline std::uint32_t imm() {
  return operand_token(OT::Immediate32, kComp1, 0, 0);
}

// cs_5_0, 64 threads, thread i:
//   value = t2[i] (raw SRV) + cb0[0].x
//   u3[i] = value (raw UAV), u3[64] += 1 (atomic)
//   slot = u1.IncrementCounter(); u1[slot] = value (structured UAV, stride 4, with counter)
inline std::vector<std::uint8_t> interface_compute_program() {
  const std::uint32_t thread_x = operand_token(OT::InputThreadId, kComp4, select1(0), 0);
  ProgramBuilder p(ProgramType::Compute, 5, 0);
  p.inst(Opcode::DclConstantBuffer,
         {operand_token(OT::ConstantBuffer, kComp4, swizzle(0, 1, 2, 3), 2), 0, 1});
  p.inst(Opcode::DclResourceRaw, {operand_token(OT::Resource, kComp0, 0, 1), 2});
  p.inst(Opcode::DclUavStructured, {operand_token(OT::Uav, kComp0, 0, 1), 1, 4}, 1u << 23);
  p.inst(Opcode::DclUavRaw, {operand_token(OT::Uav, kComp0, 0, 1), 3});
  p.inst(Opcode::DclInput, {operand_token(OT::InputThreadId, kComp4, mask(1), 0)});
  p.inst(Opcode::DclTemps, {2});
  p.inst(Opcode::DclThreadGroup, {kThreads, 1, 1});
  // ishl r0.x, vThreadID.x, l(2)
  p.inst(Opcode::IShl, {reg(OT::Temp, mask(1)), 0, thread_x, imm(), 2});
  // ld_raw r1.x, r0.x, t2.xxxx
  p.inst(Opcode::LdRaw, {reg(OT::Temp, mask(1)), 1, reg(OT::Temp, select1(0)), 0,
                         reg(OT::Resource, swizzle(0, 0, 0, 0)), 2});
  // iadd r1.x, r1.x, cb0[0].x
  p.inst(Opcode::IAdd, {reg(OT::Temp, mask(1)), 1, reg(OT::Temp, select1(0)), 1,
                        operand_token(OT::ConstantBuffer, kComp4, select1(0), 2), 0, 0});
  // store_raw u3.x, r0.x, r1.x
  p.inst(Opcode::StoreRaw,
         {reg(OT::Uav, mask(1)), 3, reg(OT::Temp, select1(0)), 0, reg(OT::Temp, select1(0)), 1});
  // atomic_iadd u3, l(256), l(1)
  p.inst(Opcode::AtomicIAdd, {reg(OT::Uav, mask(0xf)), 3, imm(), kThreads * 4, imm(), 1});
  // imm_atomic_alloc r0.y, u1
  p.inst(Opcode::ImmAtomicAlloc, {reg(OT::Temp, mask(2)), 0, reg(OT::Uav, mask(0xf)), 1});
  // store_structured u1.x, r0.y, l(0), r1.x
  p.inst(Opcode::StoreStructured, {reg(OT::Uav, mask(1)), 1, reg(OT::Temp, select1(1)), 0, imm(), 0,
                                   reg(OT::Temp, select1(0)), 1});
  p.inst(Opcode::Ret, {});
  return shader_container(p.finish());
}

} // namespace kiln::test
