/* kiln: D3D shader bytecode to SPIR-V, as a library a D3D-on-Vulkan layer loads with dlopen().
 *
 * This header is C (C99 and later) and C++. Every exported symbol starts with kiln_; a dlopen
 * user resolves kiln_get_proc_addr and gets the rest through it (PFN_kiln_* typedefs below).
 *
 * Conventions (docs/abi.md has the details, per function):
 * - Structs passed in carry a type tag (`type`) and a `next` pointer, as Vulkan and
 *   vkd3d-shader do: a struct kiln does not know in a `next` chain is skipped; a struct of a
 *   wrong type where one is required is KILN_ERROR_INVALID_ARGUMENT.
 * - Enums end with a *_MAX_ENUM member (as in Vulkan) so they are 32-bit and any value a
 *   caller passes is representable; kiln rejects values it does not know.
 * - Functions return kiln_result: KILN_SUCCESS (0), positive "not yet" statuses, negative errors.
 *   kiln_result_string() names each.
 * - Every pointer kiln returns (SPIR-V, reflection arrays, messages) is owned by kiln and stays
 *   valid until the handle it came from is released. The caller frees nothing but handles.
 * - No function throws, aborts or reads past the sizes it is given.
 */
#ifndef KILN_KILN_H
#define KILN_KILN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define KILN_MAKE_VERSION(major, minor, patch) (((major) << 22) | ((minor) << 12) | (patch))
#define KILN_VERSION_MAJOR(version) ((uint32_t)(version) >> 22)
#define KILN_HEADER_VERSION KILN_MAKE_VERSION(0, 3, 0)

/* kiln.dll exports what it builds with KILN_EXPORTS defined; a layer calls the functions
 * through kiln_get_proc_addr (GetProcAddress) or the import library libkiln.dll.a. */
#if defined(_WIN32) && defined(KILN_EXPORTS)
#define KILN_API __declspec(dllexport)
#elif defined(_WIN32)
#define KILN_API
#elif defined(__GNUC__)
#define KILN_API __attribute__((visibility("default")))
#else
#define KILN_API
#endif

typedef enum kiln_result {
  KILN_SUCCESS = 0,
  KILN_NOT_READY = 1,    /* the shader is still queued or translating */
  KILN_TIMEOUT = 2,      /* kiln_wait's timeout passed first */
  KILN_NOT_REPLAYED = 3, /* kiln_wait_pipeline: no replay of this pipeline; build it yourself */
  KILN_ERROR_INVALID_ARGUMENT = -1,
  KILN_ERROR_OUT_OF_MEMORY = -2,
  KILN_ERROR_UNSUPPORTED = -3,        /* a struct version, option or feature kiln lacks */
  KILN_ERROR_TRANSLATION_FAILED = -4, /* this shader only; kiln_shader_error says why */
  KILN_ERROR_CANCELLED = -5,          /* the context was destroyed before the shader ran */
  KILN_ERROR_VULKAN = -6,             /* a Vulkan call failed; the log says which */
  KILN_ERROR_IO = -7,                 /* a file or folder could not be read */
  KILN_ERROR_NO_DEVICE = -8,          /* a VkShaderModule was asked of a context without one */
  KILN_ERROR_INTERNAL = -9, /* kiln failed in a way it does not expect; the log says how */
  KILN_RESULT_MAX_ENUM = 0x7fffffff
} kiln_result;

typedef enum kiln_structure_type {
  KILN_STRUCTURE_TYPE_CONTEXT_CREATE_INFO = 1,
  KILN_STRUCTURE_TYPE_VULKAN_DEVICE_INFO = 2, /* chained to kiln_context_create_info */
  KILN_STRUCTURE_TYPE_SUBMIT_INFO = 3,
  KILN_STRUCTURE_TYPE_REFLECTION = 4,
  KILN_STRUCTURE_TYPE_STATS = 5,
  KILN_STRUCTURE_TYPE_INTERFACE_INFO = 6,     /* kiln_interface.h; chained to submit or context */
  KILN_STRUCTURE_TYPE_STREAM_OUTPUT_INFO = 7, /* kiln_interface.h; chained to the interface */
  KILN_STRUCTURE_TYPE_PIPELINE_RECORD_INFO = 8,
  KILN_STRUCTURE_TYPE_PIPELINE_REPLAY_INFO = 9, /* chained to kiln_context_create_info */
  KILN_STRUCTURE_TYPE_REPLAY_STATUS = 10,
  KILN_STRUCTURE_TYPE_CLASS_LINKAGE_INFO = 11, /* kiln_interface.h; chained to the interface */
  KILN_STRUCTURE_TYPE_REFLECTION_DETAILS = 12, /* chained to kiln_reflection (0.3) */
  KILN_STRUCTURE_TYPE_MAX_ENUM = 0x7fffffff
} kiln_structure_type;

/* The SPIR-V environment the output is valid for. */
typedef enum kiln_target_environment {
  KILN_TARGET_VULKAN_1_3 = 0, /* SPIR-V 1.6 (default) */
  KILN_TARGET_VULKAN_1_2 = 1, /* SPIR-V 1.5 */
  KILN_TARGET_VULKAN_1_1 = 2, /* SPIR-V 1.3 */
  KILN_TARGET_VULKAN_1_0 = 3, /* SPIR-V 1.0 */
  KILN_TARGET_MAX_ENUM = 0x7fffffff
} kiln_target_environment;

/* kiln's own binding model, used when no kiln_interface_info is given: set = register space,
 * binding = register * 5 + class (CBV 0, SRV 1, UAV 2, sampler 3, UAV counter 4: t0 is binding
 * 1, the counter of u2 binding 14); raw and structured buffers are storage buffers. A register
 * whose binding would be 65536 or more is rejected. The reflection lists every binding. With a
 * kiln_interface_info the layer's interface decides instead (kiln_interface.h). */
typedef enum kiln_binding_model {
  KILN_BINDING_MODEL_REGISTER_CLASSES = 0,
  KILN_BINDING_MODEL_MAX_ENUM = 0x7fffffff
} kiln_binding_model;

typedef enum kiln_shader_stage {
  KILN_STAGE_ANY = 0, /* in kiln_submit_info: accept whatever the bytecode is */
  KILN_STAGE_VERTEX = 1,
  KILN_STAGE_HULL = 2,
  KILN_STAGE_DOMAIN = 3,
  KILN_STAGE_GEOMETRY = 4,
  KILN_STAGE_PIXEL = 5,
  KILN_STAGE_COMPUTE = 6,
  KILN_STAGE_MAX_ENUM = 0x7fffffff
} kiln_shader_stage;

typedef enum kiln_priority {
  KILN_PRIORITY_HIGH = 0,   /* a draw is about to need it */
  KILN_PRIORITY_NORMAL = 1, /* just created by the game (default) */
  KILN_PRIORITY_LOW = 2,    /* pre-caching, rebuilds */
  KILN_PRIORITY_MAX_ENUM = 0x7fffffff
} kiln_priority;

typedef enum kiln_log_level {
  KILN_LOG_ERROR = 0,
  KILN_LOG_WARNING = 1,
  KILN_LOG_INFO = 2,
  KILN_LOG_DEBUG = 3,
  KILN_LOG_NONE = 4, /* as a threshold: nothing */
  KILN_LOG_LEVEL_MAX_ENUM = 0x7fffffff
} kiln_log_level;

/* Receives one line (no trailing newline) at or above the threshold ($KILN_LOG_LEVEL: error,
 * warn, info, debug or none; default warn). Called from any kiln thread, possibly several at
 * once; `message` is valid during the call only. */
typedef void (*kiln_log_callback)(void* user_data, kiln_log_level level, const char* message);

typedef struct kiln_context_t kiln_context;
typedef struct kiln_shader_t kiln_shader;

#define KILN_CONTEXT_DISABLE_CACHE 0x1u /* no on-disk cache, whatever the environment says */

typedef struct kiln_context_create_info {
  kiln_structure_type type; /* KILN_STRUCTURE_TYPE_CONTEXT_CREATE_INFO */
  const void* next;         /* NULL or a kiln_vulkan_device_info */
  uint32_t flags;           /* KILN_CONTEXT_* */
  uint32_t thread_count;    /* foreground workers; 0: $KILN_THREADS, else cores - 1, at least 1.
                               As many background workers (nice +10) run Low jobs. */
  /* NULL: $KILN_CACHE_PATH, else $XDG_CACHE_HOME/kiln, else ~/.cache/kiln (Windows:
   * %LOCALAPPDATA%\kiln); $KILN_CACHE=0 disables the default cache. UTF-8. Copied during the
   * call. */
  const char* cache_path;
  uint64_t cache_max_bytes; /* 0: 1 GiB */
  kiln_target_environment target;
  kiln_binding_model binding_model;
  kiln_log_callback log_callback; /* NULL: "kiln: LEVEL: message" on stderr */
  void* log_user_data;
} kiln_context_create_info;

/* Vulkan handles are passed as void* / uint64_t so this header needs no Vulkan headers:
 * VkInstance and VkDevice are pointers, VkShaderModule a 64-bit handle. */
typedef void (*kiln_vk_void_function)(void);
typedef kiln_vk_void_function (*kiln_vk_get_instance_proc_addr)(void* instance, const char* name);

/* With this in the create info's chain, kiln makes a VkShaderModule for every translated shader
 * on its worker threads. Device functions are loaded through `get_instance_proc_addr` (the
 * layer's vkGetInstanceProcAddr) into kiln's own table; no global loader state is touched. The
 * device must outlive the context and every shader handle. */
typedef struct kiln_vulkan_device_info {
  kiln_structure_type type; /* KILN_STRUCTURE_TYPE_VULKAN_DEVICE_INFO */
  const void* next;
  void* instance; /* VkInstance */
  void* device;   /* VkDevice */
  kiln_vk_get_instance_proc_addr get_instance_proc_addr;
} kiln_vulkan_device_info;

#define KILN_SUBMIT_DEBUG_NAMES 0x1u /* OpName/OpMemberName from the bytecode's reflection */
/* Translate on the calling thread before kiln_submit returns (a shader needed at once: created
 * at draw time, a synchronous API). The handle is final, and no worker thread is woken for it;
 * a cache hit or an identical shader already in flight is shared as usual. */
#define KILN_SUBMIT_NOW 0x2u

typedef struct kiln_submit_info {
  kiln_structure_type type; /* KILN_STRUCTURE_TYPE_SUBMIT_INFO */
  const void* next;
  const void* code; /* DXBC container or D3D9 token stream; copied before kiln_submit returns */
  size_t code_size; /* bytes */
  kiln_shader_stage expected_stage; /* KILN_STAGE_ANY, or the stage the bytecode must be */
  kiln_priority priority;
  uint32_t flags; /* KILN_SUBMIT_* */
} kiln_submit_info;

/* descriptor_type of a constant buffer the interface put in push constants: its `binding` is
 * its byte offset in the push-constant block, its `array_size` its size in bytes. */
#define KILN_DESCRIPTOR_TYPE_PUSH_CONSTANTS 0xffffffffu

typedef struct kiln_resource_binding {
  uint32_t register_class; /* 0 CBV, 1 SRV, 2 UAV, 3 sampler, 4 UAV counter, 5 push data */
  uint32_t space;
  uint32_t register_index;
  uint32_t array_size;      /* 0: unbounded */
  uint32_t descriptor_type; /* VkDescriptorType, or KILN_DESCRIPTOR_TYPE_PUSH_CONSTANTS */
  uint32_t set;
  uint32_t binding;
} kiln_resource_binding;

typedef struct kiln_signature_element {
  const char* semantic; /* "TEXCOORD" */
  uint32_t semantic_index;
  uint32_t location;
  uint32_t component_mask;
  uint32_t builtin; /* SpvBuiltIn, or 0xffffffff for a plain location */
} kiln_signature_element;

typedef struct kiln_reflection {
  kiln_structure_type type; /* KILN_STRUCTURE_TYPE_REFLECTION, set by the caller */
  void* next;
  kiln_shader_stage stage;
  uint32_t resource_count;
  const kiln_resource_binding* resources;
  uint32_t input_count;
  const kiln_signature_element* inputs;
  uint32_t output_count;
  const kiln_signature_element* outputs;
} kiln_reflection;

/* What layers scan beyond bindings (0.3): chain a kiln_reflection_details to kiln_reflection's
 * `next` and kiln_get_reflection fills its arrays too. They run parallel to the reflection's:
 * resources[i] describes kiln_reflection.resources[i], inputs[i] .inputs[i], outputs[i]
 * .outputs[i]. The facts are the bytecode's (DXBC: declarations, uses, ISGN/OSGN/PCSG); where
 * the bytecode has none (D3D9 signatures, push data) they are 0. */
typedef enum kiln_resource_dimension { /* vkd3d_shader_resource_type's values */
                                       KILN_RESOURCE_DIMENSION_NONE = 0, /* samplers, push data */
                                       KILN_RESOURCE_DIMENSION_BUFFER =
                                           1, /* constant, typed, raw and structured buffers */
                                       KILN_RESOURCE_DIMENSION_TEXTURE_1D = 2,
                                       KILN_RESOURCE_DIMENSION_TEXTURE_2D = 3,
                                       KILN_RESOURCE_DIMENSION_TEXTURE_2DMS = 4,
                                       KILN_RESOURCE_DIMENSION_TEXTURE_3D = 5,
                                       KILN_RESOURCE_DIMENSION_TEXTURE_CUBE = 6,
                                       KILN_RESOURCE_DIMENSION_TEXTURE_1DARRAY = 7,
                                       KILN_RESOURCE_DIMENSION_TEXTURE_2DARRAY = 8,
                                       KILN_RESOURCE_DIMENSION_TEXTURE_2DMSARRAY = 9,
                                       KILN_RESOURCE_DIMENSION_TEXTURE_CUBEARRAY = 10,
                                       KILN_RESOURCE_DIMENSION_MAX_ENUM = 0x7fffffff
} kiln_resource_dimension;

typedef enum kiln_resource_data_type { /* D3D_RESOURCE_RETURN_TYPE's values */
                                       KILN_RESOURCE_DATA_NONE =
                                           0, /* constant buffers, samplers, push data */
                                       KILN_RESOURCE_DATA_UNORM = 1,
                                       KILN_RESOURCE_DATA_SNORM = 2,
                                       KILN_RESOURCE_DATA_SINT = 3,
                                       KILN_RESOURCE_DATA_UINT =
                                           4, /* also raw and structured buffers */
                                       KILN_RESOURCE_DATA_FLOAT = 5,
                                       KILN_RESOURCE_DATA_MIXED = 6,
                                       KILN_RESOURCE_DATA_DOUBLE = 7,
                                       KILN_RESOURCE_DATA_MAX_ENUM = 0x7fffffff
} kiln_resource_data_type;

#define KILN_DESCRIPTOR_PUSH_CONSTANTS 0x1u     /* a constant buffer in push constants */
#define KILN_DESCRIPTOR_UAV_READ 0x2u           /* the shader reads the UAV (loads, atomics) */
#define KILN_DESCRIPTOR_UAV_COUNTER 0x4u        /* the shader uses the UAV's counter */
#define KILN_DESCRIPTOR_COMPARISON_SAMPLER 0x8u /* a sampler in comparison mode */
#define KILN_DESCRIPTOR_RAW_BUFFER 0x10u        /* a raw (byte address) buffer */
#define KILN_DESCRIPTOR_STRUCTURED_BUFFER 0x20u /* a structured buffer; see structure_stride */
#define KILN_DESCRIPTOR_CLASS_INSTANCES 0x40u   /* the class-linkage selection buffer (abi.md) */

typedef struct kiln_descriptor_details {
  kiln_resource_dimension dimension;
  kiln_resource_data_type data_type;
  uint32_t flags;            /* KILN_DESCRIPTOR_* */
  uint32_t structure_stride; /* bytes, for a structured buffer */
} kiln_descriptor_details;

typedef struct kiln_signature_element_details {
  uint32_t system_value;   /* D3D_NAME: 0 none, 1 position, ... 64 target, 65 depth */
  uint32_t component_type; /* D3D_REGISTER_COMPONENT_TYPE: 0 unknown, 1 uint, 2 sint, 3 float */
  uint32_t register_index; /* the bytecode's register */
  uint32_t mask;           /* components the element occupies */
  uint32_t used_mask;      /* inputs: components read; outputs: components not always written */
  uint32_t stream;         /* geometry shader output stream */
} kiln_signature_element_details;

typedef struct kiln_reflection_details {
  kiln_structure_type type; /* KILN_STRUCTURE_TYPE_REFLECTION_DETAILS, set by the caller */
  void* next;
  const kiln_descriptor_details* resources;      /* kiln_reflection.resource_count */
  const kiln_signature_element_details* inputs;  /* kiln_reflection.input_count */
  const kiln_signature_element_details* outputs; /* kiln_reflection.output_count */
} kiln_reflection_details;

typedef struct kiln_stats {
  kiln_structure_type type; /* KILN_STRUCTURE_TYPE_STATS, set by the caller */
  void* next;
  uint64_t submitted;
  uint64_t deduplicated; /* joined an identical shader in flight */
  uint64_t cache_hits;
  uint64_t translated;
  uint64_t failed;
  uint64_t cancelled;
  uint64_t run_by_waiter; /* translated on the thread that waited for it (or KILN_SUBMIT_NOW) */
  uint64_t queued[3];     /* approximate queue depths, by kiln_priority */
  /* translation time: bucket i counts shaders of [2^i, 2^(i+1)) microseconds (0: < 1 us) */
  uint64_t time_histogram_us[24];
  uint32_t thread_count; /* worker threads: foreground plus background */
  uint32_t cache_enabled;
  uint64_t stale_entries_submitted; /* cache entries of another codegen version rebuilt */
} kiln_stats;

/* ---- Pipeline records and replay (docs/abi.md, "Pipeline records"; docs/cache.md). */

/* A pipeline's identity: XXH3-128 over its shaders' translation keys, the format tag and the
 * state bytes. */
typedef struct kiln_pipeline_key {
  uint64_t low;
  uint64_t high;
} kiln_pipeline_key;

/* What the layer tells kiln about a pipeline it created (kiln_record_pipeline), or asks for
 * (kiln_wait_pipeline). */
typedef struct kiln_pipeline_record_info {
  kiln_structure_type type; /* KILN_STRUCTURE_TYPE_PIPELINE_RECORD_INFO */
  const void* next;
  /* The layer's format: which layer in the high 32 bits, the version of its state-bytes format
   * in the low 32. Records of the same layer with another version are retired at replay. */
  uint64_t format_tag;
  uint32_t shader_count;       /* 1 to 8 */
  kiln_shader* const* shaders; /* handles of this context, in the layer's stage order */
  const void* state;           /* the layer's pipeline-state bytes (its pipeline key), copied */
  size_t state_size;           /* at most 1 MiB */
} kiln_pipeline_record_info;

/* One shader of a replayed pipeline, as the compile callback receives it. */
typedef struct kiln_replay_stage {
  kiln_shader_stage stage;
  kiln_shader* shader;    /* translated; valid during the call: kiln_shader_retain to keep it */
  uint64_t shader_module; /* VkShaderModule owned by kiln (as kiln_get_shader_module) */
  const uint32_t* spirv;  /* owned by `shader` */
  size_t spirv_word_count;
} kiln_replay_stage;

typedef struct kiln_replay_pipeline {
  kiln_pipeline_key key; /* what kiln_record_pipeline returns for this pipeline now */
  uint64_t format_tag;
  uint32_t stage_count;
  const kiln_replay_stage* stages; /* in the order they were recorded */
  const void* state;               /* the recorded state bytes */
  size_t state_size;
  uint64_t use_count;      /* runs that recorded it */
  uint64_t pipeline_cache; /* VkPipelineCache with KILN_REPLAY_DRIVER_CACHE, else 0 */
} kiln_replay_pipeline;

/* Builds one replayed pipeline (and keeps it: kiln keeps nothing the layer makes). Called on a
 * kiln worker thread, or on a thread inside kiln_wait_pipeline, possibly several at once for
 * different pipelines; `pipeline` and everything it points to is valid during the call only.
 * Return KILN_SUCCESS when built; KILN_ERROR_UNSUPPORTED when the state bytes are not usable
 * any more (the record is retired and dropped by the next compaction); any other error is
 * logged and the record kept. Must not call kiln_context_destroy. */
typedef kiln_result (*kiln_pipeline_compile_callback)(void* user_data,
                                                      const kiln_replay_pipeline* pipeline);

/* kiln keeps a VkPipelineCache for the device, persisted in the cache directory (off by
 * default: most drivers keep their own disk cache, which an application cache can defeat).
 * Needs `physical_device` and a kiln_vulkan_device_info. */
#define KILN_REPLAY_DRIVER_CACHE 0x1u

/* Chained to kiln_context_create_info (with a cache): replays the records of `format_tag` at
 * the lowest priority, most used first. */
typedef struct kiln_pipeline_replay_info {
  kiln_structure_type type; /* KILN_STRUCTURE_TYPE_PIPELINE_REPLAY_INFO */
  const void* next;
  uint64_t format_tag;
  kiln_pipeline_compile_callback compile;
  void* user_data;
  uint32_t flags;        /* KILN_REPLAY_* */
  void* physical_device; /* VkPhysicalDevice of the device (KILN_REPLAY_DRIVER_CACHE) */
} kiln_pipeline_replay_info;

typedef struct kiln_replay_status {
  kiln_structure_type type; /* KILN_STRUCTURE_TYPE_REPLAY_STATUS, set by the caller */
  void* next;
  uint32_t done; /* every record of the tag has been handled (or there is no replay) */
  uint32_t reserved;
  uint64_t total;         /* records of the tag found at context creation */
  uint64_t built;         /* the callback returned KILN_SUCCESS */
  uint64_t failed;        /* the callback returned another error */
  uint64_t retired;       /* a shader no longer translates / unknown tag / KILN_ERROR_UNSUPPORTED */
  uint64_t run_by_waiter; /* built on a thread in kiln_wait_pipeline */
  uint64_t driver_cache_loaded_bytes; /* VkPipelineCache data loaded at creation (0: none) */
} kiln_replay_status;

/* ---- Functions. Thread safety: every function may be called from any thread at any time,
 * except that a handle must not be used during or after the call that destroys/releases it. */

/* The library's version, KILN_MAKE_VERSION encoded. */
KILN_API uint32_t kiln_get_version(void);
/* A static string naming `result` ("KILN_ERROR_INVALID_ARGUMENT"); never NULL. */
KILN_API const char* kiln_result_string(kiln_result result);
/* Any function of this header by name, or NULL. */
KILN_API kiln_vk_void_function kiln_get_proc_addr(const char* name);

/* Creates a context: worker threads, the cache, the optional Vulkan device. */
KILN_API kiln_result kiln_context_create(const kiln_context_create_info* info,
                                         kiln_context** out_context);
/* Cancels queued shaders, finishes running ones, joins the threads. Shader handles still held
 * stay valid (their results, modules and errors) until released. NULL is ignored. */
KILN_API void kiln_context_destroy(kiln_context* context);

/* Copies (or, on a cache hit, finishes at once) and returns a handle without waiting for the
 * translation. Identical submissions share one translation. A stage mismatch fails here
 * (KILN_ERROR_INVALID_ARGUMENT, logged); a shader kiln cannot translate fails its handle. */
KILN_API kiln_result kiln_submit(kiln_context* context, const kiln_submit_info* info,
                                 kiln_shader** out_shader);
/* KILN_SUCCESS (translated), KILN_NOT_READY, or the handle's error. Never blocks. */
KILN_API kiln_result kiln_query(kiln_shader* shader);
/* Waits at most `timeout_ns` (UINT64_MAX: forever). A shader still queued is translated on
 * the calling thread at once. KILN_SUCCESS, KILN_TIMEOUT, or the handle's error. */
KILN_API kiln_result kiln_wait(kiln_shader* shader, uint64_t timeout_ns);
/* The one-line reason a shader failed, or NULL. Owned by the handle. */
KILN_API const char* kiln_shader_error(kiln_shader* shader);
/* The SPIR-V words of a translated shader. Owned by the handle. KILN_NOT_READY before. */
KILN_API kiln_result kiln_get_spirv(kiln_shader* shader, const uint32_t** out_words,
                                    size_t* out_word_count);
/* Fills `out` (type set by the caller) and a kiln_reflection_details in its `next` chain; the
 * arrays are owned by the handle. Another struct in the chain is skipped. */
KILN_API kiln_result kiln_get_reflection(kiln_shader* shader, kiln_reflection* out);
/* The VkShaderModule kiln made for this shader (made now if it was a cache hit). Owned by kiln:
 * destroyed when the last handle to this translation is released; do not destroy it. */
KILN_API kiln_result kiln_get_shader_module(kiln_shader* shader, uint64_t* out_module);
/* Another reference to the same shader; each reference is released once. */
KILN_API kiln_shader* kiln_shader_retain(kiln_shader* shader);
/* Drops a reference; NULL is ignored. */
KILN_API void kiln_shader_release(kiln_shader* shader);

/* Submits every DXBC/D3D9 file under `path` (recursively) at `priority` into the cache, and
 * returns without waiting. `out_submitted` (may be NULL) gets the count. */
KILN_API kiln_result kiln_warm_from_folder(kiln_context* context, const char* path,
                                           kiln_priority priority, uint32_t* out_submitted);
/* Counters since the context was created; `out->type` set by the caller. */
KILN_API kiln_result kiln_get_stats(kiln_context* context, kiln_stats* out);

/* Records a pipeline the layer created, for replay at the next start. Cheap: the record is
 * written on a kiln thread; recording the same pipeline again in this context does nothing.
 * Call it for every pipeline the game uses (those replay built included): each context counts
 * one use. Without a cache nothing is stored. `out_key` (may be NULL) gets its key. */
KILN_API kiln_result kiln_record_pipeline(kiln_context* context,
                                          const kiln_pipeline_record_info* info,
                                          kiln_pipeline_key* out_key);
/* For a pipeline the layer needs now: if the replay has it queued, it is built on this thread
 * at once (its shaders translated here if needed: the wait takes the job, as kiln_wait does);
 * if it is being built, waits at most `timeout_ns`. KILN_SUCCESS: the callback built it (now or
 * earlier); KILN_NOT_REPLAYED: no replay of it (build it yourself); KILN_TIMEOUT; or the
 * error the callback or a shader gave. */
KILN_API kiln_result kiln_wait_pipeline(kiln_context* context,
                                        const kiln_pipeline_record_info* info, uint64_t timeout_ns);
/* The replay's progress; `out->type` set by the caller. */
KILN_API kiln_result kiln_get_replay_status(kiln_context* context, kiln_replay_status* out);
/* The context's VkPipelineCache (KILN_REPLAY_DRIVER_CACHE), for the pipelines the layer builds
 * itself; owned by kiln until kiln_context_destroy, which saves its data.
 * KILN_ERROR_UNSUPPORTED without one. */
KILN_API kiln_result kiln_get_pipeline_cache(kiln_context* context, uint64_t* out_cache);

typedef uint32_t (*PFN_kiln_get_version)(void);
typedef const char* (*PFN_kiln_result_string)(kiln_result);
typedef kiln_vk_void_function (*PFN_kiln_get_proc_addr)(const char*);
typedef kiln_result (*PFN_kiln_context_create)(const kiln_context_create_info*, kiln_context**);
typedef void (*PFN_kiln_context_destroy)(kiln_context*);
typedef kiln_result (*PFN_kiln_submit)(kiln_context*, const kiln_submit_info*, kiln_shader**);
typedef kiln_result (*PFN_kiln_query)(kiln_shader*);
typedef kiln_result (*PFN_kiln_wait)(kiln_shader*, uint64_t);
typedef const char* (*PFN_kiln_shader_error)(kiln_shader*);
typedef kiln_result (*PFN_kiln_get_spirv)(kiln_shader*, const uint32_t**, size_t*);
typedef kiln_result (*PFN_kiln_get_reflection)(kiln_shader*, kiln_reflection*);
typedef kiln_result (*PFN_kiln_get_shader_module)(kiln_shader*, uint64_t*);
typedef kiln_shader* (*PFN_kiln_shader_retain)(kiln_shader*);
typedef void (*PFN_kiln_shader_release)(kiln_shader*);
typedef kiln_result (*PFN_kiln_warm_from_folder)(kiln_context*, const char*, kiln_priority,
                                                 uint32_t*);
typedef kiln_result (*PFN_kiln_get_stats)(kiln_context*, kiln_stats*);
typedef kiln_result (*PFN_kiln_record_pipeline)(kiln_context*, const kiln_pipeline_record_info*,
                                                kiln_pipeline_key*);
typedef kiln_result (*PFN_kiln_wait_pipeline)(kiln_context*, const kiln_pipeline_record_info*,
                                              uint64_t);
typedef kiln_result (*PFN_kiln_get_replay_status)(kiln_context*, kiln_replay_status*);
typedef kiln_result (*PFN_kiln_get_pipeline_cache)(kiln_context*, uint64_t*);

/* Every function of kiln.h, for loaders: X(name). kiln_get_proc_addr answers exactly these
 * and those of kiln_hooks.h. */
#define KILN_CORE_FUNCTIONS(X)                                                                     \
  X(kiln_get_version)                                                                              \
  X(kiln_result_string)                                                                            \
  X(kiln_get_proc_addr)                                                                            \
  X(kiln_context_create)                                                                           \
  X(kiln_context_destroy)                                                                          \
  X(kiln_submit)                                                                                   \
  X(kiln_query)                                                                                    \
  X(kiln_wait)                                                                                     \
  X(kiln_shader_error)                                                                             \
  X(kiln_get_spirv)                                                                                \
  X(kiln_get_reflection)                                                                           \
  X(kiln_get_shader_module)                                                                        \
  X(kiln_shader_retain)                                                                            \
  X(kiln_shader_release)                                                                           \
  X(kiln_warm_from_folder)                                                                         \
  X(kiln_get_stats)                                                                                \
  X(kiln_record_pipeline)                                                                          \
  X(kiln_wait_pipeline)                                                                            \
  X(kiln_get_replay_status)                                                                        \
  X(kiln_get_pipeline_cache)

#ifdef __cplusplus
}
#endif

/* The interface description (bindings, push constants, stream output, parameters). */
#include "kiln/kiln_interface.h"

#endif /* KILN_KILN_H */
