#include "cache/pipeline_record.h"

#include "cache/cache_format.h"
#include "translator/common/byte_reader.h"

#include <algorithm>
#include <cstring>
#include <xxhash.h>

namespace kiln::cache {

namespace {

// Fixed part of the payload: version, flags, tag, use count, last use, stage count, state size.
constexpr std::size_t kFixedPayloadBytes = 4 + 4 + 8 + 8 + 8 + 4 + 4;
constexpr std::size_t kStageBytes = 4 + 4 + 8 + 8;
// More stages than a graphics pipeline has is corrupt.
constexpr std::uint32_t kMaxStages = 8;

template <typename T>
void append_pod(std::vector<std::uint8_t>& out, const T& value) {
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(&value);
  out.insert(out.end(), bytes, bytes + sizeof(T));
}

std::uint64_t read_u64(ByteReader& reader) {
  const std::uint64_t low = reader.u32();
  return low | std::uint64_t(reader.u32()) << 32;
}

} // namespace

TranslationKey pipeline_record_key(std::span<const PipelineStage> stages,
                                   std::span<const std::uint8_t> state, std::uint64_t tag) {
  // One XXH3-128 over [stage count, state size, tag, stage keys..., state bytes]; the buffer
  // is on the stack for the usual few hundred bytes of state.
  constexpr std::size_t kInline = 1024;
  const std::size_t stage_count = std::min<std::size_t>(stages.size(), kMaxStages);
  const std::size_t header = (3 + 2 * stage_count) * sizeof(std::uint64_t);
  std::uint8_t inline_bytes[kInline];
  std::vector<std::uint8_t> heap_bytes;
  std::uint8_t* bytes = inline_bytes;
  if (header + state.size() > kInline) {
    heap_bytes.resize(header + state.size());
    bytes = heap_bytes.data();
  }
  std::uint64_t words[3 + 2 * kMaxStages] = {stage_count, state.size(), tag};
  for (std::size_t i = 0; i < stage_count; ++i) {
    words[3 + 2 * i] = stages[i].key.low;
    words[4 + 2 * i] = stages[i].key.high;
  }
  std::memcpy(bytes, words, header);
  if (!state.empty()) std::memcpy(bytes + header, state.data(), state.size());
  const XXH128_hash_t hash = XXH3_128bits(bytes, header + state.size());
  return {hash.low64, hash.high64};
}

void encode_pipeline_record(const PipelineRecord& record, std::vector<std::uint8_t>& out) {
  out.clear();
  out.resize(kRecordHeaderSize);
  append_pod(out, kPipelinePayloadVersion);
  append_pod(out, record.flags);
  append_pod(out, record.tag);
  append_pod(out, record.use_count);
  append_pod(out, record.last_use_unix_seconds);
  append_pod(out, std::uint32_t(record.stages.size()));
  append_pod(out, std::uint32_t(record.state.size()));
  for (const PipelineStage& stage : record.stages) {
    append_pod(out, std::uint32_t(stage.stage));
    append_pod(out, stage.codegen_version);
    append_pod(out, stage.key.low);
    append_pod(out, stage.key.high);
  }
  out.insert(out.end(), record.state.begin(), record.state.end());
  const std::size_t payload_end = out.size();
  out.resize((payload_end + 7) & ~std::size_t(7), 0);

  RecordHeader header;
  header.key_low = record.key.low;
  header.key_high = record.key.high;
  header.codegen_version = kPipelineRecordMarker;
  header.options_bits = kPipelineOptionsBits;
  header.source_size = std::uint32_t(payload_end - kRecordHeaderSize);
  seal_record(header, payload_end, out);
}

bool decode_pipeline_payload(std::span<const std::uint8_t> payload, PipelineRecord& out) {
  if (payload.size() < kFixedPayloadBytes) return false;
  ByteReader reader(payload);
  if (reader.u32() != kPipelinePayloadVersion) return false;
  out.flags = reader.u32();
  out.tag = read_u64(reader);
  out.use_count = read_u64(reader);
  out.last_use_unix_seconds = read_u64(reader);
  const std::uint32_t stage_count = reader.u32();
  const std::uint32_t state_size = reader.u32();
  if (reader.failed() || stage_count > kMaxStages ||
      reader.remaining() != std::size_t(stage_count) * kStageBytes + state_size)
    return false;
  out.stages.resize(stage_count);
  for (PipelineStage& stage : out.stages) {
    const std::uint32_t value = reader.u32();
    if (value > std::uint32_t(ShaderStage::Count)) return false; // Count: not known
    stage.stage = ShaderStage(value);
    stage.codegen_version = reader.u32();
    stage.key.low = read_u64(reader);
    stage.key.high = read_u64(reader);
  }
  const std::span<const std::uint8_t> state = reader.bytes(state_size);
  if (reader.failed()) return false;
  out.state.assign(state.begin(), state.end());
  return true;
}

} // namespace kiln::cache
