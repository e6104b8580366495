#pragma once
// A bump allocator that is reset, not freed, between translations.
//
// Every translation owns one Arena (through its context); after the first few shaders a
// worker's arena has grown to fit its largest shader and later translations allocate nothing
// from the heap. The first block is allocated lazily and small, so an empty or tiny shader pays
// for a few kilobytes, never for a page it does not use.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <type_traits>

namespace kiln {

class Arena {
public:
  static constexpr std::size_t kFirstBlockBytes = 4 * 1024;
  static constexpr std::size_t kMaxBlockBytes = 1024 * 1024;

  Arena() = default;
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;
  ~Arena();

  // Returns `bytes` bytes aligned to `align` (a power of two). Never returns null: throws
  // std::bad_alloc only when the system is out of memory, like operator new.
  void* allocate(std::size_t bytes, std::size_t align = alignof(std::max_align_t)) {
    std::uintptr_t p = (cursor_ + (align - 1)) & ~std::uintptr_t(align - 1);
    if (p + bytes <= limit_) [[likely]] {
      cursor_ = p + bytes;
      return reinterpret_cast<void*>(p);
    }
    return allocate_slow(bytes, align);
  }

  // Uninitialised storage for `count` objects of a trivially destructible type.
  template <typename T>
  T* allocate_array(std::size_t count) {
    static_assert(std::is_trivially_destructible_v<T>, "arena objects are never destroyed");
    return static_cast<T*>(allocate(sizeof(T) * count, alignof(T)));
  }

  template <typename T, typename... Args>
  T* make(Args&&... args) {
    static_assert(std::is_trivially_destructible_v<T>, "arena objects are never destroyed");
    return new (allocate(sizeof(T), alignof(T))) T(static_cast<Args&&>(args)...);
  }

  // Copies `count` objects into the arena.
  template <typename T>
  T* copy(const T* src, std::size_t count) {
    T* dst = allocate_array<T>(count);
    if (count) std::memcpy(static_cast<void*>(dst), src, sizeof(T) * count);
    return dst;
  }

  // Forgets every allocation but keeps the blocks for reuse.
  void reset();

  // Bytes handed out since the last reset (for statistics and tests).
  std::size_t bytes_used() const;
  // Bytes held from the system, used or not.
  std::size_t bytes_reserved() const { return reserved_; }

private:
  struct Block {
    Block* next;
    std::size_t size; // usable bytes after the header
  };

  void* allocate_slow(std::size_t bytes, std::size_t align);
  void enter(Block* block);

  Block* used_ = nullptr; // blocks in use, newest first (the current one is used_)
  Block* free_ = nullptr; // blocks kept by reset(), ready for reuse
  std::uintptr_t cursor_ = 0;
  std::uintptr_t limit_ = 0;
  std::size_t reserved_ = 0;
  std::size_t used_before_current_ = 0;
};

} // namespace kiln
