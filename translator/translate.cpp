#include "translator/translate.h"

#include "translator/d3d9/converter.h"
#include "translator/dxbc/converter.h"
#include "translator/hot_code.h"
#include "translator/ir/ir.h"
#include "translator/passes/pipeline.h"
#include "translator/spirv/lower.h"

namespace kiln {

// Everything one worker reuses between shaders: after warm-up a translation allocates only the
// returned SPIR-V.
struct Translator::Workspace {
  ir::Builder builder;
  dxbc::Converter dxbc;
  d3d9::Converter d3d9;
  passes::Pipeline pipeline;
  spirv::Lowering lowering;
  SourceReflection source; // the bytecode's own reflection (dxbc/scan.h)
};

Translator::Translator() : workspace_(std::make_unique<Workspace>()) {}
Translator::~Translator() = default;

Status Translator::translate(std::span<const std::uint8_t> bytecode,
                             const TranslateOptions& options, TranslateResult& out) {
  return translate(read_shader_input(bytecode), options, out);
}

Status Translator::translate(const ShaderInput& input, const TranslateOptions& options,
                             TranslateResult& out) {
  prefetch_hot_code(input.info.kind);
  out.spirv.clear();
  out.diagnostics.clear();
  workspace_->lowering.recycle(out.reflection);

  out.kind = input.info.kind;
  Status status = run_front_end(input, options, workspace_->builder);
  // DXBC: the bytecode's own facts, scanned first, since the lowering reads its output
  // signature (stream output of clip and cull distances).
  const bool dxbc = input.info.kind == InputKind::Dxbc;
  if (status && dxbc) status = workspace_->dxbc.scan(workspace_->source);
  if (status) status = build_ir_to_spirv(options, dxbc ? &workspace_->source : nullptr, out);
  if (status && dxbc) attach_source_facts(workspace_->source, out.reflection);
  if (!status) {
    out.spirv.clear();
    workspace_->lowering.recycle(out.reflection);
  }
  return status;
}

Status Translator::build_ir_to_spirv(const TranslateOptions& options,
                                     const SourceReflection* source, TranslateResult& out) {
  Workspace& ws = *workspace_;
  passes::PipelineOptions pass_options;
#ifndef NDEBUG
  pass_options.validate_each_pass = true;
#endif
  if (Status s = ws.pipeline.run(ws.builder, pass_options); !s) return s;
  spirv::LowerOptions lower_options;
  lower_options.target = options.target;
  lower_options.debug_names = options.debug_names;
  lower_options.interface = options.interface.get();
  if (source) lower_options.source_outputs = &source->outputs;
  return ws.lowering.lower(ws.builder, lower_options, out.spirv, out.reflection);
}

Status Translator::convert_to_ir(const ShaderInput& input, const TranslateOptions& options,
                                 ir::Builder& builder, bool run_passes) {
  Status status = run_front_end(input, options, builder);
  if (status && run_passes) {
    passes::PipelineOptions pass_options;
    pass_options.validate_each_pass = true;
    status = workspace_->pipeline.run(builder, pass_options);
  }
  return status;
}

Status Translator::run_front_end(const ShaderInput& input, const TranslateOptions& options,
                                 ir::Builder& builder) {
  builder.reset();
  if (!input.readable) return input.readable;
  switch (input.info.kind) {
  case InputKind::Dxbc:
    return workspace_->dxbc.convert(
        input.container,
        {.debug_names = options.debug_names,
         .class_linkage = options.interface ? &options.interface->class_linkage : nullptr,
         .convention =
             options.interface ? options.interface->convention : InterfaceConvention::Kiln,
         .geometry_point_size = options.interface && options.interface->geometry_point_size,
         .typed_uav_read_r32 = options.interface && options.interface->typed_uav_read_r32},
        builder);
  case InputKind::D3D9:
    return workspace_->d3d9.convert(
        input.bytes, {.debug_names = options.debug_names, .interface = options.interface.get()},
        builder);
  default:
    return Status::error(std::string(input.info.description));
  }
}

} // namespace kiln
