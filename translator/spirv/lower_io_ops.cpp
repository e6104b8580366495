// SPIR-V backend: the ops on shader inputs and outputs (declared in lower_io.cpp): loads and
// stores through access chains, converting between the type SPIR-V gives a built-in and the
// IR's; pull-model interpolation; geometry shader emits.
#include "translator/spirv/lower_state.h"

#include <spirv/unified1/GLSL.std.450.h>

namespace kiln::spirv {

// EmitVertex, EmitPrimitive: the instruction follows the op and whether streams are in use.
bool Lowering::State::lower_emit(ir::OpView o) {
  const ir::SsaDef def = o.def();
  if (stage != ShaderStage::Geometry) return fail(at(def), "emit outside geometry shaders");
  std::uint32_t stream = ir::ops::EmitVertex(o).stream().literal_u32();
  bool vertex = o.code() == ir::OpCode::EmitVertex;
  if (vertex) {
    if (!render_state_before_emit(def)) return false;
    emit_split_outputs();
  }
  if (stream == 0 && !(gs_streams & ~1u)) {
    mb.op_void(vertex ? spv::OpEmitVertex : spv::OpEndPrimitive, {});
  } else {
    mb.require_capability(spv::CapabilityGeometryStreams);
    mb.op_void(vertex ? spv::OpEmitStreamVertex : spv::OpEndStreamPrimitive, {const_u32(stream)});
  }
  return true;
}

bool Lowering::State::io_access(ir::OpView o, IoAccess& a) {
  const ir::SsaDef def = o.def();
  // Every I/O op (loads, stores, interpolation) names the variable first, the address second.
  const ir::ops::InputLoad access(o);
  DeclInfo* d = decl(access.variable().def());
  if (!d || (d->kind != DeclInfo::Kind::Input && d->kind != DeclInfo::Kind::Output))
    return fail(at(def), "I/O op on a non-I/O declaration");
  a.d = d;
  if (d->gs_vertex_count) {
    if (!gs_input_vertices) return fail(at(def), "vertex count without an input primitive");
    d->constant_value = const_u32(gs_input_vertices);
  }
  if (d->constant_value) {
    if (o.code() != ir::OpCode::InputLoad || access.address().def() || !o.type().is_scalar())
      return fail(at(def), "unsupported access to a constant built-in");
    return true;
  }
  chain.clear();
  if (!walk_address(d->ir_type, access.address().def(), chain, a.p)) return fail(at(def), error);
  if (d->is_builtin) {
    if (d->insert_index && a.p.dims_left == 0) chain.push_back(const_u32(0));
    if (a.p.is_basic) {
      a.spv_basic = ir::Type(d->builtin_scalar, a.p.component ? 1u : d->builtin_components);
      a.pointee = basic(a.spv_basic);
    } else {
      a.pointee = d->spv_types[a.p.dims_left + (d->insert_index ? 1 : 0)];
    }
  } else {
    a.pointee = pointee_type(a.p, false);
    if (a.p.is_basic) a.spv_basic = a.p.basic;
  }
  return true;
}

// InputLoad, OutputLoad.
bool Lowering::State::lower_io_load(ir::OpView o) {
  const ir::SsaDef def = o.def();
  IoAccess a;
  if (!io_access(o, a)) return false;
  DeclInfo* d = a.d;
  if (d->constant_value) {
    bind(def, convert_basic(d->constant_value, ir::Type(d->builtin_scalar), o.type()), o.type());
    return true;
  }
  if (d->per_control_point && o.code() == ir::OpCode::OutputLoad &&
      current_function != hs_functions[0])
    hs_reads_control_points = true;
  Id ptr = emit_chain(d->var, d->storage, a.pointee, chain);
  if (!a.p.is_basic) {
    if (d->is_builtin && d->spv_types[0] != basic(ir::Type(ir->types().view(d->ir_type).member(0))))
      return fail(at(def), "whole built-in array load needing conversion");
    mb.op(spv::OpLoad, a.pointee, {ptr}, id_for(def));
    return true;
  }
  Id loaded = mb.op(spv::OpLoad, a.pointee, {ptr});
  if (d->base_var) {
    Id base = mb.op(spv::OpLoad, a.pointee, {d->base_var});
    loaded = mb.op(spv::OpISub, a.pointee, {loaded, base});
  }
  Id result = convert_basic(loaded, a.spv_basic, o.type());
  bind(def, result, o.type());
  return true;
}

bool Lowering::State::lower_output_store(ir::OpView o) {
  const ir::SsaDef def = o.def();
  IoAccess a;
  if (!io_access(o, a)) return false;
  DeclInfo* d = a.d;
  if (d->kind != DeclInfo::Kind::Output) return fail(at(def), "store to an input");
  d->written = true;
  Id ptr = emit_chain(d->var, d->storage, a.pointee, chain);
  ir::SsaDef stored = ir::ops::OutputStore(o).value().def();
  Id v = value(stored);
  if (a.p.is_basic) {
    ir::Type vt = type_of(stored);
    if (vt.is_basic() && vt.vector_size() != a.spv_basic.vector_size())
      return fail(at(def), "stored vector size does not match the output");
    v = convert_basic(v, vt, a.spv_basic);
  }
  mb.op_void(spv::OpStore, {ptr, v});
  return true;
}

// InterpolateAtCentroid, InterpolateAtSample, InterpolateAtOffset: one GLSL.std.450
// instruction each.
bool Lowering::State::lower_interpolate(ir::OpView o) {
  const ir::SsaDef def = o.def();
  IoAccess a;
  if (!io_access(o, a)) return false;
  DeclInfo* d = a.d;
  if (stage != ShaderStage::Pixel || d->is_builtin || !a.p.is_basic)
    return fail(at(def), "interpolation of this input not supported");
  mb.require_capability(spv::CapabilityInterpolationFunction);
  Id ptr = emit_chain(d->var, d->storage, a.pointee, chain);
  Id result;
  if (o.code() == ir::OpCode::InterpolateAtCentroid) {
    result = mb.op(spv::OpExtInst, a.pointee, {glsl, GLSLstd450InterpolateAtCentroid, ptr});
  } else if (o.code() == ir::OpCode::InterpolateAtSample) {
    const ir::SsaDef sample = ir::ops::InterpolateAtSample(o).sample().def();
    result = mb.op(spv::OpExtInst, a.pointee,
                   {glsl, GLSLstd450InterpolateAtSample, ptr, value_as(sample, ir::kI32)});
  } else {
    result = mb.op(spv::OpExtInst, a.pointee,
                   {glsl, GLSLstd450InterpolateAtOffset, ptr,
                    value(ir::ops::InterpolateAtOffset(o).offset().def())});
  }
  bind(def, convert_basic(result, a.spv_basic, o.type()), o.type());
  return true;
}

} // namespace kiln::spirv
