#include "translator/spirv/grammar.h"

#include "translator/spirv/grammar_tables.h"

#include <algorithm>

namespace kiln::spirv::grammar {

const InstructionInfo* find_instruction(std::uint32_t opcode) {
  if (opcode >= tables::kOpcodeIndexSize) return nullptr;
  const std::uint16_t row = tables::kOpcodeIndex[opcode];
  return row == 0xFFFF ? nullptr : &tables::kInstructions[row];
}

std::span<const OperandSpec> operands(const InstructionInfo& instruction) {
  return {tables::kOperandSpecs + instruction.first_operand, instruction.operand_count};
}

const OperandKindInfo& kind_info(OperandKind kind) {
  return tables::kOperandKinds[static_cast<std::uint32_t>(kind)];
}

std::span<const OperandKind> composite_bases(OperandKind kind) {
  const OperandKindInfo& info = kind_info(kind);
  return {tables::kCompositeBases + info.first_base, info.base_count};
}

std::span<const EnumerantInfo> enumerants(OperandKind kind) {
  const OperandKindInfo& info = kind_info(kind);
  return {tables::kEnumerants + info.first_enumerant, info.enumerant_count};
}

const EnumerantInfo* find_enumerant(OperandKind kind, std::uint32_t value) {
  std::span<const EnumerantInfo> all = enumerants(kind);
  auto it = std::lower_bound(all.begin(), all.end(), value,
                             [](const EnumerantInfo& e, std::uint32_t v) { return e.value < v; });
  return it != all.end() && it->value == value ? &*it : nullptr;
}

std::span<const OperandSpec> parameters(const EnumerantInfo& enumerant) {
  return {tables::kOperandSpecs + enumerant.first_parameter, enumerant.parameter_count};
}

const char* glsl_std_450_name(std::uint32_t instruction) {
  return instruction < tables::kGlslStd450Count ? tables::kGlslStd450Names[instruction] : nullptr;
}

const GeneratorInfo* find_generator(std::uint32_t id) {
  for (std::uint32_t i = 0; i < tables::kGeneratorCount; ++i)
    if (tables::kGenerators[i].id == id) return &tables::kGenerators[i];
  return nullptr;
}

} // namespace kiln::spirv::grammar
