#pragma once
// What a public entry point caught. Exceptions stay inside kiln: each public entry point of
// cache/ and plugin/ is one boundary that catches everything, logs what it caught through its own
// diagnostics (a cache's warn(), a context's log) and maps it to its result code. `caught()`
// classifies the exception being handled, for that log line and that mapping.

namespace kiln {

struct Caught {
  bool out_of_memory = false; // std::bad_alloc: the caller's out-of-memory result
  // "out of memory", the what() of any other std::exception, or a fixed text for anything else.
  // Valid while the handler that called caught() runs.
  const char* what = "";
};

// Call only inside a catch block: rethrows the exception being handled to classify it.
Caught caught() noexcept;

} // namespace kiln
