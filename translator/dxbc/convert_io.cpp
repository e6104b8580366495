// Shader inputs and outputs of the DXBC converter, access half: reading and writing v#, o#,
// vicp, vocp, vpc and the special registers (vPrim, vThreadID, oDepth, ...), dynamic register
// indices, eval_* interpolation, and the hull shader's pass-through control point phase.
// Declaring them: convert_io_declare.cpp.
#include "translator/dxbc/convert_io.h"

#include "translator/ir/ir_op_views.h"

#include <bit>
#include <string>

namespace kiln::dxbc {

namespace {

// The slot of a special register (vPrim, vThreadID, oDepth, ...), declared on first use.
IoSlot* special_slot(ConvertContext& ctx, OperandType type, unsigned component) {
  std::uint32_t reg = std::uint32_t(type);
  IoSlot* s = ctx.slot(IoFile::Special, reg, component);
  if (!s || !s->dcl) {
    declare_special(ctx, type, std::uint8_t(1u << component));
    s = ctx.slot(IoFile::Special, reg, component);
  }
  if (!s || !s->dcl) {
    ctx.fail(ctx.here(), "unsupported register type " + std::to_string(unsigned(type)));
    return nullptr;
  }
  return s;
}

} // namespace

IoSlot* io_slot_for(ConvertContext& ctx, const Operand& op, unsigned component, bool write) {
  IoTarget where = target_of(ctx, op.type);
  if (where.file == IoFile::Special) return special_slot(ctx, op.type, component);
  unsigned reg_dim = op.index_dimension ? op.index_dimension - 1u : 0u;
  if (op.index_dimension == 0) {
    ctx.fail(ctx.here(), "register operand without an index");
    return nullptr;
  }
  if (op.has_relative(reg_dim)) {
    ctx.fail(ctx.here(), "dynamically indexed input/output registers (dcl_indexrange)");
    return nullptr;
  }
  IoSlot* s = ctx.slot(where.file, op.index[reg_dim], component);
  if (!s || !s->dcl) {
    // Components that no declaration names (compilers read .w of a .xyz input): zero.
    if (!write) return nullptr;
    ctx.fail(ctx.here(), std::string("undeclared ") + (where.output ? "output o" : "input v") +
                             std::to_string(op.index[reg_dim]));
    return nullptr;
  }
  return s;
}

namespace {

// o# in the control point phase: this invocation's control point (loaded once per function).
SsaDef control_point_id(ConvertContext& ctx) {
  if (!ctx.control_point_id) {
    IoSlot* id = special_slot(ctx, OperandType::OutputControlPointId, 0);
    if (!id) return {};
    ctx.control_point_id =
        ctx.builder().add_after(ctx.label, Op::InputLoad(ir::kU32, id->dcl, SsaDef()));
  }
  return ctx.control_point_id;
}

// The output location variable whose components are exactly `mask` of register `reg` (in order),
// per control point when `per_vertex`, or null. Such a variable is written as one vector store:
// lavapipe's pipeline build and first draw pay for every store to a control-point output indexed
// by the invocation and to a geometry shader's output, and four scalar stores cost measurably
// more than one vector store (docs/execution.md, "Driver time, kiln against vkd3d-shader 1.2").
// A store mirrored into another stream's variable keeps its per-component form.
const IoSlot* whole_output_vector(ConvertContext& ctx, std::uint32_t reg, std::uint8_t mask,
                                  bool per_vertex) {
  if (!ctx.stream_mirrors.empty()) return nullptr;
  const IoSlot* first = nullptr;
  unsigned count = 0;
  for (unsigned c = 0; c < 4; ++c) {
    if (!(mask & (1u << c))) continue;
    const IoSlot* s = ctx.slot(IoFile::Output, reg, c);
    if (!s || !s->dcl || s->per_vertex != per_vertex || s->shape != IoSlot::Shape::Vector)
      return nullptr;
    if (!first) first = s;
    if (s->dcl != first->dcl || s->type != first->type || s->element != count) return nullptr;
    ++count;
  }
  if (count < 2) return nullptr;
  // A built-in vector (a geometry shader's Position) too, where no control point indexes it.
  const ir::OpCode dcl = ctx.builder().op(first->dcl).code();
  if (!(dcl == ir::OpCode::DclOutput || (!per_vertex && dcl == ir::OpCode::DclOutputBuiltIn)))
    return nullptr;
  for (unsigned c = 0; c < 4; ++c) {
    const IoSlot* s = ctx.slot(IoFile::Output, reg, c);
    if (!(mask & (1u << c)) && s && s->dcl == first->dcl) return nullptr; // a part of it
  }
  return first;
}

// Stores values[c] (of `slot`'s type; whole_output_vector() found it for `mask`) as one vector
// store, to control point `vertex` where the slot is per control point.
void store_output_vector(ConvertContext& ctx, const IoSlot& slot, std::uint8_t mask, SsaDef vertex,
                         const SsaDef* values) {
  SsaDef parts[4];
  unsigned count = 0;
  for (unsigned c = 0; c < 4; ++c)
    if (mask & (1u << c)) parts[count++] = values[c];
  const Type t = ir::vec(slot.type, count);
  SsaDef v = ctx.emit(Op::CompositeConstruct(t, std::span<const SsaDef>(parts, count)));
  ctx.emit(Op::OutputStore(ir::kVoid, slot.dcl, vertex, v));
}

// The address operand for one slot: [vertex,] element.
SsaDef slot_address(ConvertContext& ctx, const Operand& op, const IoSlot& s, bool output_file) {
  SsaDef vertex;
  if (s.per_vertex) {
    if (op.index_dimension >= 2) {
      vertex = ctx.load_index(op, 0);
    } else if (output_file) {
      vertex = control_point_id(ctx);
      if (!vertex) return {};
    } else {
      ctx.fail(ctx.here(), "per-vertex input read without a vertex index");
      return {};
    }
  }
  bool has_element = s.shape == IoSlot::Shape::Vector || s.shape == IoSlot::Shape::Array;
  if (!vertex) return has_element ? ctx.constant_u32(s.element) : SsaDef();
  if (!has_element) return vertex;
  return ctx.emit(
      Op::CompositeConstruct(ir::vec(ScalarType::U32, 2), vertex, ctx.constant_u32(s.element)));
}

} // namespace

namespace {

// Register index dimension of an I/O operand (the last one), when it is relative.
bool dynamic_register(const Operand& op, unsigned& reg_dim) {
  if (op.index_dimension == 0) return false;
  reg_dim = op.index_dimension - 1u;
  return op.has_relative(reg_dim);
}

// The operand with register `reg` in place of its relative register index.
Operand with_register(const Operand& op, unsigned reg_dim, std::uint32_t reg) {
  Operand fixed = op;
  fixed.index[reg_dim] = reg;
  fixed.relative[reg_dim] = kNoOperand;
  fixed.index_representation[reg_dim] = IndexRepresentation::Immediate32;
  return fixed;
}

// Candidate registers of a dynamically indexed v#/o#: every declared register from the
// immediate base on (dcl_indexrange bounds what the shader may reach; outside it D3D leaves
// the result undefined, so the declared registers suffice).
std::uint32_t register_limit(ConvertContext& ctx, const Operand& op) {
  IoTarget where = target_of(ctx, op.type);
  return std::uint32_t(ctx.file(where.file).size() / 4);
}

} // namespace

SsaDef io_load(ConvertContext& ctx, const Operand& op, unsigned component, ScalarType type) {
  unsigned reg_dim = 0;
  if (dynamic_register(op, reg_dim) && op.type != OperandType::Null) {
    // v[r0.x + n]: select among the declared registers.
    SsaDef index = ctx.load_index(op, reg_dim);
    SsaDef result = ctx.constant_bits(type, 0);
    for (std::uint32_t reg = op.index[reg_dim], end = register_limit(ctx, op); reg < end; ++reg) {
      IoSlot* s = ctx.slot(target_of(ctx, op.type).file, reg, component);
      if (!s || !s->dcl) continue;
      SsaDef v = io_load(ctx, with_register(op, reg_dim, reg), component, type);
      if (!v) return {};
      SsaDef hit = ctx.emit(Op::IEq(index, ctx.constant_u32(reg)));
      result = ctx.emit(Op::Select(Type(type), hit, v, result));
    }
    return result;
  }
  if (op.type == OperandType::InputForkInstanceId || op.type == OperandType::InputJoinInstanceId) {
    if (!ctx.fork_instance) return ctx.constant_bits(type, 0);
    return ctx.bitcast(ctx.fork_instance, ScalarType::U32, type);
  }
  if (op.type == OperandType::Null) return ctx.constant_bits(type, 0);
  if (op.type == OperandType::Rasterizer || op.type == OperandType::CycleCounter) {
    ctx.fail(ctx.here(), op.type == OperandType::CycleCounter ? "unsupported register vCycleCounter"
                                                              : "unsupported register rasterizer");
    return {};
  }
  IoSlot* s = io_slot_for(ctx, op, component, false);
  if (!s) return ctx.ok() ? ctx.constant_bits(type, 0) : SsaDef();
  IoTarget where = target_of(ctx, op.type);
  SsaDef addr = slot_address(ctx, op, *s, where.output);
  if (!ctx.ok()) return {};
  Type t = s->type == ScalarType::Bool ? ir::kBool : Type(s->type);
  SsaDef v;
  bool cacheable = !where.output && !s->per_vertex;
  if (cacheable && s->stamp == ctx.function_stamp) {
    v = s->cached;
  } else if (cacheable) {
    // The address is a constant (or null): the load can sit at the function's start.
    v = ctx.builder().add_after(ctx.label, Op::InputLoad(t, s->dcl, addr));
    s->cached = v;
    s->stamp = ctx.function_stamp;
  } else {
    v = where.output ? ctx.emit(Op::OutputLoad(t, s->dcl, addr))
                     : ctx.emit(Op::InputLoad(t, s->dcl, addr));
  }
  if (ctx.program().type == ProgramType::Pixel && s->shape == IoSlot::Shape::Vector &&
      s->element == 3 && ctx.builder().op(s->dcl).code() == ir::OpCode::DclInputBuiltIn &&
      ir::ops::DclInputBuiltIn(ctx.builder().op(s->dcl)).builtin().literal_u32() ==
          std::uint32_t(BuiltIn::Position)) {
    // D3D's SV_Position.w is the clip-space w; Vulkan's FragCoord.w is its reciprocal.
    v = ctx.emit(Op::FRcp(ir::kF32, v));
  }
  return ctx.bitcast(v, s->type, type);
}

void io_store(ConvertContext& ctx, const Operand& op, unsigned component, SsaDef value,
              ScalarType type) {
  if (!is_output_operand(op.type)) {
    ctx.fail(ctx.here(), "write to a read-only register");
    return;
  }
  unsigned reg_dim = 0;
  if (dynamic_register(op, reg_dim)) {
    // o[r0.x + n]: store to the register the index names, one guarded store per candidate.
    SsaDef index = ctx.load_index(op, reg_dim);
    for (std::uint32_t reg = op.index[reg_dim], end = register_limit(ctx, op); reg < end; ++reg) {
      IoSlot* s = ctx.slot(target_of(ctx, op.type).file, reg, component);
      if (!s || !s->dcl) continue;
      SsaDef hit = ctx.emit(Op::IEq(index, ctx.constant_u32(reg)));
      SsaDef sif = ctx.emit(Op::ScopedIf(SsaDef(), hit));
      io_store(ctx, with_register(op, reg_dim, reg), component, value, type);
      SsaDef end_if = ctx.emit(Op::ScopedEndIf(sif));
      ctx.builder().rewrite_op(sif, Op::ScopedIf(end_if, hit));
      if (!ctx.ok()) return;
    }
    return;
  }
  IoSlot* s = io_slot_for(ctx, op, component, true);
  if (!s) return;
  SsaDef addr = slot_address(ctx, op, *s, true);
  if (!ctx.ok()) return;
  SsaDef v = ctx.bitcast(value, type, s->type);
  ctx.emit(Op::OutputStore(ir::kVoid, s->dcl, addr, v));
  // The same register component declared by other geometry shader streams.
  const auto& mirrors = ctx.stream_mirrors;
  if (mirrors.empty() || op.type != OperandType::Output) return;
  const std::uint32_t reg = op.index[op.index_dimension - 1];
  for (std::size_t i = 0; i < mirrors.size(); ++i) {
    if (mirrors[i].reg != reg || mirrors[i].component != component) continue;
    const IoSlot m = mirrors[i].slot;
    SsaDef maddr = slot_address(ctx, op, m, true);
    ctx.emit(Op::OutputStore(ir::kVoid, m.dcl, maddr, ctx.bitcast(value, type, m.type)));
  }
}

bool io_load_input_vector(ConvertContext& ctx, const Operand& op, std::uint8_t components,
                          ScalarType type, SsaDef* parts) {
  unsigned reg_dim = 0;
  const ProgramType stage = ctx.program().type;
  if ((stage != ProgramType::Geometry && stage != ProgramType::Hull &&
       stage != ProgramType::Domain) ||
      (op.type != OperandType::Input && op.type != OperandType::InputControlPoint) ||
      op.index_dimension != 2 || dynamic_register(op, reg_dim) || std::popcount(components) < 2)
    return false;
  // Every component read must be an element of one per-vertex vector variable: an array over
  // the vertices of one vector, loaded whole.
  const std::uint32_t reg = op.index[1];
  const IoSlot* first = nullptr;
  for (unsigned c = 0; c < 4; ++c) {
    if (!(components & (1u << c))) continue;
    const IoSlot* s = ctx.slot(IoFile::Input, reg, c);
    if (!s || !s->dcl || !s->per_vertex || s->shape != IoSlot::Shape::Vector ||
        s->type == ScalarType::Bool)
      return false;
    if (!first) first = s;
    if (s->dcl != first->dcl || s->type != first->type) return false;
  }
  const ir::TypeView variable = ctx.builder().types().view(ctx.builder().op(first->dcl).type());
  if (variable.dim_count != 1 || variable.member_count() != 1) return false;
  const Type element = variable.member(0);
  if (!element.is_basic() || element.scalar_type() != first->type) return false;
  const unsigned width = element.vector_size();
  SsaDef vertex = ctx.load_index(op, 0);
  if (!vertex || !ctx.ok()) return false;
  SsaDef whole = ctx.emit(Op::InputLoad(ir::vec(first->type, width), first->dcl, vertex));
  for (unsigned c = 0; c < 4; ++c) {
    if (!(components & (1u << c))) continue;
    const IoSlot* s = ctx.slot(IoFile::Input, reg, c);
    SsaDef part =
        ctx.emit(Op::CompositeExtract(Type(s->type), whole, ctx.constant_u32(s->element)));
    parts[c] = ctx.bitcast(part, s->type, type);
  }
  return true;
}

bool io_store_output_vector(ConvertContext& ctx, const Operand& op, std::uint8_t mask,
                            const SsaDef* value, ScalarType type) {
  unsigned reg_dim = 0;
  const ProgramType stage = ctx.program().type;
  if ((stage != ProgramType::Hull && stage != ProgramType::Geometry) ||
      op.type != OperandType::Output || op.index_dimension != 1 || dynamic_register(op, reg_dim) ||
      target_of(ctx, op.type).file != IoFile::Output)
    return false;
  const bool per_control_point = stage == ProgramType::Hull;
  const IoSlot* s = whole_output_vector(ctx, op.index[0], mask, per_control_point);
  if (!s) return false;
  for (unsigned c = 0; c < 4; ++c)
    if ((mask & (1u << c)) && !value[c]) return false;
  SsaDef vertex;
  if (per_control_point && !(vertex = control_point_id(ctx))) return false;
  SsaDef typed[4];
  for (unsigned c = 0; c < 4; ++c)
    if (mask & (1u << c))
      typed[c] = ctx.bitcast(value[c], ctx.stored_type(value[c], type), s->type);
  store_output_vector(ctx, *s, mask, vertex, typed);
  return true;
}

SsaDef io_interpolate(ConvertContext& ctx, const Instruction& inst, const Operand& op,
                      unsigned component, SsaDef extra) {
  if (op.type != OperandType::Input || ctx.program().type != ProgramType::Pixel) {
    ctx.fail(inst, "interpolation of a register that is not a pixel shader input");
    return {};
  }
  IoSlot* s = io_slot_for(ctx, op, component, false);
  if (!s) return ctx.ok() ? ctx.constant_f32(0.0f) : SsaDef();
  if (s->type != ScalarType::F32 || ctx.builder().op(s->dcl).code() != ir::OpCode::DclInput) {
    // Flat and built-in inputs are the same at every position.
    return io_load(ctx, op, component, ScalarType::F32);
  }
  SsaDef addr = slot_address(ctx, op, *s, false);
  switch (inst.opcode) {
  case Opcode::EvalCentroid:
    return ctx.emit(Op::InterpolateAtCentroid(ir::kF32, s->dcl, addr));
  case Opcode::EvalSampleIndex:
    return ctx.emit(Op::InterpolateAtSample(ir::kF32, s->dcl, addr, extra));
  default:
    return ctx.emit(Op::InterpolateAtOffset(ir::kF32, s->dcl, addr, extra));
  }
}

namespace {

// One side of a pass-through control point: the built-in of the element's system value when
// `system_values` (vkd3d-shader 1.2 has none on the output side, where no declaration names
// one), else the element's location.
void declare_passthrough(ConvertContext& ctx, const IoTarget& where, const SignatureElement& e,
                         bool system_values) {
  BuiltInInfo info;
  const std::uint32_t code = tess_code_of_signature_name(e.system_value, e.semantic_index);
  if (system_values && e.system_value && e.system_value < 64 && builtin_of_sv(code, info))
    declare_builtin(ctx, where, e.register_index, e.mask, info, code, &e);
  else if (ctx.convention == InterfaceConvention::Vkd3dShader)
    declare_location_vkd3d(ctx, where, e.register_index, e.mask, InterpolationMode::Undefined,
                           false);
  else
    declare_location(ctx, where, e.register_index, e.mask, InterpolationMode::Undefined, &e);
}

} // namespace

void io_hull_passthrough(ConvertContext& ctx) {
  IoSlot* id_slot = special_slot(ctx, OperandType::OutputControlPointId, 0);
  if (!id_slot) return;
  SsaDef id = ctx.emit(Op::InputLoad(ir::kU32, id_slot->dcl, SsaDef()));
  IoTarget in{IoFile::Input, false, true, &ctx.isgn};
  IoTarget out{IoFile::Output, true, true, &ctx.osgn};
  for (const SignatureElement& e : ctx.isgn) {
    // Elements without a register (~0) or with a damaged one declare nothing here.
    if (e.register_index >= kMaxIoRegister) continue;
    declare_passthrough(ctx, in, e, true);
    // The output is what the output signature says it is (a system value there, or an
    // ordinary varying the domain shader reads at its location), whatever the input was.
    const SignatureElement* o = find_element(ctx.osgn, e.register_index, e.mask, 0);
    declare_passthrough(ctx, out, o ? *o : e, ctx.convention != InterfaceConvention::Vkd3dShader);
    auto address = [&](const IoSlot& s) {
      bool has_element = s.shape == IoSlot::Shape::Vector || s.shape == IoSlot::Shape::Array;
      if (!has_element) return id;
      return ctx.emit(
          Op::CompositeConstruct(ir::vec(ScalarType::U32, 2), id, ctx.constant_u32(s.element)));
    };
    SsaDef values[4]{};
    std::uint8_t copied = 0;
    for (unsigned c = 0; c < 4; ++c) {
      if (!(e.mask & (1u << c))) continue;
      IoSlot* si = ctx.slot(IoFile::Input, e.register_index, c);
      IoSlot* so = ctx.slot(IoFile::Output, e.register_index, c);
      if (!si || !so || !si->dcl || !so->dcl) continue;
      SsaDef v = ctx.emit(Op::InputLoad(Type(si->type), si->dcl, address(*si)));
      values[c] = ctx.bitcast(v, si->type, so->type);
      copied |= std::uint8_t(1u << c);
    }
    if (const IoSlot* whole = whole_output_vector(ctx, e.register_index, copied, true);
        whole && id) {
      store_output_vector(ctx, *whole, copied, id, values);
      continue;
    }
    for (unsigned c = 0; c < 4; ++c)
      if (copied & (1u << c)) {
        IoSlot* so = ctx.slot(IoFile::Output, e.register_index, c);
        ctx.emit(Op::OutputStore(ir::kVoid, so->dcl, address(*so), values[c]));
      }
  }
}

} // namespace kiln::dxbc
