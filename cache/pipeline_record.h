#pragma once
// Pipeline records: the pipelines a layer built, kept in the shader cache file beside the
// shader entries so the next start can build them again before the game asks
// (docs/cache.md, "Pipeline records").
//
// A pipeline record is an ordinary cache record (same header, trailer, checksums, append and
// rewrite protocol) told apart by its codegen_version field, kPipelineRecordMarker: it has no
// codegen version of its own, because it names its shaders by their translation keys and the
// codegen version each key was computed under, and a version bump re-keys it (see
// remap_pipeline_stages in the rewrite). Its options_bits, kPipelineOptionsBits, is a word
// decode_translate_options() rejects, so a kiln that predates pipeline records sees one as an
// unreadable stale entry and keeps it untouched.

#include "translator/translation_key.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace kiln::cache {

inline constexpr std::uint32_t kPipelineRecordMarker = 0xffffffffu;
inline constexpr std::uint32_t kPipelineOptionsBits = 1u << 31;
inline constexpr std::uint32_t kPipelinePayloadVersion = 1;

// A record the replay found unusable (a shader no longer translates, the layer's tag names an
// older state format) or one superseded by a re-keyed copy: never replayed, dropped by the next
// compaction. Written as a newer record under the same key, so it works across processes.
inline constexpr std::uint32_t kPipelineRetired = 1u << 0;

struct PipelineStage {
  ShaderStage stage = ShaderStage::Count; // Count: not known (handed over as KILN_STAGE_ANY)
  std::uint32_t codegen_version = 0; // the version `key` was computed under
  TranslationKey key;
};

struct PipelineRecord {
  TranslationKey key; // pipeline_record_key(stages, state, tag)
  std::uint64_t tag = 0;
  std::uint32_t flags = 0; // kPipelineRetired
  std::uint64_t use_count = 0;
  std::uint64_t last_use_unix_seconds = 0;
  std::vector<PipelineStage> stages;
  std::vector<std::uint8_t> state; // the layer's pipeline-state bytes, opaque to kiln
};

// XXH3-128 over the stage translation keys (in order), the tag and the state bytes.
TranslationKey pipeline_record_key(std::span<const PipelineStage> stages,
                                   std::span<const std::uint8_t> state, std::uint64_t tag);

// Serializes one complete cache record (header, payload, trailer) into `out`.
void encode_pipeline_record(const PipelineRecord& record, std::vector<std::uint8_t>& out);
// Decodes the payload of a pipeline record (RecordView::source); false when malformed.
bool decode_pipeline_payload(std::span<const std::uint8_t> payload, PipelineRecord& out);

// The format tag as layers are asked to build it: which layer (high 32 bits) and the version
// of its state-bytes format (low 32 bits). A record of the same layer with another format
// version has an unknown tag: the replay retires it.
constexpr std::uint64_t pipeline_tag_layer(std::uint64_t tag) {
  return tag >> 32;
}

} // namespace kiln::cache
