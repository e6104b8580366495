// kiln_fuzz_seeds TARGET CORPUS_DIR OUT_DIR: seeds for the targets whose inputs kiln makes
// itself (ir: serialized IR in scoped and final form; cache: records of translated shaders;
// spirv_disasm: translated SPIR-V), from every 16th DXBC and D3D9 file of the shared corpus.
// scripts/fuzz runs it once per fresh scratch corpus.
#include "cache/cache_format.h"
#include "translator/ir/ir.h"
#include "translator/ir/ir_serialize.h"
#include "translator/translate.h"
#include "translator/translation_key.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

namespace {

namespace fs = std::filesystem;

std::vector<std::uint8_t> read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_file(const fs::path& path, std::span<const std::uint8_t> bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

} // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: kiln_fuzz_seeds ir|cache|spirv_disasm CORPUS_DIR OUT_DIR\n");
    return 2;
  }
  const std::string_view target = argv[1];
  if (target != "ir" && target != "cache" && target != "spirv_disasm") {
    std::fprintf(stderr, "kiln_fuzz_seeds: no generated seeds for target '%s'\n", argv[1]);
    return 2;
  }
  const fs::path corpus = argv[2], out = argv[3];
  fs::create_directories(out);
  std::vector<fs::path> inputs;
  for (const char* sub : {"dxbc", "d3d9"}) {
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(corpus / sub, ec))
      if (entry.is_regular_file()) inputs.push_back(entry.path());
  }
  std::sort(inputs.begin(), inputs.end());

  kiln::Translator translator;
  kiln::ir::Builder builder;
  std::size_t written = 0;
  std::vector<std::uint8_t> bytes;
  for (std::size_t i = 0; i < inputs.size(); i += 16) {
    const std::vector<std::uint8_t> input = read_file(inputs[i]);
    const std::string stem = inputs[i].stem().string();
    kiln::TranslateOptions options;
    if (target == "ir") {
      for (bool run_passes : {false, true}) {
        if (!translator.convert_to_ir(kiln::read_shader_input(input), options, builder, run_passes))
          break;
        bytes.clear();
        kiln::ir::serialize(builder, bytes);
        write_file(out / (stem + (run_passes ? ".final.ir" : ".scoped.ir")), bytes);
        ++written;
      }
      continue;
    }
    kiln::TranslateResult result;
    if (!translator.translate(input, options, result)) continue;
    if (target == "spirv_disasm") {
      write_file(out / (stem + ".spv"), {reinterpret_cast<const std::uint8_t*>(result.spirv.data()),
                                         result.spirv.size() * 4});
    } else {
      // Mode byte 1 (sealed records, fuzz/target_cache.cpp), then one record.
      kiln::cache::encode_record(kiln::TranslationKey{i, i + 1}, 1, input, options, result, bytes);
      bytes.insert(bytes.begin(), std::uint8_t(1));
      write_file(out / (stem + ".record"), bytes);
    }
    ++written;
  }
  std::printf("kiln_fuzz_seeds: %zu %s seeds in %s\n", written, argv[1], out.c_str());
  return written ? 0 : 1;
}
