// The interface's public forms: kiln_interface_info through the C ABI (validated conversion,
// chained on kiln_submit_info or on the context) and the JSON file `kiln translate
// --interface` reads.

#include "kiln/kiln.h"
#include "plugin/abi/abi_interface.h"
#include "plugin/abi/interface_json.h"
#include "tests/plugin/abi/interface_programs.h"

#include <gtest/gtest.h>
#include <string>
#include <vulkan/vulkan_core.h>

namespace kiln::test {
namespace {

kiln_binding_range c_range(kiln_descriptor_class c, std::uint32_t first, std::uint32_t count,
                           std::uint32_t set, std::uint32_t binding) {
  kiln_binding_range r{};
  r.register_class = c;
  r.first_register = first;
  r.register_count = count;
  r.set = set;
  r.binding = binding;
  return r;
}

kiln_interface_info c_info() {
  kiln_interface_info info{};
  info.type = KILN_STRUCTURE_TYPE_INTERFACE_INFO;
  return info;
}

TEST(InterfaceAbi, ConvertsEveryResourceList) {
  kiln_binding_range ranges[2] = {c_range(KILN_DESCRIPTOR_SRV, 0, KILN_REGISTERS_UNBOUNDED, 1, 4),
                                  c_range(KILN_DESCRIPTOR_UAV, 2, 3, 2, 0)};
  ranges[0].stages = KILN_STAGE_BIT(KILN_STAGE_PIXEL) | KILN_STAGE_BIT(KILN_STAGE_VERTEX);
  ranges[0].flags = KILN_BINDING_IMAGE | KILN_BINDING_ARRAY;
  ranges[1].buffer_form = KILN_BUFFER_FORM_TEXEL_BUFFER;
  const kiln_push_constant_buffer push = {1, 0, KILN_STAGE_BIT(KILN_STAGE_COMPUTE), 16, 32};
  const kiln_uav_counter_binding counter = {0, 2, 0, KILN_COUNTER_FORM_STORAGE_TEXEL_BUFFER,
                                            3, 9, 0};
  kiln_interface_info info = c_info();
  info.binding_count = 2;
  info.bindings = ranges;
  info.push_constant_buffer_count = 1;
  info.push_constant_buffers = &push;
  info.uav_counter_count = 1;
  info.uav_counters = &counter;
  ShaderInterface out;
  Status s = abi::interface_from_c(info, out);
  ASSERT_TRUE(s) << s.message();
  ASSERT_EQ(out.bindings.size(), 2u);
  EXPECT_EQ(out.bindings[0].register_class, DescriptorClass::Srv);
  EXPECT_EQ(out.bindings[0].register_count, kRegistersUnbounded);
  // C stage bits (vertex = 1 << 1) become the translator's (vertex = 1 << 0).
  EXPECT_EQ(out.bindings[0].stages, stage_bit(ShaderStage::Pixel) | stage_bit(ShaderStage::Vertex));
  EXPECT_EQ(out.bindings[0].flags, BindingRange::Image | BindingRange::Array);
  EXPECT_EQ(out.bindings[1].buffer_form, BindingRange::BufferForm::TexelBuffer);
  ASSERT_EQ(out.push_constant_buffers.size(), 1u);
  EXPECT_EQ(out.push_constant_buffers[0].space, 1u);
  EXPECT_EQ(out.push_constant_buffers[0].stages, stage_bit(ShaderStage::Compute));
  EXPECT_EQ(out.push_constant_buffers[0].offset, 16u);
  EXPECT_EQ(out.push_constant_buffers[0].size, 32u);
  ASSERT_EQ(out.uav_counters.size(), 1u);
  EXPECT_EQ(out.uav_counters[0].form, UavCounterBinding::Form::StorageTexelBuffer);
  EXPECT_EQ(out.uav_counters[0].binding, 9u);
}

TEST(InterfaceAbi, BadValuesAreOneLineErrors) {
  struct Case {
    const char* expect;
    void (*spoil)(kiln_interface_info&, kiln_binding_range&, kiln_push_constant_buffer&);
  };
  const Case cases[] = {
      {"bindings[0].register_class 7 is not a descriptor class",
       [](kiln_interface_info&, kiln_binding_range& r, kiln_push_constant_buffer&) {
         r.register_class = kiln_descriptor_class(7);
       }},
      {"bindings[0].flags has unknown bits", [](kiln_interface_info&, kiln_binding_range& r,
                                                kiln_push_constant_buffer&) { r.flags = 0x100; }},
      {"bindings[0].register_count is 0", [](kiln_interface_info&, kiln_binding_range& r,
                                             kiln_push_constant_buffer&) { r.register_count = 0; }},
      {"bindings[0].register_count runs past register 2^32 - 1",
       [](kiln_interface_info&, kiln_binding_range& r, kiln_push_constant_buffer&) {
         r.first_register = 0xfffffff0u;
         r.register_count = 0x20;
       }},
      {"bindings[0].stages has bits of no shader stage",
       [](kiln_interface_info&, kiln_binding_range& r, kiln_push_constant_buffer&) {
         r.stages = 1u; // KILN_STAGE_ANY's bit
       }},
      {"bindings is NULL with a count of 1",
       [](kiln_interface_info& i, kiln_binding_range&, kiln_push_constant_buffer&) {
         i.bindings = nullptr;
       }},
      {"push_constant_buffers[0].offset is not a multiple of 4",
       [](kiln_interface_info&, kiln_binding_range&, kiln_push_constant_buffer& p) {
         p.offset = 2;
       }},
      {"push_constant_buffers[0].size is not a positive multiple of 4",
       [](kiln_interface_info&, kiln_binding_range&, kiln_push_constant_buffer& p) { p.size = 0; }},
      {"type is not KILN_STRUCTURE_TYPE_INTERFACE_INFO",
       [](kiln_interface_info& i, kiln_binding_range&, kiln_push_constant_buffer&) {
         i.type = KILN_STRUCTURE_TYPE_SUBMIT_INFO;
       }},
  };
  for (const Case& c : cases) {
    kiln_binding_range range = c_range(KILN_DESCRIPTOR_CBV, 0, 1, 0, 0);
    kiln_push_constant_buffer push = {0, 1, 0, 0, 16};
    kiln_interface_info info = c_info();
    info.binding_count = 1;
    info.bindings = &range;
    info.push_constant_buffer_count = 1;
    info.push_constant_buffers = &push;
    c.spoil(info, range, push);
    ShaderInterface out;
    Status s = abi::interface_from_c(info, out);
    ASSERT_FALSE(s) << c.expect;
    EXPECT_EQ(s.message(), std::string("interface: ") + c.expect);
  }
}

// kiln_submit with the interface chained: the handle's reflection has the interface's slots;
// a bad interface is KILN_ERROR_INVALID_ARGUMENT at once.
TEST(InterfaceAbi, SubmitTakesTheChainedInterface) {
  kiln_context_create_info create{};
  create.type = KILN_STRUCTURE_TYPE_CONTEXT_CREATE_INFO;
  create.flags = KILN_CONTEXT_DISABLE_CACHE;
  create.thread_count = 1;
  create.log_callback = [](void*, kiln_log_level, const char*) {};
  kiln_context* context = nullptr;
  ASSERT_EQ(kiln_context_create(&create, &context), KILN_SUCCESS);

  const std::vector<std::uint8_t> program = interface_compute_program();
  kiln_binding_range ranges[2] = {c_range(KILN_DESCRIPTOR_SRV, 0, 8, 4, 100),
                                  c_range(KILN_DESCRIPTOR_UAV, 0, 8, 5, 200)};
  const kiln_push_constant_buffer push = {0, 0, 0, 0, 16};
  const kiln_uav_counter_binding counter = {0, 1, 0, KILN_COUNTER_FORM_STORAGE_BUFFER, 6, 7, 4};
  kiln_interface_info info = c_info();
  info.binding_count = 2;
  info.bindings = ranges;
  info.push_constant_buffer_count = 1;
  info.push_constant_buffers = &push;
  info.uav_counter_count = 1;
  info.uav_counters = &counter;
  kiln_submit_info submit{};
  submit.type = KILN_STRUCTURE_TYPE_SUBMIT_INFO;
  submit.next = &info;
  submit.code = program.data();
  submit.code_size = program.size();
  submit.priority = KILN_PRIORITY_NORMAL;
  kiln_shader* shader = nullptr;
  ASSERT_EQ(kiln_submit(context, &submit, &shader), KILN_SUCCESS);
  ASSERT_EQ(kiln_wait(shader, UINT64_MAX), KILN_SUCCESS) << kiln_shader_error(shader);
  kiln_reflection reflection{};
  reflection.type = KILN_STRUCTURE_TYPE_REFLECTION;
  ASSERT_EQ(kiln_get_reflection(shader, &reflection), KILN_SUCCESS);
  unsigned checked = 0;
  for (std::uint32_t i = 0; i < reflection.resource_count; ++i) {
    const kiln_resource_binding& r = reflection.resources[i];
    if (r.register_class == 1 && r.register_index == 2) {
      EXPECT_EQ(r.set, 4u);
      EXPECT_EQ(r.binding, 102u);
      ++checked;
    }
    if (r.register_class == 4) {
      EXPECT_EQ(r.set, 6u);
      EXPECT_EQ(r.binding, 7u);
      ++checked;
    }
    if (r.register_class == 0) { // cb0 in push constants: bytes [0, 16)
      EXPECT_EQ(r.descriptor_type, KILN_DESCRIPTOR_TYPE_PUSH_CONSTANTS);
      EXPECT_EQ(r.binding, 0u);
      EXPECT_EQ(r.array_size, 16u);
      ++checked;
    }
  }
  EXPECT_EQ(checked, 3u);
  kiln_shader_release(shader);

  // Without the SRV range: the handle fails naming t2.
  info.binding_count = 1;
  info.bindings = &ranges[1];
  ASSERT_EQ(kiln_submit(context, &submit, &shader), KILN_SUCCESS);
  EXPECT_EQ(kiln_wait(shader, UINT64_MAX), KILN_ERROR_TRANSLATION_FAILED);
  ASSERT_NE(kiln_shader_error(shader), nullptr);
  EXPECT_EQ(std::string(kiln_shader_error(shader)),
            "t2 (space 0) used by the compute shader is not in the interface's binding map");
  kiln_shader_release(shader);

  // A bad value: refused at submit.
  ranges[1].register_class = kiln_descriptor_class(9);
  EXPECT_EQ(kiln_submit(context, &submit, &shader), KILN_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(shader, nullptr);
  kiln_context_destroy(context);
}

TEST(InterfaceJson, ParsesTheDocumentedExample) {
  // docs/abi.md, "The interface as JSON".
  const char* text = R"({
    "bindings": [
      {"class": "cbv", "space": 0, "first_register": 1, "register_count": 13, "set": 0, "binding": 0},
      {"class": "srv", "first_register": 0, "register_count": "unbounded", "flavour": "image",
       "stages": ["pixel"], "set": 1, "binding": 0, "array": true},
      {"class": "srv", "register_count": 8, "flavour": "buffer", "buffer_form": "texel_buffer",
       "set": 1, "binding": 1},
      {"class": "uav", "register_count": 8, "buffer_form": "texel_buffer", "set": 2, "binding": 0},
      {"class": "sampler", "register_count": 16, "set": 3, "binding": 0}
    ],
    "push_constant_buffers": [{"register": 0, "offset": 0, "size": 64}],
    "uav_counters": [{"register": 1, "form": "storage_texel_buffer", "set": 2, "binding": 8}]
  })";
  ShaderInterface i;
  Status s = abi::interface_from_json(text, i);
  ASSERT_TRUE(s) << s.message();
  ASSERT_EQ(i.bindings.size(), 5u);
  EXPECT_EQ(i.bindings[0].first_register, 1u);
  EXPECT_EQ(i.bindings[0].register_count, 13u);
  EXPECT_EQ(i.bindings[1].register_count, kRegistersUnbounded);
  EXPECT_EQ(i.bindings[1].flags, BindingRange::Image | BindingRange::Array);
  EXPECT_EQ(i.bindings[1].stages, stage_bit(ShaderStage::Pixel));
  EXPECT_EQ(i.bindings[2].flags, BindingRange::Buffer);
  EXPECT_EQ(i.bindings[2].buffer_form, BindingRange::BufferForm::TexelBuffer);
  EXPECT_EQ(i.bindings[4].register_class, DescriptorClass::Sampler);
  EXPECT_EQ(i.bindings[4].set, 3u);
  ASSERT_EQ(i.push_constant_buffers.size(), 1u);
  EXPECT_EQ(i.push_constant_buffers[0].size, 64u);
  ASSERT_EQ(i.uav_counters.size(), 1u);
  EXPECT_EQ(i.uav_counters[0].form, UavCounterBinding::Form::StorageTexelBuffer);
  EXPECT_EQ(i.uav_counters[0].binding, 8u);
}

TEST(InterfaceJson, BadJsonIsAOneLineError) {
  const std::pair<const char*, const char*> cases[] = {
      {R"({"bindings": [)", "parse error"},
      {R"([1, 2])", "interface is not an object"},
      {R"({"binding": []})", "interface.binding is not a member of this object"},
      {R"({"bindings": {}})", "bindings is not a list"},
      {R"({"bindings": [{"class": "tex", "binding": 0}]})",
       "bindings[0].class 'tex' is not cbv, srv, uav or sampler"},
      {R"({"bindings": [{"class": "srv"}]})", "bindings[0].binding is missing"},
      {R"({"bindings": [{"class": "srv", "binding": -1}]})",
       "bindings[0].binding is not an integer in [0, 2^32)"},
      {R"({"bindings": [{"class": "srv", "binding": 0, "stages": ["fragment"]}]})",
       "bindings[0].stages \"fragment\" is not vertex, hull, domain, geometry, pixel or compute"},
      {R"({"bindings": [{"class": "srv", "binding": 0, "sets": 1}]})",
       "bindings[0].sets is not a member of this object"},
      {R"({"push_constant_buffers": [{"register": 0, "size": 6}]})",
       "push_constant_buffers[0].size is not a positive multiple of 4"},
  };
  for (const auto& [text, expect] : cases) {
    ShaderInterface i;
    Status s = abi::interface_from_json(text, i);
    ASSERT_FALSE(s) << text;
    EXPECT_NE(s.message().find(expect), std::string::npos) << s.message();
    EXPECT_EQ(s.message().find('\n'), std::string::npos) << s.message();
  }
}

} // namespace
} // namespace kiln::test
