#include "tests/support/shared_data.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string_view>

namespace kiln::test {

namespace {
std::filesystem::path locate(const char* env, const char* subdir) {
  std::filesystem::path path;
  if (const char* value = std::getenv(env); value && *value)
    path = value;
  else
    path = std::filesystem::path(KILN_SHARED_DIR) / subdir;
  std::error_code ec;
  return std::filesystem::is_directory(path, ec) ? path : std::filesystem::path();
}
} // namespace

bool running_in_ci() {
  const char* ci = std::getenv("CI");
  return ci && std::string_view(ci) == "true";
}

std::filesystem::path corpus_dir() { return locate("KILN_CORPUS_DIR", "corpus"); }
std::filesystem::path conformance_dir() { return locate("KILN_CONFORMANCE_DIR", "conformance"); }

std::vector<std::filesystem::path> files_with_extension(const std::filesystem::path& dir,
                                                        const std::string& extension) {
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(dir, ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    if (it->is_regular_file() && it->path().extension() == extension) files.push_back(it->path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<std::uint8_t> read_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

} // namespace kiln::test
