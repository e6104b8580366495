#pragma once
// Bounds-checked little-endian reads from untrusted bytes. Every read checks; a failed read
// leaves the reader in a sticky failed state so parsers can test once after a group of reads.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

namespace kiln {

class ByteReader {
 public:
  explicit ByteReader(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}

  std::size_t offset() const { return offset_; }
  std::size_t size() const { return bytes_.size(); }
  std::size_t remaining() const { return failed_ ? 0 : bytes_.size() - offset_; }
  bool failed() const { return failed_; }

  bool seek(std::size_t offset) {
    if (offset > bytes_.size()) return run_out();
    offset_ = offset;
    return true;
  }

  bool skip(std::size_t count) {
    if (count > remaining()) return run_out();
    offset_ += count;
    return true;
  }

  std::uint32_t u32() { return read<std::uint32_t>(); }
  std::uint16_t u16() { return read<std::uint16_t>(); }
  std::uint8_t u8() { return read<std::uint8_t>(); }

  // A view of the next `count` bytes (empty and failed when out of range).
  std::span<const std::uint8_t> bytes(std::size_t count) {
    if (count > remaining()) {
      run_out();
      return {};
    }
    auto view = bytes_.subspan(offset_, count);
    offset_ += count;
    return view;
  }

 private:
  template <typename T>
  T read() {
    T value{};
    if (sizeof(T) > remaining()) {
      run_out();
      return value;
    }
    std::memcpy(&value, bytes_.data() + offset_, sizeof(T)); // hosts are little-endian
    offset_ += sizeof(T);
    return value;
  }

  // A read past the bytes: the reader stays failed (not a report; the parser using it reports).
  bool run_out() {
    failed_ = true;
    return false;
  }

  std::span<const std::uint8_t> bytes_;
  std::size_t offset_ = 0;
  bool failed_ = false;
};

} // namespace kiln
