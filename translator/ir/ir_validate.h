#pragma once
// Checks a program against the layout rules of docs/ir.md and reports the FIRST
// violation with the offending op printed. Rules: declarations first; block structure
// (Function / Label / terminator / FunctionEnd); Phi only at the start of a block; exactly one
// EntryPoint; operand counts and the reference/literal split of each opcode's shape (literals
// last); no forward references except from Debug*, Phi, and to Labels, Functions and Scoped*
// markers; referenced ops of the kind the shape fixes (EntryPoint, Label, Dcl*, bool value,
// ...); no Dcl* or void op used as a value; enum literals in range; constant literal counts;
// the return types the opcode table fixes; known flags.

#include "translator/common/status.h"
#include "translator/ir/ir.h"

namespace kiln::ir {

Status validate(const Builder& builder);

} // namespace kiln::ir
