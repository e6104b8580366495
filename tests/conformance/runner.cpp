#include "tests/conformance/runner.h"

#include "tests/conformance/isolate.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>

namespace kiln::conformance {

namespace {

const std::vector<std::string> kModels = {"sm2", "sm3", "sm4", "sm5"};

// "line 12: probe (0, 0): expected ..." -> a reason to group by: the text before the first
// ':' after dropping a "line N:" and a "<blob>:" prefix.
std::string reason_key(const std::string& message) {
  std::string text = message;
  if (text.rfind("line ", 0) == 0)
    if (auto colon = text.find(": "); colon != std::string::npos) text = text.substr(colon + 2);
  if (auto blob = text.find(".d3d9: "); blob != std::string::npos) text = text.substr(blob + 7);
  if (auto blob = text.find(".dxbc: "); blob != std::string::npos) text = text.substr(blob + 7);
  if (text.size() > 90) text = text.substr(0, 90) + "...";
  return text;
}

} // namespace

RunSummary run_package(const RunOptions& options, vulkan::Context* context, ShaderSource& source,
                       std::ostream& progress) {
  const auto start = std::chrono::steady_clock::now();
  RunSummary summary;
  summary.source = source.name();
  const std::vector<std::string>& models = options.models.empty() ? kModels : options.models;
  std::unique_ptr<Executor> executor;
  if (!options.isolate) {
    if (context == nullptr) {
      summary.load_errors.push_back("no Vulkan context");
      return summary;
    }
    executor = std::make_unique<Executor>(*context, source);
    executor->set_parameters_as_spec_constants(options.spec_constants);
  }
  std::vector<std::filesystem::path> folders = list_test_folders(options.package);
  if (!options.test.empty())
    folders.erase(std::remove_if(folders.begin(), folders.end(),
                                 [&](const auto& f) { return f.filename() != options.test; }),
                  folders.end());
  std::size_t done = 0;
  for (const auto& folder : folders) {
    TestFile file;
    std::string error;
    ++done;
    if (!load_test_file(folder, file, error)) {
      summary.load_errors.push_back(error);
      progress << "kiln-conformance: " << error << "\n";
      continue;
    }
    unsigned file_pass = 0, file_verified = 0;
    for (const std::string& model : models) {
      std::vector<CaseResult> results;
      if (executor) {
        executor->run_file(file, model, options.case_section, results);
      } else {
        std::string setup_error;
        results = run_file_isolated(file, model, options.case_section, source,
                                    options.timeout_seconds, setup_error, options.spec_constants);
        if (!setup_error.empty()) {
          summary.load_errors.push_back(file.name + " (" + model + "): " + setup_error);
          progress << "kiln-conformance: " << file.name << ": " << setup_error << "\n";
        }
      }
      for (const CaseResult& r : results) {
        if (r.verified) {
          ++file_verified;
          file_pass += r.outcome == Outcome::Pass;
          if (r.outcome == Outcome::Pass)
            ++summary.passed;
          else if (r.outcome == Outcome::Skipped)
            ++summary.skipped;
          else
            ++summary.failed;
          if (options.print_failures && r.outcome != Outcome::Pass)
            progress << "  " << outcome_name(r.outcome) << " " << r.id << ": " << r.message << "\n";
        }
        summary.results.push_back(r);
      }
    }
    char line[160];
    std::snprintf(line, sizeof line, "[%zu/%zu] %-40s %u/%u verified cases pass\n", done,
                  folders.size(), file.name.c_str(), file_pass, file_verified);
    progress << line << std::flush;
  }
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return summary;
}

void print_summary(const RunSummary& summary, std::ostream& out) {
  // model -> outcome counts, verified and unverified.
  std::map<std::string, std::array<unsigned, 4>> verified, other;
  std::map<std::string, unsigned> skip_reasons, reject_reasons, fail_reasons;
  for (const CaseResult& r : summary.results) {
    (r.verified ? verified : other)[r.model][int(r.outcome)]++;
    if (!r.verified) continue;
    if (r.outcome == Outcome::Skipped) ++skip_reasons[reason_key(r.message)];
    if (r.outcome == Outcome::Rejected) ++reject_reasons[reason_key(r.message)];
    if (r.outcome == Outcome::Fail) ++fail_reasons[reason_key(r.message)];
  }
  char line[200];
  out << "\ntranslator: " << summary.source << "\n";
  std::snprintf(line, sizeof line, "%-6s %8s %8s %8s %8s %8s   %s\n", "model", "verified", "pass",
                "fail", "rejected", "skipped", "(unverified: pass/total)");
  out << line;
  for (const std::string& model : kModels) {
    if (!verified.count(model) && !other.count(model)) continue;
    const auto& v = verified[model];
    const auto& o = other[model];
    std::snprintf(line, sizeof line, "%-6s %8u %8u %8u %8u %8u   %u/%u\n", model.c_str(),
                  v[0] + v[1] + v[2] + v[3], v[0], v[1], v[2], v[3], o[0],
                  o[0] + o[1] + o[2] + o[3]);
    out << line;
  }
  const auto top = [&](const char* title, const std::map<std::string, unsigned>& reasons) {
    if (reasons.empty()) return;
    std::vector<std::pair<unsigned, std::string>> sorted;
    for (const auto& [reason, count] : reasons) sorted.emplace_back(count, reason);
    std::sort(sorted.rbegin(), sorted.rend());
    out << title << "\n";
    for (std::size_t i = 0; i < sorted.size() && i < 15; ++i)
      out << "  " << sorted[i].first << "  " << sorted[i].second << "\n";
    if (sorted.size() > 15) out << "  ... " << sorted.size() - 15 << " more\n";
  };
  top("skipped (runner features not implemented):", skip_reasons);
  top("rejected by the translator:", reject_reasons);
  top("failed:", fail_reasons);
  for (const std::string& e : summary.load_errors) out << "unreadable: " << e << "\n";
  std::snprintf(line, sizeof line, "time: %.1f s\n", summary.seconds);
  out << line;
  out << summary.passed << " passed, " << summary.failed << " failed, " << summary.skipped
      << " skipped\n";
}

bool write_json(const RunSummary& summary, const std::filesystem::path& path, std::string& error) {
  nlohmann::json json;
  json["translator"] = summary.source;
  json["passed"] = summary.passed;
  json["failed"] = summary.failed;
  json["skipped"] = summary.skipped;
  json["seconds"] = summary.seconds;
  json["load_errors"] = summary.load_errors;
  nlohmann::json& cases = json["cases"] = nlohmann::json::array();
  for (const CaseResult& r : summary.results) {
    cases.push_back({{"id", r.id},
                     {"model", r.model},
                     {"verified", r.verified},
                     {"included", r.included},
                     {"outcome", outcome_name(r.outcome)},
                     {"message", r.message},
                     {"probes", r.probes},
                     {"probes_passed", r.probes_passed}});
  }
  std::ofstream out(path);
  // Messages quote translator output, which need not be UTF-8.
  out << json.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  if (!out) {
    error = "cannot write " + path.string();
    return false;
  }
  return true;
}

} // namespace kiln::conformance
