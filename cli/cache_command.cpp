// kiln cache stats|verify|compact|clear|warm [--path DIR] [PATH...]

#include "bench/progress.h"
#include "cache/driver_cache_file.h"
#include "cache/shader_cache.h"
#include "cli/commands.h"
#include "translator/common/input_kind.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>

namespace kiln::cli {

namespace {
constexpr OptionSpec kOptions[] = {
    {"--path", "DIR",
     "cache directory (default: $KILN_CACHE_PATH, $XDG_CACHE_HOME/kiln, "
     "~/.cache/kiln)"},
    {"--rebuild", "", "with warm: re-translate entries written by another codegen version"},
};
constexpr std::string_view kActions[] = {"stats", "verify", "compact", "clear", "warm"};

Result<std::unique_ptr<cache::ShaderCache>> open_cache(const ParsedArgs& args, bool read_only) {
  cache::CacheOptions options;
  if (args.has("--path")) options.directory = std::string(args.value("--path"));
  options.read_only = read_only;
  return cache::ShaderCache::open(options);
}

std::filesystem::path directory_of(const cache::ShaderCache& cache) {
  return std::filesystem::path(cache.file_path()).parent_path();
}

int print_stats(cache::ShaderCache& cache) {
  const cache::CacheStats s = cache.stats();
  std::uint64_t driver_bytes = 0;
  const auto driver_caches = cache::list_driver_caches(directory_of(cache));
  for (const cache::DriverCacheFile& file : driver_caches) driver_bytes += file.bytes;
  std::printf("path: %s\n", cache.file_path().c_str());
  std::printf("entries: %llu\n", static_cast<unsigned long long>(s.entries));
  std::printf("stale_entries: %llu\n", static_cast<unsigned long long>(s.stale_entries));
  std::printf("pipelines: %llu\n", static_cast<unsigned long long>(s.pipelines));
  std::printf("driver_caches: %zu\n", driver_caches.size());
  std::printf("driver_cache_bytes: %llu\n", static_cast<unsigned long long>(driver_bytes));
  std::printf("bytes: %llu\n", static_cast<unsigned long long>(s.file_bytes));
  std::printf("live_bytes: %llu\n", static_cast<unsigned long long>(s.live_bytes));
  std::printf("dead_bytes: %llu\n", static_cast<unsigned long long>(s.dead_bytes));
  std::printf("max_bytes: %llu\n", static_cast<unsigned long long>(s.max_bytes));
  std::printf("codegen_version: %u\n", s.codegen_version);
  std::string versions;
  for (const auto& [version, count] : s.versions)
    versions +=
        (versions.empty() ? "" : " ") + std::to_string(version) + "=" + std::to_string(count);
  std::printf("versions: %s\n", versions.empty() ? "none" : versions.c_str());
  return kExitOk;
}

int run_verify(cache::ShaderCache& cache) {
  const cache::VerifyReport report = cache.verify();
  std::size_t bad_driver_caches = 0;
  for (const cache::DriverCacheFile& file : cache::list_driver_caches(directory_of(cache)))
    bad_driver_caches += !file.valid;
  std::printf("records: %llu\n", static_cast<unsigned long long>(report.records));
  std::printf("pipeline_records: %llu\n", static_cast<unsigned long long>(report.pipelines));
  std::printf("file_header: %s\n", report.file_header_ok ? "ok" : "invalid");
  std::printf("corrupt_spans: %llu\n", static_cast<unsigned long long>(report.corrupt_spans));
  std::printf("corrupt_bytes: %llu\n", static_cast<unsigned long long>(report.corrupt_bytes));
  std::printf("corrupt_driver_caches: %zu\n", bad_driver_caches);
  const bool ok = report.ok() && bad_driver_caches == 0;
  std::printf("result: %s\n", ok ? "ok" : "corrupt");
  return ok ? kExitOk : fail(cache.file_path(), "corrupt records found (run 'kiln cache compact')");
}

void collect_files(const std::filesystem::path& root, std::vector<std::filesystem::path>& out) {
  std::error_code ec;
  if (std::filesystem::is_regular_file(root, ec)) {
    out.push_back(root);
    return;
  }
  for (auto it = std::filesystem::recursive_directory_iterator(
           root, std::filesystem::directory_options::skip_permission_denied, ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec))
    if (it->is_regular_file(ec)) out.push_back(it->path());
}

struct WarmCounts {
  std::atomic<std::uint64_t> translated{0}, already{0}, rejected{0}, skipped{0}, unreadable{0};
};

int run_warm(cache::ShaderCache& cache, const ParsedArgs& args) {
  if (args.has("--rebuild")) {
    bench::Progress progress("kiln cache warm: rebuilding", 0);
    const cache::RebuildReport report = cache::rebuild_stale_entries(
        cache, cache::default_translate_function(),
        [&](std::size_t done, std::size_t total) { progress.update(done, total); });
    progress.finish();
    std::printf("stale: %llu\n", static_cast<unsigned long long>(report.stale));
    std::printf("rebuilt: %llu\n", static_cast<unsigned long long>(report.translated));
    std::printf("rejected: %llu\n", static_cast<unsigned long long>(report.rejected));
    std::printf("unreadable: %llu\n", static_cast<unsigned long long>(report.unreadable));
  }
  std::vector<std::filesystem::path> files;
  for (std::size_t i = 1; i < args.positional().size(); ++i) {
    const std::filesystem::path root(std::string(args.positional()[i]));
    std::error_code ec;
    if (!std::filesystem::exists(root, ec)) return fail(root.string(), "no such file or directory");
    collect_files(root, files);
  }
  if (files.empty()) return kExitOk;
  std::sort(files.begin(), files.end());

  WarmCounts counts;
  std::atomic<std::size_t> next{0};
  bench::Progress progress("kiln cache warm:", files.size());
  const TranslateOptions options;
  auto worker = [&] {
    Translator translator;
    std::vector<std::uint8_t> bytes;
    for (std::size_t i; (i = next.fetch_add(1)) < files.size();) {
      if (!read_file(files[i].string(), bytes)) {
        ++counts.unreadable;
      } else if (const ShaderInput input = read_shader_input(bytes);
                 input.info.kind != InputKind::Dxbc && input.info.kind != InputKind::D3D9) {
        ++counts.skipped; // sidecars, manifests, DXIL, effects: not translatable bytecode
      } else {
        const TranslationKey key = cache.key_for(bytes, options);
        TranslateResult result;
        if (cache.lookup(key, result)) {
          ++counts.already;
        } else if (translator.translate(input, options, result)) {
          cache.insert(key, bytes, options, result);
          ++counts.translated;
        } else {
          ++counts.rejected;
        }
      }
      progress.advance();
    }
  };
  const unsigned threads = std::max(1u, std::min(std::thread::hardware_concurrency(), 16u));
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (std::thread& thread : pool) thread.join();
  progress.finish();

  std::printf("files: %zu\n", files.size());
  std::printf("translated: %llu\n", static_cast<unsigned long long>(counts.translated.load()));
  std::printf("already_cached: %llu\n", static_cast<unsigned long long>(counts.already.load()));
  std::printf("rejected: %llu\n", static_cast<unsigned long long>(counts.rejected.load()));
  std::printf("skipped: %llu\n", static_cast<unsigned long long>(counts.skipped.load()));
  std::printf("unreadable: %llu\n", static_cast<unsigned long long>(counts.unreadable.load()));
  return kExitOk;
}

} // namespace

const CommandSpec k_cache_spec = {
    .name = "cache",
    .usage = "stats|verify|compact|clear|warm [--path DIR] [PATH...]",
    .summary = "inspect, check, compact, clear or pre-fill the on-disk shader cache",
    .details =
        "stats    entries, pipelines, driver caches, bytes, codegen versions (key: value lines)\n"
        "verify   check every record; exit 1 on corruption\n"
        "compact  rewrite without dead or retired records; drop damaged driver caches\n"
        "clear    remove every entry, pipeline record and driver cache\n"
        "warm     translate every shader under PATH... into the cache\n"
        "         (--rebuild: re-translate entries of other codegen versions)\n"
        "The cache file may be shared with running games: every action is safe while\n"
        "other processes use it. KILN_CACHE=0 does not apply to this command.",
    .options = kOptions,
    .min_positional = 1,
    .max_positional = SIZE_MAX,
};

int run_cache(const ParsedArgs& args) {
  const std::string_view action = args.positional()[0];
  bool known = false;
  for (std::string_view candidate : kActions) known |= candidate == action;
  if (!known)
    return usage_error("unknown cache action '" + std::string(action) +
                       "' (stats, verify, compact, clear, warm)");
  if (action != "warm" && args.positional().size() > 1)
    return usage_error("cache " + std::string(action) + " takes no PATH");
  if (action == "warm" && args.positional().size() < 2 && !args.has("--rebuild"))
    return usage_error("cache warm needs PATH... or --rebuild");
  if (action != "warm" && args.has("--rebuild"))
    return usage_error("--rebuild goes with cache warm");

  const bool read_only = action == "stats" || action == "verify";
  auto opened = open_cache(args, read_only);
  if (!opened) return fail("cache", opened.status().message());
  const std::unique_ptr<cache::ShaderCache> cache = std::move(opened).value();

  if (action == "stats") return print_stats(*cache);
  if (action == "verify") return run_verify(*cache);
  if (!cache->writable()) return fail(cache->file_path(), "the cache is not writable");
  if (action == "compact" || action == "clear") {
    const std::uint64_t before = cache->stats().file_bytes;
    if (Status status = action == "compact" ? cache->compact() : cache->clear(); !status)
      return fail(cache->file_path(), status.message());
    // Driver caches: compact drops damaged ones, clear all of them.
    for (const cache::DriverCacheFile& file : cache::list_driver_caches(directory_of(*cache))) {
      std::error_code ec;
      if (action == "clear" || !file.valid) std::filesystem::remove(file.path, ec);
    }
    std::printf("bytes_before: %llu\n", static_cast<unsigned long long>(before));
    std::printf("bytes_after: %llu\n", static_cast<unsigned long long>(cache->stats().file_bytes));
    return kExitOk;
  }
  return run_warm(*cache, args);
}

} // namespace kiln::cli
