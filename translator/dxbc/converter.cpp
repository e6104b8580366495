// DXBC (SM4.0-5.1) -> IR in scoped form: the walk (convert_walk.h). Parses the container,
// decodes the program once, then walks Program::instructions and hands each instruction and
// declaration to the handler its opcode table row names (dispatch,
// convert_dispatch.cpp). Here: the walk, the checks before a handler runs (register indices,
// declarations in their stage, code inside a function), hull-shader phases and the stage modes
// that follow from the declarations.
#include "translator/dxbc/converter.h"

#include "translator/dxbc/convert_walk.h"
#include "translator/dxbc/reader.h"
#include "translator/dxbc/scan.h"
#include "translator/ir/ir.h"

#include <array>
#include <string>

namespace kiln::dxbc {

using ir::Op;
using ir::ScalarType;
using ir::SsaDef;
using ir::Type;

struct ConverterState {
  Container container;
  Program program;
  ConvertContext ctx;
  ScanScratch scan_scratch;

  Status run(std::span<const std::uint8_t> bytecode, const ConvertOptions& options,
             ir::Builder& builder);
  // run() past the container parse: `container` holds the parsed container.
  Status run_parsed(const ConvertOptions& options, ir::Builder& builder);
};

namespace {

// The index dimensions a register file needs at least: the converter reads index[0] (and
// index[1]) of these without looking at index_dimension, so damaged operand tokens that drop
// the index are stopped here, once per instruction.
constexpr unsigned required_index_dimension(OperandType type) {
  switch (type) {
  case OperandType::Temp:
  case OperandType::Input:
  case OperandType::Output:
  case OperandType::Sampler:
  case OperandType::Resource:
  case OperandType::Uav:
  case OperandType::ThreadGroupSharedMemory:
  case OperandType::ImmediateConstantBuffer:
  case OperandType::InputPatchConstant:
  case OperandType::Stream:
  case OperandType::ThisPointer:
  case OperandType::Label:
  case OperandType::FunctionBody:
    return 1;
  case OperandType::IndexableTemp:
  case OperandType::ConstantBuffer:
  case OperandType::InputControlPoint:
  case OperandType::OutputControlPoint:
  case OperandType::Interface:
    return 2;
  default:
    return 0;
  }
}

// The same, by operand type (the reader rejects types past the table), for a check per operand.
constexpr auto kRequiredIndexDimension = [] {
  std::array<std::uint8_t, kOperandTypeCount> table{};
  for (std::size_t i = 0; i < table.size(); ++i)
    table[i] = std::uint8_t(required_index_dimension(OperandType(i)));
  return table;
}();

bool operand_indexed(const Program& program, const Operand& op);

// The relative-address operands inside `op`'s indices (the reader bounds their nesting).
[[gnu::noinline]] bool relative_indices_indexed(const Program& program, const Operand& op) {
  for (unsigned d = 0; d < op.index_dimension && d < 3; ++d)
    if (op.has_relative(d) && !operand_indexed(program, program.relative[op.relative[d]]))
      return false;
  return true;
}

// An operand and the relative-address operands inside its indices, all with the indices their
// register files need.
bool operand_indexed(const Program& program, const Operand& op) {
  if (op.index_dimension < kRequiredIndexDimension[std::size_t(op.type)]) return false;
  if (!op.has_relative(0) && !op.has_relative(1) && !op.has_relative(2)) [[likely]]
    return true;
  return relative_indices_indexed(program, op);
}

} // namespace

bool operands_indexed(const Program& program, const Instruction& inst) {
  for (const Operand& op : program.operands_of(inst))
    if (!operand_indexed(program, op)) return false;
  return true;
}

namespace {

// Whether a hull shader's fork/join phases must be functions of their own: a `ret` inside a
// phase's control flow (or a `retc`) leaves only that phase instance. Inlined into the
// patch-constant function, a return there would also skip the later instances and phases, and
// no structured branch leaves nested loops; returning from the phase's function does it.
bool phases_need_functions(const Program& program) {
  bool patch_phase = false;
  int depth = 0;
  for (const Instruction& inst : program.instructions) {
    depth += block_nesting_change(inst.opcode);
    switch (inst.opcode) {
    case Opcode::HsForkPhase:
    case Opcode::HsJoinPhase:
      patch_phase = true;
      depth = 0;
      break;
    case Opcode::HsDecls:
    case Opcode::HsControlPointPhase:
      patch_phase = false;
      break;
    case Opcode::Retc:
      if (patch_phase) return true;
      break;
    case Opcode::Ret:
      if (patch_phase && depth > 0) return true;
      break;
    default:
      break;
    }
  }
  return false;
}

} // namespace

void open_function(ConvertContext& ctx, SsaDef param) {
  // Through emit(): function boundaries end the straight-line stretch temps are forwarded in.
  SsaDef fn = ctx.emit(param ? Op::Function(ir::kVoid, param) : Op::Function(ir::kVoid));
  ctx.label = ctx.emit(Op::Label(ir::Construct::None));
  ctx.set_function(fn);
  ctx.function_open = true;
  ctx.returned = false;
  // Per-function caches: descriptors are loaded at the function's start.
  for (auto& cb : ctx.cbvs) cb.descriptor = {};
  ++ctx.function_stamp;
  ctx.control_point_id = {};
}

void close_function(ConvertContext& ctx) {
  if (!ctx.function_open) return;
  if (!ctx.returned) ctx.emit(Op::Return(ir::kVoid, SsaDef()));
  ctx.emit(Op::FunctionEnd());
  ctx.function_open = false;
}

bool begin_phase(ConvertContext& ctx, const Instruction& inst) {
  if (inst.opcode == Opcode::HsDecls) return true;
  end_phase(ctx);
  if (inst.opcode == Opcode::HsControlPointPhase) {
    if (ctx.saw_control_point_phase || ctx.in_patch_phase) {
      return ctx.fail(inst, "control point phase after other phases");
    }
    ctx.saw_control_point_phase = true;
    open_function(ctx);
    ctx.cp_function = ctx.function();
    return true;
  }
  if (ctx.phase_functions) {
    // Fork or join phase: a function of its own (called at the end by call_phases()).
    close_function(ctx);
    ctx.phase_param = ctx.builder().add(Op::DclParam(ir::kU32));
    open_function(ctx, ctx.phase_param);
    ctx.phase_function = ctx.function();
    ctx.in_patch_phase = true;
    ctx.hull_patch_phase = true;
  } else if (!ctx.in_patch_phase) {
    // Fork or join phase: code goes to the patch-constant function.
    close_function(ctx);
    open_function(ctx);
    ctx.patch_function = ctx.function();
    ctx.in_patch_phase = true;
    ctx.hull_patch_phase = true;
  }
  // Each phase has its own temporaries.
  ctx.temps.clear();
  ctx.phase_instances = 1;
  ctx.phase_body_open = false;
  ctx.phase_done = false;
  return true;
}

// for (i = 0; i < instances; ++i) { ...: the loop's head, up to the body; returns i.
SsaDef open_instance_loop(ConvertContext& ctx, std::uint32_t instances, SsaDef& counter) {
  counter = ctx.builder().add(Op::DclTmp(ir::kU32, ctx.entry_point()));
  ctx.emit(Op::TmpStore(counter, ctx.constant_u32(0)));
  SsaDef loop = ctx.emit(Op::ScopedLoop(SsaDef()));
  ctx.flow.push_back({FlowEntry::Kind::ForkLoop, false, false, loop});
  SsaDef i = ctx.emit(Op::TmpLoad(ir::kU32, counter));
  SsaDef done = ctx.emit(Op::UGe(i, ctx.constant_u32(instances)));
  SsaDef sif = ctx.emit(Op::ScopedIf(SsaDef(), done));
  ctx.emit(Op::ScopedLoopBreak(loop));
  SsaDef endif = ctx.emit(Op::ScopedEndIf(sif));
  ctx.builder().rewrite_op(sif, Op::ScopedIf(endif, done));
  return i;
}

// ... } of open_instance_loop(): ++i and the loop's end (the innermost flow entry).
void close_instance_loop(ConvertContext& ctx, SsaDef counter, SsaDef loop) {
  SsaDef i = ctx.emit(Op::TmpLoad(ir::kU32, counter));
  ctx.emit(Op::TmpStore(counter, ctx.emit(Op::IAdd(ir::kU32, i, ctx.constant_u32(1)))));
  SsaDef end = ctx.emit(Op::ScopedEndLoop(loop));
  ctx.builder().rewrite_op(loop, Op::ScopedLoop(end));
}

void open_phase_body(ConvertContext& ctx) {
  ctx.phase_body_open = true;
  ctx.phase_base = ctx.flow.size();
  if (ctx.phase_functions) {
    ctx.fork_instance = ctx.emit(Op::ParamLoad(ir::kU32, ctx.function(), ctx.phase_param));
    return;
  }
  ctx.fork_instance = ctx.constant_u32(0);
  if (ctx.phase_instances <= 1) return;
  ctx.fork_instance = open_instance_loop(ctx, ctx.phase_instances, ctx.phase_counter);
  ctx.phase_base = ctx.flow.size();
}

// The patch-constant function of ctx.phase_functions: each phase's function, once per instance.
void call_phases(ConvertContext& ctx) {
  open_function(ctx);
  ctx.patch_function = ctx.function();
  for (const CoreState::PhaseCall& call : ctx.phase_calls) {
    if (call.instances <= 1) {
      ctx.emit(Op::FunctionCall(ir::kVoid, call.function, ctx.constant_u32(0)));
      continue;
    }
    SsaDef counter;
    SsaDef i = open_instance_loop(ctx, call.instances, counter);
    ctx.emit(Op::FunctionCall(ir::kVoid, call.function, i));
    SsaDef loop = ctx.flow.back().op;
    ctx.flow.pop_back();
    close_instance_loop(ctx, counter, loop);
  }
  close_function(ctx);
}

void end_phase(ConvertContext& ctx) {
  if (ctx.phase_function) {
    // The instance count is declared inside the phase: known now.
    ctx.phase_calls.push_back({ctx.phase_function, ctx.phase_instances});
    ctx.phase_function = {};
  }
  if (!ctx.in_patch_phase || !ctx.phase_body_open) return;
  ctx.phase_body_open = false;
  if (ctx.flow.size() != ctx.phase_base) {
    ctx.fail(ctx.here(), "unterminated control flow at the end of a hull shader phase");
    return;
  }
  if (!ctx.phase_functions && ctx.phase_instances > 1) {
    FlowEntry loop = ctx.flow.back();
    ctx.flow.pop_back();
    close_instance_loop(ctx, ctx.phase_counter, loop.op);
  }
  ctx.phase_base = 0;
  ctx.fork_instance = {};
}

void finish_declarations(ConvertContext& ctx) {
  ctx.declarations_done = true;
  SsaDef e = ctx.entry_point();
  ProgramType t = ctx.program().type;
  // The execution modes a Vulkan stage cannot do without come from these declarations; a
  // program without them (damaged, or hand-written) is not a shader of its stage.
  if (t == ProgramType::Geometry) {
    if (!ctx.gs_input_primitive) {
      ctx.fail(ctx.here(), "geometry shader without dcl_inputprimitive (point, line, triangle or "
                           "their adjacency forms)");
      return;
    }
    if (ctx.gs_max_vertices == 0 || ctx.gs_max_vertices > 1024) {
      ctx.fail(ctx.here(), "geometry shader without a dcl_maxout of 1 to 1024 vertices");
      return;
    }
  }
  if ((t == ProgramType::Hull || t == ProgramType::Domain) &&
      !(ctx.tess_domain >= 1 && ctx.tess_domain <= 3)) {
    ctx.fail(ctx.here(), "tessellation shader without dcl_tessellator_domain (isoline, tri, quad)");
    return;
  }
  if (t == ProgramType::Hull || t == ProgramType::Domain) {
    static constexpr ir::PrimitiveType kDomain[] = {
        ir::PrimitiveType::Triangle, ir::PrimitiveType::Line, ir::PrimitiveType::Triangle,
        ir::PrimitiveType::Quad};
    if (ctx.tess_domain >= 1 && ctx.tess_domain <= 3)
      ctx.builder().add(Op::SetTessDomain(e, kDomain[ctx.tess_domain]));
    if (t == ProgramType::Hull) {
      ctx.builder().add(Op::SetTessControlPoints(e, ctx.input_vertices, ctx.output_control_points));
      ir::PrimitiveType prim = ctx.tess_output == 1   ? ir::PrimitiveType::Point
                               : ctx.tess_output == 2 ? ir::PrimitiveType::Line
                                                      : ir::PrimitiveType::Triangle;
      ir::TessWindingOrder winding =
          ctx.tess_output == 4 ? ir::TessWindingOrder::Ccw : ir::TessWindingOrder::Cw;
      static constexpr ir::TessPartitioning kPart[] = {
          ir::TessPartitioning::Integer, ir::TessPartitioning::Integer, ir::TessPartitioning::Pow2,
          ir::TessPartitioning::FractionalOdd, ir::TessPartitioning::FractionalEven};
      ctx.builder().add(Op::SetTessPrimitive(
          e, prim, winding, kPart[ctx.tess_partitioning <= 4 ? ctx.tess_partitioning : 0]));
    }
  }
  if (t == ProgramType::Geometry) {
    // A geometry shader that only writes UAVs declares no output topology: points.
    ir::PrimitiveType prim = ctx.gs_output_topology <= 1   ? ir::PrimitiveType::Point
                             : ctx.gs_output_topology == 3 ? ir::PrimitiveType::Line
                                                           : ir::PrimitiveType::Triangle;
    ctx.builder().add(
        Op::SetGsOutputPrimitive(e, prim, ctx.gs_stream_mask ? ctx.gs_stream_mask : 1u));
    if (ctx.geometry_point_size && ctx.gs_output_topology == 1)
      ctx.point_size =
          ctx.builder().add(Op::DclOutputBuiltIn(ir::kF32, e, ir::BuiltIn::PointSize, 0));
  }
}

namespace {

// Whether a declaration belongs to a program of type `t`: the stage-specific ones become
// execution modes that Vulkan allows only in their stage, so elsewhere they mark damaged input.
bool declaration_in_stage(Opcode opcode, ProgramType t) {
  switch (opcode) {
  case Opcode::DclGsInputPrimitive:
  case Opcode::DclGsOutputTopology:
  case Opcode::DclMaxOutputVertexCount:
  case Opcode::DclGsInstanceCount:
  case Opcode::DclStream:
    return t == ProgramType::Geometry;
  case Opcode::DclTessDomain:
  case Opcode::DclInputControlPointCount:
    return t == ProgramType::Hull || t == ProgramType::Domain;
  case Opcode::DclTessPartitioning:
  case Opcode::DclTessOutputPrimitive:
  case Opcode::DclOutputControlPointCount:
  case Opcode::DclHsMaxTessFactor:
  case Opcode::DclHsForkPhaseInstanceCount:
  case Opcode::DclHsJoinPhaseInstanceCount:
    return t == ProgramType::Hull;
  case Opcode::DclThreadGroup:
  case Opcode::DclTgsmRaw:
  case Opcode::DclTgsmStructured:
    return t == ProgramType::Compute;
  case Opcode::DclInputPs:
  case Opcode::DclInputPsSgv:
  case Opcode::DclInputPsSiv:
    return t == ProgramType::Pixel;
  default:
    return true;
  }
}

} // namespace

// A declaration: the stage check, then its handler.
bool declaration(ConvertContext& ctx, const Instruction& inst) {
  if (!declaration_in_stage(inst.opcode, ctx.program().type))
    return ctx.fail(inst, "declaration not allowed in this shader stage");
  return dispatch(ctx, inst);
}

// An executable instruction: declarations end before the first one; hull-shader phase bodies
// open at their first.
bool instruction(ConvertContext& ctx, const Instruction& inst) {
  if (!ctx.declarations_done) finish_declarations(ctx);
  // Code after the top-level ret: only subroutine bodies live there (inlined where called).
  if (ctx.returned || ctx.phase_done || ctx.past_main) return true;
  if (ctx.in_patch_phase && !ctx.phase_body_open) open_phase_body(ctx);
  // Operand helpers report into the sink and go on with null values: the sink decides.
  if (convert_choosing_resources(ctx, inst, &dispatch)) return ctx.ok();
  return dispatch(ctx, inst);
}

// dcl_hs_fork_phase_instance_count / dcl_hs_join_phase_instance_count: the current phase's.
bool dcl_phase_instances(ConvertContext& ctx, const Instruction& inst) {
  ctx.phase_instances = ctx.program().declarations[inst.declaration].value;
  return true;
}

void read_array_sizes(ConvertContext& ctx) {
  // Per-vertex I/O arrays are sized by declarations that may come after the declarations of
  // the arrays: fxc writes dcl_inputprimitive after the dcl_input v[3][#] it sizes. Read those
  // counts before anything is declared (declaration() sets them again, to the same values).
  for (const Instruction& inst : ctx.program().instructions) {
    if (inst.declaration == kNoOperand) continue;
    const Declaration& d = ctx.program().declarations[inst.declaration];
    switch (inst.opcode) {
    case Opcode::DclGsInputPrimitive:
      ctx.input_vertices = vertices_of_primitive(d.value);
      break;
    case Opcode::DclInputControlPointCount:
      ctx.input_vertices = d.value;
      break;
    case Opcode::DclOutputControlPointCount:
      ctx.output_control_points = d.value;
      break;
    default:
      break;
    }
  }
}

Status convert_program(ConvertContext& ctx) {
  ctx.hull = ctx.program().type == ProgramType::Hull;
  if (ctx.program().type > ProgramType::Compute) {
    ctx.fail(ctx.here(), "DXBC: unknown program type");
    return ctx.outcome(false);
  }
  ctx.phase_functions = ctx.hull && phases_need_functions(ctx.program());
  if (ctx.hull) {
    // Hull shaders: the functions are made by the phases; the entry point names them at the end.
    ctx.set_entry_point(ctx.builder().add(Op::EntryPoint(ShaderStage::Hull)));
  } else {
    open_function(ctx);
    ctx.set_entry_point(
        ctx.builder().add(Op::EntryPoint(ctx.function(), stage_of(ctx.program().type))));
  }
  read_array_sizes(ctx);
  find_labels(ctx);
  for (const Instruction& inst : ctx.program().instructions) {
    ctx.set_current(&inst);
    const std::uint16_t flags = opcode_info(inst.opcode).flags;
    if (flags & opflag::Custom) continue;
    bool converted;
    if (!operands_indexed(ctx.program(), inst))
      converted = ctx.fail(inst, "register operand without its register index");
    else if (flags & opflag::Phase)
      converted = ctx.hull ? dispatch(ctx, inst) // begin_phase
                           : ctx.fail(inst, "hull shader phase marker in a non-hull shader");
    else if (flags & opflag::Decl)
      converted = inst.declaration == kNoOperand ? ctx.fail(inst, "declaration without payload")
                                                 : declaration(ctx, inst);
    else if (!ctx.function_open)
      converted = ctx.fail(inst, "code outside a hull shader phase");
    else
      converted = instruction(ctx, inst);
    // A handler answers false after its report; operand helpers report and go on (the sink).
    if (!converted || !ctx.ok()) return ctx.outcome(false);
  }
  ctx.set_current(nullptr);
  if (!ctx.declarations_done) finish_declarations(ctx);
  end_phase(ctx);
  if (!ctx.ok()) return ctx.outcome(false);
  if (ctx.flow.size() != 0 && !ctx.returned)
    ctx.fail(ctx.here(), "DXBC: unterminated control flow");
  if (!ctx.ok()) return ctx.outcome(false);
  close_function(ctx);
  if (ctx.hull) {
    if (ctx.phase_functions) call_phases(ctx);
    if (!ctx.patch_function) {
      open_function(ctx);
      ctx.patch_function = ctx.function();
      close_function(ctx);
    }
    if (!ctx.cp_function) {
      // Without a control point phase the output control points are the input ones.
      open_function(ctx);
      ctx.cp_function = ctx.function();
      ctx.hull_patch_phase = false;
      io_hull_passthrough(ctx);
      close_function(ctx);
    }
    ctx.builder().rewrite_op(
        ctx.entry_point(), Op::EntryPoint(ctx.cp_function, ctx.patch_function, ShaderStage::Hull));
  }
  return ctx.outcome(true);
}

Status ConverterState::run(std::span<const std::uint8_t> bytecode, const ConvertOptions& options,
                           ir::Builder& builder) {
  if (Status st = parse_container(bytecode, container, {.verify_checksum = false}); !st) return st;
  return run_parsed(options, builder);
}

Status ConverterState::run_parsed(const ConvertOptions& options, ir::Builder& builder) {
  if (container.has_dxil && !container.has_program())
    return Status::error("DXIL (shader model 6) container: not a DXBC program");
  if (!container.has_program())
    return Status::error("DXBC container without a shader program (no SHDR/SHEX chunk)");
  if (Status st = decode_program(container.program, program); !st) return st;
  ctx.reset(builder, program, container);
  ctx.linkage.options = options.class_linkage;
  ctx.debug_names = options.debug_names;
  ctx.convention = options.convention;
  ctx.geometry_point_size = options.geometry_point_size;
  ctx.typed_uav_read_r32 = options.typed_uav_read_r32;
  if (Status st = read_signatures(ctx); !st) return st;
  return convert_program(ctx);
}

Status Converter::convert(const Container& parsed, const ConvertOptions& options,
                          ir::Builder& builder) {
  state_->container = parsed;
  return state_->run_parsed(options, builder);
}

Status Converter::scan(SourceReflection& out) const {
  return scan_program(state_->container, state_->program, out, state_->scan_scratch);
}

} // namespace kiln::dxbc

// dxbc::Converter's base (converter.h), instantiated here where its State is complete.
template class kiln::FrontEnd<kiln::dxbc::ConvertOptions, kiln::dxbc::ConverterState>;
