//===- tensor.h - The C API's device tensor handle --------------*- C++ -*-===//
#ifndef ONNX_TOSA_RUNTIME_TENSOR_H
#define ONNX_TOSA_RUNTIME_TENSOR_H

#include "device.h"

/// A device tensor: a type, a shape and a buffer on one device. The buffer
/// is the tensor's own (ot_tensor_create, ot_tensor_wrap_device_address) or
/// shared with a session (ot_session_input_tensor), which it keeps alive.
struct ot_tensor {
  // Declaration order is destruction order reversed: the buffer goes
  // before the device.
  std::shared_ptr<onnx_tosa::rt::Device> device;
  std::shared_ptr<onnx_tosa::rt::DeviceBuffer> buffer;
  onnx_tosa::DType dtype = onnx_tosa::DType::F32;
  std::vector<int64_t> shape;
  uint64_t byteSize = 0;
};

#endif // ONNX_TOSA_RUNTIME_TENSOR_H
