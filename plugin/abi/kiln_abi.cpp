// The exported C ABI of libkiln.so (include/kiln/kiln.h): argument checks and exception walls
// over plugin/abi/abi_context.h. No exception crosses this boundary: each entry point logs what it
// caught and returns KILN_ERROR_OUT_OF_MEMORY for an allocation failure, KILN_ERROR_INTERNAL
// for anything else (abi::log_caught).

#include "kiln/kiln.h"
#include "kiln/kiln_hooks.h"
#include "plugin/abi/abi_context.h"

#include <cstring>
#include <new>

namespace {

// Runs `body` (returning kiln_result) behind the exception wall of entry point `entry`, logging
// what it caught through `logger` (the context's, or stderr's for calls without one).
template <typename Body>
kiln_result guarded(const char* entry, const kiln::abi::Logger& logger, Body&& body) noexcept {
  try {
    return body();
  } catch (...) {
    return kiln::abi::log_caught(logger, entry);
  }
}

// The log of a call that has no context yet (or no longer): stderr.
const kiln::abi::Logger kStderrLog;

kiln::Priority priority_from_c(kiln_priority priority, bool& ok) {
  ok = priority >= KILN_PRIORITY_HIGH && priority <= KILN_PRIORITY_LOW;
  return ok ? kiln::Priority(priority) : kiln::Priority::Normal;
}

} // namespace

extern "C" {

KILN_API uint32_t kiln_get_version(void) {
  return KILN_HEADER_VERSION;
}

KILN_API const char* kiln_result_string(kiln_result result) {
  return kiln::abi::result_name(result);
}

KILN_API kiln_vk_void_function kiln_get_proc_addr(const char* name) {
  if (!name) return nullptr;
  struct Entry {
    const char* name;
    kiln_vk_void_function function;
  };
  static const Entry kEntries[] = {
#define KILN_X(function) {#function, reinterpret_cast<kiln_vk_void_function>(&function)},
      KILN_CORE_FUNCTIONS(KILN_X) KILN_HOOK_FUNCTIONS(KILN_X)
#undef KILN_X
  };
  for (const Entry& entry : kEntries)
    if (std::strcmp(entry.name, name) == 0) return entry.function;
  return nullptr;
}

KILN_API kiln_result kiln_context_create(const kiln_context_create_info* info,
                                         kiln_context** out_context) {
  if (!out_context) return KILN_ERROR_INVALID_ARGUMENT;
  *out_context = nullptr;
  if (!info || info->type != KILN_STRUCTURE_TYPE_CONTEXT_CREATE_INFO)
    return KILN_ERROR_INVALID_ARGUMENT;
  return guarded("kiln_context_create", kStderrLog,
                 [&] { return kiln::abi::create_context(*info, *out_context); });
}

KILN_API void kiln_context_destroy(kiln_context* context) {
  if (!context) return;
  try {
    kiln::abi::destroy_context(context);
  } catch (...) {
    // Joining threads and freeing memory do not throw in practice; never let it escape. The
    // context may be half gone: its log is not used.
    kiln::abi::log_caught(kStderrLog, "kiln_context_destroy");
  }
}

KILN_API kiln_result kiln_submit(kiln_context* context, const kiln_submit_info* info,
                                 kiln_shader** out_shader) {
  if (!out_shader) return KILN_ERROR_INVALID_ARGUMENT;
  *out_shader = nullptr;
  if (!context || !info || info->type != KILN_STRUCTURE_TYPE_SUBMIT_INFO ||
      (!info->code && info->code_size))
    return KILN_ERROR_INVALID_ARGUMENT;
  if (info->expected_stage < KILN_STAGE_ANY || info->expected_stage > KILN_STAGE_COMPUTE)
    return KILN_ERROR_INVALID_ARGUMENT;
  bool priority_ok;
  const kiln::Priority priority = priority_from_c(info->priority, priority_ok);
  if (!priority_ok) return KILN_ERROR_INVALID_ARGUMENT;
  const std::span<const std::uint8_t> bytes(static_cast<const std::uint8_t*>(info->code),
                                            info->code_size);
  return guarded("kiln_submit", context->logger, [&] {
    return kiln::abi::submit(*context, kiln::read_shader_input(bytes),
                             kiln::abi::stage_from_c(info->expected_stage), priority, info->flags,
                             info->next, *out_shader);
  });
}

KILN_API kiln_result kiln_query(kiln_shader* shader) {
  if (!shader) return KILN_ERROR_INVALID_ARGUMENT;
  return kiln::abi::query(*shader);
}

KILN_API kiln_result kiln_wait(kiln_shader* shader, uint64_t timeout_ns) {
  if (!shader) return KILN_ERROR_INVALID_ARGUMENT;
  return guarded("kiln_wait", shader->context->logger,
                 [&] { return kiln::abi::wait(*shader, timeout_ns); });
}

KILN_API const char* kiln_shader_error(kiln_shader* shader) {
  if (!shader) return nullptr;
  const kiln_result state = kiln::abi::query(*shader);
  if (state == KILN_SUCCESS || state == KILN_NOT_READY) return nullptr;
  return shader->job->status.message().c_str();
}

KILN_API kiln_result kiln_get_spirv(kiln_shader* shader, const uint32_t** out_words,
                                    size_t* out_word_count) {
  if (!shader || !out_words || !out_word_count) return KILN_ERROR_INVALID_ARGUMENT;
  *out_words = nullptr;
  *out_word_count = 0;
  const kiln_result state = kiln::abi::query(*shader);
  if (state != KILN_SUCCESS) return state;
  *out_words = shader->job->result.spirv.data();
  *out_word_count = shader->job->result.spirv.size();
  return KILN_SUCCESS;
}

KILN_API kiln_result kiln_get_reflection(kiln_shader* shader, kiln_reflection* out) {
  if (!shader || !out) return KILN_ERROR_INVALID_ARGUMENT;
  return guarded("kiln_get_reflection", shader->context->logger,
                 [&] { return kiln::abi::get_reflection(*shader, *out); });
}

KILN_API kiln_result kiln_get_shader_module(kiln_shader* shader, uint64_t* out_module) {
  if (!shader || !out_module) return KILN_ERROR_INVALID_ARGUMENT;
  return guarded("kiln_get_shader_module", shader->context->logger,
                 [&] { return kiln::abi::get_shader_module(*shader, *out_module); });
}

KILN_API kiln_shader* kiln_shader_retain(kiln_shader* shader) {
  if (shader) shader->refs.fetch_add(1, std::memory_order_relaxed);
  return shader;
}

KILN_API void kiln_shader_release(kiln_shader* shader) {
  if (shader) kiln::abi::release_shader(shader);
}

KILN_API kiln_result kiln_warm_from_folder(kiln_context* context, const char* path,
                                           kiln_priority priority, uint32_t* out_submitted) {
  uint32_t submitted = 0;
  if (out_submitted) *out_submitted = 0;
  if (!context || !path) return KILN_ERROR_INVALID_ARGUMENT;
  bool priority_ok;
  const kiln::Priority service_priority = priority_from_c(priority, priority_ok);
  if (!priority_ok) return KILN_ERROR_INVALID_ARGUMENT;
  const kiln_result result = guarded("kiln_warm_from_folder", context->logger, [&] {
    return kiln::abi::warm_from_folder(*context, path, service_priority, submitted);
  });
  if (out_submitted) *out_submitted = submitted;
  return result;
}

KILN_API kiln_result kiln_get_stats(kiln_context* context, kiln_stats* out) {
  if (!context || !out || out->type != KILN_STRUCTURE_TYPE_STATS)
    return KILN_ERROR_INVALID_ARGUMENT;
  return guarded("kiln_get_stats", context->logger, [&] {
    kiln::abi::get_stats(*context, *out);
    return KILN_SUCCESS;
  });
}

KILN_API kiln_result kiln_record_pipeline(kiln_context* context,
                                          const kiln_pipeline_record_info* info,
                                          kiln_pipeline_key* out_key) {
  if (!context || !info) return KILN_ERROR_INVALID_ARGUMENT;
  return guarded("kiln_record_pipeline", context->logger,
                 [&] { return kiln::abi::record_pipeline(*context, *info, out_key); });
}

KILN_API kiln_result kiln_wait_pipeline(kiln_context* context,
                                        const kiln_pipeline_record_info* info,
                                        uint64_t timeout_ns) {
  if (!context || !info) return KILN_ERROR_INVALID_ARGUMENT;
  return guarded("kiln_wait_pipeline", context->logger,
                 [&] { return kiln::abi::wait_pipeline(*context, *info, timeout_ns); });
}

KILN_API kiln_result kiln_get_replay_status(kiln_context* context, kiln_replay_status* out) {
  if (!context || !out || out->type != KILN_STRUCTURE_TYPE_REPLAY_STATUS)
    return KILN_ERROR_INVALID_ARGUMENT;
  return guarded("kiln_get_replay_status", context->logger, [&] {
    kiln::abi::get_replay_status(*context, *out);
    return KILN_SUCCESS;
  });
}

KILN_API kiln_result kiln_get_pipeline_cache(kiln_context* context, uint64_t* out_cache) {
  if (!context || !out_cache) return KILN_ERROR_INVALID_ARGUMENT;
  return guarded("kiln_get_pipeline_cache", context->logger,
                 [&] { return kiln::abi::get_pipeline_cache(*context, *out_cache); });
}

} // extern "C"
