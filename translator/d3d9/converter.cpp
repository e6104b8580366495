// D3D9 -> IR: the driver (decode, pre-scan of def/label/constant use, the entry function), the
// declarations (constant buffers, inputs, outputs) and the dispatch of each instruction to its
// handler (emit_instruction). The mapping is documented in docs/pipeline.md, "D3D9 front end".
#include "translator/d3d9/converter.h"

#include "translator/d3d9/converter_state.h"
#include "translator/d3d9/reader.h"

#include <algorithm>
#include <cstring>

namespace kiln::d3d9 {

namespace detail {

namespace {

// Varying locations by semantic, the same for vertex outputs and pixel inputs, so stages link
// by usage as D3D9 does. X(usage, first location, index count)
#define KILN_D3D9_VARYING_LOCATIONS(X)                                                             \
  X(Color, 0, 2)                                                                                   \
  X(TexCoord, 2, 16)                                                                               \
  X(Fog, 18, 1)                                                                                    \
  X(Depth, 19, 1)                                                                                  \
  X(PSize, 20, 1)                                                                                  \
  X(Normal, 21, 2)                                                                                 \
  X(Tangent, 23, 1)                                                                                \
  X(Binormal, 24, 1)                                                                               \
  X(BlendWeight, 25, 1)                                                                            \
  X(BlendIndices, 26, 1)                                                                           \
  X(Position, 27, 2) /* position1+ (position0 is the built-in) */                                  \
  X(PositionT, 29, 1)                                                                              \
  X(TessFactor, 30, 1)                                                                             \
  X(Sample, 31, 1)

// Semantics beyond the table (normal5, texcoord16...) get 32 + usage * 16 + index: they link
// the same way, where the device has that many locations.
int varying_location(Usage usage, unsigned index) {
  if (index >= 16) return -1;
  const int overflow = int(32 + unsigned(usage) * 16 + index);
  switch (usage) {
#define KILN_X(name, first, count)                                                                 \
  case Usage::name:                                                                                \
    return index < count ? int(first + index) : overflow;
    KILN_D3D9_VARYING_LOCATIONS(KILN_X)
#undef KILN_X
  }
  return -1;
}

const char* usage_semantic(Usage usage) {
  switch (usage) {
#define KILN_X(name, value, text)                                                                  \
  case Usage::name:                                                                                \
    return #name;
    KILN_D3D9_USAGES(KILN_X)
#undef KILN_X
  }
  return "Unknown";
}

// Float constant registers the runtime provides per model (relative reads are bounded by it).
std::uint32_t model_float_registers(Model m) {
  switch (m) {
  case Model::Vs1:
  case Model::Vs2:
  case Model::Vs2x:
  case Model::Vs3:
    return 256;
  case Model::Ps3:
    return 224;
  case Model::Ps2:
  case Model::Ps2x:
    return 32;
  default:
    return 8;
  }
}

} // namespace

void State::reset() {
  errors.reset();
  missing_operand = false;
  range_done = false;
  entry = function = first_label = {};
  desc_float = desc_int = desc_bool = desc_bump = {};
  float_count = 0;
  srv.fill({});
  sampler.fill({});
  sampler_type.fill(TextureType::Unknown);
  float_defined.fill(0);
  int_defined = bool_defined = bool_values = 0;
  def_array = def_flags = {};
  def_base = def_limit = 0;
  for (auto& t : temps) t.fill({});
  for (auto& t : tex_temps) t.fill({});
  addr.fill({});
  pred.fill({});
  for (auto& t : out_temps) t.fill({});
  for (auto& t : out_dcl) t.fill({});
  for (auto& t : in_dcl) t.fill({});
  out_location.fill({});
  in_location.fill({});
  out_position = frag_coord = front_face = {};
  tex_row_count = 0;
  pending = {};
  call_depth = 0;
  small_u32.fill({});
  control.clear();
  temps_known.reset();
  loaded_inputs.clear();
}

// One linear pass before emitting: def immediates, label positions, the float constant range.
bool State::scan() {
  const auto& list = program->instructions;
  std::uint32_t max_float = 0;
  bool any_float = false;
  relative_float = false;
  label_pos.clear(); // grown (zeroed) by the first label: most shaders have none
  for (std::uint32_t i = 0; i < list.size(); ++i) {
    const Instruction& ins = list[i];
    if (!check_register_ranges(ins)) return false;
    switch (ins.info().layout) {
    case Layout::Def: {
      const unsigned reg = float_register(ins.dst.type, ins.dst.index);
      if (reg >= 8192) return fail(ins, "def register out of range");
      if (float_defs.size() <= reg) float_defs.resize(reg + 1);
      std::memcpy(float_defs[reg].data(), ins.value, 16);
      float_defined[reg / 8] |= std::uint8_t(1u << (reg % 8));
      def_base = def_limit ? std::min(def_base, reg) : reg;
      def_limit = std::max(def_limit, reg + 1);
      break;
    }
    case Layout::DefI:
      if (ins.dst.index >= 32) return fail(ins, "defi register out of range");
      std::memcpy(int_defs[ins.dst.index].data(), ins.value, 16);
      int_defined |= 1u << ins.dst.index;
      break;
    case Layout::DefB:
      if (ins.dst.index >= 32) return fail(ins, "defb register out of range");
      bool_defined |= 1u << ins.dst.index;
      if (ins.value[0]) bool_values |= 1u << ins.dst.index;
      break;
    default:
      break;
    }
    if (ins.opcode == Opcode::Label && ins.src_count && ins.src[0].index < kMaxLabels) {
      if (label_pos.size() < kMaxLabels) label_pos.resize(kMaxLabels, 0);
      label_pos[ins.src[0].index] = i + 1;
    }
    for (const SourceParam& s : ins.sources()) { // none for dcl/def*, whose payload is not sources
      if (!is_float_const(s.type)) continue;
      any_float = true;
      max_float = std::max(max_float, float_register(s));
      relative_float |= s.relative;
    }
    // m4x4 and friends read `rows` consecutive registers from src1 on.
    const unsigned rows = matrix_shape(ins.opcode).rows;
    if (rows && is_float_const(ins.src[1].type))
      max_float = std::max(max_float, float_register(ins.src[1]) + rows - 1);
    if (ins.opcode == Opcode::TexKill && is_float_const(ins.dst.type)) { // texkill c#
      any_float = true;
      max_float = std::max(max_float, float_register(ins.dst.type, ins.dst.index));
    }
  }
  if (any_float) {
    float_count = max_float + 1;
    if (relative_float) float_count = std::max(float_count, model_float_registers(model));
  }
  return true;
}

// Register numbers the converter can hold, by register file: the sizes of the tables in
// converter_state.h (files without a table take any 11-bit number; their readers range-check
// what they need, such as c# against the constant bank).
static unsigned register_limit(RegisterType type, bool pixel) {
  switch (type) {
  case RegisterType::Temp:
    return kMaxTemps;
  case RegisterType::Input:
    return kMaxInputs;
  case RegisterType::Address: // t# in pixel shaders, a0 in vertex shaders
    return pixel ? kMaxTexRegs : 1;
  case RegisterType::RastOut:
    return 3;
  case RegisterType::AttrOut:
    return 2;
  case RegisterType::TexCrdOut:
    return kSlotTarget0 - kSlotTex0;
  case RegisterType::ColorOut:
    return kSlotDepth - kSlotTarget0;
  case RegisterType::DepthOut:
  case RegisterType::Loop:
  case RegisterType::Predicate:
    return 1;
  case RegisterType::ConstInt:
  case RegisterType::ConstBool:
    return 32; // defi/defb immediates up to 31; the runtime banks hold 16
  case RegisterType::Sampler:
    return kMaxSamplers;
  case RegisterType::MiscType:
    return 2; // vPos, vFace
  case RegisterType::Label:
    return kMaxLabels;
  default:
    return 0x800;
  }
}

// Every register operand of `ins` is checked here, once, before any conversion indexes a
// table with it: the tables of converter_state.h can then be indexed without checks of their
// own (a damaged texkill t128 indexed in_dcl out of bounds, issue 18).
bool State::check_register_ranges(const Instruction& ins) {
  auto in_range = [&](RegisterType type, unsigned index) {
    return index < register_limit(type, pixel);
  };
  // def's destination is checked by scan(), against the flat c# file of all four banks.
  if (ins.has_dst() && !in_range(ins.dst.type, ins.dst.index) && ins.info().layout != Layout::Def)
    return fail(ins, "destination register number out of range for its register file");
  for (const SourceParam& s : ins.sources())
    if (!in_range(s.type, s.index))
      return fail(ins, "source register number out of range for its register file");
  if (ins.predicated() && !in_range(ins.predicate.type, ins.predicate.index))
    return fail(ins, "predicate register number out of range");
  return true;
}

SsaDef State::tmp(ir::Type type) {
  return b->add(ir::Op::DclTmp(type, entry));
}

// The constant banks are declared on first use, their descriptor loaded right after the entry
// label so that it dominates every use.
SsaDef State::bank(SsaDef& desc, std::uint32_t reg, ir::ScalarType scalar, std::uint32_t count) {
  if (desc) return desc;
  SsaDef dcl =
      b->add(ir::Op::DclCbv(b->types().make_array(ir::vec(scalar, 4), count), entry, 0u, reg, 1u));
  if (options.debug_names)
    b->add(ir::Op::DebugName(dcl, reg == 0 ? "c" : reg == 1 ? "i" : reg == 2 ? "b" : "bumpenv"));
  desc = b->add_after(first_label, ir::Op::DescriptorLoad(ir::Type(scalar), dcl, u32(0)));
  return desc;
}

void State::declare_constants() {
  const ir::Type v4f = ir::vec(ir::ScalarType::F32, 4);
  // Relative reads that land on def'd registers return the def (as D3D9 does): a constant copy
  // of the def'd range and a flag per register.
  if (def_limit && relative_float) {
    const std::uint32_t n = def_limit - def_base;
    def_operands.resize(std::size_t(n) * 4);
    flag_operands.resize(n);
    for (std::uint32_t i = 0; i < n; ++i) {
      const std::uint32_t r = def_base + i;
      bool defined = float_defined[r / 8] & (1u << (r % 8));
      for (unsigned c = 0; c < 4; ++c)
        def_operands[i * 4 + c] = ir::Operand::literal(defined ? float_defs[r][c] : 0u);
      flag_operands[i] = ir::Operand::literal(defined ? 1u : 0u);
    }
    def_array = b->add(ir::Op::with_operands(ir::OpCode::Constant, b->types().make_array(v4f, n),
                                             def_operands, 0));
    def_flags = b->add(ir::Op::with_operands(ir::OpCode::Constant,
                                             b->types().make_array(ir::kU32, n), flag_operands, 0));
  }
}

// An input or output declaration by semantic; one per location.
SsaDef State::varying(bool output, Usage usage, unsigned index, bool centroid,
                      const Instruction& ins) {
  int loc = varying_location(usage, index);
  if (options.interface && !options.interface->varyings.empty()) {
    // The layer's varying map decides the linkage (kiln_varying_location).
    loc = options.interface->varying_location(std::uint32_t(usage), index);
    if (loc < 0 || loc >= int(kVaryingSlots)) {
      fail(ins, std::string(loc < 0 ? "not in the interface's varying map: "
                                    : "varying map location out of range: ") +
                    usage_semantic(usage) + std::to_string(index));
      return {};
    }
  }
  if (loc < 0) {
    fail(ins, "semantic index out of range for its usage");
    return {};
  }
  auto& slot = output ? out_location[unsigned(loc)] : in_location[unsigned(loc)];
  if (slot) return slot;
  ir::Type v4f = ir::vec(ir::ScalarType::F32, 4);
  if (output) {
    slot = b->add(ir::Op::DclOutput(v4f, entry, unsigned(loc), 0u, 0u));
  } else {
    auto modes = ir::InterpolationModes(0);
    if (!pixel)
      modes = ir::InterpolationModes(0);
    else if (centroid)
      modes = ir::InterpolationModes::Centroid;
    slot = b->add(ir::Op::DclInput(v4f, entry, unsigned(loc), 0u, modes));
  }
  b->add(ir::Op::Semantic(slot, index, usage_semantic(usage)));
  return slot;
}

// dcl of an input or output register (SM2+; vs_1_1 inputs).
bool State::declare_io(const Instruction& ins) {
  const DestParam& d = ins.dst;
  const Declaration& decl = ins.declaration;
  const bool centroid = d.modifiers & kCentroid;
  switch (d.type) {
  case RegisterType::Sampler:
    if (d.index >= kMaxSamplers) return fail(ins, "sampler register out of range");
    switch (decl.texture_type) {
    case TextureType::Cube:
    case TextureType::Volume:
      return use_sampler(ins, d.index, decl.texture_type);
    default:
      // D3D9 has no 1D textures (a "1D" texture is 2D with height 1) and dcl without a type
      // means the SM1 default: both sample as 2D with the shader's (x, y).
      return use_sampler(ins, d.index, TextureType::Tex2D);
    }
  case RegisterType::Input:
    if (d.index >= kMaxInputs) return fail(ins, "input register out of range");
    if (!pixel) {
      // Vertex inputs: location = v# register; the vertex declaration links by usage, which
      // Semantic reports.
      if (in_dcl[d.index][0]) return true;
      SsaDef dcl = b->add(ir::Op::DclInput(ir::vec(ir::ScalarType::F32, 4), entry,
                                           unsigned(d.index), 0u, ir::InterpolationModes(0)));
      b->add(ir::Op::Semantic(dcl, unsigned(decl.usage_index), usage_semantic(decl.usage)));
      in_dcl[d.index].fill(dcl);
      return true;
    } else {
      // ps_2_x v# are colours; ps_3_0 v# carry their usage.
      Usage usage = model == Model::Ps3 ? decl.usage : Usage::Color;
      unsigned index = model == Model::Ps3 ? decl.usage_index : d.index;
      SsaDef dcl = varying(false, usage, index, centroid, ins);
      if (!dcl) return false;
      for (unsigned c = 0; c < 4; ++c)
        if (model != Model::Ps3 || (d.write_mask & (1u << c))) in_dcl[d.index][c] = dcl;
      return true;
    }
  case RegisterType::Address: // ps_2_x t#
    if (!pixel || d.index >= kMaxTexRegs)
      return fail(ins, "texture coordinate register out of range");
    {
      SsaDef dcl = varying(false, Usage::TexCoord, d.index, centroid, ins);
      if (!dcl) return false;
      in_dcl[kMaxInputs + d.index].fill(dcl);
    }
    return true;
  case RegisterType::MiscType:
    if (d.index == 0) {
      if (!frag_coord)
        frag_coord =
            b->add(ir::Op::DclInputBuiltIn(ir::vec(ir::ScalarType::F32, 4), entry,
                                           ir::BuiltIn::Position, ir::InterpolationModes(0)));
      return true;
    }
    if (!front_face)
      front_face = b->add(ir::Op::DclInputBuiltIn(ir::kBool, entry, ir::BuiltIn::IsFrontFace,
                                                  ir::InterpolationModes::Flat));
    return true;
  case RegisterType::TexCrdOut: { // vs_3_0 o#
    if (d.index >= 12) return fail(ins, "output register out of range");
    unsigned slot = kSlotTex0 + d.index;
    SsaDef dcl;
    if (decl.usage == Usage::Position && decl.usage_index == 0) {
      dcl = position_output();
    } else {
      dcl = varying(true, decl.usage, decl.usage_index, false, ins);
      if (!dcl) return false;
    }
    for (unsigned c = 0; c < 4; ++c)
      if (d.write_mask & (1u << c)) out_dcl[slot][c] = dcl;
    return true;
  }
  default:
    return fail(ins, "dcl of an unsupported register type");
  }
}

SsaDef State::position_output() {
  if (!out_position)
    out_position = b->add(ir::Op::DclOutputBuiltIn(ir::vec(ir::ScalarType::F32, 4), entry,
                                                   ir::BuiltIn::Position, 0u));
  return out_position;
}

// Output declarations of the register files that have no dcl (vs_1_1-2_x, every ps).
bool State::bind_implicit_output(const Instruction& ins, unsigned slot) {
  if (out_dcl[slot][0] || out_dcl[slot][1] || out_dcl[slot][2] || out_dcl[slot][3]) return true;
  SsaDef dcl;
  if (slot == kSlotPos) {
    dcl = position_output();
  } else if (slot == kSlotFog) {
    dcl = varying(true, Usage::Fog, 0, false, ins);
  } else if (slot == kSlotPts) {
    dcl = varying(true, Usage::PSize, 0, false, ins);
  } else if (slot < kSlotTex0) {
    dcl = varying(true, Usage::Color, slot - kSlotColor0, false, ins);
  } else if (slot < kSlotTarget0) {
    if (model == Model::Vs3) return fail(ins, "write to an output register without dcl");
    dcl = varying(true, Usage::TexCoord, slot - kSlotTex0, false, ins);
  } else if (slot < kSlotDepth) {
    dcl = b->add(
        ir::Op::DclOutput(ir::vec(ir::ScalarType::F32, 4), entry, slot - kSlotTarget0, 0u, 0u));
  } else {
    dcl = b->add(ir::Op::DclOutputBuiltIn(ir::kF32, entry, ir::BuiltIn::Depth, 0u));
  }
  if (!dcl) return false;
  out_dcl[slot].fill(dcl);
  return true;
}

// The outputs' final values: stored at the end of main (and before an early return).
void State::emit_output_stores() {
  const bool clamp_colours = !pixel && model != Model::Vs3;
  const bool ps1 = pixel && (model_bit(model) & models::Ps1All);
  for (unsigned slot = 0; slot < kSlotCount; ++slot) {
    SsaDef values[4];
    for (unsigned c = 0; c < 4; ++c) {
      SsaDef dcl = out_dcl[slot][c];
      SsaDef t = out_temps[slot][c];
      if (!dcl || !t) continue;
      SsaDef v = emit(ir::Op::TmpLoad(ir::kF32, t));
      // vs_1_1-2_x colour outputs (oD#) are clamped to [0, 1] before interpolation.
      // ps_1_x writes r0 saturated to the render target.
      if ((clamp_colours && (slot == kSlotColor0 || slot == kSlotColor0 + 1)) ||
          (ps1 && slot == kSlotTarget0))
        v = emit(ir::Op::FClamp(ir::kF32, v, f32(0.0f), f32(1.0f)));
      values[c] = v;
    }
    // A register that is one vec4 declaration, all four components written: one store of the
    // vector (one SPIR-V store, no access chain per component).
    const SsaDef dcl = out_dcl[slot][0];
    const bool whole = dcl && values[0] && values[1] && values[2] && values[3] &&
                       out_dcl[slot][1] == dcl && out_dcl[slot][2] == dcl &&
                       out_dcl[slot][3] == dcl &&
                       b->op(dcl).type() == ir::vec(ir::ScalarType::F32, 4);
    if (whole) {
      const ir::Type v4f = ir::vec(ir::ScalarType::F32, 4);
      emit(ir::Op::OutputStore(
          dcl, SsaDef(),
          emit(ir::Op::CompositeConstruct(v4f, values[0], values[1], values[2], values[3]))));
      continue;
    }
    for (unsigned c = 0; c < 4; ++c) {
      if (!values[c]) continue;
      if (b->op(out_dcl[slot][c]).type() == ir::kF32) {
        if (c == 0) emit(ir::Op::OutputStore(out_dcl[slot][c], SsaDef(), values[c]));
      } else {
        emit(ir::Op::OutputStore(out_dcl[slot][c], u32(c), values[c]));
      }
    }
  }
}

bool State::finish_main() {
  if (!flush_pending()) return false;
  if (pixel && (model_bit(model) & models::Ps1All)) {
    // ps_1_x: the colour output is r0.
    static const Instruction none{};
    if (!bind_implicit_output(none, kSlotTarget0)) return false;
    for (unsigned c = 0; c < 4; ++c) out_temps[kSlotTarget0][c] = temp_reg(0, c);
  }
  emit_output_stores();
  return true;
}

bool State::emit_range(std::uint32_t begin, std::uint32_t end) {
  for (std::uint32_t i = begin; i < end; ++i) {
    const Instruction& ins = program->instructions[i];
    if (!ins.coissued() && !flush_pending()) return false;
    if (!emit_instruction(ins)) return false;
    if (missing_operand) return fail(ins, "an operand could not be read");
    if (range_done) { // main (or the subroutine) ends here
      range_done = false;
      break;
    }
  }
  return flush_pending();
}

// The one hop from an opcode to its code: the handler column of KILN_D3D9_OPCODES.
bool State::emit_instruction(const Instruction& ins) {
  switch (ins.opcode) {
#define KILN_X(name, mnemonic, number, dst, src, layout, models, handler, doc)                     \
  case Opcode::name:                                                                               \
    return handler(ins);
    KILN_D3D9_OPCODES(KILN_X)
#undef KILN_X
  case Opcode::Count: // not an opcode: the reader never decodes it
    break;
  }
  return fail(ins, "not an instruction");
}

// nop; ps_1_4's phase marker: registers keep their values across it, so it needs no code.
bool State::emit_nothing(const Instruction&) {
  return true;
}

// dcl, def, defi, defb: converted before the walk (declare_io, scan), nothing left to emit.
bool State::emit_declaration(const Instruction&) {
  return true;
}

Status State::run(std::span<const std::uint8_t> bytecode, const ConvertOptions& opts,
                  ir::Builder& builder) {
  b = &builder;
  options = opts;
  reset();
  decoded.clear();
  if (Status s = decode(bytecode, decoded); !s) return s;
  program = &decoded;
  model = decoded.version.model;
  pixel = decoded.version.stage == ShaderStage::Pixel;
  // The stage boundary: the first report is the Status.
  return errors.outcome(convert_program(), "D3D9: conversion stopped without a reason");
}

bool State::convert_program() {
  function = b->add(ir::Op::Function(ir::kVoid));
  entry = b->add(ir::Op::EntryPoint(function, decoded.version.stage));
  first_label = b->add(ir::Op::Label(ir::Construct::None));
  if (!scan()) return false;
  declare_constants();

  // Declarations first (dcl may follow def; SM3 declares outputs that the code writes).
  const auto& list = decoded.instructions;
  for (const Instruction& ins : list)
    if (ins.opcode == Opcode::Dcl && !declare_io(ins)) return false;

  // Every output register written anywhere gets its declaration and temps now, so a `ret`
  // inside flow control stores all of them.
  for (const Instruction& ins : list) {
    unsigned slot;
    if (!ins.has_dst() || ins.dst.relative || !output_slot(ins.dst, slot)) continue;
    if (model != Model::Vs3 && !bind_implicit_output(ins, slot)) return false;
    for (unsigned c = 0; c < 4; ++c)
      if ((ins.dst.write_mask & (1u << c)) && (slot != kSlotDepth || c == 0)) out_reg(slot, c);
  }
  // vs_1_1-2_x: oD0/oD1 are always output, white where the shader does not write them (what
  // a ps_2_x reading an unwritten colour sees on D3D9).
  if (!pixel && model != Model::Vs3) {
    for (unsigned slot : {unsigned(kSlotColor0), unsigned(kSlotColor0) + 1}) {
      static const Instruction none{};
      if (!bind_implicit_output(none, slot)) return false;
      for (unsigned c = 0; c < 4; ++c) out_reg(slot, c);
    }
  }
  // Fog parameters: the FOG varying exists whether or not the shader uses it (the vertex
  // shader's coordinate, the pixel shader's blend; lower_render_state.cpp).
  if (const ShaderInterface* in = options.interface) {
    static const Instruction none{};
    const ShaderParameter* mode = in->parameter(ParameterName::FOG_FRAGMENT_MODE);
    const bool fog_in =
        pixel && mode &&
        (mode->type != ShaderParameter::Type::Immediate || mode->value[0] != KILN_FOG_NONE);
    const bool fog_out = !pixel && in->parameter(ParameterName::FOG_SOURCE);
    if ((fog_in || fog_out) && !varying(fog_out, Usage::Fog, 0, false, none)) return false;
  }
  if (!emit_range(0, std::uint32_t(list.size()))) return false;
  if (!control.empty())
    return fail({},
                "D3D9: " + std::string(control.back().kind == ControlFrame::If ? "if" : "loop") +
                    " without its end at the end of the shader");
  if (!finish_main()) return false;
  b->add(ir::Op::Return(SsaDef()));
  b->add(ir::Op::FunctionEnd());
  return true;
}

} // namespace detail

} // namespace kiln::d3d9

// d3d9::Converter (converter.h), instantiated here where its State is complete.
template class kiln::FrontEnd<kiln::d3d9::ConvertOptions, kiln::d3d9::detail::State>;
