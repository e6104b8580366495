#pragma once
// Input/output/patch-constant signatures and the RDEF reflection chunk, read on demand.
//
// Names are views into the container bytes (checked to be NUL-terminated inside the chunk),
// so nothing here allocates except the caller's reused element array.

#include "translator/common/status.h"
#include "translator/dxbc/container.h"
#include "translator/dxbc/program.h"

#include <cstdint>
#include <span>
#include <string_view>

namespace kiln::dxbc {

struct SignatureElement {
  std::string_view semantic_name;
  std::uint32_t semantic_index;
  std::uint32_t system_value;   // D3D_NAME (0 undefined, 1 position, ... 64 target, 65 depth)
  std::uint32_t component_type; // 0 unknown, 1 uint32, 2 sint32, 3 float32
  std::uint32_t register_index;
  std::uint8_t mask;            // components the element occupies
  std::uint8_t read_write_mask; // inputs: components read; outputs: components NOT always written
  std::uint32_t stream;
  std::uint32_t min_precision; // D3D_MIN_PRECISION
};

// Reads every element of `chunk` into `out` (cleared first).
Status parse_signature(const SignatureChunk& chunk, PodArray<SignatureElement>& out);

// RDEF: resource bindings and constant buffers, for names in debug output.
struct RdefBinding {
  std::string_view name;
  std::uint32_t type;        // D3D_SHADER_INPUT_TYPE
  std::uint32_t return_type; // D3D_RESOURCE_RETURN_TYPE
  std::uint32_t dimension;   // D3D_SRV_DIMENSION
  std::uint32_t sample_count;
  std::uint32_t bind_point, bind_count, flags;
  std::uint32_t space, id; // SM5.1
};

struct ConstantBufferInfo {
  std::string_view name;
  std::uint32_t variable_count, variable_offset, size, flags, type;
};

struct VariableInfo {
  std::string_view name;
  std::uint32_t start_offset, size, flags;
};

class ReflectionView {
 public:
  // Checks the RDEF header; an empty chunk gives an empty view.
  Status open(std::span<const std::uint8_t> rdef);

  std::uint32_t binding_count() const { return binding_count_; }
  std::uint32_t constant_buffer_count() const { return cbuffer_count_; }
  std::uint32_t target_version() const { return target_; }
  std::string_view creator() const { return creator_; }
  Status binding(std::uint32_t i, RdefBinding& out) const;
  Status constant_buffer(std::uint32_t i, ConstantBufferInfo& out) const;
  Status variable(const ConstantBufferInfo& cb, std::uint32_t i, VariableInfo& out) const;

 private:
  bool name_at(std::uint32_t offset, std::string_view& out) const;

  std::span<const std::uint8_t> data_;
  std::uint32_t cbuffer_count_ = 0, cbuffer_offset_ = 0;
  std::uint32_t binding_count_ = 0, binding_offset_ = 0;
  std::uint32_t target_ = 0, binding_stride_ = 32, variable_stride_ = 24;
  std::string_view creator_;
};

// Looks up a NUL-terminated string at `offset` inside `chunk`.
bool string_in_chunk(std::span<const std::uint8_t> chunk, std::uint32_t offset,
                     std::string_view& out);

} // namespace kiln::dxbc
