// The generated per-op views (ir_op_views.h) read the operand each role names.
#include "translator/ir/ir.h"
#include "translator/ir/ir_op_views.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace kiln::ir {
namespace {

// Role positions are constants: a view compiles to the index OpView::operand takes.
static_assert(ops::ImageSample::index_of("descriptor") == 0);
static_assert(ops::ImageSample::index_of("lod_bias") == 6);
static_assert(ops::ImageSample::index_of("depth_compare") == 10);
static_assert(ops::BufferStore::index_of("align") == 3);
static_assert(ops::BranchConditional::index_of("false_block") == 2);

TEST(OpViews, FixedRolesReadTheirOperands) {
  Builder b;
  b.reset();
  SsaDef x = b.constant_f32(1.0f), y = b.constant_f32(2.0f), z = b.constant_f32(3.0f);
  SsaDef fn = b.add(Op::Function(kVoid));
  b.add(Op::Label(Construct::None));
  SsaDef mad = b.add(Op::FMad(kF32, x, y, z));
  ops::FMad v(b.op(mad));
  EXPECT_EQ(v.a().def(), x);
  EXPECT_EQ(v.b().def(), y);
  EXPECT_EQ(v.c().def(), z);
  EXPECT_EQ(v.op().def(), mad);
  SsaDef emit = b.add(Op::EmitVertex(3u));
  EXPECT_EQ(ops::EmitVertex(b.op(emit)).stream().literal_u32(), 3u);
  SsaDef round = b.add(Op::FRound(kF32, x, RoundMode::NearestEven));
  EXPECT_EQ(ops::FRound(b.op(round)).mode().literal_enum<RoundMode>(), RoundMode::NearestEven);
  EXPECT_EQ(ops::Constant(b.op(y)).values()[0].literal_f32(), 2.0f);
  (void)fn;
}

TEST(OpViews, GroupRolesAndLiteralsAfterAGroup) {
  Builder b;
  b.reset();
  SsaDef one = b.constant_f32(1.0f), two = b.constant_f32(2.0f);
  SsaDef fn = b.add(Op::Function(kVoid));
  SsaDef l0 = b.add(Op::Label(Construct::None));
  SsaDef l1 = b.add(Op::Label(Construct::None));
  SsaDef phi = b.add(Op::Phi(kF32, l0, one, l1, two));
  ops::Phi p(b.op(phi));
  ASSERT_EQ(p.block().size(), 2u);
  EXPECT_EQ(p.block()[1].def(), l1);
  std::vector<SsaDef> values;
  for (Operand v : p.value()) values.push_back(v.def());
  EXPECT_EQ(values, (std::vector<SsaDef>{one, two}));
  SsaDef merge = b.add(Op::Label(l0, l1, Construct::StructuredLoop));
  ops::Label label(b.op(merge));
  EXPECT_EQ(label.construct_blocks().size(), 2u);
  EXPECT_EQ(label.construct().literal_enum<Construct>(), Construct::StructuredLoop);
  (void)fn;
}

TEST(OpViews, StringTails) {
  Builder b;
  b.reset();
  SsaDef fn = b.add(Op::Function(kVoid));
  SsaDef name = b.add(Op::DebugName(fn, "main_function"));
  char text[32];
  auto literals = ops::DebugName(b.op(name)).name();
  std::size_t n = unpack_string({literals.begin(), literals.end()}, text, sizeof text);
  EXPECT_EQ(std::string(text, n), "main_function");
}

TEST(OpViews, AViewReadsTheRolesOtherOpsShareWithIt) {
  using detail::role_fits;
  constexpr std::size_t sampler = 1, coord = 2, lod_bias = 6;
  EXPECT_TRUE(role_fits(OpCode::ImageComputeLod, sampler, OpCode::ImageSample));
  EXPECT_TRUE(role_fits(OpCode::ImageComputeLod, sampler, OpCode::ImageGather));
  EXPECT_FALSE(role_fits(OpCode::ImageComputeLod, coord, OpCode::ImageSample));
  EXPECT_FALSE(role_fits(OpCode::ImageComputeLod, sampler, OpCode::ImageLoad));
  EXPECT_FALSE(role_fits(OpCode::ImageSample, lod_bias, OpCode::ImageGather));
  EXPECT_TRUE(role_fits(OpCode::FAdd, 1, OpCode::IMul));
  EXPECT_FALSE(role_fits(OpCode::FAdd, 1, OpCode::FAbs));
  EXPECT_FALSE(role_fits(OpCode::BufferLoad, 0, OpCode::MemoryLoad));
  EXPECT_TRUE(role_fits(OpCode::BufferLoad, 1, OpCode::BufferAtomic));
  EXPECT_FALSE(role_fits(OpCode::BufferLoad, 2, OpCode::BufferStore));
}

// The views the backend and the passes share between ops (one handler, several ops) fit every
// op they are made of: checked builds would stop at a misfit, release builds would read another
// operand.
TEST(OpViews, SharedViewsFitTheOpsTheirHandlersTake) {
  using detail::role_fits;
  using detail::role_position;
  struct Shared {
    OpCode view;
    std::string_view role;
    std::vector<OpCode> ops;
  };
  const Shared shared[] = {
      {OpCode::ImageComputeLod,
       "descriptor",
       {OpCode::ImageLoad, OpCode::ImageStore, OpCode::ImageAtomic, OpCode::ImageQuerySize,
        OpCode::ImageQueryMips, OpCode::ImageQuerySamples, OpCode::ImageSample, OpCode::ImageGather,
        OpCode::BufferLoad, OpCode::BufferStore, OpCode::BufferQuerySize}},
      {OpCode::ImageComputeLod, "sampler", {OpCode::ImageSample, OpCode::ImageGather}},
      {OpCode::BufferQuerySize,
       "descriptor",
       {OpCode::BufferLoad, OpCode::BufferStore, OpCode::BufferAtomic}},
      {OpCode::BufferLoad, "address", {OpCode::BufferStore, OpCode::BufferAtomic}},
      {OpCode::LdsLoad,
       "address",
       {OpCode::ScratchLoad, OpCode::ScratchStore, OpCode::LdsStore, OpCode::LdsAtomic,
        OpCode::PushDataLoad}},
      {OpCode::LdsStore, "value", {OpCode::ScratchStore}},
      {OpCode::InputLoad,
       "address",
       {OpCode::OutputLoad, OpCode::OutputStore, OpCode::InterpolateAtCentroid,
        OpCode::InterpolateAtSample, OpCode::InterpolateAtOffset}},
      {OpCode::DclInput, "component", {OpCode::DclOutput}},
      {OpCode::DclInputBuiltIn, "builtin", {OpCode::DclOutputBuiltIn}},
      {OpCode::DclSampler, "count", {OpCode::DclCbv, OpCode::DclSrv, OpCode::DclUav}},
      {OpCode::DclSrv, "kind", {OpCode::DclUav}},
      {OpCode::EmitVertex, "stream", {OpCode::EmitPrimitive}},
      {OpCode::ConvertFtoF, "value", {OpCode::ConvertFtoI, OpCode::ConvertItoF}},
      {OpCode::Cast,
       "value",
       {OpCode::ConvertFtoF, OpCode::ConvertFtoI, OpCode::ConvertItoF, OpCode::ConvertItoI}},
      {OpCode::IAddCarry, "b", {OpCode::ISubBorrow, OpCode::UMulExtended, OpCode::SMulExtended}},
      {OpCode::DerivX, "mode", {OpCode::DerivY}},
      {OpCode::CompositeExtract, "address", {OpCode::CompositeInsert}},
      {OpCode::DebugName, "target", {OpCode::DebugMemberName}},
      {OpCode::TmpLoad, "variable", {OpCode::TmpStore}},
      {OpCode::FMulLegacy, "b", {OpCode::FMadLegacy, OpCode::FPowLegacy}},
      {OpCode::FDot, "b", {OpCode::FDotLegacy}},
  };
  for (const Shared& s : shared)
    for (OpCode actual : s.ops)
      for (std::size_t p = 0; p <= role_position(s.view, s.role); ++p)
        EXPECT_TRUE(role_fits(s.view, p, actual))
            << op_name(s.view) << " role " << p << " on " << op_name(actual);
  for (const OperandRoles& row : kOperandRoles) {
    if (!has_trait(row.code, OpTraits::Scoped)) continue;
    EXPECT_TRUE(role_fits(OpCode::ScopedElse, 0, row.code)) << op_name(row.code);
  }
}

// Every role of an op has its own name.
TEST(OpViews, RoleNamesAreUniquePerOp) {
  for (const OperandRoles& row : kOperandRoles) {
    std::size_t n = role_count(row.roles);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = i + 1; j < n; ++j)
        EXPECT_NE(role_name(row.roles, i), role_name(row.roles, j)) << op_name(row.code);
  }
}

} // namespace
} // namespace kiln::ir
