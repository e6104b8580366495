#pragma once
// Locating ../shared (corpus, conformance) for tests. Tests that need it call
// KILN_REQUIRE_DIR(dir, what): skipped with a clear message when it is absent, failed in CI.

#include <filesystem>
#include <string>
#include <vector>

namespace kiln::test {

// $KILN_CORPUS_DIR, else <source>/../shared/corpus. Empty when it does not exist.
std::filesystem::path corpus_dir();
// $KILN_CONFORMANCE_DIR, else <source>/../shared/conformance. Empty when it does not exist.
std::filesystem::path conformance_dir();

// Every regular file under `dir` whose extension is `extension` (".dxbc"), sorted.
std::vector<std::filesystem::path> files_with_extension(const std::filesystem::path& dir,
                                                        const std::string& extension);

std::vector<std::uint8_t> read_bytes(const std::filesystem::path& path);

// True when CI=true: there, missing test data or a missing Vulkan device fails a test instead
// of skipping it, so a broken checkout or image cannot pass by testing nothing.
bool running_in_ci();

} // namespace kiln::test

// Skips the test with `message`, or fails it in CI.
#define KILN_SKIP_OR_FAIL_IN_CI(message)                                                           \
  do {                                                                                             \
    if (::kiln::test::running_in_ci()) GTEST_FAIL() << message << " (required when CI=true)";      \
    GTEST_SKIP() << message;                                                                       \
  } while (0)

#define KILN_REQUIRE_DIR(dir, what)                                                                \
  do {                                                                                             \
    if ((dir).empty())                                                                             \
      KILN_SKIP_OR_FAIL_IN_CI(what << " not found (set KILN_CORPUS_DIR / put ../shared)");         \
  } while (0)
