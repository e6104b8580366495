// The binding map in the SPIR-V backend: where each register lands under an interface, the
// one-line error for a register the interface does not cover, and kiln's own model without one.

#include "tests/plugin/abi/interface_programs.h"
#include "translator/common/binding_map.h"
#include "translator/spirv/validate.h"
#include "translator/translate.h"

#include <gtest/gtest.h>
#include <memory>
#include <vulkan/vulkan_core.h>

namespace kiln::test {
namespace {

BindingRange range(DescriptorClass c, std::uint32_t first, std::uint32_t count, std::uint32_t set,
                   std::uint32_t binding, std::uint8_t flags = 0,
                   BindingRange::BufferForm form = BindingRange::BufferForm::StorageBuffer) {
  BindingRange r;
  r.register_class = c;
  r.first_register = first;
  r.register_count = count;
  r.set = set;
  r.binding = binding;
  r.flags = flags;
  r.buffer_form = form;
  return r;
}

// Everything the compute program uses, in set 3 from binding 10 on.
std::shared_ptr<ShaderInterface> full_interface() {
  auto i = std::make_shared<ShaderInterface>();
  i->bindings.push_back(range(DescriptorClass::Cbv, 0, 1, 3, 10));
  i->bindings.push_back(range(DescriptorClass::Srv, 0, 8, 3, 20));
  i->bindings.push_back(range(DescriptorClass::Uav, 0, 8, 3, 30));
  UavCounterBinding counter;
  counter.register_index = 1;
  counter.set = 3;
  counter.binding = 40;
  i->uav_counters.push_back(counter);
  return i;
}

Status translate(const std::shared_ptr<ShaderInterface>& interface, TranslateResult& out) {
  Translator translator;
  TranslateOptions options;
  options.interface = interface;
  if (Status s = translator.translate(interface_compute_program(), options, out); !s) return s;
  return validate_spirv(out.spirv, options.target);
}

const ResourceBinding* find(const Reflection& r, ResourceBinding::Class c, std::uint32_t reg) {
  for (const ResourceBinding& b : r.resources)
    if (b.register_class == c && b.register_index == reg) return &b;
  return nullptr;
}

TEST(InterfaceBindings, RegistersLandWhereTheMapSays) {
  TranslateResult result;
  Status s = translate(full_interface(), result);
  ASSERT_TRUE(s) << s.message();
  const Reflection& r = result.reflection;
  const ResourceBinding* cb = find(r, ResourceBinding::Class::Cbv, 0);
  const ResourceBinding* t2 = find(r, ResourceBinding::Class::Srv, 2);
  const ResourceBinding* u1 = find(r, ResourceBinding::Class::Uav, 1);
  const ResourceBinding* u3 = find(r, ResourceBinding::Class::Uav, 3);
  const ResourceBinding* counter = find(r, ResourceBinding::Class::UavCounter, 1);
  ASSERT_TRUE(cb && t2 && u1 && u3 && counter);
  EXPECT_EQ(cb->set, 3u);
  EXPECT_EQ(cb->binding, 10u);
  EXPECT_EQ(cb->descriptor_type, std::uint32_t(VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER));
  EXPECT_EQ(t2->binding, 22u); // binding + (register - first_register)
  EXPECT_EQ(t2->descriptor_type, std::uint32_t(VK_DESCRIPTOR_TYPE_STORAGE_BUFFER));
  EXPECT_EQ(u1->binding, 31u);
  EXPECT_EQ(u3->binding, 33u);
  EXPECT_EQ(counter->set, 3u);
  EXPECT_EQ(counter->binding, 40u);
  EXPECT_EQ(counter->descriptor_type, std::uint32_t(VK_DESCRIPTOR_TYPE_STORAGE_BUFFER));
}

TEST(InterfaceBindings, AnUncoveredRegisterFailsNamingIt) {
  auto interface = full_interface();
  interface->bindings[1].first_register = 3; // t3..t10: t2 is not covered
  TranslateResult result;
  Status s = translate(interface, result);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.message(), "t2 (space 0) used by the compute shader is not in the interface's "
                         "binding map");
  EXPECT_TRUE(result.spirv.empty());

  interface = full_interface();
  interface->bindings[0].stages = stage_bit(ShaderStage::Pixel); // cb0: pixel shaders only
  s = translate(interface, result);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.message(), "cb0 (space 0) used by the compute shader is not in the interface's "
                         "binding map");

  interface = full_interface();
  interface->bindings[2].flags = BindingRange::Image; // u#: images only, the program's are buffers
  s = translate(interface, result);
  ASSERT_FALSE(s);
  EXPECT_NE(s.message().find("(space 0) used by the compute shader is not in the interface's "
                             "binding map"),
            std::string::npos)
      << s.message();

  interface = full_interface();
  interface->uav_counters.clear();
  s = translate(interface, result);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.message(), "the counter of u1 (space 0) used by the compute shader is not in the "
                         "interface's UAV counters");
  EXPECT_EQ(s.message().find('\n'), std::string::npos);
}

TEST(InterfaceBindings, ArrayRangesMakeTheRegisterAnElement) {
  auto interface = full_interface();
  interface->bindings[1] = range(DescriptorClass::Srv, 0, 16, 5, 2, BindingRange::Array);
  TranslateResult result;
  Status s = translate(interface, result);
  ASSERT_TRUE(s) << s.message();
  const ResourceBinding* t2 = find(result.reflection, ResourceBinding::Class::Srv, 2);
  ASSERT_TRUE(t2);
  EXPECT_EQ(t2->set, 5u);
  EXPECT_EQ(t2->binding, 2u);
  EXPECT_EQ(t2->array_size, 16u);
}

TEST(InterfaceBindings, PushConstantsAndTexelBuffersAreReflected) {
  auto interface = full_interface();
  interface->push_constant_buffers.push_back({0, 0, 0, 64, 16});
  interface->bindings[1].buffer_form = BindingRange::BufferForm::TexelBuffer;
  interface->bindings[2].buffer_form = BindingRange::BufferForm::TexelBuffer;
  interface->uav_counters[0].form = UavCounterBinding::Form::StorageTexelBuffer;
  TranslateResult result;
  Status s = translate(interface, result);
  ASSERT_TRUE(s) << s.message();
  const Reflection& r = result.reflection;
  const ResourceBinding* cb = find(r, ResourceBinding::Class::Cbv, 0);
  ASSERT_TRUE(cb);
  EXPECT_TRUE(cb->flags & ResourceBinding::PushConstant);
  EXPECT_EQ(cb->offset, 64u);
  EXPECT_EQ(cb->size, 16u);
  EXPECT_EQ(find(r, ResourceBinding::Class::Srv, 2)->descriptor_type,
            std::uint32_t(VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER));
  EXPECT_EQ(find(r, ResourceBinding::Class::Uav, 1)->descriptor_type,
            std::uint32_t(VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER));
  EXPECT_EQ(find(r, ResourceBinding::Class::UavCounter, 1)->descriptor_type,
            std::uint32_t(VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER));
}

TEST(InterfaceBindings, WithoutAnInterfaceKilnsOwnModelIsUnchanged) {
  TranslateResult result;
  Status s = translate(nullptr, result);
  ASSERT_TRUE(s) << s.message();
  const Reflection& r = result.reflection;
  EXPECT_EQ(find(r, ResourceBinding::Class::Cbv, 0)->binding, 0u);
  EXPECT_EQ(find(r, ResourceBinding::Class::Srv, 2)->binding, 11u);
  EXPECT_EQ(find(r, ResourceBinding::Class::Uav, 1)->binding, 7u);
  EXPECT_EQ(find(r, ResourceBinding::Class::UavCounter, 1)->binding, 9u);
  for (const ResourceBinding& b : r.resources) EXPECT_EQ(b.set, 0u);
}

TEST(BindingMap, NamesRegistersAndRanges) {
  EXPECT_EQ(register_name(DescriptorClass::Srv, 0, 3), "t3 (space 0)");
  EXPECT_EQ(register_name(DescriptorClass::Cbv, 2, 1), "cb1 (space 2)");
  EXPECT_EQ(register_name(DescriptorClass::Uav, 1, 2, 4), "u2..u5 (space 1)");
  EXPECT_EQ(register_name(DescriptorClass::Sampler, 0, 0, 0), "s0.. (space 0)");
}

TEST(BindingMap, RangesNeedAllTheirRegistersAndUnboundedDeclarationsAnUnboundedRange) {
  ShaderInterface i;
  i.bindings.push_back(range(DescriptorClass::Srv, 4, 4, 0, 100));
  DescriptorSlot slot;
  EXPECT_TRUE(map_descriptor(i, DescriptorClass::Srv, 0, 4, 4, ShaderStage::Pixel, false, slot));
  EXPECT_EQ(slot.binding, 100u);
  EXPECT_EQ(slot.array_size, 4u);
  EXPECT_FALSE(map_descriptor(i, DescriptorClass::Srv, 0, 5, 4, ShaderStage::Pixel, false, slot));
  EXPECT_FALSE(map_descriptor(i, DescriptorClass::Srv, 0, 4, 0, ShaderStage::Pixel, false, slot));
  i.bindings[0].register_count = kRegistersUnbounded;
  EXPECT_TRUE(map_descriptor(i, DescriptorClass::Srv, 0, 4, 0, ShaderStage::Pixel, false, slot));
  EXPECT_EQ(slot.array_size, 0u);
  EXPECT_FALSE(map_descriptor(i, DescriptorClass::Srv, 1, 4, 1, ShaderStage::Pixel, false, slot));
}

} // namespace
} // namespace kiln::test
