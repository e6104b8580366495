#include "translator/spirv/disassembler.h"

#include "translator/spirv/grammar.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <spirv/unified1/spirv.hpp>
#include <vector>

namespace kiln::spirv {

namespace {

using grammar::OperandCategory;
using grammar::OperandKind;
using grammar::OperandSpec;
using grammar::Quantifier;

constexpr std::uint32_t kMagic = 0x07230203u;
constexpr std::uint32_t kHeaderWords = 5;
// Ids above this get no type bookkeeping (their literals print as plain integers); keeps a
// hostile id bound from sizing our tables.
constexpr std::uint32_t kMaxTrackedId = 1u << 22;
// Column where opcodes start, as spirv-dis indents them.
constexpr std::size_t kOpcodeColumn = 15;

enum class IdClass : std::uint8_t { Unknown, IntType, FloatType, GlslImport, OtherImport };

struct IdInfo {
  IdClass cls = IdClass::Unknown;
  bool is_signed = false;
  std::uint16_t width = 0;
  std::uint32_t type = 0; // result type of the instruction that defined the id
};

void append_uint(std::string& out, std::uint64_t value) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof(buf), value);
  out.append(buf, r.ptr);
}

void append_int(std::string& out, std::int64_t value) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof(buf), value);
  out.append(buf, r.ptr);
}

// Hex float as spirv-dis prints subnormals, infinities, NaNs and every half: 0x1.8p+128.
void append_hex_float(std::string& out, bool negative, int exponent, std::uint64_t fraction,
                      int fraction_bits, int bias, bool is_subnormal_or_zero_exp) {
  // Pad the fraction to a whole number of hex digits.
  const int digits = (fraction_bits + 3) / 4;
  fraction <<= digits * 4 - fraction_bits;
  int exp = exponent - bias;
  if (is_subnormal_or_zero_exp) {
    // Normalise: shift until the leading one leaves the fraction field.
    exp = 1 - bias;
    const std::uint64_t top = std::uint64_t{1} << (digits * 4);
    while (!(fraction & top)) {
      fraction <<= 1;
      --exp;
    }
    fraction &= top - 1;
  }
  if (negative) out += '-';
  out += "0x1";
  if (fraction != 0) {
    int used = digits;
    while (used > 0 && (fraction & 0xF) == 0) {
      fraction >>= 4;
      --used;
    }
    out += '.';
    for (int i = used - 1; i >= 0; --i) out += "0123456789abcdef"[(fraction >> (i * 4)) & 0xF];
  }
  out += 'p';
  if (exp >= 0) out += '+';
  append_int(out, exp);
}

void append_float32(std::string& out, std::uint32_t bits) {
  const int exponent = static_cast<int>((bits >> 23) & 0xFF);
  const std::uint32_t fraction = bits & 0x7FFFFF;
  if (exponent == 0xFF || (exponent == 0 && fraction != 0)) {
    append_hex_float(out, bits >> 31, exponent, fraction, 23, 127, exponent == 0);
    return;
  }
  char buf[48];
  const int n = std::snprintf(buf, sizeof(buf), "%.9g", double(std::bit_cast<float>(bits)));
  out.append(buf, static_cast<std::size_t>(n));
}

void append_float64(std::string& out, std::uint64_t bits) {
  const int exponent = static_cast<int>((bits >> 52) & 0x7FF);
  const std::uint64_t fraction = bits & ((std::uint64_t{1} << 52) - 1);
  if (exponent == 0x7FF || (exponent == 0 && fraction != 0)) {
    append_hex_float(out, bits >> 63, exponent, fraction, 52, 1023, exponent == 0);
    return;
  }
  char buf[48];
  const int n = std::snprintf(buf, sizeof(buf), "%.17g", std::bit_cast<double>(bits));
  out.append(buf, static_cast<std::size_t>(n));
}

void append_float16(std::string& out, std::uint32_t bits) {
  const int exponent = static_cast<int>((bits >> 10) & 0x1F);
  const std::uint32_t fraction = bits & 0x3FF;
  if (exponent == 0 && fraction == 0) {
    out += (bits & 0x8000) ? "-0x0p+0" : "0x0p+0";
    return;
  }
  append_hex_float(out, (bits >> 15) & 1, exponent, fraction, 10, 15, exponent == 0);
}

class Disassembler {
 public:
  Disassembler(std::span<const std::uint32_t> words, std::string& out) : words_(words), out_(out) {}

  // The stage boundary: the first report of the walk is the Status.
  Status run() { return errors_.outcome(walk()); }

 private:
  // The disassembler's one way to report: "SPIR-V: word N: OpName: what", or "SPIR-V: what"
  // about the module as a whole.
  static std::string spell_error(const Where& where, std::string_view what) {
    std::string message = "SPIR-V: ";
    if (where.known()) {
      message += "word " + std::to_string(where.position) + ": ";
      if (!where.name.empty()) message.append(where.name).append(": ");
    }
    return message.append(what);
  }
  bool fail(const Where& where, std::string_view what) { return errors_.fail(where, what); }
  // Where a report about word `word` of the instruction being read points.
  Where at(std::size_t word) const {
    return Where(word, current_ != nullptr ? std::string_view(current_->name) : std::string_view());
  }
  bool walk();

  IdInfo* info(std::uint32_t id) {
    if (id == 0 || id >= kMaxTrackedId) return nullptr;
    if (id >= ids_.size()) ids_.resize(std::size_t{id} + 1);
    return &ids_[id];
  }
  const IdInfo* lookup(std::uint32_t id) const { return id < ids_.size() ? &ids_[id] : nullptr; }

  void header();
  bool instruction(std::size_t start, std::uint32_t count);
  // Operand printers: advance pos_ within [pos_, end_).
  bool operand_list(std::span<const OperandSpec> specs);
  bool operand(OperandKind kind);
  bool enum_operand(OperandKind kind);
  bool typed_literal(std::uint32_t type_id);
  bool string_operand();
  void id(std::uint32_t value) {
    out_ += " %";
    append_uint(out_, value);
  }

  std::span<const std::uint32_t> words_;
  std::string& out_;
  std::vector<IdInfo> ids_;
  const grammar::InstructionInfo* current_ = nullptr;
  std::size_t pos_ = 0;
  std::size_t end_ = 0;
  std::uint32_t result_type_ = 0;
  std::uint32_t result_id_ = 0;
  bool first_id_seen_ = false;
  std::uint32_t ext_set_ = 0;
  std::uint32_t selector_type_ = 0;
  std::string_view last_string_;
  ErrorSink errors_{&spell_error};
};

void Disassembler::header() {
  const std::uint32_t version = words_[1];
  const std::uint32_t generator = words_[2];
  out_ += "; SPIR-V\n; Version: ";
  append_uint(out_, (version >> 16) & 0xFF);
  out_ += '.';
  append_uint(out_, (version >> 8) & 0xFF);
  out_ += "\n; Generator: ";
  const grammar::GeneratorInfo* gen = grammar::find_generator(generator >> 16);
  if (gen != nullptr) {
    out_ += gen->vendor;
    if (gen->tool[0] != '\0') {
      out_ += ' ';
      out_ += gen->tool;
    }
  } else {
    out_ += "Unknown(";
    append_uint(out_, generator >> 16);
    out_ += ')';
  }
  out_ += "; ";
  append_uint(out_, generator & 0xFFFF);
  out_ += "\n; Bound: ";
  append_uint(out_, words_[3]);
  out_ += "\n; Schema: ";
  append_uint(out_, words_[4]);
  out_ += '\n';
}

bool Disassembler::walk() {
  if (words_.size() < kHeaderWords)
    return fail(Where(), "truncated header (" + std::to_string(words_.size()) + " words, need 5)");
  if (words_[0] != kMagic) {
    char buf[64];
    std::snprintf(buf, sizeof(buf), "bad magic number 0x%08x", words_[0]);
    return fail(Where(0), buf);
  }
  header();
  std::size_t word = kHeaderWords;
  while (word < words_.size()) {
    const std::uint32_t count = words_[word] >> spv::WordCountShift;
    current_ = nullptr;
    if (count == 0) return fail(at(word), "instruction word count is 0");
    if (count > words_.size() - word)
      return fail(at(word), "instruction of " + std::to_string(count) +
                                " words runs past the end (" +
                                std::to_string(words_.size() - word) + " left)");
    if (!instruction(word, count)) return false;
    word += count;
  }
  return true;
}

bool Disassembler::instruction(std::size_t start, std::uint32_t count) {
  const std::uint32_t opcode = words_[start] & spv::OpCodeMask;
  current_ = grammar::find_instruction(opcode);
  if (current_ == nullptr) return fail(at(start), "unknown opcode " + std::to_string(opcode));
  std::span<const OperandSpec> specs = grammar::operands(*current_);
  pos_ = start + 1;
  end_ = start + count;
  result_type_ = 0;
  result_id_ = 0;
  first_id_seen_ = false;
  ext_set_ = 0;
  selector_type_ = 0;

  // Result id goes first: "%id = OpFoo ...".
  std::size_t spec_index = 0;
  const bool has_result_type = !specs.empty() && specs[0].kind == OperandKind::IdResultType;
  if (has_result_type) {
    if (pos_ >= end_) return fail(at(pos_), "missing result type");
    result_type_ = words_[pos_++];
    ++spec_index;
  }
  // "%id = " right-aligned so opcodes start in column kOpcodeColumn, as spirv-dis does.
  char prefix[32];
  std::size_t prefix_length = 0;
  if (spec_index < specs.size() && specs[spec_index].kind == OperandKind::IdResult) {
    if (pos_ >= end_) return fail(at(pos_), "missing result id");
    result_id_ = words_[pos_++];
    ++spec_index;
    prefix[0] = '%';
    char* end = std::to_chars(prefix + 1, prefix + sizeof(prefix) - 3, result_id_).ptr;
    std::memcpy(end, " = ", 3);
    prefix_length = static_cast<std::size_t>(end + 3 - prefix);
  }
  if (prefix_length < kOpcodeColumn) out_.append(kOpcodeColumn - prefix_length, ' ');
  out_.append(prefix, prefix_length);
  out_ += current_->name;
  if (has_result_type) id(result_type_);

  if (!operand_list(specs.subspan(spec_index))) return false;
  if (pos_ != end_)
    return fail(at(pos_), std::to_string(end_ - pos_) + " words left after operands");
  out_ += '\n';

  // Remember what later instructions need to type their literals.
  if (IdInfo* def = info(result_id_)) {
    def->type = result_type_;
    const std::uint32_t* w = words_.data() + start;
    if (opcode == spv::OpTypeInt && count >= 4) {
      def->cls = IdClass::IntType;
      def->width = static_cast<std::uint16_t>(std::min<std::uint32_t>(w[2], 0xFFFF));
      def->is_signed = w[3] != 0;
    } else if (opcode == spv::OpTypeFloat && count >= 3) {
      def->cls = IdClass::FloatType;
      def->width = static_cast<std::uint16_t>(std::min<std::uint32_t>(w[2], 0xFFFF));
    } else if (opcode == spv::OpExtInstImport) {
      def->cls = last_string_ == "GLSL.std.450" ? IdClass::GlslImport : IdClass::OtherImport;
    }
  }
  return true;
}

bool Disassembler::operand_list(std::span<const OperandSpec> specs) {
  for (const OperandSpec& spec : specs) {
    switch (spec.quantifier) {
    case Quantifier::One: {
      if (!operand(spec.kind)) return false;
      break;
    }
    case Quantifier::Optional:
      if (pos_ < end_) {
        if (!operand(spec.kind)) return false;
      }
      break;
    case Quantifier::Variadic:
      while (pos_ < end_) {
        if (!operand(spec.kind)) return false;
      }
      break;
    }
  }
  return true;
}

bool Disassembler::string_operand() {
  const auto* bytes = reinterpret_cast<const char*>(words_.data() + pos_);
  const std::size_t max_bytes = (end_ - pos_) * 4;
  const void* nul = std::memchr(bytes, '\0', max_bytes);
  if (nul == nullptr) return fail(at(pos_), "literal string is not NUL-terminated");
  const std::size_t length = static_cast<const char*>(nul) - bytes;
  last_string_ = std::string_view(bytes, length);
  out_ += " \"";
  for (char c : last_string_) {
    if (c == '"' || c == '\\') out_ += '\\';
    out_ += c;
  }
  out_ += '"';
  pos_ += length / 4 + 1;
  return true;
}

bool Disassembler::typed_literal(std::uint32_t type_id) {
  const IdInfo* type = lookup(type_id);
  if (type == nullptr || (type->cls != IdClass::IntType && type->cls != IdClass::FloatType))
    return fail(at(pos_), "type %" + std::to_string(type_id) + " is not a scalar numeric type");
  const std::uint32_t width = type->width;
  if (width == 0 || width > 64)
    return fail(at(pos_), "unsupported literal width " + std::to_string(width));
  const std::size_t needed = width > 32 ? 2 : 1;
  if (end_ - pos_ < needed) return fail(at(pos_), "literal number runs past the instruction");
  std::uint64_t bits = words_[pos_];
  if (needed == 2) bits |= std::uint64_t{words_[pos_ + 1]} << 32;
  pos_ += needed;
  out_ += ' ';
  // Like spirv-dis: the literal's words are printed whole (narrow types are not masked).
  if (type->cls == IdClass::FloatType) {
    if (needed == 2)
      append_float64(out_, bits);
    else if (width == 16)
      append_float16(out_, static_cast<std::uint32_t>(bits));
    else
      append_float32(out_, static_cast<std::uint32_t>(bits));
  } else if (type->is_signed) {
    if (needed == 2)
      append_int(out_, static_cast<std::int64_t>(bits));
    else
      append_int(out_, static_cast<std::int32_t>(static_cast<std::uint32_t>(bits)));
  } else {
    append_uint(out_, bits);
  }
  return true;
}

bool Disassembler::enum_operand(OperandKind kind) {
  const std::uint32_t value = words_[pos_];
  const grammar::OperandKindInfo& kind_info = grammar::kind_info(kind);
  if (kind_info.category == OperandCategory::ValueEnum) {
    const grammar::EnumerantInfo* e = grammar::find_enumerant(kind, value);
    if (e == nullptr)
      return fail(at(pos_), "invalid " + std::string(kind_info.name) + " " + std::to_string(value));
    ++pos_;
    out_ += ' ';
    out_ += e->name;
    return operand_list(grammar::parameters(*e));
  }
  // BitEnum: names of the set bits joined by '|', then each bit's parameters in bit order.
  ++pos_;
  out_ += ' ';
  if (value == 0) {
    const grammar::EnumerantInfo* e = grammar::find_enumerant(kind, 0);
    if (e != nullptr)
      out_ += e->name;
    else
      out_ += '0';
    return true;
  }
  bool first = true;
  for (std::uint32_t rest = value; rest != 0; rest &= rest - 1) {
    const std::uint32_t bit = rest & (~rest + 1);
    const grammar::EnumerantInfo* e = grammar::find_enumerant(kind, bit);
    if (e == nullptr)
      return fail(at(pos_ - 1), "invalid " + std::string(kind_info.name) + " bit 0x" +
                                    std::to_string(std::countr_zero(bit)));
    if (!first) out_ += '|';
    out_ += e->name;
    first = false;
  }
  for (std::uint32_t rest = value; rest != 0; rest &= rest - 1) {
    const std::uint32_t bit = rest & (~rest + 1);
    if (!operand_list(grammar::parameters(*grammar::find_enumerant(kind, bit)))) return false;
  }
  return true;
}

bool Disassembler::operand(OperandKind kind) {
  if (pos_ >= end_)
    return fail(at(pos_), std::string("missing operand (") + grammar::kind_info(kind).name + ")");
  const std::uint32_t value = words_[pos_];
  switch (kind) {
  case OperandKind::LiteralString:
    return string_operand();
  case OperandKind::LiteralContextDependentNumber:
    return typed_literal(result_type_);
  case OperandKind::LiteralExtInstInteger: {
    ++pos_;
    const IdInfo* set = lookup(ext_set_);
    const char* name = nullptr;
    if (set != nullptr && set->cls == IdClass::GlslImport) name = grammar::glsl_std_450_name(value);
    out_ += ' ';
    if (name != nullptr)
      out_ += name;
    else
      append_uint(out_, value);
    return true;
  }
  case OperandKind::LiteralSpecConstantOpInteger: {
    const grammar::InstructionInfo* inner = grammar::find_instruction(value);
    if (inner == nullptr)
      return fail(at(pos_), "unknown OpSpecConstantOp opcode " + std::to_string(value));
    ++pos_;
    out_ += ' ';
    out_ += inner->name + 2; // without "Op"
    // The inner opcode's own operands follow, minus its result type and result id.
    std::span<const OperandSpec> specs = grammar::operands(*inner);
    while (!specs.empty() && (specs.front().kind == OperandKind::IdResultType ||
                              specs.front().kind == OperandKind::IdResult))
      specs = specs.subspan(1);
    return operand_list(specs);
  }
  default:
    break;
  }

  const grammar::OperandKindInfo& kind_info = grammar::kind_info(kind);
  switch (kind_info.category) {
  case OperandCategory::Id:
    ++pos_;
    if (!first_id_seen_) {
      // OpExtInst's set and OpSwitch's selector are their first IdRef operands.
      first_id_seen_ = true;
      ext_set_ = value;
      const IdInfo* selector = lookup(value);
      selector_type_ = selector != nullptr ? selector->type : 0;
    }
    id(value);
    return true;
  case OperandCategory::Literal:
    ++pos_;
    out_ += ' ';
    append_uint(out_, value);
    return true;
  case OperandCategory::ValueEnum:
  case OperandCategory::BitEnum:
    return enum_operand(kind);
  case OperandCategory::Composite: {
    std::span<const OperandKind> bases = grammar::composite_bases(kind);
    for (std::size_t i = 0; i < bases.size(); ++i) {
      if (pos_ >= end_) return fail(at(pos_), "truncated operand pair");
      // OpSwitch's case literals are as wide as the selector's type.
      if (current_->opcode == spv::OpSwitch && bases[i] == OperandKind::LiteralInteger) {
        if (!typed_literal(selector_type_)) return false;
        continue;
      }
      if (!operand(bases[i])) return false;
    }
    return true;
  }
  }
  return fail(at(pos_), "unhandled operand kind");
}

} // namespace

Status disassemble(std::span<const std::uint32_t> words, std::string& out) {
  // Modules written on a machine of the other endianness: swap once, then read normally.
  if (words.size() >= kHeaderWords && words[0] == __builtin_bswap32(kMagic)) {
    std::vector<std::uint32_t> swapped(words.begin(), words.end());
    for (std::uint32_t& w : swapped) w = __builtin_bswap32(w);
    return Disassembler(swapped, out).run();
  }
  return Disassembler(words, out).run();
}

} // namespace kiln::spirv
