// The text summary and the JSON file of `kiln execute` (execute.h; schema in docs/execution.md).

#include "bench/execute/driver_times.h"
#include "bench/execute/execute.h"
#include "bench/stats.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

namespace kiln::execute {

namespace {

std::string escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '"' || c == '\\')
      out += '\\', out += c;
    else if (std::uint8_t(c) < 0x20)
      out += ' ';
    else
      out += c;
  }
  return out;
}

std::string number(double value) {
  if (!std::isfinite(value) || value < 0) return "null";
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", value);
  return text;
}

// One JSON object per record of the DXBC (`d3d9` false) or D3D9 shaders.
void write_records(std::FILE* f, const ExecuteSummary& summary, bool d3d9) {
  const char* first = d3d9 ? "immediate" : "kiln";
  const char* second = d3d9 ? "specialized" : "vkd3d";
  bool any = false;
  for (const ShaderRecord& r : summary.records) {
    if (r.d3d9 != d3d9) continue;
    std::fprintf(f,
                 "%s\n{\"file\":\"%s\",\"stage\":\"%s\",\"input_bytes\":%llu,\"verdict\":\"%s\","
                 "\"reason\":\"%s\","
                 "\"tolerance\":\"%s\",\"%s_build_ms\":%s,\"%s_build_ms\":%s,"
                 "\"%s_run_ms\":%s,\"%s_run_ms\":%s,\"words_compared\":%llu,"
                 "\"words_different\":%llu",
                 any ? "," : "", escape(r.file).c_str(), r.stage.c_str(),
                 static_cast<unsigned long long>(r.input_bytes), verdict_name(r.verdict),
                 escape(r.reason).c_str(), r.op_class.c_str(), first,
                 number(r.kiln_build_ms).c_str(), second, number(r.vkd3d_build_ms).c_str(), first,
                 number(r.kiln_run_ms).c_str(), second, number(r.vkd3d_run_ms).c_str(),
                 static_cast<unsigned long long>(r.words_compared),
                 static_cast<unsigned long long>(r.words_different));
    if (!d3d9)
      std::fprintf(f, ",\"kiln_built_first\":%s,\"timed_pairs\":%u",
                   r.kiln_first ? "true" : "false", r.timed_pairs);
    std::fprintf(f, "}");
    any = true;
  }
}

} // namespace

void print_summary(const ExecuteSummary& summary) {
  if (!summary.setup_error.empty())
    std::printf("kiln execute: nothing ran: %s\n", summary.setup_error.c_str());
  std::printf("kiln execute on %s: %zu shaders in %.1f s\n",
              summary.device.empty() ? "(no device)" : summary.device.c_str(),
              summary.records.size(), summary.wall_seconds);
  // Per stage: how many of each verdict.
  std::map<std::string, std::map<Verdict, std::size_t>> by_stage;
  for (const ShaderRecord& r : summary.records) ++by_stage[r.stage][r.verdict];
  std::printf("%-6s", "stage");
  for (std::size_t v = 0; v < std::size_t(Verdict::Count); ++v)
    std::printf(" %9.9s", verdict_name(Verdict(v)));
  std::printf("\n");
  for (const auto& [stage, counts] : by_stage) {
    std::printf("%-6s", stage.empty() ? "?" : stage.c_str());
    for (std::size_t v = 0; v < std::size_t(Verdict::Count); ++v) {
      auto it = counts.find(Verdict(v));
      std::printf(" %9zu", it == counts.end() ? 0 : it->second);
    }
    std::printf("\n");
  }
  // DXBC shaders compare two translators, D3D9 shaders two render-state forms of kiln's.
  for (const bool d3d9 : {false, true}) {
    std::size_t matched = 0, compared = 0, contracted = 0;
    std::vector<double> kiln_build, vkd3d_build, kiln_run, vkd3d_run;
    for (const ShaderRecord& r : summary.records) {
      if (r.d3d9 != d3d9) continue;
      matched += r.verdict == Verdict::Match;
      contracted += r.verdict == Verdict::Contraction;
      compared += r.verdict == Verdict::Match || r.verdict == Verdict::Differ ||
                  r.verdict == Verdict::Contraction;
      if (r.kiln_build_ms >= 0) kiln_build.push_back(r.kiln_build_ms);
      if (r.vkd3d_build_ms >= 0) vkd3d_build.push_back(r.vkd3d_build_ms);
      if (r.kiln_run_ms >= 0) kiln_run.push_back(r.kiln_run_ms);
      if (r.vkd3d_run_ms >= 0) vkd3d_run.push_back(r.vkd3d_run_ms);
    }
    const char* what = d3d9 ? "D3D9, both render-state forms executed and compared"
                            : "executed by both and compared";
    if (compared)
      std::printf("%s: %zu, same results: %zu (%.2f%%); with the %zu that agree once the driver "
                  "may not fuse a multiply and an add: %zu (%.2f%%)\n",
                  what, compared, matched, 100.0 * double(matched) / double(compared), contracted,
                  matched + contracted, 100.0 * double(matched + contracted) / double(compared));
    if (!kiln_build.empty())
      std::printf("%spipeline build, median ms: %s %.3f, %s %.3f; run: %s %.3f, %s %.3f\n",
                  d3d9 ? "D3D9 " : "", d3d9 ? "immediate" : "kiln", bench::median(kiln_build),
                  d3d9 ? "specialized" : "vkd3d", bench::median(vkd3d_build),
                  d3d9 ? "immediate" : "kiln", bench::median(kiln_run),
                  d3d9 ? "specialized" : "vkd3d", bench::median(vkd3d_run));
  }
  std::fputs(driver_times_text(driver_time_groups(summary.records), summary.warm_driver).c_str(),
             stdout);
  for (const ShaderRecord& r : summary.records) {
    if (r.verdict == Verdict::Match || r.verdict == Verdict::NotExecuted) continue;
    std::printf("  %-12s %s [%s]: %s\n", verdict_name(r.verdict), r.file.c_str(), r.stage.c_str(),
                r.reason.c_str());
  }
  std::map<std::string, std::size_t> reasons;
  for (const ShaderRecord& r : summary.records)
    if (r.verdict == Verdict::NotExecuted) ++reasons[r.reason.substr(0, r.reason.find(':'))];
  for (const auto& [reason, count] : reasons)
    std::printf("  not executed: %s x%zu\n", reason.c_str(), count);
}

bool write_json(const ExecuteSummary& summary, const ExecuteOptions& options,
                const std::string& path, std::string& error) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (!f) {
    error = "cannot write " + path;
    return false;
  }
  std::fprintf(f, "{\"schema\":\"kiln-execute/1\",\"device\":\"%s\",\"seed\":%llu,",
               escape(summary.device).c_str(), static_cast<unsigned long long>(options.seed));
  std::fprintf(f, "\"wall_seconds\":%s,\"setup_error\":\"%s\",\"counts\":{",
               number(summary.wall_seconds).c_str(), escape(summary.setup_error).c_str());
  for (std::size_t v = 0; v < std::size_t(Verdict::Count); ++v)
    std::fprintf(f, "%s\"%s\":%zu", v ? "," : "", verdict_name(Verdict(v)), summary.counts[v]);
  std::fprintf(f, "},\"driver_warmed\":%s,\"driver_times\":%s,\"shaders\":[",
               summary.warm_driver ? "true" : "false",
               driver_times_json(driver_time_groups(summary.records)).c_str());
  write_records(f, summary, false);
  // D3D9 shaders: their two render-state forms (docs/execution.md, "D3D9 shaders").
  std::fprintf(f, "\n],\"d3d9\":{\"counts\":{");
  std::size_t counts[std::size_t(Verdict::Count)] = {};
  for (const ShaderRecord& r : summary.records)
    if (r.d3d9) ++counts[std::size_t(r.verdict)];
  for (std::size_t v = 0; v < std::size_t(Verdict::Count); ++v)
    std::fprintf(f, "%s\"%s\":%zu", v ? "," : "", verdict_name(Verdict(v)), counts[v]);
  std::fprintf(f, "},\"shaders\":[");
  write_records(f, summary, true);
  std::fprintf(f, "\n]}}\n");
  const bool ok = std::fclose(f) == 0;
  if (!ok) error = "cannot write " + path;
  return ok;
}

bool write_svg(const ExecuteSummary& summary, const std::string& path, std::string& error) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (!f) {
    error = "cannot write " + path;
    return false;
  }
  const std::string svg = driver_times_svg(driver_time_groups(summary.records), summary.device);
  const bool ok = std::fwrite(svg.data(), 1, svg.size(), f) == svg.size() && std::fclose(f) == 0;
  if (!ok) error = "cannot write " + path;
  return ok;
}

} // namespace kiln::execute
