#pragma once
// A private directory under $TMPDIR, made at construction and removed with everything in it at
// destruction: for runs that must not touch a user's cache (benchmarks without --cache, the
// cache's own tests). path() is empty when the directory could not be made.

#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>
#include <unistd.h>

namespace kiln::cache {

class ScratchDirectory {
 public:
  // The directory is named PREFIX-XXXXXX (mkdtemp).
  explicit ScratchDirectory(std::string_view prefix = "kiln") {
    std::string pattern =
        (std::filesystem::temp_directory_path() / (std::string(prefix) + "-XXXXXX")).string();
    if (::mkdtemp(pattern.data())) path_ = pattern;
  }
  ~ScratchDirectory() {
    std::error_code ignored;
    if (!path_.empty()) std::filesystem::remove_all(path_, ignored);
  }
  ScratchDirectory(const ScratchDirectory&) = delete;
  ScratchDirectory& operator=(const ScratchDirectory&) = delete;

  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

} // namespace kiln::cache
