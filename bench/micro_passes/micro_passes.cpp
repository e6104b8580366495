// Pass pipeline micro-benchmarks. BM_Build* builds the scoped-form program alone (subtract it);
// BM_Pipeline* builds and runs every pass, with each pass's mean time as a counter (ns).
#include "translator/d3d9/converter.h"
#include "translator/dxbc/converter.h"
#include "translator/ir/ir.h"
#include "translator/passes/cfg_cleanup.h"
#include "translator/passes/constant_fold.h"
#include "translator/passes/dead_code.h"
#include "translator/passes/lower_unsupported.h"
#include "translator/passes/pipeline.h"
#include "translator/passes/scoped_to_structured.h"
#include "translator/passes/ssa_construction.h"
#include "translator/passes/type_resolution.h"

#include <benchmark/benchmark.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

namespace {

using namespace kiln::ir;

// A pixel shader the way a DXBC front end emits it: 8 registers x 4 components of Unknown
// scalar temps, texture sample, `blocks` repetitions of (mad chain, if/else, loop with break),
// outputs through ConsumeAs. blocks = 1 gives ~200 ops, a typical shader.
void build(Builder& b, unsigned blocks) {
  b.reset();
  SsaDef fn = b.add(Op::Function(kVoid));
  SsaDef entry = b.add(Op::EntryPoint(fn, ShaderStage::Pixel));
  Type v4 = vec(ScalarType::F32, 4);
  SsaDef in0 = b.add(Op::DclInput(v4, entry, 0u, 0u, InterpolationModes(0)));
  SsaDef out = b.add(Op::DclOutput(v4, entry, 0u, 0u, 0u));
  SsaDef cb = b.add(Op::DclCbv(b.types().make_array(v4, 16), entry, 0u, 0u, 1u));
  SsaDef srv = b.add(Op::DclSrv(kF32, entry, 0u, 0u, 1u, ResourceKind::Image2D));
  SsaDef smp = b.add(Op::DclSampler(entry, 0u, 0u, 1u));
  Type unknown(ScalarType::Unknown);
  SsaDef r[8][4];
  for (auto& reg : r)
    for (SsaDef& t : reg) t = b.add(Op::DclTmp(unknown, entry));
  b.add(Op::Label(Construct::None));
  auto load = [&](SsaDef tmp, Type as) {
    return b.add(Op::ConsumeAs(as, b.add(Op::TmpLoad(unknown, tmp))));
  };
  SsaDef zero = b.constant_u32(0);
  SsaDef cbd = b.add(Op::DescriptorLoad(kF32, cb, zero));
  SsaDef tex = b.add(Op::DescriptorLoad(kF32, srv, zero));
  SsaDef sam = b.add(Op::DescriptorLoad(kVoid, smp, zero));
  for (std::uint32_t c = 0; c < 4; ++c)
    b.add(Op::TmpStore(r[0][c], b.add(Op::InputLoad(kF32, in0, b.constant_u32(c)))));
  SsaDef uv = b.add(
      Op::CompositeConstruct(vec(ScalarType::F32, 2), load(r[0][0], kF32), load(r[0][1], kF32)));
  SsaDef texel = b.add(Op::ImageSample(v4, tex, sam, SsaDef(), uv, SsaDef(), SsaDef(), SsaDef(),
                                       SsaDef(), SsaDef(), SsaDef(), SsaDef()));
  for (std::uint32_t c = 0; c < 4; ++c)
    b.add(Op::TmpStore(r[1][c], b.add(Op::CompositeExtract(kF32, texel, b.constant_u32(c)))));
  for (unsigned blk = 0; blk < blocks; ++blk) {
    unsigned d = 2 + blk % 6;
    for (std::uint32_t c = 0; c < 4; ++c) {
      SsaDef col = b.add(Op::BufferLoad(v4, cbd, b.constant_u32(c + blk % 12), 16u));
      SsaDef m = b.add(Op::CompositeExtract(kF32, col, b.constant_u32(c)));
      SsaDef mad = b.add(Op::FMad(kF32, load(r[1][c], kF32), m, load(r[0][c], kF32)));
      b.add(Op::TmpStore(r[d][c], mad));
    }
    SsaDef dot =
        b.add(Op::FDot(kF32,
                       b.add(Op::CompositeConstruct(v4, load(r[d][0], kF32), load(r[d][1], kF32),
                                                    load(r[d][2], kF32), load(r[d][3], kF32))),
                       texel));
    b.add(Op::TmpStore(r[d][0], dot));
    // if (r.x < 0.5) r.y = r.x * 2 else r.y = asuint(r.z) & 0xff
    SsaDef cond = b.add(Op::FLt(load(r[d][0], kF32), b.constant_f32(0.5f)));
    SsaDef endif = b.add(Op::ScopedEndIf(SsaDef()));
    b.set_cursor(b.prev(endif));
    SsaDef iff = b.add(Op::ScopedIf(endif, cond));
    b.add(Op::TmpStore(r[d][1], b.add(Op::FMul(kF32, load(r[d][0], kF32), b.constant_f32(2.0f)))));
    b.add(Op::ScopedElse(iff));
    b.add(Op::TmpStore(r[d][1], b.add(Op::IAnd(kU32, load(r[d][2], kU32), b.constant_u32(255)))));
    b.rewrite_op(endif, Op::ScopedEndIf(iff));
    b.set_cursor(SsaDef());
    // i = 0; loop { if (i >= 4) break; r.z += r.y; i++ }
    b.add(Op::TmpStore(r[d][3], zero));
    SsaDef endloop = b.add(Op::ScopedEndLoop(SsaDef()));
    b.set_cursor(b.prev(endloop));
    SsaDef loop = b.add(Op::ScopedLoop(endloop));
    SsaDef done = b.add(Op::UGe(load(r[d][3], kU32), b.constant_u32(4)));
    SsaDef endif2 = b.add(Op::ScopedEndIf(SsaDef()));
    b.set_cursor(b.prev(endif2));
    SsaDef if2 = b.add(Op::ScopedIf(endif2, done));
    b.add(Op::ScopedLoopBreak(loop));
    b.rewrite_op(endif2, Op::ScopedEndIf(if2));
    b.set_cursor(endif2);
    b.add(Op::TmpStore(r[d][2], b.add(Op::FAdd(kF32, load(r[d][2], kF32), load(r[d][1], kF32)))));
    b.add(Op::TmpStore(r[d][3], b.add(Op::IAdd(kU32, load(r[d][3], kU32), b.constant_u32(1)))));
    b.rewrite_op(endloop, Op::ScopedEndLoop(loop));
    b.set_cursor(SsaDef());
    for (std::uint32_t c = 0; c < 4; ++c)
      b.add(Op::TmpStore(r[1][c], b.add(Op::FAdd(kF32, load(r[1][c], kF32), load(r[d][c], kF32)))));
  }
  for (std::uint32_t c = 0; c < 4; ++c)
    b.add(Op::OutputStore(kVoid, out, b.constant_u32(c), load(r[1][c], kF32)));
  b.add(Op::Return(SsaDef()));
  b.add(Op::FunctionEnd());
}

void BM_Build(benchmark::State& state) {
  Builder b;
  unsigned blocks = unsigned(state.range(0));
  build(b, blocks);
  state.counters["ops"] = double(b.op_count());
  for (auto _ : state) {
    build(b, blocks);
    benchmark::DoNotOptimize(b.last());
  }
}
BENCHMARK(BM_Build)->Arg(1)->Arg(8)->Arg(64);

void BM_Pipeline(benchmark::State& state) {
  Builder b;
  kiln::passes::Pipeline pipeline;
  unsigned blocks = unsigned(state.range(0));
  build(b, blocks);
  state.counters["ops"] = double(b.op_count());
  for (auto _ : state) {
    build(b, blocks);
    kiln::Status s = pipeline.run(b, {});
    if (!s) {
      state.SkipWithError(s.message().c_str());
      break;
    }
    benchmark::DoNotOptimize(b.last());
  }
  state.counters["ops_after"] = double(b.op_count());
}
BENCHMARK(BM_Pipeline)->Arg(1)->Arg(8)->Arg(64);

// Each pass timed with steady_clock around it (adds ~20 ns per pass of clock overhead).
void BM_PerPass(benchmark::State& state) {
  Builder b;
  kiln::passes::ScopedToStructured p1;
  kiln::passes::SsaConstruction p2;
  kiln::passes::TypeResolution p3;
  kiln::passes::LowerUnsupported p4;
  kiln::passes::ConstantFold p5;
  kiln::passes::DeadCode p6;
  kiln::passes::CfgCleanup p7;
  unsigned blocks = unsigned(state.range(0));
  double ns[7] = {};
  auto timed = [&](int i, auto& pass) {
    auto t0 = std::chrono::steady_clock::now();
    kiln::Status s = pass.run(b);
    auto t1 = std::chrono::steady_clock::now();
    ns[i] += std::chrono::duration<double, std::nano>(t1 - t0).count();
    if (!s) std::abort();
  };
  for (auto _ : state) {
    build(b, blocks);
    timed(0, p1);
    timed(1, p2);
    timed(2, p3);
    timed(3, p4);
    timed(4, p5);
    timed(5, p6);
    timed(6, p7);
  }
  const char* names[7] = {"structurize_ns", "ssa_ns", "types_ns", "lower_ns",
                          "fold_ns",        "dce_ns", "cfg_ns"};
  for (int i = 0; i < 7; ++i) state.counters[names[i]] = ns[i] / double(state.iterations());
}
BENCHMARK(BM_PerPass)->Arg(1)->Arg(8)->Arg(64);

// The corpus (../shared/corpus or $KILN_CORPUS_DIR): per shader, the front end alone
// (FrontEnd) and the front end plus every pass (FrontEndAndPasses); the difference is the
// passes' share. ns/shader is the mean over the corpus, warm (one Builder, Converter and
// Pipeline reused).
std::vector<std::vector<std::uint8_t>> load_corpus(const char* kind) {
  std::vector<std::vector<std::uint8_t>> files;
  const char* env = std::getenv("KILN_CORPUS_DIR");
  std::filesystem::path dir = env ? std::filesystem::path(env) : std::filesystem::path(KILN_CORPUS);
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir / kind, ec)) {
    if (entry.path().extension() != std::string(".") + kind) continue;
    std::ifstream in(entry.path(), std::ios::binary);
    files.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  return files;
}

template <typename Converter, typename Options>
void corpus_run(benchmark::State& state, const std::vector<std::vector<std::uint8_t>>& files,
                bool passes) {
  if (files.empty()) {
    state.SkipWithError("no corpus");
    return;
  }
  Builder b;
  Converter converter;
  kiln::passes::Pipeline pipeline;
  std::size_t shaders = 0;
  for (auto _ : state) {
    for (const auto& bytes : files) {
      b.reset();
      if (!converter.convert(bytes, Options{}, b)) continue;
      if (passes) benchmark::DoNotOptimize(pipeline.run(b, {}).is_ok());
      ++shaders;
    }
  }
  state.SetItemsProcessed(std::int64_t(shaders));
  state.counters["ns/shader"] = benchmark::Counter(
      double(shaders), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
const std::vector<std::vector<std::uint8_t>>& d3d9_files() {
  static const auto files = load_corpus("d3d9");
  return files;
}
const std::vector<std::vector<std::uint8_t>>& dxbc_files() {
  static const auto files = load_corpus("dxbc");
  return files;
}
void BM_D3d9Corpus_FrontEnd(benchmark::State& state) {
  corpus_run<kiln::d3d9::Converter, kiln::d3d9::ConvertOptions>(state, d3d9_files(), false);
}
void BM_D3d9Corpus_FrontEndAndPasses(benchmark::State& state) {
  corpus_run<kiln::d3d9::Converter, kiln::d3d9::ConvertOptions>(state, d3d9_files(), true);
}
void BM_DxbcCorpus_FrontEnd(benchmark::State& state) {
  corpus_run<kiln::dxbc::Converter, kiln::dxbc::ConvertOptions>(state, dxbc_files(), false);
}
void BM_DxbcCorpus_FrontEndAndPasses(benchmark::State& state) {
  corpus_run<kiln::dxbc::Converter, kiln::dxbc::ConvertOptions>(state, dxbc_files(), true);
}
BENCHMARK(BM_D3d9Corpus_FrontEnd)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_D3d9Corpus_FrontEndAndPasses)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DxbcCorpus_FrontEnd)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DxbcCorpus_FrontEndAndPasses)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
