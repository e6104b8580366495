#pragma once
// A hand-assembled cs_5_0 with D3D11 class linkage (tests/dxbc/token_builder.h), shared by the
// converter tests and the execution test. Its HLSL would be:
//
//   interface IOp { uint site0(uint x); uint site1(uint x); };
//   class AddK : IOp { uint k; ... }   // ft0: site 0 fb0, site 1 fb2: x + this's cb vector .x
//   class Scale : IOp { ... }          // ft1: site 0 fb1: x * 3 (and a retc skipping + 5000),
//                                      //      site 1 fb3: x * 2
//   IOp single;    // fp0[1]    slot 0
//   IOp pair[2];   // fp1[2]    slots 1, 2 (dynamically indexed)
//   cbuffer cb0 : register(b0) { uint4 a[2]; }  cbuffer cb1 : register(b1) { uint4 b; }
//   [numthreads(4, 1, 1)] void main(uint t : SV_DispatchThreadID) {
//     uint x = single.site0(t);
//     x = pair[t & 1].site1(x);
//     u0.Store(t * 4, x);
//   }
//
// AddK reads cb[this.x][this.y].x: the constant buffer and vector its instance names.

#include "tests/dxbc/token_builder.h"

#include <cstdint>
#include <vector>

namespace kiln::dxbc::test {

constexpr std::uint32_t kLinkageThreads = 4;
constexpr std::uint32_t kLinkageSlots = 3;
constexpr std::uint32_t kLinkageSkipped = 5000; // added after fb1's retc: never

inline std::vector<std::uint32_t> linkage_compute_program() {
  using OT = OperandType;
  const auto reg = [](OT type, std::uint32_t selection) {
    return operand_token(type, kComp4, selection, 1);
  };
  const std::uint32_t imm = operand_token(OT::Immediate32, kComp1, 0, 0);
  const std::uint32_t thread_x = operand_token(OT::InputThreadId, kComp4, select1(0), 0);
  const std::uint32_t r0x_dst = reg(OT::Temp, mask(1)), r0x = reg(OT::Temp, select1(0));
  // cb[r1.x + 0][r1.y + 0].x
  const std::uint32_t cb_by_r1 = operand_token(OT::ConstantBuffer, kComp4, select1(0), 2, 3, 3);
  const std::uint32_t fb = operand_token(OT::FunctionBody, kComp0, 0, 1); // label fb#
  ProgramBuilder p(ProgramType::Compute, 5, 0);
  p.inst(Opcode::DclConstantBuffer,
         {operand_token(OT::ConstantBuffer, kComp4, swizzle(0, 1, 2, 3), 2), 0, 2}, 1u << 11);
  p.inst(Opcode::DclConstantBuffer,
         {operand_token(OT::ConstantBuffer, kComp4, swizzle(0, 1, 2, 3), 2), 1, 1});
  for (std::uint32_t n = 0; n < 4; ++n) p.inst(Opcode::DclFunctionBody, {n});
  p.inst(Opcode::DclFunctionTable, {0, 2, 0, 2});                     // ft0 = {fb0, fb2}
  p.inst(Opcode::DclFunctionTable, {1, 2, 1, 3});                     // ft1 = {fb1, fb3}
  p.inst(Opcode::DclInterface, {0, 2, 1u << 16 | 2, 0, 1});           // fp0[1][2] = {ft0, ft1}
  p.inst(Opcode::DclInterface, {1, 2, 2u << 16 | 2, 0, 1}, 1u << 11); // fp1[2][2], dynamic
  p.inst(Opcode::DclUavRaw, {operand_token(OT::Uav, kComp0, 0, 1), 0});
  p.inst(Opcode::DclInput, {operand_token(OT::InputThreadId, kComp4, mask(1), 0)});
  p.inst(Opcode::DclTemps, {4});
  p.inst(Opcode::DclThreadGroup, {kLinkageThreads, 1, 1});
  // mov r0.x, vThreadID.x
  p.inst(Opcode::Mov, {r0x_dst, 0, thread_x});
  // fcall fp0[0][0]
  p.inst(Opcode::InterfaceCall, {0, operand_token(OT::Interface, kComp0, 0, 2), 0, 0});
  // and r2.x, vThreadID.x, l(1)
  p.inst(Opcode::And, {reg(OT::Temp, mask(1)), 2, thread_x, imm, 1});
  // fcall fp1[r2.x + 0][1]
  p.inst(Opcode::InterfaceCall,
         {1, operand_token(OT::Interface, kComp0, 0, 2, 0, 3), 1, 0, reg(OT::Temp, select1(0)), 2});
  // ishl r1.x, vThreadID.x, l(2); store_raw u0.x, r1.x, r0.x; ret
  p.inst(Opcode::IShl, {reg(OT::Temp, mask(1)), 1, thread_x, imm, 2});
  p.inst(Opcode::StoreRaw, {reg(OT::Uav, mask(1)), 0, reg(OT::Temp, select1(0)), 1, r0x, 0});
  p.inst(Opcode::Ret, {});

  // fb0 (AddK, site 0, slot 0): mov r1.xy, this[0].xy; iadd r0.x, r0.x, cb[r1.x][r1.y].x
  p.inst(Opcode::Label, {fb, 0});
  p.inst(Opcode::Mov, {reg(OT::Temp, mask(3)), 1,
                       operand_token(OT::ThisPointer, kComp4, swizzle(0, 1, 1, 1), 1), 0});
  p.inst(Opcode::IAdd, {r0x_dst, 0, r0x, 0, cb_by_r1, 0, reg(OT::Temp, select1(0)), 1, 0,
                        reg(OT::Temp, select1(1)), 1});
  p.inst(Opcode::Ret, {});
  // fb1 (Scale, site 0): imul null, r0.x, r0.x, l(3); ult r3.x, r0.x, l(1000);
  // retc_nz r3.x; iadd r0.x, r0.x, l(5000); ret
  p.inst(Opcode::Label, {fb, 1});
  p.inst(Opcode::IMul, {operand_token(OT::Null, kComp0, 0, 0), r0x_dst, 0, r0x, 0, imm, 3});
  p.inst(Opcode::ULt, {reg(OT::Temp, mask(1)), 3, r0x, 0, imm, 1000});
  p.inst(Opcode::Retc, {reg(OT::Temp, select1(0)), 3}, 1u << 18);
  p.inst(Opcode::IAdd, {r0x_dst, 0, r0x, 0, imm, kLinkageSkipped});
  p.inst(Opcode::Ret, {});
  // fb2 (AddK, site 1, slot 1 + r2.x): mov r1.xy, this[r2.x + 1].xy; iadd as fb0
  p.inst(Opcode::Label, {fb, 2});
  p.inst(Opcode::Mov, {reg(OT::Temp, mask(3)), 1,
                       operand_token(OT::ThisPointer, kComp4, swizzle(0, 1, 1, 1), 1, 3), 1,
                       reg(OT::Temp, select1(0)), 2});
  p.inst(Opcode::IAdd, {r0x_dst, 0, r0x, 0, cb_by_r1, 0, reg(OT::Temp, select1(0)), 1, 0,
                        reg(OT::Temp, select1(1)), 1});
  p.inst(Opcode::Ret, {});
  // fb3 (Scale, site 1): ishl r0.x, r0.x, l(1); ret
  p.inst(Opcode::Label, {fb, 3});
  p.inst(Opcode::IShl, {r0x_dst, 0, r0x, 0, imm, 1});
  p.inst(Opcode::Ret, {});
  return p.finish();
}

// The selection buffer's words for per-slot (function table, this.x = cb, this.y = vector):
// docs/abi.md "Class linkage" (two uint4 per slot: this data, then the table in .x).
struct LinkageInstance {
  std::uint32_t table, cb, vector;
};
inline std::vector<std::uint32_t> linkage_selection(const std::vector<LinkageInstance>& slots) {
  std::vector<std::uint32_t> words;
  for (const LinkageInstance& s : slots)
    for (std::uint32_t w : {s.cb, s.vector, 0u, 0u, s.table, 0u, 0u, 0u}) words.push_back(w);
  return words;
}

// What thread t stores under `slots` with cb0 = {{10}, {20}} and cb1 = {{300}} (the HLSL
// semantics: each call runs the body of the table its slot's instance selects).
inline std::uint32_t linkage_expected(const std::vector<LinkageInstance>& slots, std::uint32_t t) {
  const std::uint32_t cb[2][2] = {{10, 20}, {300, 0}};
  const auto add_k = [&](const LinkageInstance& s) { return cb[s.cb][s.vector]; };
  std::uint32_t x = t;
  x = slots[0].table == 0 ? x + add_k(slots[0]) : x * 3; // x * 3 < 1000: the retc returns
  const LinkageInstance& second = slots[1 + (t & 1)];
  return second.table == 0 ? x + add_k(second) : x * 2;
}

} // namespace kiln::dxbc::test
