#pragma once
// Programs for the IR tests and the micro-benchmark.
#include "translator/ir/ir.h"

#include <cstdint>
#include <string>

namespace kiln::ir::test {

// A valid program that uses every opcode of the table at least once.
void build_every_opcode(Builder& b);
// A valid program with a Constant of every type shape: every scalar type as scalar and vec2-4,
// structs, arrays of 1-3 dimensions, an unbounded array (as a DclSrv type) and void.
void build_every_type(Builder& b);
// A valid straight-line pixel-shader-like program of about `ops` ops.
void build_large(Builder& b, std::uint32_t ops);

// Renumbers %ids in order of definition (line order), as deserialize(serialize()) does.
std::string renumber(const std::string& text);

} // namespace kiln::ir::test
