//===- vulkan_program.cpp - Shader modules, pipelines and dispatch --------===//
//
// A session's launches are recorded once, at load time, into one command
// buffer: buffers never move, so the descriptor sets and dispatches stay
// valid for every run. A run is then one vkQueueSubmit plus a fence wait.
//
//===----------------------------------------------------------------------===//

#include "vulkan_device.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <set>

namespace onnx_tosa::rt::vk {
namespace {

constexpr uint32_t kSpirvMagic = 0x07230203;
constexpr uint32_t kOpCapability = 17;
constexpr uint32_t kOpEntryPoint = 15;
constexpr uint32_t kExecutionModelGLCompute = 5;

/// SPIR-V capabilities of subgroup operations (the compiler's row
/// reductions declare the first two: onnx-tosa-compile --subgroup-reduce),
/// with the Vulkan feature bit each needs and its name.
struct SubgroupCapability {
  uint32_t capability;
  VkSubgroupFeatureFlagBits feature;
  const char *name;
};
constexpr SubgroupCapability kSubgroupCapabilities[] = {
    {61, VK_SUBGROUP_FEATURE_BASIC_BIT, "GroupNonUniform"},
    {63, VK_SUBGROUP_FEATURE_ARITHMETIC_BIT, "GroupNonUniformArithmetic"},
    {64, VK_SUBGROUP_FEATURE_BALLOT_BIT, "GroupNonUniformBallot"},
    {65, VK_SUBGROUP_FEATURE_SHUFFLE_BIT, "GroupNonUniformShuffle"},
};

/// Walks the instruction stream of a SPIR-V module (checking every length)
/// and collects the names of its GLCompute entry points and the
/// capabilities it declares.
Status scanSpirv(const std::vector<uint32_t> &w,
                 std::vector<std::string> &entryPoints,
                 std::vector<uint32_t> &capabilities) {
  if (w.empty() || w[0] != kSpirvMagic)
    return invalidArgument("not a SPIR-V module (bad magic number; a "
                           "big-endian module is not supported)");
  if (w.size() < 5)
    return invalidArgument("SPIR-V module is shorter than its 5-word header");
  for (size_t i = 5; i < w.size();) {
    uint32_t opcode = w[i] & 0xffff;
    uint32_t wordCount = w[i] >> 16;
    if (wordCount == 0 || wordCount > w.size() - i)
      return invalidArgument("malformed SPIR-V: bad instruction length at "
                             "word " +
                             std::to_string(i));
    if (opcode == kOpEntryPoint && wordCount >= 4 &&
        w[i + 1] == kExecutionModelGLCompute) {
      // The literal name is NUL-terminated inside words [i+3, i+wordCount).
      const char *chars = reinterpret_cast<const char *>(&w[i + 3]);
      size_t maxLen = (wordCount - 3) * 4;
      entryPoints.emplace_back(chars, strnlen(chars, maxLen));
    }
    if (opcode == kOpCapability && wordCount == 2)
      capabilities.push_back(w[i + 1]);
    i += wordCount;
  }
  return okStatus();
}

std::string joinNames(const std::vector<std::string> &names) {
  std::string s;
  for (const std::string &n : names)
    s += (s.empty() ? "" : ", ") + n;
  return s.empty() ? "none" : s;
}

} // namespace

VulkanModule::~VulkanModule() {
  vkDestroyShaderModule(device, shader, nullptr);
}

VulkanSequence::~VulkanSequence() {
  // Never destroy objects the GPU may still be using.
  if (pending)
    vkWaitForFences(device, 1, &fence, VK_TRUE, UINT64_MAX);
  for (auto &p : pipelines)
    vkDestroyPipeline(device, p.second, nullptr);
  for (auto &l : layouts) {
    vkDestroyPipelineLayout(device, l.second.second, nullptr);
    vkDestroyDescriptorSetLayout(device, l.second.first, nullptr);
  }
  vkDestroyDescriptorPool(device, descriptorPool, nullptr);
  vkDestroyQueryPool(device, timestamps, nullptr);
  vkDestroyFence(device, fence, nullptr);
  vkDestroyCommandPool(device, commandPool, nullptr);
}

Status VulkanDevice::loadModule(const Module &module,
                                std::unique_ptr<DeviceModule> &out) {
  std::string what = "loading SPIR-V module '" + module.name + "'";
  if (module.binary.size() % 4 != 0)
    return invalidArgument("SPIR-V size " +
                           std::to_string(module.binary.size()) +
                           " is not a multiple of 4 bytes")
        .withContext(what);
  // Copy into words: the byte vector carries no alignment guarantee.
  std::vector<uint32_t> words(module.binary.size() / 4);
  if (!words.empty())
    std::memcpy(words.data(), module.binary.data(), module.binary.size());
  auto mod = std::make_unique<VulkanModule>(device);
  mod->name = module.name;
  std::vector<uint32_t> capabilities;
  OT_RETURN_IF_ERROR(
      scanSpirv(words, mod->entryPoints, capabilities).withContext(what));
  // A driver would fail pipeline creation on these, or worse, not check.
  for (const SubgroupCapability &c : kSubgroupCapabilities)
    if (std::find(capabilities.begin(), capabilities.end(), c.capability) !=
            capabilities.end() &&
        !(subgroupOperations & c.feature))
      return unavailable(
                 std::string("the kernels use subgroup operations (SPIR-V "
                             "capability ") +
                 c.name + "), which Vulkan device '" + deviceName +
                 "' does not support in compute shaders; compile the model "
                 "with --subgroup-reduce=false")
          .withContext(what);

  auto info = vkStruct<VkShaderModuleCreateInfo>(
      VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
  info.codeSize = module.binary.size();
  info.pCode = words.data();
  VkResult r = vkCreateShaderModule(device, &info, nullptr, &mod->shader);
  if (r != VK_SUCCESS)
    return vkError("vkCreateShaderModule", r).withContext(what);
  out = std::move(mod);
  return okStatus();
}

Status VulkanDevice::buildLayouts(VulkanSequence &seq, size_t numArgs) {
  if (seq.layouts.count(numArgs))
    return okStatus();
  std::vector<VkDescriptorSetLayoutBinding> bindings(numArgs);
  for (size_t i = 0; i < numArgs; ++i) {
    bindings[i].binding = static_cast<uint32_t>(i);
    bindings[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    bindings[i].descriptorCount = 1;
    bindings[i].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
  }
  auto setInfo = vkStruct<VkDescriptorSetLayoutCreateInfo>(
      VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO);
  setInfo.bindingCount = static_cast<uint32_t>(numArgs);
  setInfo.pBindings = bindings.data();
  VkDescriptorSetLayout setLayout = VK_NULL_HANDLE;
  OT_VK_CALL(vkCreateDescriptorSetLayout, device, &setInfo, nullptr,
             &setLayout);
  auto layoutInfo = vkStruct<VkPipelineLayoutCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
  layoutInfo.setLayoutCount = 1;
  layoutInfo.pSetLayouts = &setLayout;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkResult r = vkCreatePipelineLayout(device, &layoutInfo, nullptr, &layout);
  if (r != VK_SUCCESS) {
    vkDestroyDescriptorSetLayout(device, setLayout, nullptr);
    return vkError("vkCreatePipelineLayout", r);
  }
  seq.layouts[numArgs] = {setLayout, layout};
  return okStatus();
}

Status VulkanDevice::buildPipeline(VulkanSequence &seq,
                                   const LaunchSpec &spec) {
  // SPIR-V declares its workgroup memory in the shader; the compiler gives
  // Vulkan kernels no dynamic workgroup memory.
  if (spec.sharedBytes)
    return invalidArgument(spec.label + " asks for " +
                           std::to_string(spec.sharedBytes) +
                           " bytes of dynamic workgroup memory, which "
                           "Vulkan kernels cannot have");
  auto key = std::make_tuple(spec.module, spec.entry, spec.args.size());
  if (seq.pipelines.count(key))
    return okStatus();
  const auto *mod = static_cast<const VulkanModule *>(spec.module);
  bool found = false;
  for (const std::string &e : mod->entryPoints)
    found |= e == spec.entry;
  if (!found)
    return notFound("SPIR-V module '" + mod->name +
                    "' has no compute entry point '" + spec.entry +
                    "' (it has: " + joinNames(mod->entryPoints) + ")");
  OT_RETURN_IF_ERROR(buildLayouts(seq, spec.args.size()));

  auto info = vkStruct<VkComputePipelineCreateInfo>(
      VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO);
  info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  info.stage.module = mod->shader;
  info.stage.pName = spec.entry.c_str();
  info.layout = seq.layouts[spec.args.size()].second;
  if (pipelineStatistics)
    info.flags |= VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
  VkPipeline pipeline = VK_NULL_HANDLE;
  OT_VK_CALL(vkCreateComputePipelines, device, VK_NULL_HANDLE, 1, &info,
             nullptr, &pipeline);
  seq.pipelines[key] = pipeline;
  if (pipelineStatistics)
    printStatistics(pipeline, mod->name + "::" + spec.entry);
  return okStatus();
}

void VulkanDevice::printStatistics(VkPipeline pipeline,
                                   const std::string &kernel) {
  auto properties = reinterpret_cast<PFN_vkGetPipelineExecutablePropertiesKHR>(
      vkGetDeviceProcAddr(device, "vkGetPipelineExecutablePropertiesKHR"));
  auto statistics = reinterpret_cast<PFN_vkGetPipelineExecutableStatisticsKHR>(
      vkGetDeviceProcAddr(device, "vkGetPipelineExecutableStatisticsKHR"));
  if (!properties || !statistics)
    return;
  {
    std::lock_guard<std::mutex> lock(statisticsMutex);
    if (!kernelsWithStatistics.insert(kernel).second)
      return;
  }
  auto pipelineInfo =
      vkStruct<VkPipelineInfoKHR>(VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR);
  pipelineInfo.pipeline = pipeline;
  uint32_t count = 0;
  if (properties(device, &pipelineInfo, &count, nullptr) != VK_SUCCESS)
    return;
  for (uint32_t e = 0; e < count; ++e) {
    auto exec = vkStruct<VkPipelineExecutableInfoKHR>(
        VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR);
    exec.pipeline = pipeline;
    exec.executableIndex = e;
    uint32_t n = 0;
    if (statistics(device, &exec, &n, nullptr) != VK_SUCCESS)
      continue;
    std::vector<VkPipelineExecutableStatisticKHR> stats(
        n, vkStruct<VkPipelineExecutableStatisticKHR>(
               VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR));
    if (statistics(device, &exec, &n, stats.data()) != VK_SUCCESS)
      continue;
    std::string line = "vulkan kernel " + kernel + ":";
    for (const VkPipelineExecutableStatisticKHR &s : stats) {
      line += std::string(" ") + s.name + "=";
      switch (s.format) {
      case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR:
        line += s.value.b32 ? "true" : "false";
        break;
      case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR:
        line += std::to_string(s.value.i64);
        break;
      case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR:
        line += std::to_string(s.value.u64);
        break;
      default:
        line += std::to_string(s.value.f64);
      }
    }
    std::fprintf(stderr, "%s\n", line.c_str());
  }
}

Status VulkanDevice::prepare(const std::vector<LaunchSpec> &launches,
                             std::unique_ptr<LaunchSequence> &out) {
  auto seq = std::make_unique<VulkanSequence>(device);
  const VkPhysicalDeviceLimits &lim = properties.limits;
  uint32_t totalArgs = 0, setsNeeded = 0;
  for (const LaunchSpec &spec : launches) {
    for (int d = 0; d < 3; ++d)
      if (spec.grid[d] == 0 || spec.grid[d] > lim.maxComputeWorkGroupCount[d])
        return invalidArgument(
            spec.label + ": grid dimension " + std::to_string(d) + " is " +
            std::to_string(spec.grid[d]) + "; the device allows 1.." +
            std::to_string(lim.maxComputeWorkGroupCount[d]));
    if (spec.args.size() > lim.maxPerStageDescriptorStorageBuffers)
      return invalidArgument(
          spec.label + ": " + std::to_string(spec.args.size()) +
          " buffer arguments exceed the device's limit of " +
          std::to_string(lim.maxPerStageDescriptorStorageBuffers) +
          " storage buffers per shader");
    for (size_t a = 0; a < spec.args.size(); ++a)
      if (spec.args[a]->size() > lim.maxStorageBufferRange)
        return invalidArgument(
            spec.label + ": argument " + std::to_string(a) + " is " +
            std::to_string(spec.args[a]->size()) +
            " bytes, over the device's storage buffer range limit of " +
            std::to_string(lim.maxStorageBufferRange));
    OT_RETURN_IF_ERROR(buildPipeline(*seq, spec).withContext(spec.label));
    totalArgs += static_cast<uint32_t>(spec.args.size());
    setsNeeded += spec.args.empty() ? 0 : 1;
  }

  // One descriptor set per launch that takes arguments.
  VkDescriptorPoolSize poolSize{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                totalArgs ? totalArgs : 1};
  auto poolInfo = vkStruct<VkDescriptorPoolCreateInfo>(
      VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO);
  poolInfo.maxSets = setsNeeded ? setsNeeded : 1;
  poolInfo.poolSizeCount = 1;
  poolInfo.pPoolSizes = &poolSize;
  OT_VK_CALL(vkCreateDescriptorPool, device, &poolInfo, nullptr,
             &seq->descriptorPool);

  auto cmdPoolInfo = vkStruct<VkCommandPoolCreateInfo>(
      VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
  cmdPoolInfo.queueFamilyIndex = queueFamily;
  OT_VK_CALL(vkCreateCommandPool, device, &cmdPoolInfo, nullptr,
             &seq->commandPool);
  auto cmdInfo = vkStruct<VkCommandBufferAllocateInfo>(
      VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
  cmdInfo.commandPool = seq->commandPool;
  cmdInfo.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  cmdInfo.commandBufferCount = 1;
  OT_VK_CALL(vkAllocateCommandBuffers, device, &cmdInfo, &seq->commands);
  auto fenceInfo =
      vkStruct<VkFenceCreateInfo>(VK_STRUCTURE_TYPE_FENCE_CREATE_INFO);
  OT_VK_CALL(vkCreateFence, device, &fenceInfo, nullptr, &seq->fence);
  if (timestampBits > 0) {
    auto queryInfo = vkStruct<VkQueryPoolCreateInfo>(
        VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO);
    queryInfo.queryType = VK_QUERY_TYPE_TIMESTAMP;
    queryInfo.queryCount = 2;
    OT_VK_CALL(vkCreateQueryPool, device, &queryInfo, nullptr,
               &seq->timestamps);
  }

  OT_RETURN_IF_ERROR(record(*seq, launches));
  out = std::move(seq);
  return okStatus();
}

Status VulkanDevice::record(VulkanSequence &seq,
                            const std::vector<LaunchSpec> &launches) {
  auto begin = vkStruct<VkCommandBufferBeginInfo>(
      VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
  OT_VK_CALL(vkBeginCommandBuffer, seq.commands, &begin);
  if (seq.timestamps) {
    vkCmdResetQueryPool(seq.commands, seq.timestamps, 0, 2);
    vkCmdWriteTimestamp(seq.commands, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                        seq.timestamps, 0);
  }

  // Inputs and weights in device-local memory arrive by vkCmdCopyBuffer in
  // earlier submissions (VulkanDevice::stagedCopy), and the previous run's
  // kernels wrote the buffers this one reuses: order the kernels after both
  // (host writes to mapped memory need no barrier: the submission itself
  // makes them visible).
  auto fromEarlier =
      vkStruct<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
  fromEarlier.srcAccessMask =
      VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT;
  fromEarlier.dstAccessMask =
      VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
  vkCmdPipelineBarrier(seq.commands,
                       VK_PIPELINE_STAGE_TRANSFER_BIT |
                           VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                       VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &fromEarlier,
                       0, nullptr, 0, nullptr);

  // A dispatch may read what earlier ones wrote, or overwrite what they
  // read. Which arguments a kernel writes is not known here, so every
  // argument counts as read and written: a dispatch that shares no buffer
  // with those since the last barrier needs none and may overlap them (a
  // compute-to-compute barrier drains the GPU between dispatches, as the
  // kernel boundary in a CUDA stream does; e.g. the zero fill of a
  // convolution's accumulator and the padding copy of its input are
  // independent). One global memory barrier, placed where needed, orders
  // everything before it.
  auto computeToCompute =
      vkStruct<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
  computeToCompute.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  computeToCompute.dstAccessMask =
      VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
  std::set<VkBuffer> sinceBarrier;

  for (size_t i = 0; i < launches.size(); ++i) {
    const LaunchSpec &spec = launches[i];
    bool dependent = false;
    for (DeviceBuffer *arg : spec.args)
      dependent |=
          sinceBarrier.count(static_cast<VulkanBuffer *>(arg)->buffer) != 0;
    if (dependent) {
      vkCmdPipelineBarrier(seq.commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                           VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1,
                           &computeToCompute, 0, nullptr, 0, nullptr);
      sinceBarrier.clear();
    }
    for (DeviceBuffer *arg : spec.args)
      sinceBarrier.insert(static_cast<VulkanBuffer *>(arg)->buffer);
    auto key = std::make_tuple(spec.module, spec.entry, spec.args.size());
    const auto &layouts = seq.layouts[spec.args.size()];
    vkCmdBindPipeline(seq.commands, VK_PIPELINE_BIND_POINT_COMPUTE,
                      seq.pipelines[key]);
    if (!spec.args.empty()) {
      auto alloc = vkStruct<VkDescriptorSetAllocateInfo>(
          VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO);
      alloc.descriptorPool = seq.descriptorPool;
      alloc.descriptorSetCount = 1;
      alloc.pSetLayouts = &layouts.first;
      VkDescriptorSet set = VK_NULL_HANDLE;
      OT_VK_CALL(vkAllocateDescriptorSets, device, &alloc, &set);
      std::vector<VkDescriptorBufferInfo> infos(spec.args.size());
      std::vector<VkWriteDescriptorSet> writes(spec.args.size());
      for (size_t a = 0; a < spec.args.size(); ++a) {
        infos[a].buffer = static_cast<VulkanBuffer *>(spec.args[a])->buffer;
        infos[a].offset = 0;
        infos[a].range = VK_WHOLE_SIZE;
        writes[a].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
        writes[a].dstSet = set;
        writes[a].dstBinding = static_cast<uint32_t>(a);
        writes[a].descriptorCount = 1;
        writes[a].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        writes[a].pBufferInfo = &infos[a];
      }
      vkUpdateDescriptorSets(device, static_cast<uint32_t>(writes.size()),
                             writes.data(), 0, nullptr);
      vkCmdBindDescriptorSets(seq.commands, VK_PIPELINE_BIND_POINT_COMPUTE,
                              layouts.second, 0, 1, &set, 0, nullptr);
    }
    vkCmdDispatch(seq.commands, spec.grid[0], spec.grid[1], spec.grid[2]);
  }

  // Make the results visible to host reads of mapped memory (downloads of
  // device-local buffers order themselves after the kernels).
  auto toHost = vkStruct<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
  toHost.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  toHost.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  vkCmdPipelineBarrier(seq.commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                       VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &toHost, 0, nullptr, 0,
                       nullptr);
  // After every dispatch has finished.
  if (seq.timestamps)
    vkCmdWriteTimestamp(seq.commands, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT,
                        seq.timestamps, 1);
  OT_VK_CALL(vkEndCommandBuffer, seq.commands);
  return okStatus();
}

Status VulkanDevice::submit(LaunchSequence &sequence) {
  auto &seq = static_cast<VulkanSequence &>(sequence);
  if (seq.pending)
    OT_RETURN_IF_ERROR(wait(seq));
  OT_VK_CALL(vkResetFences, device, 1, &seq.fence);
  auto info = vkStruct<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
  info.commandBufferCount = 1;
  info.pCommandBuffers = &seq.commands;
  std::lock_guard<std::mutex> lock(queueMutex);
  OT_VK_CALL(vkQueueSubmit, queue, 1, &info, seq.fence);
  seq.pending = true;
  return okStatus();
}

Status VulkanDevice::wait(LaunchSequence &sequence) {
  auto &seq = static_cast<VulkanSequence &>(sequence);
  if (!seq.pending)
    return okStatus();
  VkResult r = vkWaitForFences(device, 1, &seq.fence, VK_TRUE, UINT64_MAX);
  if (r != VK_SUCCESS)
    return vkError("vkWaitForFences", r)
        .withContext("running the model's kernels on " + deviceId);
  seq.pending = false;
  return okStatus();
}

double VulkanDevice::deviceMs(LaunchSequence &sequence) {
  auto &seq = static_cast<VulkanSequence &>(sequence);
  uint64_t ticks[2] = {};
  if (!seq.timestamps || seq.pending ||
      vkGetQueryPoolResults(device, seq.timestamps, 0, 2, sizeof(ticks), ticks,
                            sizeof(uint64_t),
                            VK_QUERY_RESULT_64_BIT) != VK_SUCCESS)
    return -1;
  uint64_t mask = timestampBits >= 64 ? ~uint64_t{0}
                                      : (uint64_t{1} << timestampBits) - 1;
  uint64_t elapsed = ((ticks[1] & mask) - (ticks[0] & mask)) & mask;
  return double(elapsed) * properties.limits.timestampPeriod * 1e-6;
}

} // namespace onnx_tosa::rt::vk
