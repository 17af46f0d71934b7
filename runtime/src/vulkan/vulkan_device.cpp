//===- vulkan_device.cpp - Vulkan instance, device and memory -------------===//

#include "vulkan_device.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace onnx_tosa::rt {
namespace vk {

const char *resultName(VkResult r) {
  switch (r) {
#define OT_CASE(x)                                                             \
  case x:                                                                      \
    return #x;
    OT_CASE(VK_SUCCESS)
    OT_CASE(VK_NOT_READY)
    OT_CASE(VK_TIMEOUT)
    OT_CASE(VK_INCOMPLETE)
    OT_CASE(VK_ERROR_OUT_OF_HOST_MEMORY)
    OT_CASE(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    OT_CASE(VK_ERROR_INITIALIZATION_FAILED)
    OT_CASE(VK_ERROR_DEVICE_LOST)
    OT_CASE(VK_ERROR_MEMORY_MAP_FAILED)
    OT_CASE(VK_ERROR_LAYER_NOT_PRESENT)
    OT_CASE(VK_ERROR_EXTENSION_NOT_PRESENT)
    OT_CASE(VK_ERROR_FEATURE_NOT_PRESENT)
    OT_CASE(VK_ERROR_INCOMPATIBLE_DRIVER)
    OT_CASE(VK_ERROR_TOO_MANY_OBJECTS)
    OT_CASE(VK_ERROR_FORMAT_NOT_SUPPORTED)
    OT_CASE(VK_ERROR_FRAGMENTED_POOL)
    OT_CASE(VK_ERROR_OUT_OF_POOL_MEMORY)
    OT_CASE(VK_ERROR_INVALID_SHADER_NV)
    OT_CASE(VK_ERROR_UNKNOWN)
#undef OT_CASE
  default:
    return "VK_ERROR_(unrecognized)";
  }
}

Status vkError(const char *call, VkResult r) {
  std::string msg = std::string(call) + " failed: " + resultName(r) + " (" +
                    std::to_string(static_cast<int>(r)) + ")";
  switch (r) {
  case VK_ERROR_OUT_OF_HOST_MEMORY:
  case VK_ERROR_OUT_OF_DEVICE_MEMORY:
  case VK_ERROR_OUT_OF_POOL_MEMORY:
  case VK_ERROR_TOO_MANY_OBJECTS:
    return resourceExhausted(msg);
  case VK_ERROR_DEVICE_LOST:
  case VK_ERROR_INCOMPATIBLE_DRIVER:
  case VK_ERROR_INITIALIZATION_FAILED:
    return unavailable(msg);
  default:
    return internalError(msg);
  }
}

VulkanBuffer::~VulkanBuffer() {
  if (mapped)
    vkUnmapMemory(device, memory);
  vkDestroyBuffer(device, buffer, nullptr);
  vkFreeMemory(device, memory, nullptr);
}

VulkanDevice::~VulkanDevice() {
  if (device) {
    vkDeviceWaitIdle(device);
    staging.reset();
    vkDestroyFence(device, transferFence, nullptr);
    vkDestroyCommandPool(device, transferPool, nullptr);
    vkDestroyDevice(device, nullptr);
  }
  if (instance)
    vkDestroyInstance(instance, nullptr);
}

Status VulkanDevice::allocate(uint64_t bytes,
                              std::unique_ptr<DeviceBuffer> &out) {
  std::string what =
      "allocating " + std::to_string(bytes) + " bytes on " + deviceId;
  // Asking a driver for more than it supports is undefined, not an error.
  if (bytes > maxAllocationSize)
    return resourceExhausted("the device's largest allocation is " +
                             std::to_string(maxAllocationSize) + " bytes")
        .withContext(what);
  auto buf = std::make_unique<VulkanBuffer>(device, bytes);
  // Vulkan forbids zero-sized buffers, and storage buffer ranges are used in
  // 4-byte words, so round up.
  auto info =
      vkStruct<VkBufferCreateInfo>(VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO);
  info.size = bytes < 4 ? 4 : (bytes + 3) & ~uint64_t(3);
  // Transfer usage: the staging path copies into and out of them.
  info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
               VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
               VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  OT_VK_CALL(vkCreateBuffer, device, &info, nullptr, &buf->buffer);

  const VkMemoryPropertyFlags kHost = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                      VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  const VkMemoryPropertyFlags kLocal = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
  std::vector<std::pair<VkMemoryPropertyFlags, VkMemoryPropertyFlags>> prefs;
  // On a discrete GPU, memory the host cannot map first: host-visible
  // device-local memory (the PCIe BAR) may be a small heap or carry other
  // page attributes, and host reads of it are uncached; downloads then go
  // through the cached staging buffer by DMA instead.
  if (preferDeviceLocal)
    prefs.push_back({kLocal, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT});
  // Then host-visible memory, mapped: device-local (resizable BAR or unified
  // memory) first, then cached system memory (fast readback), then any
  // coherent memory. An out-of-memory on one type falls through to the
  // next, since the device-local host-visible heap is often small.
  prefs.push_back({kHost | kLocal, 0});
  prefs.push_back({kHost | VK_MEMORY_PROPERTY_HOST_CACHED_BIT, 0});
  prefs.push_back({kHost, 0});
  OT_RETURN_IF_ERROR(bindMemory(*buf, prefs).withContext(what));
  if (forceStaging && buf->mapped) {
    vkUnmapMemory(device, buf->memory);
    buf->mapped = nullptr;
  }
  out = std::move(buf);
  return okStatus();
}

Status VulkanDevice::bindMemory(
    VulkanBuffer &buf,
    const std::vector<std::pair<VkMemoryPropertyFlags, VkMemoryPropertyFlags>>
        &prefs) {
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(device, buf.buffer, &req);
  VkResult last = VK_ERROR_OUT_OF_DEVICE_MEMORY;
  bool anyType = false;
  VkMemoryPropertyFlags chosen = 0;
  for (auto [want, avoid] : prefs) {
    for (uint32_t t = 0; t < memoryProperties.memoryTypeCount && !buf.memory;
         ++t) {
      VkMemoryPropertyFlags have =
          memoryProperties.memoryTypes[t].propertyFlags;
      if (!(req.memoryTypeBits & (1u << t)) || (have & want) != want ||
          (have & avoid))
        continue;
      anyType = true;
      auto alloc = vkStruct<VkMemoryAllocateInfo>(
          VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
      alloc.allocationSize = req.size;
      alloc.memoryTypeIndex = t;
      last = vkAllocateMemory(device, &alloc, nullptr, &buf.memory);
      if (last == VK_SUCCESS)
        chosen = have;
      else
        buf.memory = VK_NULL_HANDLE;
    }
    if (buf.memory)
      break;
  }
  if (!anyType)
    return internalError("the device has no memory type usable for storage "
                         "buffers");
  if (!buf.memory)
    return vkError("vkAllocateMemory", last);
  OT_VK_CALL(vkBindBufferMemory, device, buf.buffer, buf.memory, 0);
  if (chosen & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT)
    OT_VK_CALL(vkMapMemory, device, buf.memory, 0, VK_WHOLE_SIZE, 0,
               &buf.mapped);
  return okStatus();
}

Status VulkanDevice::upload(DeviceBuffer &dst, const void *src,
                            uint64_t bytes) {
  auto &buf = static_cast<VulkanBuffer &>(dst);
  if (!bytes)
    return okStatus();
  if (buf.mapped) {
    std::memcpy(buf.mapped, src, bytes);
    return okStatus();
  }
  return stagedCopy(buf, const_cast<void *>(src), bytes, /*toDevice=*/true);
}

Status VulkanDevice::download(DeviceBuffer &src, void *dst, uint64_t bytes) {
  auto &buf = static_cast<VulkanBuffer &>(src);
  if (!bytes)
    return okStatus();
  if (buf.mapped) {
    std::memcpy(dst, buf.mapped, bytes);
    return okStatus();
  }
  return stagedCopy(buf, dst, bytes, /*toDevice=*/false);
}

/// Large transfers (weights) go through in chunks of this size, so that the
/// staging buffer, kept for the device's lifetime, stays small.
constexpr uint64_t kMaxStagingBytes = uint64_t(64) << 20;

Status VulkanDevice::ensureTransferCommands() {
  if (!transferPool) {
    auto poolInfo = vkStruct<VkCommandPoolCreateInfo>(
        VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
    poolInfo.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT |
                     VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
    poolInfo.queueFamilyIndex = queueFamily;
    OT_VK_CALL(vkCreateCommandPool, device, &poolInfo, nullptr, &transferPool);
    auto cmdInfo = vkStruct<VkCommandBufferAllocateInfo>(
        VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
    cmdInfo.commandPool = transferPool;
    cmdInfo.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    cmdInfo.commandBufferCount = 1;
    OT_VK_CALL(vkAllocateCommandBuffers, device, &cmdInfo, &transferCommands);
    auto fenceInfo =
        vkStruct<VkFenceCreateInfo>(VK_STRUCTURE_TYPE_FENCE_CREATE_INFO);
    OT_VK_CALL(vkCreateFence, device, &fenceInfo, nullptr, &transferFence);
  }
  return okStatus();
}

Status VulkanDevice::ensureStaging(uint64_t bytes) {
  // Sizes are powers of two from 1 MiB, so a session's inputs and outputs
  // settle on one buffer after the first few transfers.
  uint64_t want = uint64_t(1) << 20;
  while (want < bytes && want < kMaxStagingBytes)
    want <<= 1;
  if (staging && staging->size() >= want)
    return okStatus();
  staging.reset();
  auto buf = std::make_unique<VulkanBuffer>(device, want);
  auto info =
      vkStruct<VkBufferCreateInfo>(VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO);
  info.size = want;
  info.usage =
      VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  OT_VK_CALL(vkCreateBuffer, device, &info, nullptr, &buf->buffer);
  // System memory, cached where possible (downloads read it back), and not
  // the device-local BAR, whose host reads are uncached.
  const VkMemoryPropertyFlags kHost = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                      VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  OT_RETURN_IF_ERROR(
      bindMemory(*buf, {{kHost | VK_MEMORY_PROPERTY_HOST_CACHED_BIT,
                         VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT},
                        {kHost, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT},
                        {kHost, 0}})
          .withContext("allocating a " + std::to_string(want) +
                       "-byte staging buffer on " + deviceId));
  staging = std::move(buf);
  return okStatus();
}

Status VulkanDevice::stagedCopy(VulkanBuffer &buf, void *host, uint64_t bytes,
                                bool toDevice) {
  std::lock_guard<std::mutex> transferLock(transferMutex);
  OT_RETURN_IF_ERROR(ensureStaging(bytes));
  auto *bytesOnHost = static_cast<uint8_t *>(host);
  for (uint64_t done = 0; done < bytes;) {
    uint64_t chunk = std::min(bytes - done, staging->size());
    if (toDevice) {
      std::memcpy(staging->mapped, bytesOnHost + done, chunk);
      OT_RETURN_IF_ERROR(transfer(staging->buffer, 0, buf.buffer, done, chunk)
                             .withContext("copying to " + deviceId));
    } else {
      OT_RETURN_IF_ERROR(transfer(buf.buffer, done, staging->buffer, 0, chunk)
                             .withContext("copying from " + deviceId));
      std::memcpy(bytesOnHost + done, staging->mapped, chunk);
    }
    done += chunk;
  }
  return okStatus();
}

Status VulkanDevice::transfer(VkBuffer src, uint64_t srcOffset, VkBuffer dst,
                              uint64_t dstOffset, uint64_t bytes) {
  OT_RETURN_IF_ERROR(ensureTransferCommands());
  OT_VK_CALL(vkResetCommandBuffer, transferCommands, 0);
  auto begin = vkStruct<VkCommandBufferBeginInfo>(
      VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  OT_VK_CALL(vkBeginCommandBuffer, transferCommands, &begin);
  // After every earlier kernel and copy on the queue: a download reads
  // what kernels wrote; an upload must not overwrite what they still read.
  auto before = vkStruct<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
  before.srcAccessMask =
      VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  before.dstAccessMask =
      VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  vkCmdPipelineBarrier(
      transferCommands,
      VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
      VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &before, 0, nullptr, 0, nullptr);
  VkBufferCopy region{};
  region.srcOffset = srcOffset;
  region.dstOffset = dstOffset;
  region.size = bytes;
  vkCmdCopyBuffer(transferCommands, src, dst, 1, &region);
  // The new contents, visible to the host's reads and to later kernels.
  auto after = vkStruct<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
  after.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  after.dstAccessMask = VK_ACCESS_HOST_READ_BIT | VK_ACCESS_SHADER_READ_BIT;
  vkCmdPipelineBarrier(transferCommands, VK_PIPELINE_STAGE_TRANSFER_BIT,
                       VK_PIPELINE_STAGE_HOST_BIT |
                           VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                       0, 1, &after, 0, nullptr, 0, nullptr);
  OT_VK_CALL(vkEndCommandBuffer, transferCommands);

  OT_VK_CALL(vkResetFences, device, 1, &transferFence);
  auto submitInfo = vkStruct<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
  submitInfo.commandBufferCount = 1;
  submitInfo.pCommandBuffers = &transferCommands;
  {
    std::lock_guard<std::mutex> queueLock(queueMutex);
    OT_VK_CALL(vkQueueSubmit, queue, 1, &submitInfo, transferFence);
  }
  OT_VK_CALL(vkWaitForFences, device, 1, &transferFence, VK_TRUE, UINT64_MAX);
  return okStatus();
}

Status VulkanDevice::copy(DeviceBuffer &dst, DeviceBuffer &src,
                          uint64_t bytes) {
  auto &to = static_cast<VulkanBuffer &>(dst);
  auto &from = static_cast<VulkanBuffer &>(src);
  if (!bytes || &to == &from)
    return okStatus();
  if (to.mapped && from.mapped) {
    std::memcpy(to.mapped, from.mapped, bytes);
    return okStatus();
  }
  std::lock_guard<std::mutex> transferLock(transferMutex);
  return transfer(from.buffer, 0, to.buffer, 0, bytes)
      .withContext("copying on " + deviceId);
}

//===----------------------------------------------------------------------===//
// Opening a device
//===----------------------------------------------------------------------===//

namespace {

bool isCpuImplementation(const VkPhysicalDeviceProperties &p) {
  std::string name = p.deviceName;
  return p.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU ||
         name.find("llvmpipe") != std::string::npos ||
         name.find("lavapipe") != std::string::npos;
}

bool isLavapipe(const VkPhysicalDeviceProperties &p) {
  std::string name = p.deviceName;
  return name.find("llvmpipe") != std::string::npos ||
         name.find("lavapipe") != std::string::npos;
}

/// Lower is better: discrete, integrated, virtual, other, CPU.
int gpuRank(const VkPhysicalDeviceProperties &p) {
  if (isCpuImplementation(p))
    return 4;
  switch (p.deviceType) {
  case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
    return 0;
  case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
    return 1;
  case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
    return 2;
  default:
    return 3;
  }
}

/// The first queue family with compute, and how many bits of its
/// timestamps are valid (0: it has none).
bool findComputeQueue(VkPhysicalDevice pd, uint32_t &family,
                      uint32_t &timestampBits) {
  uint32_t n = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, nullptr);
  std::vector<VkQueueFamilyProperties> fams(n);
  vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, fams.data());
  for (uint32_t i = 0; i < n; ++i)
    if (fams[i].queueFlags & VK_QUEUE_COMPUTE_BIT) {
      family = i;
      timestampBits = fams[i].timestampValidBits;
      return true;
    }
  return false;
}

Status createInstance(VkInstance &instance, uint32_t &apiVersion) {
  uint32_t loaderVersion = VK_API_VERSION_1_0;
  // vkEnumerateInstanceVersion only exists in 1.1+ loaders.
  auto enumerateVersion = reinterpret_cast<PFN_vkEnumerateInstanceVersion>(
      vkGetInstanceProcAddr(nullptr, "vkEnumerateInstanceVersion"));
  if (enumerateVersion)
    enumerateVersion(&loaderVersion);
  if (loaderVersion < VK_API_VERSION_1_1)
    return unavailable("the Vulkan loader supports only Vulkan 1.0; "
                       "Vulkan 1.1 or newer is required");
  auto app = vkStruct<VkApplicationInfo>(VK_STRUCTURE_TYPE_APPLICATION_INFO);
  app.pApplicationName = "onnx-tosa";
  app.pEngineName = "onnx-tosa-runtime";
  app.apiVersion = apiVersion = loaderVersion < VK_API_VERSION_1_2
                                    ? VK_API_VERSION_1_1
                                    : VK_API_VERSION_1_2;
  auto info =
      vkStruct<VkInstanceCreateInfo>(VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO);
  info.pApplicationInfo = &app;
  VkResult r = vkCreateInstance(&info, nullptr, &instance);
  if (r == VK_ERROR_INCOMPATIBLE_DRIVER)
    return unavailable("no Vulkan driver is installed (vkCreateInstance: "
                       "VK_ERROR_INCOMPATIBLE_DRIVER)");
  if (r != VK_SUCCESS)
    return vkError("vkCreateInstance", r);
  return okStatus();
}

/// Picks the physical device the selector names; `index` is its position in
/// enumeration order, used for the "vulkan:N" id.
Status selectPhysical(VkInstance instance, const VulkanSelector &sel,
                      VkPhysicalDevice &chosen, uint32_t &index) {
  uint32_t n = 0;
  VkResult r = vkEnumeratePhysicalDevices(instance, &n, nullptr);
  if (r != VK_SUCCESS)
    return vkError("vkEnumeratePhysicalDevices", r);
  if (n == 0)
    return unavailable("no Vulkan device found (a driver is installed but "
                       "reports no physical devices)");
  std::vector<VkPhysicalDevice> devs(n);
  r = vkEnumeratePhysicalDevices(instance, &n, devs.data());
  if (r != VK_SUCCESS && r != VK_INCOMPLETE)
    return vkError("vkEnumeratePhysicalDevices", r);
  devs.resize(n);
  std::vector<VkPhysicalDeviceProperties> props(n);
  std::string all;
  for (uint32_t i = 0; i < n; ++i) {
    vkGetPhysicalDeviceProperties(devs[i], &props[i]);
    all += (i ? ", " : "") + std::to_string(i) + ": " + props[i].deviceName;
  }

  int best = -1;
  switch (sel.kind) {
  case VulkanSelector::Kind::Ordinal:
    if (sel.ordinal < 0 || static_cast<uint32_t>(sel.ordinal) >= n)
      return notFound("Vulkan device " + std::to_string(sel.ordinal) +
                      " does not exist (devices: " + all + ")");
    best = sel.ordinal;
    break;
  case VulkanSelector::Kind::Lavapipe:
    for (uint32_t i = 0; i < n && best < 0; ++i)
      if (isLavapipe(props[i]))
        best = static_cast<int>(i);
    if (best < 0)
      return notFound(
          "no lavapipe (Mesa CPU) Vulkan device found (devices: " + all + ")");
    break;
  case VulkanSelector::Kind::PreferGpu:
    for (uint32_t i = 0; i < n; ++i) {
      uint32_t family, timestampBits;
      if (!findComputeQueue(devs[i], family, timestampBits))
        continue;
      if (best < 0 || gpuRank(props[i]) < gpuRank(props[best]))
        best = static_cast<int>(i);
    }
    if (best < 0)
      return unavailable(
          "no Vulkan device has a compute queue (devices: " + all + ")");
    break;
  }
  if (props[best].apiVersion < VK_API_VERSION_1_1)
    return unavailable(std::string("Vulkan device '") + props[best].deviceName +
                       "' supports only Vulkan 1.0; 1.1 or newer is required");
  chosen = devs[best];
  index = static_cast<uint32_t>(best);
  return okStatus();
}

bool hasDeviceExtension(VkPhysicalDevice physical, const char *name) {
  uint32_t count = 0;
  vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> all(count);
  vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, all.data());
  for (const VkExtensionProperties &e : all)
    if (std::strcmp(e.extensionName, name) == 0)
      return true;
  return false;
}

/// Creates the logical device with every optional shader feature the
/// compiler may use (64/16/8-bit types, 16/8-bit storage) that the physical
/// device supports; unsupported ones are simply left off, and a shader that
/// needs them will fail at pipeline creation with a driver error.
Status createLogicalDevice(VulkanDevice &d) {
  bool v12 = d.properties.apiVersion >= VK_API_VERSION_1_2 &&
             d.instanceApiVersion >= VK_API_VERSION_1_2;
  auto f11 = vkStruct<VkPhysicalDeviceVulkan11Features>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES);
  auto f12 = vkStruct<VkPhysicalDeviceVulkan12Features>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES);
  auto f16 = vkStruct<VkPhysicalDevice16BitStorageFeatures>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES);
  auto query = vkStruct<VkPhysicalDeviceFeatures2>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2);
  // The Vulkan11/12 feature structs may only be chained on 1.2 devices.
  if (v12) {
    query.pNext = &f11;
    f11.pNext = &f12;
  } else {
    query.pNext = &f16;
  }
  vkGetPhysicalDeviceFeatures2(d.physical, &query);

  auto enable = vkStruct<VkPhysicalDeviceFeatures2>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2);
  enable.features.shaderInt64 = query.features.shaderInt64;
  enable.features.shaderFloat64 = query.features.shaderFloat64;
  enable.features.shaderInt16 = query.features.shaderInt16;
  auto e11 = vkStruct<VkPhysicalDeviceVulkan11Features>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES);
  auto e12 = vkStruct<VkPhysicalDeviceVulkan12Features>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES);
  auto e16 = vkStruct<VkPhysicalDevice16BitStorageFeatures>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES);
  if (v12) {
    e11.storageBuffer16BitAccess = f11.storageBuffer16BitAccess;
    e12.storageBuffer8BitAccess = f12.storageBuffer8BitAccess;
    e12.shaderInt8 = f12.shaderInt8;
    e12.shaderFloat16 = f12.shaderFloat16;
    e12.vulkanMemoryModel = f12.vulkanMemoryModel;
    enable.pNext = &e11;
    e11.pNext = &e12;
  } else {
    e16.storageBuffer16BitAccess = f16.storageBuffer16BitAccess;
    enable.pNext = &e16;
  }

  // The driver's statistics of compiled kernels, on request.
  const char *stats = std::getenv("ONNX_TOSA_VULKAN_PIPELINE_STATS");
  auto fExec = vkStruct<
      VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR);
  std::vector<const char *> extensions;
  if (stats && std::strcmp(stats, "1") == 0) {
    if (hasDeviceExtension(
            d.physical, VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME)) {
      extensions.push_back(
          VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
      fExec.pipelineExecutableInfo = VK_TRUE;
      fExec.pNext = enable.pNext;
      enable.pNext = &fExec;
      d.pipelineStatistics = true;
    } else {
      std::fprintf(stderr,
                   "onnx-tosa: ONNX_TOSA_VULKAN_PIPELINE_STATS: '%s' does "
                   "not report pipeline statistics "
                   "(no VK_KHR_pipeline_executable_properties)\n",
                   d.properties.deviceName);
    }
  }

  float priority = 1.0f;
  auto queueInfo = vkStruct<VkDeviceQueueCreateInfo>(
      VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO);
  queueInfo.queueFamilyIndex = d.queueFamily;
  queueInfo.queueCount = 1;
  queueInfo.pQueuePriorities = &priority;
  auto info =
      vkStruct<VkDeviceCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO);
  info.pNext = &enable;
  info.queueCreateInfoCount = 1;
  info.pQueueCreateInfos = &queueInfo;
  info.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
  info.ppEnabledExtensionNames = extensions.data();
  OT_VK_CALL(vkCreateDevice, d.physical, &info, nullptr, &d.device);
  vkGetDeviceQueue(d.device, d.queueFamily, 0, &d.queue);
  return okStatus();
}

} // namespace
} // namespace vk

Status openVulkanDevice(const VulkanSelector &selector,
                        std::shared_ptr<Device> &out) {
  using namespace vk;
  OT_RETURN_IF_ERROR(loadVulkan());
  auto d = std::make_shared<VulkanDevice>();
  OT_RETURN_IF_ERROR(createInstance(d->instance, d->instanceApiVersion));
  uint32_t index = 0;
  OT_RETURN_IF_ERROR(selectPhysical(d->instance, selector, d->physical, index));
  auto maintenance3 = vkStruct<VkPhysicalDeviceMaintenance3Properties>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES);
  auto subgroups = vkStruct<VkPhysicalDeviceSubgroupProperties>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES);
  maintenance3.pNext = &subgroups;
  auto props2 = vkStruct<VkPhysicalDeviceProperties2>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2);
  props2.pNext = &maintenance3;
  vkGetPhysicalDeviceProperties2(d->physical, &props2);
  d->properties = props2.properties;
  d->maxAllocationSize = maintenance3.maxMemoryAllocationSize;
  // ONNX_TOSA_VULKAN_NO_SUBGROUPS=1: as if the device had no subgroup
  // operations (lets lavapipe test modules compiled without them).
  const char *noSubgroups = std::getenv("ONNX_TOSA_VULKAN_NO_SUBGROUPS");
  if ((subgroups.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) &&
      !(noSubgroups && std::strcmp(noSubgroups, "1") == 0))
    d->subgroupOperations = subgroups.supportedOperations;
  vkGetPhysicalDeviceMemoryProperties(d->physical, &d->memoryProperties);
  const char *staging = std::getenv("ONNX_TOSA_VULKAN_STAGING");
  d->forceStaging = staging && std::strcmp(staging, "1") == 0;
  // Only a discrete GPU's memory is far from the host; integrated GPUs and
  // lavapipe share system memory, where mapping it directly saves the copy.
  if (d->properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU)
    for (uint32_t t = 0; t < d->memoryProperties.memoryTypeCount; ++t) {
      VkMemoryPropertyFlags f =
          d->memoryProperties.memoryTypes[t].propertyFlags;
      d->preferDeviceLocal |= (f & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) &&
                              !(f & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT);
    }
  d->deviceId = "vulkan:" + std::to_string(index);
  d->deviceName = d->properties.deviceName;
  if (!findComputeQueue(d->physical, d->queueFamily, d->timestampBits))
    return unavailable("Vulkan device '" + d->deviceName +
                       "' has no compute queue");
  OT_RETURN_IF_ERROR(createLogicalDevice(*d).withContext(
      "creating a Vulkan device on '" + d->deviceName + "'"));
  out = std::move(d);
  return okStatus();
}

} // namespace onnx_tosa::rt
