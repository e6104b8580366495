#pragma once
// The in-memory index of a cache file: translation key -> where its record lies. Keys are
// already uniform 128-bit hashes, so a flat open-addressing table with linear probing needs no
// further hashing and a lookup touches one or two cache lines. Not synchronized: ShaderCache
// guards it with a shared_mutex; only `last_use` is written under the shared lock, through
// std::atomic_ref.

#include "translator/translation_key.h"

#include <atomic>
#include <cstdint>
#include <vector>

namespace kiln::cache {

struct IndexEntry {
  TranslationKey key;
  std::uint64_t offset = 0;      // record start in the cache file
  std::uint64_t last_use = 0;    // LRU clock value; written through atomic_ref
  std::uint32_t record_size = 0; // 0 marks an empty slot
  std::uint32_t codegen_version = 0;
};

class FlatIndex {
 public:
  std::size_t size() const { return size_; }

  IndexEntry* find(const TranslationKey& key) {
    if (slots_.empty()) return nullptr;
    for (std::size_t i = slot_of(key);; i = (i + 1) & mask()) {
      IndexEntry& slot = slots_[i];
      if (slot.record_size == 0) return nullptr;
      if (slot.key == key) return &slot;
    }
  }

  // Inserts or replaces; returns the previous record size (0 when the key was new).
  std::uint32_t upsert(const IndexEntry& entry) {
    if ((size_ + 1) * 4 > slots_.size() * 3) grow();
    for (std::size_t i = slot_of(entry.key);; i = (i + 1) & mask()) {
      IndexEntry& slot = slots_[i];
      if (slot.record_size == 0) {
        slot = entry;
        ++size_;
        return 0;
      }
      if (slot.key == entry.key) {
        const std::uint32_t previous = slot.record_size;
        slot = entry;
        return previous;
      }
    }
  }

  void clear() {
    slots_.clear();
    size_ = 0;
  }

  void reserve(std::size_t entries) {
    while (slots_.size() * 3 < entries * 4 + 4) grow();
  }

  template <typename Visit>
  void for_each(Visit&& visit) const {
    for (const IndexEntry& slot : slots_)
      if (slot.record_size != 0) visit(slot);
  }

 private:
  std::size_t mask() const { return slots_.size() - 1; }
  std::size_t slot_of(const TranslationKey& key) const { return std::size_t(key.low) & mask(); }

  void grow() {
    std::vector<IndexEntry> old = std::move(slots_);
    slots_.assign(old.empty() ? 64 : old.size() * 2, IndexEntry{});
    size_ = 0;
    for (const IndexEntry& entry : old)
      if (entry.record_size != 0) upsert(entry);
  }

  std::vector<IndexEntry> slots_;
  std::size_t size_ = 0;
};

inline void touch(IndexEntry& entry, std::uint64_t now) {
  std::atomic_ref<std::uint64_t>(entry.last_use).store(now, std::memory_order_relaxed);
}

// Reads last_use while lookups holding the shared lock may be touching it.
inline std::uint64_t last_use_of(const IndexEntry& entry) {
  return std::atomic_ref<std::uint64_t>(const_cast<std::uint64_t&>(entry.last_use))
      .load(std::memory_order_relaxed);
}

} // namespace kiln::cache
