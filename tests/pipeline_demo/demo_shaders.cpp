#include "tests/pipeline_demo/demo_shaders.h"

#include "bench/synth/dxbc_writer.h"

namespace kiln::demo {

namespace {

using namespace synth::dxbc;
namespace opd = synth::dxbc::operand;

constexpr std::uint32_t kArithmetic = 24; // mad/mul pairs per shader

float constant(std::uint32_t index, std::uint32_t salt) {
  return 1.0f + float((index * 2654435761u + salt * 40503u) % 1000u) / 4096.0f;
}

// r0 = seed; then kArithmetic rounds of r0 = r0 * k + k', r1 = r0 * r0 (distinct per index).
void arithmetic(ProgramWriter& w, std::uint32_t index) {
  for (std::uint32_t i = 0; i < kArithmetic; ++i) {
    const float a = constant(index, i), b = constant(index, i + 100);
    w.emit(Op::Mad, {opd::temp_dst(0, kMaskXyzw), opd::temp(0), opd::imm4(a, b, a, b),
                     opd::imm4(b, a, 0.5f, 0.25f)});
    w.emit(Op::Mul, {opd::temp_dst(1, kMaskXyzw), opd::temp(0), opd::imm4(0.5f, 0.5f, b, a)});
    w.emit(Op::Add, {opd::temp_dst(0, kMaskXyzw), opd::temp(0), opd::temp(1)});
  }
}

std::vector<std::uint8_t> container(const std::vector<SignatureElement>& inputs,
                                    const std::vector<SignatureElement>& outputs,
                                    ProgramWriter& w) {
  const std::vector<std::uint32_t> program = w.finish();
  ContainerWriter out;
  out.add_chunk(fourcc('I', 'S', 'G', 'N'), signature_chunk(inputs));
  out.add_chunk(fourcc('O', 'S', 'G', 'N'), signature_chunk(outputs));
  out.add_chunk(fourcc('S', 'H', 'E', 'X'), std::span<const std::uint32_t>(program));
  return out.finish();
}

} // namespace

std::vector<std::uint8_t> vertex_shader(std::uint32_t index) {
  ProgramWriter w(ShaderStage::Vertex, 5, 0);
  w.emit(Op::DclInput, {opd::dst(OperandType::Input, 0, kMaskXyzw)});
  w.emit(Op::DclOutputSiv, {opd::output_dst(0)}, 0, {1 /* position */});
  w.emit(Op::DclOutput, {opd::output_dst(1)});
  w.emit(Op::DclTemps, {}, 0, {2});
  w.emit(Op::Mov, {opd::temp_dst(0, kMaskXyzw), opd::input(0)});
  arithmetic(w, index);
  w.emit(Op::Mov, {opd::output_dst(0), opd::input(0)});
  w.emit(Op::Mul, {opd::output_dst(1), opd::temp(0), opd::imm4(1e-3f, 1e-3f, 1e-3f, 1.0f)});
  w.emit(Op::Ret, {});
  return container({{"POSITION", 0, 0, 3, 0, 0xf, 0xf}},
                   {{"SV_Position", 0, 1, 3, 0, 0xf, 0x0}, {"TEXCOORD", 0, 0, 3, 1, 0xf, 0x0}}, w);
}

std::vector<std::uint8_t> pixel_shader(std::uint32_t index) {
  ProgramWriter w(ShaderStage::Pixel, 5, 0);
  w.emit(Op::DclInputPs, {opd::dst(OperandType::Input, 1, kMaskXyzw)}, 2 /* linear */);
  w.emit(Op::DclOutput, {opd::output_dst(0)});
  w.emit(Op::DclTemps, {}, 0, {2});
  w.emit(Op::Mov, {opd::temp_dst(0, kMaskXyzw), opd::input(1)});
  arithmetic(w, index + 7919);
  w.emit(Op::Mul, {opd::output_dst(0), opd::temp(0), opd::imm4(1e-3f, 1e-3f, 1e-3f, 0.0f)});
  w.emit(Op::Ret, {});
  return container({{"SV_Position", 0, 1, 3, 0, 0xf, 0x0}, {"TEXCOORD", 0, 0, 3, 1, 0xf, 0xf}},
                   {{"SV_Target", 0, 0, 3, 0, 0xf, 0x0}}, w);
}

} // namespace kiln::demo
