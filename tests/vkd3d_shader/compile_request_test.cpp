// How kiln's libvkd3d-shader reads a vkd3d_shader_compile_info: what it translates, with which
// interface, and the reason for everything it hands to the system's library instead.

#include "plugin/vkd3d_shader/compile_request.h"

#include <gtest/gtest.h>

namespace kiln::vkd3d {
namespace {

class CompileRequestTest : public ::testing::Test {
 protected:
  void SetUp() override {
    bindings_[0] = {VKD3D_SHADER_DESCRIPTOR_TYPE_UAV, 1,        4, VKD3D_SHADER_VISIBILITY_PIXEL,
                    VKD3D_SHADER_BINDING_FLAG_BUFFER, {3, 9, 1}};
    bindings_[1] = {VKD3D_SHADER_DESCRIPTOR_TYPE_SRV,
                    0,
                    0,
                    VKD3D_SHADER_VISIBILITY_ALL,
                    VKD3D_SHADER_BINDING_FLAG_BUFFER | VKD3D_SHADER_BINDING_FLAG_IMAGE,
                    {0, 2, 8}};
    push_constants_ = {0, 2, VKD3D_SHADER_VISIBILITY_VERTEX, 16, 32};
    interface_.type = VKD3D_SHADER_STRUCTURE_TYPE_INTERFACE_INFO;
    interface_.bindings = bindings_;
    interface_.binding_count = 2;
    interface_.push_constant_buffers = &push_constants_;
    interface_.push_constant_buffer_count = 1;
    target_.type = VKD3D_SHADER_STRUCTURE_TYPE_SPIRV_TARGET_INFO;
    target_.next = &interface_;
    target_.environment = VKD3D_SHADER_SPIRV_ENVIRONMENT_VULKAN_1_0;
    info_.type = VKD3D_SHADER_STRUCTURE_TYPE_COMPILE_INFO;
    info_.next = &target_;
    info_.source = {bytes_, sizeof bytes_};
    info_.source_type = VKD3D_SHADER_SOURCE_DXBC_TPF;
    info_.target_type = VKD3D_SHADER_TARGET_SPIRV_BINARY;
  }

  // The reason the request is forwarded; Count when kiln takes it.
  ForwardReason reason() {
    CompileRequest request;
    ForwardReason why = ForwardReason::Count;
    return read_compile_request(info_, request, why) ? ForwardReason::Count : why;
  }

  const std::uint8_t bytes_[4] = {'D', 'X', 'B', 'C'};
  vkd3d_shader_resource_binding bindings_[2]{};
  vkd3d_shader_push_constant_buffer push_constants_{};
  vkd3d_shader_interface_info interface_{};
  vkd3d_shader_spirv_target_info target_{};
  vkd3d_shader_compile_info info_{};
};

TEST_F(CompileRequestTest, TheClientsInterfaceBecomesKilns) {
  CompileRequest request;
  ForwardReason why = ForwardReason::Count;
  ASSERT_TRUE(read_compile_request(info_, request, why)) << forward_reason_name(why);
  EXPECT_EQ(request.bytecode.size(), sizeof bytes_);
  EXPECT_EQ(request.options.target, SpirvTarget::Vulkan10);
  ASSERT_TRUE(request.options.interface);
  const ShaderInterface& interface = *request.options.interface;
  ASSERT_EQ(interface.bindings.size(), 2u);
  const BindingRange& uav = interface.bindings[0];
  EXPECT_EQ(uav.register_class, DescriptorClass::Uav);
  EXPECT_EQ(uav.space, 1u);
  EXPECT_EQ(uav.first_register, 4u);
  EXPECT_EQ(uav.register_count, 1u);
  EXPECT_EQ(uav.stages, stage_bit(ShaderStage::Pixel));
  EXPECT_EQ(uav.buffer_form, BindingRange::BufferForm::TexelBuffer); // vkd3d's default
  EXPECT_EQ(uav.set, 3u);
  EXPECT_EQ(uav.binding, 9u);
  const BindingRange& srv = interface.bindings[1];
  EXPECT_EQ(srv.register_count, 8u);
  EXPECT_EQ(srv.flags, BindingRange::Buffer | BindingRange::Image | BindingRange::Array);
  EXPECT_EQ(srv.stages, 0u);
  ASSERT_EQ(interface.push_constant_buffers.size(), 1u);
  EXPECT_EQ(interface.push_constant_buffers[0].register_index, 2u);
  EXPECT_EQ(interface.push_constant_buffers[0].offset, 16u);
  EXPECT_EQ(interface.push_constant_buffers[0].size, 32u);
  EXPECT_EQ(interface.push_constant_buffers[0].stages, stage_bit(ShaderStage::Vertex));
  // Demote-to-helper only when the client lists it.
  EXPECT_FALSE(interface.extensions & extension_bit(Extension::DemoteToHelperInvocation));
}

TEST_F(CompileRequestTest, OptionsAndExtensionsAreHonoured) {
  const vkd3d_shader_compile_option option{VKD3D_SHADER_COMPILE_OPTION_BUFFER_UAV,
                                           VKD3D_SHADER_COMPILE_OPTION_BUFFER_UAV_STORAGE_BUFFER};
  info_.options = &option;
  info_.option_count = 1;
  const vkd3d_shader_spirv_extension demote =
      VKD3D_SHADER_SPIRV_EXTENSION_EXT_DEMOTE_TO_HELPER_INVOCATION;
  target_.extensions = &demote;
  target_.extension_count = 1;
  vkd3d_shader_parameter samples{};
  samples.name = VKD3D_SHADER_PARAMETER_NAME_RASTERIZER_SAMPLE_COUNT;
  samples.type = VKD3D_SHADER_PARAMETER_TYPE_SPECIALIZATION_CONSTANT;
  samples.data_type = VKD3D_SHADER_PARAMETER_DATA_TYPE_UINT32;
  samples.u.specialization_constant.id = 5;
  target_.parameters = &samples;
  target_.parameter_count = 1;
  CompileRequest request;
  ForwardReason why = ForwardReason::Count;
  ASSERT_TRUE(read_compile_request(info_, request, why)) << forward_reason_name(why);
  const ShaderInterface& interface = *request.options.interface;
  EXPECT_EQ(interface.bindings[0].buffer_form, BindingRange::BufferForm::StorageBuffer);
  EXPECT_TRUE(interface.extensions & extension_bit(Extension::DemoteToHelperInvocation));
  const ShaderParameter* parameter = interface.parameter(ParameterName::RASTERIZER_SAMPLE_COUNT);
  ASSERT_NE(parameter, nullptr);
  EXPECT_EQ(parameter->type, ShaderParameter::Type::SpecializationConstant);
  EXPECT_EQ(parameter->value[0], 5u);
}

TEST_F(CompileRequestTest, WhatKilnCannotHonourExactlyIsForwardedWithItsReason) {
  EXPECT_EQ(reason(), ForwardReason::Count);

  info_.source_type = VKD3D_SHADER_SOURCE_NONE;
  EXPECT_EQ(reason(), ForwardReason::SourceType);
  info_.source_type = VKD3D_SHADER_SOURCE_DXBC_TPF;

  info_.target_type = VKD3D_SHADER_TARGET_SPIRV_TEXT;
  EXPECT_EQ(reason(), ForwardReason::TargetType);
  info_.target_type = VKD3D_SHADER_TARGET_SPIRV_BINARY;

  target_.environment = VKD3D_SHADER_SPIRV_ENVIRONMENT_OPENGL_4_5;
  EXPECT_EQ(reason(), ForwardReason::Environment);
  target_.environment = VKD3D_SHADER_SPIRV_ENVIRONMENT_VULKAN_1_0;

  target_.entry_point = "vs_main";
  EXPECT_EQ(reason(), ForwardReason::EntryPoint);
  target_.entry_point = "main";
  EXPECT_EQ(reason(), ForwardReason::Count);

  const auto unknown_extension = static_cast<vkd3d_shader_spirv_extension>(77);
  target_.extensions = &unknown_extension;
  target_.extension_count = 1;
  EXPECT_EQ(reason(), ForwardReason::Extension);
  target_.extension_count = 0;

  vkd3d_shader_parameter unknown_parameter{};
  unknown_parameter.name = static_cast<vkd3d_shader_parameter_name>(77);
  unknown_parameter.data_type = VKD3D_SHADER_PARAMETER_DATA_TYPE_UINT32;
  target_.parameters = &unknown_parameter;
  target_.parameter_count = 1;
  EXPECT_EQ(reason(), ForwardReason::Parameter);
  target_.parameter_count = 0;

  const vkd3d_shader_compile_option unknown_option{
      static_cast<vkd3d_shader_compile_option_name>(77), 0};
  info_.options = &unknown_option;
  info_.option_count = 1;
  EXPECT_EQ(reason(), ForwardReason::Option);
  info_.option_count = 0;

  vkd3d_shader_uav_counter_binding counter{0, 4, VKD3D_SHADER_VISIBILITY_ALL, {0, 1, 1}, 8};
  interface_.uav_counters = &counter;
  interface_.uav_counter_count = 1;
  EXPECT_EQ(reason(), ForwardReason::Binding) << "a counter offset has no texel-buffer meaning";
  counter.offset = 0;
  EXPECT_EQ(reason(), ForwardReason::Count);

  vkd3d_shader_combined_resource_sampler combined{
      0, 0, 0, 0, VKD3D_SHADER_VISIBILITY_ALL, VKD3D_SHADER_BINDING_FLAG_IMAGE, {0, 5, 1}};
  interface_.combined_samplers = &combined;
  interface_.combined_sampler_count = 1;
  EXPECT_EQ(reason(), ForwardReason::Count) << "kiln applies combined samplers";
  combined.binding.count = 2;
  EXPECT_EQ(reason(), ForwardReason::Binding) << "a combined sampler array";
  combined.binding.count = 1;
  combined.shader_visibility = static_cast<vkd3d_shader_visibility>(77);
  EXPECT_EQ(reason(), ForwardReason::Binding);
  interface_.combined_sampler_count = 0;

  bindings_[0].shader_visibility = static_cast<vkd3d_shader_visibility>(77);
  EXPECT_EQ(reason(), ForwardReason::Binding);
  bindings_[0].shader_visibility = VKD3D_SHADER_VISIBILITY_ALL;

  target_.next = nullptr; // no interface: vkd3d-shader's own default layout
  EXPECT_EQ(reason(), ForwardReason::Binding);

  struct Unknown {
    vkd3d_shader_structure_type type;
    const void* next;
  } unknown{static_cast<vkd3d_shader_structure_type>(77), &interface_};
  target_.next = &unknown;
  EXPECT_EQ(reason(), ForwardReason::Structure);

  interface_.next = &target_; // a cycle
  target_.next = &interface_;
  EXPECT_EQ(reason(), ForwardReason::Structure);
}

TEST(ForwardReason, EveryReasonHasAName) {
  for (std::size_t i = 0; i < std::size_t(ForwardReason::Count); ++i)
    EXPECT_NE(forward_reason_name(ForwardReason(i)), "unknown") << i;
}

} // namespace
} // namespace kiln::vkd3d
