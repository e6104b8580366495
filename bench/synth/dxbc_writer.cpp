#include "bench/synth/dxbc_writer.h"

#include "translator/dxbc/container.h"

#include <bit>
#include <cstring>

namespace kiln::synth::dxbc {

namespace {

Operand with_modifier(Operand op, std::uint32_t modifier) {
  Operand out;
  out.push(op.tokens[0] | 0x80000000u);
  out.push(1u | modifier << 6); // extended operand token, type 1: modifier
  for (std::uint32_t i = 1; i < op.count; ++i) out.push(op.tokens[i]);
  return out;
}

constexpr std::uint32_t program_type(ShaderStage stage) {
  switch (stage) {
  case ShaderStage::Pixel:
    return 0;
  case ShaderStage::Vertex:
    return 1;
  case ShaderStage::Geometry:
    return 2;
  case ShaderStage::Hull:
    return 3;
  case ShaderStage::Domain:
    return 4;
  case ShaderStage::Compute:
    return 5;
  default:
    return 0;
  }
}

} // namespace

namespace operand {

std::uint32_t token(OperandType type, std::uint32_t components, std::uint32_t mode,
                    std::uint32_t selection, std::uint32_t dimension, std::uint32_t rep0,
                    std::uint32_t rep1) {
  return components | mode << 2 | selection << 4 | std::uint32_t(type) << 12 | dimension << 20 |
         rep0 << 22 | rep1 << 25;
}

Operand of(std::initializer_list<std::uint32_t> tokens) {
  Operand op;
  for (std::uint32_t t : tokens) op.push(t);
  return op;
}

Operand dst(OperandType type, std::uint32_t index, std::uint32_t mask) {
  Operand op;
  op.push(token(type, 2, 0, mask, 1));
  op.push(index);
  return op;
}

Operand src(OperandType type, std::uint32_t index, std::uint32_t swz) {
  Operand op;
  op.push(token(type, 2, 1, swz, 1));
  op.push(index);
  return op;
}

Operand src_scalar(OperandType type, std::uint32_t index, std::uint32_t component) {
  Operand op;
  op.push(token(type, 2, 2, component, 1));
  op.push(index);
  return op;
}

Operand temp_dst(std::uint32_t reg, std::uint32_t mask) {
  return dst(OperandType::Temp, reg, mask);
}
Operand temp(std::uint32_t reg, std::uint32_t swz) {
  return src(OperandType::Temp, reg, swz);
}
Operand temp_scalar(std::uint32_t reg, std::uint32_t component) {
  return src_scalar(OperandType::Temp, reg, component);
}
Operand input(std::uint32_t reg, std::uint32_t swz) {
  return src(OperandType::Input, reg, swz);
}

Operand input_2d(std::uint32_t vertex, std::uint32_t reg, std::uint32_t swz) {
  Operand op;
  op.push(token(OperandType::Input, 2, 1, swz, 2));
  op.push(vertex);
  op.push(reg);
  return op;
}

Operand output_dst(std::uint32_t reg, std::uint32_t mask) {
  return dst(OperandType::Output, reg, mask);
}

Operand cb(std::uint32_t slot, std::uint32_t element, std::uint32_t swz) {
  Operand op;
  op.push(token(OperandType::ConstantBuffer, 2, 1, swz, 2));
  op.push(slot);
  op.push(element);
  return op;
}

Operand cb_relative(std::uint32_t slot, std::uint32_t base, std::uint32_t reg,
                    std::uint32_t component, std::uint32_t swz) {
  Operand op;
  op.push(token(OperandType::ConstantBuffer, 2, 1, swz, 2, 0, 3));
  op.push(slot);
  op.push(base);
  const Operand relative = temp_scalar(reg, component);
  for (std::uint32_t i = 0; i < relative.count; ++i) op.push(relative.tokens[i]);
  return op;
}

Operand imm4_bits(std::uint32_t x, std::uint32_t y, std::uint32_t z, std::uint32_t w) {
  Operand op;
  op.push(token(OperandType::Immediate32, 2, 0, 0, 0));
  op.push(x);
  op.push(y);
  op.push(z);
  op.push(w);
  return op;
}

Operand imm4(float x, float y, float z, float w) {
  return imm4_bits(std::bit_cast<std::uint32_t>(x), std::bit_cast<std::uint32_t>(y),
                   std::bit_cast<std::uint32_t>(z), std::bit_cast<std::uint32_t>(w));
}

Operand imm1_bits(std::uint32_t bits) {
  Operand op;
  op.push(token(OperandType::Immediate32, 1, 0, 0, 0));
  op.push(bits);
  return op;
}

Operand imm1(float value) {
  return imm1_bits(std::bit_cast<std::uint32_t>(value));
}

Operand resource(std::uint32_t slot, std::uint32_t swz) {
  return src(OperandType::Resource, slot, swz);
}

Operand sampler(std::uint32_t slot) {
  Operand op;
  op.push(token(OperandType::Sampler, 0, 0, 0, 1));
  op.push(slot);
  return op;
}

Operand uav(std::uint32_t slot, std::uint32_t mask_or_swz, bool as_dst) {
  return as_dst ? dst(OperandType::Uav, slot, mask_or_swz)
                : src(OperandType::Uav, slot, mask_or_swz);
}

Operand thread_id(std::uint32_t swz) {
  Operand op;
  op.push(token(OperandType::InputThreadId, 2, 1, swz, 0));
  return op;
}

Operand null_dst() {
  Operand op;
  op.push(token(OperandType::Null, 0, 0, 0, 0));
  return op;
}

Operand negate(Operand op) {
  return with_modifier(op, 1);
}
Operand absolute(Operand op) {
  return with_modifier(op, 2);
}

} // namespace operand

ProgramWriter::ProgramWriter(ShaderStage stage, std::uint32_t major, std::uint32_t minor)
    : major_(major) {
  tokens_.reserve(256);
  tokens_.push_back(minor | major << 4 | program_type(stage) << 16);
  tokens_.push_back(0); // length, filled by finish()
}

void ProgramWriter::emit(Op op, std::initializer_list<Operand> operands, std::uint32_t controls,
                         std::initializer_list<std::uint32_t> extra) {
  std::uint32_t length = 1 + static_cast<std::uint32_t>(extra.size());
  for (const Operand& operand : operands) length += operand.count;
  tokens_.push_back(std::uint32_t(op) | controls << 11 | length << 24);
  for (const Operand& operand : operands)
    tokens_.insert(tokens_.end(), operand.tokens.begin(), operand.tokens.begin() + operand.count);
  tokens_.insert(tokens_.end(), extra.begin(), extra.end());
}

void ProgramWriter::emit_saturated(Op op, std::initializer_list<Operand> operands) {
  emit(op, operands, 1u << 2); // bit 13 of the opcode token
}

std::vector<std::uint32_t> ProgramWriter::finish() {
  tokens_[1] = static_cast<std::uint32_t>(tokens_.size());
  return std::move(tokens_);
}

std::vector<std::uint8_t> signature_chunk(std::span<const SignatureElement> elements) {
  const std::size_t header = 8, element_size = 24;
  std::vector<std::uint8_t> out(header + element_size * elements.size());
  auto put = [&out](std::size_t at, std::uint32_t value) {
    for (int i = 0; i < 4; ++i) out[at + i] = std::uint8_t(value >> (8 * i));
  };
  put(0, static_cast<std::uint32_t>(elements.size()));
  put(4, 8);
  for (std::size_t i = 0; i < elements.size(); ++i) {
    const SignatureElement& e = elements[i];
    const std::size_t at = header + i * element_size;
    // Names are shared when repeated, as the compiler does.
    std::size_t name_offset = out.size();
    for (std::size_t j = 0; j < i; ++j)
      if (elements[j].semantic == e.semantic) {
        name_offset = 0;
        for (std::size_t k = 0; k < 4; ++k)
          name_offset |= std::size_t(out[header + j * element_size + k]) << (8 * k);
        break;
      }
    if (name_offset == out.size()) {
      out.insert(out.end(), e.semantic.begin(), e.semantic.end());
      out.push_back(0);
    }
    put(at, static_cast<std::uint32_t>(name_offset));
    put(at + 4, e.semantic_index);
    put(at + 8, e.system_value);
    put(at + 12, e.component_type);
    put(at + 16, e.register_index);
    out[at + 20] = e.mask;
    out[at + 21] = e.used_mask;
  }
  while (out.size() % 4) out.push_back(0xab); // the compiler pads names with 0xab
  return out;
}

void ContainerWriter::add_chunk(std::uint32_t tag, std::span<const std::uint8_t> data) {
  chunks_.emplace_back(tag, std::vector<std::uint8_t>(data.begin(), data.end()));
}

void ContainerWriter::add_chunk(std::uint32_t tag, std::span<const std::uint32_t> words) {
  std::vector<std::uint8_t> bytes(words.size() * 4);
  if (!words.empty()) std::memcpy(bytes.data(), words.data(), bytes.size());
  chunks_.emplace_back(tag, std::move(bytes));
}

std::vector<std::uint8_t> ContainerWriter::finish() const {
  const std::size_t header = 32 + 4 * chunks_.size();
  std::size_t total = header;
  for (const auto& chunk : chunks_) total += 8 + chunk.second.size();
  std::vector<std::uint8_t> out(total);
  auto put = [&out](std::size_t at, std::uint32_t value) {
    for (int i = 0; i < 4; ++i) out[at + i] = std::uint8_t(value >> (8 * i));
  };
  put(0, fourcc('D', 'X', 'B', 'C'));
  put(20, 1); // container version
  put(24, static_cast<std::uint32_t>(total));
  put(28, static_cast<std::uint32_t>(chunks_.size()));
  std::size_t at = header;
  for (std::size_t i = 0; i < chunks_.size(); ++i) {
    put(32 + 4 * i, static_cast<std::uint32_t>(at));
    put(at, chunks_[i].first);
    put(at + 4, static_cast<std::uint32_t>(chunks_[i].second.size()));
    if (!chunks_[i].second.empty())
      std::memcpy(out.data() + at + 8, chunks_[i].second.data(), chunks_[i].second.size());
    at += 8 + chunks_[i].second.size();
  }
  const std::array<std::uint32_t, 4> checksum = container_checksum(out);
  for (int i = 0; i < 4; ++i) put(4 + 4 * i, checksum[i]);
  return out;
}

std::array<std::uint32_t, 4> container_checksum(std::span<const std::uint8_t> container) {
  std::array<std::uint32_t, 4> out{};
  ::kiln::dxbc::compute_checksum(container, out.data());
  return out;
}

} // namespace kiln::synth::dxbc
