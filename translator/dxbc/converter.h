#pragma once
// DXBC (SM4.0-5.1) -> IR in "scoped form": the front end's public face (common/front_end.h)
// plus scan(), the bytecode's own reflection. One Function per entry point (two for hull
// shaders: the control-point and the patch-constant phases).

#include "translator/common/front_end.h"
#include "translator/common/reflection.h"
#include "translator/common/shader_interface.h"
#include "translator/common/status.h"
#include "translator/dxbc/container.h"

namespace kiln::dxbc {

struct ConvertOptions {
  bool debug_names = false; // emit DebugName/Semantic ops from RDEF and signatures
  // Where class linkage reads its class-instance selection (the interface's; null: kiln's
  // default register, read at run time).
  const ClassLinkage* class_linkage = nullptr;
  // Whose stage-interface locations (ShaderInterface::convention).
  InterfaceConvention convention = InterfaceConvention::Kiln;
  bool geometry_point_size = false; // ShaderInterface::geometry_point_size
  bool typed_uav_read_r32 = false;  // ShaderInterface::typed_uav_read_r32
};

// converter.cpp: the parsed container, the decoded program and the converter's context.
struct ConverterState;

} // namespace kiln::dxbc

namespace kiln {
extern template class FrontEnd<dxbc::ConvertOptions, dxbc::ConverterState>;
}

namespace kiln::dxbc {

// convert(): `bytecode` is a whole DXBC container, or the container already parsed on the way
// in (translator/shader_input.h), which is not parsed again.
class Converter : public FrontEnd<ConvertOptions, ConverterState> {
 public:
  using FrontEnd::convert;
  // `container`'s bytes must stay alive through scan().
  Status convert(const Container& container, const ConvertOptions& options, ir::Builder& builder);
  // The bytecode's own reflection (dxbc/scan.h) of the shader last converted successfully;
  // its bytes must still be alive.
  Status scan(SourceReflection& out) const;
};

} // namespace kiln::dxbc
