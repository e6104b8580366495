// D3D11 class linkage run on lavapipe (tests/translator/dxbc/linkage_program.h): one translated module,
// two class-instance selections written to its selection buffer between dispatches, two
// different results, each what the HLSL semantics give; a selection moved by the interface,
// one in push constants (changed per dispatch as a D3D11 layer would per draw), and one baked
// in (no buffer).

#include "tests/translator/dxbc/linkage_program.h"
#include "tests/support/shared_data.h"
#include "bench/execute/vulkan_graphics.h"
#include "bench/execute/vulkan_harness.h"
#include "translator/spirv/validate.h"
#include "translator/translate.h"

#include <cstring>
#include <gtest/gtest.h>
#include <memory>
#include <vector>

namespace kiln::test {
namespace {

using dxbc::test::kLinkageThreads;
using dxbc::test::LinkageInstance;

// Kiln's own binding model (docs/pipeline.md): binding = register * 5 + class.
constexpr std::uint32_t binding_of_cb(std::uint32_t reg) {
  return reg * 5;
}
constexpr std::uint32_t kUavBinding = 2; // u0

// ft0 = AddK (this.x = constant buffer, this.y = vector), ft1 = Scale.
const std::vector<LinkageInstance> kSelectionA = {{0, 1, 0}, {1, 0, 0}, {0, 0, 1}};
const std::vector<LinkageInstance> kSelectionB = {{1, 0, 0}, {0, 0, 0}, {0, 1, 0}};

class ClassLinkageVulkan : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why_not;
    context_ = vulkan::Context::create(why_not);
    if (!context_) KILN_SKIP_OR_FAIL_IN_CI("no Vulkan device: " << why_not);
  }

  void translate(const std::shared_ptr<ShaderInterface>& interface, TranslateResult& result) {
    Translator translator;
    TranslateOptions options;
    options.interface = interface;
    const auto bytes = dxbc::test::shader_container(dxbc::test::linkage_compute_program());
    Status s = translator.translate(bytes, options, result);
    ASSERT_TRUE(s) << s.message();
    Status valid = validate_spirv(result.spirv, options.target);
    ASSERT_TRUE(valid) << valid.message();
  }

  // The selection buffer's binding from the reflection (-1: none).
  static int selection_binding(const TranslateResult& result) {
    int binding = -1;
    for (const ResourceBinding& r : result.reflection.resources)
      if (r.flags & ResourceBinding::ClassInstances) binding = int(r.binding);
    return binding;
  }

  // Dispatches `module` with cb0 = {{10}, {20}}, cb1 = {{300}} and `selection` (if any) at
  // `selection_at`; returns what each thread stored.
  std::vector<std::uint32_t> run(const TranslateResult& result, int selection_at,
                                 const std::vector<LinkageInstance>* selection) {
    vulkan::Context& ctx = *context_;
    const VkBufferUsageFlags usage =
        VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT;
    vulkan::Buffer cb0, cb1, select, out;
    EXPECT_TRUE(vulkan::Buffer::create(ctx, 32, usage, cb0));
    EXPECT_TRUE(vulkan::Buffer::create(ctx, 16, usage, cb1));
    EXPECT_TRUE(vulkan::Buffer::create(ctx, 96, usage, select));
    EXPECT_TRUE(vulkan::Buffer::create(ctx, kLinkageThreads * 4, usage, out));
    const std::vector<std::uint32_t> cb0_words = {10, 0, 0, 0, 20, 0, 0, 0};
    const std::vector<std::uint32_t> cb1_words = {300, 0, 0, 0};
    cb0.write(std::span<const std::uint32_t>(cb0_words));
    cb1.write(std::span<const std::uint32_t>(cb1_words));
    std::vector<vulkan::BufferBinding> bindings = {
        {binding_of_cb(0), VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, &cb0},
        {binding_of_cb(1), VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, &cb1},
        {kUavBinding, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &out}};
    if (selection) {
      const std::vector<std::uint32_t> words = dxbc::test::linkage_selection(*selection);
      select.write(std::span<const std::uint32_t>(words));
      bindings.push_back({std::uint32_t(selection_at), VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, &select});
    }
    vulkan::ComputePipeline pipeline;
    Status s = vulkan::ComputePipeline::create(ctx, result.spirv, bindings, "main", pipeline);
    EXPECT_TRUE(s) << s.message();
    if (!s) return {};
    s = pipeline.dispatch(bindings, 1);
    EXPECT_TRUE(s) << s.message();
    return out.read<std::uint32_t>();
  }

  static std::vector<std::uint32_t> expected(const std::vector<LinkageInstance>& selection) {
    std::vector<std::uint32_t> out;
    for (std::uint32_t t = 0; t < kLinkageThreads; ++t)
      out.push_back(dxbc::test::linkage_expected(selection, t));
    return out;
  }

  std::unique_ptr<vulkan::Context> context_;
};

TEST_F(ClassLinkageVulkan, TwoSelectionsOfOneModuleGiveTheirOwnResults) {
  TranslateResult result;
  ASSERT_NO_FATAL_FAILURE(translate(nullptr, result));
  const int binding = selection_binding(result);
  ASSERT_EQ(binding, int(binding_of_cb(KILN_CLASS_LINKAGE_DEFAULT_REGISTER)))
      << "reflection does not name the selection buffer at kiln's default register";
  const std::vector<std::uint32_t> a = run(result, binding, &kSelectionA);
  const std::vector<std::uint32_t> b = run(result, binding, &kSelectionB);
  EXPECT_EQ(a, expected(kSelectionA));
  EXPECT_EQ(b, expected(kSelectionB));
  EXPECT_NE(a, b);
}

TEST_F(ClassLinkageVulkan, TheInterfaceMovesTheSelectionBuffer) {
  auto interface = std::make_shared<ShaderInterface>();
  interface->class_linkage.register_index = 7;
  TranslateResult result;
  ASSERT_NO_FATAL_FAILURE(translate(interface, result));
  const int binding = selection_binding(result);
  ASSERT_EQ(binding, int(binding_of_cb(7)));
  EXPECT_EQ(run(result, binding, &kSelectionB), expected(kSelectionB));
}

// The layer's own layout: cb0, cb1 at bindings 0, 1; u0 at 2; the selection (cb14) in push
// constants at offset 16, rewritten between two dispatches of one pipeline.
TEST_F(ClassLinkageVulkan, APushConstantSelectionChangesPerDispatch) {
  constexpr std::uint32_t kPushOffset = 16, kSelectionBytes = 96;
  auto interface = std::make_shared<ShaderInterface>();
  BindingRange cbs;
  cbs.register_class = DescriptorClass::Cbv;
  cbs.register_count = 2;
  BindingRange uav;
  uav.register_class = DescriptorClass::Uav;
  uav.binding = 2;
  interface->bindings = {cbs, uav};
  interface->push_constant_buffers.push_back(
      {0, KILN_CLASS_LINKAGE_DEFAULT_REGISTER, 0, kPushOffset, kSelectionBytes});
  TranslateResult result;
  ASSERT_NO_FATAL_FAILURE(translate(interface, result));
  bool reflected = false;
  for (const ResourceBinding& r : result.reflection.resources)
    reflected = reflected ||
                (r.flags == (ResourceBinding::PushConstant | ResourceBinding::ClassInstances) &&
                 r.offset == kPushOffset && r.size == kSelectionBytes);
  EXPECT_TRUE(reflected) << "reflection does not name the selection's push-constant bytes";

  vulkan::Context& ctx = *context_;
  const VkBufferUsageFlags usage =
      VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT;
  vulkan::Buffer cb0, cb1, out;
  ASSERT_TRUE(vulkan::Buffer::create(ctx, 32, usage, cb0));
  ASSERT_TRUE(vulkan::Buffer::create(ctx, 16, usage, cb1));
  ASSERT_TRUE(vulkan::Buffer::create(ctx, kLinkageThreads * 4, usage, out));
  const std::vector<std::uint32_t> cb0_words = {10, 0, 0, 0, 20, 0, 0, 0};
  const std::vector<std::uint32_t> cb1_words = {300, 0, 0, 0};
  cb0.write(std::span<const std::uint32_t>(cb0_words));
  cb1.write(std::span<const std::uint32_t>(cb1_words));
  std::vector<vulkan::DescriptorWrite> writes(3);
  writes[0].buffer = cb0.handle();
  writes[1].binding = 1;
  writes[1].buffer = cb1.handle();
  writes[2].binding = 2;
  writes[2].type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  writes[2].buffer = out.handle();
  vulkan::DescriptorBinding descriptors;
  Status s =
      vulkan::DescriptorBinding::create(ctx, writes, kPushOffset + kSelectionBytes, descriptors);
  ASSERT_TRUE(s) << s.message();
  vulkan::ComputeProgram compute;
  s = vulkan::ComputeProgram::create(ctx, {VK_SHADER_STAGE_COMPUTE_BIT, result.spirv, "main"},
                                     descriptors.layout(), compute);
  ASSERT_TRUE(s) << s.message();
  for (const auto* selection : {&kSelectionA, &kSelectionB}) {
    const std::vector<std::uint32_t> words = dxbc::test::linkage_selection(*selection);
    std::vector<std::uint8_t> push(kPushOffset + kSelectionBytes, 0);
    std::memcpy(push.data() + kPushOffset, words.data(), kSelectionBytes);
    s = vulkan::dispatch(ctx, compute, descriptors, push, 1, 1, 1);
    ASSERT_TRUE(s) << s.message();
    EXPECT_EQ(out.read<std::uint32_t>(), expected(*selection));
  }
}

TEST_F(ClassLinkageVulkan, AFixedSelectionNeedsNoBuffer) {
  auto interface = std::make_shared<ShaderInterface>();
  for (const LinkageInstance& s : kSelectionA)
    interface->class_linkage.fixed_instances.push_back({s.table, {s.cb, s.vector, 0, 0}});
  TranslateResult result;
  ASSERT_NO_FATAL_FAILURE(translate(interface, result));
  EXPECT_EQ(selection_binding(result), -1);
  EXPECT_EQ(run(result, -1, nullptr), expected(kSelectionA));
}

} // namespace
} // namespace kiln::test
