#include "translator/ir/ir_enums.h"

#include "translator/ir/ir_opcodes.h"

namespace kiln::ir {

#define KILN_IR_ENTRY(name, value) {#name, value},
#define KILN_IR_ENUM_TABLE_DEF(Type, LIST, is_mask, letter)                                        \
  static constexpr EnumEntry k##Type##Entries[] = {LIST(KILN_IR_ENTRY)};                           \
  const EnumTable k##Type##Table = {#Type, k##Type##Entries, is_mask, letter};
KILN_IR_ENUMS(KILN_IR_ENUM_TABLE_DEF)
#undef KILN_IR_ENUM_TABLE_DEF
#undef KILN_IR_ENTRY

namespace {
#define KILN_IR_TABLE_PTR(Type, LIST, is_mask, letter) &k##Type##Table,
const EnumTable* const kAllTables[] = {KILN_IR_ENUMS(KILN_IR_TABLE_PTR)};
#undef KILN_IR_TABLE_PTR

constexpr std::string_view kScalarNames[] = {
#define KILN_X(name, text) text,
    KILN_IR_SCALAR_TYPES(KILN_X)
#undef KILN_X
};
} // namespace

std::span<const EnumTable* const> enum_tables() {
  return kAllTables;
}

const EnumTable* enum_table_for_letter(char letter) {
  for (const EnumTable* t : kAllTables)
    if (t->letter == letter && letter != '\0') return t;
  return nullptr;
}

std::string_view scalar_type_name(ScalarType type) {
  auto i = std::size_t(type);
  return i < std::size(kScalarNames) ? kScalarNames[i] : std::string_view();
}

bool parse_scalar_type(std::string_view text, ScalarType& out) {
  for (std::size_t i = 0; i < std::size(kScalarNames); ++i) {
    if (kScalarNames[i] == text) {
      out = ScalarType(i);
      return true;
    }
  }
  return false;
}

std::string_view enum_value_name(const EnumTable& table, std::uint32_t value) {
  for (const EnumEntry& e : table.entries)
    if (e.value == value) return e.name;
  return {};
}

bool enum_value_valid(const EnumTable& table, std::uint64_t value) {
  if (table.is_mask) {
    std::uint64_t known = 0;
    for (const EnumEntry& e : table.entries) known |= e.value;
    return (value & ~known) == 0;
  }
  if (value > 0xffffffffu) return false;
  return !enum_value_name(table, std::uint32_t(value)).empty();
}

bool parse_op_name(std::string_view text, OpCode& out) {
  for (std::size_t i = 0; i < std::size_t(OpCode::Count); ++i) {
    if (kOpInfo[i].name == text) {
      out = OpCode(i);
      return true;
    }
  }
  return false;
}

} // namespace kiln::ir
