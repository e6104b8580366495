#pragma once
// Builds SM4/SM5 token streams and DXBC containers by hand, for tests of specific encodings.

#include "translator/dxbc/container.h"
#include "translator/dxbc/program.h"

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <utility>
#include <vector>

namespace kiln::dxbc::test {

// Operand token fields.
constexpr std::uint32_t kComp0 = 0, kComp1 = 1, kComp4 = 2;
constexpr std::uint32_t operand_token(OperandType type, std::uint32_t components,
                                      std::uint32_t selection_bits, std::uint32_t dims,
                                      std::uint32_t rep0 = 0, std::uint32_t rep1 = 0,
                                      std::uint32_t rep2 = 0, bool extended = false) {
  return components | selection_bits | std::uint32_t(type) << 12 | dims << 20 | rep0 << 22 |
         rep1 << 25 | rep2 << 28 | (extended ? 1u << 31 : 0u);
}
constexpr std::uint32_t mask(std::uint32_t m) {
  return 0u << 2 | m << 4;
}
constexpr std::uint32_t swizzle(std::uint32_t x, std::uint32_t y, std::uint32_t z,
                                std::uint32_t w) {
  return 1u << 2 | (x | y << 2 | z << 4 | w << 6) << 4;
}
constexpr std::uint32_t select1(std::uint32_t c) {
  return 2u << 2 | c << 4;
}

class ProgramBuilder {
 public:
  ProgramBuilder(ProgramType type, std::uint32_t major, std::uint32_t minor) {
    tokens_.push_back(std::uint32_t(type) << 16 | major << 4 | minor);
    tokens_.push_back(0); // length, patched by finish()
  }
  // Appends one instruction: the opcode token (length filled in) and its other tokens.
  ProgramBuilder& inst(Opcode op, std::initializer_list<std::uint32_t> rest,
                       std::uint32_t controls = 0) {
    tokens_.push_back(std::uint32_t(op) | controls | std::uint32_t(rest.size() + 1) << 24);
    tokens_.insert(tokens_.end(), rest);
    return *this;
  }
  // An empty loop (loop; break; endloop): a construct boundary. The converter forwards what the
  // code writes to r# within a straight-line stretch and stores only the stretch's last writes,
  // at its end (ir::TempForwarding), and none before a ret: tests that inspect those TmpStores
  // end the stretch with this first.
  ProgramBuilder& end_stretch() {
    return inst(Opcode::Loop, {}).inst(Opcode::Break, {}).inst(Opcode::EndLoop, {});
  }
  ProgramBuilder& raw(std::initializer_list<std::uint32_t> words) {
    tokens_.insert(tokens_.end(), words);
    return *this;
  }
  ProgramBuilder& raw(const std::vector<std::uint32_t>& words) {
    tokens_.insert(tokens_.end(), words.begin(), words.end());
    return *this;
  }
  std::vector<std::uint32_t> finish() {
    tokens_[1] = std::uint32_t(tokens_.size());
    return tokens_;
  }

 private:
  std::vector<std::uint32_t> tokens_;
};

inline std::vector<std::uint8_t> bytes_of(const std::vector<std::uint32_t>& words) {
  std::vector<std::uint8_t> bytes(words.size() * 4);
  if (!words.empty()) std::memcpy(bytes.data(), words.data(), bytes.size());
  return bytes;
}

struct ChunkSpec {
  std::uint32_t tag;
  std::vector<std::uint8_t> payload;
};

// A container with a correct checksum.
inline std::vector<std::uint8_t> make_container(const std::vector<ChunkSpec>& chunks) {
  std::vector<std::uint8_t> out(32 + 4 * chunks.size());
  auto put = [&](std::size_t at, std::uint32_t v) { std::memcpy(out.data() + at, &v, 4); };
  put(0, fourcc('D', 'X', 'B', 'C'));
  put(20, 1);
  put(28, std::uint32_t(chunks.size()));
  for (std::size_t i = 0; i < chunks.size(); ++i) {
    put(32 + 4 * i, std::uint32_t(out.size()));
    const std::size_t at = out.size();
    out.resize(at + 8 + chunks[i].payload.size());
    put(at, chunks[i].tag);
    put(at + 4, std::uint32_t(chunks[i].payload.size()));
    if (!chunks[i].payload.empty())
      std::memcpy(out.data() + at + 8, chunks[i].payload.data(), chunks[i].payload.size());
  }
  put(24, std::uint32_t(out.size()));
  std::uint32_t sum[4];
  compute_checksum(out, sum);
  std::memcpy(out.data() + 4, sum, 16);
  return out;
}

inline std::vector<std::uint8_t> shader_container(const std::vector<std::uint32_t>& program) {
  return make_container({{fourcc('S', 'H', 'E', 'X'), bytes_of(program)}});
}

// One element of an ISGN/OSGN/PCSG chunk: system_value and component_type are the signature's
// D3D_NAME and D3D_REGISTER_COMPONENT_TYPE numbers (3 = float); the used mask is the mask.
struct SigElement {
  const char* name;
  std::uint32_t index, system_value, component_type, reg;
  std::uint8_t mask;
};

// An ISGN/OSGN/PCSG chunk payload (24-byte elements, names after them).
inline std::vector<std::uint8_t> signature(std::initializer_list<SigElement> elements) {
  std::vector<std::uint8_t> out(8 + 24 * elements.size());
  auto put = [&](std::size_t at, std::uint32_t v) { std::memcpy(out.data() + at, &v, 4); };
  put(0, std::uint32_t(elements.size()));
  put(4, 8);
  std::size_t i = 0;
  for (const SigElement& e : elements) {
    const std::size_t at = 8 + 24 * i++;
    put(at, std::uint32_t(out.size()));
    put(at + 4, e.index);
    put(at + 8, e.system_value);
    put(at + 12, e.component_type);
    put(at + 16, e.reg);
    out[at + 20] = e.mask;
    out[at + 21] = e.mask;
    out.insert(out.end(), e.name, e.name + std::strlen(e.name) + 1);
  }
  while (out.size() % 4) out.push_back(0);
  return out;
}

// An OSG5 chunk payload (geometry shader outputs with their stream; 28-byte elements).
inline std::vector<std::uint8_t>
stream_signature(std::initializer_list<std::pair<std::uint32_t, SigElement>> elements) {
  std::vector<std::uint8_t> out(8 + 28 * elements.size());
  auto put = [&](std::size_t at, std::uint32_t v) { std::memcpy(out.data() + at, &v, 4); };
  put(0, std::uint32_t(elements.size()));
  put(4, 8);
  std::size_t i = 0;
  for (const auto& [stream, e] : elements) {
    const std::size_t at = 8 + 28 * i++;
    put(at, stream);
    put(at + 4, std::uint32_t(out.size()));
    put(at + 8, e.index);
    put(at + 12, e.system_value);
    put(at + 16, e.component_type);
    put(at + 20, e.reg);
    out[at + 24] = e.mask;
    out[at + 25] = std::uint8_t(~e.mask & 0xf); // outputs: components not always written
    out.insert(out.end(), e.name, e.name + std::strlen(e.name) + 1);
  }
  while (out.size() % 4) out.push_back(0);
  return out;
}

} // namespace kiln::dxbc::test
