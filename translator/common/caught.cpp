#include "translator/common/caught.h"

#include <exception>
#include <new>

namespace kiln {

Caught caught() noexcept {
  // The one catch-everything without a log line of its own: it only names what its caller, a
  // logging boundary, caught.
  try {
    throw;
  } catch (const std::bad_alloc&) {
    return {true, "out of memory"};
  } catch (const std::exception& e) {
    return {false, e.what()};
  } catch (...) {
    return {false, "an exception that is not a std::exception"};
  }
}

} // namespace kiln
