// The execution harness (bench/execute/, docs/execution.md): its comparison rules, its generated
// stage, and runs over a few corpus shaders per supported stage, where both translations must
// agree, and again with kiln's translation deliberately broken, which the harness must catch.

#include "bench/execute/class_linkage.h"
#include "bench/execute/compare.h"
#include "bench/execute/contraction.h"
#include "bench/execute/descriptor_arrays.h"
#include "bench/execute/execute.h"
#include "bench/execute/passthrough.h"
#include "bench/execute/passthrough_tessellation.h"
#include "bench/execute/stage_support.h"
#include "tests/support/shared_data.h"
#include "tests/translator/spirv/spirv_tools_text.h"
#include "translator/spirv/validate.h"

#include <algorithm>
#include <ctime>
#include <gtest/gtest.h>
#include <map>
#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.hpp>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace kiln::test {
namespace {

using namespace kiln::execute;

std::uint32_t bits(float f) {
  std::uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

TEST(ExecuteCompare, FloatRules) {
  // NaN equals NaN of any payload and nothing else.
  EXPECT_TRUE(floats_match(0x7fc00000u, 0xffc00001u, OpClass::Exact));
  EXPECT_FALSE(floats_match(0x7fc00000u, bits(1.0f), OpClass::Trigonometric));
  // Denormals may be flushed (to zero of either sign).
  EXPECT_TRUE(floats_match(0x00000001u, 0x80000000u, OpClass::Exact));
  // Exact operations are bit-exact; a fused mad may differ by one unit in the last place.
  EXPECT_FALSE(floats_match(bits(1.0f), bits(1.0f) + 1, OpClass::Exact));
  EXPECT_TRUE(floats_match(bits(1.0f), bits(1.0f) + 1, OpClass::Fused));
  EXPECT_FALSE(floats_match(bits(1.0f), bits(1.0f) + 2, OpClass::Fused));
  // sincos is held to D3D's absolute bound.
  EXPECT_TRUE(floats_match(bits(0.5f), bits(0.5007f), OpClass::Trigonometric));
  EXPECT_FALSE(floats_match(bits(0.5f), bits(0.502f), OpClass::Trigonometric));
}

TEST(ExecuteCompare, IntegersAreBitExact) {
  Output a{"u0", {1, 2, 3, 4}, 'u', 4, 0xf}, b = a;
  EXPECT_TRUE(compare_outputs({a}, {b}, OpClass::Derivative).same);
  b.words[2] = 4;
  const Comparison c = compare_outputs({a}, {b}, OpClass::Derivative);
  EXPECT_FALSE(c.same);
  EXPECT_EQ(c.words_different, 1u);
  // A component outside the compare mask is not compared.
  a.compare_mask = b.compare_mask = 0xb;
  EXPECT_TRUE(compare_outputs({a}, {b}, OpClass::Exact).same);
}

TEST(ExecutePassthrough, GeneratedVertexShaderIsValid) {
  const std::vector<Varying> varyings = {
      {0, 0, 4, 'f'}, {1, 0, 2, 'f'}, {1, 2, 1, 'u'}, {2, 1, 3, 'i'}};
  for (std::uint32_t clip : {0u, 2u}) {
    const std::vector<std::uint32_t> words = passthrough_vertex_shader(varyings, clip);
    const Status s = validate_spirv(words, SpirvTarget::Vulkan10);
    EXPECT_TRUE(s) << s.message();
  }
}

TEST(ExecutePassthrough, GeneratedTessellationStagesAreValid) {
  const std::vector<Varying> control_points = {{0, 0, 4, 'f'}, {1, 0, 2, 'f'}, {1, 2, 1, 'u'}};
  const std::vector<PatchWords> patch = {{{2, 0, 3, 'f'}, {0x3f000000u, 0, 0x3f800000u}},
                                         {{3, 1, 1, 'i'}, {2}}};
  std::vector<Varying> patch_varyings;
  for (const PatchWords& p : patch) patch_varyings.push_back(p.varying);
  for (spv::ExecutionMode domain :
       {spv::ExecutionModeTriangles, spv::ExecutionModeQuads, spv::ExecutionModeIsolines}) {
    for (bool position : {false, true}) {
      Status s = validate_spirv(
          passthrough_control_shader(control_points, position, 3, patch, domain, TessLevels{}),
          SpirvTarget::Vulkan10);
      EXPECT_TRUE(s) << "control shader: " << s.message();
      s = validate_spirv(
          capture_evaluation_shader(control_points, position, 4, patch_varyings, domain),
          SpirvTarget::Vulkan10);
      EXPECT_TRUE(s) << "evaluation shader: " << s.message();
    }
  }
}

// The generated stages are written from vkd3d-shader's module: a stage interface of kiln's that
// differs where they meet it is a difference, one where nothing generated meets it is not.
TEST(ExecuteInterfaces, GeneratedStagesMeetTheSameInterface) {
  ComponentFact input;
  input.storage = spv::StorageClassInput;
  input.location = 1;
  ComponentFact output = input;
  output.storage = spv::StorageClassOutput;
  BuiltInFact point_size;
  point_size.storage = spv::StorageClassOutput;
  point_size.builtin = spv::BuiltInPointSize;
  ModuleInterface reference;
  reference.components = {input, output};
  reference.builtins = {point_size};
  ModuleInterface kiln = reference;
  kiln.builtins.clear(); // an output built-in only the reference declares
  EXPECT_EQ(generated_stage_interface_difference(ShaderStage::Domain, kiln, reference), "");
  EXPECT_EQ(generated_stage_interface_difference(ShaderStage::Geometry, kiln, reference), "");
  // A hull shader's outputs feed the generated evaluation shader.
  EXPECT_NE(generated_stage_interface_difference(ShaderStage::Hull, kiln, reference), "");
  // An input of another type is a difference for every stage between generated ones.
  kiln = reference;
  kiln.components[0].scalar = 'u';
  for (ShaderStage stage : {ShaderStage::Hull, ShaderStage::Domain, ShaderStage::Geometry})
    EXPECT_NE(generated_stage_interface_difference(stage, kiln, reference), "")
        << shader_stage_abbrev(stage);
  // Stages with no generated stage before them are not checked here.
  EXPECT_EQ(generated_stage_interface_difference(ShaderStage::Compute, kiln, reference), "");
}

// The hang timeout counts the worker's CPU time (ExecuteOptions::timeout_seconds): it must see
// this process's own work, all threads together, and nothing for a process that is gone.
TEST(ExecuteHang, CpuSecondsCountEveryThreadsWork) {
  const double before = cpu_seconds(int(getpid()));
  ASSERT_GE(before, 0);
  // Each thread works until its own CPU clock has run 0.2 s, whatever the machine's load.
  auto burn = [] {
    auto thread_cpu = [] {
      timespec t{};
      clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
      return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
    };
    const double until = thread_cpu() + 0.2;
    volatile std::uint64_t sink = 0;
    while (thread_cpu() < until) sink = sink + 1;
  };
  std::thread other(burn);
  burn();
  other.join();
  // 0.4 s in all, less a clock tick or two: one thread's 0.2 s alone would not pass.
  EXPECT_GT(cpu_seconds(int(getpid())) - before, 0.35);
  const pid_t child = fork();
  if (child == 0) _exit(0);
  ASSERT_GT(child, 0);
  waitpid(child, nullptr, 0);
  EXPECT_LT(cpu_seconds(int(child)), 0); // reaped: no /proc entry
}

TEST(ExecuteCorrupt, SwapsOperandsOfOneOperation) {
  // OpFSub %float %3 %4 %5 in an otherwise empty module body.
  std::vector<std::uint32_t> words = {0x07230203,       0x00010000, 0, 10, 0,
                                      (5u << 16) | 131, 1,          3, 4,  5};
  ASSERT_TRUE(corrupt_one_operation(words));
  EXPECT_EQ(words[8], 5u);
  EXPECT_EQ(words[9], 4u);
}

// A few corpus shaders of each stage the harness runs, chosen among those whose modules have
// float arithmetic to corrupt, integer work, textures, samplers and UAVs.
const char* const kSubset[] = {
#include "execute_subset.inc"
};

std::vector<std::string> subset_paths() {
  std::vector<std::string> paths;
  for (const char* name : kSubset) paths.push_back((corpus_dir() / "dxbc" / name).string());
  return paths;
}

TEST(ExecuteCorpus, SubsetAgrees) {
  KILN_REQUIRE_DIR(corpus_dir(), "../shared/corpus");
  ExecuteOptions options;
  options.paths = subset_paths();
  options.progress = false;
  const ExecuteSummary summary = run_execute(options);
  if (!summary.setup_error.empty()) KILN_SKIP_OR_FAIL_IN_CI(summary.setup_error);
  ASSERT_EQ(summary.records.size(), options.paths.size());
  for (const ShaderRecord& r : summary.records)
    EXPECT_EQ(r.verdict, Verdict::Match)
        << r.file << ": " << verdict_name(r.verdict) << ": " << r.reason;
}

// Vertex shaders whose stream output captures an element sharing its register with another
// (o1.xy TEXCOORD0, o1.zw TEXCOORD1: one variable under vkd3d-shader's convention, named by the
// first): kiln once rejected the request ("matches no output of the shader").
TEST(ExecuteCorpus, StreamOutputOfASharedRegisterAgrees) {
  KILN_REQUIRE_DIR(corpus_dir(), "../shared/corpus");
  ExecuteOptions options;
  for (const char* name : {"998daf963c08.dxbc", "0d3a070a0bae.dxbc"})
    options.paths.push_back((corpus_dir() / "dxbc" / name).string());
  options.progress = false;
  const ExecuteSummary summary = run_execute(options);
  if (!summary.setup_error.empty()) KILN_SKIP_OR_FAIL_IN_CI(summary.setup_error);
  ASSERT_EQ(summary.records.size(), options.paths.size());
  for (const ShaderRecord& r : summary.records)
    EXPECT_EQ(r.verdict, Verdict::Match)
        << r.file << ": " << verdict_name(r.verdict) << ": " << r.reason;
}

// SM5.1 descriptor arrays (a pixel shader sampling T0[8:15] and T1[9:12] with S0[10:13] and
// S1[11:18] in four spaces; a compute shader reading CB2[2:3]): kiln's drop-in forwards them,
// so the harness translates them under an explicit interface of array bindings and binds every
// element to one seeded resource, which vkd3d-shader 1.2's single descriptor also reads. Both
// must run and agree, and a corrupted kiln translation of the pixel shader must not (the
// compute shader's first subtraction does not change what it writes).
TEST(ExecuteCorpus, DescriptorArraysAgree) {
  KILN_REQUIRE_DIR(corpus_dir(), "../shared/corpus");
  for (const bool corrupt : {false, true}) {
    ExecuteOptions options;
    for (const char* name : {"c9559d3f468a.dxbc", "f4f859dec1b3.dxbc"})
      if (!corrupt || name[0] == 'c')
        options.paths.push_back((corpus_dir() / "dxbc" / name).string());
    options.progress = false;
    options.corrupt_kiln = corrupt;
    const ExecuteSummary summary = run_execute(options);
    if (!summary.setup_error.empty()) KILN_SKIP_OR_FAIL_IN_CI(summary.setup_error);
    ASSERT_EQ(summary.records.size(), options.paths.size());
    for (const ShaderRecord& r : summary.records)
      EXPECT_EQ(r.verdict, corrupt ? Verdict::Differ : Verdict::Match)
          << (corrupt ? "corrupted: " : "") << r.file << ": " << verdict_name(r.verdict) << ": "
          << r.reason;
  }
}

// out[0] = fma(in[0], in[1], in[2]), as vkd3d-shader writes `mad`.
constexpr std::string_view kFmaText = R"(
OpCapability Shader
%glsl = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %buf
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %arr ArrayStride 4
OpMemberDecorate %blk 0 Offset 0
OpDecorate %blk Block
OpDecorate %buf DescriptorSet 0
OpDecorate %buf Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%uint = OpTypeInt 32 0
%arr = OpTypeRuntimeArray %float
%blk = OpTypeStruct %arr
%pblk = OpTypePointer StorageBuffer %blk
%pf = OpTypePointer StorageBuffer %float
%buf = OpVariable %pblk StorageBuffer
%u0 = OpConstant %uint 0
%u1 = OpConstant %uint 1
%u2 = OpConstant %uint 2
%main = OpFunction %void None %fn
%entry = OpLabel
%pa = OpAccessChain %pf %buf %u0 %u0
%pb = OpAccessChain %pf %buf %u0 %u1
%pc = OpAccessChain %pf %buf %u0 %u2
%a = OpLoad %float %pa
%b = OpLoad %float %pb
%c = OpLoad %float %pc
%r = OpExtInst %float %glsl Fma %a %b %c
%s = OpExtInst %float %glsl Fma %r %b %c
OpStore %pa %s
OpReturn
OpFunctionEnd
)";

TEST(ExecuteContraction, UnfuseSplitsEveryFmaIntoAMultiplyAndAnAdd) {
  std::string error;
  const std::vector<std::uint32_t> fused = assemble_spirv(kFmaText, &error, false);
  ASSERT_FALSE(fused.empty()) << error;
  std::vector<std::uint32_t> unfused = fused;
  ASSERT_TRUE(unfuse_fma(unfused));
  Status valid = validate_spirv(unfused, SpirvTarget::Vulkan13);
  ASSERT_TRUE(valid) << valid.message();
  EXPECT_EQ(unfused[3], fused[3] + 2); // one new id per Fma
  // Instructions as (opcode, operands): the Fma pairs become FMul then FAdd, and the second
  // multiply reads what the first add now makes.
  std::vector<std::vector<std::uint32_t>> arithmetic;
  for (std::size_t at = 5; at < unfused.size(); at += unfused[at] >> 16) {
    const std::uint32_t op = unfused[at] & 0xffff;
    if (op == spv::OpFMul || op == spv::OpFAdd || op == spv::OpExtInst)
      arithmetic.emplace_back(unfused.begin() + std::ptrdiff_t(at),
                              unfused.begin() + std::ptrdiff_t(at + (unfused[at] >> 16)));
  }
  ASSERT_EQ(arithmetic.size(), 4u);
  const std::uint32_t expected_ops[] = {spv::OpFMul, spv::OpFAdd, spv::OpFMul, spv::OpFAdd};
  for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(arithmetic[i][0] & 0xffff, expected_ops[i]) << i;
  EXPECT_EQ(arithmetic[1][3], arithmetic[0][2]); // add(product, c)
  EXPECT_EQ(arithmetic[2][3], arithmetic[1][2]); // the second Fma's a: the first's result
  std::vector<std::uint32_t> again = unfused;
  EXPECT_FALSE(unfuse_fma(again)); // nothing left to split
  EXPECT_EQ(again, unfused);
}

// forbid_contraction: the Fma split as above, then every float arithmetic result decorated
// NoContraction exactly once (one already decorated keeps its one decoration), in a valid module.
TEST(ExecuteContraction, ForbidDecoratesEveryFloatResultOnce) {
  std::string error;
  std::string text(kFmaText);
  // A multiply already decorated, as kiln's are where the shader does not allow refactoring.
  text.insert(text.find("OpDecorate %arr"), "OpDecorate %m NoContraction\n");
  text.insert(text.find("%r = OpExtInst"), "%m = OpFMul %float %a %b\n");
  const std::vector<std::uint32_t> module = assemble_spirv(text, &error, false);
  ASSERT_FALSE(module.empty()) << error;
  std::vector<std::uint32_t> exact = module;
  ASSERT_TRUE(forbid_contraction(exact));
  Status valid = validate_spirv(exact, SpirvTarget::Vulkan13);
  ASSERT_TRUE(valid) << valid.message();
  std::vector<std::uint32_t> results, decorated;
  for (std::size_t at = 5; at < exact.size(); at += exact[at] >> 16) {
    const std::uint32_t op = exact[at] & 0xffff;
    EXPECT_NE(op, spv::OpExtInst) << "an Fma is left";
    if (op == spv::OpFMul || op == spv::OpFAdd) results.push_back(exact[at + 2]);
    if (op == spv::OpDecorate && exact[at + 2] == spv::DecorationNoContraction)
      decorated.push_back(exact[at + 1]);
  }
  ASSERT_EQ(results.size(), 5u); // the decorated multiply and two split Fmas
  std::sort(results.begin(), results.end());
  std::sort(decorated.begin(), decorated.end());
  EXPECT_EQ(decorated, results);
  std::vector<std::uint32_t> again = exact;
  EXPECT_FALSE(forbid_contraction(again)); // nothing left to forbid
  EXPECT_EQ(again, exact);
}

// Two pixel shaders (x = mad(z/w, 0.5, 0.5), then frc(x*255) and frc(x*x*255), under
// refactoringAllowed) whose outputs differ by the last bit of a multiply that `frc` of a value
// near 255 makes 64-256 ULP: vkd3d-shader 1.2 emits the mad as Fma, kiln as a multiply and an add,
// and lavapipe fuses other multiplies into adds where a result is used once, differently in the
// two modules' shapes. Splitting the Fma alone does not make them agree; forbidding contraction
// in both does. They are `contraction`, never `match` or `differ` (docs/execution.md,
// "Contraction"); a real difference stays `differ` (BrokenTranslationIsCaught below).
TEST(ExecuteCorpus, ContractionExplainsTheLastBitDifferences) {
  KILN_REQUIRE_DIR(corpus_dir(), "../shared/corpus");
  ExecuteOptions options;
  for (const char* name : {"882942248a22.dxbc", "32ee6abce76d.dxbc"})
    options.paths.push_back((corpus_dir() / "dxbc" / name).string());
  options.progress = false;
  const ExecuteSummary summary = run_execute(options);
  if (!summary.setup_error.empty()) KILN_SKIP_OR_FAIL_IN_CI(summary.setup_error);
  ASSERT_EQ(summary.records.size(), options.paths.size());
  for (const ShaderRecord& r : summary.records) {
    EXPECT_EQ(r.verdict, Verdict::Contraction)
        << r.file << ": " << verdict_name(r.verdict) << ": " << r.reason;
    EXPECT_NE(r.reason.find("the driver fuses multiplies and adds"), std::string::npos) << r.reason;
  }
}

// A compute shader whose loop indexes its 2,048-entry TGSM array one past the end (for the
// last of its 1,024 threads): kiln's module once crashed lavapipe there, as SPIR-V leaves an
// out-of-range Workgroup access undefined; kiln now clamps the index (docs/pipeline.md, "Final
// form"). vkd3d-shader 1.2's module still crashes the driver, so kiln's run goes first.
TEST(ExecuteCorpus, OutOfRangeTgsmIndexRunsKilnsModule) {
  KILN_REQUIRE_DIR(corpus_dir(), "../shared/corpus");
  ExecuteOptions options;
  options.paths = {(corpus_dir() / "dxbc" / "794974277340.dxbc").string()};
  options.progress = false;
  const ExecuteSummary summary = run_execute(options);
  if (!summary.setup_error.empty()) KILN_SKIP_OR_FAIL_IN_CI(summary.setup_error);
  ASSERT_EQ(summary.records.size(), 1u);
  const ShaderRecord& r = summary.records[0];
  EXPECT_TRUE(r.kiln_first);
  const bool reference_crashed =
      r.verdict == Verdict::Crashed && r.reason.find("during run-vkd3d") != std::string::npos;
  EXPECT_TRUE(r.verdict == Verdict::Match || reference_crashed)
      << verdict_name(r.verdict) << ": " << r.reason;
}

// Class linkage: the slots of bf2d8852f930's interfaces (fp0[2], fp2[1], fp3[3]), a seeded
// selection of a table each slot's interface lists, another one when shifted, and the
// selection buffer's layout (docs/abi.md, "Class linkage").
TEST(ExecuteClassLinkage, SeededSelectionPicksListedTables) {
  KILN_REQUIRE_DIR(corpus_dir(), "../shared/corpus");
  const std::vector<std::uint8_t> bytes = read_bytes(corpus_dir() / "dxbc" / "bf2d8852f930.dxbc");
  ClassLinkageFacts facts;
  std::string why;
  ASSERT_TRUE(read_class_linkage(bytes, facts, why)) << why;
  const std::vector<std::vector<std::uint32_t>> expected = {{0, 1, 2}, {0, 1, 2}, {3, 4, 5},
                                                            {6, 7},    {6, 7},    {6, 7}};
  ASSERT_EQ(facts.tables_by_slot, expected);
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    const std::vector<ClassInstance> chosen = seeded_class_instances(facts, seed);
    const std::vector<ClassInstance> shifted = seeded_class_instances(facts, seed, 1);
    ASSERT_EQ(chosen.size(), expected.size());
    for (std::size_t slot = 0; slot < chosen.size(); ++slot) {
      const std::vector<std::uint32_t>& listed = expected[slot];
      EXPECT_NE(std::find(listed.begin(), listed.end(), chosen[slot].function_table), listed.end());
      EXPECT_NE(chosen[slot].function_table, shifted[slot].function_table);
      EXPECT_LT(chosen[slot].this_data[1], 4u);
      EXPECT_NE(chosen[slot].this_data[1], shifted[slot].this_data[1]);
    }
    const std::vector<std::uint32_t> words = selection_words(chosen);
    ASSERT_EQ(words.size(), 8 * chosen.size());
    for (std::size_t slot = 0; slot < chosen.size(); ++slot)
      EXPECT_EQ(words[8 * slot + 4], chosen[slot].function_table);
  }
  // A shader without interfaces has no slots.
  ASSERT_TRUE(
      read_class_linkage(read_bytes(corpus_dir() / "dxbc" / "001e00fc9a11.dxbc"), facts, why));
  EXPECT_TRUE(facts.empty());
}

// The corpus pixel shaders with class linkage (fcall through interfaces, one indexed at run
// time, one whose bodies return conditionally, one reading a constant buffer through `this`):
// vkd3d-shader 1.2 drops fcall and emits the bodies outside any block (spirv-val rejects its
// module), or aborts on `this`, so kiln's module runs alone, its seeded selection read from
// the selection buffer, and must agree with the same selection baked in; a wrong selection
// baked in (each slot's next table and `this` offset) must be caught.
TEST(ExecuteCorpus, ClassLinkageRunsKilnsModule) {
  KILN_REQUIRE_DIR(corpus_dir(), "../shared/corpus");
  ExecuteOptions options;
  for (const char* name :
       {"a0efb99eb90a.dxbc", "bf2d8852f930.dxbc", "f2e3fb45d7cd.dxbc", "f6206e261124.dxbc"})
    options.paths.push_back((corpus_dir() / "dxbc" / name).string());
  options.progress = false;
  for (bool wrong : {false, true}) {
    options.corrupt_kiln = wrong;
    const ExecuteSummary summary = run_execute(options);
    if (!summary.setup_error.empty()) KILN_SKIP_OR_FAIL_IN_CI(summary.setup_error);
    ASSERT_EQ(summary.records.size(), options.paths.size());
    for (const ShaderRecord& r : summary.records) {
      if (wrong) {
        EXPECT_EQ(r.verdict, Verdict::Differ) << r.file << ": " << r.reason;
        EXPECT_NE(r.reason.find("fixed-instance forms differ"), std::string::npos) << r.reason;
        continue;
      }
      EXPECT_EQ(r.verdict, Verdict::Vkd3dFailed)
          << r.file << ": " << verdict_name(r.verdict) << ": " << r.reason;
      EXPECT_NE(r.reason.find("fixed-instance forms agree"), std::string::npos) << r.reason;
      EXPECT_GT(r.words_compared, 0u);
      EXPECT_GT(r.kiln_run_ms, 0);
    }
  }
}

// --warm-driver: both translations built and run once, untimed, before the timed pair; the
// shaders still agree and carry all four times.
TEST(ExecuteCorpus, WarmedDriverTimesBothTranslations) {
  KILN_REQUIRE_DIR(corpus_dir(), "../shared/corpus");
  ExecuteOptions options;
  for (const char* name : {"001e00fc9a11.dxbc", "07056461e993.dxbc", "01f37c868905.dxbc"})
    options.paths.push_back((corpus_dir() / "dxbc" / name).string());
  options.progress = false;
  options.warm_driver = true;
  const ExecuteSummary summary = run_execute(options);
  if (!summary.setup_error.empty()) KILN_SKIP_OR_FAIL_IN_CI(summary.setup_error);
  EXPECT_TRUE(summary.warm_driver);
  ASSERT_EQ(summary.records.size(), options.paths.size());
  for (const ShaderRecord& r : summary.records) {
    EXPECT_EQ(r.verdict, Verdict::Match)
        << r.file << ": " << verdict_name(r.verdict) << ": " << r.reason;
    EXPECT_GT(r.input_bytes, 0u);
    EXPECT_GT(r.kiln_build_ms, 0);
    EXPECT_GT(r.vkd3d_build_ms, 0);
    EXPECT_GT(r.kiln_run_ms, 0);
    EXPECT_GT(r.vkd3d_run_ms, 0);
  }
}

// A long first run is timed again (ExecuteOptions::long_run_repeats), alternating, and the
// record holds the medians; with every run counting as long, each shader is timed 1 + 2 times,
// and the count comes back through the worker's pipe. Without warm_driver, once.
TEST(ExecuteCorpus, LongFirstRunsAreTimedAgain) {
  KILN_REQUIRE_DIR(corpus_dir(), "../shared/corpus");
  for (const bool warm_driver : {true, false}) {
    ExecuteOptions options;
    for (const char* name : {"001e00fc9a11.dxbc", "07056461e993.dxbc"})
      options.paths.push_back((corpus_dir() / "dxbc" / name).string());
    options.progress = false;
    options.warm_driver = warm_driver;
    options.long_run_repeats = 2;
    options.long_run_ms = 0;
    const ExecuteSummary summary = run_execute(options);
    if (!summary.setup_error.empty()) KILN_SKIP_OR_FAIL_IN_CI(summary.setup_error);
    ASSERT_EQ(summary.records.size(), options.paths.size());
    for (const ShaderRecord& r : summary.records) {
      EXPECT_EQ(r.verdict, Verdict::Match)
          << r.file << ": " << verdict_name(r.verdict) << ": " << r.reason;
      EXPECT_EQ(r.timed_pairs, warm_driver ? 3u : 1u) << r.file;
      EXPECT_GT(r.kiln_run_ms, 0);
      EXPECT_GT(r.vkd3d_run_ms, 0);
    }
  }
}

TEST(ExecuteCorpus, BrokenTranslationIsCaught) {
  KILN_REQUIRE_DIR(corpus_dir(), "../shared/corpus");
  ExecuteOptions options;
  options.paths = subset_paths();
  options.progress = false;
  options.corrupt_kiln = true;
  const ExecuteSummary summary = run_execute(options);
  if (!summary.setup_error.empty()) KILN_SKIP_OR_FAIL_IN_CI(summary.setup_error);
  std::size_t caught = 0;
  for (const ShaderRecord& r : summary.records) caught += r.verdict == Verdict::Differ;
  // Every subset shader has an operation whose swapped operands change what it writes.
  EXPECT_EQ(caught, summary.records.size());
}

// A runtime array of storage-buffer blocks at binding 1 and an array of four at binding 2, both
// indexed by a loaded word.
constexpr std::string_view kDescriptorArraysText = R"(
OpCapability Shader
OpCapability RuntimeDescriptorArray
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %out %unbounded %four
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %words ArrayStride 4
OpMemberDecorate %blk 0 Offset 0
OpDecorate %blk Block
OpDecorate %out DescriptorSet 0
OpDecorate %out Binding 0
OpDecorate %unbounded DescriptorSet 0
OpDecorate %unbounded Binding 1
OpDecorate %four DescriptorSet 0
OpDecorate %four Binding 2
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%int = OpTypeInt 32 1
%words = OpTypeRuntimeArray %uint
%blk = OpTypeStruct %words
%blks = OpTypeRuntimeArray %blk
%u4 = OpConstant %uint 4
%blks4 = OpTypeArray %blk %u4
%pblk = OpTypePointer StorageBuffer %blk
%pblks = OpTypePointer StorageBuffer %blks
%pblks4 = OpTypePointer StorageBuffer %blks4
%pu = OpTypePointer StorageBuffer %uint
%out = OpVariable %pblk StorageBuffer
%unbounded = OpVariable %pblks StorageBuffer
%four = OpVariable %pblks4 StorageBuffer
%u0 = OpConstant %uint 0
%main = OpFunction %void None %fn
%entry = OpLabel
%pi = OpAccessChain %pu %out %u0 %u0
%i = OpLoad %uint %pi
%si = OpBitcast %int %i
%pv = OpAccessChain %pu %unbounded %i %u0 %u0
%v = OpLoad %uint %pv
%pw = OpAccessChain %pu %four %si %u0 %u0
%w = OpLoad %uint %pw
%sum = OpIAdd %uint %v %w
OpStore %pi %sum
OpReturn
OpFunctionEnd
)";

// Both arrays are reduced to element 0: each access chain's index becomes UMin(index, 0) of its
// own type (the signed index keeps its type), the array of four becomes an array of one, with
// the GLSL.std.450 import added, in a valid module. A module without arrays is left alone.
TEST(ExecuteDescriptorArrays, EveryArrayIsReducedToElementZero) {
  std::string error;
  const std::vector<std::uint32_t> module = assemble_spirv(kDescriptorArraysText, &error, false);
  ASSERT_FALSE(module.empty()) << error;
  std::vector<std::uint32_t> plain = assemble_spirv(kFmaText, &error, false);
  ASSERT_FALSE(plain.empty()) << error;
  const std::vector<std::uint32_t> plain_before = plain;
  EXPECT_EQ(pin_descriptor_arrays(plain), 0u);
  EXPECT_EQ(plain, plain_before);

  std::vector<std::uint32_t> pinned = module;
  ASSERT_EQ(pin_descriptor_arrays(pinned), 2u);
  Status valid = validate_spirv(pinned, SpirvTarget::Vulkan13);
  ASSERT_TRUE(valid) << valid.message();
  std::map<std::uint32_t, std::uint32_t> constant_value, umin_of, umin_type;
  std::map<std::uint32_t, std::uint32_t> array_length; // OpTypeArray id -> its length's id
  std::vector<std::uint32_t> chain_indices;
  std::uint32_t four = 0, four_type = 0; // the variable at binding 2 and its pointer type
  std::map<std::uint32_t, std::uint32_t> pointee_of;
  for (std::size_t at = 5; at < pinned.size(); at += pinned[at] >> 16) {
    const std::uint32_t* w = &pinned[at];
    const auto op = spv::Op(w[0] & 0xffff);
    if (op == spv::OpDecorate && w[2] == spv::DecorationBinding && w[3] == 2) four = w[1];
    if (op == spv::OpConstant) constant_value[w[2]] = w[3];
    if (op == spv::OpTypeArray) array_length[w[1]] = w[3];
    if (op == spv::OpTypePointer) pointee_of[w[1]] = w[3];
    if (op == spv::OpVariable && w[2] == four) four_type = w[1];
    if (op == spv::OpExtInst && w[4] == GLSLstd450UMin) {
      umin_of[w[2]] = w[6];
      umin_type[w[2]] = w[1];
    }
    if (op == spv::OpAccessChain && (w[0] >> 16) == 7) chain_indices.push_back(w[4]);
  }
  ASSERT_EQ(chain_indices.size(), 2u);
  for (const std::uint32_t index : chain_indices) {
    ASSERT_TRUE(umin_of.count(index)) << "an array index is not clamped";
    EXPECT_EQ(constant_value[umin_of[index]], 0u);
  }
  EXPECT_NE(umin_type[chain_indices[0]], umin_type[chain_indices[1]]); // uint and int
  ASSERT_TRUE(array_length.count(pointee_of[four_type]));
  EXPECT_EQ(constant_value[array_length[pointee_of[four_type]]], 1u);
}

// A compute shader reads CBVs[] (unbounded) by thread id, 64 threads (lavapipe binds at most 15
// uniform buffers). With the array reduced to element 0 every thread of kiln's module reads the
// one seeded constant buffer, as vkd3d-shader's does, and they agree; with 15 elements bound
// and no clamp kiln's module read 0 past them (docs/execution.md, "Descriptor arrays").
TEST(ExecuteCorpus, UnboundedArrayPastTheDeviceLimitAgrees) {
  KILN_REQUIRE_DIR(corpus_dir(), "../shared/corpus");
  ExecuteOptions options;
  options.paths = {(corpus_dir() / "dxbc" / "16f5f80b22db.dxbc").string()};
  options.progress = false;
  const ExecuteSummary summary = run_execute(options);
  if (!summary.setup_error.empty()) KILN_SKIP_OR_FAIL_IN_CI(summary.setup_error);
  ASSERT_EQ(summary.records.size(), 1u);
  EXPECT_EQ(summary.records[0].verdict, Verdict::Match) << summary.records[0].reason;
}

} // namespace
} // namespace kiln::test
