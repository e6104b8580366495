# Code layout for cold translations (issue 31, docs/bench.md "Cold translation"): the functions
# one translation runs, side by side in the shipped binaries, instead of spread over the whole
# .text. Each function gets a section of its own (-ffunction-sections), and gold lays the ones
# scripts/link-order.txt lists (hottest first; scripts/link_order.py writes it from a callgrind
# profile) out together. An entry that names no section is ignored, so a stale list costs speed,
# never a build. ELF only (the mingw build keeps its default layout), and only where gold
# links: kiln_link_order() does nothing elsewhere.

set(KILN_LINK_ORDER_FILE "${PROJECT_SOURCE_DIR}/scripts/link-order.txt")
set(KILN_HAVE_LINK_ORDER OFF)
if(NOT WIN32 AND NOT KILN_SANITIZE AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  include(CheckCXXSourceCompiles)
  set(CMAKE_REQUIRED_LINK_OPTIONS -fuse-ld=gold
                                  "-Wl,--section-ordering-file,${KILN_LINK_ORDER_FILE}")
  check_cxx_source_compiles("int main() { return 0; }" KILN_GOLD_SECTION_ORDERING)
  unset(CMAKE_REQUIRED_LINK_OPTIONS)
  if(KILN_GOLD_SECTION_ORDERING)
    set(KILN_HAVE_LINK_ORDER ON)
    add_compile_options(-ffunction-sections)
  else()
    message(STATUS "kiln: gold not usable; the binaries keep the default code layout")
  endif()
endif()

# kiln_link_order(target): link TARGET (an executable or shared library holding the translator)
# with the listed functions together.
function(kiln_link_order target)
  if(NOT KILN_HAVE_LINK_ORDER)
    return()
  endif()
  target_link_options(${target} PRIVATE -fuse-ld=gold
                      "-Wl,--section-ordering-file,${KILN_LINK_ORDER_FILE}")
  set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS ${KILN_LINK_ORDER_FILE})
endfunction()
