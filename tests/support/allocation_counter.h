#pragma once
// Heap allocations counted by replacing the global operator new/delete (every form). Linked only
// into the executables that ask for it (kiln_add_gtest(... COUNT_ALLOCATIONS)), so the
// replacement affects nothing else; those executables are never built with a sanitizer, which
// replaces the same operators.

#include <cstddef>

namespace kiln::test {

// Allocations made by any thread of this process since it started.
std::size_t allocation_count();

// Allocations made while `work` ran (by any thread).
template <class Work>
std::size_t count_allocations(Work&& work) {
  const std::size_t before = allocation_count();
  work();
  return allocation_count() - before;
}

} // namespace kiln::test
