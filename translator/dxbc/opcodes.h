#pragma once
// The SM4.0-5.1 instruction set (DXBC tokenized program), defined once.
//
// Columns: X(Name, mnemonic, opcode number, dst count, src count, value type, flags, doc)
//   dst/src count: operand tokens the instruction carries (declarations: the operands they
//     declare). The reader checks decoded operand counts against these.
//   value type: how the instruction reads its sources (F float, I signed int, U unsigned int,
//     B bits, D double, A any/typeless, N none). The disassembler prints immediates by it; the
//     IR converter uses it to pick value types.
//   flags: OpFlag bits below.

#include <cstdint>
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
#define KILN_DXBC_OPCODES(X)                                                                             \
  X(Add, "add", 0, 1, 2, F, opflag::Sat, "float add")                                                     \
  X(And, "and", 1, 1, 2, B, 0, "bitwise and")                                                             \
  X(Break, "break", 2, 0, 0, N, 0, "leave the innermost loop or switch")                                  \
  X(Breakc, "breakc", 3, 0, 1, B, opflag::Test, "conditional break")                                      \
  X(Call, "call", 4, 0, 1, N, 0, "call a subroutine label")                                               \
  X(Callc, "callc", 5, 0, 2, B, opflag::Test, "conditional call")                                         \
  X(Case, "case", 6, 0, 1, U, opflag::FlowOpen, "switch case label")                                      \
  X(Continue, "continue", 7, 0, 0, N, 0, "next loop iteration")                                           \
  X(Continuec, "continuec", 8, 0, 1, B, opflag::Test, "conditional continue")                             \
  X(Cut, "cut", 9, 0, 0, N, 0, "gs: end strip")                                                           \
  X(Default, "default", 10, 0, 0, N, opflag::FlowOpen, "switch default label")                            \
  X(DerivRtx, "deriv_rtx", 11, 1, 1, F, opflag::Sat, "screen-space x derivative")                         \
  X(DerivRty, "deriv_rty", 12, 1, 1, F, opflag::Sat, "screen-space y derivative")                         \
  X(Discard, "discard", 13, 0, 1, B, opflag::Test, "conditional pixel kill")                              \
  X(Div, "div", 14, 1, 2, F, opflag::Sat, "float divide")                                                 \
  X(Dp2, "dp2", 15, 1, 2, F, opflag::Sat, "2-component dot product")                                      \
  X(Dp3, "dp3", 16, 1, 2, F, opflag::Sat, "3-component dot product")                                      \
  X(Dp4, "dp4", 17, 1, 2, F, opflag::Sat, "4-component dot product")                                      \
  X(Else, "else", 18, 0, 0, N, opflag::FlowOpen | opflag::FlowClose, "else branch")                       \
  X(Emit, "emit", 19, 0, 0, N, 0, "gs: emit vertex")                                                      \
  X(EmitThenCut, "emitThenCut", 20, 0, 0, N, 0, "gs: emit vertex and end strip")                          \
  X(EndIf, "endif", 21, 0, 0, N, opflag::FlowClose, "end of if")                                          \
  X(EndLoop, "endloop", 22, 0, 0, N, opflag::FlowClose, "end of loop")                                    \
  X(EndSwitch, "endswitch", 23, 0, 0, N, opflag::FlowClose, "end of switch")                              \
  X(Eq, "eq", 24, 1, 2, F, 0, "float equal (mask result)")                                                \
  X(Exp, "exp", 25, 1, 1, F, opflag::Sat, "2^x")                                                          \
  X(Frc, "frc", 26, 1, 1, F, opflag::Sat, "fractional part")                                              \
  X(Ftoi, "ftoi", 27, 1, 1, F, 0, "float to signed int")                                                  \
  X(Ftou, "ftou", 28, 1, 1, F, 0, "float to unsigned int")                                                \
  X(Ge, "ge", 29, 1, 2, F, 0, "float greater or equal")                                                   \
  X(IAdd, "iadd", 30, 1, 2, I, 0, "integer add")                                                          \
  X(If, "if", 31, 0, 1, B, opflag::Test | opflag::FlowOpen, "conditional block")                          \
  X(IEq, "ieq", 32, 1, 2, I, 0, "integer equal")                                                          \
  X(IGe, "ige", 33, 1, 2, I, 0, "signed greater or equal")                                                \
  X(ILt, "ilt", 34, 1, 2, I, 0, "signed less than")                                                       \
  X(IMad, "imad", 35, 1, 3, I, 0, "signed multiply-add")                                                  \
  X(IMax, "imax", 36, 1, 2, I, 0, "signed maximum")                                                       \
  X(IMin, "imin", 37, 1, 2, I, 0, "signed minimum")                                                       \
  X(IMul, "imul", 38, 2, 2, I, 0, "signed multiply (hi, lo)")                                             \
  X(INe, "ine", 39, 1, 2, I, 0, "integer not equal")                                                      \
  X(INeg, "ineg", 40, 1, 1, I, 0, "integer negate")                                                       \
  X(IShl, "ishl", 41, 1, 2, I, 0, "shift left")                                                           \
  X(IShr, "ishr", 42, 1, 2, I, 0, "arithmetic shift right")                                               \
  X(Itof, "itof", 43, 1, 1, I, 0, "signed int to float")                                                  \
  X(Label, "label", 44, 0, 1, N, 0, "subroutine label")                                                   \
  X(Ld, "ld", 45, 1, 2, I, opflag::Resource, "texel fetch")                                               \
  X(LdMs, "ldms", 46, 1, 3, I, opflag::Resource, "multisample texel fetch")                              \
  X(Log, "log", 47, 1, 1, F, opflag::Sat, "log2")                                                         \
  X(Loop, "loop", 48, 0, 0, N, opflag::FlowOpen, "loop start")                                            \
  X(Lt, "lt", 49, 1, 2, F, 0, "float less than")                                                          \
  X(Mad, "mad", 50, 1, 3, F, opflag::Sat, "float multiply-add")                                           \
  X(Min, "min", 51, 1, 2, F, opflag::Sat, "float minimum")                                                \
  X(Max, "max", 52, 1, 2, F, opflag::Sat, "float maximum")                                                \
  X(CustomData, "customdata", 53, 0, 0, N, opflag::Custom, "comments, icb, messages")                     \
  X(Mov, "mov", 54, 1, 1, A, opflag::Sat, "move")                                                         \
  X(Movc, "movc", 55, 1, 3, A, opflag::Sat, "conditional select")                                         \
  X(Mul, "mul", 56, 1, 2, F, opflag::Sat, "float multiply")                                               \
  X(Ne, "ne", 57, 1, 2, F, 0, "float not equal")                                                          \
  X(Nop, "nop", 58, 0, 0, N, 0, "no operation")                                                           \
  X(Not, "not", 59, 1, 1, B, 0, "bitwise not")                                                            \
  X(Or, "or", 60, 1, 2, B, 0, "bitwise or")                                                               \
  X(ResInfo, "resinfo", 61, 1, 2, U, opflag::Resource | opflag::Sat, "resource dimensions")               \
  X(Ret, "ret", 62, 0, 0, N, 0, "return")                                                                 \
  X(Retc, "retc", 63, 0, 1, B, opflag::Test, "conditional return")                                        \
  X(RoundNe, "round_ne", 64, 1, 1, F, opflag::Sat, "round to nearest even")                               \
  X(RoundNi, "round_ni", 65, 1, 1, F, opflag::Sat, "round toward -inf")                                   \
  X(RoundPi, "round_pi", 66, 1, 1, F, opflag::Sat, "round toward +inf")                                   \
  X(RoundZ, "round_z", 67, 1, 1, F, opflag::Sat, "round toward zero")                                     \
  X(Rsq, "rsq", 68, 1, 1, F, opflag::Sat, "reciprocal square root")                                       \
  X(Sample, "sample", 69, 1, 3, F, opflag::Resource | opflag::Sat, "filtered sample")                     \
  X(SampleC, "sample_c", 70, 1, 4, F, opflag::Resource | opflag::Sat, "depth-compare sample")             \
  X(SampleCLz, "sample_c_lz", 71, 1, 4, F, opflag::Resource | opflag::Sat, "compare sample, lod 0")       \
  X(SampleL, "sample_l", 72, 1, 4, F, opflag::Resource | opflag::Sat, "sample at lod")                    \
  X(SampleD, "sample_d", 73, 1, 5, F, opflag::Resource | opflag::Sat, "sample with gradients")            \
  X(SampleB, "sample_b", 74, 1, 4, F, opflag::Resource | opflag::Sat, "sample with lod bias")             \
  X(Sqrt, "sqrt", 75, 1, 1, F, opflag::Sat, "square root")                                                \
  X(Switch, "switch", 76, 0, 1, I, opflag::FlowOpen, "switch on integer")                                 \
  X(SinCos, "sincos", 77, 2, 1, F, opflag::Sat, "sine and cosine")                                        \
  X(UDiv, "udiv", 78, 2, 2, U, 0, "unsigned divide and remainder")                                        \
  X(ULt, "ult", 79, 1, 2, U, 0, "unsigned less than")                                                     \
  X(UGe, "uge", 80, 1, 2, U, 0, "unsigned greater or equal")                                              \
  X(UMul, "umul", 81, 2, 2, U, 0, "unsigned multiply (hi, lo)")                                           \
  X(UMad, "umad", 82, 1, 3, U, 0, "unsigned multiply-add")                                                \
  X(UMax, "umax", 83, 1, 2, U, 0, "unsigned maximum")                                                     \
  X(UMin, "umin", 84, 1, 2, U, 0, "unsigned minimum")                                                     \
  X(UShr, "ushr", 85, 1, 2, U, 0, "logical shift right")                                                  \
  X(Utof, "utof", 86, 1, 1, U, 0, "unsigned int to float")                                                \
  X(Xor, "xor", 87, 1, 2, B, 0, "bitwise xor")                                                            \
  X(DclResource, "dcl_resource", 88, 1, 0, N, opflag::Decl, "typed SRV")                                  \
  X(DclConstantBuffer, "dcl_constantbuffer", 89, 1, 0, N, opflag::Decl, "constant buffer")                \
  X(DclSampler, "dcl_sampler", 90, 1, 0, N, opflag::Decl, "sampler and mode")                             \
  X(DclIndexRange, "dcl_indexrange", 91, 1, 0, N, opflag::Decl, "indexable input/output range")           \
  X(DclGsOutputTopology, "dcl_outputtopology", 92, 0, 0, N, opflag::Decl, "gs output topology")           \
  X(DclGsInputPrimitive, "dcl_inputprimitive", 93, 0, 0, N, opflag::Decl, "gs input primitive")           \
  X(DclMaxOutputVertexCount, "dcl_maxout", 94, 0, 0, N, opflag::Decl, "gs max vertices")                  \
  X(DclInput, "dcl_input", 95, 1, 0, N, opflag::Decl, "input register")                                   \
  X(DclInputSgv, "dcl_input_sgv", 96, 1, 0, N, opflag::Decl, "input system-generated value")             \
  X(DclInputSiv, "dcl_input_siv", 97, 1, 0, N, opflag::Decl, "input system-interpreted value")            \
  X(DclInputPs, "dcl_input_ps", 98, 1, 0, N, opflag::Decl, "ps input with interpolation")                 \
  X(DclInputPsSgv, "dcl_input_ps_sgv", 99, 1, 0, N, opflag::Decl, "ps input sgv")                         \
  X(DclInputPsSiv, "dcl_input_ps_siv", 100, 1, 0, N, opflag::Decl, "ps input siv")                        \
  X(DclOutput, "dcl_output", 101, 1, 0, N, opflag::Decl, "output register")                               \
  X(DclOutputSgv, "dcl_output_sgv", 102, 1, 0, N, opflag::Decl, "output sgv")                             \
  X(DclOutputSiv, "dcl_output_siv", 103, 1, 0, N, opflag::Decl, "output siv")                             \
  X(DclTemps, "dcl_temps", 104, 0, 0, N, opflag::Decl, "temp register count")                             \
  X(DclIndexableTemp, "dcl_indexableTemp", 105, 0, 0, N, opflag::Decl, "indexable temp array")           \
  X(DclGlobalFlags, "dcl_globalFlags", 106, 0, 0, N, opflag::Decl, "global shader flags")                 \
  X(Reserved107, "reserved107", 107, 0, 0, N, opflag::Reserved, "reserved (D3D10)")                                      \
  X(Lod, "lod", 108, 1, 3, F, opflag::Resource | opflag::Sat, "computed level of detail")                 \
  X(Gather4, "gather4", 109, 1, 3, F, opflag::Resource, "gather four texels")                             \
  X(SamplePos, "samplepos", 110, 1, 2, U, opflag::Resource | opflag::Sat, "sample position")              \
  X(SampleInfo, "sampleinfo", 111, 1, 1, U, opflag::Resource | opflag::Sat, "sample count")               \
  X(Reserved112, "reserved112", 112, 0, 0, N, opflag::Reserved, "reserved (D3D10.1)")                                    \
  X(HsDecls, "hs_decls", 113, 0, 0, N, opflag::Phase, "hs: declarations phase")                           \
  X(HsControlPointPhase, "hs_control_point_phase", 114, 0, 0, N, opflag::Phase, "hs: control points")     \
  X(HsForkPhase, "hs_fork_phase", 115, 0, 0, N, opflag::Phase, "hs: fork phase")                          \
  X(HsJoinPhase, "hs_join_phase", 116, 0, 0, N, opflag::Phase, "hs: join phase")                          \
  X(EmitStream, "emit_stream", 117, 0, 1, N, 0, "gs: emit to stream")                                     \
  X(CutStream, "cut_stream", 118, 0, 1, N, 0, "gs: cut stream")                                           \
  X(EmitThenCutStream, "emitThenCut_stream", 119, 0, 1, N, 0, "gs: emit and cut stream")                  \
  X(InterfaceCall, "fcall", 120, 0, 1, N, 0, "call through an interface (payload: function index)")      \
  X(BufInfo, "bufinfo", 121, 1, 1, U, opflag::Resource, "buffer element count")                          \
  X(DerivRtxCoarse, "deriv_rtx_coarse", 122, 1, 1, F, opflag::Sat, "coarse x derivative")                 \
  X(DerivRtxFine, "deriv_rtx_fine", 123, 1, 1, F, opflag::Sat, "fine x derivative")                       \
  X(DerivRtyCoarse, "deriv_rty_coarse", 124, 1, 1, F, opflag::Sat, "coarse y derivative")                 \
  X(DerivRtyFine, "deriv_rty_fine", 125, 1, 1, F, opflag::Sat, "fine y derivative")                       \
  X(Gather4C, "gather4_c", 126, 1, 4, F, opflag::Resource, "gather with compare")                         \
  X(Gather4Po, "gather4_po", 127, 1, 4, F, opflag::Resource, "gather with programmable offset")           \
  X(Gather4PoC, "gather4_po_c", 128, 1, 5, F, opflag::Resource, "gather, offset and compare")             \
  X(Rcp, "rcp", 129, 1, 1, F, opflag::Sat, "reciprocal")                                                  \
  X(F32ToF16, "f32tof16", 130, 1, 1, F, 0, "float to half bits")                                          \
  X(F16ToF32, "f16tof32", 131, 1, 1, U, 0, "half bits to float")                                          \
  X(UAddc, "uaddc", 132, 2, 2, U, 0, "add with carry")                                                    \
  X(USubb, "usubb", 133, 2, 2, U, 0, "subtract with borrow")                                              \
  X(CountBits, "countbits", 134, 1, 1, B, 0, "population count")                                          \
  X(FirstBitHi, "firstbit_hi", 135, 1, 1, U, 0, "highest set bit")                                        \
  X(FirstBitLo, "firstbit_lo", 136, 1, 1, U, 0, "lowest set bit")                                         \
  X(FirstBitShi, "firstbit_shi", 137, 1, 1, I, 0, "highest bit differing from sign")                      \
  X(UBfe, "ubfe", 138, 1, 3, U, 0, "unsigned bitfield extract")                                           \
  X(IBfe, "ibfe", 139, 1, 3, I, 0, "signed bitfield extract")                                             \
  X(Bfi, "bfi", 140, 1, 4, U, 0, "bitfield insert")                                                       \
  X(BfRev, "bfrev", 141, 1, 1, B, 0, "bit reverse")                                                       \
  X(Swapc, "swapc", 142, 2, 3, A, 0, "conditional swap")                                                  \
  X(DclStream, "dcl_stream", 143, 1, 0, N, opflag::Decl, "gs output stream")                              \
  X(DclFunctionBody, "dcl_function_body", 144, 0, 0, N, opflag::Decl, "class linkage function body")     \
  X(DclFunctionTable, "dcl_function_table", 145, 0, 0, N, opflag::Decl, "class linkage function table")  \
  X(DclInterface, "dcl_interface", 146, 0, 0, N, opflag::Decl, "class linkage interface")                \
  X(DclInputControlPointCount, "dcl_input_control_point_count", 147, 0, 0, N, opflag::Decl, "hs/ds")     \
  X(DclOutputControlPointCount, "dcl_output_control_point_count", 148, 0, 0, N, opflag::Decl, "hs")      \
  X(DclTessDomain, "dcl_tessellator_domain", 149, 0, 0, N, opflag::Decl, "tessellator domain")           \
  X(DclTessPartitioning, "dcl_tessellator_partitioning", 150, 0, 0, N, opflag::Decl, "partitioning")     \
  X(DclTessOutputPrimitive, "dcl_tessellator_output_primitive", 151, 0, 0, N, opflag::Decl, "output")    \
  X(DclHsMaxTessFactor, "dcl_hs_max_tessfactor", 152, 0, 0, N, opflag::Decl, "max tess factor")          \
  X(DclHsForkPhaseInstanceCount, "dcl_hs_fork_phase_instance_count", 153, 0, 0, N, opflag::Decl, "hs")   \
  X(DclHsJoinPhaseInstanceCount, "dcl_hs_join_phase_instance_count", 154, 0, 0, N, opflag::Decl, "hs")   \
  X(DclThreadGroup, "dcl_thread_group", 155, 0, 0, N, opflag::Decl, "cs thread group size")              \
  X(DclUavTyped, "dcl_uav_typed", 156, 1, 0, N, opflag::Decl, "typed UAV")                               \
  X(DclUavRaw, "dcl_uav_raw", 157, 1, 0, N, opflag::Decl, "raw UAV")                                     \
  X(DclUavStructured, "dcl_uav_structured", 158, 1, 0, N, opflag::Decl, "structured UAV")                \
  X(DclTgsmRaw, "dcl_tgsm_raw", 159, 1, 0, N, opflag::Decl, "raw groupshared memory")                    \
  X(DclTgsmStructured, "dcl_tgsm_structured", 160, 1, 0, N, opflag::Decl, "structured groupshared")      \
  X(DclResourceRaw, "dcl_resource_raw", 161, 1, 0, N, opflag::Decl, "raw SRV")                           \
  X(DclResourceStructured, "dcl_resource_structured", 162, 1, 0, N, opflag::Decl, "structured SRV")      \
  X(LdUavTyped, "ld_uav_typed", 163, 1, 2, U, opflag::Resource, "typed UAV load")                         \
  X(StoreUavTyped, "store_uav_typed", 164, 1, 2, A, 0, "typed UAV store")                                 \
  X(LdRaw, "ld_raw", 165, 1, 2, U, opflag::Resource, "raw buffer load")                                   \
  X(StoreRaw, "store_raw", 166, 1, 2, A, 0, "raw buffer store")                                           \
  X(LdStructured, "ld_structured", 167, 1, 3, U, opflag::Resource, "structured buffer load")              \
  X(StoreStructured, "store_structured", 168, 1, 3, A, 0, "structured buffer store")                      \
  X(AtomicAnd, "atomic_and", 169, 1, 2, B, opflag::Atomic, "atomic and")                                  \
  X(AtomicOr, "atomic_or", 170, 1, 2, B, opflag::Atomic, "atomic or")                                     \
  X(AtomicXor, "atomic_xor", 171, 1, 2, B, opflag::Atomic, "atomic xor")                                  \
  X(AtomicCmpStore, "atomic_cmp_store", 172, 1, 3, B, opflag::Atomic, "atomic compare and store")         \
  X(AtomicIAdd, "atomic_iadd", 173, 1, 2, I, opflag::Atomic, "atomic add")                                \
  X(AtomicIMax, "atomic_imax", 174, 1, 2, I, opflag::Atomic, "atomic signed max")                         \
  X(AtomicIMin, "atomic_imin", 175, 1, 2, I, opflag::Atomic, "atomic signed min")                         \
  X(AtomicUMax, "atomic_umax", 176, 1, 2, U, opflag::Atomic, "atomic unsigned max")                       \
  X(AtomicUMin, "atomic_umin", 177, 1, 2, U, opflag::Atomic, "atomic unsigned min")                       \
  X(ImmAtomicAlloc, "imm_atomic_alloc", 178, 1, 1, U, opflag::Atomic, "increment UAV counter")            \
  X(ImmAtomicConsume, "imm_atomic_consume", 179, 1, 1, U, opflag::Atomic, "decrement UAV counter")        \
  X(ImmAtomicIAdd, "imm_atomic_iadd", 180, 2, 2, I, opflag::Atomic, "atomic add, old value")              \
  X(ImmAtomicAnd, "imm_atomic_and", 181, 2, 2, B, opflag::Atomic, "atomic and, old value")                \
  X(ImmAtomicOr, "imm_atomic_or", 182, 2, 2, B, opflag::Atomic, "atomic or, old value")                   \
  X(ImmAtomicXor, "imm_atomic_xor", 183, 2, 2, B, opflag::Atomic, "atomic xor, old value")                \
  X(ImmAtomicExch, "imm_atomic_exch", 184, 2, 2, B, opflag::Atomic, "atomic exchange")                    \
  X(ImmAtomicCmpExch, "imm_atomic_cmp_exch", 185, 2, 3, B, opflag::Atomic, "atomic compare exchange")     \
  X(ImmAtomicIMax, "imm_atomic_imax", 186, 2, 2, I, opflag::Atomic, "atomic signed max, old value")       \
  X(ImmAtomicIMin, "imm_atomic_imin", 187, 2, 2, I, opflag::Atomic, "atomic signed min, old value")       \
  X(ImmAtomicUMax, "imm_atomic_umax", 188, 2, 2, U, opflag::Atomic, "atomic unsigned max, old value")     \
  X(ImmAtomicUMin, "imm_atomic_umin", 189, 2, 2, U, opflag::Atomic, "atomic unsigned min, old value")     \
  X(Sync, "sync", 190, 0, 0, N, 0, "barrier / memory fence (flags in the opcode token)")                  \
  X(DAdd, "dadd", 191, 1, 2, D, opflag::Sat, "double add")                                                \
  X(DMax, "dmax", 192, 1, 2, D, opflag::Sat, "double maximum")                                            \
  X(DMin, "dmin", 193, 1, 2, D, opflag::Sat, "double minimum")                                            \
  X(DMul, "dmul", 194, 1, 2, D, opflag::Sat, "double multiply")                                           \
  X(DEq, "deq", 195, 1, 2, D, 0, "double equal")                                                          \
  X(DGe, "dge", 196, 1, 2, D, 0, "double greater or equal")                                               \
  X(DLt, "dlt", 197, 1, 2, D, 0, "double less than")                                                      \
  X(DNe, "dne", 198, 1, 2, D, 0, "double not equal")                                                      \
  X(DMov, "dmov", 199, 1, 1, D, opflag::Sat, "double move")                                               \
  X(DMovc, "dmovc", 200, 1, 3, D, opflag::Sat, "double conditional select")                               \
  X(Dtof, "dtof", 201, 1, 1, D, 0, "double to float")                                                     \
  X(Ftod, "ftod", 202, 1, 1, F, 0, "float to double")                                                     \
  X(EvalSnapped, "eval_snapped", 203, 1, 2, F, 0, "evaluate input at offset")                             \
  X(EvalSampleIndex, "eval_sample_index", 204, 1, 2, F, 0, "evaluate input at sample")                    \
  X(EvalCentroid, "eval_centroid", 205, 1, 1, F, 0, "evaluate input at centroid")                         \
  X(DclGsInstanceCount, "dcl_gsinstances", 206, 0, 0, N, opflag::Decl, "gs instance count")              \
  X(Abort, "abort", 207, 0, 0, N, 0, "abort (debug)")                                                     \
  X(DebugBreak, "debug_break", 208, 0, 0, N, 0, "debugger break")                                         \
  X(Reserved209, "reserved209", 209, 0, 0, N, opflag::Reserved, "reserved (D3D11)")                                      \
  X(DDiv, "ddiv", 210, 1, 2, D, opflag::Sat, "double divide")                                             \
  X(DFma, "dfma", 211, 1, 3, D, opflag::Sat, "double fused multiply-add")                                 \
  X(DRcp, "drcp", 212, 1, 1, D, opflag::Sat, "double reciprocal")                                         \
  X(Msad, "msad", 213, 1, 3, U, 0, "masked sum of absolute differences")                                  \
  X(Dtoi, "dtoi", 214, 1, 1, D, 0, "double to signed int")                                                \
  X(Dtou, "dtou", 215, 1, 1, D, 0, "double to unsigned int")                                              \
  X(Itod, "itod", 216, 1, 1, I, 0, "signed int to double")                                                \
  X(Utod, "utod", 217, 1, 1, U, 0, "unsigned int to double")                                              \
  X(Reserved218, "reserved218", 218, 0, 0, N, opflag::Reserved, "reserved (D3D11.1)")                                    \
  X(Gather4S, "gather4_s", 219, 2, 3, F, opflag::Resource | opflag::Feedback, "gather + feedback")        \
  X(Gather4CS, "gather4_c_s", 220, 2, 4, F, opflag::Resource | opflag::Feedback, "gather_c + feedback")   \
  X(Gather4PoS, "gather4_po_s", 221, 2, 4, F, opflag::Resource | opflag::Feedback, "gather_po + fb")      \
  X(Gather4PoCS, "gather4_po_c_s", 222, 2, 5, F, opflag::Resource | opflag::Feedback, "gather_po_c + fb") \
  X(LdS, "ld_s", 223, 2, 2, I, opflag::Resource | opflag::Feedback, "ld + feedback")                      \
  X(LdMsS, "ldms_s", 224, 2, 3, I, opflag::Resource | opflag::Feedback, "ld_ms + feedback")              \
  X(LdUavTypedS, "ld_uav_typed_s", 225, 2, 2, U, opflag::Resource | opflag::Feedback, "typed UAV + fb")   \
  X(LdRawS, "ld_raw_s", 226, 2, 2, U, opflag::Resource | opflag::Feedback, "raw load + feedback")         \
  X(LdStructuredS, "ld_structured_s", 227, 2, 3, U, opflag::Resource | opflag::Feedback, "struct + fb")   \
  X(SampleLS, "sample_l_s", 228, 2, 4, F, opflag::Resource | opflag::Feedback | opflag::Sat, "sample_l")   \
  X(SampleCLzS, "sample_c_lz_s", 229, 2, 4, F, opflag::Resource | opflag::Feedback | opflag::Sat, "c_lz")  \
  X(SampleClS, "sample_cl_s", 230, 2, 4, F, opflag::Resource | opflag::Feedback | opflag::Sat, "clamp")    \
  X(SampleBClS, "sample_b_cl_s", 231, 2, 5, F, opflag::Resource | opflag::Feedback | opflag::Sat, "b_cl")  \
  X(SampleDClS, "sample_d_cl_s", 232, 2, 6, F, opflag::Resource | opflag::Feedback | opflag::Sat, "d_cl")  \
  X(SampleCClS, "sample_c_cl_s", 233, 2, 5, F, opflag::Resource | opflag::Feedback | opflag::Sat, "c_cl")  \
  X(CheckAccessFullyMapped, "check_access_fully_mapped", 234, 1, 1, U, 0, "tiled-resource status test")
// clang-format on

enum class Opcode : std::uint16_t {
#define KILN_DXBC_ENUM(name, mnemonic, number, dsts, srcs, type, flags, doc) name = number,
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
  std::string_view doc;
};

constexpr std::uint32_t kOpcodeCount = 235;

namespace detail {
struct OpcodeTable {
  OpcodeInfo rows[kOpcodeCount + 1]{}; // the last row stands for every unknown number
  constexpr OpcodeTable() {
#define KILN_DXBC_ROW(name, mnemonic, number, dsts, srcs, type, flags, doc)                        \
  rows[number] = OpcodeInfo{mnemonic, dsts, srcs, ValueType::type, true, std::uint16_t(flags), doc};
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
#define KILN_DXBC_CHECK(name, mnemonic, number, dsts, srcs, type, flags, doc)                      \
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

} // namespace kiln::dxbc
