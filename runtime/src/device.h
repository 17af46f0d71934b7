//===- device.h - The C API's device handle ---------------------*- C++ -*-===//
#ifndef ONNX_TOSA_RUNTIME_DEVICE_H
#define ONNX_TOSA_RUNTIME_DEVICE_H

#include "backend.h"

#include <exception>
#include <new>

struct ot_device {
  std::shared_ptr<onnx_tosa::rt::Device> impl;
  /// ot_device_architecture's answer, once asked.
  mutable std::string architecture;
};

namespace onnx_tosa::rt {

/// Parses a device name (see ot_device_open) and opens that device.
Status openDevice(const std::string &name, std::shared_ptr<Device> &out);

/// Runs `body` (returning Status) and converts C++ exceptions, which must not
/// cross the C boundary, into statuses.
template <typename Body> ot_status guardedCall(Body &&body) {
  try {
    return body().release();
  } catch (const std::bad_alloc &) {
    return Status(OT_STATUS_RESOURCE_EXHAUSTED, "out of host memory").release();
  } catch (const std::exception &e) {
    return Status(OT_STATUS_INTERNAL,
                  std::string("internal error: ") + e.what())
        .release();
  } catch (...) {
    return Status(OT_STATUS_INTERNAL, "internal error: unknown exception")
        .release();
  }
}

} // namespace onnx_tosa::rt

#endif // ONNX_TOSA_RUNTIME_DEVICE_H
