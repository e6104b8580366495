#pragma once
// The exception boundary of the drop-in's exported functions (exports.cpp): nothing thrown on
// kiln's side leaves through vkd3d-shader's C API. What a function catches is logged to stderr
// as one line naming the function and what it caught (translator/common/caught.h) and becomes
// VKD3D_ERROR_OUT_OF_MEMORY (std::bad_alloc) or VKD3D_ERROR; functions without a result code
// return `fallback` (a null pointer) or nothing.

#include "translator/common/caught.h"

#include <cstdio>
#include <type_traits>
#include <vkd3d_shader.h>

namespace kiln::vkd3d {

// Call only inside a catch block: logs what is being handled and returns its vkd3d result.
inline int log_caught(const char* entry) noexcept {
  const Caught what = caught();
  std::fprintf(stderr, "kiln vkd3d-shader: %s: %s\n", entry, what.what);
  return what.out_of_memory ? VKD3D_ERROR_OUT_OF_MEMORY : VKD3D_ERROR;
}

// Runs `body` (returning a vkd3d result) behind the boundary of exported function `entry`.
template <typename Body>
int guarded(const char* entry, Body&& body) noexcept {
  try {
    return body();
  } catch (...) {
    return log_caught(entry);
  }
}

// The same for a function that returns no result code: `fallback` when `body` threw.
template <typename Value, typename Body>
Value guarded_value(const char* entry, Value fallback, Body&& body) noexcept {
  try {
    return body();
  } catch (...) {
    (void)log_caught(entry);
    return fallback;
  }
}

template <typename Body>
void guarded_void(const char* entry, Body&& body) noexcept {
  try {
    body();
  } catch (...) {
    (void)log_caught(entry);
  }
}

} // namespace kiln::vkd3d
