#pragma once
// Result<T>: a value, or the Status saying why there is none (status.h). What a function that
// makes something returns instead of a value plus a `Status*` or `std::string&` out-parameter:
//
//   Result<std::unique_ptr<ShaderCache>> opened = ShaderCache::open(options);
//   if (!opened) return fail(opened.status().message());
//   std::unique_ptr<ShaderCache> cache = std::move(opened).value();

#include "translator/common/status.h"

#include <cassert>
#include <utility>

namespace kiln {

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : value_(std::move(value)) {} // NOLINT: a value is a successful Result
  // `error` must be an error: a Result without a value always says why.
  Result(Status error) : status_(std::move(error)) { // NOLINT: so is a failed Status
    assert(!status_.is_ok());
  }

  explicit operator bool() const { return status_.is_ok(); }
  const Status& status() const { return status_; }

  // The value; a value-initialized T (a null pointer) when the Result holds none.
  T& value() & { return value_; }
  const T& value() const& { return value_; }
  T&& value() && { return std::move(value_); }
  T* operator->() { return &value_; }
  const T* operator->() const { return &value_; }

 private:
  T value_{};
  Status status_;
};

} // namespace kiln
