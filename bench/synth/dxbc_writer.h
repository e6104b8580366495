#pragma once
// A writer for DXBC containers and the SM4/SM5 token stream inside them: just enough of the
// format to emit the programs of the synthetic corpus, and reusable by tests that need valid
// bytecode. Encodings follow the D3D10/D3D11 tokenized program format.

#include "translator/common/shader_stage.h"
#include "translator/dxbc/opcodes.h"
#include "translator/dxbc/program.h"

#include <array>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <vector>

namespace kiln::synth::dxbc {

constexpr std::uint32_t fourcc(char a, char b, char c, char d) {
  return std::uint32_t(std::uint8_t(a)) | std::uint32_t(std::uint8_t(b)) << 8 |
         std::uint32_t(std::uint8_t(c)) << 16 | std::uint32_t(std::uint8_t(d)) << 24;
}

// Opcodes and operand types come from the DXBC front end's tables (defined once there).
using Op = ::kiln::dxbc::Opcode;
using OperandType = ::kiln::dxbc::OperandType;

// Swizzles: two bits per component, x in the low bits.
constexpr std::uint32_t swizzle(unsigned x, unsigned y, unsigned z, unsigned w) {
  return x | y << 2 | z << 4 | w << 6;
}
inline constexpr std::uint32_t kXyzw = swizzle(0, 1, 2, 3);
inline constexpr std::uint32_t kMaskXyzw = 0xf;

// One operand: its tokens (operand token, optional extended token, indices).
struct Operand {
  std::array<std::uint32_t, 8> tokens{};
  std::uint32_t count = 0;
  void push(std::uint32_t token) { tokens[count++] = token; }
};

namespace operand {
// An operand token: component count code (0: none, 1: one, 2: four), selection mode (0 mask,
// 1 swizzle, 2 select-1), the selection bits, type, index dimension and index representations
// (0 immediate, 3 immediate + relative).
std::uint32_t token(OperandType type, std::uint32_t components, std::uint32_t mode,
                    std::uint32_t selection, std::uint32_t dimension, std::uint32_t rep0 = 0,
                    std::uint32_t rep1 = 0);
// An operand from its tokens (an operand token from token(), then its indices).
Operand of(std::initializer_list<std::uint32_t> tokens);
Operand dst(OperandType type, std::uint32_t index, std::uint32_t mask);
Operand src(OperandType type, std::uint32_t index, std::uint32_t swz);
Operand src_scalar(OperandType type, std::uint32_t index, std::uint32_t component);
Operand temp_dst(std::uint32_t reg, std::uint32_t mask);
Operand temp(std::uint32_t reg, std::uint32_t swz = kXyzw);
Operand temp_scalar(std::uint32_t reg, std::uint32_t component);
Operand input(std::uint32_t reg, std::uint32_t swz = kXyzw);
// v[vertex][reg] of a geometry shader.
Operand input_2d(std::uint32_t vertex, std::uint32_t reg, std::uint32_t swz = kXyzw);
Operand output_dst(std::uint32_t reg, std::uint32_t mask = kMaskXyzw);
Operand cb(std::uint32_t slot, std::uint32_t element, std::uint32_t swz = kXyzw);
// cb<slot>[r<reg>.<component> + base]
Operand cb_relative(std::uint32_t slot, std::uint32_t base, std::uint32_t reg,
                    std::uint32_t component, std::uint32_t swz = kXyzw);
Operand imm4(float x, float y, float z, float w);
Operand imm4_bits(std::uint32_t x, std::uint32_t y, std::uint32_t z, std::uint32_t w);
Operand imm1_bits(std::uint32_t bits);
Operand imm1(float value);
Operand resource(std::uint32_t slot, std::uint32_t swz = kXyzw);
Operand sampler(std::uint32_t slot);
Operand uav(std::uint32_t slot, std::uint32_t mask_or_swz, bool as_dst);
Operand thread_id(std::uint32_t swz);
Operand null_dst();
// Adds the negate modifier (extended operand token) to a source operand.
Operand negate(Operand op);
Operand absolute(Operand op);
} // namespace operand

// Builds one SHDR/SHEX token stream.
class ProgramWriter {
 public:
  ProgramWriter(ShaderStage stage, std::uint32_t major, std::uint32_t minor);

  // An instruction: opcode token with `controls` in bits 11-23 (and saturate at bit 13 for
  // arithmetic), then the operands, then `extra` raw tokens (declaration payloads).
  void emit(Op op, std::initializer_list<Operand> operands, std::uint32_t controls = 0,
            std::initializer_list<std::uint32_t> extra = {});
  void emit_saturated(Op op, std::initializer_list<Operand> operands);

  std::size_t token_count() const { return tokens_.size(); }
  std::uint32_t major() const { return major_; }
  // The finished program with its length token filled in.
  std::vector<std::uint32_t> finish();

 private:
  std::vector<std::uint32_t> tokens_;
  std::uint32_t major_;
};

// Signature element (ISGN/OSGN/PCSG), 24 bytes in the chunk plus its name.
struct SignatureElement {
  std::string semantic;
  std::uint32_t semantic_index = 0;
  std::uint32_t system_value = 0;   // D3D_NAME: 0 none, 1 position, ...
  std::uint32_t component_type = 3; // 1 uint, 2 int, 3 float
  std::uint32_t register_index = 0;
  std::uint8_t mask = 0xf;
  std::uint8_t used_mask = 0xf;
};

std::vector<std::uint8_t> signature_chunk(std::span<const SignatureElement> elements);

// Assembles a container from chunks and fills in the checksum.
class ContainerWriter {
 public:
  void add_chunk(std::uint32_t tag, std::span<const std::uint8_t> data);
  void add_chunk(std::uint32_t tag, std::span<const std::uint32_t> words);
  std::vector<std::uint8_t> finish() const;

 private:
  std::vector<std::pair<std::uint32_t, std::vector<std::uint8_t>>> chunks_;
};

// The container checksum (the DXBC front end's implementation: MD5 with DXBC's padding).
std::array<std::uint32_t, 4> container_checksum(std::span<const std::uint8_t> container);

} // namespace kiln::synth::dxbc
