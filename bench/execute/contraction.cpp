#include "bench/execute/contraction.h"

#include "bench/execute/spirv_words.h"

#include <algorithm>
#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.hpp>

namespace kiln::execute {

bool unfuse_fma(std::vector<std::uint32_t>& spirv) {
  if (spirv.size() < 5) return false;
  const std::uint32_t glsl = glsl_import_id(spirv);
  std::uint32_t bound = spirv[3];
  std::vector<std::uint32_t> out(spirv.begin(), spirv.begin() + 5);
  out.reserve(spirv.size() + 16);
  bool changed = false;
  const std::size_t unreadable = walk_instructions(spirv, [&](const auto& instruction) {
    const std::uint32_t count = instruction.count();
    const auto op = instruction.op;
    const std::uint32_t* w = instruction.words.data();
    // OpExtInst type result set Fma a b c
    if (op == spv::OpExtInst && count == 8 && glsl && w[3] == glsl && w[4] == GLSLstd450Fma) {
      const std::uint32_t product = bound++;
      out.insert(out.end(), {5u << 16 | spv::OpFMul, w[1], product, w[5], w[6]});
      out.insert(out.end(), {5u << 16 | spv::OpFAdd, w[1], w[2], product, w[7]});
      changed = true;
    } else {
      out.insert(out.end(), w, w + count);
    }
  });
  if (unreadable || !changed) return false; // not a module this reads, or no Fma
  out[3] = bound;
  spirv = std::move(out);
  return true;
}

namespace {

// The instructions whose result a driver could fuse with another's (NoContraction applies to
// arithmetic results).
bool is_float_arithmetic(spv::Op op) {
  switch (op) {
  case spv::OpFAdd:
  case spv::OpFSub:
  case spv::OpFMul:
  case spv::OpFDiv:
  case spv::OpFRem:
  case spv::OpFMod:
  case spv::OpFNegate:
  case spv::OpVectorTimesScalar:
  case spv::OpDot:
    return true;
  default:
    return false;
  }
}

// The module's sections before its annotations (SPIR-V's logical layout): decorations go after.
bool precedes_annotations(spv::Op op) {
  switch (op) {
  case spv::OpCapability:
  case spv::OpExtension:
  case spv::OpExtInstImport:
  case spv::OpMemoryModel:
  case spv::OpEntryPoint:
  case spv::OpExecutionMode:
  case spv::OpExecutionModeId:
  case spv::OpString:
  case spv::OpSourceExtension:
  case spv::OpSource:
  case spv::OpSourceContinued:
  case spv::OpName:
  case spv::OpMemberName:
  case spv::OpModuleProcessed:
    return true;
  default:
    return false;
  }
}

} // namespace

bool forbid_contraction(std::vector<std::uint32_t>& spirv) {
  const bool unfused = unfuse_fma(spirv);
  std::vector<std::uint32_t> decorated, arithmetic;
  std::size_t annotations_at = 0;
  const std::size_t unreadable = walk_instructions(spirv, [&](const auto& instruction) {
    const std::uint32_t count = instruction.count();
    const std::size_t at = instruction.at;
    const auto op = instruction.op;
    if (!annotations_at && !precedes_annotations(op)) annotations_at = at;
    if (op == spv::OpDecorate && count >= 3 && spirv[at + 2] == spv::DecorationNoContraction)
      decorated.push_back(spirv[at + 1]);
    // OpFAdd type result a b: the result is word 2.
    if (is_float_arithmetic(op) && count >= 3) arithmetic.push_back(spirv[at + 2]);
  });
  if (unreadable) return unfused; // not a module this reads
  std::sort(decorated.begin(), decorated.end());
  std::vector<std::uint32_t> decorations;
  for (const std::uint32_t id : arithmetic)
    if (!std::binary_search(decorated.begin(), decorated.end(), id))
      decorations.insert(decorations.end(), {3u << 16 | spv::OpDecorate, id,
                                             std::uint32_t(spv::DecorationNoContraction)});
  if (decorations.empty() || annotations_at == 0) return unfused;
  spirv.insert(spirv.begin() + std::ptrdiff_t(annotations_at), decorations.begin(),
               decorations.end());
  return true;
}

} // namespace kiln::execute
