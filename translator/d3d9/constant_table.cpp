// CTAB layout (offsets are relative to the byte after the 'CTAB' fourcc):
//   header (28 bytes): size, creator offset, version, constant count, constant-info offset,
//                      flags, target offset
//   constant info (20 bytes each): name offset, register set (u16), register index (u16),
//                      register count (u16), reserved (u16), type-info offset, default offset
//   type info (16 bytes): class, type, rows, columns, elements, struct members (u16 each),
//                      struct member info offset

#include "translator/d3d9/constant_table.h"

#include "translator/common/byte_reader.h"

#include <cstring>
#include <string>

namespace kiln::d3d9 {

std::string_view register_set_prefix(RegisterSet set) {
  static constexpr std::string_view kPrefixes[] = {
#define KILN_X(name, value, prefix) prefix,
      KILN_D3D9_REGISTER_SETS(KILN_X)
#undef KILN_X
  };
  return std::size_t(set) < kRegisterSetCount ? kPrefixes[std::size_t(set)] : "?";
}

namespace {

// The table reader's reports: "CTAB at byte N: what".
std::string spell_error(const Where& where, std::string_view what) {
  return "CTAB at byte " + std::to_string(where.position) + ": " + std::string(what);
}

bool read_table(std::span<const std::uint8_t> bytes, const Comment& comment, ConstantTable& out,
                ErrorSink& errors);

// A NUL-terminated string at `offset` inside `data`.
bool read_string(std::span<const std::uint8_t> data, std::uint32_t offset, std::string_view& out) {
  if (offset >= data.size()) return false;
  const void* nul = std::memchr(data.data() + offset, 0, data.size() - offset);
  if (!nul) return false;
  out = std::string_view(reinterpret_cast<const char*>(data.data() + offset),
                         static_cast<const std::uint8_t*>(nul) - (data.data() + offset));
  return true;
}

} // namespace

// The stage boundary: the first report of read_table is the Status.
Status read_constant_table(std::span<const std::uint8_t> bytes, const Comment& comment,
                           ConstantTable& out) {
  ErrorSink errors{&spell_error};
  return errors.outcome(read_table(bytes, comment, out, errors));
}

namespace {

bool read_table(std::span<const std::uint8_t> bytes, const Comment& comment, ConstantTable& out,
                ErrorSink& errors) {
  out.creator = {};
  out.target = {};
  out.version = 0;
  out.constants.clear();
  // Payload: the fourcc token, then the table.
  const std::size_t start = (std::size_t(comment.offset) + 2) * 4;
  const std::size_t end = (std::size_t(comment.offset) + 1 + comment.length) * 4;
  if (comment.fourcc != kCtabFourcc || comment.length < 1 || end > bytes.size())
    return errors.fail(comment.offset * 4, "not a CTAB comment");
  const std::span<const std::uint8_t> data = bytes.subspan(start, end - start);

  ByteReader header(data);
  const std::uint32_t size = header.u32(), creator = header.u32(), version = header.u32(),
                      count = header.u32(), info_offset = header.u32();
  header.u32(); // flags
  const std::uint32_t target = header.u32();
  if (header.failed()) return errors.fail(start, "header truncated");
  if (size < 28) return errors.fail(start, "header size " + std::to_string(size) + " < 28");
  out.version = version;
  if (!read_string(data, creator, out.creator))
    return errors.fail(start, "creator string out of bounds");
  if (target && !read_string(data, target, out.target))
    return errors.fail(start, "target string out of bounds");
  if (info_offset > data.size() || count > (data.size() - info_offset) / 20)
    return errors.fail(start + info_offset,
                       std::to_string(count) + " constants do not fit in the table");
  out.constants.reserve(count);
  for (std::uint32_t k = 0; k < count; ++k) {
    const std::size_t at = info_offset + std::size_t(k) * 20;
    ByteReader info(data.subspan(at, 20));
    const std::uint32_t name = info.u32();
    const std::uint16_t set = info.u16(), index = info.u16(), registers = info.u16();
    info.u16(); // reserved
    const std::uint32_t type_offset = info.u32();
    Constant c{};
    if (!read_string(data, name, c.name))
      return errors.fail(start + at, "constant " + std::to_string(k) + ": name out of bounds");
    if (set >= kRegisterSetCount)
      return errors.fail(start + at, "constant " + std::to_string(k) + ": register set " +
                                         std::to_string(set) + " does not exist");
    c.set = RegisterSet(set);
    c.index = index;
    c.count = registers;
    if (type_offset) {
      ByteReader type(data);
      type.seek(type_offset);
      c.type_class = type.u16();
      c.type = type.u16();
      c.rows = type.u16();
      c.columns = type.u16();
      c.elements = type.u16();
      if (type.failed())
        return errors.fail(start + at, "constant " + std::to_string(k) + ": type out of bounds");
    }
    out.constants.push_back(c);
  }
  return true;
}

} // namespace

} // namespace kiln::d3d9
