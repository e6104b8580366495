// The text summary of `kiln bench`, in the order of the four sections.

#include "bench/report.h"

namespace kiln::bench {

namespace {

void print_latency(std::FILE* out, const char* indent, const LatencySummary& l) {
  std::fprintf(out,
               "%sp50 %.1f us  p90 %.1f us  p99 %.1f us  max %.1f us  total %.1f ms  "
               "%.0f shaders/s\n",
               indent, l.p50_us, l.p90_us, l.p99_us, l.max_us, l.total_ms, l.shaders_per_s);
}

// Beside a warm latency line: the same figures for the first call after an eviction.
void print_cold(std::FILE* out, const BenchRun& run, const LatencySummary& cold) {
  if (!run.cold || !cold.count) return;
  std::fprintf(out, "  cold (first call, %zu MiB written before it), over %zu:\n",
               run.cold_evict_bytes >> 20, cold.count);
  print_latency(out, "    ", cold);
}

void print_groups(std::FILE* out, const char* title, const std::vector<GroupSummary>& groups) {
  std::fprintf(out, "  %s:\n", title);
  for (const GroupSummary& g : groups) {
    std::fprintf(out, "    %-9s %5zu files  %5zu translated", g.name.c_str(), g.files,
                 g.translated);
    if (g.translated)
      std::fprintf(out, "  p50 %.1f us  p99 %.1f us  total %.1f ms", g.latency.p50_us,
                   g.latency.p99_us, g.latency.total_ms);
    std::fputc('\n', out);
  }
}

void print_reasons(std::FILE* out, const std::vector<ReasonCount>& reasons) {
  for (const ReasonCount& r : reasons)
    std::fprintf(out, "    %6zu  %s\n", r.second, r.first.c_str());
}

} // namespace

void print_report(std::FILE* out, const BenchRun& run, const Summary& s) {
  std::fprintf(out, "kiln bench: %zu files (%s), %u reps, median per shader%s\n", s.files,
               run.source.c_str(), run.reps, run.cold ? "; cold: first call after eviction" : "");

  std::fprintf(out, "\n1. Translation (in-process, one warm Translator)\n");
  std::fprintf(out, "  %zu translated, %zu rejected\n", s.translated, s.rejected);
  if (s.translated) {
    print_latency(out, "  ", s.latency);
    print_cold(out, run, s.cold_latency);
  } else
    std::fprintf(out, "  no shader translated: no latency figures\n");
  print_groups(out, "by kind", s.by_kind);
  print_groups(out, "by stage", s.by_stage);

  std::fprintf(out, "\n2. Service throughput\n");
  if (run.service) {
    const ServiceFigures& f = *run.service;
    std::fprintf(out, "  %zu shaders, cold: 1 thread %.0f shaders/s, %u threads %.0f shaders/s\n",
                 f.shaders, f.one_thread_cold_per_s, f.all_threads, f.all_threads_cold_per_s);
    if (f.one_thread_warm_per_s && f.all_threads_warm_per_s)
      std::fprintf(out, "  warm cache: 1 thread %.0f shaders/s, %u threads %.0f shaders/s\n",
                   *f.one_thread_warm_per_s, f.all_threads, *f.all_threads_warm_per_s);
  }
  if (!run.service_note.empty()) std::fprintf(out, "  %s\n", run.service_note.c_str());

  std::fprintf(out, "\n3. Cache\n");
  if (run.cache)
    std::fprintf(out, "  hit p50 %.1f us  p99 %.1f us  open %.1f ms  %llu bytes on disk\n",
                 run.cache->hit_p50_us, run.cache->hit_p99_us, run.cache->open_ms,
                 static_cast<unsigned long long>(run.cache->bytes_on_disk));
  if (!run.cache_note.empty()) std::fprintf(out, "  %s\n", run.cache_note.c_str());

  std::fprintf(out, "\n4. Quality\n");
  std::fprintf(out, "  translated %zu / %zu, rejected %zu\n", s.translated, s.files, s.rejected);
  if (!s.top_rejections.empty()) {
    std::fprintf(out, "  top rejection reasons (numbers as #):\n");
    print_reasons(out, s.top_rejections);
  }
  if (run.validate)
    std::fprintf(out, "  valid SPIR-V: %zu / %zu validated\n", s.valid, s.validated);
  if (s.translated) std::fprintf(out, "  SPIR-V size / input size: %.2f\n", s.spirv_to_input);

  if (run.driver) {
    std::fprintf(out, "\n5. Driver time (kiln execute --warm-driver over the same paths)\n");
    if (!run.driver->error.empty())
      std::fprintf(out, "  not measured: %s\n", run.driver->error.c_str());
    else
      std::fputs(driver_times_text(run.driver->groups, run.driver->warmed).c_str(), out);
  }

  if (!run.peer_name.empty()) {
    std::fprintf(out, "\nPeer: %s (%s)\n", run.peer_name.c_str(), run.peer_note.c_str());
    if (run.peer_available) {
      std::fprintf(out, "  %zu files it reads, %zu translated\n", s.peer_files, s.peer_translated);
      if (s.peer_translated) {
        print_latency(out, "  ", s.peer_latency);
        print_cold(out, run, s.peer_cold_latency);
        std::fprintf(out, "  SPIR-V size / input size: %.2f\n", s.peer_spirv_to_input);
      }
      if (!s.peer_top_rejections.empty()) {
        std::fprintf(out, "  top rejection reasons:\n");
        print_reasons(out, s.peer_top_rejections);
      }
      if (s.both_translated) {
        std::fprintf(out,
                     "  kiln/%s time ratio, geometric mean over %zu files both translate: %.3f\n",
                     run.peer_name.c_str(), s.both_translated, s.geomean_ratio);
        if (s.both_cold)
          std::fprintf(out, "  cold, first calls: geometric mean over %zu files: %.3f\n",
                       s.both_cold, s.cold_geomean_ratio);
        std::fprintf(out,
                     "  kiln/%s by input size (total: of the summed medians; median: of the "
                     "medians):\n",
                     run.peer_name.c_str());
        for (const PeerRatio& r : s.peer_ratios) {
          std::fprintf(out, "    %-9s %6zu files  total %.3f  median %.3f", r.name.c_str(), r.files,
                       r.total, r.median);
          if (r.cold_files)
            std::fprintf(out, "  | cold %6zu files  total %.3f  median %.3f", r.cold_files,
                         r.cold_total, r.cold_median);
          std::fputc('\n', out);
        }
      } else
        std::fprintf(out, "  no file translated by both: no ratio\n");
    }
  }
}

} // namespace kiln::bench
