//===- status.h - Internal status type for the runtime ----------*- C++ -*-===//
//
// A move-only C++ owner of an `ot_status`. Internal code returns `Status` and
// the C API hands the underlying pointer to the caller with `release()`.
// Success is a null pointer, so the common path allocates nothing.
//
//===----------------------------------------------------------------------===//
#ifndef ONNX_TOSA_RUNTIME_STATUS_H
#define ONNX_TOSA_RUNTIME_STATUS_H

#include "onnx_tosa/runtime.h"

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

struct ot_status_s {
  ot_status_code code;
  std::string message;
};

namespace onnx_tosa::rt {

/// The integer a C caller stored as an ot_dtype. C lets it be any value;
/// loading one the enum does not list as an ot_dtype would be undefined in
/// C++, so the bits are copied instead.
inline uint32_t dtypeBits(const ot_dtype &dtype) {
  uint32_t raw;
  static_assert(sizeof(raw) == sizeof(dtype), "ot_dtype is 32 bits");
  std::memcpy(&raw, &dtype, sizeof(raw));
  return raw;
}

class [[nodiscard]] Status {
public:
  Status() = default;
  Status(ot_status_code code, std::string message);
  /// Takes ownership of a status a C API function returned.
  static Status adopt(ot_status status) {
    Status s;
    s.impl.reset(status);
    return s;
  }

  bool ok() const { return !impl; }
  ot_status_code code() const { return impl ? impl->code : OT_STATUS_OK; }
  const std::string &message() const;

  /// Prepends "context: " to the message, so errors from deep inside a
  /// backend say which buffer/kernel/launch they concern.
  Status withContext(const std::string &context) &&;

  /// Transfers ownership to a C caller; null on success.
  ot_status release() { return impl.release(); }

private:
  std::unique_ptr<ot_status_s> impl;
};

inline Status okStatus() { return Status(); }
inline Status invalidArgument(std::string m) {
  return Status(OT_STATUS_INVALID_ARGUMENT, std::move(m));
}
inline Status notFound(std::string m) {
  return Status(OT_STATUS_NOT_FOUND, std::move(m));
}
inline Status unavailable(std::string m) {
  return Status(OT_STATUS_UNAVAILABLE, std::move(m));
}
inline Status resourceExhausted(std::string m) {
  return Status(OT_STATUS_RESOURCE_EXHAUSTED, std::move(m));
}
inline Status dataLoss(std::string m) {
  return Status(OT_STATUS_DATA_LOSS, std::move(m));
}
inline Status failedPrecondition(std::string m) {
  return Status(OT_STATUS_FAILED_PRECONDITION, std::move(m));
}
inline Status internalError(std::string m) {
  return Status(OT_STATUS_INTERNAL, std::move(m));
}

} // namespace onnx_tosa::rt

#define OT_RETURN_IF_ERROR(expr)                                               \
  do {                                                                         \
    ::onnx_tosa::rt::Status otStatus_ = (expr);                                \
    if (!otStatus_.ok())                                                       \
      return otStatus_;                                                        \
  } while (false)

#endif // ONNX_TOSA_RUNTIME_STATUS_H
