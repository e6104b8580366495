#pragma once

namespace kiln {

// A cold translation (the first after other work) stalls on each code line it runs, one after
// another. Where the build lays the functions every translation runs out together between two
// markers (scripts/link-order.txt, scripts/cmake/KilnLinkOrder.cmake), this asks for all of
// their lines at once when a probe of the first one says they left the caches; elsewhere, or
// while they are cached, it costs a few instructions.
void prefetch_hot_code();

} // namespace kiln
