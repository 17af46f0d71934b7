//===- device.cpp - Device naming, selection and the ot_device_* API ------===//

#include "device.h"

#include <cctype>
#include <cstdio>
#include <cstring>

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

Device::ConstantKey Device::constantKey(const std::vector<uint8_t> &bytes,
                                        uint64_t size) {
  // FNV-1a and a multiply-xorshift mix over 8-byte words: independent
  // enough that equal keys mean equal bytes for any data not built to
  // collide.
  uint64_t fnv = 1469598103934665603ull, mix = 0x9e3779b97f4a7c15ull;
  size_t n = bytes.size(), i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    std::memcpy(&w, bytes.data() + i, 8);
    fnv = (fnv ^ w) * 1099511628211ull;
    mix = (mix ^ w) * 0xbf58476d1ce4e5b9ull;
    mix ^= mix >> 31;
  }
  for (; i < n; ++i) {
    fnv = (fnv ^ bytes[i]) * 1099511628211ull;
    mix = (mix ^ bytes[i]) * 0x94d049bb133111ebull;
    mix ^= mix >> 29;
  }
  return {size, {fnv ^ n, mix ^ (n * 0x9e3779b97f4a7c15ull)}};
}

std::shared_ptr<DeviceBuffer> Device::sharedConstant(const ConstantKey &key) {
  std::lock_guard<std::mutex> lock(constantsMutex);
  auto it = constants.find(key);
  if (it == constants.end())
    return nullptr;
  std::shared_ptr<DeviceBuffer> live = it->second.lock();
  if (!live)
    constants.erase(it);
  return live;
}

void Device::shareConstant(const ConstantKey &key,
                           const std::shared_ptr<DeviceBuffer> &buffer) {
  std::lock_guard<std::mutex> lock(constantsMutex);
  // Forget buffers no session holds any more while here.
  for (auto it = constants.begin(); it != constants.end();)
    it = it->second.expired() ? constants.erase(it) : std::next(it);
  constants[key] = buffer;
}

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
    *out_device = new ot_device{std::move(impl), {}};
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

const char *ot_device_architecture(const ot_device *device) {
  if (!device)
    return "";
  // Kept with the handle: the C API returns a pointer that must outlive the
  // call.
  if (device->architecture.empty())
    device->architecture = device->impl->architecture();
  return device->architecture.c_str();
}

ot_status ot_cuda_device_query(int ordinal, ot_cuda_device_info *out_info) {
  return guardedCall([&]() -> Status {
    if (!out_info)
      return invalidArgument("ot_cuda_device_query: out_info is NULL");
    std::memset(out_info, 0, sizeof(*out_info));
    std::string name, architecture;
    int multiprocessors = 0;
    OT_RETURN_IF_ERROR(
        cudaDeviceProperties(ordinal, name, architecture, multiprocessors));
    std::snprintf(out_info->name, sizeof(out_info->name), "%s", name.c_str());
    std::snprintf(out_info->architecture, sizeof(out_info->architecture), "%s",
                  architecture.c_str());
    out_info->multiprocessors = multiprocessors;
    return okStatus();
  });
}

} // extern "C"
