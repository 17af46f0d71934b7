//===- tensor.cpp - Device tensors: the ot_tensor_* API -------------------===//
//
// Tensors that live in device memory, so that a model's inputs and outputs
// need not travel through the host between runs (IO binding). Running a
// session on them is ot_session_run_tensors, in session.cpp.
//
//===----------------------------------------------------------------------===//

#include "tensor.h"

using namespace onnx_tosa;
using namespace onnx_tosa::rt;

namespace {

/// Checks the arguments every constructor shares and fills what they
/// describe; the buffer is left to the caller.
Status describe(ot_device *device, ot_dtype dtype, size_t rank,
                const int64_t *shape, ot_tensor **out,
                std::unique_ptr<ot_tensor> &tensor) {
  if (!out)
    return invalidArgument("out_tensor is NULL");
  *out = nullptr;
  if (!device)
    return invalidArgument("device is NULL");
  if (rank && !shape)
    return invalidArgument("shape is NULL but rank is " +
                           std::to_string(rank));
  uint32_t bits = dtypeBits(dtype);
  size_t elem = dtypeSize(static_cast<DType>(bits));
  if (!elem)
    return invalidArgument("unknown dtype " + std::to_string(bits));
  tensor = std::make_unique<ot_tensor>();
  tensor->device = device->impl;
  tensor->dtype = static_cast<DType>(bits);
  tensor->shape.assign(shape, shape + rank);
  uint64_t n = elem;
  for (int64_t d : tensor->shape) {
    if (d < 0 || (d && n > UINT64_MAX / static_cast<uint64_t>(d)))
      return invalidArgument("invalid shape: dimension " + std::to_string(d));
    n *= static_cast<uint64_t>(d);
  }
  tensor->byteSize = n;
  return okStatus();
}

Status checkHostCopy(const char *call, ot_tensor *tensor, const void *data,
                     size_t byteSize) {
  if (!tensor)
    return invalidArgument(std::string(call) + ": tensor is NULL");
  if (byteSize != tensor->byteSize)
    return invalidArgument(std::string(call) + ": the tensor has " +
                           std::to_string(tensor->byteSize) + " bytes, got " +
                           std::to_string(byteSize));
  if (!data && byteSize)
    return invalidArgument(std::string(call) + ": data is NULL");
  return okStatus();
}

} // namespace

extern "C" {

ot_status ot_tensor_create(ot_device *device, ot_dtype dtype, size_t rank,
                           const int64_t *shape, ot_tensor **out_tensor) {
  return guardedCall([&]() -> Status {
    std::unique_ptr<ot_tensor> t;
    OT_RETURN_IF_ERROR(describe(device, dtype, rank, shape, out_tensor, t)
                           .withContext("ot_tensor_create"));
    std::unique_ptr<DeviceBuffer> buffer;
    OT_RETURN_IF_ERROR(t->device->allocate(t->byteSize, buffer));
    t->buffer = std::move(buffer);
    *out_tensor = t.release();
    return okStatus();
  });
}

ot_status ot_tensor_wrap_device_address(ot_device *device, uint64_t address,
                                        ot_dtype dtype, size_t rank,
                                        const int64_t *shape,
                                        ot_tensor **out_tensor) {
  return guardedCall([&]() -> Status {
    std::unique_ptr<ot_tensor> t;
    OT_RETURN_IF_ERROR(describe(device, dtype, rank, shape, out_tensor, t)
                           .withContext("ot_tensor_wrap_device_address"));
    std::unique_ptr<DeviceBuffer> buffer;
    OT_RETURN_IF_ERROR(t->device->wrap(address, t->byteSize, buffer));
    t->buffer = std::move(buffer);
    *out_tensor = t.release();
    return okStatus();
  });
}

void ot_tensor_release(ot_tensor *tensor) { delete tensor; }

ot_status ot_tensor_get_info(const ot_tensor *tensor,
                             ot_tensor_info *out_info) {
  return guardedCall([&]() -> Status {
    if (!tensor || !out_info)
      return invalidArgument("ot_tensor_get_info: NULL argument");
    out_info->name = "";
    out_info->dtype = static_cast<ot_dtype>(tensor->dtype);
    out_info->rank = tensor->shape.size();
    out_info->shape = tensor->shape.data();
    out_info->byte_size = tensor->byteSize;
    return okStatus();
  });
}

uint64_t ot_tensor_device_address(const ot_tensor *tensor) {
  return tensor ? tensor->device->address(*tensor->buffer) : 0;
}

ot_status ot_tensor_write(ot_tensor *tensor, const void *data,
                          size_t byte_size) {
  return guardedCall([&]() -> Status {
    OT_RETURN_IF_ERROR(checkHostCopy("ot_tensor_write", tensor, data,
                                     byte_size));
    return tensor->device->upload(*tensor->buffer, data, byte_size);
  });
}

ot_status ot_tensor_read(ot_tensor *tensor, void *data, size_t byte_size) {
  return guardedCall([&]() -> Status {
    OT_RETURN_IF_ERROR(checkHostCopy("ot_tensor_read", tensor, data,
                                     byte_size));
    return tensor->device->download(*tensor->buffer, data, byte_size);
  });
}

} // extern "C"
