#pragma once
// What the C ABI's opaque handles are: kiln_context (a compile service, the cache, the optional
// Vulkan device, the log) and kiln_shader (a reference to one job). The extern "C" functions
// (plugin/abi/kiln_abi.cpp, hooks/) are thin wrappers over the functions declared here, which never
// throw past their callers' catch blocks.
//
// Lifetime: a context is reference counted by the layer (one reference, dropped by
// kiln_context_destroy) and by every live shader handle, because a job's cleanup (destroying
// its VkShaderModule) needs the context's device table. Destroying the context stops the
// service at once; what handles still need stays until the last one is released.

#include "cache/shader_cache.h"
#include "kiln/kiln.h"
#include "plugin/abi/abi_log.h"
#include "plugin/abi/abi_vulkan.h"
#include "plugin/abi/pipeline_replay.h"
#include "plugin/service/cache_store.h"
#include "plugin/service/service.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

struct kiln_context_t {
  std::atomic<std::uint32_t> refs{1};
  kiln::abi::Logger logger;
  kiln::TranslateOptions options;
  std::optional<kiln::abi::VulkanDevice> vulkan;
  std::mutex module_mutex; // creating a module for a cache hit, after submit
  kiln::JobCleanup cleanup;
  std::string dump_directory; // $KILN_SHADER_DUMP_PATH; empty: no dumps

  std::unique_ptr<kiln::cache::ShaderCache> cache;
  std::unique_ptr<kiln::CacheStore> store;
  std::unique_ptr<kiln::CompileService> service;
  std::atomic<bool> stop_rebuild{false};
  std::atomic<std::uint64_t> stale_submitted{0};
  std::thread rebuild_thread; // submits stale cache entries at Low priority after open
  // Pipeline records (with a cache) and their replay (with a kiln_pipeline_replay_info).
  std::unique_ptr<kiln::abi::PipelineRecorder> recorder;
  std::unique_ptr<kiln::abi::PipelineReplay> replay;
  // KILN_REPLAY_DRIVER_CACHE: the device's VkPipelineCache, saved at destroy.
  VkPipelineCache driver_cache = VK_NULL_HANDLE;
  kiln::cache::DriverCacheIdentity driver_identity;
  std::uint64_t driver_cache_loaded_bytes = 0;
};

struct kiln_shader_t {
  std::atomic<std::uint32_t> refs{1};
  kiln_context_t* context = nullptr; // holds one reference
  kiln::JobRef job;
  // The reflection in C layout, built on first request.
  std::once_flag reflection_once;
  std::vector<kiln_resource_binding> resources;
  std::vector<kiln_signature_element> inputs, outputs;
  std::vector<kiln_descriptor_details> resource_details;
  std::vector<kiln_signature_element_details> input_details, output_details;
};

namespace kiln::abi {

// kiln_result_string: the name of a result code, for the C ABI and the plugin's own messages.
const char* result_name(kiln_result result);

// `translate` replaces the translator (tests of the ABI's plumbing: Vulkan modules, dumps).
kiln_result create_context(const kiln_context_create_info& info, kiln_context_t*& out,
                           TranslateFunction translate = {});
void destroy_context(kiln_context_t* context);
void release_context(kiln_context_t* context);

// Submits `input` (read once on its way in, translator/shader_input.h; checked against
// `expected_stage` unless Count) and makes a handle; `flags`
// are KILN_SUBMIT_* (KILN_SUBMIT_NOW: translated on this thread before it returns). `chain`
// is the submit info's `next` chain: a kiln_interface_info there replaces the context's.
// `interface`, when given, replaces both (the hooks' stream-output declarations).
kiln_result submit(kiln_context_t& context, const ShaderInput& input, ShaderStage expected_stage,
                   Priority priority, std::uint32_t flags, const void* chain, kiln_shader_t*& out,
                   std::shared_ptr<const ShaderInterface> interface = nullptr);
// A new handle (one reference) to `job`; it holds a reference to the context.
kiln_shader_t* make_shader_handle(kiln_context_t& context, JobRef job);
kiln_result query(const kiln_shader_t& shader);
kiln_result wait(kiln_shader_t& shader, std::uint64_t timeout_ns);
kiln_result get_reflection(kiln_shader_t& shader, kiln_reflection& out);
kiln_result get_shader_module(kiln_shader_t& shader, std::uint64_t& out);
void release_shader(kiln_shader_t* shader);
kiln_result warm_from_folder(kiln_context_t& context, const char* path, Priority priority,
                             std::uint32_t& submitted);
void get_stats(kiln_context_t& context, kiln_stats& out);

// kiln_record_pipeline / kiln_wait_pipeline / kiln_get_replay_status, arguments checked.
kiln_result record_pipeline(kiln_context_t& context, const kiln_pipeline_record_info& info,
                            kiln_pipeline_key* out_key);
kiln_result wait_pipeline(kiln_context_t& context, const kiln_pipeline_record_info& info,
                          std::uint64_t timeout_ns);
void get_replay_status(const kiln_context_t& context, kiln_replay_status& out);
kiln_result get_pipeline_cache(const kiln_context_t& context, std::uint64_t& out);

// The C enum of a stage and back; Count for KILN_STAGE_ANY or an unknown value.
ShaderStage stage_from_c(kiln_shader_stage stage);
kiln_shader_stage stage_to_c(ShaderStage stage);

} // namespace kiln::abi
