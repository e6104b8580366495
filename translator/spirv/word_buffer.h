#pragma once
// WordBuffer: a growable array of SPIR-V words that, unlike std::vector, appends without
// zero-filling first (append(n) hands back raw space to write) and keeps its capacity across
// clear(). ModuleBuilder's sections are WordBuffers so emitting an instruction is a capacity
// check and a few stores.

#include <cstdint>
#include <cstring>
#include <memory>
#include <span>

namespace kiln::spirv {

class WordBuffer {
 public:
  WordBuffer() = default;
  explicit WordBuffer(std::size_t capacity) { reserve(capacity); }
  WordBuffer(const WordBuffer&) = delete;
  WordBuffer& operator=(const WordBuffer&) = delete;

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  std::uint32_t* data() { return data_.get(); }
  const std::uint32_t* data() const { return data_.get(); }
  std::uint32_t& operator[](std::size_t i) { return data_[i]; }
  std::uint32_t operator[](std::size_t i) const { return data_[i]; }
  operator std::span<const std::uint32_t>() const { return {data_.get(), size_}; }

  void clear() { size_ = 0; }

  // Uninitialised room for `count` words at the end; the caller writes all of them.
  std::uint32_t* append(std::size_t count) {
    if (size_ + count > capacity_) grow(size_ + count);
    std::uint32_t* at = data_.get() + size_;
    size_ += count;
    return at;
  }
  void push(std::uint32_t word) { *append(1) = word; }
  void push(std::span<const std::uint32_t> words) {
    if (!words.empty()) std::memcpy(append(words.size()), words.data(), words.size_bytes());
  }

  void reserve(std::size_t capacity) {
    if (capacity > capacity_) grow(capacity);
  }

 private:
  void grow(std::size_t needed) {
    std::size_t capacity = capacity_ ? capacity_ * 2 : 64;
    while (capacity < needed) capacity *= 2;
    std::unique_ptr<std::uint32_t[]> bigger(new std::uint32_t[capacity]);
    if (size_ != 0) std::memcpy(bigger.get(), data_.get(), size_ * sizeof(std::uint32_t));
    data_ = std::move(bigger);
    capacity_ = capacity;
  }

  std::unique_ptr<std::uint32_t[]> data_;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
};

} // namespace kiln::spirv
