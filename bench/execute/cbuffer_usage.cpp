#include "bench/execute/cbuffer_usage.h"

#include "bench/execute/spirv_words.h"

#include <spirv/unified1/spirv.hpp>
#include <unordered_map>
#include <vector>

namespace kiln::execute {

IntegerWords integer_constant_words(std::span<const std::uint32_t> spirv) {
  std::unordered_map<std::uint32_t, std::uint32_t> constants, set_of, binding_of;
  std::unordered_map<std::uint32_t, std::uint32_t> vector_size; // vector type -> components
  std::unordered_map<std::uint32_t, bool> integer_type;         // scalar or vector of ints
  std::unordered_map<std::uint32_t, bool> uniform_variable;
  // SSA values (and pointers) that come from constant-buffer words: per component, the
  // buffer key and word, or none.
  struct Origin {
    std::uint32_t key = 0;
    std::vector<std::int64_t> words; // -1: unknown component
  };
  std::unordered_map<std::uint32_t, Origin> origins;
  // Temporaries (function and private variables, vkd3d-shader's r# registers): what each
  // component last had stored from a constant buffer, in program order, and pointers to one
  // component of them.
  std::unordered_map<std::uint32_t, bool> local_variable;
  std::unordered_map<std::uint32_t, std::pair<std::uint32_t, std::uint32_t>> local_pointer;
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::pair<std::uint32_t, std::int64_t>> stored;
  IntegerWords out;
  walk_instructions(spirv, [&](const auto& instruction) {
    const std::uint32_t count = instruction.count();
    const std::uint32_t* w = instruction.words.data();
    switch (instruction.op) {
    case spv::OpDecorate:
      if (count >= 4 && w[2] == spv::DecorationDescriptorSet) set_of[w[1]] = w[3];
      if (count >= 4 && w[2] == spv::DecorationBinding) binding_of[w[1]] = w[3];
      break;
    case spv::OpConstant:
      if (count >= 4) constants[w[2]] = w[3];
      break;
    case spv::OpTypeInt:
      integer_type[w[1]] = true;
      break;
    case spv::OpTypeVector:
      vector_size[w[1]] = w[3];
      if (integer_type.count(w[2])) integer_type[w[1]] = true;
      break;
    case spv::OpVariable:
      if (count >= 4 && w[3] == spv::StorageClassUniform) uniform_variable[w[2]] = true;
      if (count >= 4 && (w[3] == spv::StorageClassFunction || w[3] == spv::StorageClassPrivate))
        local_variable[w[2]] = true;
      break;
    case spv::OpStore:
      if (count >= 3 && origins.count(w[2])) {
        const Origin& o = origins[w[2]];
        if (local_variable.count(w[1])) {
          for (std::uint32_t c = 0; c < o.words.size(); ++c)
            stored[{w[1], c}] = {o.key, o.words[c]};
        } else if (auto p = local_pointer.find(w[1]);
                   p != local_pointer.end() && !o.words.empty()) {
          stored[p->second] = {o.key, o.words[0]};
        }
      } else if (count >= 3) {
        // Anything else stored there is not a constant-buffer word any more.
        if (local_variable.count(w[1]))
          for (std::uint32_t c = 0; c < 4; ++c) stored.erase({w[1], c});
        else if (auto p = local_pointer.find(w[1]); p != local_pointer.end())
          stored.erase(p->second);
      }
      break;
    case spv::OpAccessChain:
    case spv::OpInBoundsAccessChain:
      if (count == 5 && local_variable.count(w[3]) && constants.count(w[4])) {
        local_pointer[w[2]] = {w[3], constants[w[4]]};
        break;
      }
      // %cb, 0 (the array member), the vector, optionally the component: all constant.
      if (count >= 6 && uniform_variable.count(w[3]) && constants.count(w[4]) &&
          constants.count(w[5])) {
        Origin o;
        o.key = set_of[w[3]] << 16 | binding_of[w[3]];
        const std::int64_t vector = constants[w[5]];
        if (count >= 7 && constants.count(w[6]))
          o.words = {vector * 4 + constants[w[6]]};
        else if (count == 6)
          o.words = {vector * 4, vector * 4 + 1, vector * 4 + 2, vector * 4 + 3};
        if (!o.words.empty()) origins[w[2]] = std::move(o);
      } else if (count >= 5 && origins.count(w[3]) && origins[w[3]].words.size() == 4 &&
                 constants.count(w[4])) {
        // A component of a vector pointer.
        Origin o = origins[w[3]];
        o.words = {o.words[constants[w[4]] & 3]};
        origins[w[2]] = std::move(o);
      }
      break;
    case spv::OpLoad:
    case spv::OpCopyObject:
      if (count >= 4 && origins.count(w[3])) {
        origins[w[2]] = origins[w[3]];
      } else if (count >= 4 && local_variable.count(w[3])) {
        Origin o;
        for (std::uint32_t c = 0; c < 4; ++c) {
          auto it = stored.find({w[3], c});
          if (it != stored.end() && (o.words.empty() || it->second.first == o.key || !o.key)) {
            o.key = it->second.first;
            o.words.push_back(it->second.second);
          } else {
            o.words.push_back(-1);
          }
        }
        bool any = false;
        for (std::int64_t word : o.words) any |= word >= 0;
        if (any) origins[w[2]] = std::move(o);
      } else if (count >= 4) {
        if (auto p = local_pointer.find(w[3]); p != local_pointer.end()) {
          if (auto it = stored.find(p->second); it != stored.end())
            origins[w[2]] = Origin{it->second.first, {it->second.second}};
        }
      }
      break;
    case spv::OpCompositeExtract:
      if (count == 5 && origins.count(w[3]) && w[4] < origins[w[3]].words.size()) {
        Origin o = origins[w[3]];
        o.words = {o.words[w[4]]};
        origins[w[2]] = std::move(o);
      }
      break;
    case spv::OpVectorShuffle:
      if (count >= 6 && (origins.count(w[3]) || origins.count(w[4]))) {
        const Origin* a = origins.count(w[3]) ? &origins[w[3]] : nullptr;
        const Origin* b = origins.count(w[4]) ? &origins[w[4]] : nullptr;
        if (a && b && a->key != b->key) break;
        // The first operand's width: its origin's, else its type's (not tracked: 4).
        const std::size_t width = a ? a->words.size() : 4;
        Origin o;
        o.key = a ? a->key : b->key;
        for (std::uint32_t i = 5; i < count; ++i) {
          const std::uint32_t pick = w[i];
          const Origin* from = pick < width ? a : b;
          const std::size_t index = pick < width ? pick : pick - width;
          o.words.push_back(from && index < from->words.size() ? from->words[index] : -1);
        }
        origins[w[2]] = std::move(o);
      }
      break;
    case spv::OpBitcast:
      if (count >= 4 && integer_type.count(w[1]) && origins.count(w[3])) {
        const Origin& o = origins[w[3]];
        for (std::int64_t word : o.words)
          if (word >= 0) out[o.key].insert(std::uint32_t(word));
      }
      break;
    default:
      break;
    }
  });
  return out;
}

} // namespace kiln::execute
