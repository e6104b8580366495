// Cross-checks the generated tables against the JSON grammar they were generated from, read
// here independently (line by line, no JSON library): every opcode and every enumerant of the
// grammar must be found by the lookups, under its own name or an alias sharing its value.

#include "tests/support/shared_data.h"
#include "translator/spirv/grammar.h"

#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <optional>
#include <string>

namespace kiln::spirv::grammar {
namespace {

// `"key" : "text"` or `"key" : 123` / `"0x0010"` on one line -> the value text.
std::optional<std::string> field(const std::string& line, const std::string& key) {
  const std::string quoted = "\"" + key + "\"";
  std::size_t at = line.find(quoted);
  if (at == std::string::npos) return std::nullopt;
  at = line.find(':', at + quoted.size());
  if (at == std::string::npos) return std::nullopt;
  std::size_t begin = line.find_first_not_of(" \t\"", at + 1);
  std::size_t end = line.find_first_of("\",", begin);
  if (begin == std::string::npos) return std::nullopt;
  return line.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
}

std::optional<OperandKind> kind_named(const std::string& name) {
  for (std::uint32_t k = 0; k < kOperandKindCount; ++k)
    if (name == kind_info(static_cast<OperandKind>(k)).name) return static_cast<OperandKind>(k);
  return std::nullopt;
}

TEST(SpirvGrammarJson, EveryOpcodeAndEnumerantIsInTheTables) {
  std::ifstream json(KILN_SPIRV_GRAMMAR_PATH);
  if (!json) KILN_SKIP_OR_FAIL_IN_CI("grammar not readable at " << KILN_SPIRV_GRAMMAR_PATH);
  std::string line, opname, enumerant;
  std::optional<OperandKind> current_kind;
  bool expect_kind_name = false;
  std::size_t opcodes = 0, exact_names = 0, enumerant_count = 0;
  while (std::getline(json, line)) {
    if (auto name = field(line, "opname")) opname = *name;
    if (auto opcode = field(line, "opcode"); opcode && !opname.empty()) {
      const InstructionInfo* info = find_instruction(std::stoul(*opcode));
      ASSERT_NE(info, nullptr) << opname;
      exact_names += opname == info->name;
      ++opcodes;
      opname.clear();
    }
    if (field(line, "category")) expect_kind_name = true;
    if (auto kind = field(line, "kind"); kind && expect_kind_name) {
      current_kind = kind_named(*kind);
      ASSERT_TRUE(current_kind.has_value()) << *kind;
      expect_kind_name = false;
    }
    if (auto name = field(line, "enumerant")) enumerant = *name;
    if (auto value = field(line, "value"); value && !enumerant.empty()) {
      ASSERT_TRUE(current_kind.has_value());
      const EnumerantInfo* info = find_enumerant(*current_kind, std::stoul(*value, nullptr, 0));
      ASSERT_NE(info, nullptr) << enumerant;
      ++enumerant_count;
      enumerant.clear();
    }
  }
  EXPECT_GT(opcodes, 500u);
  EXPECT_GT(enumerant_count, 800u);
  // Aliases (OpSDotKHR next to OpSDot, ...) share an opcode; the tables keep the first name.
  EXPECT_GT(exact_names, opcodes * 9 / 10);
}

} // namespace
} // namespace kiln::spirv::grammar
