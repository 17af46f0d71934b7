//===- status.cpp - Status objects and dtype helpers of the C API ---------===//

#include "status.h"

#include "onnx_tosa/artifact.h"
#include "onnx_tosa/version.h"

namespace onnx_tosa::rt {

Status::Status(ot_status_code code, std::string message) {
  // An OK code with a message would be a bug; keep it an error so it is seen.
  if (code == OT_STATUS_OK)
    code = OT_STATUS_INTERNAL;
  // Allocation failure here cannot be reported any better than by throwing,
  // which the C API boundary turns into a generic status.
  impl.reset(new ot_status_s{code, std::move(message)});
}

const std::string &Status::message() const {
  static const std::string kOk = "OK";
  return impl ? impl->message : kOk;
}

Status Status::withContext(const std::string &context) && {
  if (impl)
    impl->message = context + ": " + impl->message;
  return std::move(*this);
}

} // namespace onnx_tosa::rt

extern "C" {

const char *ot_version(void) { return onnx_tosa::projectVersionString(); }

ot_status_code ot_status_get_code(ot_status status) {
  return status ? status->code : OT_STATUS_OK;
}

const char *ot_status_get_message(ot_status status) {
  return status ? status->message.c_str() : "OK";
}

const char *ot_status_code_name(ot_status_code code) {
  switch (code) {
  case OT_STATUS_OK:
    return "OK";
  case OT_STATUS_INVALID_ARGUMENT:
    return "INVALID_ARGUMENT";
  case OT_STATUS_NOT_FOUND:
    return "NOT_FOUND";
  case OT_STATUS_UNAVAILABLE:
    return "UNAVAILABLE";
  case OT_STATUS_RESOURCE_EXHAUSTED:
    return "RESOURCE_EXHAUSTED";
  case OT_STATUS_DATA_LOSS:
    return "DATA_LOSS";
  case OT_STATUS_FAILED_PRECONDITION:
    return "FAILED_PRECONDITION";
  case OT_STATUS_INTERNAL:
    return "INTERNAL";
  }
  return "UNKNOWN";
}

void ot_status_free(ot_status status) { delete status; }

size_t ot_dtype_size(ot_dtype dtype) {
  using namespace onnx_tosa;
  return dtypeSize(static_cast<DType>(rt::dtypeBits(dtype)));
}

const char *ot_dtype_name(ot_dtype dtype) {
  using namespace onnx_tosa;
  return dtypeName(static_cast<DType>(rt::dtypeBits(dtype)));
}

} // extern "C"
