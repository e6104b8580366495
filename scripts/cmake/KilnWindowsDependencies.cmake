# Dependencies of the Windows DLLs (cross build, scripts/cmake/mingw-w64-x86_64.cmake). Debian
# has no mingw build of kiln's dependencies, but every one the DLLs need is header-only or a
# source file: the Vulkan headers, volk (volk.c, compiled here as on Linux), xxHash (inlined:
# XXH_INLINE_ALL), moodycamel ConcurrentQueue, the SPIR-V headers and grammar, and the
# vkd3d-shader API header. Each is found in the build machine's /usr/include and linked into a
# private folder of the build tree, so that the mingw compiler sees those headers alone and
# never glibc's. SPIRV-Tools, GoogleTest, Google Benchmark and nlohmann JSON serve the tests,
# the bench and the `kiln` command, which the Windows build leaves out.

set(KILN_HOST_HEADERS "${CMAKE_BINARY_DIR}/host-headers")
file(MAKE_DIRECTORY "${KILN_HOST_HEADERS}")

# kiln_host_header(ENTRY PACKAGE): /usr/include/ENTRY (a file or folder) as
# host-headers/ENTRY, or a configuration error naming the Debian package.
function(kiln_host_header entry package)
  find_path(_kiln_dir_${entry} ${entry} NO_CMAKE_FIND_ROOT_PATH PATHS /usr/include NO_DEFAULT_PATH)
  if(NOT _kiln_dir_${entry})
    kiln_missing("${entry} (build machine's /usr/include)" ${package})
  endif()
  file(CREATE_LINK "${_kiln_dir_${entry}}/${entry}" "${KILN_HOST_HEADERS}/${entry}" SYMBOLIC)
endfunction()

kiln_host_header(vulkan libvulkan-dev)
kiln_host_header(vk_video libvulkan-dev)
kiln_host_header(volk.h libvulkan-volk-dev)
kiln_host_header(volk.c libvulkan-volk-dev)
kiln_host_header(xxhash.h libxxhash-dev)
kiln_host_header(concurrentqueue libconcurrentqueue-dev)
kiln_host_header(spirv spirv-headers)
kiln_host_header(vkd3d libvkd3d-headers)

add_library(kiln_vulkan_headers INTERFACE)
target_include_directories(kiln_vulkan_headers SYSTEM INTERFACE "${KILN_HOST_HEADERS}")
add_library(Vulkan::Headers ALIAS kiln_vulkan_headers)

# volk loads vulkan-1.dll itself (LoadLibrary), as it dlopens libvulkan.so.1 on Linux.
add_library(kiln_volk STATIC "${KILN_HOST_HEADERS}/volk.c")
target_include_directories(kiln_volk SYSTEM PUBLIC "${KILN_HOST_HEADERS}")
target_compile_definitions(kiln_volk PUBLIC VK_NO_PROTOTYPES)
target_link_libraries(kiln_volk PUBLIC Vulkan::Headers)

# The name the Linux build gets from pkg-config, so that the targets' CMakeLists are shared.
add_library(PkgConfig::XXHASH INTERFACE IMPORTED)
target_include_directories(PkgConfig::XXHASH SYSTEM INTERFACE "${KILN_HOST_HEADERS}")
target_compile_definitions(PkgConfig::XXHASH INTERFACE XXH_INLINE_ALL)

add_library(kiln_concurrentqueue INTERFACE)
target_include_directories(kiln_concurrentqueue SYSTEM INTERFACE "${KILN_HOST_HEADERS}")

set(KILN_SPIRV_GRAMMAR "${KILN_HOST_HEADERS}/spirv/unified1/spirv.core.grammar.json")
set(KILN_GLSL_GRAMMAR "${KILN_HOST_HEADERS}/spirv/unified1/extinst.glsl.std.450.grammar.json")
add_library(kiln_spirv_headers INTERFACE)
target_include_directories(kiln_spirv_headers SYSTEM INTERFACE "${KILN_HOST_HEADERS}")

# vkd3d_shader.h is included by its bare name, as pkg-config's -I/usr/include/vkd3d has it.
set(VKD3D_SHADER_INCLUDE_DIRS "${KILN_HOST_HEADERS}/vkd3d")

find_package(Threads REQUIRED)
