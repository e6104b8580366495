#pragma once
// The corpus the micro-benchmarks time: every file of one corpus folder, read once into
// memory and sorted by name. The folder is $KILN_CORPUS_DIR/<kind>, else
// KILN_SHARED_DIR/corpus/<kind> (a compile definition of each micro-benchmark); empty when
// absent, so the benchmark can skip with a message.

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace kiln::bench {

inline std::vector<std::vector<std::uint8_t>> load_micro_corpus(const std::string& kind) {
  namespace fs = std::filesystem;
  fs::path dir;
  if (const char* env = std::getenv("KILN_CORPUS_DIR"); env && *env)
    dir = env;
  else
    dir = fs::path(KILN_SHARED_DIR) / "corpus";
  dir /= kind;
  std::vector<fs::path> paths;
  std::error_code ec;
  for (auto it = fs::directory_iterator(dir, ec); !ec && it != fs::directory_iterator();
       it.increment(ec))
    if (it->path().extension() == "." + kind) paths.push_back(it->path());
  std::sort(paths.begin(), paths.end());
  std::vector<std::vector<std::uint8_t>> loaded;
  for (const fs::path& path : paths) {
    std::ifstream in(path, std::ios::binary);
    loaded.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  return loaded;
}

} // namespace kiln::bench
