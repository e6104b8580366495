// DXBC (SM4.0-5.1) -> IR in scoped form: the driver (convert_driver.h). Parses the container,
// decodes the program once, then walks Program::instructions and hands each instruction and
// declaration to the handler its opcode table row names (Driver::dispatch,
// convert_dispatch.cpp). Here: the walk, the checks before a handler runs (register indices,
// declarations in their stage, code inside a function), hull-shader phases and the stage modes
// that follow from the declarations.
#include "translator/dxbc/converter.h"

#include "translator/dxbc/convert_driver.h"
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

void Driver::open_function(SsaDef param) {
  // Through emit(): function boundaries end the straight-line stretch temps are forwarded in.
  SsaDef fn = ctx_.emit(param ? Op::Function(ir::kVoid, param) : Op::Function(ir::kVoid));
  impl_.label = ctx_.emit(Op::Label(ir::Construct::None));
  ctx_.set_function(fn);
  function_open_ = true;
  returned_ = false;
  // Per-function caches: descriptors are loaded at the function's start.
  for (auto& cb : impl_.cbvs) cb.descriptor = {};
  ++impl_.function_stamp;
  impl_.control_point_id = {};
}

void Driver::close_function() {
  if (!function_open_) return;
  if (!returned_) ctx_.emit(Op::Return(ir::kVoid, SsaDef()));
  ctx_.emit(Op::FunctionEnd());
  function_open_ = false;
}

void Driver::begin_phase(ConvertContext&, const Instruction& inst) {
  if (inst.opcode == Opcode::HsDecls) return;
  end_phase();
  if (inst.opcode == Opcode::HsControlPointPhase) {
    if (saw_control_point_phase_ || in_patch_phase_) {
      ctx_.fail(inst, "control point phase after other phases");
      return;
    }
    saw_control_point_phase_ = true;
    open_function();
    cp_function_ = ctx_.function();
    return;
  }
  if (phase_functions_) {
    // Fork or join phase: a function of its own (called at the end by call_phases()).
    close_function();
    phase_param_ = b_.add(Op::DclParam(ir::kU32));
    open_function(phase_param_);
    phase_function_ = ctx_.function();
    in_patch_phase_ = true;
    impl_.hull_patch_phase = true;
  } else if (!in_patch_phase_) {
    // Fork or join phase: code goes to the patch-constant function.
    close_function();
    open_function();
    patch_function_ = ctx_.function();
    in_patch_phase_ = true;
    impl_.hull_patch_phase = true;
  }
  // Each phase has its own temporaries.
  impl_.temps.clear();
  phase_instances_ = 1;
  phase_body_open_ = false;
  phase_done_ = false;
}

// for (i = 0; i < instances; ++i) { ...: the loop's head, up to the body; returns i.
SsaDef Driver::open_instance_loop(std::uint32_t instances, SsaDef& counter) {
  counter = b_.add(Op::DclTmp(ir::kU32, ctx_.entry_point()));
  ctx_.emit(Op::TmpStore(counter, ctx_.constant_u32(0)));
  SsaDef loop = ctx_.emit(Op::ScopedLoop(SsaDef()));
  impl_.flow.push_back({FlowEntry::Kind::ForkLoop, false, false, loop});
  SsaDef i = ctx_.emit(Op::TmpLoad(ir::kU32, counter));
  SsaDef done = ctx_.emit(Op::UGe(i, ctx_.constant_u32(instances)));
  SsaDef sif = ctx_.emit(Op::ScopedIf(SsaDef(), done));
  ctx_.emit(Op::ScopedLoopBreak(loop));
  SsaDef endif = ctx_.emit(Op::ScopedEndIf(sif));
  b_.rewrite_op(sif, Op::ScopedIf(endif, done));
  return i;
}

// ... } of open_instance_loop(): ++i and the loop's end (the innermost flow entry).
void Driver::close_instance_loop(SsaDef counter, SsaDef loop) {
  SsaDef i = ctx_.emit(Op::TmpLoad(ir::kU32, counter));
  ctx_.emit(Op::TmpStore(counter, ctx_.emit(Op::IAdd(ir::kU32, i, ctx_.constant_u32(1)))));
  SsaDef end = ctx_.emit(Op::ScopedEndLoop(loop));
  b_.rewrite_op(loop, Op::ScopedLoop(end));
}

void Driver::open_phase_body() {
  phase_body_open_ = true;
  phase_base_ = impl_.flow.size();
  if (phase_functions_) {
    impl_.fork_instance = ctx_.emit(Op::ParamLoad(ir::kU32, ctx_.function(), phase_param_));
    return;
  }
  impl_.fork_instance = ctx_.constant_u32(0);
  if (phase_instances_ <= 1) return;
  impl_.fork_instance = open_instance_loop(phase_instances_, phase_counter_);
  phase_base_ = impl_.flow.size();
}

// The patch-constant function of phase_functions_: each phase's function, once per instance.
void Driver::call_phases() {
  open_function();
  patch_function_ = ctx_.function();
  for (const ConvertContext::Impl::PhaseCall& call : impl_.phase_calls) {
    if (call.instances <= 1) {
      ctx_.emit(Op::FunctionCall(ir::kVoid, call.function, ctx_.constant_u32(0)));
      continue;
    }
    SsaDef counter;
    SsaDef i = open_instance_loop(call.instances, counter);
    ctx_.emit(Op::FunctionCall(ir::kVoid, call.function, i));
    SsaDef loop = impl_.flow.back().op;
    impl_.flow.pop_back();
    close_instance_loop(counter, loop);
  }
  close_function();
}

void Driver::end_phase() {
  if (phase_function_) {
    // The instance count is declared inside the phase: known now.
    impl_.phase_calls.push_back({phase_function_, phase_instances_});
    phase_function_ = {};
  }
  if (!in_patch_phase_ || !phase_body_open_) return;
  phase_body_open_ = false;
  if (impl_.flow.size() != phase_base_) {
    ctx_.fail(ctx_.here(), "unterminated control flow at the end of a hull shader phase");
    return;
  }
  if (!phase_functions_ && phase_instances_ > 1) {
    FlowEntry loop = impl_.flow.back();
    impl_.flow.pop_back();
    close_instance_loop(phase_counter_, loop.op);
  }
  phase_base_ = 0;
  impl_.fork_instance = {};
}

void Driver::finish_declarations() {
  declarations_done_ = true;
  SsaDef e = ctx_.entry_point();
  ProgramType t = p_.type;
  // The execution modes a Vulkan stage cannot do without come from these declarations; a
  // program without them (damaged, or hand-written) is not a shader of its stage.
  if (t == ProgramType::Geometry) {
    if (!impl_.gs_input_primitive) {
      ctx_.fail(ctx_.here(), "geometry shader without dcl_inputprimitive (point, line, triangle or "
                             "their adjacency forms)");
      return;
    }
    if (impl_.gs_max_vertices == 0 || impl_.gs_max_vertices > 1024) {
      ctx_.fail(ctx_.here(), "geometry shader without a dcl_maxout of 1 to 1024 vertices");
      return;
    }
  }
  if ((t == ProgramType::Hull || t == ProgramType::Domain) &&
      !(impl_.tess_domain >= 1 && impl_.tess_domain <= 3)) {
    ctx_.fail(ctx_.here(),
              "tessellation shader without dcl_tessellator_domain (isoline, tri, quad)");
    return;
  }
  if (t == ProgramType::Hull || t == ProgramType::Domain) {
    static constexpr ir::PrimitiveType kDomain[] = {
        ir::PrimitiveType::Triangle, ir::PrimitiveType::Line, ir::PrimitiveType::Triangle,
        ir::PrimitiveType::Quad};
    if (impl_.tess_domain >= 1 && impl_.tess_domain <= 3)
      b_.add(Op::SetTessDomain(e, kDomain[impl_.tess_domain]));
    if (t == ProgramType::Hull) {
      b_.add(Op::SetTessControlPoints(e, impl_.input_vertices, impl_.output_control_points));
      ir::PrimitiveType prim = impl_.tess_output == 1   ? ir::PrimitiveType::Point
                               : impl_.tess_output == 2 ? ir::PrimitiveType::Line
                                                        : ir::PrimitiveType::Triangle;
      ir::TessWindingOrder winding =
          impl_.tess_output == 4 ? ir::TessWindingOrder::Ccw : ir::TessWindingOrder::Cw;
      static constexpr ir::TessPartitioning kPart[] = {
          ir::TessPartitioning::Integer, ir::TessPartitioning::Integer, ir::TessPartitioning::Pow2,
          ir::TessPartitioning::FractionalOdd, ir::TessPartitioning::FractionalEven};
      b_.add(Op::SetTessPrimitive(
          e, prim, winding, kPart[impl_.tess_partitioning <= 4 ? impl_.tess_partitioning : 0]));
    }
  }
  if (t == ProgramType::Geometry) {
    // A geometry shader that only writes UAVs declares no output topology: points.
    ir::PrimitiveType prim = impl_.gs_output_topology <= 1   ? ir::PrimitiveType::Point
                             : impl_.gs_output_topology == 3 ? ir::PrimitiveType::Line
                                                             : ir::PrimitiveType::Triangle;
    b_.add(Op::SetGsOutputPrimitive(e, prim, impl_.gs_stream_mask ? impl_.gs_stream_mask : 1u));
    if (impl_.geometry_point_size && impl_.gs_output_topology == 1)
      impl_.point_size = b_.add(Op::DclOutputBuiltIn(ir::kF32, e, ir::BuiltIn::PointSize, 0));
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
void Driver::declaration(const Instruction& inst) {
  if (!declaration_in_stage(inst.opcode, p_.type)) {
    ctx_.fail(inst, "declaration not allowed in this shader stage");
    return;
  }
  dispatch(inst);
}

// An executable instruction: declarations end before the first one; hull-shader phase bodies
// open at their first.
void Driver::instruction(const Instruction& inst) {
  if (!declarations_done_) finish_declarations();
  // Code after the top-level ret: only subroutine bodies live there (inlined where called).
  if (returned_ || phase_done_ || past_main_) return;
  if (in_patch_phase_ && !phase_body_open_) open_phase_body();
  if (!convert_choosing_resources(ctx_, inst, &Driver::dispatch_once, this)) dispatch(inst);
}

// dcl_hs_fork_phase_instance_count / dcl_hs_join_phase_instance_count: the current phase's.
void Driver::dcl_phase_instances(ConvertContext&, const Instruction& inst) {
  phase_instances_ = p_.declarations[inst.declaration].value;
}

void Driver::read_array_sizes() {
  // Per-vertex I/O arrays are sized by declarations that may come after the declarations of
  // the arrays: fxc writes dcl_inputprimitive after the dcl_input v[3][#] it sizes. Read those
  // counts before anything is declared (declaration() sets them again, to the same values).
  for (const Instruction& inst : p_.instructions) {
    if (inst.declaration == kNoOperand) continue;
    const Declaration& d = p_.declarations[inst.declaration];
    switch (inst.opcode) {
    case Opcode::DclGsInputPrimitive:
      impl_.input_vertices = vertices_of_primitive(d.value);
      break;
    case Opcode::DclInputControlPointCount:
      impl_.input_vertices = d.value;
      break;
    case Opcode::DclOutputControlPointCount:
      impl_.output_control_points = d.value;
      break;
    default:
      break;
    }
  }
}

Status Driver::run() {
  hull_ = p_.type == ProgramType::Hull;
  if (p_.type > ProgramType::Compute) {
    ctx_.fail(ctx_.here(), "DXBC: unknown program type");
    return ctx_.take_status();
  }
  phase_functions_ = hull_ && phases_need_functions(p_);
  if (hull_) {
    // Hull shaders: the functions are made by the phases; the entry point names them at the end.
    ctx_.set_entry_point(b_.add(Op::EntryPoint(ShaderStage::Hull)));
  } else {
    open_function();
    ctx_.set_entry_point(b_.add(Op::EntryPoint(ctx_.function(), stage_of(p_.type))));
  }
  read_array_sizes();
  find_labels();
  for (const Instruction& inst : p_.instructions) {
    ctx_.set_current(&inst);
    const std::uint16_t flags = opcode_info(inst.opcode).flags;
    if (flags & opflag::Custom) continue;
    if (!operands_indexed(p_, inst)) {
      ctx_.fail(inst, "register operand without its register index");
      return ctx_.take_status();
    }
    if (flags & opflag::Phase) {
      if (hull_)
        dispatch(inst); // begin_phase
      else
        ctx_.fail(inst, "hull shader phase marker in a non-hull shader");
    } else if (flags & opflag::Decl) {
      if (inst.declaration == kNoOperand)
        ctx_.fail(inst, "declaration without payload");
      else
        declaration(inst);
    } else if (!function_open_) {
      ctx_.fail(inst, "code outside a hull shader phase");
    } else {
      instruction(inst);
    }
    if (!ctx_.ok()) return ctx_.take_status();
  }
  ctx_.set_current(nullptr);
  if (!declarations_done_) finish_declarations();
  end_phase();
  if (!ctx_.ok()) return ctx_.take_status();
  if (impl_.flow.size() != 0 && !returned_)
    ctx_.fail(ctx_.here(), "DXBC: unterminated control flow");
  if (!ctx_.ok()) return ctx_.take_status();
  close_function();
  if (hull_) {
    if (phase_functions_) call_phases();
    if (!patch_function_) {
      open_function();
      patch_function_ = ctx_.function();
      close_function();
    }
    if (!cp_function_) {
      // Without a control point phase the output control points are the input ones.
      open_function();
      cp_function_ = ctx_.function();
      impl_.hull_patch_phase = false;
      io_hull_passthrough(ctx_);
      close_function();
    }
    b_.rewrite_op(ctx_.entry_point(),
                  Op::EntryPoint(cp_function_, patch_function_, ShaderStage::Hull));
  }
  return ctx_.ok() ? Status::ok() : ctx_.take_status();
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
  ctx.impl().linkage.options = options.class_linkage;
  ctx.impl().debug_names = options.debug_names;
  ctx.impl().convention = options.convention;
  ctx.impl().geometry_point_size = options.geometry_point_size;
  if (Status st = read_signatures(ctx); !st) return st;
  Driver driver(ctx, program);
  return driver.run();
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
