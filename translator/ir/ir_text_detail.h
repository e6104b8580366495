#pragma once
// Shared by the printer and the parser.
#include "translator/ir/ir.h"

#include <span>

namespace kiln::ir::detail {
bool string_is_canonical(std::span<const Operand> literals);
} // namespace kiln::ir::detail
