#include "translator/ir/ir_serialize.h"

#include <string>

namespace kiln::ir {

void write_token(std::int64_t value, std::vector<std::uint8_t>& out) {
  // n following bytes carry 7 + 7n value bits (n < 8); n = 8 carries all 64.
  unsigned n = 8;
  for (unsigned k = 0; k < 8; ++k) {
    unsigned bits = 7 + 7 * k;
    std::int64_t lo = -(std::int64_t(1) << (bits - 1));
    std::int64_t hi = (std::int64_t(1) << (bits - 1)) - 1;
    if (value >= lo && value <= hi) {
      n = k;
      break;
    }
  }
  std::uint64_t v = std::uint64_t(value);
  std::uint8_t prefix = std::uint8_t(0xff00u >> n); // n leading ones, then a zero
  if (n == 8) {
    out.push_back(0xff);
  } else {
    unsigned first_bits = 7 - n;
    std::uint8_t top = std::uint8_t((v >> (8 * n)) & ((1u << first_bits) - 1));
    out.push_back(std::uint8_t(prefix | top));
  }
  for (unsigned i = n; i > 0; --i) out.push_back(std::uint8_t(v >> (8 * (i - 1))));
}

bool read_token(std::span<const std::uint8_t> bytes, std::size_t& offset, std::int64_t& value) {
  if (offset >= bytes.size()) return false;
  std::uint8_t first = bytes[offset];
  unsigned n = 0;
  while (n < 8 && (first & (0x80u >> n))) ++n;
  if (bytes.size() - offset - 1 < n) return false;
  std::uint64_t v = n == 8 ? 0 : (first & (0x7fu >> n));
  for (unsigned i = 0; i < n; ++i) v = v << 8 | bytes[offset + 1 + i];
  unsigned bits = n == 8 ? 64 : 7 + 7 * n;
  if (bits < 64) {
    std::uint64_t sign = std::uint64_t(1) << (bits - 1);
    v = (v ^ sign) - sign;
  }
  value = std::int64_t(v);
  offset += 1 + n;
  return true;
}

void serialize(const Builder& builder, std::vector<std::uint8_t>& out) {
  // New ids follow program order.
  std::vector<std::uint32_t> new_id(builder.id_limit(), 0);
  std::uint32_t next = 0;
  for (OpView op : builder.ops()) new_id[op.def().id()] = ++next;

  for (OpView op : builder.ops()) {
    std::int64_t self = new_id[op.def().id()];
    write_token(std::int64_t(op.code()) | std::int64_t(std::uint32_t(op.flags()) & 0xff) << 10,
                out);
    write_token(op.operand_count(), out);
    TypeView tv = builder.types().view(op.type());
    write_token(std::int64_t(tv.dim_count) | std::int64_t(tv.member_count()) << 2, out);
    for (unsigned i = 0; i < tv.dim_count; ++i) write_token(tv.dims[i], out);
    for (unsigned i = 0; i < tv.member_count(); ++i) write_token(tv.member_fields[i], out);
    for (std::uint32_t i = 0; i < op.operand_count(); ++i) {
      Operand o = op.operand(i);
      if (op.is_ref(i)) {
        std::uint32_t target = o.def().id() < new_id.size() ? new_id[o.def().id()] : 0;
        write_token(target ? self - std::int64_t(target) : 0, out);
      } else {
        write_token(std::int64_t(o.bits()), out);
      }
    }
  }
}

namespace {

class Reader {
 public:
  Reader(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}

  // The stage boundary: the first report of read_ops() is the Status.
  Status run(Builder& out) { return errors_.outcome(read_ops(out)); }

 private:
  bool read_ops(Builder& out) {
    out.reset();
    std::uint32_t self = 0;
    std::int64_t max_target = 0;
    std::size_t max_target_offset = 0;
    while (offset_ < bytes_.size()) {
      std::size_t op_offset = offset_;
      ++self;
      std::int64_t t = 0;
      if (!read(t)) return false;
      if (t < 0 || (t >> 18) != 0) return fail(op_at(op_offset), "bad opcode token");
      auto code = OpCode(t & 0x3ff);
      if (code >= OpCode::Count)
        return fail(op_at(op_offset), "unknown opcode " + std::to_string(t & 0x3ff));
      std::uint32_t flags = std::uint32_t(t >> 10);
      if (!enum_value_valid(kOpFlagsTable, flags))
        return fail(op_at(op_offset), "unknown op flags");
      std::int64_t count = 0;
      if (!read(count)) return false;
      // Every operand takes at least one byte.
      if (count < 0 || count > 0xffff || std::uint64_t(count) > bytes_.size() - offset_)
        return fail(op_at(op_offset), "bad operand count");
      Type type;
      if (!read_type(type)) return false;
      int refs = expected_ref_count(code, std::size_t(count));
      if (refs < 0)
        return fail(op_at(op_offset),
                    std::to_string(count) + " operands do not fit " + std::string(op_name(code)));
      operands_.resize(std::size_t(count));
      for (std::int64_t i = 0; i < count; ++i) {
        std::int64_t v = 0;
        if (!read(v)) return false;
        if (i < refs) {
          // A reference is stored relative to the op: target = self - v, in [1, 2^31 - 1].
          // The range is checked on v itself, before any arithmetic can overflow.
          const std::int64_t here = std::int64_t(self);
          if (v != 0 && (v > here - 1 || v < here - 0x7fffffff))
            return fail(op_at(op_offset), "reference out of range");
          const std::int64_t target = v == 0 ? 0 : here - v;
          if (target > max_target) {
            max_target = target;
            max_target_offset = op_offset;
          }
          operands_[std::size_t(i)] = Operand(SsaDef(std::uint32_t(target)));
        } else {
          operands_[std::size_t(i)] = Operand::literal(std::uint64_t(v));
        }
      }
      Op op = Op::with_operands(code, type, operands_, std::uint32_t(refs), OpFlags(flags));
      if (!out.add_with_id(SsaDef(self), op)) return fail(op_at(op_offset), "cannot add op");
    }
    if (max_target > std::int64_t(self))
      return fail(op_at(max_target_offset), "reference to %" + std::to_string(max_target) +
                                                " beyond the last op %" + std::to_string(self));
    return true;
  }

  bool read(std::int64_t& v) {
    return read_token(bytes_, offset_, v) || fail(offset_, "truncated token");
  }
  bool read_type(Type& out_type) {
    std::size_t at = offset_;
    std::int64_t header = 0;
    if (!read(header)) return false;
    if (header < 0 || (header >> 2) > TypeView::kMaxMembers) return fail(at, "bad type header");
    unsigned dims_n = unsigned(header & 3), members_n = unsigned(header >> 2);
    std::uint32_t dims[TypeView::kMaxDims];
    Type members[TypeView::kMaxMembers];
    for (unsigned i = 0; i < dims_n; ++i) {
      std::int64_t d = 0;
      if (!read(d)) return false;
      if (d < 0 || d > 0xffffffff) return fail(at, "bad array size");
      dims[i] = std::uint32_t(d);
    }
    for (unsigned i = 0; i < members_n; ++i) {
      std::int64_t f = 0;
      if (!read(f)) return false;
      if (f < 0 || f > 0x7f || (f & 0x1f) >= std::int64_t(ScalarType::Count))
        return fail(at, "bad struct member type");
      members[i] = Type::from_member_field(std::uint32_t(f));
    }
    bool ok = true;
    out_type = builder_types_->make({dims, dims_n}, {members, members_n}, &ok);
    if (!ok) return fail(at, "invalid type");
    return true;
  }
  // The reader's one way to report: "ir binary: op at byte N: what" about an op (op_at(N)),
  // "ir binary: what at byte N" about a token or type.
  static std::string spell_error(const Where& where, std::string_view what) {
    if (where.name == "op")
      return "ir binary: op at byte " + std::to_string(where.position) + ": " + std::string(what);
    return "ir binary: " + std::string(what) + " at byte " + std::to_string(where.position);
  }
  static Where op_at(std::size_t offset) { return Where(offset, "op"); }
  bool fail(const Where& where, std::string_view what) { return errors_.fail(where, what); }

 public:
  TypeTable* builder_types_ = nullptr;

 private:
  std::span<const std::uint8_t> bytes_;
  std::size_t offset_ = 0;
  ErrorSink errors_{&spell_error};
  std::vector<Operand> operands_;
};

} // namespace

Status deserialize(std::span<const std::uint8_t> bytes, Builder& out) {
  Reader reader(bytes);
  reader.builder_types_ = &out.types();
  return reader.run(out);
}

} // namespace kiln::ir
