#include "bench/execute/class_linkage.h"

#include "bench/execute/seed.h"
#include "translator/dxbc/container.h"
#include "translator/dxbc/reader.h"

namespace kiln::execute {

bool read_class_linkage(std::span<const std::uint8_t> bytecode, ClassLinkageFacts& out,
                        std::string& why) {
  out = {};
  dxbc::Container container;
  if (Status s = dxbc::parse_container(bytecode, container, {.verify_checksum = false}); !s) {
    why = s.message();
    return false;
  }
  if (!container.has_class_linkage) return true;
  dxbc::Program program;
  if (Status s = dxbc::decode_program(container.program, program); !s) {
    why = s.message();
    return false;
  }
  for (const dxbc::Instruction& inst : program.instructions) {
    if (inst.opcode != dxbc::Opcode::DclInterface) continue;
    const dxbc::Declaration& d = program.declarations[inst.declaration];
    // fp# (value) is an array of value2 slots, each listing the same tables.
    const std::uint64_t end = std::uint64_t(d.value) + d.value2;
    if (end > 253) { // D3D11's bound; the translator rejects more
      why = "interface slots beyond 253";
      return false;
    }
    if (out.tables_by_slot.size() < end) out.tables_by_slot.resize(end);
    for (std::uint32_t slot = d.value; slot < end; ++slot)
      for (std::uint32_t i = 0; i < d.list_count; ++i)
        out.tables_by_slot[slot].push_back(program.lists[d.list_first + i]);
  }
  return true;
}

std::vector<ClassInstance> seeded_class_instances(const ClassLinkageFacts& facts,
                                                  std::uint64_t seed, std::uint32_t shift) {
  std::vector<ClassInstance> instances(facts.tables_by_slot.size());
  // Its own streams: (1 << 40) keeps clear of the resources' per-binding streams.
  const std::uint64_t stream = std::uint64_t(1) << 40;
  for (std::size_t slot = 0; slot < instances.size(); ++slot) {
    // `this` names constant buffer 0 at a vector offset of 0-3 (the translator clamps an
    // offset past the buffer into it).
    instances[slot].this_data[1] = (seeded_int(seed, stream + 256 + slot) + shift) % 4;
    const std::vector<std::uint32_t>& tables = facts.tables_by_slot[slot];
    if (tables.empty()) continue; // no call reads it
    const std::uint32_t pick = seeded_int(seed, stream + slot, std::uint32_t(tables.size()));
    instances[slot].function_table = tables[(pick + shift) % tables.size()];
  }
  return instances;
}

std::vector<std::uint32_t> selection_words(std::span<const ClassInstance> instances) {
  std::vector<std::uint32_t> words;
  words.reserve(instances.size() * 8);
  for (const ClassInstance& c : instances) {
    words.insert(words.end(), c.this_data.begin(), c.this_data.end());
    words.insert(words.end(), {c.function_table, 0u, 0u, 0u});
  }
  return words;
}

} // namespace kiln::execute
