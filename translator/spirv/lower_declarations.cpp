// SPIR-V backend: the declarations that are neither I/O (lower_io.cpp) nor resources
// (lower_resources.cpp): the entry point, constants, execution modes, debug names and semantics,
// and the rows of KILN_SPIRV_LOWERINGS that emit nothing.
#include "translator/spirv/lower_state.h"

#include <algorithm>

namespace kiln::spirv {

Status Lowering::State::lower_entry_point(ir::OpView o) {
  if (ir_entry) return fail(o.def(), "more than one EntryPoint");
  ir_entry = o.def();
  if (o.operand_count() < 2) return fail(o.def(), "EntryPoint without function");
  stage = o.operand(o.operand_count() - 1).literal_enum<ShaderStage>();
  if (stage >= ShaderStage::Count) return fail(o.def(), "unknown shader stage");
  std::uint32_t functions = o.ref_count();
  if (stage == ShaderStage::Hull) {
    if (functions != 2) return fail(o.def(), "hull EntryPoint needs two functions");
    hs_functions[0] = o.operand(0).def();
    hs_functions[1] = o.operand(1).def();
    entry_function = mb.allocate_id();
  } else {
    if (functions != 1) return fail(o.def(), "EntryPoint needs one function");
    entry_function = id_for(o.operand(0).def());
  }
  return Status::ok();
}

Status Lowering::State::lower_constant(ir::OpView o) {
  Id id = constant(o.def());
  if (!id) return fail(o.def(), "malformed or unbounded constant");
  ids[o.def().id()] = id;
  return Status::ok();
}

Status Lowering::State::lower_undef(ir::OpView o) {
  ids[o.def().id()] = mb.undef(type(o.type()));
  return Status::ok();
}

Status Lowering::State::lower_spec_constant(ir::OpView o) {
  ir::Type t = o.type();
  if (!t.is_scalar() || o.operand_count() < 3)
    return fail(o.def(), "aggregate specialization constants not supported");
  std::uint32_t spec_id = o.operand(1).literal_u32();
  Id id;
  if (t.scalar_type() == ir::ScalarType::Bool) {
    id = mb.spec_constant_bool(o.operand(2).bits() != 0);
    mb.decorate(id, spv::DecorationSpecId, {spec_id});
  } else {
    std::uint64_t bits = o.operand(2).bits();
    std::uint32_t words[2] = {std::uint32_t(bits), std::uint32_t(bits >> 32)};
    id = mb.spec_constant_with_id(
        basic(t), std::span<const std::uint32_t>(words, scalar_size(t.scalar_type()) == 8 ? 2 : 1),
        spec_id);
  }
  ids[o.def().id()] = id;
  return Status::ok();
}

Status Lowering::State::lower_cs_workgroup_size(ir::OpView o) {
  has_workgroup_size = true;
  mb.add_execution_mode(
      entry_function, spv::ExecutionModeLocalSize,
      {o.operand(1).literal_u32(), o.operand(2).literal_u32(), o.operand(3).literal_u32()});
  return Status::ok();
}

Status Lowering::State::lower_gs_instances(ir::OpView o) {
  has_gs_instances = true;
  mb.add_execution_mode(entry_function, spv::ExecutionModeInvocations,
                        {std::max(1u, o.operand(1).literal_u32())});
  return Status::ok();
}

Status Lowering::State::lower_gs_input_primitive(ir::OpView o) {
  spv::ExecutionMode mode;
  switch (o.operand(1).literal_enum<ir::PrimitiveType>()) {
  case ir::PrimitiveType::Point:
    mode = spv::ExecutionModeInputPoints;
    gs_input_vertices = 1;
    break;
  case ir::PrimitiveType::Line:
    mode = spv::ExecutionModeInputLines;
    gs_input_vertices = 2;
    break;
  case ir::PrimitiveType::Triangle:
    mode = spv::ExecutionModeTriangles;
    gs_input_vertices = 3;
    break;
  case ir::PrimitiveType::LineAdj:
    mode = spv::ExecutionModeInputLinesAdjacency;
    gs_input_vertices = 4;
    break;
  case ir::PrimitiveType::TriangleAdj:
    mode = spv::ExecutionModeInputTrianglesAdjacency;
    gs_input_vertices = 6;
    break;
  default:
    return fail(o.def(), "geometry input primitive not expressible in SPIR-V");
  }
  mb.add_execution_mode(entry_function, mode);
  return Status::ok();
}

Status Lowering::State::lower_gs_output_vertices(ir::OpView o) {
  mb.add_execution_mode(entry_function, spv::ExecutionModeOutputVertices,
                        {o.operand(1).literal_u32()});
  return Status::ok();
}

Status Lowering::State::lower_gs_output_primitive(ir::OpView o) {
  spv::ExecutionMode mode;
  switch (o.operand(1).literal_enum<ir::PrimitiveType>()) {
  case ir::PrimitiveType::Point:
    mode = spv::ExecutionModeOutputPoints;
    break;
  case ir::PrimitiveType::Line:
    mode = spv::ExecutionModeOutputLineStrip;
    break;
  case ir::PrimitiveType::Triangle:
    mode = spv::ExecutionModeOutputTriangleStrip;
    break;
  default:
    return fail(o.def(), "geometry output primitive not expressible in SPIR-V");
  }
  mb.add_execution_mode(entry_function, mode);
  gs_streams |= o.operand(2).literal_u32();
  return Status::ok();
}

// SetPsEarlyFragmentTest, SetPsDepthGreaterEqual, SetPsDepthLessEqual: one execution mode each.
Status Lowering::State::lower_fragment_mode(ir::OpView o) {
  const spv::ExecutionMode mode =
      o.code() == ir::OpCode::SetPsEarlyFragmentTest   ? spv::ExecutionModeEarlyFragmentTests
      : o.code() == ir::OpCode::SetPsDepthGreaterEqual ? spv::ExecutionModeDepthGreater
                                                       : spv::ExecutionModeDepthLess;
  mb.add_execution_mode(entry_function, mode);
  return Status::ok();
}

Status Lowering::State::lower_tess_primitive(ir::OpView o) {
  auto prim = o.operand(1).literal_enum<ir::PrimitiveType>();
  auto winding = o.operand(2).literal_enum<ir::TessWindingOrder>();
  auto partitioning = o.operand(3).literal_enum<ir::TessPartitioning>();
  // The IR's primitive here is the tessellator's output topology: points and lines need no
  // winding, triangles take the winding order.
  if (prim == ir::PrimitiveType::Point)
    mb.add_execution_mode(entry_function, spv::ExecutionModePointMode);
  if (prim == ir::PrimitiveType::Triangle)
    mb.add_execution_mode(entry_function, winding == ir::TessWindingOrder::Cw
                                              ? spv::ExecutionModeVertexOrderCw
                                              : spv::ExecutionModeVertexOrderCcw);
  spv::ExecutionMode spacing = spv::ExecutionModeSpacingEqual;
  if (partitioning == ir::TessPartitioning::FractionalOdd)
    spacing = spv::ExecutionModeSpacingFractionalOdd;
  else if (partitioning == ir::TessPartitioning::FractionalEven)
    spacing = spv::ExecutionModeSpacingFractionalEven;
  mb.add_execution_mode(entry_function, spacing);
  return Status::ok();
}

Status Lowering::State::lower_tess_domain(ir::OpView o) {
  auto prim = o.operand(1).literal_enum<ir::PrimitiveType>();
  spv::ExecutionMode mode = prim == ir::PrimitiveType::Quad   ? spv::ExecutionModeQuads
                            : prim == ir::PrimitiveType::Line ? spv::ExecutionModeIsolines
                                                              : spv::ExecutionModeTriangles;
  mb.add_execution_mode(entry_function, mode);
  return Status::ok();
}

Status Lowering::State::lower_tess_control_points(ir::OpView o) {
  if (stage == ShaderStage::Hull)
    mb.add_execution_mode(entry_function, spv::ExecutionModeOutputVertices,
                          {std::max(1u, o.operand(2).literal_u32())});
  return Status::ok();
}

Status Lowering::State::lower_debug_name(ir::OpView o) {
  if (options.debug_names && o.operand(0).def() && ids[o.operand(0).def().id()]) {
    char name[256] = {}; // unpack_string does not terminate: keep the last byte zero
    ir::unpack_string(o.literals(), name, sizeof(name) - 1);
    mb.add_name(ids[o.operand(0).def().id()], name);
  }
  return Status::ok();
}

Status Lowering::State::lower_semantic(ir::OpView o) {
  DeclInfo* d = decl(o.operand(0).def());
  if (d && d->signature >= 0) {
    char buffer[255];
    const std::string_view name(
        buffer, std::min(ir::unpack_string(o.literals().subspan(1), buffer, sizeof(buffer)),
                         sizeof(buffer)));
    auto& list = d->kind == DeclInfo::Kind::Input ? reflection->inputs : reflection->outputs;
    names.assign(list[std::size_t(d->signature)].semantic, name);
    list[std::size_t(d->signature)].semantic_index = o.operand(1).literal_u32();
    if (options.interface) {
      if (Status st = render_state_semantic(o.operand(0).def(), name, o.operand(1).literal_u32());
          !st)
        return st;
    }
    return apply_stream_output(o.def(), *d, name, o.operand(1).literal_u32());
  }
  return Status::ok();
}

// DebugMemberName: struct members stay unnamed. DclParam: its Function emits the
// OpFunctionParameter and ParamLoad reads it. DclTmp: what is left of temporaries the passes
// turned into SSA values. SetFpMode: may be ignored (ir-reference.md), the default float
// behaviour applies.
Status Lowering::State::lower_nothing(ir::OpView) {
  return Status::ok();
}

// Ops the passes replace before the backend (docs/pipeline.md, "Final form").
Status Lowering::State::lower_not_final_form(ir::OpView o) {
  return fail(o.def(), "not lowered by the passes");
}

// Ops of the reference the backend does not map: no front end emits them.
Status Lowering::State::lower_unsupported(ir::OpView o) {
  std::string what = "op ";
  what += ir::op_name(o.code());
  what += " not supported by the SPIR-V backend";
  return fail(ir::SsaDef(), what);
}

} // namespace kiln::spirv
