#include "translator/ir/ir.h"
#include "translator/ir/ir_text.h"
#include "translator/ir/ir_validate.h"

#include <gtest/gtest.h>
#include <string>

namespace kiln::ir {
namespace {

// A small valid program; each test breaks one rule.
struct Base {
  Builder b;
  SsaDef fn, entry, tmp, x, cond, l1, l2, ret, end, sum;

  Base() {
    b.reset();
    fn = b.add(Op::Function(kVoid));
    entry = b.add(Op::EntryPoint(fn, ShaderStage::Pixel));
    tmp = b.add(Op::DclTmp(kF32, entry));
    x = b.constant_f32(1.0f);
    cond = b.constant_bool(true);
    l1 = b.add(Op::Label(Construct::None));
    sum = b.add(Op::FAdd(kF32, x, x));
    SsaDef br = b.add(Op::Branch(SsaDef()));
    l2 = b.add(Op::Label(Construct::None));
    ret = b.add(Op::Return(SsaDef()));
    end = b.add(Op::FunctionEnd());
    b.rewrite_op(br, Op::Branch(l2)); // a forward reference to a label is allowed
  }
};

void expect_violation(const Builder& b, const std::string& phrase, SsaDef culprit = SsaDef()) {
  Status s = validate(b);
  ASSERT_FALSE(s) << "expected a violation: " << phrase << "\n" << print(b);
  EXPECT_NE(s.message().find(phrase), std::string::npos) << s.message();
  if (culprit) {
    // The offending op is printed.
    EXPECT_NE(s.message().find(print_op(b, culprit)), std::string::npos) << s.message();
  }
}

TEST(IrValidate, BaseProgramIsValid) {
  Base p;
  Status s = validate(p.b);
  EXPECT_TRUE(s) << s.message();
}

TEST(IrValidate, DeclarationsFirst) {
  Base p;
  SsaDef d = p.b.add_after(p.sum, Op::DclTmp(kF32, p.entry));
  expect_violation(p.b, "declaration after code", d);
}

TEST(IrValidate, OneEntryPoint) {
  Base p;
  SsaDef e = p.b.add(Op::EntryPoint(p.fn, ShaderStage::Vertex));
  expect_violation(p.b, "more than one EntryPoint", e);
  Base q;
  q.b.remove(q.entry);
  q.b.remove(q.tmp);
  expect_violation(q.b, "no EntryPoint");
}

TEST(IrValidate, CodeOnlyInsideBlocks) {
  Base p;
  SsaDef op = p.b.add_after(p.end, Op::FNeg(kF32, p.x));
  expect_violation(p.b, "outside a block", op);
  Base q;
  SsaDef m = q.b.add_after(q.fn, Op::FNeg(kF32, q.x));
  expect_violation(q.b, "outside a block", m);
}

TEST(IrValidate, FunctionStructure) {
  Base p;
  SsaDef f = p.b.add_after(p.ret, Op::Function(kVoid));
  expect_violation(p.b, "Function inside a function", f);
  Base q;
  SsaDef e = q.b.add_after(q.end, Op::FunctionEnd());
  expect_violation(q.b, "FunctionEnd outside a function", e);
  Base r;
  r.b.remove(r.ret);
  expect_violation(r.b, "FunctionEnd inside a block", r.end);
  Base s;
  s.b.remove(s.end);
  expect_violation(s.b, "no FunctionEnd");
  Base t;
  t.b.remove(t.end);
  t.b.remove(t.ret);
  expect_violation(t.b, "no terminator");
}

TEST(IrValidate, BlockStructure) {
  Base p;
  SsaDef l = p.b.add_after(p.sum, Op::Label(Construct::None));
  expect_violation(p.b, "Label inside a block", l);
  Base q;
  SsaDef o = q.b.add_after(q.end, Op::Label(Construct::None));
  expect_violation(q.b, "Label outside a function", o);
}

TEST(IrValidate, PhiAtBlockStart) {
  Base p;
  SsaDef phi = p.b.add_after(p.sum, Op::Phi(kF32, p.l1, p.x));
  expect_violation(p.b, "Phi after a non-Phi op", phi);
  Base q;
  q.b.add_after(q.l2, Op::Phi(kF32, q.l1, q.sum));
  EXPECT_TRUE(validate(q.b)) << validate(q.b).message();
}

TEST(IrValidate, OperandCountFitsTheShape) {
  Base p;
  // One operand short: Op::FAdd would not compile, so the op is built untyped.
  SsaDef bad = p.b.add_after(p.sum, Op(OpCode::FAdd, kF32).ref(p.x));
  expect_violation(p.b, "operands do not fit the shape of FAdd", bad);
  Base q;
  SsaDef sw = q.b.add_after(q.l2, Op(OpCode::Phi, kF32).ref(q.l1)); // Phi needs pairs
  expect_violation(q.b, "operands do not fit", sw);
}

TEST(IrValidate, LiteralsLast) {
  Base p;
  Op op(OpCode::FRound, kF32);
  op.literal(std::uint32_t(RoundMode::Zero)).ref(p.x);
  SsaDef bad = p.b.add_after(p.sum, op);
  expect_violation(p.b, "literals must be last", bad);
}

TEST(IrValidate, ReferencesExistAndAreNotForward) {
  Base p;
  SsaDef bad = p.b.add_after(p.sum, Op::FNeg(kF32, SsaDef(999)));
  expect_violation(p.b, "does not exist", bad);
  Base q;
  SsaDef later = q.b.add_after(q.sum, Op::FNeg(kF32, q.x));
  SsaDef fwd = q.b.add_before(later, Op::FAbs(kF32, later));
  expect_violation(q.b, "forward reference", fwd);
  Base r;
  SsaDef removed = r.b.add_after(r.sum, Op::FNeg(kF32, r.x));
  SsaDef user = r.b.add_after(removed, Op::FAbs(kF32, removed));
  r.b.remove(removed);
  expect_violation(r.b, "does not exist", user);
  // Debug ops and Phi may reference later ops.
  Base s;
  s.b.add(Op::DebugName(s.sum, "sum"));
  s.b.add_after(s.l2, Op::Phi(kF32, s.l1, s.sum, s.l2, s.x));
  EXPECT_TRUE(validate(s.b)) << validate(s.b).message();
}

TEST(IrValidate, ReferencedKinds) {
  Base p;
  SsaDef bad = p.b.add_after(p.sum, Op::TmpLoad(kF32, p.x));
  expect_violation(p.b, "must reference a Dcl* declaration", bad);
  Base q;
  SsaDef dcl_as_value = q.b.add_after(q.sum, Op::FNeg(kF32, q.tmp));
  expect_violation(q.b, "must reference a value", dcl_as_value);
  Base r;
  SsaDef br = r.b.next(r.sum);
  r.b.rewrite_op(br, Op::BranchConditional(r.x, r.l2, r.l2));
  expect_violation(r.b, "must reference a bool value", br);
  Base s;
  SsaDef br2 = s.b.next(s.sum);
  s.b.rewrite_op(br2, Op::Branch(s.sum));
  expect_violation(s.b, "must reference a Label", br2);
  Base t;
  SsaDef mode = t.b.add(Op::SetPsEarlyFragmentTest(t.tmp));
  expect_violation(t.b, "must reference an EntryPoint", mode);
  Base u;
  SsaDef nul = u.b.add_after(u.sum, Op::TmpLoad(kF32, SsaDef()));
  expect_violation(u.b, "must not be null", nul);
}

TEST(IrValidate, EnumLiteralsInRange) {
  Base p;
  p.b.rewrite_op(p.l2, Op::Label(Construct(9)));
  expect_violation(p.b, "not a valid Construct", p.l2);
  Base q;
  SsaDef in = q.b.add(Op::DclInput(kF32, q.entry, 0u, 0u, InterpolationModes(64)));
  expect_violation(q.b, "not a valid InterpolationModes", in);
}

TEST(IrValidate, ConstantLiteralCount) {
  Base p;
  SsaDef c = p.b.add(Op::Constant(vec(ScalarType::F32, 4), 1.0f, 2.0f));
  expect_violation(p.b, "constant needs 4 literals, has 2", c);
  Base q;
  SsaDef u = q.b.add(Op::Constant(q.b.types().make_array(kU32, 0)));
  expect_violation(q.b, "no fixed size", u);
}

TEST(IrValidate, ReturnTypes) {
  Base p;
  p.b.rewrite_op(p.sum, Op::FAdd(kU32, p.x, p.x));
  expect_violation(p.b, "FAdd must return a float", p.sum);
  Base q;
  q.b.rewrite_op(q.sum, Op::FEq(kF32, q.x, q.x));
  expect_violation(q.b, "FEq must return bool", q.sum);
  Base r;
  r.b.rewrite_op(r.sum, Op::IAddCarry(kU32, r.x, r.x));
  expect_violation(r.b, "must return vec2<u32>", r.sum);
  Base s;
  SsaDef st = s.b.add_after(s.sum, Op::TmpStore(kF32, s.tmp, s.x));
  expect_violation(s.b, "TmpStore must return void", st);
}

TEST(IrValidate, FlagsAndStrings) {
  Base p;
  p.b.rewrite_op(p.sum, Op::FAdd(kF32, p.x, p.x).set_flags(OpFlags(0x80)));
  expect_violation(p.b, "unknown op flags", p.sum);
  Base q;
  Op name(OpCode::DebugName, kVoid);
  name.ref(q.sum).literal(0x4141414141414141ull);
  SsaDef n = q.b.add(name);
  expect_violation(q.b, "string literal without terminator", n);
}

TEST(IrValidate, ReportsTheFirstViolation) {
  Base p;
  SsaDef first = p.b.add_after(p.l1, Op::FNeg(kF32, SsaDef(500)));
  p.b.add_after(p.sum, Op::FNeg(kF32, SsaDef(600)));
  expect_violation(p.b, "%500", first);
}

} // namespace
} // namespace kiln::ir
