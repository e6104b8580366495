// Decode time of the D3D9 reader over every shader of the corpus.
//
//   D3D9DecodeCorpus        all shaders once per iteration (throughput, mean per shader)
//   D3D9DecodePerShader     median over shaders of each shader's median decode time: the
//                           figure quoted for the reader ("median µs per shader")
//   D3D9MeasureLength       the bounded length scan the d3d9 hook runs, same statistic
//   D3D9ConvertPerShader    decode + D3D9 -> IR (the front end), same statistic
//   D3D9ConvertPassesPerShader  front end + the pass pipeline (scoped -> final form)
//
// One Program is reused throughout, as a translation worker would reuse it.

#include "bench/micro_corpus.h"
#include "translator/d3d9/converter.h"
#include "translator/d3d9/reader.h"
#include "translator/ir/ir.h"
#include "translator/passes/pipeline.h"

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
  static const std::vector<Shader> shaders = kiln::bench::load_micro_corpus("d3d9");
  return shaders;
}

bool have_corpus(benchmark::State& state) {
  if (!corpus().empty()) return true;
  state.SkipWithError("no D3D9 corpus (set KILN_CORPUS_DIR or put ../shared beside the source)");
  return false;
}

double median(std::vector<double>& values) {
  if (values.empty()) return 0;
  const std::size_t mid = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + std::ptrdiff_t(mid), values.end());
  return values[mid];
}

void D3D9DecodeCorpus(benchmark::State& state) {
  if (!have_corpus(state)) return;
  kiln::d3d9::Program program;
  std::size_t failures = 0, tokens = 0;
  for (auto _ : state) {
    for (const Shader& shader : corpus()) {
      failures += !kiln::d3d9::decode(shader, program).is_ok();
      tokens += program.token_count;
      benchmark::DoNotOptimize(program.instructions.data());
    }
  }
  const double shaders = double(state.iterations()) * double(corpus().size());
  state.SetItemsProcessed(std::int64_t(shaders));
  state.counters["shaders"] = double(corpus().size());
  state.counters["failures"] = double(failures);
  state.counters["time_per_shader"] =
      benchmark::Counter(shaders, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["tokens_per_s"] = benchmark::Counter(double(tokens), benchmark::Counter::kIsRate);
}
BENCHMARK(D3D9DecodeCorpus)->Unit(benchmark::kMicrosecond);

// Each shader is decoded kBatch times per sample (a clock read costs about as much as decoding a
// tiny shader); the per-shader median over iterations, then the median over shaders.
template <typename Work>
void per_shader_median(benchmark::State& state, Work work) {
  if (!have_corpus(state)) return;
  constexpr int kBatch = 16;
  const std::size_t n = corpus().size();
  std::vector<std::vector<double>> samples(n);
  for (auto _ : state) {
    for (std::size_t s = 0; s < n; ++s) {
      const auto start = std::chrono::steady_clock::now();
      for (int k = 0; k < kBatch; ++k) work(corpus()[s]);
      const auto stop = std::chrono::steady_clock::now();
      samples[s].push_back(std::chrono::duration<double, std::micro>(stop - start).count() /
                           kBatch);
    }
  }
  std::vector<double> medians;
  medians.reserve(n);
  for (auto& shader_samples : samples) medians.push_back(median(shader_samples));
  std::vector<double> sorted = medians;
  state.counters["median_us"] = median(medians);
  std::sort(sorted.begin(), sorted.end());
  state.counters["p90_us"] = sorted[std::min(n - 1, n * 9 / 10)];
  state.counters["max_us"] = sorted.back();
  state.SetItemsProcessed(std::int64_t(state.iterations()) * std::int64_t(n) * kBatch);
}

void D3D9DecodePerShader(benchmark::State& state) {
  kiln::d3d9::Program program;
  per_shader_median(state, [&](const Shader& shader) {
    benchmark::DoNotOptimize(kiln::d3d9::decode(shader, program).is_ok());
  });
}
BENCHMARK(D3D9DecodePerShader)->Unit(benchmark::kMillisecond);

void D3D9MeasureLength(benchmark::State& state) {
  per_shader_median(state, [](const Shader& shader) {
    std::size_t bytes = 0;
    benchmark::DoNotOptimize(kiln::d3d9::measure(shader, bytes).is_ok());
    benchmark::DoNotOptimize(bytes);
  });
}
BENCHMARK(D3D9MeasureLength)->Unit(benchmark::kMillisecond);

// Warm worker objects, as Translator keeps them: the builder and converter are reused.
void D3D9ConvertPerShader(benchmark::State& state) {
  kiln::ir::Builder builder;
  kiln::d3d9::Converter converter;
  per_shader_median(state, [&](const Shader& shader) {
    builder.reset();
    benchmark::DoNotOptimize(converter.convert(shader, {}, builder).is_ok());
  });
}
BENCHMARK(D3D9ConvertPerShader)->Unit(benchmark::kMillisecond);

void D3D9ConvertPassesPerShader(benchmark::State& state) {
  kiln::ir::Builder builder;
  kiln::d3d9::Converter converter;
  kiln::passes::Pipeline pipeline;
  per_shader_median(state, [&](const Shader& shader) {
    builder.reset();
    if (converter.convert(shader, {}, builder).is_ok())
      benchmark::DoNotOptimize(pipeline.run(builder, {}).is_ok());
  });
}
BENCHMARK(D3D9ConvertPassesPerShader)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
