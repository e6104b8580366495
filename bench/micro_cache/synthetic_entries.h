#pragma once
// Shader-sized synthetic entries for the cache benchmarks: random "bytecode" and a SPIR-V
// result about 1.3x its size with a small reflection, like a typical translated pixel shader.

#include "cache/scratch_directory.h"
#include "cache/shader_cache.h"

#include <cstdint>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

namespace kiln::cache::bench {

using cache::ScratchDirectory;

struct SyntheticEntry {
  std::vector<std::uint8_t> source;
  TranslateResult result;
};

inline SyntheticEntry synthetic_entry(std::uint64_t seed, std::size_t source_bytes) {
  std::mt19937_64 random(seed);
  SyntheticEntry entry;
  entry.source.resize(source_bytes);
  for (std::size_t i = 0; i < source_bytes; i += 8) {
    const std::uint64_t word = random();
    std::memcpy(entry.source.data() + i, &word, std::min<std::size_t>(8, source_bytes - i));
  }
  entry.result.spirv.resize(source_bytes * 13 / 40);
  for (std::uint32_t& word : entry.result.spirv) word = std::uint32_t(random());
  entry.result.reflection.stage = ShaderStage::Pixel;
  entry.result.reflection.resources.push_back({ResourceBinding::Class::Cbv, 0, 0, 1, 6, 0, 0});
  entry.result.reflection.resources.push_back({ResourceBinding::Class::Srv, 0, 0, 1, 3, 0, 1});
  entry.result.reflection.inputs.push_back({"TEXCOORD", 0, 0, 0x3, ~0u});
  entry.result.reflection.outputs.push_back({"SV_Target", 0, 0, 0xf, ~0u});
  return entry;
}

inline CacheOptions bench_options(const std::filesystem::path& directory) {
  CacheOptions options;
  options.directory = directory;
  options.max_bytes = 64ull << 30; // never evict while measuring
  return options;
}

} // namespace kiln::cache::bench
