#include "bench/results.h"

#include "bench/size_buckets.h"

#include <algorithm>
#include <cstdint>

namespace kiln::bench {

namespace {

GroupSummary group(std::string name, const std::vector<const FileRecord*>& records) {
  GroupSummary g;
  g.name = std::move(name);
  std::vector<double> times;
  for (const FileRecord* r : records) {
    ++g.files;
    if (r->ok) {
      ++g.translated;
      times.push_back(r->median_us);
    }
  }
  g.latency = summarize(std::move(times));
  return g;
}

} // namespace

std::vector<ReasonCount> top_reasons(const std::vector<std::string>& messages, std::size_t limit) {
  std::vector<std::string> groups;
  groups.reserve(messages.size());
  for (const std::string& m : messages) groups.push_back(rejection_group(m));
  std::sort(groups.begin(), groups.end());
  std::vector<ReasonCount> counts;
  for (std::size_t i = 0; i < groups.size();) {
    std::size_t j = i;
    while (j < groups.size() && groups[j] == groups[i]) ++j;
    counts.emplace_back(groups[i], j - i);
    i = j;
  }
  std::stable_sort(counts.begin(), counts.end(),
                   [](const ReasonCount& a, const ReasonCount& b) { return a.second > b.second; });
  if (counts.size() > limit) counts.resize(limit);
  return counts;
}

namespace {

// total = sum(own) / sum(peer), median = median(own) / median(peer); both non-empty.
void ratio_of(const std::vector<double>& own, const std::vector<double>& peer, double& total,
              double& median_ratio) {
  double own_total = 0, peer_total = 0;
  for (double t : own) own_total += t;
  for (double t : peer) peer_total += t;
  total = peer_total > 0 ? own_total / peer_total : 0;
  const double peer_median = median(peer);
  median_ratio = peer_median > 0 ? median(own) / peer_median : 0;
}

std::vector<PeerRatio> peer_ratios(const std::vector<FileRecord>& files) {
  std::vector<PeerRatio> out;
  for (const SizeBucket& bucket : kSizeBuckets) {
    std::vector<double> own, peer, own_cold, peer_cold;
    for (const FileRecord& r : files) {
      if (!r.ok || !r.peer.attempted || !r.peer.ok || r.peer.median_us <= 0) continue;
      if (!bucket.holds(r.input_bytes)) continue;
      own.push_back(r.median_us);
      peer.push_back(r.peer.median_us);
      if (r.cold_us && r.peer.cold_us && *r.peer.cold_us > 0) {
        own_cold.push_back(*r.cold_us);
        peer_cold.push_back(*r.peer.cold_us);
      }
    }
    if (own.empty()) continue;
    PeerRatio ratio;
    ratio.name = bucket.name;
    ratio.files = own.size();
    ratio_of(own, peer, ratio.total, ratio.median);
    ratio.cold_files = own_cold.size();
    if (!own_cold.empty()) ratio_of(own_cold, peer_cold, ratio.cold_total, ratio.cold_median);
    out.push_back(std::move(ratio));
  }
  return out;
}

} // namespace

Summary summarize_run(const BenchRun& run) {
  Summary s;
  std::vector<double> times, peer_times, ratios, cold_times, peer_cold_times, cold_ratios;
  std::vector<std::string> rejections, peer_rejections;
  std::uint64_t spirv = 0, input = 0, peer_spirv = 0, peer_input = 0;
  for (const FileRecord& r : run.files) {
    ++s.files;
    if (r.ok) {
      ++s.translated;
      times.push_back(r.median_us);
      if (r.cold_us) cold_times.push_back(*r.cold_us);
      spirv += r.spirv_bytes;
      input += r.input_bytes;
    } else {
      rejections.push_back(r.error);
    }
    if (r.valid >= 0) {
      ++s.validated;
      if (r.valid == 1) ++s.valid;
    }
    if (r.peer.attempted) {
      ++s.peer_files;
      if (r.peer.ok) {
        ++s.peer_translated;
        peer_times.push_back(r.peer.median_us);
        if (r.peer.cold_us) peer_cold_times.push_back(*r.peer.cold_us);
        peer_spirv += r.peer.spirv_bytes;
        peer_input += r.input_bytes;
      } else {
        peer_rejections.push_back(r.peer.error);
      }
      if (r.ok && r.peer.ok && r.peer.median_us > 0) {
        ++s.both_translated;
        ratios.push_back(r.median_us / r.peer.median_us);
        if (r.cold_us && r.peer.cold_us && *r.peer.cold_us > 0) {
          ++s.both_cold;
          cold_ratios.push_back(*r.cold_us / *r.peer.cold_us);
        }
      }
    }
  }
  s.rejected = s.files - s.translated;
  s.latency = summarize(std::move(times));
  s.top_rejections = top_reasons(rejections, 10);
  s.spirv_to_input = input ? double(spirv) / double(input) : 0;
  s.peer_latency = summarize(std::move(peer_times));
  s.peer_top_rejections = top_reasons(peer_rejections, 5);
  s.peer_spirv_to_input = peer_input ? double(peer_spirv) / double(peer_input) : 0;
  s.geomean_ratio = geometric_mean(ratios);
  s.peer_ratios = peer_ratios(run.files);
  s.cold_latency = summarize(std::move(cold_times));
  s.peer_cold_latency = summarize(std::move(peer_cold_times));
  s.cold_geomean_ratio = geometric_mean(cold_ratios);

  for (InputKind kind :
       {InputKind::Dxbc, InputKind::D3D9, InputKind::Dxil, InputKind::Effect,
        InputKind::RootSignature, InputKind::NoCode, InputKind::Spirv, InputKind::Unknown}) {
    std::vector<const FileRecord*> members;
    for (const FileRecord& r : run.files)
      if (r.kind == kind) members.push_back(&r);
    if (!members.empty()) s.by_kind.push_back(group(std::string(input_kind_name(kind)), members));
  }
  for (std::size_t stage = 0; stage <= std::size_t(ShaderStage::Count); ++stage) {
    std::vector<const FileRecord*> members;
    for (const FileRecord& r : run.files)
      if (std::size_t(r.stage) == stage) members.push_back(&r);
    const auto name = stage == std::size_t(ShaderStage::Count)
                          ? std::string("none")
                          : std::string(shader_stage_abbrev(ShaderStage(stage)));
    if (!members.empty()) s.by_stage.push_back(group(name, members));
  }
  return s;
}

} // namespace kiln::bench
