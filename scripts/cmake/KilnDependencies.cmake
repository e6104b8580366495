# Every dependency is a Debian package; a missing one stops configuration with one line
# that names the package to install. scripts/deps installs them all.

find_package(PkgConfig QUIET)

function(kiln_missing what package)
  message(FATAL_ERROR "kiln: ${what} not found: install the Debian package '${package}' (or run scripts/deps)")
endfunction()

find_package(Python3 COMPONENTS Interpreter QUIET)
if(NOT Python3_Interpreter_FOUND)
  kiln_missing("python3 (build-time table generation)" python3)
endif()

if(WIN32) # the cross build of the Windows DLLs
  include(${CMAKE_CURRENT_LIST_DIR}/KilnWindowsDependencies.cmake)
  return()
endif()

find_package(VulkanHeaders CONFIG QUIET)
if(NOT TARGET Vulkan::Headers)
  kiln_missing("Vulkan headers" libvulkan-dev)
endif()

find_path(KILN_VOLK_INCLUDE_DIR volk.h)
find_file(KILN_VOLK_SOURCE volk.c PATHS ${KILN_VOLK_INCLUDE_DIR} NO_DEFAULT_PATH)
if(NOT KILN_VOLK_INCLUDE_DIR OR NOT KILN_VOLK_SOURCE)
  kiln_missing("volk (volk.h, volk.c)" libvulkan-volk-dev)
endif()
# volk ships as a source file; compile it once into a private static library.
add_library(kiln_volk STATIC ${KILN_VOLK_SOURCE})
target_include_directories(kiln_volk SYSTEM PUBLIC ${KILN_VOLK_INCLUDE_DIR})
target_compile_definitions(kiln_volk PUBLIC VK_NO_PROTOTYPES)
target_link_libraries(kiln_volk PUBLIC Vulkan::Headers ${CMAKE_DL_LIBS})

if(PkgConfig_FOUND)
  pkg_check_modules(XXHASH QUIET IMPORTED_TARGET libxxhash)
endif()
if(NOT TARGET PkgConfig::XXHASH)
  kiln_missing("xxHash" libxxhash-dev)
endif()

find_path(KILN_CONCURRENTQUEUE_DIR concurrentqueue/concurrentqueue.h)
if(NOT KILN_CONCURRENTQUEUE_DIR)
  kiln_missing("moodycamel ConcurrentQueue" libconcurrentqueue-dev)
endif()
add_library(kiln_concurrentqueue INTERFACE)
target_include_directories(kiln_concurrentqueue SYSTEM INTERFACE ${KILN_CONCURRENTQUEUE_DIR})

find_path(KILN_SPIRV_HEADERS_DIR spirv/unified1/spirv.hpp)
set(KILN_SPIRV_GRAMMAR "${KILN_SPIRV_HEADERS_DIR}/spirv/unified1/spirv.core.grammar.json")
set(KILN_GLSL_GRAMMAR "${KILN_SPIRV_HEADERS_DIR}/spirv/unified1/extinst.glsl.std.450.grammar.json")
if(NOT KILN_SPIRV_HEADERS_DIR OR NOT EXISTS "${KILN_SPIRV_GRAMMAR}")
  kiln_missing("SPIR-V headers and grammar" spirv-headers)
endif()
add_library(kiln_spirv_headers INTERFACE)
target_include_directories(kiln_spirv_headers SYSTEM INTERFACE ${KILN_SPIRV_HEADERS_DIR})

find_package(SPIRV-Tools CONFIG QUIET)
if(NOT TARGET SPIRV-Tools-static)
  kiln_missing("SPIRV-Tools (validator library)" spirv-tools)
endif()

find_package(Threads REQUIRED)

if(KILN_BUILD_TESTS)
  find_package(GTest CONFIG QUIET)
  if(NOT TARGET GTest::gtest)
    kiln_missing("GoogleTest" libgtest-dev)
  endif()
  file(GLOB KILN_LAVAPIPE_ICD /usr/share/vulkan/icd.d/lvp_icd*.json)
  if(NOT KILN_LAVAPIPE_ICD)
    kiln_missing("lavapipe Vulkan driver" mesa-vulkan-drivers)
  endif()
endif()

if(KILN_BUILD_BENCH)
  find_package(benchmark CONFIG QUIET)
  if(NOT TARGET benchmark::benchmark)
    kiln_missing("Google Benchmark" libbenchmark-dev)
  endif()
endif()
