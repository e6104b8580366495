#pragma once
// InternTable: a flat open-addressing hash table from short word sequences (an instruction's
// opcode and operands, minus its result id) to a 32-bit value (the result id). Keys of up to
// four words (most types, scalar constants and decorations) live in their slot, longer ones in
// one reused word buffer; slots are one reused array. So after warm-up interning allocates
// nothing, a lookup reads one slot per probe, and clear() keeps all capacity. Used by
// ModuleBuilder to deduplicate types, constants and decorations.
//
// Both tables hash into an active prefix of their slots that starts at kInitialSlots for each
// module and doubles, within the capacity kept from earlier modules, as the module needs:
// after one large shader grew the array, a small one still finds its few keys in a few pages
// instead of one line on each of many pages (a page walk apiece on a cold call).

#include "translator/spirv/word_buffer.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <span>
#include <vector>

namespace kiln::spirv {

// The active prefix for about `expected` keys: a power of two, at least `initial`, at most
// `capacity` (a power of two), with room to keep the load factor under 1/2.
inline std::size_t prefix_for(std::size_t expected, std::size_t initial, std::size_t capacity) {
  return std::min(capacity, std::max(initial, std::bit_ceil(2 * expected)));
}

class InternTable {
 public:
  static constexpr std::uint32_t kNotFound = 0;

  InternTable() { slots_.resize(kInitialSlots); }

  // Forgets every key. `expected`: about how many keys the next module interns; the prefix
  // starts large enough for them (within the kept capacity), so a large module does not re-place
  // its keys at every doubling.
  void clear(std::size_t expected = 0);
  // Slots hashed into now (the active prefix), for tests.
  std::size_t active_slots() const { return std::size_t{mask_} + 1; }
  std::uint32_t size() const { return count_; }

  // Returns the value stored for `key`, or kNotFound.
  std::uint32_t find(std::span<const std::uint32_t> key) const;
  // Returns the value stored for `key`; when absent, stores `value` first and returns it.
  // `value` must not be kNotFound.
  std::uint32_t intern(std::span<const std::uint32_t> key, std::uint32_t value);

 private:
  static constexpr std::uint32_t kInitialSlots = 256; // power of two
  static constexpr std::size_t kInlineWords = 4;      // keys up to this long live in the slot

  // A slot is occupied when its generation equals the table's: clear() just bumps the
  // generation, so resetting a large table costs nothing.
  struct Slot {
    std::uint32_t generation = 0;
    std::uint32_t length = 0; // key words
    std::uint32_t hash = 0;
    std::uint32_t value = kNotFound;
    // The key when length <= kInlineWords, else words[0] is its offset in long_keys_.
    std::uint32_t words[kInlineWords] = {};
  };

  // One multiply per two words (keys are 2-8 words), keeping the dependency chain short; the
  // slot comes from the product's high half, which depends on every input bit.
  static std::uint32_t hash_words(std::span<const std::uint32_t> key) {
    constexpr std::uint64_t kMul = 0x9E3779B97F4A7C15ull;
    std::uint64_t h = (key.size() + 1) * kMul;
    std::size_t i = 0;
    for (; i + 2 <= key.size(); i += 2) h = (h ^ (key[i] | std::uint64_t{key[i + 1]} << 32)) * kMul;
    if (i < key.size()) h = (h ^ key[i]) * kMul;
    return static_cast<std::uint32_t>(h >> 32);
  }
  // Word loop rather than memcmp: keys are a few words, so a call costs more than the compare.
  bool key_equals(const Slot& slot, std::uint32_t hash, std::span<const std::uint32_t> key) const {
    if (slot.hash != hash || slot.length != key.size()) return false;
    const std::uint32_t* stored =
        key.size() <= kInlineWords ? slot.words : long_keys_.data() + slot.words[0];
    for (std::size_t i = 0; i < key.size(); ++i)
      if (stored[i] != key[i]) return false;
    return true;
  }
  void grow();

  std::vector<Slot> slots_;
  std::vector<Slot> moving_; // grow(): the live slots being placed again, reused
  WordBuffer long_keys_;
  std::uint32_t mask_ = kInitialSlots - 1; // active prefix: slots_[0, mask_]
  std::uint32_t count_ = 0;
  std::uint32_t generation_ = 1;
};

// PairInternTable: the same for keys of exactly two words (a scalar constant's type and bits, a
// pointer type's storage class and pointee), the lookups the backend makes most: a slot holds
// the key as one 64-bit word, so a probe is one compare and nothing is stored apart. The
// lookup is inline; growth is not.
class PairInternTable {
 public:
  static constexpr std::uint32_t kNotFound = 0;

  PairInternTable() { slots_.resize(kInitialSlots); }

  // As InternTable::clear().
  void clear(std::size_t expected = 0);
  // Slots hashed into now (the active prefix), for tests.
  std::size_t active_slots() const { return mask_ + 1; }
  std::uint32_t size() const { return count_; }

  // Returns the value stored for (a, b); when absent, stores `value` first and returns it.
  // `value` must not be kNotFound.
  std::uint32_t intern(std::uint32_t a, std::uint32_t b, std::uint32_t value) {
    const std::uint64_t key = std::uint64_t{a} << 32 | b;
    const std::size_t mask = mask_;
    std::size_t i = slot_of(key) & mask;
    for (;; i = (i + 1) & mask) {
      const Slot& slot = slots_[i];
      if (slot.generation != generation_) break;
      if (slot.key == key) return slot.value;
    }
    // Keep the load factor under 1/2 so probe chains stay short.
    if ((count_ + 1) * 2 > mask + 1) [[unlikely]]
      return insert_after_growing(key, value);
    slots_[i] = {key, value, generation_};
    ++count_;
    return value;
  }

 private:
  static constexpr std::uint32_t kInitialSlots = 256; // power of two

  struct Slot {
    std::uint64_t key = 0;
    std::uint32_t value = kNotFound;
    std::uint32_t generation = 0; // occupied when equal to the table's (clear() bumps it)
  };

  // The product's high half depends on every key bit.
  static std::size_t slot_of(std::uint64_t key) {
    return static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ull) >> 32);
  }
  std::uint32_t insert_after_growing(std::uint64_t key, std::uint32_t value);

  std::vector<Slot> slots_;
  std::vector<Slot> moving_; // insert_after_growing(): the live slots placed again, reused
  std::size_t mask_ = kInitialSlots - 1; // active prefix: slots_[0, mask_]
  std::uint32_t count_ = 0;
  std::uint32_t generation_ = 1;
};

} // namespace kiln::spirv
