// IR micro-benchmarks. Counters: ops/s (items per second), bytes/op (storage the builder holds
// per op after the build; capacity, so it includes growth slack and the use index).
#include "tests/translator/ir/test_programs.h"
#include "translator/ir/ir.h"
#include "translator/ir/ir_serialize.h"
#include "translator/ir/ir_text.h"
#include "translator/ir/ir_validate.h"

#include <benchmark/benchmark.h>
#include <vector>

namespace {

using namespace kiln::ir;

// A median-sized pixel shader: ~15 DXBC instructions become ~80 IR ops with scoped control
// flow, temporaries and constants, the way a front end emits them.
void build_typical(Builder& b) {
  b.reset();
  SsaDef fn = b.add(Op::Function(kVoid));
  SsaDef entry = b.add(Op::EntryPoint(fn, ShaderStage::Pixel));
  Type v4 = vec(ScalarType::F32, 4);
  SsaDef in0 = b.add(Op::DclInput(v4, entry, 0u, 0u, InterpolationModes(0)));
  SsaDef in1 = b.add(Op::DclInput(vec(ScalarType::F32, 2), entry, 1u, 0u, InterpolationModes(0)));
  SsaDef out = b.add(Op::DclOutput(v4, entry, 0u, 0u, 0u));
  SsaDef cb = b.add(Op::DclCbv(b.types().make_array(v4, 16), entry, 0u, 0u, 1u));
  SsaDef srv = b.add(Op::DclSrv(kF32, entry, 0u, 0u, 1u, ResourceKind::Image2D));
  SsaDef smp = b.add(Op::DclSampler(entry, 0u, 0u, 1u));
  SsaDef r[4];
  for (SsaDef& t : r) t = b.add(Op::DclTmp(kF32, entry));
  b.add(Op::Label(Construct::None));
  SsaDef zero = b.constant_u32(0);
  SsaDef cbd = b.add(Op::DescriptorLoad(kF32, cb, zero));
  SsaDef tex = b.add(Op::DescriptorLoad(kF32, srv, zero));
  SsaDef sam = b.add(Op::DescriptorLoad(kVoid, smp, zero));
  SsaDef uv = b.add(Op::InputLoad(vec(ScalarType::F32, 2), in1, SsaDef()));
  SsaDef texel = b.add(Op::ImageSample(v4, tex, sam, SsaDef(), uv, SsaDef(), SsaDef(), SsaDef(),
                                       SsaDef(), SsaDef(), SsaDef(), SsaDef()));
  for (std::uint32_t c = 0; c < 4; ++c) {
    SsaDef x = b.add(Op::CompositeExtract(kF32, texel, b.constant_u32(c)));
    b.add(Op::TmpStore(r[c], x));
  }
  for (std::uint32_t c = 0; c < 4; ++c) {
    SsaDef col = b.add(Op::BufferLoad(v4, cbd, b.constant_u32(c), 16u));
    SsaDef v = b.add(Op::InputLoad(kF32, in0, b.constant_u32(c)));
    SsaDef m = b.add(Op::CompositeExtract(kF32, col, b.constant_u32(c)));
    SsaDef t = b.add(Op::TmpLoad(kF32, r[c]));
    SsaDef mad = b.add(Op::FMad(kF32, v, m, t));
    SsaDef sat = b.add(Op::FClamp(kF32, mad, b.constant_f32(0.0f), b.constant_f32(1.0f)));
    b.add(Op::TmpStore(r[c], sat));
  }
  SsaDef cond = b.add(Op::FLt(b.add(Op::TmpLoad(kF32, r[3])), b.constant_f32(0.5f)));
  SsaDef endif = b.add(Op::ScopedEndIf(SsaDef()));
  b.set_cursor(b.prev(endif));
  SsaDef iff = b.add(Op::ScopedIf(endif, cond));
  b.add(Op::Demote());
  b.rewrite_op(endif, Op::ScopedEndIf(iff));
  b.set_cursor(SsaDef());
  for (std::uint32_t c = 0; c < 4; ++c)
    b.add(Op::OutputStore(kVoid, out, b.constant_u32(c), b.add(Op::TmpLoad(kF32, r[c]))));
  b.add(Op::Return(SsaDef()));
  b.add(Op::FunctionEnd());
}

void BM_BuildTypicalShader(benchmark::State& state) {
  Builder b;
  build_typical(b);
  std::size_t ops = b.op_count();
  for (auto _ : state) {
    build_typical(b);
    benchmark::DoNotOptimize(b.last());
  }
  state.SetItemsProcessed(std::int64_t(state.iterations() * ops));
  state.counters["ops"] = double(ops);
  state.counters["bytes/op"] = double(b.bytes_reserved()) / double(ops);
}
BENCHMARK(BM_BuildTypicalShader);

void BM_BuildLargeShader(benchmark::State& state) {
  Builder b;
  kiln::ir::test::build_large(b, std::uint32_t(state.range(0)));
  std::size_t ops = b.op_count();
  for (auto _ : state) {
    kiln::ir::test::build_large(b, std::uint32_t(state.range(0)));
    benchmark::DoNotOptimize(b.last());
  }
  state.SetItemsProcessed(std::int64_t(state.iterations() * ops));
  state.counters["bytes/op"] = double(b.bytes_reserved()) / double(ops);
}
BENCHMARK(BM_BuildLargeShader)->Arg(20000);

void BM_UseIndex(benchmark::State& state) {
  Builder b;
  build_typical(b);
  for (auto _ : state) {
    b.rewrite_op(b.last(), Op::FunctionEnd()); // invalidates the index
    benchmark::DoNotOptimize(b.users(b.first()).size());
  }
  state.SetItemsProcessed(std::int64_t(state.iterations() * b.op_count()));
}
BENCHMARK(BM_UseIndex);

// What a pass does at least once: walk every op and look at its operands.
void BM_IterateTypical(benchmark::State& state) {
  Builder b;
  build_typical(b);
  for (auto _ : state) {
    std::uint64_t sum = 0;
    for (OpView op : b.ops()) {
      sum += std::uint32_t(op.code());
      for (std::uint32_t i = 0; i < op.ref_count(); ++i) sum += op.operand(i).def().id();
    }
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(std::int64_t(state.iterations() * b.op_count()));
}
BENCHMARK(BM_IterateTypical);

void BM_SerializeTypical(benchmark::State& state) {
  Builder b;
  build_typical(b);
  std::vector<std::uint8_t> bytes;
  for (auto _ : state) {
    bytes.clear();
    serialize(b, bytes);
    benchmark::DoNotOptimize(bytes.data());
  }
  state.SetItemsProcessed(std::int64_t(state.iterations() * b.op_count()));
  state.counters["bytes"] = double(bytes.size());
}
BENCHMARK(BM_SerializeTypical);

void BM_DeserializeTypical(benchmark::State& state) {
  Builder b, loaded;
  build_typical(b);
  std::vector<std::uint8_t> bytes;
  serialize(b, bytes);
  for (auto _ : state) {
    auto s = deserialize(bytes, loaded);
    benchmark::DoNotOptimize(s.is_ok());
  }
  state.SetItemsProcessed(std::int64_t(state.iterations() * b.op_count()));
}
BENCHMARK(BM_DeserializeTypical);

void BM_ValidateTypical(benchmark::State& state) {
  Builder b;
  build_typical(b);
  kiln::Status valid = validate(b);
  if (!valid) state.SkipWithError(valid.message().c_str());
  for (auto _ : state) benchmark::DoNotOptimize(validate(b).is_ok());
  state.SetItemsProcessed(std::int64_t(state.iterations() * b.op_count()));
}
BENCHMARK(BM_ValidateTypical);

} // namespace

BENCHMARK_MAIN();
