#pragma once
// Internal to the DXBC -> IR converter: every handler the opcode table (opcodes.h, the handler
// column) names. Driver::dispatch (convert_dispatch.cpp) is one switch generated from that
// column: `case Opcode::Name: return handler(ctx_, inst);`. A handler is either
//   - a free function declared here (the file that defines it is named with each group), or
//   - a member of Driver (convert_driver.h): the handlers that walk the program (control flow,
//     hull-shader phases, subroutine and fcall inlining); the name resolves to the member first.
// Every handler takes (ConvertContext&, const Instruction&), converts the instruction or
// declaration, and reports bad input with ctx.fail(inst, what): there is no "not mine" answer.
// A handler serving a family of opcodes (all sample_* and gather4*) switches on the opcode only
// to pick details, usually from a table keyed by opcode (OpcodeRows, opcodes.h) whose
// completeness against the handler column is checked at compile time.

#include "translator/dxbc/convert_context.h"

namespace kiln::dxbc {

// convert_dispatch.cpp
void unsupported(ConvertContext& ctx, const Instruction& inst); // reserved numbers
void no_op(ConvertContext& ctx, const Instruction& inst); // nop, customdata, dcl_indexrange...

// convert_flow.cpp (geometry shader output; the rest of control flow are Driver members)
void emit_cut(ConvertContext& ctx, const Instruction& inst);

// convert_declarations.cpp: registers and stage modes
void dcl_temps(ConvertContext& ctx, const Instruction& inst);
void dcl_indexable_temp(ConvertContext& ctx, const Instruction& inst);
void dcl_constant_buffer(ConvertContext& ctx, const Instruction& inst);
void dcl_global_flags(ConvertContext& ctx, const Instruction& inst);
void dcl_gs_input_primitive(ConvertContext& ctx, const Instruction& inst);
void dcl_gs_output_topology(ConvertContext& ctx, const Instruction& inst);
void dcl_gs_max_vertices(ConvertContext& ctx, const Instruction& inst);
void dcl_gs_instances(ConvertContext& ctx, const Instruction& inst);
void dcl_stream(ConvertContext& ctx, const Instruction& inst);
void dcl_input_control_points(ConvertContext& ctx, const Instruction& inst);
void dcl_output_control_points(ConvertContext& ctx, const Instruction& inst);
void dcl_tess_domain(ConvertContext& ctx, const Instruction& inst);
void dcl_tess_partitioning(ConvertContext& ctx, const Instruction& inst);
void dcl_tess_output_primitive(ConvertContext& ctx, const Instruction& inst);
void dcl_thread_group(ConvertContext& ctx, const Instruction& inst);

// convert_linkage.cpp: D3D11 class linkage declarations
void dcl_function_body(ConvertContext& ctx, const Instruction& inst);
void dcl_function_table(ConvertContext& ctx, const Instruction& inst);
void dcl_interface(ConvertContext& ctx, const Instruction& inst);

// convert_io_declare.cpp: dcl_input*, dcl_output*
void dcl_io(ConvertContext& ctx, const Instruction& inst);

// convert_resources.cpp: dcl_resource*, dcl_uav_*, dcl_sampler, dcl_tgsm_* (the rows of
// kResourceDeclarations, opcodes.h)
void dcl_resource(ConvertContext& ctx, const Instruction& inst);

// convert_alu.cpp: component-wise ops that map to one IR op (kAluRows there)
void alu_map(ConvertContext& ctx, const Instruction& inst);
void alu_compare(ConvertContext& ctx, const Instruction& inst);
void alu_shift(ConvertContext& ctx, const Instruction& inst);
// convert_alu.cpp: moves, selects, dot products, derivatives, rounding
void mov(ConvertContext& ctx, const Instruction& inst);
void movc(ConvertContext& ctx, const Instruction& inst);
void swapc(ConvertContext& ctx, const Instruction& inst);
void dot_product(ConvertContext& ctx, const Instruction& inst);
void sincos(ConvertContext& ctx, const Instruction& inst);
void round_float(ConvertContext& ctx, const Instruction& inst);
void derivative(ConvertContext& ctx, const Instruction& inst);
void evaluate(ConvertContext& ctx, const Instruction& inst);
// convert_alu_int.cpp: integer, bit and conversion ops, doubles
void mul_extended(ConvertContext& ctx, const Instruction& inst);
void mad_int(ConvertContext& ctx, const Instruction& inst);
void udiv(ConvertContext& ctx, const Instruction& inst);
void add_carry(ConvertContext& ctx, const Instruction& inst);
void int_to_float(ConvertContext& ctx, const Instruction& inst);
void float_to_int(ConvertContext& ctx, const Instruction& inst);
void f32tof16(ConvertContext& ctx, const Instruction& inst);
void f16tof32(ConvertContext& ctx, const Instruction& inst);
void first_bit_high(ConvertContext& ctx, const Instruction& inst);
void bitfield_extract(ConvertContext& ctx, const Instruction& inst);
void bitfield_insert(ConvertContext& ctx, const Instruction& inst);
void msad(ConvertContext& ctx, const Instruction& inst);
void dmov(ConvertContext& ctx, const Instruction& inst);
void dmovc(ConvertContext& ctx, const Instruction& inst);
void from_double(ConvertContext& ctx, const Instruction& inst);
void to_double(ConvertContext& ctx, const Instruction& inst);

// convert_resources_image.cpp: textures and typed UAVs
void sample_image(ConvertContext& ctx,
                  const Instruction& inst);                    // sample*, gather4* (kSampleLayouts)
void load_texel(ConvertContext& ctx, const Instruction& inst); // ld, ld_ms (and _s)
void load_uav_typed(ConvertContext& ctx, const Instruction& inst);
void store_uav_typed(ConvertContext& ctx, const Instruction& inst);
void resinfo(ConvertContext& ctx, const Instruction& inst);
void sampleinfo(ConvertContext& ctx, const Instruction& inst);
void samplepos(ConvertContext& ctx, const Instruction& inst);
void compute_lod(ConvertContext& ctx, const Instruction& inst);

// convert_resources_buffer.cpp: raw/structured buffers, TGSM, atomics, counters, sync
void load_dwords(ConvertContext& ctx, const Instruction& inst);  // ld_raw, ld_structured (_s)
void store_dwords(ConvertContext& ctx, const Instruction& inst); // store_raw, store_structured
void bufinfo(ConvertContext& ctx, const Instruction& inst);
void atomic(ConvertContext& ctx, const Instruction& inst); // atomic_*, imm_atomic_* (kAtomicOps)
void uav_counter(ConvertContext& ctx, const Instruction& inst); // imm_atomic_alloc/consume
void sync(ConvertContext& ctx, const Instruction& inst);
void check_access_mapped(ConvertContext& ctx, const Instruction& inst);

} // namespace kiln::dxbc
