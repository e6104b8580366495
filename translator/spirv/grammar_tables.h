#pragma once
// The raw generated tables behind grammar.h (defined in the build's spirv_grammar_tables.cpp).
// Only grammar.cpp and the generated file include this.

#include "translator/spirv/grammar.h"

namespace kiln::spirv::grammar::tables {

extern const OperandSpec kOperandSpecs[];
extern const OperandKind kCompositeBases[];
extern const EnumerantInfo kEnumerants[];
extern const OperandKindInfo kOperandKinds[];
extern const InstructionInfo kInstructions[];
extern const std::uint32_t kInstructionCount;
extern const std::uint16_t kOpcodeIndex[];
extern const std::uint32_t kOpcodeIndexSize;
extern const char* const kGlslStd450Names[];
extern const std::uint32_t kGlslStd450Count;
extern const GeneratorInfo kGenerators[];
extern const std::uint32_t kGeneratorCount;

} // namespace kiln::spirv::grammar::tables
