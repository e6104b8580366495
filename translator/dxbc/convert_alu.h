#pragma once
// Internal to the DXBC converter's arithmetic (convert_alu.cpp, convert_alu_int.cpp): the
// helper every ALU handler starts with.

#include "translator/dxbc/convert_core.h"
#include "translator/dxbc/convert_dispatch.h"

namespace kiln::dxbc {

// One instruction's operands and the precise flag: reads sources for a destination mask,
// stores results (with _sat), emits ops marked Precise when the instruction asks for it.
struct Alu {
  Alu(ConvertContext& c, const Instruction& i)
      : ctx(c), inst(i), ops(c.program().operands_of(i)),
        precise(i.precise_mask() != 0 || c.precise_all) {}

  // By reference: an Op is some 150 bytes, and a copy per emitted op showed in profiles.
  ir::SsaDef op(ir::Op&& o) {
    if (marks_precise(o)) o.add_flags(ir::OpFlags::Precise);
    return ctx.emit(o);
  }
  ir::SsaDef op(const ir::Op& o) {
    if (!marks_precise(o)) return ctx.emit(o);
    ir::Op marked = o;
    return ctx.emit(marked.add_flags(ir::OpFlags::Precise));
  }
  bool marks_precise(const ir::Op& o) const {
    return precise && o.type().is_basic() && ir::is_float(o.type().scalar_type());
  }
  ir::SsaDef u32(std::uint32_t v) { return ctx.constant_u32(v); }
  ir::SsaDef f32(float v) { return ctx.constant_f32(v); }
  std::uint8_t dst_mask(unsigned i) const {
    const Operand& d = ops[i];
    if (d.type == OperandType::Null) return 0;
    return d.component_count == 1 ? 1 : d.mask;
  }
  Vec4 src(unsigned i, std::uint8_t mask, ir::ScalarType t) {
    return ctx.load_src(ops[i], mask, t);
  }
  void store(unsigned i, const Vec4& v, ir::ScalarType t) { ctx.store_dst(inst, ops[i], v, t); }
  ir::SsaDef mask_bool(ir::SsaDef b) {
    return ctx.emit(ir::Op::Select(ir::kU32, b, u32(~0u), u32(0)));
  }

  // Lanes (bit 0: xy, bit 1: zw) a 64-bit destination mask names, and the 32-bit source mask
  // that reads those lanes.
  static unsigned lanes_of(std::uint8_t mask) {
    return ((mask & 3) ? 1u : 0u) | ((mask & 12) ? 2u : 0u);
  }
  static std::uint8_t mask_of_lanes(unsigned lanes) {
    return std::uint8_t(((lanes & 1) ? 3u : 0u) | ((lanes & 2) ? 12u : 0u));
  }

  ConvertContext& ctx;
  const Instruction& inst;
  std::span<const Operand> ops;
  bool precise = false;
};

namespace alu_types {
constexpr ir::ScalarType F = ir::ScalarType::F32, I = ir::ScalarType::I32, U = ir::ScalarType::U32,
                         D = ir::ScalarType::F64;
}

} // namespace kiln::dxbc
