#pragma once
// Section 1 and 4 of `kiln bench`: per-shader in-process translation time with one warm
// Translator (and the peer's, with --vs), and the quality checks done outside the timed region.

#include "bench/inputs.h"
#include "bench/results.h"
#include "translator/translate.h"

#include <string>
#include <vector>

namespace kiln::bench {

class Vkd3dPeer;

struct RunOptions {
  unsigned reps = 5;
  bool cold = false;                // also time each shader's first call after an eviction
  std::size_t cold_evict_bytes = 0; // bytes written before each cold call
  bool validate = false;
  std::string write_spirv_dir; // empty: do not write
  bool progress = true;
  TranslateOptions translate;
};

// Times every input: one untimed warm-up call, then `reps` timed calls (steady_clock around
// the translate call only: bytes already in memory, no I/O, no validation); the record keeps
// the median. `peer` may be null. Returns one record per input, in input order.
std::vector<FileRecord> run_translation(const std::vector<BenchInput>& inputs,
                                        const RunOptions& options, Vkd3dPeer* peer,
                                        std::vector<std::string>& warnings);

} // namespace kiln::bench
