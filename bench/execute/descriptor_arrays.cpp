#include "bench/execute/descriptor_arrays.h"

// HasResultAndType(), from the opcode table of the headers: defined before spirv.hpp is first
// included, here or through spirv_words.h.
#define SPV_ENABLE_UTILITY_CODE
#include "bench/execute/spirv_words.h"

#include <cstring>
#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.hpp>
#include <unordered_map>
#include <unordered_set>

namespace kiln::execute {

namespace {

using Instruction = SpirvInstruction<const std::uint32_t>;

// The module's instructions, or none when one cannot be read.
std::vector<Instruction> instructions_of(const std::vector<std::uint32_t>& spirv) {
  std::vector<Instruction> out;
  if (walk_instructions(spirv, [&](const Instruction& i) { out.push_back(i); })) out.clear();
  return out;
}

// Whether `op` produces a result whose type is word 1 (so word 2 is the result id).
bool has_typed_result(spv::Op op) {
  bool result = false, type = false;
  spv::HasResultAndType(op, &result, &type);
  return result && type;
}

} // namespace

std::size_t pin_descriptor_arrays(std::vector<std::uint32_t>& spirv) {
  if (spirv.size() < 5) return 0;
  const std::vector<Instruction> list = instructions_of(spirv);
  std::uint32_t glsl = glsl_import_id(spirv), uint32 = 0;
  std::unordered_set<std::uint32_t> descriptors, runtime_arrays;
  std::unordered_map<std::uint32_t, std::uint32_t> type_of, pointee_of, element_of;
  for (const Instruction& i : list) {
    const std::uint32_t* w = i.words.data();
    if (i.op == spv::OpDecorate && i.count() >= 4 && w[2] == spv::DecorationDescriptorSet)
      descriptors.insert(w[1]);
    else if (i.op == spv::OpTypeInt && i.count() == 4 && w[2] == 32 && w[3] == 0 && !uint32)
      uint32 = w[1];
    else if (i.op == spv::OpTypeArray && i.count() == 4)
      element_of[w[1]] = w[2];
    else if (i.op == spv::OpTypeRuntimeArray && i.count() == 3)
      runtime_arrays.insert(w[1]);
    else if (i.op == spv::OpTypePointer && i.count() == 4)
      pointee_of[w[1]] = w[3];
    if (has_typed_result(i.op) && i.count() >= 3) type_of[w[2]] = w[1];
  }
  // The reduced variables, each with its new pointer type (0: a runtime array keeps its type).
  std::unordered_map<std::uint32_t, std::uint32_t> pinned;
  std::uint32_t bound = spirv[3];
  for (const Instruction& i : list) {
    const std::uint32_t* w = i.words.data();
    if (i.op != spv::OpVariable || i.count() < 4 || !descriptors.count(w[2])) continue;
    const auto pointee = pointee_of.find(w[1]);
    if (pointee == pointee_of.end()) continue;
    if (runtime_arrays.count(pointee->second)) pinned[w[2]] = 0;
    if (element_of.count(pointee->second)) pinned[w[2]] = bound++;
  }
  if (pinned.empty()) return 0;

  const bool new_import = glsl == 0, new_uint32 = uint32 == 0;
  if (new_import) glsl = bound++;
  if (new_uint32) uint32 = bound++;
  const std::uint32_t one = bound++;
  // A zero of each index type, declared before the first function.
  std::unordered_map<std::uint32_t, std::uint32_t> zero_of;
  std::vector<std::uint32_t> zeros, out(spirv.begin(), spirv.begin() + 5);
  out.reserve(spirv.size() + 16 * pinned.size());
  bool declared_one = false;
  std::size_t functions_at = 0; // where the first function starts in `out`
  for (const Instruction& i : list) {
    const std::uint32_t* w = i.words.data();
    if (i.op == spv::OpMemoryModel && new_import) {
      const std::uint32_t words = (sizeof(kGlslImportName) + 3) / 4;
      out.push_back((2 + words) << 16 | spv::OpExtInstImport);
      out.push_back(glsl);
      const std::size_t text = out.size();
      out.resize(text + words, 0);
      std::memcpy(&out[text], kGlslImportName, sizeof(kGlslImportName) - 1);
    }
    if (i.op == spv::OpFunction && !functions_at) functions_at = out.size();
    const auto variable = i.op == spv::OpVariable ? pinned.find(w[2]) : pinned.end();
    if (variable != pinned.end() && variable->second) {
      // An array of one of the element type, then the variable pointing to it.
      if (!declared_one) {
        if (new_uint32) out.insert(out.end(), {4u << 16 | spv::OpTypeInt, uint32, 32, 0});
        out.insert(out.end(), {4u << 16 | spv::OpConstant, uint32, one, 1});
        declared_one = true;
      }
      const std::uint32_t array = bound++;
      out.insert(out.end(), {4u << 16 | spv::OpTypeArray, array, element_of[pointee_of[w[1]]], one,
                             4u << 16 | spv::OpTypePointer, variable->second, w[3], array});
      out.insert(out.end(), w, w + i.count());
      out[out.size() - i.count() + 1] = variable->second;
      continue;
    }
    const bool chain = i.op == spv::OpAccessChain || i.op == spv::OpInBoundsAccessChain;
    const auto index_type =
        chain && i.count() >= 5 && pinned.count(w[3]) ? type_of.find(w[4]) : type_of.end();
    if (index_type == type_of.end()) {
      out.insert(out.end(), w, w + i.count());
      continue;
    }
    auto [zero, added] = zero_of.try_emplace(index_type->second, bound);
    if (added) {
      zeros.insert(zeros.end(), {4u << 16 | spv::OpConstant, index_type->second, bound, 0});
      ++bound;
    }
    const std::uint32_t index = bound++;
    out.insert(out.end(), {7u << 16 | spv::OpExtInst, index_type->second, index, glsl,
                           std::uint32_t(GLSLstd450UMin), w[4], zero->second});
    out.insert(out.end(), w, w + i.count());
    out[out.size() - i.count() + 4] = index;
  }
  // The zeros go before the first function, once the functions have said which are needed.
  out.insert(out.begin() + std::ptrdiff_t(functions_at ? functions_at : out.size()), zeros.begin(),
             zeros.end());
  out[3] = bound;
  spirv = std::move(out);
  return pinned.size();
}

} // namespace kiln::execute
