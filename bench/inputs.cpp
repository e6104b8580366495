#include "bench/inputs.h"

#include "bench/synth/synthetic_corpus.h"

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <system_error>

namespace kiln::bench {

namespace {

std::uint32_t read_u32(const std::vector<std::uint8_t>& bytes, std::size_t at) {
  if (at + 4 > bytes.size()) return 0;
  return std::uint32_t(bytes[at]) | std::uint32_t(bytes[at + 1]) << 8 |
         std::uint32_t(bytes[at + 2]) << 16 | std::uint32_t(bytes[at + 3]) << 24;
}

ShaderStage stage_from_program_type(std::uint32_t type) {
  static constexpr std::array<ShaderStage, 6> kByType = {
      ShaderStage::Pixel, ShaderStage::Vertex, ShaderStage::Geometry,
      ShaderStage::Hull,  ShaderStage::Domain, ShaderStage::Compute};
  return type < kByType.size() ? kByType[type] : ShaderStage::Count;
}

bool read_whole_file(const std::filesystem::path& path, std::vector<std::uint8_t>& out) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return false;
  out.assign(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
  return !file.bad();
}

} // namespace

bool is_sidecar(const std::string& path) {
  static constexpr std::array<std::string_view, 6> kSidecars = {".hlsl", ".txt", ".json",
                                                                ".tsv",  ".md",  ".spv"};
  const std::string extension = std::filesystem::path(path).extension().string();
  return std::find(kSidecars.begin(), kSidecars.end(), extension) != kSidecars.end();
}

ShaderStage detect_stage(const std::vector<std::uint8_t>& bytes, InputKind kind) {
  if (kind == InputKind::D3D9) {
    const std::uint32_t version = read_u32(bytes, 0);
    return (version >> 16) == 0xffff ? ShaderStage::Pixel : ShaderStage::Vertex;
  }
  if (kind != InputKind::Dxbc) return ShaderStage::Count;
  const std::uint32_t chunks = read_u32(bytes, 28);
  for (std::uint32_t i = 0; i < chunks && 32 + 4 * std::size_t(i) + 4 <= bytes.size(); ++i) {
    const std::uint32_t offset = read_u32(bytes, 32 + 4 * std::size_t(i));
    const std::uint32_t tag = read_u32(bytes, offset);
    if (tag == 0x52444853u /* SHDR */ || tag == 0x58454853u /* SHEX */)
      return stage_from_program_type(read_u32(bytes, std::size_t(offset) + 8) >> 16);
  }
  return ShaderStage::Count;
}

std::vector<BenchInput> collect_inputs(const std::vector<std::string>& paths,
                                       std::vector<std::string>& errors) {
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  for (const std::string& given : paths) {
    std::error_code ec;
    if (fs::is_directory(given, ec)) {
      std::vector<std::string> found;
      for (auto it = fs::recursive_directory_iterator(given, ec); !ec && it != fs::end(it);
           it.increment(ec)) {
        if (it->is_regular_file(ec) && !is_sidecar(it->path().string()))
          found.push_back(it->path().string());
      }
      if (ec) errors.push_back(given + ": " + ec.message());
      std::sort(found.begin(), found.end());
      files.insert(files.end(), found.begin(), found.end());
    } else if (fs::is_regular_file(given, ec)) {
      if (!is_sidecar(given)) files.push_back(given);
    } else {
      errors.push_back(given + ": no such file or folder");
    }
  }
  std::vector<BenchInput> inputs;
  inputs.reserve(files.size());
  for (const std::string& file : files) {
    BenchInput input;
    input.path = file;
    if (!read_whole_file(file, input.bytes)) {
      errors.push_back(file + ": cannot read");
      continue;
    }
    input.kind = detect_input_kind(input.bytes).kind;
    input.stage = detect_stage(input.bytes, input.kind);
    inputs.push_back(std::move(input));
  }
  return inputs;
}

std::vector<BenchInput> synthetic_inputs(std::uint64_t seed, std::uint32_t count) {
  synth::CorpusOptions options;
  options.seed = seed;
  options.count = count;
  std::vector<BenchInput> inputs;
  for (synth::SyntheticShader& shader : synth::generate_corpus(options)) {
    BenchInput input;
    input.path = std::move(shader.name);
    input.kind = detect_input_kind(shader.bytes).kind;
    input.stage = shader.stage;
    input.bytes = std::move(shader.bytes);
    inputs.push_back(std::move(input));
  }
  return inputs;
}

} // namespace kiln::bench
