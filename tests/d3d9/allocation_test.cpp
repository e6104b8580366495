// After warm-up, decoding allocates nothing: the Program's vectors keep their capacity and the
// reader itself never touches the heap on success. Counted by replacing operator new in this
// test executable only (its own binary, so no other test sees the replacement).

#include "tests/support/shared_data.h"
#include "translator/d3d9/reader.h"

#include <atomic>
#include <cstdlib>
#include <gtest/gtest.h>
#include <new>

namespace {
std::atomic<std::size_t> g_allocations{0}; // test instrumentation only
}

void* operator new(std::size_t size) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(size ? size : 1)) return p;
  throw std::bad_alloc();
}
// Out of line, so GCC does not pair the free with an inlined `new` expression and warn
// (-Wmismatched-new-delete): it is this file's own malloc-backed operator new.
[[gnu::noinline]] static void release(void* p) noexcept {
  std::free(p);
}
void operator delete(void* p) noexcept {
  release(p);
}
void operator delete(void* p, std::size_t) noexcept {
  release(p);
}

namespace kiln::d3d9 {
namespace {

TEST(D3D9Allocation, DecodeAllocatesNothingAfterWarmUp) {
  const auto corpus = kiln::test::corpus_dir();
  KILN_REQUIRE_DIR(corpus, "shared corpus");
  std::vector<std::vector<std::uint8_t>> shaders;
  for (const auto& path : kiln::test::files_with_extension(corpus / "d3d9", ".d3d9"))
    shaders.push_back(kiln::test::read_bytes(path));
  ASSERT_FALSE(shaders.empty());
  Program program;
  for (const auto& shader : shaders) ASSERT_TRUE(decode(shader, program)); // warm-up
  const std::size_t before = g_allocations.load();
  std::size_t instructions = 0;
  for (int round = 0; round < 3; ++round) {
    for (const auto& shader : shaders) {
      const bool ok = decode(shader, program).is_ok();
      ASSERT_TRUE(ok);
      instructions += program.instructions.size();
    }
  }
  EXPECT_EQ(g_allocations.load() - before, 0u);
  EXPECT_GT(instructions, 0u);
  // The counter works: a fresh Program allocates on its first decode.
  Program fresh;
  const std::size_t fresh_before = g_allocations.load();
  ASSERT_TRUE(decode(shaders.back(), fresh));
  EXPECT_GT(g_allocations.load() - fresh_before, 0u);
}

} // namespace
} // namespace kiln::d3d9
