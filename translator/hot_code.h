#pragma once

#include "translator/common/input_kind.h"

namespace kiln {

// A cold translation (the first after other work) stalls on each code line it runs, one after
// another. Where the build lays the functions translations of each input kind run out together
// between markers (scripts/link-order.txt, scripts/cmake/KilnLinkOrder.cmake), this
// asks for the lines of KIND's front end and of the part every kind runs at once, when a probe
// of the first one says they left the caches; elsewhere, or while they are cached, it costs a
// few instructions.
void prefetch_hot_code(InputKind kind);

} // namespace kiln
