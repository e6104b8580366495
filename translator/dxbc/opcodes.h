#pragma once
// The SM4.0-5.1 instruction set (DXBC tokenized program), defined once.
//
// Columns: X(Name, mnemonic, opcode number, dst count, src count, value type, flags, handler,
//            doc)
//   dst/src count: operand tokens the instruction carries (declarations: the operands they
//     declare). The reader checks decoded operand counts against these.
//   value type: how the instruction reads its sources (F float, I signed int, U unsigned int,
//     B bits, D double, A any/typeless, N none). The disassembler prints immediates by it; the
//     IR converter uses it to pick value types.
//   flags: OpFlag bits below.
//   handler: the function of the DXBC -> IR converter that converts the instruction or
//     declaration (convert_dispatch.h lists them all; the converter's one switch,
//     dispatch in convert_dispatch.cpp, is generated from this column, so a row naming a
//     handler that does not exist does not compile). One handler may serve a family of opcodes
//     (every sample_* and gather4* is `sample_image`); `unsupported` rejects the instruction by
//     name. The parse half (reader, disassembler) ignores the column.

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string_view>

namespace kiln::dxbc {

enum class ValueType : std::uint8_t { N, F, I, U, B, D, A };

namespace opflag {
constexpr std::uint16_t Decl = 1 << 0;      // declaration (dcl_*), has a payload
constexpr std::uint16_t Test = 1 << 1;      // takes a _z/_nz test (if, breakc, discard, ...)
constexpr std::uint16_t Sat = 1 << 2;       // may carry _sat
constexpr std::uint16_t Resource = 1 << 3;  // reads a resource: extended tokens may follow
constexpr std::uint16_t FlowOpen = 1 << 4;  // opens a block (if, loop, switch, else, case)
constexpr std::uint16_t FlowClose = 1 << 5; // closes a block (else, endif, endloop, ...)
constexpr std::uint16_t Custom = 1 << 6;    // customdata: length in the next token
constexpr std::uint16_t Phase = 1 << 7;     // hull-shader phase marker
constexpr std::uint16_t Atomic = 1 << 8;    // atomic memory operation
constexpr std::uint16_t Feedback = 1 << 9;  // SM5.0 tiled-resource feedback variant
constexpr std::uint16_t Reserved = 1 << 10; // a reserved number: not a valid instruction
} // namespace opflag

// clang-format off
#define KILN_DXBC_OPCODES(X)                                                                                                     \
  X(Add, "add", 0, 1, 2, F, opflag::Sat, alu_map, "float add")                                                                   \
  X(And, "and", 1, 1, 2, B, 0, alu_map, "bitwise and")                                                                           \
  X(Break, "break", 2, 0, 0, N, 0, jump, "leave the innermost loop or switch")                                                   \
  X(Breakc, "breakc", 3, 0, 1, B, opflag::Test, jump, "conditional break")                                                       \
  X(Call, "call", 4, 0, 1, N, 0, subroutine_call, "call a subroutine label")                                                     \
  X(Callc, "callc", 5, 0, 2, B, opflag::Test, subroutine_call, "conditional call")                                               \
  X(Case, "case", 6, 0, 1, U, opflag::FlowOpen, switch_label, "switch case label")                                               \
  X(Continue, "continue", 7, 0, 0, N, 0, jump, "next loop iteration")                                                            \
  X(Continuec, "continuec", 8, 0, 1, B, opflag::Test, jump, "conditional continue")                                              \
  X(Cut, "cut", 9, 0, 0, N, 0, emit_cut, "gs: end strip")                                                                        \
  X(Default, "default", 10, 0, 0, N, opflag::FlowOpen, switch_label, "switch default label")                                     \
  X(DerivRtx, "deriv_rtx", 11, 1, 1, F, opflag::Sat, derivative, "screen-space x derivative")                                    \
  X(DerivRty, "deriv_rty", 12, 1, 1, F, opflag::Sat, derivative, "screen-space y derivative")                                    \
  X(Discard, "discard", 13, 0, 1, B, opflag::Test, discard, "conditional pixel kill")                                            \
  X(Div, "div", 14, 1, 2, F, opflag::Sat, alu_map, "float divide")                                                               \
  X(Dp2, "dp2", 15, 1, 2, F, opflag::Sat, dot_product, "2-component dot product")                                                \
  X(Dp3, "dp3", 16, 1, 2, F, opflag::Sat, dot_product, "3-component dot product")                                                \
  X(Dp4, "dp4", 17, 1, 2, F, opflag::Sat, dot_product, "4-component dot product")                                                \
  X(Else, "else", 18, 0, 0, N, opflag::FlowOpen | opflag::FlowClose, else_branch, "else branch")                                 \
  X(Emit, "emit", 19, 0, 0, N, 0, emit_cut, "gs: emit vertex")                                                                   \
  X(EmitThenCut, "emitThenCut", 20, 0, 0, N, 0, emit_cut, "gs: emit vertex and end strip")                                       \
  X(EndIf, "endif", 21, 0, 0, N, opflag::FlowClose, close_if, "end of if")                                                       \
  X(EndLoop, "endloop", 22, 0, 0, N, opflag::FlowClose, close_loop, "end of loop")                                               \
  X(EndSwitch, "endswitch", 23, 0, 0, N, opflag::FlowClose, close_switch, "end of switch")                                       \
  X(Eq, "eq", 24, 1, 2, F, 0, alu_compare, "float equal (mask result)")                                                          \
  X(Exp, "exp", 25, 1, 1, F, opflag::Sat, alu_map, "2^x")                                                                        \
  X(Frc, "frc", 26, 1, 1, F, opflag::Sat, alu_map, "fractional part")                                                            \
  X(Ftoi, "ftoi", 27, 1, 1, F, 0, float_to_int, "float to signed int")                                                           \
  X(Ftou, "ftou", 28, 1, 1, F, 0, float_to_int, "float to unsigned int")                                                         \
  X(Ge, "ge", 29, 1, 2, F, 0, alu_compare, "float greater or equal")                                                             \
  X(IAdd, "iadd", 30, 1, 2, I, 0, alu_map, "integer add")                                                                        \
  X(If, "if", 31, 0, 1, B, opflag::Test | opflag::FlowOpen, open_if, "conditional block")                                        \
  X(IEq, "ieq", 32, 1, 2, I, 0, alu_compare, "integer equal")                                                                    \
  X(IGe, "ige", 33, 1, 2, I, 0, alu_compare, "signed greater or equal")                                                          \
  X(ILt, "ilt", 34, 1, 2, I, 0, alu_compare, "signed less than")                                                                 \
  X(IMad, "imad", 35, 1, 3, I, 0, mad_int, "signed multiply-add")                                                                \
  X(IMax, "imax", 36, 1, 2, I, 0, alu_map, "signed maximum")                                                                     \
  X(IMin, "imin", 37, 1, 2, I, 0, alu_map, "signed minimum")                                                                     \
  X(IMul, "imul", 38, 2, 2, I, 0, mul_extended, "signed multiply (hi, lo)")                                                      \
  X(INe, "ine", 39, 1, 2, I, 0, alu_compare, "integer not equal")                                                                \
  X(INeg, "ineg", 40, 1, 1, I, 0, alu_map, "integer negate")                                                                     \
  X(IShl, "ishl", 41, 1, 2, I, 0, alu_shift, "shift left")                                                                       \
  X(IShr, "ishr", 42, 1, 2, I, 0, alu_shift, "arithmetic shift right")                                                           \
  X(Itof, "itof", 43, 1, 1, I, 0, int_to_float, "signed int to float")                                                           \
  X(Label, "label", 44, 0, 1, N, 0, label, "subroutine label")                                                                   \
  X(Ld, "ld", 45, 1, 2, I, opflag::Resource, load_texel, "texel fetch")                                                          \
  X(LdMs, "ldms", 46, 1, 3, I, opflag::Resource, load_texel, "multisample texel fetch")                                          \
  X(Log, "log", 47, 1, 1, F, opflag::Sat, alu_map, "log2")                                                                       \
  X(Loop, "loop", 48, 0, 0, N, opflag::FlowOpen, open_loop, "loop start")                                                        \
  X(Lt, "lt", 49, 1, 2, F, 0, alu_compare, "float less than")                                                                    \
  X(Mad, "mad", 50, 1, 3, F, opflag::Sat, alu_map, "float multiply-add")                                                         \
  X(Min, "min", 51, 1, 2, F, opflag::Sat, alu_map, "float minimum")                                                              \
  X(Max, "max", 52, 1, 2, F, opflag::Sat, alu_map, "float maximum")                                                              \
  X(CustomData, "customdata", 53, 0, 0, N, opflag::Custom, no_op, "comments, icb, messages")                                     \
  X(Mov, "mov", 54, 1, 1, A, opflag::Sat, mov, "move")                                                                           \
  X(Movc, "movc", 55, 1, 3, A, opflag::Sat, movc, "conditional select")                                                          \
  X(Mul, "mul", 56, 1, 2, F, opflag::Sat, alu_map, "float multiply")                                                             \
  X(Ne, "ne", 57, 1, 2, F, 0, alu_compare, "float not equal")                                                                    \
  X(Nop, "nop", 58, 0, 0, N, 0, no_op, "no operation")                                                                           \
  X(Not, "not", 59, 1, 1, B, 0, alu_map, "bitwise not")                                                                          \
  X(Or, "or", 60, 1, 2, B, 0, alu_map, "bitwise or")                                                                             \
  X(ResInfo, "resinfo", 61, 1, 2, U, opflag::Resource | opflag::Sat, resinfo, "resource dimensions")                             \
  X(Ret, "ret", 62, 0, 0, N, 0, ret, "return")                                                                                   \
  X(Retc, "retc", 63, 0, 1, B, opflag::Test, retc, "conditional return")                                                         \
  X(RoundNe, "round_ne", 64, 1, 1, F, opflag::Sat, round_float, "round to nearest even")                                         \
  X(RoundNi, "round_ni", 65, 1, 1, F, opflag::Sat, round_float, "round toward -inf")                                             \
  X(RoundPi, "round_pi", 66, 1, 1, F, opflag::Sat, round_float, "round toward +inf")                                             \
  X(RoundZ, "round_z", 67, 1, 1, F, opflag::Sat, round_float, "round toward zero")                                               \
  X(Rsq, "rsq", 68, 1, 1, F, opflag::Sat, alu_map, "reciprocal square root")                                                     \
  X(Sample, "sample", 69, 1, 3, F, opflag::Resource | opflag::Sat, sample_image, "filtered sample")                              \
  X(SampleC, "sample_c", 70, 1, 4, F, opflag::Resource | opflag::Sat, sample_image, "depth-compare sample")                      \
  X(SampleCLz, "sample_c_lz", 71, 1, 4, F, opflag::Resource | opflag::Sat, sample_image, "compare sample, lod 0")                \
  X(SampleL, "sample_l", 72, 1, 4, F, opflag::Resource | opflag::Sat, sample_image, "sample at lod")                             \
  X(SampleD, "sample_d", 73, 1, 5, F, opflag::Resource | opflag::Sat, sample_image, "sample with gradients")                     \
  X(SampleB, "sample_b", 74, 1, 4, F, opflag::Resource | opflag::Sat, sample_image, "sample with lod bias")                      \
  X(Sqrt, "sqrt", 75, 1, 1, F, opflag::Sat, alu_map, "square root")                                                              \
  X(Switch, "switch", 76, 0, 1, I, opflag::FlowOpen, open_switch, "switch on integer")                                           \
  X(SinCos, "sincos", 77, 2, 1, F, opflag::Sat, sincos, "sine and cosine")                                                       \
  X(UDiv, "udiv", 78, 2, 2, U, 0, udiv, "unsigned divide and remainder")                                                         \
  X(ULt, "ult", 79, 1, 2, U, 0, alu_compare, "unsigned less than")                                                               \
  X(UGe, "uge", 80, 1, 2, U, 0, alu_compare, "unsigned greater or equal")                                                        \
  X(UMul, "umul", 81, 2, 2, U, 0, mul_extended, "unsigned multiply (hi, lo)")                                                    \
  X(UMad, "umad", 82, 1, 3, U, 0, mad_int, "unsigned multiply-add")                                                              \
  X(UMax, "umax", 83, 1, 2, U, 0, alu_map, "unsigned maximum")                                                                   \
  X(UMin, "umin", 84, 1, 2, U, 0, alu_map, "unsigned minimum")                                                                   \
  X(UShr, "ushr", 85, 1, 2, U, 0, alu_shift, "logical shift right")                                                              \
  X(Utof, "utof", 86, 1, 1, U, 0, int_to_float, "unsigned int to float")                                                         \
  X(Xor, "xor", 87, 1, 2, B, 0, alu_map, "bitwise xor")                                                                          \
  X(DclResource, "dcl_resource", 88, 1, 0, N, opflag::Decl, dcl_resource, "typed SRV")                                           \
  X(DclConstantBuffer, "dcl_constantbuffer", 89, 1, 0, N, opflag::Decl, dcl_constant_buffer, "constant buffer")                  \
  X(DclSampler, "dcl_sampler", 90, 1, 0, N, opflag::Decl, dcl_resource, "sampler and mode")                                      \
  X(DclIndexRange, "dcl_indexrange", 91, 1, 0, N, opflag::Decl, no_op, "indexable input/output range")                           \
  X(DclGsOutputTopology, "dcl_outputtopology", 92, 0, 0, N, opflag::Decl, dcl_stage_value, "gs output topology")                 \
  X(DclGsInputPrimitive, "dcl_inputprimitive", 93, 0, 0, N, opflag::Decl, dcl_gs_input_primitive, "gs input primitive")          \
  X(DclMaxOutputVertexCount, "dcl_maxout", 94, 0, 0, N, opflag::Decl, dcl_gs_max_vertices, "gs max vertices")                    \
  X(DclInput, "dcl_input", 95, 1, 0, N, opflag::Decl, dcl_io, "input register")                                                  \
  X(DclInputSgv, "dcl_input_sgv", 96, 1, 0, N, opflag::Decl, dcl_io, "input system-generated value")                             \
  X(DclInputSiv, "dcl_input_siv", 97, 1, 0, N, opflag::Decl, dcl_io, "input system-interpreted value")                           \
  X(DclInputPs, "dcl_input_ps", 98, 1, 0, N, opflag::Decl, dcl_io, "ps input with interpolation")                                \
  X(DclInputPsSgv, "dcl_input_ps_sgv", 99, 1, 0, N, opflag::Decl, dcl_io, "ps input sgv")                                        \
  X(DclInputPsSiv, "dcl_input_ps_siv", 100, 1, 0, N, opflag::Decl, dcl_io, "ps input siv")                                       \
  X(DclOutput, "dcl_output", 101, 1, 0, N, opflag::Decl, dcl_io, "output register")                                              \
  X(DclOutputSgv, "dcl_output_sgv", 102, 1, 0, N, opflag::Decl, dcl_io, "output sgv")                                            \
  X(DclOutputSiv, "dcl_output_siv", 103, 1, 0, N, opflag::Decl, dcl_io, "output siv")                                            \
  X(DclTemps, "dcl_temps", 104, 0, 0, N, opflag::Decl, dcl_temps, "temp register count")                                         \
  X(DclIndexableTemp, "dcl_indexableTemp", 105, 0, 0, N, opflag::Decl, dcl_indexable_temp, "indexable temp array")               \
  X(DclGlobalFlags, "dcl_globalFlags", 106, 0, 0, N, opflag::Decl, dcl_global_flags, "global shader flags")                      \
  X(Reserved107, "reserved107", 107, 0, 0, N, opflag::Reserved, unsupported, "reserved (D3D10)")                                 \
  X(Lod, "lod", 108, 1, 3, F, opflag::Resource | opflag::Sat, compute_lod, "computed level of detail")                           \
  X(Gather4, "gather4", 109, 1, 3, F, opflag::Resource, sample_image, "gather four texels")                                      \
  X(SamplePos, "samplepos", 110, 1, 2, U, opflag::Resource | opflag::Sat, samplepos, "sample position")                          \
  X(SampleInfo, "sampleinfo", 111, 1, 1, U, opflag::Resource | opflag::Sat, sampleinfo, "sample count")                          \
  X(Reserved112, "reserved112", 112, 0, 0, N, opflag::Reserved, unsupported, "reserved (D3D10.1)")                               \
  X(HsDecls, "hs_decls", 113, 0, 0, N, opflag::Phase, begin_phase, "hs: declarations phase")                                     \
  X(HsControlPointPhase, "hs_control_point_phase", 114, 0, 0, N, opflag::Phase, begin_phase, "hs: control points")               \
  X(HsForkPhase, "hs_fork_phase", 115, 0, 0, N, opflag::Phase, begin_phase, "hs: fork phase")                                    \
  X(HsJoinPhase, "hs_join_phase", 116, 0, 0, N, opflag::Phase, begin_phase, "hs: join phase")                                    \
  X(EmitStream, "emit_stream", 117, 0, 1, N, 0, emit_cut, "gs: emit to stream")                                                  \
  X(CutStream, "cut_stream", 118, 0, 1, N, 0, emit_cut, "gs: cut stream")                                                        \
  X(EmitThenCutStream, "emitThenCut_stream", 119, 0, 1, N, 0, emit_cut, "gs: emit and cut stream")                               \
  X(InterfaceCall, "fcall", 120, 0, 1, N, 0, interface_call, "call through an interface (payload: function index)")              \
  X(BufInfo, "bufinfo", 121, 1, 1, U, opflag::Resource, bufinfo, "buffer element count")                                         \
  X(DerivRtxCoarse, "deriv_rtx_coarse", 122, 1, 1, F, opflag::Sat, derivative, "coarse x derivative")                            \
  X(DerivRtxFine, "deriv_rtx_fine", 123, 1, 1, F, opflag::Sat, derivative, "fine x derivative")                                  \
  X(DerivRtyCoarse, "deriv_rty_coarse", 124, 1, 1, F, opflag::Sat, derivative, "coarse y derivative")                            \
  X(DerivRtyFine, "deriv_rty_fine", 125, 1, 1, F, opflag::Sat, derivative, "fine y derivative")                                  \
  X(Gather4C, "gather4_c", 126, 1, 4, F, opflag::Resource, sample_image, "gather with compare")                                  \
  X(Gather4Po, "gather4_po", 127, 1, 4, F, opflag::Resource, sample_image, "gather with programmable offset")                    \
  X(Gather4PoC, "gather4_po_c", 128, 1, 5, F, opflag::Resource, sample_image, "gather, offset and compare")                      \
  X(Rcp, "rcp", 129, 1, 1, F, opflag::Sat, alu_map, "reciprocal")                                                                \
  X(F32ToF16, "f32tof16", 130, 1, 1, F, 0, f32tof16, "float to half bits")                                                       \
  X(F16ToF32, "f16tof32", 131, 1, 1, U, 0, f16tof32, "half bits to float")                                                       \
  X(UAddc, "uaddc", 132, 2, 2, U, 0, add_carry, "add with carry")                                                                \
  X(USubb, "usubb", 133, 2, 2, U, 0, add_carry, "subtract with borrow")                                                          \
  X(CountBits, "countbits", 134, 1, 1, B, 0, alu_map, "population count")                                                        \
  X(FirstBitHi, "firstbit_hi", 135, 1, 1, U, 0, first_bit_high, "highest set bit")                                               \
  X(FirstBitLo, "firstbit_lo", 136, 1, 1, U, 0, alu_map, "lowest set bit")                                                       \
  X(FirstBitShi, "firstbit_shi", 137, 1, 1, I, 0, first_bit_high, "highest bit differing from sign")                             \
  X(UBfe, "ubfe", 138, 1, 3, U, 0, bitfield_extract, "unsigned bitfield extract")                                                \
  X(IBfe, "ibfe", 139, 1, 3, I, 0, bitfield_extract, "signed bitfield extract")                                                  \
  X(Bfi, "bfi", 140, 1, 4, U, 0, bitfield_insert, "bitfield insert")                                                             \
  X(BfRev, "bfrev", 141, 1, 1, B, 0, alu_map, "bit reverse")                                                                     \
  X(Swapc, "swapc", 142, 2, 3, A, 0, swapc, "conditional swap")                                                                  \
  X(DclStream, "dcl_stream", 143, 1, 0, N, opflag::Decl, dcl_stream, "gs output stream")                                         \
  X(DclFunctionBody, "dcl_function_body", 144, 0, 0, N, opflag::Decl, dcl_function_body, "class linkage function body")          \
  X(DclFunctionTable, "dcl_function_table", 145, 0, 0, N, opflag::Decl, dcl_function_table, "class linkage function table")      \
  X(DclInterface, "dcl_interface", 146, 0, 0, N, opflag::Decl, dcl_interface, "class linkage interface")                         \
  X(DclInputControlPointCount, "dcl_input_control_point_count", 147, 0, 0, N, opflag::Decl, dcl_stage_value, "hs/ds")            \
  X(DclOutputControlPointCount, "dcl_output_control_point_count", 148, 0, 0, N, opflag::Decl, dcl_stage_value, "hs")             \
  X(DclTessDomain, "dcl_tessellator_domain", 149, 0, 0, N, opflag::Decl, dcl_stage_value, "tessellator domain")                  \
  X(DclTessPartitioning, "dcl_tessellator_partitioning", 150, 0, 0, N, opflag::Decl, dcl_stage_value, "partitioning")            \
  X(DclTessOutputPrimitive, "dcl_tessellator_output_primitive", 151, 0, 0, N, opflag::Decl, dcl_stage_value, "output")           \
  X(DclHsMaxTessFactor, "dcl_hs_max_tessfactor", 152, 0, 0, N, opflag::Decl, no_op, "max tess factor")                           \
  X(DclHsForkPhaseInstanceCount, "dcl_hs_fork_phase_instance_count", 153, 0, 0, N, opflag::Decl, dcl_phase_instances, "hs")      \
  X(DclHsJoinPhaseInstanceCount, "dcl_hs_join_phase_instance_count", 154, 0, 0, N, opflag::Decl, dcl_phase_instances, "hs")      \
  X(DclThreadGroup, "dcl_thread_group", 155, 0, 0, N, opflag::Decl, dcl_thread_group, "cs thread group size")                    \
  X(DclUavTyped, "dcl_uav_typed", 156, 1, 0, N, opflag::Decl, dcl_resource, "typed UAV")                                         \
  X(DclUavRaw, "dcl_uav_raw", 157, 1, 0, N, opflag::Decl, dcl_resource, "raw UAV")                                               \
  X(DclUavStructured, "dcl_uav_structured", 158, 1, 0, N, opflag::Decl, dcl_resource, "structured UAV")                          \
  X(DclTgsmRaw, "dcl_tgsm_raw", 159, 1, 0, N, opflag::Decl, dcl_resource, "raw groupshared memory")                              \
  X(DclTgsmStructured, "dcl_tgsm_structured", 160, 1, 0, N, opflag::Decl, dcl_resource, "structured groupshared")                \
  X(DclResourceRaw, "dcl_resource_raw", 161, 1, 0, N, opflag::Decl, dcl_resource, "raw SRV")                                     \
  X(DclResourceStructured, "dcl_resource_structured", 162, 1, 0, N, opflag::Decl, dcl_resource, "structured SRV")                \
  X(LdUavTyped, "ld_uav_typed", 163, 1, 2, U, opflag::Resource, load_uav_typed, "typed UAV load")                                \
  X(StoreUavTyped, "store_uav_typed", 164, 1, 2, A, 0, store_uav_typed, "typed UAV store")                                       \
  X(LdRaw, "ld_raw", 165, 1, 2, U, opflag::Resource, load_dwords, "raw buffer load")                                             \
  X(StoreRaw, "store_raw", 166, 1, 2, A, 0, store_dwords, "raw buffer store")                                                    \
  X(LdStructured, "ld_structured", 167, 1, 3, U, opflag::Resource, load_dwords, "structured buffer load")                        \
  X(StoreStructured, "store_structured", 168, 1, 3, A, 0, store_dwords, "structured buffer store")                               \
  X(AtomicAnd, "atomic_and", 169, 1, 2, B, opflag::Atomic, atomic, "atomic and")                                                 \
  X(AtomicOr, "atomic_or", 170, 1, 2, B, opflag::Atomic, atomic, "atomic or")                                                    \
  X(AtomicXor, "atomic_xor", 171, 1, 2, B, opflag::Atomic, atomic, "atomic xor")                                                 \
  X(AtomicCmpStore, "atomic_cmp_store", 172, 1, 3, B, opflag::Atomic, atomic, "atomic compare and store")                        \
  X(AtomicIAdd, "atomic_iadd", 173, 1, 2, I, opflag::Atomic, atomic, "atomic add")                                               \
  X(AtomicIMax, "atomic_imax", 174, 1, 2, I, opflag::Atomic, atomic, "atomic signed max")                                        \
  X(AtomicIMin, "atomic_imin", 175, 1, 2, I, opflag::Atomic, atomic, "atomic signed min")                                        \
  X(AtomicUMax, "atomic_umax", 176, 1, 2, U, opflag::Atomic, atomic, "atomic unsigned max")                                      \
  X(AtomicUMin, "atomic_umin", 177, 1, 2, U, opflag::Atomic, atomic, "atomic unsigned min")                                      \
  X(ImmAtomicAlloc, "imm_atomic_alloc", 178, 1, 1, U, opflag::Atomic, uav_counter, "increment UAV counter")                      \
  X(ImmAtomicConsume, "imm_atomic_consume", 179, 1, 1, U, opflag::Atomic, uav_counter, "decrement UAV counter")                  \
  X(ImmAtomicIAdd, "imm_atomic_iadd", 180, 2, 2, I, opflag::Atomic, atomic, "atomic add, old value")                             \
  X(ImmAtomicAnd, "imm_atomic_and", 181, 2, 2, B, opflag::Atomic, atomic, "atomic and, old value")                               \
  X(ImmAtomicOr, "imm_atomic_or", 182, 2, 2, B, opflag::Atomic, atomic, "atomic or, old value")                                  \
  X(ImmAtomicXor, "imm_atomic_xor", 183, 2, 2, B, opflag::Atomic, atomic, "atomic xor, old value")                               \
  X(ImmAtomicExch, "imm_atomic_exch", 184, 2, 2, B, opflag::Atomic, atomic, "atomic exchange")                                   \
  X(ImmAtomicCmpExch, "imm_atomic_cmp_exch", 185, 2, 3, B, opflag::Atomic, atomic, "atomic compare exchange")                    \
  X(ImmAtomicIMax, "imm_atomic_imax", 186, 2, 2, I, opflag::Atomic, atomic, "atomic signed max, old value")                      \
  X(ImmAtomicIMin, "imm_atomic_imin", 187, 2, 2, I, opflag::Atomic, atomic, "atomic signed min, old value")                      \
  X(ImmAtomicUMax, "imm_atomic_umax", 188, 2, 2, U, opflag::Atomic, atomic, "atomic unsigned max, old value")                    \
  X(ImmAtomicUMin, "imm_atomic_umin", 189, 2, 2, U, opflag::Atomic, atomic, "atomic unsigned min, old value")                    \
  X(Sync, "sync", 190, 0, 0, N, 0, sync, "barrier / memory fence (flags in the opcode token)")                                   \
  X(DAdd, "dadd", 191, 1, 2, D, opflag::Sat, alu_map, "double add")                                                              \
  X(DMax, "dmax", 192, 1, 2, D, opflag::Sat, alu_map, "double maximum")                                                          \
  X(DMin, "dmin", 193, 1, 2, D, opflag::Sat, alu_map, "double minimum")                                                          \
  X(DMul, "dmul", 194, 1, 2, D, opflag::Sat, alu_map, "double multiply")                                                         \
  X(DEq, "deq", 195, 1, 2, D, 0, alu_compare, "double equal")                                                                    \
  X(DGe, "dge", 196, 1, 2, D, 0, alu_compare, "double greater or equal")                                                         \
  X(DLt, "dlt", 197, 1, 2, D, 0, alu_compare, "double less than")                                                                \
  X(DNe, "dne", 198, 1, 2, D, 0, alu_compare, "double not equal")                                                                \
  X(DMov, "dmov", 199, 1, 1, D, opflag::Sat, dmov, "double move")                                                                \
  X(DMovc, "dmovc", 200, 1, 3, D, opflag::Sat, dmovc, "double conditional select")                                               \
  X(Dtof, "dtof", 201, 1, 1, D, 0, from_double, "double to float")                                                               \
  X(Ftod, "ftod", 202, 1, 1, F, 0, to_double, "float to double")                                                                 \
  X(EvalSnapped, "eval_snapped", 203, 1, 2, F, 0, evaluate, "evaluate input at offset")                                          \
  X(EvalSampleIndex, "eval_sample_index", 204, 1, 2, F, 0, evaluate, "evaluate input at sample")                                 \
  X(EvalCentroid, "eval_centroid", 205, 1, 1, F, 0, evaluate, "evaluate input at centroid")                                      \
  X(DclGsInstanceCount, "dcl_gsinstances", 206, 0, 0, N, opflag::Decl, dcl_gs_instances, "gs instance count")                    \
  X(Abort, "abort", 207, 0, 0, N, 0, no_op, "abort (debug)")                                                                     \
  X(DebugBreak, "debug_break", 208, 0, 0, N, 0, no_op, "debugger break")                                                         \
  X(Reserved209, "reserved209", 209, 0, 0, N, opflag::Reserved, unsupported, "reserved (D3D11)")                                 \
  X(DDiv, "ddiv", 210, 1, 2, D, opflag::Sat, alu_map, "double divide")                                                           \
  X(DFma, "dfma", 211, 1, 3, D, opflag::Sat, alu_map, "double fused multiply-add")                                               \
  X(DRcp, "drcp", 212, 1, 1, D, opflag::Sat, alu_map, "double reciprocal")                                                       \
  X(Msad, "msad", 213, 1, 3, U, 0, msad, "masked sum of absolute differences")                                                   \
  X(Dtoi, "dtoi", 214, 1, 1, D, 0, from_double, "double to signed int")                                                          \
  X(Dtou, "dtou", 215, 1, 1, D, 0, from_double, "double to unsigned int")                                                        \
  X(Itod, "itod", 216, 1, 1, I, 0, to_double, "signed int to double")                                                            \
  X(Utod, "utod", 217, 1, 1, U, 0, to_double, "unsigned int to double")                                                          \
  X(Reserved218, "reserved218", 218, 0, 0, N, opflag::Reserved, unsupported, "reserved (D3D11.1)")                               \
  X(Gather4S, "gather4_s", 219, 2, 3, F, opflag::Resource | opflag::Feedback, sample_image, "gather + feedback")                 \
  X(Gather4CS, "gather4_c_s", 220, 2, 4, F, opflag::Resource | opflag::Feedback, sample_image, "gather_c + feedback")            \
  X(Gather4PoS, "gather4_po_s", 221, 2, 4, F, opflag::Resource | opflag::Feedback, sample_image, "gather_po + fb")               \
  X(Gather4PoCS, "gather4_po_c_s", 222, 2, 5, F, opflag::Resource | opflag::Feedback, sample_image, "gather_po_c + fb")          \
  X(LdS, "ld_s", 223, 2, 2, I, opflag::Resource | opflag::Feedback, load_texel, "ld + feedback")                                 \
  X(LdMsS, "ldms_s", 224, 2, 3, I, opflag::Resource | opflag::Feedback, load_texel, "ld_ms + feedback")                          \
  X(LdUavTypedS, "ld_uav_typed_s", 225, 2, 2, U, opflag::Resource | opflag::Feedback, load_uav_typed, "typed UAV + fb")          \
  X(LdRawS, "ld_raw_s", 226, 2, 2, U, opflag::Resource | opflag::Feedback, load_dwords, "raw load + feedback")                   \
  X(LdStructuredS, "ld_structured_s", 227, 2, 3, U, opflag::Resource | opflag::Feedback, load_dwords, "struct + fb")             \
  X(SampleLS, "sample_l_s", 228, 2, 4, F, opflag::Resource | opflag::Feedback | opflag::Sat, sample_image, "sample_l")           \
  X(SampleCLzS, "sample_c_lz_s", 229, 2, 4, F, opflag::Resource | opflag::Feedback | opflag::Sat, sample_image, "c_lz")          \
  X(SampleClS, "sample_cl_s", 230, 2, 4, F, opflag::Resource | opflag::Feedback | opflag::Sat, sample_image, "clamp")            \
  X(SampleBClS, "sample_b_cl_s", 231, 2, 5, F, opflag::Resource | opflag::Feedback | opflag::Sat, sample_image, "b_cl")          \
  X(SampleDClS, "sample_d_cl_s", 232, 2, 6, F, opflag::Resource | opflag::Feedback | opflag::Sat, sample_image, "d_cl")          \
  X(SampleCClS, "sample_c_cl_s", 233, 2, 5, F, opflag::Resource | opflag::Feedback | opflag::Sat, sample_image, "c_cl")          \
  X(CheckAccessFullyMapped, "check_access_fully_mapped", 234, 1, 1, U, 0, check_access_mapped, "tiled-resource status test")
// clang-format on

enum class Opcode : std::uint16_t {
#define KILN_DXBC_ENUM(name, mnemonic, number, dsts, srcs, type, flags, handler, doc) name = number,
  KILN_DXBC_OPCODES(KILN_DXBC_ENUM)
#undef KILN_DXBC_ENUM
};

struct OpcodeInfo {
  std::string_view mnemonic;
  std::uint8_t dst_count;
  std::uint8_t src_count;
  ValueType type;
  bool known;
  std::uint16_t flags;
  std::string_view handler; // the handler column, as text (for completeness checks and docs)
  std::string_view doc;
};

constexpr std::uint32_t kOpcodeCount = 235;

namespace detail {
struct OpcodeTable {
  OpcodeInfo rows[kOpcodeCount + 1]{}; // the last row stands for every unknown number
  constexpr OpcodeTable() {
#define KILN_DXBC_ROW(name, mnemonic, number, dsts, srcs, type, flags, handler, doc)               \
  rows[number] = OpcodeInfo{mnemonic, dsts, srcs, ValueType::type, true, std::uint16_t(flags),     \
                            #handler, doc};
    KILN_DXBC_OPCODES(KILN_DXBC_ROW)
#undef KILN_DXBC_ROW
  }
};
inline constexpr OpcodeTable kOpcodeTable{};
} // namespace detail

namespace detail {
// Every row has its own number below kOpcodeCount (the enum alone would accept duplicates).
constexpr bool opcode_numbers_are_unique() {
  bool seen[kOpcodeCount] = {};
  std::uint32_t rows = 0;
#define KILN_DXBC_CHECK(name, mnemonic, number, dsts, srcs, type, flags, handler, doc)             \
  if (number >= kOpcodeCount || seen[number]) return false;                                        \
  seen[number] = true;                                                                             \
  ++rows;
  KILN_DXBC_OPCODES(KILN_DXBC_CHECK)
#undef KILN_DXBC_CHECK
  return rows == kOpcodeCount;
}
static_assert(opcode_numbers_are_unique(),
              "opcode table: duplicate, missing or out-of-range number");
} // namespace detail

// Table row for `number`; `known` is false for numbers outside the instruction set.
constexpr const OpcodeInfo& opcode_info(std::uint32_t number) {
  return detail::kOpcodeTable.rows[number < kOpcodeCount ? number : kOpcodeCount];
}
constexpr bool is_known_opcode(std::uint32_t number) {
  return number < kOpcodeCount && detail::kOpcodeTable.rows[number].known;
}
constexpr const OpcodeInfo& opcode_info(Opcode op) {
  return opcode_info(std::uint32_t(op));
}
constexpr bool has_flag(Opcode op, std::uint16_t flag) {
  return (opcode_info(op).flags & flag) != 0;
}

// How an instruction changes the nesting of if, loop and switch blocks: each opens one (+1),
// its end closes it (-1); else, case and default stay inside theirs (0). The converter's
// look-aheads use it to tell whether a ret or retc stands inside control flow.
constexpr int block_nesting_change(Opcode op) {
  switch (op) {
  case Opcode::If:
  case Opcode::Loop:
  case Opcode::Switch:
    return 1;
  case Opcode::EndIf:
  case Opcode::EndLoop:
  case Opcode::EndSwitch:
    return -1;
  default:
    return 0;
  }
}

// Per-op facts beside the table (an ALU row's IR op, a sample opcode's operand roles): rows of
// a struct with an `opcode` member, in opcode order, looked up by opcode. covers() checks at
// compile time that the rows are exactly the opcodes whose handler column names one of
// `handlers`, so a new opcode given such a handler cannot lack its row.
template <class Row, std::size_t N>
class OpcodeRows {
 public:
  constexpr explicit OpcodeRows(const Row (&rows)[N]) {
    for (std::size_t i = 0; i < N; ++i) {
      rows_[i] = rows[i];
      index_[std::uint32_t(rows[i].opcode)] = std::uint8_t(i + 1);
    }
  }
  // Null for an opcode without a row.
  constexpr const Row* find(Opcode op) const {
    const std::uint32_t n = std::uint32_t(op);
    return n < kOpcodeCount && index_[n] ? &rows_[index_[n] - 1] : nullptr;
  }
  // The row of an opcode the table gives one of the covered handlers.
  constexpr const Row& operator[](Opcode op) const { return *find(op); }
  constexpr bool covers(std::initializer_list<std::string_view> handlers) const {
    std::size_t next = 0;
    for (std::uint32_t n = 0; n < kOpcodeCount; ++n) {
      bool mine = false;
      for (std::string_view h : handlers) mine = mine || opcode_info(n).handler == h;
      if (!mine) continue;
      if (next == N || std::uint32_t(rows_[next].opcode) != n) return false;
      ++next;
    }
    return next == N && N < 255;
  }

 private:
  Row rows_[N]{};
  std::uint8_t index_[kOpcodeCount]{}; // 1 + row, 0 = none
};

// The resource declarations, defined once: the register class each declares and how its
// data is laid out. The converter (dcl_resource) and the bytecode's reflection (scan.cpp) read
// them from here; the reader and the disassembler decode each one's payload.
// Cbv: dcl_constantbuffer's class, never a row here.
enum class ResourceClass : std::uint8_t { Srv, Uav, Sampler, Tgsm, Cbv };
enum class ResourceLayout : std::uint8_t { Typed, Raw, Structured, Sampler };
struct ResourceDeclaration {
  Opcode opcode = Opcode::DclResource;
  ResourceClass register_class = ResourceClass::Srv;
  ResourceLayout layout = ResourceLayout::Typed;
};
namespace detail {
inline constexpr ResourceDeclaration kResourceDeclarationRows[] = {
    {Opcode::DclResource, ResourceClass::Srv, ResourceLayout::Typed},
    {Opcode::DclSampler, ResourceClass::Sampler, ResourceLayout::Sampler},
    {Opcode::DclUavTyped, ResourceClass::Uav, ResourceLayout::Typed},
    {Opcode::DclUavRaw, ResourceClass::Uav, ResourceLayout::Raw},
    {Opcode::DclUavStructured, ResourceClass::Uav, ResourceLayout::Structured},
    {Opcode::DclTgsmRaw, ResourceClass::Tgsm, ResourceLayout::Raw},
    {Opcode::DclTgsmStructured, ResourceClass::Tgsm, ResourceLayout::Structured},
    {Opcode::DclResourceRaw, ResourceClass::Srv, ResourceLayout::Raw},
    {Opcode::DclResourceStructured, ResourceClass::Srv, ResourceLayout::Structured},
};
} // namespace detail
inline constexpr OpcodeRows kResourceDeclarations(detail::kResourceDeclarationRows);
static_assert(kResourceDeclarations.covers({"dcl_resource"}),
              "resource declarations: one row per opcode whose handler is dcl_resource");

// The row of a resource declaration; null for every other opcode.
constexpr const ResourceDeclaration* resource_declaration(Opcode op) {
  return kResourceDeclarations.find(op);
}

} // namespace kiln::dxbc
