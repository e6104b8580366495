#include "translator/dxbc/disassembler.h"

#include "translator/dxbc/container.h"
#include "translator/dxbc/names.h"
#include "translator/dxbc/reader.h"
#include "translator/dxbc/signature_listing.h"

#include <cmath>
#include <cstdio>
#include <cstring>

namespace kiln::dxbc {
namespace {

// Builds fxc-style text for one decoded program.
class Printer {
 public:
  Printer(const Program& program, std::string& out) : program_(program), out_(out) {}

  void program();

 private:
  void text(std::string_view s) { out_.append(s); }
  void number(std::uint32_t v) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "%u", v);
    out_.append(buf);
  }
  void value(std::uint32_t bits, ValueType type);
  void immediate(const Operand& op, ValueType type);
  void components(const Operand& op);
  void index(const Operand& op, unsigned d);
  void operand(const Operand& op, ValueType type, bool sm51_ranges = false);
  void register_name(const Operand& op);
  void declaration_suffixes(const Instruction& inst, const Declaration& decl);
  void declaration(const Instruction& inst);
  void instruction(const Instruction& inst);
  void resource_suffix(const Instruction& inst);
  void return_types(const std::uint8_t types[4]);
  void custom_data(const Instruction& inst);

  const Program& program_;
  std::string& out_;
  bool declaring_ = false;
};

// Typeless immediates (mov, movc, the icb) print as floats when they are normal floats or -0,
// as decimals when small integers, else as hex, which is what fxc does.
bool looks_like_float(std::uint32_t bits) {
  const std::uint32_t exponent = (bits >> 23) & 0xffu;
  return (exponent != 0 && exponent != 0xff) || bits == 0x80000000u;
}

void Printer::value(std::uint32_t bits, ValueType type) {
  char buf[80];
  const std::int32_t as_int = std::int32_t(bits);
  const bool small_int = as_int > -10000 && as_int < 10000;
  bool as_float = type == ValueType::F;
  if (type == ValueType::A || type == ValueType::N) as_float = !small_int && looks_like_float(bits);
  if (as_float) {
    float f;
    std::memcpy(&f, &bits, 4);
    if (std::isnan(f))
      std::snprintf(buf, sizeof buf, "0x%08x", bits);
    else if (std::isinf(f))
      std::snprintf(buf, sizeof buf, f > 0 ? "inf" : "-inf");
    else
      std::snprintf(buf, sizeof buf, "%f", double(f));
  } else if (small_int) {
    std::snprintf(buf, sizeof buf, "%d", as_int);
  } else {
    std::snprintf(buf, sizeof buf, "0x%08x", bits);
  }
  out_.append(buf);
}

void Printer::immediate(const Operand& op, ValueType type) {
  if (op.type == OperandType::Immediate64) {
    text("d(");
    const unsigned count = op.component_count == 4 ? 2 : 1;
    for (unsigned i = 0; i < count; ++i) {
      if (i) text(", ");
      const std::uint64_t bits = op.value[2 * i] | std::uint64_t(op.value[2 * i + 1]) << 32;
      double d;
      std::memcpy(&d, &bits, 8);
      char buf[400];
      if (type == ValueType::D || type == ValueType::A || type == ValueType::F)
        std::snprintf(buf, sizeof buf, "%fl", d);
      else
        std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(bits));
      text(buf);
    }
    text(")");
    return;
  }
  text("l(");
  const unsigned count = op.component_count == 4 ? 4 : 1;
  for (unsigned i = 0; i < count; ++i) {
    if (i) text(", ");
    value(op.value[i], type);
  }
  text(")");
}

void Printer::components(const Operand& op) {
  static constexpr char kLetters[] = "xyzw";
  if (op.component_count != 4) return;
  switch (op.selection) {
  case SelectionMode::Mask:
    if (op.mask == 0) return;
    text(".");
    for (unsigned i = 0; i < 4; ++i)
      if (op.mask & (1u << i)) out_.push_back(kLetters[i]);
    break;
  case SelectionMode::Swizzle:
    text(".");
    for (unsigned i = 0; i < 4; ++i) out_.push_back(kLetters[op.component(i)]);
    break;
  case SelectionMode::Select1:
    text(".");
    out_.push_back(kLetters[op.component(0)]);
    break;
  }
}

void Printer::index(const Operand& op, unsigned d) {
  if (op.has_relative(d)) {
    operand(program_.relative[op.relative[d]], ValueType::I);
    text(" + ");
  }
  number(op.index[d]);
}

void Printer::register_name(const Operand& op) {
  const bool sm51 = program_.is_sm51();
  std::string_view prefix = operand_prefix(op.type);
  // SM5.1 names resource ranges in upper case (CB0, T0, S0, U0); current fxc also declares
  // constant buffers as CB0 in every model.
  if ((sm51 || (declaring_ && op.type == OperandType::ConstantBuffer)) &&
      (op.type == OperandType::ConstantBuffer || op.type == OperandType::Resource ||
       op.type == OperandType::Sampler || op.type == OperandType::Uav)) {
    for (char c : prefix) out_.push_back(char(c - 'a' + 'A'));
  } else {
    text(prefix);
  }
}

void Printer::operand(const Operand& op, ValueType type, bool sm51_ranges) {
  if (op.type == OperandType::Immediate32 || op.type == OperandType::Immediate64) {
    immediate(op, type);
    return;
  }
  if (op.modifier == OperandModifier::Neg || op.modifier == OperandModifier::AbsNeg) text("-");
  if (op.modifier == OperandModifier::Abs || op.modifier == OperandModifier::AbsNeg) text("|");
  register_name(op);
  const unsigned dims = op.index_dimension;
  // Registers whose first index is a plain number print it attached (r0, cb0[1]); arrays of
  // vertices or control points, `this` and relatively addressed ones print every index in
  // brackets.
  const bool bracket_all =
      dims > 0 &&
      (op.has_relative(0) || op.type == OperandType::ThisPointer ||
       op.type == OperandType::InputControlPoint || op.type == OperandType::OutputControlPoint ||
       (dims == 2 && (op.type == OperandType::Input || op.type == OperandType::Output)));
  const bool no_number = op.type == OperandType::ImmediateConstantBuffer;
  for (unsigned d = 0; d < dims; ++d) {
    if (d == 0 && !bracket_all && !no_number) {
      number(op.index[0]);
      continue;
    }
    text("[");
    index(op, d);
    if (sm51_ranges && dims == 3 && d == 1) { // declarations: [lower:upper]
      text(":");
      if (dims > 2 && op.index[2] == 0xffffffffu)
        text("*");
      else if (dims > 2)
        number(op.index[2]);
      text("]");
      break;
    }
    text("]");
  }
  // Declarations name buffers, textures and samplers without a swizzle.
  const bool bare =
      (declaring_ && (op.type == OperandType::ConstantBuffer || op.type == OperandType::Resource ||
                      op.type == OperandType::Sampler || op.type == OperandType::Uav ||
                      op.type == OperandType::ThreadGroupSharedMemory));
  if (!bare) components(op);
  if (op.modifier == OperandModifier::Abs || op.modifier == OperandModifier::AbsNeg) text("|");
  if (op.min_precision != MinPrecision::Default || op.non_uniform) {
    text(" {");
    bool first = true;
    auto item = [&](std::string_view s) {
      if (!first) text(", ");
      text(s);
      first = false;
    };
    switch (op.min_precision) {
    case MinPrecision::Float16:
      item("min16f");
      break;
    case MinPrecision::Float2_8:
      item("min2_8f");
      break;
    case MinPrecision::SInt16:
      item("min16i");
      break;
    case MinPrecision::UInt16:
      item("min16u");
      break;
    default:
      break;
    }
    if (op.non_uniform) item("nonuniform");
    text("}");
  }
}

void Printer::return_types(const std::uint8_t types[4]) {
  text("(");
  for (unsigned i = 0; i < 4; ++i) {
    if (i) text(",");
    text(return_type_name(types[i]));
  }
  text(")");
}

// fxc order: mnemonic, _aoffimmi, _indexable, (offsets), (dimension[, stride]), (return types).
void Printer::resource_suffix(const Instruction& inst) {
  const bool offsets = inst.flags & instruction_flag::kTexelOffset;
  const bool indexable = inst.flags & instruction_flag::kResourceDimension;
  if (offsets) text("_aoffimmi");
  if (indexable) text("_indexable");
  if (offsets) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "(%d,%d,%d)", inst.texel_offset[0], inst.texel_offset[1],
                  inst.texel_offset[2]);
    text(buf);
  }
  if (indexable) {
    text("(");
    text(resource_dimension_name(inst.resource_dimension));
    if (inst.resource_dimension == ResourceDimension::StructuredBuffer) {
      text(", stride=");
      number(inst.structure_stride);
    }
    text(")");
  }
  if (inst.flags & instruction_flag::kResourceReturnType) return_types(inst.resource_return);
}

void Printer::custom_data(const Instruction& inst) {
  const Declaration& data = program_.declarations[inst.declaration];
  if (data.value != std::uint32_t(CustomDataClass::ImmediateConstantBuffer)) {
    text("// customdata class ");
    number(data.value);
    text(", ");
    number(data.list_count);
    text(" dwords\n");
    return;
  }
  text("dcl_immediateConstantBuffer {");
  for (std::uint32_t v = 0; v < data.list_count / 4; ++v) {
    text(v ? ",\n                              { " : " { ");
    for (unsigned c = 0; c < 4; ++c) {
      if (c) text(", ");
      value(program_.token(data.list_first + 4 * v + c), ValueType::A);
    }
    text("}");
  }
  text(" }\n");
}

// What fxc attaches to a declaration's mnemonic: a typed resource's dimension (and a
// multisampled texture's sample count), a UAV's flags, an interface's dynamic indexing.
void Printer::declaration_suffixes(const Instruction& inst, const Declaration& decl) {
  if (inst.opcode == Opcode::DclResource || inst.opcode == Opcode::DclUavTyped) {
    text("_");
    text(resource_dimension_name(decl.dimension));
    if (inst.opcode == Opcode::DclResource &&
        (decl.dimension == ResourceDimension::Texture2DMS ||
         decl.dimension == ResourceDimension::Texture2DMSArray)) {
      text("(");
      number(decl.sample_count);
      text(")");
    }
  }
  // The reader sets these on dcl_uav_* only (the counter on dcl_uav_structured only).
  if (decl.uav_flags & uav_flag::kGloballyCoherent) text("_glc");
  if (decl.uav_flags & uav_flag::kRasterizerOrdered) text("_rov");
  if (decl.uav_flags & uav_flag::kHasCounter) text("_opc");
  if (inst.opcode == Opcode::DclInterface && decl.value3) text("_dynamicindexed");
}

// fxc writes a declaration as its mnemonic, the suffixes above, a space and its arguments: the
// declared register first where there is one, then the payload, mostly comma-separated.
void Printer::declaration(const Instruction& inst) {
  const Declaration& decl = program_.declarations[inst.declaration];
  const auto ops = program_.operands_of(inst);
  const bool sm51 = program_.is_sm51();
  const Opcode opcode = inst.opcode;
  auto first_operand = [&] { operand(ops[0], ValueType::N, sm51); };
  auto next_number = [&](std::uint32_t n) {
    text(", ");
    number(n);
  };
  auto space = [&] {
    if (!sm51) return;
    text(", space=");
    number(decl.space);
  };
  text(opcode_info(opcode).mnemonic);
  declaration_suffixes(inst, decl);
  text(" ");
  switch (opcode) {
  case Opcode::DclGlobalFlags: {
    static constexpr std::string_view kFlags[] = {
        "refactoringAllowed",         "enableDoublePrecisionFloatOps",
        "forceEarlyDepthStencil",     "enableRawAndStructuredBuffers",
        "skipOptimization",           "enableMinimumPrecision",
        "enable11_1DoubleExtensions", "enable11_1ShaderExtensions",
        "allResourcesBound"};
    bool first = true;
    for (unsigned i = 0; i < 13; ++i) {
      if (!(decl.value & (1u << i))) continue;
      if (!first) text(" | ");
      first = false;
      if (i < 9)
        text(kFlags[i]);
      else {
        text("flag");
        number(i);
      }
    }
    break;
  }
  case Opcode::DclResource:
  case Opcode::DclUavTyped:
    return_types(decl.return_type);
    text(" ");
    first_operand();
    space();
    break;
  case Opcode::DclResourceRaw:
  case Opcode::DclResourceStructured:
  case Opcode::DclUavRaw:
  case Opcode::DclUavStructured:
    first_operand();
    if (resource_declaration(opcode)->layout == ResourceLayout::Structured)
      next_number(decl.value2); // the stride
    space();
    break;
  case Opcode::DclConstantBuffer:
    first_operand();
    if (sm51) {
      text("[");
      number(decl.value);
      text("]");
    }
    text(decl.value2 ? ", dynamicIndexed" : ", immediateIndexed");
    space();
    break;
  case Opcode::DclSampler:
    first_operand();
    text(", ");
    text(sampler_mode_name(decl.value));
    space();
    break;
  case Opcode::DclInputPs:
  case Opcode::DclInputPsSgv:
  case Opcode::DclInputPsSiv:
  case Opcode::DclInputSgv:
  case Opcode::DclInputSiv:
  case Opcode::DclOutputSgv:
  case Opcode::DclOutputSiv:
    if (opcode == Opcode::DclInputPs || opcode == Opcode::DclInputPsSgv ||
        opcode == Opcode::DclInputPsSiv) {
      text(interpolation_name(decl.interpolation));
      text(" ");
    }
    first_operand();
    if (opcode != Opcode::DclInputPs) {
      text(", ");
      text(system_value_name(decl.system_value));
    }
    break;
  case Opcode::DclIndexRange:
    first_operand();
    text(" ");
    number(decl.value);
    break;
  case Opcode::DclIndexableTemp:
    text("x");
    number(decl.value2);
    text("[");
    number(decl.value);
    text("]");
    next_number(decl.value3);
    break;
  case Opcode::DclThreadGroup:
    number(decl.thread_group[0]);
    next_number(decl.thread_group[1]);
    next_number(decl.thread_group[2]);
    break;
  case Opcode::DclTgsmRaw:
    first_operand();
    next_number(decl.value); // bytes
    break;
  case Opcode::DclTgsmStructured:
    first_operand();
    next_number(decl.value2); // the stride
    next_number(decl.value);  // the element count
    break;
  case Opcode::DclGsOutputTopology:
    text(primitive_topology_name(decl.value));
    break;
  case Opcode::DclGsInputPrimitive:
    text(primitive_name(decl.value));
    if (decl.value >= 8 && decl.value <= 39) number(decl.value - 7);
    break;
  case Opcode::DclTessDomain:
    text(tess_domain_name(decl.value));
    break;
  case Opcode::DclTessPartitioning:
    text(tess_partitioning_name(decl.value));
    break;
  case Opcode::DclTessOutputPrimitive:
    text(tess_output_primitive_name(decl.value));
    break;
  case Opcode::DclHsMaxTessFactor:
    text("l(");
    value(decl.value2, ValueType::F);
    text(")");
    break;
  case Opcode::DclFunctionTable:
  case Opcode::DclInterface: {
    const bool table = opcode == Opcode::DclFunctionTable;
    text(table ? "ft" : "fp");
    number(decl.value);
    if (!table) {
      text("[");
      number(decl.value2);
      text("][");
      number(decl.function_count); // call sites: the bodies each listed table has
      text("]");
    }
    text(" = {");
    for (std::uint32_t i = 0; i < decl.list_count; ++i) {
      text(i ? ", " : "");
      text(table ? "fb" : "ft");
      number(program_.lists[decl.list_first + i]);
    }
    text("}");
    break;
  }
  case Opcode::DclFunctionBody:
    text("fb");
    number(decl.value);
    break;
  default: // dcl_input, dcl_output, dcl_stream and the plain-count declarations
    if (!ops.empty())
      first_operand();
    else
      number(decl.value);
    break;
  }
  text("\n");
}

void Printer::instruction(const Instruction& inst) {
  const OpcodeInfo& info = opcode_info(inst.opcode);
  if (inst.opcode == Opcode::Sync) {
    text("sync");
    if (inst.controls & control::kSyncUavGlobal) text("_uglobal");
    if (inst.controls & control::kSyncUavGroup) text("_ugroup");
    if (inst.controls & control::kSyncGroupSharedMemory) text("_g");
    if (inst.controls & control::kSyncThreadsInGroup) text("_t");
    text("\n");
    return;
  }
  text(info.mnemonic);
  if (info.flags & opflag::Test) text(inst.test_nonzero() ? "_nz" : "_z");
  if (info.flags & opflag::Resource) resource_suffix(inst);
  if (inst.opcode == Opcode::ResInfo) {
    const std::uint32_t rt = inst.return_type_control();
    text(rt == 1 ? "_rcpFloat" : rt == 2 ? "_uint" : "");
  } else if ((inst.opcode == Opcode::SampleInfo || inst.opcode == Opcode::SamplePos) &&
             (inst.controls & (1u << 11))) {
    text("_uint");
  }
  if (inst.saturate()) text("_sat");
  if (const std::uint32_t precise = inst.precise_mask()) {
    text(" [precise");
    if (precise != 0xf) {
      text("(");
      for (unsigned i = 0; i < 4; ++i)
        if (precise & (1u << i)) out_.push_back("xyzw"[i]);
      text(")");
    }
    text("]");
  }
  if (inst.opcode == Opcode::InterfaceCall) {
    text(" fp");
    const Operand& fp = program_.operands[inst.first_operand];
    for (unsigned d = 0; d < fp.index_dimension; ++d) {
      if (d == 0 && !fp.has_relative(0))
        number(fp.index[0]);
      else {
        text("[");
        index(fp, d);
        text("]");
      }
    }
    text("[");
    number(program_.declarations[inst.declaration].value);
    text("]\n");
    return;
  }
  const auto ops = program_.operands_of(inst);
  for (std::uint32_t i = 0; i < ops.size(); ++i) {
    text(i ? ", " : " ");
    operand(ops[i], info.type);
  }
  text("\n");
}

void Printer::program() {
  text(program_type_prefix(program_.type));
  text("_");
  number(program_.major);
  text("_");
  number(program_.minor);
  text("\n");
  for (const Instruction& inst : program_.instructions) {
    if (inst.opcode == Opcode::CustomData)
      custom_data(inst);
    else if (inst.declaration != kNoOperand && inst.opcode != Opcode::InterfaceCall) {
      declaring_ = true;
      declaration(inst);
      declaring_ = false;
    } else
      instruction(inst);
  }
}

} // namespace

Status disassemble_program(const Program& program, std::string& out) {
  Printer(program, out).program();
  return Status::ok();
}

Status disassemble(std::span<const std::uint8_t> container, std::string& out) {
  Container parsed;
  if (Status s = parse_container(container, parsed); !s) return s;
  if (!parsed.has_program()) {
    return Status::error(parsed.has_dxil ? "DXBC container holds DXIL (SM6), not SM4/5 bytecode"
                                         : "DXBC container has no SHDR/SHEX program chunk");
  }
  if (!parsed.checksum_ok) out.append("// warning: DXBC checksum mismatch\n");
  append_listing_header(parsed, out);
  Program program;
  if (Status s = decode_program(parsed.program, program); !s) return s;
  return disassemble_program(program, out);
}

} // namespace kiln::dxbc
