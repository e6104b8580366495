// The core of the DXBC -> IR converter on hand-assembled programs
// (tests/translator/dxbc/token_builder.h): the IR comes out in scoped form, survives the pass
// pipeline with the validator after every pass, and carries the ops (and D3D semantics) each
// instruction needs. Unsupported features are one-line rejections naming them.

#include "tests/translator/dxbc/token_builder.h"
#include "translator/dxbc/converter.h"
#include "translator/ir/ir.h"
#include "translator/ir/ir_text.h"
#include "translator/ir/ir_validate.h"
#include "translator/passes/pipeline.h"

#include <algorithm>
#include <cstring>
#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace kiln::dxbc {
namespace {

using namespace test;
using ir::OpCode;
using OT = OperandType;

// ---- token helpers ----------------------------------------------------------------------------

constexpr std::uint32_t kSat = 1u << 13;
constexpr std::uint32_t kNonZero = 1u << 18;

// r#/v#/o# with a write mask (destinations).
std::uint32_t dst(OT type, std::uint32_t m) {
  return operand_token(type, kComp4, mask(m), 1);
}
// r#/v#/cb# with a swizzle (sources); one index unless `dims` says otherwise.
std::uint32_t src(OT type, std::uint32_t x = 0, std::uint32_t y = 1, std::uint32_t z = 2,
                  std::uint32_t w = 3, std::uint32_t dims = 1) {
  return operand_token(type, kComp4, swizzle(x, y, z, w), dims);
}
std::uint32_t src1(OT type, std::uint32_t c) {
  return operand_token(type, kComp4, select1(c), 1);
}
std::uint32_t imm4() {
  return operand_token(OT::Immediate32, kComp4, 0, 0);
}
std::uint32_t imm1() {
  return operand_token(OT::Immediate32, kComp1, 0, 0);
}
std::uint32_t decl(OT type, std::uint32_t m) {
  return operand_token(type, kComp4, mask(m), 1);
}
std::uint32_t f(float v) {
  std::uint32_t u;
  std::memcpy(&u, &v, 4);
  return u;
}

ProgramBuilder pixel() {
  ProgramBuilder p(ProgramType::Pixel, 5, 0);
  p.inst(Opcode::DclInputPs, {decl(OT::Input, 0xf), 0}, 2u << 11); // linear v0
  p.inst(Opcode::DclOutput, {decl(OT::Output, 0xf), 0});
  p.inst(Opcode::DclTemps, {4});
  return p;
}

// ---- conversion and IR queries --------------------------------------------------------------

struct Result {
  ir::Builder b;
  Status status;
  Status pipeline;
  std::size_t count(OpCode code) const {
    std::size_t n = 0;
    for (ir::OpView op : b.ops()) n += op.code() == code;
    return n;
  }
  std::vector<ir::OpView> of(OpCode code) const {
    std::vector<ir::OpView> out;
    for (ir::OpView op : b.ops())
      if (op.code() == code) out.push_back(op);
    return out;
  }
  std::string text() const { return ir::print(b); }
};

// Converts, keeps the scoped IR in `scoped` (printed) and runs the pipeline on `r.b`.
void convert(const std::vector<std::uint32_t>& words, Result& r, std::string* scoped = nullptr) {
  const auto bytes = shader_container(words);
  Converter converter;
  r.b.reset();
  r.status = converter.convert(bytes, {}, r.b);
  if (!r.status) return;
  if (scoped) *scoped = ir::print(r.b);
}

#define CONVERT_OK(words, r)                                                                       \
  do {                                                                                             \
    convert(words, r);                                                                             \
    ASSERT_TRUE(r.status) << r.status.message();                                                   \
  } while (0)

constexpr InterfaceConvention kBothConventions[] = {InterfaceConvention::Kiln,
                                                    InterfaceConvention::Vkd3dShader};

// Converts a whole container under `convention`; the IR must be valid.
void convert_valid(const std::vector<std::uint8_t>& bytes, InterfaceConvention convention,
                   Result& r) {
  Converter converter;
  r.status = converter.convert(bytes, {.convention = convention}, r.b);
  ASSERT_TRUE(r.status) << r.status.message();
  EXPECT_TRUE(ir::validate(r.b)) << r.text();
}

// The vector size of each OutputStore's value, smallest first.
std::vector<std::uint32_t> stored_vector_sizes(const Result& r) {
  std::vector<std::uint32_t> sizes;
  for (ir::OpView store : r.of(OpCode::OutputStore))
    sizes.push_back(r.b.op(store.operand(2).def()).type().vector_size());
  std::sort(sizes.begin(), sizes.end());
  return sizes;
}

// The program must survive every pass with the validator after each.
void expect_pipeline_ok(Result& r) {
  passes::Pipeline pipeline;
  Status s = pipeline.run(r.b, {.validate_each_pass = true});
  ASSERT_TRUE(s) << s.message() << "\n" << r.text();
  Status v = ir::validate(r.b);
  EXPECT_TRUE(v) << v.message();
}

void expect_rejected(const std::vector<std::uint8_t>& bytes, const std::string& what) {
  Converter converter;
  ir::Builder b;
  Status s = converter.convert(bytes, {}, b);
  ASSERT_FALSE(s) << "expected a rejection naming: " << what;
  EXPECT_NE(s.message().find(what), std::string::npos) << s.message();
  EXPECT_EQ(s.message().find('\n'), std::string::npos) << s.message();
}

// A tri-domain hull shader's declarations: 3 control points in and out, integer
// partitioning, clockwise triangles.
ProgramBuilder hull_program() {
  ProgramBuilder p(ProgramType::Hull, 5, 0);
  p.inst(Opcode::HsDecls, {});
  p.inst(Opcode::DclInputControlPointCount, {}, 3u << 11);
  p.inst(Opcode::DclOutputControlPointCount, {}, 3u << 11);
  p.inst(Opcode::DclTessDomain, {}, 2u << 11);
  p.inst(Opcode::DclTessPartitioning, {}, 1u << 11);
  p.inst(Opcode::DclTessOutputPrimitive, {}, 3u << 11);
  return p;
}

// ---- tests ------------------------------------------------------------------------------------

TEST(DxbcConvert, FloatArithmeticThroughTemporaries) {
  // add r0.xyzw, v0.xyzw, l(1, 2, 3, 4); mul_sat o0.xyzw, r0.xyzw, v0.xxxx
  auto w =
      pixel()
          .inst(Opcode::Add,
                {dst(OT::Temp, 0xf), 0, src(OT::Input), 0, imm4(), f(1), f(2), f(3), f(4)})
          .inst(Opcode::Mul,
                {dst(OT::Output, 0xf), 0, src(OT::Temp), 0, src(OT::Input, 0, 0, 0, 0), 0}, kSat)
          .end_stretch()
          .inst(Opcode::Ret, {})
          .finish();
  Result r;
  CONVERT_OK(w, r);
  EXPECT_TRUE(ir::validate(r.b)) << r.text();
  EXPECT_EQ(r.count(OpCode::DclInput), 1u);
  EXPECT_EQ(r.count(OpCode::DclOutput), 1u);
  EXPECT_EQ(r.count(OpCode::FAdd), 4u);
  EXPECT_EQ(r.count(OpCode::FMul), 4u);
  EXPECT_EQ(r.count(OpCode::FClamp), 4u); // _sat
  EXPECT_EQ(r.count(OpCode::OutputStore), 4u);
  // The mul reads r0 where the add wrote it (one straight-line stretch): the values are
  // forwarded, not loaded, and r0 is stored once, at the end of the stretch, with the sums.
  EXPECT_EQ(r.count(OpCode::TmpLoad), 0u);
  EXPECT_EQ(r.count(OpCode::ConsumeAs), 0u);
  for (ir::OpView mul : r.of(OpCode::FMul))
    EXPECT_EQ(r.b.op(mul.operand(0).def()).code(), OpCode::FAdd) << r.text();
  auto stores = r.of(OpCode::TmpStore);
  ASSERT_EQ(stores.size(), 4u);
  for (ir::OpView st : stores) {
    EXPECT_EQ(r.b.op(st.operand(1).def()).code(), OpCode::FAdd) << r.text();
    const OpCode next = r.b.op(r.b.next(st.def())).code();
    EXPECT_TRUE(next == OpCode::TmpStore || next == OpCode::ScopedLoop) << r.text();
  }
  EXPECT_EQ(r.b.op(r.b.next(stores.back().def())).code(), OpCode::ScopedLoop) << r.text();
  for (ir::OpView t : r.of(OpCode::DclTmp)) EXPECT_EQ(t.type(), ir::Type(ir::ScalarType::Unknown));
  // Each input component is loaded once per function, at its start (v0.x is read by both
  // instructions), right after the Label.
  auto loads = r.of(OpCode::InputLoad);
  EXPECT_EQ(loads.size(), 4u);
  for (ir::OpView l : loads) {
    ir::SsaDef p = r.b.prev(l.def());
    while (r.b.op(p).code() == OpCode::InputLoad) p = r.b.prev(p);
    EXPECT_EQ(r.b.op(p).code(), OpCode::Label);
  }
  expect_pipeline_ok(r);
}

TEST(DxbcConvert, IntegerSemanticsAreSpelledOut) {
  auto w =
      pixel()
          // ishl r0.x, r1.x, r2.x: the shift count is masked to 5 bits
          .inst(Opcode::IShl, {dst(OT::Temp, 1), 0, src1(OT::Temp, 0), 1, src1(OT::Temp, 0), 2})
          // udiv r1.x, r2.x, r0.x, r3.x: division by zero selects 0xffffffff
          .inst(Opcode::UDiv, {dst(OT::Temp, 1), 1, dst(OT::Temp, 1), 2, src1(OT::Temp, 0), 0,
                               src1(OT::Temp, 0), 3})
          // ftoi r3.x, v0.x: clamped, NaN -> 0
          .inst(Opcode::Ftoi, {dst(OT::Temp, 1), 3, src1(OT::Input, 0), 0})
          // firstbit_hi r0.y, r3.x: counted from the top
          .inst(Opcode::FirstBitHi, {dst(OT::Temp, 2), 0, src1(OT::Temp, 0), 3})
          .inst(Opcode::Mov, {dst(OT::Output, 0xf), 0, src(OT::Temp), 0})
          .inst(Opcode::Ret, {})
          .finish();
  Result r;
  CONVERT_OK(w, r);
  ASSERT_EQ(r.count(OpCode::IShl), 1u);
  bool masked = false;
  for (ir::OpView a : r.of(OpCode::IAnd)) {
    ir::OpView k = r.b.op(a.operand(1).def());
    masked |= k.code() == OpCode::Constant && k.operand(0).literal_u32() == 31;
  }
  EXPECT_TRUE(masked) << r.text();
  EXPECT_EQ(r.count(OpCode::UDiv), 1u);
  EXPECT_EQ(r.count(OpCode::UMod), 1u);
  EXPECT_GE(r.count(OpCode::Select), 2u + 2u + 1u); // udiv guards, ftoi clamps, firstbit
  EXPECT_EQ(r.count(OpCode::ConvertFtoI), 1u);
  EXPECT_EQ(r.count(OpCode::FIsNan), 1u);
  EXPECT_EQ(r.count(OpCode::UFindMsb), 1u);
  expect_pipeline_ok(r);
}

TEST(DxbcConvert, ScopedControlFlowIsPaired) {
  auto w = pixel()
               .inst(Opcode::Mov, {dst(OT::Temp, 1), 0, imm1(), 0})
               .inst(Opcode::Loop, {})
               .inst(Opcode::UGe, {dst(OT::Temp, 1), 1, src1(OT::Temp, 0), 0, imm1(), 4})
               .inst(Opcode::Breakc, {src1(OT::Temp, 0), 1}, kNonZero)
               .inst(Opcode::Switch, {src1(OT::Temp, 0), 0})
               .inst(Opcode::Case, {imm1(), 1})
               .inst(Opcode::Case, {imm1(), 2})
               .inst(Opcode::IAdd, {dst(OT::Temp, 1), 0, src1(OT::Temp, 0), 0, imm1(), 2})
               .inst(Opcode::Break, {})
               .inst(Opcode::Default, {})
               .inst(Opcode::If, {src1(OT::Input, 0), 0}, kNonZero)
               .inst(Opcode::IAdd, {dst(OT::Temp, 1), 0, src1(OT::Temp, 0), 0, imm1(), 1})
               .inst(Opcode::Else, {})
               .inst(Opcode::IAdd, {dst(OT::Temp, 1), 0, src1(OT::Temp, 0), 0, imm1(), 3})
               .inst(Opcode::EndIf, {})
               .inst(Opcode::Break, {})
               .inst(Opcode::EndSwitch, {})
               .inst(Opcode::EndLoop, {})
               .inst(Opcode::Mov, {dst(OT::Output, 0xf), 0, src(OT::Temp, 0, 0, 0, 0), 0})
               .inst(Opcode::Ret, {})
               .finish();
  Result r;
  CONVERT_OK(w, r);
  EXPECT_TRUE(ir::validate(r.b)) << r.text();
  auto ifs = r.of(OpCode::ScopedIf);
  ASSERT_EQ(ifs.size(), 2u); // breakc's guard and the if
  for (ir::OpView i : ifs) {
    ir::OpView end = r.b.op(i.operand(0).def());
    EXPECT_EQ(end.code(), OpCode::ScopedEndIf);
    EXPECT_EQ(end.operand(0).def(), i.def());
  }
  auto loops = r.of(OpCode::ScopedLoop);
  ASSERT_EQ(loops.size(), 1u);
  EXPECT_EQ(r.b.op(loops[0].operand(0).def()).code(), OpCode::ScopedEndLoop);
  EXPECT_EQ(r.count(OpCode::ScopedLoopBreak), 1u);   // breakc
  EXPECT_EQ(r.count(OpCode::ScopedSwitchBreak), 2u); // the breaks inside the switch
  EXPECT_EQ(r.count(OpCode::ScopedSwitchCase), 2u);
  EXPECT_EQ(r.count(OpCode::ScopedSwitchDefault), 1u);
  EXPECT_EQ(r.count(OpCode::ScopedElse), 1u);
  auto sw = r.of(OpCode::ScopedSwitch);
  ASSERT_EQ(sw.size(), 1u);
  EXPECT_EQ(r.b.op(sw[0].operand(0).def()).code(), OpCode::ScopedEndSwitch);
  expect_pipeline_ok(r);
}

TEST(DxbcConvert, EarlyReturnAndDiscard) {
  auto w = pixel()
               .inst(Opcode::Discard, {src1(OT::Input, 0), 0}, kNonZero)
               .inst(Opcode::Retc, {src1(OT::Input, 1), 0}, 0)
               .inst(Opcode::Mov, {dst(OT::Output, 0xf), 0, src(OT::Input), 0})
               .inst(Opcode::Ret, {})
               .finish();
  Result r;
  CONVERT_OK(w, r);
  EXPECT_EQ(r.count(OpCode::Demote), 1u);
  EXPECT_EQ(r.count(OpCode::Return), 2u);
  EXPECT_EQ(r.count(OpCode::ScopedIf), 2u);
  EXPECT_EQ(r.count(OpCode::IEq), 1u); // retc_z tests for zero
  expect_pipeline_ok(r);
}

TEST(DxbcConvert, ConstantBuffersAndImmediateConstantBuffer) {
  ProgramBuilder p(ProgramType::Pixel, 5, 0);
  // customdata: an immediate constant buffer of 2 vectors
  p.raw({std::uint32_t(Opcode::CustomData) | 3u << 11, 2 + 8, 1, 2, 3, 4, 5, 6, 7, 8});
  p.inst(Opcode::DclConstantBuffer,
         {operand_token(OT::ConstantBuffer, kComp4, swizzle(0, 1, 2, 3), 2), 0, 4}, 1u << 11);
  p.inst(Opcode::DclInputPs, {decl(OT::Input, 0xf), 0}, 1u << 11); // constant (flat)
  p.inst(Opcode::DclOutput, {decl(OT::Output, 0xf), 0});
  p.inst(Opcode::DclTemps, {2});
  // ftou r1.x, v0.x
  p.inst(Opcode::Ftou, {dst(OT::Temp, 1), 1, src1(OT::Input, 0), 0});
  // mov r0.xyzw, cb0[r1.x + 1].xyzw
  p.inst(Opcode::Mov, {dst(OT::Temp, 0xf), 0,
                       operand_token(OT::ConstantBuffer, kComp4, swizzle(0, 1, 2, 3), 2, 0, 3), 0,
                       1, src1(OT::Temp, 0), 1});
  // mov r0.y, icb[r1.x + 0].z (dynamic) ; mov r0.z, icb[1].w (static: a constant)
  p.inst(Opcode::Mov,
         {dst(OT::Temp, 2), 0, operand_token(OT::ImmediateConstantBuffer, kComp4, select1(2), 1, 3),
          0, src1(OT::Temp, 0), 1});
  p.inst(Opcode::Mov, {dst(OT::Temp, 4), 0,
                       operand_token(OT::ImmediateConstantBuffer, kComp4, select1(3), 1), 1});
  p.inst(Opcode::Mov, {dst(OT::Output, 0xf), 0, src(OT::Temp), 0});
  p.end_stretch().inst(Opcode::Ret, {});
  Result r;
  CONVERT_OK(p.finish(), r);
  EXPECT_TRUE(ir::validate(r.b)) << r.text();
  ASSERT_EQ(r.count(OpCode::DclCbv), 1u);
  EXPECT_EQ(r.count(OpCode::DescriptorLoad), 1u);
  auto loads = r.of(OpCode::BufferLoad);
  ASSERT_EQ(loads.size(), 1u); // one vec4 load for the four components
  EXPECT_EQ(r.b.op(loads[0].operand(1).def()).code(), OpCode::IAdd); // r1.x + 1
  // The dynamic icb read: a ConstantLoad with the index clamped and a bounds select.
  ASSERT_EQ(r.count(OpCode::ConstantLoad), 1u);
  EXPECT_GE(r.count(OpCode::UMin), 1u);
  // The static read became the constant 8 (icb[1].w) stored to r0.z.
  bool eight = false;
  for (ir::OpView st : r.of(OpCode::TmpStore)) {
    ir::OpView v = r.b.op(st.operand(1).def());
    eight |= v.code() == OpCode::Constant && v.operand(0).literal_u32() == 8;
  }
  EXPECT_TRUE(eight) << r.text();
  // An integer-read (flat) input in a pixel shader carries Flat.
  auto in = r.of(OpCode::DclInput);
  ASSERT_EQ(in.size(), 1u);
  EXPECT_EQ(in[0].operand(3).literal_u32(), std::uint32_t(ir::InterpolationModes::Flat));
  expect_pipeline_ok(r);
}

TEST(DxbcConvert, VertexShaderSystemValues) {
  ProgramBuilder p(ProgramType::Vertex, 5, 0);
  p.inst(Opcode::DclInputSgv, {operand_token(OT::Input, kComp4, mask(1), 1), 0, 6}); // vertex id
  p.inst(Opcode::DclInput, {decl(OT::Input, 0xf), 1});
  p.inst(Opcode::DclOutputSiv, {decl(OT::Output, 0xf), 0, 1}); // position
  p.inst(Opcode::DclOutputSiv, {decl(OT::Output, 0x3), 1, 2}); // clip distance .xy
  p.inst(Opcode::DclOutput, {decl(OT::Output, 0xc), 1});
  p.inst(Opcode::DclTemps, {1});
  p.inst(Opcode::Utof, {dst(OT::Temp, 1), 0, src1(OT::Input, 0), 0});
  p.inst(Opcode::Mov, {dst(OT::Output, 0xf), 0, src(OT::Input), 1});
  p.inst(Opcode::Mov, {dst(OT::Output, 0xf), 1, src(OT::Temp, 0, 0, 0, 0), 0});
  p.inst(Opcode::Ret, {});
  Result r;
  CONVERT_OK(p.finish(), r);
  EXPECT_TRUE(ir::validate(r.b)) << r.text();
  std::vector<std::uint32_t> in_builtins, out_builtins;
  for (ir::OpView d : r.of(OpCode::DclInputBuiltIn))
    in_builtins.push_back(d.operand(1).literal_u32());
  for (ir::OpView d : r.of(OpCode::DclOutputBuiltIn))
    out_builtins.push_back(d.operand(1).literal_u32());
  EXPECT_EQ(in_builtins, std::vector<std::uint32_t>{std::uint32_t(ir::BuiltIn::VertexId)});
  EXPECT_EQ(out_builtins, (std::vector<std::uint32_t>{std::uint32_t(ir::BuiltIn::Position),
                                                      std::uint32_t(ir::BuiltIn::ClipDistance)}));
  // o1.xy are clip distances (array elements 0, 1), o1.zw an ordinary location at component 2.
  auto outs = r.of(OpCode::DclOutput);
  ASSERT_EQ(outs.size(), 1u);
  EXPECT_EQ(outs[0].operand(1).literal_u32(), 1u);
  EXPECT_EQ(outs[0].operand(2).literal_u32(), 2u);
  EXPECT_EQ(r.count(OpCode::ConvertItoF), 1u);
  EXPECT_EQ(r.count(OpCode::OutputStore), 8u);
  expect_pipeline_ok(r);
}

TEST(DxbcConvert, HullShaderForkPhaseInstancesAndTessFactors) {
  ProgramBuilder p(ProgramType::Hull, 5, 0);
  p.inst(Opcode::HsDecls, {});
  p.inst(Opcode::DclInputControlPointCount, {}, 3u << 11);
  p.inst(Opcode::DclOutputControlPointCount, {}, 3u << 11);
  p.inst(Opcode::DclTessDomain, {}, 2u << 11);       // tri
  p.inst(Opcode::DclTessPartitioning, {}, 1u << 11); // integer
  p.inst(Opcode::DclTessOutputPrimitive, {}, 3u << 11);
  p.inst(Opcode::HsForkPhase, {});
  p.inst(Opcode::DclHsForkPhaseInstanceCount, {3});
  p.inst(Opcode::DclInput, {operand_token(OT::InputForkInstanceId, kComp0, 0, 0)});
  p.inst(Opcode::DclOutputSiv, {decl(OT::Output, 1), 0, 17}); // tri edge factors o0..o2
  p.inst(Opcode::DclOutputSiv, {decl(OT::Output, 1), 1, 18});
  p.inst(Opcode::DclOutputSiv, {decl(OT::Output, 1), 2, 19});
  p.inst(Opcode::DclIndexRange, {decl(OT::Output, 1), 0, 3});
  p.inst(Opcode::DclTemps, {1});
  p.inst(Opcode::Mov, {dst(OT::Temp, 1), 0, operand_token(OT::InputForkInstanceId, kComp1, 0, 0)});
  // mov o[r0.x + 0].x, l(4.0)
  p.inst(Opcode::Mov,
         {operand_token(OT::Output, kComp4, mask(1), 1, 3), 0, src1(OT::Temp, 0), 0, imm1(), f(4)});
  p.inst(Opcode::Ret, {});
  p.inst(Opcode::HsJoinPhase, {});
  p.inst(Opcode::DclOutputSiv, {decl(OT::Output, 1), 3, 20}); // tri inside
  p.inst(Opcode::Mov, {dst(OT::Output, 1), 3, imm1(), f(2)});
  p.inst(Opcode::Ret, {});
  Result r;
  CONVERT_OK(p.finish(), r);
  EXPECT_TRUE(ir::validate(r.b)) << r.text();
  auto entry = r.of(OpCode::EntryPoint);
  ASSERT_EQ(entry.size(), 1u);
  EXPECT_EQ(entry[0].ref_count(), 2u); // control point function + patch constant function
  EXPECT_EQ(r.count(OpCode::Function), 2u);
  EXPECT_EQ(r.count(OpCode::ScopedLoop), 1u); // the fork phase's instance loop
  std::vector<std::uint32_t> outs;
  for (ir::OpView d : r.of(OpCode::DclOutputBuiltIn)) outs.push_back(d.operand(1).literal_u32());
  EXPECT_EQ(outs, (std::vector<std::uint32_t>{std::uint32_t(ir::BuiltIn::TessFactorOuter),
                                              std::uint32_t(ir::BuiltIn::TessFactorInner)}));
  // The dynamic o[r0.x] store: one guarded store per tess factor register.
  EXPECT_EQ(r.count(OpCode::OutputStore), 3u + 1u);
  EXPECT_EQ(r.count(OpCode::SetTessPrimitive), 1u);
  expect_pipeline_ok(r);
}

TEST(DxbcConvert, GeometryShaderStreams) {
  ProgramBuilder p(ProgramType::Geometry, 5, 0);
  p.inst(Opcode::DclGsInputPrimitive, {}, 3u << 11); // triangle
  p.inst(Opcode::DclStream, {operand_token(OT::Stream, kComp0, 0, 1), 1});
  p.inst(Opcode::DclGsOutputTopology, {}, 3u << 11); // line strip
  p.inst(Opcode::DclInput, {operand_token(OT::Input, kComp4, mask(0xf), 2), 3, 0});
  p.inst(Opcode::DclOutput, {decl(OT::Output, 0xf), 0});
  p.inst(Opcode::DclMaxOutputVertexCount, {4});
  // mov o0.xyzw, v[2][0].xyzw
  p.inst(Opcode::Mov, {dst(OT::Output, 0xf), 0, src(OT::Input, 0, 1, 2, 3, 2), 2, 0});
  p.inst(Opcode::EmitStream, {operand_token(OT::Stream, kComp0, 0, 1), 1});
  p.inst(Opcode::CutStream, {operand_token(OT::Stream, kComp0, 0, 1), 1});
  p.inst(Opcode::Ret, {});
  Result r;
  CONVERT_OK(p.finish(), r);
  EXPECT_TRUE(ir::validate(r.b)) << r.text();
  auto emits = r.of(OpCode::EmitVertex), cuts = r.of(OpCode::EmitPrimitive);
  ASSERT_EQ(emits.size(), 1u);
  ASSERT_EQ(cuts.size(), 1u);
  EXPECT_EQ(emits[0].operand(0).literal_u32(), 1u);
  EXPECT_EQ(cuts[0].operand(0).literal_u32(), 1u);
  auto out = r.of(OpCode::DclOutput);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].operand(3).literal_u32(), 1u); // stream 1
  auto in = r.of(OpCode::DclInput);
  ASSERT_EQ(in.size(), 1u);
  EXPECT_TRUE(in[0].type().is_aggregate()); // per-vertex array
  EXPECT_EQ(r.count(OpCode::SetGsOutputPrimitive), 1u);
  expect_pipeline_ok(r);
}

// fxc writes dcl_inputprimitive after the dcl_input v[3][#] it sizes: the per-vertex inputs
// must still hold one element per vertex of the primitive (they were declared [1] and read
// past their end), and so must HS/DS control-point arrays declared before their counts.
TEST(DxbcConvert, PerVertexArraysAreSizedByCountsDeclaredAfterThem) {
  ProgramBuilder p(ProgramType::Geometry, 4, 0);
  p.inst(Opcode::DclInput, {operand_token(OT::Input, kComp4, mask(0xf), 2), 3, 0});
  p.inst(Opcode::DclInputSiv, {operand_token(OT::Input, kComp4, mask(0xf), 2), 3, 1, 1});
  p.inst(Opcode::DclGsInputPrimitive, {}, 3u << 11); // triangle
  p.inst(Opcode::DclGsOutputTopology, {}, 5u << 11);
  p.inst(Opcode::DclOutputSiv, {decl(OT::Output, 0xf), 0, 1});
  p.inst(Opcode::DclMaxOutputVertexCount, {3});
  // mov o0.xyzw, v[2][1].xyzw ; emit ; ret
  p.inst(Opcode::Mov, {dst(OT::Output, 0xf), 0, src(OT::Input, 0, 1, 2, 3, 2), 2, 1});
  p.inst(Opcode::Emit, {});
  p.inst(Opcode::Ret, {});
  Result r;
  CONVERT_OK(p.finish(), r);
  unsigned checked = 0;
  for (OpCode code : {OpCode::DclInput, OpCode::DclInputBuiltIn}) {
    for (ir::OpView in : r.of(code)) {
      ASSERT_TRUE(in.type().is_aggregate()) << r.text();
      const ir::TypeView view = r.b.types().view(in.type());
      EXPECT_EQ(view.dims[view.dim_count - 1], 3u) << r.text();
      ++checked;
    }
  }
  EXPECT_EQ(checked, 2u);
  expect_pipeline_ok(r);
}

TEST(DxbcConvert, DoublesUseTwoComponentsPerValue) {
  // dadd r0.xyzw, r1.xyzw, r2.xyzw ; dtof o0.xy, r0.xyzw
  auto w = pixel()
               .inst(Opcode::DAdd, {dst(OT::Temp, 0xf), 0, src(OT::Temp), 1, src(OT::Temp), 2})
               .inst(Opcode::Dtof, {dst(OT::Output, 0x3), 0, src(OT::Temp), 0})
               .end_stretch()
               .inst(Opcode::Ret, {})
               .finish();
  Result r;
  CONVERT_OK(w, r);
  EXPECT_TRUE(ir::validate(r.b)) << r.text();
  auto adds = r.of(OpCode::FAdd);
  ASSERT_EQ(adds.size(), 2u);
  EXPECT_EQ(adds[0].type(), ir::Type(ir::ScalarType::F64));
  EXPECT_EQ(r.count(OpCode::ConvertFtoF), 2u);
  EXPECT_EQ(r.count(OpCode::TmpStore), 4u); // two lanes, two halves each
  expect_pipeline_ok(r);
}

TEST(DxbcConvert, MovcWithNegatedTempIsAFloatSelect) {
  // movc r0.x, r0.x, r0.y, -r0.y: the modifier makes it a float move (not an integer negate)
  std::uint32_t neg_y = operand_token(OT::Temp, kComp4, select1(1), 1, 0, 0, 0, true);
  auto w = pixel()
               .inst(Opcode::Movc, {dst(OT::Temp, 1), 0, src1(OT::Temp, 0), 0, src1(OT::Temp, 1), 0,
                                    neg_y, 1u /* neg */ | 1u << 6, 0})
               .inst(Opcode::Mov, {dst(OT::Output, 0xf), 0, src(OT::Temp), 0})
               .inst(Opcode::Ret, {})
               .finish();
  Result r;
  CONVERT_OK(w, r);
  EXPECT_EQ(r.count(OpCode::INeg), 0u) << r.text();
  ASSERT_EQ(r.count(OpCode::FNeg), 1u) << r.text();
  auto sel = r.of(OpCode::Select);
  ASSERT_EQ(sel.size(), 1u);
  EXPECT_EQ(sel[0].type(), ir::kF32);
  expect_pipeline_ok(r);
}

// A hull shader with a pass-through control point phase and one patch constant (the inside
// factor at o0 of the fork phase), with the signatures given.
std::vector<std::uint8_t> passthrough_hull(const std::vector<std::uint8_t>& input,
                                           const std::vector<std::uint8_t>& output) {
  ProgramBuilder p = hull_program();
  p.inst(Opcode::HsForkPhase, {});
  p.inst(Opcode::DclOutputSiv, {decl(OT::Output, 1), 0, 20}); // tri inside
  p.inst(Opcode::Mov, {dst(OT::Output, 1), 0, imm1(), f(1)});
  p.inst(Opcode::Ret, {});
  return make_container({{fourcc('S', 'H', 'E', 'X'), bytes_of(p.finish())},
                         {fourcc('I', 'S', 'G', 'N'), input},
                         {fourcc('O', 'S', 'G', 'N'), output}});
}

std::vector<std::uint32_t> output_locations(const Result& r) {
  std::vector<std::uint32_t> locations;
  for (ir::OpView d : r.of(OpCode::DclOutput)) locations.push_back(d.operand(1).literal_u32());
  return locations;
}

TEST(DxbcConvert, HullShaderWithoutControlPointPhasePassesInputsThrough) {
  auto io = signature({{"SV_Position", 0, 1, 3, 0, 0xf}, {"TEXCOORD", 0, 0, 3, 1, 0x3}});
  auto bytes = passthrough_hull(io, io);
  Converter converter;
  Result r;
  r.status = converter.convert(bytes, {}, r.b);
  ASSERT_TRUE(r.status) << r.status.message();
  EXPECT_TRUE(ir::validate(r.b)) << r.text();
  auto entry = r.of(OpCode::EntryPoint);
  ASSERT_EQ(entry.size(), 1u);
  ASSERT_EQ(entry[0].ref_count(), 2u);
  // The control point function copies position (4 components) and TEXCOORD0 (2), indexed by
  // the invocation's control point id.
  ir::SsaDef cp = entry[0].operand(0).def();
  std::size_t stores = 0, loads = 0;
  for (ir::SsaDef d = r.b.next(cp); d && r.b.op(d).code() != OpCode::FunctionEnd; d = r.b.next(d)) {
    stores += r.b.op(d).code() == OpCode::OutputStore;
    loads += r.b.op(d).code() == OpCode::InputLoad;
  }
  // Position is a built-in, stored per component; TEXCOORD0 is a whole vec2 location, one store.
  EXPECT_EQ(stores, 4u + 1u);
  EXPECT_EQ(loads, 1u + 6u); // the control point id, then the copied components
  EXPECT_EQ(r.count(OpCode::DclInputBuiltIn), 2u);  // Position[3], TessControlPointId
  EXPECT_EQ(r.count(OpCode::DclOutputBuiltIn), 2u); // Position[3], TessFactorInner
  for (ir::OpView d : r.of(OpCode::DclOutput)) EXPECT_TRUE(d.type().is_aggregate());
  expect_pipeline_ok(r);
}

// The pass-through writes each control point where the output signature says: SV_Position
// read as the position built-in, written to location 0 when the output signature makes it an
// ordinary varying (what the domain shader then reads), in either convention.
TEST(DxbcConvert, HullPassThroughOutputFollowsTheOutputSignature) {
  const auto input = signature({{"SV_Position", 0, 1, 3, 0, 0xf}});
  const auto output = signature({{"SV_Position", 0, 0, 3, 0, 0xf}});
  for (InterfaceConvention convention : kBothConventions) {
    Result r;
    ASSERT_NO_FATAL_FAILURE(convert_valid(passthrough_hull(input, output), convention, r));
    std::vector<std::uint32_t> inputs, outputs;
    for (ir::OpView d : r.of(OpCode::DclInputBuiltIn)) inputs.push_back(d.operand(1).literal_u32());
    for (ir::OpView d : r.of(OpCode::DclOutputBuiltIn))
      outputs.push_back(d.operand(1).literal_u32());
    EXPECT_NE(std::find(inputs.begin(), inputs.end(), std::uint32_t(ir::BuiltIn::Position)),
              inputs.end());
    EXPECT_EQ(outputs, std::vector<std::uint32_t>{std::uint32_t(ir::BuiltIn::TessFactorInner)});
    EXPECT_EQ(output_locations(r), std::vector<std::uint32_t>{0}) << r.text();
    expect_pipeline_ok(r);
  }
}

// Patch constants sit after the control point registers, the same in the hull and domain
// shader: kiln's from location 16 or past the highest control point register (a control point
// output at register 17 beside patch constants translates), vkd3d-shader's at the register
// plus the number of control point signature elements.
TEST(DxbcConvert, PatchConstantsSitPastTheControlPointRegisters) {
  const auto io = signature({{"TEXCOORD", 0, 0, 3, 0, 0xf}, {"TEXCOORD", 1, 0, 3, 17, 0xf}});
  const auto patch = signature({{"FACTOR", 0, 0, 3, 1, 0x1}});
  ProgramBuilder p = hull_program();
  p.inst(Opcode::HsControlPointPhase, {});
  p.inst(Opcode::DclOutput, {decl(OT::Output, 0xf), 0});
  p.inst(Opcode::DclOutput, {decl(OT::Output, 0xf), 17});
  p.inst(Opcode::Mov, {dst(OT::Output, 0xf), 0, imm4(), f(1), f(2), f(3), f(4)});
  p.inst(Opcode::Mov, {dst(OT::Output, 0xf), 17, imm4(), f(5), f(6), f(7), f(8)});
  p.inst(Opcode::Ret, {});
  p.inst(Opcode::HsForkPhase, {});
  p.inst(Opcode::DclOutput, {decl(OT::Output, 1), 1});
  p.inst(Opcode::Mov, {dst(OT::Output, 1), 1, imm1(), f(9)});
  p.inst(Opcode::Ret, {});
  const auto bytes = make_container({{fourcc('S', 'H', 'E', 'X'), bytes_of(p.finish())},
                                     {fourcc('I', 'S', 'G', 'N'), io},
                                     {fourcc('O', 'S', 'G', 'N'), io},
                                     {fourcc('P', 'C', 'S', 'G'), patch}});
  struct Case {
    InterfaceConvention convention;
    std::uint32_t patch_location;
  };
  for (const Case& c :
       {Case{InterfaceConvention::Kiln, 18 + 1}, Case{InterfaceConvention::Vkd3dShader, 2 + 1}}) {
    Result r;
    ASSERT_NO_FATAL_FAILURE(convert_valid(bytes, c.convention, r));
    std::vector<std::uint32_t> locations = output_locations(r);
    std::vector<std::uint32_t> expected = {0, 17, c.patch_location};
    std::sort(locations.begin(), locations.end());
    std::sort(expected.begin(), expected.end());
    EXPECT_EQ(locations, expected) << r.text();
    expect_pipeline_ok(r);
  }
}

// A control point phase writing a whole output register stores it as one vector (lavapipe
// turns each store to a control point output into a loop over the patch's invocations); a
// write of part of a register's variable stays a store per component.
TEST(DxbcConvert, WholeControlPointOutputIsOneVectorStore) {
  const auto io = signature({{"TEXCOORD", 0, 0, 3, 0, 0xf}, {"TEXCOORD", 1, 0, 3, 1, 0xf}});
  const auto patch = signature({{"FACTOR", 0, 0, 3, 0, 0x1}});
  ProgramBuilder p = hull_program();
  p.inst(Opcode::HsControlPointPhase, {});
  p.inst(Opcode::DclOutput, {decl(OT::Output, 0xf), 0});
  p.inst(Opcode::DclOutput, {decl(OT::Output, 0xf), 1});
  p.inst(Opcode::Mov, {dst(OT::Output, 0xf), 0, imm4(), f(1), f(2), f(3), f(4)});
  p.inst(Opcode::Mov, {dst(OT::Output, 0x3), 1, imm4(), f(5), f(6), f(7), f(8)});
  p.inst(Opcode::Ret, {});
  p.inst(Opcode::HsForkPhase, {});
  p.inst(Opcode::DclOutput, {decl(OT::Output, 1), 0});
  p.inst(Opcode::Mov, {dst(OT::Output, 1), 0, imm1(), f(9)});
  p.inst(Opcode::Ret, {});
  const auto bytes = make_container({{fourcc('S', 'H', 'E', 'X'), bytes_of(p.finish())},
                                     {fourcc('I', 'S', 'G', 'N'), io},
                                     {fourcc('O', 'S', 'G', 'N'), io},
                                     {fourcc('P', 'C', 'S', 'G'), patch}});
  for (InterfaceConvention convention : kBothConventions) {
    Result r;
    ASSERT_NO_FATAL_FAILURE(convert_valid(bytes, convention, r));
    // o0.xyzw: one vec4; o1.xy: two scalars; the fork phase's patch constant: one scalar.
    EXPECT_EQ(stored_vector_sizes(r), (std::vector<std::uint32_t>{1, 1, 1, 4})) << r.text();
    expect_pipeline_ok(r);
  }
}

// A geometry shader reads the components of a per-vertex input register as one vector load and
// writes a whole output register (the Position built-in too) as one vector store: lavapipe's
// pipeline build pays for every load of gl_in[] and every output store. A swizzled read of two
// components still loads the vector once; a write of part of a register stays per component.
TEST(DxbcConvert, GeometryShaderInputsAndWholeOutputsAreVectors) {
  ProgramBuilder p(ProgramType::Geometry, 5, 0);
  p.inst(Opcode::DclGsInputPrimitive, {}, 3u << 11); // triangle
  p.inst(Opcode::DclGsOutputTopology, {}, 5u << 11); // triangle strip
  p.inst(Opcode::DclInputSiv, {operand_token(OT::Input, kComp4, mask(0xf), 2), 3, 0, 1});
  p.inst(Opcode::DclInput, {operand_token(OT::Input, kComp4, mask(0xf), 2), 3, 1});
  p.inst(Opcode::DclOutputSiv, {decl(OT::Output, 0xf), 0, 1});
  p.inst(Opcode::DclOutput, {decl(OT::Output, 0xf), 1});
  p.inst(Opcode::DclMaxOutputVertexCount, {3});
  // mov o0.xyzw, v[2][0].xyzw ; mov o1.xy, v[1][1].wzyx ; emit ; ret
  p.inst(Opcode::Mov, {dst(OT::Output, 0xf), 0, src(OT::Input, 0, 1, 2, 3, 2), 2, 0});
  p.inst(Opcode::Mov, {dst(OT::Output, 0x3), 1, src(OT::Input, 3, 2, 1, 0, 2), 1, 1});
  p.inst(Opcode::Emit, {});
  p.inst(Opcode::Ret, {});
  const auto io = signature({{"SV_Position", 0, 1, 3, 0, 0xf}, {"TEXCOORD", 0, 0, 3, 1, 0xf}});
  const auto bytes = make_container({{fourcc('S', 'H', 'E', 'X'), bytes_of(p.finish())},
                                     {fourcc('I', 'S', 'G', 'N'), io},
                                     {fourcc('O', 'S', 'G', 'N'), io}});
  for (InterfaceConvention convention : kBothConventions) {
    Result r;
    ASSERT_NO_FATAL_FAILURE(convert_valid(bytes, convention, r));
    std::vector<std::uint32_t> loaded_sizes; // each load's vector size
    for (ir::OpView load : r.of(OpCode::InputLoad))
      loaded_sizes.push_back(load.type().vector_size());
    // v[2][0] (Position) and v[1][1].wz: a vec4 load each; o0.xyzw: one vec4 (Position); o1.xy:
    // two scalars.
    EXPECT_EQ(loaded_sizes, (std::vector<std::uint32_t>{4, 4})) << r.text();
    EXPECT_EQ(stored_vector_sizes(r), (std::vector<std::uint32_t>{1, 1, 4})) << r.text();
    expect_pipeline_ok(r);
  }
}

// o1.xy TEXCOORD0 and o1.zw TEXCOORD1: vkd3d-shader's convention makes one vec4 over the register,
// named TEXCOORD0, with a second Semantic for TEXCOORD1 (stream output names either: a request
// for TEXCOORD1 once matched no output); kiln's makes a variable per element, a Semantic each.
TEST(DxbcConvert, SharedOutputRegisterHasASemanticPerElement) {
  const auto output = signature({{"TEXCOORD", 0, 0, 3, 1, 0x3}, {"TEXCOORD", 1, 0, 3, 1, 0xc}});
  ProgramBuilder p(ProgramType::Vertex, 5, 0);
  p.inst(Opcode::DclOutput, {decl(OT::Output, 0x3), 1});
  p.inst(Opcode::DclOutput, {decl(OT::Output, 0xc), 1});
  p.inst(Opcode::Mov, {dst(OT::Output, 0xf), 1, imm4(), f(1), f(2), f(3), f(4)});
  p.inst(Opcode::Ret, {});
  const auto bytes = make_container({{fourcc('S', 'H', 'E', 'X'), bytes_of(p.finish())},
                                     {fourcc('I', 'S', 'G', 'N'), signature({})},
                                     {fourcc('O', 'S', 'G', 'N'), output}});
  struct Case {
    InterfaceConvention convention;
    std::size_t outputs;
  };
  for (const Case& c :
       {Case{InterfaceConvention::Kiln, 2}, Case{InterfaceConvention::Vkd3dShader, 1}}) {
    Result r;
    ASSERT_NO_FATAL_FAILURE(convert_valid(bytes, c.convention, r));
    const auto outs = r.of(OpCode::DclOutput);
    ASSERT_EQ(outs.size(), c.outputs) << r.text();
    // Each element's Semantic, in signature order, on the variable holding its components.
    std::vector<std::pair<std::uint32_t, std::uint32_t>> semantics; // (output, semantic index)
    for (ir::OpView s : r.of(OpCode::Semantic))
      for (std::size_t i = 0; i < outs.size(); ++i)
        if (s.operand(0).def() == outs[i].def())
          semantics.push_back({std::uint32_t(i), s.operand(1).literal_u32()});
    const std::vector<std::pair<std::uint32_t, std::uint32_t>> expected =
        c.outputs == 1 ? std::vector<std::pair<std::uint32_t, std::uint32_t>>{{0, 0}, {0, 1}}
                       : std::vector<std::pair<std::uint32_t, std::uint32_t>>{{0, 0}, {1, 1}};
    EXPECT_EQ(semantics, expected) << r.text();
    expect_pipeline_ok(r);
  }
}

TEST(DxbcConvert, DynamicallyIndexedInputsSelectAmongDeclaredRegisters) {
  // mov o0.xyzw, v[r0.x + 1].xyzw with v1..v3 declared
  ProgramBuilder p(ProgramType::Pixel, 5, 0);
  for (std::uint32_t reg = 1; reg <= 3; ++reg)
    p.inst(Opcode::DclInputPs, {decl(OT::Input, 0xf), reg}, 2u << 11);
  p.inst(Opcode::DclOutput, {decl(OT::Output, 0xf), 0});
  p.inst(Opcode::DclTemps, {1});
  p.inst(Opcode::DclIndexRange, {decl(OT::Input, 0xf), 1, 3});
  p.inst(Opcode::Mov,
         {dst(OT::Output, 0xf), 0, operand_token(OT::Input, kComp4, swizzle(0, 1, 2, 3), 1, 3), 1,
          src1(OT::Temp, 0), 0});
  p.inst(Opcode::Ret, {});
  Result r;
  CONVERT_OK(p.finish(), r);
  EXPECT_TRUE(ir::validate(r.b)) << r.text();
  EXPECT_EQ(r.count(OpCode::InputLoad), 12u); // 3 registers x 4 components
  EXPECT_EQ(r.count(OpCode::Select), 12u);
  EXPECT_EQ(r.count(OpCode::OutputStore), 4u);
  expect_pipeline_ok(r);
}

TEST(DxbcConvert, UnsupportedFeaturesAreNamed) {
  // Subroutines and class linkage: convert_linkage_test.cpp.
  auto missing = pixel()
                     .inst(Opcode::Call, {operand_token(OT::Label, kComp0, 0, 1), 0})
                     .inst(Opcode::Ret, {})
                     .finish();
  expect_rejected(shader_container(missing), "subroutine label that does not exist");
  auto undeclared = pixel()
                        .inst(Opcode::Mov, {dst(OT::Output, 0xf), 3, src(OT::Input), 0})
                        .inst(Opcode::Ret, {})
                        .finish();
  expect_rejected(shader_container(undeclared), "undeclared output o3");
  auto unbalanced = pixel().inst(Opcode::EndIf, {}).inst(Opcode::Ret, {}).finish();
  expect_rejected(shader_container(unbalanced), "endif without if");
  expect_rejected(make_container({{fourcc('R', 'D', 'E', 'F'), {}}}), "without a shader program");
  expect_rejected(make_container({{fourcc('D', 'X', 'I', 'L'), std::vector<std::uint8_t>(16)}}),
                  "DXIL");
}

} // namespace
} // namespace kiln::dxbc
