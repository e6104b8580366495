// Shaders translated under a layer's interface that is not kiln's own model run on lavapipe and
// give the right values: descriptors in other sets and bindings, a constant buffer in push
// constants (at a non-zero offset), raw and structured buffers as R32_UINT texel buffers, and
// the UAV counter in a storage texel buffer or at an offset of a storage buffer.

#include "tests/plugin/abi/interface_programs.h"
#include "tests/support/shared_data.h"
#include "bench/execute/vulkan_graphics.h"
#include "bench/execute/vulkan_harness.h"
#include "translator/spirv/validate.h"
#include "translator/translate.h"

#include <algorithm>
#include <cstring>
#include <gtest/gtest.h>
#include <memory>
#include <numeric>

namespace kiln::test {
namespace {

constexpr std::uint32_t kPushOffset = 16; // cb0 is the push bytes [16, 32)
constexpr std::uint32_t kAdded = 1000;    // cb0[0].x

BindingRange range(DescriptorClass c, std::uint32_t reg, std::uint32_t set, std::uint32_t binding,
                   BindingRange::BufferForm form) {
  BindingRange r;
  r.register_class = c;
  r.first_register = reg;
  r.register_count = 1;
  r.set = set;
  r.binding = binding;
  r.buffer_form = form;
  return r;
}

struct Layout {
  bool counter_in_texel_buffer = true;
  bool raw_uav_in_texel_buffer = true;
};

std::shared_ptr<const ShaderInterface> make_interface(const Layout& layout) {
  using Form = BindingRange::BufferForm;
  auto i = std::make_shared<ShaderInterface>();
  i->bindings.push_back(range(DescriptorClass::Srv, 2, 1, 4, Form::TexelBuffer));
  i->bindings.push_back(range(DescriptorClass::Uav, 1, 2, 0, Form::TexelBuffer));
  i->bindings.push_back(
      range(DescriptorClass::Uav, 3, 2, 3,
            layout.raw_uav_in_texel_buffer ? Form::TexelBuffer : Form::StorageBuffer));
  i->push_constant_buffers.push_back({0, 0, stage_bit(ShaderStage::Compute), kPushOffset, 16});
  UavCounterBinding counter;
  counter.register_index = 1;
  counter.set = 0;
  counter.binding = 7;
  counter.form = layout.counter_in_texel_buffer ? UavCounterBinding::Form::StorageTexelBuffer
                                                : UavCounterBinding::Form::StorageBuffer;
  counter.offset = layout.counter_in_texel_buffer ? 0 : 8;
  i->uav_counters.push_back(counter);
  return i;
}

class InterfaceVulkan : public ::testing::TestWithParam<Layout> {
 protected:
  void SetUp() override {
    std::string why_not;
    context_ = vulkan::Context::create(why_not);
    if (!context_) KILN_SKIP_OR_FAIL_IN_CI("no Vulkan device: " << why_not);
  }
  std::unique_ptr<vulkan::Context> context_;
};

TEST_P(InterfaceVulkan, ComputeUnderANonDefaultLayoutGivesTheRightValues) {
  const Layout layout = GetParam();
  Translator translator;
  TranslateOptions options;
  options.interface = make_interface(layout);
  TranslateResult result;
  const std::vector<std::uint8_t> program = interface_compute_program();
  ASSERT_TRUE(translator.translate(program, options, result)) << "translate";
  Status valid = validate_spirv(result.spirv, options.target);
  ASSERT_TRUE(valid) << valid.message();

  vulkan::Context& ctx = *context_;
  const VkBufferUsageFlags usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                   VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT |
                                   VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT;
  vulkan::Buffer input, structured, raw, counter;
  ASSERT_TRUE(vulkan::Buffer::create(ctx, kThreads * 4, usage, input));
  ASSERT_TRUE(vulkan::Buffer::create(ctx, kThreads * 4, usage, structured));
  ASSERT_TRUE(vulkan::Buffer::create(ctx, (kThreads + 4) * 4, usage, raw));
  ASSERT_TRUE(vulkan::Buffer::create(ctx, 16, usage, counter));
  std::vector<std::uint32_t> in(kThreads);
  for (std::uint32_t i = 0; i < kThreads; ++i) in[i] = i * 7 + 3;
  input.write(std::span<const std::uint32_t>(in));
  vulkan::BufferView input_view, structured_view, raw_view, counter_view;
  ASSERT_TRUE(vulkan::BufferView::create(ctx, input, VK_FORMAT_R32_UINT, input_view));
  ASSERT_TRUE(vulkan::BufferView::create(ctx, structured, VK_FORMAT_R32_UINT, structured_view));
  ASSERT_TRUE(vulkan::BufferView::create(ctx, raw, VK_FORMAT_R32_UINT, raw_view));
  ASSERT_TRUE(vulkan::BufferView::create(ctx, counter, VK_FORMAT_R32_UINT, counter_view));

  // The writes a layer makes from the interface it chose; reflection must say the same.
  std::vector<vulkan::DescriptorWrite> writes;
  auto add = [&](std::uint32_t set, std::uint32_t binding, VkDescriptorType type,
                 const vulkan::Buffer& buffer, const vulkan::BufferView& view) {
    vulkan::DescriptorWrite w;
    w.set = set;
    w.binding = binding;
    w.type = type;
    w.buffer = buffer.handle();
    w.texel_view = view.handle();
    writes.push_back(w);
  };
  add(1, 4, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, input, input_view);
  add(2, 0, VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, structured, structured_view);
  add(2, 3,
      layout.raw_uav_in_texel_buffer ? VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER
                                     : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
      raw, raw_view);
  add(0, 7,
      layout.counter_in_texel_buffer ? VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER
                                     : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
      counter, counter_view);
  unsigned matched = 0;
  for (const ResourceBinding& r : result.reflection.resources) {
    if (r.flags & ResourceBinding::PushConstant) {
      EXPECT_EQ(r.offset, kPushOffset);
      EXPECT_EQ(r.size, 16u);
      ++matched;
      continue;
    }
    for (const vulkan::DescriptorWrite& w : writes)
      if (w.set == r.set && w.binding == r.binding && VkDescriptorType(r.descriptor_type) == w.type)
        ++matched;
  }
  EXPECT_EQ(matched, 5u) << "reflection does not list the interface's slots";

  vulkan::DescriptorBinding descriptors;
  Status s = vulkan::DescriptorBinding::create(ctx, writes, kPushOffset + 16, descriptors);
  ASSERT_TRUE(s) << s.message();
  vulkan::ComputeProgram compute;
  s = vulkan::ComputeProgram::create(ctx, {VK_SHADER_STAGE_COMPUTE_BIT, result.spirv, "main"},
                                     descriptors.layout(), compute);
  ASSERT_TRUE(s) << s.message();
  std::vector<std::uint8_t> push(kPushOffset + 16, 0xcd);
  const std::uint32_t added = kAdded;
  std::memcpy(push.data() + kPushOffset, &added, 4);
  s = vulkan::dispatch(ctx, compute, descriptors, push, 1, 1, 1);
  ASSERT_TRUE(s) << s.message();

  std::vector<std::uint32_t> expected(kThreads);
  for (std::uint32_t i = 0; i < kThreads; ++i) expected[i] = in[i] + kAdded;
  const std::vector<std::uint32_t> raw_out = raw.read<std::uint32_t>();
  EXPECT_EQ(std::vector<std::uint32_t>(raw_out.begin(), raw_out.begin() + kThreads), expected);
  EXPECT_EQ(raw_out[kThreads], kThreads) << "atomic_iadd on the raw UAV";
  // Each thread stored its value at the slot its counter increment returned: a permutation.
  std::vector<std::uint32_t> structured_out = structured.read<std::uint32_t>();
  std::sort(structured_out.begin(), structured_out.end());
  EXPECT_EQ(structured_out, expected);
  const std::vector<std::uint32_t> counter_out = counter.read<std::uint32_t>();
  const std::size_t counter_word = layout.counter_in_texel_buffer ? 0 : 2;
  EXPECT_EQ(counter_out[counter_word], kThreads) << "the counter at the interface's place";
  for (std::size_t w = 0; w < counter_out.size(); ++w) {
    if (w != counter_word) {
      EXPECT_EQ(counter_out[w], 0u) << "counter word " << w;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Layouts, InterfaceVulkan,
                         ::testing::Values(Layout{true, true}, Layout{false, false}),
                         [](const auto& param_info) {
                           return std::string(param_info.param.counter_in_texel_buffer
                                                  ? "TexelCounterTexelRawUav"
                                                  : "BufferCounterAtOffsetStorageRawUav");
                         });

} // namespace
} // namespace kiln::test
