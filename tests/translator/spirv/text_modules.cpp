#include "tests/translator/spirv/text_modules.h"

namespace kiln::test {

namespace {

constexpr std::string_view kComputeBasics = R"(
OpCapability Shader
%1 = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %2 "main" %3
OpExecutionMode %2 LocalSize 64 1 1
OpSource HLSL 500
OpName %2 "main"
OpName %4 "quote\"and\\backslash"
OpMemberName %5 0 "values"
OpDecorate %3 BuiltIn GlobalInvocationId
OpDecorate %6 ArrayStride 4
OpMemberDecorate %5 0 Offset 0
OpDecorate %5 Block
OpDecorate %4 DescriptorSet 0
OpDecorate %4 Binding 3
%7 = OpTypeVoid
%8 = OpTypeFunction %7
%9 = OpTypeFloat 32
%10 = OpTypeInt 32 0
%11 = OpTypeInt 32 1
%6 = OpTypeRuntimeArray %9
%5 = OpTypeStruct %6
%12 = OpTypePointer StorageBuffer %5
%4 = OpVariable %12 StorageBuffer
%13 = OpTypeVector %10 3
%14 = OpTypePointer Input %13
%3 = OpVariable %14 Input
%15 = OpConstant %10 0
%16 = OpConstant %9 1.5
%17 = OpConstant %9 -0.100000001
%18 = OpConstant %11 -7
%19 = OpTypePointer StorageBuffer %9
%20 = OpTypePointer Input %10
%2 = OpFunction %7 None %8
%21 = OpLabel
%22 = OpAccessChain %20 %3 %15
%23 = OpLoad %10 %22
%24 = OpAccessChain %19 %4 %15 %23
%25 = OpLoad %9 %24 Aligned 4
%26 = OpExtInst %9 %1 Sqrt %25
%27 = OpExtInst %9 %1 FMix %26 %16 %17
%28 = OpFMul %9 %27 %16
OpStore %24 %28 Volatile|Aligned 4
OpReturn
OpFunctionEnd
)";

constexpr std::string_view kControlFlow = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %1 "main"
OpExecutionMode %1 LocalSize 1 1 1
%2 = OpTypeVoid
%3 = OpTypeFunction %2
%4 = OpTypeInt 32 1
%5 = OpTypeBool
%6 = OpConstant %4 0
%7 = OpConstant %4 10
%8 = OpConstant %4 1
%9 = OpTypePointer Function %4
%1 = OpFunction %2 None %3
%10 = OpLabel
%11 = OpVariable %9 Function %6
OpBranch %12
%12 = OpLabel
%13 = OpPhi %4 %6 %10 %14 %15
OpLoopMerge %16 %15 Unroll|DependencyLength 4
OpBranch %17
%17 = OpLabel
%18 = OpSLessThan %5 %13 %7
OpBranchConditional %18 %19 %16 7 3
%19 = OpLabel
OpSelectionMerge %20 Flatten
OpSwitch %13 %20 -1 %21 5 %22 2147483647 %22
%21 = OpLabel
OpBranch %20
%22 = OpLabel
OpBranch %20
%20 = OpLabel
OpBranch %15
%15 = OpLabel
%14 = OpIAdd %4 %13 %8
OpStore %11 %14
OpBranch %12
%16 = OpLabel
OpReturn
OpFunctionEnd
)";

constexpr std::string_view kLiterals = R"(
OpCapability Shader
OpCapability Float16
OpCapability Float64
OpCapability Int64
OpCapability Int16
OpMemoryModel Logical GLSL450
%1 = OpTypeFloat 16
%2 = OpTypeFloat 32
%3 = OpTypeFloat 64
%4 = OpTypeInt 64 1
%5 = OpTypeInt 64 0
%6 = OpTypeInt 16 1
%7 = OpTypeInt 16 0
%8 = OpTypeInt 32 1
%9 = OpConstant %1 1.5
%10 = OpConstant %1 0.1
%11 = OpConstant %2 0x1p+128
%12 = OpConstant %2 -0x1.8p+128
%13 = OpConstant %2 0x1.16c2p-133
%14 = OpConstant %2 -0
%15 = OpConstant %2 3.40282347e+38
%16 = OpConstant %3 1e+100
%17 = OpConstant %3 -2.5
%18 = OpConstant %3 0x1p-1070
%19 = OpConstant %4 -5
%20 = OpConstant %5 18446744073709551615
%21 = OpConstant %6 -32768
%22 = OpConstant %7 65535
%23 = OpConstant %8 -2147483648
%24 = OpSpecConstant %8 42
%25 = OpSpecConstant %2 0.25
%26 = OpSpecConstantOp %8 IAdd %24 %23
%27 = OpSpecConstantOp %8 CompositeExtract %28 1
%29 = OpTypeVector %8 2
%28 = OpConstantComposite %29 %23 %24
%30 = OpConstantNull %29
%31 = OpTypeBool
%32 = OpSpecConstantTrue %31
%33 = OpSpecConstantFalse %31
%34 = OpConstantTrue %31
%35 = OpUndef %2
)";

constexpr std::string_view kImages = R"(
OpCapability Shader
OpCapability StorageImageExtendedFormats
OpCapability SampledBuffer
%1 = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %2 "main" %3 %4
OpExecutionMode %2 OriginUpperLeft
OpDecorate %3 Location 0
OpDecorate %4 Location 0
OpDecorate %4 Index 0
OpDecorate %5 DescriptorSet 1
OpDecorate %5 Binding 0
OpDecorate %3 NoPerspective
OpDecorate %3 Centroid
%6 = OpTypeVoid
%7 = OpTypeFunction %6
%8 = OpTypeFloat 32
%9 = OpTypeVector %8 4
%10 = OpTypeVector %8 2
%11 = OpTypeInt 32 1
%12 = OpTypeVector %11 2
%13 = OpTypeImage %8 2D 0 1 0 1 Unknown
%14 = OpTypeSampledImage %13
%15 = OpTypePointer UniformConstant %14
%5 = OpVariable %15 UniformConstant
%16 = OpTypePointer Input %10
%3 = OpVariable %16 Input
%17 = OpTypePointer Output %9
%4 = OpVariable %17 Output
%18 = OpTypeImage %11 Buffer 0 0 0 2 Rg16i
%19 = OpTypeImage %8 Cube 1 1 0 1 Unknown
%20 = OpConstant %8 0
%21 = OpConstant %11 1
%22 = OpConstantComposite %12 %21 %21
%23 = OpTypeVector %8 3
%2 = OpFunction %6 None %7
%24 = OpLabel
%25 = OpLoad %14 %5
%26 = OpLoad %10 %3
%27 = OpImageSampleExplicitLod %9 %25 %26 Lod|ConstOffset %20 %22
%28 = OpImageSampleImplicitLod %9 %25 %26 Bias %20
%29 = OpDPdx %10 %26
%30 = OpImageSampleExplicitLod %9 %25 %26 Grad %29 %29
%31 = OpExtInst %9 %1 FClamp %27 %28 %30
%32 = OpVectorShuffle %10 %31 %31 0 7
%33 = OpCompositeExtract %8 %32 1
%34 = OpCompositeConstruct %9 %33 %33 %20 %20
%35 = OpFOrdLessThan %10 %26 %26
OpKill
OpFunctionEnd
)";

constexpr std::string_view kSyncAndAtomics = R"(
OpCapability Shader
OpCapability VulkanMemoryModel
OpCapability GroupNonUniformBallot
OpExtension "SPV_KHR_vulkan_memory_model"
OpMemoryModel Logical Vulkan
OpEntryPoint GLCompute %1 "main" %2
OpExecutionModeId %1 LocalSizeId %3 %4 %4
OpDecorate %5 SpecId 7
%6 = OpTypeVoid
%7 = OpTypeFunction %6
%8 = OpTypeInt 32 0
%3 = OpConstant %8 8
%4 = OpConstant %8 1
%5 = OpSpecConstant %8 64
%9 = OpConstant %8 2
%10 = OpConstant %8 264
%11 = OpTypeArray %8 %3
%12 = OpTypePointer Workgroup %11
%2 = OpVariable %12 Workgroup
%13 = OpTypePointer Workgroup %8
%14 = OpConstant %8 0
%15 = OpConstant %8 3
%16 = OpTypeBool
%17 = OpTypeVector %8 4
%1 = OpFunction %6 DontInline|Const %7
%18 = OpLabel
%19 = OpAccessChain %13 %2 %14
%20 = OpAtomicIAdd %8 %19 %9 %10 %4
%21 = OpAtomicCompareExchange %8 %19 %9 %10 %10 %4 %14
OpControlBarrier %9 %9 %10
OpMemoryBarrier %9 %10
OpStore %19 %20 MakePointerAvailable|NonPrivatePointer %9
%22 = OpLoad %8 %19 MakePointerVisible|NonPrivatePointer %9
%23 = OpGroupNonUniformBallot %17 %15 %16
%24 = OpGroupNonUniformIAdd %8 %15 Reduce %22
OpReturn
OpFunctionEnd
%25 = OpFunction %8 Inline %26
%27 = OpFunctionParameter %8
%28 = OpLabel
%29 = OpFunctionCall %8 %25 %27
OpReturnValue %29
OpFunctionEnd
)";

constexpr std::string_view kDebugAndMisc = R"(
OpCapability Shader
OpCapability Geometry
OpExtension "SPV_KHR_storage_buffer_storage_class"
%1 = OpExtInstImport "NonSemantic.Unknown.Set"
OpMemoryModel Logical GLSL450
OpEntryPoint Geometry %2 "gs_main"
OpExecutionMode %2 Triangles
OpExecutionMode %2 Invocations 2
OpExecutionMode %2 OutputTriangleStrip
OpExecutionMode %2 OutputVertices 3
%3 = OpString "shader.hlsl"
OpSource HLSL 500 %3 "float4 main() : SV_Target { return 0; }"
OpSourceExtension "GL_EXT_whatever"
OpModuleProcessed "kiln"
OpDecorate %4 RelaxedPrecision
OpDecorateString %5 UserSemantic "TEXCOORD"
OpMemberDecorate %6 1 BuiltIn Position
OpMemberDecorate %6 0 ColMajor
OpMemberDecorate %6 0 MatrixStride 16
%7 = OpTypeVoid
%8 = OpTypeFunction %7
%9 = OpTypeFloat 32
%10 = OpTypeVector %9 4
%11 = OpTypeMatrix %10 4
%6 = OpTypeStruct %11 %10
%12 = OpTypePointer Output %6
%5 = OpVariable %12 Output
%13 = OpTypeSampler
%2 = OpFunction %7 None %8
%14 = OpLabel
OpLine %3 10 4
%4 = OpExtInst %7 %1 123 %3
OpNoLine
OpEmitVertex
OpEndPrimitive
OpReturn
OpFunctionEnd
)";

constexpr TextModule kModules[] = {
    {"compute_basics", kComputeBasics},
    {"control_flow", kControlFlow},
    {"literals", kLiterals},
    {"images", kImages},
    {"sync_and_atomics", kSyncAndAtomics},
    {"debug_and_misc", kDebugAndMisc},
};

} // namespace

std::span<const TextModule> text_modules() {
  return kModules;
}

} // namespace kiln::test
