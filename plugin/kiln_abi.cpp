// The exported C ABI of libkiln.so (include/kiln/kiln.h). No exception crosses this boundary.

#include "kiln/kiln.h"

extern "C" KILN_API uint32_t kiln_get_version(void) {
  return KILN_HEADER_VERSION;
}
