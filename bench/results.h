#pragma once
// The records a bench run produces and the summary derived from them. The text report, the
// JSON file and the plot all read these; none of them measures anything.

#include "bench/driver_times.h"
#include "bench/stats.h"
#include "translator/common/input_kind.h"
#include "translator/common/shader_stage.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kiln::bench {

struct PeerRecord {
  bool attempted = false; // the peer accepts this kind
  bool ok = false;
  std::string error;
  double median_us = 0;
  std::size_t spirv_bytes = 0;
  std::optional<double> cold_us; // --cold: the first call after the caches were evicted
};

struct FileRecord {
  std::string path;
  InputKind kind = InputKind::Unknown;
  ShaderStage stage = ShaderStage::Count;
  std::size_t input_bytes = 0;
  bool ok = false;
  std::string error;    // kiln's one-line rejection
  double median_us = 0; // median over reps, translated or not
  std::size_t spirv_bytes = 0;
  int valid = -1; // --validate: 1 valid, 0 invalid, -1 not checked
  std::string validation_error;
  PeerRecord peer;
  // --cold: kiln's first call on this shader (pools warm from earlier shaders), timed after
  // the caches were evicted; before the warm-up and the reps above.
  std::optional<double> cold_us;
};

// Service throughput (section 2): shaders/s through kiln's async service.
struct ServiceFigures {
  unsigned all_threads = 0;
  std::size_t shaders = 0;
  double one_thread_cold_per_s = 0;
  double all_threads_cold_per_s = 0;
  std::optional<double> one_thread_warm_per_s; // needs the disk cache
  std::optional<double> all_threads_warm_per_s;
};

// Cache (section 3).
struct CacheFigures {
  double hit_p50_us = 0, hit_p99_us = 0;
  double open_ms = 0;
  std::uint64_t bytes_on_disk = 0;
};

// What `--driver` adds (issue 31): the driver's pipeline-build and first-run times for kiln's
// SPIR-V against vkd3d-shader's, grouped as the execution harness (bench/execute) groups them.
struct DriverSection {
  std::vector<DriverTimeGroup> groups; // bench/driver_times.h
  bool warmed = false;                 // after an untimed build and run of both
  std::string device;
  std::string error; // set when nothing was measured: why
};

struct BenchRun {
  std::string source; // "paths" or "synthetic (seed S, N shaders)"
  unsigned reps = 0;
  unsigned threads = 0;
  bool validate = false;
  bool cold = false;                // --cold: records carry cold_us
  std::size_t cold_evict_bytes = 0; // bytes written before each cold call
  std::string peer_name;            // empty without --vs
  bool peer_available = false;
  std::string peer_note;
  std::vector<FileRecord> files;
  std::optional<ServiceFigures> service;
  std::string service_note; // why service figures are absent or partial
  std::optional<CacheFigures> cache;
  std::string cache_note;
  std::optional<DriverSection> driver; // --driver
};

struct GroupSummary {
  std::string name;
  std::size_t files = 0, translated = 0;
  LatencySummary latency; // over translated files
};

using ReasonCount = std::pair<std::string, std::size_t>;

// kiln against the peer over the files both translate (of one input-size bucket, or all):
// total = sum of kiln's medians / sum of the peer's, median = kiln's median / the peer's.
struct PeerRatio {
  std::string name; // "all", or the bucket: "< 1 KB", "1-4 KB", "4-16 KB", ">= 16 KB", "> 4 KB"
  std::size_t files = 0;
  double total = 0, median = 0; // 0 when files == 0
  // --cold: the same over the files of the bucket with cold times from both (0 files: none).
  std::size_t cold_files = 0;
  double cold_total = 0, cold_median = 0;
};

struct Summary {
  std::size_t files = 0, translated = 0, rejected = 0;
  LatencySummary latency; // over translated files
  std::vector<GroupSummary> by_kind, by_stage;
  std::vector<ReasonCount> top_rejections; // most frequent first, at most 10
  std::size_t validated = 0, valid = 0;
  double spirv_to_input = 0; // total SPIR-V bytes / total input bytes, over translated files

  // --vs: the peer over the files it accepts.
  std::size_t peer_files = 0, peer_translated = 0;
  LatencySummary peer_latency;
  std::vector<ReasonCount> peer_top_rejections;
  double peer_spirv_to_input = 0;
  std::size_t both_translated = 0;
  double geomean_ratio = 0; // kiln/peer median time over files both translate; 0 if none
  // "all" first, then by input size; buckets without files are left out.
  std::vector<PeerRatio> peer_ratios;

  // --cold: the first-call times after eviction, over the files with a cold time (kiln's over
  // the files it translates, the peer's over those it translates).
  LatencySummary cold_latency, peer_cold_latency;
  std::size_t both_cold = 0;     // files both translate, with both cold times
  double cold_geomean_ratio = 0; // kiln/peer cold time over those; 0 if none
};

Summary summarize_run(const BenchRun& run);

// Groups rejection messages by rejection_group() and returns the most frequent `limit`.
std::vector<ReasonCount> top_reasons(const std::vector<std::string>& messages, std::size_t limit);

} // namespace kiln::bench
