// The resource half of the DXBC -> IR converter: hand-assembled programs (token_builder.h) go
// through dxbc::Converter, the IR must validate, and the resource ops must come out as
// convert_resources.h describes. Bad resource usage must be a one-line rejection.

#include "tests/translator/dxbc/token_builder.h"
#include "translator/dxbc/convert_resources.h" // kStatusMapped
#include "translator/dxbc/converter.h"
#include "translator/ir/ir.h"
#include "translator/ir/ir_text.h"
#include "translator/ir/ir_validate.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace kiln::dxbc {
namespace {

using namespace test;
using ir::OpCode;
using OT = OperandType;

// ---- token helpers ----------------------------------------------------------------------------

std::uint32_t reg1(OT type, std::uint32_t selection, std::uint32_t comps = kComp4) {
  return operand_token(type, comps, selection, 1);
}
constexpr std::uint32_t kXyzw = 0xf;
std::uint32_t swz(std::uint32_t x, std::uint32_t y, std::uint32_t z, std::uint32_t w) {
  return swizzle(x, y, z, w);
}
std::uint32_t imm1() {
  return operand_token(OT::Immediate32, kComp1, 0, 0);
}
// A declaration operand (no components) with one index.
std::uint32_t decl_reg(OT type) {
  return operand_token(type, kComp0, 0, 1);
}
// Return-type token: the same type for all four components.
constexpr std::uint32_t returns(ReturnType t) {
  return std::uint32_t(t) * 0x1111u;
}
constexpr std::uint32_t dim_bits(ResourceDimension d) {
  return std::uint32_t(d) << 11;
}

ProgramBuilder compute(std::uint32_t minor = 0) {
  ProgramBuilder p(ProgramType::Compute, 5, minor);
  p.inst(Opcode::DclTemps, {4});
  p.inst(Opcode::DclThreadGroup, {8, 8, 1});
  return p;
}
ProgramBuilder pixel() {
  ProgramBuilder p(ProgramType::Pixel, 5, 0);
  p.inst(Opcode::DclTemps, {4});
  return p;
}

// ---- conversion and IR queries --------------------------------------------------------------

struct Result {
  ir::Builder b;
  Status status;
  std::vector<ir::OpView> of(OpCode code) {
    std::vector<ir::OpView> out;
    for (ir::OpView op : b.ops())
      if (op.code() == code) out.push_back(op);
    return out;
  }
  std::size_t count(OpCode code) { return of(code).size(); }
  ir::OpView def(ir::SsaDef d) { return b.op(d); }
  std::string text() { return ir::print(b); }
};

void convert(const std::vector<std::uint32_t>& words, Result& r,
             const ConvertOptions& options = {}) {
  const auto bytes = shader_container(words);
  Converter converter;
  r.b.reset();
  r.status = converter.convert(bytes, options, r.b);
  if (r.status) r.status = ir::validate(r.b);
}

#define CONVERT_OK(words, r)                                                                       \
  do {                                                                                             \
    convert(words, r);                                                                             \
    ASSERT_TRUE(r.status) << r.status.message() << "\n" << r.text();                               \
  } while (0)

// Converts `words`, expects a rejection whose one-line message contains `what`.
void expect_rejected(const std::vector<std::uint32_t>& words, const std::string& what) {
  Result r;
  convert(words, r);
  ASSERT_FALSE(r.status) << "expected a rejection naming: " << what;
  EXPECT_NE(r.status.message().find(what), std::string::npos) << r.status.message();
  EXPECT_EQ(r.status.message().find('\n'), std::string::npos) << r.status.message();
}

std::uint32_t literal(ir::OpView op, unsigned i) {
  return op.operand(i).literal_u32();
}

// ---- declarations -------------------------------------------------------------------------

TEST(DxbcResources, DeclarationsOfEveryClass) {
  auto w = compute()
               .inst(Opcode::DclResource, {decl_reg(OT::Resource), 3, returns(ReturnType::SInt)},
                     dim_bits(ResourceDimension::Texture2DArray))
               .inst(Opcode::DclResourceRaw, {decl_reg(OT::Resource), 4})
               .inst(Opcode::DclResourceStructured, {decl_reg(OT::Resource), 5, 16})
               .inst(Opcode::DclUavTyped, {decl_reg(OT::Uav), 1, returns(ReturnType::Unorm)},
                     dim_bits(ResourceDimension::Texture3D) | 1u << 16)
               .inst(Opcode::DclUavStructured, {decl_reg(OT::Uav), 2, 8}, 1u << 23)
               .inst(Opcode::DclSampler, {decl_reg(OT::Sampler), 2}, 1u << 11)
               .inst(Opcode::DclTgsmRaw, {decl_reg(OT::ThreadGroupSharedMemory), 0, 64})
               .inst(Opcode::DclTgsmStructured, {decl_reg(OT::ThreadGroupSharedMemory), 1, 12, 10})
               .inst(Opcode::Ret, {})
               .finish();
  Result r;
  CONVERT_OK(w, r);
  auto srvs = r.of(OpCode::DclSrv);
  ASSERT_EQ(srvs.size(), 3u);
  // (type, entry, space, register, count, kind)
  EXPECT_EQ(srvs[0].type(), ir::kI32);
  EXPECT_EQ(literal(srvs[0], 2), 3u);
  EXPECT_EQ(literal(srvs[0], 3), 1u);
  EXPECT_EQ(srvs[0].operand(4).literal_enum<ir::ResourceKind>(), ir::ResourceKind::Image2DArray);
  EXPECT_EQ(srvs[1].type(), r.b.types().make_array(ir::kU32, 0));
  EXPECT_EQ(srvs[1].operand(4).literal_enum<ir::ResourceKind>(), ir::ResourceKind::RawBuffer);
  EXPECT_EQ(srvs[2].type(), r.b.types().make_array(r.b.types().make_array(ir::kU32, 4), 0));
  auto uavs = r.of(OpCode::DclUav);
  ASSERT_EQ(uavs.size(), 2u);
  EXPECT_EQ(uavs[0].type(), ir::kF32);
  EXPECT_EQ(uavs[0].operand(4).literal_enum<ir::ResourceKind>(), ir::ResourceKind::Image3D);
  EXPECT_EQ(uavs[0].operand(5).literal_enum<ir::UavFlags>(), ir::UavFlags::Coherent);
  auto counters = r.of(OpCode::DclUavCounter);
  ASSERT_EQ(counters.size(), 1u);
  EXPECT_EQ(counters[0].operand(1).def(), uavs[1].def());
  ASSERT_EQ(r.count(OpCode::DclSampler), 1u);
  EXPECT_EQ(literal(r.of(OpCode::DclSampler)[0], 2), 2u);
  auto lds = r.of(OpCode::DclLds);
  ASSERT_EQ(lds.size(), 2u);
  EXPECT_EQ(lds[0].type(), r.b.types().make_array(ir::kU32, 16));
  EXPECT_EQ(lds[1].type(), r.b.types().make_array(r.b.types().make_array(ir::kU32, 3), 10));
}

TEST(DxbcResources, Sm51RangesBecomeDescriptorArraysIndexedFromTheLowerBound) {
  // dcl_resource_structured T1[4:*], 4, space=2 ; ld_structured r0.x, l(0), l(0), T1[r1.x + 5]
  // {nonuniform}
  const std::uint32_t range = operand_token(OT::Resource, kComp0, 0, 3);
  const std::uint32_t rel_index =
      operand_token(OT::Resource, kComp4, swz(0, 0, 0, 0), 2, 0,
                    std::uint32_t(IndexRepresentation::Immediate32PlusRelative), 0, true);
  auto w =
      compute(1)
          .inst(Opcode::DclResourceStructured, {range, 1, 4, 0xffffffffu, 4, 2})
          .inst(Opcode::LdStructured, {reg1(OT::Temp, mask(1)), 0, imm1(), 0, imm1(), 0, rel_index,
                                       1u | 1u << 17, 1, 5, reg1(OT::Temp, select1(0)), 1})
          .inst(Opcode::Ret, {})
          .finish();
  Result r;
  CONVERT_OK(w, r);
  auto srv = r.of(OpCode::DclSrv);
  ASSERT_EQ(srv.size(), 1u);
  EXPECT_EQ(literal(srv[0], 1), 2u); // space
  EXPECT_EQ(literal(srv[0], 2), 4u); // lower bound
  EXPECT_EQ(literal(srv[0], 3), 0u); // unbounded
  auto loads = r.of(OpCode::DescriptorLoad);
  ASSERT_EQ(loads.size(), 1u);
  EXPECT_TRUE(ir::has(loads[0].flags(), ir::OpFlags::NonUniform));
  // index = (r1.x + 5) - 4
  ir::OpView index = r.def(loads[0].operand(1).def());
  ASSERT_EQ(index.code(), OpCode::ISub) << r.text();
  ir::OpView lower = r.def(index.operand(1).def());
  ASSERT_EQ(lower.code(), OpCode::Constant);
  EXPECT_EQ(literal(lower, 0), 4u);
  auto buffer_loads = r.of(OpCode::BufferLoad);
  ASSERT_EQ(buffer_loads.size(), 1u);
  EXPECT_EQ(buffer_loads[0].type(), ir::kU32);
}

TEST(DxbcResources, ImmediateRegisterOutsideItsRangeIsRejected) {
  const std::uint32_t range = operand_token(OT::Resource, kComp0, 0, 3);
  auto w = compute(1)
               .inst(Opcode::DclResourceRaw, {range, 0, 2, 3, 0})
               .inst(Opcode::LdRaw, {reg1(OT::Temp, mask(1)), 0, imm1(), 0,
                                     operand_token(OT::Resource, kComp4, swz(0, 1, 2, 3), 2), 0, 7})
               .inst(Opcode::Ret, {})
               .finish();
  expect_rejected(w, "outside the declared range");
}

// ---- sampling -----------------------------------------------------------------------------

TEST(DxbcResources, SampleWithOffsetsAndTheResourceSwizzle) {
  // sample_aoffimmi(1,-2,0) r0.xyzw, r1.xyxx, t0.wzyx, s0
  auto w =
      pixel()
          .inst(Opcode::DclSampler, {decl_reg(OT::Sampler), 0})
          .inst(Opcode::DclResource, {decl_reg(OT::Resource), 0, returns(ReturnType::Float)},
                dim_bits(ResourceDimension::Texture2D))
          .raw({std::uint32_t(Opcode::Sample) | 1u << 31 | 10u << 24, 1u | (1u << 9) | (14u << 13),
                reg1(OT::Temp, mask(kXyzw)), 0, reg1(OT::Temp, swz(0, 1, 0, 0)), 1,
                reg1(OT::Resource, swz(3, 2, 1, 0)), 0, decl_reg(OT::Sampler), 0})
          .end_stretch()
          .inst(Opcode::Ret, {})
          .finish();
  Result r;
  CONVERT_OK(w, r);
  auto samples = r.of(OpCode::ImageSample);
  ASSERT_EQ(samples.size(), 1u);
  ir::OpView s = samples[0];
  EXPECT_EQ(s.type(), ir::vec(ir::ScalarType::F32, 4));
  EXPECT_EQ(r.def(s.operand(0).def()).code(), OpCode::DescriptorLoad);
  EXPECT_EQ(r.def(s.operand(1).def()).type(), ir::kVoid); // the sampler descriptor
  EXPECT_FALSE(s.operand(2).def());                       // no layer
  EXPECT_EQ(r.def(s.operand(3).def()).type(), ir::vec(ir::ScalarType::F32, 2));
  ir::OpView offset = r.def(s.operand(4).def());
  ASSERT_EQ(offset.code(), OpCode::Constant);
  EXPECT_EQ(offset.type(), ir::vec(ir::ScalarType::I32, 2));
  EXPECT_EQ(offset.operand(0).literal_i32(), 1);
  EXPECT_EQ(offset.operand(1).literal_i32(), -2);
  for (unsigned i = 5; i < 11; ++i) EXPECT_FALSE(s.operand(i).def()) << i;
  // r0.x takes component w of the texel (t0.wzyx).
  auto stores = r.of(OpCode::TmpStore);
  ASSERT_EQ(stores.size(), 4u);
  ir::OpView x = r.def(stores[0].operand(1).def());
  ASSERT_EQ(x.code(), OpCode::CompositeExtract) << r.text();
  EXPECT_EQ(literal(r.def(x.operand(1).def()), 0), 3u);
}

TEST(DxbcResources, SampleCompareLevelZeroReturnsAReplicatedScalar) {
  // sample_c_lz r0.xy, r1.xyzx, t0.xxxx, s1, r1.w   (texture2darray, comparison sampler)
  auto w =
      pixel()
          .inst(Opcode::DclSampler, {decl_reg(OT::Sampler), 1}, 1u << 11)
          .inst(Opcode::DclResource, {decl_reg(OT::Resource), 0, returns(ReturnType::Float)},
                dim_bits(ResourceDimension::Texture2DArray))
          .inst(Opcode::SampleCLz, {reg1(OT::Temp, mask(3)), 0, reg1(OT::Temp, swz(0, 1, 2, 0)), 1,
                                    reg1(OT::Resource, swz(0, 0, 0, 0)), 0, decl_reg(OT::Sampler),
                                    1, reg1(OT::Temp, select1(3)), 1})
          .end_stretch()
          .inst(Opcode::Ret, {})
          .finish();
  Result r;
  CONVERT_OK(w, r);
  auto samples = r.of(OpCode::ImageSample);
  ASSERT_EQ(samples.size(), 1u);
  ir::OpView s = samples[0];
  EXPECT_EQ(s.type(), ir::kF32);
  EXPECT_TRUE(s.operand(2).def()); // layer from .z
  ir::OpView lod = r.def(s.operand(5).def());
  ASSERT_EQ(lod.code(), OpCode::Constant);
  EXPECT_EQ(lod.operand(0).literal_f32(), 0.0f);
  EXPECT_TRUE(s.operand(10).def()); // depth reference
  auto stores = r.of(OpCode::TmpStore);
  ASSERT_EQ(stores.size(), 2u);
  EXPECT_EQ(stores[0].operand(1).def(), s.def());
  EXPECT_EQ(stores[1].operand(1).def(), s.def());
}

TEST(DxbcResources, GatherTakesItsComponentFromTheSamplerAndCompareGathersRed) {
  auto w = pixel()
               .inst(Opcode::DclSampler, {decl_reg(OT::Sampler), 0})
               .inst(Opcode::DclResource, {decl_reg(OT::Resource), 0, returns(ReturnType::Float)},
                     dim_bits(ResourceDimension::Texture2D))
               // gather4 r0, r1.xyxx, t0.xyzw, s0.z
               .inst(Opcode::Gather4,
                     {reg1(OT::Temp, mask(kXyzw)), 0, reg1(OT::Temp, swz(0, 1, 0, 0)), 1,
                      reg1(OT::Resource, swz(0, 1, 2, 3)), 0, reg1(OT::Sampler, select1(2)), 0})
               // gather4_po_c r0, r1.xyxx, r2.xyxx, t0.xyzw, s0.x, r1.z
               .inst(Opcode::Gather4PoC,
                     {reg1(OT::Temp, mask(kXyzw)), 0, reg1(OT::Temp, swz(0, 1, 0, 0)), 1,
                      reg1(OT::Temp, swz(0, 1, 0, 0)), 2, reg1(OT::Resource, swz(0, 1, 2, 3)), 0,
                      reg1(OT::Sampler, select1(0)), 0, reg1(OT::Temp, select1(2)), 1})
               .inst(Opcode::Ret, {})
               .finish();
  Result r;
  CONVERT_OK(w, r);
  auto gathers = r.of(OpCode::ImageGather);
  ASSERT_EQ(gathers.size(), 2u);
  EXPECT_EQ(literal(gathers[0], 6), 2u);
  EXPECT_FALSE(gathers[0].operand(5).def());
  EXPECT_EQ(literal(gathers[1], 6), 0u);
  EXPECT_TRUE(gathers[1].operand(5).def()); // depth reference
  ir::OpView offset = r.def(gathers[1].operand(4).def());
  EXPECT_EQ(offset.type(), ir::vec(ir::ScalarType::I32, 2)); // programmable offset
  EXPECT_EQ(r.count(OpCode::SBitExtract), 2u);               // its low 6 bits
}

TEST(DxbcResources, SparseFeedbackSamplesReturnAStructAndFeedTheSecondDestination) {
  // sample_l_s r0.xyzw, r3.x, r1.xyxx, t0.xyzw, s0, l(0) ; check_access_fully_mapped r2.x, r3.x
  auto w = pixel()
               .inst(Opcode::DclSampler, {decl_reg(OT::Sampler), 0})
               .inst(Opcode::DclResource, {decl_reg(OT::Resource), 0, returns(ReturnType::Float)},
                     dim_bits(ResourceDimension::Texture2D))
               .inst(Opcode::SampleLS,
                     {reg1(OT::Temp, mask(kXyzw)), 0, reg1(OT::Temp, mask(1)), 3,
                      reg1(OT::Temp, swz(0, 1, 0, 0)), 1, reg1(OT::Resource, swz(0, 1, 2, 3)), 0,
                      decl_reg(OT::Sampler), 0, imm1(), 0})
               .inst(Opcode::CheckAccessFullyMapped,
                     {reg1(OT::Temp, mask(1)), 2, reg1(OT::Temp, select1(0)), 3})
               .inst(Opcode::Ret, {})
               .finish();
  Result r;
  CONVERT_OK(w, r);
  auto samples = r.of(OpCode::ImageSample);
  ASSERT_EQ(samples.size(), 1u);
  EXPECT_TRUE(ir::has(samples[0].flags(), ir::OpFlags::SparseFeedback));
  ir::TypeView t = r.b.types().view(samples[0].type());
  ASSERT_EQ(t.member_count(), 2u);
  EXPECT_EQ(t.member(0), ir::kU32);
  EXPECT_EQ(t.member(1), ir::vec(ir::ScalarType::F32, 4));
  EXPECT_EQ(r.count(OpCode::CheckSparseAccess), 1u);
}

// Buffers are never partially resident: ld_raw_s, ld_structured_s, ld_s on a typed buffer and
// ld_uav_typed_s on a typed buffer UAV are plain loads, and their status is the "mapped"
// constant that check_access_fully_mapped compares with (no residency query anywhere).
TEST(DxbcResources, SparseFeedbackOnBuffersIsAPlainLoadWithAMappedStatus) {
  auto w = compute()
               .inst(Opcode::DclResourceRaw, {decl_reg(OT::Resource), 0})
               .inst(Opcode::DclResourceStructured, {decl_reg(OT::Resource), 1, 8})
               .inst(Opcode::DclResource, {decl_reg(OT::Resource), 2, returns(ReturnType::UInt)},
                     dim_bits(ResourceDimension::Buffer))
               .inst(Opcode::DclUavTyped, {decl_reg(OT::Uav), 0, returns(ReturnType::UInt)},
                     dim_bits(ResourceDimension::Buffer))
               // ld_raw_s r0.xy, r1.x, l(4), t0.xyxx
               .inst(Opcode::LdRawS, {reg1(OT::Temp, mask(3)), 0, reg1(OT::Temp, mask(1)), 1,
                                      imm1(), 4, reg1(OT::Resource, swz(0, 1, 0, 0)), 0})
               // ld_structured_s r0.z, r1.y, l(1), l(4), t1.xxxx
               .inst(Opcode::LdStructuredS,
                     {reg1(OT::Temp, mask(4)), 0, reg1(OT::Temp, mask(2)), 1, imm1(), 1, imm1(), 4,
                      reg1(OT::Resource, swz(0, 0, 0, 0)), 1})
               // ld_s r2.x, r1.z, l(2, 0, 0, 0), t2.xxxx
               .inst(Opcode::LdS, {reg1(OT::Temp, mask(1)), 2, reg1(OT::Temp, mask(4)), 1,
                                   operand_token(OT::Immediate32, kComp4, 0, 0), 2, 0, 0, 0,
                                   reg1(OT::Resource, swz(0, 0, 0, 0)), 2})
               // ld_uav_typed_s r2.y, r1.w, l(3, 0, 0, 0), u0.xxxx
               .inst(Opcode::LdUavTypedS, {reg1(OT::Temp, mask(2)), 2, reg1(OT::Temp, mask(8)), 1,
                                           operand_token(OT::Immediate32, kComp4, 0, 0), 3, 0, 0, 0,
                                           reg1(OT::Uav, swz(0, 0, 0, 0)), 0})
               // check_access_fully_mapped r3.xyzw, r1.xyzw
               .inst(Opcode::CheckAccessFullyMapped,
                     {reg1(OT::Temp, mask(kXyzw)), 3, reg1(OT::Temp, swz(0, 1, 2, 3)), 1})
               .end_stretch()
               .inst(Opcode::Ret, {})
               .finish();
  Result r;
  CONVERT_OK(w, r);
  EXPECT_EQ(r.count(OpCode::BufferLoad), 5u) << r.text(); // 2 raw dwords, 1 structured, 2 typed
  for (ir::OpView op : r.b.ops())
    EXPECT_FALSE(ir::has(op.flags(), ir::OpFlags::SparseFeedback)) << r.text();
  EXPECT_EQ(r.count(OpCode::CheckSparseAccess), 0u);
  // The four statuses (r1.xyzw) are the mapped constant, which each check compares with.
  unsigned mapped_stores = 0;
  for (ir::OpView store : r.of(OpCode::TmpStore)) {
    ir::OpView value = r.def(store.operand(1).def());
    if (value.code() == OpCode::Constant && value.type() == ir::kU32 &&
        literal(value, 0) == kStatusMapped)
      ++mapped_stores;
  }
  EXPECT_GE(mapped_stores, 4u);
  auto compares = r.of(OpCode::IEq);
  ASSERT_EQ(compares.size(), 4u);
  for (ir::OpView c : compares) EXPECT_EQ(literal(r.def(c.operand(1).def()), 0), kStatusMapped);
}

// ---- fetches and queries ------------------------------------------------------------------

TEST(DxbcResources, LdReadsTheMipFromW_LdMsTheSampleOperand) {
  auto w = pixel()
               .inst(Opcode::DclResource, {decl_reg(OT::Resource), 0, returns(ReturnType::UInt)},
                     dim_bits(ResourceDimension::Texture2D))
               .inst(Opcode::DclResource, {decl_reg(OT::Resource), 1, returns(ReturnType::Float)},
                     dim_bits(ResourceDimension::Texture2DMSArray) | 4u << 16)
               .inst(Opcode::DclResource, {decl_reg(OT::Resource), 2, returns(ReturnType::Float)},
                     dim_bits(ResourceDimension::Buffer))
               .inst(Opcode::Ld, {reg1(OT::Temp, mask(kXyzw)), 0, reg1(OT::Temp, swz(0, 1, 2, 3)),
                                  1, reg1(OT::Resource, swz(0, 1, 2, 3)), 0})
               .inst(Opcode::LdMs, {reg1(OT::Temp, mask(kXyzw)), 0, reg1(OT::Temp, swz(0, 1, 2, 3)),
                                    1, reg1(OT::Resource, swz(0, 1, 2, 3)), 1, imm1(), 3})
               .inst(Opcode::Ld, {reg1(OT::Temp, mask(1)), 2, reg1(OT::Temp, swz(0, 0, 0, 0)), 1,
                                  reg1(OT::Resource, swz(0, 1, 2, 3)), 2})
               .inst(Opcode::Ret, {})
               .finish();
  Result r;
  CONVERT_OK(w, r);
  auto loads = r.of(OpCode::ImageLoad);
  ASSERT_EQ(loads.size(), 2u);
  // (descriptor, mip, layer, coord, sample, offset)
  EXPECT_EQ(loads[0].type(), ir::vec(ir::ScalarType::U32, 4));
  EXPECT_TRUE(loads[0].operand(1).def());
  EXPECT_FALSE(loads[0].operand(2).def());
  EXPECT_FALSE(loads[0].operand(4).def());
  EXPECT_FALSE(loads[1].operand(1).def());
  EXPECT_TRUE(loads[1].operand(2).def());
  ir::OpView sample = r.def(loads[1].operand(4).def());
  ASSERT_EQ(sample.code(), OpCode::Constant);
  EXPECT_EQ(literal(sample, 0), 3u);
  auto buffer = r.of(OpCode::BufferLoad);
  ASSERT_EQ(buffer.size(), 1u);
  EXPECT_EQ(buffer[0].type(), ir::vec(ir::ScalarType::F32, 4));
}

TEST(DxbcResources, ResinfoLaysOutArraySizeAndMipCountAsD3DDoes) {
  // resinfo_uint r0.xyzw, l(0), t0.xyzw  (texture2darray): (w, h, layers, mips)
  auto w =
      pixel()
          .inst(Opcode::DclResource, {decl_reg(OT::Resource), 0, returns(ReturnType::Float)},
                dim_bits(ResourceDimension::Texture2DArray))
          .inst(Opcode::ResInfo,
                {reg1(OT::Temp, mask(kXyzw)), 0, imm1(), 0, reg1(OT::Resource, swz(0, 1, 2, 3)), 0},
                2u << 11)
          .end_stretch()
          .inst(Opcode::Ret, {})
          .finish();
  Result r;
  CONVERT_OK(w, r);
  auto queries = r.of(OpCode::ImageQuerySize);
  ASSERT_EQ(queries.size(), 1u);
  ir::TypeView t = r.b.types().view(queries[0].type());
  ASSERT_EQ(t.member_count(), 2u);
  EXPECT_EQ(t.member(0), ir::vec(ir::ScalarType::U32, 2));
  EXPECT_EQ(r.count(OpCode::ImageQueryMips), 1u);
  EXPECT_EQ(r.count(OpCode::ConvertItoF), 0u); // _uint
  auto stores = r.of(OpCode::TmpStore);
  ASSERT_EQ(stores.size(), 4u);
  ir::OpView layers = r.def(stores[2].operand(1).def());
  ASSERT_EQ(layers.code(), OpCode::CompositeExtract);
  EXPECT_EQ(layers.operand(0).def(), queries[0].def());
  EXPECT_EQ(literal(r.def(layers.operand(1).def()), 0), 1u);
  EXPECT_EQ(r.def(stores[3].operand(1).def()).code(), OpCode::ImageQueryMips);
}

TEST(DxbcResources, ResinfoFloatAndRcpConvertAndGuardDynamicMips) {
  // resinfo_rcpFloat r0.xyzw, r1.x, t0.xyzw (texture1d): (1/w, 0, 0, mips)
  auto w = pixel()
               .inst(Opcode::DclResource, {decl_reg(OT::Resource), 0, returns(ReturnType::Float)},
                     dim_bits(ResourceDimension::Texture1D))
               .inst(Opcode::ResInfo,
                     {reg1(OT::Temp, mask(kXyzw)), 0, reg1(OT::Temp, select1(0)), 1,
                      reg1(OT::Resource, swz(0, 1, 2, 3)), 0},
                     1u << 11)
               .end_stretch()
               .inst(Opcode::Ret, {})
               .finish();
  Result r;
  CONVERT_OK(w, r);
  EXPECT_EQ(r.count(OpCode::FDiv), 1u);
  EXPECT_EQ(r.count(OpCode::ConvertItoF), 2u); // width and the mip count
  EXPECT_EQ(r.count(OpCode::ULt), 1u);         // mip < mip count
  auto stores = r.of(OpCode::TmpStore);
  ASSERT_EQ(stores.size(), 4u);
  ir::OpView y = r.def(stores[1].operand(1).def());
  ASSERT_EQ(y.code(), OpCode::Constant);
  EXPECT_EQ(y.operand(0).literal_f32(), 0.0f);
}

TEST(DxbcResources, SamplePositionsComeFromTheStandardPatternTable) {
  auto w = pixel()
               .inst(Opcode::DclResource, {decl_reg(OT::Resource), 0, returns(ReturnType::Float)},
                     dim_bits(ResourceDimension::Texture2DMS) | 8u << 16)
               .inst(Opcode::SamplePos, {reg1(OT::Temp, mask(3)), 0,
                                         reg1(OT::Resource, swz(0, 1, 0, 0)), 0, imm1(), 2})
               .inst(Opcode::SampleInfo,
                     {reg1(OT::Temp, mask(4)), 0, reg1(OT::Resource, select1(0)), 0}, 1u << 11)
               .inst(Opcode::Ret, {})
               .finish();
  Result r;
  CONVERT_OK(w, r);
  auto loads = r.of(OpCode::ConstantLoad);
  ASSERT_EQ(loads.size(), 1u);
  ir::OpView table = r.def(loads[0].operand(0).def());
  ASSERT_EQ(table.code(), OpCode::Constant);
  ASSERT_EQ(table.operand_count(), 64u);
  // 8-sample pattern, sample 2: entry 7 + 2 = (5, 1) / 16.
  EXPECT_EQ(table.operand(18).literal_f32(), 5.0f / 16.0f);
  EXPECT_EQ(table.operand(19).literal_f32(), 1.0f / 16.0f);
  EXPECT_EQ(r.count(OpCode::ImageQuerySamples), 2u);
}

// ---- typed UAVs ---------------------------------------------------------------------------

TEST(DxbcResources, TypedUavLoadsStoresAndAtomicsSetTheUavFlags) {
  auto w =
      compute()
          .inst(Opcode::DclUavTyped, {decl_reg(OT::Uav), 0, returns(ReturnType::Float)},
                dim_bits(ResourceDimension::Texture2DArray))
          .inst(Opcode::DclUavTyped, {decl_reg(OT::Uav), 1, returns(ReturnType::UInt)},
                dim_bits(ResourceDimension::Texture2D))
          .inst(Opcode::DclUavTyped, {decl_reg(OT::Uav), 2, returns(ReturnType::UInt)},
                dim_bits(ResourceDimension::Buffer))
          // store_uav_typed u0.xyzw, r0.xyzw, r1.xyzw
          .inst(Opcode::StoreUavTyped,
                {reg1(OT::Uav, mask(kXyzw)), 0, reg1(OT::Temp, swz(0, 1, 2, 3)), 0,
                 reg1(OT::Temp, swz(0, 1, 2, 3)), 1})
          // ld_uav_typed r2.x, r0.xyyy, u1.xyzw ; imm_atomic_umax r3.x, u1, r0.xy, r2.x
          .inst(Opcode::LdUavTyped, {reg1(OT::Temp, mask(1)), 2, reg1(OT::Temp, swz(0, 1, 1, 1)), 0,
                                     reg1(OT::Uav, swz(0, 1, 2, 3)), 1})
          .inst(Opcode::ImmAtomicUMax,
                {reg1(OT::Temp, mask(1)), 3, reg1(OT::Uav, mask(kXyzw)), 1,
                 reg1(OT::Temp, swz(0, 1, 0, 0)), 0, reg1(OT::Temp, select1(0)), 2})
          // atomic_iadd u2, r0.x, l(1)
          .inst(Opcode::AtomicIAdd,
                {reg1(OT::Uav, mask(kXyzw)), 2, reg1(OT::Temp, select1(0)), 0, imm1(), 1})
          .inst(Opcode::Ret, {})
          .finish();
  Result r;
  CONVERT_OK(w, r);
  auto uavs = r.of(OpCode::DclUav);
  ASSERT_EQ(uavs.size(), 3u);
  EXPECT_EQ(uavs[0].operand(5).literal_enum<ir::UavFlags>(), ir::UavFlags::WriteOnly);
  EXPECT_EQ(uavs[1].operand(5).literal_enum<ir::UavFlags>(), ir::UavFlags::FixedFormat);
  EXPECT_EQ(uavs[2].operand(5).literal_enum<ir::UavFlags>(), ir::UavFlags::FixedFormat);
  auto stores = r.of(OpCode::ImageStore);
  ASSERT_EQ(stores.size(), 1u);
  EXPECT_TRUE(stores[0].operand(1).def()); // layer
  EXPECT_EQ(r.def(stores[0].operand(3).def()).type(), ir::vec(ir::ScalarType::F32, 4));
  auto image_atomics = r.of(OpCode::ImageAtomic);
  ASSERT_EQ(image_atomics.size(), 2u);
  EXPECT_EQ(image_atomics[0].type(), ir::kU32);
  EXPECT_EQ(image_atomics[0].operand(4).literal_enum<ir::AtomicOp>(), ir::AtomicOp::UMax);
  // The typed buffer's atomic is an image atomic at the element index, without a layer.
  auto atomics = r.of(OpCode::ImageAtomic);
  ASSERT_EQ(atomics.size(), 2u);
  EXPECT_EQ(atomics[1].type(), ir::kVoid);
  EXPECT_FALSE(atomics[1].operand(1).def());
  EXPECT_EQ(r.def(atomics[1].operand(2).def()).type(), ir::kU32);
  EXPECT_EQ(atomics[1].operand(4).literal_enum<ir::AtomicOp>(), ir::AtomicOp::Add);
}

// vkd3d-shader's default (TYPED_UAV_READ_FORMAT_R32) declares a typed UAV the shader reads with
// its type's R32 format; kiln's own model leaves it Unknown. A UAV only written stays Unknown
// either way (the backend asks for StorageImageWriteWithoutFormat).
TEST(DxbcResources, TypedUavReadsHaveAFixedFormatWhereTheInterfaceAsksForR32) {
  auto w =
      compute()
          .inst(Opcode::DclUavTyped, {decl_reg(OT::Uav), 0, returns(ReturnType::Float)},
                dim_bits(ResourceDimension::Texture2D))
          .inst(Opcode::DclUavTyped, {decl_reg(OT::Uav), 1, returns(ReturnType::Float)},
                dim_bits(ResourceDimension::Texture2D))
          // ld_uav_typed r0.x, r0.xyyy, u0.xyzw ; store_uav_typed u1.xyzw, r0.xy, r0.xxxx
          .inst(Opcode::LdUavTyped, {reg1(OT::Temp, mask(1)), 0, reg1(OT::Temp, swz(0, 1, 1, 1)), 0,
                                     reg1(OT::Uav, swz(0, 1, 2, 3)), 0})
          .inst(Opcode::StoreUavTyped,
                {reg1(OT::Uav, mask(kXyzw)), 1, reg1(OT::Temp, swz(0, 1, 1, 1)), 0,
                 reg1(OT::Temp, swz(0, 0, 0, 0)), 0})
          .inst(Opcode::Ret, {})
          .finish();
  for (const bool r32 : {false, true}) {
    Result r;
    convert(w, r, {.typed_uav_read_r32 = r32});
    ASSERT_TRUE(r.status) << r.status.message();
    auto uavs = r.of(OpCode::DclUav);
    ASSERT_EQ(uavs.size(), 2u);
    EXPECT_EQ(uavs[0].operand(5).literal_enum<ir::UavFlags>(),
              r32 ? ir::UavFlags::ReadOnly | ir::UavFlags::FixedFormat : ir::UavFlags::ReadOnly);
    EXPECT_EQ(uavs[1].operand(5).literal_enum<ir::UavFlags>(), ir::UavFlags::WriteOnly);
  }
}

TEST(DxbcResources, RasterizerOrderedAccessesSitBetweenRovLocks) {
  // dcl_uav_typed_texture2d_rov u0 ; ld_uav_typed r0, r1.xyyy, u0 ; store_uav_typed u0, r1.xy, r0
  auto w = pixel()
               .inst(Opcode::DclUavTyped, {decl_reg(OT::Uav), 0, returns(ReturnType::Float)},
                     dim_bits(ResourceDimension::Texture2D) | 1u << 17)
               .inst(Opcode::LdUavTyped,
                     {reg1(OT::Temp, mask(kXyzw)), 0, reg1(OT::Temp, swz(0, 1, 1, 1)), 1,
                      reg1(OT::Uav, swz(0, 1, 2, 3)), 0})
               .inst(Opcode::StoreUavTyped,
                     {reg1(OT::Uav, mask(kXyzw)), 0, reg1(OT::Temp, swz(0, 1, 0, 0)), 1,
                      reg1(OT::Temp, swz(0, 1, 2, 3)), 0})
               .inst(Opcode::Ret, {})
               .finish();
  Result r;
  CONVERT_OK(w, r);
  auto uavs = r.of(OpCode::DclUav);
  ASSERT_EQ(uavs.size(), 1u);
  EXPECT_TRUE(
      ir::has(uavs[0].operand(5).literal_enum<ir::UavFlags>(), ir::UavFlags::RasterizerOrdered));
  // Begin, load, End, Begin, store, End in program order.
  std::vector<OpCode> order;
  for (ir::OpView op : r.b.ops()) {
    if (op.code() == OpCode::RovScopedLockBegin || op.code() == OpCode::RovScopedLockEnd ||
        op.code() == OpCode::ImageLoad || op.code() == OpCode::ImageStore)
      order.push_back(op.code());
  }
  const std::vector<OpCode> expected = {OpCode::RovScopedLockBegin, OpCode::ImageLoad,
                                        OpCode::RovScopedLockEnd,   OpCode::RovScopedLockBegin,
                                        OpCode::ImageStore,         OpCode::RovScopedLockEnd};
  EXPECT_EQ(order, expected);
}

// ---- raw, structured, TGSM ----------------------------------------------------------------

TEST(DxbcResources, RawAccessIsPerDwordFromTheByteAddress) {
  // ld_raw r0.xy, l(16), t0.zwxx ; store_raw u0.xyz, r1.x, r2.xyzx
  auto w = compute()
               .inst(Opcode::DclResourceRaw, {decl_reg(OT::Resource), 0})
               .inst(Opcode::DclUavRaw, {decl_reg(OT::Uav), 0})
               .inst(Opcode::LdRaw, {reg1(OT::Temp, mask(3)), 0, imm1(), 16,
                                     reg1(OT::Resource, swz(2, 3, 0, 0)), 0})
               .inst(Opcode::StoreRaw, {reg1(OT::Uav, mask(7)), 0, reg1(OT::Temp, select1(0)), 1,
                                        reg1(OT::Temp, swz(0, 1, 2, 0)), 2})
               .inst(Opcode::Ret, {})
               .finish();
  Result r;
  CONVERT_OK(w, r);
  auto loads = r.of(OpCode::BufferLoad);
  ASSERT_EQ(loads.size(), 2u);
  // dword 16/4 + 2 and + 3, folded.
  EXPECT_EQ(literal(r.def(loads[0].operand(1).def()), 0), 6u);
  EXPECT_EQ(literal(r.def(loads[1].operand(1).def()), 0), 7u);
  auto stores = r.of(OpCode::BufferStore);
  ASSERT_EQ(stores.size(), 3u);
  EXPECT_EQ(r.def(stores[0].operand(1).def()).code(), OpCode::UShr);
  EXPECT_EQ(r.def(stores[1].operand(1).def()).code(), OpCode::IAdd);
  EXPECT_EQ(r.count(OpCode::UShr), 1u);
  auto uavs = r.of(OpCode::DclUav);
  EXPECT_EQ(uavs[0].operand(5).literal_enum<ir::UavFlags>(), ir::UavFlags::WriteOnly);
}

TEST(DxbcResources, StructuredTgsmUsesTwoLevelAddressesAndLdsOps) {
  // ld_structured r0.xy, r1.x, l(4), g0.xyxx ; store_structured g0.x, r1.x, l(0), r0.y
  // imm_atomic_iadd r2.x, g0, r1.xy, l(1) ; sync_g_t
  auto w =
      compute()
          .inst(Opcode::DclTgsmStructured, {decl_reg(OT::ThreadGroupSharedMemory), 0, 8, 64})
          .inst(Opcode::LdStructured,
                {reg1(OT::Temp, mask(3)), 0, reg1(OT::Temp, select1(0)), 1, imm1(), 4,
                 reg1(OT::ThreadGroupSharedMemory, swz(0, 1, 0, 0)), 0})
          .inst(Opcode::StoreStructured,
                {reg1(OT::ThreadGroupSharedMemory, mask(1)), 0, reg1(OT::Temp, select1(0)), 1,
                 imm1(), 0, reg1(OT::Temp, select1(1)), 0})
          .inst(Opcode::ImmAtomicIAdd,
                {reg1(OT::Temp, mask(1)), 2, reg1(OT::ThreadGroupSharedMemory, mask(kXyzw)), 0,
                 reg1(OT::Temp, swz(0, 1, 0, 0)), 1, imm1(), 1})
          .inst(Opcode::Sync, {}, control::kSyncThreadsInGroup | control::kSyncGroupSharedMemory)
          .inst(Opcode::Ret, {})
          .finish();
  Result r;
  CONVERT_OK(w, r);
  auto loads = r.of(OpCode::LdsLoad);
  ASSERT_EQ(loads.size(), 2u);
  EXPECT_EQ(r.def(loads[0].operand(1).def()).type(), ir::vec(ir::ScalarType::U32, 2));
  EXPECT_EQ(r.count(OpCode::LdsStore), 1u);
  auto atomics = r.of(OpCode::LdsAtomic);
  ASSERT_EQ(atomics.size(), 1u);
  EXPECT_EQ(atomics[0].type(), ir::kU32);
  EXPECT_EQ(r.def(atomics[0].operand(1).def()).type(), ir::vec(ir::ScalarType::U32, 2));
  auto barriers = r.of(OpCode::Barrier);
  ASSERT_EQ(barriers.size(), 1u);
  EXPECT_EQ(barriers[0].operand(0).literal_enum<ir::Scope>(), ir::Scope::Workgroup);
  EXPECT_EQ(barriers[0].operand(1).literal_enum<ir::Scope>(), ir::Scope::Workgroup);
  EXPECT_EQ(barriers[0].operand(2).literal_enum<ir::MemoryTypeMask>(), ir::MemoryTypeMask::Lds);
}

TEST(DxbcResources, SyncUglobalIsAGlobalUavMemoryBarrier) {
  auto w = compute().inst(Opcode::Sync, {}, control::kSyncUavGlobal).inst(Opcode::Ret, {}).finish();
  Result r;
  CONVERT_OK(w, r);
  auto barriers = r.of(OpCode::Barrier);
  ASSERT_EQ(barriers.size(), 1u);
  EXPECT_EQ(barriers[0].operand(0).literal_enum<ir::Scope>(), ir::Scope::Thread);
  EXPECT_EQ(barriers[0].operand(1).literal_enum<ir::Scope>(), ir::Scope::Global);
  EXPECT_EQ(barriers[0].operand(2).literal_enum<ir::MemoryTypeMask>(),
            ir::MemoryTypeMask::UavBuffer | ir::MemoryTypeMask::UavImage);
}

TEST(DxbcResources, AppendConsumeCountersAndBufinfo) {
  // imm_atomic_alloc r0.x, u0 ; imm_atomic_consume r0.y, u0 ; bufinfo r1.x, u0 ; bufinfo r1.y, t0
  auto w =
      compute()
          .inst(Opcode::DclUavStructured, {decl_reg(OT::Uav), 0, 16}, 1u << 23)
          .inst(Opcode::DclResourceRaw, {decl_reg(OT::Resource), 0})
          .inst(Opcode::ImmAtomicAlloc, {reg1(OT::Temp, mask(1)), 0, reg1(OT::Uav, mask(kXyzw)), 0})
          .inst(Opcode::ImmAtomicConsume,
                {reg1(OT::Temp, mask(2)), 0, reg1(OT::Uav, mask(kXyzw)), 0})
          .inst(Opcode::BufInfo, {reg1(OT::Temp, mask(1)), 1, reg1(OT::Uav, swz(0, 1, 2, 3)), 0})
          .inst(Opcode::BufInfo,
                {reg1(OT::Temp, mask(2)), 1, reg1(OT::Resource, swz(0, 1, 2, 3)), 0})
          .inst(Opcode::Ret, {})
          .finish();
  Result r;
  CONVERT_OK(w, r);
  auto counters = r.of(OpCode::CounterAtomic);
  ASSERT_EQ(counters.size(), 2u);
  EXPECT_EQ(counters[0].operand(1).literal_enum<ir::AtomicOp>(), ir::AtomicOp::Inc);
  EXPECT_EQ(counters[1].operand(1).literal_enum<ir::AtomicOp>(), ir::AtomicOp::Dec);
  ir::OpView counter_desc = r.def(counters[0].operand(0).def());
  ASSERT_EQ(counter_desc.code(), OpCode::DescriptorLoad);
  EXPECT_EQ(r.def(counter_desc.operand(0).def()).code(), OpCode::DclUavCounter);
  // consume returns the decremented count.
  auto subs = r.of(OpCode::ISub);
  ASSERT_EQ(subs.size(), 1u);
  EXPECT_EQ(subs[0].operand(0).def(), counters[1].def());
  EXPECT_EQ(r.count(OpCode::BufferQuerySize), 2u);
  EXPECT_EQ(r.count(OpCode::IShl), 1u); // raw: element count * 4 bytes
}

// ---- rejections ---------------------------------------------------------------------------

TEST(DxbcResources, BadResourceUseIsACleanRejection) {
  auto undeclared = compute()
                        .inst(Opcode::LdRaw, {reg1(OT::Temp, mask(1)), 0, imm1(), 0,
                                              reg1(OT::Resource, swz(0, 1, 2, 3)), 5})
                        .inst(Opcode::Ret, {})
                        .finish();
  expect_rejected(undeclared, "t5 is not declared");
  auto stride = compute()
                    .inst(Opcode::DclResourceStructured, {decl_reg(OT::Resource), 0, 6})
                    .inst(Opcode::Ret, {})
                    .finish();
  expect_rejected(stride, "structure stride 6");
  auto twice = compute()
                   .inst(Opcode::DclSampler, {decl_reg(OT::Sampler), 1})
                   .inst(Opcode::DclSampler, {decl_reg(OT::Sampler), 1})
                   .inst(Opcode::Ret, {})
                   .finish();
  expect_rejected(twice, "s1 declared twice");
  auto wrong_kind = compute()
                        .inst(Opcode::DclResourceRaw, {decl_reg(OT::Resource), 0})
                        .inst(Opcode::LdStructured, {reg1(OT::Temp, mask(1)), 0, imm1(), 0, imm1(),
                                                     0, reg1(OT::Resource, swz(0, 1, 2, 3)), 0})
                        .inst(Opcode::Ret, {})
                        .finish();
  expect_rejected(wrong_kind, "expects a structured buffer");
  auto float_atomic =
      compute()
          .inst(Opcode::DclUavTyped, {decl_reg(OT::Uav), 0, returns(ReturnType::Float)},
                dim_bits(ResourceDimension::Texture2D))
          .inst(Opcode::AtomicIAdd,
                {reg1(OT::Uav, mask(kXyzw)), 0, reg1(OT::Temp, swz(0, 1, 0, 0)), 0, imm1(), 1})
          .inst(Opcode::Ret, {})
          .finish();
  expect_rejected(float_atomic, "float-typed UAV");
}

} // namespace
} // namespace kiln::dxbc
