#pragma once
// Internal to the SPIR-V backend (lower*.cpp): the per-worker state of a Lowering and the
// helpers the lower_* files share. One pass over the final-form IR; every SsaDef maps to a
// SPIR-V id through a dense array that keeps its capacity between shaders.

#include "translator/common/reflection.h"
#include "translator/common/shader_interface.h"
#include "translator/common/status.h"
#include "translator/ir/ir.h"
#include "translator/ir/ir_op_views.h"
#include "translator/spirv/lower.h"
#include "translator/spirv/lower_state_parts.h"
#include "translator/spirv/module_builder.h"

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace kiln::spirv {

// The basic type a built-in has in SPIR-V, and the array it needs.
struct BuiltInInfo {
  spv::BuiltIn builtin;
  ir::ScalarType scalar;
  std::uint8_t components;
  std::uint8_t fixed_array;  // 0 = as the IR declares; else forced innermost array size
  bool needs_array;          // SPIR-V wants an array even when the IR declares a scalar
  std::uint8_t input_stages; // bit (1 << ShaderStage) per stage where Vulkan allows it
  std::uint8_t output_stages;
};

// The parts (lower_state_parts.h) hold what a shader builds up, each with its own clear();
// their members are the State's, so the handlers name them directly.
struct Lowering::State : ValueMaps,
                         TypeCache,
                         EntryState,
                         ControlFlowState,
                         ResourceState,
                         IoLayoutState,
                         OutputState {
  // ---- per shader ----
  const ir::Builder* ir = nullptr;
  LowerOptions options;
  Reflection* reflection = nullptr;
  SemanticNamePool names; // buffers of long semantic names, kept between shaders
  ModuleBuilder mb;
  Id glsl = 0;

  std::vector<std::uint32_t> scratch_words;
  std::vector<Id> constant_stack; // constant arrays being built (lower_types.cpp)

  std::string error; // why walk_address() answered false
  // The backend's reports: "SPIR-V lowering: what (op %N Name)"; Lowering::lower takes the
  // first as its Status.
  ErrorSink errors{&spell_error};

  // ---- helpers shared by the lower_* files ----
  // The backend's one way to report: every handler and helper returns false right after.
  bool fail(const Where& where, std::string_view what) { return errors.fail(where, what); }
  // Where a report about the op `def` points: its id and opcode name (nowhere for a null def).
  Where at(ir::SsaDef def) const {
    return def ? Where(def.id(), ir::op_name(op(def).code())) : Where();
  }
  static std::string spell_error(const Where& where, std::string_view what);
  Id id_for(ir::SsaDef def) {
    Id& id = ids[def.id()];
    if (!id) id = mb.allocate_id();
    return id;
  }
  ir::OpView op(ir::SsaDef def) const { return ir->op(def); }
  ir::Type type_of(ir::SsaDef def) const { return ir->op(def).type(); }
  DeclInfo* decl(ir::SsaDef def) {
    if (!def || def.id() >= decl_of.size() || !decl_of[def.id()]) return nullptr;
    return &decls[decl_of[def.id()] - 1];
  }
  DeclInfo& new_decl(ir::SsaDef def) {
    decls.emplace_back();
    decl_of[def.id()] = std::uint32_t(decls.size());
    return decls.back();
  }

  // Types (lower_types.cpp).
  Id type(ir::Type t) { return t.is_basic() ? basic(t) : type_layout(t, false); }
  Id type_layout(ir::Type t, bool explicit_layout);
  // `t` with only its innermost `dims` array dimensions kept (an element type of it).
  Id type_dims(ir::Type t, unsigned dims, bool explicit_layout);
  // Basic types answer from basic_types (by the handle's member field) once made: inline, as
  // nearly every op asks for its result type and the types of its operands.
  Id basic(ir::Type t) {
    const Id cached = basic_types[t.member_field()];
    return cached ? cached : make_basic(t.scalar_type(), t.vector_size());
  }
  Id basic(ir::ScalarType s, unsigned n) { return basic(ir::Type(s, n)); }
  Id make_basic(ir::ScalarType s, unsigned n);
  static std::uint32_t scalar_size(ir::ScalarType s) {
    switch (s) {
    case ir::ScalarType::I8:
    case ir::ScalarType::U8:
      return 1;
    case ir::ScalarType::I16:
    case ir::ScalarType::U16:
    case ir::ScalarType::F16:
      return 2;
    case ir::ScalarType::I64:
    case ir::ScalarType::U64:
    case ir::ScalarType::F64:
      return 8;
    default:
      return 4;
    }
  }
  std::uint32_t layout_size(ir::Type t) const; // explicit layout size of a type
  // The size of `v`'s element with its `dims` innermost array dimensions.
  std::uint32_t layout_size(const ir::TypeView& v, unsigned dims) const;
  Id constant(ir::SsaDef def); // a Constant op
  Id const_u32(std::uint32_t v) { return mb.constant_u32(v); }
  Id const_scalar(ir::ScalarType s, std::uint64_t bits);
  Id splat_constant(ir::Type t, std::uint64_t bits); // scalar or vector of one value

  // Values: the id of a value, bitcast to `want` when only signedness / bit pattern differs.
  Id value(ir::SsaDef def) { return id_for(def); }
  Id value_as(ir::SsaDef def, ir::Type want) {
    const Id id = id_for(def);
    const ir::Type from = type_of(def);
    return from == want ? id : bitcast_id(id, from, want);
  }
  Id bitcast_id(Id id, ir::Type from, ir::Type to);
  // Sets the result of `def` (an op emitted under another id): copies when Phi already took
  // an id.
  void bind(ir::SsaDef def, Id result, ir::Type t);
  void decorate_result(ir::OpView op, Id result) {
    if (ir::has(op.flags(), ir::OpFlags::Precise)) [[unlikely]]
      mb.decorate(result, spv::DecorationNoContraction);
  }

  // Access chains: `base` (a pointer to `base_type` in `storage`) indexed by the IR address
  // (null, or a scalar/vector of indices through arrays, then a struct member, then a vector
  // component). Returns the pointer and the IR-shaped type it points at in `pointee`.
  struct Pointee {
    ir::Type base;          // the type indexed
    unsigned dims_left = 0; // array dims not indexed (> 0: an array of the base's element)
    bool is_basic = false;  // pointee is a scalar or vector
    bool component = false; // a vector component was selected
    ir::Type basic;         // when is_basic
  };
  // Appends the indices for `address` into `base` to `indices`; false (error set) when the
  // address does not fit the type.
  bool walk_address(ir::Type base, ir::SsaDef address, std::vector<Id>& indices, Pointee& out);
  Id pointee_type(const Pointee& p, bool explicit_layout) {
    return p.is_basic ? basic(p.basic) : type_dims(p.base, p.dims_left, explicit_layout);
  }
  Id emit_chain(Id base, spv::StorageClass storage, Id pointee, std::span<const Id> indices,
                bool nonuniform = false);
  // Adds `k` to the last index (consecutive scalars of a vector access).
  Id offset_index(Id index, std::uint32_t k);
  std::vector<Id> chain;

  // The walk over the module (lower.cpp); false after a report into `errors`.
  bool lower_module(const ir::Builder& builder);
  // The dispatch (lower.cpp): the handler table generated from KILN_SPIRV_LOWERINGS
  // (lower_table.h).
  bool lower_op(ir::OpView op);
  // Final form has no Unknown left; a value of that type cannot be expressed. Every live op's
  // result is checked as it is lowered, so an operand of Unknown type fails the translation
  // when its own op comes by (before or after its use): operands need no check of their own.
  static bool has_final_type(ir::OpView op) {
    const ir::Type t = op.type();
    return !t.is_basic() || t.scalar_type() != ir::ScalarType::Unknown;
  }

  // The handlers KILN_SPIRV_LOWERINGS names, one per op or per group of ops that differ only in
  // the instruction emitted. Declarations (lower_declarations.cpp, lower_io.cpp,
  // lower_resources.cpp):
  bool lower_entry_point(ir::OpView op);
  bool lower_constant(ir::OpView op);
  bool lower_undef(ir::OpView op);
  bool lower_spec_constant(ir::OpView op);
  bool lower_cs_workgroup_size(ir::OpView op);
  bool lower_gs_instances(ir::OpView op);
  bool lower_gs_input_primitive(ir::OpView op);
  bool lower_gs_output_vertices(ir::OpView op);
  bool lower_gs_output_primitive(ir::OpView op);
  bool lower_fragment_mode(ir::OpView op);
  bool lower_tess_primitive(ir::OpView op);
  bool lower_tess_domain(ir::OpView op);
  bool lower_tess_control_points(ir::OpView op);
  bool lower_debug_name(ir::OpView op);
  bool lower_semantic(ir::OpView op);
  bool lower_nothing(ir::OpView op);
  bool lower_not_final_form(ir::OpView op);
  bool lower_unsupported(ir::OpView op);
  bool lower_io_decl(ir::OpView op);
  bool lower_xfb_decl(ir::OpView op);
  bool lower_variable_decl(ir::OpView op);
  bool lower_push_data_decl(ir::OpView op);
  bool lower_uav_counter_decl(ir::OpView op);
  bool lower_descriptor_decl(ir::OpView op);
  // Functions and control flow (lower_cf.cpp).
  bool lower_function(ir::OpView op);
  bool lower_function_end(ir::OpView op);
  bool lower_param_load(ir::OpView op);
  bool lower_function_call(ir::OpView op);
  bool lower_label(ir::OpView op);
  bool lower_branch(ir::OpView op);
  bool lower_branch_conditional(ir::OpView op);
  bool lower_switch(ir::OpView op);
  bool lower_unreachable(ir::OpView op);
  bool lower_return(ir::OpView op);
  bool lower_phi(ir::OpView op);
  // Arithmetic, conversions, composites, derivatives, barriers (lower_ops.cpp).
  bool lower_direct(ir::OpView op);
  bool lower_frcp(ir::OpView op);
  bool lower_fmad(ir::OpView op);
  bool lower_fround(ir::OpView op);
  bool lower_select(ir::OpView op);
  bool lower_convert(ir::OpView op);
  bool lower_convert_itoi(ir::OpView op);
  bool lower_cast(ir::OpView op);
  bool lower_pack_half(ir::OpView op);
  bool lower_unpack_half(ir::OpView op);
  bool lower_extended_arith(ir::OpView op);
  bool lower_composite_construct(ir::OpView op);
  bool lower_composite_access(ir::OpView op);
  bool lower_derivative(ir::OpView op);
  bool lower_barrier(ir::OpView op);
  bool lower_demote(ir::OpView op);
  bool lower_rov_lock(ir::OpView op);
  bool lower_check_sparse_access(ir::OpView op);
  // Inputs and outputs (lower_io_ops.cpp).
  bool lower_io_load(ir::OpView op);
  bool lower_output_store(ir::OpView op);
  bool lower_interpolate(ir::OpView op);
  bool lower_emit(ir::OpView op);
  // Memory and descriptors (lower_memory.cpp).
  bool lower_descriptor_load(ir::OpView op);
  bool lower_buffer_load(ir::OpView op);
  bool lower_buffer_store(ir::OpView op);
  bool lower_buffer_atomic(ir::OpView op);
  bool lower_buffer_query_size(ir::OpView op);
  bool lower_variable_load(ir::OpView op);
  bool lower_variable_store(ir::OpView op);
  bool lower_lds_atomic(ir::OpView op);
  bool lower_constant_load(ir::OpView op);
  bool lower_counter_atomic(ir::OpView op);
  // Images and typed buffers (lower_images.cpp).
  bool lower_image_load(ir::OpView op);
  bool lower_image_store(ir::OpView op);
  bool lower_image_atomic(ir::OpView op);
  bool lower_image_query_size(ir::OpView op);
  bool lower_image_query_count(ir::OpView op);
  bool lower_image_compute_lod(ir::OpView op);
  bool lower_image_sample(ir::OpView op);
  bool lower_image_gather(ir::OpView op);

  // Parts the handlers share.
  // Merge instruction of the current block's construct, before its terminator (lower_cf.cpp).
  void emit_merge(bool selection_allowed);
  // The declaration of an I/O op and the pointer into it (`chain` holds the indices); for a
  // constant built-in (d->constant_value) nothing is walked.
  struct IoAccess {
    DeclInfo* d = nullptr;
    Pointee p;
    Id pointee = 0;
    ir::Type spv_basic; // the basic type SPIR-V loads, IR-shaped
  };
  bool io_access(ir::OpView op, IoAccess& out);
  // The declaration of a raw, structured or typed buffer op's descriptor (null: not a buffer).
  DeclInfo* buffer_descriptor(ir::OpView op, Id& index, bool& nonuniform);
  // The access chain (into `chain`) of a raw or structured buffer op in kiln's own form: into
  // the storage or uniform buffer, or the push-constant block's member.
  bool buffer_chain(ir::OpView op, const DeclInfo& d, Id index, Pointee& p);
  // The declaration (of the kind the op names) and the access chain of an LDS, scratch or
  // push-data op.
  bool variable_chain(ir::OpView op, DeclInfo*& d, Pointee& p);
  // g# (Workgroup) accesses stay inside their variable: D3D keeps an out-of-range g# address
  // inside the group's shared memory (a load's value and, after a store or atomic, the memory's
  // contents undefined), where SPIR-V makes it undefined behaviour. variable_chain records per
  // index of an LDS op's `chain` the length it must stay below (0: none) and its value when
  // constant (-1: dynamic); workgroup_index clamps an index that is not provably in range, with
  // `offset` already added (a vector access's consecutive scalars), to its last element.
  std::vector<std::uint32_t> workgroup_bounds;
  std::vector<std::int64_t> workgroup_constants;
  void bound_workgroup_chain(ir::Type base, ir::SsaDef address);
  Id workgroup_index(std::size_t position, Id index, std::uint32_t offset);
  // Clamps every index of `chain` but the last (guarded per scalar by the caller) in place.
  void guard_workgroup_prefix();
  // What every image op starts from: the descriptor, the image (or combined sampled image),
  // the texel type; with_sampler: operand 1 is a sampler.
  struct ImageAccess {
    DeclInfo* d = nullptr;
    Id index = 0;
    bool nonuniform = false;
    bool uav = false;
    bool sparse = false;
    ir::Type texel_ir;
    Id texel = 0;
    Id image = 0, combined = 0;
  };
  bool image_access(ir::OpView op, bool with_sampler, ImageAccess& out);
  Id sampled_image(const ImageAccess& a, ir::SsaDef sampler);
  void bind_image_result(ir::OpView op, const ImageAccess& a, Id result, ir::Type from);
  bool typed_buffer_query_size(ir::OpView op);
  // Memory access through `chain` (already holding the prefix and address indices) from
  // `base`; loads of more scalars than the pointee has read consecutive elements.
  bool load_through(ir::OpView op, Id base, spv::StorageClass storage, bool explicit_layout,
                    const Pointee& p, bool nonuniform);
  bool store_through(ir::OpView op, ir::SsaDef value, Id base, spv::StorageClass storage,
                     bool explicit_layout, const Pointee& p, bool nonuniform);
  bool atomic(ir::OpView op, Id pointer, ir::Type pointee, spv::Scope scope, ir::SsaDef operand,
              ir::AtomicOp atomic_op);
  // The descriptor behind a DescriptorLoad: its declaration and (arrays) index id.
  DeclInfo* descriptor(ir::SsaDef load, Id& index, bool& nonuniform);
  // The array index of a descriptor: the shader's index (null: 0) plus the declaration's base.
  Id descriptor_index(const DeclInfo& d, ir::SsaDef index);
  // Raw/structured buffer ops on a texel-buffer form declaration (lower_texel_buffers.cpp).
  // texel_words_access: the texel buffer, and with `address` the texel index of the op's
  // address.
  struct TexelWords {
    bool uav = false;
    Id u32 = 0, uvec4 = 0;
    std::uint32_t element_words = 0; // dwords per element of the outermost array
    Id image = 0, texel = 0;
  };
  bool texel_words_access(ir::OpView op, const DeclInfo& d, bool address, TexelWords& t);
  Id texel_at(const TexelWords& t, unsigned k); // the texel of dword k after the address
  bool texel_words_load(ir::OpView op, const DeclInfo& d);
  bool texel_words_store(ir::OpView op, const DeclInfo& d);
  bool texel_words_atomic(ir::OpView op, const DeclInfo& d, Id index, bool nonuniform);
  bool texel_words_query_size(ir::OpView op, const DeclInfo& d);
  // Declaration parts (lower_resources.cpp).
  bool declare_uav_counter(ir::OpView op, DeclInfo& d);
  bool declare_push_cbv(ir::OpView op, DeclInfo& d, const PushConstantBuffer& push);
  Id sampled_coord(ir::SsaDef coord, ir::SsaDef layer, bool want_float);
  // The loaded sampled image of a combined SRV's DescriptorLoad with a sampler's (null: the
  // interface's entry for reads without a sampler).
  bool combined_image(ir::SsaDef def, ir::SsaDef image_load, ir::SsaDef sampler_load, Id& out);

  bool finish_entry_point();
  void build_push_block();
  void add_interface(Id var, spv::StorageClass storage);
  Id load_invocation_id();
  // A basic value of type `from` as the IR type `to` (fewer components, bool to int,
  // signedness, int/float).
  Id convert_basic(Id id, ir::Type from, ir::Type to) {
    return from == to ? id : convert_basic_types(id, from, to);
  }
  Id convert_basic_types(Id id, ir::Type from, ir::Type to); // convert_basic when they differ
  // An I/O declaration equal to an earlier one (front ends declare per phase): reuse it.
  bool reuse_io(DeclInfo& d, ir::SsaDef def, Id var_type);
  bool place_gs_output(ir::SsaDef def, DeclInfo& d, ir::Type element);

  // Target and extensions (lower_target.cpp).
  // Whether an optional feature may be used: no interface, enabled, or core and required in
  // the target.
  bool extension_enabled(Extension e) const;
  // The one-line error for `what` needing `e`.
  bool missing_extension(ir::SsaDef def, std::string_view what, Extension e);
  // OpExtension for `e` where the target's SPIR-V version lacks the feature.
  void use_spirv_extension(Extension e);
  // The interface when it carries a binding map (ShaderInterface::has_binding_map), else null:
  // kiln's own binding model.
  const ShaderInterface* binding_map() const {
    return options.interface && options.interface->has_binding_map() ? options.interface : nullptr;
  }
  spv::StorageClass storage_buffer_class() const;   // StorageBuffer, or Uniform before 1.3
  spv::Decoration storage_block_decoration() const; // Block, or BufferBlock before 1.3
  // OpDemoteToHelperInvocation, or where the extension is off a call of discard_function().
  void emit_demote();
  // Demote's fallback: a function that runs OpKill (emitted by emit_discard_function()).
  Id discard_function();
  void emit_discard_function();

  // Outputs meeting the layer's pipeline (lower_outputs.cpp).
  // Creates the variable of user I/O `d` (location, component and var_type set): dual-source
  // Index, a Private shadow for a swizzled render target.
  bool declare_user_io(ir::SsaDef def, DeclInfo& d, ir::Type element, bool arrayed);
  // Before each return of the entry function: swizzled shadows to their outputs.
  void emit_output_epilogue();
  // Xfb decorations for output `d` named `semantic` by the stream output it matches.
  bool apply_stream_output(ir::SsaDef def, DeclInfo& d, std::string_view semantic,
                           std::uint32_t semantic_index);
  std::uint32_t stream_output_size(std::uint32_t slot) const;
  // Every named stream output element found its output.
  bool check_stream_output();
  // Captures part of built-in output `d`, whose first component sits in component `first` of
  // its register.
  bool mirror_builtin_part(ir::SsaDef def, DeclInfo& d, std::size_t element, std::uint32_t first);
  // The register component output `d` begins at: a user output's component; a built-in's from
  // the bytecode's signature (a scalar built-in can sit in any component: `o1.y`
  // SV_RenderTargetArrayIndex), 0 without one.
  std::uint32_t register_component(const DeclInfo& d, std::string_view semantic,
                                   std::uint32_t semantic_index) const;
  bool capture_distances(ir::SsaDef def, DeclInfo& d);
  void collect_output_semantics();
  bool split_for_stream_output(ir::SsaDef def, DeclInfo& d, ir::Type element, bool arrayed,
                               bool& split);
  void emit_split_outputs();
  bool stream_output_applies() const;
  bool captures(const StreamOutputElement& e, const DeclInfo& d, std::string_view semantic,
                std::uint32_t semantic_index) const;
  bool check_stream_slots(ir::SsaDef def);
  // Xfb decorations of stream output element `i` on `var`.
  void decorate_xfb(Id var, std::size_t i);
  // Bytes of the elements before `element` in its buffer.
  std::uint32_t stream_output_offset(std::size_t element) const;
  // Render-state parameters (lower_render_state.cpp).
  const ShaderParameter* parameter_of(ParameterName name) const; // null: default applies
  // The value when translation knows it (immediate or default); false for a spec constant.
  bool parameter_known(ParameterName name, std::array<std::uint32_t, 4>& bits) const;
  // The one place a parameter becomes SPIR-V: an OpConstant (immediate or default) or an
  // OpSpecConstant decorated with the layer's SpecId (+ component for F32_VEC4).
  Id parameter(ParameterName name, unsigned component = 0);
  Id parameter_vec4(ParameterName name);
  bool check_parameters();
  bool render_state_semantic(ir::SsaDef def, std::string_view name, std::uint32_t index);
  bool render_state_prologue(); // first block of the entry function
  // Before each return of the entry function / (geometry shaders) each EmitVertex: `at_op`, the
  // Return or EmitVertex, is where a report points.
  bool render_state_before_return(ir::SsaDef at_op);
  bool render_state_before_emit(ir::SsaDef at_op);
  bool pixel_epilogue();
  bool vertex_epilogue(ir::SsaDef at_op);
  std::uint32_t find_output(bool builtin, std::uint32_t location_or_builtin) const;
  Id load_vec4(std::uint32_t decl_index);
  bool is_vec4_f32(std::uint32_t decl_index);
  RenderStateIo render_io;
};

// Scope/semantics shared by barriers and atomics.
spv::Scope spirv_scope(ir::Scope scope);

} // namespace kiln::spirv
