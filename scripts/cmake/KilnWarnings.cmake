# Warnings and sanitizers for kiln's own targets (not for third-party sources such as volk.c).

add_library(kiln_warnings INTERFACE)
target_compile_options(kiln_warnings INTERFACE -Wall -Wextra -Wnon-virtual-dtor)
if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang") # the fuzz build (scripts/fuzz)
  target_compile_options(kiln_warnings INTERFACE -Wshadow-uncaptured-local)
else()
  target_compile_options(kiln_warnings INTERFACE -Wshadow=local)
  # GCC 12 at -O3 reports -Wrestrict and -Wstringop-overread inside libstdc++'s string copies
  # and compares that cannot overlap or overread (GCC bugs 105329, 105651); they would stop a
  # Release build with KILN_WERROR.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    target_compile_options(kiln_warnings INTERFACE -Wno-restrict -Wno-stringop-overread)
  endif()
endif()
if(KILN_WERROR)
  target_compile_options(kiln_warnings INTERFACE -Werror)
endif()

if(KILN_BUILD_FUZZERS)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "kiln: KILN_BUILD_FUZZERS needs clang (libFuzzer): configure with "
                        "-DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang, or use scripts/fuzz")
  endif()
  if(KILN_SANITIZE AND NOT KILN_SANITIZE STREQUAL "address,undefined")
    message(FATAL_ERROR "kiln: KILN_BUILD_FUZZERS runs under ASan + UBSan; leave KILN_SANITIZE empty")
  endif()
  set(KILN_SANITIZE "address,undefined")
  # Coverage for libFuzzer in every kiln object; only the fuzzer executables link its main.
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()

if(KILN_SANITIZE)
  if(KILN_SANITIZE STREQUAL "thread")
    set(_kiln_san_flags -fsanitize=thread)
  elseif(KILN_SANITIZE STREQUAL "address,undefined" OR KILN_SANITIZE STREQUAL "address"
         OR KILN_SANITIZE STREQUAL "undefined")
    set(_kiln_san_flags -fsanitize=${KILN_SANITIZE} -fno-sanitize-recover=undefined)
  else()
    message(FATAL_ERROR "kiln: KILN_SANITIZE must be 'address,undefined', 'address', 'undefined' or 'thread'")
  endif()
  add_compile_options(${_kiln_san_flags} -fno-omit-frame-pointer)
  add_link_options(${_kiln_san_flags})
endif()

# kiln_target_defaults(target): warnings and the include root for every kiln target.
function(kiln_target_defaults target)
  target_link_libraries(${target} PRIVATE kiln_warnings)
  target_include_directories(${target} PUBLIC ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/include)
endfunction()

# Checked IR views (translator/ir/ir.h, KILN_IR_CHECKS): spans into the builder's pools trip an
# error when used after the pool changed. On in Debug and in every sanitizer or fuzzer build,
# off in Release where the spans are plain std::span.
if(KILN_SANITIZE)
  add_compile_definitions(KILN_IR_CHECKS=1)
else()
  add_compile_definitions($<$<CONFIG:Debug>:KILN_IR_CHECKS=1>)
endif()
