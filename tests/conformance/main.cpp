// kiln-conformance: replays a conformance package (laid out like ../shared/conformance) on
// lavapipe with kiln translating every shader. See docs/conformance.md.

#include "tests/conformance/runner.h"
#include "tests/support/shared_data.h"

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>

namespace {

constexpr const char* kUsage =
    "usage: kiln-conformance PACKAGE_DIR [--model sm2|sm3|sm4|sm5]... [--test NAME] [--case N]\n"
    "                        [--json FILE] [--translator kiln|vkd3d] [--min-pass PERCENT]\n"
    "                        [--layout runner|push-cb0|kiln] [--quiet] [--skip-missing]\n"
    "  PACKAGE_DIR      a folder laid out like ../shared/conformance; 'default' means\n"
    "                   $KILN_CONFORMANCE_DIR, else the ../shared/conformance beside the source\n"
    "  --model M        only this model (repeatable; default all four)\n"
    "  --test NAME      only tests/NAME\n"
    "  --case N         with --test: only the case of [test] section N (earlier blocks still run)\n"
    "  --json FILE      write every case's result\n"
    "  --translator T   kiln (default) or vkd3d (Debian's libvkd3d-shader, DXBC only: checks\n"
    "                   the runner itself)\n"
    "  --layout L       the descriptor layout kiln translates for: runner (default: the\n"
    "                   runner's own sequential bindings, texel buffers), push-cb0 (the same\n"
    "                   with cb0 in 128 bytes of push constants) or kiln (kiln's own model)\n"
    "  --min-pass P     exit 1 only when fewer than P% of the verified cases pass (default:\n"
    "                   exit 1 when any verified case does not pass)\n"
    "  --quiet          no per-case failure lines\n"
    "  --in-process     run everything on one Vulkan device in this process (faster; a driver\n"
    "                   crash ends the run). Default: one child process per test file and\n"
    "                   model, so a crash or a hang (--timeout S, default 120) fails only the\n"
    "                   rest of that file\n"
    "  --spec-constants pass the D3D9 fixed-function state to kiln as specialization constants\n"
    "                   (default: immediate parameters)\n"
    "  --skip-missing   exit 77 (ctest: skipped) when the package or a Vulkan device is absent\n"
    "                   (not when CI=true: in CI they are required)\n"
    "The last line is 'N passed, N failed, N skipped' over verified cases (FORMAT.md).\n"
    "Exit: 0 all verified cases pass (or the --min-pass share); 1 otherwise; 2 usage or setup.\n";

int usage_error(const std::string& message) {
  std::cerr << "kiln-conformance: " << message << "\n" << kUsage;
  return 2;
}

} // namespace

int main(int argc, char** argv) {
  using namespace kiln::conformance;
  RunOptions options;
  options.isolate = true;
  std::string json_path, translator = "kiln", layout = "runner";
  double min_pass = -1;
  bool skip_missing = false; // --skip-missing, except in CI (CI=true): there it still fails
  constexpr int kSkipped = 77;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto value = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
    const char* v = nullptr;
    if (arg == "-h" || arg == "--help") {
      std::cout << kUsage;
      return 0;
    } else if (arg == "--quiet") {
      options.print_failures = false;
    } else if (arg == "--in-process") {
      options.isolate = false;
    } else if (arg == "--spec-constants") {
      options.spec_constants = true;
    } else if (arg == "--skip-missing") {
      skip_missing = !kiln::test::running_in_ci();
    } else if (arg == "--model" || arg == "--test" || arg == "--case" || arg == "--json" ||
               arg == "--translator" || arg == "--min-pass" || arg == "--timeout" ||
               arg == "--layout") {
      if ((v = value()) == nullptr) return usage_error(arg + " needs a value");
      if (arg == "--model") {
        const std::string m = v;
        if (m != "sm2" && m != "sm3" && m != "sm4" && m != "sm5")
          return usage_error("unknown model '" + m + "'");
        options.models.push_back(m);
      } else if (arg == "--test") {
        options.test = v;
      } else if (arg == "--case") {
        char* end = nullptr;
        options.case_section = int(std::strtol(v, &end, 10));
        if (*end != '\0' || options.case_section < 0) return usage_error("bad --case number");
      } else if (arg == "--json") {
        json_path = v;
      } else if (arg == "--timeout") {
        char* end = nullptr;
        options.timeout_seconds = unsigned(std::strtoul(v, &end, 10));
        if (*end != '\0' || options.timeout_seconds == 0) return usage_error("bad --timeout");
      } else if (arg == "--translator") {
        translator = v;
      } else if (arg == "--layout") {
        layout = v;
        if (layout != "runner" && layout != "push-cb0" && layout != "kiln")
          return usage_error("unknown --layout '" + layout + "'");
      } else {
        char* end = nullptr;
        min_pass = std::strtod(v, &end);
        if (*end != '\0' || min_pass < 0 || min_pass > 100) return usage_error("bad --min-pass");
      }
    } else if (!arg.empty() && arg[0] == '-') {
      return usage_error("unknown option " + arg);
    } else if (options.package.empty()) {
      options.package = arg;
    } else {
      return usage_error("more than one package directory");
    }
  }
  if (options.package.empty()) return usage_error("no package directory");
  if (options.package == "default") {
    options.package = kiln::test::conformance_dir();
    if (options.package.empty()) {
      std::cout << "kiln-conformance: no conformance package (set KILN_CONFORMANCE_DIR or put "
                   "../shared/conformance beside the source): skipped\n";
      return skip_missing ? kSkipped : 2;
    }
  }
  if (options.case_section >= 0 && options.test.empty()) return usage_error("--case needs --test");
  if (list_test_folders(options.package).empty())
    return usage_error(options.package.string() + ": no tests/*/cases.json");

  std::string why_not;
  std::unique_ptr<kiln::vulkan::Context> context;
  if (!options.isolate) context = kiln::vulkan::Context::create(why_not);
  if (!options.isolate && !context) {
    std::cerr << "kiln-conformance: no Vulkan device: " << why_not << "\n";
    return skip_missing ? kSkipped : 2;
  }
  std::unique_ptr<ShaderSource> source;
  if (translator == "kiln") {
    source = std::make_unique<KilnShaderSource>(layout == "kiln" ? nullptr
                                                : layout == "push-cb0"
                                                    ? runner_interface(kPushConstantBytes)
                                                    : runner_interface());
  } else if (translator == "vkd3d") {
    auto vkd3d = std::make_unique<Vkd3dShaderSource>();
    if (!vkd3d->available()) {
      std::cerr << "kiln-conformance: " << vkd3d->note() << "\n";
      return 2;
    }
    source = std::move(vkd3d);
  } else {
    return usage_error("unknown translator '" + translator + "'");
  }
  if (context) std::cout << "device: " << context->device_name() << "\n";
  const RunSummary summary = run_package(options, context.get(), *source, std::cout);
  if (summary.results.empty() && !summary.load_errors.empty()) {
    // Isolated children that could not make a device: same as having none here.
    std::cerr << "kiln-conformance: nothing ran: " << summary.load_errors.front() << "\n";
    return skip_missing ? kSkipped : 2;
  }
  if (!json_path.empty()) {
    std::string error;
    if (!write_json(summary, json_path, error)) std::cerr << "kiln-conformance: " << error << "\n";
  }
  print_summary(summary, std::cout);
  const unsigned total = summary.passed + summary.failed + summary.skipped;
  if (min_pass >= 0) return total == 0 || 100.0 * summary.passed >= min_pass * total ? 0 : 1;
  return summary.failed == 0 && summary.skipped == 0 ? 0 : 1;
}
