// Parser of the text form (see ir_text.h).
#include "translator/ir/ir_text.h"
#include "translator/ir/ir_text_detail.h"

#include <charconv>
#include <climits>
#include <cstring>
#include <string>
#include <vector>

namespace kiln::ir {

namespace {

bool is_word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '.' || c == '-' || c == '+';
}

class Parser {
 public:
  Parser(std::string_view text, Builder& out) : text_(text), b_(out) {}

  Status run() {
    b_.reset();
    while (pos_ < text_.size()) {
      ++line_;
      std::size_t eol = text_.find('\n', pos_);
      if (eol == std::string_view::npos) eol = text_.size();
      line_text_ = text_.substr(pos_, eol - pos_);
      std::size_t comment = line_text_.find(';');
      // A ';' inside a string is not a comment.
      if (comment != std::string_view::npos && line_text_.find('"') < comment)
        comment = std::string_view::npos;
      if (comment != std::string_view::npos) line_text_ = line_text_.substr(0, comment);
      lp_ = 0;
      pos_ = eol + 1;
      skip_ws();
      if (lp_ >= line_text_.size()) continue;
      if (!parse_line()) return errors_.outcome(false);
    }
    return Status::ok();
  }

 private:
  // The parser's one way to report: "ir text: line N: what"; the first report is run()'s Status.
  static std::string spell_error(const Where& where, std::string_view what) {
    return "ir text: line " + std::to_string(where.position) + ": " + std::string(what);
  }
  bool fail(const Where& where, std::string_view what) { return errors_.fail(where, what); }
  Where here() const { return Where(line_); }
  void skip_ws() {
    while (lp_ < line_text_.size() &&
           (line_text_[lp_] == ' ' || line_text_[lp_] == '\t' || line_text_[lp_] == '\r'))
      ++lp_;
  }
  bool at_end() {
    skip_ws();
    return lp_ >= line_text_.size();
  }
  bool eat(char c) {
    skip_ws();
    if (lp_ < line_text_.size() && line_text_[lp_] == c) {
      ++lp_;
      return true;
    }
    return false;
  }
  std::string_view word() {
    skip_ws();
    std::size_t start = lp_;
    while (lp_ < line_text_.size() && is_word_char(line_text_[lp_])) ++lp_;
    return line_text_.substr(start, lp_ - start);
  }
  static bool to_u64(std::string_view s, std::uint64_t& v) {
    if (s.empty()) return false;
    int base = 10;
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
      base = 16;
      s.remove_prefix(2);
    }
    auto r = std::from_chars(s.data(), s.data() + s.size(), v, base);
    return r.ec == std::errc() && r.ptr == s.data() + s.size();
  }
  // Decimal (possibly negative, stored sign-extended) or 0x raw bits.
  static bool to_bits(std::string_view s, std::uint64_t& v) {
    if (!s.empty() && s[0] == '-') {
      std::int64_t i;
      auto r = std::from_chars(s.data(), s.data() + s.size(), i);
      if (r.ec != std::errc() || r.ptr != s.data() + s.size()) return false;
      v = std::uint64_t(i);
      return true;
    }
    return to_u64(s, v);
  }

  bool parse_basic(Type& out) {
    std::string_view w = word();
    if (w.size() == 4 && w.substr(0, 3) == "vec" && w[3] >= '2' && w[3] <= '4') {
      if (!eat('<')) return fail(here(), "expected '<' after " + std::string(w));
      ScalarType s;
      std::string_view name = word();
      if (!parse_scalar_type(name, s))
        return fail(here(), "unknown scalar type '" + std::string(name) + "'");
      if (!eat('>')) return fail(here(), "expected '>'");
      out = Type(s, unsigned(w[3] - '0'));
      return true;
    }
    ScalarType s;
    if (!parse_scalar_type(w, s)) return fail(here(), "unknown type '" + std::string(w) + "'");
    out = Type(s);
    return true;
  }

  bool parse_type(Type& out) {
    skip_ws();
    Type members[TypeView::kMaxMembers];
    unsigned member_count = 0;
    if (eat('{')) {
      do {
        if (member_count == TypeView::kMaxMembers) return fail(here(), "too many struct members");
        if (!parse_basic(members[member_count++])) return false;
      } while (eat(','));
      if (!eat('}')) return fail(here(), "expected '}'");
    } else {
      std::size_t save = lp_;
      if (word() == "void") {
        out = Type();
        return true;
      }
      lp_ = save;
      if (!parse_basic(members[0])) return false;
      member_count = 1;
    }
    std::uint32_t dims[TypeView::kMaxDims];
    unsigned dim_count = 0;
    while (lp_ < line_text_.size() && line_text_[lp_] == '[') {
      ++lp_;
      if (dim_count == TypeView::kMaxDims) return fail(here(), "more than 3 array dimensions");
      std::uint64_t n = 0;
      std::string_view w = word();
      if (!w.empty() && (!to_u64(w, n) || n > 0xffffffffu)) return fail(here(), "bad array size");
      if (!eat(']')) return fail(here(), "expected ']'");
      dims[dim_count++] = std::uint32_t(n);
    }
    bool ok = true;
    out = b_.types().make({dims, dim_count}, {members, member_count}, &ok);
    if (!ok) return fail(here(), "invalid type");
    return true;
  }

  bool parse_enum(const EnumTable& table, std::uint64_t& v) {
    std::string_view w = word();
    if (!w.empty() && ((w[0] >= '0' && w[0] <= '9') || w[0] == '-'))
      return to_bits(w, v) || fail(here(), "bad number");
    v = 0;
    for (;;) {
      bool found = false;
      for (const EnumEntry& e : table.entries) {
        if (e.name == w) {
          v |= e.value;
          found = true;
        }
      }
      if (!found)
        return fail(here(),
                    "unknown " + std::string(table.type_name) + " '" + std::string(w) + "'");
      if (!table.is_mask || !eat('|')) return true;
      w = word();
    }
  }

  bool parse_string() {
    // At the opening quote.
    ++lp_;
    str_.clear();
    for (;;) {
      if (lp_ >= line_text_.size()) return fail(here(), "unterminated string");
      char c = line_text_[lp_++];
      if (c == '"') break;
      if (c == '\\') {
        if (lp_ >= line_text_.size()) return fail(here(), "bad escape");
        char e = line_text_[lp_++];
        if (e == 'x') {
          std::uint64_t v;
          if (lp_ + 2 > line_text_.size() ||
              !to_u64(std::string("0x") += line_text_.substr(lp_, 2), v))
            return fail(here(), "bad \\x escape");
          lp_ += 2;
          c = char(v);
        } else {
          c = e;
        }
      }
      str_ += c;
    }
    std::size_t n = string_literal_count(str_);
    std::size_t at = operands_.size();
    operands_.resize(at + n);
    pack_string(str_, operands_.data() + at);
    return true;
  }

  bool parse_constant(ScalarType type, std::uint64_t& v) {
    std::string_view w = word();
    if (w == "true" || w == "false") {
      v = w == "true";
      return true;
    }
    if (w.size() > 2 && w[0] == '0' && w[1] == 'x')
      return to_u64(w, v) || fail(here(), "bad hex literal");
    if (type == ScalarType::F32 || type == ScalarType::MinF16 || type == ScalarType::MinF10) {
      float f;
      auto r = std::from_chars(w.data(), w.data() + w.size(), f);
      if (r.ec != std::errc() || r.ptr != w.data() + w.size())
        return fail(here(), "bad float '" + std::string(w) + "'");
      std::uint32_t bits;
      std::memcpy(&bits, &f, 4);
      v = bits;
      return true;
    }
    if (type == ScalarType::F64) {
      double d;
      auto r = std::from_chars(w.data(), w.data() + w.size(), d);
      if (r.ec != std::errc() || r.ptr != w.data() + w.size())
        return fail(here(), "bad double '" + std::string(w) + "'");
      std::memcpy(&v, &d, 8);
      return true;
    }
    if (!to_bits(w, v)) return fail(here(), "bad number '" + std::string(w) + "'");
    if (is_signed_int(type) && !is_64bit(type) && w[0] == '-') {
      // Negative values of types up to 32 bits are stored as their 32-bit pattern.
      if (std::int64_t(v) < INT32_MIN)
        return fail(here(), "'" + std::string(w) + "' does not fit 32 bits");
      v = std::uint32_t(v);
    }
    return true;
  }

  bool parse_line() {
    if (!eat('%')) return fail(here(), "expected '%id ='");
    std::uint64_t id;
    if (!to_u64(word(), id) || id == 0 || id >= (1u << 22)) return fail(here(), "bad id");
    if (!eat('=')) return fail(here(), "expected '='");
    std::string_view name = word();
    OpCode code;
    if (!parse_op_name(name, code))
      return fail(here(), "unknown opcode '" + std::string(name) + "'");
    std::uint64_t flags = 0;
    if (eat('[')) {
      if (!parse_enum(kOpFlagsTable, flags)) return false;
      if (!eat(']')) return fail(here(), "expected ']'");
    }
    Type type;
    if (!parse_type(type)) return false;

    operands_.clear();
    std::uint32_t refs = 0;
    bool literal_seen = false;
    OpShape shape = op_shape(code);
    std::size_t fixed_lits = shape.fixed_literal_count();
    while (!at_end()) {
      std::size_t i = operands_.size();
      if (line_text_[lp_] == '%' || line_text_.substr(lp_, 4) == "null") {
        if (literal_seen) return fail(here(), "reference after a literal");
        std::uint64_t ref = 0;
        if (eat('%')) {
          if (!to_u64(word(), ref) || ref == 0 || ref >= (1u << 22))
            return fail(here(), "bad reference");
        } else {
          lp_ += 4;
        }
        operands_.push_back(Operand(SsaDef(std::uint32_t(ref))));
        ++refs;
        continue;
      }
      literal_seen = true;
      char letter = operand_letter(code, i, refs);
      std::uint64_t v = 0;
      if (line_text_[lp_] == '"') {
        if (letter != '$') return fail(here(), "unexpected string");
        if (!parse_string()) return false;
        continue;
      }
      if (letter == '#') {
        if (!parse_constant(b_.types().flattened_scalar(type, i - refs - fixed_lits), v))
          return false;
      } else if (const EnumTable* table = enum_table_for_letter(letter)) {
        if (!parse_enum(*table, v)) return false;
      } else {
        std::string_view w = word();
        if (!to_bits(w, v)) return fail(here(), "bad literal '" + std::string(w) + "'");
      }
      operands_.push_back(Operand::literal(v));
    }
    if (operands_.size() > 0xffff) return fail(here(), "too many operands");
    Op op = Op::with_operands(code, type, operands_, refs, OpFlags(std::uint32_t(flags)));
    if (!b_.add_with_id(SsaDef(std::uint32_t(id)), op))
      return fail(here(), "id %" + std::to_string(id) + " defined twice");
    return true;
  }

  std::string_view text_;
  Builder& b_;
  std::size_t pos_ = 0;
  std::size_t line_ = 0;
  std::string_view line_text_;
  std::size_t lp_ = 0;
  ErrorSink errors_{&spell_error};
  std::string str_;
  std::vector<Operand> operands_;
};

} // namespace

Status parse(std::string_view text, Builder& out) {
  return Parser(text, out).run();
}

} // namespace kiln::ir
