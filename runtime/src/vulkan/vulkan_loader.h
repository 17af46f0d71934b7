//===- vulkan_loader.h - The Vulkan loader, opened at run time --*- C++ -*-===//
//
// The runtime does not link libvulkan: like libcuda, the loader is opened
// with dlopen when the first Vulkan device is, so that a machine without it
// still runs CUDA artifacts. Each Vulkan function the backend calls is a
// pointer of the same name in namespace onnx_tosa::rt::vk, which the code
// there calls as it would the prototype (VK_NO_PROTOTYPES hides those).
//
//===----------------------------------------------------------------------===//
#ifndef ONNX_TOSA_RUNTIME_VULKAN_LOADER_H
#define ONNX_TOSA_RUNTIME_VULKAN_LOADER_H

#define VK_NO_PROTOTYPES
#include <vulkan/vulkan.h>

#include "../status.h"

// Every core function the backend uses (extensions come through
// vkGetDeviceProcAddr where they are used).
#define OT_VULKAN_FUNCTIONS(X) \
  X(vkAllocateCommandBuffers) \
  X(vkAllocateDescriptorSets) \
  X(vkAllocateMemory) \
  X(vkBeginCommandBuffer) \
  X(vkBindBufferMemory) \
  X(vkCmdBindDescriptorSets) \
  X(vkCmdBindPipeline) \
  X(vkCmdCopyBuffer) \
  X(vkCmdDispatch) \
  X(vkCmdPipelineBarrier) \
  X(vkCmdResetQueryPool) \
  X(vkCmdWriteTimestamp) \
  X(vkCreateBuffer) \
  X(vkCreateCommandPool) \
  X(vkCreateComputePipelines) \
  X(vkCreateDescriptorPool) \
  X(vkCreateDescriptorSetLayout) \
  X(vkCreateDevice) \
  X(vkCreateFence) \
  X(vkCreateInstance) \
  X(vkCreatePipelineLayout) \
  X(vkCreateQueryPool) \
  X(vkCreateShaderModule) \
  X(vkDestroyBuffer) \
  X(vkDestroyCommandPool) \
  X(vkDestroyDescriptorPool) \
  X(vkDestroyDescriptorSetLayout) \
  X(vkDestroyDevice) \
  X(vkDestroyFence) \
  X(vkDestroyInstance) \
  X(vkDestroyPipeline) \
  X(vkDestroyPipelineLayout) \
  X(vkDestroyQueryPool) \
  X(vkDestroyShaderModule) \
  X(vkDeviceWaitIdle) \
  X(vkEndCommandBuffer) \
  X(vkEnumerateDeviceExtensionProperties) \
  X(vkEnumeratePhysicalDevices) \
  X(vkFreeMemory) \
  X(vkGetBufferMemoryRequirements) \
  X(vkGetDeviceProcAddr) \
  X(vkGetDeviceQueue) \
  X(vkGetInstanceProcAddr) \
  X(vkGetPhysicalDeviceFeatures2) \
  X(vkGetPhysicalDeviceMemoryProperties) \
  X(vkGetPhysicalDeviceProperties) \
  X(vkGetPhysicalDeviceProperties2) \
  X(vkGetPhysicalDeviceQueueFamilyProperties) \
  X(vkGetQueryPoolResults) \
  X(vkMapMemory) \
  X(vkQueueSubmit) \
  X(vkResetCommandBuffer) \
  X(vkResetFences) \
  X(vkUnmapMemory) \
  X(vkUpdateDescriptorSets) \
  X(vkWaitForFences)

namespace onnx_tosa::rt::vk {

#define OT_VULKAN_DECLARE(name) extern PFN_##name name;
OT_VULKAN_FUNCTIONS(OT_VULKAN_DECLARE)
#undef OT_VULKAN_DECLARE

/// Opens the loader (libvulkan.so.1, or $ONNX_TOSA_VULKAN_LOADER) and
/// resolves the functions above, once per process; UNAVAILABLE with the
/// reason when it cannot.
Status loadVulkan();

} // namespace onnx_tosa::rt::vk

#endif // ONNX_TOSA_RUNTIME_VULKAN_LOADER_H
