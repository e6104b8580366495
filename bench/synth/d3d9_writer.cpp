#include "bench/synth/d3d9_writer.h"

#include <bit>
#include <cstring>
#include <string_view>

namespace kiln::synth::d3d9 {

namespace {
// Register types are split: bits 28-30 hold the low three bits, bits 11-12 the high two.
std::uint32_t register_bits(Reg type) {
  const auto t = std::uint32_t(type);
  return (t & 7) << 28 | ((t >> 3) & 3) << 11;
}
} // namespace

std::uint32_t dst(Reg type, std::uint32_t index, std::uint32_t mask) {
  return 0x80000000u | register_bits(type) | mask << 16 | index;
}

std::uint32_t src(Reg type, std::uint32_t index, std::uint32_t swz) {
  return 0x80000000u | register_bits(type) | swz << 16 | index;
}

std::uint32_t negate(std::uint32_t src_token) {
  return src_token | 1u << 24;
}
std::uint32_t relative(std::uint32_t src_token) {
  return src_token | 1u << 13;
}
std::uint32_t address_token() {
  return 0x80000000u | register_bits(Reg::Address);
}

TokenWriter::TokenWriter(bool pixel, std::uint32_t major, std::uint32_t minor)
    : pixel_(pixel), major_(major), minor_(minor) {
  tokens_.reserve(256);
  tokens_.push_back((pixel ? 0xffff0000u : 0xfffe0000u) | major << 8 | minor);
}

void TokenWriter::emit(Op op, std::initializer_list<std::uint32_t> params, std::uint32_t controls) {
  // SM2+ store the parameter count in bits 24-27; SM1 leaves them zero.
  const std::uint32_t length = major_ >= 2 ? static_cast<std::uint32_t>(params.size()) : 0;
  tokens_.push_back(::kiln::d3d9::opcode_info(op).number | controls << 16 | length << 24);
  tokens_.insert(tokens_.end(), params.begin(), params.end());
}

void TokenWriter::dcl_usage(Usage usage, std::uint32_t usage_index, std::uint32_t dst_token) {
  emit(Op::Dcl, {0x80000000u | std::uint32_t(usage) | usage_index << 16, dst_token});
}

void TokenWriter::dcl_sampler_2d(std::uint32_t index) {
  emit(Op::Dcl, {0x80000000u | 2u << 27, dst(Reg::Sampler, index)});
}

void TokenWriter::def(std::uint32_t reg, float x, float y, float z, float w) {
  emit(Op::Def,
       {dst(Reg::Const, reg), std::bit_cast<std::uint32_t>(x), std::bit_cast<std::uint32_t>(y),
        std::bit_cast<std::uint32_t>(z), std::bit_cast<std::uint32_t>(w)});
}

void TokenWriter::defi(std::uint32_t reg, std::int32_t count, std::int32_t start,
                       std::int32_t step) {
  emit(Op::DefI, {dst(Reg::ConstInt, reg), std::uint32_t(count), std::uint32_t(start),
                  std::uint32_t(step), 0});
}

void TokenWriter::defb(std::uint32_t reg, bool value) {
  emit(Op::DefB, {dst(Reg::ConstBool, reg), value ? 1u : 0u});
}

void TokenWriter::constant_table(std::uint32_t float4_count, std::uint32_t sampler_count) {
  // Layout (offsets from the start of the table, after the "CTAB" tag): header (28 bytes),
  // constant infos (20 bytes each), type infos (16 bytes each), then the strings.
  std::vector<std::uint8_t> table;
  auto put16 = [&table](std::size_t at, std::uint32_t v) {
    table[at] = std::uint8_t(v);
    table[at + 1] = std::uint8_t(v >> 8);
  };
  auto put32 = [&](std::size_t at, std::uint32_t v) {
    put16(at, v & 0xffff);
    put16(at + 2, v >> 16);
  };
  const std::uint32_t constants = (float4_count ? 1 : 0) + sampler_count;
  const std::size_t infos = 28, types = infos + 20 * constants;
  table.resize(types + 16 * constants);
  auto add_string = [&table](std::string_view text) {
    const auto at = static_cast<std::uint32_t>(table.size());
    table.insert(table.end(), text.begin(), text.end());
    table.push_back(0);
    return at;
  };
  put32(0, 28);
  put32(4, add_string("kiln synthetic corpus"));
  put32(8, tokens_[0]);
  put32(12, constants);
  put32(16, static_cast<std::uint32_t>(infos));
  put32(20, 0);
  put32(24, add_string(std::string(pixel_ ? "ps_" : "vs_") + char('0' + major_) + "_" +
                       char('0' + minor_)));
  for (std::uint32_t i = 0; i < constants; ++i) {
    const bool is_float = float4_count && i == 0;
    const std::uint32_t sampler = float4_count ? i - 1 : i;
    const std::size_t info = infos + 20 * i, type = types + 16 * i;
    const std::string name =
        is_float ? std::string("g_Constants") : "g_Sampler" + std::to_string(sampler);
    put32(info, add_string(name));
    put16(info + 4, is_float ? 2 : 3); // register set: float4 / sampler
    put16(info + 6, is_float ? 0 : sampler);
    put16(info + 8, is_float ? float4_count : 1);
    put16(info + 10, 0);
    put32(info + 12, static_cast<std::uint32_t>(type));
    put32(info + 16, 0);
    put16(type, is_float ? 1 : 4);      // class: vector / object
    put16(type + 2, is_float ? 3 : 12); // type: float / sampler2D
    put16(type + 4, 1);
    put16(type + 6, is_float ? 4 : 1);
    put16(type + 8, is_float ? float4_count : 1);
    put16(type + 10, 0);
    put32(type + 12, 0);
  }
  while (table.size() % 4) table.push_back(0xab);
  const auto words = static_cast<std::uint32_t>(table.size() / 4 + 1);
  tokens_.push_back(0xfffeu | words << 16);
  tokens_.push_back(0x42415443u); // "CTAB"
  const std::size_t at = tokens_.size();
  tokens_.resize(at + table.size() / 4);
  std::memcpy(tokens_.data() + at, table.data(), table.size());
}

std::vector<std::uint32_t> TokenWriter::finish() {
  tokens_.push_back(0x0000ffffu);
  return std::move(tokens_);
}

std::vector<std::uint8_t> to_bytes(const std::vector<std::uint32_t>& tokens) {
  std::vector<std::uint8_t> bytes(tokens.size() * 4);
  if (!tokens.empty()) std::memcpy(bytes.data(), tokens.data(), bytes.size());
  return bytes;
}

} // namespace kiln::synth::d3d9
