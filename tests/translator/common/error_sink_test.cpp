// The translator's one error convention (common/status.h): every stage reports into an ErrorSink
// with fail(where, what), the first report wins, and the stage's boundary turns the sink into its
// Status once (outcome). The texts each stage spells are part of its contract: the ones pinned
// here are the stages that moved onto the sink (IR text parser, binary reader, validator, SPIR-V
// disassembler, DXBC chunk readers).
#include "translator/common/status.h"
#include "translator/d3d9/constant_table.h"
#include "translator/dxbc/reader.h"
#include "translator/dxbc/signature.h"
#include "translator/ir/ir.h"
#include "translator/ir/ir_serialize.h"
#include "translator/ir/ir_text.h"
#include "translator/ir/ir_validate.h"
#include "translator/spirv/disassembler.h"

#include <cstdint>
#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace kiln {
namespace {

std::string spell_for_test(const Where& where, std::string_view what) {
  if (!where.known()) return std::string(what);
  return "at " + std::to_string(where.position) + " (" + std::string(where.name) +
         "): " + std::string(what);
}

TEST(ErrorSink, TheFirstReportWins) {
  ErrorSink errors{&spell_for_test};
  EXPECT_FALSE(errors.failed());
  EXPECT_FALSE(errors.fail(Where(3, "add"), "first"));
  EXPECT_FALSE(errors.fail(Where(9, "mul"), "a consequence"));
  EXPECT_TRUE(errors.failed());
  const Status status = errors.outcome(false);
  ASSERT_FALSE(status);
  EXPECT_EQ(status.message(), "at 3 (add): first");
  EXPECT_FALSE(errors.failed()); // taken once: the sink is empty again
}

TEST(ErrorSink, OutcomeOfAStageThatRanThrough) {
  ErrorSink errors{&spell_for_test};
  EXPECT_TRUE(errors.outcome(true));
  // A report stands even when the walk itself answered true (DXBC operand helpers go on).
  errors.fail(Where(), "reported on the way");
  const Status status = errors.outcome(true);
  ASSERT_FALSE(status);
  EXPECT_EQ(status.message(), "reported on the way");
}

TEST(ErrorSink, AFalseWithoutAReportStillFails) {
  ErrorSink errors{&spell_for_test};
  const Status status = errors.outcome(false, "stage: stopped without a reason");
  ASSERT_FALSE(status);
  EXPECT_EQ(status.message(), "stage: stopped without a reason");
}

TEST(ErrorSink, WhereKinds) {
  EXPECT_FALSE(Where().known());
  EXPECT_TRUE(Where(0).known());
  EXPECT_FALSE(Where::beside_input().known());
  EXPECT_TRUE(Where::beside_input().is_beside_input());
  EXPECT_FALSE(Where(7).is_beside_input());
}

TEST(StageErrorTexts, IrTextParser) {
  ir::Builder b;
  const Status status = ir::parse("%1 = Constant u32 1\n%2 = Bogus void\n", b);
  ASSERT_FALSE(status);
  EXPECT_EQ(status.message(), "ir text: line 2: unknown opcode 'Bogus'");
}

TEST(StageErrorTexts, IrValidator) {
  ir::Builder b;
  const Status status = ir::validate(b);
  ASSERT_FALSE(status);
  EXPECT_EQ(status.message(), "ir: no EntryPoint");
}

TEST(StageErrorTexts, IrBinaryReader) {
  ir::Builder b;
  // One byte with its continuation bit set: a token cut short.
  const std::uint8_t truncated[] = {0x80};
  const Status status = ir::deserialize(truncated, b);
  ASSERT_FALSE(status);
  EXPECT_EQ(status.message(), "ir binary: truncated token at byte 0");
}

TEST(StageErrorTexts, SpirvDisassembler) {
  std::string text;
  Status status = spirv::disassemble({}, text);
  ASSERT_FALSE(status);
  EXPECT_EQ(status.message(), "SPIR-V: truncated header (0 words, need 5)");
  const std::uint32_t bad_magic[] = {0xdeadbeefu, 0x00010000u, 0, 1, 0};
  status = spirv::disassemble(bad_magic, text);
  ASSERT_FALSE(status);
  EXPECT_EQ(status.message(), "SPIR-V: word 0: bad magic number 0xdeadbeef");
}

TEST(StageErrorTexts, DxbcChunkReaders) {
  const std::uint8_t short_rdef[8] = {};
  dxbc::ReflectionView rdef;
  Status status = rdef.open(short_rdef);
  ASSERT_FALSE(status);
  EXPECT_EQ(status.message(), "RDEF chunk: header truncated (offset 0)");
  dxbc::SignatureChunk chunk;
  chunk.data = std::span<const std::uint8_t>(short_rdef, 4);
  chunk.format = dxbc::SignatureFormat::Basic;
  dxbc::PodArray<dxbc::SignatureElement> elements;
  status = dxbc::parse_signature(chunk, elements);
  ASSERT_FALSE(status);
  EXPECT_EQ(status.message(), "signature chunk: header truncated (offset 0)");
}

TEST(StageErrorTexts, DxbcProgramHeader) {
  dxbc::Program program;
  const std::uint8_t four_bytes[4] = {};
  Status status = dxbc::decode_program(four_bytes, program);
  ASSERT_FALSE(status);
  EXPECT_EQ(status.message(), "SHDR: program shorter than its 2-token header");
  // Version token 0x00070050: program type 7, shader model 5.0; length 2.
  const std::uint8_t type7[8] = {0x50, 0x00, 0x07, 0x00, 0x02, 0x00, 0x00, 0x00};
  status = dxbc::decode_program(type7, program);
  ASSERT_FALSE(status);
  EXPECT_EQ(status.message(), "SHDR token 0: unknown program type 7");
  // Pixel shader 5.0 whose length token says 9 tokens in a chunk of 2.
  const std::uint8_t too_long[8] = {0x50, 0x00, 0x00, 0x00, 0x09, 0x00, 0x00, 0x00};
  status = dxbc::decode_program(too_long, program);
  ASSERT_FALSE(status);
  EXPECT_EQ(status.message(), "SHDR token 1: program length 9 outside the chunk (2 tokens)");
}

TEST(StageErrorTexts, D3d9ConstantTable) {
  const std::uint8_t tokens[16] = {};
  const d3d9::Comment not_ctab{1, 2, 0x12345678u};
  d3d9::ConstantTable table;
  const Status status = d3d9::read_constant_table(tokens, not_ctab, table);
  ASSERT_FALSE(status);
  EXPECT_EQ(status.message(), "CTAB at byte 4: not a CTAB comment");
}

} // namespace
} // namespace kiln
