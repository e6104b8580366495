#include "bench/execute/class_selection_check.h"

#include "bench/execute/compare.h"
#include "bench/execute/stage_support.h"
#include "bench/execute/stages.h"
#include "translator/spirv/validate.h"

#include <algorithm>

namespace kiln::execute {

ConstantWords class_linkage_constants(const Request& request, std::uint64_t seed) {
  ConstantWords constants;
  if (request.class_linkage().empty()) return constants;
  // Set 0, where the request puts every descriptor.
  constants.given[request.selection_binding()] =
      selection_words(seeded_class_instances(request.class_linkage(), seed));
  return constants;
}

bool check_class_selection(vulkan::Context& context, Translator& translator, const Request& request,
                           const Translation& kiln, const Reflection& reflection,
                           std::uint64_t seed, bool wrong_selection, ShaderRecord& record) {
  auto fail = [&](Verdict verdict, std::string reason) {
    record.verdict = verdict;
    record.reason = std::move(reason);
    return false;
  };
  const ShaderStage stage = request.source().stage;
  const std::vector<ClassInstance> baked =
      seeded_class_instances(request.class_linkage(), seed, wrong_selection ? 1 : 0);
  Reflection fixed_reflection;
  const Translation fixed = translate_with_kiln(translator, request, fixed_reflection, baked);
  if (!fixed) return fail(Verdict::KilnFailed, "the fixed-instance form: " + fixed.error);
  if (Status s = validate_spirv(fixed.spirv, SpirvTarget::Vulkan10); !s)
    return fail(Verdict::KilnFailed, "the fixed-instance form: invalid module: " + s.message());

  ModuleInterface facts;
  std::string why;
  if (!read_module_interface(kiln.spirv, facts, why))
    return fail(Verdict::NotExecuted, "module not readable: " + why);
  if (std::string missing = missing_device_feature(context, stage); !missing.empty())
    return fail(Verdict::NotExecuted, missing);
  if (std::string unsupported = stage_unsupported(stage, reflection, facts); !unsupported.empty())
    return fail(Verdict::NotExecuted, unsupported);

  ConstantWords constants = class_linkage_constants(request, seed);
  for (const auto& [key, words] : integer_constant_words(kiln.spirv))
    constants.integers[key].insert(words.begin(), words.end());
  std::string captured;
  for (const Request::CapturedWord& w : request.captured()) captured += w.kind;

  // The fixed form declares no selection buffer; the buffer form's layout holds it unused.
  StageRun buffer_run, fixed_run;
  std::string error;
  if (!run_stage(context, stage, kiln.spirv, reflection, facts, seed, constants, captured, 2,
                 buffer_run, error) ||
      !run_stage(context, stage, fixed.spirv, reflection, facts, seed, constants, captured, 1,
                 fixed_run, error))
    return fail(failed_run_verdict(error), error);
  record.kiln_build_ms = buffer_run.build_ms;
  record.kiln_run_ms = buffer_run.run_ms[0];
  const Comparison repeat =
      compare_outputs(buffer_run.outputs[0], buffer_run.outputs[1], OpClass::Exact);
  if (!repeat.same) return fail(Verdict::Nondeterministic, repeat.first_difference);
  const OpClass op_class = std::max(loosest_op_class(kiln.spirv), loosest_op_class(fixed.spirv));
  record.op_class = op_class_name(op_class);
  const Comparison c = compare_outputs(buffer_run.outputs[0], fixed_run.outputs[0], op_class);
  record.words_compared = c.words_compared;
  record.words_different = c.words_different;
  if (!c.same)
    return fail(Verdict::Differ, "kiln's selection-buffer and fixed-instance forms differ (as "
                                 "kiln and vkd3d: " +
                                     c.first_difference + ")");
  return true;
}

} // namespace kiln::execute
