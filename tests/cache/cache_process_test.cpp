// The cache across processes: writers killed at random instants, several processes writing
// and reading (and compacting) one directory at once, and a file-size limit standing in for a
// full disk. Children report through pipes and exit codes; only the parent uses gtest.

#include "tests/cache/cache_test_support.h"

#include <chrono>
#include <fstream>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace kiln::cache {
namespace {

using test::fake_translate;
using test::make_source;
using test::matches_fake;
using test::quiet_options;
using test::ScratchDirectory;

// What a child reports after each committed insert: enough to rebuild source and key.
struct Committed {
  std::uint64_t seed = 0;
  std::uint64_t size = 0;
};

std::size_t source_size_for(std::uint64_t seed) {
  // Mostly shader-sized, sometimes large enough that one write() spans many pages.
  return seed % 3 == 0 ? 20000 + seed % 60000 : 200 + seed % 6000;
}

bool insert_fake(ShaderCache& cache, std::uint64_t seed, std::size_t size) {
  const std::vector<std::uint8_t> source = make_source(seed, size);
  TranslateResult result;
  if (!fake_translate(cache.codegen_version(), source, {}, result)) return false;
  return cache.insert(cache.key_for(source, {}), source, {}, result);
}

// 0: hit with the right content; 1: miss; 2: hit with wrong content (a corrupt read).
int check_entry(ShaderCache& cache, std::uint64_t seed, std::size_t size) {
  const std::vector<std::uint8_t> source = make_source(seed, size);
  TranslateResult result;
  if (!cache.lookup(cache.key_for(source, {}), result)) return 1;
  return matches_fake(cache.codegen_version(), source, {}, result) ? 0 : 2;
}

// With `compacting`, the writer also rewrites the file now and then, so some kills land in
// the middle of a compaction.
[[noreturn]] void run_killable_writer(const std::filesystem::path& dir, int report_fd,
                                      std::uint64_t first_seed, bool compacting) {
  auto cache = test::open_cache(quiet_options(dir));
  if (!cache) ::_exit(3);
  for (std::uint64_t seed = first_seed; seed < first_seed + 100000; ++seed) {
    const std::size_t size = source_size_for(seed);
    if (!insert_fake(*cache, seed, size)) continue;
    const Committed committed{seed, size};
    if (::write(report_fd, &committed, sizeof committed) != sizeof committed) ::_exit(4);
    if (compacting && seed % 4 == 2 && !cache->compact()) ::_exit(5);
  }
  ::_exit(0);
}

TEST(CacheProcesses, WriterKilledAtRandomInstantsLosesNothingCommitted) {
  ScratchDirectory dir;
  constexpr int kRounds = 200;
  std::mt19937 random(12345);
  std::vector<Committed> all_committed;
  std::size_t lost = 0, corrupt = 0, torn_rounds = 0;
  const auto start = std::chrono::steady_clock::now();
  for (int round = 0; round < kRounds; ++round) {
    int fds[2];
    ASSERT_EQ(::pipe(fds), 0);
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      ::close(fds[0]);
      run_killable_writer(dir.path(), fds[1], std::uint64_t(round) * 1000000, round % 5 == 0);
    }
    ::close(fds[1]);
    // Let it commit a random number of entries, then kill it wherever it is.
    const int wait_for = 1 + int(random() % 12);
    std::vector<Committed> committed;
    Committed report;
    while (int(committed.size()) < wait_for &&
           ::read(fds[0], &report, sizeof report) == sizeof report)
      committed.push_back(report);
    if (round % 2) {
      ::usleep(random() % 300);
    } else {
      // Aim inside a write(): kill as soon as the file starts growing again.
      std::error_code ec;
      const auto before = std::filesystem::file_size(dir.file(), ec);
      const auto give_up = std::chrono::steady_clock::now() + std::chrono::milliseconds(50);
      while (std::filesystem::file_size(dir.file(), ec) == before &&
             std::chrono::steady_clock::now() < give_up) {
      }
    }
    ::kill(child, SIGKILL);
    while (::read(fds[0], &report, sizeof report) == sizeof report) committed.push_back(report);
    ::close(fds[0]);
    int status = 0;
    ::waitpid(child, &status, 0);
    ASSERT_TRUE(WIFSIGNALED(status)) << "the writer exited on its own: " << status;
    all_committed.insert(all_committed.end(), committed.begin(), committed.end());

    std::vector<std::string> messages;
    auto cache = test::open_cache(quiet_options(dir.path(), &messages));
    ASSERT_TRUE(cache);
    torn_rounds += !messages.empty();
    // This round's entries every round; everything committed so far every 25 rounds.
    const bool everything = round % 25 == 24 || round == kRounds - 1;
    for (const Committed& entry : everything ? all_committed : committed) {
      const int outcome = check_entry(*cache, entry.seed, entry.size);
      lost += outcome == 1;
      corrupt += outcome == 2;
    }
    if (everything) {
      // Torn spans are skipped (never served) until a rewrite reclaims them.
      ASSERT_TRUE(cache->compact());
      EXPECT_TRUE(cache->verify().ok()) << "round " << round;
      for (const Committed& entry : all_committed)
        lost += check_entry(*cache, entry.seed, entry.size) != 0;
    }
  }
  EXPECT_EQ(lost, 0u);
  EXPECT_EQ(corrupt, 0u);
  // Temporaries of writers killed mid-rewrite were removed by the opens that followed.
  std::size_t temporaries = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path()))
    temporaries += entry.path().filename().string().find(".tmp.") != std::string::npos;
  EXPECT_EQ(temporaries, 0u);
  EXPECT_GT(all_committed.size(), std::size_t(kRounds));
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%d rounds, %zu committed entries, %zu rounds left a torn record, %.1f s\n", kRounds,
              all_committed.size(), torn_rounds, seconds);
}

// A child of the concurrency test: inserts its own entries, looks up everyone's, and (child 0)
// compacts now and then, replacing the file under the others. Exit code: failures found.
[[noreturn]] void run_sharing_writer(const std::filesystem::path& dir, int child, int children,
                                     int per_child) {
  auto cache = test::open_cache(quiet_options(dir));
  if (!cache) ::_exit(100);
  int failures = 0;
  std::mt19937 random(child);
  for (int i = 0; i < per_child; ++i) {
    const std::uint64_t seed = std::uint64_t(child) * 1000000 + i;
    failures += !insert_fake(*cache, seed, 300 + seed % 3000);
    // Someone's entry: a miss is fine (maybe not written yet), a wrong hit is not.
    const int other = int(random() % children);
    const std::uint64_t other_seed = std::uint64_t(other) * 1000000 + random() % (i + 1);
    failures += check_entry(*cache, other_seed, 300 + other_seed % 3000) == 2;
    if (child == 0 && i % 100 == 50) failures += !cache->compact();
  }
  for (int i = 0; i < per_child; ++i) {
    const std::uint64_t seed = std::uint64_t(child) * 1000000 + i;
    failures += check_entry(*cache, seed, 300 + seed % 3000) != 0;
  }
  ::_exit(std::min(failures, 99));
}

TEST(CacheProcesses, FourProcessesShareOneDirectoryWithoutLosingEntries) {
  ScratchDirectory dir;
  constexpr int kChildren = 4, kPerChild = 400;
  std::vector<pid_t> pids;
  for (int child = 0; child < kChildren; ++child) {
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) run_sharing_writer(dir.path(), child, kChildren, kPerChild);
    pids.push_back(pid);
  }
  for (pid_t pid : pids) {
    int status = 0;
    ::waitpid(pid, &status, 0);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0) << "failures reported by child " << pid;
  }
  auto cache = test::open_cache(quiet_options(dir.path()));
  std::size_t found = 0;
  for (int child = 0; child < kChildren; ++child)
    for (int i = 0; i < kPerChild; ++i) {
      const std::uint64_t seed = std::uint64_t(child) * 1000000 + i;
      found += check_entry(*cache, seed, 300 + seed % 3000) == 0;
    }
  EXPECT_EQ(found, std::size_t(kChildren * kPerChild));
  EXPECT_EQ(cache->stats().entries, std::size_t(kChildren * kPerChild));
  EXPECT_TRUE(cache->verify().ok());
}

TEST(CacheProcesses, TemporariesOfDeadProcessesAreRemovedAtOpen) {
  ScratchDirectory dir;
  const pid_t dead = ::fork();
  ASSERT_GE(dead, 0);
  if (dead == 0) ::_exit(0);
  ::waitpid(dead, nullptr, 0);
  const std::string name = kCacheFileName;
  const auto orphan = dir.path() / (name + ".tmp." + std::to_string(dead));
  const auto orphan_index = dir.path() / (name + ".index.tmp." + std::to_string(dead) + ".1.0");
  const auto live = dir.path() / (name + ".tmp." + std::to_string(::getpid()));
  for (const auto& path : {orphan, orphan_index, live}) std::ofstream(path) << "partial";
  auto cache = test::open_cache(quiet_options(dir.path()));
  ASSERT_TRUE(cache);
  EXPECT_FALSE(std::filesystem::exists(orphan));
  EXPECT_FALSE(std::filesystem::exists(orphan_index));
  EXPECT_TRUE(std::filesystem::exists(live));
}

TEST(CacheProcesses, FullDiskStopsWritingOnceAndKeepsServing) {
  ScratchDirectory dir;
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    // A file-size limit makes write() fail with EFBIG, as a full disk fails with ENOSPC.
    ::signal(SIGXFSZ, SIG_IGN);
    const rlimit limit{100 * 1024, 100 * 1024};
    ::setrlimit(RLIMIT_FSIZE, &limit);
    std::vector<std::string> messages;
    auto cache = test::open_cache(quiet_options(dir.path(), &messages));
    if (!cache) ::_exit(10);
    std::uint64_t written = 0;
    for (std::uint64_t seed = 0; seed < 100; ++seed) written += insert_fake(*cache, seed, 5000);
    int failures = 0;
    for (std::uint64_t seed = 0; seed < written; ++seed)
      failures += check_entry(*cache, seed, 5000) != 0;
    if (cache->writable()) failures += 20;
    if (messages.size() != 1) failures += 40;
    if (::write(fds[1], &written, sizeof written) != sizeof written) failures += 80;
    ::_exit(std::min(failures, 120));
  }
  ::close(fds[1]);
  std::uint64_t written = 0;
  ASSERT_EQ(::read(fds[0], &written, sizeof written), ssize_t(sizeof written));
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_GT(written, 5u);
  EXPECT_LT(written, 100u);
  auto cache = test::open_cache(quiet_options(dir.path()));
  EXPECT_EQ(cache->stats().entries, written);
  EXPECT_TRUE(cache->verify().ok());
}

} // namespace
} // namespace kiln::cache
