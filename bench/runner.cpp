#include "bench/runner.h"

#include "bench/cold.h"
#include "bench/peer_vkd3d.h"
#include "bench/progress.h"
#include "translator/spirv/validate.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <system_error>

namespace kiln::bench {

namespace {

using Clock = std::chrono::steady_clock;

double microseconds(Clock::duration d) {
  return std::chrono::duration<double, std::micro>(d).count();
}

void time_kiln(Translator& translator, const BenchInput& input, const RunOptions& options,
               TranslateResult& result, FileRecord& record) {
  std::vector<double> samples;
  samples.reserve(options.reps);
  Status status = translator.translate(input.bytes, options.translate, result); // warm-up
  for (unsigned rep = 0; rep < options.reps; ++rep) {
    const Clock::time_point start = Clock::now();
    status = translator.translate(input.bytes, options.translate, result);
    samples.push_back(microseconds(Clock::now() - start));
  }
  record.ok = status.is_ok();
  record.error = status.is_ok() ? std::string() : status.message();
  record.median_us = median(std::move(samples));
  record.spirv_bytes = status.is_ok() ? result.spirv.size() * 4 : 0;
}

// The caller screened the shader with Vkd3dPeer::survives() (run_translation, before timing).
void time_peer(Vkd3dPeer& peer, const BenchInput& input, unsigned reps, PeerRecord& record) {
  std::vector<double> samples;
  samples.reserve(reps);
  std::size_t bytes = 0;
  std::string error;
  bool ok = peer.translate(input.bytes, bytes, error); // warm-up
  for (unsigned rep = 0; rep < reps; ++rep) {
    error.clear();
    const Clock::time_point start = Clock::now();
    ok = peer.translate(input.bytes, bytes, error);
    samples.push_back(microseconds(Clock::now() - start));
  }
  record.ok = ok;
  record.error = ok ? std::string() : error;
  record.median_us = median(std::move(samples));
  record.spirv_bytes = bytes;
}

// The first call on a shader this translator has not seen, after the caches were evicted.
// The status is the warm calls' to report (translation is deterministic).
void time_kiln_cold(Translator& translator, const BenchInput& input, const RunOptions& options,
                    CacheEvictor& evictor, TranslateResult& result, FileRecord& record) {
  evictor.evict();
  const Clock::time_point start = Clock::now();
  (void)translator.translate(input.bytes, options.translate, result);
  record.cold_us = microseconds(Clock::now() - start);
}

void time_peer_cold(Vkd3dPeer& peer, const BenchInput& input, CacheEvictor& evictor,
                    PeerRecord& record) {
  std::size_t bytes = 0;
  std::string error;
  evictor.evict();
  const Clock::time_point start = Clock::now();
  (void)peer.translate(input.bytes, bytes, error);
  record.cold_us = microseconds(Clock::now() - start);
}

// Seed of the priming shaders: any seed other than the run's gives shaders the run never
// contains (each synthetic shader is derived from (seed, index)).
constexpr std::uint64_t kPrimeSeed = 0x636f6c64; // "cold"
constexpr std::uint32_t kPrimeCount = 16;

// Cold mode times a translator whose pools and lazily built tables are warm, as in a game that
// has already translated other shaders: the first shader of the run must not pay for that.
// The peer's screening forks come first, for the reason given in run_translation().
void prime(Translator& translator, const RunOptions& options, Vkd3dPeer* peer,
           TranslateResult& result) {
  const std::vector<BenchInput> inputs = synthetic_inputs(kPrimeSeed, kPrimeCount);
  std::vector<char> peer_runs(inputs.size(), 0);
  std::string error;
  for (std::size_t i = 0; i < inputs.size(); ++i)
    peer_runs[i] = peer && peer->available() && peer->accepts(inputs[i].kind) &&
                   peer->survives(inputs[i].bytes, error);
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    (void)translator.translate(inputs[i].bytes, options.translate, result);
    std::size_t bytes = 0;
    if (peer_runs[i]) (void)peer->translate(inputs[i].bytes, bytes, error);
  }
}

void write_spirv(const std::string& dir, const BenchInput& input, const TranslateResult& result,
                 std::vector<std::string>& warnings) {
  namespace fs = std::filesystem;
  const fs::path out = fs::path(dir) / (fs::path(input.path).filename().string() + ".spv");
  std::ofstream file(out, std::ios::binary);
  file.write(reinterpret_cast<const char*>(result.spirv.data()),
             std::streamsize(result.spirv.size() * 4));
  if (!file) warnings.push_back(out.string() + ": cannot write");
}

} // namespace

std::vector<FileRecord> run_translation(const std::vector<BenchInput>& inputs,
                                        const RunOptions& options, Vkd3dPeer* peer,
                                        std::vector<std::string>& warnings) {
  std::vector<FileRecord> records(inputs.size());
  if (!options.write_spirv_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(options.write_spirv_dir, ec);
    if (ec) warnings.push_back(options.write_spirv_dir + ": " + ec.message());
  }
  // The peer's crash screening (a forked child per shader) runs for every input before
  // anything is timed. A fork marks every page of this process copy-on-write, so the next write
  // to each page takes a fault: between the fork and a cold call, the cold call would pay for
  // faults on every pool page it writes (and the eviction for 16,384 of them), which a game
  // does not. Warm-up calls absorbed them before; a first call cannot.
  std::vector<char> peer_timed(inputs.size(), 0);
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    records[i].peer.attempted = peer && peer->available() && peer->accepts(inputs[i].kind);
    peer_timed[i] =
        records[i].peer.attempted && peer->survives(inputs[i].bytes, records[i].peer.error);
  }
  Translator translator;
  TranslateResult result;
  std::unique_ptr<CacheEvictor> evictor;
  if (options.cold) {
    prime(translator, options, peer, result);
    // Allocated after the last fork, so its pages are never copy-on-write.
    evictor = std::make_unique<CacheEvictor>(options.cold_evict_bytes);
  }
  std::size_t peer_cold_count = 0; // alternates which translator's cold call goes first
  Progress progress("kiln bench: translating", inputs.size(), options.progress);
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const BenchInput& input = inputs[i];
    FileRecord& record = records[i];
    record.path = input.path;
    record.kind = input.kind;
    record.stage = input.stage;
    record.input_bytes = input.bytes.size();
    if (evictor) {
      const bool peer_first = peer_timed[i] && peer_cold_count++ % 2 == 1;
      if (peer_first) time_peer_cold(*peer, input, *evictor, record.peer);
      time_kiln_cold(translator, input, options, *evictor, result, record);
      if (peer_timed[i] && !peer_first) time_peer_cold(*peer, input, *evictor, record.peer);
    }
    time_kiln(translator, input, options, result, record);

    // Outside the timed region: output and checks.
    if (record.ok && !options.write_spirv_dir.empty())
      write_spirv(options.write_spirv_dir, input, result, warnings);
    if (record.ok && options.validate) {
      const Status valid = validate_spirv(result.spirv, options.translate.target);
      record.valid = valid.is_ok() ? 1 : 0;
      if (!valid.is_ok()) record.validation_error = valid.message();
    }
    if (peer_timed[i]) time_peer(*peer, input, options.reps, record.peer);
    progress.advance();
  }
  progress.finish();
  return records;
}

} // namespace kiln::bench
