#include "translator/dxbc/signature.h"

#include <cstring>
#include <string>

namespace kiln::dxbc {
namespace {

std::uint32_t u32_at(std::span<const std::uint8_t> data, std::size_t offset) {
  return detail::load_u32(data.data() + offset);
}

// The chunk readers' reports: "<chunk> chunk: what (offset N)", the chunk named by the Where.
std::string spell_error(const Where& where, std::string_view what) {
  return std::string(where.name) + " chunk: " + std::string(what) + " (offset " +
         std::to_string(where.position) + ")";
}
Where in_signature(std::uint64_t offset) {
  return Where(offset, "signature");
}
Where in_rdef(std::uint64_t offset) {
  return Where(offset, "RDEF");
}

// Every public call below is a stage of its own: its one report is its Status.
Status reported(const Where& where, std::string_view what) {
  ErrorSink errors{&spell_error};
  errors.fail(where, what);
  return errors.take();
}

} // namespace

bool string_in_chunk(std::span<const std::uint8_t> chunk, std::uint32_t offset,
                     std::string_view& out) {
  if (offset >= chunk.size()) return false;
  const void* nul = std::memchr(chunk.data() + offset, 0, chunk.size() - offset);
  if (!nul) return false;
  out = std::string_view(reinterpret_cast<const char*>(chunk.data() + offset),
                         static_cast<const std::uint8_t*>(nul) - (chunk.data() + offset));
  return true;
}

Status parse_signature(const SignatureChunk& chunk, PodArray<SignatureElement>& out) {
  out.clear();
  if (!chunk.present()) return Status::ok();
  const auto data = chunk.data;
  if (data.size() < 8) return reported(in_signature(0), "header truncated");
  const std::uint32_t count = u32_at(data, 0);
  const std::uint32_t first = u32_at(data, 4);
  const std::uint32_t stride = chunk.format == SignatureFormat::Basic        ? 24
                               : chunk.format == SignatureFormat::WithStream ? 28
                                                                             : 32;
  if (first > data.size() || count > (data.size() - first) / stride)
    return reported(in_signature(4), "element table runs past the chunk");
  out.reserve_more(count);
  for (std::uint32_t i = 0; i < count; ++i) {
    std::size_t at = first + std::size_t(i) * stride;
    SignatureElement& e = out.push_unchecked();
    e.stream = 0;
    e.min_precision = 0;
    if (chunk.format != SignatureFormat::Basic) {
      e.stream = u32_at(data, at);
      at += 4;
    }
    if (!string_in_chunk(data, u32_at(data, at), e.semantic_name))
      return reported(in_signature(at), "semantic name outside the chunk");
    e.semantic_index = u32_at(data, at + 4);
    e.system_value = u32_at(data, at + 8);
    e.component_type = u32_at(data, at + 12);
    e.register_index = u32_at(data, at + 16);
    e.mask = data[at + 20];
    e.read_write_mask = data[at + 21];
    if (chunk.format == SignatureFormat::WithStreamAndPrecision)
      e.min_precision = u32_at(data, at + 24);
  }
  return Status::ok();
}

Status ReflectionView::open(std::span<const std::uint8_t> rdef) {
  *this = ReflectionView{};
  if (rdef.empty()) return Status::ok();
  if (rdef.size() < 28) return reported(in_rdef(0), "header truncated");
  data_ = rdef;
  cbuffer_count_ = u32_at(rdef, 0);
  cbuffer_offset_ = u32_at(rdef, 4);
  binding_count_ = u32_at(rdef, 8);
  binding_offset_ = u32_at(rdef, 12);
  target_ = u32_at(rdef, 16);
  const bool sm51 = (target_ & 0xffffu) >= 0x501 && (target_ & 0xffffu) < 0x600;
  binding_stride_ = sm51 ? 40 : 32;
  variable_stride_ = (target_ & 0xffffu) >= 0x500 ? 40 : 24;
  if (binding_offset_ > rdef.size() ||
      binding_count_ > (rdef.size() - binding_offset_) / binding_stride_)
    return reported(in_rdef(12), "binding table runs past the chunk");
  if (cbuffer_offset_ > rdef.size() || cbuffer_count_ > (rdef.size() - cbuffer_offset_) / 24)
    return reported(in_rdef(4), "constant buffer table runs past the chunk");
  if (!string_in_chunk(rdef, u32_at(rdef, 24), creator_)) creator_ = {};
  return Status::ok();
}

bool ReflectionView::name_at(std::uint32_t offset, std::string_view& out) const {
  return string_in_chunk(data_, offset, out);
}

Status ReflectionView::binding(std::uint32_t i, RdefBinding& out) const {
  if (i >= binding_count_) return reported(in_rdef(i), "binding index out of range");
  const std::size_t at = binding_offset_ + std::size_t(i) * binding_stride_;
  if (!name_at(u32_at(data_, at), out.name))
    return reported(in_rdef(at), "binding name out of range");
  out.type = u32_at(data_, at + 4);
  out.return_type = u32_at(data_, at + 8);
  out.dimension = u32_at(data_, at + 12);
  out.sample_count = u32_at(data_, at + 16);
  out.bind_point = u32_at(data_, at + 20);
  out.bind_count = u32_at(data_, at + 24);
  out.flags = u32_at(data_, at + 28);
  out.space = binding_stride_ == 40 ? u32_at(data_, at + 32) : 0;
  out.id = binding_stride_ == 40 ? u32_at(data_, at + 36) : 0;
  return Status::ok();
}

Status ReflectionView::constant_buffer(std::uint32_t i, ConstantBufferInfo& out) const {
  if (i >= cbuffer_count_) return reported(in_rdef(i), "constant buffer index out of range");
  const std::size_t at = cbuffer_offset_ + std::size_t(i) * 24;
  if (!name_at(u32_at(data_, at), out.name))
    return reported(in_rdef(at), "cbuffer name out of range");
  out.variable_count = u32_at(data_, at + 4);
  out.variable_offset = u32_at(data_, at + 8);
  out.size = u32_at(data_, at + 12);
  out.flags = u32_at(data_, at + 16);
  out.type = u32_at(data_, at + 20);
  if (out.variable_offset > data_.size() ||
      out.variable_count > (data_.size() - out.variable_offset) / variable_stride_)
    return reported(in_rdef(at + 8), "variable table runs past the chunk");
  return Status::ok();
}

Status ReflectionView::variable(const ConstantBufferInfo& cb, std::uint32_t i,
                                VariableInfo& out) const {
  if (i >= cb.variable_count) return reported(in_rdef(i), "variable index out of range");
  const std::size_t at = cb.variable_offset + std::size_t(i) * variable_stride_;
  if (!name_at(u32_at(data_, at), out.name))
    return reported(in_rdef(at), "variable name out of range");
  out.start_offset = u32_at(data_, at + 4);
  out.size = u32_at(data_, at + 8);
  out.flags = u32_at(data_, at + 12);
  return Status::ok();
}

} // namespace kiln::dxbc
