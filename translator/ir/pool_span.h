#pragma once
// PoolSpan<T>: a view into one of the IR Builder's growable pools (the operand pool behind
// OpView::operands() and literals(), the use index behind Builder::users()).
//
// Such a view is valid only until the builder next changes that pool: an add or rewrite for
// the operand pool, a rebuild of the use index for users(). Kept across such a call, it points
// at freed memory when the pool happened to grow, which depends on the shader's size and on how
// warm the pools are (issue 18: two use-after-free found by fuzzing, silent in Release).
//
// In Release a PoolSpan is a plain std::span and costs nothing. With KILN_IR_CHECKS (Debug and
// every sanitizer or fuzzer build, scripts/cmake/KilnWarnings.cmake) it remembers the pool's
// epoch when it was taken, the builder bumps that epoch on every change of the pool (grown or
// not), and every access compares them: a view kept across a change stops the program at once,
// on every input, with a message naming the rule. The same builds check the ids OpView
// resolves and the indices a PoolSpan is read at.

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <span>
#include <type_traits>

#ifndef KILN_IR_CHECKS
#define KILN_IR_CHECKS 0
#endif

namespace kiln::ir {
namespace detail {

// Prints "kiln: IR check failed: <what>" and aborts (sanitizers and libFuzzer report it).
[[noreturn]] void ir_check_failed(const char* what);

// The epoch of one pool: bumped by the builder whenever the pool changes.
using PoolEpoch = std::uint64_t;

} // namespace detail

#if KILN_IR_CHECKS

#define KILN_IR_CHECK(condition, what)                                                             \
  do {                                                                                             \
    if (!(condition)) [[unlikely]]                                                                 \
      ::kiln::ir::detail::ir_check_failed(what);                                                   \
  } while (false)

template <typename T>
class PoolSpan {
 public:
  using element_type = const T;
  using value_type = T;
  using size_type = std::size_t;

  // Iterating checks too: a loop over operands() whose body adds ops trips on the next step.
  class iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = T;
    using difference_type = std::ptrdiff_t;
    using pointer = const T*;
    using reference = const T&;
    iterator() = default;
    iterator(const T* at, const detail::PoolEpoch* epoch, detail::PoolEpoch taken)
        : at_(at), epoch_(epoch), taken_(taken) {}
    const T& operator*() const {
      check();
      return *at_;
    }
    const T* operator->() const {
      check();
      return at_;
    }
    iterator& operator++() {
      ++at_;
      return *this;
    }
    iterator operator++(int) {
      iterator old = *this;
      ++at_;
      return old;
    }
    friend bool operator==(const iterator& a, const iterator& b) { return a.at_ == b.at_; }
    friend difference_type operator-(const iterator& a, const iterator& b) { return a.at_ - b.at_; }

   private:
    void check() const { KILN_IR_CHECK(!epoch_ || *epoch_ == taken_, kStaleMessage); }
    const T* at_ = nullptr;
    const detail::PoolEpoch* epoch_ = nullptr;
    detail::PoolEpoch taken_ = 0;
  };

  PoolSpan() = default;
  // Storage outside any pool (a vector, an array): nothing to check.
  template <typename Range>
  requires(!std::is_same_v<std::remove_cvref_t<Range>, PoolSpan> &&
           std::is_convertible_v<Range&&, std::span<const T>>) PoolSpan(Range&& storage)
      : view_(std::span<const T>(storage)) {}
  PoolSpan(std::span<const T> view, const detail::PoolEpoch* epoch)
      : view_(view), epoch_(epoch), taken_(epoch ? *epoch : 0) {}

  std::size_t size() const {
    check();
    return view_.size();
  }
  bool empty() const { return size() == 0; }
  const T& operator[](std::size_t i) const {
    check();
    KILN_IR_CHECK(i < view_.size(), "index past the end of an IR operand or use span");
    return view_[i];
  }
  const T& front() const { return (*this)[0]; }
  const T& back() const { return (*this)[size() - 1]; }
  const T* data() const {
    check();
    return view_.data();
  }
  PoolSpan subspan(std::size_t offset, std::size_t count = std::dynamic_extent) const {
    check();
    KILN_IR_CHECK(offset <= view_.size() &&
                      (count == std::dynamic_extent || count <= view_.size() - offset),
                  "subspan past the end of an IR operand or use span");
    PoolSpan part = *this;
    part.view_ = view_.subspan(offset, count);
    return part;
  }
  iterator begin() const {
    check();
    return iterator(view_.data(), epoch_, taken_);
  }
  iterator end() const { return iterator(view_.data() + view_.size(), epoch_, taken_); }
  // For functions that read the span at once (unpack_string, Op::with_operands, ...).
  operator std::span<const T>() const {
    check();
    return view_;
  }
  // Whether the pool is unchanged since the view was taken.
  bool current() const { return !epoch_ || *epoch_ == taken_; }
  const detail::PoolEpoch* epoch() const { return epoch_; }
  detail::PoolEpoch taken() const { return taken_; }

 private:
  static constexpr const char* kStaleMessage =
      "a view into an IR builder pool (OpView::operands()/literals()/to_op(), Builder::users()) "
      "was used after the builder changed that pool; take the view again after adding or "
      "rewriting ops";
  void check() const { KILN_IR_CHECK(current(), kStaleMessage); }

  std::span<const T> view_;
  const detail::PoolEpoch* epoch_ = nullptr;
  detail::PoolEpoch taken_ = 0;
};

#else

#define KILN_IR_CHECK(condition, what)                                                             \
  do {                                                                                             \
  } while (false)

template <typename T>
using PoolSpan = std::span<const T>;

#endif

} // namespace kiln::ir
