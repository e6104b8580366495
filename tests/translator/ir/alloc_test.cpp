// Heap traffic of the IR: this executable counts allocations (tests/support/allocation_counter.h),
// so it is separate from ir_tests.
#include "tests/translator/ir/test_programs.h"
#include "tests/support/allocation_counter.h"
#include "translator/ir/ir.h"

#include <cstdio>
#include <cstdlib>
#include <gtest/gtest.h>

namespace kiln::ir {
namespace {

using kiln::test::count_allocations;

TEST(IrAllocation, TheCounterSeesAllocations) {
  // Guards against a counter that never counts.
  std::size_t n = count_allocations([] {
    Builder b;
    test::build_large(b, 100);
  });
  EXPECT_GT(n, 0u);
}

TEST(IrAllocation, LargeShaderAfterWarmUpAllocatesNothing) {
  Builder b;
  test::build_large(b, 20000); // warm-up: storage grows to fit
  ASSERT_GE(b.op_count(), 19000u);
  (void)b.users(b.last());
  std::size_t n = count_allocations([&] {
    for (int round = 0; round < 3; ++round) {
      test::build_large(b, 20000); // starts with reset()
      (void)b.users(b.last());
    }
  });
  EXPECT_EQ(n, 0u);
  std::printf("[ figures  ] %u-op program: %zu bytes reserved (%.1f bytes/op)\n", b.op_count(),
              b.bytes_reserved(), double(b.bytes_reserved()) / b.op_count());
  // A smaller shader fits in the same storage.
  EXPECT_EQ(count_allocations([&] { test::build_large(b, 500); }), 0u);
}

TEST(IrAllocation, TinyProgramReservesLittle) {
  Builder b;
  EXPECT_EQ(b.bytes_reserved(), 0u);
  test::build_large(b, 20);
  EXPECT_LE(b.op_count(), 20u);
  EXPECT_GE(b.op_count(), 14u);
  // Far below one 4096-op page (4096 * 24 bytes of records alone would be 96 KiB).
  EXPECT_LT(b.bytes_reserved(), 4096u);
  std::printf("[ figures  ] %u-op program: %zu bytes reserved\n", b.op_count(), b.bytes_reserved());
}

} // namespace
} // namespace kiln::ir
