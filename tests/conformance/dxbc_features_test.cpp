// DXBC features the shared package does not exercise, executed on lavapipe by kiln-conformance's
// executor with hand-assembled SM5 programs (tests/translator/dxbc/token_builder.h): the structured
// control flow table (tests/translator/dxbc/control_flow_cases.h), sparse-feedback loads from buffers,
// hull-shader fork/join phases that return from inside their control flow, a signature whose
// packed register holds elements of several types and interpolation modes, and the layer and
// viewport chosen by a vertex shader. Expected values are worked out here.

#include "tests/conformance/executor.h"
#include "tests/conformance/one_case_fixture.h"
#include "tests/translator/dxbc/control_flow_cases.h"
#include "tests/translator/dxbc/flow_call_program.h"
#include "tests/translator/dxbc/linkage_program.h"
#include "tests/translator/dxbc/random_flow.h"
#include "tests/translator/dxbc/token_builder.h"
#include "tests/support/shared_data.h"
#include "translator/ir/ir.h"
#include "translator/ir/ir_text.h"
#include "translator/spirv/validate.h"
#include "translator/translate.h"

#include <cstdio>
#include <cstring>
#include <fstream>
#include <gtest/gtest.h>
#include <unistd.h>

namespace kiln::conformance {
namespace {

using namespace kiln::dxbc;
using namespace kiln::dxbc::test;
using OT = OperandType;

constexpr std::uint32_t kNonZero = 1u << 18;

// ---- token helpers ----------------------------------------------------------------------------

std::uint32_t dst(OT type, std::uint32_t m) {
  return operand_token(type, kComp4, mask(m), 1);
}
std::uint32_t src(OT type, std::uint32_t x = 0, std::uint32_t y = 1, std::uint32_t z = 2,
                  std::uint32_t w = 3) {
  return operand_token(type, kComp4, swizzle(x, y, z, w), 1);
}
std::uint32_t src1(OT type, std::uint32_t c) {
  return operand_token(type, kComp4, select1(c), 1);
}
std::uint32_t decl(OT type) {
  return operand_token(type, kComp0, 0, 1);
}
std::uint32_t imm1() {
  return operand_token(OT::Immediate32, kComp1, 0, 0);
}
std::uint32_t imm4() {
  return operand_token(OT::Immediate32, kComp4, 0, 0);
}
std::uint32_t f(float v) {
  std::uint32_t u;
  std::memcpy(&u, &v, 4);
  return u;
}
constexpr std::uint32_t returns(ReturnType t) {
  return std::uint32_t(t) * 0x1111u;
}
constexpr std::uint32_t dim_bits(dxbc::ResourceDimension d) {
  return std::uint32_t(d) << 11;
}

// A container with the program and its signature chunks (empty chunks are left out).
std::vector<std::uint8_t> container(const std::vector<std::uint32_t>& program,
                                    std::vector<std::uint8_t> isgn = {},
                                    std::vector<std::uint8_t> osgn = {},
                                    std::vector<std::uint8_t> pcsg = {}) {
  std::vector<ChunkSpec> chunks = {{fourcc('S', 'H', 'E', 'X'), bytes_of(program)}};
  if (!isgn.empty()) chunks.push_back({fourcc('I', 'S', 'G', 'N'), std::move(isgn)});
  if (!osgn.empty()) chunks.push_back({fourcc('O', 'S', 'G', 'N'), std::move(osgn)});
  if (!pcsg.empty()) chunks.push_back({fourcc('P', 'C', 'S', 'G'), std::move(pcsg)});
  return make_container(chunks);
}

// ---- running a script -------------------------------------------------------------------------

struct Blob {
  const char* stage; // "vs", "hs", "ds", "ps", "cs"
  std::vector<std::uint8_t> bytes;
};

class DxbcFeatures : public OneCaseFixture<::testing::Test> {
 protected:
  DxbcFeatures() : OneCaseFixture("dxbc_features") {}

  // Replays `state` (resource sections) and `commands` at sm5 with the blobs bound, kiln
  // translating under `interface`.
  CaseResult run(const std::vector<Blob>& blobs, const std::string& state,
                 const std::vector<std::string>& commands,
                 std::shared_ptr<const ShaderInterface> interface = runner_interface()) {
    return run_on(*context_, blobs, state, commands, std::move(interface));
  }

  // The same on `device` (a context made with options of the test's own).
  CaseResult run_on(vulkan::Context& device, const std::vector<Blob>& blobs,
                    const std::string& state, const std::vector<std::string>& commands,
                    std::shared_ptr<const ShaderInterface> interface = runner_interface()) {
    std::map<std::string, std::filesystem::path> paths;
    for (const Blob& b : blobs) {
      const std::filesystem::path path = folder_ / (std::string(b.stage) + ".dxbc");
      std::ofstream(path, std::ios::binary)
          .write(reinterpret_cast<const char*>(b.bytes.data()), std::streamsize(b.bytes.size()));
      paths[b.stage] = path;
    }
    const TestFile file = one_case_file("dxbc-features", folder_, "sm5", state, paths, commands);
    KilnShaderSource kiln(std::move(interface));
    Executor executor(device, kiln);
    std::vector<CaseResult> results;
    executor.run_file(file, "sm5", -1, results);
    EXPECT_EQ(results.size(), 1u);
    return results.empty() ? CaseResult{} : results[0];
  }
};

#define EXPECT_PASSES(result)                                                                      \
  do {                                                                                             \
    const CaseResult r = (result);                                                                 \
    EXPECT_EQ(r.outcome, Outcome::Pass) << r.message;                                              \
    EXPECT_GT(r.probes, 0u);                                                                       \
    EXPECT_EQ(r.probes_passed, r.probes);                                                          \
  } while (0)

std::string u32_probe(unsigned uav, unsigned index, std::uint32_t value) {
  return "probe uav " + std::to_string(uav) + " (" + std::to_string(index) + ") u32(" +
         std::to_string(value) + ")";
}

// ---- structured control flow ------------------------------------------------------------------

TEST_F(DxbcFeatures, ControlFlowNestingsComputeTheRightValues) {
  const std::string state = "[uav 0]\nformat r32-typeless\nsize (raw_buffer, 8)\n"
                            "0 0 0 0 0 0 0 0\n";
  for (const FlowCase& c : flow_cases()) {
    SCOPED_TRACE(c.name);
    std::vector<std::string> commands = {"dispatch 1 1 1"};
    for (std::uint32_t t = 0; t < kFlowThreads; ++t)
      commands.push_back(u32_probe(0, t, c.expected(t)));
    EXPECT_PASSES(run({{"cs", shader_container(flow_program(c.body))}}, state, commands));
  }
}

// Random legal nestings (RandomFlow), each thread's value from the CPU interpreter.
TEST_F(DxbcFeatures, RandomControlFlowNestingsComputeWhatTheInterpreterDoes) {
  const std::string state = "[uav 0]\nformat r32-typeless\nsize (raw_buffer, 8)\n"
                            "0 0 0 0 0 0 0 0\n";
  for (std::uint32_t seed = 1; seed <= 100; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    const FlowBody body = RandomFlow(seed).make();
    std::vector<std::string> commands = {"dispatch 1 1 1"};
    for (std::uint32_t t = 0; t < kFlowThreads; ++t) {
      std::uint32_t value = 0;
      ASSERT_TRUE(interpret_flow(body, t, value));
      commands.push_back(u32_probe(0, t, value));
    }
    EXPECT_PASSES(run({{"cs", shader_container(flow_program(body))}}, state, commands));
  }
}

// A wrong expectation fails: the table's probes can tell results apart.
TEST_F(DxbcFeatures, AWrongControlFlowResultFails) {
  const FlowCase c = flow_cases().front();
  const CaseResult r = run({{"cs", shader_container(flow_program(c.body))}},
                           "[uav 0]\nformat r32-typeless\nsize (raw_buffer, 8)\n0 0 0 0 0 0 0 0\n",
                           {"dispatch 1 1 1", u32_probe(0, 3, c.expected(3) + 1)});
  EXPECT_EQ(r.outcome, Outcome::Fail);
}

// The table and random nestings as inlined bodies (tests/translator/dxbc/flow_call_program.h): a
// subroutine, a subroutine called from a loop of another, and a class-linkage function body
// (fcall; the runner's zero-filled selection buffer selects ft0). Their returns from inside
// loops, switches and ifs leave only the body; the value each thread stores is r0.x at that
// point, from the CPU interpreter.
TEST_F(DxbcFeatures, ReturnsFromInsideInlinedBodiesLeaveOnlyTheBody) {
  const std::string state = "[uav 0]\nformat r32-typeless\nsize (raw_buffer, 8)\n"
                            "0 0 0 0 0 0 0 0\n";
  std::vector<FlowBody> bodies;
  for (const FlowCase& c : flow_cases()) bodies.push_back(c.body);
  for (std::uint32_t seed = 1; seed <= 100; ++seed) bodies.push_back(RandomFlow(seed).make());
  for (FlowCall form : kFlowCalls) {
    for (std::size_t i = 0; i < bodies.size(); ++i) {
      SCOPED_TRACE(std::string(flow_call_name(form)) + ", body " + std::to_string(i));
      std::vector<std::string> commands = {"dispatch 1 1 1"};
      for (std::uint32_t t = 0; t < kFlowThreads; ++t) {
        std::uint32_t value = 0;
        ASSERT_TRUE(flow_call_expected(bodies[i], form, t, value));
        commands.push_back(u32_probe(0, t, value));
      }
      EXPECT_PASSES(
          run({{"cs", shader_container(flow_call_program(bodies[i], form))}}, state, commands));
    }
  }
}

// ---- resources a class instance chooses ------------------------------------------------------

// tests/translator/dxbc/linkage_program.h: a function body samples t[this.z + 1] with s[this.w], loads
// t[this.z] and stores this.x to u[this.z + 1]. The selection comes from cb0 (the interface
// moves the selection register there), which the script's uniforms fill: one module, four
// instances, each reading the texture and sampler and writing the UAV its `this` names (a
// buffer, or no declared register, reads zeros; a store to no declared UAV is dropped).
TEST_F(DxbcFeatures, AClassInstanceChoosesItsTextureSamplerAndUav) {
  auto interface = std::make_shared<ShaderInterface>(*runner_interface());
  interface->class_linkage.register_index = 0;
  std::string state = "[sampler 0]\nfilter point point point\naddress clamp clamp clamp\n"
                      "[sampler 1]\nfilter point point point\naddress wrap wrap wrap\n"
                      "[srv 3]\nformat r32-float\nsize (buffer, 4)\n5.0 6.0 7.0 8.0\n"
                      "[uav 0]\nformat r32-typeless\nsize (raw_buffer, 2)\n0 0\n"
                      "[uav 1]\nformat r32-typeless\nsize (raw_buffer, 1)\n0\n"
                      "[uav 2]\nformat r32-typeless\nsize (raw_buffer, 1)\n0\n";
  for (std::uint32_t t = 0, k = 1; t < kChosenTextures; ++t, k *= 10) {
    state += "[srv " + std::to_string(t) + "]\nformat r32-float\nsize (2d, 2, 2)\n";
    for (std::uint32_t i = 1; i <= 4; ++i) state += std::to_string(i * k) + ".0 "; // floats
    state += "\n";
  }
  std::vector<std::string> commands;
  // texture, sampler; this.x (the store's value) is 50 + the instance's position.
  const std::uint32_t instances[][2] = {{0, 0}, {1, 1}, {2, 0}, {6, 1}};
  std::uint32_t uav[kChosenUavs] = {};
  for (std::uint32_t i = 0; i < std::size(instances); ++i) {
    const auto [texture, sampler] = instances[i];
    // this = (cb, vector, texture, sampler); the function table (ft0) in the next vector.
    commands.push_back("uniform 0 uint4 " + std::to_string(50 + i) + " 0 " +
                       std::to_string(texture) + " " + std::to_string(sampler));
    commands.push_back("uniform 4 uint4 0 0 0 0");
    commands.push_back("dispatch 1 1 1");
    const auto expected = linkage_texture_expected(texture, sampler);
    commands.push_back(u32_probe(0, 0, expected[0]));
    commands.push_back(u32_probe(0, 1, expected[1]));
    if (texture + 1 < kChosenUavs) uav[texture + 1] = 50 + i;
    for (unsigned u = 1; u < kChosenUavs; ++u) commands.push_back(u32_probe(u, 0, uav[u]));
  }
  EXPECT_PASSES(
      run({{"cs", shader_container(linkage_texture_program())}}, state, commands, interface));
}

// ---- sparse feedback on buffers ---------------------------------------------------------------

// cs_5_0, one thread: ld_raw_s, ld_structured_s, ld_s (typed buffer SRV) and ld_uav_typed_s
// (typed buffer UAV), each followed by check_access_fully_mapped of its status; the values go
// to u0[0..3], the mapped results to u0[4..7].
std::vector<std::uint32_t> sparse_buffer_program() {
  ProgramBuilder p(ProgramType::Compute, 5, 0);
  p.inst(Opcode::DclResourceRaw, {decl(OT::Resource), 0});
  p.inst(Opcode::DclResourceStructured, {decl(OT::Resource), 1, 8});
  p.inst(Opcode::DclResource, {decl(OT::Resource), 2, returns(ReturnType::UInt)},
         dim_bits(dxbc::ResourceDimension::Buffer));
  p.inst(Opcode::DclUavRaw, {decl(OT::Uav), 0});
  p.inst(Opcode::DclUavTyped, {decl(OT::Uav), 1, returns(ReturnType::UInt)},
         dim_bits(dxbc::ResourceDimension::Buffer));
  p.inst(Opcode::DclTemps, {2});
  p.inst(Opcode::DclThreadGroup, {1, 1, 1});
  // ld_raw_s r0.x, r1.x, l(4), t0.xxxx ; check_access_fully_mapped r1.x, r1.x
  p.inst(Opcode::LdRawS,
         {dst(OT::Temp, 1), 0, dst(OT::Temp, 1), 1, imm1(), 4, src(OT::Resource, 0, 0, 0, 0), 0});
  p.inst(Opcode::CheckAccessFullyMapped, {dst(OT::Temp, 1), 1, src1(OT::Temp, 0), 1});
  // ld_structured_s r0.y, r1.y, l(1), l(4), t1.xxxx
  p.inst(Opcode::LdStructuredS, {dst(OT::Temp, 2), 0, dst(OT::Temp, 2), 1, imm1(), 1, imm1(), 4,
                                 src(OT::Resource, 0, 0, 0, 0), 1});
  p.inst(Opcode::CheckAccessFullyMapped, {dst(OT::Temp, 2), 1, src1(OT::Temp, 1), 1});
  // ld_s r0.z, r1.z, l(2, 0, 0, 0), t2.xxxx
  p.inst(Opcode::LdS, {dst(OT::Temp, 4), 0, dst(OT::Temp, 4), 1, imm4(), 2, 0, 0, 0,
                       src(OT::Resource, 0, 0, 0, 0), 2});
  p.inst(Opcode::CheckAccessFullyMapped, {dst(OT::Temp, 4), 1, src1(OT::Temp, 2), 1});
  // ld_uav_typed_s r0.w, r1.w, l(3, 0, 0, 0), u1.xxxx
  p.inst(Opcode::LdUavTypedS, {dst(OT::Temp, 8), 0, dst(OT::Temp, 8), 1, imm4(), 3, 0, 0, 0,
                               src(OT::Uav, 0, 0, 0, 0), 1});
  p.inst(Opcode::CheckAccessFullyMapped, {dst(OT::Temp, 8), 1, src1(OT::Temp, 3), 1});
  // store_raw u0.xyzw, l(0), r0.xyzw ; store_raw u0.xyzw, l(16), r1.xyzw
  p.inst(Opcode::StoreRaw, {dst(OT::Uav, 0xf), 0, imm1(), 0, src(OT::Temp), 0});
  p.inst(Opcode::StoreRaw, {dst(OT::Uav, 0xf), 0, imm1(), 16, src(OT::Temp), 1});
  p.inst(Opcode::Ret, {});
  return p.finish();
}

TEST_F(DxbcFeatures, SparseFeedbackLoadsFromBuffersReadAndReportMapped) {
  const std::string state = "[srv 0]\nformat r32-typeless\nsize (raw_buffer, 4)\n10 11 12 13\n"
                            "[srv 1]\nstride 8\nsize (buffer, 2)\n20 21 22 23\n"
                            "[srv 2]\nformat r32-uint\nsize (buffer, 4)\n30 31 32 33\n"
                            "[uav 0]\nformat r32-typeless\nsize (raw_buffer, 8)\n"
                            "0 0 0 0 0 0 0 0\n"
                            "[uav 1]\nformat r32-uint\nsize (buffer, 4)\n40 41 42 43\n";
  std::vector<std::string> commands = {"dispatch 1 1 1", u32_probe(0, 0, 11), u32_probe(0, 1, 23),
                                       u32_probe(0, 2, 32), u32_probe(0, 3, 43)};
  for (unsigned i = 4; i < 8; ++i) commands.push_back(u32_probe(0, i, 0xffffffffu));
  EXPECT_PASSES(run({{"cs", shader_container(sparse_buffer_program())}}, state, commands));
}

// ---- buffer sizes -------------------------------------------------------------------------------

// cs_5_0, one thread: bufinfo of a raw, a structured (stride 4) and a typed float SRV (t0..t2)
// and of a raw, a structured (stride 20) and a typed float UAV (u1..u3), each stored with all
// four components to u0 from byte 16 * i on.
std::vector<std::uint32_t> buffer_sizes_program() {
  ProgramBuilder p(ProgramType::Compute, 5, 0);
  p.inst(Opcode::DclResourceRaw, {decl(OT::Resource), 0});
  p.inst(Opcode::DclResourceStructured, {decl(OT::Resource), 1, 4});
  p.inst(Opcode::DclResource, {decl(OT::Resource), 2, returns(ReturnType::Float)},
         dim_bits(dxbc::ResourceDimension::Buffer));
  p.inst(Opcode::DclUavRaw, {decl(OT::Uav), 0});
  p.inst(Opcode::DclUavRaw, {decl(OT::Uav), 1});
  p.inst(Opcode::DclUavStructured, {decl(OT::Uav), 2, 20});
  p.inst(Opcode::DclUavTyped, {decl(OT::Uav), 3, returns(ReturnType::Float)},
         dim_bits(dxbc::ResourceDimension::Buffer));
  p.inst(Opcode::DclTemps, {1});
  p.inst(Opcode::DclThreadGroup, {1, 1, 1});
  const std::pair<OT, std::uint32_t> views[] = {{OT::Resource, 0}, {OT::Resource, 1},
                                                {OT::Resource, 2}, {OT::Uav, 1},
                                                {OT::Uav, 2},      {OT::Uav, 3}};
  std::uint32_t at = 0;
  for (const auto& [type, index] : views) {
    p.inst(Opcode::BufInfo, {dst(OT::Temp, 0xf), 0, src(type, 0, 0, 0, 0), index});
    p.inst(Opcode::StoreRaw, {dst(OT::Uav, 0xf), 0, imm1(), at, src(OT::Temp), 0});
    at += 16;
  }
  p.inst(Opcode::Ret, {});
  return p.finish();
}

// `count` words of data.
std::string words(unsigned count) {
  std::string line;
  for (unsigned i = 0; i < count; ++i) line += (i ? " " : "") + std::to_string(i);
  return line + "\n";
}

// D3D's sizes: a raw view's bytes, a structured view's elements, a typed view's elements, in
// every component; the buffers in both forms a layer may bind them in (texel buffers, storage
// buffers).
TEST_F(DxbcFeatures, BufferSizesAreD3DsInEveryBufferForm) {
  // The runner's buffers are whole multiples of 16 bytes and its views cover them: sizes here
  // are such multiples.
  const std::string state = "[srv 0]\nformat r32-typeless\nsize (raw_buffer, 28)\n" + words(28) +
                            "[srv 1]\nstride 4\nsize (buffer, 8)\n" + words(8) +
                            "[srv 2]\nformat r32-float\nsize (buffer, 52)\n" + words(52) +
                            "[uav 0]\nformat r32-typeless\nsize (raw_buffer, 24)\n" + words(24) +
                            "[uav 1]\nformat r32-typeless\nsize (raw_buffer, 64)\n" + words(64) +
                            "[uav 2]\nstride 20\nsize (buffer, 4)\n" + words(20) +
                            "[uav 3]\nformat r32-float\nsize (buffer, 8)\n" + words(8);
  const std::uint32_t expected[] = {112, 8, 52, 256, 4, 8};
  std::vector<std::string> commands = {"dispatch 1 1 1"};
  for (unsigned i = 0; i < 24; ++i) commands.push_back(u32_probe(0, i, expected[i / 4]));
  // Texel buffers, as vkd3d-shader binds them: raw and structured views are R32_UINT texels.
  SCOPED_TRACE("texel buffers");
  EXPECT_PASSES(run({{"cs", shader_container(buffer_sizes_program())}}, state, commands));
  // Storage buffers for raw and structured SRVs and UAVs (typed views stay texel buffers).
  auto storage = std::make_shared<ShaderInterface>(*runner_interface());
  for (BindingRange& range : storage->bindings)
    range.buffer_form = BindingRange::BufferForm::StorageBuffer;
  SCOPED_TRACE("storage buffers");
  EXPECT_PASSES(run({{"cs", shader_container(buffer_sizes_program())}}, state, commands, storage));
}

// ---- NaN from constant operands ---------------------------------------------------------------

// cs_5_0, one thread: float arithmetic on literals whose result is a NaN, stored to u0[0..3]:
// inf + -inf, the NaN 0xffc00000 built by an integer add (a constant the float ops read
// through a bit cast) + 1 and * 1, and 0 / 0. Folding must not put the host's NaN where the
// device gives its own. (0 * inf is not among them: lavapipe's compiler makes x * 0 zero.)
std::vector<std::uint32_t> nan_program() {
  ProgramBuilder p(ProgramType::Compute, 5, 0);
  p.inst(Opcode::DclUavRaw, {decl(OT::Uav), 0});
  p.inst(Opcode::DclTemps, {2});
  p.inst(Opcode::DclThreadGroup, {1, 1, 1});
  const std::uint32_t inf = 0x7f800000u, negative_inf = 0xff800000u;
  p.inst(Opcode::Add, {dst(OT::Temp, 1), 0, imm1(), inf, imm1(), negative_inf});
  p.inst(Opcode::Div, {dst(OT::Temp, 4), 0, imm1(), 0, imm1(), 0});
  p.inst(Opcode::IAdd, {dst(OT::Temp, 1), 1, imm1(), 0x7fc00000u, imm1(), 0x80000000u});
  p.inst(Opcode::Add, {dst(OT::Temp, 2), 0, src1(OT::Temp, 0), 1, imm1(), f(1.0f)});
  p.inst(Opcode::Mul, {dst(OT::Temp, 8), 0, src1(OT::Temp, 0), 1, imm1(), f(1.0f)});
  p.inst(Opcode::StoreRaw, {dst(OT::Uav, 0xf), 0, imm1(), 0, src(OT::Temp), 0});
  p.inst(Opcode::Ret, {});
  return p.finish();
}

// D3D's NaN, which lavapipe (like hardware) gives for each; kiln folded the first, second and
// fourth to the host's 0x7fc00000.
TEST_F(DxbcFeatures, NanFromConstantOperandsIsTheDevicesNan) {
  const std::string state = "[uav 0]\nformat r32-typeless\nsize (raw_buffer, 4)\n0 0 0 0\n";
  std::vector<std::string> commands = {"dispatch 1 1 1"};
  for (unsigned i = 0; i < 4; ++i) commands.push_back(u32_probe(0, i, 0xffc00000u));
  EXPECT_PASSES(run({{"cs", shader_container(nan_program())}}, state, commands));
}

// ---- hull-shader phases that return from inside their control flow ------------------------------

// Signature system values (D3D_NAME) and component types.
constexpr std::uint32_t kSvPosition = 1, kSvTriEdge = 13, kSvTriInside = 14, kSvTarget = 64;
constexpr std::uint32_t kFloat = 3, kUint = 1;
// Token system values (D3D10_SB_NAME) of dcl_output_siv.
constexpr std::uint32_t kNamePosition = 1, kNameTriUEdge = 17, kNameTriInside = 20;

const std::vector<std::uint8_t>& position_signature() {
  static const std::vector<std::uint8_t> sig =
      signature({{"SV_Position", 0, kSvPosition, kFloat, 0, 0xf}});
  return sig;
}
// Tess factors in o0..o3.x, the colour the phases build in o4.
const std::vector<std::uint8_t>& patch_signature() {
  static const std::vector<std::uint8_t> sig =
      signature({{"SV_TessFactor", 0, kSvTriEdge, kFloat, 0, 0x1},
                 {"SV_TessFactor", 1, kSvTriEdge, kFloat, 1, 0x1},
                 {"SV_TessFactor", 2, kSvTriEdge, kFloat, 2, 0x1},
                 {"SV_InsideTessFactor", 0, kSvTriInside, kFloat, 3, 0x1},
                 {"COLOR", 0, 0, kFloat, 4, 0xf}});
  return sig;
}

// vs_5_0: o0 = v0 (POSITION -> SV_Position).
std::vector<std::uint8_t> passthrough_vs() {
  ProgramBuilder p(ProgramType::Vertex, 5, 0);
  p.inst(Opcode::DclInput, {dst(OT::Input, 0xf), 0});
  p.inst(Opcode::DclOutputSiv, {dst(OT::Output, 0xf), 0, kNamePosition});
  p.inst(Opcode::Mov, {dst(OT::Output, 0xf), 0, src(OT::Input), 0});
  p.inst(Opcode::Ret, {});
  return container(p.finish(), signature({{"POSITION", 0, 0, kFloat, 0, 0xf}}),
                   position_signature());
}

// hs_5_0, tri domain, 3 control points passed through. Fork phase 1 sets the tess factors to 1.
// Fork phase 2 (2 instances) walks a loop to its instance: instance 0 writes o4.x = 0.25 and
// returns from inside an if inside an if inside the loop, instance 1 leaves the loop by break
// and writes o4.y = 0.5. The join phase writes o4.zw = (0.75, 1) and leaves by retc before
// overwriting o4.z. Each return must end only its own phase instance.
std::vector<std::uint8_t> returning_hs() {
  ProgramBuilder p(ProgramType::Hull, 5, 0);
  const std::uint32_t fork_id = operand_token(OT::InputForkInstanceId, kComp1, 0, 0);
  p.inst(Opcode::HsDecls, {});
  p.inst(Opcode::DclInputControlPointCount, {}, 3u << 11);
  p.inst(Opcode::DclOutputControlPointCount, {}, 3u << 11);
  p.inst(Opcode::DclTessDomain, {}, 2u << 11);          // tri
  p.inst(Opcode::DclTessPartitioning, {}, 1u << 11);    // integer
  p.inst(Opcode::DclTessOutputPrimitive, {}, 3u << 11); // triangle_cw
  // Fork phase 1: tess factors.
  p.inst(Opcode::HsForkPhase, {});
  for (std::uint32_t i = 0; i < 3; ++i)
    p.inst(Opcode::DclOutputSiv, {dst(OT::Output, 1), i, kNameTriUEdge + i});
  p.inst(Opcode::DclOutputSiv, {dst(OT::Output, 1), 3, kNameTriInside});
  for (std::uint32_t i = 0; i < 4; ++i)
    p.inst(Opcode::Mov, {dst(OT::Output, 1), i, imm1(), f(1.0f)});
  p.inst(Opcode::Ret, {});
  // Fork phase 2.
  p.inst(Opcode::HsForkPhase, {});
  p.inst(Opcode::DclHsForkPhaseInstanceCount, {2});
  p.inst(Opcode::DclInput, {fork_id});
  p.inst(Opcode::DclOutput, {dst(OT::Output, 1), 4});
  p.inst(Opcode::DclOutput, {dst(OT::Output, 2), 4});
  p.inst(Opcode::DclTemps, {2});
  p.inst(Opcode::Mov, {dst(OT::Temp, 1), 0, imm1(), 0});
  p.inst(Opcode::Loop, {});
  p.inst(Opcode::IEq, {dst(OT::Temp, 1), 1, src1(OT::Temp, 0), 0, fork_id});
  p.inst(Opcode::If, {src1(OT::Temp, 0), 1}, kNonZero);
  p.inst(Opcode::IEq, {dst(OT::Temp, 2), 1, fork_id, imm1(), 0});
  p.inst(Opcode::If, {src1(OT::Temp, 1), 1}, kNonZero);
  p.inst(Opcode::Mov, {dst(OT::Output, 1), 4, imm1(), f(0.25f)});
  p.inst(Opcode::Ret, {});
  p.inst(Opcode::EndIf, {});
  p.inst(Opcode::Break, {});
  p.inst(Opcode::EndIf, {});
  p.inst(Opcode::IAdd, {dst(OT::Temp, 1), 0, src1(OT::Temp, 0), 0, imm1(), 1});
  p.inst(Opcode::EndLoop, {});
  p.inst(Opcode::Mov, {dst(OT::Output, 2), 4, imm1(), f(0.5f)});
  p.inst(Opcode::Ret, {});
  // Join phase.
  p.inst(Opcode::HsJoinPhase, {});
  p.inst(Opcode::DclOutput, {dst(OT::Output, 4), 4});
  p.inst(Opcode::DclOutput, {dst(OT::Output, 8), 4});
  p.inst(Opcode::DclTemps, {1});
  p.inst(Opcode::Mov, {dst(OT::Output, 4), 4, imm1(), f(0.75f)});
  p.inst(Opcode::Mov, {dst(OT::Output, 8), 4, imm1(), f(1.0f)});
  p.inst(Opcode::Mov, {dst(OT::Temp, 1), 0, imm1(), 0xffffffffu});
  p.inst(Opcode::Retc, {src1(OT::Temp, 0), 0}, kNonZero);
  p.inst(Opcode::Mov, {dst(OT::Output, 4), 4, imm1(), f(0.0f)});
  p.inst(Opcode::Ret, {});
  return container(p.finish(), position_signature(), position_signature(), patch_signature());
}

// ds_5_0: position from the barycentric control points, o1 = the patch colour vpc4.
std::vector<std::uint8_t> colour_ds() {
  ProgramBuilder p(ProgramType::Domain, 5, 0);
  const std::uint32_t vicp = operand_token(OT::InputControlPoint, kComp4, swizzle(0, 1, 2, 3), 2);
  const std::uint32_t domain = operand_token(OT::InputDomainPoint, kComp4, mask(7), 0);
  p.inst(Opcode::DclInputControlPointCount, {}, 3u << 11);
  p.inst(Opcode::DclTessDomain, {}, 2u << 11);
  p.inst(Opcode::DclInput, {domain});
  p.inst(Opcode::DclInput, {operand_token(OT::InputControlPoint, kComp4, mask(0xf), 2), 3, 0});
  p.inst(Opcode::DclInput, {operand_token(OT::InputPatchConstant, kComp4, mask(0xf), 1), 4});
  p.inst(Opcode::DclOutputSiv, {dst(OT::Output, 0xf), 0, kNamePosition});
  p.inst(Opcode::DclOutput, {dst(OT::Output, 0xf), 1});
  p.inst(Opcode::DclTemps, {1});
  const auto dom = [](std::uint32_t c) {
    return operand_token(OT::InputDomainPoint, kComp4, select1(c), 0);
  };
  p.inst(Opcode::Mul, {dst(OT::Temp, 0xf), 0, dom(0), vicp, 0, 0});
  p.inst(Opcode::Mad, {dst(OT::Temp, 0xf), 0, dom(1), vicp, 1, 0, src(OT::Temp), 0});
  p.inst(Opcode::Mad, {dst(OT::Output, 0xf), 0, dom(2), vicp, 2, 0, src(OT::Temp), 0});
  p.inst(Opcode::Mov, {dst(OT::Output, 0xf), 1,
                       operand_token(OT::InputPatchConstant, kComp4, swizzle(0, 1, 2, 3), 1), 4});
  p.inst(Opcode::Ret, {});
  return container(
      p.finish(), position_signature(),
      signature({{"SV_Position", 0, kSvPosition, kFloat, 0, 0xf}, {"COLOR", 0, 0, kFloat, 1, 0xf}}),
      patch_signature());
}

// ps_5_0: o0 = v1.
std::vector<std::uint8_t> colour_ps() {
  ProgramBuilder p(ProgramType::Pixel, 5, 0);
  p.inst(Opcode::DclInputPs, {dst(OT::Input, 0xf), 1}, 2u << 11); // linear
  p.inst(Opcode::DclOutput, {dst(OT::Output, 0xf), 0});
  p.inst(Opcode::Mov, {dst(OT::Output, 0xf), 0, src(OT::Input), 1});
  p.inst(Opcode::Ret, {});
  return container(
      p.finish(),
      signature({{"SV_Position", 0, kSvPosition, kFloat, 0, 0xf}, {"COLOR", 0, 0, kFloat, 1, 0xf}}),
      signature({{"SV_Target", 0, kSvTarget, kFloat, 0, 0xf}}));
}

// A triangle covering the viewport, one patch of three control points.
const char* const kCoveringPatch = "[input layout]\n0 r32g32b32a32-float position\n[vb 0]\n"
                                   "-1.0 -1.0 0.0 1.0\n-1.0 3.0 0.0 1.0\n3.0 -1.0 0.0 1.0\n";

TEST_F(DxbcFeatures, HullPhaseReturnsLeaveOnlyTheirPhaseInstance) {
  EXPECT_PASSES(run(
      {{"vs", passthrough_vs()}, {"hs", returning_hs()}, {"ds", colour_ds()}, {"ps", colour_ps()}},
      kCoveringPatch,
      {"clear rtv 0 0.0 0.0 0.0 0.0", "draw 3 control point patch list 3",
       "probe (320, 240) rgba(0.25, 0.5, 0.75, 1.0)",
       "probe (10, 10) rgba(0.25, 0.5, 0.75, 1.0)"}));
}

// ---- signatures packing several elements into one register ------------------------------------

// vs_5_0: SV_Position from v0; o1 packs A (o1.x, float), B (o1.y, uint) and C (o1.zw, float)
// from v1, declared per element as fxc does.
std::vector<std::uint8_t> packed_signature() {
  return signature({{"SV_Position", 0, kSvPosition, kFloat, 0, 0xf},
                    {"A", 0, 0, kFloat, 1, 0x1},
                    {"B", 0, 0, kUint, 1, 0x2},
                    {"C", 0, 0, kFloat, 1, 0xc}});
}

std::vector<std::uint8_t> packed_vs() {
  ProgramBuilder p(ProgramType::Vertex, 5, 0);
  p.inst(Opcode::DclInput, {dst(OT::Input, 0xf), 0});
  p.inst(Opcode::DclInput, {dst(OT::Input, 0xf), 1});
  p.inst(Opcode::DclOutputSiv, {dst(OT::Output, 0xf), 0, kNamePosition});
  p.inst(Opcode::DclOutput, {dst(OT::Output, 1), 1});
  p.inst(Opcode::DclOutput, {dst(OT::Output, 2), 1});
  p.inst(Opcode::DclOutput, {dst(OT::Output, 0xc), 1});
  p.inst(Opcode::Mov, {dst(OT::Output, 0xf), 0, src(OT::Input), 0});
  p.inst(Opcode::Mov, {dst(OT::Output, 1), 1, src(OT::Input), 1});
  p.inst(Opcode::Ftou, {dst(OT::Output, 2), 1, src(OT::Input), 1});
  p.inst(Opcode::Mov, {dst(OT::Output, 0xc), 1, src(OT::Input), 1});
  p.inst(Opcode::Ret, {});
  return container(
      p.finish(),
      signature({{"POSITION", 0, 0, kFloat, 0, 0xf}, {"TEXCOORD", 0, 0, kFloat, 1, 0xf}}),
      packed_signature());
}

// ps_5_0: `dcl_input_ps constant v1.y` (B) first, then `dcl_input_ps <ac_mode> v1.xzw` (A and C
// merged into one declaration, as fxc merges the used components of elements of one mode: the
// mask skips B's component); outputs (A, float(B) / 8, C.x, C.y).
std::vector<std::uint8_t> packed_ps(InterpolationMode ac_mode) {
  ProgramBuilder p(ProgramType::Pixel, 5, 0);
  p.inst(Opcode::DclInputPs, {dst(OT::Input, 2), 1},
         std::uint32_t(InterpolationMode::Constant) << 11);
  p.inst(Opcode::DclInputPs, {dst(OT::Input, 0xd), 1}, std::uint32_t(ac_mode) << 11);
  p.inst(Opcode::DclOutput, {dst(OT::Output, 0xf), 0});
  p.inst(Opcode::DclTemps, {1});
  p.inst(Opcode::Mov, {dst(OT::Output, 0xd), 0, src(OT::Input), 1});
  p.inst(Opcode::Utof, {dst(OT::Temp, 1), 0, src1(OT::Input, 1), 1});
  p.inst(Opcode::Mul, {dst(OT::Output, 2), 0, src1(OT::Temp, 0), 0, imm1(), f(0.125f)});
  p.inst(Opcode::Ret, {});
  return container(p.finish(), packed_signature(),
                   signature({{"SV_Target", 0, kSvTarget, kFloat, 0, 0xf}}));
}

// Elements of different types and interpolation modes in one register: each stage's SPIR-V
// validates (no two variables claim a component), and every element the pixel shader reads sits
// at the vertex shader's location and components for it.
TEST(DxbcPackedSignature, BothStagesPlaceEveryElementAlike) {
  for (InterpolationMode mode : {InterpolationMode::Linear, InterpolationMode::Constant,
                                 InterpolationMode::LinearNoPerspective}) {
    SCOPED_TRACE(int(mode));
    Translator translator;
    TranslateResult vs, ps;
    Status s = translator.translate(packed_vs(), {}, vs);
    ASSERT_TRUE(s) << s.message();
    s = translator.translate(packed_ps(mode), {}, ps);
    ASSERT_TRUE(s) << s.message();
    for (const TranslateResult* r : {&vs, &ps}) {
      Status valid = validate_spirv(r->spirv, SpirvTarget::Vulkan13);
      EXPECT_TRUE(valid) << valid.message();
    }
    unsigned matched = 0;
    std::uint32_t claimed[32] = {};
    for (const kiln::SignatureElement& in : ps.reflection.inputs) {
      if (in.builtin != ~0u) continue;
      ASSERT_LT(in.location, 32u);
      EXPECT_EQ(claimed[in.location] & in.component_mask, 0u) << in.semantic;
      claimed[in.location] |= in.component_mask;
      for (const kiln::SignatureElement& out : vs.reflection.outputs) {
        if (out.semantic != in.semantic || out.semantic_index != in.semantic_index) continue;
        EXPECT_EQ(out.location, in.location) << in.semantic;
        EXPECT_EQ(out.component_mask, in.component_mask) << in.semantic;
        ++matched;
      }
    }
    EXPECT_EQ(matched, 3u); // A, B, C
  }
}

// Executed: B (flat uint) declared before the merged A/C declaration whose mask skips it.
// (All flat: lavapipe, like Mesa generally, interpolates a location with one mode, so elements
// of different modes in one register, valid SPIR-V, are not interpolated per component there.)
TEST_F(DxbcFeatures, PackedRegisterDeclaredAroundAnotherElementLinks) {
  // Every vertex carries TEXCOORD (0.25, 4.0, 0.5, 0.75): B = 4 arrives as 4 / 8 = 0.5.
  std::string state = "[input layout]\n0 r32g32b32a32-float position\n"
                      "0 r32g32b32a32-float texcoord\n[vb 0]\n";
  for (const char* xy : {"-1.0 -1.0", "-1.0 3.0", "3.0 -1.0"})
    state += std::string(xy) + " 0.0 1.0 0.25 4.0 0.5 0.75\n";
  EXPECT_PASSES(run({{"vs", packed_vs()}, {"ps", packed_ps(InterpolationMode::Constant)}}, state,
                    {"clear rtv 0 0.0 0.0 0.0 0.0", "draw triangle list 3",
                     "probe (320, 240) rgba(0.25, 0.5, 0.5, 0.75)"}));
}

// ---- layer and viewport chosen by the vertex shader ---------------------------------------------

constexpr std::uint32_t kSvRenderTargetArrayIndex = 4, kSvViewportArrayIndex = 5;

// vs_5_0: SV_Position from v0; SV_RenderTargetArrayIndex (o1.x) and SV_ViewportArrayIndex
// (o2.x) both ftou(TEXCOORD.x). Outside a geometry shader these need
// VK_EXT_shader_viewport_index_layer (D3D11.3's VPAndRTArrayIndexFromAnyShaderFeedingRasterizer).
std::vector<std::uint8_t> layer_viewport_vs() {
  ProgramBuilder p(ProgramType::Vertex, 5, 0);
  p.inst(Opcode::DclInput, {dst(OT::Input, 0xf), 0});
  p.inst(Opcode::DclInput, {dst(OT::Input, 0x1), 1});
  p.inst(Opcode::DclOutputSiv, {dst(OT::Output, 0xf), 0, kNamePosition});
  p.inst(Opcode::DclOutputSiv, {dst(OT::Output, 0x1), 1, kSvRenderTargetArrayIndex});
  p.inst(Opcode::DclOutputSiv, {dst(OT::Output, 0x1), 2, kSvViewportArrayIndex});
  p.inst(Opcode::Mov, {dst(OT::Output, 0xf), 0, src(OT::Input), 0});
  p.inst(Opcode::Ftou, {dst(OT::Output, 0x1), 1, src1(OT::Input, 0), 1});
  p.inst(Opcode::Ftou, {dst(OT::Output, 0x1), 2, src1(OT::Input, 0), 1});
  p.inst(Opcode::Ret, {});
  return container(
      p.finish(),
      signature({{"POSITION", 0, 0, kFloat, 0, 0xf}, {"TEXCOORD", 0, 0, kFloat, 1, 0x1}}),
      signature({{"SV_Position", 0, kSvPosition, kFloat, 0, 0xf},
                 {"SV_RenderTargetArrayIndex", 0, kSvRenderTargetArrayIndex, kUint, 1, 0x1},
                 {"SV_ViewportArrayIndex", 0, kSvViewportArrayIndex, kUint, 2, 0x1}}));
}

// ps_5_0: (0.25, 0.5, 0.75, 1) everywhere.
std::vector<std::uint8_t> constant_ps() {
  ProgramBuilder p(ProgramType::Pixel, 5, 0);
  p.inst(Opcode::DclOutput, {dst(OT::Output, 0xf), 0});
  p.inst(Opcode::Mov, {dst(OT::Output, 0xf), 0, imm4(), f(0.25f), f(0.5f), f(0.75f), f(1.0f)});
  p.inst(Opcode::Ret, {});
  return container(p.finish(), signature({{"SV_Position", 0, kSvPosition, kFloat, 0, 0xf}}),
                   signature({{"SV_Target", 0, kSvTarget, kFloat, 0, 0xf}}));
}

// Two triangles that each cover their viewport, the first with index 0 (layer 0, viewport 0:
// the left half), the second with index 1 (layer 1, viewport 1: the right half), into a
// two-layer target. Only the left half of layer 0 and the right half of layer 1 are drawn; a
// device or translator that ignored either index would draw layer 0 or the left half twice.
const char* const kLayerViewportState =
    "[rtv 0]\nformat r32g32b32a32-float\nsize (2darray, 640, 480, 2)\n"
    "[input layout]\n0 r32g32b32a32-float position\n0 r32g32b32a32-float texcoord\n[vb 0]\n"
    "-1.0 -1.0 0.0 1.0 0.0 0.0 0.0 0.0\n-1.0 3.0 0.0 1.0 0.0 0.0 0.0 0.0\n"
    "3.0 -1.0 0.0 1.0 0.0 0.0 0.0 0.0\n-1.0 -1.0 0.0 1.0 1.0 0.0 0.0 0.0\n"
    "-1.0 3.0 0.0 1.0 1.0 0.0 0.0 0.0\n3.0 -1.0 0.0 1.0 1.0 0.0 0.0 0.0\n";
const std::vector<std::string> kLayerViewportCommands = {
    "clear rtv 0 0.0 0.0 0.0 0.0",
    "viewport 0 (0, 0, 320, 480)",
    "viewport 1 (320, 0, 320, 480)",
    "draw triangle list 6",
    "probe (100, 240, 0) rgba(0.25, 0.5, 0.75, 1.0)",
    "probe (540, 240, 0) rgba(0.0, 0.0, 0.0, 0.0)",
    "probe (100, 240, 1) rgba(0.0, 0.0, 0.0, 0.0)",
    "probe (540, 240, 1) rgba(0.25, 0.5, 0.75, 1.0)"};

TEST_F(DxbcFeatures, VertexShaderChoosesLayerAndViewport) {
  ASSERT_TRUE(context_->has_viewport_index_layer())
      << "lavapipe has VK_EXT_shader_viewport_index_layer; the runner must enable it";
  EXPECT_PASSES(run({{"vs", layer_viewport_vs()}, {"ps", constant_ps()}}, kLayerViewportState,
                    kLayerViewportCommands));
}

// On a device without the extension the runner does not offer it to kiln, which then refuses
// the vertex shader naming it: the case above passes only because the feature is enabled.
TEST_F(DxbcFeatures, VertexShaderLayerAndViewportNeedTheExtension) {
  std::string why_not;
  vulkan::ContextOptions options;
  options.viewport_index_layer = false;
  auto device = vulkan::Context::create(why_not, options);
  ASSERT_NE(device, nullptr) << why_not;
  EXPECT_FALSE(device->has_viewport_index_layer());
  const CaseResult r = run_on(*device, {{"vs", layer_viewport_vs()}, {"ps", constant_ps()}},
                              kLayerViewportState, kLayerViewportCommands);
  EXPECT_EQ(r.outcome, Outcome::Rejected) << r.message;
  EXPECT_NE(r.message.find("VK_EXT_shader_viewport_index_layer"), std::string::npos) << r.message;
}

// ---- geometry shader streams sharing output registers -------------------------------------------

// gs_5_0, points: stream 0 declares o0.xyzw (TEXCOORD0), stream 1 declares o0.xy (TEXCOORD1).
// o# registers are shared by the streams, so each stream's element gets its own variable (both
// at location 0, in their streams) and every write to o0.xy goes to both.
TEST(DxbcGeometryStreams, StreamsSharingARegisterEachGetTheirVariable) {
  const std::uint32_t m0 = operand_token(OT::Stream, kComp0, 0, 1);
  ProgramBuilder p(ProgramType::Geometry, 5, 0);
  p.inst(Opcode::DclGsInputPrimitive, {}, 1u << 11); // point
  p.inst(Opcode::DclStream, {m0, 0});
  p.inst(Opcode::DclGsOutputTopology, {}, 1u << 11); // point list
  p.inst(Opcode::DclOutput, {dst(OT::Output, 0xf), 0});
  p.inst(Opcode::DclStream, {m0, 1});
  p.inst(Opcode::DclGsOutputTopology, {}, 1u << 11);
  p.inst(Opcode::DclOutput, {dst(OT::Output, 0x3), 0});
  p.inst(Opcode::DclMaxOutputVertexCount, {1});
  p.inst(Opcode::Mov, {dst(OT::Output, 0xf), 0, imm4(), f(1), f(2), f(3), f(4)});
  p.inst(Opcode::EmitStream, {m0, 0});
  p.inst(Opcode::Mov, {dst(OT::Output, 0x3), 0, imm4(), f(5), f(6), 0, 0});
  p.inst(Opcode::EmitStream, {m0, 1});
  p.inst(Opcode::Ret, {});
  const std::vector<std::uint8_t> bytes = make_container(
      {{fourcc('S', 'H', 'E', 'X'), bytes_of(p.finish())},
       {fourcc('O', 'S', 'G', '5'), stream_signature({{0, {"TEXCOORD", 0, 0, kFloat, 0, 0xf}},
                                                      {1, {"TEXCOORD", 1, 0, kFloat, 0, 0x3}}})}});
  Translator translator;
  ir::Builder b;
  Status s = translator.convert_to_ir(read_shader_input(bytes), {}, b, false);
  ASSERT_TRUE(s) << s.message();
  std::vector<ir::OpView> outputs;
  std::size_t stores = 0;
  for (ir::OpView op : b.ops()) {
    if (op.code() == ir::OpCode::DclOutput) outputs.push_back(op);
    stores += op.code() == ir::OpCode::OutputStore;
  }
  ASSERT_EQ(outputs.size(), 2u) << ir::print(b);
  EXPECT_EQ(outputs[0].operand(3).literal_u32(), 0u); // stream
  EXPECT_EQ(outputs[1].operand(3).literal_u32(), 1u);
  EXPECT_EQ(outputs[0].type(), ir::vec(ir::ScalarType::F32, 4));
  EXPECT_EQ(outputs[1].type(), ir::vec(ir::ScalarType::F32, 2));
  EXPECT_EQ(stores, 4u + 2u + 2u + 2u); // o0.xyzw (+ xy mirrored), then o0.xy twice
  TranslateResult out;
  s = translator.translate(bytes, {}, out);
  ASSERT_TRUE(s) << s.message();
  Status valid = validate_spirv(out.spirv, SpirvTarget::Vulkan13);
  EXPECT_TRUE(valid) << valid.message();
  // The rasterized stream (0) keeps location = register; stream 1's element moves off it.
  std::uint32_t location[2] = {~0u, ~0u};
  for (const kiln::SignatureElement& e : out.reflection.outputs)
    if (e.semantic == "TEXCOORD" && e.semantic_index < 2) location[e.semantic_index] = e.location;
  EXPECT_EQ(location[0], 0u);
  EXPECT_NE(location[1], 0u);
  EXPECT_LT(location[1], 32u);
}

} // namespace
} // namespace kiln::conformance
