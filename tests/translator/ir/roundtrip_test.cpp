#include "tests/support/shared_data.h"
#include "tests/translator/ir/test_programs.h"
#include "translator/ir/ir_serialize.h"
#include "translator/ir/ir_text.h"
#include "translator/ir/ir_validate.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace kiln::ir {
namespace {

// The opcode names of every table in ir-reference.md whose header says `ir::OpCode`.
std::vector<std::string> reference_opcode_names(const std::string& doc) {
  std::vector<std::string> names;
  std::istringstream lines(doc);
  std::string line;
  bool in_opcode_table = false;
  while (std::getline(lines, line)) {
    if (line.rfind("|", 0) != 0) {
      in_opcode_table = false;
      continue;
    }
    if (line.find("`ir::OpCode`") != std::string::npos) {
      in_opcode_table = true;
      continue;
    }
    if (!in_opcode_table) continue;
    std::size_t a = line.find('`');
    std::size_t bar = line.find('|', 1);
    if (a == std::string::npos || a > bar) continue;
    std::size_t e = line.find('`', a + 1);
    std::string name = line.substr(a + 1, e - a - 1);
    while (!name.empty() && name.back() == ' ') name.pop_back();
    names.push_back(name);
  }
  return names;
}

TEST(IrReference, EveryOpcodeOfTheReferenceIsDefined) {
  std::filesystem::path path = std::filesystem::path(KILN_SHARED_DIR) / "docs" / "ir-reference.md";
  if (auto corpus = kiln::test::corpus_dir(); !std::filesystem::exists(path) && !corpus.empty())
    path = corpus.parent_path() / "docs" / "ir-reference.md";
  std::ifstream in(path);
  if (!in) KILN_SKIP_OR_FAIL_IN_CI(path << " not found (put ../shared beside the clone)");
  std::stringstream ss;
  ss << in.rdbuf();
  auto names = reference_opcode_names(ss.str());
  EXPECT_GT(names.size(), 150u) << "the table parser found too few opcodes";
  for (const std::string& name : names) {
    OpCode code;
    EXPECT_TRUE(parse_op_name(name, code)) << name << " is not an ir::OpCode";
  }
}

TEST(IrReference, NamesAreUniqueAndParse) {
  for (std::size_t i = 0; i < std::size_t(OpCode::Count); ++i) {
    OpCode back;
    ASSERT_TRUE(parse_op_name(op_name(OpCode(i)), back));
    EXPECT_EQ(back, OpCode(i));
  }
  for (const EnumTable* t : enum_tables()) {
    std::set<std::string_view> names;
    std::set<std::uint32_t> values;
    for (const EnumEntry& e : t->entries) {
      EXPECT_TRUE(names.insert(e.name).second) << t->type_name << "::" << e.name;
      EXPECT_TRUE(values.insert(e.value).second) << t->type_name << "::" << e.name;
      if (t->is_mask) {
        EXPECT_EQ(e.value & (e.value - 1), 0u) << t->type_name << "::" << e.name;
      }
      EXPECT_TRUE(enum_value_valid(*t, e.value));
    }
    if (t->letter) {
      EXPECT_EQ(enum_table_for_letter(t->letter), t);
    }
  }
  EXPECT_EQ(enum_value_name(kBuiltInTable, std::uint32_t(BuiltIn::TessFactorInner)),
            "TessFactorInner");
  EXPECT_EQ(enum_value_name(kShaderStageTable, std::uint32_t(ShaderStage::Geometry)), "Geometry");
  // Every shape letter is a reference letter, a literal letter or an enum letter.
  for (std::size_t i = 0; i < std::size_t(OpCode::Count); ++i) {
    for (char c : op_info(OpCode(i)).shape) {
      bool known = std::string_view("dnxeflpvioqbk0#$[]").find(c) != std::string_view::npos ||
                   enum_table_for_letter(c) != nullptr;
      EXPECT_TRUE(known) << op_name(OpCode(i)) << " uses '" << c << "'";
    }
  }
}

TEST(IrReference, EveryOpcodeProgramIsValidAndComplete) {
  Builder b;
  test::build_every_opcode(b);
  Status s = validate(b);
  EXPECT_TRUE(s) << s.message() << "\n" << print(b);
  std::set<OpCode> seen;
  for (OpView op : b.ops()) seen.insert(op.code());
  for (std::size_t i = 0; i < std::size_t(OpCode::Count); ++i)
    EXPECT_TRUE(seen.count(OpCode(i))) << op_name(OpCode(i));
}

void expect_round_trips(Builder& b) {
  std::string text = print(b);
  Builder parsed;
  Status s = parse(text, parsed);
  ASSERT_TRUE(s) << s.message();
  EXPECT_EQ(print(parsed), text);
  EXPECT_TRUE(validate(parsed)) << validate(parsed).message();

  std::vector<std::uint8_t> bytes;
  serialize(b, bytes);
  Builder loaded;
  s = deserialize(bytes, loaded);
  ASSERT_TRUE(s) << s.message();
  EXPECT_EQ(print(loaded), test::renumber(text));
  std::vector<std::uint8_t> again;
  serialize(loaded, again);
  EXPECT_EQ(again, bytes);
  EXPECT_TRUE(validate(loaded)) << validate(loaded).message();
}

TEST(IrText, EveryOpcodeRoundTrips) {
  Builder b;
  test::build_every_opcode(b);
  expect_round_trips(b);
}

TEST(IrText, EveryTypeShapeRoundTrips) {
  Builder b;
  test::build_every_type(b);
  Status s = validate(b);
  EXPECT_TRUE(s) << s.message();
  expect_round_trips(b);
  std::string text = print(b);
  EXPECT_NE(text.find("vec4<min12i>"), std::string::npos);
  EXPECT_NE(text.find("{u32, vec4<f32>, vec2<i16>, bool}[2]"), std::string::npos);
  EXPECT_NE(text.find("u32[4][]"), std::string::npos);
  EXPECT_NE(text.find("i32[2][2][2]"), std::string::npos);
}

TEST(IrText, LargeProgramRoundTrips) {
  Builder b;
  test::build_large(b, 3000);
  ASSERT_TRUE(validate(b));
  expect_round_trips(b);
}

TEST(IrText, ReadableSyntax) {
  Builder b;
  b.reset();
  SsaDef fn = b.add(Op::Function(kVoid));
  SsaDef entry = b.add(Op::EntryPoint(fn, ShaderStage::Pixel));
  SsaDef in = b.add(Op::DclInput(vec(ScalarType::F32, 4), entry, 1u, 0u,
                                 InterpolationModes::Centroid | InterpolationModes::NoPerspective));
  b.add(Op::DebugName(in, "v_texcoord \"0\""));
  b.add(Op::Label(Construct::None));
  SsaDef x = b.add(Op::InputLoad(kF32, in, b.constant_u32(2)));
  b.add(Op::FMul(kF32, x, b.constant_f32(-0.5f)).set_flags(OpFlags::Precise | OpFlags::NoSz));
  b.add(Op::Return(SsaDef()));
  b.add(Op::FunctionEnd());
  std::string text = print(b);
  EXPECT_NE(text.find("= DclInput vec4<f32> %2 1 0 Centroid|NoPerspective\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("= DebugName void %3 \"v_texcoord \\\"0\\\"\"\n"), std::string::npos) << text;
  EXPECT_NE(text.find("= Constant f32 -0.5\n"), std::string::npos) << text;
  EXPECT_NE(text.find("    %9 = FMul[Precise|NoSz] f32 %7 %8\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  %5 = Label void None\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\n%11 = FunctionEnd void"), std::string::npos) << text;
  expect_round_trips(b);
}

TEST(IrText, NonFiniteAndOddLiteralsSurvive) {
  Builder b;
  b.reset();
  b.add(Op::Constant(kF32, std::uint32_t(0x7fc00001u))); // NaN with payload
  b.add(Op::Constant(vec(ScalarType::F64, 2), -0.0, 1e300));
  b.add(Op::Constant(vec(ScalarType::I64, 2), std::int64_t(-9), std::int64_t(1) << 62));
  b.add(Op::Constant(kBool, std::uint32_t(7))); // not 0/1: printed as number
  // A name without its terminator: malformed, so built untyped (the builder wants a string).
  b.add(Op(OpCode::DebugName, kVoid).ref(SsaDef(1)).literal(0x4141414141414141ull));
  std::string text = print(b);
  Builder parsed;
  ASSERT_TRUE(parse(text, parsed));
  EXPECT_EQ(print(parsed), text);
}

TEST(IrText, ParseErrorsNameTheLine) {
  Builder b;
  Status s = parse("%1 = Constant u32 1\n%2 = Bogus void\n", b);
  ASSERT_FALSE(s);
  EXPECT_NE(s.message().find("line 2"), std::string::npos) << s.message();
  EXPECT_FALSE(parse("%1 = Constant u32 1\n%1 = Constant u32 2\n", b));
  EXPECT_FALSE(parse("%1 = FAdd vec5<f32> %1 %1\n", b));
  EXPECT_FALSE(parse("%1 = FRound f32 NearestEven %1\n", b));
  EXPECT_FALSE(parse("%1 = DebugName void %1 \"abc\n", b));
  EXPECT_FALSE(parse("%1 = Label void Nowhere\n", b));
  EXPECT_FALSE(parse("%1 = Constant u32[1][1][1][1] 1\n", b));
  EXPECT_TRUE(parse("; a comment\n\n  %1 = Constant u32 1 ; trailing\n", b));
}

TEST(IrText, MangledTextNeverCrashes) {
  Builder b;
  test::build_every_opcode(b);
  std::string text = print(b);
  std::mt19937 rng(99);
  const char alphabet[] = "%=[]{}<>|\"\\ 0123456789-.xabcdefNnull\n;,";
  Builder out;
  std::size_t accepted = 0;
  for (int round = 0; round < 2000; ++round) {
    std::string t = text;
    for (int k = 0; k < 3; ++k) t[rng() % t.size()] = alphabet[rng() % (sizeof(alphabet) - 1)];
    if (rng() % 4 == 0) t.resize(rng() % t.size());
    if (parse(t, out)) {
      ++accepted;
      (void)validate(out);
      std::string again = print(out);
      std::vector<std::uint8_t> bytes;
      serialize(out, bytes);
    }
  }
  EXPECT_LT(accepted, 2000u);
}

TEST(IrBinary, TokensUseTheDocumentedEncoding) {
  std::vector<std::uint8_t> out;
  write_token(5, out);
  EXPECT_EQ(out, (std::vector<std::uint8_t>{0x05}));
  out.clear();
  write_token(-1, out);
  EXPECT_EQ(out, (std::vector<std::uint8_t>{0x7f}));
  out.clear();
  write_token(64, out); // needs 8 signed bits: two bytes, 0b10xxxxxx
  EXPECT_EQ(out, (std::vector<std::uint8_t>{0x80, 0x40}));
  out.clear();
  write_token(0x12345, out); // 21 bits signed: three bytes 0b110xxxxx
  EXPECT_EQ(out, (std::vector<std::uint8_t>{0xc1, 0x23, 0x45}));
  for (std::int64_t v :
       {std::int64_t(0), std::int64_t(63), std::int64_t(-64), std::int64_t(-65), std::int64_t(8191),
        std::int64_t(1) << 40, -(std::int64_t(1) << 55), std::int64_t(0x7fffffffffffffffll),
        std::int64_t(-0x7fffffffffffffffll - 1), std::int64_t(0xffffffffll)}) {
    out.clear();
    write_token(v, out);
    std::size_t off = 0;
    std::int64_t back = 0;
    ASSERT_TRUE(read_token(out, off, back));
    EXPECT_EQ(back, v);
    EXPECT_EQ(off, out.size());
  }
}

TEST(IrBinary, OpLayoutMatchesTheReference) {
  Builder b;
  b.reset();
  SsaDef c = b.constant_u32(3);
  b.add_after(c, Op::IAdd(kU32, c, c).set_flags(OpFlags::NoSz));
  std::vector<std::uint8_t> bytes;
  serialize(b, bytes);
  std::vector<std::uint8_t> want;
  write_token(std::int64_t(OpCode::Constant), want);
  write_token(1, want);
  write_token(1 << 2, want);                        // no dims, one member
  write_token(std::int64_t(ScalarType::U32), want); // vector size 1
  write_token(3, want);
  write_token(std::int64_t(OpCode::IAdd) | std::int64_t(OpFlags::NoSz) << 10, want);
  write_token(2, want);
  write_token(1 << 2, want);
  write_token(std::int64_t(ScalarType::U32), want);
  write_token(1, want); // %1 from %2
  write_token(1, want);
  EXPECT_EQ(bytes, want);
}

TEST(IrBinary, TruncationsAndCorruptionNeverCrash) {
  Builder b;
  test::build_every_opcode(b);
  std::vector<std::uint8_t> bytes;
  serialize(b, bytes);
  Builder out;
  std::size_t errors = 0;
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    Status s = deserialize(std::span(bytes.data(), n), out);
    if (!s) {
      ++errors;
      EXPECT_NE(s.message().find("byte"), std::string::npos) << s.message();
    }
  }
  EXPECT_GT(errors, bytes.size() / 2);
  std::mt19937 rng(1234);
  for (int round = 0; round < 3000; ++round) {
    std::vector<std::uint8_t> junk(rng() % 200);
    for (auto& x : junk) x = std::uint8_t(rng());
    (void)deserialize(junk, out);
    std::vector<std::uint8_t> flipped = bytes;
    for (int k = 0; k < 4; ++k) flipped[rng() % flipped.size()] = std::uint8_t(rng());
    if (deserialize(flipped, out)) {
      (void)validate(out);
      (void)print(out);
    }
  }
  // Specific malformations.
  EXPECT_FALSE(deserialize(std::vector<std::uint8_t>{0xc0, 0x7f, 0xff}, out)); // opcode 1023
  EXPECT_FALSE(
      deserialize(std::vector<std::uint8_t>{0x00, 0x05, 0x04, 0x08}, out)); // count > bytes
  std::vector<std::uint8_t> fwd;
  write_token(std::int64_t(OpCode::FNeg), fwd);
  write_token(1, fwd);
  write_token(4, fwd);
  write_token(std::int64_t(ScalarType::F32), fwd);
  write_token(-5, fwd); // %6 from %1: beyond the last op
  Status s = deserialize(fwd, out);
  EXPECT_FALSE(s);
}

} // namespace
} // namespace kiln::ir
