#include "translator/ir/ir.h"
#include "translator/ir/ir_text.h"
#include "translator/ir/ir_validate.h"

#include <gtest/gtest.h>
#include <vector>

namespace kiln::ir {
namespace {

std::vector<SsaDef> order(const Builder& b) {
  std::vector<SsaDef> v;
  for (OpView op : b.ops()) v.push_back(op.def());
  return v;
}

TEST(IrBuilder, AddAppendsAndLooksUpById) {
  Builder b;
  b.reset();
  SsaDef one = b.constant_f32(1.0f);
  SsaDef fn = b.add(Op::Function(kVoid));
  SsaDef label = b.add(Op::Label(Construct::None));
  SsaDef sum = b.add(Op::FAdd(kF32, one, one).set_flags(OpFlags::Precise));
  EXPECT_EQ(b.op(sum).code(), OpCode::FAdd);
  EXPECT_EQ(b.op(sum).type(), kF32);
  EXPECT_EQ(b.op(sum).flags(), OpFlags::Precise);
  EXPECT_EQ(b.op(sum).operand_count(), 2u);
  EXPECT_EQ(b.op(sum).operand(1).def(), one);
  EXPECT_EQ(b.op(one).operand(0).literal_f32(), 1.0f);
  EXPECT_EQ(order(b), (std::vector<SsaDef>{one, fn, label, sum}));
  EXPECT_EQ(b.op_count(), 4u);
}

TEST(IrBuilder, DeclarationsGoBeforeCode) {
  Builder b;
  b.reset();
  SsaDef fn = b.add(Op::Function(kVoid));
  SsaDef label = b.add(Op::Label(Construct::None));
  SsaDef entry = b.add(Op::EntryPoint(fn, ShaderStage::Vertex));
  SsaDef c = b.constant_u32(7);
  SsaDef ret = b.add(Op::Return(SsaDef()));
  EXPECT_EQ(order(b), (std::vector<SsaDef>{entry, c, fn, label, ret}));
  std::vector<SsaDef> decls;
  for (OpView op : b.declarations()) decls.push_back(op.def());
  EXPECT_EQ(decls, (std::vector<SsaDef>{entry, c}));
  std::vector<SsaDef> code;
  for (OpView op : b.code()) code.push_back(op.def());
  EXPECT_EQ(code, (std::vector<SsaDef>{fn, label, ret}));
}

TEST(IrBuilder, NoDeclarations) {
  Builder b;
  b.reset();
  SsaDef fn = b.add(Op::Function(kVoid));
  std::size_t n = 0;
  for (OpView op : b.declarations()) n += op.operand_count() + 1;
  EXPECT_EQ(n, 0u);
  std::vector<SsaDef> code;
  for (OpView op : b.code()) code.push_back(op.def());
  EXPECT_EQ(code, (std::vector<SsaDef>{fn}));
}

// The binary reader adds ops by id, identical constants included (a module may hold them). The
// constant table keeps one; when it grows it re-inserts them all, and it must still have room
// (a fuzzer input once made the growth probe a full table forever).
TEST(IrBuilder, IdenticalConstantsAddedByIdLeaveTheTableUsable) {
  Builder b;
  b.reset();
  std::uint32_t id = 1;
  for (int i = 0; i < 300; ++i) ASSERT_TRUE(b.add_with_id(SsaDef(id++), Op::Constant(kU32, 7u)));
  for (std::uint32_t v = 0; v < 100; ++v)
    ASSERT_TRUE(b.add_with_id(SsaDef(id++), Op::Constant(kU32, 1000u + v)));
  EXPECT_EQ(b.op(b.constant_u32(7)).operand(0).literal_u64(), 7u);
  EXPECT_EQ(b.constant_u32(1050), SsaDef(301 + 50));
  EXPECT_EQ(b.constant_u32(1050), b.constant_u32(1050));
}

TEST(IrBuilder, ConstantsAreDeduplicated) {
  Builder b;
  b.reset();
  SsaDef a = b.constant_u32(5);
  SsaDef c = b.constant_u32(5);
  SsaDef d = b.constant_i32(5);
  // Literals up to 32 bits hold their 32-bit pattern whatever the argument's signedness.
  EXPECT_EQ(b.add(Op::Constant(kI32, -1)), b.add(Op::Constant(kI32, 0xffffffffu)));
  EXPECT_EQ(b.op(b.constant_i32(-2)).operand(0).literal_u64(), 0xfffffffeu);
  SsaDef e = b.add(Op::Constant(vec(ScalarType::F32, 2), 1.0f, 2.0f));
  SsaDef f = b.add(Op::Constant(vec(ScalarType::F32, 2), 1.0f, 2.0f));
  SsaDef g = b.add(Op::Constant(vec(ScalarType::F32, 2), 2.0f, 1.0f));
  SsaDef u1 = b.add(Op::Undef(kF32));
  SsaDef u2 = b.add(Op::Undef(kF32));
  EXPECT_EQ(a, c);
  EXPECT_NE(a, d);
  EXPECT_EQ(e, f);
  EXPECT_NE(e, g);
  EXPECT_EQ(u1, u2);
  // Many constants: the table grows and still finds every one.
  std::vector<SsaDef> defs;
  for (std::uint32_t i = 0; i < 1000; ++i) defs.push_back(b.constant_u32(i * 3));
  for (std::uint32_t i = 0; i < 1000; ++i) EXPECT_EQ(b.constant_u32(i * 3), defs[i]);
  // A removed constant is not handed out again.
  b.remove(defs[10]);
  SsaDef again = b.constant_u32(30);
  EXPECT_NE(again, defs[10]);
  EXPECT_TRUE(b.is_live(again));
}

TEST(IrBuilder, InsertBeforeAfterAndCursor) {
  Builder b;
  b.reset();
  SsaDef x = b.constant_f32(1.0f);
  SsaDef fn = b.add(Op::Function(kVoid));
  SsaDef label = b.add(Op::Label(Construct::None));
  SsaDef ret = b.add(Op::Return(SsaDef()));
  SsaDef before = b.add_before(ret, Op::FNeg(kF32, x));
  SsaDef after = b.add_after(label, Op::FAbs(kF32, x));
  EXPECT_EQ(order(b), (std::vector<SsaDef>{x, fn, label, after, before, ret}));
  b.set_cursor(after);
  SsaDef c1 = b.add(Op::FSqrt(kF32, x));
  SsaDef c2 = b.add(Op::FRcp(kF32, c1));
  EXPECT_EQ(b.cursor(), c2);
  EXPECT_EQ(order(b), (std::vector<SsaDef>{x, fn, label, after, c1, c2, before, ret}));
  EXPECT_EQ(b.next(after), c1);
  EXPECT_EQ(b.prev(c1), after);
}

TEST(IrBuilder, RemoveRewriteOpAndRewriteDef) {
  Builder b;
  b.reset();
  SsaDef x = b.constant_f32(1.0f);
  SsaDef y = b.constant_f32(2.0f);
  b.add(Op::Function(kVoid));
  b.add(Op::Label(Construct::None));
  SsaDef a = b.add(Op::FAdd(kF32, x, y));
  SsaDef m = b.add(Op::FMul(kF32, a, a));
  SsaDef n = b.add(Op::FNeg(kF32, a));
  EXPECT_EQ(b.users(a).size(), 3u); // two operands of m, one of n
  b.rewrite_op(a, Op::FSub(kF32, y, x));
  EXPECT_EQ(b.op(a).code(), OpCode::FSub);
  EXPECT_EQ(b.op(a).operand(0).def(), y);
  b.rewrite_def(a, x);
  EXPECT_FALSE(b.is_live(a));
  EXPECT_EQ(b.op(m).operand(0).def(), x);
  EXPECT_EQ(b.op(m).operand(1).def(), x);
  EXPECT_EQ(b.op(n).operand(0).def(), x);
  EXPECT_TRUE(b.users(a).empty());
  auto xu = b.users(x);
  EXPECT_EQ(xu.size(), 3u);
  b.remove(n);
  EXPECT_FALSE(b.is_live(n));
  EXPECT_EQ(b.users(x).size(), 2u);
  // Rewriting with more operands than before moves them to a new slice.
  b.rewrite_op(m, Op::FMad(kF32, x, y, y));
  EXPECT_EQ(b.op(m).operand(2).def(), y);
  // An op modified through its view.
  Op copy = b.op(m).to_op();
  copy.set_operand(0, Operand(y));
  b.rewrite_op(m, copy);
  EXPECT_EQ(b.op(m).operand(0).def(), y);
  EXPECT_EQ(b.op(m).operand(1).def(), y);
}

TEST(IrBuilder, UsersWithRewriteDefUsesIndex) {
  Builder b;
  b.reset();
  SsaDef x = b.constant_f32(1.0f);
  b.add(Op::Function(kVoid));
  b.add(Op::Label(Construct::None));
  SsaDef a = b.add(Op::FAbs(kF32, x));
  SsaDef c = b.add(Op::FNeg(kF32, a));
  ASSERT_EQ(b.users(a).size(), 1u); // builds the index: rewrite_def then uses it
  b.rewrite_def(a, x);
  EXPECT_EQ(b.op(c).operand(0).def(), x);
}

TEST(IrBuilder, BatchReplaceFollowsChains) {
  Builder b;
  b.reset();
  SsaDef x = b.constant_f32(1.0f);
  b.add(Op::Function(kVoid));
  b.add(Op::Label(Construct::None));
  SsaDef a = b.add(Op::FAbs(kF32, x));
  SsaDef c = b.add(Op::FNeg(kF32, a));
  SsaDef d = b.add(Op::FAdd(kF32, c, a));
  SsaDef e = b.add(Op::FSqrt(kF32, d));
  std::vector<SsaDef> forward(b.id_limit());
  forward[a.id()] = c; // a -> c -> x
  forward[c.id()] = x;
  b.replace_uses(forward);
  EXPECT_EQ(b.op(d).operand(0).def(), x);
  EXPECT_EQ(b.op(d).operand(1).def(), x);
  EXPECT_EQ(b.op(c).operand(0).def(), x);
  EXPECT_EQ(b.op(e).operand(0).def(), d);
  b.replace_uses(d, x); // single replacement keeps d
  EXPECT_EQ(b.op(e).operand(0).def(), x);
  EXPECT_TRUE(b.is_live(d));
  // A cycle in the forwarding table terminates.
  forward.assign(b.id_limit(), SsaDef());
  forward[x.id()] = d;
  forward[d.id()] = x;
  b.replace_uses(forward);
  EXPECT_TRUE(b.op(e).operand(0).def() == x || b.op(e).operand(0).def() == d);
}

TEST(IrBuilder, IteratesFunctionsBlocksAndBlockOps) {
  Builder b;
  b.reset();
  SsaDef f1 = b.add(Op::Function(kVoid));
  SsaDef l1 = b.add(Op::Label(Construct::None));
  SsaDef br = b.add(Op::Branch(SsaDef()));
  SsaDef l2 = b.add(Op::Label(Construct::None));
  SsaDef r2 = b.add(Op::Return(SsaDef()));
  b.add(Op::FunctionEnd());
  b.rewrite_op(br, Op::Branch(l2));
  SsaDef f2 = b.add(Op::Function(kVoid));
  SsaDef l3 = b.add(Op::Label(Construct::None));
  b.add(Op::Return(SsaDef()));
  b.add(Op::FunctionEnd());

  std::vector<SsaDef> fns, blocks, ops;
  for (OpView op : b.functions()) fns.push_back(op.def());
  for (OpView op : b.blocks(f1)) blocks.push_back(op.def());
  for (OpView op : b.block(l2)) ops.push_back(op.def());
  EXPECT_EQ(fns, (std::vector<SsaDef>{f1, f2}));
  EXPECT_EQ(blocks, (std::vector<SsaDef>{l1, l2}));
  EXPECT_EQ(ops, (std::vector<SsaDef>{l2, r2}));
  blocks.clear();
  for (OpView op : b.blocks(f2)) blocks.push_back(op.def());
  EXPECT_EQ(blocks, (std::vector<SsaDef>{l3}));
}

TEST(IrBuilder, RemovingWhileIterating) {
  Builder b;
  b.reset();
  for (std::uint32_t i = 0; i < 10; ++i) b.constant_u32(i);
  for (OpView op : b.ops())
    if (op.operand(0).literal_u32() % 2) b.remove(op.def());
  std::uint32_t n = 0;
  for (OpView op : b.ops()) {
    EXPECT_EQ(op.operand(0).literal_u32() % 2, 0u);
    ++n;
  }
  EXPECT_EQ(n, 5u);
  EXPECT_EQ(b.op_count(), 5u);
}

TEST(IrBuilder, ResetForgetsEverything) {
  Builder b;
  b.reset();
  b.constant_u32(1);
  b.add(Op::Function(kVoid));
  b.reset();
  EXPECT_EQ(b.op_count(), 0u);
  EXPECT_FALSE(b.first());
  SsaDef c = b.constant_u32(1);
  EXPECT_EQ(c.id(), 1u);
}

TEST(IrBuilder, GeneratedHelpersFollowTheShape) {
  Op op = Op::SetTessPrimitive(SsaDef(3), PrimitiveType::Triangle, TessWindingOrder::Ccw,
                               TessPartitioning::FractionalOdd);
  EXPECT_EQ(op.code(), OpCode::SetTessPrimitive);
  EXPECT_EQ(op.type(), kVoid);
  EXPECT_EQ(op.ref_count(), 1u);
  ASSERT_EQ(op.operand_count(), 4u);
  EXPECT_EQ(op.operand(2).literal_enum<TessWindingOrder>(), TessWindingOrder::Ccw);
  Op cmp = Op::FLt(SsaDef(1), SsaDef(2));
  EXPECT_EQ(cmp.type(), kBool);
  Op name = Op::DebugName(SsaDef(1), "a rather long debug name that spills past inline storage");
  EXPECT_EQ(name.operand_count(),
            1u + string_literal_count("a rather long debug name that spills past inline storage"));
  char text[80];
  std::size_t n = unpack_string(name.operands().subspan(1), text, sizeof(text));
  EXPECT_EQ(std::string_view(text, n), "a rather long debug name that spills past inline storage");
}

TEST(IrTypes, ScalarAndVectorTypesNeedNoTable) {
  Type v = vec(ScalarType::F16, 3);
  EXPECT_TRUE(v.is_vector());
  EXPECT_EQ(v.vector_size(), 3u);
  EXPECT_EQ(v.scalar_type(), ScalarType::F16);
  EXPECT_FALSE(Type().is_basic());
  EXPECT_TRUE(Type().is_void());
  EXPECT_TRUE(kU32.is_scalar());
}

TEST(IrTypes, AggregatesAreInterned) {
  TypeTable t;
  Type m[] = {kU32, vec(ScalarType::F32, 4)};
  Type s1 = t.make_struct(m);
  Type s2 = t.make_struct(m);
  EXPECT_EQ(s1, s2);
  EXPECT_TRUE(s1.is_aggregate());
  Type a1 = t.make_array(s1, 4);
  Type a2 = t.make_array(s2, 4);
  EXPECT_EQ(a1, a2);
  EXPECT_NE(a1, t.make_array(s1, 5));
  EXPECT_EQ(t.element_type(a1), s1);
  EXPECT_EQ(t.flattened_scalar_count(a1), 20u);
  EXPECT_EQ(t.flattened_scalar(a1, 5), ScalarType::U32);
  EXPECT_EQ(t.flattened_scalar(a1, 6), ScalarType::F32);
  // One member and no dimension collapses to the basic type; no members is void.
  Type one[] = {kF32};
  EXPECT_EQ(t.make_struct(one), kF32);
  EXPECT_TRUE(t.make_struct({}).is_void());
  // Limits: three dimensions, unbounded only outermost.
  bool ok = true;
  Type a3 = t.make_array(t.make_array(t.make_array(kU32, 2, &ok), 2, &ok), 0, &ok);
  EXPECT_TRUE(ok);
  EXPECT_TRUE(t.view(a3).is_unbounded());
  t.make_array(a3, 2, &ok);
  EXPECT_FALSE(ok);
  std::uint32_t dims[] = {0, 4};
  Type members[] = {kU32};
  t.make(dims, members, &ok);
  EXPECT_FALSE(ok);
}

} // namespace
} // namespace kiln::ir
