/* A program built against an installed kiln (pkg-config or find_package): it links libkiln,
 * checks the library is the version of the header it was compiled with, and translates one
 * shader through a context without a Vulkan device. usage: consumer SHADER */
#include <kiln/kiln.h>

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  static unsigned char bytes[1 << 20];
  FILE *file;
  size_t size;
  kiln_context_create_info context_info = {0};
  kiln_context *context = NULL;
  kiln_submit_info submit = {0};
  kiln_shader *shader = NULL;
  kiln_result result;

  if (kiln_get_version() != KILN_HEADER_VERSION) {
    fprintf(stderr, "consumer: libkiln is version %u, kiln.h %u\n", kiln_get_version(),
            (unsigned)KILN_HEADER_VERSION);
    return 1;
  }
  if (argc != 2 || !(file = fopen(argv[1], "rb"))) return 2;
  size = fread(bytes, 1, sizeof bytes, file);
  fclose(file);

  context_info.type = KILN_STRUCTURE_TYPE_CONTEXT_CREATE_INFO;
  context_info.flags = KILN_CONTEXT_DISABLE_CACHE;
  if ((result = kiln_context_create(&context_info, &context)) != KILN_SUCCESS) return 1;
  submit.type = KILN_STRUCTURE_TYPE_SUBMIT_INFO;
  submit.code = bytes;
  submit.code_size = size;
  if ((result = kiln_submit(context, &submit, &shader)) == KILN_SUCCESS)
    result = kiln_wait(shader, UINT64_MAX);
  printf("consumer: kiln %u translated %s: %s\n", (unsigned)KILN_VERSION_MAJOR(kiln_get_version()),
         argv[1], result == KILN_SUCCESS ? "ok" : "failed");
  if (shader) kiln_shader_release(shader);
  kiln_context_destroy(context);
  return result == KILN_SUCCESS ? 0 : 1;
}
