// SPIR-V backend: the declarations that are neither I/O (lower_io.cpp) nor resources
// (lower_resources.cpp): the entry point, constants, execution modes, debug names and semantics,
// and the rows of KILN_SPIRV_LOWERINGS that emit nothing.
#include "translator/spirv/lower_state.h"

#include <algorithm>

namespace kiln::spirv {

bool Lowering::State::lower_entry_point(ir::OpView o) {
  if (ir_entry) return fail(at(o.def()), "more than one EntryPoint");
  ir_entry = o.def();
  if (o.operand_count() < 2) return fail(at(o.def()), "EntryPoint without function");
  if (o.ref_count() >= o.operand_count()) return fail(at(o.def()), "EntryPoint without a stage");
  const ir::ops::EntryPoint entry(o);
  stage = entry.stage().literal_enum<ShaderStage>();
  if (stage >= ShaderStage::Count) return fail(at(o.def()), "unknown shader stage");
  const ir::RepeatedOperand functions = entry.functions();
  if (stage == ShaderStage::Hull) {
    if (functions.size() != 2) return fail(at(o.def()), "hull EntryPoint needs two functions");
    hs_functions[0] = functions[0].def();
    hs_functions[1] = functions[1].def();
    entry_function = mb.allocate_id();
  } else {
    if (functions.size() != 1) return fail(at(o.def()), "EntryPoint needs one function");
    entry_function = id_for(functions[0].def());
  }
  return true;
}

bool Lowering::State::lower_constant(ir::OpView o) {
  Id id = constant(o.def());
  if (!id) return fail(at(o.def()), "malformed or unbounded constant");
  ids[o.def().id()] = id;
  return true;
}

bool Lowering::State::lower_undef(ir::OpView o) {
  ids[o.def().id()] = mb.undef(type(o.type()));
  return true;
}

bool Lowering::State::lower_spec_constant(ir::OpView o) {
  ir::Type t = o.type();
  if (!t.is_scalar() || o.operand_count() < 3)
    return fail(at(o.def()), "aggregate specialization constants not supported");
  const ir::ops::DclSpecConstant spec(o);
  std::uint32_t spec_id = spec.spec_id().literal_u32();
  const std::uint64_t bits = spec.default_values()[0].bits();
  Id id;
  if (t.scalar_type() == ir::ScalarType::Bool) {
    id = mb.spec_constant_bool(bits != 0);
    mb.decorate(id, spv::DecorationSpecId, {spec_id});
  } else {
    std::uint32_t words[2] = {std::uint32_t(bits), std::uint32_t(bits >> 32)};
    id = mb.spec_constant_with_id(
        basic(t), std::span<const std::uint32_t>(words, scalar_size(t.scalar_type()) == 8 ? 2 : 1),
        spec_id);
  }
  ids[o.def().id()] = id;
  return true;
}

bool Lowering::State::lower_cs_workgroup_size(ir::OpView o) {
  has_workgroup_size = true;
  const ir::ops::SetCsWorkgroupSize size(o);
  mb.add_execution_mode(entry_function, spv::ExecutionModeLocalSize,
                        {size.x().literal_u32(), size.y().literal_u32(), size.z().literal_u32()});
  return true;
}

bool Lowering::State::lower_gs_instances(ir::OpView o) {
  has_gs_instances = true;
  mb.add_execution_mode(entry_function, spv::ExecutionModeInvocations,
                        {std::max(1u, ir::ops::SetGsInstances(o).count().literal_u32())});
  return true;
}

bool Lowering::State::lower_gs_input_primitive(ir::OpView o) {
  spv::ExecutionMode mode;
  switch (ir::ops::SetGsInputPrimitive(o).primitive().literal_enum<ir::PrimitiveType>()) {
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
    return fail(at(o.def()), "geometry input primitive not expressible in SPIR-V");
  }
  mb.add_execution_mode(entry_function, mode);
  return true;
}

bool Lowering::State::lower_gs_output_vertices(ir::OpView o) {
  mb.add_execution_mode(entry_function, spv::ExecutionModeOutputVertices,
                        {ir::ops::SetGsOutputVertices(o).count().literal_u32()});
  return true;
}

bool Lowering::State::lower_gs_output_primitive(ir::OpView o) {
  spv::ExecutionMode mode;
  const ir::ops::SetGsOutputPrimitive output(o);
  switch (output.primitive().literal_enum<ir::PrimitiveType>()) {
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
    return fail(at(o.def()), "geometry output primitive not expressible in SPIR-V");
  }
  mb.add_execution_mode(entry_function, mode);
  gs_streams |= output.stream_mask().literal_u32();
  return true;
}

// SetPsEarlyFragmentTest, SetPsDepthGreaterEqual, SetPsDepthLessEqual: one execution mode each.
bool Lowering::State::lower_fragment_mode(ir::OpView o) {
  const spv::ExecutionMode mode =
      o.code() == ir::OpCode::SetPsEarlyFragmentTest   ? spv::ExecutionModeEarlyFragmentTests
      : o.code() == ir::OpCode::SetPsDepthGreaterEqual ? spv::ExecutionModeDepthGreater
                                                       : spv::ExecutionModeDepthLess;
  mb.add_execution_mode(entry_function, mode);
  return true;
}

bool Lowering::State::lower_tess_primitive(ir::OpView o) {
  const ir::ops::SetTessPrimitive tess(o);
  auto prim = tess.primitive().literal_enum<ir::PrimitiveType>();
  auto winding = tess.winding().literal_enum<ir::TessWindingOrder>();
  auto partitioning = tess.partitioning().literal_enum<ir::TessPartitioning>();
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
  return true;
}

bool Lowering::State::lower_tess_domain(ir::OpView o) {
  auto prim = ir::ops::SetTessDomain(o).domain().literal_enum<ir::PrimitiveType>();
  spv::ExecutionMode mode = prim == ir::PrimitiveType::Quad   ? spv::ExecutionModeQuads
                            : prim == ir::PrimitiveType::Line ? spv::ExecutionModeIsolines
                                                              : spv::ExecutionModeTriangles;
  mb.add_execution_mode(entry_function, mode);
  return true;
}

bool Lowering::State::lower_tess_control_points(ir::OpView o) {
  if (stage == ShaderStage::Hull)
    mb.add_execution_mode(
        entry_function, spv::ExecutionModeOutputVertices,
        {std::max(1u, ir::ops::SetTessControlPoints(o).output_points().literal_u32())});
  return true;
}

bool Lowering::State::lower_debug_name(ir::OpView o) {
  const ir::ops::DebugName debug_name(o);
  const ir::SsaDef target = debug_name.target().def();
  if (options.debug_names && target && ids[target.id()]) {
    char name[256] = {}; // unpack_string does not terminate: keep the last byte zero
    ir::unpack_string(debug_name.name(), name, sizeof(name) - 1);
    mb.add_name(ids[target.id()], name);
  }
  return true;
}

bool Lowering::State::lower_semantic(ir::OpView o) {
  const ir::ops::Semantic semantic(o);
  DeclInfo* d = decl(semantic.declaration().def());
  if (d && d->signature >= 0) {
    char buffer[255];
    const std::string_view name(
        buffer,
        std::min(ir::unpack_string(semantic.name(), buffer, sizeof(buffer)), sizeof(buffer)));
    const std::uint32_t index = semantic.index().literal_u32();
    if (d->named) return apply_stream_output(o.def(), *d, name, index);
    d->named = true;
    auto& list = d->kind == DeclInfo::Kind::Input ? reflection->inputs : reflection->outputs;
    names.assign(list[std::size_t(d->signature)].semantic, name);
    list[std::size_t(d->signature)].semantic_index = index;
    if (options.interface) {
      if (!render_state_semantic(semantic.declaration().def(), name, index)) return false;
    }
    return apply_stream_output(o.def(), *d, name, index);
  }
  return true;
}

// DebugMemberName: struct members stay unnamed. DclParam: its Function emits the
// OpFunctionParameter and ParamLoad reads it. DclTmp: what is left of temporaries the passes
// turned into SSA values. SetFpMode: may be ignored (ir-reference.md), the default float
// behaviour applies.
bool Lowering::State::lower_nothing(ir::OpView) {
  return true;
}

// Ops the passes replace before the backend (docs/pipeline.md, "Final form").
bool Lowering::State::lower_not_final_form(ir::OpView o) {
  return fail(at(o.def()), "not lowered by the passes");
}

// Ops of the reference the backend does not map: no front end emits them.
bool Lowering::State::lower_unsupported(ir::OpView o) {
  std::string what = "op ";
  what += ir::op_name(o.code());
  what += " not supported by the SPIR-V backend";
  return fail(Where(), what);
}

} // namespace kiln::spirv
