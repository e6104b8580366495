#include "translator/hot_code.h"

#include <algorithm>
#include <cstdint>

#if defined(__x86_64__) && defined(__GNUC__)
#include <x86intrin.h>
#endif

// The markers: never called, only placed. Their sections (-ffunction-sections) open and close
// the hot block in scripts/link-order.txt, and mark the part of it that every input kind runs:
// [text_begin, common_begin) is the DXBC front end's own part, [common_end, text_end) the D3D9
// front end's. Hidden on ELF: libkiln.so's version script exports kiln_* (PE has no such
// visibility; a DLL exports only what is marked).
#if defined(__ELF__)
#define KILN_HOT_MARKER extern "C" __attribute__((noinline, used, visibility("hidden")))
#else
#define KILN_HOT_MARKER extern "C" __attribute__((noinline, used))
#endif
KILN_HOT_MARKER void kiln_hot_text_begin() {
  __asm__ volatile("");
}
KILN_HOT_MARKER void kiln_hot_common_begin() {
  __asm__ volatile("");
}
KILN_HOT_MARKER void kiln_hot_common_end() {
  __asm__ volatile("");
}
KILN_HOT_MARKER void kiln_hot_text_end() {
  __asm__ volatile("");
}

namespace kiln {

#if defined(__x86_64__) && defined(__GNUC__)
namespace {
constexpr std::uintptr_t kLine = 64;
// Without the ordering the markers land anywhere; a block larger than this is not the list's.
constexpr std::uintptr_t kMaxBlock = std::uintptr_t(1) << 20;
constexpr std::uintptr_t kPage = 4096;
// TSC ticks for the probe's two loads and the counter reads around them. Measured on this
// repository's machine (2.1 GHz TSC, counted in steps of 21), over the DXBC corpus: cached,
// 42-63 (1% up to about 300, repeats of large shaders that pushed the block out to L3: a
// prefetch costs them little); after the 64 MiB eviction, 231 and more. The single load timed
// before (threshold 150) took 105-670 ticks evicted, 21-84 cached: in runs where memory
// answered within 147 ticks, most cold calls skipped the prefetch.
constexpr std::uint64_t kColdTicks = 170;

std::uintptr_t address_of(void (*marker)()) {
  return reinterpret_cast<std::uintptr_t>(marker);
}

void prefetch_lines(std::uintptr_t begin, std::uintptr_t end) {
  for (std::uintptr_t line = begin & ~(kLine - 1); line < end; line += kLine)
    __builtin_prefetch(reinterpret_cast<const void*>(line), 0, 1);
}
} // namespace
#endif

void prefetch_hot_code(InputKind kind) {
#if defined(__x86_64__) && defined(__GNUC__)
  const std::uintptr_t begin = address_of(&kiln_hot_text_begin);
  const std::uintptr_t common_begin = address_of(&kiln_hot_common_begin);
  const std::uintptr_t common_end = address_of(&kiln_hot_common_end);
  const std::uintptr_t end = address_of(&kiln_hot_text_end);
  if (!(begin < common_begin && common_begin < common_end && common_end < end) ||
      end - begin > kMaxBlock)
    return;
  // The front end runs first: its own part, then the common one.
  std::uintptr_t own_begin = 0, own_end = 0;
  if (kind == InputKind::Dxbc) {
    own_begin = begin;
    own_end = common_begin;
  } else if (kind == InputKind::D3D9) {
    own_begin = common_end;
    own_end = end;
  } else {
    return;
  }
  // Two lines of the front end's part, a page apart (both in functions nearly every translation
  // runs), the second asked for only once the first is there: an evicted block costs two trips
  // to memory (and a page walk) against the counter's own overhead once; one trip alone was too
  // close to that overhead to tell apart reliably. lfence keeps each load between the
  // counter reads and after the one before (rdtscp would too, but valgrind does not run it).
  _mm_lfence();
  const std::uint64_t start = __rdtsc();
  const std::uint8_t own = *reinterpret_cast<const volatile std::uint8_t*>(own_begin);
  _mm_lfence();
  const std::uint8_t further = *reinterpret_cast<const volatile std::uint8_t*>(
      own_begin + std::min<std::uintptr_t>(kPage, (own_end - own_begin) / 2));
  _mm_lfence();
  const std::uint64_t ticks = __rdtsc() - start;
  (void)own;
  (void)further;
  if (ticks < kColdTicks) return;
  prefetch_lines(own_begin, own_end);
  prefetch_lines(common_begin, common_end);
#else
  (void)kind;
#endif
}

} // namespace kiln
