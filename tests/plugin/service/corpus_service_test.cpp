// The service over real corpus shaders gives exactly what a direct Translator run gives: the
// same SPIR-V words for what translates, the same one-line error for what does not. This holds
// whatever the translator can do today, so it needs no knowledge of which stages have landed.

#include "plugin/service/service.h"
#include "tests/support/shared_data.h"

#include <algorithm>
#include <chrono>
#include <gtest/gtest.h>

namespace kiln {
namespace {

using namespace std::chrono_literals;

void compare_with_direct_translation(const std::filesystem::path& dir, std::size_t limit) {
  std::vector<std::filesystem::path> files;
  for (const char* extension : {".dxbc", ".d3d9"})
    for (auto& file : test::files_with_extension(dir, extension)) files.push_back(file);
  ASSERT_FALSE(files.empty()) << dir;
  // An even spread over the sorted list, so every run covers the same files.
  std::vector<std::filesystem::path> picked;
  for (std::size_t i = 0; i < limit && i < files.size(); ++i)
    picked.push_back(files[i * files.size() / std::min(limit, files.size())]);

  ServiceOptions options;
  options.threads = 2;
  CompileService service(options);
  std::vector<std::vector<std::uint8_t>> bytes;
  std::vector<JobRef> jobs;
  for (const auto& file : picked) {
    bytes.push_back(test::read_bytes(file));
    jobs.push_back(service.submit(bytes.back(), {}, Priority(jobs.size() % 3)));
  }
  Translator translator;
  std::size_t translated = 0;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    ASSERT_TRUE(service.wait(jobs[i], 60s)) << picked[i];
    TranslateResult direct;
    const Status status = translator.translate(bytes[i], {}, direct);
    const Job& job = *jobs[i];
    if (status) {
      ++translated;
      EXPECT_EQ(job.state.load(), JobState::Done) << picked[i] << ": " << job.status.message();
      EXPECT_EQ(job.result.spirv, direct.spirv) << picked[i];
      EXPECT_EQ(job.result.reflection.resources.size(), direct.reflection.resources.size());
    } else {
      EXPECT_EQ(job.state.load(), JobState::Failed) << picked[i];
      EXPECT_EQ(job.status.message(), status.message()) << picked[i];
      EXPECT_FALSE(job.status.message().empty());
    }
  }
  const ServiceStats stats = service.stats();
  EXPECT_EQ(stats.translated + stats.failed, jobs.size() - stats.deduplicated);
  std::printf("%s: %zu of %zu translated (service and direct runs agree)\n", dir.c_str(),
              translated, jobs.size());
}

TEST(ServiceOnCorpus, DxbcResultsMatchADirectTranslation) {
  const auto corpus = test::corpus_dir();
  KILN_REQUIRE_DIR(corpus, "corpus");
  compare_with_direct_translation(corpus / "dxbc", 400);
}

TEST(ServiceOnCorpus, D3D9ResultsMatchADirectTranslation) {
  const auto corpus = test::corpus_dir();
  KILN_REQUIRE_DIR(corpus, "corpus");
  compare_with_direct_translation(corpus / "d3d9", 200);
}

// A job translates the input as submitted (read once on its way in), over its own copy of the
// bytes: the caller's bytes are read, then damaged where only a second classification or
// container parse would look (the "DXBC" magic and the size field), and the job still
// translates them as a direct translation of the intact bytes does.
TEST(ServiceOnCorpus, JobTranslatesTheReadInputWithoutReadingItAgain) {
  const auto corpus = test::corpus_dir();
  KILN_REQUIRE_DIR(corpus, "corpus");
  const auto files = test::files_with_extension(corpus / "dxbc", ".dxbc");
  ServiceOptions options;
  options.threads = 1;
  CompileService service(options);
  Translator translator;
  std::size_t translated = 0;
  for (std::size_t i = 0; i < files.size() && translated < 20; i += 37) {
    std::vector<std::uint8_t> bytes = test::read_bytes(files[i]);
    TranslateResult direct;
    if (!translator.translate(bytes, {}, direct)) continue;
    const ShaderInput input = read_shader_input(bytes);
    std::fill_n(bytes.begin(), 4, std::uint8_t('X'));
    std::fill_n(bytes.begin() + 24, 4, std::uint8_t(0xff));
    // Queued for a worker, then (the first job finished, no store) run on this thread.
    for (bool now : {false, true}) {
      JobRef job = now ? service.translate_now(input, {}) : service.submit(input, {});
      ASSERT_TRUE(service.wait(job, 60s));
      ASSERT_EQ(job->state.load(), JobState::Done) << files[i] << ": " << job->status.message();
      EXPECT_EQ(job->result.spirv, direct.spirv) << files[i];
    }
    ++translated;
  }
  EXPECT_GE(translated, 20u);
}

TEST(ServiceOnCorpus, MalformedAndOtherFilesFailCleanly) {
  const auto corpus = test::corpus_dir();
  KILN_REQUIRE_DIR(corpus, "corpus");
  ServiceOptions options;
  options.threads = 1;
  CompileService service(options);
  std::size_t files = 0;
  for (const char* sub : {"malformed", "dxil", "other"}) {
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(corpus / sub, ec)) {
      if (!entry.is_regular_file() || files >= 300) continue;
      const auto name = entry.path().filename().string();
      if (name.ends_with(".txt") || name.ends_with(".hlsl")) continue;
      ++files;
      JobRef job = service.submit(test::read_bytes(entry.path()), {});
      ASSERT_TRUE(service.wait(job, 60s));
      if (job->state.load() == JobState::Failed) {
        EXPECT_FALSE(job->status.message().empty());
        EXPECT_EQ(job->status.message().find('\n'), std::string::npos) << entry.path();
      }
    }
  }
  EXPECT_GT(files, 0u);
}

} // namespace
} // namespace kiln
