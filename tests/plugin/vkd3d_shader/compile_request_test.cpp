// How kiln's libvkd3d-shader reads a vkd3d_shader_compile_info: what it translates, with which
// interface, and the reason for everything it hands to the system's library instead.

#include "bench/synth/dxbc_writer.h"
#include "plugin/vkd3d_shader/compile_request.h"

#include <gtest/gtest.h>

namespace kiln::vkd3d {
namespace {

namespace synth = kiln::synth::dxbc;

// cbuffer c : register(b0); SamplerState s : register(s0); Texture2D t : register(t0);
// RWStructuredBuffer<uint> u : register(u1);
// [numthreads(1, 1, 1)] void main() { u[u.IncrementCounter()] = 0; } (declarations in this
// order, as fxc writes them: what vkd3d-shader's fallback layout numbers).
std::vector<std::uint8_t> declaring_shader() {
  using synth::Op;
  using synth::OperandType;
  namespace opd = synth::operand;
  synth::ProgramWriter w(ShaderStage::Compute, 5, 0);
  synth::Operand cb;
  cb.push(0x00208e46); // cb0[1], 2-D immediate indices
  cb.push(0);
  cb.push(1);
  w.emit(Op::DclConstantBuffer, {cb});
  w.emit(Op::DclSampler, {opd::sampler(0)});
  synth::Operand texture;
  texture.push(0x00107000); // t0, no components
  texture.push(0);
  w.emit(Op::DclResource, {texture}, 3 /* texture2d */, {0x5555 /* float x4 */});
  const synth::Operand u1 = opd::of({opd::token(OperandType::Uav, 0, 0, 0, 1), 1});
  w.emit(Op::DclUavStructured, {u1}, 1u << 12 /* has counter */, {4});
  w.emit(Op::DclTemps, {}, 0, {1});
  w.emit(Op::DclThreadGroup, {}, 0, {1, 1, 1});
  w.emit(Op::ImmAtomicAlloc, {opd::temp_dst(0, 0x1), u1});
  w.emit(Op::StoreStructured,
         {opd::uav(1, 0x1, true), opd::temp_scalar(0, 0), opd::imm1_bits(0), opd::imm1_bits(0)});
  w.emit(Op::Ret, {});
  const std::vector<std::uint32_t> program = w.finish();
  synth::ContainerWriter c;
  c.add_chunk(synth::fourcc('I', 'S', 'G', 'N'), synth::signature_chunk({}));
  c.add_chunk(synth::fourcc('O', 'S', 'G', 'N'), synth::signature_chunk({}));
  c.add_chunk(synth::fourcc('S', 'H', 'E', 'X'), std::span<const std::uint32_t>(program));
  return c.finish();
}

class CompileRequestTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // u1 for compute shaders (space ignored, as vkd3d-shader 1.2 does), t0 for pixel shaders
    // only.
    bindings_[0] = {VKD3D_SHADER_DESCRIPTOR_TYPE_UAV, 1,        1, VKD3D_SHADER_VISIBILITY_COMPUTE,
                    VKD3D_SHADER_BINDING_FLAG_BUFFER, {3, 9, 1}};
    bindings_[1] = {VKD3D_SHADER_DESCRIPTOR_TYPE_SRV, 0,        0, VKD3D_SHADER_VISIBILITY_PIXEL,
                    VKD3D_SHADER_BINDING_FLAG_IMAGE,  {0, 2, 8}};
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
    info_.source = {bytes_.data(), bytes_.size()};
    info_.source_type = VKD3D_SHADER_SOURCE_DXBC_TPF;
    info_.target_type = VKD3D_SHADER_TARGET_SPIRV_BINARY;
  }

  // The reason the request is forwarded; Count when kiln takes it.
  ForwardReason reason() {
    CompileRequest request;
    ForwardReason why = ForwardReason::Count;
    return read_compile_request(info_, request, why) ? ForwardReason::Count : why;
  }

  const std::vector<std::uint8_t> bytes_ = declaring_shader();
  vkd3d_shader_resource_binding bindings_[2]{};
  vkd3d_shader_push_constant_buffer push_constants_{};
  vkd3d_shader_interface_info interface_{};
  vkd3d_shader_spirv_target_info target_{};
  vkd3d_shader_compile_info info_{};
};

// Each declared descriptor lands where vkd3d-shader 1.2 puts it: at the layer's binding when
// the request lists one for it, else at the fallback layout's next binding (set 0, numbered in
// declaration order, a UAV's counter after its UAV).
TEST_F(CompileRequestTest, DescriptorsLandWhereTheSystemLibraryPutsThem) {
  CompileRequest request;
  ForwardReason why = ForwardReason::Count;
  ASSERT_TRUE(read_compile_request(info_, request, why)) << forward_reason_name(why);
  EXPECT_EQ(request.input.bytes.size(), bytes_.size());
  EXPECT_EQ(request.options.target, SpirvTarget::Vulkan10);
  ASSERT_TRUE(request.options.interface);
  const ShaderInterface& interface = *request.options.interface;
  EXPECT_EQ(interface.convention, InterfaceConvention::Vkd3dShader);
  struct Expected {
    DescriptorClass register_class;
    std::uint32_t reg, set, binding;
  };
  // cb0, s0, t0 (listed for pixel shaders only) in the fallback layout; u1 listed.
  const Expected expected[] = {{DescriptorClass::Cbv, 0, 0, 0},
                               {DescriptorClass::Sampler, 0, 0, 1},
                               {DescriptorClass::Srv, 0, 0, 2},
                               {DescriptorClass::Uav, 1, 3, 9}};
  ASSERT_EQ(interface.bindings.size(), std::size(expected));
  for (std::size_t i = 0; i < std::size(expected); ++i) {
    const BindingRange& range = interface.bindings[i];
    EXPECT_EQ(range.register_class, expected[i].register_class) << i;
    EXPECT_EQ(range.first_register, expected[i].reg) << i;
    EXPECT_EQ(range.register_count, 1u) << i;
    EXPECT_EQ(range.set, expected[i].set) << i;
    EXPECT_EQ(range.binding, expected[i].binding) << i;
  }
  EXPECT_EQ(interface.bindings[3].buffer_form, BindingRange::BufferForm::TexelBuffer);
  ASSERT_EQ(interface.uav_counters.size(), 1u);
  EXPECT_EQ(interface.uav_counters[0].register_index, 1u);
  EXPECT_EQ(interface.uav_counters[0].form, UavCounterBinding::Form::StorageTexelBuffer);
  EXPECT_EQ(interface.uav_counters[0].binding, 3u) << "after cb0, s0 and t0";
  ASSERT_EQ(interface.push_constant_buffers.size(), 1u);
  EXPECT_EQ(interface.push_constant_buffers[0].register_index, 2u);
  EXPECT_EQ(interface.push_constant_buffers[0].offset, 16u);
  EXPECT_EQ(interface.push_constant_buffers[0].size, 32u);
  EXPECT_EQ(interface.push_constant_buffers[0].stages, stage_bit(ShaderStage::Vertex));
  // Demote-to-helper only when the client lists it.
  EXPECT_FALSE(interface.extensions & extension_bit(Extension::DemoteToHelperInvocation));
}

// wined3d's own compute shaders: an empty binding list, or none at all, is vkd3d-shader's
// fallback layout for every descriptor.
TEST_F(CompileRequestTest, AnEmptyBindingListIsTheFallbackLayout) {
  for (bool chained : {true, false}) {
    interface_.binding_count = 0;
    target_.next = chained ? &interface_ : nullptr;
    CompileRequest request;
    ForwardReason why = ForwardReason::Count;
    ASSERT_TRUE(read_compile_request(info_, request, why)) << forward_reason_name(why);
    const ShaderInterface& interface = *request.options.interface;
    ASSERT_EQ(interface.bindings.size(), 4u);
    for (std::uint32_t i = 0; i < 4; ++i) {
      EXPECT_EQ(interface.bindings[i].set, 0u);
      EXPECT_EQ(interface.bindings[i].binding, i);
    }
    ASSERT_EQ(interface.uav_counters.size(), 1u);
    EXPECT_EQ(interface.uav_counters[0].binding, 4u);
  }
}

// wined3d sends VKD3D_SHADER_COMPILE_OPTION_API_VERSION (1.3; 1.7 with
// WRITE_TESS_GEOM_POINT_SIZE = 0 in later Wine) on every compile: served up to the newest
// version kiln models, forwarded beyond it.
TEST_F(CompileRequestTest, ApiVersionsUpToTheNewestModelledAreServed) {
  vkd3d_shader_compile_option options[2] = {
      {vkd3d_shader_compile_option_name(kOptionApiVersion), 3},
      {vkd3d_shader_compile_option_name(kOptionWriteTessGeomPointSize), 0}};
  info_.options = options;
  info_.option_count = 2;
  for (unsigned version = 0; version <= kNewestApiVersion; ++version) {
    options[0].value = version;
    EXPECT_EQ(reason(), ForwardReason::Count) << "API 1." << version;
  }
  options[0].value = kNewestApiVersion + 1;
  EXPECT_EQ(reason(), ForwardReason::ApiVersion);
  options[0].value = 7;

  // Without the option geometry shaders that emit points write PointSize = 1, as
  // vkd3d-shader 1.2 does; 0 turns that off; anything else asks it of every tessellation and
  // geometry shader, which the library forwards.
  for (unsigned count : {1u, 2u}) {
    info_.option_count = count;
    CompileRequest request;
    ForwardReason why = ForwardReason::Count;
    ASSERT_TRUE(read_compile_request(info_, request, why));
    EXPECT_EQ(request.options.interface->geometry_point_size, count == 1);
    EXPECT_FALSE(request.tess_geom_point_size);
  }
  CompileRequest request;
  ForwardReason why = ForwardReason::Count;
  options[1].value = 1;
  ASSERT_TRUE(read_compile_request(info_, request, why));
  EXPECT_TRUE(request.tess_geom_point_size);

  // TYPED_UAV: R32 (also a request without the option) or Unknown is served, any other value
  // is forwarded.
  EXPECT_TRUE(vkd3d_request_interface()->typed_uav_read_r32);
  options[1] = {vkd3d_shader_compile_option_name(kOptionTypedUav), kTypedUavReadFormatR32};
  EXPECT_EQ(reason(), ForwardReason::Count);
  for (const unsigned format : {kTypedUavReadFormatR32, kTypedUavReadFormatUnknown}) {
    options[1].value = format;
    CompileRequest typed;
    ForwardReason typed_why = ForwardReason::Count;
    ASSERT_TRUE(read_compile_request(info_, typed, typed_why));
    EXPECT_EQ(typed.options.interface->typed_uav_read_r32, format == kTypedUavReadFormatR32);
  }
  options[1].value = 2;
  EXPECT_EQ(reason(), ForwardReason::Option);
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
  EXPECT_EQ(interface.bindings[3].buffer_form, BindingRange::BufferForm::StorageBuffer);
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

  vkd3d_shader_uav_counter_binding counter{0, 1, VKD3D_SHADER_VISIBILITY_ALL, {0, 1, 1}, 8};
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

  bindings_[1].type = static_cast<vkd3d_shader_descriptor_type>(77);
  EXPECT_EQ(reason(), ForwardReason::Binding);
  bindings_[1].type = VKD3D_SHADER_DESCRIPTOR_TYPE_SRV;

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
