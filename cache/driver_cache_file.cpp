#include "cache/driver_cache_file.h"

#include "cache/file_io.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <xxhash.h>

namespace kiln::cache {

namespace {

constexpr std::uint64_t kDriverCacheMagic = 0x3143504b56'4e4c4bULL; // "KLNVKPC1"
constexpr std::uint32_t kDriverCacheFormat = 1;
constexpr const char* kPrefix = "kiln-driver-";
constexpr const char* kSuffix = ".vkcache";
// Larger data is not a pipeline cache kiln wrote.
constexpr std::uint64_t kMaxDriverCacheBytes = 1ull << 31;

struct DriverCacheHeader {
  std::uint64_t magic = kDriverCacheMagic;
  std::uint32_t format = kDriverCacheFormat;
  std::uint32_t vendor_id = 0;
  std::uint32_t device_id = 0;
  std::uint32_t driver_version = 0;
  std::uint8_t uuid[16] = {};
  std::uint64_t data_size = 0;
  std::uint64_t data_checksum = 0;   // XXH3-64 of the data
  std::uint64_t header_checksum = 0; // XXH3-64 of the 56 bytes before it
};
static_assert(sizeof(DriverCacheHeader) == 64);

// VkPipelineCacheHeaderVersionOne, as the data starts (the Vulkan specification's layout).
struct VulkanCacheHeader {
  std::uint32_t header_size;
  std::uint32_t header_version; // VK_PIPELINE_CACHE_HEADER_VERSION_ONE = 1
  std::uint32_t vendor_id;
  std::uint32_t device_id;
  std::uint8_t uuid[16];
};
static_assert(sizeof(VulkanCacheHeader) == 32);

// Whether `bytes` (a whole file) is a valid driver cache; its identity goes to `out`.
bool check(std::span<const std::uint8_t> bytes, DriverCacheIdentity& out) {
  DriverCacheHeader header;
  if (bytes.size() < sizeof header) return false;
  std::memcpy(&header, bytes.data(), sizeof header);
  if (header.magic != kDriverCacheMagic || header.format != kDriverCacheFormat ||
      header.header_checksum != XXH3_64bits(&header, sizeof header - 8) ||
      header.data_size != bytes.size() - sizeof header)
    return false;
  const std::span<const std::uint8_t> data = bytes.subspan(sizeof header);
  if (XXH3_64bits(data.data(), data.size()) != header.data_checksum) return false;
  VulkanCacheHeader vulkan;
  if (data.size() < sizeof vulkan) return false;
  std::memcpy(&vulkan, data.data(), sizeof vulkan);
  if (vulkan.header_size < sizeof vulkan || vulkan.header_version != 1 ||
      vulkan.vendor_id != header.vendor_id || vulkan.device_id != header.device_id ||
      std::memcmp(vulkan.uuid, header.uuid, 16) != 0)
    return false;
  out.vendor_id = header.vendor_id;
  out.device_id = header.device_id;
  out.driver_version = header.driver_version;
  std::memcpy(out.uuid.data(), header.uuid, 16);
  return true;
}

bool read_whole(const std::filesystem::path& path, std::vector<std::uint8_t>& out) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec || size > kMaxDriverCacheBytes + sizeof(DriverCacheHeader)) return false;
  std::ifstream in(path, std::ios::binary);
  out.resize(size);
  return in.read(reinterpret_cast<char*>(out.data()), std::streamsize(size)).good() || size == 0;
}

// Temporaries "<name>.tmp.PID" of processes that no longer exist.
void remove_orphaned_temporaries(const std::filesystem::path& directory) {
  std::error_code ec;
  for (auto it = std::filesystem::directory_iterator(directory, ec);
       !ec && it != std::filesystem::directory_iterator(); it.increment(ec)) {
    const std::string name = it->path().filename().string();
    const std::size_t tmp = name.find(".tmp.");
    if (name.rfind(kPrefix, 0) != 0 || tmp == std::string::npos) continue;
    const long pid = std::strtol(name.c_str() + tmp + 5, nullptr, 10);
    if (pid > 0 && process_is_gone(std::uint64_t(pid))) {
      std::error_code ignored;
      std::filesystem::remove(it->path(), ignored);
    }
  }
}

} // namespace

std::string driver_cache_file_name(const DriverCacheIdentity& identity) {
  char head[64];
  std::snprintf(head, sizeof head, "%s%04x-%04x-%08x-", kPrefix, identity.vendor_id,
                identity.device_id, identity.driver_version);
  std::string name = head;
  for (std::uint8_t byte : identity.uuid) {
    char hex[3];
    std::snprintf(hex, sizeof hex, "%02x", byte);
    name += hex;
  }
  return name + kSuffix;
}

Status save_driver_cache(const std::filesystem::path& directory,
                         const DriverCacheIdentity& identity, std::span<const std::uint8_t> data) {
  if (data.size() > kMaxDriverCacheBytes) return Status::error("driver cache data too large");
  DriverCacheHeader header;
  header.vendor_id = identity.vendor_id;
  header.device_id = identity.device_id;
  header.driver_version = identity.driver_version;
  std::memcpy(header.uuid, identity.uuid.data(), 16);
  header.data_size = data.size();
  header.data_checksum = XXH3_64bits(data.data(), data.size());
  header.header_checksum = XXH3_64bits(&header, sizeof header - 8);

  remove_orphaned_temporaries(directory);
  const std::filesystem::path path = directory / driver_cache_file_name(identity);
  const std::string temporary = path.string() + ".tmp." + std::to_string(current_process_id());
  FileDescriptor fd = open_file_descriptor(temporary, OpenMode::Truncate);
  if (!fd.valid()) return Status::error(temporary + ": " + errno_text(errno));
  int error = write_all(fd.get(), {reinterpret_cast<const std::uint8_t*>(&header), sizeof header});
  if (error == 0) error = write_all(fd.get(), data);
  if (error == 0) error = sync_file(fd.get());
  fd.reset();
  if (error == 0) error = replace_file(temporary, path.string());
  if (error != 0) {
    remove_file(temporary);
    return Status::error(path.string() + ": " + errno_text(error));
  }
  sync_directory(directory.string());
  return Status::ok();
}

bool load_driver_cache(const std::filesystem::path& directory, const DriverCacheIdentity& identity,
                       std::vector<std::uint8_t>& data) {
  std::vector<std::uint8_t> bytes;
  DriverCacheIdentity found;
  if (!read_whole(directory / driver_cache_file_name(identity), bytes) || !check(bytes, found) ||
      found.vendor_id != identity.vendor_id || found.device_id != identity.device_id ||
      found.driver_version != identity.driver_version || found.uuid != identity.uuid)
    return false;
  data.assign(bytes.begin() + sizeof(DriverCacheHeader), bytes.end());
  return true;
}

std::vector<DriverCacheFile> list_driver_caches(const std::filesystem::path& directory) {
  std::vector<DriverCacheFile> files;
  std::error_code ec;
  std::vector<std::uint8_t> bytes;
  for (auto it = std::filesystem::directory_iterator(directory, ec);
       !ec && it != std::filesystem::directory_iterator(); it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.rfind(kPrefix, 0) != 0 || name.size() < std::strlen(kSuffix) ||
        name.compare(name.size() - std::strlen(kSuffix), std::string::npos, kSuffix) != 0)
      continue;
    DriverCacheFile file;
    file.path = it->path();
    DriverCacheIdentity identity;
    file.valid = read_whole(file.path, bytes) && check(bytes, identity) &&
                 name == driver_cache_file_name(identity);
    file.bytes = bytes.size();
    files.push_back(std::move(file));
  }
  return files;
}

} // namespace kiln::cache
