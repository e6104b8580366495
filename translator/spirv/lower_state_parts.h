#pragma once
// Internal to the SPIR-V backend: what a Lowering builds up over one shader, split by concern.
// Lowering::State (lower_state.h) is made of these parts; each part's clear() forgets one
// shader and keeps its buffers' capacity, so the reset between shaders allocates nothing.

#include "translator/ir/ir.h"
#include "translator/spirv/lower.h"
#include "translator/spirv/module_builder.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

namespace kiln::spirv {

// What a declaration became.
struct DeclInfo {
  enum class Kind : std::uint8_t {
    Input,
    Output,
    Cbv,
    Srv,
    Uav,
    Sampler,
    UavCounter,
    Lds,
    Scratch,
    PushData,
    Constant, // a constant array copied to a Private variable for ConstantLoad
  };
  Kind kind = Kind::Input;
  bool is_builtin = false;
  bool is_array = false; // descriptor array (count != 1)
  bool is_image = false; // typed resource: image or texel buffer
  // Raw/structured buffer in an R32_UINT texel buffer (the interface's TexelBuffer form): its
  // dwords are texels; `image_type` is the texel buffer's image type.
  bool texel_words = false;
  bool push_constant = false; // CBV read from the push-constant block (member `member`)
  bool texel_counter = false; // UAV counter in texel 0 of an R32_UINT storage texel buffer
  // An SRV image or sampler the interface combines (combined_samplers): no variable of its
  // own; each pair used gets one sampled-image variable (combined_image()).
  bool combined = false;
  std::uint32_t space = 0, register_index = 0; // CBV/SRV/UAV/sampler: the first register
  std::uint32_t array_base = 0;  // added to every descriptor index (KILN_BINDING_ARRAY ranges)
  std::uint32_t push_offset = 0; // push data / push CBV: byte offset in the push block
  bool block_member = true;      // buffer blocks: the data is member 0 of the block
  bool insert_index = false;     // built-in declared as an array the IR sees as scalar
  ir::ResourceKind resource = ir::ResourceKind::TypedBuffer;
  ir::Type ir_type;  // the declared IR type (data type for buffers)
  Id var = 0;        // the OpVariable
  Id image_type = 0; // the descriptor's type: OpTypeImage, block struct, sampler
  spv::StorageClass storage = spv::StorageClassPrivate;
  std::uint32_t builtin = ~0u;                         // spv::BuiltIn for built-ins
  ir::ScalarType builtin_scalar = ir::ScalarType::F32; // what SPIR-V wants for the built-in
  std::uint8_t builtin_components = 1;
  std::uint32_t member = 0;     // push data: member index in the push block
  std::int32_t signature = -1;  // index into reflection inputs/outputs
  Id spv_types[4] = {};         // built-ins: the variable's type with k innermost dims kept
  Id base_var = 0;              // VertexId/InstanceId: the BaseVertex/BaseInstance variable
  Id constant_value = 0;        // built-ins SPIR-V lacks, read as a specialization constant
  bool gs_vertex_count = false; // GsVertexCountIn: the input primitive's vertex count
  std::uint32_t location = ~0u, component = 0; // user I/O
  Id var_type = 0;                             // I/O: the variable's pointee type
  std::uint32_t stream = 0;                    // geometry shader outputs: the stream
  std::int32_t xfb_element = -1;               // the stream output element capturing it
  // A Semantic named it: further Semantics of the declaration (other signature elements the
  // variable covers) only serve stream output, the first names it in the reflection.
  bool named = false;
  bool xfb_split = false;         // captured in parts: pieces of their own (lower_outputs.cpp)
  bool written = false;           // outputs: an OutputStore reached it
  bool per_control_point = false; // hull shader outputs with a control-point dimension
};

// Every IR value's SPIR-V id and every declaration's DeclInfo, dense by SsaDef id.
struct ValueMaps {
  std::vector<Id> ids;                // SsaDef -> SPIR-V result id (0 = none yet)
  std::vector<std::uint32_t> decl_of; // SsaDef -> index into decls + 1
  std::vector<DeclInfo> decls;

  void clear(std::size_t id_limit) {
    ids.assign(id_limit, 0);
    decl_of.assign(id_limit, 0);
    decls.clear();
  }
};

// Type caches: basic types by handle bits, aggregates by (handle, dims kept, layout).
struct TypeCache {
  Id basic_types[128] = {};
  struct AggregateKey {
    std::uint32_t bits;
    std::uint16_t dims;
    bool explicit_layout;
    Id id;
  };
  std::vector<AggregateKey> aggregates;

  void clear() {
    std::fill(std::begin(basic_types), std::end(basic_types), 0);
    aggregates.clear();
  }
};

// The stage, the entry point and its interface, and the execution modes collected while
// walking (lower_declarations.cpp, lower.cpp).
struct EntryState {
  ShaderStage stage = ShaderStage::Count;
  Id entry_function = 0; // the SPIR-V entry function (HS: the wrapper)
  ir::SsaDef ir_entry;   // the EntryPoint op
  ir::SsaDef hs_functions[2];
  std::vector<Id> interface; // entry point interface
  bool uses_depth_output = false;
  bool sample_shading = false;
  bool has_workgroup_size = false;
  bool has_gs_instances = false;
  std::uint32_t gs_streams = 0;        // mask
  std::uint32_t gs_input_vertices = 0; // from SetGsInputPrimitive
  Id invocation_id_var = 0;            // HS: InvocationId (declared or created for the wrapper)
  // HS: code outside the control-point function reads a control-point output, which another
  // invocation writes: the wrapper needs its barrier (finish_entry_point).
  bool hs_reads_control_points = false;
  std::uint32_t invocation_id_decl = 0;
  // Demote's fallback: a function that runs OpKill (emitted by emit_discard_function()).
  Id discard_function_id = 0;

  void clear() {
    stage = ShaderStage::Count;
    entry_function = 0;
    ir_entry = hs_functions[0] = hs_functions[1] = ir::SsaDef();
    interface.clear();
    uses_depth_output = sample_shading = has_workgroup_size = has_gs_instances = false;
    hs_reads_control_points = false;
    gs_streams = gs_input_vertices = 0;
    invocation_id_var = 0;
    invocation_id_decl = 0;
    discard_function_id = 0;
  }
};

// Functions and the current block (lower_cf.cpp).
struct ControlFlowState {
  ir::SsaDef block_merge, block_continue;
  ir::Construct block_construct = ir::Construct::None;
  ir::SsaDef current_function;
  std::vector<std::pair<std::uint32_t, Id>> params; // (DclParam id, OpFunctionParameter)
  bool block_is_first = false;                      // the next label starts its function

  void clear() {
    block_merge = block_continue = current_function = ir::SsaDef();
    block_construct = ir::Construct::None;
    params.clear();
    block_is_first = false;
  }
};

// Resources beyond their DeclInfo: the push block, constant arrays in memory, combined
// image/samplers, rasterizer-ordered UAVs (lower_resources.cpp, lower_memory.cpp).
struct ResourceState {
  // Push data block (built on first use, after all declarations).
  Id push_var = 0;
  bool push_built = false;
  std::vector<std::uint32_t> push_decls;                   // decl indices
  std::vector<std::pair<std::uint32_t, Id>> constant_vars; // ConstantLoad: constant -> Private
  // Combined image/samplers: the sampled-image variable of each (SRV, sampler) declaration pair
  // used (sampler ~0u: reads without a sampler).
  struct CombinedVariable {
    std::uint32_t image_decl, sampler_decl;
    Id var;
  };
  std::vector<CombinedVariable> combined_vars;
  // Rasterizer-ordered UAVs: the whole entry function runs inside one fragment interlock
  // (begin after its first label, end before each of its returns).
  bool rov = false;
  bool rov_unordered = false; // rasterizer-ordered UAVs without the interlock (fallback)
  bool rov_sample = false;

  void clear() {
    push_var = 0;
    push_built = false;
    push_decls.clear();
    constant_vars.clear();
    combined_vars.clear();
    rov = rov_unordered = rov_sample = false;
  }
};

// Where I/O variables go: transform feedback and geometry-shader output locations
// (lower_io.cpp).
struct IoLayoutState {
  static constexpr std::uint32_t kMaxGsLocations = 32; // maxGeometryOutputComponents / 4
  bool xfb = false;
  // Geometry shader outputs: the components of each location taken so far (the rasterized
  // stream's all up front); place_gs_output moves another stream's output off a taken one.
  std::uint32_t gs_locations_taken[kMaxGsLocations] = {};
  bool gs_locations_ready = false;

  void clear() {
    xfb = false;
    std::fill(std::begin(gs_locations_taken), std::end(gs_locations_taken), 0u);
    gs_locations_ready = false;
  }
};

// Outputs meeting the layer's pipeline: swizzles, dual-source blending, stream output
// (lower_outputs.cpp).
struct OutputState {
  struct SwizzledOutput {
    Id real, shadow, type, scalar;
    std::uint8_t components;
    std::uint32_t swizzle;
  };
  std::vector<SwizzledOutput> swizzled_outputs;
  std::uint32_t swizzled_targets = 0, declared_targets = 0; // bit per render target
  std::vector<std::uint32_t> xfb_captured;                  // stream output element indices
  // Outputs whose components stream output captures in parts: the shader writes a Private
  // shadow, copied to one Output variable per piece (Location, Component) before each emit
  // (geometry shaders) or return (vertex and domain shaders).
  struct OutputPiece {
    Id var, type;
    std::uint8_t first, count; // components of the shadow
  };
  struct SplitOutput {
    Id shadow, type, scalar;
    std::uint8_t components;
    std::vector<OutputPiece> pieces;
    bool array = false; // the shadow is a scalar array (clip/cull distances), not a vector
  };
  std::vector<SplitOutput> split_outputs;
  // Parts of built-in outputs that stream output captures (SV_Position.xy): a built-in is
  // decorated whole, so the part is copied, like a split output's piece, into an Output
  // variable of its own at a Location past every other output (given in check_stream_output).
  std::vector<Id> xfb_mirrors;
  struct OutputSemantic {
    std::uint32_t decl; // SsaDef id of the output declaration
    std::string name;
    std::uint32_t index;
  };
  std::vector<OutputSemantic> output_semantics; // collected ahead when stream output applies

  void clear() {
    swizzled_outputs.clear();
    swizzled_targets = declared_targets = 0;
    xfb_captured.clear();
    split_outputs.clear();
    xfb_mirrors.clear();
    output_semantics.clear();
  }
};

// Render-state parameters as code (lower_render_state.cpp): the declarations they read and
// write.
struct RenderStateIo {
  std::uint32_t fog_out = ~0u, psize_out = ~0u, color1_out = ~0u, fog_in = ~0u; // decls
  struct SpriteInput {
    Id input, copy;      // a TexCoord input and the Private copy the shader reads
    unsigned components; // 1 to 4 floats (DXBC inputs may be narrower than D3D9's)
  };
  std::vector<SpriteInput> sprite_inputs;
  Id point_coord = 0, point_size = 0, clip_distance = 0;

  void clear() {
    fog_out = psize_out = color1_out = fog_in = ~0u;
    sprite_inputs.clear();
    point_coord = point_size = clip_distance = 0;
  }
};

} // namespace kiln::spirv
