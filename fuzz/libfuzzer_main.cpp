// The libFuzzer entry of one target: KILN_FUZZ_ENTRY names its run_* function
// (fuzz/CMakeLists.txt).
#include "fuzz/targets.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  kiln::fuzz::KILN_FUZZ_ENTRY(data, size);
  return 0;
}
