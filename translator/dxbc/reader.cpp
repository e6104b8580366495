#include "translator/dxbc/reader.h"

#include <algorithm>
#include <cstdio>

namespace kiln::dxbc {
namespace {

constexpr std::uint32_t kMaxRelativeDepth = 4;
constexpr std::uint32_t kMaxProgramTokens = 1u << 20;

// Walks the tokens of one program; positions are dword offsets from the program's start.
class ProgramDecoder {
 public:
  explicit ProgramDecoder(Program& program) : program_(program) {}

  // The stage boundary: the program's header, then its tokens; the first report is the Status.
  Status run(std::size_t chunk_bytes) { return errors_.outcome(decode_program(chunk_bytes)); }

 private:
  std::uint32_t token(std::uint32_t pos) const { return program_.token(pos); }

  // "SHDR token N: what": the decoder's reports name no instruction (reject() puts the token
  // value found into `what`); "SHDR: what" about the chunk as a whole.
  static std::string spell_error(const Where& where, std::string_view what) {
    if (!where.known()) return "SHDR: " + std::string(what);
    return "SHDR token " + std::to_string(where.position) + ": " + std::string(what);
  }
  // Formats the report once; the hot path never gets here.
  [[gnu::cold]] bool reject(std::uint32_t pos, const char* what, std::uint32_t value = 0) {
    char text[160];
    std::snprintf(text, sizeof text, "%s (0x%x)", what, value);
    return errors_.fail(pos, text);
  }

  bool decode_program(std::size_t chunk_bytes);
  bool decode(std::uint32_t end);

  bool decode_operand(std::uint32_t& pos, std::uint32_t end, Operand& out, std::uint32_t depth);
  bool decode_relative(std::uint32_t& pos, std::uint32_t end, Operand& out, std::uint32_t dimension,
                       std::uint32_t depth);
  bool decode_declaration(const Instruction& inst, std::uint32_t pos, std::uint32_t end,
                          Declaration& decl);
  bool decode_instruction(std::uint32_t pos, std::uint32_t length);
  bool decode_custom_data(std::uint32_t pos, std::uint32_t end, std::uint32_t& length);

  Program& program_;
  ErrorSink errors_{&spell_error};
};

bool ProgramDecoder::decode_operand(std::uint32_t& pos, std::uint32_t end, Operand& out,
                                    std::uint32_t depth) {
  if (pos >= end) return reject(pos, "operand missing: instruction too short", 0);
  const std::uint32_t start = pos;
  const std::uint32_t tok = token(pos++);
  std::memset(static_cast<void*>(&out), 0, sizeof out);
  out.relative[0] = out.relative[1] = out.relative[2] = kNoOperand;

  switch (tok & 3u) {
  case 0:
    out.component_count = 0;
    break;
  case 1:
    out.component_count = 1;
    break;
  case 2:
    out.component_count = 4;
    break;
  default:
    return reject(start, "operand with N components is not supported", tok);
  }
  if (out.component_count == 4) {
    const std::uint32_t mode = (tok >> 2) & 3u;
    switch (mode) {
    case 0:
      out.selection = SelectionMode::Mask;
      out.mask = std::uint8_t((tok >> 4) & 0xfu);
      out.swizzle = 0xe4; // identity, for readers that index components through the swizzle
      break;
    case 1:
      out.selection = SelectionMode::Swizzle;
      out.swizzle = std::uint8_t((tok >> 4) & 0xffu);
      out.mask = 0xf;
      break;
    case 2:
      out.selection = SelectionMode::Select1;
      out.swizzle = std::uint8_t(((tok >> 4) & 3u) * 0x55u);
      out.mask = std::uint8_t(1u << ((tok >> 4) & 3u));
      break;
    default:
      return reject(start, "bad component selection mode", tok);
    }
  } else {
    out.selection = SelectionMode::Select1;
    out.mask = out.component_count ? 1 : 0;
  }

  const std::uint32_t type = (tok >> 12) & 0xffu;
  if (type >= kOperandTypeCount) return reject(start, "unknown operand type", type);
  out.type = OperandType(type);
  out.index_dimension = std::uint8_t((tok >> 20) & 3u);

  bool extended = (tok >> 31) != 0;
  out.extended = extended;
  while (extended) {
    if (pos >= end) return reject(pos, "extended operand token missing", 0);
    const std::uint32_t ext = token(pos++);
    extended = (ext >> 31) != 0;
    const std::uint32_t ext_type = ext & 0x3fu;
    if (ext_type == 1) {
      const std::uint32_t modifier = (ext >> 6) & 0xffu;
      if (modifier > 3) return reject(pos - 1, "bad operand modifier", modifier);
      out.modifier = OperandModifier(modifier);
      out.min_precision = MinPrecision((ext >> 14) & 7u);
      out.non_uniform = ((ext >> 17) & 1u) != 0;
    } else if (ext_type != 0) {
      return reject(pos - 1, "unknown extended operand type", ext_type);
    }
  }

  if (out.type == OperandType::Immediate32 || out.type == OperandType::Immediate64) {
    // A 4-component immediate64 holds two doubles (4 dwords), a scalar one 2 dwords.
    const bool wide = out.type == OperandType::Immediate64;
    const std::uint32_t words = out.component_count == 4 ? 4u : (wide ? 2u : 1u);
    if (out.component_count == 0) return reject(start, "immediate without components", 0);
    if (end - pos < words) return reject(pos, "immediate value truncated", words);
    for (std::uint32_t i = 0; i < words; ++i) out.value[i] = token(pos + i);
    pos += words;
    if (out.index_dimension != 0) return reject(start, "indexed immediate", 0);
    return true;
  }

  for (std::uint32_t d = 0; d < out.index_dimension; ++d) {
    const std::uint32_t rep = (tok >> (22 + 3 * d)) & 7u;
    if (rep > 4) return reject(start, "bad index representation", rep);
    out.index_representation[d] = IndexRepresentation(rep);
    if (rep == 0 || rep == 3) {
      if (pos >= end) return reject(pos, "operand index truncated", d);
      out.index[d] = token(pos++);
    } else if (rep == 1 || rep == 4) {
      if (end - pos < 2) return reject(pos, "64-bit operand index truncated", d);
      if (token(pos) != 0) return reject(pos, "64-bit index above 4G", token(pos));
      out.index[d] = token(pos + 1); // high dword first
      pos += 2;
    }
    if (rep >= 2 && !decode_relative(pos, end, out, d, depth)) return false;
  }
  return true;
}

// The relative part of index `dimension`: an operand of its own. Out of line, so that the
// nested operand's storage and the recursion stay off the path of every other operand.
[[gnu::noinline]] bool ProgramDecoder::decode_relative(std::uint32_t& pos, std::uint32_t end,
                                                       Operand& out, std::uint32_t dimension,
                                                       std::uint32_t depth) {
  if (depth >= kMaxRelativeDepth) return reject(pos, "relative addressing nested too deep", depth);
  Operand nested;
  if (!decode_operand(pos, end, nested, depth + 1)) return false;
  // Room was reserved up front: an operand takes at least one token.
  out.relative[dimension] = program_.relative.size();
  program_.relative.push_unchecked() = nested;
  return true;
}

bool ProgramDecoder::decode_custom_data(std::uint32_t pos, std::uint32_t end,
                                        std::uint32_t& length) {
  if (end - pos < 2) return reject(pos, "customdata length missing");
  length = token(pos + 1);
  if (length < 2 || length > end - pos)
    return reject(pos, "customdata length out of range", length);
  const std::uint32_t data_class = token(pos) >> 11;
  Instruction& inst = program_.instructions.push_unchecked();
  std::memset(static_cast<void*>(&inst), 0, sizeof inst);
  inst.opcode = Opcode::CustomData;
  inst.token_offset = pos;
  inst.controls = token(pos);
  inst.first_operand = program_.operands.size();
  inst.declaration = program_.declarations.size();
  Declaration& decl = program_.declarations.push_unchecked();
  std::memset(static_cast<void*>(&decl), 0, sizeof decl);
  decl.value = data_class;
  decl.list_first = pos + 2; // the data stays in the token stream
  decl.list_count = length - 2;
  if (data_class == std::uint32_t(CustomDataClass::ImmediateConstantBuffer)) {
    if ((length - 2) % 4 != 0)
      return reject(pos, "immediate constant buffer not whole vectors", length);
    program_.icb_first = pos + 2;
    program_.icb_count = length - 2;
  }
  return true;
}

bool ProgramDecoder::decode_instruction(std::uint32_t pos, std::uint32_t length) {
  const std::uint32_t tok = token(pos);
  const std::uint32_t number = tok & 0x7ffu;
  const OpcodeInfo& info = opcode_info(number);
  const std::uint32_t end = pos + length;

  Instruction& inst = program_.instructions.push_unchecked();
  std::memset(static_cast<void*>(&inst), 0, sizeof inst);
  inst.opcode = Opcode(number);
  inst.token_offset = pos;
  inst.controls = tok;
  inst.first_operand = program_.operands.size();
  inst.declaration = kNoOperand;

  std::uint32_t p = pos + 1;
  bool extended = (tok >> 31) != 0;
  while (extended) {
    if (p >= end) return reject(p, "extended opcode token missing");
    const std::uint32_t ext = token(p++);
    extended = (ext >> 31) != 0;
    switch (ext & 0x3fu) {
    case 1: // sample controls: immediate texel offsets
      for (unsigned i = 0; i < 3; ++i) {
        const std::uint32_t bits = (ext >> (9 + 4 * i)) & 0xfu;
        inst.texel_offset[i] = std::int8_t(bits >= 8 ? int(bits) - 16 : int(bits));
      }
      inst.flags |= instruction_flag::kTexelOffset;
      break;
    case 2: {
      const std::uint32_t dim = (ext >> 6) & 0x1fu;
      if (dim > std::uint32_t(ResourceDimension::StructuredBuffer))
        return reject(p - 1, "bad resource dimension", dim);
      inst.resource_dimension = ResourceDimension(dim);
      inst.structure_stride = (ext >> 11) & 0xfffu;
      inst.flags |= instruction_flag::kResourceDimension;
      break;
    }
    case 3:
      for (unsigned i = 0; i < 4; ++i)
        inst.resource_return[i] = std::uint8_t((ext >> (6 + 4 * i)) & 0xfu);
      inst.flags |= instruction_flag::kResourceReturnType;
      break;
    default:
      return reject(p - 1, "unknown extended opcode token", ext & 0x3fu);
    }
  }

  if (info.flags & opflag::Decl) {
    inst.declaration = program_.declarations.size();
    Declaration& decl = program_.declarations.push_unchecked();
    std::memset(static_cast<void*>(&decl), 0, sizeof decl);
    return decode_declaration(inst, p, end, decl);
  }

  if (inst.opcode == Opcode::InterfaceCall) { // the function index precedes the operand
    if (p >= end) return reject(p, "fcall function index missing");
    inst.declaration = program_.declarations.size();
    Declaration& decl = program_.declarations.push_unchecked();
    std::memset(static_cast<void*>(&decl), 0, sizeof decl);
    decl.value = token(p++);
  }

  // The table fixes the operand count. Some compilers pad a few SM5 instructions (samplepos,
  // sample_*_cl_s) with a dword the runtime ignores; so do we, and note it.
  const std::uint32_t wanted = info.dst_count + info.src_count;
  for (std::uint32_t i = 0; i < wanted; ++i) {
    Operand& operand = program_.operands.push_unchecked();
    if (!decode_operand(p, end, operand, 0)) return false; // reported
    ++inst.operand_count;
  }
  if (p != end) inst.flags |= instruction_flag::kTrailingTokens;
  return true;
}

bool ProgramDecoder::decode_declaration(const Instruction& inst, std::uint32_t p, std::uint32_t end,
                                        Declaration& decl) {
  const std::uint32_t pos = inst.token_offset;
  const std::uint32_t tok = inst.controls;
  const bool sm51 = program_.is_sm51();
  Instruction& writable = program_.instructions[program_.instructions.size() - 1];

  auto dword = [&](std::uint32_t& out) {
    if (p >= end) return false;
    out = token(p++);
    return true;
  };
  auto operand = [&]() {
    Operand& op = program_.operands.push_unchecked();
    if (!decode_operand(p, end, op, 0)) return false;
    ++writable.operand_count;
    return true;
  };
  auto return_type = [&]() {
    std::uint32_t rt;
    if (!dword(rt)) return false;
    for (unsigned i = 0; i < 4; ++i) decl.return_type[i] = std::uint8_t((rt >> (4 * i)) & 0xfu);
    return true;
  };
  auto space = [&]() { return !sm51 || dword(decl.space); };
  bool ok = true;

  switch (inst.opcode) {
  case Opcode::DclResource:
    decl.dimension = ResourceDimension((tok >> 11) & 0x1fu);
    decl.sample_count = std::uint8_t((tok >> 16) & 0x7fu);
    if (std::uint32_t(decl.dimension) > std::uint32_t(ResourceDimension::StructuredBuffer))
      return reject(pos, "bad resource dimension", std::uint32_t(decl.dimension));
    ok = operand() && return_type() && space();
    break;
  case Opcode::DclConstantBuffer:
    decl.value2 = (tok >> 11) & 1u;
    ok = operand();
    if (ok && sm51)
      ok = dword(decl.value) && dword(decl.space);
    else if (ok)
      decl.value = program_.operands[program_.operands.size() - 1].index[1];
    break;
  case Opcode::DclSampler:
    decl.value = (tok >> 11) & 0xfu;
    ok = operand() && space();
    break;
  case Opcode::DclIndexRange:
    ok = operand() && dword(decl.value);
    break;
  case Opcode::DclGsOutputTopology:
    decl.value = (tok >> 11) & 0x7fu;
    break;
  case Opcode::DclGsInputPrimitive:
    decl.value = (tok >> 11) & 0x3fu;
    break;
  case Opcode::DclInputControlPointCount:
  case Opcode::DclOutputControlPointCount:
    decl.value = (tok >> 11) & 0x3fu;
    break;
  case Opcode::DclTessDomain:
    decl.value = (tok >> 11) & 3u;
    break;
  case Opcode::DclTessPartitioning:
  case Opcode::DclTessOutputPrimitive:
    decl.value = (tok >> 11) & 7u;
    break;
  case Opcode::DclGlobalFlags:
    decl.value = (tok >> 11) & 0x1fffu;
    break;
  case Opcode::DclMaxOutputVertexCount:
  case Opcode::DclTemps:
  case Opcode::DclGsInstanceCount:
  case Opcode::DclHsForkPhaseInstanceCount:
  case Opcode::DclHsJoinPhaseInstanceCount:
  case Opcode::DclFunctionBody:
    ok = dword(decl.value);
    break;
  case Opcode::DclHsMaxTessFactor:
    ok = dword(decl.value2);
    break;
  case Opcode::DclInput:
  case Opcode::DclOutput:
  case Opcode::DclStream:
  case Opcode::DclResourceRaw:
    ok = operand() && (inst.opcode != Opcode::DclResourceRaw || space());
    break;
  case Opcode::DclInputSgv:
  case Opcode::DclInputSiv:
  case Opcode::DclOutputSgv:
  case Opcode::DclOutputSiv:
    ok = operand() && dword(decl.system_value);
    break;
  case Opcode::DclInputPs:
  case Opcode::DclInputPsSgv:
  case Opcode::DclInputPsSiv:
    decl.interpolation = InterpolationMode((tok >> 11) & 0xfu);
    if (std::uint32_t(decl.interpolation) > 7)
      return reject(pos, "bad interpolation mode", (tok >> 11) & 0xfu);
    ok = operand() && (inst.opcode == Opcode::DclInputPs || dword(decl.system_value));
    break;
  case Opcode::DclIndexableTemp:
    ok = dword(decl.value2) && dword(decl.value) && dword(decl.value3);
    break;
  case Opcode::DclThreadGroup:
    ok = dword(decl.thread_group[0]) && dword(decl.thread_group[1]) && dword(decl.thread_group[2]);
    break;
  case Opcode::DclFunctionTable: {
    std::uint32_t count = 0;
    ok = dword(decl.value) && dword(count);
    if (ok && count > end - p)
      return reject(p, "function table longer than its instruction", count);
    if (ok) {
      decl.list_first = program_.lists.size();
      decl.list_count = count;
      program_.lists.reserve_more(count);
      for (std::uint32_t i = 0; i < count; ++i) program_.lists.push_unchecked() = token(p++);
    }
    break;
  }
  case Opcode::DclInterface: {
    std::uint32_t sizes = 0;
    decl.value3 = (tok >> 11) & 1u; // dynamically indexed
    ok = dword(decl.value) && dword(decl.function_count) && dword(sizes);
    if (ok) {
      const std::uint32_t tables = sizes & 0xffffu;
      decl.value2 = sizes >> 16; // array size
      if (tables > end - p)
        return reject(p, "interface table list longer than its instruction", tables);
      decl.list_first = program_.lists.size();
      decl.list_count = tables;
      program_.lists.reserve_more(tables);
      for (std::uint32_t i = 0; i < tables; ++i) program_.lists.push_unchecked() = token(p++);
    }
    break;
  }
  case Opcode::DclUavTyped:
    decl.dimension = ResourceDimension((tok >> 11) & 0x1fu);
    if (std::uint32_t(decl.dimension) > std::uint32_t(ResourceDimension::StructuredBuffer))
      return reject(pos, "bad resource dimension", std::uint32_t(decl.dimension));
    decl.uav_flags = ((tok >> 16) & 1u) | (((tok >> 17) & 1u) << 1);
    ok = operand() && return_type() && space();
    break;
  case Opcode::DclUavRaw:
    decl.uav_flags = ((tok >> 16) & 1u) | (((tok >> 17) & 1u) << 1);
    ok = operand() && space();
    break;
  case Opcode::DclUavStructured:
    decl.uav_flags = ((tok >> 16) & 1u) | (((tok >> 17) & 1u) << 1) | (((tok >> 23) & 1u) << 2);
    ok = operand() && dword(decl.value2) && space();
    break;
  case Opcode::DclTgsmRaw:
    ok = operand() && dword(decl.value);
    break;
  case Opcode::DclTgsmStructured:
    ok = operand() && dword(decl.value2) && dword(decl.value);
    break;
  case Opcode::DclResourceStructured:
    ok = operand() && dword(decl.value2) && space();
    break;
  default:
    return reject(pos, "declaration without a decoder", std::uint32_t(inst.opcode));
  }
  // After an operand's own report (the first wins), this one is dropped.
  if (!ok) return reject(p, "declaration truncated", std::uint32_t(inst.opcode));
  if (p != end) return reject(p, "unexpected tokens after declaration", std::uint32_t(inst.opcode));
  if (inst.opcode == Opcode::DclTemps) program_.temp_count = decl.value;
  return true;
}

bool ProgramDecoder::decode(std::uint32_t end) {
  // Every record takes at least one token, so these bounds let the loop write unchecked.
  program_.instructions.reserve_more(end);
  program_.operands.reserve_more(end);
  program_.relative.reserve_more(end);
  program_.declarations.reserve_more(end);

  std::uint32_t pos = 2;
  while (pos < end) {
    const std::uint32_t tok = token(pos);
    const std::uint32_t number = tok & 0x7ffu;
    if (number == std::uint32_t(Opcode::CustomData)) {
      std::uint32_t length = 0;
      if (!decode_custom_data(pos, end, length)) return false;
      pos += length;
      continue;
    }
    if (!is_known_opcode(number) || (opcode_info(number).flags & opflag::Reserved))
      return reject(pos, "unknown opcode", number);
    const std::uint32_t length = (tok >> 24) & 0x7fu;
    if (length == 0) return reject(pos, "instruction length 0", tok);
    if (length > end - pos) return reject(pos, "instruction runs past the program end", length);
    if (!decode_instruction(pos, length)) return false;
    pos += length;
  }
  return true;
}

bool ProgramDecoder::decode_program(std::size_t chunk_bytes) {
  Program& program = program_;
  if (chunk_bytes < 8) return errors_.fail(Where(), "program shorter than its 2-token header");
  const std::uint32_t available = std::uint32_t(std::min<std::size_t>(chunk_bytes / 4, 0x3fffffff));
  program.token_count = available;
  const std::uint32_t version = program.token(0);
  const std::uint32_t type = version >> 16;
  program.major = std::uint8_t((version >> 4) & 0xfu);
  program.minor = std::uint8_t(version & 0xfu);
  if (type > std::uint32_t(ProgramType::Compute))
    return errors_.fail(0, "unknown program type " + std::to_string(type));
  if (program.major < 4 || program.major > 5)
    return errors_.fail(0, "unsupported shader model " + std::to_string(program.major) + "." +
                               std::to_string(program.minor));
  program.type = ProgramType(type);
  const std::uint32_t length = program.token(1);
  if (length < 2 || length > available)
    return errors_.fail(1, "program length " + std::to_string(length) + " outside the chunk (" +
                               std::to_string(available) + " tokens)");
  // Decoding reserves a record per token up front; bounding the length keeps that (about 200
  // bytes per token) far from exhausting memory. The largest known programs are ~10k tokens.
  if (length > kMaxProgramTokens)
    return errors_.fail(1, "program length " + std::to_string(length) + " above the limit of " +
                               std::to_string(kMaxProgramTokens) + " tokens");
  program.token_count = length;
  return decode(length);
}

} // namespace

Status decode_program(std::span<const std::uint8_t> chunk, Program& program) {
  program.clear();
  program.token_bytes = chunk.data();
  ProgramDecoder decoder(program);
  return decoder.run(chunk.size());
}

} // namespace kiln::dxbc
