#pragma once
// The growable storage behind the Builder's op records and operand pool.

#include <cstddef>
#include <cstring>
#include <new>
#include <type_traits>

namespace kiln::ir {

namespace detail {
// A growable array of trivially copyable records that, unlike std::vector, does not
// initialise what append() hands out. Capacity is kept by clear().
template <typename T>
class PodBuffer {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  PodBuffer() = default;
  PodBuffer(const PodBuffer&) = delete;
  PodBuffer& operator=(const PodBuffer&) = delete;
  ~PodBuffer() { ::operator delete(data_); }

  T* data() { return data_; }
  const T* data() const { return data_; }
  std::size_t size() const { return size_; }
  std::size_t capacity() const { return capacity_; }
  bool empty() const { return size_ == 0; }
  void clear() { size_ = 0; }
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }

  // `n` more elements, uninitialised.
  T* append(std::size_t n) {
    if (size_ + n > capacity_) [[unlikely]]
      grow(size_ + n);
    T* p = data_ + size_;
    size_ += n;
    return p;
  }
  // Grows to `n` elements, the new ones value-initialised.
  void resize(std::size_t n) {
    while (size_ < n) *append(1) = T{};
    size_ = n;
  }

 private:
  void grow(std::size_t need) {
    std::size_t cap = capacity_ ? capacity_ * 2 : 16;
    while (cap < need) cap *= 2;
    T* fresh = static_cast<T*>(::operator new(cap * sizeof(T)));
    if (size_) std::memcpy(static_cast<void*>(fresh), data_, size_ * sizeof(T));
    ::operator delete(data_);
    data_ = fresh;
    capacity_ = cap;
  }

  T* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
};
} // namespace detail

} // namespace kiln::ir
