#include "plugin/abi/abi_context.h"

#include "plugin/abi/abi_interface.h"

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace kiln::abi {

namespace {

constexpr std::uint64_t kMaxWarmFileBytes = 64ull << 20; // larger files are not shaders

std::string key_hex(const TranslationKey& key) {
  char text[33];
  std::snprintf(text, sizeof text, "%016" PRIx64 "%016" PRIx64, key.high, key.low);
  return text;
}

bool write_file(const std::filesystem::path& path, const void* data, std::size_t size) {
  std::FILE* file = std::fopen(path.string().c_str(), "wb"); // c_str() is wchar_t on Windows
  if (!file) return false;
  const bool ok = std::fwrite(data, 1, size, file) == size;
  return std::fclose(file) == 0 && ok;
}

// KILN_SHADER_DUMP_PATH: the input as KEY.dxbc/KEY.d3d9 and, when translated, KEY.spv.
void dump_job(const kiln_context_t& context, const Job& job) {
  const std::string stem = key_hex(job.key);
  const std::filesystem::path dir(context.dump_directory);
  const char* extension = job.input.info.kind == InputKind::D3D9 ? ".d3d9" : ".dxbc";
  bool ok = write_file(dir / (stem + extension), job.bytecode.data(), job.bytecode.size());
  if (job.status)
    ok = ok && write_file(dir / (stem + ".spv"), job.result.spirv.data(),
                          job.result.spirv.size() * sizeof(std::uint32_t));
  if (!ok)
    context.logger.log(KILN_LOG_WARNING,
                       "could not write dumps of " + stem + " to " + context.dump_directory);
}

void make_module(kiln_context_t& context, Job& job) {
  VkResult result = VK_SUCCESS;
  const VkShaderModule module = context.vulkan->create_module(job.result.spirv, result);
  if (module == VK_NULL_HANDLE) {
    context.logger.log(KILN_LOG_ERROR, "vkCreateShaderModule failed (VkResult " +
                                           std::to_string(int(result)) + ") for shader " +
                                           key_hex(job.key));
    return;
  }
  job.shader_module.store(std::uint64_t(module), std::memory_order_release);
}

// Runs on the thread that translated the job, before it is published.
void on_finished(kiln_context_t& context, Job& job) {
  if (!job.status)
    context.logger.log(KILN_LOG_WARNING,
                       "shader " + key_hex(job.key) + ": " + job.status.message());
  else if (context.vulkan)
    make_module(context, job);
  if (!context.dump_directory.empty()) dump_job(context, job);
}

void destroy_module(Job& job, void* context_pointer) {
  const auto& context = *static_cast<const kiln_context_t*>(context_pointer);
  if (const std::uint64_t module = job.shader_module.load(std::memory_order_acquire))
    context.vulkan->destroy_module(VkShaderModule(module));
}

kiln_result result_of(const Job& job) {
  switch (job.state.load(std::memory_order_acquire)) {
  case JobState::Queued:
  case JobState::Running:
    return KILN_NOT_READY;
  case JobState::Done:
    return KILN_SUCCESS;
  case JobState::Failed:
    return KILN_ERROR_TRANSLATION_FAILED;
  case JobState::Cancelled:
    return KILN_ERROR_CANCELLED;
  }
  return KILN_ERROR_TRANSLATION_FAILED;
}

bool target_from_c(kiln_target_environment target, SpirvTarget& out) {
  switch (target) {
  case KILN_TARGET_VULKAN_1_3:
    out = SpirvTarget::Vulkan13;
    return true;
  case KILN_TARGET_VULKAN_1_2:
    out = SpirvTarget::Vulkan12;
    return true;
  case KILN_TARGET_VULKAN_1_1:
    out = SpirvTarget::Vulkan11;
    return true;
  case KILN_TARGET_VULKAN_1_0:
    out = SpirvTarget::Vulkan10;
    return true;
  default:
    return false; // any other value a caller passes
  }
}

// Walks a `next` chain for a struct of `type`.
const void* find_in_chain(const void* next, kiln_structure_type type) {
  struct Header {
    kiln_structure_type type;
    const void* next;
  };
  for (int depth = 0; next && depth < 64; ++depth) {
    const auto* header = static_cast<const Header*>(next);
    if (header->type == type) return header;
    next = header->next;
  }
  return nullptr;
}

void open_cache(kiln_context_t& context, const kiln_context_create_info& info) {
  if (info.flags & KILN_CONTEXT_DISABLE_CACHE) return;
  cache::CacheOptions options;
  if (info.cache_path) {
    options.directory = info.cache_path;
  } else {
    if (!cache::cache_enabled_by_environment()) return;
    options.directory = cache::default_cache_directory();
    if (options.directory.empty()) {
      context.logger.log(KILN_LOG_WARNING, "no cache directory (set KILN_CACHE_PATH or HOME)");
      return;
    }
  }
  if (info.cache_max_bytes) options.max_bytes = info.cache_max_bytes;
  const Logger* logger = &context.logger;
  options.diagnostics = [logger](std::string_view message) {
    logger->log(KILN_LOG_WARNING, std::string("cache: ") + std::string(message));
  };
  auto opened = cache::ShaderCache::open(options);
  if (!opened) {
    context.logger.log(KILN_LOG_WARNING, "running without a cache: " + opened.status().message());
    return;
  }
  context.cache = std::move(opened).value();
  context.store = std::make_unique<CacheStore>(*context.cache);
}

// KILN_REPLAY_DRIVER_CACHE: a VkPipelineCache for the device, from the saved data when the
// file was written for this very device (checked by load_driver_cache).
void open_driver_cache(kiln_context_t& context, const kiln_pipeline_replay_info& replay) {
  if (!context.vulkan || !context.cache) {
    context.logger.log(KILN_LOG_WARNING,
                       "driver pipeline cache: needs a Vulkan device and a cache; not used");
    return;
  }
  if (Status status = context.vulkan->identity(VkPhysicalDevice(replay.physical_device),
                                               context.driver_identity);
      !status) {
    context.logger.log(KILN_LOG_WARNING, "driver pipeline cache: " + status.message());
    return;
  }
  std::vector<std::uint8_t> data;
  const std::filesystem::path directory =
      std::filesystem::path(context.cache->file_path()).parent_path();
  if (cache::load_driver_cache(directory, context.driver_identity, data))
    context.driver_cache_loaded_bytes = data.size();
  else
    data.clear();
  context.driver_cache = context.vulkan->create_pipeline_cache(data);
  if (context.driver_cache == VK_NULL_HANDLE) {
    context.driver_cache_loaded_bytes = 0;
    context.logger.log(KILN_LOG_WARNING, "driver pipeline cache: vkCreatePipelineCache failed");
  }
}

// Persists the driver pipeline cache (inside a quarter of the cache's size cap) and destroys it.
void save_driver_cache(kiln_context_t& context) {
  if (context.driver_cache == VK_NULL_HANDLE) return;
  std::vector<std::uint8_t> data;
  if (context.cache && context.cache->writable() &&
      context.vulkan->pipeline_cache_data(context.driver_cache, data)) {
    if (data.size() > context.cache->stats().max_bytes / 4) {
      context.logger.log(KILN_LOG_INFO, "driver pipeline cache: " + std::to_string(data.size()) +
                                            " bytes is over a quarter of the cache cap; not saved");
    } else if (Status status = cache::save_driver_cache(
                   std::filesystem::path(context.cache->file_path()).parent_path(),
                   context.driver_identity, data);
               !status) {
      context.logger.log(KILN_LOG_WARNING, "driver pipeline cache: " + status.message());
    }
  }
  context.vulkan->destroy_pipeline_cache(context.driver_cache);
  context.driver_cache = VK_NULL_HANDLE;
}

} // namespace

ShaderStage stage_from_c(kiln_shader_stage stage) {
  switch (stage) {
  case KILN_STAGE_VERTEX:
    return ShaderStage::Vertex;
  case KILN_STAGE_HULL:
    return ShaderStage::Hull;
  case KILN_STAGE_DOMAIN:
    return ShaderStage::Domain;
  case KILN_STAGE_GEOMETRY:
    return ShaderStage::Geometry;
  case KILN_STAGE_PIXEL:
    return ShaderStage::Pixel;
  case KILN_STAGE_COMPUTE:
    return ShaderStage::Compute;
  default:
    return ShaderStage::Count; // KILN_STAGE_ANY or an unknown value
  }
}

kiln_shader_stage stage_to_c(ShaderStage stage) {
  switch (stage) {
  case ShaderStage::Vertex:
    return KILN_STAGE_VERTEX;
  case ShaderStage::Hull:
    return KILN_STAGE_HULL;
  case ShaderStage::Domain:
    return KILN_STAGE_DOMAIN;
  case ShaderStage::Geometry:
    return KILN_STAGE_GEOMETRY;
  case ShaderStage::Pixel:
    return KILN_STAGE_PIXEL;
  case ShaderStage::Compute:
    return KILN_STAGE_COMPUTE;
  case ShaderStage::Count:
    break;
  }
  return KILN_STAGE_ANY;
}

kiln_result create_context(const kiln_context_create_info& info, kiln_context_t*& out,
                           TranslateFunction translate) {
  out = nullptr;
  auto context = std::make_unique<kiln_context_t>();
  context->logger = Logger(info.log_callback, info.log_user_data,
                           parse_log_level(std::getenv("KILN_LOG_LEVEL"), KILN_LOG_WARNING));
  if (!target_from_c(info.target, context->options.target)) {
    context->logger.log(KILN_LOG_ERROR,
                        "unknown target environment " + std::to_string(int(info.target)));
    return KILN_ERROR_UNSUPPORTED;
  }
  if (info.binding_model != KILN_BINDING_MODEL_REGISTER_CLASSES) {
    context->logger.log(KILN_LOG_ERROR,
                        "unknown binding model " + std::to_string(int(info.binding_model)));
    return KILN_ERROR_UNSUPPORTED;
  }
  if (const void* found = find_in_chain(info.next, KILN_STRUCTURE_TYPE_VULKAN_DEVICE_INFO)) {
    VulkanDevice device;
    if (Status status =
            VulkanDevice::load(*static_cast<const kiln_vulkan_device_info*>(found), device);
        !status) {
      context->logger.log(KILN_LOG_ERROR, status.message());
      return KILN_ERROR_VULKAN;
    }
    context->vulkan = device;
    context->cleanup = {&destroy_module, context.get()};
  }
  if (const void* found = find_in_chain(info.next, KILN_STRUCTURE_TYPE_INTERFACE_INFO)) {
    // The default interface of every submission that chains none.
    auto interface = std::make_shared<ShaderInterface>();
    if (Status status =
            interface_from_c(*static_cast<const kiln_interface_info*>(found), *interface);
        !status) {
      context->logger.log(KILN_LOG_ERROR, "context: " + status.message());
      return KILN_ERROR_INVALID_ARGUMENT;
    }
    context->options.interface = std::move(interface);
  }
  if (const char* dump = std::getenv("KILN_SHADER_DUMP_PATH"); dump && *dump) {
    std::error_code ec;
    std::filesystem::create_directories(dump, ec);
    context->dump_directory = dump;
  }
  open_cache(*context, info);

  ServiceOptions options;
  options.threads = info.thread_count;
  options.translate = std::move(translate);
  options.store = context->store.get();
  if (context->cache) options.codegen_version = context->cache->codegen_version();
  options.cleanup = context->vulkan ? &context->cleanup : nullptr;
  kiln_context_t* raw = context.get();
  options.on_finished = [raw](Job& job) { on_finished(*raw, job); };
  context->service = std::make_unique<CompileService>(options);

  if (context->cache)
    context->recorder = std::make_unique<PipelineRecorder>(*context->cache, context->logger);
  if (const void* found = find_in_chain(info.next, KILN_STRUCTURE_TYPE_PIPELINE_REPLAY_INFO)) {
    const auto& replay = *static_cast<const kiln_pipeline_replay_info*>(found);
    if (!replay.compile) {
      context->logger.log(KILN_LOG_ERROR, "pipeline replay info without a compile callback");
      return KILN_ERROR_INVALID_ARGUMENT;
    }
    if (replay.flags & KILN_REPLAY_DRIVER_CACHE) open_driver_cache(*context, replay);
    if (context->cache)
      context->replay = std::make_unique<PipelineReplay>(*context, replay);
    else
      context->logger.log(KILN_LOG_INFO, "pipeline replay: no cache, nothing to replay");
  }
  if (context->cache && context->cache->stats().stale_entries > 0) {
    context->rebuild_thread = std::thread([raw] {
      const std::size_t n = submit_stale_entries(*raw->service, *raw->cache, &raw->stop_rebuild);
      raw->stale_submitted.store(n, std::memory_order_relaxed);
      raw->logger.log(KILN_LOG_INFO,
                      "rebuilding " + std::to_string(n) + " cache entries of another kiln version");
    });
  }
  out = context.release();
  return KILN_SUCCESS;
}

void destroy_context(kiln_context_t* context) {
  context->stop_rebuild.store(true);
  if (context->replay) context->replay->stop();
  if (context->rebuild_thread.joinable()) context->rebuild_thread.join();
  context->service.reset(); // cancels queued jobs, finishes running ones (and replay builds)
  context->replay.reset();
  context->recorder.reset(); // writes the records still queued
  save_driver_cache(*context);
  context->store.reset();
  context->cache.reset();
  release_context(context);
}

void release_context(kiln_context_t* context) {
  if (context->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) delete context;
}

kiln_result submit(kiln_context_t& context, const ShaderInput& input, ShaderStage expected_stage,
                   Priority priority, std::uint32_t flags, const void* chain, kiln_shader_t*& out,
                   std::shared_ptr<const ShaderInterface> interface) {
  out = nullptr;
  if (!context.service) return KILN_ERROR_INVALID_ARGUMENT; // destroyed
  if (expected_stage != ShaderStage::Count) {
    ShaderStage stage = ShaderStage::Count;
    if (Status status = declared_stage(input, stage); !status) {
      context.logger.log(KILN_LOG_WARNING, "submit: " + status.message());
      return KILN_ERROR_INVALID_ARGUMENT;
    }
    if (stage != expected_stage) {
      context.logger.log(KILN_LOG_WARNING,
                         "submit: bytecode is a " + std::string(shader_stage_name(stage)) +
                             " shader, created as a " +
                             std::string(shader_stage_name(expected_stage)) + " shader");
      return KILN_ERROR_INVALID_ARGUMENT;
    }
  }
  TranslateOptions options = context.options;
  options.debug_names = (flags & KILN_SUBMIT_DEBUG_NAMES) != 0;
  if (interface) {
    options.interface = std::move(interface);
  } else if (const void* found = find_in_chain(chain, KILN_STRUCTURE_TYPE_INTERFACE_INFO)) {
    auto from_chain = std::make_shared<ShaderInterface>();
    if (Status status =
            interface_from_c(*static_cast<const kiln_interface_info*>(found), *from_chain);
        !status) {
      context.logger.log(KILN_LOG_WARNING, "submit: " + status.message());
      return KILN_ERROR_INVALID_ARGUMENT;
    }
    options.interface = std::move(from_chain);
  }
  JobRef job = (flags & KILN_SUBMIT_NOW) ? context.service->translate_now(input, options, priority)
                                         : context.service->submit(input, options, priority);
  out = make_shader_handle(context, std::move(job));
  return KILN_SUCCESS;
}

kiln_shader_t* make_shader_handle(kiln_context_t& context, JobRef job) {
  auto shader = std::make_unique<kiln_shader_t>();
  shader->job = std::move(job);
  context.refs.fetch_add(1, std::memory_order_relaxed);
  shader->context = &context;
  return shader.release();
}

kiln_result query(const kiln_shader_t& shader) {
  return result_of(*shader.job);
}

kiln_result wait(kiln_shader_t& shader, std::uint64_t timeout_ns) {
  const kiln_result now = result_of(*shader.job);
  if (now != KILN_NOT_READY) return now;
  CompileService* service = shader.context->service.get();
  if (!service) return now; // the context is gone; its jobs were all finalised then
  // Beyond a year is forever (and keeps steady_clock arithmetic from overflowing).
  const std::uint64_t limit = 365ull * 24 * 3600 * 1000000000ull;
  const auto timeout = std::chrono::nanoseconds(std::int64_t(std::min(timeout_ns, limit)));
  if (!service->wait(shader.job, timeout)) return KILN_TIMEOUT;
  return result_of(*shader.job);
}

// kiln.h's descriptor facts are the model's values (reflection.h), passed through unchanged.
static_assert(KILN_DESCRIPTOR_PUSH_CONSTANTS == ResourceBinding::PushConstant &&
              KILN_DESCRIPTOR_UAV_READ == ResourceBinding::UavRead &&
              KILN_DESCRIPTOR_UAV_COUNTER == ResourceBinding::UavCounter &&
              KILN_DESCRIPTOR_COMPARISON_SAMPLER == ResourceBinding::ComparisonSampler &&
              KILN_DESCRIPTOR_RAW_BUFFER == ResourceBinding::RawBuffer &&
              KILN_DESCRIPTOR_STRUCTURED_BUFFER == ResourceBinding::StructuredBuffer &&
              KILN_DESCRIPTOR_CLASS_INSTANCES == ResourceBinding::ClassInstances);
static_assert(KILN_RESOURCE_DIMENSION_TEXTURE_CUBEARRAY ==
                  int(ResourceDimension::TextureCubeArray) &&
              KILN_RESOURCE_DATA_DOUBLE == int(ResourceDataType::Double));

kiln_result get_reflection(kiln_shader_t& shader, kiln_reflection& out) {
  if (out.type != KILN_STRUCTURE_TYPE_REFLECTION) return KILN_ERROR_INVALID_ARGUMENT;
  const kiln_result state = result_of(*shader.job);
  if (state != KILN_SUCCESS) return state;
  const Reflection& reflection = shader.job->result.reflection;
  std::call_once(shader.reflection_once, [&] {
    shader.resources.reserve(reflection.resources.size());
    shader.resource_details.reserve(reflection.resources.size());
    for (const ResourceBinding& r : reflection.resources) {
      shader.resource_details.push_back({kiln_resource_dimension(r.dimension),
                                         kiln_resource_data_type(r.data_type), r.flags,
                                         r.structure_stride});
      if (r.flags & ResourceBinding::PushConstant) {
        shader.resources.push_back({std::uint32_t(r.register_class), r.space, r.register_index,
                                    r.size, KILN_DESCRIPTOR_TYPE_PUSH_CONSTANTS, 0, r.offset});
        continue;
      }
      shader.resources.push_back({std::uint32_t(r.register_class), r.space, r.register_index,
                                  r.array_size, r.descriptor_type, r.set, r.binding});
    }
    const auto convert = [](const std::vector<SignatureElement>& in,
                            std::vector<kiln_signature_element>& to) {
      to.reserve(in.size());
      for (const SignatureElement& e : in)
        to.push_back(
            {e.semantic.c_str(), e.semantic_index, e.location, e.component_mask, e.builtin});
    };
    convert(reflection.inputs, shader.inputs);
    convert(reflection.outputs, shader.outputs);
    const auto details = [](const std::vector<SignatureElement>& in,
                            std::vector<kiln_signature_element_details>& to) {
      to.reserve(in.size());
      for (const SignatureElement& e : in)
        to.push_back({e.system_value, std::uint32_t(e.component_type), e.register_index, e.mask,
                      e.used_mask, e.stream});
    };
    details(reflection.inputs, shader.input_details);
    details(reflection.outputs, shader.output_details);
  });
  for (auto* next = static_cast<kiln_reflection_details*>(out.next); next;) {
    if (next->type == KILN_STRUCTURE_TYPE_REFLECTION_DETAILS) {
      next->resources = shader.resource_details.data();
      next->inputs = shader.input_details.data();
      next->outputs = shader.output_details.data();
    }
    next = static_cast<kiln_reflection_details*>(next->next);
  }
  out.stage = stage_to_c(reflection.stage);
  out.resource_count = std::uint32_t(shader.resources.size());
  out.resources = shader.resources.data();
  out.input_count = std::uint32_t(shader.inputs.size());
  out.inputs = shader.inputs.data();
  out.output_count = std::uint32_t(shader.outputs.size());
  out.outputs = shader.outputs.data();
  return KILN_SUCCESS;
}

kiln_result get_shader_module(kiln_shader_t& shader, std::uint64_t& out) {
  out = 0;
  kiln_context_t& context = *shader.context;
  if (!context.vulkan) return KILN_ERROR_NO_DEVICE;
  const kiln_result state = result_of(*shader.job);
  if (state != KILN_SUCCESS) return state;
  Job& job = *shader.job;
  out = job.shader_module.load(std::memory_order_acquire);
  if (out) return KILN_SUCCESS;
  // A cache hit (finished at submit) or a failed creation on the worker: make it now, once.
  std::lock_guard lock(context.module_mutex);
  out = job.shader_module.load(std::memory_order_acquire);
  if (!out) {
    make_module(context, job);
    out = job.shader_module.load(std::memory_order_acquire);
  }
  return out ? KILN_SUCCESS : KILN_ERROR_VULKAN;
}

void release_shader(kiln_shader_t* shader) {
  if (shader->refs.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
  kiln_context_t* context = shader->context;
  delete shader; // drops the job reference first: its cleanup still needs the context
  release_context(context);
}

kiln_result warm_from_folder(kiln_context_t& context, const char* path, Priority priority,
                             std::uint32_t& submitted) {
  submitted = 0;
  if (!context.service) return KILN_ERROR_INVALID_ARGUMENT;
  std::error_code ec;
  std::filesystem::recursive_directory_iterator it(
      path, std::filesystem::directory_options::skip_permission_denied, ec);
  if (ec) {
    context.logger.log(KILN_LOG_ERROR,
                       std::string("warm: cannot read ") + path + ": " + ec.message());
    return KILN_ERROR_IO;
  }
  std::vector<std::uint8_t> bytes; // reused across files
  for (; it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) break;
    if (!it->is_regular_file(ec) || it->file_size(ec) > kMaxWarmFileBytes || ec) continue;
    std::ifstream file(it->path(), std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
    const ShaderInput input = read_shader_input(bytes);
    if (input.info.kind != InputKind::Dxbc && input.info.kind != InputKind::D3D9) continue;
    (void)context.service->submit(input, context.options, priority);
    ++submitted;
  }
  context.logger.log(KILN_LOG_INFO,
                     "warm: submitted " + std::to_string(submitted) + " shaders from " + path);
  return KILN_SUCCESS;
}

void get_stats(kiln_context_t& context, kiln_stats& out) {
  const ServiceStats s = context.service ? context.service->stats() : ServiceStats{};
  out.submitted = s.submitted;
  out.deduplicated = s.deduplicated;
  out.cache_hits = s.cache_hits;
  out.translated = s.translated;
  out.failed = s.failed;
  out.cancelled = s.cancelled;
  out.run_by_waiter = s.run_by_waiter;
  for (std::size_t i = 0; i < 3; ++i) out.queued[i] = s.queued[i];
  static_assert(sizeof out.time_histogram_us / sizeof out.time_histogram_us[0] ==
                std::tuple_size_v<decltype(s.time_histogram_us)>);
  std::copy(s.time_histogram_us.begin(), s.time_histogram_us.end(), out.time_histogram_us);
  out.thread_count = context.service ? context.service->thread_count() : 0;
  out.cache_enabled = context.cache != nullptr;
  out.stale_entries_submitted = context.stale_submitted.load(std::memory_order_relaxed);
}

} // namespace kiln::abi

namespace kiln::abi {

namespace {

constexpr std::uint32_t kMaxPipelineShaders = 8;
constexpr std::size_t kMaxPipelineStateBytes = 1u << 20;

// Checks a record info against `context`; logs and returns false when it is not usable.
bool check_record_info(const kiln_context_t& context, const kiln_pipeline_record_info& info,
                       const char* function) {
  std::string problem;
  if (info.type != KILN_STRUCTURE_TYPE_PIPELINE_RECORD_INFO)
    problem = "wrong structure type";
  else if (info.shader_count == 0 || info.shader_count > kMaxPipelineShaders || !info.shaders)
    problem = "shader_count must be 1 to 8, with shaders";
  else if (info.state_size > kMaxPipelineStateBytes || (info.state_size && !info.state))
    problem = "state must be at most 1 MiB and non-null when state_size is set";
  for (std::uint32_t i = 0; problem.empty() && i < info.shader_count; ++i)
    if (!info.shaders[i] || info.shaders[i]->context != &context)
      problem = "shader " + std::to_string(i) + " is not a handle of this context";
  if (problem.empty()) return true;
  context.logger.log(KILN_LOG_WARNING, std::string(function) + ": " + problem);
  return false;
}

TranslationKey key_of(const kiln_pipeline_record_info& info) {
  JobRef jobs[kMaxPipelineShaders];
  for (std::uint32_t i = 0; i < info.shader_count; ++i) jobs[i] = info.shaders[i]->job;
  return pipeline_key_of({jobs, info.shader_count},
                         {static_cast<const std::uint8_t*>(info.state), info.state_size},
                         info.format_tag);
}

} // namespace

kiln_result record_pipeline(kiln_context_t& context, const kiln_pipeline_record_info& info,
                            kiln_pipeline_key* out_key) {
  if (!check_record_info(context, info, "kiln_record_pipeline")) return KILN_ERROR_INVALID_ARGUMENT;
  const TranslationKey key = key_of(info);
  if (out_key) *out_key = {key.low, key.high};
  if (context.recorder)
    context.recorder->record(key, {info.shaders, info.shader_count},
                             {static_cast<const std::uint8_t*>(info.state), info.state_size},
                             info.format_tag);
  return KILN_SUCCESS;
}

kiln_result wait_pipeline(kiln_context_t& context, const kiln_pipeline_record_info& info,
                          std::uint64_t timeout_ns) {
  if (!check_record_info(context, info, "kiln_wait_pipeline")) return KILN_ERROR_INVALID_ARGUMENT;
  if (!context.replay) return KILN_NOT_REPLAYED;
  return context.replay->wait(key_of(info), timeout_ns);
}

void get_replay_status(const kiln_context_t& context, kiln_replay_status& out) {
  out.done = 1;
  out.total = out.built = out.failed = out.retired = out.run_by_waiter = 0;
  out.driver_cache_loaded_bytes = context.driver_cache_loaded_bytes;
  if (context.replay) context.replay->status(out);
}

} // namespace kiln::abi

namespace kiln::abi {

kiln_result get_pipeline_cache(const kiln_context_t& context, std::uint64_t& out) {
  out = std::uint64_t(context.driver_cache);
  return out ? KILN_SUCCESS : KILN_ERROR_UNSUPPORTED;
}

const char* result_name(kiln_result result) {
  switch (result) {
  case KILN_SUCCESS:
    return "KILN_SUCCESS";
  case KILN_NOT_READY:
    return "KILN_NOT_READY";
  case KILN_TIMEOUT:
    return "KILN_TIMEOUT";
  case KILN_NOT_REPLAYED:
    return "KILN_NOT_REPLAYED";
  case KILN_ERROR_INVALID_ARGUMENT:
    return "KILN_ERROR_INVALID_ARGUMENT";
  case KILN_ERROR_OUT_OF_MEMORY:
    return "KILN_ERROR_OUT_OF_MEMORY";
  case KILN_ERROR_UNSUPPORTED:
    return "KILN_ERROR_UNSUPPORTED";
  case KILN_ERROR_TRANSLATION_FAILED:
    return "KILN_ERROR_TRANSLATION_FAILED";
  case KILN_ERROR_CANCELLED:
    return "KILN_ERROR_CANCELLED";
  case KILN_ERROR_VULKAN:
    return "KILN_ERROR_VULKAN";
  case KILN_ERROR_IO:
    return "KILN_ERROR_IO";
  case KILN_ERROR_NO_DEVICE:
    return "KILN_ERROR_NO_DEVICE";
  case KILN_ERROR_INTERNAL:
    return "KILN_ERROR_INTERNAL";
  default:
    return "KILN_RESULT_UNKNOWN";
  }
}

} // namespace kiln::abi
