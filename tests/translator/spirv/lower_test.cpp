// The SPIR-V backend on hand-written final-form IR: every module passes spirv-val for Vulkan
// 1.1, 1.2 and 1.3, and carries the instructions and decorations the IR asks for.

#include "tests/translator/spirv/lower_test_util.h"

#include <gtest/gtest.h>
#include <map>
#include <sstream>
#include <string>
#include <vector>
#include <vulkan/vulkan_core.h>

namespace kiln::test {
namespace {

TEST(SpirvLower, PixelShaderSamplingAndIo) {
  const char* ir = R"(
%1 = EntryPoint void %20 Pixel
%2 = DclInput vec4<f32> %1 1 0 Centroid|NoPerspective
%3 = DclInput u32 %1 2 0 Flat
%4 = DclInputBuiltIn vec4<f32> %1 Position 0
%5 = DclOutput vec4<f32> %1 0 0 0
%6 = DclCbv vec4<f32>[4] %1 0 2 1
%7 = DclSrv f32 %1 0 3 1 Image2D
%8 = DclSampler void %1 0 1 1
%9 = DclOutputBuiltIn f32 %1 Depth 0
%10 = DclInputBuiltIn u32 %1 IsFrontFace 0
%11 = DclSrv f32 %1 0 4 0 Image2DArray
%12 = Constant u32 0
%13 = Constant u32 1
%14 = Constant vec2<i32> 1 -1
%15 = Constant f32 0.25
%16 = Constant f32 0.0
%17 = Semantic void %2 0 "TEXCOORD"
%20 = Function void
  %21 = Label void None
    %22 = InputLoad f32 %2 %12
    %23 = InputLoad f32 %2 %13
    %24 = CompositeConstruct vec2<f32> %22 %23
    %25 = DescriptorLoad f32 %7 %12
    %26 = DescriptorLoad void %8 %12
    %27 = ImageSample vec4<f32> %25 %26 null %24 null null null null null null null
    %28 = DescriptorLoad f32 %6 %12
    %29 = InputLoad u32 %3 null
    %30 = BufferLoad vec4<f32> %28 %29 16
    %31 = FMul[Precise] vec4<f32> %27 %30
    %32 = ImageSample f32 %25 %26 null %24 %14 null %15 null null null %22
    %33 = DescriptorLoad[NonUniform] f32 %11 %29
    %34 = ConvertItoF f32 %29
    %35 = ImageSample vec4<f32> %33 %26 %34 %24 null %16 null null null null null
    %36 = DerivX f32 %22 Coarse
    %37 = InputLoad u32 %10 null
    %38 = FAdd f32 %32 %36
    %39 = OutputStore void %5 null %31
    %40 = OutputStore void %9 null %38
    %41 = CompositeExtract f32 %35 %13
    %42 = FLt bool %41 %16
    %46 = Select vec4<f32> %42 %31 %27
    %47 = OutputStore void %5 null %46
    %43 = Demote void
    %44 = Return void null
%45 = FunctionEnd void
)";
  Lowered out;
  lower_and_validate(ir, out);
  ASSERT_FALSE(out.words.empty());
  const std::string& s = out.text;
  EXPECT_EQ(count_lines(s, "OpImageSampleImplicitLod"), 1) << s;
  EXPECT_EQ(count_lines(s, "OpImageSampleDrefImplicitLod"), 1);
  EXPECT_EQ(count_lines(s, "OpImageSampleExplicitLod"), 1);
  EXPECT_GE(count_lines(s, "Bias|ConstOffset"), 1);
  EXPECT_GE(count_lines(s, "NonUniform"), 2);
  EXPECT_EQ(count_lines(s, "OpExecutionMode %"), 2); // origin, depth
  EXPECT_EQ(count_lines(s, "OpDemoteToHelperInvocation"), 1);
  EXPECT_EQ(count_lines(s, "OriginUpperLeft"), 1);
  EXPECT_EQ(count_lines(s, "DepthReplacing"), 1);
  EXPECT_EQ(count_lines(s, "BuiltIn FragCoord"), 1);
  EXPECT_EQ(count_lines(s, "BuiltIn FragDepth"), 1);
  EXPECT_EQ(count_lines(s, "BuiltIn FrontFacing"), 1);
  EXPECT_EQ(count_lines(s, "Location 1"), 1);
  EXPECT_EQ(count_lines(s, " Centroid"), 1);
  EXPECT_EQ(count_lines(s, " NoPerspective"), 1);
  EXPECT_EQ(count_lines(s, " Flat"), 1);
  EXPECT_EQ(count_lines(s, "Binding 16"), 1);
  EXPECT_EQ(count_lines(s, "Binding 21"), 1);
  EXPECT_EQ(count_lines(s, "Binding 8"), 1);
  EXPECT_EQ(out.reflection.resources.empty() ? 0u : out.reflection.resources[0].binding, 10u);
  EXPECT_EQ(count_lines(s, "OpDPdxCoarse"), 1);
  EXPECT_EQ(count_lines(s, "NoContraction"), 1);
  EXPECT_EQ(count_lines(s, "OpCapability RuntimeDescriptorArray"), 1);
  EXPECT_EQ(count_lines(s, "OpCapability SampledImageArrayNonUniformIndexing"), 1);
  EXPECT_EQ(count_lines(s, "ArrayStride 16"), 1);
  EXPECT_EQ(count_lines(s, "OpTypeRuntimeArray"), 1);
  // Reflection: CBV, two SRVs, sampler; inputs and outputs with their locations.
  ASSERT_EQ(out.reflection.resources.size(), 4u);
  EXPECT_EQ(out.reflection.resources[0].descriptor_type, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER);
  EXPECT_EQ(out.reflection.resources[0].binding, 10u);
  EXPECT_EQ(out.reflection.resources[1].descriptor_type, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE);
  EXPECT_EQ(out.reflection.resources[2].descriptor_type, VK_DESCRIPTOR_TYPE_SAMPLER);
  EXPECT_EQ(out.reflection.resources[3].array_size, 0u);
  ASSERT_EQ(out.reflection.inputs.size(), 4u);
  EXPECT_EQ(out.reflection.inputs[0].semantic, "TEXCOORD");
  EXPECT_EQ(out.reflection.inputs[0].location, 1u);
  EXPECT_EQ(out.reflection.inputs[0].component_mask, 0xfu);
  EXPECT_EQ(out.reflection.stage, ShaderStage::Pixel);
}

TEST(SpirvLower, VertexBuiltInsAndClipDistances) {
  const char* ir = R"(
%1 = EntryPoint void %20 Vertex
%2 = DclInputBuiltIn u32 %1 VertexId 0
%3 = DclInputBuiltIn u32 %1 InstanceId 0
%4 = DclInput vec4<f32> %1 0 0 0
%5 = DclOutputBuiltIn vec4<f32> %1 Position 0
%6 = DclOutputBuiltIn f32[2] %1 ClipDistance 0
%7 = DclOutput vec2<u32> %1 1 2 0
%8 = Constant u32 0
%9 = Constant u32 1
%20 = Function void
  %21 = Label void None
    %22 = InputLoad u32 %2 null
    %23 = InputLoad u32 %3 null
    %24 = InputLoad vec4<f32> %4 null
    %25 = OutputStore void %5 null %24
    %26 = InputLoad f32 %4 %8
    %27 = OutputStore void %6 %9 %26
    %28 = CompositeConstruct vec2<u32> %22 %23
    %29 = OutputStore void %7 null %28
    %30 = Return void null
%31 = FunctionEnd void
)";
  Lowered out;
  lower_and_validate(ir, out);
  const std::string& s = out.text;
  EXPECT_EQ(count_lines(s, "BuiltIn VertexIndex"), 1) << s;
  EXPECT_EQ(count_lines(s, "BuiltIn BaseVertex"), 1);
  EXPECT_EQ(count_lines(s, "BuiltIn BaseInstance"), 1);
  EXPECT_EQ(count_lines(s, "OpISub"), 2);
  EXPECT_EQ(count_lines(s, "BuiltIn ClipDistance"), 1);
  EXPECT_EQ(count_lines(s, "Component 2"), 1);
  EXPECT_EQ(count_lines(s, "OpCapability ClipDistance"), 1);
  ASSERT_EQ(out.reflection.outputs.size(), 3u);
  EXPECT_EQ(out.reflection.outputs[2].component_mask, 0xcu);
}

TEST(SpirvLower, GeometryShaderStreamsAndEmit) {
  const char* ir = R"(
%1 = EntryPoint void %20 Geometry
%2 = SetGsInputPrimitive void %1 Triangle
%3 = SetGsOutputPrimitive void %1 Triangle 1
%4 = SetGsOutputVertices void %1 3
%5 = DclInputBuiltIn vec4<f32>[3] %1 Position 0
%6 = DclInput vec4<f32>[3] %1 1 0 0
%7 = DclOutputBuiltIn vec4<f32> %1 Position 0
%8 = DclOutput vec4<f32> %1 1 0 0
%9 = DclInputBuiltIn u32 %1 PrimitiveId 0
%10 = DclOutputBuiltIn u32 %1 Layer 0
%14 = DclInputBuiltIn u32 %1 GsVertexCountIn 0
%11 = Constant u32 0
%12 = Constant u32 1
%13 = Constant u32 2
%20 = Function void
  %21 = Label void None
    %37 = InputLoad u32 %14 null
    %38 = InputLoad u32 %9 null
    %22 = IAdd u32 %38 %37
    %23 = InputLoad vec4<f32> %5 %11
    %24 = InputLoad vec4<f32> %6 %11
    %25 = OutputStore void %7 null %23
    %26 = OutputStore void %8 null %24
    %27 = OutputStore void %10 null %22
    %28 = EmitVertex void 0
    %29 = InputLoad vec4<f32> %5 %12
    %30 = OutputStore void %7 null %29
    %31 = EmitVertex void 0
    %32 = InputLoad f32 %5 %13
    %33 = EmitPrimitive void 0
    %34 = Return void null
%35 = FunctionEnd void
)";
  std::string text(ir);
  // Component access of a per-vertex vector: address (vertex, component).
  text.replace(text.find("%32 = InputLoad f32 %5 %13"), 26, "%32 = InputLoad f32 %5 %36");
  text.replace(text.find("%20 = Function"), 0, "%36 = Constant vec2<u32> 2 3\n");
  Lowered out;
  lower_and_validate(text, out);
  const std::string& s = out.text;
  EXPECT_EQ(count_lines(s, "OpEmitVertex"), 2) << s;
  EXPECT_EQ(count_lines(s, "OpEndPrimitive"), 1);
  EXPECT_EQ(count_lines(s, "OutputTriangleStrip"), 1);
  EXPECT_EQ(count_lines(s, "OpExecutionMode %"), 4); // Triangles, strip, vertices, invocations
  EXPECT_EQ(count_lines(s, "BuiltIn Layer"), 1);
  EXPECT_EQ(count_lines(s, "OpIAdd"), 1); // PrimitiveId + GsVertexCountIn (a constant 3)
}

TEST(SpirvLower, HullShaderMergesPhasesAndDomainShader) {
  const char* hull = R"(
%1 = EntryPoint void %20 %40 Hull
%2 = SetTessControlPoints void %1 3 3
%3 = SetTessPrimitive void %1 Triangle Cw FractionalOdd
%4 = SetTessDomain void %1 Triangle
%5 = DclInput vec4<f32>[3] %1 0 0 0
%6 = DclOutput vec4<f32>[3] %1 0 0 0
%7 = DclInputBuiltIn u32 %1 TessControlPointId 0
%8 = DclOutputBuiltIn f32[3] %1 TessFactorOuter 0
%9 = DclOutputBuiltIn f32[1] %1 TessFactorInner 0
%10 = DclOutput vec4<f32> %1 1 0 0
%14 = DclOutputBuiltIn vec4<f32>[3] %1 Position 0
%15 = DclOutputBuiltIn vec4<f32>[3] %1 Position 0
%11 = Constant u32 0
%12 = Constant u32 2
%13 = Constant f32 4.0
%20 = Function void
  %21 = Label void None
    %22 = InputLoad u32 %7 null
    %23 = InputLoad vec4<f32> %5 %22
    %24 = OutputStore void %6 %22 %23
    %27 = OutputStore void %14 %22 %23
    %25 = Return void null
%26 = FunctionEnd void
%40 = Function void
  %41 = Label void None
    %42 = OutputStore void %8 %11 %13
    %43 = OutputStore void %8 %12 %13
    %44 = OutputStore void %9 %11 %13
    %45 = OutputLoad vec4<f32> %6 %11
    %49 = OutputLoad vec4<f32> %15 %12
    %50 = FAdd vec4<f32> %45 %49
    %46 = OutputStore void %10 null %50
    %47 = Return void null
%48 = FunctionEnd void
)";
  Lowered out;
  lower_and_validate(hull, out);
  const std::string& s = out.text;
  EXPECT_EQ(count_lines(s, "OpEntryPoint TessellationControl"), 1) << s;
  EXPECT_EQ(count_lines(s, "OpFunctionCall"), 2);
  EXPECT_EQ(count_lines(s, "OpControlBarrier"), 1);
  EXPECT_EQ(count_lines(s, "BuiltIn TessLevelOuter"), 1);
  EXPECT_EQ(count_lines(s, "BuiltIn InvocationId"), 1);
  // Both phases' Position declarations are one variable: the patch-constant phase reads what
  // the control-point phase wrote.
  EXPECT_EQ(count_lines(s, "BuiltIn Position"), 1);
  EXPECT_EQ(count_lines(s, "OutputVertices 3"), 1);
  EXPECT_EQ(count_lines(s, "SpacingFractionalOdd"), 1);
  EXPECT_EQ(count_lines(s, " Patch"), 3); // two tess factors and the patch constant

  const char* domain = R"(
%1 = EntryPoint void %20 Domain
%2 = SetTessDomain void %1 Triangle
%3 = DclInput vec4<f32>[3] %1 0 0 0
%4 = DclInput vec4<f32> %1 1 0 0
%5 = DclInputBuiltIn vec3<f32> %1 TessCoord 0
%6 = DclOutputBuiltIn vec4<f32> %1 Position 0
%7 = DclInputBuiltIn f32[3] %1 TessFactorOuter 0
%8 = Constant u32 0
%9 = Constant u32 1
%20 = Function void
  %21 = Label void None
    %22 = InputLoad vec4<f32> %3 %8
    %23 = InputLoad f32 %5 %9
    %24 = InputLoad vec4<f32> %4 null
    %25 = FMul vec4<f32> %22 %24
    %26 = InputLoad f32 %7 %9
    %27 = OutputStore void %6 null %25
    %28 = Return void null
%29 = FunctionEnd void
)";
  lower_and_validate(domain, out);
  EXPECT_EQ(count_lines(out.text, "BuiltIn TessCoord"), 1) << out.text;
  EXPECT_EQ(count_lines(out.text, " Triangles"), 1);
}

// The hull wrapper's barrier orders the control-point outputs other invocations write before
// the patch-constant function reads them; without such a read it is left out (llvmpipe splits
// a control shader into a coroutine at every barrier).
TEST(SpirvLower, HullShaderBarrierOnlyWhenThePatchPhaseReadsControlPoints) {
  auto hull = [](const char* patch_read, const char* control_point_read) {
    return std::string(R"(
%1 = EntryPoint void %20 %40 Hull
%2 = SetTessControlPoints void %1 3 3
%3 = SetTessPrimitive void %1 Triangle Cw FractionalOdd
%4 = SetTessDomain void %1 Triangle
%5 = DclInput vec4<f32>[3] %1 0 0 0
%6 = DclOutput vec4<f32>[3] %1 0 0 0
%7 = DclInputBuiltIn u32 %1 TessControlPointId 0
%8 = DclOutputBuiltIn f32[3] %1 TessFactorOuter 0
%9 = DclOutputBuiltIn f32[1] %1 TessFactorInner 0
%10 = DclOutput vec4<f32> %1 1 0 0
%14 = DclOutputBuiltIn vec4<f32>[3] %1 Position 0
%11 = Constant u32 0
%12 = Constant u32 2
%13 = Constant f32 4.0
%20 = Function void
  %21 = Label void None
    %22 = InputLoad u32 %7 null
    %23 = InputLoad vec4<f32> %5 %22
    %24 = OutputStore void %6 %22 %23
    %27 = OutputStore void %14 %22 %23
    %28 = )") +
           control_point_read + R"(
    %29 = OutputStore void %10 null %28
    %25 = Return void null
%26 = FunctionEnd void
%40 = Function void
  %41 = Label void None
    %42 = OutputStore void %8 %11 %13
    %43 = OutputStore void %8 %12 %13
    %44 = OutputStore void %9 %11 %13
    %45 = )" +
           patch_read + R"(
    %46 = OutputStore void %10 null %45
    %47 = Return void null
%48 = FunctionEnd void
)";
  };
  struct Case {
    const char* patch_read;
    const char* control_point_read;
    int barriers;
  } cases[] = {
      {"OutputLoad vec4<f32> %6 %12", "InputLoad vec4<f32> %5 %11", 1},  // a user output
      {"OutputLoad vec4<f32> %14 %12", "InputLoad vec4<f32> %5 %11", 1}, // Position
      // Inputs and the patch constant it wrote itself: nothing another invocation writes.
      {"InputLoad vec4<f32> %5 %12", "InputLoad vec4<f32> %5 %11", 0},
      {"OutputLoad vec4<f32> %10 null", "InputLoad vec4<f32> %5 %11", 0},
      // The control-point function reading its own control point's output.
      {"InputLoad vec4<f32> %5 %12", "OutputLoad vec4<f32> %6 %22", 0},
  };
  for (const Case& c : cases) {
    Lowered out;
    lower_and_validate(hull(c.patch_read, c.control_point_read).c_str(), out);
    EXPECT_EQ(count_lines(out.text, "OpControlBarrier"), c.barriers)
        << c.patch_read << " / " << c.control_point_read << "\n"
        << out.text;
    EXPECT_EQ(count_lines(out.text, "OpFunctionCall"), 2);
  }
}

TEST(SpirvLower, AtomicsCountersAndImages) {
  const char* ir = R"(
%1 = EntryPoint void %20 Compute
%2 = SetCsWorkgroupSize void %1 8 8 1
%3 = DclInputBuiltIn vec3<u32> %1 GlobalThreadId 0
%4 = DclUav u32[] %1 0 0 1 RawBuffer 0
%5 = DclUavCounter u32 %1 %4
%6 = DclUav u32 %1 0 1 1 Image2D FixedFormat
%7 = DclLds u32[16] %1
%8 = DclUav f32 %1 0 2 1 Image2DArray 0
%9 = DclUav u32[4][] %1 0 3 1 Structured Coherent
%10 = Constant u32 0
%11 = Constant u32 1
%12 = Constant vec2<u32> 3 1
%20 = Function void
  %21 = Label void None
    %22 = InputLoad u32 %3 %10
    %23 = DescriptorLoad u32[] %4 %10
    %24 = BufferAtomic u32 %23 %22 %11 Add
    %25 = CompositeConstruct vec2<u32> %22 %24
    %26 = BufferAtomic void %23 %10 %25 CompareExchange
    %27 = DescriptorLoad u32 %5 %10
    %28 = CounterAtomic u32 %27 Inc
    %29 = DescriptorLoad u32 %6 %10
    %30 = CompositeConstruct vec2<u32> %22 %28
    %31 = ImageAtomic u32 %29 null %30 %24 UMax
    %32 = LdsAtomic u32 %7 %10 %31 Or
    %33 = ImageLoad vec4<u32> %29 null null %30 null null
    %34 = DescriptorLoad f32 %8 %10
    %35 = ImageQuerySize {vec2<u32>, u32} %34 null
    %36 = CompositeExtract u32 %35 %11
    %37 = ConvertItoF f32 %36
    %38 = CompositeConstruct vec4<f32> %37 %37 %37 %37
    %39 = ImageStore void %34 %22 %30 %38
    %40 = DescriptorLoad u32[4][] %9 %10
    %41 = BufferLoad vec4<u32> %40 %12 4
    %42 = BufferStore void %40 %12 %33 4
    %43 = BufferQuerySize u32 %40
    %44 = Return void null
%45 = FunctionEnd void
)";
  Lowered out;
  lower_and_validate(ir, out);
  const std::string& s = out.text;
  EXPECT_EQ(count_lines(s, "OpAtomicIAdd"), 1) << s;
  EXPECT_EQ(count_lines(s, "OpAtomicCompareExchange"), 1);
  EXPECT_EQ(count_lines(s, "OpAtomicIIncrement"), 1);
  EXPECT_EQ(count_lines(s, "OpAtomicUMax"), 1);
  EXPECT_EQ(count_lines(s, "OpAtomicOr"), 1);
  EXPECT_EQ(count_lines(s, "OpImageTexelPointer"), 1);
  EXPECT_EQ(count_lines(s, "R32ui"), 1);
  EXPECT_EQ(count_lines(s, "OpImageQuerySize "), 1);
  EXPECT_EQ(count_lines(s, "OpArrayLength"), 1);
  EXPECT_EQ(count_lines(s, "Binding 4"), 1);
  EXPECT_EQ(count_lines(s, "OpCapability StorageImageWriteWithoutFormat"), 1);
  EXPECT_EQ(count_lines(s, "ArrayStride 16"), 1); // the structured buffer's outer array
  ASSERT_EQ(out.reflection.resources.size(), 5u);
  EXPECT_EQ(out.reflection.resources[1].register_class, ResourceBinding::Class::UavCounter);
  EXPECT_EQ(out.reflection.resources[2].descriptor_type, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE);
}

TEST(SpirvLower, FunctionsScratchConstantsPushDataSpecConstants) {
  const char* ir = R"(
%1 = EntryPoint void %20 Compute
%2 = DclScratch f32[8] %1
%3 = DclPushData vec4<f32> %1 0 Compute
%4 = DclPushData u32 %1 16 Compute
%5 = DclSpecConstant u32 %1 3 7
%6 = DclParam f32
%7 = DclUav u32[] %1 0 0 1 RawBuffer 0
%8 = Constant u32 0
%9 = Constant u32 2
%10 = Constant f32[4] 1.0 2.0 3.0 4.0
%11 = Constant f32 1.5
%12 = Constant i32 -3
%13 = Constant i16 -2
%14 = Constant u64 4294967296
%30 = Function f32 %6
  %31 = Label void None
    %32 = ParamLoad f32 %30 %6
    %33 = FRcp f32 %32
    %34 = Return f32 %33
%35 = FunctionEnd void
%20 = Function void
  %21 = Label void None
    %22 = PushDataLoad u32 %4 null
    %23 = PushDataLoad f32 %3 %9
    %24 = ScratchStore void %2 %22 %23
    %25 = ScratchLoad f32 %2 %5
    %26 = ConstantLoad f32 %10 %22
    %27 = FunctionCall f32 %30 %26
    %28 = FAdd f32 %25 %27
    %29 = Cast u32 %28
    %36 = DescriptorLoad u32[] %7 %8
    %37 = BufferStore void %36 %8 %29 4
    %38 = IAddCarry vec2<u32> %22 %29
    %39 = SMulExtended vec2<i32> %12 %12
    %40 = ConvertItoI i32 %13
    %41 = ConvertItoI u32 %14
    %42 = ConvertF32toPackedF16 u32 %38
    %43 = Return void null
%44 = FunctionEnd void
)";
  std::string text(ir);
  // ConvertF32toPackedF16 takes a vec2<f32>: feed it one.
  text.replace(
      text.find("%42 = ConvertF32toPackedF16 u32 %38"), 35,
      "%45 = CompositeConstruct vec2<f32> %23 %28\n    %42 = ConvertF32toPackedF16 u32 %45");
  Lowered out;
  lower_and_validate(text, out);
  const std::string& s = out.text;
  EXPECT_EQ(count_lines(s, "SpecId 3"), 1) << s;
  EXPECT_EQ(count_lines(s, "OpFunctionCall"), 1);
  EXPECT_EQ(count_lines(s, "OpVariable", "PushConstant"), 1);
  EXPECT_EQ(count_lines(s, "Offset 16"), 1);
  EXPECT_EQ(count_lines(s, "OpIAddCarry"), 1);
  EXPECT_EQ(count_lines(s, "OpSMulExtended"), 1);
  EXPECT_EQ(count_lines(s, "OpSConvert"), 1);
  EXPECT_EQ(count_lines(s, "OpUConvert"), 1);
  EXPECT_EQ(count_lines(s, "OpCapability Int64"), 1);
  EXPECT_EQ(count_lines(s, "OpCapability Int16"), 1);
  EXPECT_EQ(count_lines(s, "PackHalf2x16"), 1);
  EXPECT_EQ(count_lines(s, "OpConstantComposite"), 1); // the constant array
}

// Constant arrays reuse the previous element's composite when an element repeats it: a
// repeat gets the same id, an element differing in one component or only in its type (the
// struct's f32 and u32 members with the same bits) gets its own.
TEST(SpirvLower, ConstantArraysWithRepeatedElements) {
  const char* ir = R"(
%1 = EntryPoint void %20 Compute
%2 = DclUav u32[] %1 0 0 1 RawBuffer 0
%8 = Constant u32 0
%10 = Constant vec4<f32>[4] 1.0 2.0 3.0 4.0 1.0 2.0 3.0 4.0 5.0 6.0 7.0 8.0 1.0 2.0 3.0 5.0
%11 = Constant {vec2<f32>, vec2<u32>}[2] 1.0 1.0 1065353216 1065353216 1.0 1.0 1065353216 1065353216
%20 = Function void
  %21 = Label void None
    %22 = DescriptorLoad u32[] %2 %8
    %23 = BufferLoad u32 %22 %8 4
    %24 = ConstantLoad f32 %10 %23
    %25 = Cast u32 %24
    %26 = BufferStore void %22 %8 %25 4
    %27 = Return void null
%28 = FunctionEnd void
)";
  Lowered out;
  lower_and_validate(ir, out);
  const std::string& s = out.text;
  // vec4s (1,2,3,4) (5,6,7,8) (1,2,3,5) and their array; vec2<f32>, vec2<u32>, the struct (both
  // elements equal) and its array.
  EXPECT_EQ(count_lines(s, "OpConstantComposite"), 8) << s;
  // "%id = OpConstantComposite %type %a %b ...": the composite whose constituents are all
  // composites with four parts is the vec4 array.
  std::map<std::string, std::vector<std::string>> composites;
  std::istringstream lines(s);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string id, eq, opcode, type, part;
    words >> id >> eq >> opcode >> type;
    if (opcode != "OpConstantComposite") continue;
    while (words >> part) composites[id].push_back(part);
  }
  const std::vector<std::string>* array = nullptr;
  for (const auto& [id, parts] : composites) {
    bool of_vec4s = parts.size() == 4;
    for (const std::string& part : parts)
      of_vec4s = of_vec4s && composites.count(part) && composites.at(part).size() == 4;
    if (of_vec4s) array = &parts;
  }
  ASSERT_NE(array, nullptr) << s;
  EXPECT_EQ((*array)[0], (*array)[1]);
  EXPECT_NE((*array)[2], (*array)[0]);
  EXPECT_NE((*array)[3], (*array)[0]);
  EXPECT_NE((*array)[3], (*array)[2]);
}

TEST(SpirvLower, SwitchLoopAndSelection) {
  const char* ir = R"(
%1 = EntryPoint void %20 Compute
%2 = DclUav u32[] %1 0 0 1 RawBuffer 0
%3 = DclInputBuiltIn u32 %1 LocalThreadIndex 0
%8 = Constant u32 0
%9 = Constant u32 1
%10 = Constant u32 2
%11 = Constant u32 10
%20 = Function void
  %21 = Label void %40 StructuredSelection
    %22 = InputLoad u32 %3 null
    %23 = Switch void %22 %32 %8 %30 %9 %31
  %30 = Label void None
    %33 = Branch void %40
  %31 = Label void None
    %34 = Branch void %40
  %32 = Label void None
    %35 = Branch void %40
  %40 = Label void None
    %41 = Phi u32 %30 %9 %31 %10 %32 %11
    %42 = DescriptorLoad u32[] %2 %8
    %43 = BufferStore void %42 %22 %41 4
    %44 = Return void null
%45 = FunctionEnd void
)";
  Lowered out;
  lower_and_validate(ir, out);
  EXPECT_EQ(count_lines(out.text, "OpSwitch"), 1) << out.text;
  EXPECT_EQ(count_lines(out.text, "OpSelectionMerge"), 1);
  EXPECT_EQ(count_lines(out.text, "OpPhi"), 1);
}

TEST(SpirvLower, SampleCountAndRasterizerOrderedViews) {
  const char* ir = R"(
%1 = EntryPoint void %20 Pixel
%2 = DclInputBuiltIn u32 %1 SampleCount 0
%3 = DclUav u32 %1 0 1 1 Image2D RasterizerOrdered
%4 = DclInputBuiltIn vec4<f32> %1 Position 0
%5 = Constant u32 0
%20 = Function void
  %21 = Label void None
    %22 = InputLoad u32 %2 null
    %23 = InputLoad f32 %4 %5
    %24 = ConvertFtoI u32 %23
    %25 = CompositeConstruct vec2<u32> %24 %24
    %26 = DescriptorLoad u32 %3 %5
    %27 = RovScopedLockBegin void UavImage Pixel
    %28 = ImageLoad vec4<u32> %26 null null %25 null null
    %29 = CompositeExtract u32 %28 %5
    %30 = IAdd u32 %29 %22
    %31 = CompositeConstruct vec4<u32> %30 %30 %30 %30
    %32 = ImageStore void %26 null %25 %31
    %33 = RovScopedLockEnd void UavImage
    %34 = Return void null
%35 = FunctionEnd void
)";
  Lowered out;
  lower_and_validate(ir, out);
  const std::string& s = out.text;
  EXPECT_EQ(count_lines(s, "OpSpecConstant %"), 1) << s;
  EXPECT_EQ(count_lines(s, "SpecId 1263271937"), 1); // kSampleCountSpecId
  EXPECT_EQ(count_lines(s, "OpBeginInvocationInterlockEXT"), 1);
  EXPECT_EQ(count_lines(s, "OpEndInvocationInterlockEXT"), 1);
  EXPECT_EQ(count_lines(s, "PixelInterlockOrderedEXT"), 1);
}

TEST(SpirvLower, RejectsWhatItCannotExpress) {
  Lowered out;
  Status st = lower_only(R"(
%1 = EntryPoint void %20 Vertex
%2 = DclOutputBuiltIn u32 %1 SampleCount 0
%20 = Function void
  %21 = Label void None
    %22 = Return void null
%23 = FunctionEnd void
)",
                         SpirvTarget::Vulkan13, out);
  ASSERT_FALSE(st);
  EXPECT_NE(st.message().find("DclOutputBuiltIn"), std::string::npos) << st.message();

  st = lower_only(R"(
%1 = EntryPoint void %20 Pixel
%2 = DclCbv vec4<f32>[4] %1 0 70000 1
%20 = Function void
  %21 = Label void None
    %22 = Return void null
%23 = FunctionEnd void
)",
                  SpirvTarget::Vulkan13, out);
  ASSERT_FALSE(st);
  EXPECT_NE(st.message().find("register number too large"), std::string::npos) << st.message();

  st = lower_only(R"(
%1 = EntryPoint void %20 Vertex
%20 = Function void
  %21 = Label void None
    %22 = Demote void
    %23 = Return void null
%24 = FunctionEnd void
)",
                  SpirvTarget::Vulkan13, out);
  ASSERT_FALSE(st);
  EXPECT_NE(st.message().find("Demote"), std::string::npos) << st.message();

  // A value of Unknown type (not final form), used before or after its own op: refused once
  // its op comes by, whichever way round.
  for (const char* ir : {R"(
%1 = EntryPoint void %20 Pixel
%2 = Undef unknown
%20 = Function void
  %21 = Label void None
    %22 = Return void null
%23 = FunctionEnd void
)",
                         R"(
%1 = EntryPoint void %20 Pixel
%2 = Constant u32 1
%20 = Function void
  %21 = Label void None
    %22 = IAdd unknown %2 %2
    %23 = IAdd u32 %22 %2
    %24 = Return void null
%25 = FunctionEnd void
)"}) {
    st = lower_only(ir, SpirvTarget::Vulkan13, out);
    ASSERT_FALSE(st) << ir;
    EXPECT_NE(st.message().find("Unknown type"), std::string::npos) << st.message();
  }
}

// The rows of KILN_SPIRV_LOWERINGS that emit no code: an op the passes remove, or one the
// backend does not map, is refused naming it; a leftover DclTmp emits nothing.
TEST(SpirvLower, TableRowsWithoutCode) {
  const std::string program = R"(
%1 = EntryPoint void %20 Compute
%2 = Constant u32 3
%3 = Constant f32 0.5
%4 = DclTmp u32 %1
%20 = Function void
  %21 = Label void None
OP
    %23 = Return void null
%24 = FunctionEnd void
)";
  struct Case {
    const char* op;
    const char* line;
    const char* expect;
  } cases[] = {
      {"FMadLegacy", "    %22 = FMadLegacy f32 %3 %3 %3", "not lowered by the passes"},
      {"UMsad", "    %22 = UMsad u32 %2 %2 %2", "op UMsad not supported by the SPIR-V backend"},
      {"none", "", ""}};
  for (const Case& c : cases) {
    std::string text = program;
    text.replace(text.find("OP"), 2, c.line);
    Lowered out;
    Status st = lower_only(text, SpirvTarget::Vulkan13, out);
    if (!*c.expect) {
      EXPECT_TRUE(st) << st.message();
      continue;
    }
    ASSERT_FALSE(st) << c.op;
    EXPECT_NE(st.message().find(c.expect), std::string::npos) << st.message();
    EXPECT_NE(st.message().find(c.op), std::string::npos) << st.message();
  }
}

// Built-ins outside the stages and directions Vulkan allows them in (damaged signatures) are
// refused by name; the same declarations in their own stage lower.
TEST(SpirvLower, RejectsBuiltInsOutsideTheirStages) {
  struct Case {
    const char* stage;
    const char* decl;
    const char* expect; // empty: must lower
  } cases[] = {
      {"Pixel", "DclInputBuiltIn u32 %1 VertexId", "VertexId is not an input of pixel"},
      {"Vertex", "DclInputBuiltIn u32 %1 VertexId", ""},
      {"Vertex", "DclOutputBuiltIn f32 %1 Depth", "Depth is not an output of vertex"},
      {"Pixel", "DclOutputBuiltIn f32 %1 Depth", ""},
      {"Compute", "DclInputBuiltIn bool %1 IsFrontFace", "IsFrontFace is not an input of compute"},
  };
  for (const Case& c : cases) {
    std::string text = std::string("%1 = EntryPoint void %20 ") + c.stage + "\n%2 = " + c.decl +
                       R"(
%20 = Function void
  %21 = Label void None
    %22 = Return void null
%23 = FunctionEnd void
)";
    Lowered out;
    Status st = lower_only(text, SpirvTarget::Vulkan13, out);
    if (!*c.expect) {
      EXPECT_TRUE(st) << c.stage << ": " << st.message();
      continue;
    }
    ASSERT_FALSE(st) << c.stage << " " << c.decl;
    EXPECT_NE(st.message().find(c.expect), std::string::npos) << st.message();
  }
}

} // namespace
} // namespace kiln::test
