// DXBC -> IR conversion time (dxbc::Converter alone: container, decode, IR in scoped form)
// over every SM4/SM5 program of the corpus, one warm Converter and ir::Builder reused.
//
//   DxbcConvertPerShader   median over shaders of each shader's median conversion time
//   DxbcConvertCorpus      all shaders once per iteration (mean per shader, total)

#include "bench/micro_corpus.h"
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

double percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0;
  const std::size_t at = std::min(values.size() - 1, std::size_t(p * double(values.size())));
  std::nth_element(values.begin(), values.begin() + std::ptrdiff_t(at), values.end());
  return values[at];
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
  constexpr int kRepeats = 9;
  std::vector<double> per_shader(corpus().size()), samples(kRepeats);
  for (auto _ : state) {
    for (std::size_t i = 0; i < corpus().size(); ++i) {
      for (int r = 0; r < kRepeats; ++r) {
        const auto start = std::chrono::steady_clock::now();
        benchmark::DoNotOptimize(convert_one(converter, builder, corpus()[i]));
        const auto stop = std::chrono::steady_clock::now();
        samples[std::size_t(r)] = std::chrono::duration<double, std::micro>(stop - start).count();
      }
      per_shader[i] = percentile(samples, 0.5);
    }
  }
  state.counters["median_us"] = percentile(per_shader, 0.5);
  state.counters["p90_us"] = percentile(per_shader, 0.9);
  state.counters["max_us"] = percentile(per_shader, 1.0);
  double total = 0;
  for (double v : per_shader) total += v;
  state.counters["total_ms"] = total / 1000.0;
  state.counters["shaders"] = double(corpus().size());
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
