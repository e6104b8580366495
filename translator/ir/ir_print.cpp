// Printer of the text form (see ir_text.h); the parser is ir_parse.cpp.
#include "translator/ir/ir_text.h"
#include "translator/ir/ir_text_detail.h"

#include <charconv>
#include <cmath>
#include <cstring>

namespace kiln::ir {

namespace {

void append_u64(std::string& out, std::uint64_t v) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof(buf), v);
  out.append(buf, r.ptr);
}

void append_i64(std::string& out, std::int64_t v) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof(buf), v);
  out.append(buf, r.ptr);
}

void append_hex(std::string& out, std::uint64_t v) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof(buf), v, 16);
  out += "0x";
  out.append(buf, r.ptr);
}

void append_basic(std::string& out, Type t) {
  if (t.vector_size() > 1) {
    out += "vec";
    out += char('0' + t.vector_size());
    out += '<';
    out += scalar_type_name(t.scalar_type());
    out += '>';
  } else {
    out += scalar_type_name(t.scalar_type());
  }
}

void append_type(std::string& out, const TypeTable& types, Type type) {
  if (type.is_void()) {
    out += "void";
    return;
  }
  if (type.is_basic()) {
    append_basic(out, type);
    return;
  }
  TypeView v = types.view(type);
  if (v.member_count() == 1) {
    append_basic(out, v.member(0));
  } else {
    out += '{';
    for (unsigned i = 0; i < v.member_count(); ++i) {
      if (i) out += ", ";
      append_basic(out, v.member(i));
    }
    out += '}';
  }
  for (unsigned i = 0; i < v.dim_count; ++i) {
    out += '[';
    if (v.dims[i]) append_u64(out, v.dims[i]);
    out += ']';
  }
}

void append_enum(std::string& out, const EnumTable& table, std::uint64_t value) {
  if (value <= 0xffffffffu) {
    if (!table.is_mask) {
      std::string_view name = enum_value_name(table, std::uint32_t(value));
      if (!name.empty()) {
        out += name;
        return;
      }
    } else if (value != 0 && enum_value_valid(table, value)) {
      bool first = true;
      for (const EnumEntry& e : table.entries) {
        if (!(value & e.value)) continue;
        if (!first) out += '|';
        out += e.name;
        first = false;
      }
      return;
    }
  }
  append_u64(out, value);
}

// A float in shortest round-trip form (always with a `.` or an exponent, so it reads back as a
// float), or its bits in hex when it is not finite.
template <typename Float, typename Bits>
void append_float(std::string& out, Bits bits) {
  Float value;
  std::memcpy(&value, &bits, sizeof(value));
  if (!std::isfinite(value)) {
    append_hex(out, bits);
    return;
  }
  char buf[40];
  auto r = std::to_chars(buf, buf + sizeof(buf), value);
  std::string_view text(buf, std::size_t(r.ptr - buf));
  out += text;
  if (text.find_first_of(".e") == std::string_view::npos) out += ".0";
}

// A constant scalar, typed by its flattened scalar type; exact bits always survive parsing.
void append_constant(std::string& out, ScalarType type, std::uint64_t bits) {
  if (type == ScalarType::F32 || type == ScalarType::MinF16 || type == ScalarType::MinF10) {
    if (bits <= 0xffffffffu)
      append_float<float>(out, std::uint32_t(bits));
    else
      append_hex(out, bits);
    return;
  }
  if (type == ScalarType::F64) {
    append_float<double>(out, bits);
    return;
  }
  if (type == ScalarType::Bool && bits <= 1) {
    out += bits ? "true" : "false";
    return;
  }
  if (type == ScalarType::F16) {
    append_hex(out, bits);
    return;
  }
  if (is_signed_int(type) && is_64bit(type))
    append_i64(out, std::int64_t(bits));
  else if (is_signed_int(type) && bits <= 0xffffffffu)
    append_i64(out, std::int32_t(std::uint32_t(bits))); // the 32-bit pattern, signed
  else if (is_signed_int(type))
    append_hex(out, bits);
  else
    append_u64(out, bits);
}

void append_string(std::string& out, std::span<const Operand> literals) {
  out += '"';
  for (Operand o : literals) {
    for (int j = 0; j < 8; ++j) {
      unsigned char c = (o.bits() >> (8 * j)) & 0xff;
      if (c == 0) {
        out += '"';
        return;
      }
      if (c == '"' || c == '\\') {
        out += '\\';
        out += char(c);
      } else if (c < 0x20 || c >= 0x7f) {
        static const char kHex[] = "0123456789abcdef";
        out += "\\x";
        out += kHex[c >> 4];
        out += kHex[c & 15];
      } else {
        out += char(c);
      }
    }
  }
  out += '"';
}

} // namespace

namespace detail {

// A string tail prints as a quoted string only when re-packing it gives the same literals.
bool string_is_canonical(std::span<const Operand> literals) {
  if (literals.empty()) return false;
  std::size_t len = 0;
  bool terminated = false;
  for (std::size_t i = 0; i < literals.size() && !terminated; ++i) {
    for (int j = 0; j < 8; ++j) {
      if (((literals[i].bits() >> (8 * j)) & 0xff) == 0) {
        terminated = true;
        break;
      }
      ++len;
    }
  }
  if (!terminated || len / 8 + 1 != literals.size()) return false;
  // Bytes after the terminator must be zero.
  std::uint64_t last = literals.back().bits();
  unsigned used = unsigned(len % 8);
  return used == 0 ? last == 0 : (last >> (8 * used)) == 0;
}

} // namespace detail

std::string print_type(const TypeTable& types, Type type) {
  std::string s;
  append_type(s, types, type);
  return s;
}

static void append_op(std::string& out, const Builder& b, OpView op) {
  out += '%';
  append_u64(out, op.def().id());
  out += " = ";
  out += op_name(op.code());
  if (std::uint32_t(op.flags())) {
    out += '[';
    append_enum(out, kOpFlagsTable, std::uint32_t(op.flags()));
    out += ']';
  }
  out += ' ';
  append_type(out, b.types(), op.type());

  std::uint32_t refs = op.ref_count();
  for (std::uint32_t i = 0; i < refs; ++i) {
    out += ' ';
    SsaDef d = op.operand(i).def();
    if (!d) {
      out += "null";
    } else {
      out += '%';
      append_u64(out, d.id());
    }
  }
  OpShape shape = op_shape(op.code());
  std::uint32_t count = op.operand_count();
  std::size_t fixed_lits = shape.fixed_literal_count();
  for (std::uint32_t i = refs; i < count; ++i) {
    out += ' ';
    char letter = operand_letter(op.code(), i, refs);
    std::uint64_t bits = op.operand(i).bits();
    if (letter == '$') {
      auto tail = op.operands().subspan(i);
      if (detail::string_is_canonical(tail)) {
        append_string(out, tail);
        return;
      }
      append_u64(out, bits);
    } else if (letter == '#') {
      std::uint64_t k = i - refs - fixed_lits;
      append_constant(out, b.types().flattened_scalar(op.type(), k), bits);
    } else if (const EnumTable* table = enum_table_for_letter(letter)) {
      append_enum(out, *table, bits);
    } else {
      append_u64(out, bits);
    }
  }
}

std::string print_op(const Builder& builder, SsaDef def) {
  std::string s;
  if (builder.is_live(def)) append_op(s, builder, builder.op(def));
  return s;
}

void print(const Builder& builder, std::string& out) {
  int depth = 0;
  for (OpView op : builder.ops()) {
    OpCategory c = op.info().category;
    if (c == OpCategory::FunctionEnd) depth = 0;
    int indent = c == OpCategory::Label ? 1 : depth;
    out.append(std::size_t(indent) * 2, ' ');
    append_op(out, builder, op);
    out += '\n';
    if (c == OpCategory::Function) depth = 1;
    if (c == OpCategory::Label) depth = 2;
    if (c == OpCategory::Terminator) depth = depth ? 1 : 0;
  }
}

std::string print(const Builder& builder) {
  std::string s;
  print(builder, s);
  return s;
}

} // namespace kiln::ir
