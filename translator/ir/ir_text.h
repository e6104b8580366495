#pragma once
// The IR's text form: one op per line, `%id = Name[Flags] type operands...`, references as
// `%id` or `null`, enum literals by name, strings quoted, constants typed by the op's type.
// Code is indented inside Function and again inside Label..terminator. print -> parse -> print
// gives the same text; ids are kept as written.

#include "translator/common/status.h"
#include "translator/ir/ir.h"

#include <string>
#include <string_view>

namespace kiln::ir {

std::string print_type(const TypeTable& types, Type type);
// One op without indentation or newline.
std::string print_op(const Builder& builder, SsaDef def);
// The whole program.
std::string print(const Builder& builder);
void print(const Builder& builder, std::string& out);

// Parses `text` into `out` (which is reset first). Errors name the line.
Status parse(std::string_view text, Builder& out);

} // namespace kiln::ir
