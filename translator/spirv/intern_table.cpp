#include "translator/spirv/intern_table.h"

#include <cstring>

namespace kiln::spirv {

void InternTable::clear() {
  keys_.clear();
  count_ = 0;
  if (++generation_ == 0) {
    // Wrapped after 2^32 clears: forget every stale slot for real once.
    for (Slot& slot : slots_) slot.generation = 0;
    generation_ = 1;
  }
}

std::uint32_t InternTable::find(std::span<const std::uint32_t> key) const {
  const std::uint32_t hash = hash_words(key);
  const std::uint32_t mask = static_cast<std::uint32_t>(slots_.size()) - 1;
  for (std::uint32_t i = hash & mask;; i = (i + 1) & mask) {
    const Slot& slot = slots_[i];
    if (slot.generation != generation_) return kNotFound;
    if (slot.hash == hash && key_equals(slot, key)) return slot.value;
  }
}

std::uint32_t InternTable::intern(std::span<const std::uint32_t> key, std::uint32_t value) {
  const std::uint32_t hash = hash_words(key);
  std::uint32_t mask = static_cast<std::uint32_t>(slots_.size()) - 1;
  std::uint32_t i = hash & mask;
  for (;; i = (i + 1) & mask) {
    const Slot& slot = slots_[i];
    if (slot.generation != generation_) break;
    if (slot.hash == hash && key_equals(slot, key)) return slot.value;
  }
  // Keep the load factor under 1/2 so probe chains stay short.
  if ((count_ + 1) * 2 > slots_.size()) {
    grow();
    mask = static_cast<std::uint32_t>(slots_.size()) - 1;
    for (i = hash & mask; slots_[i].generation == generation_; i = (i + 1) & mask) {
    }
  }
  Slot& slot = slots_[i];
  slot.hash = hash;
  slot.generation = generation_;
  slot.key_offset = static_cast<std::uint32_t>(keys_.size());
  slot.key_length = static_cast<std::uint32_t>(key.size());
  slot.value = value;
  keys_.insert(keys_.end(), key.begin(), key.end());
  ++count_;
  return value;
}

void InternTable::grow() {
  std::vector<Slot> old;
  old.swap(slots_);
  slots_.resize(old.size() * 2);
  const std::uint32_t mask = static_cast<std::uint32_t>(slots_.size()) - 1;
  for (const Slot& slot : old) {
    if (slot.generation != generation_) continue;
    std::uint32_t i = slot.hash & mask;
    while (slots_[i].generation == generation_) i = (i + 1) & mask;
    slots_[i] = slot;
  }
}

} // namespace kiln::spirv
