#pragma once
// docs/ir-ops.md's op rows, written from the opcode table and the roles table: the rows are
// generated, the prose between them is not. kiln_ir_docs rewrites the file; the IR tests fail
// while the checked-in file differs from what it would write.

#include "translator/ir/ir_opcodes.h"

#include <string>
#include <string_view>

namespace kiln::ir {

// `| # | op | category | returns | shape | traits | fold | operands |` for one op.
std::string ir_ops_doc_row(OpCode code);

// `current` with every op row (a line `| <number> | ...`) replaced by the generated one.
std::string regenerate_ir_ops_doc(std::string_view current);

} // namespace kiln::ir
