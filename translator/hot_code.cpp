#include "translator/hot_code.h"

#include <cstdint>

#if defined(__x86_64__) && defined(__GNUC__)
#include <x86intrin.h>
#endif

// The markers: never called, only placed. Their sections (-ffunction-sections) open and close
// the hot block in scripts/link-order.txt. Hidden on ELF: libkiln.so's version script exports
// kiln_* (PE has no such visibility; a DLL exports only what is marked).
#if defined(__ELF__)
#define KILN_HOT_MARKER extern "C" __attribute__((noinline, used, visibility("hidden")))
#else
#define KILN_HOT_MARKER extern "C" __attribute__((noinline, used))
#endif
KILN_HOT_MARKER void kiln_hot_text_begin() {
  __asm__ volatile("");
}
KILN_HOT_MARKER void kiln_hot_text_end() {
  __asm__ volatile("");
}

namespace kiln {

namespace {
constexpr std::uintptr_t kLine = 64;
// Without the ordering the markers land anywhere; a block larger than this is not the list's.
constexpr std::uintptr_t kMaxBlock = std::uintptr_t(1) << 20;
// TSC ticks for one load: an L2 or L3 hit takes tens, a line from memory hundreds.
constexpr std::uint64_t kColdTicks = 150;
} // namespace

void prefetch_hot_code() {
#if defined(__x86_64__) && defined(__GNUC__)
  const auto begin = reinterpret_cast<std::uintptr_t>(&kiln_hot_text_begin);
  const auto end = reinterpret_cast<std::uintptr_t>(&kiln_hot_text_end);
  if (end <= begin || end - begin > kMaxBlock) return;
  // lfence keeps the load between the two reads of the counter (rdtscp would too, but
  // valgrind does not run it).
  _mm_lfence();
  const std::uint64_t start = __rdtsc();
  const std::uint8_t probe = *reinterpret_cast<const volatile std::uint8_t*>(begin);
  _mm_lfence();
  const std::uint64_t ticks = __rdtsc() - start;
  (void)probe;
  if (ticks < kColdTicks) return;
  for (std::uintptr_t line = begin & ~(kLine - 1); line < end; line += kLine)
    __builtin_prefetch(reinterpret_cast<const void*>(line), 0, 1);
#endif
}

} // namespace kiln
