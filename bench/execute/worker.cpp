// One shader through both translations and both runs (execute.h, ShaderExecutor).

#include "bench/execute/class_selection_check.h"
#include "bench/execute/compare.h"
#include "bench/execute/contraction.h"
#include "bench/execute/d3d9.h"
#include "bench/execute/descriptor_arrays.h"
#include "bench/execute/execute.h"
#include "bench/execute/resources.h"
#include "bench/execute/spirv_words.h"
#include "bench/execute/stage_support.h"
#include "bench/execute/stages.h"
#include "bench/execute/translate.h"
#include "bench/stats.h"
#include "translator/spirv/validate.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <spirv/unified1/spirv.hpp>

namespace kiln::execute {

struct ShaderExecutor::State {
  // Of ExecuteOptions.
  bool corrupt_kiln = false;
  bool warm_driver = false;
  unsigned long_run_repeats = 0;
  double long_run_ms = 0;
  std::uint64_t seed = 1;
  std::unique_ptr<vulkan::Context> context;
  vkd3d::RealLibrary vkd3d;
  Translator translator;
  std::string setup_error;
};

namespace {

bool user_named_icd() {
  return std::getenv("VK_ICD_FILENAMES") != nullptr || std::getenv("VK_DRIVER_FILES") != nullptr;
}

bool is_noncommutative(spv::Op op) {
  switch (op) {
  case spv::OpFSub:
  case spv::OpISub:
  case spv::OpFDiv:
  case spv::OpSDiv:
  case spv::OpUDiv:
  case spv::OpShiftLeftLogical:
  case spv::OpShiftRightLogical:
  case spv::OpShiftRightArithmetic:
  case spv::OpFOrdLessThan:
  case spv::OpFOrdGreaterThanEqual:
  case spv::OpSLessThan:
  case spv::OpULessThan:
    return true;
  default:
    return false;
  }
}

// KILN_EXECUTE_DUMP=DIR writes both translations of each shader there (NAME.kiln.spv,
// NAME.vkd3d.spv), for reading a difference with spirv-dis.
void dump_module(const std::string& file, const char* translator,
                 const std::vector<std::uint32_t>& spirv) {
  const char* dir = std::getenv("KILN_EXECUTE_DUMP");
  if (!dir || spirv.empty()) return;
  const std::string base = file.substr(file.find_last_of('/') + 1);
  std::ofstream out(std::string(dir) + "/" + base + "." + translator + ".spv", std::ios::binary);
  out.write(reinterpret_cast<const char*>(spirv.data()), std::streamsize(spirv.size() * 4));
}

// With `without_array_sizes`, a descriptor array and one descriptor at the same binding are
// the same: vkd3d-shader 1.2 declares one descriptor where kiln declares the request's array,
// and the one layout (kiln's) holds the array (docs/execution.md, "Descriptor arrays"). The
// class-linkage selection buffer (set 0, the request's selection binding) is kiln's alone.
std::string descriptor_key(const ModuleInterface& m, bool without_array_sizes,
                           const Request& request) {
  std::string key;
  for (DescriptorFact d : m.descriptors) {
    if (!request.class_linkage().empty() && d.set == 0 && d.binding == request.selection_binding())
      continue;
    if (without_array_sizes) d.array_size = 1;
    key += describe(d) + ";";
  }
  return key;
}

} // namespace

bool corrupt_one_operation(std::vector<std::uint32_t>& spirv) {
  // Operand order: result type, result, a, b.
  std::size_t add = 0;
  bool swapped = false;
  walk_instructions(spirv, [&](const auto& instruction) {
    const std::span<std::uint32_t> w = instruction.words;
    if (w.size() == 5 && is_noncommutative(instruction.op) && w[3] != w[4]) {
      std::swap(w[3], w[4]);
      swapped = true;
      return false;
    }
    if (w.size() == 5 && !add && (instruction.op == spv::OpFAdd || instruction.op == spv::OpIAdd))
      add = instruction.at;
    return true;
  });
  if (swapped) return true;
  if (!add) return false;
  const auto op = spv::Op(spirv[add] & 0xffff);
  spirv[add] = (spirv[add] & 0xffff0000u) | (op == spv::OpFAdd ? spv::OpFSub : spv::OpISub);
  return true;
}

ShaderExecutor::ShaderExecutor(const ExecuteOptions& options, unsigned fence_timeout_seconds)
    : state_(std::make_unique<State>()) {
  state_->corrupt_kiln = options.corrupt_kiln;
  state_->warm_driver = options.warm_driver;
  state_->long_run_repeats = options.long_run_repeats;
  state_->long_run_ms = options.long_run_ms;
  state_->seed = options.seed;
  if (!state_->vkd3d.loaded()) {
    state_->setup_error = "libvkd3d-shader 1.2 not loaded: " + state_->vkd3d.error();
    return;
  }
  vulkan::ContextOptions context_options;
  context_options.any_device = user_named_icd();
  context_options.fence_timeout_ns = std::uint64_t(fence_timeout_seconds) * 1000 * 1000 * 1000;
  state_->context = vulkan::Context::create(state_->setup_error, context_options);
}

ShaderExecutor::~ShaderExecutor() = default;

const std::string& ShaderExecutor::setup_error() const {
  return state_->setup_error;
}

std::string ShaderExecutor::device_name() const {
  return state_->context ? state_->context->device_name() : std::string();
}

ShaderRecord ShaderExecutor::execute(const std::string& file,
                                     const std::vector<std::uint8_t>& bytes, std::size_t index,
                                     void (*phase)(const char*)) {
  ShaderRecord record;
  record.file = file;
  record.kiln_first = index % 2 == 0;
  auto finish = [&](Verdict verdict, std::string reason) {
    record.verdict = verdict;
    record.reason = std::move(reason);
    return record;
  };
  if (detect_input_kind(bytes).kind == InputKind::D3D9)
    return execute_d3d9(*state_->context, state_->translator, file, bytes, state_->seed,
                        state_->corrupt_kiln, phase);
  Request request;
  std::string why;
  if (!request.build(bytes, why)) {
    record.stage = std::string(shader_stage_abbrev(request.source().stage));
    return finish(Verdict::NotExecuted, why);
  }
  const ShaderStage stage = request.source().stage;
  record.stage = std::string(shader_stage_abbrev(stage));

  phase("translate-kiln");
  Reflection reflection;
  Translation kiln = translate_with_kiln(state_->translator, request, reflection);
  phase("translate-vkd3d");
  Translation vkd3d = translate_with_vkd3d(state_->vkd3d, request);
  dump_module(file, "kiln", kiln.spirv);
  dump_module(file, "vkd3d", vkd3d.spirv);
  if (!request.class_linkage().empty() && kiln) {
    // vkd3d-shader 1.2 drops fcall (docs/execution.md, "Class linkage"): kiln's module is
    // checked against its fixed-instance form first, whatever vkd3d-shader made.
    if (Status s = validate_spirv(kiln.spirv, SpirvTarget::Vulkan10); !s)
      return finish(Verdict::KilnFailed, "invalid module: " + s.message());
    phase("run-kiln");
    if (!check_class_selection(*state_->context, state_->translator, request, kiln, reflection,
                               state_->seed, state_->corrupt_kiln, record))
      return record;
    const std::string ran = "; kiln's module ran, its selection-buffer and fixed-instance forms "
                            "agree";
    if (!vkd3d) return finish(Verdict::Vkd3dFailed, vkd3d.error + ran);
    if (Status s = validate_spirv(vkd3d.spirv, SpirvTarget::Vulkan10); !s)
      return finish(Verdict::Vkd3dFailed, "invalid module: " + s.message() + ran);
  }
  if (!vkd3d) return finish(Verdict::Vkd3dFailed, vkd3d.error);
  if (!kiln) return finish(kiln.forwarded ? Verdict::NotExecuted : Verdict::KilnFailed, kiln.error);
  if (Status s = validate_spirv(vkd3d.spirv, SpirvTarget::Vulkan10); !s)
    return finish(Verdict::Vkd3dFailed, "invalid module: " + s.message());
  if (Status s = validate_spirv(kiln.spirv, SpirvTarget::Vulkan10); !s)
    return finish(Verdict::KilnFailed, "invalid module: " + s.message());
  if (state_->corrupt_kiln && !corrupt_one_operation(kiln.spirv))
    return finish(Verdict::NotExecuted, "nothing to corrupt in kiln's module");

  ModuleInterface kiln_facts, vkd3d_facts;
  if (!read_module_interface(kiln.spirv, kiln_facts, why) ||
      !read_module_interface(vkd3d.spirv, vkd3d_facts, why))
    return finish(Verdict::NotExecuted, "module not readable: " + why);
  const bool arrays = request.has_descriptor_arrays();
  if (descriptor_key(kiln_facts, arrays, request) != descriptor_key(vkd3d_facts, arrays, request))
    return finish(Verdict::Differ, "descriptor layouts differ");
  if (std::string difference = generated_stage_interface_difference(stage, kiln_facts, vkd3d_facts);
      !difference.empty())
    return finish(Verdict::Differ, "interfaces differ: " + difference);
  if (std::string missing = missing_device_feature(*state_->context, stage); !missing.empty())
    return finish(Verdict::NotExecuted, missing);
  if (std::string unsupported = stage_unsupported(stage, reflection, vkd3d_facts);
      !unsupported.empty())
    return finish(Verdict::NotExecuted, unsupported);
  if (std::string past = Resources::past_device_limits(*state_->context, reflection); !past.empty())
    return finish(Verdict::NotExecuted, past);
  // Every descriptor array of kiln's module is reduced to its element 0, the one descriptor
  // vkd3d-shader's module declares for it (descriptor_arrays.h).
  if (pin_descriptor_arrays(kiln.spirv) != 0) {
    if (Status s = validate_spirv(kiln.spirv, SpirvTarget::Vulkan10); !s)
      return finish(Verdict::NotExecuted,
                    "kiln's module with its arrays reduced is invalid: " + s.message());
  }
  const OpClass op_class = std::max(loosest_op_class(kiln.spirv), loosest_op_class(vkd3d.spirv));
  record.op_class = op_class_name(op_class);

  // Constant-buffer words either module reads as integers get small integers.
  // A class-linkage shader's selection buffer holds the seeded selection.
  ConstantWords constants = class_linkage_constants(request, state_->seed);
  constants.integers = integer_constant_words(vkd3d.spirv);
  for (const auto& [key, words] : integer_constant_words(kiln.spirv))
    constants.integers[key].insert(words.begin(), words.end());

  std::string captured;
  for (const Request::CapturedWord& w : request.captured()) captured += w.kind;

  // Alternate which pipeline the driver builds first, so that neither pays for warming it; with
  // warm_driver, both are built and run once, untimed, before (the first pipeline after the
  // translations pays about twice the time of the second).
  StageRun kiln_run, vkd3d_run;
  std::string error;
  auto run = [&](bool kiln_module, const char* name, unsigned runs, StageRun& out) {
    phase(name);
    return run_stage(*state_->context, stage, kiln_module ? kiln.spirv : vkd3d.spirv, reflection,
                     vkd3d_facts, state_->seed, constants, captured, runs, out, error);
  };
  auto run_both = [&](bool kiln_first, auto&& run_kiln, auto&& run_vkd3d) {
    return kiln_first ? run_kiln() && run_vkd3d() : run_vkd3d() && run_kiln();
  };
  if (state_->warm_driver) {
    StageRun kiln_warm_up, vkd3d_warm_up;
    if (!run_both(
            record.kiln_first, [&] { return run(true, "warm-up-kiln", 1, kiln_warm_up); },
            [&] { return run(false, "warm-up-vkd3d", 1, vkd3d_warm_up); }))
      return finish(failed_run_verdict(error), error);
  }
  // kiln's module runs twice: the outputs of both runs must be the same.
  if (!run_both(
          record.kiln_first, [&] { return run(true, "run-kiln", 2, kiln_run); },
          [&] { return run(false, "run-vkd3d", 1, vkd3d_run); }))
    return finish(failed_run_verdict(error), error);
  std::vector<double> kiln_build{kiln_run.build_ms}, vkd3d_build{vkd3d_run.build_ms};
  std::vector<double> kiln_first_run{kiln_run.run_ms[0]}, vkd3d_first_run{vkd3d_run.run_ms[0]};
  if (state_->warm_driver &&
      std::max(kiln_run.run_ms[0], vkd3d_run.run_ms[0]) >= state_->long_run_ms) {
    for (unsigned repeat = 0; repeat < state_->long_run_repeats; ++repeat) {
      StageRun kiln_again, vkd3d_again;
      // The first repeat swaps the order of the timed pair, the next swaps it back, ...
      if (!run_both(
              record.kiln_first != (repeat % 2 == 0),
              [&] { return run(true, "repeat-kiln", 1, kiln_again); },
              [&] { return run(false, "repeat-vkd3d", 1, vkd3d_again); }))
        return finish(failed_run_verdict(error), error);
      kiln_build.push_back(kiln_again.build_ms);
      vkd3d_build.push_back(vkd3d_again.build_ms);
      kiln_first_run.push_back(kiln_again.run_ms[0]);
      vkd3d_first_run.push_back(vkd3d_again.run_ms[0]);
    }
  }
  record.timed_pairs = unsigned(kiln_build.size());
  record.kiln_build_ms = bench::median(kiln_build);
  record.vkd3d_build_ms = bench::median(vkd3d_build);
  record.kiln_run_ms = bench::median(kiln_first_run);
  record.vkd3d_run_ms = bench::median(vkd3d_first_run);

  const Comparison repeat =
      compare_outputs(kiln_run.outputs[0], kiln_run.outputs[1], OpClass::Exact);
  if (!repeat.same) return finish(Verdict::Nondeterministic, repeat.first_difference);
  const Comparison c = compare_outputs(kiln_run.outputs[0], vkd3d_run.outputs[0], op_class);
  record.words_compared = c.words_compared;
  record.words_different = c.words_different;
  if (c.same) return finish(Verdict::Match, {});
  // Both modules run again with contraction forbidden (contraction.h): outputs that then agree
  // differ only where the driver chose to fuse a multiply and an add.
  std::vector<std::uint32_t> kiln_exact = kiln.spirv, vkd3d_exact = vkd3d.spirv;
  const bool kiln_contracts = forbid_contraction(kiln_exact);
  const bool vkd3d_contracts = forbid_contraction(vkd3d_exact);
  if (!kiln_contracts && !vkd3d_contracts) return finish(Verdict::Differ, c.first_difference);
  StageRun kiln_again, vkd3d_again;
  phase("run-without-contraction");
  if (!run_stage(*state_->context, stage, kiln_exact, reflection, vkd3d_facts, state_->seed,
                 constants, captured, 1, kiln_again, error) ||
      !run_stage(*state_->context, stage, vkd3d_exact, reflection, vkd3d_facts, state_->seed,
                 constants, captured, 1, vkd3d_again, error))
    return finish(Verdict::Differ,
                  c.first_difference + " (the run without contraction failed: " + error + ")");
  const Comparison exact = compare_outputs(kiln_again.outputs[0], vkd3d_again.outputs[0], op_class);
  if (!exact.same)
    return finish(Verdict::Differ,
                  c.first_difference + "; without contraction: " + exact.first_difference);
  // kiln's module already forbids contraction where the shader does not allow refactoring, so
  // there only vkd3d-shader's contraction can be the difference.
  const char* whose = !kiln_contracts ? "only vkd3d-shader's module leaves contraction to the "
                                        "driver (kiln's forbids it: no refactoringAllowed)"
                                      : "the driver fuses multiplies and adds";
  return finish(Verdict::Contraction, std::string(whose) +
                                          "; with contraction forbidden in both, the outputs "
                                          "agree: " +
                                          c.first_difference);
}

} // namespace kiln::execute
