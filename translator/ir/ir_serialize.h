#pragma once
// The binary form of docs/ir.md "Binary form": per op an opcode token (opcode in the
// low 10 bits, flags in the next 8), the operand count, the type tokens and the operands;
// references relative to the op's own id (current - referenced; 0 = null), literals as
// tokens. Tokens are big-endian, sign-extended, and the number of leading 1-bits of the first
// byte is the number of bytes that follow it.
//
// Ops are written in program order and renumbered 1..n in that order, so
// deserialize(serialize(p)) is p with compact ids (identical when p's ids already are).

#include "translator/common/status.h"
#include "translator/ir/ir.h"

#include <cstdint>
#include <span>
#include <vector>

namespace kiln::ir {

// Appends the program to `out`.
void serialize(const Builder& builder, std::vector<std::uint8_t>& out);
// Reads a program into `out` (reset first). Malformed input gives an error naming the byte
// offset, never a crash.
Status deserialize(std::span<const std::uint8_t> bytes, Builder& out);

// One token (exposed for tests).
void write_token(std::int64_t value, std::vector<std::uint8_t>& out);
// Reads one token at `offset`, advancing it; false when truncated.
bool read_token(std::span<const std::uint8_t> bytes, std::size_t& offset, std::int64_t& value);

} // namespace kiln::ir
