// Combined image/samplers (the interface's combined_samplers) applied in the SPIR-V lowering and
// run on lavapipe: t0 sampled with s0 reads the image bound at the pair's binding, and t0 read
// without a sampler (ld) the one at the no-sampler entry's binding; neither t0 nor s0 has a
// binding of its own. A use no entry covers fails with a line naming it.

#include "bench/synth/dxbc_writer.h"
#include "tests/support/shared_data.h"
#include "bench/execute/vulkan_graphics.h"
#include "bench/execute/vulkan_harness.h"
#include "translator/spirv/validate.h"
#include "translator/translate.h"

#include <bit>
#include <cstring>
#include <gtest/gtest.h>
#include <memory>

namespace kiln::test {
namespace {

using namespace kiln::synth::dxbc;
namespace opd = kiln::synth::dxbc::operand;

constexpr std::uint32_t kTexels = 4; // one thread per texel

Operand select_thread_x() {
  return opd::of({opd::token(OperandType::InputThreadId, 2, 2, 0, 0)});
}
std::uint32_t bits(float f) {
  return std::bit_cast<std::uint32_t>(f);
}

// cs_5_0, 4 threads, thread i:
//   u0[2i] = t0.SampleLevel(s0, ((i + 0.5) / 4, 0.5), 0).x
//   u0[2i + 1] = t0.Load(int3(i, 0, 0)).x
std::vector<std::uint8_t> combined_sampler_cs() {
  ProgramWriter w(ShaderStage::Compute, 5, 0);
  w.emit(Op::DclSampler, {opd::sampler(0)});
  Operand texture;
  texture.push(opd::token(OperandType::Resource, 0, 0, 0, 1));
  texture.push(0);
  w.emit(Op::DclResource, {texture}, 3 /* texture2d */, {0x5555 /* float x4 */});
  w.emit(Op::DclUavRaw, {opd::of({opd::token(OperandType::Uav, 0, 0, 0, 1), 0})});
  w.emit(Op::DclInput, {opd::of({opd::token(OperandType::InputThreadId, 2, 0, 0x1, 0)})});
  w.emit(Op::DclTemps, {}, 0, {3});
  w.emit(Op::DclThreadGroup, {}, 0, {kTexels, 1, 1});
  w.emit(Op::Utof, {opd::temp_dst(0, 0x1), select_thread_x()});
  w.emit(Op::Add, {opd::temp_dst(0, 0x1), opd::temp_scalar(0, 0), opd::imm1(0.5f)});
  w.emit(Op::Mul, {opd::temp_dst(0, 0x1), opd::temp_scalar(0, 0), opd::imm1(1.0f / kTexels)});
  w.emit(Op::Mov, {opd::temp_dst(0, 0x2), opd::imm1(0.5f)});
  w.emit(Op::SampleL, {opd::temp_dst(1, 0xf), opd::temp(0, swizzle(0, 1, 0, 0)), opd::resource(0),
                       opd::sampler(0), opd::imm1(0.0f)});
  w.emit(Op::Mov, {opd::temp_dst(2, 0xe), opd::imm4_bits(0, 0, 0, 0)});
  w.emit(Op::Mov, {opd::temp_dst(2, 0x1), select_thread_x()});
  w.emit(Op::Ld, {opd::temp_dst(2, 0xf), opd::temp(2), opd::resource(0)});
  w.emit(Op::Mov, {opd::temp_dst(1, 0x2), opd::temp_scalar(2, 0)});
  w.emit(Op::IShl, {opd::temp_dst(0, 0x4), select_thread_x(), opd::imm1_bits(3)});
  w.emit(Op::StoreRaw,
         {opd::uav(0, 0x3, true), opd::temp_scalar(0, 2), opd::temp(1, swizzle(0, 1, 0, 0))});
  w.emit(Op::Ret, {});
  const std::vector<std::uint32_t> program = w.finish();
  ContainerWriter c;
  c.add_chunk(fourcc('S', 'H', 'E', 'X'), std::span<const std::uint32_t>(program));
  return c.finish();
}

constexpr std::uint32_t kSet = 1, kSampledBinding = 2, kFetchBinding = 5;

std::shared_ptr<ShaderInterface> make_interface(bool with_fetch_entry) {
  auto i = std::make_shared<ShaderInterface>();
  BindingRange u0;
  u0.register_class = DescriptorClass::Uav;
  u0.register_count = 1;
  u0.buffer_form = BindingRange::BufferForm::StorageBuffer;
  i->bindings.push_back(u0);
  CombinedSampler sampled;
  sampled.sampler_index = 0;
  sampled.set = kSet;
  sampled.binding = kSampledBinding;
  i->combined_samplers.push_back(sampled);
  if (with_fetch_entry) {
    CombinedSampler fetch;
    fetch.sampler_index = kNoSampler;
    fetch.set = kSet;
    fetch.binding = kFetchBinding;
    i->combined_samplers.push_back(fetch);
  }
  return i;
}

TEST(CombinedSamplers, EachPairReadsTheImageAtItsBinding) {
  std::string why_not;
  std::unique_ptr<vulkan::Context> context = vulkan::Context::create(why_not);
  if (!context) KILN_SKIP_OR_FAIL_IN_CI("no Vulkan device: " << why_not);
  Translator translator;
  TranslateOptions options;
  options.interface = make_interface(true);
  TranslateResult result;
  Status s = translator.translate(combined_sampler_cs(), options, result);
  ASSERT_TRUE(s) << s.message();
  s = validate_spirv(result.spirv, options.target);
  ASSERT_TRUE(s) << s.message();
  // Reflection: the two pairs, as combined image/samplers of t0; no separate t0 or s0.
  unsigned combined = 0;
  for (const ResourceBinding& r : result.reflection.resources) {
    EXPECT_NE(r.register_class, ResourceBinding::Class::Sampler);
    if (r.register_class != ResourceBinding::Class::Srv) continue;
    EXPECT_EQ(r.descriptor_type, std::uint32_t(VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER));
    EXPECT_EQ(r.set, kSet);
    EXPECT_TRUE(r.binding == kSampledBinding || r.binding == kFetchBinding) << r.binding;
    EXPECT_EQ(r.dimension, ResourceDimension::Texture2D);
    ++combined;
  }
  EXPECT_EQ(combined, 2u);

  vulkan::Context& ctx = *context;
  // Different images at the two bindings, so each read shows which binding it used.
  vulkan::Image sampled_image, fetched_image;
  vulkan::ImageDesc desc;
  desc.width = kTexels;
  desc.usage = VK_IMAGE_USAGE_SAMPLED_BIT;
  ASSERT_TRUE(vulkan::Image::create(ctx, desc, sampled_image));
  ASSERT_TRUE(vulkan::Image::create(ctx, desc, fetched_image));
  std::vector<float> sampled_texels, fetched_texels;
  for (std::uint32_t i = 0; i < kTexels; ++i)
    for (std::uint32_t c = 0; c < 4; ++c) {
      sampled_texels.push_back(10.0f + float(i) + (c ? 0.5f : 0.0f));
      fetched_texels.push_back(20.0f + float(i) + (c ? 0.5f : 0.0f));
    }
  const auto as_bytes = [](const std::vector<float>& v) {
    return std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(v.data()),
                                         v.size() * sizeof(float));
  };
  ASSERT_TRUE(sampled_image.upload(as_bytes(sampled_texels)));
  ASSERT_TRUE(fetched_image.upload(as_bytes(fetched_texels)));
  vulkan::Sampler sampler;
  ASSERT_TRUE(vulkan::Sampler::create(ctx, {}, sampler));
  vulkan::Buffer out;
  ASSERT_TRUE(vulkan::Buffer::create(ctx, kTexels * 8, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, out));

  std::vector<vulkan::DescriptorWrite> writes(3);
  writes[0].set = 0;
  writes[0].binding = 0;
  writes[0].type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  writes[0].buffer = out.handle();
  writes[1].set = kSet;
  writes[1].binding = kSampledBinding;
  writes[1].type = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
  writes[1].image_view = sampled_image.view();
  writes[1].sampler = sampler.handle();
  writes[2] = writes[1];
  writes[2].binding = kFetchBinding;
  writes[2].image_view = fetched_image.view();
  vulkan::DescriptorBinding descriptors;
  s = vulkan::DescriptorBinding::create(ctx, writes, 0, descriptors);
  ASSERT_TRUE(s) << s.message();
  vulkan::ComputeProgram compute;
  s = vulkan::ComputeProgram::create(ctx, {VK_SHADER_STAGE_COMPUTE_BIT, result.spirv, "main"},
                                     descriptors.layout(), compute);
  ASSERT_TRUE(s) << s.message();
  s = vulkan::dispatch(ctx, compute, descriptors, {}, 1, 1, 1);
  ASSERT_TRUE(s) << s.message();
  const std::vector<std::uint32_t> got = out.read<std::uint32_t>();
  ASSERT_EQ(got.size(), kTexels * 2);
  for (std::uint32_t i = 0; i < kTexels; ++i) {
    EXPECT_EQ(got[2 * i], bits(10.0f + float(i))) << "sampled texel " << i;
    EXPECT_EQ(got[2 * i + 1], bits(20.0f + float(i))) << "fetched texel " << i;
  }
}

TEST(CombinedSamplers, AReadNoEntryCoversFailsNamingIt) {
  Translator translator;
  TranslateOptions options;
  options.interface = make_interface(false);
  TranslateResult result;
  const Status s = translator.translate(combined_sampler_cs(), options, result);
  ASSERT_FALSE(s);
  EXPECT_NE(s.message().find("t0 (space 0) read without a sampler by the compute shader is not in "
                             "the interface's combined samplers"),
            std::string::npos)
      << s.message();
}

} // namespace
} // namespace kiln::test
