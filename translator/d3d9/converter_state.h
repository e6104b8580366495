#pragma once
// The D3D9 converter's per-worker state (internal to translator/d3d9/converter*.cpp).
//
// Registers are scalarized: every D3D9 register component that the shader touches is one
// DclTmp (f32 for r#, t#, outputs; i32 for a0/aL and loop counters; bool for p0), created on
// first use. Every table here is a fixed-size dense array indexed by register number, cleared
// per shader, so converting allocates nothing beyond the ir::Builder.

#include "translator/common/status.h"
#include "translator/d3d9/converter.h"
#include "translator/d3d9/program.h"
#include "translator/d3d9/reader.h"
#include "translator/ir/ir.h"
#include "translator/ir/temp_forwarding.h"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kiln::d3d9::detail {

using ir::SsaDef;

// Four scalar components of one register value (null where not needed).
struct Vec4 {
  SsaDef c[4];
};

constexpr unsigned kMaxTemps = 32;
constexpr unsigned kMaxTexRegs = 16;  // ps_1_x t# registers, texture stages
constexpr unsigned kMaxInputs = 32;   // v#
constexpr unsigned kMaxSamplers = 16; // s#
constexpr unsigned kMaxLabels = 2048;
constexpr unsigned kMaxCallDepth = 8;

// Output register slots: every D3D9 output register file/index maps to one slot.
enum OutputSlot : std::uint8_t {
  kSlotPos = 0,      // oPos
  kSlotFog = 1,      // oFog
  kSlotPts = 2,      // oPts
  kSlotColor0 = 3,   // oD0, oD1
  kSlotTex0 = 5,     // oT0..oT7, vs_3_0 o0..o11
  kSlotTarget0 = 21, // ps oC0..oC3
  kSlotDepth = 25,   // oDepth
  kSlotCount = 26,
};

constexpr unsigned kVaryingSlots = 32 + kUsageCount * 16;

// m<C>x<R> (m4x4, m4x3, m3x4, m3x3, m3x2): the mnemonic is the shape, a C-component vector
// times R consecutive registers from src1 on. {0, 0} for every other opcode.
struct MatrixShape {
  unsigned columns = 0, rows = 0;
};
constexpr MatrixShape matrix_shape(Opcode op) {
  const std::string_view m = opcode_info(op).mnemonic;
  if (m.size() != 4 || m[0] != 'm' || m[2] != 'x') return {};
  return {unsigned(m[1] - '0'), unsigned(m[3] - '0')};
}
static_assert(matrix_shape(Opcode::M4x3).columns == 4 && matrix_shape(Opcode::M4x3).rows == 3);
static_assert(matrix_shape(Opcode::M3x2).columns == 3 && matrix_shape(Opcode::M3x2).rows == 2);
static_assert(matrix_shape(Opcode::MovA).rows == 0 && matrix_shape(Opcode::Max).rows == 0);

struct ControlFrame {
  enum Kind : std::uint8_t { If, Loop, Rep } kind;
  SsaDef op;   // ScopedIf / ScopedLoop
  SsaDef cond; // ScopedIf condition (for the rewrite at endif)
  bool has_else = false;
  SsaDef loop_reg; // aL of a `loop` (i32 tmp)
  SsaDef step;     // aL step (i32 value)
};

struct State {
  // Per-shader inputs.
  const Program* program = nullptr;
  ConvertOptions options;
  ir::Builder* b = nullptr;
  Model model = Model::Vs1;
  bool pixel = false;
  ErrorSink errors{&spell_error};
  bool missing_operand = false; // set by emit(), turned into an error by emit_range()

  // Scratch kept between shaders.
  Program decoded;
  std::vector<std::uint32_t> label_pos; // instruction index + 1 of `label l#`, 0 = none
  std::vector<ControlFrame> control;

  // Declarations.
  SsaDef entry, function, first_label;
  SsaDef desc_float, desc_int, desc_bool, desc_bump; // DescriptorLoads, emitted up front
  std::uint32_t float_count = 0;                     // registers in the float CBV
  bool relative_float = false;                       // c[a0.x + n] or c[aL + n] somewhere
  std::array<SsaDef, kMaxSamplers> srv{}, sampler{};
  std::array<TextureType, kMaxSamplers> sampler_type{};

  // def/defi/defb immediates.
  std::array<std::uint8_t, 8192 / 8> float_defined{};   // bit per register
  std::vector<std::array<std::uint32_t, 4>> float_defs; // indexed by register, valid if defined
  // i#/b#: 16 in the runtime's banks; defi/defb may name up to 31 (shader-local immediates).
  std::array<std::array<std::int32_t, 4>, 32> int_defs{};
  std::uint32_t int_defined = 0, bool_defined = 0, bool_values = 0;
  SsaDef def_array, def_flags; // Constant arrays for relative reads over def'd registers
  // Registers [def_base, def_limit) covered by def_array: from the lowest def'd register, as a
  // Private array of every register below a def in c243 took lavapipe's compiler 20 s.
  std::uint32_t def_base = 0, def_limit = 0;

  // Registers.
  std::array<std::array<SsaDef, 4>, kMaxTemps> temps{};
  std::array<std::array<SsaDef, 4>, kMaxTexRegs> tex_temps{}; // ps_1_1-1_3 t#
  std::array<SsaDef, 4> addr{};                               // a0 (i32)
  std::array<SsaDef, 4> pred{};                               // p0 (bool)
  std::array<std::array<SsaDef, 4>, kSlotCount> out_temps{};
  // Per register component, the declaration that carries it (vs_3_0 packs several semantics
  // into one o#, ps_3_0 several into one v#); component c of the register is component c of
  // the declaration's vec4 (or the scalar for f32 declarations).
  std::array<std::array<SsaDef, 4>, kSlotCount> out_dcl{};
  std::array<std::array<SsaDef, 4>, kMaxInputs + kMaxTexRegs> in_dcl{}; // v#, then ps t#
  std::array<SsaDef, kVaryingSlots> out_location{}, in_location{};
  SsaDef out_position, frag_coord, front_face;
  std::vector<ir::Operand> def_operands, flag_operands;

  // ps_1_x texture-matrix rows computed by texm3x*pad (two at most), consumed by the last row.
  SsaDef tex_rows[2];
  std::uint8_t tex_row_stage[2] = {};
  unsigned tex_row_count = 0;

  // Co-issue: a pending destination write of the previous instruction.
  struct PendingWrite {
    const Instruction* ins = nullptr;
    Vec4 value;
  } pending;

  ir::TempForwarding temps_known; // register values of the current straight-line stretch
  // Input components read so far, loaded at main's entry (input_component()).
  struct LoadedInput {
    SsaDef dcl;
    SsaDef vector; // the whole vec4, for a vec4 declaration
    SsaDef component[4];
  };
  std::vector<LoadedInput> loaded_inputs;
  std::array<SsaDef, 16> small_u32{};
  unsigned call_depth = 0;    // subroutines being inlined (0: main)
  std::size_t frame_base = 0; // control.size() when the current subroutine was entered
  bool range_done = false;    // set by ret/label: emit_range stops after this instruction

  // ---- converter.cpp: driver, declarations and the instruction dispatch
  Status run(std::span<const std::uint8_t> bytecode, const ConvertOptions& opts,
             ir::Builder& builder);
  bool convert_program();
  void reset();
  bool scan();
  bool check_register_ranges(const Instruction& ins);
  bool declare_io(const Instruction& ins);
  void declare_constants();
  SsaDef bank(SsaDef& desc, std::uint32_t reg, ir::ScalarType scalar, std::uint32_t count);
  SsaDef varying(bool output, Usage usage, unsigned index, bool centroid, const Instruction& ins);
  SsaDef position_output();
  bool bind_implicit_output(const Instruction& ins, unsigned slot);
  bool emit_range(std::uint32_t begin, std::uint32_t end);
  // One instruction to its handler: a switch generated from the handler column of opcodes.h.
  bool emit_instruction(const Instruction& ins);
  void emit_output_stores();
  bool finish_main();

  // The front end's one way to report an error: the first report wins and becomes the status
  // of convert(); every caller returns false (or a null SsaDef) right after. An Instruction is a
  // Where ("token 12: texld: ..."); a default Where gives the bare message.
  bool fail(const Where& where, std::string_view what) { return errors.fail(where, what); }

  // ---- converter_operands.cpp: registers, modifiers, destinations
  SsaDef f32(float v) { return b->constant_f32(v); }
  SsaDef u32(std::uint32_t v) {
    // Component and register indices: small and frequent, cached per shader.
    if (v < small_u32.size()) {
      if (!small_u32[v]) small_u32[v] = b->constant_u32(v);
      return small_u32[v];
    }
    return b->constant_u32(v);
  }
  SsaDef i32(std::int32_t v) { return b->constant_i32(v); }
  // Adds a code op. One missing a value it needs (a source that could not be read) fails the
  // instruction being emitted (emit_range checks the flag).
  // Temporaries are forwarded within a straight-line stretch (ir::TempForwarding): a TmpLoad
  // of a value written there returns that value; the stretch's last writes are stored at its
  // end. A TmpStore returns no value.
  SsaDef emit(const ir::Op& op) {
    if (ir::has_missing_reference(op)) [[unlikely]]
      missing_operand = true;
    if (op.code() == ir::OpCode::TmpLoad || op.code() == ir::OpCode::TmpStore)
      return emit_temp_access(op);
    temps_known.before(op.code(),
                       [this](SsaDef tmp, SsaDef value) { b->add(ir::Op::TmpStore(tmp, value)); });
    return b->add(op);
  }
  SsaDef emit_temp_access(const ir::Op& op);
  SsaDef tmp(ir::Type type);
  SsaDef temp_reg(unsigned index, unsigned c);
  SsaDef out_reg(unsigned slot, unsigned c);
  bool output_slot(const DestParam& d, unsigned& slot) const;
  // Component c of texture coordinate t<index> (ps_1_x texture stages, ps_2_0+ t#).
  SsaDef texcoord(const Instruction& ins, unsigned index, unsigned c);
  // Component c of the input declared by `dcl` (InputLoad index c, or the scalar of an f32
  // declaration when c is 0).
  SsaDef input_component(SsaDef dcl, unsigned c);
  // One raw register component (no modifier), or null after fail().
  SsaDef read_raw(const Instruction& ins, const SourceParam& s, unsigned c);
  // Source positions `mask` (bit i = swizzle position i) with swizzle and modifier applied.
  bool read_src(const Instruction& ins, const SourceParam& s, std::uint8_t mask, Vec4& out);
  SsaDef read_scalar(const Instruction& ins, const SourceParam& s, unsigned position);
  SsaDef relative_index(const Instruction& ins, RegisterType rel_type, unsigned rel_component);
  SsaDef load_float_const(const Instruction& ins, const SourceParam& s);
  SsaDef int_const(const Instruction& ins, unsigned index, unsigned c);
  SsaDef bool_const(unsigned index);
  SsaDef predicate_of(const SourceParam& p, unsigned position);
  // Writes `value` to the destination of `ins` (mask, shift, saturate, predication, co-issue).
  bool write_dst(const Instruction& ins, const Vec4& value);
  bool commit(const Instruction& ins, const Vec4& value);
  bool commit_relative(const Instruction& ins, const Vec4& value);
  bool flush_pending();

  // ---- Instruction handlers: the handler column of opcodes.h names one of these for every
  // opcode; each takes the decoded instruction and returns false after fail().

  // converter.cpp: instructions with no code of their own.
  bool emit_nothing(const Instruction& ins);
  bool emit_declaration(const Instruction& ins);

  // converter_alu.cpp: arithmetic. Component-wise ops read their sources under the write mask
  // and apply one function per component.
  bool emit_mov(const Instruction& ins);
  bool emit_add(const Instruction& ins);
  bool emit_sub(const Instruction& ins);
  bool emit_mul(const Instruction& ins);
  bool emit_min(const Instruction& ins);
  bool emit_max(const Instruction& ins);
  bool emit_slt(const Instruction& ins);
  bool emit_sge(const Instruction& ins);
  bool emit_mad(const Instruction& ins);
  bool emit_lrp(const Instruction& ins);
  bool emit_cmp(const Instruction& ins);
  bool emit_cnd(const Instruction& ins);
  bool emit_abs(const Instruction& ins);
  bool emit_frc(const Instruction& ins);
  bool emit_dsx(const Instruction& ins);
  bool emit_dsy(const Instruction& ins);
  bool emit_sgn(const Instruction& ins);
  bool emit_setp(const Instruction& ins);
  bool emit_dp(const Instruction& ins);
  bool emit_dp2add(const Instruction& ins);
  bool emit_rcp(const Instruction& ins);
  bool emit_rsq(const Instruction& ins);
  bool emit_exp(const Instruction& ins);
  bool emit_expp(const Instruction& ins);
  bool emit_log(const Instruction& ins);
  bool emit_logp(const Instruction& ins);
  bool emit_pow(const Instruction& ins);
  bool emit_sincos(const Instruction& ins);
  bool emit_nrm(const Instruction& ins);
  bool emit_crs(const Instruction& ins);
  bool emit_lit(const Instruction& ins);
  bool emit_dst(const Instruction& ins);
  bool emit_matrix(const Instruction& ins);
  // Helpers of the handlers above.
  template <class PerComponent>
  bool componentwise(const Instruction& ins, unsigned sources, PerComponent per_component);
  bool read_pair(const Instruction& ins, std::uint8_t mask0, Vec4& a, std::uint8_t mask1, Vec4& c);
  template <class Result>
  bool scalar(const Instruction& ins, Result result);
  bool needs_legacy(SsaDef a, SsaDef c) const;
  SsaDef mul(SsaDef a, SsaDef c);
  SsaDef mad(SsaDef a, SsaDef c, SsaDef d);
  SsaDef dot(const Vec4& a, const Vec4& c, unsigned n);
  SsaDef compare(Comparison cmp, SsaDef a, SsaDef c);

  // converter_flow.cpp: flow control (subroutines are inlined) and texkill.
  bool emit_if(const Instruction& ins);
  bool emit_else(const Instruction& ins);
  bool emit_endif(const Instruction& ins);
  bool emit_loop(const Instruction& ins);
  bool emit_end_loop(const Instruction& ins);
  bool emit_break(const Instruction& ins);
  bool emit_call(const Instruction& ins);
  bool emit_ret(const Instruction& ins);
  bool emit_label(const Instruction& ins);
  bool emit_texkill(const Instruction& ins);
  ControlFrame* innermost_loop();
  SsaDef condition_of(const Instruction& ins, const SourceParam& s);
  SsaDef comparison_of(const Instruction& ins);
  void emit_break_if(SsaDef cond, SsaDef loop);

  // converter_sample.cpp: samplers and sampling (texld/texldp/texldb, texldl, texldd).
  bool emit_texld(const Instruction& ins);
  bool use_sampler(const Instruction& ins, unsigned stage, TextureType type);
  // A vec4 sample of texture stage / sampler `stage`; null after fail().
  SsaDef sample(const Instruction& ins, unsigned stage, TextureType type, const SsaDef* coord,
                SsaDef lod, SsaDef bias, const SsaDef* dx, const SsaDef* dy);
  bool write_sample(const Instruction& ins, SsaDef texel, std::uint8_t swizzle);
  // D3D9_TEXTURE_TYPES: what a sampler without dcl samples (2D without the parameter).
  TextureType undeclared_texture_type(unsigned stage) const;

  // converter_ps1.cpp: the ps_1_x texture-address instructions.
  bool emit_tex(const Instruction& ins);
  bool emit_texcoord(const Instruction& ins);
  bool emit_texcrd(const Instruction& ins);
  bool emit_texld_ps14(const Instruction& ins);
  bool emit_bump(const Instruction& ins);
  bool emit_texreg2(const Instruction& ins);
  bool emit_texm_pad(const Instruction& ins);
  bool emit_texm3x2(const Instruction& ins);
  bool emit_texm3x3(const Instruction& ins);
  bool emit_texdp3(const Instruction& ins);
  bool emit_texdepth(const Instruction& ins);
  // The texture stage of a ps_1_x texture instruction (its destination register), checked.
  bool texture_stage(const Instruction& ins, unsigned& stage);
  bool stage_coords(const Instruction& ins, unsigned stage, unsigned n, SsaDef* out);
  // dot(texcoord[stage].xyz, src0.xyz): one row of a texture matrix; null after fail().
  SsaDef texture_row(const Instruction& ins, unsigned stage);
  // Bump-environment matrix (i = 0) or luminance (i = 1) of `stage`.
  SsaDef bump_state(unsigned stage, unsigned i);
  bool write_depth(const Instruction& ins, SsaDef depth);
  // Render-state parameters of the interface (docs/abi.md, "Parameters"): a Constant for an
  // immediate (or absent) one, a DclSpecConstant with the layer's SpecId otherwise.
  SsaDef parameter(ParameterName name, unsigned component);
  // D3D9_PROJECTED_TEXTURES: ps_1_1-1_3 `tex` divides by the coordinate's w on this stage.
  bool projected_texture(unsigned stage) const;
};

} // namespace kiln::d3d9::detail
