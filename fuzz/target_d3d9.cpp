// The D3D9 readers: token stream, the bounded length scan, the CTAB constant table and the
// listing.
#include "fuzz/targets.h"
#include "translator/d3d9/constant_table.h"
#include "translator/d3d9/disassembler.h"
#include "translator/d3d9/reader.h"

#include <span>
#include <string>

namespace kiln::fuzz {

void run_d3d9(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::uint8_t> bytes(data, size);
  std::size_t measured = 0;
  (void)d3d9::measure(bytes, measured);

  d3d9::Program program;
  if (d3d9::decode(bytes, program)) {
    if (const d3d9::Comment* ctab = program.constant_table()) {
      d3d9::ConstantTable table;
      (void)d3d9::read_constant_table(bytes, *ctab, table);
    }
  }
  std::string listing;
  (void)d3d9::disassemble(bytes, listing);
}

} // namespace kiln::fuzz
