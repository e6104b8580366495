// Whole translation: any bytes, as the service and the C ABI receive them.
#include "fuzz/targets.h"
#include "translator/translate.h"

#include <span>

namespace kiln::fuzz {

void run_translate(const std::uint8_t* data, std::size_t size) {
  // One Translator for the whole run, as a service worker keeps one: its pools stay warm from
  // input to input, which is how the pool-growth bugs of issue 18 showed up.
  static Translator translator;
  TranslateOptions options;
  options.debug_names = true; // also reads the RDEF / CTAB names
  TranslateResult result;
  (void)translator.translate(std::span(data, size), options, result);
}

} // namespace kiln::fuzz
