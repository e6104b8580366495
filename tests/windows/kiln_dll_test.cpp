// The Windows DLLs' test program (scripts/test-windows runs it under Wine; README "Windows
// DLLs"). A plain program over kiln.h, linked to kiln.dll, that exits non-zero and prints what
// failed. The Linux build compiles the same source against libkiln.so: `translate` and
// `vkd3d` write what each shader became, and the script compares the two platforms' folders.
//
//   kiln_dll_test translate CORPUS OUT        every DXBC/D3D9 corpus file through kiln_submit
//   kiln_dll_test vkd3d LIBRARY CORPUS OUT    vkd3d_shader_compile and _scan through LIBRARY
//   kiln_dll_test cache-fill CACHE CORPUS     the corpus into an on-disk cache: translations
//   kiln_dll_test cache-hits CACHE CORPUS     the same in a new process: every shader a hit
//   kiln_dll_test cache-kill CACHE CORPUS     writers killed mid-write (TerminateProcess, as
//                                             taskkill /F), then the cache checked (Windows)
//   kiln_dll_test priorities CORPUS           a High wait is not queued behind a Low backlog

#include "plugin/vkd3d_shader/shader_library.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <kiln/kiln.h>
#include <string>
#include <thread>
#include <vector>

#if defined(_WIN32)
#include <windows.h>
#endif

namespace fs = std::filesystem;

namespace {

int g_failures = 0;

void fail(const std::string& what) {
  std::fprintf(stderr, "FAILED: %s\n", what.c_str());
  ++g_failures;
}

void check(bool ok, const std::string& what) {
  if (!ok) fail(what);
}

struct Shader {
  std::string name; // relative to the corpus, with '/'
  std::vector<std::uint8_t> bytes;
};

// Every .dxbc and .d3d9 file under CORPUS/dxbc and CORPUS/d3d9, in name order.
std::vector<Shader> load_corpus(const fs::path& corpus, bool dxbc_only = false) {
  std::vector<Shader> shaders;
  for (const char* folder : {"dxbc", "d3d9"}) {
    if (dxbc_only && std::strcmp(folder, "d3d9") == 0) continue;
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(corpus / folder, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      const std::string extension = it->path().extension().string();
      if (!it->is_regular_file() || (extension != ".dxbc" && extension != ".d3d9")) continue;
      std::ifstream in(it->path(), std::ios::binary);
      Shader shader{fs::relative(it->path(), corpus).generic_string(),
                    {std::istreambuf_iterator<char>(in), {}}};
      shaders.push_back(std::move(shader));
    }
  }
  std::sort(shaders.begin(), shaders.end(),
            [](const Shader& a, const Shader& b) { return a.name < b.name; });
  if (shaders.empty()) fail("no shaders under " + corpus.string());
  return shaders;
}

void write_file(const fs::path& path, const void* data, std::size_t size) {
  fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary);
  out.write(static_cast<const char*>(data), std::streamsize(size));
  if (!out) fail("cannot write " + path.string());
}

// kiln's log: the corpus's known-invalid shaders would warn on every pass; the checks here say
// what failed.
void quiet_log(void*, kiln_log_level, const char*) {}

kiln_context* create_context(const char* cache_path, uint32_t threads,
                             kiln_target_environment target = KILN_TARGET_VULKAN_1_3) {
  kiln_context_create_info info{};
  info.type = KILN_STRUCTURE_TYPE_CONTEXT_CREATE_INFO;
  info.flags = cache_path ? 0 : KILN_CONTEXT_DISABLE_CACHE;
  info.thread_count = threads;
  info.cache_path = cache_path;
  info.target = target;
  info.log_callback = quiet_log;
  kiln_context* context = nullptr;
  const kiln_result result = kiln_context_create(&info, &context);
  check(result == KILN_SUCCESS, std::string("kiln_context_create: ") + kiln_result_string(result));
  return context;
}

kiln_shader* submit(kiln_context* context, const Shader& shader, kiln_priority priority,
                    uint32_t flags = 0) {
  kiln_submit_info info{};
  info.type = KILN_STRUCTURE_TYPE_SUBMIT_INFO;
  info.code = shader.bytes.data();
  info.code_size = shader.bytes.size();
  info.priority = priority;
  info.flags = flags;
  kiln_shader* handle = nullptr;
  if (kiln_submit(context, &info, &handle) != KILN_SUCCESS) return nullptr;
  return handle;
}

kiln_stats stats_of(kiln_context* context) {
  kiln_stats stats{};
  stats.type = KILN_STRUCTURE_TYPE_STATS;
  kiln_get_stats(context, &stats);
  return stats;
}

// The SPIR-V of every shader (empty for a failure), submitted at Normal and waited for.
std::vector<std::vector<uint32_t>> translate_all(kiln_context* context,
                                                 const std::vector<Shader>& shaders) {
  std::vector<kiln_shader*> handles;
  for (const Shader& shader : shaders)
    handles.push_back(submit(context, shader, KILN_PRIORITY_NORMAL));
  std::vector<std::vector<uint32_t>> out(shaders.size());
  for (std::size_t i = 0; i < handles.size(); ++i) {
    if (!handles[i] || kiln_wait(handles[i], UINT64_MAX) != KILN_SUCCESS) {
      kiln_shader_release(handles[i]);
      continue;
    }
    const uint32_t* words = nullptr;
    size_t count = 0;
    if (kiln_get_spirv(handles[i], &words, &count) == KILN_SUCCESS)
      out[i].assign(words, words + count);
    kiln_shader_release(handles[i]);
  }
  return out;
}

std::size_t count_translated(const std::vector<std::vector<uint32_t>>& results) {
  return std::size_t(std::count_if(results.begin(), results.end(),
                                   [](const auto& words) { return !words.empty(); }));
}

int run_translate(const fs::path& corpus, const fs::path& out) {
  const std::vector<Shader> shaders = load_corpus(corpus);
  kiln_context* context = create_context(nullptr, 1);
  const auto results = translate_all(context, shaders);
  kiln_context_destroy(context);
  for (std::size_t i = 0; i < shaders.size(); ++i) {
    if (results[i].empty())
      write_file(out / (shaders[i].name + ".failed"), "", 0);
    else
      write_file(out / (shaders[i].name + ".spv"), results[i].data(), results[i].size() * 4);
  }
  const std::size_t translated = count_translated(results);
  std::printf("translate: %zu shaders, %zu translated\n", shaders.size(), translated);
  check(translated * 100 >= shaders.size() * 99, "fewer than 99% of the corpus translated");
  return g_failures;
}

// What one vkd3d_shader_scan found, as text: the result and one line per descriptor.
std::string describe_scan(int result, const vkd3d_shader_scan_descriptor_info& info) {
  std::string text = "result " + std::to_string(result) + "\n";
  if (result != VKD3D_OK) return text;
  for (unsigned i = 0; i < info.descriptor_count; ++i) {
    const vkd3d_shader_descriptor_info& d = info.descriptors[i];
    char line[160];
    std::snprintf(line, sizeof line,
                  "type %d space %u register %u resource %d data %d flags %u count %u\n",
                  int(d.type), d.register_space, d.register_index, int(d.resource_type),
                  int(d.resource_data_type), unsigned(d.flags), d.count);
    text += line;
  }
  return text;
}

int run_vkd3d(const std::string& library_name, const fs::path& corpus, const fs::path& out) {
  kiln::vkd3d::ShaderLibrary library(library_name);
  if (!library.loaded()) {
    fail("cannot load " + library_name + ": " + library.error());
    return g_failures;
  }
  std::printf("vkd3d: %s is \"%s\"\n", library_name.c_str(), library.version().c_str());
  check(library.version().find("kiln") != std::string::npos, "the library is not kiln's");
  const std::vector<Shader> shaders = load_corpus(corpus, true);
  std::size_t compiled = 0, scanned = 0;
  for (const Shader& shader : shaders) {
    vkd3d_shader_compile_info info{};
    info.type = VKD3D_SHADER_STRUCTURE_TYPE_COMPILE_INFO;
    info.source = {shader.bytes.data(), shader.bytes.size()};
    info.source_type = VKD3D_SHADER_SOURCE_DXBC_TPF;
    info.target_type = VKD3D_SHADER_TARGET_SPIRV_BINARY;
    info.log_level = VKD3D_SHADER_LOG_NONE;
    vkd3d_shader_code spirv{};
    char* messages = nullptr;
    const int result = library.vkd3d_shader_compile(&info, &spirv, &messages);
    library.vkd3d_shader_free_messages(messages);
    if (result == VKD3D_OK) {
      ++compiled;
      check(spirv.size >= 20 && *static_cast<const uint32_t*>(spirv.code) == 0x07230203u,
            shader.name + ": vkd3d_shader_compile gave no SPIR-V");
      write_file(out / (shader.name + ".spv"), spirv.code, spirv.size);
      library.vkd3d_shader_free_shader_code(&spirv);
    } else {
      const std::string text = "result " + std::to_string(result) + "\n";
      write_file(out / (shader.name + ".compile"), text.data(), text.size());
    }

    vkd3d_shader_scan_descriptor_info descriptors{};
    descriptors.type = VKD3D_SHADER_STRUCTURE_TYPE_SCAN_DESCRIPTOR_INFO;
    info.next = &descriptors;
    messages = nullptr;
    const int scan = library.vkd3d_shader_scan(&info, &messages);
    library.vkd3d_shader_free_messages(messages);
    scanned += scan == VKD3D_OK;
    const std::string text = describe_scan(scan, descriptors);
    write_file(out / (shader.name + ".scan"), text.data(), text.size());
    if (scan == VKD3D_OK) library.vkd3d_shader_free_scan_descriptor_info(&descriptors);
  }
  // What kiln does not serve goes to a real vkd3d-shader; with none present the call fails
  // cleanly. A root signature is one such call.
  vkd3d_shader_code empty{};
  vkd3d_shader_versioned_root_signature_desc root{};
  char* messages = nullptr;
  const int forwarded = library.vkd3d_shader_parse_root_signature(&empty, &root, &messages);
  library.vkd3d_shader_free_messages(messages);
  std::printf("vkd3d: %zu DXBC files, %zu compiled, %zu scanned; a root signature: %s\n",
              shaders.size(), compiled, scanned, kiln::vkd3d::result_name(forwarded));
  check(compiled * 100 >= shaders.size() * 95, "fewer than 95% compiled");
  check(scanned * 100 >= shaders.size() * 95, "fewer than 95% scanned");
  if (const char* real = std::getenv("KILN_DLL_TEST_NO_REAL_VKD3D"); real && *real == '1')
    check(forwarded == VKD3D_ERROR_NOT_IMPLEMENTED,
          "a forwarded call without a real library did not fail with VKD3D_ERROR_NOT_IMPLEMENTED");
  return g_failures;
}

// `expect_hits`: every shader that translates must come from the cache, none translated again.
int run_cache_pass(const char* cache, const fs::path& corpus, bool expect_hits) {
  const std::vector<Shader> shaders = load_corpus(corpus);
  kiln_context* context = create_context(cache, 1);
  const auto results = translate_all(context, shaders);
  const kiln_stats stats = stats_of(context);
  kiln_context_destroy(context);
  const std::size_t translated = count_translated(results);
  std::printf("cache %s: %zu shaders, %llu hits, %llu translated, %llu failed\n",
              expect_hits ? "second run" : "first run", shaders.size(),
              (unsigned long long)stats.cache_hits, (unsigned long long)stats.translated,
              (unsigned long long)stats.failed);
  check(stats.cache_enabled != 0, "the cache is not enabled");
  if (expect_hits) {
    check(stats.cache_hits == translated, "not every translated shader was a cache hit");
    check(stats.translated == 0, "shaders were translated again");
  } else {
    check(stats.translated == translated, "the first run did not translate every shader");
  }
  return g_failures;
}

// A Low backlog of the whole corpus on one background worker, then the largest shader at High:
// kiln_wait must translate it at once (on the waiting thread), with the backlog still queued.
int run_priorities(const fs::path& corpus) {
  std::vector<Shader> shaders = load_corpus(corpus);
  const auto largest =
      std::max_element(shaders.begin(), shaders.end(), [](const auto& a, const auto& b) {
        return a.bytes.size() < b.bytes.size();
      });
  const Shader urgent = *largest;
  shaders.erase(largest);

  using Clock = std::chrono::steady_clock;
  kiln_context* idle = create_context(nullptr, 1);
  const auto idle_start = Clock::now();
  kiln_shader* alone = submit(idle, urgent, KILN_PRIORITY_HIGH);
  check(alone && kiln_wait(alone, UINT64_MAX) == KILN_SUCCESS, "the urgent shader alone failed");
  const auto idle_time = Clock::now() - idle_start;
  kiln_shader_release(alone);
  kiln_context_destroy(idle);

  kiln_context* context = create_context(nullptr, 1);
  std::vector<kiln_shader*> backlog;
  for (const Shader& shader : shaders)
    backlog.push_back(submit(context, shader, KILN_PRIORITY_LOW));
  kiln_shader* normal = submit(context, shaders.front(), KILN_PRIORITY_NORMAL);
  const auto start = Clock::now();
  kiln_shader* high = submit(context, urgent, KILN_PRIORITY_HIGH);
  const kiln_result waited = high ? kiln_wait(high, UINT64_MAX) : KILN_ERROR_INVALID_ARGUMENT;
  const auto wait_time = Clock::now() - start;
  const kiln_stats during = stats_of(context);
  check(waited == KILN_SUCCESS, std::string("High wait: ") + kiln_result_string(waited));
  check(during.queued[KILN_PRIORITY_LOW] > 0, "the High wait returned only after the Low backlog");
  check(normal && kiln_wait(normal, UINT64_MAX) == KILN_SUCCESS, "the Normal shader failed");
  std::size_t low_done = 0;
  for (kiln_shader* shader : backlog) {
    low_done += shader && kiln_wait(shader, UINT64_MAX) == KILN_SUCCESS;
    kiln_shader_release(shader);
  }
  kiln_shader_release(high);
  kiln_shader_release(normal);
  const kiln_stats after = stats_of(context);
  kiln_context_destroy(context);
  using us = std::chrono::microseconds;
  std::printf(
      "priorities: %s (%zu bytes) waited %lld us behind %llu queued Low jobs (alone: %lld us);"
      " %zu of %zu Low jobs done after, %llu run by a waiter\n",
      urgent.name.c_str(), urgent.bytes.size(),
      (long long)std::chrono::duration_cast<us>(wait_time).count(),
      (unsigned long long)during.queued[KILN_PRIORITY_LOW],
      (long long)std::chrono::duration_cast<us>(idle_time).count(), low_done, backlog.size(),
      (unsigned long long)after.run_by_waiter);
  check(low_done * 100 >= backlog.size() * 99, "the Low backlog did not finish");
  return g_failures;
}

#if defined(_WIN32)
constexpr kiln_target_environment kTargets[] = {KILN_TARGET_VULKAN_1_3, KILN_TARGET_VULKAN_1_2,
                                                KILN_TARGET_VULKAN_1_1, KILN_TARGET_VULKAN_1_0};

// The child of cache-kill: writes the corpus for one target until killed (or done).
int run_cache_writer(const char* cache, const fs::path& corpus, int target) {
  const std::vector<Shader> shaders = load_corpus(corpus);
  kiln_context* context = create_context(cache, 1, kTargets[target % 4]);
  std::printf("writing\n");
  std::fflush(stdout);
  translate_all(context, shaders);
  kiln_context_destroy(context);
  return 0;
}

int run_cache_kill(const char* cache, const fs::path& corpus) {
  char self[MAX_PATH] = {};
  ::GetModuleFileNameA(nullptr, self, MAX_PATH);
  const std::vector<Shader> shaders = load_corpus(corpus);
  const int rounds = 4; // one per target, so that every round's writer has new entries to add
  int killed = 0;
  for (int round = 0; round < rounds; ++round) {
    // The child reports on a pipe once it writes; it is killed a round-dependent time later.
    SECURITY_ATTRIBUTES inherit{sizeof inherit, nullptr, TRUE};
    HANDLE read_end = nullptr, write_end = nullptr;
    if (!::CreatePipe(&read_end, &write_end, &inherit, 0)) {
      fail("CreatePipe");
      return g_failures;
    }
    ::SetHandleInformation(read_end, HANDLE_FLAG_INHERIT, 0);
    STARTUPINFOA startup{};
    startup.cb = sizeof startup;
    startup.dwFlags = STARTF_USESTDHANDLES;
    startup.hStdOutput = write_end;
    startup.hStdError = ::GetStdHandle(STD_ERROR_HANDLE);
    std::string command = std::string("\"") + self + "\" cache-writer \"" + cache + "\" \"" +
                          corpus.string() + "\" " + std::to_string(round);
    PROCESS_INFORMATION process{};
    if (!::CreateProcessA(nullptr, command.data(), nullptr, nullptr, TRUE, 0, nullptr, nullptr,
                          &startup, &process)) {
      fail("CreateProcess " + command);
      return g_failures;
    }
    ::CloseHandle(write_end);
    char line[16] = {};
    DWORD n = 0;
    ::ReadFile(read_end, line, sizeof line - 1, &n, nullptr);
    // Kill inside a write: once the file has grown by a round-dependent amount, as soon as it
    // grows again (or after 30 s).
    const fs::path file = fs::path(cache) / "kiln-shaders.v1.cache";
    const auto size_now = [&] {
      std::error_code ec;
      const std::uintmax_t size = fs::file_size(file, ec);
      return ec ? std::uintmax_t(0) : size;
    };
    const std::uintmax_t target = size_now() + (std::uintmax_t(round) + 1) * (64u << 10);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (size_now() < target && std::chrono::steady_clock::now() < deadline) ::Sleep(1);
    for (const std::uintmax_t seen = size_now();
         size_now() == seen && std::chrono::steady_clock::now() < deadline;)
      ;
    // What taskkill /F does.
    killed += ::TerminateProcess(process.hProcess, 9) ? 1 : 0;
    ::WaitForSingleObject(process.hProcess, INFINITE);
    DWORD code = 0;
    ::GetExitCodeProcess(process.hProcess, &code);
    std::printf("cache-kill: round %d: writer %s at %ju bytes\n", round,
                code == 9 ? "killed" : "finished before the kill", size_now());
    ::CloseHandle(process.hThread);
    ::CloseHandle(process.hProcess);
    ::CloseHandle(read_end);
  }
  check(killed == rounds, "TerminateProcess failed");
  // The cache opens, and whatever it serves is what a translation without it gives.
  std::size_t hits = 0;
  for (int target = 0; target < rounds; ++target) {
    kiln_context* fresh = create_context(nullptr, 1, kTargets[target]);
    const auto expected = translate_all(fresh, shaders);
    kiln_context_destroy(fresh);
    kiln_context* cached = create_context(cache, 1, kTargets[target]);
    const auto served = translate_all(cached, shaders);
    hits += stats_of(cached).cache_hits;
    check(stats_of(cached).cache_enabled != 0, "the cache did not open after the kills");
    kiln_context_destroy(cached);
    for (std::size_t i = 0; i < shaders.size(); ++i)
      check(served[i] == expected[i], shaders[i].name + ": the cache served other SPIR-V");
  }
  std::printf("cache-kill: %d writers killed; %zu cache hits afterwards, all identical to fresh "
              "translations\n",
              killed, hits);
  check(hits > 0, "nothing survived in the cache");
  return g_failures;
}
#endif

int usage() {
  std::fprintf(stderr, "usage: kiln_dll_test translate CORPUS OUT | vkd3d LIBRARY CORPUS OUT | "
                       "cache-fill CACHE CORPUS | cache-hits CACHE CORPUS | "
                       "cache-kill CACHE CORPUS | priorities CORPUS\n");
  return 2;
}

} // namespace

int main(int argc, char** argv) {
  if (argc < 3) return usage();
  const std::string mode = argv[1];
  int failures = 0;
  if (mode == "translate" && argc == 4)
    failures = run_translate(argv[2], argv[3]);
  else if (mode == "vkd3d" && argc == 5)
    failures = run_vkd3d(argv[2], argv[3], argv[4]);
  else if (mode == "cache-fill" && argc == 4)
    failures = run_cache_pass(argv[2], argv[3], false);
  else if (mode == "cache-hits" && argc == 4)
    failures = run_cache_pass(argv[2], argv[3], true);
  else if (mode == "priorities" && argc == 3)
    failures = run_priorities(argv[2]);
#if defined(_WIN32)
  else if (mode == "cache-kill" && argc == 4)
    failures = run_cache_kill(argv[2], argv[3]);
  else if (mode == "cache-writer" && argc == 5)
    failures = run_cache_writer(argv[2], argv[3], std::atoi(argv[4]));
#endif
  else
    return usage();
  if (failures) std::fprintf(stderr, "%s: %d check(s) failed\n", mode.c_str(), failures);
  return failures ? 1 : 0;
}
