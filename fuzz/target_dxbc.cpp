// The DXBC readers: container and chunk directory, signatures, RDEF, the program decoder and
// the listing that walks everything it decoded.
#include "fuzz/targets.h"
#include "translator/dxbc/container.h"
#include "translator/dxbc/disassembler.h"
#include "translator/dxbc/reader.h"
#include "translator/dxbc/signature.h"

#include <span>
#include <string>

namespace kiln::fuzz {

void run_dxbc(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::uint8_t> bytes(data, size);
  dxbc::Container container;
  if (!dxbc::parse_container(bytes, container)) return;
  std::uint64_t sink = 0;
  dxbc::for_each_chunk(container, [&](std::uint32_t fourcc, std::span<const std::uint8_t> chunk) {
    sink += fourcc + chunk.size();
  });

  dxbc::PodArray<dxbc::SignatureElement> elements;
  for (const dxbc::SignatureChunk* chunk :
       {&container.input, &container.output, &container.patch_constant})
    if (chunk->present() && dxbc::parse_signature(*chunk, elements))
      for (const dxbc::SignatureElement& e : elements) sink += e.semantic_name.size();

  dxbc::ReflectionView reflection;
  if (reflection.open(container.rdef)) {
    for (std::uint32_t i = 0; i < reflection.binding_count(); ++i) {
      dxbc::RdefBinding binding;
      if (reflection.binding(i, binding)) sink += binding.name.size();
    }
    for (std::uint32_t i = 0; i < reflection.constant_buffer_count(); ++i) {
      dxbc::ConstantBufferInfo cb;
      if (!reflection.constant_buffer(i, cb)) continue;
      for (std::uint32_t v = 0; v < cb.variable_count && v < 4096; ++v) {
        dxbc::VariableInfo variable;
        if (reflection.variable(cb, v, variable)) sink += variable.name.size();
      }
    }
  }

  dxbc::Program program;
  if (container.has_program() && dxbc::decode_program(container.program, program)) {
    std::string listing;
    (void)dxbc::disassemble_program(program, listing);
  }
  std::string listing;
  (void)dxbc::disassemble(bytes, listing);
  static_cast<void>(sink);
}

} // namespace kiln::fuzz
