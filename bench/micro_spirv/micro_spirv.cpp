// How long ModuleBuilder takes to emit a pixel-shader-shaped module, reusing one builder the
// way a translation worker does. Arg = number of body arithmetic/sampling ops (DXBC pixel
// shaders in the corpus mostly translate to 100-600 SPIR-V instructions).

#include "translator/spirv/disassembler.h"
#include "translator/spirv/module_builder.h"

#include <benchmark/benchmark.h>
#include <string>
#include <vector>

namespace {

using kiln::spirv::Id;
using kiln::spirv::ModuleBuilder;

constexpr std::uint32_t kTextures = 4;
constexpr std::uint32_t kInputs = 4;
constexpr std::uint32_t kCbufferVectors = 16;

void build_pixel_shader(ModuleBuilder& b, std::uint32_t body_ops, std::vector<std::uint32_t>& out) {
  b.reset(kiln::SpirvTarget::Vulkan13);
  b.require_capability(spv::CapabilityShader);
  b.set_memory_model(spv::AddressingModelLogical, spv::MemoryModelGLSL450);
  const Id glsl = b.glsl_std_450();
  const Id void_type = b.type_void();
  const Id f32 = b.type_float(32);
  const Id u32 = b.type_int(32, false);
  const Id v4 = b.type_vector(f32, 4);
  const Id v2 = b.type_vector(f32, 2);

  // Constant buffer: struct { vec4 c[16]; } with std140 layout decorations.
  const Id cb_array = b.type_array(v4, b.constant_u32(kCbufferVectors));
  b.decorate(cb_array, spv::DecorationArrayStride, {16});
  const Id cb_struct = b.type_struct({&cb_array, 1});
  b.decorate(cb_struct, spv::DecorationBlock);
  b.decorate_member(cb_struct, 0, spv::DecorationOffset, {0});
  const Id cb = b.global_variable(b.type_pointer(spv::StorageClassUniform, cb_struct),
                                  spv::StorageClassUniform);
  b.decorate(cb, spv::DecorationDescriptorSet, {0});
  b.decorate(cb, spv::DecorationBinding, {0});
  const Id cb_elem_ptr = b.type_pointer(spv::StorageClassUniform, v4);

  const Id image = b.type_image(f32, spv::Dim2D, 0, false, false, 1, spv::ImageFormatUnknown);
  const Id sampled = b.type_sampled_image(image);
  const Id sampled_ptr = b.type_pointer(spv::StorageClassUniformConstant, sampled);
  Id textures[kTextures];
  for (std::uint32_t t = 0; t < kTextures; ++t) {
    textures[t] = b.global_variable(sampled_ptr, spv::StorageClassUniformConstant);
    b.decorate(textures[t], spv::DecorationDescriptorSet, {0});
    b.decorate(textures[t], spv::DecorationBinding, {1 + t});
  }

  Id interface[kInputs + 1];
  const Id in_ptr = b.type_pointer(spv::StorageClassInput, v4);
  for (std::uint32_t i = 0; i < kInputs; ++i) {
    interface[i] = b.global_variable(in_ptr, spv::StorageClassInput);
    b.decorate(interface[i], spv::DecorationLocation, {i});
  }
  const Id output =
      b.global_variable(b.type_pointer(spv::StorageClassOutput, v4), spv::StorageClassOutput);
  b.decorate(output, spv::DecorationLocation, {0});
  interface[kInputs] = output;

  const Id fn =
      b.begin_function(void_type, spv::FunctionControlMaskNone, b.type_function(void_type, {}));
  b.label();
  Id regs[kInputs];
  for (std::uint32_t i = 0; i < kInputs; ++i) regs[i] = b.op(spv::OpLoad, v4, {interface[i]});
  for (std::uint32_t n = 0; n < body_ops; ++n) {
    Id& r = regs[n % kInputs];
    switch (n % 8) {
    case 0: { // cbuffer read: access chain with a constant index
      const Id ptr = b.op(spv::OpAccessChain, cb_elem_ptr,
                          {cb, b.constant_u32(0), b.constant_u32(n % kCbufferVectors)});
      r = b.op(spv::OpFMul, v4, {r, b.op(spv::OpLoad, v4, {ptr})});
      break;
    }
    case 1: { // immediate vector constant
      const Id c = b.constant_f32(static_cast<float>(n % 13) * 0.25f);
      const Id parts[] = {c, c, c, b.constant_f32(1.0f)};
      r = b.op(spv::OpFAdd, v4, {r, b.constant_composite(v4, parts)});
      break;
    }
    case 2: { // texture sample
      const Id uv = b.op(spv::OpVectorShuffle, v2, {r, r, 0, 1});
      const Id s = b.op(spv::OpLoad, sampled, {textures[n % kTextures]});
      r = b.op(spv::OpImageSampleImplicitLod, v4, {s, uv});
      break;
    }
    case 3:
      r = b.ext_inst(v4, glsl, 43 /* FClamp */, {r, regs[(n + 1) % kInputs], r});
      break;
    case 4: {
      const Id d = b.op(spv::OpDot, f32, {r, regs[(n + 2) % kInputs]});
      r = b.op(spv::OpVectorTimesScalar, v4, {r, d});
      break;
    }
    case 5:
      r = b.op(spv::OpFSub, v4, {r, regs[(n + 3) % kInputs]});
      break;
    case 6:
      r = b.ext_inst(v4, glsl, 31 /* Sqrt */, {r});
      break;
    default:
      r = b.op(spv::OpFNegate, v4, {r});
      break;
    }
  }
  b.op_void(spv::OpStore, {output, regs[0]});
  b.op_void(spv::OpReturn, {});
  b.end_function();
  b.add_entry_point(spv::ExecutionModelFragment, fn, "main", interface);
  b.add_execution_mode(fn, spv::ExecutionModeOriginUpperLeft);
  b.finish(out);
  (void)u32;
}

std::size_t instruction_count(const std::vector<std::uint32_t>& words) {
  std::size_t n = 0;
  for (std::size_t at = 5; at < words.size(); at += words[at] >> 16) ++n;
  return n;
}

void BM_BuildPixelShader(benchmark::State& state) {
  ModuleBuilder builder;
  std::vector<std::uint32_t> words;
  const auto ops = static_cast<std::uint32_t>(state.range(0));
  build_pixel_shader(builder, ops, words); // warm-up, as a long-lived worker would be
  for (auto _ : state) {
    build_pixel_shader(builder, ops, words);
    benchmark::DoNotOptimize(words.data());
  }
  const double instructions = static_cast<double>(instruction_count(words));
  state.counters["instructions"] = instructions;
  state.counters["words"] = static_cast<double>(words.size());
  state.counters["ns_per_instruction"] = benchmark::Counter(
      instructions, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_BuildPixelShader)->Arg(64)->Arg(256)->Arg(1024);

void BM_BuildPixelShaderColdBuilder(benchmark::State& state) {
  // A fresh builder per module: the cost of not reusing one.
  std::vector<std::uint32_t> words;
  const auto ops = static_cast<std::uint32_t>(state.range(0));
  for (auto _ : state) {
    ModuleBuilder builder;
    build_pixel_shader(builder, ops, words);
    benchmark::DoNotOptimize(words.data());
  }
}
BENCHMARK(BM_BuildPixelShaderColdBuilder)->Arg(256);

void BM_Disassemble(benchmark::State& state) {
  ModuleBuilder builder;
  std::vector<std::uint32_t> words;
  build_pixel_shader(builder, static_cast<std::uint32_t>(state.range(0)), words);
  std::string text;
  for (auto _ : state) {
    text.clear();
    if (!kiln::spirv::disassemble(words, text)) state.SkipWithError("disassembly failed");
    benchmark::DoNotOptimize(text.data());
  }
  state.counters["instructions"] = static_cast<double>(instruction_count(words));
}
BENCHMARK(BM_Disassemble)->Arg(256);

} // namespace

BENCHMARK_MAIN();
