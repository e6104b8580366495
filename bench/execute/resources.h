#pragma once
// The descriptors a translated shader declares (its Reflection, which both translations share
// under the one request), made on the device with seeded contents, and read back after a run.
// Sizes keep the indices a real shader computes from seeded inputs in range (docs/execution.md,
// "Resources"); a descriptor kind the harness does not make is named in `unsupported`.

#include "bench/execute/cbuffer_usage.h"
#include "bench/execute/vulkan_graphics.h"
#include "translator/common/reflection.h"

#include <memory>
#include <string>
#include <vector>

namespace kiln::execute {

// One thing read back after a run, as 32-bit words of `components` per element.
struct Output {
  std::string name; // "u0", "rt1", "depth", "counter u2"
  std::vector<std::uint32_t> words;
  char kind = 'f';                  // 'f' float, 'u' integer, 'x' raw words (floats or integers)
  std::uint32_t components = 4;     // words per element
  std::uint32_t compare_mask = 0xf; // components of each element that are compared
};

class Resources {
 public:
  // Makes every descriptor of `reflection` (its set and binding) with contents from `seed`;
  // the constant-buffer words in `constants.integers` get small integers instead of floats, and
  // a buffer in `constants.given` (the class-linkage selection) holds those words.
  Status create(vulkan::Context& context, const Reflection& reflection, std::uint64_t seed,
                const ConstantWords& constants);
  // The descriptor kind this harness cannot make, or "" (checked before create()).
  static std::string unsupported(const Reflection& reflection);
  // The reason the descriptors of `reflection` (one each, an array's too: kiln's module runs
  // with its arrays reduced to element 0) do not fit the device's per-stage limits, or ""
  // (checked before create()).
  static std::string past_device_limits(const vulkan::Context& context,
                                        const Reflection& reflection);

  const std::vector<vulkan::DescriptorWrite>& writes() const { return writes_; }
  // Every UAV (each level and layer of an image) and counter, in binding order.
  Status read(std::vector<Output>& out);

 private:
  struct Readable {
    std::string name;
    char kind = 'f';
    std::uint32_t components = 4;
    vulkan::Buffer* buffer = nullptr;
    vulkan::Image* image = nullptr;
  };
  vulkan::Context* context_ = nullptr;
  std::vector<std::unique_ptr<vulkan::Buffer>> buffers_;
  std::vector<std::unique_ptr<vulkan::BufferView>> views_;
  std::vector<std::unique_ptr<vulkan::Image>> images_;
  std::vector<std::unique_ptr<vulkan::Sampler>> samplers_;
  std::vector<vulkan::DescriptorWrite> writes_;
  std::vector<Readable> readable_;
};

} // namespace kiln::execute
