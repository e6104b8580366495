// The JSON file of `kiln bench --json` (schema "kiln-bench/1", documented in docs/bench.md).

#include "bench/report.h"

#include <cmath>
#include <cstdio>

namespace kiln::bench {

namespace {

// Builds JSON text; the caller keeps keys and values in order, commas are inserted here.
class Json {
 public:
  Json& open(char bracket) {
    comma();
    text_ += bracket;
    first_ = true;
    return *this;
  }
  Json& close(char bracket) {
    text_ += bracket;
    first_ = false;
    return *this;
  }
  Json& key(const char* name) {
    comma();
    string(name);
    text_ += ':';
    first_ = true;
    return *this;
  }
  Json& str(std::string_view value) {
    comma();
    string(value);
    return *this;
  }
  Json& num(double value) {
    comma();
    if (!std::isfinite(value)) {
      text_ += "null";
      return *this;
    }
    char buffer[32];
    std::snprintf(buffer, sizeof(buffer), "%.6g", value);
    text_ += buffer;
    return *this;
  }
  Json& integer(std::uint64_t value) {
    comma();
    text_ += std::to_string(value);
    return *this;
  }
  Json& boolean(bool value) {
    comma();
    text_ += value ? "true" : "false";
    return *this;
  }
  Json& null() {
    comma();
    text_ += "null";
    return *this;
  }
  Json& raw(std::string_view json) { // a value written elsewhere, as it is
    comma();
    text_ += json;
    return *this;
  }
  std::string take() { return std::move(text_) + "\n"; }

 private:
  void comma() {
    if (!first_) text_ += ',';
    first_ = false;
  }
  void string(std::string_view value) {
    text_ += '"';
    for (char c : value) {
      switch (c) {
      case '"':
        text_ += "\\\"";
        break;
      case '\\':
        text_ += "\\\\";
        break;
      case '\n':
        text_ += "\\n";
        break;
      case '\t':
        text_ += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buffer[8];
          std::snprintf(buffer, sizeof(buffer), "\\u%04x", c);
          text_ += buffer;
        } else {
          text_ += c;
        }
      }
    }
    text_ += '"';
  }
  std::string text_;
  bool first_ = true;
};

void latency(Json& j, const LatencySummary& l) {
  j.key("count").integer(l.count);
  j.key("p50_us").num(l.p50_us);
  j.key("p90_us").num(l.p90_us);
  j.key("p99_us").num(l.p99_us);
  j.key("max_us").num(l.max_us);
  j.key("total_ms").num(l.total_ms);
  j.key("shaders_per_s").num(l.shaders_per_s);
}

void groups(Json& j, const char* name, const std::vector<GroupSummary>& list) {
  j.key(name).open('{');
  for (const GroupSummary& g : list) {
    j.key(g.name.c_str()).open('{');
    j.key("files").integer(g.files);
    j.key("translated").integer(g.translated);
    latency(j, g.latency);
    j.close('}');
  }
  j.close('}');
}

void reasons(Json& j, const char* name, const std::vector<ReasonCount>& list) {
  j.key(name).open('[');
  for (const ReasonCount& r : list) {
    j.open('{');
    j.key("reason").str(r.first);
    j.key("count").integer(r.second);
    j.close('}');
  }
  j.close(']');
}

void optional_number(Json& j, const char* name, const std::optional<double>& value) {
  j.key(name);
  if (value)
    j.num(*value);
  else
    j.null();
}

// --cold only: the latency fields of the first calls, or null when there were none.
void cold_latency(Json& j, const BenchRun& run, const LatencySummary& l) {
  if (!run.cold) return;
  j.key("cold");
  if (!l.count) {
    j.null();
    return;
  }
  j.open('{');
  latency(j, l);
  j.close('}');
}

} // namespace

std::string json_report(const BenchRun& run, const Summary& s) {
  Json j;
  j.open('{');
  j.key("schema").str(kJsonSchema);
  j.key("options").open('{');
  j.key("source").str(run.source);
  j.key("reps").integer(run.reps);
  j.key("threads").integer(run.threads);
  j.key("validate").boolean(run.validate);
  j.key("cold").boolean(run.cold);
  j.key("cold_evict_bytes").integer(run.cold ? run.cold_evict_bytes : 0);
  j.key("peer");
  if (run.peer_name.empty())
    j.null();
  else
    j.str(run.peer_name);
  j.close('}');

  j.key("files").open('[');
  for (const FileRecord& r : run.files) {
    j.open('{');
    j.key("path").str(r.path);
    j.key("kind").str(input_kind_name(r.kind));
    j.key("stage");
    if (r.stage == ShaderStage::Count)
      j.null();
    else
      j.str(shader_stage_abbrev(r.stage));
    j.key("input_bytes").integer(r.input_bytes);
    j.key("ok").boolean(r.ok);
    j.key("error");
    if (r.ok)
      j.null();
    else
      j.str(r.error);
    j.key("median_us").num(r.median_us);
    if (run.cold) optional_number(j, "cold_us", r.cold_us);
    j.key("spirv_bytes").integer(r.spirv_bytes);
    j.key("valid");
    if (r.valid < 0)
      j.null();
    else
      j.boolean(r.valid == 1);
    if (!r.validation_error.empty()) j.key("validation_error").str(r.validation_error);
    if (!run.peer_name.empty()) {
      j.key("peer");
      if (!r.peer.attempted) {
        j.null();
      } else {
        j.open('{');
        j.key("ok").boolean(r.peer.ok);
        j.key("error");
        if (r.peer.ok)
          j.null();
        else
          j.str(r.peer.error);
        j.key("median_us").num(r.peer.median_us);
        if (run.cold) optional_number(j, "cold_us", r.peer.cold_us);
        j.key("spirv_bytes").integer(r.peer.spirv_bytes);
        j.close('}');
      }
      j.key("ratio");
      if (r.ok && r.peer.ok && r.peer.median_us > 0)
        j.num(r.median_us / r.peer.median_us);
      else
        j.null();
      if (run.cold) {
        j.key("cold_ratio");
        if (r.ok && r.peer.ok && r.cold_us && r.peer.cold_us && *r.peer.cold_us > 0)
          j.num(*r.cold_us / *r.peer.cold_us);
        else
          j.null();
      }
    }
    j.close('}');
  }
  j.close(']');

  j.key("summary").open('{');
  j.key("translation").open('{');
  j.key("files").integer(s.files);
  j.key("translated").integer(s.translated);
  j.key("rejected").integer(s.rejected);
  latency(j, s.latency);
  cold_latency(j, run, s.cold_latency);
  groups(j, "by_kind", s.by_kind);
  groups(j, "by_stage", s.by_stage);
  j.close('}');

  j.key("service");
  if (run.service) {
    const ServiceFigures& f = *run.service;
    j.open('{');
    j.key("shaders").integer(f.shaders);
    j.key("all_threads").integer(f.all_threads);
    j.key("one_thread_cold_per_s").num(f.one_thread_cold_per_s);
    j.key("all_threads_cold_per_s").num(f.all_threads_cold_per_s);
    optional_number(j, "one_thread_warm_per_s", f.one_thread_warm_per_s);
    optional_number(j, "all_threads_warm_per_s", f.all_threads_warm_per_s);
    j.close('}');
  } else {
    j.null();
  }
  j.key("service_note").str(run.service_note);
  j.key("cache");
  if (run.cache) {
    j.open('{');
    j.key("hit_p50_us").num(run.cache->hit_p50_us);
    j.key("hit_p99_us").num(run.cache->hit_p99_us);
    j.key("open_ms").num(run.cache->open_ms);
    j.key("bytes_on_disk").integer(run.cache->bytes_on_disk);
    j.close('}');
  } else {
    j.null();
  }
  j.key("cache_note").str(run.cache_note);

  j.key("quality").open('{');
  j.key("translated").integer(s.translated);
  j.key("rejected").integer(s.rejected);
  reasons(j, "top_rejections", s.top_rejections);
  j.key("validated").integer(s.validated);
  j.key("valid").integer(s.valid);
  j.key("spirv_to_input").num(s.spirv_to_input);
  j.close('}');

  j.key("peer");
  if (run.peer_name.empty()) {
    j.null();
  } else {
    j.open('{');
    j.key("name").str(run.peer_name);
    j.key("available").boolean(run.peer_available);
    j.key("note").str(run.peer_note);
    j.key("files").integer(s.peer_files);
    j.key("translated").integer(s.peer_translated);
    latency(j, s.peer_latency);
    cold_latency(j, run, s.peer_cold_latency);
    reasons(j, "top_rejections", s.peer_top_rejections);
    j.key("spirv_to_input").num(s.peer_spirv_to_input);
    j.key("both_translated").integer(s.both_translated);
    j.key("geomean_ratio");
    if (s.both_translated)
      j.num(s.geomean_ratio);
    else
      j.null();
    if (run.cold) {
      j.key("both_cold").integer(s.both_cold);
      j.key("cold_geomean_ratio");
      if (s.both_cold)
        j.num(s.cold_geomean_ratio);
      else
        j.null();
    }
    j.key("ratios").open('[');
    for (const PeerRatio& r : s.peer_ratios) {
      j.open('{');
      j.key("bucket").str(r.name);
      j.key("files").integer(r.files);
      j.key("total").num(r.total);
      j.key("median").num(r.median);
      if (run.cold) {
        j.key("cold_files").integer(r.cold_files);
        optional_number(j, "cold_total",
                        r.cold_files ? std::optional<double>(r.cold_total) : std::nullopt);
        optional_number(j, "cold_median",
                        r.cold_files ? std::optional<double>(r.cold_median) : std::nullopt);
      }
      j.close('}');
    }
    j.close(']');
    j.close('}');
  }
  j.close('}');
  if (run.driver) {
    j.key("driver_times");
    if (run.driver->error.empty())
      j.raw(driver_times_json(run.driver->groups));
    else
      j.null();
    j.key("driver_error");
    if (run.driver->error.empty())
      j.null();
    else
      j.str(run.driver->error);
  }
  j.close('}');
  return j.take();
}

} // namespace kiln::bench
