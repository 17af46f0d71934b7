//===- vulkan_device.h - The Vulkan backend's objects -----------*- C++ -*-===//
//
// vulkan_device.cpp creates the instance/device and manages memory;
// vulkan_program.cpp turns SPIR-V modules and launch lists into pipelines and
// one pre-recorded command buffer per session.
//
// Memory: on a discrete GPU buffers live in device-local memory that the
// host cannot map, and upload/download copy through one host-visible
// staging buffer per device (vkCmdCopyBuffer in a command buffer of their
// own). Elsewhere (integrated GPUs, lavapipe), where device-local memory is
// also host-visible, buffers stay mapped for their lifetime and
// upload/download are plain memcpy.
//
//===----------------------------------------------------------------------===//
#ifndef ONNX_TOSA_RUNTIME_VULKAN_DEVICE_H
#define ONNX_TOSA_RUNTIME_VULKAN_DEVICE_H

#include "../backend.h"
#include "vulkan_loader.h"

#include <map>
#include <mutex>
#include <set>
#include <tuple>

namespace onnx_tosa::rt::vk {

const char *resultName(VkResult r);
/// "CALL failed: VK_ERROR_..." with out-of-memory results mapped to
/// RESOURCE_EXHAUSTED and a lost device to UNAVAILABLE.
Status vkError(const char *call, VkResult r);

#define OT_VK_CALL(call, ...)                                                  \
  do {                                                                         \
    VkResult otVkResult_ = call(__VA_ARGS__);                                  \
    if (otVkResult_ != VK_SUCCESS)                                             \
      return ::onnx_tosa::rt::vk::vkError(#call, otVkResult_);                 \
  } while (false)

/// A zeroed Vulkan struct with its sType set.
template <typename T> T vkStruct(VkStructureType type) {
  T value{};
  value.sType = type;
  return value;
}

class VulkanBuffer final : public DeviceBuffer {
public:
  VulkanBuffer(VkDevice device, uint64_t size)
      : DeviceBuffer(size), device(device) {}
  ~VulkanBuffer() override;

  VkDevice device;
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  /// Persistent host mapping of the whole allocation; null for device-local
  /// memory the host cannot map (reached through the staging buffer).
  void *mapped = nullptr;
};

class VulkanModule final : public DeviceModule {
public:
  explicit VulkanModule(VkDevice device) : device(device) {}
  ~VulkanModule() override;

  VkDevice device;
  VkShaderModule shader = VK_NULL_HANDLE;
  std::string name;
  /// GLCompute entry points found in the SPIR-V. Creating a pipeline for a
  /// missing entry point is undefined behavior in Vulkan, so launches are
  /// checked against this list first.
  std::vector<std::string> entryPoints;
};

class VulkanSequence final : public LaunchSequence {
public:
  explicit VulkanSequence(VkDevice device) : device(device) {}
  ~VulkanSequence() override;

  VkDevice device;
  VkCommandPool commandPool = VK_NULL_HANDLE;
  VkCommandBuffer commands = VK_NULL_HANDLE;
  VkFence fence = VK_NULL_HANDLE;
  VkDescriptorPool descriptorPool = VK_NULL_HANDLE;
  /// Per argument count: one set layout and one pipeline layout.
  std::map<size_t, std::pair<VkDescriptorSetLayout, VkPipelineLayout>> layouts;
  /// Per (module, entry, argument count): one pipeline.
  std::map<std::tuple<const DeviceModule *, std::string, size_t>, VkPipeline>
      pipelines;
  /// Submitted and not yet waited for.
  bool pending = false;
  /// Two timestamps written before and after the dispatches, where the
  /// queue has timestamps.
  VkQueryPool timestamps = VK_NULL_HANDLE;
};

class VulkanDevice final : public Device {
public:
  ~VulkanDevice() override;

  Target target() const override { return Target::Vulkan; }
  const std::string &id() const override { return deviceId; }
  const std::string &name() const override { return deviceName; }

  Status allocate(uint64_t bytes, std::unique_ptr<DeviceBuffer> &out) override;
  Status upload(DeviceBuffer &dst, const void *src, uint64_t bytes) override;
  Status download(DeviceBuffer &src, void *dst, uint64_t bytes) override;
  Status copy(DeviceBuffer &dst, DeviceBuffer &src, uint64_t bytes) override;
  Status loadModule(const Module &module,
                    std::unique_ptr<DeviceModule> &out) override;
  Status prepare(const std::vector<LaunchSpec> &launches,
                 std::unique_ptr<LaunchSequence> &out) override;
  Status submit(LaunchSequence &sequence) override;
  Status wait(LaunchSequence &sequence) override;
  double deviceMs(LaunchSequence &sequence) override;

  // Set up by openVulkanDevice.
  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;
  uint32_t queueFamily = 0;
  /// Valid bits of the queue's timestamps; 0 when it has none.
  uint32_t timestampBits = 0;
  VkPhysicalDeviceProperties properties{};
  VkPhysicalDeviceMemoryProperties memoryProperties{};
  /// The subgroup operations compute shaders may use
  /// (VkSubgroupFeatureFlags; 0 for a Vulkan 1.0 device).
  VkSubgroupFeatureFlags subgroupOperations = 0;
  /// Largest single allocation the driver promises to support.
  VkDeviceSize maxAllocationSize = 0;
  /// The API version the instance was created for (caps what may be used).
  uint32_t instanceApiVersion = 0;
  std::string deviceId;
  std::string deviceName;
  /// Whether buffers go to memory the host cannot map (discrete GPUs with a
  /// DEVICE_LOCAL, not HOST_VISIBLE memory type).
  bool preferDeviceLocal = false;
  /// ONNX_TOSA_VULKAN_STAGING=1: buffers are never mapped, every upload and
  /// download goes through the staging buffer, as on a discrete GPU (lets
  /// lavapipe test that path).
  bool forceStaging = false;
  /// ONNX_TOSA_VULKAN_PIPELINE_STATS=1 on a device with
  /// VK_KHR_pipeline_executable_properties: the driver's statistics of each
  /// compiled kernel (registers, spills, instructions: whatever it reports)
  /// go to stderr when its pipeline is built.
  bool pipelineStatistics = false;

private:
  /// Allocates and binds memory for `buf` of the first memory type (in
  /// `prefs` order) that has the wanted flags and none of the unwanted
  /// ones; maps it when it is host-visible.
  Status bindMemory(
      VulkanBuffer &buf,
      const std::vector<std::pair<VkMemoryPropertyFlags, VkMemoryPropertyFlags>>
          &prefs);
  /// Copies between host memory and a buffer the host cannot map, through
  /// the staging buffer, in chunks of at most its size.
  Status stagedCopy(VulkanBuffer &buf, void *host, uint64_t bytes,
                    bool toDevice);
  Status ensureStaging(uint64_t bytes);
  /// The transfer command buffer and fence, created on first use.
  Status ensureTransferCommands();
  /// Copies between two buffers on the queue, after everything submitted
  /// before it, and waits for the copy. Callers hold transferMutex.
  Status transfer(VkBuffer src, uint64_t srcOffset, VkBuffer dst,
                  uint64_t dstOffset, uint64_t bytes);
  Status buildLayouts(VulkanSequence &seq, size_t numArgs);
  Status buildPipeline(VulkanSequence &seq, const LaunchSpec &spec);
  /// One stderr line per executable of `pipeline`: the driver's
  /// statistics; once per kernel (profiling builds pipelines again).
  void printStatistics(VkPipeline pipeline, const std::string &kernel);
  Status record(VulkanSequence &seq, const std::vector<LaunchSpec> &launches);

  std::mutex statisticsMutex;
  std::set<std::string> kernelsWithStatistics;

  /// Queues require external synchronization; sessions on one device may
  /// submit from different threads.
  std::mutex queueMutex;

  /// The staging path, created on first use; transfers are serialized.
  std::mutex transferMutex;
  std::unique_ptr<VulkanBuffer> staging;
  VkCommandPool transferPool = VK_NULL_HANDLE;
  VkCommandBuffer transferCommands = VK_NULL_HANDLE;
  VkFence transferFence = VK_NULL_HANDLE;
};

} // namespace onnx_tosa::rt::vk

#endif // ONNX_TOSA_RUNTIME_VULKAN_DEVICE_H
