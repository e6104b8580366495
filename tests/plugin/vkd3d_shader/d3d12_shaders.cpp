// Writes the DXBC shaders of the D3D12 programs (tests/plugin/vkd3d_shader/d3d12_*.c) that the shared
// conformance suite has no compiled blob for, with kiln's DXBC writer (bench/synth). Each
// implements the HLSL in its comment with declarations in fxc's order and the signatures the
// stages link by. Built and run at build time; nothing binary is checked in.
// usage: d3d12-shaders OUTPUT_DIR

#include "bench/synth/dxbc_writer.h"

#include <cstdio>
#include <string>
#include <vector>

namespace {

using namespace kiln::synth::dxbc;
namespace opd = kiln::synth::dxbc::operand;
using kiln::ShaderStage;

// Tokenized-format system value names (dcl_*_siv / dcl_*_sgv).
enum : std::uint32_t {
  kSivPosition = 1,
  kSivClipDistance = 2,
  kSivRenderTargetArrayIndex = 4,
  kSivVertexId = 6,
  kSivInstanceId = 8,
  kSivTriEdge0 = 17, // finalTriUeq0EdgeTessFactor; V and W follow
  kSivTriInside = 20,
};
// D3D_NAME values of signature elements.
enum : std::uint32_t {
  kNameNone = 0,
  kNamePosition = 1,
  kNameClipDistance = 2,
  kNameRenderTargetArrayIndex = 4,
  kNameVertexId = 6,
  kNameInstanceId = 8,
  kNameTriEdge = 13,
  kNameTriInside = 14,
  kNameTarget = 64,
};
enum : std::uint32_t { kUint = 1, kFloat = 3 };
// Declaration payloads in the opcode token's control bits (bits 11-23). A UAV with a counter:
// bit 23, D3D11_SB_UAV_HAS_ORDER_PRESERVING_COUNTER.
constexpr std::uint32_t kUavHasCounter = 1u << 12;
constexpr std::uint32_t kPrimitivePoint = 1, kPrimitiveTriangle = 3;
constexpr std::uint32_t kTopologyTriangleStrip = 5;
constexpr std::uint32_t kDomainTriangle = 2, kPartitioningInteger = 1, kOutputTriangleCw = 3;
// Pixel-shader input interpolation (dcl_input_ps*): constant, linear, linear noperspective.
constexpr std::uint32_t kConstant = 1, kLinear = 2, kLinearNoPerspective = 4;

// An input signature element (the used mask is what the shader reads).
SignatureElement in(const char* semantic, std::uint32_t name, std::uint32_t type, std::uint32_t reg,
                    std::uint8_t mask, std::uint8_t used) {
  return {semantic, 0, name, type, reg, mask, used};
}
// An output signature element written in full (fxc stores the components never written).
SignatureElement out(const char* semantic, std::uint32_t name, std::uint32_t type,
                     std::uint32_t reg, std::uint8_t mask) {
  return {semantic, 0, name, type, reg, mask, std::uint8_t(~mask & 0xf)};
}

// Declaration operands (mask selection) of TYPE: 0-D, 1-D (register), 2-D (count, register).
Operand dcl(OperandType type, std::uint32_t mask) {
  return opd::of({opd::token(type, 2, 0, mask, 0)});
}
Operand dcl1(OperandType type, std::uint32_t index, std::uint32_t mask) {
  return opd::of({opd::token(type, 2, 0, mask, 1), index});
}
Operand dcl2(OperandType type, std::uint32_t count, std::uint32_t reg, std::uint32_t mask) {
  return opd::of({opd::token(type, 2, 0, mask, 2), count, reg});
}
// A source reg[a][b] with a swizzle (GS inputs v[vertex][reg], DS vicp[point][reg]).
Operand src2(OperandType type, std::uint32_t a, std::uint32_t b, std::uint32_t swz) {
  return opd::of({opd::token(type, 2, 1, swz, 2), a, b});
}
// A four-component 0-D source with one component selected (vThreadID.x, vDomain.y).
Operand select0(OperandType type, std::uint32_t component) {
  return opd::of({opd::token(type, 2, 2, component, 0)});
}
// A one-component 0-D source (vPrim).
Operand scalar0(OperandType type) {
  return opd::of({opd::token(type, 1, 0, 0, 0)});
}
// A UAV as named by declarations and counter operations (no components).
Operand uav_slot(std::uint32_t slot) {
  return opd::of({opd::token(OperandType::Uav, 0, 0, 0, 1), slot});
}
std::uint32_t replicate(std::uint32_t c) {
  return swizzle(c, c, c, c);
}

// The geometry-shader declarations fxc emits first, in its order: input primitive, output
// topology, vertex count, stream 0 (gs_5_0).
void declare_geometry(ProgramWriter& w, std::uint32_t input_primitive, std::uint32_t max_vertices) {
  w.emit(Op::DclGsInputPrimitive, {}, input_primitive);
  w.emit(Op::DclGsOutputTopology, {}, kTopologyTriangleStrip);
  w.emit(Op::DclMaxOutputVertexCount, {}, 0, {max_vertices});
  w.emit(Op::DclStream, {opd::of({opd::token(OperandType::Stream, 0, 0, 0, 1), 0})});
}

// pos = a full-viewport triangle from the vertex ID in v0.x, into o0 (r0 as a temporary):
// coords = float2((id << 1) & 2, id & 2); pos = float4(coords * (2, -2) + (-1, 1), 0, 1)
void full_viewport_triangle(ProgramWriter& w) {
  w.emit(Op::IShl,
         {opd::temp_dst(0, 0x1), opd::src_scalar(OperandType::Input, 0, 0), opd::imm1_bits(1)});
  w.emit(Op::And, {opd::temp_dst(0, 0x1), opd::temp_scalar(0, 0), opd::imm1_bits(2)});
  w.emit(Op::And,
         {opd::temp_dst(0, 0x2), opd::src_scalar(OperandType::Input, 0, 0), opd::imm1_bits(2)});
  w.emit(Op::Utof, {opd::temp_dst(0, 0x3), opd::temp(0)});
  w.emit(Op::Mad,
         {opd::output_dst(0, 0x3), opd::temp(0), opd::imm4(2, -2, 0, 0), opd::imm4(-1, 1, 0, 0)});
  w.emit(Op::Mov, {opd::output_dst(0, 0xc), opd::imm4(0, 0, 0, 1)});
}

std::vector<std::uint8_t> container(ProgramWriter& w, const std::vector<SignatureElement>& inputs,
                                    const std::vector<SignatureElement>& outputs,
                                    const std::vector<SignatureElement>* patch = nullptr,
                                    bool patch_after_outputs = false) {
  const std::vector<std::uint32_t> program = w.finish();
  ContainerWriter c;
  c.add_chunk(fourcc('I', 'S', 'G', 'N'), signature_chunk(inputs));
  if (patch && !patch_after_outputs)
    c.add_chunk(fourcc('P', 'C', 'S', 'G'), signature_chunk(*patch));
  c.add_chunk(fourcc('O', 'S', 'G', 'N'), signature_chunk(outputs));
  if (patch && patch_after_outputs)
    c.add_chunk(fourcc('P', 'C', 'S', 'G'), signature_chunk(*patch));
  c.add_chunk(fourcc('S', 'H', 'E', 'X'), std::span<const std::uint32_t>(program));
  return c.finish();
}

// RWStructuredBuffer<uint> a : register(u0), c : register(u1);
// [numthreads(4, 1, 1)] void main(uint3 id : SV_DispatchThreadID) {
//   a[a.IncrementCounter()] = id.x; c[c.DecrementCounter()] = id.x + 100; }
std::vector<std::uint8_t> uav_counter_cs() {
  ProgramWriter w(ShaderStage::Compute, 5, 0);
  w.emit(Op::DclUavStructured, {uav_slot(0)}, kUavHasCounter, {4});
  w.emit(Op::DclUavStructured, {uav_slot(1)}, kUavHasCounter, {4});
  w.emit(Op::DclInput, {dcl(OperandType::InputThreadId, 0x1)});
  w.emit(Op::DclTemps, {}, 0, {2});
  w.emit(Op::DclThreadGroup, {}, 0, {4, 1, 1});
  w.emit(Op::ImmAtomicAlloc, {opd::temp_dst(0, 0x1), uav_slot(0)});
  w.emit(Op::StoreStructured, {opd::uav(0, 0x1, true), opd::temp_scalar(0, 0), opd::imm1_bits(0),
                               select0(OperandType::InputThreadId, 0)});
  w.emit(Op::ImmAtomicConsume, {opd::temp_dst(0, 0x1), uav_slot(1)});
  w.emit(Op::IAdd,
         {opd::temp_dst(1, 0x1), select0(OperandType::InputThreadId, 0), opd::imm1_bits(100)});
  w.emit(Op::StoreStructured, {opd::uav(1, 0x1, true), opd::temp_scalar(0, 0), opd::imm1_bits(0),
                               opd::temp_scalar(1, 0)});
  w.emit(Op::Ret, {});
  return container(w, {}, {});
}

// struct o { float4 pos : SV_Position; float4 color : COLOR; float2 clip : SV_ClipDistance; };
// [maxvertexcount(4)] void main(point gs_data v[1], inout TriangleStream<o> s) {
//   a full-viewport strip in v[0].color, clip distances (x + 0.5, y): only the part right of
//   x = -0.5 and above y = 0 is drawn }
std::vector<std::uint8_t> clip_distance_gs() {
  ProgramWriter w(ShaderStage::Geometry, 5, 0);
  declare_geometry(w, kPrimitivePoint, 4);
  w.emit(Op::DclInput, {dcl2(OperandType::Input, 1, 1, 0xf)});
  w.emit(Op::DclOutputSiv, {opd::output_dst(0)}, 0, {kSivPosition});
  w.emit(Op::DclOutput, {opd::output_dst(1)});
  w.emit(Op::DclOutputSiv, {opd::output_dst(2, 0x3)}, 0, {kSivClipDistance});
  static constexpr float kCorners[4][2] = {{-1, -1}, {-1, 1}, {1, -1}, {1, 1}};
  for (const auto& corner : kCorners) {
    w.emit(Op::Mov, {opd::output_dst(0), opd::imm4(corner[0], corner[1], 0, 1)});
    w.emit(Op::Mov, {opd::output_dst(1), src2(OperandType::Input, 0, 1, kXyzw)});
    w.emit(Op::Mov, {opd::output_dst(2, 0x3), opd::imm4(corner[0] + 0.5f, corner[1], 0, 0)});
    w.emit(Op::Emit, {});
  }
  w.emit(Op::Ret, {});
  // Inputs: the outputs of the conformance suite's geometry/3.vs (a pass-through of a vertex
  // buffer's SV_POSITION and COLOR).
  return container(w,
                   {in("SV_POSITION", kNamePosition, kFloat, 0, 0xf, 0x0),
                    in("COLOR", kNameNone, kFloat, 1, 0xf, 0xf)},
                   {out("SV_Position", kNamePosition, kFloat, 0, 0xf),
                    out("COLOR", kNameNone, kFloat, 1, 0xf),
                    out("SV_ClipDistance", kNameClipDistance, kFloat, 2, 0x3)});
}

// void main(uint id : SV_VertexID, uint instance : SV_InstanceID, out float4 pos : SV_Position,
//           out float4 color : COLOR, out uint layer : SV_RenderTargetArrayIndex (or : LAYER)) {
//   pos = a full-viewport triangle from id; color = float4((instance + 1) * 0.25, 0, 0, 1);
//   layer = instance; }
std::vector<std::uint8_t> layer_vs(bool layer_is_system_value) {
  ProgramWriter w(ShaderStage::Vertex, 5, 0);
  w.emit(Op::DclInputSgv, {opd::dst(OperandType::Input, 0, 0x1)}, 0, {kSivVertexId});
  w.emit(Op::DclInputSgv, {opd::dst(OperandType::Input, 1, 0x1)}, 0, {kSivInstanceId});
  w.emit(Op::DclOutputSiv, {opd::output_dst(0)}, 0, {kSivPosition});
  w.emit(Op::DclOutput, {opd::output_dst(1)});
  if (layer_is_system_value)
    w.emit(Op::DclOutputSiv, {opd::output_dst(2, 0x1)}, 0, {kSivRenderTargetArrayIndex});
  else
    w.emit(Op::DclOutput, {opd::output_dst(2, 0x1)});
  w.emit(Op::DclTemps, {}, 0, {1});
  full_viewport_triangle(w);
  w.emit(Op::Utof, {opd::temp_dst(0, 0x1), opd::src_scalar(OperandType::Input, 1, 0)});
  w.emit(Op::Add, {opd::temp_dst(0, 0x1), opd::temp_scalar(0, 0), opd::imm1(1)});
  w.emit(Op::Mul, {opd::output_dst(1, 0x1), opd::temp_scalar(0, 0), opd::imm1(0.25f)});
  w.emit(Op::Mov, {opd::output_dst(1, 0xe), opd::imm4(0, 0, 0, 1)});
  w.emit(Op::Mov, {opd::output_dst(2, 0x1), opd::src_scalar(OperandType::Input, 1, 0)});
  w.emit(Op::Ret, {});
  return container(
      w,
      {in("SV_VertexID", kNameVertexId, kUint, 0, 0x1, 0x1),
       in("SV_InstanceID", kNameInstanceId, kUint, 1, 0x1, 0x1)},
      {out("SV_Position", kNamePosition, kFloat, 0, 0xf), out("COLOR", kNameNone, kFloat, 1, 0xf),
       layer_is_system_value
           ? out("SV_RenderTargetArrayIndex", kNameRenderTargetArrayIndex, kUint, 2, 0x1)
           : out("LAYER", kNameNone, kUint, 2, 0x1)});
}

// [maxvertexcount(3)] void main(triangle vs_out v[3], inout TriangleStream<gs_out> s) {
//   each vertex as it came, with color.y = 1 and SV_RenderTargetArrayIndex = v[0].layer + 2 }
std::vector<std::uint8_t> layer_gs() {
  ProgramWriter w(ShaderStage::Geometry, 5, 0);
  declare_geometry(w, kPrimitiveTriangle, 3);
  w.emit(Op::DclInputSiv, {dcl2(OperandType::Input, 3, 0, 0xf)}, 0, {kSivPosition});
  w.emit(Op::DclInput, {dcl2(OperandType::Input, 3, 1, 0xf)});
  w.emit(Op::DclInput, {dcl2(OperandType::Input, 3, 2, 0x1)});
  w.emit(Op::DclOutputSiv, {opd::output_dst(0)}, 0, {kSivPosition});
  w.emit(Op::DclOutput, {opd::output_dst(1)});
  w.emit(Op::DclOutputSiv, {opd::output_dst(2, 0x1)}, 0, {kSivRenderTargetArrayIndex});
  w.emit(Op::DclTemps, {}, 0, {1});
  w.emit(Op::IAdd,
         {opd::temp_dst(0, 0x1), src2(OperandType::Input, 0, 2, replicate(0)), opd::imm1_bits(2)});
  for (std::uint32_t vertex = 0; vertex < 3; ++vertex) {
    w.emit(Op::Mov, {opd::output_dst(0), src2(OperandType::Input, vertex, 0, kXyzw)});
    w.emit(Op::Mov, {opd::output_dst(1, 0xd), src2(OperandType::Input, vertex, 1, kXyzw)});
    w.emit(Op::Mov, {opd::output_dst(1, 0x2), opd::imm1(1)});
    w.emit(Op::Mov, {opd::output_dst(2, 0x1), opd::temp_scalar(0, 0)});
    w.emit(Op::Emit, {});
  }
  w.emit(Op::Ret, {});
  return container(
      w,
      {in("SV_Position", kNamePosition, kFloat, 0, 0xf, 0xf),
       in("COLOR", kNameNone, kFloat, 1, 0xf, 0xf), in("LAYER", kNameNone, kUint, 2, 0x1, 0x1)},
      {out("SV_Position", kNamePosition, kFloat, 0, 0xf), out("COLOR", kNameNone, kFloat, 1, 0xf),
       out("SV_RenderTargetArrayIndex", kNameRenderTargetArrayIndex, kUint, 2, 0x1)});
}

// The patch constants of the tessellation shaders: three edge factors, the inside factor and
// the hull shader's primitive ID (as a float).
std::vector<SignatureElement> patch_constants(bool domain) {
  std::vector<SignatureElement> elements;
  for (std::uint32_t i = 0; i < 3; ++i)
    elements.push_back(
        domain ? SignatureElement{"SV_TessFactor", i, kNameTriEdge, kFloat, i, 0x1, 0x0}
               : SignatureElement{"SV_TessFactor", i, kNameTriEdge, kFloat, i, 0x1, 0xe});
  elements.push_back(domain ? in("SV_InsideTessFactor", kNameTriInside, kFloat, 3, 0x1, 0x0)
                            : out("SV_InsideTessFactor", kNameTriInside, kFloat, 3, 0x1));
  elements.push_back(domain ? in("PRIMITIVE", kNameNone, kFloat, 4, 0x1, 0x1)
                            : out("PRIMITIVE", kNameNone, kFloat, 4, 0x1));
  return elements;
}

// A pass-through hull shader (no control-point phase: the patch goes to the domain shader as
// it came from the vertex shader), tessellation factors 1, and the primitive ID:
// [domain("tri")] [outputcontrolpoints(3)] [partitioning("integer")]
// [outputtopology("triangle_cw")] [patchconstantfunc("pc")] void main(InputPatch<vs_out, 3> p) {}
// void pc(InputPatch<vs_out, 3> p, uint prim : SV_PrimitiveID, out patch_constants o) {
//   o.edges = 1; o.inside = 1; o.primitive = prim; }
std::vector<std::uint8_t> primitive_id_hs() {
  ProgramWriter w(ShaderStage::Hull, 5, 0);
  w.emit(Op::HsDecls, {});
  w.emit(Op::DclInputControlPointCount, {}, 3);
  w.emit(Op::DclOutputControlPointCount, {}, 3);
  w.emit(Op::DclTessDomain, {}, kDomainTriangle);
  w.emit(Op::DclTessPartitioning, {}, kPartitioningInteger);
  w.emit(Op::DclTessOutputPrimitive, {}, kOutputTriangleCw);
  w.emit(Op::HsForkPhase, {});
  for (std::uint32_t i = 0; i < 3; ++i)
    w.emit(Op::DclOutputSiv, {opd::output_dst(i, 0x1)}, 0, {kSivTriEdge0 + i});
  for (std::uint32_t i = 0; i < 3; ++i) w.emit(Op::Mov, {opd::output_dst(i, 0x1), opd::imm1(1)});
  w.emit(Op::Ret, {});
  w.emit(Op::HsForkPhase, {});
  w.emit(Op::DclOutputSiv, {opd::output_dst(3, 0x1)}, 0, {kSivTriInside});
  w.emit(Op::Mov, {opd::output_dst(3, 0x1), opd::imm1(1)});
  w.emit(Op::Ret, {});
  w.emit(Op::HsForkPhase, {});
  w.emit(Op::DclInput, {opd::of({opd::token(OperandType::InputPrimitiveId, 0, 0, 0, 0)})});
  w.emit(Op::DclOutput, {opd::output_dst(4, 0x1)});
  w.emit(Op::Utof, {opd::output_dst(4, 0x1), scalar0(OperandType::InputPrimitiveId)});
  w.emit(Op::Ret, {});
  std::vector<SignatureElement> control_points = {
      {"SV_POSITION", 0, kNamePosition, kFloat, 0, 0xf, 0x0},
      {"COLOR", 0, kNameNone, kFloat, 1, 0xf, 0x0}};
  const std::vector<SignatureElement> patch = patch_constants(false);
  return container(w, control_points, control_points, &patch, true);
}

// [domain("tri")] void main(patch_constants pc, float3 at : SV_DomainLocation,
//   const OutputPatch<vs_out, 3> p, uint prim : SV_PrimitiveID, out ds_out o) {
//   o.pos = the position at `at`; o.color = float4(pc.primitive, prim, color.z at `at`, 1); }
std::vector<std::uint8_t> primitive_id_ds() {
  ProgramWriter w(ShaderStage::Domain, 5, 0);
  w.emit(Op::DclInputControlPointCount, {}, 3);
  w.emit(Op::DclTessDomain, {}, kDomainTriangle);
  w.emit(Op::DclInput, {dcl(OperandType::InputDomainPoint, 0x7)});
  w.emit(Op::DclInput, {dcl2(OperandType::InputControlPoint, 3, 0, 0xf)});
  w.emit(Op::DclInput, {dcl2(OperandType::InputControlPoint, 3, 1, 0x4)});
  w.emit(Op::DclInput, {dcl1(OperandType::InputPatchConstant, 4, 0x1)});
  w.emit(Op::DclInput, {opd::of({opd::token(OperandType::InputPrimitiveId, 0, 0, 0, 0)})});
  w.emit(Op::DclOutputSiv, {opd::output_dst(0)}, 0, {kSivPosition});
  w.emit(Op::DclOutput, {opd::output_dst(1)});
  w.emit(Op::DclTemps, {}, 0, {2});
  auto domain = [](std::uint32_t c) {
    return opd::of({opd::token(OperandType::InputDomainPoint, 2, 1, replicate(c), 0)});
  };
  w.emit(Op::Mul,
         {opd::temp_dst(0, 0xf), domain(0), src2(OperandType::InputControlPoint, 0, 0, kXyzw)});
  w.emit(Op::Mad, {opd::temp_dst(0, 0xf), domain(1),
                   src2(OperandType::InputControlPoint, 1, 0, kXyzw), opd::temp(0)});
  w.emit(Op::Mad, {opd::output_dst(0), domain(2), src2(OperandType::InputControlPoint, 2, 0, kXyzw),
                   opd::temp(0)});
  w.emit(Op::Mul, {opd::temp_dst(1, 0x1), domain(0),
                   src2(OperandType::InputControlPoint, 0, 1, replicate(2))});
  w.emit(Op::Mad, {opd::temp_dst(1, 0x1), domain(1),
                   src2(OperandType::InputControlPoint, 1, 1, replicate(2)), opd::temp(1)});
  w.emit(Op::Mad,
         {opd::output_dst(1, 0x4), domain(2),
          src2(OperandType::InputControlPoint, 2, 1, replicate(2)), opd::temp(1, replicate(0))});
  w.emit(Op::Mov, {opd::output_dst(1, 0x1),
                   opd::of({opd::token(OperandType::InputPatchConstant, 2, 2, 0, 1), 4})});
  w.emit(Op::Utof, {opd::output_dst(1, 0x2), scalar0(OperandType::InputPrimitiveId)});
  w.emit(Op::Mov, {opd::output_dst(1, 0x8), opd::imm1(1)});
  w.emit(Op::Ret, {});
  const std::vector<SignatureElement> patch = patch_constants(true);
  return container(
      w,
      {{"SV_POSITION", 0, kNamePosition, kFloat, 0, 0xf, 0xf},
       {"COLOR", 0, kNameNone, kFloat, 1, 0xf, 0x4}},
      {out("SV_Position", kNamePosition, kFloat, 0, 0xf), out("COLOR", kNameNone, kFloat, 1, 0xf)},
      &patch, false);
}

// float4 main(float4 pos : POSITION) : SV_Position { return pos; }
// SV_Position at register 0, as the hull-passthrough reproducer's hull shader reads it.
std::vector<std::uint8_t> position_vs() {
  ProgramWriter w(ShaderStage::Vertex, 5, 0);
  w.emit(Op::DclInput, {opd::dst(OperandType::Input, 0, 0xf)});
  w.emit(Op::DclOutputSiv, {opd::output_dst(0)}, 0, {kSivPosition});
  w.emit(Op::Mov, {opd::output_dst(0), opd::input(0)});
  w.emit(Op::Ret, {});
  return container(w, {in("POSITION", kNameNone, kFloat, 0, 0xf, 0xf)},
                   {out("SV_Position", kNamePosition, kFloat, 0, 0xf)});
}

// float4 main(float4 pos : SV_Position) : SV_Target { return float4(pos.xy, 0.5, 1); }
std::vector<std::uint8_t> position_ps() {
  ProgramWriter w(ShaderStage::Pixel, 5, 0);
  w.emit(Op::DclInputPsSiv, {opd::dst(OperandType::Input, 0, 0x3)}, kLinearNoPerspective,
         {kSivPosition});
  w.emit(Op::DclOutput, {opd::output_dst(0)});
  w.emit(Op::Mov, {opd::output_dst(0, 0x3), opd::input(0)});
  w.emit(Op::Mov, {opd::output_dst(0, 0xc), opd::imm4(0, 0, 0.5f, 1)});
  w.emit(Op::Ret, {});
  return container(w, {in("SV_Position", kNamePosition, kFloat, 0, 0xf, 0x3)},
                   {out("SV_Target", kNameTarget, kFloat, 0, 0xf)});
}

// A stage interface with elements sharing registers under different masks, for pipelines
// whose vertex and pixel shaders come from different libraries:
// struct v2p { float4 pos : SV_Position; float2 a : TEXCOORD0; float2 b : TEXCOORD1;
//              float factor : FACTOR; nointerpolation uint id : ID; };
// v2p main(uint vid : SV_VertexID) { pos = a full-viewport triangle from vid;
//   a = (0.125, 0.25); b = (0.5, 1); factor = 2; id = 3; }
// Registers as fxc packs them: a o1.xy, b o1.zw, factor o2.z (alone, off component x), id o3.x.
std::vector<SignatureElement> varyings(bool pixel) {
  const auto e = [&](const char* semantic, std::uint32_t index, std::uint32_t name,
                     std::uint32_t type, std::uint32_t reg, std::uint8_t mask) {
    return pixel ? SignatureElement{semantic, index, name, type, reg, mask, mask}
                 : SignatureElement{
                       semantic, index, name, type, reg, mask, std::uint8_t(~mask & 0xf)};
  };
  std::vector<SignatureElement> elements = {
      e("SV_Position", 0, kNamePosition, kFloat, 0, 0xf),
      e("TEXCOORD", 0, kNameNone, kFloat, 1, 0x3), e("TEXCOORD", 1, kNameNone, kFloat, 1, 0xc),
      e("FACTOR", 0, kNameNone, kFloat, 2, 0x4), e("ID", 0, kNameNone, kUint, 3, 0x1)};
  if (pixel) elements[0].used_mask = 0x3; // the pixel shader reads SV_Position.xy
  return elements;
}

std::vector<std::uint8_t> varyings_vs() {
  ProgramWriter w(ShaderStage::Vertex, 5, 0);
  w.emit(Op::DclInputSgv, {opd::dst(OperandType::Input, 0, 0x1)}, 0, {kSivVertexId});
  w.emit(Op::DclOutputSiv, {opd::output_dst(0)}, 0, {kSivPosition});
  w.emit(Op::DclOutput, {opd::output_dst(1, 0x3)});
  w.emit(Op::DclOutput, {opd::output_dst(1, 0xc)});
  w.emit(Op::DclOutput, {opd::output_dst(2, 0x4)});
  w.emit(Op::DclOutput, {opd::output_dst(3, 0x1)});
  w.emit(Op::DclTemps, {}, 0, {1});
  full_viewport_triangle(w);
  w.emit(Op::Mov, {opd::output_dst(1), opd::imm4(0.125f, 0.25f, 0.5f, 1)});
  w.emit(Op::Mov, {opd::output_dst(2, 0x4), opd::imm4(0, 0, 2, 0)});
  w.emit(Op::Mov, {opd::output_dst(3, 0x1), opd::imm1_bits(3)});
  w.emit(Op::Ret, {});
  return container(w, {in("SV_VertexID", kNameVertexId, kUint, 0, 0x1, 0x1)}, varyings(false));
}

// float4 main(v2p i) : SV_Target {
//   return float4(i.a.x + i.b.y, i.a.y + i.b.x, i.factor * i.id, i.pos.y * 64 + i.pos.x); }
std::vector<std::uint8_t> varyings_ps() {
  ProgramWriter w(ShaderStage::Pixel, 5, 0);
  w.emit(Op::DclInputPsSiv, {opd::dst(OperandType::Input, 0, 0x3)}, kLinearNoPerspective,
         {kSivPosition});
  // One declaration per element: from one `dcl_input_ps linear v1.xyzw` over both TEXCOORDs the
  // system's vkd3d-shader 1.2 reads zeros or garbage (kiln reads it right).
  w.emit(Op::DclInputPs, {opd::dst(OperandType::Input, 1, 0x3)}, kLinear);
  w.emit(Op::DclInputPs, {opd::dst(OperandType::Input, 1, 0xc)}, kLinear);
  w.emit(Op::DclInputPs, {opd::dst(OperandType::Input, 2, 0x4)}, kLinear);
  w.emit(Op::DclInputPs, {opd::dst(OperandType::Input, 3, 0x1)}, kConstant);
  w.emit(Op::DclOutput, {opd::output_dst(0)});
  w.emit(Op::DclTemps, {}, 0, {1});
  w.emit(Op::Add, {opd::output_dst(0, 0x3), opd::input(1, swizzle(0, 1, 0, 0)),
                   opd::input(1, swizzle(3, 2, 0, 0))});
  w.emit(Op::Utof, {opd::temp_dst(0, 0x1), opd::src_scalar(OperandType::Input, 3, 0)});
  w.emit(Op::Mul, {opd::output_dst(0, 0x4), opd::src_scalar(OperandType::Input, 2, 2),
                   opd::temp_scalar(0, 0)});
  w.emit(Op::Mad, {opd::output_dst(0, 0x8), opd::src_scalar(OperandType::Input, 0, 1),
                   opd::imm1(64), opd::src_scalar(OperandType::Input, 0, 0)});
  w.emit(Op::Ret, {});
  return container(w, varyings(true), {out("SV_Target", kNameTarget, kFloat, 0, 0xf)});
}

// The size of every kind of buffer view, as GetDimensions gives it:
// ByteAddressBuffer t0; StructuredBuffer<uint> t1; Buffer<float> t2;
// RWByteAddressBuffer u0 (the results), u1; RWStructuredBuffer<s20> u2; RWBuffer<float> u3;
// RWStructuredBuffer<s32> u4; cbuffer cb0 { uint offset; };
// [numthreads(1, 1, 1)] void main() { each view's bufinfo, all four components, stored to u0
//   from byte `offset` on, 16 bytes a view in the order t0, t1, t2, u1, u2, u3, u4 }
std::vector<std::uint8_t> buffer_sizes_cs() {
  constexpr std::uint32_t kBuffer = 1, kFloat4 = 0x5555;
  auto slot = [](OperandType type, std::uint32_t index) {
    return opd::of({opd::token(type, 0, 0, 0, 1), index});
  };
  ProgramWriter w(ShaderStage::Compute, 5, 0);
  w.emit(Op::DclConstantBuffer, {opd::cb(0, 1)}); // cb0[1], immediate indices
  w.emit(Op::DclResourceRaw, {slot(OperandType::Resource, 0)});
  w.emit(Op::DclResourceStructured, {slot(OperandType::Resource, 1)}, 0, {4});
  w.emit(Op::DclResource, {slot(OperandType::Resource, 2)}, kBuffer, {kFloat4});
  w.emit(Op::DclUavRaw, {uav_slot(0)});
  w.emit(Op::DclUavRaw, {uav_slot(1)});
  w.emit(Op::DclUavStructured, {uav_slot(2)}, 0, {20});
  w.emit(Op::DclUavTyped, {uav_slot(3)}, kBuffer, {kFloat4});
  w.emit(Op::DclUavStructured, {uav_slot(4)}, 0, {32});
  w.emit(Op::DclTemps, {}, 0, {2});
  w.emit(Op::DclThreadGroup, {}, 0, {1, 1, 1});
  // The resource operand's swizzle is .xxxx, as fxc writes it: bufinfo's value is a scalar.
  const std::uint32_t xxxx = replicate(0);
  const Operand views[] = {opd::resource(0, xxxx),   opd::resource(1, xxxx),
                           opd::resource(2, xxxx),   opd::uav(1, xxxx, false),
                           opd::uav(2, xxxx, false), opd::uav(3, xxxx, false),
                           opd::uav(4, xxxx, false)};
  std::uint32_t at = 0;
  for (const Operand& view : views) {
    w.emit(Op::BufInfo, {opd::temp_dst(0, 0xf), view});
    w.emit(Op::IAdd, {opd::temp_dst(1, 0x1), opd::cb(0, 0, replicate(0)), opd::imm1_bits(at)});
    w.emit(Op::StoreRaw, {opd::uav(0, 0xf, true), opd::temp_scalar(1, 0), opd::temp(0)});
    at += 16;
  }
  w.emit(Op::Ret, {});
  return container(w, {}, {});
}

bool write(const std::string& dir, const char* name, const std::vector<std::uint8_t>& bytes) {
  const std::string path = dir + "/" + name;
  std::FILE* file = std::fopen(path.c_str(), "wb");
  bool ok = file && std::fwrite(bytes.data(), 1, bytes.size(), file) == bytes.size();
  if (file && std::fclose(file) != 0) ok = false;
  if (!ok) std::fprintf(stderr, "d3d12-shaders: cannot write %s\n", path.c_str());
  return ok;
}

} // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: d3d12-shaders OUTPUT_DIR\n");
    return 2;
  }
  const std::string dir = argv[1];
  const bool ok = write(dir, "uav_counter.cs.dxbc", uav_counter_cs()) &&
                  write(dir, "clip_distance.gs.dxbc", clip_distance_gs()) &&
                  write(dir, "layer.vs.dxbc", layer_vs(true)) &&
                  write(dir, "layer_varying.vs.dxbc", layer_vs(false)) &&
                  write(dir, "layer.gs.dxbc", layer_gs()) &&
                  write(dir, "primitive_id.hs.dxbc", primitive_id_hs()) &&
                  write(dir, "primitive_id.ds.dxbc", primitive_id_ds()) &&
                  write(dir, "position.vs.dxbc", position_vs()) &&
                  write(dir, "position.ps.dxbc", position_ps()) &&
                  write(dir, "varyings.vs.dxbc", varyings_vs()) &&
                  write(dir, "varyings.ps.dxbc", varyings_ps()) &&
                  write(dir, "buffer_sizes.cs.dxbc", buffer_sizes_cs());

  return ok ? 0 : 1;
}
