#include "translator/ir/ir_ops_doc.h"

#include "translator/ir/ir_enums.h"
#include "translator/ir/ir_operand_roles.h"

#include <cstddef>

namespace kiln::ir {
namespace {

// The table's columns as written (OpInfo keeps their values, not their spelling).
struct ColumnText {
  std::string_view category, returns, traits, fold;
};
constexpr ColumnText kColumnText[] = {
#define KILN_X(name, number, category, ret, shape, traits, fold) {#category, #ret, #traits, #fold},
    KILN_IR_OPCODES(KILN_X)
#undef KILN_X
};

struct EnumLetter {
  char letter;
  std::string_view type;
};
constexpr EnumLetter kEnumLetters[] = {
#define KILN_X(Type, LIST, is_mask, letter) {letter, #Type},
    KILN_IR_ENUMS(KILN_X)
#undef KILN_X
};

std::string_view enum_of_letter(char letter) {
  for (const EnumLetter& e : kEnumLetters)
    if (e.letter == letter) return e.type;
  return {};
}

// "Effects | NotFinal" -> "Effects, NotFinal"; "None" -> "".
std::string traits_text(std::string_view traits) {
  if (traits == "None") return {};
  std::string out;
  for (std::size_t bar; (bar = traits.find(" | ")) != std::string_view::npos;) {
    out.append(traits.substr(0, bar)).append(", ");
    traits.remove_prefix(bar + 3);
  }
  return out.append(traits);
}

std::string operands_text(OpCode code) {
  const std::string_view shape = op_info(code).shape, roles = operand_roles(code);
  std::string out;
  std::size_t role = 0;
  for (char letter : shape) {
    if (letter == '[' || letter == ']') {
      if (!out.empty() && letter == '[') out += ' ';
      out += letter == '[' ? "[" : "]...";
      continue;
    }
    if (!out.empty() && out.back() != '[') out += ' ';
    const std::string name(role_name(roles, role++));
    if (is_ref_letter(letter))
      out += "`%" + name + "`";
    else if (letter == '#' || letter == '$')
      out += "`" + name + "`...";
    else if (letter == '0')
      out += "`" + name + "`";
    else
      out += "`" + name + "`: `ir::" + std::string(enum_of_letter(letter)) + "`";
  }
  return out;
}

} // namespace

std::string ir_ops_doc_row(OpCode code) {
  const OpInfo& info = op_info(code);
  const ColumnText& text = kColumnText[std::size_t(code)];
  auto cell = [](std::string_view s) { return " " + std::string(s) + " |"; };
  std::string row = "|" + cell(std::to_string(unsigned(code)));
  row += cell("`" + std::string(info.name) + "`");
  row += cell(text.category);
  row += cell(text.returns);
  row += cell(info.shape.empty() ? std::string() : "`" + std::string(info.shape) + "`");
  row += cell(traits_text(text.traits));
  row += cell(text.fold == "NoFold" ? std::string_view() : text.fold);
  row += cell(operands_text(code));
  return row;
}

std::string regenerate_ir_ops_doc(std::string_view current) {
  std::string out;
  while (!current.empty()) {
    std::size_t end = current.find('\n');
    std::string_view line = current.substr(0, end);
    current.remove_prefix(end == std::string_view::npos ? current.size() : end + 1);
    // An op row: `| <number> | `.
    std::size_t digits = 2;
    while (digits < line.size() && line[digits] >= '0' && line[digits] <= '9') ++digits;
    unsigned number = 0;
    for (std::size_t i = 2; i < digits; ++i) number = number * 10 + unsigned(line[i] - '0');
    if (line.starts_with("| ") && digits > 2 && line.substr(digits).starts_with(" | ") &&
        number < unsigned(OpCode::Count))
      out += ir_ops_doc_row(OpCode(number));
    else
      out += line;
    if (end != std::string_view::npos) out += '\n';
  }
  return out;
}

} // namespace kiln::ir
