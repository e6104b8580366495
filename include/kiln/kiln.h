/* kiln: D3D shader bytecode to SPIR-V, as a library a D3D-on-Vulkan layer loads with dlopen().
 *
 * This header is C (C99 and later) and C++. Every exported symbol starts with kiln_.
 * The full ABI (contexts, submit, wait, results) lands with the service; today it exposes the
 * version query so layers can probe the library. */
#ifndef KILN_KILN_H
#define KILN_KILN_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define KILN_MAKE_VERSION(major, minor, patch) (((major) << 22) | ((minor) << 12) | (patch))
#define KILN_HEADER_VERSION KILN_MAKE_VERSION(0, 1, 0)

#if defined(__GNUC__)
#define KILN_API __attribute__((visibility("default")))
#else
#define KILN_API
#endif

/* The library's version, KILN_MAKE_VERSION encoded. Thread-safe. */
KILN_API uint32_t kiln_get_version(void);
typedef uint32_t (*PFN_kiln_get_version)(void);

#ifdef __cplusplus
}
#endif

#endif /* KILN_KILN_H */
