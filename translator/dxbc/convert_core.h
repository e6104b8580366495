#pragma once
// The core half's own state (ConvertContext::Impl) and the functions its files share:
// convert_context.cpp (operand API), convert_io_declare.cpp / convert_io.cpp (signatures,
// inputs, outputs, system values), convert_linkage.cpp (class linkage), convert_names.cpp
// (debug names). The handlers the opcode table names are declared in convert_dispatch.h.
//
// What the IR it emits looks like (for the passes and the backend):
// - r#: DclTmp per component, type Unknown, read through ConsumeAs; x#: DclScratch u32[n*c]
//   (values cast to u32, index clamped); cb#: DclCbv vec4<f32>[size], one DescriptorLoad and
//   one BufferLoad vec4 per immediate vector at the function's start; icb: read statically as
//   constants, dynamically through a Constant vec4<u32>[n] with the index clamped and a
//   select giving zero out of bounds.
// - Inputs/outputs: one DclInput/DclOutput per dcl_* (vecN at location = register, component =
//   first masked component; arrays over vertices for GS/HS/DS inputs and HS control point
//   outputs), the scalar type from the signature; patch constants at location 16 + register.
//   Inputs are loaded once per function at its start. Dynamically indexed v#/o# become
//   selects / guarded stores over the declared registers.
// - System values: DclInputBuiltIn/DclOutputBuiltIn. ClipDistance/CullDistance f32[n] (n
//   from the signature), TessFactorOuter f32[4] / TessFactorInner f32[2], SampleMask u32[1],
//   IsFrontFace/IsFullyCovered bool (read as ~0/0), thread ids vec3<u32>, TessCoord vec3<f32>;
//   pixel-shader Position.w is turned into clip w (1 / FragCoord.w) by the front end.
// - Hull shaders: EntryPoint(control point function, patch constant function); fork/join
//   phases in order in the second, each with instance count > 1 a scoped loop over the
//   instance id; no control point phase = a pass-through function from the input signature.

#include "translator/common/shader_interface.h"
#include "translator/dxbc/convert_context.h"
#include "translator/dxbc/signature.h"

#include <cstdint>
#include <vector>

namespace kiln {
struct ClassLinkage;
}

namespace kiln::dxbc {

// Where one register component lives in the IR: a declaration and how to address it.
struct IoSlot {
  enum class Shape : std::uint8_t { None, Scalar, Vector, Array };
  ir::SsaDef dcl;
  ir::ScalarType type = ir::ScalarType::F32; // declared scalar type (Bool for IsFrontFace)
  Shape shape = Shape::None;
  std::uint8_t element = 0; // vector component or array element
  bool per_vertex = false;  // the declaration is an array over vertices / control points
  std::uint8_t stream = 0;  // geometry shader outputs: the stream that declared it
  // Inputs do not change during an invocation: the first read in a function is hoisted to its
  // start and reused (valid while stamp == Impl::function_stamp).
  ir::SsaDef cached;
  std::uint32_t stamp = 0;
};

// Register files addressed through IoSlots.
enum class IoFile : std::uint8_t {
  Input,       // v#, vicp (per vertex)
  Output,      // o# (control-point outputs in hull shaders)
  PatchOutput, // o# in hull fork/join phases
  PatchInput,  // vpc# (domain), vpc# in hull phases reads patch outputs
  Special,     // vPrim, vThreadID, oDepth, ... by OperandType
  Count,
};

struct ScratchReg {
  ir::SsaDef dcl;
  std::uint32_t size = 0;       // vectors
  std::uint32_t components = 0; // per vector
};

struct FlowEntry {
  // Guard: an if (!returned) that an inlined body's return opened over the rest of the block
  // it sits in; it closes with that block (convert_calls.cpp).
  enum class Kind : std::uint8_t { If, Loop, Switch, ForkLoop, Guard };
  Kind kind;
  bool has_else = false;
  // An inlined body returned from inside this construct: once it closes, what follows must be
  // left or skipped when the body's returned flag is set.
  bool returns = false;
  ir::SsaDef op; // ScopedIf / ScopedLoop / ScopedSwitch
};

// One way through an fcall: the selected function table `table` runs function body `body`.
struct CallTarget {
  std::uint32_t table = 0;
  std::uint32_t body = 0;
};

// D3D11 class linkage (convert_linkage.cpp) and subroutines (convert_calls.cpp): the
// declarations and labels by number and where the class-instance selection comes from.
struct Linkage {
  static constexpr std::uint32_t kNone = 0xffffffffu;
  const ClassLinkage* options = nullptr; // null: kiln's default register, read at run time
  std::vector<std::uint8_t> bodies;      // by fb#: declared
  std::vector<std::uint32_t> tables;     // by ft#: Program::declarations index, or kNone
  std::vector<std::uint32_t> interfaces; // by fp# (first slot of each): declarations index
  std::uint32_t slot_count = 0;          // interface slots: highest fp# + array size
  ir::SsaDef selection;                  // DclCbv of the selection buffer (run-time form)
  ir::SsaDef descriptor;                 // its DescriptorLoad in the current function
  std::uint32_t descriptor_stamp = 0;
  ir::SsaDef fixed; // fixed form: Constant vec4<u32>[2 * slot_count]
  // Instruction index of `label l#` / `label fb#` by number, or kNone.
  std::vector<std::uint32_t> subroutine_labels, body_labels;
  // The ways of the fcalls being converted, innermost last (each call appends its own and
  // drops them when done; kept here so a warm converter does not allocate).
  std::vector<CallTarget> targets;
  void reset() {
    subroutine_labels.clear();
    body_labels.clear();
    targets.clear();
    bodies.clear();
    tables.clear();
    interfaces.clear();
    slot_count = descriptor_stamp = 0;
    selection = descriptor = fixed = {};
  }
};

struct ConvertContext::Impl {
  // r#: DclTmp per component, created on first use (4 per register).
  std::vector<ir::SsaDef> temps;
  std::vector<ScratchReg> scratch; // x# by register number
  // cb#: declaration by register (SM5.0) or range id (SM5.1), and the function's descriptor.
  struct Cbv {
    ir::SsaDef dcl;
    ir::SsaDef descriptor; // DescriptorLoad at the current function's start, or null
    std::uint32_t lower = 0;
    std::uint32_t size = 0;
    // vec4 loads at immediate indices, reused within a function (stamped like IoSlot).
    std::vector<ir::SsaDef> vectors;
    std::vector<std::uint32_t> stamps;
  };
  std::uint32_t function_stamp = 1; // bumped for every function: invalidates the caches
  std::vector<Cbv> cbvs;
  ir::SsaDef icb; // Constant vec4<u32>[n]
  std::uint32_t icb_vectors = 0;
  std::vector<ir::Operand> literals; // scratch for big constants

  std::vector<IoSlot> io[std::size_t(IoFile::Count)]; // 4 per register
  std::uint32_t input_vertices = 0;                   // GS input primitive / control points
  std::uint32_t output_control_points = 0;
  std::uint32_t input_control_points = 0;
  std::uint32_t gs_stream = 0; // stream of the outputs declared next (dcl_stream)

  PodArray<SignatureElement> isgn, osgn, pcsg;
  std::vector<FlowEntry> flow;
  ir::SsaDef label;            // the current function's Label
  ir::SsaDef control_point_id; // hull: control point phase's vOutputControlPointID value
  ir::SsaDef fork_instance;    // hull: the current fork/join instance id (u32)
  // Hull shaders whose fork/join phases are functions (converter.cpp): each phase's function
  // and instance count, called in order by the patch-constant function.
  struct PhaseCall {
    ir::SsaDef function;
    std::uint32_t instances;
  };
  std::vector<PhaseCall> phase_calls;
  // Geometry shaders with several streams: o# registers are shared by the streams (emit_stream
  // mN emits the registers stream N declared), so a component declared by more than one stream
  // has a variable per stream; writes go to the slot's and to each of these (io_store).
  struct StreamMirror {
    std::uint32_t reg;
    unsigned component;
    IoSlot slot;
  };
  std::vector<StreamMirror> stream_mirrors;
  // Stage modes gathered from declarations (convert_declarations.cpp); the driver's
  // finish_declarations() turns them into Set* ops once all are known.
  std::uint32_t tess_domain = 0, tess_partitioning = 0, tess_output = 0;
  std::uint32_t gs_output_topology = 0, gs_stream_mask = 0;
  std::uint32_t gs_input_primitive = 0, gs_max_vertices = 0;
  bool debug_names = false; // ConvertOptions::debug_names (convert_names.cpp)
  InterfaceConvention convention = InterfaceConvention::Kiln; // ConvertOptions::convention
  bool geometry_point_size = false;                           // ConvertOptions::geometry_point_size
  ir::SsaDef point_size; // its PointSize output, written before each stream-0 emit
  bool hull_patch_phase = false;
  bool precise_all = false; // dcl_globalFlags without refactoringAllowed
  bool emitted_return = false;
  std::uint32_t clip_count = 0, cull_count = 0;
  ir::SsaDef clip_dcl_in, cull_dcl_in, clip_dcl_out, cull_dcl_out;
  ir::SsaDef tess_outer, tess_inner;
  Linkage linkage;

  void reset() {
    linkage.reset();
    temps.clear();
    scratch.clear();
    for (Cbv& cb : cbvs) cb.dcl = cb.descriptor = {}; // keeps the caches' storage
    icb = {};
    icb_vectors = 0;
    for (auto& file : io) file.clear();
    input_vertices = output_control_points = input_control_points = gs_stream = 0;
    flow.clear();
    label = control_point_id = fork_instance = {};
    phase_calls.clear();
    stream_mirrors.clear();
    tess_domain = tess_partitioning = tess_output = 0;
    gs_output_topology = gs_stream_mask = gs_input_primitive = gs_max_vertices = 0;
    hull_patch_phase = precise_all = emitted_return = false;
    clip_count = cull_count = 0;
    clip_dcl_in = cull_dcl_in = clip_dcl_out = cull_dcl_out = tess_outer = tess_inner = {};
    point_size = {};
  }
  std::vector<IoSlot>& file(IoFile f) { return io[std::size_t(f)]; }
  IoSlot* slot(IoFile f, std::uint32_t reg, unsigned component) {
    auto& v = io[std::size_t(f)];
    std::size_t i = std::size_t(reg) * 4 + component;
    return i < v.size() ? &v[i] : nullptr;
  }
  IoSlot& make_slot(IoFile f, std::uint32_t reg, unsigned component) {
    auto& v = io[std::size_t(f)];
    std::size_t i = std::size_t(reg) * 4 + component;
    if (v.size() <= i) v.resize((i | 3) + 1);
    return v[i];
  }
};

// convert_declarations.cpp: vertices per input primitive of dcl_inputprimitive.
std::uint32_t vertices_of_primitive(std::uint32_t primitive);

// convert_names.cpp (ConvertOptions::debug_names): a DebugName for an input/output variable
// from its signature element's semantic (null: none).
void name_io(ConvertContext& ctx, ir::SsaDef dcl, const SignatureElement* element);

// convert_io_declare.cpp
// Reads the signature chunks the stage uses into impl.isgn/osgn/pcsg.
Status read_signatures(ConvertContext& ctx);
// convert_io.cpp: the slot behind component `component` of an I/O operand (null: undeclared,
// with ctx.fail() when `write`).
IoSlot* io_slot_for(ConvertContext& ctx, const Operand& op, unsigned component, bool write);
ir::SsaDef io_load(ConvertContext& ctx, const Operand& op, unsigned component, ir::ScalarType type);
void io_store(ConvertContext& ctx, const Operand& op, unsigned component, ir::SsaDef value,
              ir::ScalarType type);

// eval_centroid / eval_sample_index / eval_snapped of input component `component`; `sample`
// (u32) or `offset` (vec2<f32>) as the opcode needs. Null (and an error) for non-inputs.
ir::SsaDef io_interpolate(ConvertContext& ctx, const Instruction& inst, const Operand& op,
                          unsigned component, ir::SsaDef sample_or_offset);

// Hull shader without a control point phase: copies every input control point element to the
// output control point of the same register (into the current function).
void io_hull_passthrough(ConvertContext& ctx);

// convert_linkage.cpp: D3D11 class linkage (its declarations: convert_dispatch.h).
// fcall fp#[index][call site]: appends the ways it may go to `targets` (the interface's
// distinct tables, in declaration order, after those already there) and returns the u32 function
// table the selection names for the slot, emitted at the cursor; null (and an error) for a call the
// declarations do not allow.
ir::SsaDef linkage_call(ConvertContext& ctx, const Instruction& inst,
                        std::vector<CallTarget>& targets);
// Component `component` of this[slot] (u32): the instance's `this` data.
ir::SsaDef linkage_this(ConvertContext& ctx, const Operand& op, unsigned component);
// cb[register][vector] with the register chosen at run time (a `this` constant buffer): the
// vec4<f32> of the declared constant buffer it names; zeros for any other register.
ir::SsaDef linkage_cbv_vector(ConvertContext& ctx, const Operand& op);

} // namespace kiln::dxbc
