#pragma once
// Internal to the resource half of the DXBC -> IR converter (its handlers are declared in
// convert_dispatch.h). The per-shader binding tables and the helpers the three resource files
// share:
//   convert_resources.cpp         declarations (dcl_resource), descriptor access, helpers
//   convert_resources_image.cpp   sample*, gather4*, ld/ld_ms, typed UAVs, resinfo, lod,
//                                 sampleinfo, samplepos
//   convert_resources_buffer.cpp  raw/structured buffers and TGSM, bufinfo, atomics, append/
//                                 consume counters, sync, check_access_fully_mapped
//
// Mapping decisions (see also tests/translator/dxbc):
// - A resource register (SM5.0 `t3`) or range (SM5.1 `T1[2:5], space=1`) is one Dcl* op. Every
//   access emits its own DescriptorLoad right before the use (scoped code has no dominance to
//   rely on), with index 0 for single descriptors and `register - lower bound` for ranges; the
//   operand's {nonuniform} becomes OpFlags::NonUniform.
// - Typed SRVs/UAVs are declared with their sampled scalar type (f32 for float/unorm/snorm, i32,
//   u32); raw buffers as u32[], structured ones as u32[stride/4][]; TGSM as u32[n] or
//   u32[stride/4][n] (DclLds). Raw and structured accesses are per dword (scalar u32 loads and
//   stores, dword addresses), so byte addresses are shifted right by 2.
// - Typed buffers are texel buffers: ld/ld_uav_typed/store_uav_typed use BufferLoad/BufferStore
//   at the element index, atomics use ImageAtomic with the index as the coordinate (the SPIR-V
//   form is OpImageTexelPointer either way). Atomics take the resource's element type (u32 for
//   raw, structured and TGSM); the AtomicOp carries signedness. imm_atomic_consume returns the
//   decremented count (CounterAtomic Dec returns the old one, so 1 is subtracted).
// - sampleinfo/samplepos on `rasterizer` read DclInputBuiltIn SampleCount (the backend maps it
//   to a specialization constant); samplepos indexes a constant table of the D3D standard
//   patterns (1/2/4/8/16 samples), (0, 0) for an out-of-range sample index.
// - Out-of-bounds reads (ld, ld_uav_typed, buffer loads) must return zero and out-of-bounds
//   writes must be dropped, as D3D requires: kiln relies on Vulkan robustness for that
//   (robustBufferAccess2 + robustImageAccess2, which every D3D-on-Vulkan layer enables) and
//   emits no bounds checks of its own. TGSM accesses are not checked either (D3D leaves
//   out-of-range TGSM access undefined).
// - Rasterizer-ordered UAVs: each access sits between RovScopedLockBegin (RovScope::Pixel) and
//   RovScopedLockEnd; merging them into one interlock per invocation is the backend's business.
// - UAV flags: globallycoherent -> Coherent, _rov -> RasterizerOrdered, and from the accesses
//   seen while converting: ReadOnly (never written), WriteOnly (never read), FixedFormat (typed
//   UAV used with atomics, or read where the interface asks for R32 reads). The DclUav op is
//   rewritten in place when the usage grows.

#include "translator/dxbc/convert_context.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kiln::dxbc {

// ---- shared helpers (convert_resources.cpp) --------------------------------------------------

// The operands of a resource instruction: destinations first, then sources.
struct Operands {
  std::span<const Operand> all;
  unsigned dsts;
  const Operand& dst(unsigned i) const { return all[i]; }
  const Operand& src(unsigned i) const { return all[dsts + i]; }
};
inline Operands operands_of(ConvertContext& ctx, const Instruction& inst) {
  return {ctx.program().operands_of(inst), opcode_info(inst.opcode).dst_count};
}
inline bool has_feedback(const Instruction& inst) {
  return has_flag(inst.opcode, opflag::Feedback);
}
// The residency status the sparse-feedback opcodes (*_s) write to their second destination.
// D3D leaves its bits opaque: shaders only hand it to check_access_fully_mapped. An image
// access's residency code is implementation-defined in Vulkan, so kiln reduces it at the access
// to one of these two values; buffers are never partially resident and store kStatusMapped.
constexpr std::uint32_t kStatusMapped = 0, kStatusNotMapped = 1;
// Adds `op` returning `value_type`. For the sparse-feedback opcodes, an image op becomes a
// {u32 code, value_type} op with OpFlags::SparseFeedback and its code is reduced to the status
// above; a BufferLoad (any buffer: raw, structured, texel) stays a plain load and the status is
// kStatusMapped. The status goes to the second destination; returns the value.
ir::SsaDef emit_with_feedback(ConvertContext& ctx, const Instruction& inst, const Operands& ops,
                              ir::Op op, ir::Type value_type);
// Writes kStatusMapped to the status destination of a sparse-feedback load from a buffer.
void store_buffer_status(ConvertContext& ctx, const Operands& ops);
// The components a destination operand writes (a scalar register such as oDepth: x).
inline std::uint8_t dst_mask(const Operand& dst) {
  return dst.component_count == 4 && dst.selection == SelectionMode::Mask ? dst.mask
                                                                          : std::uint8_t(1);
}
// Vec4 with `value` in every component of `mask`.
inline Vec4 replicate(ir::SsaDef value, std::uint8_t mask) {
  Vec4 v;
  for (unsigned i = 0; i < 4; ++i)
    if (mask & (1u << i)) v[i] = value;
  return v;
}

// The binding an instruction operand (t#, u#, s#, g#) names (a register chosen at run time:
// ResourceState::chosen); null with ctx.fail() when the operand is of another type or the
// register was not declared.
ResourceBinding* find_binding(ConvertContext& ctx, const Instruction& inst, const Operand& op);
// The class of a resource operand type; false for any other operand type.
bool resource_class_of(OperandType type, ResourceClass& out);
// The resource kind of a typed declaration's dimension; false for raw/structured/unknown.
bool kind_of_dimension(ResourceDimension dim, ir::ResourceKind& out);
// "t3", "u0", "s1", "g2".
std::string register_name(ResourceClass c, std::uint32_t id);
// DescriptorLoad for `op` (t#, u#, s#; not g#): index 0 or register - lower bound, NonUniform
// when the operand says so. Null after ctx.fail() (an immediate index outside the range).
ir::SsaDef load_descriptor(ConvertContext& ctx, const Instruction& inst, const Operand& op,
                           const ResourceBinding& binding);
// DescriptorLoad of the UAV counter of `binding` (declared on first use).
ir::SsaDef load_counter(ConvertContext& ctx, const Instruction& inst, const Operand& op,
                        ResourceBinding& binding);
// Records a UAV access and rewrites the DclUav flags when they change.
void note_uav_usage(ConvertContext& ctx, ResourceBinding& binding, std::uint8_t usage);

// Brackets one access to a rasterizer-ordered UAV (_rov) with RovScopedLockBegin/End, as the
// RasterizerOrdered flag promises; does nothing for other bindings or null.
class RovLock {
 public:
  RovLock(ConvertContext& ctx, const ResourceBinding* binding);
  ~RovLock();
  RovLock(const RovLock&) = delete;
  RovLock& operator=(const RovLock&) = delete;

 private:
  ConvertContext& ctx_;
  ir::MemoryTypeMask memory_ = ir::MemoryTypeMask(0);
};

// Integer helpers that fold constants (addresses are often immediates).
ir::SsaDef add_u32(ConvertContext& ctx, ir::SsaDef value, std::uint32_t k);
ir::SsaDef shr_u32(ConvertContext& ctx, ir::SsaDef value, std::uint32_t k);
// vec2<u32>(a, b) (a Constant when both are constants).
ir::SsaDef make_u32x2(ConvertContext& ctx, ir::SsaDef a, ir::SsaDef b);
// A constant vector (or scalar when count is 1) of 32-bit `type` from raw bits.
ir::SsaDef constant_vector(ConvertContext& ctx, ir::ScalarType type, const std::uint32_t* bits,
                           unsigned count);

// Geometry of an image kind: coordinate components (without the array layer), whether the
// layer follows them, multisampled, cube; size components a size query returns.
struct ImageShape {
  std::uint8_t coords = 1;
  std::uint8_t size_dims = 1;
  std::uint8_t offset_dims = 0; // 0: offsets not allowed (cube) or buffer
  bool arrayed = false;
  bool multisampled = false;
  bool buffer = false;
};
ImageShape image_shape(ir::ResourceKind kind);

} // namespace kiln::dxbc
