// Driver pipeline-cache files: round trip, the device check, damage, and a writer killed at
// random instants while saving (the file is always the old data or the new, never torn).

#include "cache/driver_cache_file.h"
#include "tests/cache/cache_test_support.h"

#include <cstring>
#include <fstream>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

namespace kiln::cache {
namespace {

using test::ScratchDirectory;

DriverCacheIdentity device() {
  DriverCacheIdentity identity;
  identity.vendor_id = 0x10005;
  identity.device_id = 0;
  identity.driver_version = 0x1234;
  for (std::uint8_t i = 0; i < 16; ++i) identity.uuid[i] = std::uint8_t(i * 7 + 1);
  return identity;
}

// What a driver's vkGetPipelineCacheData returns: its header, then `size` bytes of `seed`.
std::vector<std::uint8_t> vulkan_data(const DriverCacheIdentity& identity, std::size_t size,
                                      std::uint8_t seed) {
  std::vector<std::uint8_t> data(32 + size, seed);
  const std::uint32_t words[4] = {32, 1, identity.vendor_id, identity.device_id};
  std::memcpy(data.data(), words, sizeof words);
  std::memcpy(data.data() + 16, identity.uuid.data(), 16);
  return data;
}

TEST(DriverCache, RoundTripsForItsDeviceOnly) {
  ScratchDirectory dir;
  const DriverCacheIdentity identity = device();
  const std::vector<std::uint8_t> data = vulkan_data(identity, 1000, 3);
  ASSERT_TRUE(save_driver_cache(dir.path(), identity, data));
  std::vector<std::uint8_t> loaded;
  ASSERT_TRUE(load_driver_cache(dir.path(), identity, loaded));
  EXPECT_EQ(loaded, data);
  DriverCacheIdentity other = identity;
  other.driver_version += 1; // a driver update: another file, nothing to load
  EXPECT_FALSE(load_driver_cache(dir.path(), other, loaded));
  const std::vector<DriverCacheFile> files = list_driver_caches(dir.path());
  ASSERT_EQ(files.size(), 1u);
  EXPECT_TRUE(files[0].valid);
  EXPECT_EQ(files[0].path.filename().string(), driver_cache_file_name(identity));
}

TEST(DriverCache, DamageOrAForeignVulkanHeaderIsNeverLoaded) {
  ScratchDirectory dir;
  const DriverCacheIdentity identity = device();
  ASSERT_TRUE(save_driver_cache(dir.path(), identity, vulkan_data(identity, 500, 9)));
  const std::filesystem::path path = dir.path() / driver_cache_file_name(identity);
  {
    std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
    file.seekp(300);
    file.put('\x5a');
  }
  std::vector<std::uint8_t> loaded;
  EXPECT_FALSE(load_driver_cache(dir.path(), identity, loaded));
  EXPECT_FALSE(list_driver_caches(dir.path())[0].valid);
  // Data whose Vulkan header names another device (checksums all fine).
  DriverCacheIdentity other = identity;
  other.uuid[0] ^= 0xff;
  ASSERT_TRUE(save_driver_cache(dir.path(), identity, vulkan_data(other, 500, 9)));
  EXPECT_FALSE(load_driver_cache(dir.path(), identity, loaded));
  // Truncated.
  ASSERT_TRUE(save_driver_cache(dir.path(), identity, vulkan_data(identity, 500, 9)));
  std::filesystem::resize_file(path, 200);
  EXPECT_FALSE(load_driver_cache(dir.path(), identity, loaded));
}

TEST(DriverCache, AWriterKilledWhileSavingLeavesTheOldDataOrTheNew) {
  ScratchDirectory dir;
  const DriverCacheIdentity identity = device();
  const std::vector<std::uint8_t> a = vulkan_data(identity, 3 << 20, 0xa);
  const std::vector<std::uint8_t> b = vulkan_data(identity, 2 << 20, 0xb);
  ASSERT_TRUE(save_driver_cache(dir.path(), identity, a));
  for (int round = 0; round < 12; ++round) {
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      for (int i = 0;; ++i)
        if (!save_driver_cache(dir.path(), identity, i % 2 ? a : b)) ::_exit(3);
    }
    ::usleep(useconds_t(2000 + round * 1700));
    ::kill(child, SIGKILL);
    int status = 0;
    ::waitpid(child, &status, 0);
    ASSERT_TRUE(WIFSIGNALED(status));
    std::vector<std::uint8_t> loaded;
    ASSERT_TRUE(load_driver_cache(dir.path(), identity, loaded)) << round;
    EXPECT_TRUE(loaded == a || loaded == b) << round;
  }
  // The dead writers' temporaries go at the next save.
  ASSERT_TRUE(save_driver_cache(dir.path(), identity, a));
  std::size_t temporaries = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path()))
    temporaries += entry.path().filename().string().find(".tmp.") != std::string::npos;
  EXPECT_EQ(temporaries, 0u);
}

} // namespace
} // namespace kiln::cache
