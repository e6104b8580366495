#include "plugin/vkd3d_shader/library.h"

#include "plugin/vkd3d_shader/scan.h"
#include "plugin/vkd3d_shader/shared_object.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace kiln::vkd3d {

namespace {

bool env_is(const char* name, const char* value) {
  const char* set = std::getenv(name);
  return set && std::strcmp(set, value) == 0;
}

// The stages KILN_VKD3D_SHADER_FORWARD names: a comma-separated list of vs, hs, ds, gs, ps, cs.
// A name it does not know is reported once on stderr and ignored.
StageMask forced_stages_from_environment() {
  const char* set = std::getenv("KILN_VKD3D_SHADER_FORWARD");
  StageMask mask = 0;
  if (!set) return mask;
  std::string_view list = set;
  while (!list.empty()) {
    const std::size_t comma = list.find(',');
    const std::string_view name = list.substr(0, comma);
    list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
    if (name.empty()) continue;
    bool known = false;
    for (std::uint32_t s = 0; s < std::uint32_t(ShaderStage::Count); ++s) {
      if (shader_stage_abbrev(ShaderStage(s)) != name) continue;
      mask |= stage_bit(ShaderStage(s));
      known = true;
    }
    if (!known)
      std::fprintf(stderr,
                   "kiln vkd3d-shader: KILN_VKD3D_SHADER_FORWARD: unknown stage '%.*s' "
                   "(vs, hs, ds, gs, ps, cs)\n",
                   int(name.size()), name.data());
  }
  return mask;
}

// Whether VKD3D_SHADER_COMPILE_OPTION_WRITE_TESS_GEOM_POINT_SIZE asks this shader for a point
// size: tessellation and geometry shaders (those whose outputs can be rasterized as points).
bool writes_point_size(ShaderStage stage) {
  return stage == ShaderStage::Hull || stage == ShaderStage::Domain ||
         stage == ShaderStage::Geometry;
}

} // namespace

Library& Library::instance() {
#if defined(_WIN32)
  // A DLL's static objects are destroyed in DllMain at process exit, after Windows has ended
  // every other thread: the service's destructor would wait for its workers forever. So the
  // DLL stays loaded for the life of the process (pinned, so the workers never outlive their
  // code) and its Library is never destroyed; only the stats line is printed at exit.
  static Library& library = []() -> Library& {
    pin_this_module();
    return *new Library;
  }();
  struct StatsAtExit {
    const Library& library;
    ~StatsAtExit() { library.print_stats_if_asked(); }
  };
  static const StatsAtExit at_exit{library};
#else
  static Library library;
#endif
  return library;
}

Library::Library() {
  if (cache::cache_enabled_by_environment()) {
    cache::CacheOptions options;
    options.directory = cache::default_cache_directory();
    if (!options.directory.empty()) {
      options.diagnostics = [](std::string_view message) {
        std::fprintf(stderr, "kiln vkd3d-shader: cache: %.*s\n", int(message.size()),
                     message.data());
      };
      auto opened = cache::ShaderCache::open(options);
      if (opened) {
        cache_ = std::move(opened).value();
        store_ = std::make_unique<CacheStore>(*cache_);
      } else {
        options.diagnostics("running without a cache: " + opened.status().message());
      }
    }
  }
  ServiceOptions options;
  // Every request is waited on at once, and a waited-on job runs on the waiting thread, so
  // the callers' own threads do the work; one worker is enough for the rest.
  options.threads = 1;
  options.store = store_.get();
  service_ = std::make_unique<CompileService>(options);
  forced_stages_ = forced_stages_from_environment();
}

Library::~Library() {
  service_.reset();
  print_stats_if_asked();
}

void Library::print_stats_if_asked() const {
  if (env_is("KILN_VKD3D_SHADER_STATS", "1")) std::fprintf(stderr, "%s\n", stats_line().c_str());
}

bool Library::compile(const vkd3d_shader_compile_info& info, vkd3d_shader_code& out) {
  CompileRequest request;
  ForwardReason reason = ForwardReason::Unavailable;
  if (!service_ || !read_compile_request(info, request, reason)) {
    count_forwarded(reason);
    return false;
  }
  const ShaderStage stage = request.stage;
  if (request.tess_geom_point_size && writes_point_size(stage)) {
    count_forwarded(ForwardReason::Option);
    return false;
  }
  // Counted only for requests kiln would serve: `forced` is what the knob took from kiln.
  if (stage != ShaderStage::Count && (forced_stages_ & stage_bit(stage))) {
    count_forwarded(ForwardReason::Forced);
    return false;
  }
  // Translated on this thread (no worker woken, none can take it first); an identical request
  // in flight on another thread is shared.
  JobRef job = service_->translate_now(request.input, request.options, Priority::High);
  if (job->state.load(std::memory_order_acquire) != JobState::Done) {
    count_forwarded(ForwardReason::Translation);
    return false;
  }
  const std::vector<std::uint32_t>& spirv = job->result.spirv;
  const std::size_t bytes = spirv.size() * sizeof(std::uint32_t);
  void* code = allocate(bytes);
  if (!code) {
    count_forwarded(ForwardReason::Unavailable);
    return false;
  }
  std::memcpy(code, spirv.data(), bytes);
  out.code = code;
  out.size = bytes;
  compiles_.by_kiln.fetch_add(1, std::memory_order_relaxed);
  return true;
}

bool Library::scan(const vkd3d_shader_compile_info& info) {
  ForwardReason reason = ForwardReason::Unavailable;
  if (!vkd3d::scan(*this, info, reason)) {
    scans_.count_forwarded(reason);
    return false;
  }
  scans_.by_kiln.fetch_add(1, std::memory_order_relaxed);
  return true;
}

void* Library::allocate(std::size_t bytes) {
  void* pointer = std::malloc(bytes ? bytes : 1);
  if (!pointer) return nullptr;
  std::lock_guard lock(allocations_mutex_);
  allocations_.insert(pointer);
  return pointer;
}

bool Library::release(const void* pointer) {
  {
    std::lock_guard lock(allocations_mutex_);
    if (allocations_.erase(pointer) == 0) return false;
  }
  std::free(const_cast<void*>(pointer));
  return true;
}

std::string Library::Counters::line(const char* noun) const {
  std::uint64_t total = 0;
  std::string reasons;
  for (std::size_t i = 0; i < forwarded.size(); ++i) {
    const std::uint64_t count = forwarded[i].load(std::memory_order_relaxed);
    if (!count) continue;
    total += count;
    if (!reasons.empty()) reasons += ", ";
    reasons += forward_reason_name(ForwardReason(i));
    reasons += " x" + std::to_string(count);
  }
  std::string line = std::to_string(requests.load()) + " " + noun + ", " +
                     std::to_string(by_kiln.load()) + " by kiln, " + std::to_string(total) +
                     " forwarded";
  if (!reasons.empty()) line += " (" + reasons + ")";
  return line;
}

std::string Library::stats_line() const {
  std::string line = "kiln vkd3d-shader: " + compiles_.line("compiles");
  if (scans_.requests.load() != 0) line += "; " + scans_.line("scans");
  return line;
}

} // namespace kiln::vkd3d
