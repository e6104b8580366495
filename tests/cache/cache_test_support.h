#pragma once
// Shared pieces of the cache tests: a scratch directory, deterministic shader sources, and a
// fake translator whose output can be checked against its input without the real translator.

#include "cache/scratch_directory.h"
#include "cache/shader_cache.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <gtest/gtest.h>
#include <random>
#include <string>
#include <vector>
#include <xxhash.h>

namespace kiln::cache::test {

// A scratch cache directory; file() is where the cache file goes.
class ScratchDirectory : public cache::ScratchDirectory {
 public:
  ScratchDirectory() : cache::ScratchDirectory("kiln-cache-test") {}
  std::filesystem::path file() const { return path() / kCacheFileName; }
};

// ShaderCache::open for a test that needs the cache: the cache, or null after failing the test
// with the reason open() gave.
inline std::unique_ptr<ShaderCache> open_cache(const CacheOptions& options) {
  Result<std::unique_ptr<ShaderCache>> opened = ShaderCache::open(options);
  if (!opened) ADD_FAILURE() << "the cache did not open: " << opened.status().message();
  return std::move(opened).value();
}

// Random bytes standing in for shader bytecode, distinct per (seed, size).
inline std::vector<std::uint8_t> make_source(std::uint64_t seed, std::size_t size) {
  std::mt19937_64 random(seed * 0x9e3779b97f4a7c15ull + size);
  std::vector<std::uint8_t> bytes(size);
  for (std::size_t i = 0; i < size; i += 8) {
    const std::uint64_t word = random();
    std::memcpy(bytes.data() + i, &word, std::min<std::size_t>(8, size - i));
  }
  if (!bytes.empty()) bytes[0] &= 0x7f; // never the 0xEE that fake_translate rejects
  return bytes;
}

// "Translates" by hashing: SPIR-V words are [magic, version, hash(source) lo/hi, size, filler,
// checksum], so a result can be checked against its source and codegen version.
inline Status fake_translate(std::uint32_t version, std::span<const std::uint8_t> source,
                             const TranslateOptions& options, TranslateResult& out) {
  if (!source.empty() && source[0] == 0xEE) return Status::error("rejected on purpose");
  const std::uint64_t hash = XXH3_64bits(source.data(), source.size());
  out.spirv = {0x07230203u,
               version,
               std::uint32_t(hash),
               std::uint32_t(hash >> 32),
               std::uint32_t(source.size()),
               std::uint32_t(options.target)};
  for (std::size_t i = 0; i < source.size() / 16; ++i) out.spirv.push_back(std::uint32_t(i * hash));
  out.spirv.push_back(XXH32(out.spirv.data(), out.spirv.size() * 4, 0));
  out.reflection = {};
  out.reflection.stage = ShaderStage::Pixel;
  out.reflection.resources.push_back(
      {ResourceBinding::Class::Srv, 0, std::uint32_t(hash & 7), 1, 3, 0, 5});
  out.reflection.outputs.push_back({"SV_Target", 0, 0, 0xf, ~0u});
  return Status::ok();
}

// Whether `result` is exactly what fake_translate(version, source) gives.
inline bool matches_fake(std::uint32_t version, std::span<const std::uint8_t> source,
                         const TranslateOptions& options, const TranslateResult& result) {
  TranslateResult expected;
  if (!fake_translate(version, source, options, expected)) return false;
  return expected.spirv == result.spirv && result.reflection.stage == ShaderStage::Pixel &&
         result.reflection.resources.size() == 1 &&
         result.reflection.resources[0].register_index ==
             expected.reflection.resources[0].register_index &&
         result.reflection.outputs.size() == 1 &&
         result.reflection.outputs[0].semantic == "SV_Target";
}

// Whether a SPIR-V result from fake_translate is internally consistent (checksum word).
inline bool self_consistent(const TranslateResult& result) {
  if (result.spirv.size() < 7) return false;
  return result.spirv.back() == XXH32(result.spirv.data(), (result.spirv.size() - 1) * 4, 0);
}

inline CacheOptions quiet_options(const std::filesystem::path& directory,
                                  std::vector<std::string>* messages = nullptr) {
  CacheOptions options;
  options.directory = directory;
  options.diagnostics = [messages](std::string_view message) {
    if (messages) messages->emplace_back(message);
  };
  return options;
}

} // namespace kiln::cache::test
