# Cross build of the Windows DLLs (kiln.dll, libvkd3d-shader-1.dll) with Debian's mingw-w64
# (packages mingw-w64 and g++-mingw-w64-x86-64-posix). The posix-threads variant of the compiler
# is the one with std::thread and std::mutex. scripts/test-windows uses this file:
#   cmake -S . -B build/windows -G Ninja -DCMAKE_TOOLCHAIN_FILE=scripts/cmake/mingw-w64-x86_64.cmake
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(KILN_MINGW_TRIPLE x86_64-w64-mingw32)
set(CMAKE_C_COMPILER ${KILN_MINGW_TRIPLE}-gcc-posix)
set(CMAKE_CXX_COMPILER ${KILN_MINGW_TRIPLE}-g++-posix)
set(CMAKE_RC_COMPILER ${KILN_MINGW_TRIPLE}-windres)
set(CMAKE_FIND_ROOT_PATH /usr/${KILN_MINGW_TRIPLE})
# Programs (python3 for the build-time tables) are the build machine's; libraries, headers and
# CMake packages only the target's. The few header-only Linux packages kiln needs are made
# visible one by one (scripts/cmake/KilnWindowsDependencies.cmake), never /usr/include whole.
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
