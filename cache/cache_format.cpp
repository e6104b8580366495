#include "cache/cache_format.h"

#include "translator/common/byte_reader.h"

#include <cstring>
#include <memory>
#include <xxhash.h>

namespace kiln::cache {

namespace {

constexpr std::size_t kChecksummedHeaderBytes = kRecordHeaderSize - 8;

std::uint64_t padded(std::uint64_t size) {
  return (size + 7) & ~std::uint64_t(7);
}

template <typename T>
void append_pod(std::vector<std::uint8_t>& out, const T& value) {
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(&value);
  out.insert(out.end(), bytes, bytes + sizeof(T));
}

void append_u32(std::vector<std::uint8_t>& out, std::uint32_t value) {
  append_pod(out, value);
}

void append_signature(std::vector<std::uint8_t>& out, const std::vector<SignatureElement>& list) {
  append_u32(out, std::uint32_t(list.size()));
  for (const SignatureElement& element : list) {
    append_u32(out, std::uint32_t(element.semantic.size()));
    out.insert(out.end(), element.semantic.begin(), element.semantic.end());
    append_u32(out, element.semantic_index);
    append_u32(out, element.location);
    append_u32(out, element.component_mask);
    append_u32(out, element.builtin);
    append_u32(out, element.system_value);
    out.push_back(std::uint8_t(element.component_type));
    append_u32(out, element.register_index);
    append_u32(out, element.mask);
    append_u32(out, element.used_mask);
    append_u32(out, element.stream);
  }
}

bool read_signature(ByteReader& reader, std::vector<SignatureElement>& list) {
  const std::uint32_t count = reader.u32();
  // Each element takes at least 41 bytes: a count beyond that is corrupt, not a huge reserve.
  if (reader.failed() || count > reader.remaining() / 41) return false;
  list.resize(count);
  for (SignatureElement& element : list) {
    const std::uint32_t length = reader.u32();
    const std::span<const std::uint8_t> name = reader.bytes(length);
    element.semantic.assign(name.begin(), name.end());
    element.semantic_index = reader.u32();
    element.location = reader.u32();
    element.component_mask = reader.u32();
    element.builtin = reader.u32();
    element.system_value = reader.u32();
    const std::uint8_t component_type = reader.u8();
    if (component_type > std::uint8_t(ComponentType::Float)) return false;
    element.component_type = ComponentType(component_type);
    element.register_index = reader.u32();
    element.mask = reader.u32();
    element.used_mask = reader.u32();
    element.stream = reader.u32();
    if (reader.failed()) return false;
  }
  return true;
}

} // namespace

FileHeader make_file_header(std::uint64_t file_id, std::uint64_t created_unix_seconds) {
  FileHeader header;
  header.file_id = file_id;
  header.created_unix_seconds = created_unix_seconds;
  header.checksum = XXH3_64bits(&header, kFileHeaderSize - 8);
  return header;
}

bool file_header_valid(std::span<const std::uint8_t> bytes) {
  if (bytes.size() < kFileHeaderSize) return false;
  FileHeader header;
  std::memcpy(&header, bytes.data(), sizeof header);
  return header.magic == kFileMagic && header.format_version == kFormatVersion &&
         header.header_size == kFileHeaderSize &&
         header.checksum == XXH3_64bits(&header, kFileHeaderSize - 8);
}

std::uint64_t record_header_checksum(const RecordHeader& header) {
  return XXH3_64bits(&header, kChecksummedHeaderBytes);
}

bool record_header_valid(const RecordHeader& header) {
  if (header.magic != kRecordMagic || header.header_checksum != record_header_checksum(header))
    return false;
  const std::uint64_t payload =
      std::uint64_t(header.source_size) + header.spirv_size + header.reflection_size;
  return header.record_size <= kMaxRecordSize && header.record_size % 8 == 0 &&
         header.spirv_size % 4 == 0 &&
         header.record_size == kRecordHeaderSize + padded(payload) + kRecordTrailerSize;
}

bool record_trailer_matches(const RecordHeader& header, std::span<const std::uint8_t> trailer) {
  if (trailer.size() != kRecordTrailerSize) return false;
  RecordTrailer value;
  std::memcpy(&value, trailer.data(), sizeof value);
  return value.magic == kTrailerMagic && value.header_checksum == header.header_checksum;
}

void encode_record(const TranslationKey& key, std::uint32_t codegen_version,
                   std::span<const std::uint8_t> source, const TranslateOptions& options,
                   const TranslateResult& result, std::vector<std::uint8_t>& out) {
  out.clear();
  out.resize(kRecordHeaderSize);
  out.insert(out.end(), source.begin(), source.end());
  const auto* spirv = reinterpret_cast<const std::uint8_t*>(result.spirv.data());
  out.insert(out.end(), spirv, spirv + result.spirv.size() * 4);
  const std::size_t reflection_start = out.size();
  serialize_reflection(result.reflection, out);
  if (options.interface) {
    std::vector<std::uint8_t> encoded;
    options.interface->encode(encoded);
    out.insert(out.end(), encoded.begin(), encoded.end());
    append_u32(out, std::uint32_t(encoded.size()));
  }
  const std::size_t payload_end = out.size();
  out.resize(padded(payload_end), 0);

  RecordHeader header;
  header.key_low = key.low;
  header.key_high = key.high;
  header.codegen_version = codegen_version;
  header.options_bits = encode_options(options);
  header.source_size = std::uint32_t(source.size());
  header.spirv_size = std::uint32_t(result.spirv.size() * 4);
  header.reflection_size = std::uint32_t(payload_end - reflection_start);
  seal_record(header, payload_end, out);
}

void seal_record(RecordHeader& header, std::size_t payload_end, std::vector<std::uint8_t>& out) {
  header.record_size = std::uint32_t(out.size() + kRecordTrailerSize);
  header.payload_checksum =
      XXH3_64bits(out.data() + kRecordHeaderSize, payload_end - kRecordHeaderSize);
  header.header_checksum = record_header_checksum(header);
  std::memcpy(out.data(), &header, sizeof header);
  append_pod(out, RecordTrailer{kTrailerMagic, header.header_checksum});
}

bool probe_record(std::span<const std::uint8_t> file, std::uint64_t offset, bool verify_payload,
                  RecordHeader& out) {
  if (offset > file.size() || file.size() - offset < kRecordHeaderSize + kRecordTrailerSize)
    return false;
  std::memcpy(&out, file.data() + offset, sizeof out);
  if (!record_header_valid(out) || out.record_size > file.size() - offset) return false;
  const std::uint64_t trailer_at = offset + out.record_size - kRecordTrailerSize;
  if (!record_trailer_matches(out, file.subspan(trailer_at, kRecordTrailerSize))) return false;
  if (!verify_payload) return true;
  const std::uint64_t payload =
      std::uint64_t(out.source_size) + out.spirv_size + out.reflection_size;
  return XXH3_64bits(file.data() + offset + kRecordHeaderSize, payload) == out.payload_checksum;
}

Status decode_record(std::span<const std::uint8_t> record, RecordView& out) {
  if (!probe_record(record, 0, true, out.header) || out.header.record_size != record.size())
    return Status::error("record damaged (header, trailer or payload checksum mismatch)");
  const RecordHeader& h = out.header;
  std::size_t at = kRecordHeaderSize;
  out.source = record.subspan(at, h.source_size);
  at += h.source_size;
  out.spirv = record.subspan(at, h.spirv_size);
  at += h.spirv_size;
  out.reflection = record.subspan(at, h.reflection_size);
  out.interface = {};
  if (h.options_bits & kOptionsInterfaceBit) {
    std::uint32_t length = 0;
    if (out.reflection.size() >= 4)
      std::memcpy(&length, out.reflection.data() + out.reflection.size() - 4, 4);
    if (out.reflection.size() < 4 || length > out.reflection.size() - 4)
      return Status::error("record damaged (interface length past its section)");
    const std::size_t reflection_bytes = out.reflection.size() - 4 - length;
    out.interface = out.reflection.subspan(reflection_bytes, length);
    out.reflection = out.reflection.first(reflection_bytes);
  }
  return Status::ok();
}

bool decode_record_options(const RecordView& view, TranslateOptions& out) {
  if (!decode_options(view.header.options_bits, out)) return false;
  if (!(view.header.options_bits & kOptionsInterfaceBit)) return true;
  auto interface = std::make_shared<ShaderInterface>();
  if (!ShaderInterface::decode(view.interface, *interface)) return false;
  out.interface = std::move(interface);
  return true;
}

void serialize_reflection(const Reflection& reflection, std::vector<std::uint8_t>& out) {
  append_u32(out, kReflectionFormatVersion);
  out.push_back(std::uint8_t(reflection.stage));
  append_u32(out, std::uint32_t(reflection.resources.size()));
  for (const ResourceBinding& binding : reflection.resources) {
    out.push_back(std::uint8_t(binding.register_class));
    append_u32(out, binding.space);
    append_u32(out, binding.register_index);
    append_u32(out, binding.array_size);
    append_u32(out, binding.descriptor_type);
    append_u32(out, binding.set);
    append_u32(out, binding.binding);
    append_u32(out, binding.flags);
    append_u32(out, binding.offset);
    append_u32(out, binding.size);
    out.push_back(std::uint8_t(binding.dimension));
    out.push_back(std::uint8_t(binding.data_type));
    append_u32(out, binding.structure_stride);
  }
  append_signature(out, reflection.inputs);
  append_signature(out, reflection.outputs);
}

bool deserialize_reflection(std::span<const std::uint8_t> bytes, Reflection& out) {
  ByteReader reader(bytes);
  if (reader.u32() != kReflectionFormatVersion) return false;
  const std::uint8_t stage = reader.u8();
  if (reader.failed() || stage > std::uint8_t(ShaderStage::Count)) return false;
  out.stage = ShaderStage(stage);
  const std::uint32_t resource_count = reader.u32();
  constexpr std::size_t kResourceBytes = 1 + 9 * 4 + 2 + 4;
  if (reader.failed() || resource_count > reader.remaining() / kResourceBytes) return false;
  out.resources.resize(resource_count);
  for (ResourceBinding& binding : out.resources) {
    const std::uint8_t register_class = reader.u8();
    if (register_class > std::uint8_t(ResourceBinding::Class::PushData)) return false;
    binding.register_class = ResourceBinding::Class(register_class);
    binding.space = reader.u32();
    binding.register_index = reader.u32();
    binding.array_size = reader.u32();
    binding.descriptor_type = reader.u32();
    binding.set = reader.u32();
    binding.binding = reader.u32();
    binding.flags = reader.u32();
    binding.offset = reader.u32();
    binding.size = reader.u32();
    const std::uint8_t dimension = reader.u8();
    const std::uint8_t data_type = reader.u8();
    if (dimension > std::uint8_t(ResourceDimension::TextureCubeArray) ||
        data_type > std::uint8_t(ResourceDataType::Double))
      return false;
    binding.dimension = ResourceDimension(dimension);
    binding.data_type = ResourceDataType(data_type);
    binding.structure_stride = reader.u32();
  }
  if (reader.failed()) return false;
  return read_signature(reader, out.inputs) && read_signature(reader, out.outputs) &&
         reader.remaining() == 0;
}

} // namespace kiln::cache
