// The SPIR-V backend under a layer's interface (issue 14): the Vulkan 1.0 forms, the enabled
// extensions and their fallbacks, dual-source blending, output swizzles and stream output.
// Every module is validated with spirv-val for its target.

#include "tests/translator/spirv/lower_test_util.h"

#include <gtest/gtest.h>

namespace kiln::test {
namespace {

ShaderInterface with_extensions(ExtensionMask extensions) {
  ShaderInterface interface;
  interface.extensions = extensions;
  return interface;
}

// A pixel shader that discards, reads a raw buffer with a non-uniform index into a descriptor
// array and writes a counter.
constexpr const char* kPixelDiscardAndBuffers = R"(
%1 = EntryPoint void %20 Pixel
%2 = DclInput u32 %1 0 0 Flat
%3 = DclOutput vec4<f32> %1 0 0 0
%4 = DclSrv u32[] %1 0 0 4 RawBuffer
%5 = DclUav u32[] %1 0 0 1 RawBuffer 0
%6 = DclUavCounter u32 %1 %5
%7 = Constant u32 0
%8 = Constant f32 1.0
%20 = Function void
  %21 = Label void None
    %22 = InputLoad u32 %2 null
    %23 = DescriptorLoad[NonUniform] u32[] %4 %22
    %24 = BufferLoad u32 %23 %7 4
    %25 = DescriptorLoad u32 %6 %7
    %26 = CounterAtomic u32 %25 Inc
    %27 = IAdd u32 %24 %26
    %28 = ConvertItoF f32 %27
    %29 = CompositeConstruct vec4<f32> %28 %8 %8 %8
    %30 = OutputStore void %3 null %29
    %31 = Demote void
    %32 = Return void null
%33 = FunctionEnd void
)";

TEST(SpirvLowerInterface, Vulkan10WithoutExtensionsTakesTheFallbacks) {
  const ShaderInterface none = with_extensions(0);
  Lowered out;
  lower_and_validate(kPixelDiscardAndBuffers, SpirvTarget::Vulkan10, none, out);
  const std::string& s = out.text;
  EXPECT_EQ(out.words[1], 0x00010000u);
  EXPECT_EQ(count_lines(s, "OpExtension"), 0) << s;
  EXPECT_EQ(count_lines(s, "StorageBuffer"), 0);
  EXPECT_EQ(count_lines(s, "BufferBlock"), 3); // the SRV, the UAV and its counter
  EXPECT_EQ(count_lines(s, "OpDemoteToHelperInvocation"), 0);
  EXPECT_EQ(count_lines(s, "OpKill"), 1);
  EXPECT_EQ(count_lines(s, "OpFunctionCall"), 1);
  EXPECT_EQ(count_lines(s, "NonUniform"), 0);
}

TEST(SpirvLowerInterface, Vulkan10WithExtensionsUsesThemWithTheirSpirvExtensions) {
  const ShaderInterface all = with_extensions(kAllExtensions);
  Lowered out;
  lower_and_validate(kPixelDiscardAndBuffers, SpirvTarget::Vulkan10, all, out);
  const std::string& s = out.text;
  EXPECT_EQ(count_lines(s, "OpExtension \"SPV_EXT_demote_to_helper_invocation\""), 1) << s;
  EXPECT_EQ(count_lines(s, "OpExtension \"SPV_EXT_descriptor_indexing\""), 1);
  EXPECT_EQ(count_lines(s, "OpDemoteToHelperInvocation"), 1);
  EXPECT_EQ(count_lines(s, "OpKill"), 0);
  EXPECT_EQ(count_lines(s, "BufferBlock"), 3); // still the 1.0 storage-buffer form
}

TEST(SpirvLowerInterface, DemoteIsCoreInVulkan13AndFallsBackBefore) {
  const ShaderInterface none = with_extensions(0);
  Lowered out;
  lower_and_validate(kPixelDiscardAndBuffers, SpirvTarget::Vulkan13, none, out);
  EXPECT_EQ(count_lines(out.text, "OpDemoteToHelperInvocation"), 1) << out.text;
  EXPECT_EQ(count_lines(out.text, "OpExtension"), 0);
  lower_and_validate(kPixelDiscardAndBuffers, SpirvTarget::Vulkan12, none, out);
  EXPECT_EQ(count_lines(out.text, "OpKill"), 1) << out.text;
  EXPECT_EQ(count_lines(out.text, "OpExtension"), 0);
}

TEST(SpirvLowerInterface, DrawParametersOnlyWhenEnabled) {
  const char* ir = R"(
%1 = EntryPoint void %20 Vertex
%2 = DclInputBuiltIn u32 %1 VertexId 0
%3 = DclOutputBuiltIn vec4<f32> %1 Position 0
%20 = Function void
  %21 = Label void None
    %22 = InputLoad u32 %2 null
    %23 = ConvertItoF f32 %22
    %24 = CompositeConstruct vec4<f32> %23 %23 %23 %23
    %25 = OutputStore void %3 null %24
    %26 = Return void null
%27 = FunctionEnd void
)";
  Lowered out;
  lower_and_validate(ir, SpirvTarget::Vulkan10, with_extensions(0), out);
  EXPECT_EQ(count_lines(out.text, "BaseVertex"), 0) << out.text;
  EXPECT_EQ(count_lines(out.text, "OpISub"), 0);
  lower_and_validate(ir, SpirvTarget::Vulkan10,
                     with_extensions(extension_bit(Extension::ShaderDrawParameters)), out);
  EXPECT_EQ(count_lines(out.text, "BuiltIn BaseVertex"), 1) << out.text;
  EXPECT_EQ(count_lines(out.text, "OpExtension \"SPV_KHR_shader_draw_parameters\""), 1);
  lower_and_validate(ir, SpirvTarget::Vulkan11,
                     with_extensions(extension_bit(Extension::ShaderDrawParameters)), out);
  EXPECT_EQ(count_lines(out.text, "OpExtension"), 0) << out.text; // core in SPIR-V 1.3
}

TEST(SpirvLowerInterface, FeaturesWithoutAFallbackNameTheirExtension) {
  struct Case {
    const char* declaration;
    const char* stage;
    const char* extension;
  };
  const Case cases[] = {
      {"DclOutputBuiltIn u32 %1 StencilRef 0", "Pixel", "VK_EXT_shader_stencil_export"},
      {"DclOutputBuiltIn u32 %1 Layer 0", "Vertex", "VK_EXT_shader_viewport_index_layer"},
      {"DclInputBuiltIn bool %1 IsFullyCovered 0", "Pixel", "VK_EXT_conservative_rasterization"},
      {"DclSrv f32 %1 0 0 0 Image2D", "Pixel", "VK_EXT_descriptor_indexing"},
  };
  for (const Case& c : cases) {
    std::string ir =
        std::string("%1 = EntryPoint void %20 ") + c.stage + "\n%2 = " + c.declaration + R"(
%20 = Function void
  %21 = Label void None
    %22 = Return void null
%23 = FunctionEnd void
)";
    Lowered out;
    Status st = lower_only(ir, SpirvTarget::Vulkan10, nullptr, out);
    EXPECT_TRUE(st) << c.declaration << ": " << st.message(); // no interface: available
    const ShaderInterface none = with_extensions(0);
    st = lower_only(ir, SpirvTarget::Vulkan13, &none, out);
    ASSERT_FALSE(st) << c.declaration;
    EXPECT_NE(st.message().find(c.extension), std::string::npos) << st.message();
    EXPECT_EQ(st.message().find('\n'), std::string::npos);
  }
}

constexpr const char* kTwoTargets = R"(
%1 = EntryPoint void %20 Pixel
%2 = DclOutput vec4<f32> %1 0 0 0
%3 = DclOutput vec4<f32> %1 1 0 0
%4 = Constant vec4<f32> 0.25 0.5 0.75 1.0
%20 = Function void
  %21 = Label void None
    %22 = OutputStore void %2 null %4
    %23 = OutputStore void %3 null %4
    %24 = Return void null
%25 = FunctionEnd void
)";

TEST(SpirvLowerInterface, DualSourceBlendingIndexesLocationZero) {
  ShaderInterface interface;
  interface.dual_source_blending = true;
  Lowered out;
  lower_and_validate(kTwoTargets, SpirvTarget::Vulkan10, interface, out);
  const std::string& s = out.text;
  EXPECT_EQ(count_lines(s, "Location 0"), 2) << s;
  EXPECT_EQ(count_lines(s, "Location 1"), 0);
  EXPECT_EQ(count_lines(s, "Index 0"), 1);
  EXPECT_EQ(count_lines(s, "Index 1"), 1);
  ASSERT_EQ(out.reflection.outputs.size(), 2u);
  EXPECT_EQ(out.reflection.outputs[1].location, 1u); // reflection keeps the D3D register

  std::string three(kTwoTargets);
  three.replace(three.find("%4 = Constant"), 0, "%5 = DclOutput vec4<f32> %1 2 0 0\n");
  Status st = lower_only(three, SpirvTarget::Vulkan13, &interface, out);
  ASSERT_FALSE(st);
  EXPECT_NE(st.message().find("dual-source"), std::string::npos) << st.message();
}

TEST(SpirvLowerInterface, OutputSwizzleReordersTheStoredComponents) {
  ShaderInterface interface;
  interface.output_swizzles = {0x00010203u, 0x03020100u}; // RT0 .wzyx, RT1 identity
  for (SpirvTarget target : kAllSpirvTargets) {
    Lowered out;
    lower_and_validate(kTwoTargets, target, interface, out);
    const std::string& s = out.text;
    EXPECT_EQ(count_lines(s, "OpVariable", "Private"), 1) << s;
    // The shadow goes to the output once, before the return, components 3, 2, 1, 0.
    EXPECT_EQ(count_lines(s, "OpCompositeExtract"), 4);
    const std::size_t w = s.find("OpCompositeExtract");
    ASSERT_NE(w, std::string::npos);
    EXPECT_NE(s.find(" 3\n", w), std::string::npos);
    EXPECT_LT(s.find(" 3\n", w), s.find(" 0\n", w));
    EXPECT_LT(s.rfind("OpStore"), s.find("OpReturn"));
  }
  interface.output_swizzles = {0x04020100u};
  Lowered out;
  Status st = lower_only(kTwoTargets, SpirvTarget::Vulkan13, &interface, out);
  ASSERT_FALSE(st);
  EXPECT_NE(st.message().find("output swizzle"), std::string::npos) << st.message();
}

constexpr const char* kVertexForStreamOutput = R"(
%1 = EntryPoint void %20 Vertex
%2 = DclInput vec4<f32> %1 0 0 0
%3 = DclOutputBuiltIn vec4<f32> %1 Position 0
%4 = DclOutput vec4<f32> %1 1 0 0
%5 = DclOutput vec2<f32> %1 2 0 0
%6 = Semantic void %3 0 "SV_Position"
%7 = Semantic void %4 0 "TEXCOORD"
%8 = Semantic void %5 1 "TEXCOORD"
%20 = Function void
  %21 = Label void None
    %22 = InputLoad vec4<f32> %2 null
    %23 = OutputStore void %3 null %22
    %24 = OutputStore void %4 null %22
    %26 = Return void null
%27 = FunctionEnd void
)";

StreamOutputElement so_element(const char* semantic, std::uint32_t index, std::uint8_t count,
                               std::uint8_t slot) {
  StreamOutputElement e;
  e.semantic = semantic ? semantic : "";
  e.semantic_index = index;
  e.component_count = count;
  e.output_slot = slot;
  return e;
}

TEST(SpirvLowerInterface, StreamOutputDecoratesCapturedOutputs) {
  const std::string ir(kVertexForStreamOutput);
  ShaderInterface interface;
  interface.extensions = extension_bit(Extension::TransformFeedback);
  // Buffer 0: position, a 1-component gap, TEXCOORD1.xy; buffer 1: TEXCOORD0.
  interface.stream_output.elements = {so_element("sv_position", 0, 4, 0),
                                      so_element(nullptr, 0, 1, 0), so_element("TEXCOORD", 1, 2, 0),
                                      so_element("TEXCOORD", 0, 4, 1)};
  interface.stream_output.buffer_strides = {32, 0, 0, 0};
  for (SpirvTarget target : kAllSpirvTargets) {
    Lowered out;
    lower_and_validate(ir, target, interface, out);
    const std::string& s = out.text;
    EXPECT_EQ(count_lines(s, "OpExecutionMode", "Xfb"), 1) << s;
    EXPECT_EQ(count_lines(s, "OpCapability TransformFeedback"), 1);
    EXPECT_EQ(count_lines(s, "XfbBuffer 0"), 2);
    EXPECT_EQ(count_lines(s, "XfbBuffer 1"), 1);
    EXPECT_EQ(count_lines(s, "XfbStride 32"), 2);
    EXPECT_EQ(count_lines(s, "XfbStride 16"), 1); // slot 1: its elements' size
    EXPECT_EQ(count_lines(s, "Offset 0"), 2);     // position, TEXCOORD0
    EXPECT_EQ(count_lines(s, "Offset 20"), 1);    // TEXCOORD1 after 16 + 4 bytes
  }

  ShaderInterface none = interface;
  none.extensions = 0;
  Lowered out;
  Status st = lower_only(ir, SpirvTarget::Vulkan10, &none, out);
  ASSERT_FALSE(st);
  EXPECT_NE(st.message().find("VK_EXT_transform_feedback"), std::string::npos) << st.message();

  // Part of a built-in (SV_Position.xy) is captured through an output variable of its own, at
  // the location after the shader's last (TEXCOORD1 at 2): the built-in itself is not captured.
  ShaderInterface partial = interface;
  partial.stream_output.elements = {so_element("SV_Position", 0, 2, 0)};
  for (SpirvTarget target : kAllSpirvTargets) {
    Lowered part;
    lower_and_validate(ir, target, partial, part);
    const std::string& s = part.text;
    EXPECT_EQ(count_lines(s, "XfbBuffer 0"), 1) << s;
    EXPECT_EQ(count_lines(s, "XfbStride 32"), 1) << s;
    EXPECT_EQ(count_lines(s, "Location 3"), 1) << s;
  }
  partial.stream_output.elements = {so_element("SV_Position", 0, 2, 0)};
  partial.stream_output.elements[0].component_index = 3; // .w and past it
  st = lower_only(ir, SpirvTarget::Vulkan13, &partial, out);
  ASSERT_FALSE(st);
  EXPECT_NE(st.message().find("out of range"), std::string::npos) << st.message();

  ShaderInterface unmatched = interface;
  unmatched.stream_output.elements = {so_element("COLOR", 0, 4, 0)};
  st = lower_only(ir, SpirvTarget::Vulkan13, &unmatched, out);
  ASSERT_FALSE(st);
  EXPECT_NE(st.message().find("matches no output"), std::string::npos) << st.message();
}

TEST(SpirvLowerInterface, StreamOutputOfPartOfAnOutputSplitsIt) {
  const std::string ir(kVertexForStreamOutput);
  ShaderInterface interface;
  interface.extensions = extension_bit(Extension::TransformFeedback);
  // TEXCOORD0.yz, then TEXCOORD1.y: pieces x | yz | w of TEXCOORD0, x | y of TEXCOORD1.
  StreamOutputElement yz = so_element("TEXCOORD", 0, 2, 0), y = so_element("TEXCOORD", 1, 1, 0);
  yz.component_index = 1;
  y.component_index = 1;
  interface.stream_output.elements = {yz, y};
  for (SpirvTarget target : kAllSpirvTargets) {
    Lowered out;
    lower_and_validate(ir, target, interface, out);
    const std::string& s = out.text;
    EXPECT_EQ(count_lines(s, "Location 1"), 3) << s;
    EXPECT_EQ(count_lines(s, "Location 2"), 2);
    EXPECT_EQ(count_lines(s, "Component 1"), 2);
    EXPECT_EQ(count_lines(s, "Component 3"), 1);
    EXPECT_EQ(count_lines(s, "XfbBuffer 0"), 2);
    EXPECT_EQ(count_lines(s, "XfbStride 12"), 2);
    EXPECT_EQ(count_lines(s, "Offset 8"), 1);
    EXPECT_EQ(count_lines(s, "OpVariable", "Private"), 2); // the two shadows
    EXPECT_EQ(count_lines(s, "OpVectorShuffle"), 1);       // TEXCOORD0.yz
  }
  // Two elements capturing overlapping parts.
  StreamOutputElement xy = so_element("TEXCOORD", 0, 2, 0);
  interface.stream_output.elements = {yz, xy};
  Lowered out;
  Status st = lower_only(ir, SpirvTarget::Vulkan13, &interface, out);
  ASSERT_FALSE(st);
  EXPECT_NE(st.message().find("overlapping"), std::string::npos) << st.message();
}

TEST(SpirvLowerInterface, GeometryStreamsDecorateBuiltInsAndNeedTransformFeedback) {
  const char* ir = R"(
%1 = EntryPoint void %20 Geometry
%2 = SetGsInputPrimitive void %1 Point
%3 = SetGsOutputPrimitive void %1 Point 3
%4 = SetGsOutputVertices void %1 1
%5 = DclInputBuiltIn vec4<f32>[1] %1 Position 0
%6 = DclOutputBuiltIn vec4<f32> %1 Position 1
%7 = DclOutput vec4<f32> %1 0 0 0
%8 = Constant u32 0
%20 = Function void
  %21 = Label void None
    %22 = InputLoad vec4<f32> %5 %8
    %23 = OutputStore void %6 null %22
    %24 = EmitVertex void 1
    %25 = OutputStore void %7 null %22
    %26 = EmitVertex void 0
    %27 = Return void null
%28 = FunctionEnd void
)";
  Lowered out;
  lower_and_validate(ir, out);                                 // no interface: every target
  EXPECT_EQ(count_lines(out.text, "Stream 1"), 1) << out.text; // the stream-1 position
  EXPECT_EQ(count_lines(out.text, "OpEmitStreamVertex"), 2);
  lower_and_validate(ir, SpirvTarget::Vulkan10,
                     with_extensions(extension_bit(Extension::TransformFeedback)), out);
  const ShaderInterface none = with_extensions(0);
  Status st = lower_only(ir, SpirvTarget::Vulkan10, &none, out);
  ASSERT_FALSE(st);
  EXPECT_NE(st.message().find("VK_EXT_transform_feedback"), std::string::npos) << st.message();
}

} // namespace
} // namespace kiln::test
