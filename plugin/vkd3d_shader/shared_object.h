#pragma once
// Loading a shared library at run time, the drop-in's one platform-specific part: dlopen on
// Linux (shared_object_posix.cpp), LoadLibrary on Windows (shared_object_win32.cpp).

#include "translator/common/result.h"

#include <string>

namespace kiln::vkd3d {

// Opens `name_or_path` (Linux: RTLD_NOW | RTLD_LOCAL, a bare name through the dynamic linker's
// search; Windows: LoadLibraryW, a bare name through the DLL search order). Fails, saying why,
// also when the name resolves to the library this code is in (the drop-in must never forward
// to itself).
Result<void*> open_shared_object(const std::string& name_or_path);
// The address of the exported function `name`, or null.
void* find_shared_object_symbol(void* handle, const char* name);
void close_shared_object(void* handle);

#if defined(_WIN32)
// Keeps the DLL this code is in loaded until the process ends (GET_MODULE_HANDLE_EX_FLAG_PIN).
void pin_this_module();
#endif

} // namespace kiln::vkd3d
