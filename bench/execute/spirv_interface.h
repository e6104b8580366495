#pragma once
// What a SPIR-V module shows the pipeline around it, read back from its words: every
// descriptor (set, binding, descriptor type, array size, image shape) and every stage-interface
// component (storage class, location, component, patch, type, interpolation and transform
// feedback decorations), and every built-in. Two translators' modules for the same request can
// then be compared per descriptor and per component, whatever variables each made: a layer
// sees only these facts (Vulkan's interface matching is per location and component).

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace kiln::execute {

struct DescriptorFact {
  std::uint32_t set = 0;
  std::uint32_t binding = 0;
  std::uint32_t descriptor_type = 0; // VkDescriptorType; ~0u for a push-constant block
  std::uint32_t array_size = 1;      // 0: runtime array
  // Images: dim, arrayed, multisampled; 0 otherwise.
  std::uint32_t dim = 0;
  bool arrayed = false;
  bool multisampled = false;
  // spv::ImageFormat of an image or texel buffer (a storage one's view must have it; Unknown
  // needs the device's read/write-without-format features).
  std::uint32_t format = 0;
  bool operator==(const DescriptorFact&) const = default;
  auto operator<=>(const DescriptorFact&) const = default;
};

// One 32-bit component of a location variable.
struct ComponentFact {
  std::uint32_t storage = 0; // spv::StorageClass: Input or Output
  bool patch = false;
  std::uint32_t location = 0;
  std::uint32_t component = 0;
  char scalar = 'f'; // 'f', 'i', 'u', 'b'
  std::uint32_t width = 32;
  // Interpolation: meaningful on fragment inputs only (Vulkan takes it from there).
  bool flat = false, noperspective = false, centroid = false, sample = false;
  std::uint32_t index = 0;      // dual-source blending's Index
  std::uint32_t stream = 0;     // geometry shader output stream
  std::int64_t xfb_buffer = -1; // -1: not captured
  std::uint32_t xfb_stride = 0;
  std::uint32_t xfb_offset = 0; // of this component
  bool operator==(const ComponentFact&) const = default;
  auto operator<=>(const ComponentFact&) const = default;
};

struct BuiltInFact {
  std::uint32_t storage = 0;
  std::uint32_t builtin = 0;
  bool patch = false;
  std::uint32_t array_size = 0; // 0: not an array (after the per-vertex dimension)
  std::int64_t xfb_buffer = -1;
  std::uint32_t xfb_offset = 0;
  bool operator==(const BuiltInFact&) const = default;
  auto operator<=>(const BuiltInFact&) const = default;
};

struct ModuleInterface {
  std::uint32_t execution_model = ~0u;
  // Every OpExecutionMode of the entry point: the mode, then its literals.
  std::vector<std::vector<std::uint32_t>> execution_modes;
  // Tessellation and geometry stages: the length of the per-vertex dimension of the inputs
  // (the input patch or primitive size), 0 when no input has one.
  std::uint32_t input_vertices = 0;
  std::vector<DescriptorFact> descriptors; // sorted
  std::vector<ComponentFact> components;   // sorted
  std::vector<BuiltInFact> builtins;       // sorted
};

// The literals of execution mode `mode` of `interface`, or null when it does not declare it.
const std::vector<std::uint32_t>* find_execution_mode(const ModuleInterface& interface,
                                                      std::uint32_t mode);

// Reads `words`; false with `error` set for a module it cannot read.
bool read_module_interface(std::span<const std::uint32_t> words, ModuleInterface& out,
                           std::string& error);

std::string describe(const DescriptorFact& fact);
std::string describe(const ComponentFact& fact);
std::string describe(const BuiltInFact& fact);

// The differences between `kiln` and `reference`, one line each ("component: kiln X,
// vkd3d-shader Y", "built-in only kiln: Z"); empty when they agree. Descriptors must be the
// same set. Components and built-ins at the same slot must be equal (interpolation compared on
// fragment inputs only); a slot one module declares and the other does not is a difference
// except an output only kiln declares or an input only the reference declares, which no stage
// of either library can observe (spirv_interface.cpp).
std::vector<std::string> interface_differences(const ModuleInterface& kiln,
                                               const ModuleInterface& reference);

} // namespace kiln::execute
