// DXBC -> IR conversion time (dxbc::Converter alone: container, decode, IR in scoped form)
// over every SM4/SM5 program of the corpus, one warm Converter and ir::Builder reused.
//
//   DxbcConvertPerShader   median over shaders of each shader's median conversion time
//   DxbcConvertCorpus      all shaders once per iteration (mean per shader, total)

#include "bench/micro_corpus.h"
#include "bench/micro_dxbc/per_shader_timing.h"
#include "translator/dxbc/converter.h"
#include "translator/ir/ir.h"

#include <algorithm>
#include <benchmark/benchmark.h>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

namespace {

namespace fs = std::filesystem;
using Shader = std::vector<std::uint8_t>;

const std::vector<Shader>& corpus() {
  static const std::vector<Shader> shaders = kiln::bench::load_micro_corpus("dxbc");
  return shaders;
}

bool convert_one(kiln::dxbc::Converter& converter, kiln::ir::Builder& builder, const Shader& s) {
  builder.reset();
  return converter.convert(s, {}, builder).is_ok();
}

void DxbcConvertPerShader(benchmark::State& state) {
  if (corpus().empty()) return state.SkipWithError("no DXBC corpus (set KILN_CORPUS_DIR)");
  kiln::dxbc::Converter converter;
  kiln::ir::Builder builder;
  for (const Shader& s : corpus()) benchmark::DoNotOptimize(convert_one(converter, builder, s));
  kiln::bench::time_per_shader(state, corpus().size(), 9, [&](std::size_t i) {
    return convert_one(converter, builder, corpus()[i]);
  });
}
BENCHMARK(DxbcConvertPerShader)->Iterations(1)->Unit(benchmark::kMillisecond);

void DxbcConvertCorpus(benchmark::State& state) {
  if (corpus().empty()) return state.SkipWithError("no DXBC corpus (set KILN_CORPUS_DIR)");
  kiln::dxbc::Converter converter;
  kiln::ir::Builder builder;
  for (auto _ : state)
    for (const Shader& s : corpus()) benchmark::DoNotOptimize(convert_one(converter, builder, s));
  state.SetItemsProcessed(std::int64_t(state.iterations() * corpus().size()));
}
BENCHMARK(DxbcConvertCorpus)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
