//===- device.cpp - Device naming, selection and the ot_device_* API ------===//

#include "device.h"

#include <cctype>

namespace onnx_tosa::rt {
namespace {

const char *kNameHelp = "expected auto, cuda, cuda:N, vulkan, vulkan:N or "
                        "vulkan:lavapipe";

/// Parses a non-negative decimal ordinal; rejects signs, spaces, overflow.
bool parseOrdinal(const std::string &s, int &out) {
  if (s.empty() || s.size() > 6)
    return false;
  out = 0;
  for (char c : s) {
    if (!std::isdigit(static_cast<unsigned char>(c)))
      return false;
    out = out * 10 + (c - '0');
  }
  return true;
}

/// "auto": CUDA when it works, else the best Vulkan device. When neither
/// works the message carries both reasons, since either may be the one the
/// user meant to fix.
Status openAuto(std::shared_ptr<Device> &out) {
  int count = 0;
  Status cuda = cudaDeviceCount(count);
  if (cuda.ok() && count > 0) {
    cuda = openCudaDevice(0, out);
    if (cuda.ok())
      return cuda;
  } else if (cuda.ok()) {
    cuda = unavailable("the CUDA driver reports no devices");
  }
  Status vulkan = openVulkanDevice(VulkanSelector{}, out);
  if (vulkan.ok())
    return vulkan;
  return unavailable("no usable device: CUDA: " + cuda.message() +
                     "; Vulkan: " + vulkan.message());
}

} // namespace

Status openDevice(const std::string &name, std::shared_ptr<Device> &out) {
  if (name.empty() || name == "auto")
    return openAuto(out);

  std::string backend = name, suffix;
  bool hasSuffix = false;
  if (size_t colon = name.find(':'); colon != std::string::npos) {
    backend = name.substr(0, colon);
    suffix = name.substr(colon + 1);
    hasSuffix = true;
  }
  int ordinal = 0;
  if (backend == "cuda") {
    if (hasSuffix && !parseOrdinal(suffix, ordinal))
      return invalidArgument("bad device name '" + name + "': '" + suffix +
                             "' is not a device number (" + kNameHelp + ")");
    return openCudaDevice(ordinal, out).withContext("device '" + name + "'");
  }
  if (backend == "vulkan") {
    VulkanSelector sel;
    if (hasSuffix && (suffix == "lavapipe" || suffix == "llvmpipe")) {
      sel.kind = VulkanSelector::Kind::Lavapipe;
    } else if (hasSuffix) {
      if (!parseOrdinal(suffix, sel.ordinal))
        return invalidArgument("bad device name '" + name + "': '" + suffix +
                               "' is not a device number or 'lavapipe' (" +
                               kNameHelp + ")");
      sel.kind = VulkanSelector::Kind::Ordinal;
    }
    return openVulkanDevice(sel, out).withContext("device '" + name + "'");
  }
  return invalidArgument("unknown device name '" + name + "' (" + kNameHelp +
                         ")");
}

} // namespace onnx_tosa::rt

using namespace onnx_tosa::rt;

extern "C" {

ot_status ot_device_open(const char *name, ot_device **out_device) {
  return guardedCall([&]() -> Status {
    if (!out_device)
      return invalidArgument("ot_device_open: out_device is NULL");
    *out_device = nullptr;
    std::shared_ptr<Device> impl;
    OT_RETURN_IF_ERROR(openDevice(name ? name : "", impl));
    *out_device = new ot_device{std::move(impl)};
    return okStatus();
  });
}

void ot_device_release(ot_device *device) { delete device; }

const char *ot_device_name(const ot_device *device) {
  return device ? device->impl->name().c_str() : "";
}

const char *ot_device_id(const ot_device *device) {
  return device ? device->impl->id().c_str() : "";
}

ot_backend ot_device_backend(const ot_device *device) {
  return device && device->impl->target() == onnx_tosa::Target::Cuda
             ? OT_BACKEND_CUDA
             : OT_BACKEND_VULKAN;
}

} // extern "C"
