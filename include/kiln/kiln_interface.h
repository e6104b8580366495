/* kiln: the interface description, the layer's side of how a shader meets its pipelines.
 *
 * Included by kiln.h; C (C99 and later) and C++. docs/abi.md ("The interface description") has
 * the contract and a worked example. A layer chains a kiln_interface_info to kiln_submit_info
 * (or to kiln_context_create_info, as the default of every submission of that context) and
 * kiln translates for exactly that interface:
 * - where each D3D register lands: descriptor set, binding and array element (bindings), or a
 *   push-constant range (push_constant_buffers), or a combined image/sampler binding;
 * - the form of raw, structured and typed buffer views and of UAV counters;
 * - the SPIR-V features it may use (extensions), dual-source blending, output swizzles;
 * - render-state parameters (alpha test, fog, clip planes, point size, ...), each an immediate
 *   value or a specialization constant, the layer's choice;
 * - D3D9 linkage: which location each vertex-shader output / pixel-shader input semantic uses;
 * - stream output (kiln_stream_output_info, chained to the interface);
 * - D3D11 class linkage: where the class-instance selection is read (kiln_class_linkage_info,
 *   chained to the interface), or the selection itself.
 * A register the shader uses that the interface does not cover fails the shader with a
 * one-line reason naming the register; nothing is silently defaulted. With no interface,
 * kiln's own model applies (docs/pipeline.md, "Binding model").
 *
 * Everything is copied during kiln_submit (or kiln_context_create); the interface is part of
 * the translation key, so the same bytecode under two interfaces is two translations and two
 * cache entries (specialization-constant parameters key by their ids, not their values).
 */
#ifndef KILN_KILN_INTERFACE_H
#define KILN_KILN_INTERFACE_H

#include <stdint.h>

#include "kiln/kiln.h" /* kiln_structure_type, kiln_shader_stage */

#ifdef __cplusplus
extern "C" {
#endif

/* Visibility masks: bit (1 << kiln_shader_stage), e.g. KILN_STAGE_BIT(KILN_STAGE_PIXEL).
 * 0 means every stage. */
#define KILN_STAGE_BIT(stage) (1u << (uint32_t)(stage))
#define KILN_STAGES_ALL 0u

/* register_count of a range that covers every register from its first one on (SM5.1
 * unbounded arrays such as `Texture2D t[] : register(t0, space1)`). */
#define KILN_REGISTERS_UNBOUNDED 0xffffffffu

typedef enum kiln_descriptor_class {
  KILN_DESCRIPTOR_CBV = 0,     /* cb#: constant buffers */
  KILN_DESCRIPTOR_SRV = 1,     /* t#: shader resource views */
  KILN_DESCRIPTOR_UAV = 2,     /* u#: unordered access views */
  KILN_DESCRIPTOR_SAMPLER = 3, /* s# */
  KILN_DESCRIPTOR_CLASS_MAX_ENUM = 0x7fffffff
} kiln_descriptor_class;

typedef enum kiln_binding_flag {
  /* Which SRV/UAV flavour a range covers: buffers (typed, raw, structured) and/or images.
   * Neither bit: both. Ignored for CBVs and samplers. */
  KILN_BINDING_BUFFER = 0x1,
  KILN_BINDING_IMAGE = 0x2,
  /* The range is one binding holding a descriptor array: register r is array element
   * r - first_register of `binding`. Without it register r has its own binding,
   * binding + (r - first_register), except where the shader declares an SM5.1 register range:
   * that is one array binding at the binding of its first register. */
  KILN_BINDING_ARRAY = 0x4,
  KILN_BINDING_FLAG_MAX_ENUM = 0x7fffffff
} kiln_binding_flag;

/* How a raw or structured buffer view reaches the shader. Typed buffers are always texel
 * buffers (uniform texel buffer for SRVs, storage texel buffer for UAVs). */
typedef enum kiln_buffer_form {
  KILN_BUFFER_FORM_STORAGE_BUFFER = 0, /* VK_DESCRIPTOR_TYPE_STORAGE_BUFFER (default) */
  /* R32_UINT texel buffer: VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER for SRVs,
   * VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER for UAVs (as vkd3d and wined3d bind them). */
  KILN_BUFFER_FORM_TEXEL_BUFFER = 1,
  KILN_BUFFER_FORM_MAX_ENUM = 0x7fffffff
} kiln_buffer_form;

/* D3D registers [first_register, first_register + register_count) of one class and space,
 * visible to `stages`, at descriptor set `set` from binding `binding` on. Ranges must not
 * overlap for the same class, space, flavour and stage. */
typedef struct kiln_binding_range {
  kiln_descriptor_class register_class;
  uint32_t space;
  uint32_t first_register;
  uint32_t register_count; /* or KILN_REGISTERS_UNBOUNDED */
  uint32_t stages;         /* KILN_STAGE_BIT mask; 0: every stage */
  uint32_t flags;          /* kiln_binding_flag */
  kiln_buffer_form buffer_form;
  uint32_t set;
  uint32_t binding;
} kiln_binding_range;

/* A constant buffer read from push constants: cb`register_index` (space `space`) is the
 * `size` bytes at `offset` of the push-constant block. */
typedef struct kiln_push_constant_buffer {
  uint32_t space;
  uint32_t register_index;
  uint32_t stages; /* 0: every stage */
  uint32_t offset; /* bytes, a multiple of 4 */
  uint32_t size;   /* bytes */
} kiln_push_constant_buffer;

#define KILN_NO_SAMPLER 0xffffffffu /* sampler_index of reads without a sampler (ld, resinfo) */

/* An SRV sampled with a given sampler (or read with none) through one
 * VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER binding. Pairs listed here take precedence over
 * `bindings` for that SRV and sampler. Image SRVs only, one descriptor each (a buffer SRV or an
 * array needs a binding range). */
typedef struct kiln_combined_sampler {
  uint32_t resource_space;
  uint32_t resource_index;
  uint32_t sampler_space;
  uint32_t sampler_index; /* or KILN_NO_SAMPLER */
  uint32_t stages;        /* 0: every stage */
  uint32_t flags;         /* KILN_BINDING_BUFFER / KILN_BINDING_IMAGE, as in kiln_binding_range */
  uint32_t set;
  uint32_t binding;
} kiln_combined_sampler;

typedef enum kiln_counter_form {
  /* A storage buffer whose uint at `offset` is the counter. */
  KILN_COUNTER_FORM_STORAGE_BUFFER = 0,
  /* Element 0 of an R32_UINT storage texel buffer (as vkd3d binds counters). */
  KILN_COUNTER_FORM_STORAGE_TEXEL_BUFFER = 1,
  KILN_COUNTER_FORM_MAX_ENUM = 0x7fffffff
} kiln_counter_form;

/* Where the hidden counter of UAV u`register_index` (space `space`) lives. */
typedef struct kiln_uav_counter_binding {
  uint32_t space;
  uint32_t register_index;
  uint32_t stages; /* 0: every stage */
  kiln_counter_form form;
  uint32_t set;
  uint32_t binding;
  uint32_t offset; /* bytes; KILN_COUNTER_FORM_STORAGE_BUFFER only */
} kiln_uav_counter_binding;

/* Optional SPIR-V features. Under an interface kiln uses only those listed (and those core
 * in the context's target environment); what a shader needs beyond them takes the documented
 * fallback (docs/abi.md) or fails the shader naming the extension. */
typedef enum kiln_extension {
  KILN_EXTENSION_DEMOTE_TO_HELPER_INVOCATION = 1, /* VK_EXT_shader_demote_to_helper_invocation */
  KILN_EXTENSION_STENCIL_EXPORT = 2,              /* VK_EXT_shader_stencil_export */
  KILN_EXTENSION_VIEWPORT_INDEX_LAYER = 3,        /* VK_EXT_shader_viewport_index_layer */
  KILN_EXTENSION_FRAGMENT_SHADER_INTERLOCK = 4,   /* VK_EXT_fragment_shader_interlock */
  KILN_EXTENSION_FRAGMENT_FULLY_COVERED = 5,      /* VK_EXT_conservative_rasterization */
  KILN_EXTENSION_DESCRIPTOR_INDEXING = 6,         /* VK_EXT_descriptor_indexing */
  KILN_EXTENSION_TRANSFORM_FEEDBACK = 7,          /* VK_EXT_transform_feedback */
  KILN_EXTENSION_SHADER_DRAW_PARAMETERS = 8,      /* VK_KHR_shader_draw_parameters */
  KILN_EXTENSION_MAX_ENUM = 0x7fffffff
} kiln_extension;

/* Render-state parameters (docs/abi.md, "Parameters", gives each one's D3D9 render state,
 * units and default). X(NAME, value, data type). A parameter the layer does not pass has its
 * default; one that does not apply to the shader's stage or model is ignored. */
#define KILN_PARAMETER_LIST(X)                                                                     \
  X(RASTERIZER_SAMPLE_COUNT, 1, U32) /* SV_SampleCount; default 1 */                               \
  X(ALPHA_TEST_FUNC, 2, U32)         /* kiln_compare_func; default ALWAYS (no test) */             \
  X(ALPHA_TEST_REF, 3, F32)          /* [0, 1]; default 0 */                                       \
  X(FLAT_INTERPOLATION, 4, U32)      /* D3DSHADE_FLAT: COLOR inputs flat; default 0 */             \
  X(FOG_FRAGMENT_MODE, 5, U32)       /* kiln_fog_mode applied per pixel; default NONE */           \
  X(FOG_SOURCE, 6, U32)              /* kiln_fog_source; default FOG_OUTPUT */                     \
  X(FOG_COLOUR, 7, F32_VEC4)         /* D3DRS_FOGCOLOR; default (0, 0, 0, 0) */                    \
  X(FOG_START, 8, F32)               /* D3DRS_FOGSTART; default 0 */                               \
  X(FOG_END, 9, F32)                 /* D3DRS_FOGEND; default 1 */                                 \
  X(FOG_DENSITY, 10, F32)            /* D3DRS_FOGDENSITY; default 1 */                             \
  X(CLIP_PLANE_MASK, 11, U32)        /* D3DRS_CLIPPLANEENABLE; default 0 */                        \
  X(CLIP_PLANE_0, 12, F32_VEC4)      /* SetClipPlane(0); default (0, 0, 0, 0) */                   \
  X(CLIP_PLANE_1, 13, F32_VEC4)                                                                    \
  X(CLIP_PLANE_2, 14, F32_VEC4)                                                                    \
  X(CLIP_PLANE_3, 15, F32_VEC4)                                                                    \
  X(CLIP_PLANE_4, 16, F32_VEC4)                                                                    \
  X(CLIP_PLANE_5, 17, F32_VEC4)                                                                    \
  X(CLIP_PLANE_6, 18, F32_VEC4)                                                                    \
  X(CLIP_PLANE_7, 19, F32_VEC4)                                                                    \
  X(POINT_SIZE, 20, F32)             /* D3DRS_POINTSIZE; default 1 */                              \
  X(POINT_SIZE_MIN, 21, F32)         /* D3DRS_POINTSIZE_MIN; default 1 */                          \
  X(POINT_SIZE_MAX, 22, F32)         /* D3DRS_POINTSIZE_MAX; default 64 */                         \
  X(POINT_SPRITE, 23, U32)           /* D3DRS_POINTSPRITEENABLE; default 0 */                      \
  X(D3D9_TEXTURE_TYPES, 24, U32)     /* 2 bits per sampler: kiln_d3d9_texture_type; immediate */   \
  X(D3D9_PROJECTED_TEXTURES, 25, U32) /* bit per stage: D3DTTFF_PROJECTED (ps_1_x); default 0 */   \
  X(D3D9_BUMP_MATRIX_0, 26, F32_VEC4) /* D3DTSS_BUMPENVMAT00/01/10/11 of stage 0 */                \
  X(D3D9_BUMP_MATRIX_1, 27, F32_VEC4)                                                              \
  X(D3D9_BUMP_MATRIX_2, 28, F32_VEC4)                                                              \
  X(D3D9_BUMP_MATRIX_3, 29, F32_VEC4)                                                              \
  X(D3D9_BUMP_MATRIX_4, 30, F32_VEC4)                                                              \
  X(D3D9_BUMP_MATRIX_5, 31, F32_VEC4)                                                              \
  X(D3D9_BUMP_LUMINANCE_0, 32, F32_VEC4) /* (D3DTSS_BUMPENVLSCALE, LOFFSET, 0, 0) of stage 0 */    \
  X(D3D9_BUMP_LUMINANCE_1, 33, F32_VEC4)                                                           \
  X(D3D9_BUMP_LUMINANCE_2, 34, F32_VEC4)                                                           \
  X(D3D9_BUMP_LUMINANCE_3, 35, F32_VEC4)                                                           \
  X(D3D9_BUMP_LUMINANCE_4, 36, F32_VEC4)                                                           \
  X(D3D9_BUMP_LUMINANCE_5, 37, F32_VEC4)

typedef enum kiln_parameter_name {
#define KILN_PARAMETER_ENUM_(name, value, data_type) KILN_PARAMETER_##name = value,
  KILN_PARAMETER_LIST(KILN_PARAMETER_ENUM_)
#undef KILN_PARAMETER_ENUM_
  KILN_PARAMETER_NAME_MAX_ENUM = 0x7fffffff
} kiln_parameter_name;

typedef enum kiln_parameter_type {
  KILN_PARAMETER_TYPE_IMMEDIATE = 0, /* the value is folded into the module */
  /* The module reads a specialization constant the layer sets at pipeline creation (one
   * module serves every state). F32_VEC4 parameters use ids id, id + 1, id + 2, id + 3. */
  KILN_PARAMETER_TYPE_SPECIALIZATION_CONSTANT = 1,
  KILN_PARAMETER_TYPE_MAX_ENUM = 0x7fffffff
} kiln_parameter_type;

typedef enum kiln_parameter_data_type {
  KILN_PARAMETER_DATA_TYPE_U32 = 0,
  KILN_PARAMETER_DATA_TYPE_F32 = 1,
  KILN_PARAMETER_DATA_TYPE_F32_VEC4 = 2,
  KILN_PARAMETER_DATA_TYPE_MAX_ENUM = 0x7fffffff
} kiln_parameter_data_type;

typedef struct kiln_parameter {
  kiln_parameter_name name;
  kiln_parameter_type type;
  kiln_parameter_data_type data_type; /* must be the name's (KILN_PARAMETER_LIST) */
  union {
    uint32_t u32;
    float f32;
    float f32_vec4[4];
    uint32_t specialization_id; /* KILN_PARAMETER_TYPE_SPECIALIZATION_CONSTANT */
  } value;
} kiln_parameter;

/* Values of the parameters above, numbered as D3D9 numbers them. */
typedef enum kiln_compare_func {
  KILN_COMPARE_NEVER = 1,
  KILN_COMPARE_LESS = 2,
  KILN_COMPARE_EQUAL = 3,
  KILN_COMPARE_LESS_EQUAL = 4,
  KILN_COMPARE_GREATER = 5,
  KILN_COMPARE_NOT_EQUAL = 6,
  KILN_COMPARE_GREATER_EQUAL = 7,
  KILN_COMPARE_ALWAYS = 8,
  KILN_COMPARE_FUNC_MAX_ENUM = 0x7fffffff
} kiln_compare_func;

typedef enum kiln_fog_mode { /* D3DFOGMODE */
  KILN_FOG_NONE = 0,
  KILN_FOG_EXP = 1,
  KILN_FOG_EXP2 = 2,
  KILN_FOG_LINEAR = 3,
  KILN_FOG_MODE_MAX_ENUM = 0x7fffffff
} kiln_fog_mode;

typedef enum kiln_fog_source {
  KILN_FOG_SOURCE_FOG_OUTPUT = 0, /* the vertex shader's fog output (oFog / FOG semantic) */
  KILN_FOG_SOURCE_Z = 1,          /* the position's z (table fog, D3D9's default) */
  KILN_FOG_SOURCE_W = 2,          /* the position's w (w-fog) */
  KILN_FOG_SOURCE_MAX_ENUM = 0x7fffffff
} kiln_fog_source;

typedef enum kiln_d3d9_texture_type {
  KILN_D3D9_TEXTURE_2D = 0,
  KILN_D3D9_TEXTURE_3D = 1,
  KILN_D3D9_TEXTURE_CUBE = 2,
  KILN_D3D9_TEXTURE_TYPE_MAX_ENUM = 0x7fffffff
} kiln_d3d9_texture_type;

/* D3D9 linkage: the location of a vertex-shader output / pixel-shader input semantic.
 * Applies to D3D9 shaders only (DXBC stages link by register). */
typedef struct kiln_varying_location {
  uint32_t usage;       /* D3DDECLUSAGE: 5 TEXCOORD, 10 COLOR, 11 FOG, ... */
  uint32_t usage_index;
  uint32_t location;
} kiln_varying_location;

typedef struct kiln_interface_info {
  kiln_structure_type type; /* KILN_STRUCTURE_TYPE_INTERFACE_INFO */
  const void* next;         /* NULL or kiln_stream_output_info, ... */
  uint32_t binding_count;
  const kiln_binding_range* bindings;
  uint32_t push_constant_buffer_count;
  const kiln_push_constant_buffer* push_constant_buffers;
  uint32_t combined_sampler_count;
  const kiln_combined_sampler* combined_samplers;
  uint32_t uav_counter_count;
  const kiln_uav_counter_binding* uav_counters;
  uint32_t extension_count;
  const kiln_extension* extensions;
  uint32_t dual_source_blending; /* nonzero: o0/o1 are Location 0, Index 0/1 */
  /* Per render target, where each output component comes from: bits 8i..8i+7 of a swizzle
   * name the source component (0-3) of component i; NULL or 0x03020100 is the identity. */
  uint32_t output_swizzle_count;
  const uint32_t* output_swizzles;
  uint32_t parameter_count;
  const kiln_parameter* parameters;
  uint32_t varying_count; /* 0: kiln's own D3D9 varying table (docs/pipeline.md) */
  const kiln_varying_location* varyings;
} kiln_interface_info;

/* Stream output (D3D11 SO declarations, lowered to Vulkan transform feedback). Chained to
 * kiln_interface_info. */
typedef struct kiln_stream_output_element {
  uint32_t stream;
  const char* semantic_name; /* NULL: a gap of component_count components */
  uint32_t semantic_index;
  uint8_t component_index;
  uint8_t component_count;
  uint8_t output_slot; /* the transform feedback buffer */
} kiln_stream_output_element;

#define KILN_NO_RASTERIZED_STREAM 0xffffffffu

typedef struct kiln_stream_output_info {
  kiln_structure_type type; /* KILN_STRUCTURE_TYPE_STREAM_OUTPUT_INFO */
  const void* next;
  uint32_t element_count;
  const kiln_stream_output_element* elements;
  uint32_t buffer_stride_count; /* at most 4 */
  const uint32_t* buffer_strides; /* bytes */
  uint32_t rasterized_stream;     /* or KILN_NO_RASTERIZED_STREAM */
} kiln_stream_output_info;

/* D3D11 class linkage (dcl_interface / fcall / this): for each interface slot (fp# plus array
 * element, numbered as the shader numbers them) the function table the bound class instance
 * uses and its `this` data. docs/abi.md ("Class linkage") has the layout of the selection
 * buffer. Chained to kiln_interface_info; without it the selection is read from constant
 * buffer register KILN_CLASS_LINKAGE_DEFAULT_REGISTER of space 0. */
#define KILN_CLASS_LINKAGE_DEFAULT_SPACE 0u
#define KILN_CLASS_LINKAGE_DEFAULT_REGISTER 14u /* cb14: beyond D3D11's 14 API slots 0-13 */

typedef struct kiln_class_instance {
  uint32_t function_table; /* ft#: the instance's class's function table in this shader */
  /* The `this` register: constant buffer register, offset in that buffer (16-byte vectors),
   * first texture register, first sampler register (D3D11_CLASS_INSTANCE_DESC). */
  uint32_t this_data[4];
} kiln_class_instance;

typedef struct kiln_class_linkage_info {
  kiln_structure_type type; /* KILN_STRUCTURE_TYPE_CLASS_LINKAGE_INFO */
  const void* next;
  /* The constant buffer register the selection is read from at run time (per draw: changing
   * instances needs no new translation). It is placed like any cb register: a binding range
   * or a push-constant buffer of this interface (or kiln's own model without a binding map). */
  uint32_t selection_space;
  uint32_t selection_register;
  /* Nonzero: the selection is baked into the module instead (instances[i] for slot i; slots
   * past the count select function table 0 with zero `this` data) and no buffer is read. */
  uint32_t fixed_instance_count;
  const kiln_class_instance* fixed_instances;
} kiln_class_linkage_info;

#ifdef __cplusplus
}
#endif

#endif /* KILN_KILN_INTERFACE_H */
