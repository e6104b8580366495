// The DXBC converter's one dispatch: a switch generated from the opcode table's handler column
// (opcodes.h), so every instruction and declaration reaches its handler in one step and a row
// naming a handler that does not exist fails to compile (convert_dispatch.h lists them).
#include "translator/dxbc/convert_walk.h"

#include <string>

namespace kiln::dxbc {

bool dispatch(ConvertContext& ctx, const Instruction& inst) {
  // Every handler is a function of convert_dispatch.h: bool (ConvertContext&, const Instruction&).
  switch (inst.opcode) {
#define KILN_DXBC_DISPATCH(name, mnemonic, number, dsts, srcs, type, flags, handler, doc)          \
  case Opcode::name:                                                                               \
    return handler(ctx, inst);
    KILN_DXBC_OPCODES(KILN_DXBC_DISPATCH)
#undef KILN_DXBC_DISPATCH
  }
  return unsupported(ctx, inst); // a number outside the table (the reader rejects those)
}

bool unsupported(ConvertContext& ctx, const Instruction& inst) {
  const bool declaration = has_flag(inst.opcode, opflag::Decl);
  return ctx.fail(
      inst, std::string(declaration ? "unsupported declaration " : "unsupported instruction ") +
                std::string(opcode_info(inst.opcode).mnemonic));
  return true;
}

// Nothing to emit: nop, debug_break, abort; customdata (the driver skips it; the reader keeps
// the immediate constant buffer); dcl_indexrange (dynamic indexing is handled, or rejected,
// where it happens); dcl_hs_max_tessfactor (Vulkan has no such limit).
bool no_op(ConvertContext&, const Instruction&) {
  return true;
}

} // namespace kiln::dxbc
