#pragma once
// What the generated builders (Op::Name(...), ir.h) accept, derived from the opcode table's
// shape column: one argument per shape letter, of the kind the letter names, so that a call with
// too few or too many operands, or a reference where a literal belongs (or the reverse), does
// not compile.
//
//   lower case letter            an SsaDef
//   `[..]` group                 SsaDefs, a whole number of repetitions; or one
//                                std::span<const SsaDef> holding them
//   `0`                          an integer or an enum
//   upper case letter            an integer, or that letter's enum (KILN_IR_ENUMS): another
//                                enum is a mistake
//   `#` tail                     integers, enums or floats, any number; or one std::span of them
//   `$` tail                     one string (const char*, std::string_view, std::string)

#include "translator/ir/ir_enums.h"
#include "translator/ir/ir_opcodes.h"
#include "translator/ir/ir_operand.h"

#include <array>
#include <cstddef>
#include <span>
#include <string_view>
#include <type_traits>

namespace kiln::ir::detail {

// What a builder argument is, by its C++ type.
enum class ArgKind : std::uint8_t {
  Ref,        // SsaDef
  RefSpan,    // std::span<SsaDef> (const or not)
  Integer,    // an integral type (bool included)
  Enum,       // an enumeration
  Float,      // float, double
  String,     // converts to std::string_view
  NumberSpan, // std::span of integers, enums or floats
  Other,      // anything else: fits no letter
};

// The shape letter of an IR enum (KILN_IR_ENUMS), '\0' for every other type.
template <typename T>
inline constexpr char kEnumLetter = '\0';
#define KILN_IR_ENUM_LETTER(Type, LIST, is_mask, letter)                                           \
  template <>                                                                                      \
  inline constexpr char kEnumLetter<Type> = letter;
KILN_IR_ENUMS(KILN_IR_ENUM_LETTER)
#undef KILN_IR_ENUM_LETTER

template <typename T>
struct SpanElement {
  using type = void;
};
template <typename T, std::size_t N>
struct SpanElement<std::span<T, N>> {
  using type = std::remove_cv_t<T>;
};

template <typename T>
constexpr ArgKind arg_kind() {
  using E = typename SpanElement<T>::type;
  if constexpr (std::is_same_v<T, SsaDef>)
    return ArgKind::Ref;
  else if constexpr (std::is_same_v<E, SsaDef>)
    return ArgKind::RefSpan;
  else if constexpr (std::is_integral_v<E> || std::is_enum_v<E> || std::is_floating_point_v<E>)
    return ArgKind::NumberSpan;
  else if constexpr (std::is_integral_v<T>)
    return ArgKind::Integer;
  else if constexpr (std::is_enum_v<T>)
    return ArgKind::Enum;
  else if constexpr (std::is_floating_point_v<T>)
    return ArgKind::Float;
  else if constexpr (std::is_convertible_v<T, std::string_view>)
    return ArgKind::String;
  else
    return ArgKind::Other;
}

struct ArgInfo {
  ArgKind kind;
  char enum_letter; // kEnumLetter of the argument's type
};

// Whether an argument fits literal letter `letter` ('0' or an enum letter) of a fixed tail.
constexpr bool literal_fits(char letter, ArgInfo arg) {
  if (arg.kind == ArgKind::Integer) return true;
  if (arg.kind != ArgKind::Enum) return false;
  return letter == '0' || arg.enum_letter == letter;
}

// Whether `args` are what an op of `shape` takes: fixed references, then the group, then the
// literals, nothing left over.
constexpr bool args_fit_shape(std::string_view shape, std::span<const ArgInfo> args) {
  const OpShape s = split_shape(shape);
  std::size_t i = 0;
  for (std::size_t r = 0; r < s.fixed_refs.size(); ++r, ++i)
    if (i >= args.size() || args[i].kind != ArgKind::Ref) return false;
  if (!s.ref_group.empty()) {
    if (i < args.size() && args[i].kind == ArgKind::RefSpan) {
      ++i;
    } else {
      const std::size_t start = i;
      while (i < args.size() && args[i].kind == ArgKind::Ref) ++i;
      if ((i - start) % s.ref_group.size() != 0) return false;
    }
  }
  for (std::size_t l = 0; l < s.fixed_literal_count(); ++l, ++i)
    if (i >= args.size() || !literal_fits(s.literals[l], args[i])) return false;
  if (s.variadic_literals()) {
    if (s.literals.back() == '$') {
      if (i >= args.size() || args[i].kind != ArgKind::String) return false;
      ++i;
    } else if (i < args.size() && args[i].kind == ArgKind::NumberSpan) {
      ++i;
    } else {
      while (i < args.size() && (args[i].kind == ArgKind::Integer ||
                                 args[i].kind == ArgKind::Enum || args[i].kind == ArgKind::Float))
        ++i;
    }
  }
  return i == args.size();
}

template <typename... A>
constexpr bool args_fit_shape(std::string_view shape) {
  const std::array<ArgInfo, sizeof...(A) + 1> args = {ArgInfo{arg_kind<A>(), kEnumLetter<A>}...,
                                                      ArgInfo{ArgKind::Other, '\0'}};
  return args_fit_shape(shape, std::span<const ArgInfo>(args.data(), sizeof...(A)));
}

// The constraint of Op::Name(...): its arguments fit the op's shape.
template <OpCode Code, typename... A>
concept OperandsFitShape = args_fit_shape<A...>(op_info(Code).shape);

} // namespace kiln::ir::detail
