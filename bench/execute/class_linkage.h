#pragma once
// D3D11 class linkage in the harness (docs/execution.md, "Class linkage"): which function
// tables each interface slot of a shader may select (its dcl_interface declarations), a
// selection seeded from those, and the selection buffer's words (docs/abi.md, "Class
// linkage"). vkd3d-shader 1.2 drops fcall, so kiln's module is checked against itself: the
// selection read from the buffer must give what the same selection baked in gives.

#include "translator/common/shader_interface.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace kiln::execute {

struct ClassLinkageFacts {
  // Per interface slot (fp# plus the array element), the function tables its dcl_interface
  // lists; empty for a slot no declaration covers.
  std::vector<std::vector<std::uint32_t>> tables_by_slot;
  bool empty() const { return tables_by_slot.empty(); }
};

// The interfaces of a DXBC shader (none: empty facts). False with `why` set when the program
// cannot be read.
bool read_class_linkage(std::span<const std::uint8_t> bytecode, ClassLinkageFacts& out,
                        std::string& why);

// One class instance per slot: a table its interface lists, chosen from `seed` and the slot,
// and `this` naming constant buffer 0 at a seeded vector offset of 0-3 (texture and sampler
// base 0). `shift` moves each slot's table that many on in its list and its offset that many
// vectors on (modulo 4): 1 makes a wrong selection, for testing.
std::vector<ClassInstance> seeded_class_instances(const ClassLinkageFacts& facts,
                                                  std::uint64_t seed, std::uint32_t shift = 0);

// The selection buffer holding `instances`: 8 words a slot, `this` then the table.
std::vector<std::uint32_t> selection_words(std::span<const ClassInstance> instances);

} // namespace kiln::execute
