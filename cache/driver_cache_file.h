#pragma once
// The driver's VkPipelineCache data, kept per physical device beside the shader cache file
// (docs/cache.md, "Driver pipeline caches"). Optional and off by default: most drivers keep
// their own disk cache. One file per device identity (vendor, device, driver version,
// pipelineCacheUUID), written whole to a temporary file, synced and renamed over the old one,
// so a crash leaves the old file or the new one; its header (and the Vulkan cache header in
// the data) is checked against the device before the data is handed back to Vulkan.

#include "translator/common/status.h"

#include <array>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

namespace kiln::cache {

struct DriverCacheIdentity {
  std::uint32_t vendor_id = 0;
  std::uint32_t device_id = 0;
  std::uint32_t driver_version = 0;
  std::array<std::uint8_t, 16> uuid{}; // VkPhysicalDeviceProperties::pipelineCacheUUID
};

// "kiln-driver-VENDOR-DEVICE-DRIVER-UUID.vkcache" (hex).
std::string driver_cache_file_name(const DriverCacheIdentity& identity);

// Writes `data` crash-safely (temporary file, fsync, rename, directory fsync).
Status save_driver_cache(const std::filesystem::path& directory,
                         const DriverCacheIdentity& identity, std::span<const std::uint8_t> data);
// The saved data when the file exists, is intact and was written for `identity` (its own
// header and the Vulkan header at the start of the data both name the device); else false.
bool load_driver_cache(const std::filesystem::path& directory, const DriverCacheIdentity& identity,
                       std::vector<std::uint8_t>& data);

struct DriverCacheFile {
  std::filesystem::path path;
  std::uint64_t bytes = 0;
  bool valid = false; // header, checksum and Vulkan header consistent
};
// Every driver cache file in `directory` (for kiln cache stats/verify/compact/clear).
std::vector<DriverCacheFile> list_driver_caches(const std::filesystem::path& directory);

} // namespace kiln::cache
