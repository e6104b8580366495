#pragma once
// Internal to the DXBC -> IR converter: every handler the opcode table (opcodes.h, the handler
// column) names. dispatch (convert_dispatch.cpp) is one switch generated from that column:
// `case Opcode::Name: return handler(ctx, inst);`. Every handler is a function declared here
// (the file that defines it is named with each group); those of the walk (control flow,
// hull-shader phases, subroutine and fcall inlining) keep their state in ConvertContext's
// WalkState part (convert_state.h).
// Every handler is `bool name(ConvertContext&, const Instruction&)`: it converts the instruction
// or declaration and answers true, or reports bad input with `return ctx.fail(inst, what)`
// (false); there is no "not mine" answer. Operand helpers report and go on with null values, so
// the driver also checks the context's sink after each instruction.
// A handler serving a family of opcodes (all sample_* and gather4*) switches on the opcode only
// to pick details, usually from a table keyed by opcode (OpcodeRows, opcodes.h) whose
// completeness against the handler column is checked at compile time.

#include "translator/dxbc/convert_context.h"

namespace kiln::dxbc {

// convert_dispatch.cpp
bool unsupported(ConvertContext& ctx, const Instruction& inst); // reserved numbers
bool no_op(ConvertContext& ctx, const Instruction& inst); // nop, customdata, dcl_indexrange...

// convert_flow.cpp: scoped control flow and geometry shader output
bool open_if(ConvertContext& ctx, const Instruction& inst);
bool else_branch(ConvertContext& ctx, const Instruction& inst);
bool close_if(ConvertContext& ctx, const Instruction& inst);
bool open_loop(ConvertContext& ctx, const Instruction& inst);
bool close_loop(ConvertContext& ctx, const Instruction& inst);
bool open_switch(ConvertContext& ctx, const Instruction& inst);
// case, default
bool switch_label(ConvertContext& ctx, const Instruction& inst);
bool close_switch(ConvertContext& ctx, const Instruction& inst);
// break(c), continue(c)
bool jump(ConvertContext& ctx, const Instruction& inst);
bool ret(ConvertContext& ctx, const Instruction& inst);
bool retc(ConvertContext& ctx, const Instruction& inst);
bool discard(ConvertContext& ctx, const Instruction& inst);
bool emit_cut(ConvertContext& ctx, const Instruction& inst);

// convert_calls.cpp: subroutines and class-linkage function bodies, inlined where called
bool label(ConvertContext& ctx, const Instruction& inst);
// call, callc; fcall
bool subroutine_call(ConvertContext& ctx, const Instruction& inst);
bool interface_call(ConvertContext& ctx, const Instruction& inst);

// converter.cpp: hull-shader phases
bool begin_phase(ConvertContext& ctx, const Instruction& inst);
bool dcl_phase_instances(ConvertContext& ctx, const Instruction& inst);

// convert_declarations.cpp: registers and stage modes
bool dcl_temps(ConvertContext& ctx, const Instruction& inst);
bool dcl_indexable_temp(ConvertContext& ctx, const Instruction& inst);
bool dcl_constant_buffer(ConvertContext& ctx, const Instruction& inst);
bool dcl_global_flags(ConvertContext& ctx, const Instruction& inst);
bool dcl_gs_input_primitive(ConvertContext& ctx, const Instruction& inst);
bool dcl_gs_max_vertices(ConvertContext& ctx, const Instruction& inst);
// dcl_outputtopology, the control point counts and the tessellator's declarations: the value
// kept for finish_declarations (kStageValueRows, convert_declarations.cpp)
bool dcl_stage_value(ConvertContext& ctx, const Instruction& inst);
bool dcl_gs_instances(ConvertContext& ctx, const Instruction& inst);
bool dcl_stream(ConvertContext& ctx, const Instruction& inst);
bool dcl_thread_group(ConvertContext& ctx, const Instruction& inst);

// convert_linkage.cpp: D3D11 class linkage declarations
bool dcl_function_body(ConvertContext& ctx, const Instruction& inst);
bool dcl_function_table(ConvertContext& ctx, const Instruction& inst);
bool dcl_interface(ConvertContext& ctx, const Instruction& inst);

// convert_io_declare.cpp: dcl_input*, dcl_output*
bool dcl_io(ConvertContext& ctx, const Instruction& inst);

// convert_resources.cpp: dcl_resource*, dcl_uav_*, dcl_sampler, dcl_tgsm_* (the rows of
// kResourceDeclarations, opcodes.h)
bool dcl_resource(ConvertContext& ctx, const Instruction& inst);

// convert_alu.cpp: component-wise ops that map to one IR op (kAluRows there)
bool alu_map(ConvertContext& ctx, const Instruction& inst);
bool alu_compare(ConvertContext& ctx, const Instruction& inst);
bool alu_shift(ConvertContext& ctx, const Instruction& inst);
// convert_alu.cpp: moves, selects, dot products, derivatives, rounding
bool mov(ConvertContext& ctx, const Instruction& inst);
bool movc(ConvertContext& ctx, const Instruction& inst);
bool swapc(ConvertContext& ctx, const Instruction& inst);
bool dot_product(ConvertContext& ctx, const Instruction& inst);
bool sincos(ConvertContext& ctx, const Instruction& inst);
bool round_float(ConvertContext& ctx, const Instruction& inst);
bool derivative(ConvertContext& ctx, const Instruction& inst);
bool evaluate(ConvertContext& ctx, const Instruction& inst);
// convert_alu_int.cpp: integer, bit and conversion ops, doubles
bool mul_extended(ConvertContext& ctx, const Instruction& inst);
bool mad_int(ConvertContext& ctx, const Instruction& inst);
bool udiv(ConvertContext& ctx, const Instruction& inst);
bool add_carry(ConvertContext& ctx, const Instruction& inst);
bool int_to_float(ConvertContext& ctx, const Instruction& inst);
bool float_to_int(ConvertContext& ctx, const Instruction& inst);
bool f32tof16(ConvertContext& ctx, const Instruction& inst);
bool f16tof32(ConvertContext& ctx, const Instruction& inst);
bool first_bit_high(ConvertContext& ctx, const Instruction& inst);
bool bitfield_extract(ConvertContext& ctx, const Instruction& inst);
bool bitfield_insert(ConvertContext& ctx, const Instruction& inst);
bool msad(ConvertContext& ctx, const Instruction& inst);
bool dmov(ConvertContext& ctx, const Instruction& inst);
bool dmovc(ConvertContext& ctx, const Instruction& inst);
bool from_double(ConvertContext& ctx, const Instruction& inst);
bool to_double(ConvertContext& ctx, const Instruction& inst);

// convert_resources_image.cpp: textures and typed UAVs
bool sample_image(ConvertContext& ctx,
                  const Instruction& inst);                    // sample*, gather4* (kSampleLayouts)
bool load_texel(ConvertContext& ctx, const Instruction& inst); // ld, ld_ms (and _s)
bool load_uav_typed(ConvertContext& ctx, const Instruction& inst);
bool store_uav_typed(ConvertContext& ctx, const Instruction& inst);
bool resinfo(ConvertContext& ctx, const Instruction& inst);
bool sampleinfo(ConvertContext& ctx, const Instruction& inst);
bool samplepos(ConvertContext& ctx, const Instruction& inst);
bool compute_lod(ConvertContext& ctx, const Instruction& inst);

// convert_resources_buffer.cpp: raw/structured buffers, TGSM, atomics, counters, sync
bool load_dwords(ConvertContext& ctx, const Instruction& inst);  // ld_raw, ld_structured (_s)
bool store_dwords(ConvertContext& ctx, const Instruction& inst); // store_raw, store_structured
bool bufinfo(ConvertContext& ctx, const Instruction& inst);
bool atomic(ConvertContext& ctx, const Instruction& inst); // atomic_*, imm_atomic_* (kAtomicOps)
bool uav_counter(ConvertContext& ctx, const Instruction& inst); // imm_atomic_alloc/consume
bool sync(ConvertContext& ctx, const Instruction& inst);
bool check_access_mapped(ConvertContext& ctx, const Instruction& inst);

} // namespace kiln::dxbc
