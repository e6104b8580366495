#include <gtest/gtest.h>

#include <cstdint>

#include "translator/common/arena.h"

namespace kiln {
namespace {

TEST(Arena, EmptyArenaHoldsNoMemory) {
  Arena arena;
  EXPECT_EQ(arena.bytes_reserved(), 0u);
  EXPECT_EQ(arena.bytes_used(), 0u);
}

TEST(Arena, SmallFirstBlock) {
  Arena arena;
  arena.allocate(16);
  EXPECT_LE(arena.bytes_reserved(), Arena::kFirstBlockBytes);
}

TEST(Arena, AlignmentIsHonoured) {
  Arena arena;
  for (std::size_t align : {1u, 2u, 4u, 8u, 16u, 64u}) {
    arena.allocate(3, 1);
    auto address = reinterpret_cast<std::uintptr_t>(arena.allocate(8, align));
    EXPECT_EQ(address % align, 0u) << align;
  }
}

TEST(Arena, LargeAllocationsGetTheirOwnBlock) {
  Arena arena;
  auto* big = static_cast<std::uint8_t*>(arena.allocate(3 * Arena::kMaxBlockBytes, 8));
  big[0] = 1;
  big[3 * Arena::kMaxBlockBytes - 1] = 2; // must be addressable
  EXPECT_GE(arena.bytes_reserved(), 3 * Arena::kMaxBlockBytes);
}

TEST(Arena, ResetReusesBlocksWithoutGrowing) {
  Arena arena;
  for (int i = 0; i < 1000; ++i) arena.allocate(100);
  const std::size_t reserved = arena.bytes_reserved();
  EXPECT_GE(arena.bytes_used(), 100000u);
  for (int round = 0; round < 5; ++round) {
    arena.reset();
    EXPECT_EQ(arena.bytes_used(), 0u);
    for (int i = 0; i < 1000; ++i) arena.allocate(100);
    EXPECT_EQ(arena.bytes_reserved(), reserved) << "round " << round;
  }
}

TEST(Arena, AllocationsDoNotOverlap) {
  Arena arena;
  std::uint32_t* previous = nullptr;
  for (std::uint32_t i = 0; i < 10000; ++i) {
    auto* value = arena.make<std::uint32_t>(i);
    if (previous) {
      EXPECT_EQ(*previous, i - 1);
    }
    previous = value;
  }
}

} // namespace
} // namespace kiln
