// Register and stage declarations of the DXBC converter (convert_dispatch.h): temporaries,
// indexable temporaries, constant buffers, global flags, and the geometry, tessellation and
// compute declarations that become execution modes (emitted by the driver's
// finish_declarations() once all are known, or here when they stand alone).
#include "translator/dxbc/convert_core.h"
#include "translator/dxbc/convert_dispatch.h"

namespace kiln::dxbc {

using ir::Op;
using ir::ScalarType;
using ir::SsaDef;
using ir::Type;

// Vertices per input primitive of dcl_inputprimitive (D3D10_SB_PRIMITIVE).
std::uint32_t vertices_of_primitive(std::uint32_t p) {
  switch (p) {
  case 1:
    return 1;
  case 2:
    return 2;
  case 3:
    return 3;
  case 6:
    return 4;
  case 7:
    return 6;
  default:
    return p >= 8 && p <= 39 ? p - 7 : 0;
  }
}

namespace {

ir::PrimitiveType input_primitive(std::uint32_t p) {
  switch (p) {
  case 1:
    return ir::PrimitiveType::Point;
  case 2:
    return ir::PrimitiveType::Line;
  case 6:
    return ir::PrimitiveType::LineAdj;
  case 7:
    return ir::PrimitiveType::TriangleAdj;
  case 3:
    return ir::PrimitiveType::Triangle;
  default:
    return ir::PrimitiveType::Patch;
  }
}

const Declaration& declaration_of(ConvertContext& ctx, const Instruction& inst) {
  return ctx.program().declarations[inst.declaration];
}

} // namespace

bool dcl_temps(ConvertContext& ctx, const Instruction& inst) {
  if (declaration_of(ctx, inst).value > 4096) ctx.fail(inst, "too many temporaries");
  return true;
}

bool dcl_indexable_temp(ConvertContext& ctx, const Instruction& inst) {
  const Declaration& d = declaration_of(ctx, inst);
  const std::uint32_t reg = d.value2, size = d.value, comps = d.value3;
  if (reg >= 4096 || size == 0 || size > 65536 || comps == 0 || comps > 4) {
    return ctx.fail(inst, "bad indexable temp declaration");
  }
  auto& scratch = ctx.scratch;
  if (scratch.size() <= reg) scratch.resize(reg + 1);
  Type t = ctx.builder().types().make_array(ir::kU32, size * comps);
  scratch[reg] = {ctx.builder().add(Op::DclScratch(t, ctx.entry_point())), size, comps};
  return true;
}

bool dcl_constant_buffer(ConvertContext& ctx, const Instruction& inst) {
  const Declaration& d = declaration_of(ctx, inst);
  const Operand& op = ctx.program().operands_of(inst)[0];
  const bool sm51 = ctx.program().is_sm51();
  const std::uint32_t id = op.index[0];
  const std::uint32_t lower = sm51 ? op.index[1] : op.index[0];
  const std::uint32_t upper = sm51 ? op.index[2] : op.index[0];
  const std::uint32_t count = upper == 0xffffffffu ? 0 : upper - lower + 1;
  const std::uint32_t size = d.value ? d.value : 4096;
  if (id >= 65536 || lower >= 65536 || size > 65536 || upper < lower) {
    return ctx.fail(inst, "bad constant buffer declaration");
  }
  auto& cbvs = ctx.cbvs;
  if (cbvs.size() <= id) cbvs.resize(id + 1);
  Type t = ctx.builder().types().make_array(ir::vec(ScalarType::F32, 4), size);
  auto& cb = cbvs[id];
  cb.dcl = ctx.builder().add(Op::DclCbv(t, ctx.entry_point(), d.space, lower, count));
  cb.descriptor = {};
  cb.lower = lower;
  cb.size = size;
  name_binding(ctx, cb.dcl, ResourceClass::Cbv, d.space, lower, id);
  return true;
}

bool dcl_global_flags(ConvertContext& ctx, const Instruction& inst) {
  const std::uint32_t flags = declaration_of(ctx, inst).value;
  ctx.precise_all = (flags & 1u) == 0;
  // forceEarlyDepthStencil means something only to pixel shaders.
  if ((flags & 4u) && ctx.program_type() == ProgramType::Pixel)
    ctx.builder().add(Op::SetPsEarlyFragmentTest(ctx.entry_point()));
  return true;
}

bool dcl_gs_input_primitive(ConvertContext& ctx, const Instruction& inst) {
  const std::uint32_t p = declaration_of(ctx, inst).value;
  // Vulkan geometry shaders take points, lines and triangles (with adjacency); D3D11 also
  // allows patch lists (8-39), which have no Vulkan equivalent.
  if (p != 1 && p != 2 && p != 3 && p != 6 && p != 7) {
    return ctx.fail(inst, p >= 8 && p <= 39
                              ? "geometry shader input of patch lists: not supported by Vulkan"
                              : "geometry shader input primitive does not exist");
  }
  ctx.gs_input_primitive = p;
  ctx.input_vertices = vertices_of_primitive(p);
  ctx.builder().add(Op::SetGsInputPrimitive(ctx.entry_point(), input_primitive(p)));
  return true;
}

namespace {
// The declarations whose one value is kept for later (finish_declarations() turns them into
// stage modes once all are known): the CoreState field each sets.
struct StageValueRow {
  Opcode opcode;
  std::uint32_t CoreState::*field;
};
constexpr StageValueRow kStageValueRowList[] = {
    {Opcode::DclGsOutputTopology, &CoreState::gs_output_topology},
    {Opcode::DclInputControlPointCount, &CoreState::input_vertices},
    {Opcode::DclOutputControlPointCount, &CoreState::output_control_points},
    {Opcode::DclTessDomain, &CoreState::tess_domain},
    {Opcode::DclTessPartitioning, &CoreState::tess_partitioning},
    {Opcode::DclTessOutputPrimitive, &CoreState::tess_output},
};
constexpr OpcodeRows kStageValueRows(kStageValueRowList);
static_assert(kStageValueRows.covers({"dcl_stage_value"}),
              "stage values: one row per opcode whose handler is dcl_stage_value");
} // namespace

bool dcl_stage_value(ConvertContext& ctx, const Instruction& inst) {
  ctx.*kStageValueRows[inst.opcode].field = declaration_of(ctx, inst).value;
  return true;
}

bool dcl_gs_max_vertices(ConvertContext& ctx, const Instruction& inst) {
  const std::uint32_t n = declaration_of(ctx, inst).value;
  ctx.gs_max_vertices = n;
  ctx.builder().add(Op::SetGsOutputVertices(ctx.entry_point(), n));
  return true;
}

bool dcl_gs_instances(ConvertContext& ctx, const Instruction& inst) {
  ctx.builder().add(Op::SetGsInstances(ctx.entry_point(), declaration_of(ctx, inst).value));
  return true;
}

bool dcl_stream(ConvertContext& ctx, const Instruction& inst) {
  ctx.gs_stream = ctx.program().operands_of(inst)[0].index[0];
  if (ctx.gs_stream >= 4) {
    return ctx.fail(inst, "stream index out of range");
  }
  ctx.gs_stream_mask |= 1u << ctx.gs_stream;
  return true;
}

bool dcl_thread_group(ConvertContext& ctx, const Instruction& inst) {
  const Declaration& d = declaration_of(ctx, inst);
  ctx.builder().add(Op::SetCsWorkgroupSize(ctx.entry_point(), d.thread_group[0], d.thread_group[1],
                                           d.thread_group[2]));
  return true;
}

} // namespace kiln::dxbc
