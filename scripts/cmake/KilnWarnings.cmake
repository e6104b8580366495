# Warnings and sanitizers for kiln's own targets (not for third-party sources such as volk.c).

add_library(kiln_warnings INTERFACE)
target_compile_options(kiln_warnings INTERFACE -Wall -Wextra -Wshadow=local -Wnon-virtual-dtor)
if(KILN_WERROR)
  target_compile_options(kiln_warnings INTERFACE -Werror)
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
