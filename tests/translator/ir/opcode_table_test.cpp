// The opcode table's columns against what docs/ir.md says of them and against the invariants
// the passes rely on.
#include "translator/ir/ir_opcodes.h"
#include "translator/ir/ir_ops_doc.h"

#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <string>

namespace kiln::ir {
namespace {

std::string read_docs(const char* name) {
  std::ifstream in(std::string(KILN_DOCS_DIR "/") + name);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The row docs/ir.md gives a range: `| first-last | name | Op, Op, ... |`.
std::string range_row(const OpcodeRange& r) {
  std::string row = "| " + std::to_string(unsigned(r.first)) + "-" +
                    std::to_string(unsigned(r.last)) + " | " + std::string(r.name) + " | ";
  for (unsigned i = unsigned(r.first); i <= unsigned(r.last); ++i) {
    if (i != unsigned(r.first)) row += ", ";
    row += "`" + std::string(op_name(OpCode(i))) + "`";
  }
  return row + " |";
}

TEST(OpcodeTable, DocsListEveryRangeWithItsNumbersAndOps) {
  std::string docs = read_docs("ir.md");
  ASSERT_FALSE(docs.empty()) << "cannot read " KILN_DOCS_DIR "/ir.md";
  for (const OpcodeRange& r : kOpcodeRanges)
    EXPECT_NE(docs.find(range_row(r)), std::string::npos)
        << "docs/ir.md lacks the row (or has an old one):\n"
        << range_row(r);
}

TEST(OpcodeTable, DocsListEveryOpUnderItsNumber) {
  std::string docs = read_docs("ir-ops.md");
  ASSERT_FALSE(docs.empty()) << "cannot read " KILN_DOCS_DIR "/ir-ops.md";
  for (const OpInfo& info : kOpInfo) {
    std::string row =
        "\n| " + std::to_string(unsigned(info.code)) + " | `" + std::string(info.name) + "` | ";
    EXPECT_NE(docs.find(row), std::string::npos) << "docs/ir-ops.md lacks the row of " << info.name;
  }
}

// The op rows of docs/ir-ops.md are the ones kiln_ir_docs writes from the tables.
TEST(OpcodeTable, DocsOpRowsAreGeneratedFromTheTables) {
  std::string docs = read_docs("ir-ops.md");
  ASSERT_FALSE(docs.empty());
  std::istringstream have(docs), want(regenerate_ir_ops_doc(docs));
  std::string a, b;
  std::size_t stale = 0;
  while (std::getline(have, a) && std::getline(want, b)) {
    if (a == b) continue;
    if (++stale <= 5) ADD_FAILURE() << "docs/ir-ops.md has\n" << a << "\nthe tables give\n" << b;
  }
  EXPECT_EQ(stale, 0u) << "rows differ; from the source root run: "
                          "build/<dir>/translator/ir/kiln_ir_docs docs/ir-ops.md";
}

// The generated row names every role, in shape order, with its kind.
TEST(OpcodeTable, GeneratedRowsSpellTheRoles) {
  EXPECT_EQ(
      ir_ops_doc_row(OpCode::LdsAtomic),
      "| 66 | `LdsAtomic` | Code | VoidOrScalar | `vnnA` | Effects |  | `%variable` `%address` "
      "`%arguments` `atomic_op`: `ir::AtomicOp` |");
  EXPECT_EQ(ir_ops_doc_row(OpCode::Switch),
            "| 88 | `Switch` | Terminator | Void | `dl[dl]` |  |  | `%selector` `%default_block` "
            "[`%case_value` `%case_block`]... |");
  EXPECT_EQ(ir_ops_doc_row(OpCode::ScopedIf),
            "| 91 | `ScopedIf` | Code | Void | `kb` | Effects, Scoped, NotFinal |  | `%partner` "
            "`%condition` |");
  EXPECT_EQ(ir_ops_doc_row(OpCode::Constant),
            "| 3 | `Constant` | Constant | Any | `#` |  |  | `values`... |");
}

TEST(OpcodeTable, ScopedTraitMarksExactlyTheScopedMarkers) {
  for (const OpInfo& info : kOpInfo) {
    bool named_scoped = info.name.starts_with("Scoped");
    EXPECT_EQ(has_trait(info.traits, OpTraits::Scoped), named_scoped) << info.name;
    // A marker carries the control flow until scoped_to_structured: dead code must keep it,
    // and it never reaches the backend.
    if (named_scoped) {
      EXPECT_FALSE(is_pure(info.code)) << info.name;
      EXPECT_TRUE(has_trait(info.traits, OpTraits::NotFinal)) << info.name;
    }
  }
}

TEST(OpcodeTable, NotFinalMarksWhatThePassesRemove) {
  for (OpCode c : {OpCode::DclTmp, OpCode::TmpLoad, OpCode::TmpStore, OpCode::ConsumeAs,
                   OpCode::MinValue, OpCode::MaxValue, OpCode::FDot, OpCode::FDotLegacy,
                   OpCode::FMulLegacy, OpCode::FMadLegacy, OpCode::FPowLegacy, OpCode::Drain})
    EXPECT_TRUE(has_trait(c, OpTraits::NotFinal)) << op_name(c);
  for (OpCode c : {OpCode::FMul, OpCode::FMad, OpCode::Phi, OpCode::Label, OpCode::DclInput})
    EXPECT_FALSE(has_trait(c, OpTraits::NotFinal)) << op_name(c);
}

TEST(OpcodeTable, WritesAndAtomicsHaveEffects) {
  for (const OpInfo& info : kOpInfo) {
    if (info.name.ends_with("Store") || info.name.ends_with("Atomic")) {
      EXPECT_TRUE(has_trait(info.traits, OpTraits::Effects)) << info.name;
    }
  }
  EXPECT_FALSE(is_pure(OpCode::FunctionCall));
  EXPECT_FALSE(is_pure(OpCode::Demote));
  EXPECT_FALSE(is_pure(OpCode::DclSpecConstant));
  EXPECT_TRUE(is_pure(OpCode::FAdd));
  EXPECT_TRUE(is_pure(OpCode::ImageSample));
  EXPECT_TRUE(is_pure(OpCode::Constant));
  EXPECT_TRUE(is_pure(OpCode::MinValue));
  EXPECT_FALSE(is_pure(OpCode::DclInput));
  EXPECT_FALSE(is_pure(OpCode::Branch));
}

// constant_fold.cpp calls a rule with two operand values and no literals.
TEST(OpcodeTable, ScalarFoldRulesTakeOneOrTwoValuesAndNoLiterals) {
  for (const OpInfo& info : kOpInfo) {
    if (info.fold != FoldRule::Exact && info.fold != FoldRule::Rounded) continue;
    EXPECT_EQ(info.category, OpCategory::Code) << info.name;
    EXPECT_TRUE(info.shape == "d" || info.shape == "dd" || info.shape == "b" || info.shape == "bb")
        << info.name << " has shape " << info.shape;
    if (info.fold == FoldRule::Rounded) {
      EXPECT_EQ(info.return_class, ReturnClass::Float) << info.name;
    }
  }
}

} // namespace
} // namespace kiln::ir
