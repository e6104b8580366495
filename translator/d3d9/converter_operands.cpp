// D3D9 -> IR: register reads (swizzle, source modifiers, relative addressing, constant banks)
// and destination writes (write mask, result shift, saturate, predication, co-issue).
#include "translator/d3d9/converter_state.h"
#include "translator/ir/ir_op_views.h"

#include <bit>
#include <cstdio>

namespace kiln::d3d9::detail {

namespace {

const char* register_name(RegisterType t) {
  switch (t) {
#define KILN_X(name, value, vs, ps)                                                                \
  case RegisterType::name:                                                                         \
    return #name;
    KILN_D3D9_REGISTER_TYPES(KILN_X)
#undef KILN_X
  }
  return "?";
}

} // namespace

SsaDef State::temp_reg(unsigned index, unsigned c) {
  SsaDef& t = temps[index][c];
  if (!t) t = tmp(ir::kF32);
  return t;
}

SsaDef State::out_reg(unsigned slot, unsigned c) {
  SsaDef& t = out_temps[slot][c];
  if (!t) {
    t = tmp(ir::kF32);
    // Outputs start at 0 (vertex colours at 1, D3D9's white) so that partial or conditional
    // writes store defined values.
    const bool colour = !pixel && (slot == kSlotColor0 || slot == kSlotColor0 + 1);
    const SsaDef init = f32(colour ? 1.0f : 0.0f);
    // Still in main's first block (outputs are made before any code): a forwarded write, which
    // straight-line code overwrites or keeps without a TmpStore ever being emitted.
    if (temps_known.in_first_stretch())
      temps_known.stored(t.id(), t, init, ir::ScalarType::F32);
    else
      b->add_after(first_label, ir::Op::TmpStore(t, init));
  }
  return t;
}

// Every register file (r#, o#, a0, p0, t#, aL and loop counters) is a DclTmp of one type,
// keyed here by the DclTmp's id.
SsaDef State::emit_temp_access(const ir::Op& op) {
  const SsaDef t = op.operand(ir::ops::TmpLoad::index_of("variable")).def(); // TmpStore's too
  if (!t) return b->add(op);
  if (op.code() == ir::OpCode::TmpLoad) {
    const ir::TempForwarding::Known known = temps_known.known(t.id(), t);
    if (known.value && ir::Type(known.type) == op.type()) return known.value;
    if (SsaDef pending = temps_known.take_pending(t.id(), t)) b->add(ir::Op::TmpStore(t, pending));
    const SsaDef load = b->add(op);
    if (op.type().is_scalar()) temps_known.loaded(t.id(), t, load, op.type().scalar_type());
    return load;
  }
  const SsaDef value = op.operand(ir::ops::TmpStore::index_of("value")).def();
  const ir::Type type = value ? b->op(value).type() : ir::Type();
  if (type.is_scalar()) {
    temps_known.stored(t.id(), t, value, type.scalar_type());
    return {};
  }
  temps_known.forget(t.id(), t);
  return b->add(op);
}

SsaDef State::texcoord(const Instruction& ins, unsigned index, unsigned c) {
  if (index >= kMaxTexRegs) { // scan() checks operands; stages also come from state
    fail(ins, "texture coordinate register out of range");
    return {};
  }
  SsaDef& dcl = in_dcl[kMaxInputs + index][c];
  if (!dcl) {
    static const Instruction none{};
    SsaDef d = varying(false, Usage::TexCoord, index, false, none);
    if (!d) return {};
    in_dcl[kMaxInputs + index].fill(d);
  }
  return input_component(dcl, c);
}

// Inputs do not change during an invocation: each component is loaded once, at main's entry,
// where it dominates every read; a vec4 declaration as one vector load and its extracts.
SsaDef State::input_component(SsaDef dcl, unsigned c) {
  LoadedInput* in = nullptr;
  for (LoadedInput& l : loaded_inputs)
    if (l.dcl == dcl) in = &l;
  if (!in) in = &loaded_inputs.emplace_back(LoadedInput{dcl, {}, {}});
  SsaDef& value = in->component[c];
  if (value) return value;
  const ir::Type v4f = ir::vec(ir::ScalarType::F32, 4);
  if (b->op(dcl).type() != v4f) {
    value = b->add_after(first_label, ir::Op::InputLoad(ir::kF32, dcl, u32(c)));
    return value;
  }
  if (!in->vector) in->vector = b->add_after(first_label, ir::Op::InputLoad(v4f, dcl, SsaDef()));
  value = b->add_after(in->vector, ir::Op::CompositeExtract(ir::kF32, in->vector, u32(c)));
  return value;
}

SsaDef State::relative_index(const Instruction& ins, RegisterType rel_type,
                             unsigned rel_component) {
  if (rel_type == RegisterType::Loop) {
    for (auto it = control.rbegin(); it != control.rend(); ++it)
      if (it->kind == ControlFrame::Loop) return emit(ir::Op::TmpLoad(ir::kI32, it->loop_reg));
    return i32(0); // aL outside a loop: undefined in D3D9; 0 as before any loop starts
  }
  if (rel_type != RegisterType::Address || pixel) {
    fail(ins, "relative addressing through an unsupported register");
    return {};
  }
  SsaDef& a = addr[rel_component & 3];
  if (!a) a = tmp(ir::kI32);
  return emit(ir::Op::TmpLoad(ir::kI32, a));
}

// The vec4 of a float constant register from the constant buffer, or null when the register is
// a def immediate (read with a static index).
SsaDef State::load_float_const(const Instruction& ins, const SourceParam& s) {
  const unsigned reg = float_register(s);
  const ir::Type v4f = ir::vec(ir::ScalarType::F32, 4);
  if (!s.relative) {
    if (reg < def_limit && (float_defined[reg / 8] & (1u << (reg % 8)))) return {};
    return emit(ir::Op::BufferLoad(v4f, bank(desc_float, 0, ir::ScalarType::F32, float_count),
                                   u32(reg), 16u));
  }
  SsaDef rel = relative_index(ins, s.rel_type, s.rel_component);
  if (!rel) return {};
  SsaDef index =
      emit(ir::Op::Cast(ir::kU32, emit(ir::Op::IAdd(ir::kI32, rel, i32(std::int32_t(reg))))));
  // Out-of-range reads return 0, as D3D9 does.
  SsaDef in_range = emit(ir::Op::ULt(index, u32(float_count)));
  SsaDef clamped = emit(ir::Op::UMin(ir::kU32, index, u32(float_count - 1)));
  SsaDef v = emit(
      ir::Op::BufferLoad(v4f, bank(desc_float, 0, ir::ScalarType::F32, float_count), clamped, 16u));
  SsaDef zero = b->add(ir::Op::Constant(v4f, 0.0f, 0.0f, 0.0f, 0.0f));
  v = emit(ir::Op::Select(v4f, in_range, v, zero));
  if (def_array) {
    // The element of def_array: below def_base the difference wraps past the array's end.
    const std::uint32_t count = def_limit - def_base;
    SsaDef offset = def_base ? emit(ir::Op::ISub(ir::kU32, index, u32(def_base))) : index;
    SsaDef di = emit(ir::Op::UMin(ir::kU32, offset, u32(count - 1)));
    SsaDef flag = emit(ir::Op::ConstantLoad(ir::kU32, def_flags, di));
    SsaDef is_def =
        emit(ir::Op::BAnd(emit(ir::Op::ULt(offset, u32(count))), emit(ir::Op::INe(flag, u32(0)))));
    SsaDef dv = emit(ir::Op::ConstantLoad(v4f, def_array, di));
    v = emit(ir::Op::Select(v4f, is_def, dv, v));
  }
  return v;
}

SsaDef State::int_const(const Instruction& ins, unsigned index, unsigned c) {
  if (index < 32 && (int_defined & (1u << index))) return i32(int_defs[index][c]);
  if (index >= 16) {
    fail(ins, "integer constant register out of range");
    return {};
  }
  SsaDef v = emit(ir::Op::BufferLoad(ir::vec(ir::ScalarType::I32, 4),
                                     bank(desc_int, 1, ir::ScalarType::I32, 16), u32(index), 16u));
  return emit(ir::Op::CompositeExtract(ir::kI32, v, u32(c)));
}

SsaDef State::bool_const(unsigned index) {
  if (index >= 32) return {}; // scan() rejects b32 and up
  if (bool_defined & (1u << index)) return b->constant_bool(bool_values & (1u << index));
  SsaDef v = emit(ir::Op::BufferLoad(ir::vec(ir::ScalarType::U32, 4),
                                     bank(desc_bool, 2, ir::ScalarType::U32, 1), u32(0), 16u));
  SsaDef w = emit(ir::Op::CompositeExtract(ir::kU32, v, u32(0)));
  return emit(ir::Op::INe(emit(ir::Op::IAnd(ir::kU32, w, u32(1u << index))), u32(0)));
}

SsaDef State::predicate_of(const SourceParam& p, unsigned position) {
  SsaDef& t = pred[swizzle_component(p.swizzle, position)];
  if (!t) t = tmp(ir::kBool);
  SsaDef v = emit(ir::Op::TmpLoad(ir::kBool, t));
  if (p.modifier == SourceModifier::Not) v = emit(ir::Op::BNot(v));
  return v;
}

SsaDef State::read_raw(const Instruction& ins, const SourceParam& s, unsigned c) {
  if (s.relative && s.type != RegisterType::Input) {
    fail(ins, "relative addressing of a register file other than c# or v#");
    return {};
  }
  switch (s.type) {
  case RegisterType::Temp:
    if (s.index >= kMaxTemps) break;
    return emit(ir::Op::TmpLoad(ir::kF32, temp_reg(s.index, c)));
  case RegisterType::Input: {
    if (s.index >= kMaxInputs) break;
    if (!pixel && !in_dcl[s.index][0]) {
      // vs_1_1-style input without dcl: location = register, as the vertex declaration binds.
      in_dcl[s.index].fill(
          b->add(ir::Op::DclInput(ir::vec(ir::ScalarType::F32, 4), entry, unsigned(s.index), 0u,
                                  ir::InterpolationModes(0))));
    }
    if (s.relative) {
      // v[aL]: select among the declared registers; others read 0.
      SsaDef rel = relative_index(ins, s.rel_type, s.rel_component);
      if (!rel) return {};
      SsaDef index = emit(ir::Op::IAdd(ir::kI32, rel, i32(std::int32_t(s.index))));
      SsaDef v = f32(0.0f);
      for (unsigned r = 0; r < kMaxInputs; ++r) {
        if (!in_dcl[r][c]) continue;
        SsaDef x = emit(ir::Op::InputLoad(ir::kF32, in_dcl[r][c], u32(c)));
        v = emit(ir::Op::Select(ir::kF32, emit(ir::Op::IEq(index, i32(std::int32_t(r)))), x, v));
      }
      return v;
    }
    SsaDef dcl = in_dcl[s.index][c];
    if (!dcl) {
      if (pixel && model != Model::Ps3) {
        static const Instruction none{};
        SsaDef d = varying(false, Usage::Color, s.index, false, none);
        if (!d) return {};
        in_dcl[s.index].fill(d);
        dcl = d;
      } else if (in_dcl[s.index][0] || in_dcl[s.index][1] || in_dcl[s.index][2] ||
                 in_dcl[s.index][3]) {
        return f32(0.0f); // a component the declaration does not cover
      } else {
        fail(ins, "read of an input register without dcl");
        return {};
      }
    }
    return input_component(dcl, c);
  }
  case RegisterType::Address:
    if (!pixel) {
      fail(ins, "a0 read as a value");
      return {};
    }
    if (s.index >= kMaxTexRegs) break;
    if (model_bit(model) & models::Ps1Tex) {
      SsaDef& t = tex_temps[s.index][c];
      if (!t) t = tmp(ir::kF32);
      return emit(ir::Op::TmpLoad(ir::kF32, t));
    }
    if (in_dcl[kMaxInputs + s.index][c] || model != Model::Ps3) return texcoord(ins, s.index, c);
    break;
  case RegisterType::MiscType:
    if (s.index == 0) {
      if (!frag_coord) {
        static const Instruction none{};
        Instruction d = none;
        d.dst.type = RegisterType::MiscType;
        if (!declare_io(d)) return {};
      }
      SsaDef v = emit(ir::Op::InputLoad(ir::kF32, frag_coord, u32(c)));
      // D3D9 pixel coordinates name the pixel's corner, Vulkan's its centre.
      if (c < 2) v = emit(ir::Op::FSub(ir::kF32, v, f32(0.5f)));
      return v;
    }
    if (!front_face) {
      static const Instruction none{};
      Instruction d = none;
      d.dst.type = RegisterType::MiscType;
      d.dst.index = 1;
      if (!declare_io(d)) return {};
    }
    return emit(ir::Op::Select(ir::kF32, emit(ir::Op::InputLoad(ir::kBool, front_face, SsaDef())),
                               f32(1.0f), f32(-1.0f)));
  default:
    break;
  }
  char text[96];
  std::snprintf(text, sizeof text, "unsupported source register %s%u", register_name(s.type),
                unsigned(s.index));
  fail(ins, text);
  return {};
}

bool State::read_src(const Instruction& ins, const SourceParam& s, std::uint8_t mask, Vec4& out) {
  SsaDef raw[4] = {};
  SsaDef vec;
  const bool constant = is_float_const(s.type);
  if (constant) {
    vec = load_float_const(ins, s);
    if (!vec && errors.failed()) return false;
  }
  const bool ps1 = pixel && (model_bit(model) & models::Ps1All);
  auto component = [&](unsigned c) -> SsaDef {
    if (raw[c]) return raw[c];
    if (constant) {
      if (vec) {
        raw[c] = emit(ir::Op::CompositeExtract(ir::kF32, vec, u32(c)));
        // ps_1_x constants are clamped to [-1, 1].
        if (ps1) raw[c] = emit(ir::Op::FClamp(ir::kF32, raw[c], f32(-1.0f), f32(1.0f)));
      } else {
        raw[c] = f32(std::bit_cast<float>(float_defs[float_register(s)][c]));
      }
    } else {
      raw[c] = read_raw(ins, s, c);
    }
    return raw[c];
  };
  for (unsigned i = 0; i < 4; ++i) {
    if (!(mask & (1u << i))) continue;
    SsaDef x = component(swizzle_component(s.swizzle, i));
    if (!x) return false;
    switch (s.modifier) {
    case SourceModifier::None:
      break;
    case SourceModifier::Neg:
      x = emit(ir::Op::FNeg(ir::kF32, x));
      break;
    case SourceModifier::Bias:
      x = emit(ir::Op::FSub(ir::kF32, x, f32(0.5f)));
      break;
    case SourceModifier::BiasNeg:
      x = emit(ir::Op::FSub(ir::kF32, f32(0.5f), x));
      break;
    case SourceModifier::Sign:
      x = emit(ir::Op::FMad(ir::kF32, x, f32(2.0f), f32(-1.0f)));
      break;
    case SourceModifier::SignNeg:
      x = emit(ir::Op::FMad(ir::kF32, x, f32(-2.0f), f32(1.0f)));
      break;
    case SourceModifier::Comp:
      x = emit(ir::Op::FSub(ir::kF32, f32(1.0f), x));
      break;
    case SourceModifier::X2:
      x = emit(ir::Op::FAdd(ir::kF32, x, x));
      break;
    case SourceModifier::X2Neg:
      x = emit(ir::Op::FNeg(ir::kF32, emit(ir::Op::FAdd(ir::kF32, x, x))));
      break;
    case SourceModifier::Dz:
    case SourceModifier::Dw:
      if (i < 2) {
        SsaDef d = component(s.modifier == SourceModifier::Dz ? 2 : 3);
        if (!d) return false;
        x = emit(ir::Op::FDiv(ir::kF32, x, d));
      }
      break;
    case SourceModifier::Abs:
      x = emit(ir::Op::FAbs(ir::kF32, x));
      break;
    case SourceModifier::AbsNeg:
      x = emit(ir::Op::FNeg(ir::kF32, emit(ir::Op::FAbs(ir::kF32, x))));
      break;
    case SourceModifier::Not:
      return fail(ins, "'!' modifier on a value");
    }
    out.c[i] = x;
  }
  return true;
}

SsaDef State::read_scalar(const Instruction& ins, const SourceParam& s, unsigned position) {
  Vec4 v;
  if (!read_src(ins, s, std::uint8_t(1u << position), v)) return {};
  return v.c[position];
}

bool State::output_slot(const DestParam& d, unsigned& slot) const {
  switch (d.type) {
  case RegisterType::RastOut:
    if (d.index > 2) return false;
    slot = kSlotPos + d.index;
    return true;
  case RegisterType::AttrOut:
    if (d.index > 1) return false;
    slot = kSlotColor0 + d.index;
    return true;
  case RegisterType::TexCrdOut:
    if (d.index >= 16) return false;
    slot = kSlotTex0 + d.index;
    return true;
  case RegisterType::ColorOut:
    if (d.index > 3) return false;
    slot = kSlotTarget0 + d.index;
    return true;
  case RegisterType::DepthOut:
    slot = kSlotDepth;
    return true;
  default:
    return false;
  }
}

bool State::write_dst(const Instruction& ins, const Vec4& value) {
  Vec4 v = value;
  const DestParam& d = ins.dst;
  if (d.type != RegisterType::Predicate) {
    for (unsigned c = 0; c < 4; ++c) {
      if (!(d.write_mask & (1u << c)) || !v.c[c]) continue;
      if (d.shift) {
        float scale = d.shift > 0 ? float(1u << d.shift) : 1.0f / float(1u << -d.shift);
        v.c[c] = emit(ir::Op::FMul(ir::kF32, v.c[c], f32(scale)));
      }
      if (d.modifiers & kSaturate)
        v.c[c] = emit(ir::Op::FClamp(ir::kF32, v.c[c], f32(0.0f), f32(1.0f)));
    }
  }
  if (ins.coissued()) {
    // Both halves of a co-issued pair read their sources before either writes.
    if (pending.ins && !commit(*pending.ins, pending.value)) return false;
    pending = {};
    return commit(ins, v);
  }
  if (pending.ins && !flush_pending()) return false;
  pending.ins = &ins;
  pending.value = v;
  return true;
}

bool State::flush_pending() {
  if (!pending.ins) return true;
  const Instruction* ins = pending.ins;
  pending.ins = nullptr;
  return commit(*ins, pending.value);
}

// vs_3_0 o[aL]: every declared output register takes the value where the index selects it.
bool State::commit_relative(const Instruction& ins, const Vec4& value) {
  const DestParam& d = ins.dst;
  if (d.type != RegisterType::TexCrdOut || model != Model::Vs3 || ins.predicated())
    return fail(ins, "relative addressing of this destination");
  SsaDef rel = relative_index(ins, d.rel_type, d.rel_component);
  if (!rel) return false;
  SsaDef index = emit(ir::Op::IAdd(ir::kI32, rel, i32(std::int32_t(d.index))));
  for (unsigned r = 0; r < 12; ++r) {
    SsaDef hit;
    for (unsigned c = 0; c < 4; ++c) {
      if (!(d.write_mask & (1u << c)) || !value.c[c] || !out_dcl[kSlotTex0 + r][c]) continue;
      if (!hit) hit = emit(ir::Op::IEq(index, i32(std::int32_t(r))));
      SsaDef t = out_reg(kSlotTex0 + r, c);
      SsaDef old = emit(ir::Op::TmpLoad(ir::kF32, t));
      emit(ir::Op::TmpStore(t, emit(ir::Op::Select(ir::kF32, hit, value.c[c], old))));
    }
  }
  return true;
}

bool State::commit(const Instruction& ins, const Vec4& value) {
  const DestParam& d = ins.dst;
  if (d.relative) return commit_relative(ins, value);
  for (unsigned c = 0; c < 4; ++c) {
    if (!(d.write_mask & (1u << c))) continue;
    SsaDef v = value.c[c];
    if (!v) continue;
    SsaDef target;
    ir::Type type = ir::kF32;
    switch (d.type) {
    case RegisterType::Temp:
      if (d.index >= kMaxTemps) return fail(ins, "temporary register out of range");
      target = temp_reg(d.index, c);
      break;
    case RegisterType::Address:
      if (pixel) {
        if (!(model_bit(model) & models::Ps1Tex) || d.index >= kMaxTexRegs)
          return fail(ins, "write to a texture coordinate register");
        SsaDef& t = tex_temps[d.index][c];
        if (!t) t = tmp(ir::kF32);
        target = t;
      } else {
        // a0: mova rounds to nearest, ties to even (0.5 -> 0, 1.5 -> 2, as the conformance
        // cases expect); vs_1_1 mov floors.
        SsaDef& t = addr[c];
        if (!t) t = tmp(ir::kI32);
        target = t;
        type = ir::kI32;
        v = emit(ir::Op::FRound(ir::kF32, v,
                                ins.opcode == Opcode::MovA ? ir::RoundMode::NearestEven
                                                           : ir::RoundMode::NegativeInf));
        v = emit(ir::Op::ConvertFtoI(ir::kI32, v));
      }
      break;
    case RegisterType::Predicate: {
      SsaDef& t = pred[c];
      if (!t) t = tmp(ir::kBool);
      target = t;
      type = ir::kBool;
      break;
    }
    default: {
      unsigned slot;
      if (!output_slot(d, slot)) return fail(ins, "unsupported destination register");
      if (slot == kSlotDepth && c != 0) continue;
      if (model != Model::Vs3 && !bind_implicit_output(ins, slot)) return false;
      target = out_reg(slot, c);
      break;
    }
    }
    if (ins.predicated()) {
      SsaDef old = emit(ir::Op::TmpLoad(type, target));
      v = emit(ir::Op::Select(type, predicate_of(ins.predicate, c), v, old));
    }
    emit(ir::Op::TmpStore(target, v));
  }
  return true;
}

} // namespace kiln::d3d9::detail
