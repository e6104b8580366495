// Decode time of the DXBC reader over every SM4/SM5 program of the corpus.
//
//   DxbcDecodePerShader    median over shaders of each shader's median time for container
//                          directory + program decode (no checksum): the reader's figure
//   DxbcDecodeCorpus       all shaders once per iteration (throughput, mean per shader)
//   DxbcContainerChecksum  the same container parse with the MD5 checksum verified
//   DxbcDisassemble        decode + fxc-style listing (not on the translation path)
//
// One Program is reused throughout, as a translation worker would reuse it.

#include "bench/micro_corpus.h"
#include "bench/micro_dxbc/per_shader_timing.h"
#include "translator/dxbc/container.h"
#include "translator/dxbc/disassembler.h"
#include "translator/dxbc/reader.h"

#include <algorithm>
#include <benchmark/benchmark.h>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using Shader = std::vector<std::uint8_t>;
using namespace kiln::dxbc;

const std::vector<Shader>& corpus() {
  static const std::vector<Shader> shaders = kiln::bench::load_micro_corpus("dxbc");
  return shaders;
}

bool have_corpus(benchmark::State& state) {
  if (!corpus().empty()) return true;
  state.SkipWithError("no DXBC corpus (set KILN_CORPUS_DIR or put ../shared beside the source)");
  return false;
}

bool decode_one(const Shader& bytes, Program& program) {
  Container container;
  if (!parse_container(bytes, container, {.verify_checksum = false})) return false;
  return bool(decode_program(container.program, program));
}

void DxbcDecodePerShader(benchmark::State& state) {
  if (!have_corpus(state)) return;
  Program program;
  for (const Shader& s : corpus()) benchmark::DoNotOptimize(decode_one(s, program)); // warm-up
  kiln::bench::time_per_shader(state, corpus().size(), 15,
                               [&](std::size_t i) { return decode_one(corpus()[i], program); });
}
BENCHMARK(DxbcDecodePerShader)->Iterations(1)->Unit(benchmark::kMillisecond);

void DxbcDecodeCorpus(benchmark::State& state) {
  if (!have_corpus(state)) return;
  Program program;
  std::size_t tokens = 0;
  for (auto _ : state) {
    for (const Shader& s : corpus()) {
      benchmark::DoNotOptimize(decode_one(s, program));
      tokens += program.token_count;
    }
  }
  state.SetItemsProcessed(std::int64_t(state.iterations() * corpus().size()));
  state.counters["tokens"] = benchmark::Counter(double(tokens), benchmark::Counter::kIsRate);
}
BENCHMARK(DxbcDecodeCorpus)->Unit(benchmark::kMillisecond);

void DxbcContainerChecksum(benchmark::State& state) {
  if (!have_corpus(state)) return;
  for (auto _ : state) {
    for (const Shader& s : corpus()) {
      Container container;
      benchmark::DoNotOptimize(parse_container(s, container).is_ok());
    }
  }
  state.SetItemsProcessed(std::int64_t(state.iterations() * corpus().size()));
}
BENCHMARK(DxbcContainerChecksum)->Unit(benchmark::kMillisecond);

void DxbcDisassemble(benchmark::State& state) {
  if (!have_corpus(state)) return;
  std::string text;
  for (auto _ : state) {
    for (const Shader& s : corpus()) {
      text.clear();
      benchmark::DoNotOptimize(disassemble(s, text).is_ok());
    }
  }
  state.SetItemsProcessed(std::int64_t(state.iterations() * corpus().size()));
}
BENCHMARK(DxbcDisassemble)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
