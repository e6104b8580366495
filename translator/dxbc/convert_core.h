#pragma once
// The functions the core half's files share (its state: CoreState, convert_state.h):
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
// The components `components` (a bit per component) of a per-vertex input v[vertex][reg] or
// vicp[vertex][reg] (geometry, hull and domain shaders) read as one load of their variable, into
// parts[c] (as `type`), when they are two or more components of one such variable; false (nothing
// emitted) otherwise.
bool io_load_input_vector(ConvertContext& ctx, const Operand& op, std::uint8_t components,
                          ir::ScalarType type, ir::SsaDef* parts);
// The components `mask` of an output o# of a hull shader's control point or of a geometry
// shader's vertex written whole as one vector store, when they are exactly one location
// variable; false (nothing emitted) otherwise.
bool io_store_output_vector(ConvertContext& ctx, const Operand& op, std::uint8_t mask,
                            const ir::SsaDef* value, ir::ScalarType type);

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
