// The graphics half of the harness: image upload/readback/clear, a draw through a vertex
// buffer, a uniform buffer and a sampled texture, read back from a render target.

#include "tests/translator/spirv/spirv_tools_text.h"
#include "bench/execute/vulkan_graphics.h"

#include <cstring>
#include "tests/support/shared_data.h"

#include <gtest/gtest.h>

namespace kiln::vulkan {
namespace {

class GraphicsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why_not;
    context_ = Context::create(why_not);
    if (!context_) KILN_SKIP_OR_FAIL_IN_CI("no Vulkan device: " << why_not);
  }
  std::unique_ptr<Context> context_;
};

std::vector<std::uint8_t> float_bytes(std::initializer_list<float> values) {
  std::vector<std::uint8_t> bytes(values.size() * 4);
  std::memcpy(bytes.data(), values.begin(), bytes.size());
  return bytes;
}

float float_at(const std::vector<std::uint8_t>& bytes, std::size_t index) {
  float f;
  std::memcpy(&f, bytes.data() + index * 4, 4);
  return f;
}

TEST_F(GraphicsTest, UploadThenReadEveryLevelAndLayer) {
  ImageDesc desc;
  desc.format = VK_FORMAT_R32_SFLOAT;
  desc.width = 4, desc.height = 2, desc.layers = 2, desc.levels = 2;
  desc.view_type = VK_IMAGE_VIEW_TYPE_2D_ARRAY;
  desc.usage = VK_IMAGE_USAGE_SAMPLED_BIT;
  Image image;
  ASSERT_TRUE(Image::create(*context_, desc, image).is_ok());
  // Level 0: two layers of 4x2; level 1: two layers of 2x1.
  std::vector<float> values;
  for (int i = 0; i < 16 + 4; ++i) values.push_back(float(i) + 0.5f);
  std::vector<std::uint8_t> bytes(values.size() * 4);
  std::memcpy(bytes.data(), values.data(), bytes.size());
  ASSERT_TRUE(image.upload(bytes).is_ok());
  std::vector<std::uint8_t> out;
  ASSERT_TRUE(image.read(0, 1, out).is_ok());
  ASSERT_EQ(out.size(), 8u * 4);
  EXPECT_EQ(float_at(out, 0), 8.5f);
  EXPECT_EQ(float_at(out, 7), 15.5f);
  ASSERT_TRUE(image.read(1, 1, out).is_ok());
  ASSERT_EQ(out.size(), 2u * 4);
  EXPECT_EQ(float_at(out, 0), 18.5f);
  EXPECT_EQ(float_at(out, 1), 19.5f);
  EXPECT_FALSE(image.read(2, 0, out).is_ok());
}

TEST_F(GraphicsTest, ClearColorWritesRawBits) {
  ImageDesc desc;
  desc.format = VK_FORMAT_R32G32B32A32_UINT;
  desc.width = 3, desc.height = 3;
  desc.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
  Image image;
  ASSERT_TRUE(Image::create(*context_, desc, image).is_ok());
  const std::uint32_t bits[4] = {1, 0xdeadbeef, 3, 0x80000000u};
  ASSERT_TRUE(image.clear_color(bits).is_ok());
  std::vector<std::uint8_t> out;
  ASSERT_TRUE(image.read(0, 0, out).is_ok());
  std::uint32_t texel[4];
  std::memcpy(texel, out.data() + 4 * 16, 16); // pixel (1, 1)
  EXPECT_EQ(texel[1], 0xdeadbeefu);
  EXPECT_EQ(texel[3], 0x80000000u);
}

TEST_F(GraphicsTest, CopiesImagesAndBuffers) {
  ImageDesc desc;
  desc.format = VK_FORMAT_R32_UINT;
  desc.width = 2, desc.height = 2;
  desc.usage = VK_IMAGE_USAGE_SAMPLED_BIT;
  Image a, b;
  ASSERT_TRUE(Image::create(*context_, desc, a).is_ok());
  ASSERT_TRUE(Image::create(*context_, desc, b).is_ok());
  const std::uint32_t texels[4] = {1, 2, 3, 4};
  ASSERT_TRUE(a.upload({reinterpret_cast<const std::uint8_t*>(texels), 16}).is_ok());
  ASSERT_TRUE(b.copy_from(a).is_ok());
  std::vector<std::uint8_t> out;
  ASSERT_TRUE(b.read(0, 0, out).is_ok());
  ASSERT_EQ(out.size(), 16u);
  EXPECT_EQ(std::memcmp(out.data(), texels, 16), 0);
  desc.width = 3;
  Image wider;
  ASSERT_TRUE(Image::create(*context_, desc, wider).is_ok());
  EXPECT_FALSE(wider.copy_from(a).is_ok());

  Buffer x, y;
  ASSERT_TRUE(Buffer::create(*context_, 16, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, x).is_ok());
  ASSERT_TRUE(Buffer::create(*context_, 8, VK_BUFFER_USAGE_TRANSFER_DST_BIT, y).is_ok());
  x.write(std::span<const std::uint32_t>(texels));
  ASSERT_TRUE(copy_buffer(*context_, x, y).is_ok());
  EXPECT_EQ(y.read<std::uint32_t>(), (std::vector<std::uint32_t>{1, 2}));
}

// VS: position from location 0. FS: texel (1, 0) of a 2x1 texture times the first vec4 of a
// uniform buffer.
constexpr const char* kVertexShader = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint Vertex %main "main" %in %pos
OpDecorate %in Location 0
OpDecorate %pos BuiltIn Position
%void = OpTypeVoid
%fn = OpTypeFunction %void
%f32 = OpTypeFloat 32
%v2 = OpTypeVector %f32 2
%v4 = OpTypeVector %f32 4
%pin = OpTypePointer Input %v2
%pout = OpTypePointer Output %v4
%in = OpVariable %pin Input
%pos = OpVariable %pout Output
%zero = OpConstant %f32 0
%one = OpConstant %f32 1
%main = OpFunction %void None %fn
%l = OpLabel
%xy = OpLoad %v2 %in
%p = OpCompositeConstruct %v4 %xy %zero %one
OpStore %pos %p
OpReturn
OpFunctionEnd
)";

constexpr const char* kFragmentShader = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main "main" %out %ubo %tex
OpExecutionMode %main OriginUpperLeft
OpDecorate %out Location 0
OpDecorate %block Block
OpMemberDecorate %block 0 Offset 0
OpDecorate %ubo DescriptorSet 0
OpDecorate %ubo Binding 0
OpDecorate %tex DescriptorSet 0
OpDecorate %tex Binding 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%f32 = OpTypeFloat 32
%i32 = OpTypeInt 32 1
%v2i = OpTypeVector %i32 2
%v4 = OpTypeVector %f32 4
%block = OpTypeStruct %v4
%pubo = OpTypePointer Uniform %block
%pv4u = OpTypePointer Uniform %v4
%ubo = OpVariable %pubo Uniform
%img = OpTypeImage %f32 2D 0 0 0 1 Unknown
%pimg = OpTypePointer UniformConstant %img
%tex = OpVariable %pimg UniformConstant
%pout = OpTypePointer Output %v4
%out = OpVariable %pout Output
%c0 = OpConstant %i32 0
%c1 = OpConstant %i32 1
%coord = OpConstantComposite %v2i %c1 %c0
%main = OpFunction %void None %fn
%l = OpLabel
%pu = OpAccessChain %pv4u %ubo %c0
%u = OpLoad %v4 %pu
%t = OpLoad %img %tex
%texel = OpImageFetch %v4 %t %coord Lod %c0
%r = OpFMul %v4 %u %texel
OpStore %out %r
OpReturn
OpFunctionEnd
)";

TEST_F(GraphicsTest, DrawWithVertexBufferUniformsAndTexture) {
  std::string error;
  const auto vs = test::assemble_spirv(kVertexShader, &error);
  ASSERT_FALSE(vs.empty()) << error;
  const auto fs = test::assemble_spirv(kFragmentShader, &error);
  ASSERT_FALSE(fs.empty()) << error;

  ImageDesc target_desc;
  target_desc.width = 8, target_desc.height = 4;
  target_desc.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
  Image target;
  ASSERT_TRUE(Image::create(*context_, target_desc, target).is_ok());
  ImageDesc texture_desc;
  texture_desc.width = 2;
  texture_desc.usage = VK_IMAGE_USAGE_SAMPLED_BIT;
  Image texture;
  ASSERT_TRUE(Image::create(*context_, texture_desc, texture).is_ok());
  ASSERT_TRUE(texture.upload(float_bytes({9, 9, 9, 9, 1, 2, 3, 4})).is_ok());

  Buffer uniforms, vertices;
  ASSERT_TRUE(Buffer::create(*context_, 16, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, uniforms).is_ok());
  const float scale[4] = {10, 100, 1000, 0.5f};
  uniforms.write(std::span<const float>(scale));
  ASSERT_TRUE(Buffer::create(*context_, 24, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, vertices).is_ok());
  // Covers the left half of the target only: x in [-1, 0].
  const float triangle[6] = {-1, -1, -1, 3, 0.0f, -1};
  vertices.write(std::span<const float>(triangle));

  std::vector<DescriptorWrite> writes(2);
  writes[0].binding = 0, writes[0].type = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
  writes[0].buffer = uniforms.handle();
  writes[1].binding = 1, writes[1].type = VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE;
  writes[1].image_view = texture.view();
  DescriptorBinding descriptors;
  ASSERT_TRUE(DescriptorBinding::create(*context_, writes, 0, descriptors).is_ok());

  GraphicsPipelineDesc desc;
  desc.stages = {{VK_SHADER_STAGE_VERTEX_BIT, vs, "main"},
                 {VK_SHADER_STAGE_FRAGMENT_BIT, fs, "main"}};
  desc.layout = descriptors.layout();
  desc.vertex_bindings = {{0, 8, VK_VERTEX_INPUT_RATE_VERTEX}};
  desc.vertex_attributes = {{0, 0, VK_FORMAT_R32G32_SFLOAT, 0}};
  desc.color_formats = {VK_FORMAT_R32G32B32A32_SFLOAT};
  GraphicsPipeline pipeline;
  Status created = GraphicsPipeline::create(*context_, desc, pipeline);
  ASSERT_TRUE(created.is_ok()) << created.message();

  const std::uint32_t clear[4] = {0, 0, 0, 0};
  ASSERT_TRUE(target.clear_color(clear).is_ok());
  DrawDesc draw_desc;
  draw_desc.pipeline = &pipeline;
  draw_desc.descriptors = &descriptors;
  draw_desc.color = {{&target}};
  draw_desc.vertex_buffers = {vertices.handle()};
  draw_desc.viewports = {{0, 0, 8, 4, 0, 1}};
  draw_desc.render_area = {{0, 0}, {8, 4}};
  draw_desc.vertex_count = 3;
  Status drawn = draw(*context_, draw_desc);
  ASSERT_TRUE(drawn.is_ok()) << drawn.message();

  std::vector<std::uint8_t> out;
  ASSERT_TRUE(target.read(0, 0, out).is_ok());
  const std::size_t left = (2 * 8 + 1) * 4, right = (2 * 8 + 6) * 4; // pixels (1, 2), (6, 2)
  EXPECT_EQ(float_at(out, left + 0), 10.0f);
  EXPECT_EQ(float_at(out, left + 1), 200.0f);
  EXPECT_EQ(float_at(out, left + 2), 3000.0f);
  EXPECT_EQ(float_at(out, left + 3), 2.0f);
  EXPECT_EQ(float_at(out, right + 0), 0.0f); // outside the triangle: still cleared
}

} // namespace
} // namespace kiln::vulkan
