#pragma once
// Internal to the DXBC -> IR converter: the parts of its one state owner, ConvertContext
// (convert_context.h), by concern, each with its own clear() (no allocation: the vectors keep
// their capacity between shaders). Handlers reach every field directly (ctx.flow, ctx.srv,
// ctx.phase_base).

#include "translator/common/shader_interface.h"
#include "translator/dxbc/opcodes.h"
#include "translator/dxbc/program.h"
#include "translator/dxbc/signature.h"
#include "translator/ir/ir.h"

#include <cstddef>
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
  // start and reused (valid while stamp == CoreState::function_stamp).
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

// The core half's state (registers, I/O slots, flow stack, stage modes, class linkage).
struct CoreState {
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
  bool typed_uav_read_r32 = false;                            // ConvertOptions::typed_uav_read_r32
  ir::SsaDef point_size; // its PointSize output, written before each stream-0 emit
  bool hull_patch_phase = false;
  bool precise_all = false; // dcl_globalFlags without refactoringAllowed
  bool emitted_return = false;
  std::uint32_t clip_count = 0, cull_count = 0;
  ir::SsaDef clip_dcl_in, cull_dcl_in, clip_dcl_out, cull_dcl_out;
  ir::SsaDef tess_outer, tess_inner;
  Linkage linkage;

  void clear() {
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

// What a UAV was used for so far (ResourceBinding::usage).
namespace uav_usage {
constexpr std::uint8_t kRead = 1;
constexpr std::uint8_t kWrite = 2;
constexpr std::uint8_t kAtomic = 4;
} // namespace uav_usage

// One declared t#/u#/s#/g# register or SM5.1 range.
struct ResourceBinding {
  ir::SsaDef decl;    // the Dcl* op; null = not declared
  ir::SsaDef counter; // DclUavCounter (u# with a counter, created on first use if needed)
  ir::Type type;      // the declaration's type (what DescriptorLoad returns)
  ir::ResourceKind kind = ir::ResourceKind::TypedBuffer;
  ir::ScalarType sampled = ir::ScalarType::F32;  // typed resources: texel scalar type
  std::uint32_t stride = 0;                      // structured: bytes per structure
  std::uint32_t space = 0, lower = 0, count = 1; // binding range (count 0 = unbounded)
  ir::UavFlags base_flags = ir::UavFlags(0);     // from the declaration
  std::uint8_t usage = 0;                        // uav_usage bits
  bool comparison = false;                       // sampler declared mode_comparison
};

// The resource half's state (convert_resources*.cpp).
struct ResourceState {
  static constexpr std::uint32_t kNotChosen = 0xffffffffu;
  // Indexed by register number (SM5.0) or range id (SM5.1); capacity kept between shaders.
  std::vector<ResourceBinding> srv, uav, sampler, tgsm;
  ir::SsaDef sample_count_input; // DclInputBuiltIn SampleCount (sampleinfo on the rasterizer)
  // An SM5.0 t#/u#/s# operand whose register is chosen at run time (t[r0.z + 1], a class
  // instance's texture): the instruction is converted once per register it may name
  // (convert_resources_chosen.cpp), and find_binding() takes the register of the way being
  // converted from here, by class (Srv, Uav, Sampler); kNotChosen outside those conversions.
  std::uint32_t chosen[3] = {kNotChosen, kNotChosen, kNotChosen};

  void clear() {
    sample_count_input = ir::SsaDef();
    for (std::uint32_t& c : chosen) c = kNotChosen;
    srv.clear();
    uav.clear();
    sampler.clear();
    tgsm.clear();
  }
  std::vector<ResourceBinding>& table(ResourceClass c) {
    switch (c) {
    case ResourceClass::Srv:
      return srv;
    case ResourceClass::Uav:
      return uav;
    case ResourceClass::Sampler:
      return sampler;
    default:
      return tgsm;
    }
  }
};

// The walk's state (converter.cpp, convert_flow.cpp, convert_calls.cpp): where the walk is in
// the program's functions, hull-shader phases and inlined bodies. Plain values: clear() is an
// assignment.
struct WalkState {
  bool hull = false;
  bool function_open = false;
  bool returned = false; // a top-level ret ended the current function or phase
  bool declarations_done = false;
  bool saw_control_point_phase = false;
  ir::SsaDef cp_function, patch_function;
  // Hull fork/join phases: inlined into the patch-constant function, or (phase_functions)
  // each one a function taking the instance id, called by the patch-constant function.
  bool phase_functions = false;
  ir::SsaDef phase_function, phase_param;
  bool in_patch_phase = false;
  bool phase_body_open = false;
  bool phase_done = false;
  std::uint32_t phase_instances = 1;
  std::size_t phase_base = 0; // flow entries below this belong to the phase loop
  ir::SsaDef phase_counter;
  // Subroutines and class-linkage function bodies, inlined where they are called
  // (labels: Linkage).
  bool past_main = false; // the main program ended at a label
  std::uint32_t inline_depth = 0;
  std::uint64_t inlined = 0;  // instructions inlined so far (bounds nested expansion)
  std::size_t body_base = 0;  // flow entries below this belong to the caller (or guards)
  bool body_returned = false; // a top-level ret ended the body
  // The body's "returned" flag (a bool temporary), when it returns from inside its own
  // control flow; null otherwise.
  ir::SsaDef body_flag;

  void clear() { *this = WalkState{}; }
};

} // namespace kiln::dxbc
