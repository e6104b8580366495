// Dual-source blending through the C ABI, run on lavapipe: DXBC vertex and pixel shaders
// submitted with kiln_submit, the pixel shader under a kiln_interface_info with
// dual_source_blending set (o0 and o1 become Location 0, Index 0 and 1), drawn with
// src0 + dst * src1 blending.

#include "bench/synth/dxbc_writer.h"
#include "kiln/kiln.h"
#include "tests/support/shared_data.h"
#include "bench/execute/vulkan_graphics.h"
#include "bench/execute/vulkan_harness.h"

#include <cstring>
#include <gtest/gtest.h>
#include <memory>
#include <vector>

namespace kiln::test {
namespace {

using namespace kiln::synth::dxbc;
namespace opd = kiln::synth::dxbc::operand;

constexpr std::uint32_t kNamePosition = 1, kNameTarget = 64, kFloat = 3;

std::vector<std::uint8_t> container(ProgramWriter& w, std::vector<SignatureElement> inputs,
                                    std::vector<SignatureElement> outputs) {
  const std::vector<std::uint32_t> program = w.finish();
  ContainerWriter c;
  c.add_chunk(fourcc('I', 'S', 'G', 'N'), signature_chunk(inputs));
  c.add_chunk(fourcc('O', 'S', 'G', 'N'), signature_chunk(outputs));
  c.add_chunk(fourcc('S', 'H', 'D', 'R'), std::span<const std::uint32_t>(program));
  return c.finish();
}

// vs_4_0: o0 (SV_Position) = v0 (POSITION).
std::vector<std::uint8_t> pass_through_vs() {
  ProgramWriter w(ShaderStage::Vertex, 4, 0);
  w.emit(Op::DclInput, {opd::dst(OperandType::Input, 0, 0xf)});
  w.emit(Op::DclOutputSiv, {opd::output_dst(0)}, 0, {kNamePosition});
  w.emit(Op::Mov, {opd::output_dst(0), opd::input(0)});
  w.emit(Op::Ret, {});
  return container(w, {{"POSITION", 0, 0, kFloat, 0, 0xf, 0xf}},
                   {{"SV_Position", 0, kNamePosition, kFloat, 0, 0xf, 0}});
}

// ps_4_0: o0 = (0.25, 0.5, 0.75, 1), o1 = (1, 0.5, 0.25, 0).
std::vector<std::uint8_t> two_targets_ps() {
  ProgramWriter w(ShaderStage::Pixel, 4, 0);
  w.emit(Op::DclOutput, {opd::output_dst(0)});
  w.emit(Op::DclOutput, {opd::output_dst(1)});
  w.emit(Op::Mov, {opd::output_dst(0), opd::imm4(0.25f, 0.5f, 0.75f, 1.0f)});
  w.emit(Op::Mov, {opd::output_dst(1), opd::imm4(1.0f, 0.5f, 0.25f, 0.0f)});
  w.emit(Op::Ret, {});
  return container(w, {},
                   {{"SV_Target", 0, kNameTarget, kFloat, 0, 0xf, 0},
                    {"SV_Target", 1, kNameTarget, kFloat, 1, 0xf, 0}});
}

// A triangle covering the whole viewport.
constexpr float kTriangle[12] = {-1, -1, 0, 1, 3, -1, 0, 1, -1, 3, 0, 1};

// The SPIR-V kiln's C ABI gives for `bytes` (submitted with `chain`, a kiln_interface_info).
std::vector<std::uint32_t> translate(kiln_context* context, const std::vector<std::uint8_t>& bytes,
                                     const void* chain) {
  kiln_submit_info submit{};
  submit.type = KILN_STRUCTURE_TYPE_SUBMIT_INFO;
  submit.next = chain;
  submit.code = bytes.data();
  submit.code_size = bytes.size();
  kiln_shader* shader = nullptr;
  EXPECT_EQ(kiln_submit(context, &submit, &shader), KILN_SUCCESS);
  if (!shader) return {};
  std::vector<std::uint32_t> words;
  const std::uint32_t* code = nullptr;
  std::size_t count = 0;
  const kiln_result waited = kiln_wait(shader, UINT64_MAX);
  EXPECT_EQ(waited, KILN_SUCCESS) << (kiln_shader_error(shader) ? kiln_shader_error(shader) : "");
  if (waited == KILN_SUCCESS && kiln_get_spirv(shader, &code, &count) == KILN_SUCCESS)
    words.assign(code, code + count);
  kiln_shader_release(shader);
  return words;
}

TEST(AbiDualSource, BlendsWithTheSecondOutput) {
  std::string why_not;
  std::unique_ptr<vulkan::Context> vk = vulkan::Context::create(why_not);
  if (!vk) KILN_SKIP_OR_FAIL_IN_CI("no Vulkan device: " << why_not);
  kiln_context_create_info info{};
  info.type = KILN_STRUCTURE_TYPE_CONTEXT_CREATE_INFO;
  info.flags = KILN_CONTEXT_DISABLE_CACHE;
  info.thread_count = 1;
  info.target = KILN_TARGET_VULKAN_1_0;
  kiln_context* context = nullptr;
  ASSERT_EQ(kiln_context_create(&info, &context), KILN_SUCCESS);
  kiln_interface_info dual{};
  dual.type = KILN_STRUCTURE_TYPE_INTERFACE_INFO;
  dual.dual_source_blending = 1;
  const std::vector<std::uint32_t> vs = translate(context, pass_through_vs(), nullptr);
  const std::vector<std::uint32_t> fs = translate(context, two_targets_ps(), &dual);
  kiln_context_destroy(context);
  ASSERT_FALSE(vs.empty());
  ASSERT_FALSE(fs.empty());

  vulkan::Buffer vertices;
  ASSERT_TRUE(
      vulkan::Buffer::create(*vk, sizeof kTriangle, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, vertices));
  vertices.write(std::span<const float>(kTriangle));
  vulkan::DescriptorBinding descriptors;
  ASSERT_TRUE(vulkan::DescriptorBinding::create(*vk, {}, 0, descriptors));
  vulkan::GraphicsPipelineDesc desc;
  desc.stages = {{VK_SHADER_STAGE_VERTEX_BIT, vs, "main"},
                 {VK_SHADER_STAGE_FRAGMENT_BIT, fs, "main"}};
  desc.layout = descriptors.layout();
  desc.vertex_bindings = {{0, 16, VK_VERTEX_INPUT_RATE_VERTEX}};
  desc.vertex_attributes = {{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0}};
  desc.color_formats = {VK_FORMAT_R32G32B32A32_SFLOAT};
  desc.dual_source_blend = true;
  vulkan::GraphicsPipeline pipeline;
  Status s = vulkan::GraphicsPipeline::create(*vk, desc, pipeline);
  ASSERT_TRUE(s) << s.message();

  vulkan::ImageDesc target_desc;
  target_desc.width = target_desc.height = 2;
  target_desc.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
  vulkan::Image target;
  ASSERT_TRUE(vulkan::Image::create(*vk, target_desc, target));
  const std::uint32_t half[4] = {0x3f000000u, 0x3f000000u, 0x3f000000u, 0x3f000000u};
  ASSERT_TRUE(target.clear_color(half));
  vulkan::DrawDesc draw;
  draw.pipeline = &pipeline;
  draw.descriptors = &descriptors;
  draw.color = {{&target}};
  draw.vertex_buffers = {vertices.handle()};
  draw.viewports = {{0, 0, 2, 2, 0, 1}};
  draw.render_area = {{0, 0}, {2, 2}};
  draw.vertex_count = 3;
  s = vulkan::draw(*vk, draw);
  ASSERT_TRUE(s) << s.message();
  std::vector<std::uint8_t> bytes;
  ASSERT_TRUE(target.read(0, 0, bytes));
  ASSERT_GE(bytes.size(), 16u);
  std::vector<float> pixel(4);
  std::memcpy(pixel.data(), bytes.data(), 16);
  // src0 + dst * src1 with dst = 0.5.
  EXPECT_EQ(pixel, (std::vector<float>{0.75f, 0.75f, 0.875f, 1.0f}));
}

} // namespace
} // namespace kiln::test
