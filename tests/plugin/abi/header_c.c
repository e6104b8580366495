/* Compiled as C99 with -pedantic-errors: proves kiln.h and kiln_hooks.h are C headers. The
 * functions below are called by abi_test.cpp so the compiled code is also exercised. */
#include "kiln/kiln.h"
#include "kiln/kiln_hooks.h"

#include <string.h>

#define KILN_C_NAME(function) #function,
static const char* const kiln_c_names[] = {KILN_CORE_FUNCTIONS(KILN_C_NAME)
                                               KILN_HOOK_FUNCTIONS(KILN_C_NAME)};

unsigned kiln_c_function_count(void) {
  return (unsigned)(sizeof kiln_c_names / sizeof kiln_c_names[0]);
}

const char* kiln_c_function_name(unsigned index) {
  return index < kiln_c_function_count() ? kiln_c_names[index] : NULL;
}

/* Creates a context without cache through a loader-style function pointer and submits a
 * few bytes: the C view of the structs (type tags, next chains, enums) end to end. Returns
 * the submit's result code for the bytes, or a negative number naming the step that failed. */
int kiln_c_submit_bytes(PFN_kiln_get_proc_addr get_proc_addr, const void* bytes, size_t size) {
  PFN_kiln_context_create create = (PFN_kiln_context_create)get_proc_addr("kiln_context_create");
  PFN_kiln_context_destroy destroy =
      (PFN_kiln_context_destroy)get_proc_addr("kiln_context_destroy");
  PFN_kiln_submit submit = (PFN_kiln_submit)get_proc_addr("kiln_submit");
  PFN_kiln_wait wait = (PFN_kiln_wait)get_proc_addr("kiln_wait");
  PFN_kiln_shader_release release = (PFN_kiln_shader_release)get_proc_addr("kiln_shader_release");
  kiln_context_create_info info;
  kiln_submit_info submit_info;
  kiln_context* context = NULL;
  kiln_shader* shader = NULL;
  kiln_result result;
  if (!create || !destroy || !submit || !wait || !release) return -100;
  memset(&info, 0, sizeof info);
  info.type = KILN_STRUCTURE_TYPE_CONTEXT_CREATE_INFO;
  info.flags = KILN_CONTEXT_DISABLE_CACHE;
  info.thread_count = 1;
  info.target = KILN_TARGET_VULKAN_1_3;
  info.binding_model = KILN_BINDING_MODEL_REGISTER_CLASSES;
  if (create(&info, &context) != KILN_SUCCESS) return -101;
  memset(&submit_info, 0, sizeof submit_info);
  submit_info.type = KILN_STRUCTURE_TYPE_SUBMIT_INFO;
  submit_info.code = bytes;
  submit_info.code_size = size;
  submit_info.expected_stage = KILN_STAGE_ANY;
  submit_info.priority = KILN_PRIORITY_HIGH;
  if (submit(context, &submit_info, &shader) != KILN_SUCCESS) {
    destroy(context);
    return -102;
  }
  result = wait(shader, UINT64_MAX);
  release(shader);
  destroy(context);
  return (int)result;
}
