// The IR binary reader; what it accepts then goes through the validator and the text printer,
// which must cope with any program the reader builds (valid or not).
#include "fuzz/targets.h"
#include "translator/ir/ir_serialize.h"
#include "translator/ir/ir_text.h"
#include "translator/ir/ir_validate.h"

#include <span>
#include <string>
#include <vector>

namespace kiln::fuzz {

void run_ir(const std::uint8_t* data, std::size_t size) {
  ir::Builder builder;
  if (!ir::deserialize(std::span(data, size), builder)) return;
  const bool valid = bool(ir::validate(builder));
  std::string text;
  ir::print(builder, text);
  if (!valid) return;
  // A valid program survives serialize -> deserialize.
  std::vector<std::uint8_t> again;
  ir::serialize(builder, again);
  ir::Builder copy;
  if (!ir::deserialize(again, copy)) __builtin_trap();
}

} // namespace kiln::fuzz
