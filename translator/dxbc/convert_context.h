#pragma once
// Internal to the DXBC -> IR converter: the per-shader state and the operand API shared by the
// core (converter.cpp, convert_*.cpp) and the resource half (convert_resources.cpp).
//
// Values. The converter works on scalars: a register operand read under a component mask
// gives a Vec4 whose entry i is the scalar value of destination component i (after swizzle
// and modifiers); entries outside the mask are null. Results are stored the same way, so an
// instruction reads its sources with the destination's write mask and stores per component.
// Resource operations that need IR vectors (coordinates, texels) build them with
// make_vector() and take results apart with split_vector().
//
// Dispatch. dispatch (convert_dispatch.cpp) sends every instruction and declaration
// to the handler its opcode table row names (opcodes.h; the handlers: convert_dispatch.h).
// Handlers report bad input with `return fail(inst, what)` (an Instruction is a Where; false) and
// answer true otherwise; nothing answers "not mine".
//
// Errors. Operand helpers never throw: on bad input they record the first error in the
// context (fail(here(), what)) and return null/zero values; the core checks ok() after each
// instruction.
//
// The context is the converter's one state owner (its parts: convert_state.h); it lives in the
// Converter and keeps its arrays between shaders (reset()).

#include "translator/common/status.h"
#include "translator/dxbc/container.h"
#include "translator/dxbc/convert_state.h"
#include "translator/dxbc/opcodes.h"
#include "translator/dxbc/program.h"
#include "translator/ir/ir.h"
#include "translator/ir/temp_forwarding.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace kiln::dxbc {

class ConvertContext;

// An SM5.0 instruction whose t#/u#/s# register is chosen at run time (t[r0.z + 1]: a class
// instance's texture) is converted once per declared register it may name, under a switch on
// the number (convert_resources_chosen.cpp); `convert(ctx, inst)` converts it once (the walk's
// dispatch, a handler's signature). False, with nothing emitted, when it has no such operand.
using ConvertOnce = bool (*)(ConvertContext& ctx, const Instruction& inst);
bool convert_choosing_resources(ConvertContext& ctx, const Instruction& inst, ConvertOnce convert);

// ---- debug names (convert_names.cpp) -------------------------------------------------------

// With ConvertOptions::debug_names: a DebugName for the declaration `dcl` of a constant buffer
// (cls Cbv) or resource from the name RDEF gives the register (SM5.0: `lower`) or range (SM5.1:
// `id` in `space`). Nothing without the option, for TGSM, or when RDEF names none.
void name_binding(ConvertContext& ctx, ir::SsaDef dcl, ResourceClass cls, std::uint32_t space,
                  std::uint32_t lower, std::uint32_t id);

// ---- values -------------------------------------------------------------------------------

// One scalar SsaDef per destination component (null outside the mask). Over-aligned so that it
// is returned in memory, not in two registers: the functions that return one fill it a
// component at a time, and reading those four 4-byte stores back as two 8-byte registers
// stalled store forwarding on every load_src (about a quarter of its time).
struct alignas(32) Vec4 {
  ir::SsaDef c[4];
  ir::SsaDef& operator[](unsigned i) { return c[i]; }
  ir::SsaDef operator[](unsigned i) const { return c[i]; }
};

constexpr unsigned mask_count(std::uint8_t mask) {
  return unsigned(__builtin_popcount(mask & 0xfu));
}

// The IR scalar type an instruction's value type reads as (A/B/N -> u32, D -> f64).
constexpr ir::ScalarType scalar_of(ValueType type) {
  switch (type) {
  case ValueType::F:
    return ir::ScalarType::F32;
  case ValueType::I:
    return ir::ScalarType::I32;
  case ValueType::D:
    return ir::ScalarType::F64;
  default:
    return ir::ScalarType::U32;
  }
}

// ---- the converter state ------------------------------------------------------------------

// The converter's one state owner: its parts (convert_state.h) are its members, the operand API
// and the error sink are its own. It lives in the Converter and keeps its arrays between shaders
// (reset()).
class ConvertContext : public CoreState, public ResourceState, public WalkState {
 public:
  ConvertContext() = default;
  ConvertContext(const ConvertContext&) = delete;
  ConvertContext& operator=(const ConvertContext&) = delete;

  // Per shader: the builder to fill, the decoded program and its container.
  void reset(ir::Builder& builder, const Program& program, const Container& container);

  ir::Builder& builder() { return *builder_; }
  const Program& program() const { return *program_; }
  const Container& container() const { return *container_; }
  ProgramType program_type() const { return program_->type; }
  ir::SsaDef entry_point() const { return entry_point_; }
  // The function code is being emitted into (for hull shaders: the current phase's function).
  ir::SsaDef function() const { return function_; }

  // Adds a code op at the cursor and returns its id. An operand that could not be read (null
  // where the op needs a value) fails the instruction.
  ir::SsaDef emit(const ir::Op& op) {
    if (ir::has_missing_reference(op)) [[unlikely]]
      fail(here(), "an operand could not be read");
    temps_known_.before(op.code(), [this](ir::SsaDef tmp, ir::SsaDef value) {
      builder_->add(ir::Op::TmpStore(tmp, value));
    });
    return builder_->add(op);
  }
  ir::SsaDef constant_u32(std::uint32_t v) { return builder_->constant_u32(v); }
  ir::SsaDef constant_i32(std::int32_t v) { return builder_->constant_i32(v); }
  ir::SsaDef constant_f32(float v) { return builder_->constant_f32(v); }
  // A constant of `type` (32-bit) from raw bits.
  ir::SsaDef constant_bits(ir::ScalarType type, std::uint32_t bits);

  // ---- operand API ------------------------------------------------------------------------

  // Reads `op` (a source operand) as `type` for the destination components in `mask`:
  // swizzle, neg/abs modifiers, immediates, r#/x#/v#/o#/cb#/icb/special registers, relative
  // indexing. Entry i of the result is the value for destination component i. Doubles
  // (type F64): `mask` names destination 64-bit lanes in D3D style (xy = lane 0, zw = lane 1;
  // any bit of a pair selects the lane) and entries 0/1 hold the two f64 values.
  Vec4 load_src(const Operand& op, std::uint8_t mask, ir::ScalarType type);
  // Component x of the swizzle (the usual form of a scalar source: select1 or .x).
  ir::SsaDef load_src_scalar(const Operand& op, ir::ScalarType type) {
    return load_src(op, 1, type)[0];
  }
  // The first `count` swizzled components as an IR vector (a scalar when count is 1).
  ir::SsaDef load_src_vector(const Operand& op, unsigned count, ir::ScalarType type);

  // Writes `value` (entry i for destination component i, as from load_src) to `dst` under its
  // write mask: `_sat` applied to float results when the instruction has it, precise flags
  // honoured. A null operand is skipped. Doubles: entries 0/1 are the f64 lanes.
  void store_dst(const Instruction& inst, const Operand& dst, const Vec4& value,
                 ir::ScalarType type);
  // Same, without saturation (integer results, resource results that must not be clamped).
  void store_dst_raw(const Operand& dst, const Vec4& value, ir::ScalarType type);

  // Index `dim` of `op` as u32: the immediate part plus the relative register, if any.
  ir::SsaDef load_index(const Operand& op, unsigned dim);
  // True when index `dim` is an immediate (no relative part); its value is op.index[dim].
  static bool index_is_immediate(const Operand& op, unsigned dim) { return !op.has_relative(dim); }

  // IR vector of the entries in `mask` (compacted, in component order; a scalar for one).
  ir::SsaDef make_vector(const Vec4& value, std::uint8_t mask, ir::ScalarType type);
  // Entries of an IR vector of `count` components of `type`: entry i = component i.
  Vec4 split_vector(ir::SsaDef vector, unsigned count, ir::ScalarType type);
  // Spreads a compact vector (one component per set bit of `mask`, as a D3D resource result
  // swizzled by `swizzle_op`) to destination entries: entry i = texel component
  // swizzle_op.component(i) for every i in `mask`. `texel` holds `count` components.
  Vec4 swizzle_texel(ir::SsaDef texel, unsigned count, ir::ScalarType type,
                     const Operand& swizzle_op, std::uint8_t mask);
  // Converts a scalar between 32-bit types by bit pattern (Cast), or returns it unchanged.
  // Inline for the common case (no conversion: every typed read of a value written as that type).
  ir::SsaDef bitcast(ir::SsaDef value, ir::ScalarType from, ir::ScalarType to) {
    // An untyped consumer (a move between temporaries) takes the value as it is.
    if (from == to || to == ir::ScalarType::Unknown || !value) return value;
    return convert_bits(value, from, to);
  }

  // r<reg>.<c> read as `type` / written with `value` (DclTmp `tmp`): a value written earlier in
  // the same straight-line stretch is forwarded instead of loaded, and the stretch's last write
  // is stored at its end (ir::TempForwarding).
  ir::SsaDef load_temp(std::uint32_t reg, unsigned c, ir::SsaDef tmp, ir::ScalarType type) {
    if (ir::TempForwarding::Known known = temps_known_.known(reg * 4 + c, tmp); known.value)
      return bitcast(known.value, known.type, type);
    return load_temp_from_memory(reg, c, tmp, type);
  }
  void store_temp(std::uint32_t reg, unsigned c, ir::SsaDef tmp, ir::SsaDef value) {
    // Temps hold 32-bit scalars; anything else is stored at once and loaded back.
    const ir::Type t = builder_->op(value).type();
    if (t.is_scalar()) [[likely]]
      return temps_known_.stored(reg * 4 + c, tmp, value, t.scalar_type());
    store_temp_to_memory(reg, c, tmp, value);
  }
  ir::ScalarType stored_type(ir::SsaDef value, ir::ScalarType type) const;

  // ---- errors -------------------------------------------------------------------------------

  // Records the first error ("SHDR token N (mnemonic): what"; an Instruction is a Where).
  bool fail(const Where& where, std::string_view what) { return errors_.fail(where, what); }
  // Where a report from an operand helper points: the instruction being converted, if any.
  Where here() const { return current_ ? Where(*current_) : Where(); }
  bool ok() const { return !errors_.failed(); }
  // The converter's Status at its boundary (convert_program): see ErrorSink::outcome.
  Status outcome(bool ran) {
    return errors_.outcome(ran, "DXBC: conversion stopped without a reason");
  }

  // ---- where the walk is -----------------------------------------------------------------------
  void set_entry_point(ir::SsaDef def) { entry_point_ = def; }
  void set_function(ir::SsaDef def) { function_ = def; }
  void set_current(const Instruction* inst) { current_ = inst; }

 private:
  // bitcast's conversions (value, from and to checked: a conversion is needed).
  ir::SsaDef convert_bits(ir::SsaDef value, ir::ScalarType from, ir::ScalarType to);
  // store_temp of a value that is not a scalar: a TmpStore.
  void store_temp_to_memory(std::uint32_t reg, unsigned c, ir::SsaDef tmp, ir::SsaDef value);
  // load_temp without a value forwarded in this stretch: a TmpLoad.
  ir::SsaDef load_temp_from_memory(std::uint32_t reg, unsigned c, ir::SsaDef tmp,
                                   ir::ScalarType type);
  static std::string spell_error(const Where& where, std::string_view what);

  ir::Builder* builder_ = nullptr;
  const Program* program_ = nullptr;
  const Container* container_ = nullptr;
  ir::SsaDef entry_point_;
  ir::SsaDef function_;
  const Instruction* current_ = nullptr;
  ErrorSink errors_{&spell_error};
  ir::TempForwarding temps_known_; // r# values of the current straight-line stretch
};

} // namespace kiln::dxbc
