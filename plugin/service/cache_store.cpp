#include "plugin/service/cache_store.h"

namespace kiln {

bool CacheStore::lookup(const TranslationKey& key, TranslateResult& out) {
  return cache_.lookup(key, out);
}

void CacheStore::store(const TranslationKey& key, const Job& job) {
  // false = not written (already there, writing stopped): the translation is still served.
  (void)cache_.insert(key, job.bytecode, job.options, job.result);
}

std::size_t submit_stale_entries(CompileService& service, cache::ShaderCache& cache,
                                 const std::atomic<bool>* stop) {
  std::size_t submitted = 0;
  std::vector<std::uint8_t> source; // reused across entries
  TranslateOptions options;
  for (const cache::StaleEntry& entry : cache.stale_entries()) {
    if (stop && stop->load(std::memory_order_relaxed)) break;
    if (!cache.read_source(entry, source, options)) continue;
    (void)service.submit(source, options, Priority::Low);
    ++submitted;
  }
  return submitted;
}

} // namespace kiln
