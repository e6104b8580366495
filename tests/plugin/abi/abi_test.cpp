// libkiln.so as a layer sees it: dlopen, kiln_get_proc_addr, only kiln_* exported, the C
// header, argument checks, failures confined to their handle, logs, dumps, warm, the cache.

#include "kiln/kiln.h"
#include "kiln/kiln_hooks.h"
#include "tests/support/shared_data.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <filesystem>
#include <gtest/gtest.h>
#include <mutex>
#include <set>
#include <span>
#include <stdexcept>
#include <string>
#include <unistd.h>
#include <vector>

extern "C" {
unsigned kiln_c_function_count(void);
const char* kiln_c_function_name(unsigned index);
int kiln_c_submit_bytes(PFN_kiln_get_proc_addr get_proc_addr, const void* bytes, size_t size);
}

namespace kiln::test {
namespace {

// The library, loaded once for all tests; every call goes through its function pointers.
struct Library {
  void* handle = nullptr;
  PFN_kiln_get_proc_addr get_proc_addr = nullptr;
  Library() {
    handle = dlopen(KILN_LIBRARY_PATH, RTLD_NOW | RTLD_LOCAL);
    if (handle)
      get_proc_addr = reinterpret_cast<PFN_kiln_get_proc_addr>(dlsym(handle, "kiln_get_proc_addr"));
  }
  template <typename Pfn>
  Pfn get(const char* name) const {
    return reinterpret_cast<Pfn>(get_proc_addr(name));
  }
};

const Library& library() {
  static const Library lib; // never unloaded: kiln's threads are joined by then anyway
  return lib;
}

#define KILN_FN(name) library().get<PFN_##name>(#name)

// Collects log lines (the callback may run on kiln's threads).
struct LogSink {
  std::mutex mutex;
  std::vector<std::pair<kiln_log_level, std::string>> lines;
  static void callback(void* user, kiln_log_level level, const char* message) {
    auto* sink = static_cast<LogSink*>(user);
    std::lock_guard lock(sink->mutex);
    sink->lines.emplace_back(level, message);
  }
  bool contains(const std::string& text) {
    std::lock_guard lock(mutex);
    for (const auto& line : lines)
      if (line.second.find(text) != std::string::npos) return true;
    return false;
  }
};

struct TempDir {
  std::filesystem::path path;
  explicit TempDir(const char* tag) {
    path = std::filesystem::temp_directory_path() /
           (std::string("kiln-abi-") + tag + "-" + std::to_string(::getpid()));
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

kiln_context_create_info base_info(LogSink* sink) {
  kiln_context_create_info info{};
  info.type = KILN_STRUCTURE_TYPE_CONTEXT_CREATE_INFO;
  info.flags = KILN_CONTEXT_DISABLE_CACHE;
  info.thread_count = 2;
  if (sink) {
    info.log_callback = &LogSink::callback;
    info.log_user_data = sink;
  }
  return info;
}

kiln_context* create(const kiln_context_create_info& info) {
  kiln_context* context = nullptr;
  EXPECT_EQ(KILN_FN(kiln_context_create)(&info, &context), KILN_SUCCESS);
  return context;
}

kiln_shader* submit(kiln_context* context, std::span<const std::uint8_t> bytes,
                    kiln_shader_stage stage = KILN_STAGE_ANY, std::uint32_t flags = 0) {
  kiln_submit_info info{};
  info.type = KILN_STRUCTURE_TYPE_SUBMIT_INFO;
  info.code = bytes.data();
  info.code_size = bytes.size();
  info.expected_stage = stage;
  info.priority = KILN_PRIORITY_NORMAL;
  info.flags = flags;
  kiln_shader* shader = nullptr;
  EXPECT_EQ(KILN_FN(kiln_submit)(context, &info, &shader), KILN_SUCCESS);
  return shader;
}

// A few corpus DXBC files, spread over the sorted list.
std::vector<std::filesystem::path> corpus_sample(std::size_t count) {
  const auto dir = corpus_dir();
  if (dir.empty()) return {};
  const auto files = files_with_extension(dir / "dxbc", ".dxbc");
  std::vector<std::filesystem::path> picked;
  for (std::size_t i = 0; i < count && !files.empty(); ++i)
    picked.push_back(files[i * files.size() / count]);
  return picked;
}

class Abi : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!library().handle) GTEST_FAIL() << "dlopen(" KILN_LIBRARY_PATH ") failed: " << dlerror();
    ASSERT_NE(library().get_proc_addr, nullptr);
  }
};

TEST_F(Abi, VersionMatchesTheHeader) {
  EXPECT_EQ(KILN_FN(kiln_get_version)(), std::uint32_t(KILN_HEADER_VERSION));
}

TEST_F(Abi, ProcAddrAnswersEveryFunctionOfTheHeaders) {
  ASSERT_EQ(kiln_c_function_count(), 29u);
  for (unsigned i = 0; i < kiln_c_function_count(); ++i) {
    const char* name = kiln_c_function_name(i);
    void* symbol = dlsym(library().handle, name);
    ASSERT_NE(symbol, nullptr) << name << " is not exported";
    EXPECT_EQ(reinterpret_cast<void*>(library().get_proc_addr(name)), symbol) << name;
  }
  EXPECT_EQ(library().get_proc_addr("kiln_no_such_function"), nullptr);
  EXPECT_EQ(library().get_proc_addr(""), nullptr);
  EXPECT_EQ(library().get_proc_addr(nullptr), nullptr);
}

TEST_F(Abi, ExportsOnlyKilnSymbols) {
  std::FILE* pipe = popen("nm -D --defined-only " KILN_LIBRARY_PATH " 2>/dev/null", "r");
  ASSERT_NE(pipe, nullptr);
  char line[1024];
  std::set<std::string> exported;
  while (std::fgets(line, sizeof line, pipe)) {
    std::string text(line);
    const auto space = text.rfind(' ');
    if (space == std::string::npos || space < 2) continue;
    // A lowercase type letter is a local symbol: in the dynamic table (gold lists a local TLS
    // variable there for its relocations) but not bound by anyone. 'u', 'v', 'w' are global.
    const char type = text[space - 1];
    if (std::islower(static_cast<unsigned char>(type)) && type != 'u' && type != 'v' && type != 'w')
      continue;
    std::string name = text.substr(space + 1);
    while (!name.empty() && (name.back() == '\n' || name.back() == '\r')) name.pop_back();
    exported.insert(name);
  }
  const int status = pclose(pipe);
  if (exported.empty() && status != 0) GTEST_SKIP() << "nm (binutils) is not available";
  std::set<std::string> expected;
  for (unsigned i = 0; i < kiln_c_function_count(); ++i) expected.insert(kiln_c_function_name(i));
  for (const std::string& name : exported) {
    if (name.rfind("KILN_", 0) == 0) continue; // the version node of the version script
    EXPECT_TRUE(expected.count(name)) << "unexpected export: " << name;
  }
  for (const std::string& name : expected) EXPECT_TRUE(exported.count(name)) << name;
}

TEST_F(Abi, HeaderCompilesAsCAndWorksFromC) {
  const std::uint8_t garbage[] = {'D', 'X', 'B', 'C', 1, 2, 3, 4};
  EXPECT_EQ(kiln_c_submit_bytes(library().get_proc_addr, garbage, sizeof garbage),
            KILN_ERROR_TRANSLATION_FAILED);
}

TEST_F(Abi, ResultStringsNameEveryCode) {
  std::set<std::string> names;
  for (int code = -9; code <= 3; ++code) {
    const std::string name = KILN_FN(kiln_result_string)(kiln_result(code));
    EXPECT_EQ(name.rfind("KILN_", 0), 0u) << code;
    EXPECT_NE(name, "KILN_RESULT_UNKNOWN") << code;
    names.insert(name);
  }
  EXPECT_EQ(names.size(), 13u);
  EXPECT_STREQ(KILN_FN(kiln_result_string)(kiln_result(-1000)), "KILN_RESULT_UNKNOWN");
}

TEST_F(Abi, CreateChecksItsArguments) {
  LogSink sink;
  auto info = base_info(&sink);
  kiln_context* context = reinterpret_cast<kiln_context*>(0x1);
  const auto create_fn = KILN_FN(kiln_context_create);
  EXPECT_EQ(create_fn(nullptr, &context), KILN_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(context, nullptr);
  EXPECT_EQ(create_fn(&info, nullptr), KILN_ERROR_INVALID_ARGUMENT);
  auto wrong_type = info;
  wrong_type.type = KILN_STRUCTURE_TYPE_SUBMIT_INFO;
  EXPECT_EQ(create_fn(&wrong_type, &context), KILN_ERROR_INVALID_ARGUMENT);
  auto bad_target = info;
  bad_target.target = kiln_target_environment(7);
  EXPECT_EQ(create_fn(&bad_target, &context), KILN_ERROR_UNSUPPORTED);
  auto bad_binding = info;
  bad_binding.binding_model = kiln_binding_model(3);
  EXPECT_EQ(create_fn(&bad_binding, &context), KILN_ERROR_UNSUPPORTED);
  EXPECT_TRUE(sink.contains("binding model"));
  // Unknown structs in the chain are skipped.
  struct {
    kiln_structure_type type;
    const void* next;
  } unknown{kiln_structure_type(999), nullptr};
  auto chained = info;
  chained.next = &unknown;
  ASSERT_EQ(create_fn(&chained, &context), KILN_SUCCESS);
  KILN_FN(kiln_context_destroy)(context);
  KILN_FN(kiln_context_destroy)(nullptr);
}

TEST_F(Abi, SubmitChecksItsArguments) {
  kiln_context* context = create(base_info(nullptr));
  kiln_submit_info info{};
  info.type = KILN_STRUCTURE_TYPE_SUBMIT_INFO;
  info.code = nullptr;
  info.code_size = 16;
  kiln_shader* shader = reinterpret_cast<kiln_shader*>(0x1);
  const auto submit_fn = KILN_FN(kiln_submit);
  EXPECT_EQ(submit_fn(context, &info, &shader), KILN_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(shader, nullptr);
  const std::uint8_t bytes[4] = {};
  info.code = bytes;
  info.code_size = sizeof bytes;
  info.priority = kiln_priority(9);
  EXPECT_EQ(submit_fn(context, &info, &shader), KILN_ERROR_INVALID_ARGUMENT);
  info.priority = KILN_PRIORITY_LOW;
  info.expected_stage = kiln_shader_stage(42);
  EXPECT_EQ(submit_fn(context, &info, &shader), KILN_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(submit_fn(nullptr, &info, &shader), KILN_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(KILN_FN(kiln_query)(nullptr), KILN_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(KILN_FN(kiln_wait)(nullptr, 0), KILN_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(KILN_FN(kiln_shader_error)(nullptr), nullptr);
  KILN_FN(kiln_shader_release)(nullptr);
  KILN_FN(kiln_context_destroy)(context);
}

TEST_F(Abi, PipelineFunctionsCheckTheirArguments) {
  LogSink sink;
  kiln_context* context = create(base_info(&sink));
  kiln_context* other = create(base_info(&sink));
  const std::vector<std::uint8_t> bytes = {'D', 'X', 'B', 'C', 0, 0, 0, 0};
  kiln_shader* shaders[2] = {submit(context, bytes), submit(other, bytes)};
  const std::uint32_t state = 7;
  kiln_pipeline_record_info info{
      KILN_STRUCTURE_TYPE_PIPELINE_RECORD_INFO, nullptr, 1, 1, shaders, &state, sizeof state};
  const auto record_fn = KILN_FN(kiln_record_pipeline);
  const auto wait_fn = KILN_FN(kiln_wait_pipeline);
  kiln_pipeline_key key{}, again{};
  EXPECT_EQ(record_fn(context, &info, &key), KILN_SUCCESS); // no cache: nothing stored
  EXPECT_EQ(record_fn(context, &info, &again), KILN_SUCCESS);
  EXPECT_TRUE(key.low == again.low && key.high == again.high);
  EXPECT_EQ(wait_fn(context, &info, 0), KILN_NOT_REPLAYED); // no replay in this context
  EXPECT_EQ(record_fn(nullptr, &info, nullptr), KILN_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(record_fn(context, nullptr, nullptr), KILN_ERROR_INVALID_ARGUMENT);
  info.shader_count = 2; // shaders[1] belongs to another context
  EXPECT_EQ(record_fn(context, &info, nullptr), KILN_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(wait_fn(context, &info, 0), KILN_ERROR_INVALID_ARGUMENT);
  info.shader_count = 0;
  EXPECT_EQ(record_fn(context, &info, nullptr), KILN_ERROR_INVALID_ARGUMENT);
  info.shader_count = 1;
  info.state = nullptr; // with a size
  EXPECT_EQ(record_fn(context, &info, nullptr), KILN_ERROR_INVALID_ARGUMENT);
  info.state = &state;
  info.type = KILN_STRUCTURE_TYPE_SUBMIT_INFO;
  EXPECT_EQ(record_fn(context, &info, nullptr), KILN_ERROR_INVALID_ARGUMENT);
  kiln_replay_status status{};
  EXPECT_EQ(KILN_FN(kiln_get_replay_status)(context, &status), KILN_ERROR_INVALID_ARGUMENT);
  status.type = KILN_STRUCTURE_TYPE_REPLAY_STATUS;
  ASSERT_EQ(KILN_FN(kiln_get_replay_status)(context, &status), KILN_SUCCESS);
  EXPECT_EQ(status.done, 1u);
  EXPECT_EQ(status.total, 0u);
  std::uint64_t pipeline_cache = 1;
  EXPECT_EQ(KILN_FN(kiln_get_pipeline_cache)(context, &pipeline_cache), KILN_ERROR_UNSUPPORTED);
  EXPECT_EQ(pipeline_cache, 0u);
  EXPECT_EQ(KILN_FN(kiln_get_pipeline_cache)(context, nullptr), KILN_ERROR_INVALID_ARGUMENT);
  // A replay info without a callback is refused.
  kiln_pipeline_replay_info replay{
      KILN_STRUCTURE_TYPE_PIPELINE_REPLAY_INFO, nullptr, 1, nullptr, nullptr, 0, nullptr};
  kiln_context_create_info create_info = base_info(&sink);
  create_info.next = &replay;
  kiln_context* refused = nullptr;
  EXPECT_EQ(KILN_FN(kiln_context_create)(&create_info, &refused), KILN_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(refused, nullptr);
  KILN_FN(kiln_shader_release)(shaders[0]);
  KILN_FN(kiln_shader_release)(shaders[1]);
  KILN_FN(kiln_context_destroy)(context);
  KILN_FN(kiln_context_destroy)(other);
}

TEST_F(Abi, ABadShaderFailsOnlyItsHandle) {
  LogSink sink;
  kiln_context* context = create(base_info(&sink));
  const std::uint8_t garbage[] = {'D', 'X', 'B', 'C', 0, 0, 0, 0, 9, 9, 9};
  kiln_shader* bad = submit(context, garbage);
  ASSERT_NE(bad, nullptr);
  EXPECT_EQ(KILN_FN(kiln_wait)(bad, UINT64_MAX), KILN_ERROR_TRANSLATION_FAILED);
  EXPECT_EQ(KILN_FN(kiln_query)(bad), KILN_ERROR_TRANSLATION_FAILED);
  const char* error = KILN_FN(kiln_shader_error)(bad);
  ASSERT_NE(error, nullptr);
  EXPECT_GT(std::strlen(error), 0u);
  EXPECT_EQ(std::strchr(error, '\n'), nullptr);
  EXPECT_TRUE(sink.contains(error)) << "the failure is logged";
  const std::uint32_t* words = reinterpret_cast<const std::uint32_t*>(0x1);
  std::size_t count = 7;
  EXPECT_EQ(KILN_FN(kiln_get_spirv)(bad, &words, &count), KILN_ERROR_TRANSLATION_FAILED);
  EXPECT_EQ(words, nullptr);
  EXPECT_EQ(count, 0u);
  std::uint64_t module = 1;
  EXPECT_EQ(KILN_FN(kiln_get_shader_module)(bad, &module), KILN_ERROR_NO_DEVICE);
  kiln_reflection reflection{};
  EXPECT_EQ(KILN_FN(kiln_get_reflection)(bad, &reflection), KILN_ERROR_INVALID_ARGUMENT);
  reflection.type = KILN_STRUCTURE_TYPE_REFLECTION;
  EXPECT_EQ(KILN_FN(kiln_get_reflection)(bad, &reflection), KILN_ERROR_TRANSLATION_FAILED);

  // Retained twice, released twice; the same bytes again join or repeat the failure.
  EXPECT_EQ(KILN_FN(kiln_shader_retain)(bad), bad);
  KILN_FN(kiln_shader_release)(bad);
  kiln_shader* again = submit(context, garbage);
  EXPECT_EQ(KILN_FN(kiln_wait)(again, UINT64_MAX), KILN_ERROR_TRANSLATION_FAILED);
  KILN_FN(kiln_shader_release)(again);
  KILN_FN(kiln_shader_release)(bad);

  kiln_stats stats{};
  EXPECT_EQ(KILN_FN(kiln_get_stats)(context, &stats), KILN_ERROR_INVALID_ARGUMENT);
  stats.type = KILN_STRUCTURE_TYPE_STATS;
  ASSERT_EQ(KILN_FN(kiln_get_stats)(context, &stats), KILN_SUCCESS);
  EXPECT_EQ(stats.submitted, 2u);
  EXPECT_EQ(stats.failed, 2u);
  EXPECT_EQ(stats.thread_count, 4u); // 2 foreground workers, as asked, and 2 background ones
  EXPECT_EQ(stats.cache_enabled, 0u);
  KILN_FN(kiln_context_destroy)(context);
}

// KILN_SUBMIT_NOW: the handle is final when kiln_submit returns, translated on this thread, with
// the same SPIR-V as a queued submission of the same bytes.
TEST_F(Abi, SubmitNowReturnsATranslatedShader) {
  const auto files = corpus_sample(8);
  if (files.empty()) KILN_SKIP_OR_FAIL_IN_CI("corpus not found");
  kiln_context* now_context = create(base_info(nullptr));
  kiln_context* queued_context = create(base_info(nullptr));
  for (const auto& file : files) {
    const auto bytes = read_bytes(file);
    kiln_shader* now = submit(now_context, bytes, KILN_STAGE_ANY, KILN_SUBMIT_NOW);
    kiln_shader* queued = submit(queued_context, bytes);
    ASSERT_NE(now, nullptr);
    EXPECT_EQ(KILN_FN(kiln_query)(now), KILN_SUCCESS) << file;
    ASSERT_EQ(KILN_FN(kiln_wait)(queued, UINT64_MAX), KILN_SUCCESS) << file;
    const std::uint32_t *now_words = nullptr, *queued_words = nullptr;
    std::size_t now_count = 0, queued_count = 0;
    ASSERT_EQ(KILN_FN(kiln_get_spirv)(now, &now_words, &now_count), KILN_SUCCESS);
    ASSERT_EQ(KILN_FN(kiln_get_spirv)(queued, &queued_words, &queued_count), KILN_SUCCESS);
    EXPECT_TRUE(
        std::equal(now_words, now_words + now_count, queued_words, queued_words + queued_count))
        << file;
    KILN_FN(kiln_shader_release)(now);
    KILN_FN(kiln_shader_release)(queued);
  }
  kiln_stats stats{};
  stats.type = KILN_STRUCTURE_TYPE_STATS;
  ASSERT_EQ(KILN_FN(kiln_get_stats)(now_context, &stats), KILN_SUCCESS);
  EXPECT_EQ(stats.run_by_waiter, files.size()); // none went through a worker
  KILN_FN(kiln_context_destroy)(queued_context);
  KILN_FN(kiln_context_destroy)(now_context);
}

TEST_F(Abi, StageMismatchIsRejectedAtSubmit) {
  const auto files = corpus_sample(50);
  if (files.empty()) KILN_SKIP_OR_FAIL_IN_CI("corpus not found");
  LogSink sink;
  kiln_context* context = create(base_info(&sink));
  std::size_t checked = 0;
  for (const auto& file : files) {
    const auto bytes = read_bytes(file);
    // Every corpus DXBC file that is not a vertex shader must be refused as one.
    kiln_submit_info info{};
    info.type = KILN_STRUCTURE_TYPE_SUBMIT_INFO;
    info.code = bytes.data();
    info.code_size = bytes.size();
    info.expected_stage = KILN_STAGE_VERTEX;
    kiln_shader* shader = nullptr;
    const kiln_result result = KILN_FN(kiln_submit)(context, &info, &shader);
    info.expected_stage = KILN_STAGE_PIXEL;
    kiln_shader* as_pixel = nullptr;
    const kiln_result pixel_result = KILN_FN(kiln_submit)(context, &info, &as_pixel);
    // At most one of the two stages can be right.
    EXPECT_FALSE(result == KILN_SUCCESS && pixel_result == KILN_SUCCESS) << file;
    if (result != KILN_SUCCESS) {
      EXPECT_EQ(result, KILN_ERROR_INVALID_ARGUMENT);
      EXPECT_EQ(shader, nullptr);
      ++checked;
    }
    KILN_FN(kiln_shader_release)(shader);
    KILN_FN(kiln_shader_release)(as_pixel);
  }
  EXPECT_GT(checked, 0u);
  EXPECT_TRUE(sink.contains("created as a vertex shader"));
  KILN_FN(kiln_context_destroy)(context);
}

TEST_F(Abi, HandlesOutliveTheirContext) {
  const auto files = corpus_sample(200);
  if (files.empty()) KILN_SKIP_OR_FAIL_IN_CI("corpus not found");
  auto info = base_info(nullptr);
  info.thread_count = 1;
  info.log_callback = [](void*, kiln_log_level, const char*) {};
  kiln_context* context = create(info);
  std::vector<kiln_shader*> shaders;
  for (const auto& file : files) shaders.push_back(submit(context, read_bytes(file)));
  KILN_FN(kiln_context_destroy)(context); // queued ones are cancelled, none left pending
  for (kiln_shader* shader : shaders) {
    const kiln_result state = KILN_FN(kiln_query)(shader);
    EXPECT_NE(state, KILN_NOT_READY);
    EXPECT_EQ(KILN_FN(kiln_wait)(shader, 0), state);
    if (state == KILN_ERROR_CANCELLED) {
      EXPECT_NE(KILN_FN(kiln_shader_error)(shader), nullptr);
    }
    KILN_FN(kiln_shader_release)(shader);
  }
}

TEST_F(Abi, LogLevelFromTheEnvironment) {
  const std::uint8_t garbage[] = {'D', 'X', 'B', 'C', 0, 0, 0, 0};
  for (const char* level : {"none", "error", "debug"}) {
    setenv("KILN_LOG_LEVEL", level, 1);
    LogSink sink;
    kiln_context* context = create(base_info(&sink));
    unsetenv("KILN_LOG_LEVEL");
    kiln_shader* shader = submit(context, garbage);
    KILN_FN(kiln_wait)(shader, UINT64_MAX);
    KILN_FN(kiln_shader_release)(shader);
    KILN_FN(kiln_context_destroy)(context);
    // A translation failure is a warning: shown at debug, hidden at error and none.
    EXPECT_EQ(!sink.lines.empty(), std::string(level) == "debug") << level;
  }
}

TEST_F(Abi, DumpPathGetsTheInputNamedByHash) {
  const auto files = corpus_sample(3);
  if (files.empty()) KILN_SKIP_OR_FAIL_IN_CI("corpus not found");
  TempDir dumps("dumps");
  setenv("KILN_SHADER_DUMP_PATH", dumps.path.c_str(), 1);
  kiln_context* context = create(base_info(nullptr));
  unsetenv("KILN_SHADER_DUMP_PATH");
  std::size_t translated = 0;
  for (const auto& file : files) {
    kiln_shader* shader = submit(context, read_bytes(file));
    translated += KILN_FN(kiln_wait)(shader, UINT64_MAX) == KILN_SUCCESS;
    KILN_FN(kiln_shader_release)(shader);
  }
  KILN_FN(kiln_context_destroy)(context);
  std::set<std::vector<std::uint8_t>> dumped;
  std::size_t spirv_files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dumps.path)) {
    const auto name = entry.path().filename().string();
    EXPECT_EQ(name.find('.'), 32u) << name; // 128-bit hash in hex, then the extension
    if (entry.path().extension() == ".dxbc") dumped.insert(read_bytes(entry.path()));
    if (entry.path().extension() == ".spv") ++spirv_files;
  }
  for (const auto& file : files) EXPECT_TRUE(dumped.count(read_bytes(file))) << file;
  EXPECT_EQ(spirv_files, translated);
}

TEST_F(Abi, WarmFromFolderSubmitsEveryShaderFile) {
  const auto files = corpus_sample(40);
  if (files.empty()) KILN_SKIP_OR_FAIL_IN_CI("corpus not found");
  TempDir folder("warm");
  TempDir cache("warm-cache");
  std::filesystem::create_directories(folder.path / "nested");
  for (std::size_t i = 0; i < files.size(); ++i)
    std::filesystem::copy_file(files[i],
                               folder.path / (i % 2 ? "nested" : ".") / files[i].filename());
  std::FILE* text = std::fopen((folder.path / "notes.txt").c_str(), "w");
  std::fputs("not a shader\n", text);
  std::fclose(text);
  auto info = base_info(nullptr);
  info.flags = 0;
  const std::string cache_path = cache.path.string();
  info.cache_path = cache_path.c_str();
  info.log_callback = [](void*, kiln_log_level, const char*) {};
  kiln_context* context = create(info);
  std::uint32_t submitted = 99;
  EXPECT_EQ(
      KILN_FN(kiln_warm_from_folder)(context, "/nonexistent/kiln", KILN_PRIORITY_LOW, &submitted),
      KILN_ERROR_IO);
  EXPECT_EQ(submitted, 0u);
  ASSERT_EQ(
      KILN_FN(kiln_warm_from_folder)(context, folder.path.c_str(), KILN_PRIORITY_LOW, &submitted),
      KILN_SUCCESS);
  EXPECT_EQ(submitted, files.size());
  kiln_stats stats{};
  stats.type = KILN_STRUCTURE_TYPE_STATS;
  ASSERT_EQ(KILN_FN(kiln_get_stats)(context, &stats), KILN_SUCCESS);
  EXPECT_EQ(stats.submitted, files.size());
  EXPECT_EQ(stats.cache_enabled, 1u);
  KILN_FN(kiln_context_destroy)(context);
}

TEST_F(Abi, ASecondContextHitsTheCache) {
  const auto files = corpus_sample(60);
  if (files.empty()) KILN_SKIP_OR_FAIL_IN_CI("corpus not found");
  TempDir cache("cache");
  auto info = base_info(nullptr);
  info.flags = 0;
  const std::string cache_path = cache.path.string();
  info.cache_path = cache_path.c_str();
  info.log_callback = [](void*, kiln_log_level, const char*) {};
  std::vector<std::vector<std::uint32_t>> first_spirv(files.size());
  std::size_t translated = 0;
  {
    kiln_context* context = create(info);
    for (std::size_t i = 0; i < files.size(); ++i) {
      kiln_shader* shader = submit(context, read_bytes(files[i]));
      if (KILN_FN(kiln_wait)(shader, UINT64_MAX) == KILN_SUCCESS) {
        const std::uint32_t* words;
        std::size_t count;
        ASSERT_EQ(KILN_FN(kiln_get_spirv)(shader, &words, &count), KILN_SUCCESS);
        first_spirv[i].assign(words, words + count);
        ++translated;
      }
      KILN_FN(kiln_shader_release)(shader);
    }
    KILN_FN(kiln_context_destroy)(context);
  }
  ASSERT_GT(translated, 0u) << "no corpus DXBC shader translated";
  kiln_context* context = create(info);
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (first_spirv[i].empty()) continue;
    kiln_shader* shader = submit(context, read_bytes(files[i]));
    EXPECT_EQ(KILN_FN(kiln_query)(shader), KILN_SUCCESS) << "a hit is ready at submit";
    const std::uint32_t* words;
    std::size_t count;
    ASSERT_EQ(KILN_FN(kiln_get_spirv)(shader, &words, &count), KILN_SUCCESS);
    EXPECT_EQ(std::vector<std::uint32_t>(words, words + count), first_spirv[i]);
    KILN_FN(kiln_shader_release)(shader);
  }
  kiln_stats stats{};
  stats.type = KILN_STRUCTURE_TYPE_STATS;
  ASSERT_EQ(KILN_FN(kiln_get_stats)(context, &stats), KILN_SUCCESS);
  EXPECT_EQ(stats.cache_hits, translated);
  KILN_FN(kiln_context_destroy)(context);
}

// The exception wall: an exception inside an entry point (here the layer's own log callback
// throwing from inside kiln_warm_from_folder) is logged with the entry point's name and comes
// back as KILN_ERROR_INTERNAL, not as KILN_ERROR_INVALID_ARGUMENT or a crash.
TEST_F(Abi, AnExceptionInsideAnEntryPointIsLoggedAndInternal) {
  struct ThrowOnce {
    bool thrown = false;
    std::vector<std::string> lines;
    static void callback(void* user, kiln_log_level, const char* message) {
      auto* self = static_cast<ThrowOnce*>(user);
      if (!self->thrown) {
        self->thrown = true;
        throw std::runtime_error("the layer's log is broken");
      }
      self->lines.emplace_back(message);
    }
  } log;
  kiln_context_create_info info = base_info(nullptr);
  info.log_callback = &ThrowOnce::callback;
  info.log_user_data = &log;
  kiln_context* context = create(info);
  ASSERT_NE(context, nullptr);
  uint32_t submitted = 0;
  EXPECT_EQ(KILN_FN(kiln_warm_from_folder)(context, "/nonexistent/kiln-abi-folder",
                                           KILN_PRIORITY_LOW, &submitted),
            KILN_ERROR_INTERNAL);
  EXPECT_TRUE(log.thrown);
  ASSERT_EQ(log.lines.size(), 1u);
  EXPECT_EQ(log.lines[0], "kiln_warm_from_folder: the layer's log is broken");
  EXPECT_STREQ(KILN_FN(kiln_result_string)(KILN_ERROR_INTERNAL), "KILN_ERROR_INTERNAL");
  KILN_FN(kiln_context_destroy)(context);
}

} // namespace
} // namespace kiln::test
