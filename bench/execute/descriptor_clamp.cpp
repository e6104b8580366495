#include "bench/execute/descriptor_clamp.h"

#include <algorithm>
#include <cstring>
#include <spirv/unified1/GLSL.std.450.h>
// HasResultAndType(), from the opcode table of the headers.
#define SPV_ENABLE_UTILITY_CODE
#include <spirv/unified1/spirv.hpp>
#include <unordered_map>
#include <unordered_set>

namespace kiln::execute {

namespace {

constexpr char kGlslImport[] = "GLSL.std.450";

struct Instruction {
  std::size_t at;
  std::uint32_t count;
  spv::Op op;
};

// The module's instructions, or empty when a word count runs past its end.
std::vector<Instruction> instructions_of(const std::vector<std::uint32_t>& spirv) {
  std::vector<Instruction> out;
  for (std::size_t at = 5; at < spirv.size();) {
    const std::uint32_t count = spirv[at] >> 16;
    if (count == 0 || at + count > spirv.size()) return {};
    out.push_back({at, count, spv::Op(spirv[at] & 0xffff)});
    at += count;
  }
  return out;
}

// Whether `op` produces a result whose type is word 1 (so word 2 is the result id).
bool has_typed_result(spv::Op op) {
  bool result = false, type = false;
  spv::HasResultAndType(op, &result, &type);
  return result && type;
}

} // namespace

std::size_t clamp_descriptor_indices(std::vector<std::uint32_t>& spirv,
                                     std::span<const BoundArray> arrays) {
  if (spirv.size() < 5 || arrays.empty()) return 0;
  const std::vector<Instruction> list = instructions_of(spirv);
  const std::uint32_t* w0 = spirv.data();
  std::uint32_t glsl = 0;
  std::unordered_map<std::uint32_t, std::uint32_t> set_of, binding_of, type_of, pointee_of;
  std::unordered_set<std::uint32_t> arrays_of_descriptors; // OpTypeArray, OpTypeRuntimeArray
  for (const Instruction& i : list) {
    const std::uint32_t* w = w0 + i.at;
    if (i.op == spv::OpExtInstImport && i.count >= 3 &&
        std::strncmp(reinterpret_cast<const char*>(w + 2), kGlslImport,
                     (i.count - 2) * sizeof(std::uint32_t)) == 0)
      glsl = w[1];
    else if (i.op == spv::OpDecorate && i.count >= 4 && w[2] == spv::DecorationDescriptorSet)
      set_of[w[1]] = w[3];
    else if (i.op == spv::OpDecorate && i.count >= 4 && w[2] == spv::DecorationBinding)
      binding_of[w[1]] = w[3];
    else if (i.op == spv::OpTypeRuntimeArray || i.op == spv::OpTypeArray)
      arrays_of_descriptors.insert(w[1]);
    else if (i.op == spv::OpTypePointer && i.count == 4)
      pointee_of[w[1]] = w[3];
    if (has_typed_result(i.op) && i.count >= 3) type_of[w[2]] = w[1];
  }
  // The last element each clamped variable may index.
  std::unordered_map<std::uint32_t, std::uint32_t> last_of;
  for (const Instruction& i : list) {
    const std::uint32_t* w = w0 + i.at;
    if (i.op != spv::OpVariable || i.count < 4) continue;
    const auto pointee = pointee_of.find(w[1]);
    if (pointee == pointee_of.end() || !arrays_of_descriptors.count(pointee->second)) continue;
    const auto set = set_of.find(w[2]), binding = binding_of.find(w[2]);
    if (set == set_of.end() || binding == binding_of.end()) continue;
    for (const BoundArray& a : arrays)
      if (a.set == set->second && a.binding == binding->second && a.elements > 0)
        last_of[w[2]] = a.elements - 1;
  }
  if (last_of.empty()) return 0;

  std::uint32_t bound = spirv[3];
  const bool new_import = glsl == 0;
  if (new_import) glsl = bound++;
  // One constant per (index type, last element).
  std::unordered_map<std::uint64_t, std::uint32_t> constant_of;
  std::vector<std::uint32_t> constants, body;
  std::size_t clamped = 0;
  std::size_t first_function = spirv.size(), import_at = 0;
  for (const Instruction& i : list) {
    const std::uint32_t* w = w0 + i.at;
    if (i.op == spv::OpFunction && first_function == spirv.size()) first_function = i.at;
    if (i.op == spv::OpExtension || i.op == spv::OpExtInstImport || i.op == spv::OpCapability)
      import_at = i.at + i.count;
    const bool chain = i.op == spv::OpAccessChain || i.op == spv::OpInBoundsAccessChain;
    const auto last = chain && i.count >= 5 ? last_of.find(w[3]) : last_of.end();
    const auto index_type = last != last_of.end() ? type_of.find(w[4]) : type_of.end();
    if (index_type == type_of.end()) {
      if (i.at >= first_function) body.insert(body.end(), w, w + i.count);
      continue;
    }
    const std::uint64_t key = std::uint64_t(index_type->second) << 32 | last->second;
    auto [constant, added] = constant_of.try_emplace(key, bound);
    if (added) {
      constants.insert(constants.end(),
                       {4u << 16 | spv::OpConstant, index_type->second, bound, last->second});
      ++bound;
    }
    const std::uint32_t index = bound++;
    body.insert(body.end(), {7u << 16 | spv::OpExtInst, index_type->second, index, glsl,
                             std::uint32_t(GLSLstd450UMin), w[4], constant->second});
    const std::size_t chain_at = body.size();
    body.insert(body.end(), w, w + i.count);
    body[chain_at + 4] = index;
    ++clamped;
  }
  if (!clamped) return 0;
  std::vector<std::uint32_t> out(spirv.begin(), spirv.begin() + std::ptrdiff_t(import_at));
  if (new_import) {
    const std::uint32_t words = (sizeof(kGlslImport) + 3) / 4;
    out.push_back((2 + words) << 16 | spv::OpExtInstImport);
    out.push_back(glsl);
    const std::size_t text = out.size();
    out.resize(text + words, 0);
    std::memcpy(&out[text], kGlslImport, sizeof(kGlslImport) - 1);
  }
  out.insert(out.end(), spirv.begin() + std::ptrdiff_t(import_at),
             spirv.begin() + std::ptrdiff_t(first_function));
  out.insert(out.end(), constants.begin(), constants.end());
  out.insert(out.end(), body.begin(), body.end());
  out[3] = bound;
  spirv = std::move(out);
  return clamped;
}

} // namespace kiln::execute
