#pragma once
// The SPIR-V grammar as data: opcodes with their operand lists, operand kinds with their
// enumerants (and the operands an enumerant brings along), GLSL.std.450 instruction names and
// the generator registry. The tables are generated at build time by scripts/gen_spirv_tables.py
// from the spirv-headers JSON grammar; this header only declares their shape and lookups.

#include "spirv_grammar_operand_kinds.h" // generated: enum class OperandKind

#include <cstdint>
#include <span>

namespace kiln::spirv::grammar {

enum class OperandCategory : std::uint8_t { BitEnum, ValueEnum, Id, Literal, Composite };
enum class Quantifier : std::uint8_t { One, Optional, Variadic };

struct OperandSpec {
  OperandKind kind;
  Quantifier quantifier;
};

struct EnumerantInfo {
  const char* name;
  std::uint32_t value;
  std::uint16_t first_parameter; // into the operand spec table
  std::uint16_t parameter_count;
};

struct OperandKindInfo {
  const char* name;
  OperandCategory category;
  std::uint16_t first_enumerant; // sorted by value, one name per value
  std::uint16_t enumerant_count;
  std::uint16_t first_base; // Composite kinds: the kinds they are made of
  std::uint16_t base_count;
};

struct InstructionInfo {
  const char* name; // "OpFAdd"
  std::uint16_t opcode;
  std::uint16_t first_operand;
  std::uint16_t operand_count;
};

struct GeneratorInfo {
  std::uint32_t id; // upper 16 bits of the header's generator word
  const char* vendor;
  const char* tool; // may be empty
};

// nullptr when the opcode is not in the grammar.
const InstructionInfo* find_instruction(std::uint32_t opcode);
std::span<const OperandSpec> operands(const InstructionInfo& instruction);

const OperandKindInfo& kind_info(OperandKind kind);
std::span<const OperandKind> composite_bases(OperandKind kind);
std::span<const EnumerantInfo> enumerants(OperandKind kind);
// Exact value match (for BitEnum kinds: one bit, or 0). nullptr when unknown.
const EnumerantInfo* find_enumerant(OperandKind kind, std::uint32_t value);
std::span<const OperandSpec> parameters(const EnumerantInfo& enumerant);

// GLSL.std.450 extended instruction name ("Sqrt"), nullptr when unknown.
const char* glsl_std_450_name(std::uint32_t instruction);
// nullptr when the generator id is not registered.
const GeneratorInfo* find_generator(std::uint32_t id);

} // namespace kiln::spirv::grammar
