#pragma once
// Decoding a SHDR/SHEX chunk (the SM4/SM5 tokenized program) into a Program.
//
// One linear pass over the tokens; every length, index and enum is checked against the
// program's bounds, and a bad token gives an error that names its dword offset. The Program
// keeps its storage between calls, so decoding a shader after warm-up allocates nothing.

#include "translator/common/status.h"
#include "translator/dxbc/program.h"

#include <cstdint>
#include <span>

namespace kiln::dxbc {

// `chunk` is the chunk payload (after the 8-byte chunk header). `program` is cleared first and
// points into `chunk` afterwards, so the bytes must outlive it.
Status decode_program(std::span<const std::uint8_t> chunk, Program& program);

} // namespace kiln::dxbc
