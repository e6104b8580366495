#pragma once
// SSA ids and operands (docs/ir.md, "Ops"): the two values every op is made of.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>

namespace kiln::ir {

// An op's id: an index into the Builder's dense arrays. 0 is null.
class SsaDef {
 public:
  constexpr SsaDef() = default;
  constexpr explicit SsaDef(std::uint32_t id) : id_(id) {}
  constexpr std::uint32_t id() const { return id_; }
  constexpr explicit operator bool() const { return id_ != 0; }
  friend constexpr bool operator==(SsaDef a, SsaDef b) { return a.id_ == b.id_; }

 private:
  std::uint32_t id_ = 0;
};

// One operand: a reference (an SsaDef) or a literal of up to 64 bits. Which one it is follows
// from its position (Op::ref_count()); the operand itself is just the bits.
class Operand {
 public:
  // Uninitialised by default so that Op's inline storage costs nothing to construct; value-
  // initialise (Operand{}) for a zero.
  Operand() = default;
  constexpr explicit Operand(SsaDef def) : bits_(def.id()) {}
  static constexpr Operand literal(std::uint64_t bits) {
    Operand o{};
    o.bits_ = bits;
    return o;
  }
  static Operand literal_f32(float value) {
    std::uint32_t bits;
    std::memcpy(&bits, &value, 4);
    return literal(bits);
  }
  static Operand literal_f64(double value) {
    std::uint64_t bits;
    std::memcpy(&bits, &value, 8);
    return literal(bits);
  }

  constexpr SsaDef def() const { return SsaDef(std::uint32_t(bits_)); }
  constexpr std::uint64_t bits() const { return bits_; }
  constexpr std::uint32_t literal_u32() const { return std::uint32_t(bits_); }
  constexpr std::int32_t literal_i32() const { return std::int32_t(std::uint32_t(bits_)); }
  constexpr std::uint64_t literal_u64() const { return bits_; }
  float literal_f32() const {
    float f;
    std::uint32_t b = std::uint32_t(bits_);
    std::memcpy(&f, &b, 4);
    return f;
  }
  double literal_f64() const {
    double d;
    std::memcpy(&d, &bits_, 8);
    return d;
  }
  template <typename E>
  constexpr E literal_enum() const {
    return E(std::uint32_t(bits_));
  }
  friend constexpr bool operator==(Operand a, Operand b) { return a.bits_ == b.bits_; }

 private:
  std::uint64_t bits_;
};

// Number of literals a string takes (8 bytes each, null-terminated) and the packing itself.
constexpr std::size_t string_literal_count(std::string_view s) {
  return s.size() / 8 + 1;
}
void pack_string(std::string_view s, Operand* out);
// Reads a string from literals; stops at the terminator or the end of `literals`.
std::size_t unpack_string(std::span<const Operand> literals, char* out, std::size_t capacity);

} // namespace kiln::ir
