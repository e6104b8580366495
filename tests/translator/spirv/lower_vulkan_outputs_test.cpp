// Outputs under a layer's interface, drawn on lavapipe from Vulkan 1.0 modules: dual-source
// blending, an output swizzle, and stream output captured through transform feedback.

#include "bench/execute/vulkan_graphics.h"
#include "tests/support/shared_data.h"
#include "tests/translator/dxbc/token_builder.h"
#include "tests/translator/spirv/lower_test_util.h"
#include "translator/translate.h"

#include <cstring>
#include <gtest/gtest.h>

namespace kiln::test {
namespace {

// Position from location 0 (a vec4 per vertex); TEXCOORD0 = position * 2.
constexpr const char* kVertexShader = R"(
%1 = EntryPoint void %20 Vertex
%2 = DclInput vec4<f32> %1 0 0 0
%3 = DclOutputBuiltIn vec4<f32> %1 Position 0
%4 = DclOutput vec4<f32> %1 1 0 0
%5 = Semantic void %3 0 "SV_Position"
%6 = Semantic void %4 0 "TEXCOORD"
%7 = Constant vec4<f32> 2.0 2.0 2.0 2.0
%20 = Function void
  %21 = Label void None
    %22 = InputLoad vec4<f32> %2 null
    %23 = OutputStore void %3 null %22
    %24 = FMul vec4<f32> %22 %7
    %25 = OutputStore void %4 null %24
    %26 = Return void null
%27 = FunctionEnd void
)";

// o0 = (0.25, 0.5, 0.75, 1), o1 = (1, 0.5, 0.25, 0).
constexpr const char* kPixelShader = R"(
%1 = EntryPoint void %20 Pixel
%2 = DclOutput vec4<f32> %1 0 0 0
%3 = DclOutput vec4<f32> %1 1 0 0
%4 = Constant vec4<f32> 0.25 0.5 0.75 1.0
%5 = Constant vec4<f32> 1.0 0.5 0.25 0.0
%20 = Function void
  %21 = Label void None
    %22 = OutputStore void %2 null %4
    %23 = OutputStore void %3 null %5
    %24 = Return void null
%25 = FunctionEnd void
)";

// A triangle covering the whole viewport.
constexpr float kTriangle[12] = {-1, -1, 0, 1, 3, -1, 0, 1, -1, 3, 0, 1};

class LoweredOutputs : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why_not;
    context_ = vulkan::Context::create(why_not);
    if (context_ == nullptr) KILN_SKIP_OR_FAIL_IN_CI("no Vulkan device: " << why_not);
    ASSERT_TRUE(vulkan::Buffer::create(*context_, sizeof kTriangle,
                                       VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, vertices_));
    vertices_.write(std::span<const float>(kTriangle));
    ASSERT_TRUE(vulkan::DescriptorBinding::create(*context_, {}, 0, descriptors_));
  }

  // Lowers `ir` for Vulkan 1.0 under `interface` (validated).
  std::vector<std::uint32_t> lower(const char* ir, const ShaderInterface& interface) {
    Lowered out;
    lower_and_validate(ir, SpirvTarget::Vulkan10, interface, out);
    return out.words;
  }

  vulkan::GraphicsPipelineDesc pipeline_desc(std::span<const std::uint32_t> vs,
                                             std::span<const std::uint32_t> fs) {
    vulkan::GraphicsPipelineDesc desc;
    desc.stages = {{VK_SHADER_STAGE_VERTEX_BIT, vs, "main"}};
    if (!fs.empty()) desc.stages.push_back({VK_SHADER_STAGE_FRAGMENT_BIT, fs, "main"});
    desc.layout = descriptors_.layout();
    desc.vertex_bindings = {{0, 16, VK_VERTEX_INPUT_RATE_VERTEX}};
    desc.vertex_attributes = {{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0}};
    return desc;
  }

  // Draws the triangle into a 2x2 RGBA32F target cleared to 0.5 and returns pixel (0, 0).
  std::vector<float> draw_pixel(const vulkan::GraphicsPipelineDesc& desc) {
    vulkan::ImageDesc target_desc;
    target_desc.width = target_desc.height = 2;
    target_desc.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
    vulkan::Image target;
    EXPECT_TRUE(vulkan::Image::create(*context_, target_desc, target));
    const std::uint32_t half[4] = {0x3f000000u, 0x3f000000u, 0x3f000000u, 0x3f000000u};
    EXPECT_TRUE(target.clear_color(half));
    vulkan::GraphicsPipeline pipeline;
    Status created = vulkan::GraphicsPipeline::create(*context_, desc, pipeline);
    EXPECT_TRUE(created) << created.message();
    if (!created) return {};
    vulkan::DrawDesc draw;
    draw.pipeline = &pipeline;
    draw.descriptors = &descriptors_;
    draw.color = {{&target}};
    draw.vertex_buffers = {vertices_.handle()};
    draw.viewports = {{0, 0, 2, 2, 0, 1}};
    draw.render_area = {{0, 0}, {2, 2}};
    draw.vertex_count = 3;
    Status drawn = vulkan::draw(*context_, draw);
    EXPECT_TRUE(drawn) << drawn.message();
    std::vector<std::uint8_t> bytes;
    EXPECT_TRUE(target.read(0, 0, bytes));
    std::vector<float> pixel(4);
    if (bytes.size() >= 16) std::memcpy(pixel.data(), bytes.data(), 16);
    return pixel;
  }

  static StreamOutputElement element(const char* semantic, std::uint32_t first,
                                     std::uint32_t count) {
    StreamOutputElement e;
    e.semantic = semantic;
    e.component_index = first;
    e.component_count = count;
    return e;
  }

  // Draws kVertexShader with rasterization off, capturing `elements` into buffer 0 at 24 bytes
  // a vertex through transform feedback (the caller checks has_transform_feedback()); `out` gets
  // the 3 * 6 floats (the buffer is filled with -7 first, so an element not written shows).
  void capture(std::vector<StreamOutputElement> elements, std::vector<float>& out) {
    ShaderInterface interface;
    interface.extensions = extension_bit(Extension::TransformFeedback);
    interface.stream_output.elements = std::move(elements);
    interface.stream_output.buffer_strides = {24, 0, 0, 0};
    const auto vs = lower(kVertexShader, interface);
    ASSERT_FALSE(vs.empty());
    draw_captured(pipeline_desc(vs, {}), 3 * 6, out);
  }

  // Translates DXBC `bytes` for Vulkan 1.0 with stream output of `elements` into buffer 0 at
  // `stride` bytes a vertex, and `extensions` beside transform feedback; `spirv` gets the module.
  static void translate_captured(std::span<const std::uint8_t> bytes,
                                 std::vector<StreamOutputElement> elements, std::uint32_t stride,
                                 ExtensionMask extensions, std::vector<std::uint32_t>& spirv) {
    auto interface = std::make_shared<ShaderInterface>();
    interface->extensions = extension_bit(Extension::TransformFeedback) | extensions;
    interface->stream_output.elements = std::move(elements);
    interface->stream_output.buffer_strides = {stride, 0, 0, 0};
    TranslateOptions options;
    options.target = SpirvTarget::Vulkan10;
    options.interface = interface;
    Translator translator;
    TranslateResult result;
    Status translated = translator.translate(bytes, options, result);
    ASSERT_TRUE(translated) << translated.message();
    spirv = std::move(result.spirv);
  }

  // Draws the triangle with `desc` and rasterization off, capturing transform feedback into a
  // buffer of `floats` floats filled with -7 first (so an element not written shows); `out` gets
  // the buffer.
  void draw_captured(vulkan::GraphicsPipelineDesc desc, std::size_t floats,
                     std::vector<float>& out) {
    desc.rasterizer_discard = true;
    vulkan::GraphicsPipeline pipeline;
    Status created = vulkan::GraphicsPipeline::create(*context_, desc, pipeline);
    ASSERT_TRUE(created) << created.message();
    vulkan::Buffer captured;
    ASSERT_TRUE(vulkan::Buffer::create(*context_, floats * sizeof(float),
                                       VK_BUFFER_USAGE_TRANSFORM_FEEDBACK_BUFFER_BIT_EXT,
                                       captured));
    const std::vector<float> fill(floats, -7.0f);
    captured.write(std::span<const float>(fill));
    vulkan::DrawDesc draw;
    draw.pipeline = &pipeline;
    draw.descriptors = &descriptors_;
    draw.vertex_buffers = {vertices_.handle()};
    draw.viewports = {{0, 0, 2, 2, 0, 1}};
    draw.render_area = {{0, 0}, {2, 2}};
    draw.vertex_count = 3;
    draw.xfb_buffers = {captured.handle()};
    Status drawn = vulkan::draw(*context_, draw);
    ASSERT_TRUE(drawn) << drawn.message();
    out = captured.read<float>();
    ASSERT_EQ(out.size(), floats);
  }

  std::unique_ptr<vulkan::Context> context_;
  vulkan::Buffer vertices_;
  vulkan::DescriptorBinding descriptors_;
};

TEST_F(LoweredOutputs, DualSourceBlendingBlendsWithTheSecondOutput) {
  ShaderInterface interface;
  interface.dual_source_blending = true;
  const auto vs = lower(kVertexShader, ShaderInterface{});
  const auto fs = lower(kPixelShader, interface);
  ASSERT_FALSE(vs.empty());
  ASSERT_FALSE(fs.empty());
  auto desc = pipeline_desc(vs, fs);
  desc.color_formats = {VK_FORMAT_R32G32B32A32_SFLOAT};
  desc.dual_source_blend = true;
  // src0 + dst * src1, dst = 0.5.
  EXPECT_EQ(draw_pixel(desc), (std::vector<float>{0.75f, 0.75f, 0.875f, 1.0f}));
}

TEST_F(LoweredOutputs, OutputSwizzleReordersTheRenderTargetComponents) {
  ShaderInterface interface;
  interface.output_swizzles = {0x00010203u}; // .wzyx
  const auto vs = lower(kVertexShader, ShaderInterface{});
  const auto fs = lower(kPixelShader, interface); // o1 has no attachment: unused
  ASSERT_FALSE(vs.empty());
  ASSERT_FALSE(fs.empty());
  auto desc = pipeline_desc(vs, fs);
  desc.color_formats = {VK_FORMAT_R32G32B32A32_SFLOAT};
  EXPECT_EQ(draw_pixel(desc), (std::vector<float>{1.0f, 0.75f, 0.5f, 0.25f}));
}

TEST_F(LoweredOutputs, StreamOutputCapturesTheVerticesThroughTransformFeedback) {
  if (!context_->has_transform_feedback()) GTEST_SKIP() << "no VK_EXT_transform_feedback";
  // TEXCOORD0.yz (part of an output: split) then SV_Position.
  StreamOutputElement texcoord = element("TEXCOORD", 1, 2), position = element("SV_Position", 0, 4);
  std::vector<float> out;
  ASSERT_NO_FATAL_FAILURE(capture({texcoord, position}, out));
  for (std::size_t v = 0; v < 3; ++v) {
    for (std::size_t c = 0; c < 2; ++c)
      EXPECT_EQ(out[v * 6 + c], 2.0f * kTriangle[v * 4 + 1 + c]) << "vertex " << v << " TEXCOORD0";
    for (std::size_t c = 0; c < 4; ++c)
      EXPECT_EQ(out[v * 6 + 2 + c], kTriangle[v * 4 + c]) << "vertex " << v << " SV_Position";
  }
}

// Part of a built-in: SV_Position.yz, then TEXCOORD0 whole (the built-in is captured through an
// output of its own).
TEST_F(LoweredOutputs, StreamOutputCapturesPartOfABuiltIn) {
  if (!context_->has_transform_feedback()) GTEST_SKIP() << "no VK_EXT_transform_feedback";
  StreamOutputElement position = element("SV_Position", 1, 2), texcoord = element("TEXCOORD", 0, 4);
  std::vector<float> out;
  ASSERT_NO_FATAL_FAILURE(capture({position, texcoord}, out));
  for (std::size_t v = 0; v < 3; ++v) {
    for (std::size_t c = 0; c < 2; ++c)
      EXPECT_EQ(out[v * 6 + c], kTriangle[v * 4 + 1 + c]) << "vertex " << v << " SV_Position";
    for (std::size_t c = 0; c < 4; ++c)
      EXPECT_EQ(out[v * 6 + 2 + c], 2.0f * kTriangle[v * 4 + c]) << "vertex " << v << " TEXCOORD0";
  }
}

// Stream output of elements sharing one output variable (vkd3d-shader's widened register:
// o1.xy TEXCOORD0 and o1.zw TEXCOORD1 are one vec4 named TEXCOORD0, with a second Semantic for
// TEXCOORD1): TEXCOORD1 from the variable's components 2-3, TEXCOORD0 from 0-1, then
// SV_Position, 8 floats a vertex.
TEST_F(LoweredOutputs, StreamOutputCapturesEachElementOfASharedRegister) {
  if (!context_->has_transform_feedback()) GTEST_SKIP() << "no VK_EXT_transform_feedback";
  std::string shader = kVertexShader;
  const std::string constant = "%7 = Constant vec4<f32> 2.0 2.0 2.0 2.0\n";
  shader.replace(shader.find(constant), constant.size(),
                 constant + "%8 = Semantic void %4 1 \"TEXCOORD\"\n");
  StreamOutputElement texcoord1 = element("TEXCOORD", 2, 2), texcoord0 = element("TEXCOORD", 0, 2),
                      position = element("SV_Position", 0, 4);
  texcoord1.semantic_index = 1;
  ShaderInterface interface;
  interface.extensions = extension_bit(Extension::TransformFeedback);
  interface.stream_output.elements = {texcoord1, texcoord0, position};
  interface.stream_output.buffer_strides = {32, 0, 0, 0};
  const auto vs = lower(shader.c_str(), interface);
  ASSERT_FALSE(vs.empty());
  std::vector<float> out;
  ASSERT_NO_FATAL_FAILURE(draw_captured(pipeline_desc(vs, {}), 3 * 8, out));
  for (std::size_t v = 0; v < 3; ++v) {
    for (std::size_t c = 0; c < 2; ++c) {
      EXPECT_EQ(out[v * 8 + c], 2.0f * kTriangle[v * 4 + 2 + c]) << "vertex " << v << " TEXCOORD1";
      EXPECT_EQ(out[v * 8 + 2 + c], 2.0f * kTriangle[v * 4 + c]) << "vertex " << v << " TEXCOORD0";
    }
    for (std::size_t c = 0; c < 4; ++c)
      EXPECT_EQ(out[v * 8 + 4 + c], kTriangle[v * 4 + c]) << "vertex " << v << " SV_Position";
  }
}

// Stream output of SV_ClipDistance elements beside each other in one register (o1.xyz
// SV_ClipDistance0, o1.w SV_ClipDistance1: one float[4] built-in): each element's register
// components are found in the array through the bytecode's signature. Translated from DXBC (the
// lowering reads the output signature): o0 = v0, o1 = v0.xyyx; captured: SV_ClipDistance1, then
// SV_ClipDistance0, 4 floats a vertex.
TEST_F(LoweredOutputs, StreamOutputCapturesEachClipDistanceElement) {
  if (!context_->has_transform_feedback()) GTEST_SKIP() << "no VK_EXT_transform_feedback";
  using namespace dxbc::test;
  using OT = dxbc::OperandType;
  using dxbc::fourcc;
  using dxbc::Opcode;
  const auto out4 = [](std::uint32_t m) { return operand_token(OT::Output, kComp4, mask(m), 1); };
  ProgramBuilder p(dxbc::ProgramType::Vertex, 4, 0);
  p.inst(Opcode::DclInput, {operand_token(OT::Input, kComp4, mask(0xf), 1), 0});
  p.inst(Opcode::DclOutputSiv, {out4(0xf), 0, 1}); // position
  p.inst(Opcode::DclOutputSiv, {out4(0x7), 1, 2}); // clip distance
  p.inst(Opcode::DclOutputSiv, {out4(0x8), 1, 2});
  p.inst(Opcode::Mov, {out4(0xf), 0, operand_token(OT::Input, kComp4, swizzle(0, 1, 2, 3), 1), 0});
  p.inst(Opcode::Mov, {out4(0xf), 1, operand_token(OT::Input, kComp4, swizzle(0, 1, 1, 0), 1), 0});
  p.inst(Opcode::Ret, {});
  const auto bytes = make_container(
      {{fourcc('S', 'H', 'E', 'X'), bytes_of(p.finish())},
       {fourcc('I', 'S', 'G', 'N'), signature({{"POSITION", 0, 0, 3, 0, 0xf}})},
       {fourcc('O', 'S', 'G', 'N'), signature({{"SV_Position", 0, 1, 3, 0, 0xf},
                                               {"SV_ClipDistance", 0, 2, 3, 1, 0x7},
                                               {"SV_ClipDistance", 1, 2, 3, 1, 0x8}})}});
  StreamOutputElement clip1 = element("SV_ClipDistance", 3, 1),
                      clip0 = element("SV_ClipDistance", 0, 3);
  clip1.semantic_index = 1;
  std::vector<std::uint32_t> spirv;
  ASSERT_NO_FATAL_FAILURE(translate_captured(bytes, {clip1, clip0}, 16, 0, spirv));
  std::vector<float> out;
  ASSERT_NO_FATAL_FAILURE(draw_captured(pipeline_desc(spirv, {}), 3 * 4, out));
  for (std::size_t v = 0; v < 3; ++v) {
    const float* position = kTriangle + v * 4;
    EXPECT_EQ(out[v * 4], position[0]) << "vertex " << v << " SV_ClipDistance1";
    EXPECT_EQ(out[v * 4 + 1], position[0]) << "vertex " << v << " SV_ClipDistance0.x";
    EXPECT_EQ(out[v * 4 + 2], position[1]) << "vertex " << v << " SV_ClipDistance0.y";
    EXPECT_EQ(out[v * 4 + 3], position[1]) << "vertex " << v << " SV_ClipDistance0.z";
  }
}

// Stream output of a scalar built-in in a register component other than x (o1.x TEXCOORD0,
// o1.y SV_RenderTargetArrayIndex: the Layer built-in) is found at that component (the
// request names component 1 of register 1; the built-in variable has one). Translated from
// DXBC: o0 = v0, o1.xy = (5, 3); captured: SV_RenderTargetArrayIndex, then TEXCOORD0, two
// uints a vertex. Found by `kiln execute` on a corpus geometry shader (docs/execution.md).
TEST_F(LoweredOutputs, StreamOutputCapturesAScalarBuiltInInAnotherComponent) {
  if (!context_->has_transform_feedback()) GTEST_SKIP() << "no VK_EXT_transform_feedback";
  if (!context_->has_viewport_index_layer()) GTEST_SKIP() << "no Layer output in vertex shaders";
  using namespace dxbc::test;
  using OT = dxbc::OperandType;
  using dxbc::fourcc;
  using dxbc::Opcode;
  const auto out = [](std::uint32_t m) { return operand_token(OT::Output, kComp4, mask(m), 1); };
  ProgramBuilder p(dxbc::ProgramType::Vertex, 4, 0);
  p.inst(Opcode::DclInput, {operand_token(OT::Input, kComp4, mask(0xf), 1), 0});
  p.inst(Opcode::DclOutputSiv, {out(0xf), 0, 1}); // position
  p.inst(Opcode::DclOutput, {out(0x1), 1});
  p.inst(Opcode::DclOutputSiv, {out(0x2), 1, 4}); // render target array index
  p.inst(Opcode::Mov, {out(0xf), 0, operand_token(OT::Input, kComp4, swizzle(0, 1, 2, 3), 1), 0});
  p.inst(Opcode::Mov, {out(0x3), 1, operand_token(OT::Immediate32, kComp4, 0, 0), 5, 3, 0, 0});
  p.inst(Opcode::Ret, {});
  const auto bytes = make_container(
      {{fourcc('S', 'H', 'E', 'X'), bytes_of(p.finish())},
       {fourcc('I', 'S', 'G', 'N'), signature({{"POSITION", 0, 0, 3, 0, 0xf}})},
       {fourcc('O', 'S', 'G', 'N'), signature({{"SV_Position", 0, 1, 3, 0, 0xf},
                                               {"TEXCOORD", 0, 0, 1, 1, 0x1},
                                               {"SV_RenderTargetArrayIndex", 0, 4, 1, 1, 0x2}})}});
  std::vector<std::uint32_t> spirv;
  ASSERT_NO_FATAL_FAILURE(translate_captured(
      bytes, {element("SV_RenderTargetArrayIndex", 1, 1), element("TEXCOORD", 0, 1)}, 8,
      extension_bit(Extension::ViewportIndexLayer), spirv));
  std::vector<float> captured;
  ASSERT_NO_FATAL_FAILURE(draw_captured(pipeline_desc(spirv, {}), 3 * 2, captured));
  for (std::size_t v = 0; v < 3; ++v) {
    std::uint32_t words[2];
    std::memcpy(words, captured.data() + v * 2, sizeof words);
    EXPECT_EQ(words[0], 3u) << "vertex " << v << " SV_RenderTargetArrayIndex";
    EXPECT_EQ(words[1], 5u) << "vertex " << v << " TEXCOORD0";
  }
}

// A geometry shader writing two vertex streams (points): stream 0 the position, stream 1
// TEXCOORD0 * 10 at a location of its own. Stream 1 is captured; stream 0 goes nowhere.
constexpr const char* kTwoStreamGeometryShader = R"(
%1 = EntryPoint void %20 Geometry
%2 = SetGsInputPrimitive void %1 Triangle
%3 = SetGsOutputPrimitive void %1 Point 3
%4 = SetGsOutputVertices void %1 6
%5 = DclInputBuiltIn vec4<f32>[3] %1 Position 0
%6 = DclInput vec4<f32>[3] %1 1 0 0
%7 = DclOutputBuiltIn vec4<f32> %1 Position 0
%8 = DclOutput vec4<f32> %1 2 0 1
%9 = Semantic void %7 0 "SV_Position"
%10 = Semantic void %8 0 "TEXCOORD"
%11 = Constant u32 0
%12 = Constant u32 1
%13 = Constant u32 2
%14 = Constant vec4<f32> 10.0 10.0 10.0 10.0
%20 = Function void
  %21 = Label void None
    %22 = InputLoad vec4<f32> %5 %11
    %23 = OutputStore void %7 null %22
    %24 = EmitVertex void 0
    %25 = InputLoad vec4<f32> %6 %11
    %26 = FMul vec4<f32> %25 %14
    %27 = OutputStore void %8 null %26
    %28 = EmitVertex void 1
    %29 = InputLoad vec4<f32> %6 %12
    %30 = FMul vec4<f32> %29 %14
    %31 = OutputStore void %8 null %30
    %32 = EmitVertex void 1
    %33 = InputLoad vec4<f32> %6 %13
    %34 = FMul vec4<f32> %33 %14
    %35 = OutputStore void %8 null %34
    %36 = EmitVertex void 1
    %37 = Return void null
%38 = FunctionEnd void
)";

// Stream output of a vertex stream other than 0 (D3D11 SO declarations with stream 1): the
// geometry shader's stream-1 vertices land in the buffer, stream 0's do not.
TEST_F(LoweredOutputs, StreamOutputCapturesAGeometryShadersSecondStream) {
  if (!context_->has_transform_feedback()) GTEST_SKIP() << "no VK_EXT_transform_feedback";
  ShaderInterface interface;
  interface.extensions = extension_bit(Extension::TransformFeedback);
  StreamOutputElement texcoord = element("TEXCOORD", 0, 4);
  texcoord.stream = 1;
  interface.stream_output.elements = {texcoord};
  interface.stream_output.buffer_strides = {16, 0, 0, 0};
  const auto vs = lower(kVertexShader, ShaderInterface{});
  const auto gs = lower(kTwoStreamGeometryShader, interface);
  ASSERT_FALSE(vs.empty());
  ASSERT_FALSE(gs.empty());
  auto desc = pipeline_desc(vs, {});
  desc.stages.push_back({VK_SHADER_STAGE_GEOMETRY_BIT, gs, "main"});
  std::vector<float> out;
  ASSERT_NO_FATAL_FAILURE(draw_captured(desc, 4 * 4, out));
  // TEXCOORD0 is the position * 2 (kVertexShader), times 10 in the geometry shader.
  for (std::size_t v = 0; v < 3; ++v)
    for (std::size_t c = 0; c < 4; ++c)
      EXPECT_EQ(out[v * 4 + c], 20.0f * kTriangle[v * 4 + c]) << "vertex " << v;
  for (std::size_t c = 0; c < 4; ++c) EXPECT_EQ(out[12 + c], -7.0f) << "nothing past 3 vertices";
}

} // namespace
} // namespace kiln::test
