/* signature.c - an outside C program built with pkg-config's flags:
 * prints the runtime's version and an artifact's inputs and outputs.
 *   cc signature.c $(pkg-config --cflags --libs onnx-tosa)
 *   signature MODEL.otsa DEVICE */
#include "onnx_tosa/runtime.h"

#include <stdio.h>

static int report(ot_status status) {
  fprintf(stderr, "signature: %s: %s\n",
          ot_status_code_name(ot_status_get_code(status)),
          ot_status_get_message(status));
  ot_status_free(status);
  return 1;
}

static void print(const char *role, const ot_tensor_info *info) {
  printf("%s %s %s [", role, info->name, ot_dtype_name(info->dtype));
  for (size_t d = 0; d < info->rank; ++d)
    printf(d ? ", %lld" : "%lld", (long long)info->shape[d]);
  printf("]\n");
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: signature MODEL.otsa DEVICE\n");
    return 2;
  }
  printf("%s\n", ot_version());
  ot_device *device = NULL;
  ot_session *session = NULL;
  ot_status status = ot_device_open(argv[2], &device);
  if (status)
    return report(status);
  status = ot_session_load(device, argv[1], &session);
  ot_device_release(device);
  if (status)
    return report(status);
  ot_tensor_info info;
  for (size_t i = 0; i < ot_session_input_count(session); ++i)
    if (!(status = ot_session_input_info(session, i, &info)))
      print("input", &info);
  for (size_t i = 0; i < ot_session_output_count(session) && !status; ++i)
    if (!(status = ot_session_output_info(session, i, &info)))
      print("output", &info);
  ot_session_release(session);
  return status ? report(status) : 0;
}
