#include "bench/execute/passthrough_tessellation.h"

#include "bench/execute/spirv_emitter.h"

#include <cstring>

namespace kiln::execute {

namespace {

std::uint32_t float_bits(float value) {
  std::uint32_t bits;
  std::memcpy(&bits, &value, 4);
  return bits;
}

std::uint32_t array_of(Emitter& e, std::uint32_t element, std::uint32_t length) {
  return e.type(spv::OpTypeArray, {element, e.constant('u', length)});
}

// A variable at the varying's location and component, per vertex when `vertices` > 0.
std::uint32_t varying_variable(Emitter& e, const Varying& v, spv::StorageClass storage,
                               std::uint32_t vertices, bool patch) {
  const std::uint32_t value = e.vector(v.scalar, v.count);
  const std::uint32_t var = e.variable(vertices ? array_of(e, value, vertices) : value, storage);
  e.decorate(var, spv::DecorationLocation, {v.location});
  if (v.component) e.decorate(var, spv::DecorationComponent, {v.component});
  if (patch) e.decorate(var, spv::DecorationPatch);
  return var;
}

std::uint32_t builtin_variable(Emitter& e, std::uint32_t type, spv::StorageClass storage,
                               spv::BuiltIn builtin, bool patch) {
  const std::uint32_t var = e.variable(type, storage);
  e.decorate(var, spv::DecorationBuiltIn, {std::uint32_t(builtin)});
  if (patch) e.decorate(var, spv::DecorationPatch);
  return var;
}

std::uint32_t float_array(Emitter& e, const float* values, std::uint32_t count) {
  std::vector<std::uint32_t> elements;
  for (std::uint32_t i = 0; i < count; ++i)
    elements.push_back(e.constant('f', float_bits(values[i])));
  return e.value(spv::OpCompositeConstruct, array_of(e, e.scalar('f'), count), elements);
}

// Copies element `index` (an id) of the per-vertex `from` into the same element of `to`.
void copy_element(Emitter& e, std::uint32_t value_type, std::uint32_t from, std::uint32_t to,
                  std::uint32_t index) {
  const std::uint32_t in_ptr = e.type(spv::OpTypePointer, {spv::StorageClassInput, value_type});
  const std::uint32_t out_ptr = e.type(spv::OpTypePointer, {spv::StorageClassOutput, value_type});
  const std::uint32_t loaded =
      e.value(spv::OpLoad, value_type, {e.value(spv::OpAccessChain, in_ptr, {from, index})});
  e.body(spv::OpStore, {e.value(spv::OpAccessChain, out_ptr, {to, index}), loaded});
}

} // namespace

std::vector<std::uint32_t> passthrough_control_shader(const std::vector<Varying>& control_points,
                                                      bool position, std::uint32_t vertices,
                                                      const std::vector<PatchWords>& patch,
                                                      spv::ExecutionMode domain,
                                                      const TessLevels& levels) {
  Emitter e;
  e.capability(spv::CapabilityTessellation);
  const std::uint32_t void_type = e.type(spv::OpTypeVoid);
  const std::uint32_t void_function = e.type(spv::OpTypeFunction, {void_type});
  const std::uint32_t main_id = e.id();
  const std::uint32_t int_type = e.scalar('i');
  const std::uint32_t invocation_var =
      builtin_variable(e, int_type, spv::StorageClassInput, spv::BuiltInInvocationId, false);
  const std::uint32_t invocation = e.value(spv::OpLoad, int_type, {invocation_var});
  for (const Varying& v : control_points) {
    const std::uint32_t in = varying_variable(e, v, spv::StorageClassInput, vertices, false);
    const std::uint32_t out = varying_variable(e, v, spv::StorageClassOutput, vertices, false);
    copy_element(e, e.vector(v.scalar, v.count), in, out, invocation);
  }
  if (position) {
    const std::uint32_t vec4 = e.vector('f', 4);
    const std::uint32_t arrayed = array_of(e, vec4, vertices);
    const std::uint32_t in =
        builtin_variable(e, arrayed, spv::StorageClassInput, spv::BuiltInPosition, false);
    const std::uint32_t out =
        builtin_variable(e, arrayed, spv::StorageClassOutput, spv::BuiltInPosition, false);
    copy_element(e, vec4, in, out, invocation);
  }
  for (const PatchWords& p : patch) {
    const std::uint32_t out = varying_variable(e, p.varying, spv::StorageClassOutput, 0, true);
    std::vector<std::uint32_t> elements;
    for (std::uint32_t word : p.words) elements.push_back(e.constant(p.varying.scalar, word));
    const std::uint32_t value =
        elements.size() == 1 ? elements[0]
                             : e.value(spv::OpCompositeConstruct,
                                       e.vector(p.varying.scalar, p.varying.count), elements);
    e.body(spv::OpStore, {out, value});
  }
  const std::uint32_t f32 = e.scalar('f');
  const std::uint32_t outer = builtin_variable(e, array_of(e, f32, 4), spv::StorageClassOutput,
                                               spv::BuiltInTessLevelOuter, true);
  const std::uint32_t inner = builtin_variable(e, array_of(e, f32, 2), spv::StorageClassOutput,
                                               spv::BuiltInTessLevelInner, true);
  e.body(spv::OpStore, {outer, float_array(e, levels.outer, 4)});
  e.body(spv::OpStore, {inner, float_array(e, levels.inner, 2)});
  e.execution_mode(spv::ExecutionModeOutputVertices, {vertices});
  e.execution_mode(domain);
  e.execution_mode(spv::ExecutionModeSpacingEqual);
  e.execution_mode(spv::ExecutionModeVertexOrderCcw);
  e.execution_mode(spv::ExecutionModePointMode);
  return e.finish(spv::ExecutionModelTessellationControl, main_id, void_function);
}

std::vector<std::uint32_t> capture_evaluation_shader(const std::vector<Varying>& control_points,
                                                     bool position, std::uint32_t vertices,
                                                     const std::vector<Varying>& patch,
                                                     spv::ExecutionMode domain) {
  Emitter e;
  e.capability(spv::CapabilityTessellation);
  const std::uint32_t void_type = e.type(spv::OpTypeVoid);
  const std::uint32_t void_function = e.type(spv::OpTypeFunction, {void_type});
  const std::uint32_t main_id = e.id();

  // The storage buffer: a BufferBlock of one runtime array of words (SPIR-V 1.0's form).
  const std::uint32_t u32 = e.scalar('u');
  const std::uint32_t words_type = e.unique_type(spv::OpTypeRuntimeArray, {u32});
  e.decorate(words_type, spv::DecorationArrayStride, {4});
  const std::uint32_t block = e.unique_type(spv::OpTypeStruct, {words_type});
  e.decorate(block, spv::DecorationBufferBlock);
  e.member_decorate(block, 0, spv::DecorationOffset, {0});
  const std::uint32_t buffer = e.resource(block, spv::StorageClassUniform);
  e.decorate(buffer, spv::DecorationDescriptorSet, {1});
  e.decorate(buffer, spv::DecorationBinding, {0});
  const std::uint32_t word_ptr = e.type(spv::OpTypePointer, {spv::StorageClassUniform, u32});
  std::uint32_t next_word = 0;
  // Stores each component of `value` (a vector of `count` of `scalar`) as the next words.
  auto store = [&](std::uint32_t value, char scalar, std::uint32_t count) {
    for (std::uint32_t c = 0; c < count; ++c) {
      std::uint32_t component =
          count == 1 ? value : e.value(spv::OpCompositeExtract, e.scalar(scalar), {value, c});
      if (scalar != 'u') component = e.value(spv::OpBitcast, u32, {component});
      const std::uint32_t at = e.value(spv::OpAccessChain, word_ptr,
                                       {buffer, e.constant('i', 0), e.constant('u', next_word++)});
      e.body(spv::OpStore, {at, component});
    }
  };
  auto load_element = [&](std::uint32_t var, std::uint32_t value_type, std::uint32_t index) {
    const std::uint32_t ptr = e.type(spv::OpTypePointer, {spv::StorageClassInput, value_type});
    return e.value(spv::OpLoad, value_type,
                   {e.value(spv::OpAccessChain, ptr, {var, e.constant('u', index)})});
  };

  std::vector<std::uint32_t> per_vertex;
  for (const Varying& v : control_points)
    per_vertex.push_back(varying_variable(e, v, spv::StorageClassInput, vertices, false));
  const std::uint32_t vec4 = e.vector('f', 4);
  const std::uint32_t position_var =
      position ? builtin_variable(e, array_of(e, vec4, vertices), spv::StorageClassInput,
                                  spv::BuiltInPosition, false)
               : 0;
  for (std::uint32_t vertex = 0; vertex < vertices; ++vertex) {
    for (std::size_t i = 0; i < control_points.size(); ++i) {
      const Varying& v = control_points[i];
      store(load_element(per_vertex[i], e.vector(v.scalar, v.count), vertex), v.scalar, v.count);
    }
    if (position) store(load_element(position_var, vec4, vertex), 'f', 4);
  }
  for (const Varying& v : patch) {
    const std::uint32_t var = varying_variable(e, v, spv::StorageClassInput, 0, true);
    store(e.value(spv::OpLoad, e.vector(v.scalar, v.count), {var}), v.scalar, v.count);
  }
  const std::uint32_t f32 = e.scalar('f');
  for (auto [builtin, count] :
       {std::pair{spv::BuiltInTessLevelOuter, 4u}, std::pair{spv::BuiltInTessLevelInner, 2u}}) {
    const std::uint32_t var =
        builtin_variable(e, array_of(e, f32, count), spv::StorageClassInput, builtin, true);
    for (std::uint32_t i = 0; i < count; ++i) store(load_element(var, f32, i), 'f', 1);
  }
  // The domain location of each vertex the tessellator makes, captured by transform feedback
  // (buffer 0, 12 bytes a vertex): how many there are and in which order shows the hull
  // shader's partitioning, output primitive and levels as the tessellator took them.
  e.capability(spv::CapabilityTransformFeedback);
  const std::uint32_t vec3 = e.vector('f', 3);
  const std::uint32_t coord =
      builtin_variable(e, vec3, spv::StorageClassInput, spv::BuiltInTessCoord, false);
  const std::uint32_t location = e.variable(vec3, spv::StorageClassOutput);
  e.decorate(location, spv::DecorationLocation, {0});
  e.decorate(location, spv::DecorationXfbBuffer, {0});
  e.decorate(location, spv::DecorationXfbStride, {12});
  e.decorate(location, spv::DecorationOffset, {0});
  e.body(spv::OpStore, {location, e.value(spv::OpLoad, vec3, {coord})});
  e.execution_mode(domain);
  e.execution_mode(spv::ExecutionModeXfb);
  return e.finish(spv::ExecutionModelTessellationEvaluation, main_id, void_function);
}

} // namespace kiln::execute
