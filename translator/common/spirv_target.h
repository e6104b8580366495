#pragma once
// The Vulkan target environments kiln emits SPIR-V for: one row per target, everything else
// (the SPIR-V version word, the CLI name, the C ABI value, ordering) derives from the table.
//
// The enum values are the cache's and translation key's encoding of a target
// (translation_key.cpp): rows keep their value forever, so Vulkan10 came last.

#include <cstdint>
#include <string_view>

namespace kiln {

// X(enumerator, value, CLI name, SPIR-V version word, Vulkan minor version)
#define KILN_SPIRV_TARGETS(X)                                                                      \
  X(Vulkan11, 0, "vulkan1.1", 0x00010300u, 1)                                                      \
  X(Vulkan12, 1, "vulkan1.2", 0x00010500u, 2)                                                      \
  X(Vulkan13, 2, "vulkan1.3", 0x00010600u, 3) /* the default */                                    \
  X(Vulkan10, 3, "vulkan1.0", 0x00010000u, 0)

enum class SpirvTarget : std::uint8_t {
#define KILN_X(name, value, cli, version, minor) name = value,
  KILN_SPIRV_TARGETS(KILN_X)
#undef KILN_X
};

constexpr SpirvTarget kAllSpirvTargets[] = {
#define KILN_X(name, value, cli, version, minor) SpirvTarget::name,
    KILN_SPIRV_TARGETS(KILN_X)
#undef KILN_X
};

// SPIR-V version word of the module header: 1.0, 1.3, 1.5 or 1.6.
constexpr std::uint32_t spirv_version_word(SpirvTarget target) {
  switch (target) {
#define KILN_X(name, value, cli, version, minor)                                                   \
  case SpirvTarget::name:                                                                          \
    return version;
    KILN_SPIRV_TARGETS(KILN_X)
#undef KILN_X
  }
  return 0x00010600u;
}

// The Vulkan 1.x minor version of the target (0 for Vulkan 1.0).
constexpr std::uint32_t vulkan_minor_version(SpirvTarget target) {
  switch (target) {
#define KILN_X(name, value, cli, version, minor)                                                   \
  case SpirvTarget::name:                                                                          \
    return minor;
    KILN_SPIRV_TARGETS(KILN_X)
#undef KILN_X
  }
  return 3;
}

// Whether the target's SPIR-V version is at least 1.`minor` (e.g. spirv_at_least(t, 4)).
constexpr bool spirv_at_least(SpirvTarget target, std::uint32_t minor) {
  return spirv_version_word(target) >= (0x00010000u | minor << 8);
}

constexpr std::string_view spirv_target_name(SpirvTarget target) { // "vulkan1.3"
  switch (target) {
#define KILN_X(name, value, cli, version, minor)                                                   \
  case SpirvTarget::name:                                                                          \
    return cli;
    KILN_SPIRV_TARGETS(KILN_X)
#undef KILN_X
  }
  return "vulkan1.3";
}

constexpr bool parse_spirv_target(std::string_view name, SpirvTarget& out) {
  for (SpirvTarget t : kAllSpirvTargets) {
    if (spirv_target_name(t) == name) {
      out = t;
      return true;
    }
  }
  return false;
}

// The value a cache record / translation key stores, and its inverse (false for values no
// target has).
constexpr std::uint32_t spirv_target_code(SpirvTarget target) {
  return std::uint32_t(target);
}
constexpr bool spirv_target_from_code(std::uint32_t code, SpirvTarget& out) {
  for (SpirvTarget t : kAllSpirvTargets) {
    if (spirv_target_code(t) == code) {
      out = t;
      return true;
    }
  }
  return false;
}

} // namespace kiln
