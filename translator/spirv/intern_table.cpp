#include "translator/spirv/intern_table.h"

namespace kiln::spirv {

namespace {

// Doubles the active prefix of `slots` (slots[0, mask]; the array too when the prefix was all
// of it) and places the live slots, those of `generation`, again at home(slot) & mask. Slots past
// the old prefix hold only earlier modules' generations: free. `moving` is reused scratch.
template <class Slot, class Mask, class Home>
void double_prefix(std::vector<Slot>& slots, std::vector<Slot>& moving, Mask& mask,
                   std::uint32_t generation, Home home) {
  const std::size_t active = std::size_t{mask} + 1;
  moving.clear();
  for (std::size_t i = 0; i < active; ++i) {
    Slot& slot = slots[i];
    if (slot.generation != generation) continue;
    moving.push_back(slot);
    slot.generation = 0;
  }
  if (slots.size() < 2 * active) slots.resize(2 * active);
  mask = static_cast<Mask>(2 * active - 1);
  for (const Slot& slot : moving) {
    std::size_t i = home(slot) & mask;
    while (slots[i].generation == generation) i = (i + 1) & mask;
    slots[i] = slot;
  }
}

} // namespace

void InternTable::clear(std::size_t expected) {
  long_keys_.clear();
  count_ = 0;
  mask_ = static_cast<std::uint32_t>(prefix_for(expected, kInitialSlots, slots_.size()) - 1);
  if (++generation_ == 0) {
    // Wrapped after 2^32 clears: forget every stale slot for real once.
    for (Slot& slot : slots_) slot.generation = 0;
    generation_ = 1;
  }
}

std::uint32_t InternTable::find(std::span<const std::uint32_t> key) const {
  const std::uint32_t hash = hash_words(key);
  const std::uint32_t mask = mask_;
  for (std::uint32_t i = hash & mask;; i = (i + 1) & mask) {
    const Slot& slot = slots_[i];
    if (slot.generation != generation_) return kNotFound;
    if (key_equals(slot, hash, key)) return slot.value;
  }
}

std::uint32_t InternTable::intern(std::span<const std::uint32_t> key, std::uint32_t value) {
  const std::uint32_t hash = hash_words(key);
  std::uint32_t mask = mask_;
  std::uint32_t i = hash & mask;
  for (;; i = (i + 1) & mask) {
    const Slot& slot = slots_[i];
    if (slot.generation != generation_) break;
    if (key_equals(slot, hash, key)) return slot.value;
  }
  // Keep the load factor under 1/2 so probe chains stay short.
  if ((count_ + 1) * 2 > mask + 1) [[unlikely]] {
    grow();
    mask = mask_;
    for (i = hash & mask; slots_[i].generation == generation_; i = (i + 1) & mask) {
    }
  }
  Slot& slot = slots_[i];
  slot.generation = generation_;
  slot.length = static_cast<std::uint32_t>(key.size());
  slot.hash = hash;
  slot.value = value;
  std::uint32_t* stored = slot.words;
  if (key.size() > kInlineWords) {
    slot.words[0] = static_cast<std::uint32_t>(long_keys_.size());
    stored = long_keys_.append(key.size());
  }
  for (std::size_t w = 0; w < key.size(); ++w) stored[w] = key[w];
  ++count_;
  return value;
}

void InternTable::grow() {
  double_prefix(slots_, moving_, mask_, generation_, [](const Slot& slot) { return slot.hash; });
}

void PairInternTable::clear(std::size_t expected) {
  count_ = 0;
  mask_ = prefix_for(expected, kInitialSlots, slots_.size()) - 1;
  if (++generation_ == 0) {
    for (Slot& slot : slots_) slot.generation = 0;
    generation_ = 1;
  }
}

// As InternTable::grow(), then the new key.
std::uint32_t PairInternTable::insert_after_growing(std::uint64_t key, std::uint32_t value) {
  double_prefix(slots_, moving_, mask_, generation_,
                [](const Slot& slot) { return slot_of(slot.key); });
  std::size_t i = slot_of(key) & mask_;
  while (slots_[i].generation == generation_) i = (i + 1) & mask_;
  slots_[i] = {key, value, generation_};
  ++count_;
  return value;
}

} // namespace kiln::spirv
