#pragma once
// A hand-assembled cs_5_0 with D3D11 class linkage (tests/translator/dxbc/token_builder.h), shared by the
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

#include "tests/translator/dxbc/token_builder.h"

#include <array>
#include <cstdint>
#include <cstring>
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

// A cs_5_0 (one thread) whose class instance chooses its texture and sampler: `this` holds
// the first texture and sampler registers (.z, .w), and the function body indexes t# and s#
// with them, as fxc does for a class's Texture2D and SamplerState members:
//
//   label fb0
//   mov r1.xy, this[0].zwzz
//   sample_l_indexable(texture2d)(float,float,float,float) r0.x, l(1.25, 0.25, 0, 0),
//       t[r1.x + 1].xyzw, s[r1.y + 0], l(0)
//   ld_indexable(texture2d)(float,float,float,float) r0.y, l(0, 0, 0, 0), t[r1.x + 0].xxxx
//   store_raw u[r1.x + 1].x, l(0), this[0].x
//   ret
//
// The main program calls it (fcall fp0[0][0], fp0 = {ft0}, ft0 = {fb0}) and stores
// ftou(r0.xy) to u0[0..1]. Declared: s0, s1; t0, t1, t2 texture2d (float) and t3 a typed
// buffer, which a texture2d instruction cannot name; u0, u1, u2 raw. `with_dimension_tokens`
// false: the same without the instructions' resource-dimension tokens (plain sample_l / ld).
constexpr std::uint32_t kChosenTextures = 3; // t0..t2 are the texture2d candidates
constexpr std::uint32_t kChosenUavs = 3;     // u0..u2 (raw) are the store's candidates

inline std::vector<std::uint32_t> linkage_texture_program(bool with_dimension_tokens = true) {
  using OT = OperandType;
  const std::uint32_t imm1 = operand_token(OT::Immediate32, kComp1, 0, 0);
  const std::uint32_t imm4 = operand_token(OT::Immediate32, kComp4, 0, 0);
  const std::uint32_t r1x = operand_token(OT::Temp, kComp4, select1(0), 1);
  const std::uint32_t r1y = operand_token(OT::Temp, kComp4, select1(1), 1);
  const auto dst = [](std::uint32_t m) { return operand_token(OT::Temp, kComp4, mask(m), 1); };
  const auto f = [](float v) {
    std::uint32_t u;
    std::memcpy(&u, &v, 4);
    return u;
  };
  // The resource-dimension token (texture2d) and return-type token (float) fxc writes.
  const std::uint32_t extended = with_dimension_tokens ? 1u << 31 : 0u;
  const std::uint32_t dim_token = 1u << 31 | 3u << 6 | 2u;
  const std::uint32_t return_token = 0x5555u << 6 | 3u;
  const std::uint32_t texture2d = 3u << 11, buffer = 1u << 11, float4 = 0x5555u;
  ProgramBuilder p(ProgramType::Compute, 5, 0);
  p.inst(Opcode::DclFunctionBody, {0});
  p.inst(Opcode::DclFunctionTable, {0, 1, 0});
  p.inst(Opcode::DclInterface, {0, 1, 1u << 16 | 1, 0});
  for (std::uint32_t s = 0; s < 2; ++s)
    p.inst(Opcode::DclSampler, {operand_token(OT::Sampler, kComp0, 0, 1), s});
  for (std::uint32_t t = 0; t < kChosenTextures; ++t)
    p.inst(Opcode::DclResource, {operand_token(OT::Resource, kComp0, 0, 1), t, float4}, texture2d);
  p.inst(Opcode::DclResource, {operand_token(OT::Resource, kComp0, 0, 1), 3, float4}, buffer);
  for (std::uint32_t u = 0; u < kChosenUavs; ++u)
    p.inst(Opcode::DclUavRaw, {operand_token(OT::Uav, kComp0, 0, 1), u});
  p.inst(Opcode::DclTemps, {2});
  p.inst(Opcode::DclThreadGroup, {1, 1, 1});
  p.inst(Opcode::InterfaceCall, {0, operand_token(OT::Interface, kComp0, 0, 2), 0, 0});
  p.inst(Opcode::Ftou, {dst(3), 0, operand_token(OT::Temp, kComp4, swizzle(0, 1, 0, 0), 1), 0});
  p.inst(Opcode::StoreRaw, {operand_token(OT::Uav, kComp4, mask(3), 1), 0, imm1, 0,
                            operand_token(OT::Temp, kComp4, swizzle(0, 1, 0, 0), 1), 0});
  p.inst(Opcode::Ret, {});
  p.inst(Opcode::Label, {operand_token(OT::FunctionBody, kComp0, 0, 1), 0});
  p.inst(Opcode::Mov,
         {dst(3), 1, operand_token(OT::ThisPointer, kComp4, swizzle(2, 3, 2, 2), 1), 0});
  // t[r1.x + 1], s[r1.y + 0]: an immediate plus a relative register (representation 3).
  const std::uint32_t texture = operand_token(OT::Resource, kComp4, swizzle(0, 1, 2, 3), 1, 3);
  const std::uint32_t sampler = operand_token(OT::Sampler, kComp0, 0, 1, 3);
  if (with_dimension_tokens)
    p.inst(Opcode::SampleL,
           {dim_token, return_token, dst(1), 0, imm4, f(1.25f), f(0.25f), 0, 0, texture, 1, r1x, 1,
            sampler, 0, r1y, 1, imm1, f(0.0f)},
           extended);
  else
    p.inst(Opcode::SampleL, {dst(1), 0, imm4, f(1.25f), f(0.25f), 0, 0, texture, 1, r1x, 1, sampler,
                             0, r1y, 1, imm1, f(0.0f)});
  const std::uint32_t texture_x = operand_token(OT::Resource, kComp4, swizzle(0, 0, 0, 0), 1, 3);
  if (with_dimension_tokens)
    p.inst(Opcode::Ld, {dim_token, return_token, dst(2), 0, imm4, 0, 0, 0, 0, texture_x, 0, r1x, 1},
           extended);
  else
    p.inst(Opcode::Ld, {dst(2), 0, imm4, 0, 0, 0, 0, texture_x, 0, r1x, 1});
  p.inst(Opcode::StoreRaw, {operand_token(OT::Uav, kComp4, mask(1), 1, 3), 1, r1x, 1, imm1, 0,
                            operand_token(OT::ThisPointer, kComp4, select1(0), 1), 0});
  p.inst(Opcode::Ret, {});
  return p.finish();
}

// What linkage_texture_program() stores, {sample_l, ld}, for `this` = (.., .., texture,
// sampler), with s0 point/clamp, s1 point/wrap and t0, t1, t2 2x2 r32-float textures whose
// texels are, row by row, k, 2k, 3k, 4k for k = 1, 10, 100 (t3 a buffer): sample_l at
// (1.25, 0.25) reads the texel at x = 1 clamped or x = 0 wrapped, row 0; ld reads (0, 0). A
// register that names no declared texture2d reads zeros. (The store goes to u[texture + 1]
// when that is u1 or u2; a register past them drops it.)
inline std::array<std::uint32_t, 2> linkage_texture_expected(std::uint32_t texture,
                                                             std::uint32_t sampler) {
  const auto texel = [](std::uint32_t t, std::uint32_t x) -> std::uint32_t {
    if (t >= kChosenTextures) return 0;
    const std::uint32_t k = t == 0 ? 1 : t == 1 ? 10 : 100;
    return k * (x + 1);
  };
  const bool wrap = sampler == 1;
  const std::uint32_t sampled = sampler < 2 ? texel(texture + 1, wrap ? 0 : 1) : 0;
  return {sampled, texel(texture, 0)};
}

} // namespace kiln::dxbc::test
