// The resource half of the DXBC -> IR converter (convert_context.h): declarations of t#/u#/s#/g#
// and every instruction that touches them. Placeholder: nothing is claimed yet, so the core
// rejects these opcodes by name.
#include "translator/dxbc/convert_context.h"

namespace kiln::dxbc {

struct ResourceState {};

ResourceState* create_resource_state() {
  return new ResourceState();
}
void reset_resource_state(ResourceState&) {}
void destroy_resource_state(ResourceState* state) {
  delete state;
}

bool declare_resource(ConvertContext&, const Instruction&, const Declaration&, Status&) {
  return false;
}

bool convert_resource_instruction(ConvertContext&, const Instruction&, Status&) {
  return false;
}

} // namespace kiln::dxbc
