#pragma once
// InternTable: a flat open-addressing hash table from short word sequences (an instruction's
// opcode and operands, minus its result id) to a 32-bit value (the result id). Keys live in one
// reused word vector and slots in one reused array, so after warm-up interning allocates
// nothing, and clear() keeps all capacity. Used by ModuleBuilder to deduplicate types,
// constants and decorations.

#include <cstdint>
#include <span>
#include <vector>

namespace kiln::spirv {

class InternTable {
 public:
  static constexpr std::uint32_t kNotFound = 0;

  InternTable() { slots_.resize(kInitialSlots); }

  void clear();
  std::uint32_t size() const { return count_; }

  // Returns the value stored for `key`, or kNotFound.
  std::uint32_t find(std::span<const std::uint32_t> key) const;
  // Returns the value stored for `key`; when absent, stores `value` first and returns it.
  // `value` must not be kNotFound.
  std::uint32_t intern(std::span<const std::uint32_t> key, std::uint32_t value);

 private:
  static constexpr std::uint32_t kInitialSlots = 256; // power of two

  // A slot is occupied when its generation equals the table's: clear() just bumps the
  // generation, so resetting a large table costs nothing.
  struct Slot {
    std::uint32_t hash = 0;
    std::uint32_t generation = 0;
    std::uint32_t key_offset = 0;
    std::uint32_t key_length = 0;
    std::uint32_t value = kNotFound;
  };

  static std::uint32_t hash_words(std::span<const std::uint32_t> key);
  bool key_equals(const Slot& slot, std::span<const std::uint32_t> key) const;
  void grow();

  std::vector<Slot> slots_;
  std::vector<std::uint32_t> keys_;
  std::uint32_t count_ = 0;
  std::uint32_t generation_ = 1;
};

} // namespace kiln::spirv
