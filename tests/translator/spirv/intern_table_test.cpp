// InternTable and PairInternTable: lookups, growth past many entries, O(1) clear() that really
// forgets.

#include "translator/spirv/intern_table.h"

#include <gtest/gtest.h>
#include <vector>

namespace kiln::spirv {
namespace {

TEST(InternTable, InternReturnsFirstValueForEqualKeys) {
  InternTable table;
  const std::uint32_t a[] = {1, 2, 3};
  const std::uint32_t b[] = {1, 2, 4};
  const std::uint32_t prefix[] = {1, 2};
  EXPECT_EQ(table.find(a), InternTable::kNotFound);
  EXPECT_EQ(table.intern(a, 10), 10u);
  EXPECT_EQ(table.intern(a, 11), 10u); // already there
  EXPECT_EQ(table.intern(b, 12), 12u);
  EXPECT_EQ(table.intern(prefix, 13), 13u); // a prefix is a different key
  EXPECT_EQ(table.find(a), 10u);
  EXPECT_EQ(table.find(prefix), 13u);
  EXPECT_EQ(table.size(), 3u);
}

TEST(InternTable, GrowsAndKeepsEveryEntry) {
  InternTable table;
  for (std::uint32_t i = 0; i < 20000; ++i) {
    const std::uint32_t key[] = {i % 7, i, i * 31};
    ASSERT_EQ(table.intern(key, i + 1), i + 1);
  }
  for (std::uint32_t i = 0; i < 20000; ++i) {
    const std::uint32_t key[] = {i % 7, i, i * 31};
    ASSERT_EQ(table.find(key), i + 1);
  }
  EXPECT_EQ(table.size(), 20000u);
}

TEST(InternTable, ClearForgetsEverything) {
  InternTable table;
  for (int round = 0; round < 3; ++round) {
    for (std::uint32_t i = 0; i < 1000; ++i) {
      const std::uint32_t key[] = {i};
      EXPECT_EQ(table.find(key), InternTable::kNotFound) << round << " " << i;
      EXPECT_EQ(table.intern(key, 100 + i + static_cast<std::uint32_t>(round)),
                100 + i + static_cast<std::uint32_t>(round));
    }
    table.clear();
    EXPECT_EQ(table.size(), 0u);
  }
}

// Keys of up to four words live in their slot, longer ones out of line: both kinds, of every
// length, side by side and past growth, keep their own values.
TEST(InternTable, ShortAndLongKeysKeepTheirValues) {
  InternTable table;
  std::vector<std::uint32_t> key;
  std::uint32_t value = 1;
  for (std::uint32_t round = 0; round < 2; ++round) {
    value = 1;
    for (std::uint32_t i = 0; i < 500; ++i) {
      for (std::uint32_t length = 1; length <= 9; ++length) {
        key.assign(length, i * 16 + length);
        const std::uint32_t expected = value++;
        ASSERT_EQ(table.intern(key, round == 0 ? expected : 999999), expected)
            << i << " " << length;
      }
    }
  }
  EXPECT_EQ(table.size(), 500u * 9u);
  const std::uint32_t long_key[] = {1, 2, 3, 4, 5, 6};
  const std::uint32_t its_prefix[] = {1, 2, 3, 4};
  EXPECT_EQ(table.find(long_key), InternTable::kNotFound);
  EXPECT_EQ(table.intern(long_key, 7777), 7777u);
  EXPECT_EQ(table.find(its_prefix), InternTable::kNotFound);
  table.clear();
  EXPECT_EQ(table.find(long_key), InternTable::kNotFound);
}

TEST(PairInternTable, InternsPairsGrowsAndClears) {
  PairInternTable table;
  for (int round = 0; round < 2; ++round) {
    for (std::uint32_t i = 0; i < 5000; ++i) {
      ASSERT_EQ(table.intern(i, i * 3, i + 1), i + 1);
      ASSERT_EQ(table.intern(i * 3, i, i + 100000), i == 0 ? 1u : i + 100000); // order matters
    }
    for (std::uint32_t i = 0; i < 5000; ++i) ASSERT_EQ(table.intern(i, i * 3, 7), i + 1);
    EXPECT_EQ(table.size(), 9999u);
    table.clear();
    EXPECT_EQ(table.size(), 0u);
  }
}

// After a large module grew the array, the next module hashes into a small prefix again, and
// grows it within the kept capacity without losing or mixing up entries.
TEST(InternTable, EachModuleStartsFromASmallPrefix) {
  InternTable table;
  const std::size_t initial = table.active_slots();
  for (std::uint32_t i = 0; i < 5000; ++i) {
    const std::uint32_t key[] = {i, i * 7};
    ASSERT_EQ(table.intern(key, i + 1), i + 1);
  }
  EXPECT_GE(table.active_slots(), 10000u);
  table.clear();
  EXPECT_EQ(table.active_slots(), initial);
  for (std::uint32_t i = 0; i < 1000; ++i) {
    const std::uint32_t key[] = {i, i * 5, i};
    ASSERT_EQ(table.intern(key, i + 50), i + 50);
  }
  EXPECT_LT(table.active_slots(), 4 * 1000u);
  for (std::uint32_t i = 0; i < 1000; ++i) {
    const std::uint32_t key[] = {i, i * 5, i};
    const std::uint32_t old_key[] = {i, i * 7};
    ASSERT_EQ(table.find(key), i + 50);
    ASSERT_EQ(table.find(old_key), InternTable::kNotFound); // the earlier module's
  }
  // A module announced as large starts with room for its keys, within the capacity.
  table.clear(3000);
  EXPECT_EQ(table.active_slots(), 8192u);
  table.clear(1u << 30);
  EXPECT_GE(table.active_slots(), 10000u);
  EXPECT_LT(table.active_slots(), 1u << 20);
  for (std::uint32_t i = 0; i < 100; ++i) {
    const std::uint32_t key[] = {i, i * 7};
    ASSERT_EQ(table.intern(key, i + 1), i + 1);
  }
}

TEST(PairInternTable, EachModuleStartsFromASmallPrefix) {
  PairInternTable table;
  const std::size_t initial = table.active_slots();
  for (std::uint32_t i = 0; i < 5000; ++i) ASSERT_EQ(table.intern(i, 1, i + 1), i + 1);
  EXPECT_GE(table.active_slots(), 10000u);
  table.clear();
  EXPECT_EQ(table.active_slots(), initial);
  for (std::uint32_t i = 0; i < 1000; ++i) ASSERT_EQ(table.intern(i, 2, i + 50), i + 50);
  EXPECT_LT(table.active_slots(), 4 * 1000u);
  for (std::uint32_t i = 0; i < 1000; ++i) {
    ASSERT_EQ(table.intern(i, 2, 7), i + 50);
    ASSERT_EQ(table.intern(i, 1, 9), 9u); // the earlier module's key is gone
  }
}

} // namespace
} // namespace kiln::spirv
