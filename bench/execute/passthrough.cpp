#include "bench/execute/passthrough.h"

#include "bench/execute/spirv_emitter.h"

namespace kiln::execute {

std::vector<std::uint32_t> passthrough_vertex_shader(const std::vector<Varying>& varyings,
                                                     std::uint32_t clip_distances) {
  Emitter e;
  const std::uint32_t void_type = e.type(spv::OpTypeVoid);
  const std::uint32_t void_function = e.type(spv::OpTypeFunction, {void_type});
  const std::uint32_t main_id = e.id();
  auto copy = [&](std::uint32_t attribute, std::uint32_t value_type, std::uint32_t output) {
    const std::uint32_t input = e.variable(value_type, spv::StorageClassInput);
    e.decorate(input, spv::DecorationLocation, {attribute});
    const std::uint32_t value = e.id();
    e.body(spv::OpLoad, {value_type, value, input});
    e.body(spv::OpStore, {output, value});
  };
  for (std::uint32_t i = 0; i < varyings.size(); ++i) {
    const Varying& v = varyings[i];
    const std::uint32_t value_type = e.vector(v.scalar, v.count);
    const std::uint32_t output = e.variable(value_type, spv::StorageClassOutput);
    e.decorate(output, spv::DecorationLocation, {v.location});
    if (v.component) e.decorate(output, spv::DecorationComponent, {v.component});
    copy(i, value_type, output);
  }
  const std::uint32_t vec4 = e.vector('f', 4);
  const std::uint32_t position = e.variable(vec4, spv::StorageClassOutput);
  e.decorate(position, spv::DecorationBuiltIn, {std::uint32_t(spv::BuiltInPosition)});
  copy(std::uint32_t(varyings.size()), vec4, position);
  if (clip_distances) {
    e.capability(spv::CapabilityClipDistance);
    const std::uint32_t f32 = e.scalar('f');
    const std::uint32_t array = e.type(spv::OpTypeArray, {f32, e.constant('u', clip_distances)});
    const std::uint32_t clip = e.variable(array, spv::StorageClassOutput);
    e.decorate(clip, spv::DecorationBuiltIn, {std::uint32_t(spv::BuiltInClipDistance)});
    std::vector<std::uint32_t> elements(clip_distances, e.constant('f', 0x3f800000u)); // 1.0
    const std::uint32_t value = e.id();
    elements.insert(elements.begin(), {array, value});
    e.body(spv::OpCompositeConstruct, elements);
    e.body(spv::OpStore, {clip, value});
  }
  return e.finish(spv::ExecutionModelVertex, main_id, void_function);
}

} // namespace kiln::execute
