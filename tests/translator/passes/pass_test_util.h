#pragma once
// Helpers for the pass tests: run the pipeline on IR text, look ops up, and check the
// properties of the final form that the IR validator does not (dominance of every use, no
// scoped-form op or Unknown type left).

#include "translator/ir/ir.h"

#include <string>
#include <string_view>
#include <vector>

namespace kiln::passes::test {

// A pixel shader prelude: EntryPoint %1 -> Function %2; input %3 (f32), outputs %4 (f32) and
// %5 (u32), temps %6 %7 %8 (unknown), constants %10 = u32 0, %11 = u32 1, %12 = f32 1.0,
// %13 = f32 2.0, %14 = bool true. `body` is the code of the function's single Label (%20);
// ids from 21 on are free. The function ends with `%998 = Return void null` unless the body
// already returns, and `%999 = FunctionEnd void`.
std::string pixel_shader(std::string_view body, bool add_return = true);

// Every live op of `code`, in program order.
std::vector<ir::SsaDef> find_ops(const ir::Builder& b, ir::OpCode code);
std::size_t count_ops(const ir::Builder& b, ir::OpCode code);

// Empty when every use is dominated by its definition (phi operands: by the end of their
// predecessor); otherwise the first violation.
std::string check_dominance(const ir::Builder& b);
// Empty when no op of the scoped form and no Unknown type is left.
std::string check_final_form(const ir::Builder& b);

} // namespace kiln::passes::test
