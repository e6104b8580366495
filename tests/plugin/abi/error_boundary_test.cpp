// The error style of cache/, plugin/ and hooks/: no catch-everything that hides what it caught
// (a source scan), and the one boundary function's log line and result mapping.

#include "plugin/abi/abi_log.h"
#include "translator/common/caught.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <new>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

// The body of every `catch (...)` in `source` that neither names what it caught (a call of
// caught(), log_caught() or warn_caught()) nor writes a line of its own to stderr.
std::vector<std::string> silent_catch_alls(const std::string& source) {
  std::vector<std::string> found;
  for (std::size_t at = source.find("catch (...)"); at != std::string::npos;
       at = source.find("catch (...)", at + 1)) {
    const std::size_t open = source.find('{', at);
    if (open == std::string::npos) break;
    std::size_t close = open;
    for (int depth = 0; close < source.size(); ++close) {
      if (source[close] == '{') ++depth;
      if (source[close] == '}' && --depth == 0) break;
    }
    const std::string body = source.substr(open, close - open + 1);
    if (body.find("caught(") == std::string::npos &&
        body.find("fprintf(stderr") == std::string::npos)
      found.push_back(body);
  }
  return found;
}

TEST(ErrorBoundary, TheScanFindsASilentCatchAll) {
  EXPECT_EQ(silent_catch_alls("try { f(); } catch (...) {\n}\n").size(), 1u);
  EXPECT_EQ(silent_catch_alls("try { f(); } catch (...) { return false; }").size(), 1u);
  EXPECT_TRUE(silent_catch_alls("try { f(); } catch (...) { warn_caught(\"f\"); }").empty());
  EXPECT_TRUE(silent_catch_alls("// inside its `catch (...)`: logs\n").empty());
}

TEST(ErrorBoundary, NoCatchAllHidesWhatItCaught) {
  const std::filesystem::path root = KILN_SOURCE_DIR;
  std::size_t files = 0;
  for (const char* folder : {"cache", "plugin", "hooks"}) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(root / folder)) {
      const std::string ext = entry.path().extension().string();
      if (!entry.is_regular_file() || (ext != ".cpp" && ext != ".h" && ext != ".c")) continue;
      std::ifstream in(entry.path());
      std::stringstream text;
      text << in.rdbuf();
      ++files;
      for (const std::string& body : silent_catch_alls(text.str()))
        ADD_FAILURE() << entry.path() << ": a catch (...) without a log line: " << body;
    }
  }
  EXPECT_GT(files, 20u); // the folders were found
}

TEST(ErrorBoundary, CaughtNamesTheException) {
  try {
    throw std::runtime_error("disk on fire");
  } catch (...) {
    const kiln::Caught what = kiln::caught();
    EXPECT_FALSE(what.out_of_memory);
    EXPECT_STREQ(what.what, "disk on fire");
  }
  try {
    throw std::bad_alloc();
  } catch (...) {
    EXPECT_TRUE(kiln::caught().out_of_memory);
  }
  try {
    throw 42;
  } catch (...) {
    EXPECT_FALSE(kiln::caught().out_of_memory);
  }
}

struct Lines {
  std::vector<std::string> lines;
  static void collect(void* user, kiln_log_level, const char* line) {
    static_cast<Lines*>(user)->lines.emplace_back(line);
  }
};

TEST(ErrorBoundary, LogCaughtLogsAndMaps) {
  Lines log;
  const kiln::abi::Logger logger(&Lines::collect, &log, KILN_LOG_WARNING);
  try {
    throw std::logic_error("broken invariant");
  } catch (...) {
    EXPECT_EQ(kiln::abi::log_caught(logger, "kiln_submit"), KILN_ERROR_INTERNAL);
  }
  try {
    throw std::bad_alloc();
  } catch (...) {
    EXPECT_EQ(kiln::abi::log_caught(logger, "kiln_wait"), KILN_ERROR_OUT_OF_MEMORY);
  }
  ASSERT_EQ(log.lines.size(), 2u);
  EXPECT_EQ(log.lines[0], "kiln_submit: broken invariant");
  EXPECT_EQ(log.lines[1], "kiln_wait: out of memory");
}

} // namespace
