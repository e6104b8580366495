// The D3D9 token-stream reader. Token layout (d3d9types.h):
//   instruction: bits 0-15 opcode, 16-23 control, 24-27 length (2.0+), 28 predicated,
//                30 co-issue (ps_1_x), 31 clear
//   parameter:   bits 0-10 register number, 11-12 + 28-30 register type, 13 relative,
//                16-23 swizzle (src) or 16-19 write mask + 20-23 result modifier (dst),
//                24-27 source modifier (src) or result shift (dst), 31 set
//   comment:     bits 0-15 0xFFFE, 16-30 payload length in tokens

#include "translator/d3d9/reader.h"

#include <algorithm>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

namespace kiln::d3d9 {

namespace {

constexpr std::uint32_t kParamBit = 0x80000000u;
constexpr std::uint32_t kRelativeBit = 0x2000u;
constexpr std::uint32_t kPredicatedBit = 0x10000000u;
constexpr std::uint32_t kCoissueBit = 0x40000000u;

std::uint32_t load(const std::uint8_t* base, std::size_t index) {
  std::uint32_t value;
  std::memcpy(&value, base + index * 4, 4); // hosts are little-endian, like the format
  return value;
}

std::uint32_t register_type_of(std::uint32_t token) {
  return ((token >> 28) & 0x7) | ((token >> 8) & 0x18);
}

bool has_length_field(Model m) {
  return m != Model::Vs1 && !(models::Ps1All & model_bit(m));
}

// MinGW's `printf` format checks msvcrt's formats; kiln's Windows build uses the C99 printf
// (__USE_MINGW_ANSI_STDIO), which GCC calls gnu_printf.
#if defined(__MINGW32__)
#define KILN_PRINTF_FORMAT gnu_printf
#else
#define KILN_PRINTF_FORMAT printf
#endif

// A message with values in it, formatted on the error path only.
[[gnu::cold]] __attribute__((format(KILN_PRINTF_FORMAT, 1, 2))) std::string printed(const char* format, ...) {
  char text[256];
  va_list args;
  va_start(args, format);
  std::vsnprintf(text, sizeof text, format, args);
  va_end(args);
  return text;
}

// Operand reads for one shader. Failures go to the decoder's sink, named after the instruction
// being read (at()).
class OperandReader {
 public:
  OperandReader(const std::uint8_t* base, Model model, ErrorSink& errors)
      : base_(base), sm1_(!has_length_field(model)), vertex_sm1_(model == Model::Vs1),
        errors_(errors) {}

  void at(std::string_view mnemonic) { mnemonic_ = mnemonic; }

  bool source(std::size_t& p, std::size_t end, SourceParam& out) {
    if (p >= end) return reject(p, "operand missing (instruction ends early)", 0);
    const std::uint32_t t = load(base_, p);
    if (!(t & kParamBit)) return reject(p, "expected a parameter token, got 0x%08x", t);
    const std::uint32_t type = register_type_of(t);
    if (type >= kRegisterTypeCount) return reject(p, "register type %u does not exist", type);
    const std::uint32_t modifier = (t >> 24) & 0xF;
    if (modifier >= kSourceModifierCount)
      return reject(p, "source modifier %u does not exist", modifier);
    out.index = std::uint16_t(t & 0x7FF);
    out.type = RegisterType(type);
    out.modifier = SourceModifier(modifier);
    out.swizzle = std::uint8_t(t >> 16);
    out.relative = (t & kRelativeBit) != 0;
    ++p;
    if (out.relative) return relative(p, end, out.rel_type, out.rel_component);
    return true;
  }

  bool dest(std::size_t& p, std::size_t end, DestParam& out) {
    if (p >= end) return reject(p, "destination missing (instruction ends early)", 0);
    const std::uint32_t t = load(base_, p);
    if (!(t & kParamBit)) return reject(p, "expected a parameter token, got 0x%08x", t);
    const std::uint32_t type = register_type_of(t);
    if (type >= kRegisterTypeCount) return reject(p, "register type %u does not exist", type);
    const std::uint32_t shift = (t >> 24) & 0xF;
    out.index = std::uint16_t(t & 0x7FF);
    out.type = RegisterType(type);
    out.write_mask = std::uint8_t((t >> 16) & 0xF);
    out.modifiers = std::uint8_t((t >> 20) & 0x7);
    out.shift = std::int8_t(shift >= 8 ? int(shift) - 16 : int(shift));
    out.relative = (t & kRelativeBit) != 0;
    ++p;
    if (out.relative) return relative(p, end, out.rel_type, out.rel_component);
    return true;
  }

 private:
  // `what` is a printf format with at most one value.
  [[gnu::cold]] bool reject(std::size_t token, const char* what, std::uint32_t value) {
    return errors_.fail({token, mnemonic_}, printed(what, value));
  }

  // The address of a relative operand: implicit a0.x in vs_1_x, a token of its own in 2.0+.
  bool relative(std::size_t& p, std::size_t end, RegisterType& type, std::uint8_t& component) {
    if (sm1_) {
      if (!vertex_sm1_) return reject(p - 1, "relative addressing in a ps_1_x shader", 0);
      type = RegisterType::Address;
      component = 0;
      return true;
    }
    if (p >= end) return reject(p, "relative address token missing", 0);
    const std::uint32_t t = load(base_, p);
    if (!(t & kParamBit)) return reject(p, "expected a relative address token, got 0x%08x", t);
    const std::uint32_t rel_type = register_type_of(t);
    if (rel_type != std::uint32_t(RegisterType::Address) &&
        rel_type != std::uint32_t(RegisterType::Loop))
      return reject(p, "relative address through register type %u (not a0 or aL)", rel_type);
    if ((t & 0x7FF) != 0)
      return reject(p, "relative address register %u does not exist", t & 0x7FF);
    type = RegisterType(rel_type);
    component = std::uint8_t((t >> 16) & 0x3);
    ++p;
    return true;
  }

  const std::uint8_t* base_;
  bool sm1_;
  bool vertex_sm1_;
  ErrorSink& errors_;
  std::string_view mnemonic_;
};

// Tokens after the instruction token of a shader model 1.x instruction (no length field there,
// no relative-address tokens, no predicates).
std::size_t sm1_operand_tokens(const OpcodeInfo& info) {
  std::size_t n = info.dst_count + info.src_count;
  switch (info.layout) {
  case Layout::Dcl:
    return n + 1;
  case Layout::Def:
  case Layout::DefI:
    return n + 4;
  case Layout::DefB:
    return n + 1;
  default:
    return n;
  }
}

} // namespace

VersionName version_name(const ShaderVersion& version) {
  VersionName name{};
  const char stage = version.stage == ShaderStage::Pixel ? 'p' : 'v';
  const unsigned major = version.major % 10;
  if (version.minor == 0xFF)
    std::snprintf(name.text, sizeof name.text, "%cs_%u_sw", stage, major);
  else if (version.major == 2 && version.minor == 1)
    std::snprintf(name.text, sizeof name.text, "%cs_2_x", stage);
  else
    std::snprintf(name.text, sizeof name.text, "%cs_%u_%u", stage, major, version.minor % 10u);
  return name;
}

bool parse_version(std::uint32_t token, ShaderVersion& out) {
  const std::uint32_t kind = token >> 16;
  if (kind != 0xFFFE && kind != 0xFFFF) return false;
  const bool vertex = kind == 0xFFFE;
  const std::uint8_t major = std::uint8_t(token >> 8), minor = std::uint8_t(token);
  Model model;
  switch (major) {
  case 1:
    if (vertex) {
      if (minor > 1) return false;
      model = Model::Vs1;
    } else {
      if (minor > 4) return false;
      static constexpr Model kPs1[] = {Model::Ps11, Model::Ps11, Model::Ps12, Model::Ps13,
                                       Model::Ps14};
      model = kPs1[minor];
    }
    break;
  case 2:
    if (minor == 0)
      model = vertex ? Model::Vs2 : Model::Ps2;
    else if (minor == 1 || minor == 0xFF)
      model = vertex ? Model::Vs2x : Model::Ps2x;
    else
      return false;
    break;
  case 3:
    if (minor != 0 && minor != 0xFF) return false;
    model = vertex ? Model::Vs3 : Model::Ps3;
    break;
  default:
    return false;
  }
  out.stage = vertex ? ShaderStage::Vertex : ShaderStage::Pixel;
  out.major = major;
  out.minor = minor;
  out.model = model;
  return true;
}

namespace {

bool decode_tokens(std::span<const std::uint8_t> bytes, Program& program, ErrorSink& errors) {
  if (bytes.size() % 4 != 0)
    return errors.fail({}, "D3D9 shader of " + std::to_string(bytes.size()) +
                               " bytes: not a whole number of tokens");
  const std::size_t count = bytes.size() / 4;
  if (count == 0) return errors.fail({}, "empty D3D9 shader");
  const std::uint8_t* base = bytes.data();
  const std::uint32_t version_token = load(base, 0);
  if (!parse_version(version_token, program.version))
    return errors.fail(0, printed("0x%08x is not a D3D9 shader version", version_token));
  const ShaderVersion& version = program.version;
  const Model model = version.model;
  const bool has_length = has_length_field(model);
  const bool pixel_sm1 = (models::Ps1All & model_bit(model)) != 0;
  OperandReader reader(base, model, errors);

  std::size_t i = 1;
  for (;;) {
    if (i >= count) return errors.fail(i, "the shader ends without an end token (0x0000ffff)");
    const std::uint32_t t = load(base, i);
    const std::uint32_t number = t & 0xFFFF;
    if (number == kCommentOpcode) {
      if (t & kParamBit) return errors.fail(i, printed("comment token 0x%08x has bit 31 set", t));
      const std::uint32_t length = (t >> 16) & 0x7FFF;
      if (length > count - i - 1)
        return errors.fail(
            i, printed("comment of %u tokens runs past the end (%zu left)", length, count - i - 1));
      program.comments.push_back({std::uint32_t(i), length, length ? load(base, i + 1) : 0u});
      i += 1 + length;
      continue;
    }
    if (number == kEndOpcode) {
      if (t != kEndToken) return errors.fail(i, printed("malformed end token 0x%08x", t));
      if (i + 1 != count)
        return errors.fail(i, printed("%zu tokens follow the end token", count - i - 1));
      program.token_count = std::uint32_t(i + 1);
      return true;
    }
    if (t & kParamBit)
      return errors.fail(i, printed("expected an instruction token, got 0x%08x", t));
    Opcode op;
    if (!find_opcode(model, number, op))
      return errors.fail(
          i, printed("opcode %u is not an instruction of %s", number, version_name(version).text));
    const OpcodeInfo& info = opcode_info(op);
    reader.at(info.mnemonic);

    Instruction& ins = program.instructions.emplace_back();
    ins.offset = std::uint32_t(i);
    ins.opcode = op;
    ins.control = std::uint8_t(t >> 16);
    if (t & kCoissueBit) {
      if (!pixel_sm1) return errors.fail(i, "co-issue bit outside ps_1_x");
      ins.flags |= kCoissue;
    }
    if (t & kPredicatedBit) {
      if (!has_length) return errors.fail(i, "predicated instruction in shader model 1");
      ins.flags |= kPredicated;
    }

    std::size_t p = i + 1;
    std::size_t end = count;
    if (has_length) {
      const std::size_t length = (t >> 24) & 0xF;
      end = p + length;
      if (end > count)
        return errors.fail(
            i, printed("%s of %zu tokens runs past the end", info.mnemonic.data(), length));
    } else if (sm1_operand_tokens(info) > count - p) {
      return errors.fail(i, printed("%s runs past the end", info.mnemonic.data()));
    }

    bool ok = true;
    switch (info.layout) {
    case Layout::Dcl: {
      if (p >= end) return errors.fail(p, "declaration token missing");
      const std::uint32_t d = load(base, p);
      if (!(d & kParamBit))
        return errors.fail(p, printed("declaration token 0x%08x lacks bit 31", d));
      const std::uint32_t usage = d & 0x1F, texture = (d >> 27) & 0xF;
      if (usage >= kUsageCount)
        return errors.fail(p, printed("declaration usage %u does not exist", usage));
      if (texture >= kTextureTypeCount)
        return errors.fail(p, printed("sampler texture type %u does not exist", texture));
      ins.declaration = {Usage(usage), std::uint8_t((d >> 16) & 0xF), TextureType(texture)};
      ++p;
      ok = reader.dest(p, end, ins.dst);
      break;
    }
    case Layout::Def:
    case Layout::DefI:
    case Layout::DefB: {
      ok = reader.dest(p, end, ins.dst);
      const std::size_t values = info.layout == Layout::DefB ? 1 : 4;
      if (ok && end - p < values)
        return errors.fail(p, printed("%s literal missing", info.mnemonic.data()));
      for (std::size_t k = 0; ok && k < values; ++k) ins.value[k] = load(base, p++);
      break;
    }
    case Layout::Compare:
      if (ins.control < 1 || ins.control > 6)
        return errors.fail(i, printed("comparison %u does not exist", ins.control));
      [[fallthrough]];
    case Layout::Sample:
      if (info.layout == Layout::Sample && (ins.control & 0x3) > 2)
        return errors.fail(i, printed("texld variant %u does not exist", ins.control & 0x3u));
      [[fallthrough]];
    case Layout::Plain:
      if (info.dst_count) ok = reader.dest(p, end, ins.dst);
      if (ok && (ins.flags & kPredicated)) ok = reader.source(p, end, ins.predicate);
      ins.src_count = info.src_count;
      for (std::size_t k = 0; ok && k < info.src_count; ++k) ok = reader.source(p, end, ins.src[k]);
      break;
    }
    if (!ok) return false; // the reader reported
    if (has_length && p != end)
      return errors.fail(i, printed("%s: length field says %zu tokens, its operands take %zu",
                                    info.mnemonic.data(), end - i - 1, p - i - 1));
    i = p;
  }
}

bool measure_tokens(std::span<const std::uint8_t> bytes, std::size_t& shader_bytes,
                    ErrorSink& errors) {
  const std::size_t count = bytes.size() / 4;
  if (count == 0) return errors.fail({}, "no room for a D3D9 version token");
  const std::uint8_t* base = bytes.data();
  ShaderVersion version;
  const std::uint32_t version_token = load(base, 0);
  if (!parse_version(version_token, version))
    return errors.fail(0, printed("0x%08x is not a D3D9 shader version", version_token));
  const bool has_length = has_length_field(version.model);
  std::size_t i = 1;
  for (;;) {
    if (i >= count) return errors.fail(i, printed("no end token within %zu tokens", count));
    const std::uint32_t t = load(base, i);
    const std::uint32_t number = t & 0xFFFF;
    std::size_t operands;
    if (t & kParamBit) {
      return errors.fail(i, printed("expected an instruction token, got 0x%08x", t));
    } else if (number == kCommentOpcode) {
      operands = (t >> 16) & 0x7FFF;
    } else if (number == kEndOpcode) {
      if (t != kEndToken) return errors.fail(i, printed("malformed end token 0x%08x", t));
      shader_bytes = (i + 1) * 4;
      return true;
    } else if (has_length) {
      operands = (t >> 24) & 0xF;
    } else {
      Opcode op;
      if (!find_opcode(version.model, number, op))
        return errors.fail(i, printed("opcode %u is not an instruction of %s", number,
                                      version_name(version).text));
      operands = sm1_operand_tokens(opcode_info(op));
    }
    if (operands > count - i - 1)
      return errors.fail(
          i, printed("instruction of %zu tokens runs past %zu tokens", operands, count));
    i += 1 + operands;
  }
}

} // namespace

std::string spell_error(const Where& where, std::string_view what) {
  if (!where.known()) return std::string(what);
  std::string message = "token " + std::to_string(where.position) + ": ";
  if (!where.name.empty()) message.append(where.name).append(": ");
  return message.append(what);
}

Status decode(std::span<const std::uint8_t> bytes, Program& program) {
  program.clear();
  ErrorSink errors{&spell_error};
  return errors.outcome(decode_tokens(bytes, program, errors));
}

Status measure(std::span<const std::uint8_t> bytes, std::size_t& shader_bytes) {
  shader_bytes = 0;
  ErrorSink errors{&spell_error};
  return errors.outcome(measure_tokens(bytes, shader_bytes, errors));
}

Status measure(const std::uint32_t* tokens, std::size_t max_tokens, std::size_t& token_count) {
  token_count = 0;
  if (!tokens) return Status::error("null D3D9 token pointer");
  max_tokens = std::min(max_tokens, SIZE_MAX / 8);
  std::size_t bytes = 0;
  Status status =
      measure(std::span(reinterpret_cast<const std::uint8_t*>(tokens), max_tokens * 4), bytes);
  token_count = bytes / 4;
  return status;
}

} // namespace kiln::d3d9
