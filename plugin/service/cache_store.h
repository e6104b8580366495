#pragma once
// The on-disk cache as the compile service's ResultStore, and the background rebuild of entries
// another codegen version wrote (docs/cache.md, "Plugging it into the service").

#include "cache/shader_cache.h"
#include "plugin/service/service.h"

#include <atomic>
#include <cstddef>

namespace kiln {

class CacheStore final : public ResultStore {
 public:
  explicit CacheStore(cache::ShaderCache& cache) : cache_(cache) {}
  bool lookup(const TranslationKey& key, TranslateResult& out) override;
  void store(const TranslationKey& key, const Job& job) override;

 private:
  cache::ShaderCache& cache_;
};

// Submits every stale entry of `cache` (its stored source and options) to `service` at Low
// priority and drops the handles: each finished job's store() makes it a current entry. The
// service must key under cache.codegen_version(). Stops early when `stop` becomes true.
// Returns how many were submitted; unreadable entries are skipped.
std::size_t submit_stale_entries(CompileService& service, cache::ShaderCache& cache,
                                 const std::atomic<bool>* stop = nullptr);

} // namespace kiln
