#pragma once
// The drop-in library's state: the real libvkd3d-shader it forwards to, kiln's compile service
// over the shared on-disk cache, the record of which allocations are kiln's, and the counters
// of the stats line. The vkd3d-shader API has no context object, so there is one Library per
// process, made on first use (instance()) and destroyed at exit, which prints the stats line
// when KILN_VKD3D_SHADER_STATS=1 (on Windows it lives until the process ends: library.cpp).

#include "cache/shader_cache.h"
#include "plugin/service/cache_store.h"
#include "plugin/service/service.h"
#include "plugin/vkd3d_shader/compile_request.h"
#include "plugin/vkd3d_shader/real_library.h"

#include <array>
#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_set>

namespace kiln::vkd3d {

class Library {
 public:
  static Library& instance();

  Library();
  ~Library();
  Library(const Library&) = delete;
  Library& operator=(const Library&) = delete;

  const RealLibrary& real() const { return real_; }

  // Translates a request kiln can honour; false (nothing allocated) when it cannot, with the
  // reason counted.
  bool compile(const vkd3d_shader_compile_info& info, vkd3d_shader_code& out);
  // Answers a vkd3d_shader_scan from kiln's reflection (scan.h); false when it cannot, with
  // the reason counted.
  bool scan(const vkd3d_shader_compile_info& info);
  void count_forwarded(ForwardReason reason) { compiles_.count_forwarded(reason); }
  void count_compile() { compiles_.requests.fetch_add(1, std::memory_order_relaxed); }
  void count_scan() { scans_.requests.fetch_add(1, std::memory_order_relaxed); }

  // Memory kiln handed out (SPIR-V code): freed here, everything else by the real library.
  void* allocate(std::size_t bytes);
  bool release(const void* pointer); // false: not kiln's

  // "kiln vkd3d-shader: N compiles, K by kiln, F forwarded (REASON xCOUNT, ...)", then, when
  // the process scanned, "; S scans, K by kiln, F forwarded (...)" alike.
  std::string stats_line() const;
  // stats_line() on stderr when KILN_VKD3D_SHADER_STATS=1.
  void print_stats_if_asked() const;

 private:
  RealLibrary real_;
  std::unique_ptr<cache::ShaderCache> cache_;
  std::unique_ptr<CacheStore> store_;
  std::unique_ptr<CompileService> service_;
  // Requests of one kind (compiles, scans): how many, how many kiln served, and why the others
  // went to the real library.
  struct Counters {
    std::atomic<std::uint64_t> requests{0};
    std::atomic<std::uint64_t> by_kiln{0};
    std::array<std::atomic<std::uint64_t>, std::size_t(ForwardReason::Count)> forwarded{};
    void count_forwarded(ForwardReason reason) {
      forwarded[std::size_t(reason)].fetch_add(1, std::memory_order_relaxed);
    }
    std::string line(const char* noun) const;
  };
  Counters compiles_, scans_;
  // KILN_VKD3D_SHADER_FORWARD=vs,ps,...: compiles of these stages that kiln would serve go to
  // the system library instead (reason `forced`), so that tests can build one pipeline from
  // both libraries. Read once, at construction; 0 when unset.
  StageMask forced_stages_ = 0;
  std::mutex allocations_mutex_;
  std::unordered_set<const void*> allocations_;
};

} // namespace kiln::vkd3d
