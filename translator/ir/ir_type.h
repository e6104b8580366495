#pragma once
// IR types (docs/ir.md, "Ops"): a 32-bit handle. Scalars and vectors are encoded in the
// handle itself, so the common case needs no table; structs and arrays are interned in the
// TypeTable of the Builder that owns the program, so two handles from one table are equal
// exactly when the types are.
//
// Handle layout:
//   0                          void
//   0x80 | scalar | (n-1)<<5   a scalar (n = 1) or vecN; the low 7 bits are the serialized
//                              member field (scalar type 5 bits, vector size - 1 in 2 bits)
//   0x80000000 | offset        a struct and/or array, `offset` into TypeTable::words_

#include "translator/ir/ir_enums.h"

#include <cstdint>
#include <span>
#include <vector>

namespace kiln::ir {

class Type {
 public:
  constexpr Type() = default; // void
  constexpr explicit Type(ScalarType scalar, unsigned vector_size = 1)
      : bits_(0x80u | unsigned(scalar) | ((vector_size - 1) & 3u) << 5) {}

  static constexpr Type from_bits(std::uint32_t bits) {
    Type t;
    t.bits_ = bits;
    return t;
  }
  // A member field as serialized (scalar type, vector size - 1): a basic type.
  static constexpr Type from_member_field(std::uint32_t field) {
    return from_bits(0x80u | (field & 0x7fu));
  }

  constexpr std::uint32_t bits() const { return bits_; }
  constexpr bool is_void() const { return bits_ == 0; }
  // Scalar or vector.
  constexpr bool is_basic() const { return bits_ != 0 && !(bits_ & 0x80000000u); }
  // Struct or array: described by the owning TypeTable.
  constexpr bool is_aggregate() const { return (bits_ & 0x80000000u) != 0; }
  constexpr bool is_scalar() const { return is_basic() && vector_size() == 1; }
  constexpr bool is_vector() const { return is_basic() && vector_size() > 1; }
  // Only meaningful for basic types.
  constexpr ScalarType scalar_type() const { return ScalarType(bits_ & 0x1fu); }
  constexpr unsigned vector_size() const { return ((bits_ >> 5) & 3u) + 1; }
  constexpr std::uint32_t member_field() const { return bits_ & 0x7fu; }
  constexpr std::uint32_t aggregate_offset() const { return bits_ & 0x7fffffffu; }

  constexpr Type with_vector_size(unsigned n) const { return Type(scalar_type(), n); }
  constexpr Type with_scalar_type(ScalarType s) const { return Type(s, vector_size()); }

  friend constexpr bool operator==(Type a, Type b) { return a.bits_ == b.bits_; }

 private:
  std::uint32_t bits_ = 0;
};

constexpr bool is_float(ScalarType s) {
  return s == ScalarType::F16 || s == ScalarType::F32 || s == ScalarType::F64 ||
         s == ScalarType::MinF16 || s == ScalarType::MinF10;
}
constexpr bool is_signed_int(ScalarType s) {
  return s == ScalarType::I8 || s == ScalarType::I16 || s == ScalarType::I32 ||
         s == ScalarType::I64 || s == ScalarType::MinI16 || s == ScalarType::MinI12;
}
constexpr bool is_unsigned_int(ScalarType s) {
  return s == ScalarType::U8 || s == ScalarType::U16 || s == ScalarType::U32 ||
         s == ScalarType::U64 || s == ScalarType::MinU16;
}
constexpr bool is_integer(ScalarType s) {
  return is_signed_int(s) || is_unsigned_int(s);
}
// Bytes of a scalar literal in memory (64-bit types need the whole literal).
constexpr bool is_64bit(ScalarType s) {
  return s == ScalarType::I64 || s == ScalarType::U64 || s == ScalarType::F64;
}

// Shorthands for the common types.
constexpr Type kVoid{};
constexpr Type kBool{ScalarType::Bool};
constexpr Type kU32{ScalarType::U32};
constexpr Type kI32{ScalarType::I32};
constexpr Type kF32{ScalarType::F32};
constexpr Type vec(ScalarType s, unsigned n) {
  return Type(s, n);
}

// The top-down view of any type: array dimensions (innermost first, the last one may be 0 =
// unbounded) and struct members (basic types). A basic type is one member and no dimension;
// void has neither.
struct TypeView {
  static constexpr unsigned kMaxDims = 3;
  static constexpr unsigned kMaxMembers = 255;

  unsigned dim_count = 0;
  std::uint32_t dims[kMaxDims] = {};
  std::span<const std::uint32_t> member_fields; // Type::member_field() values
  Type single_member;                           // storage when the type is basic

  unsigned member_count() const { return unsigned(member_fields.size()); }
  Type member(unsigned i) const { return Type::from_member_field(member_fields[i]); }
  bool is_unbounded() const { return dim_count > 0 && dims[dim_count - 1] == 0; }
};

// Interns struct and array types. Storage is reused across reset(); lookups go through a flat
// open-addressing table of handles.
class TypeTable {
 public:
  // The aggregate (or basic / void when it collapses to one) with these dimensions and
  // members. Returns false in `ok` when a limit is exceeded (more than 3 dimensions, more than
  // 255 members, dimensions on void, a non-basic member).
  Type make(std::span<const std::uint32_t> dims, std::span<const Type> members, bool* ok = nullptr);
  Type make_struct(std::span<const Type> members) { return make({}, members); }
  // `element` with one more, outermost, dimension of `size` elements (0 = unbounded).
  Type make_array(Type element, std::uint32_t size, bool* ok = nullptr);
  // The element type of an array (drops the outermost dimension); void when not an array.
  Type element_type(Type array);

  TypeView view(Type type) const;
  // Number of scalars when the type is flattened (a Constant's literal count); 0 for an
  // unbounded array.
  std::uint64_t flattened_scalar_count(Type type) const;
  // The scalar type of flattened element `index`.
  ScalarType flattened_scalar(Type type, std::uint64_t index) const;

  void reset();
  std::size_t bytes_reserved() const;

 private:
  std::uint32_t hash_words(std::span<const std::uint32_t> words) const;
  bool equal_words(std::uint32_t offset, std::span<const std::uint32_t> words) const;
  void grow_table();

  // Per aggregate: header (dims | members << 2), the dims, one word per member field.
  std::vector<std::uint32_t> words_;
  std::vector<std::uint32_t> table_; // handle offsets + 1, 0 = empty
  std::size_t table_used_ = 0;
  std::size_t table_mask_ = 0; // active size - 1 (capacity is kept across resets)
  std::vector<std::uint32_t> scratch_;
};

} // namespace kiln::ir
