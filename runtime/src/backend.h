//===- backend.h - The interface each GPU backend implements ----*- C++ -*-===//
//
// The session layer (session.cpp) is backend-agnostic: it validates the
// artifact and the user's tensors, then drives a `Device` through this small
// interface. A backend owns its driver objects; the handles it returns are
// subclasses of the opaque base classes below.
//
// Lifetime: buffers, modules and launch sequences must be destroyed before the
// device that created them (sessions hold the device by shared_ptr).
//
//===----------------------------------------------------------------------===//
#ifndef ONNX_TOSA_RUNTIME_BACKEND_H
#define ONNX_TOSA_RUNTIME_BACKEND_H

#include "onnx_tosa/artifact.h"
#include "status.h"

#include <array>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace onnx_tosa::rt {

/// A device allocation holding one whole artifact buffer.
class DeviceBuffer {
public:
  virtual ~DeviceBuffer() = default;
  uint64_t size() const { return sizeBytes; }

protected:
  explicit DeviceBuffer(uint64_t sizeBytes) : sizeBytes(sizeBytes) {}
  uint64_t sizeBytes;
};

/// One loaded code object (a CUDA module or a Vulkan shader module).
class DeviceModule {
public:
  virtual ~DeviceModule() = default;
};

/// One kernel launch with every reference resolved to backend objects.
struct LaunchSpec {
  /// Names the launch in error messages, e.g. "launch 3 (entry 'add')".
  std::string label;
  const DeviceModule *module = nullptr;
  std::string entry;
  std::array<uint32_t, 3> grid{{1, 1, 1}};
  std::array<uint32_t, 3> block{{1, 1, 1}};
  /// Dynamic workgroup (shared) memory per block, bytes.
  uint32_t sharedBytes = 0;
  /// The kernel waits for the previous ones itself (kLaunchWaitsForPrevious).
  bool waitsForPrevious = false;
  std::vector<DeviceBuffer *> args;
};

/// The launches of one model, prepared once (kernels looked up, pipelines and
/// descriptor sets built, commands recorded where the API allows) so each run
/// only has to submit and wait.
class LaunchSequence {
public:
  virtual ~LaunchSequence() = default;
};

class Device {
public:
  virtual ~Device() = default;

  virtual Target target() const = 0;
  /// Canonical id such as "cuda:0" or "vulkan:1".
  virtual const std::string &id() const = 0;
  /// The driver's device name.
  virtual const std::string &name() const = 0;
  /// The most specific CUDA architecture the device runs ("sm_86"; "sm_90a"
  /// for compute capability 9.0 and later, with their architecture-specific
  /// instructions); "" for a Vulkan device.
  virtual std::string architecture() const { return ""; }
  /// Multiprocessors (CUDA SMs); 0 if unknown.
  virtual int multiprocessors() const { return 0; }

  virtual Status allocate(uint64_t bytes,
                          std::unique_ptr<DeviceBuffer> &out) = 0;
  /// Copies `bytes` (<= buffer size) from host memory to the buffer start.
  virtual Status upload(DeviceBuffer &dst, const void *src, uint64_t bytes) = 0;
  /// Copies `bytes` (<= buffer size) from the buffer start to host memory.
  /// Only valid after `wait` for any sequence that wrote the buffer.
  virtual Status download(DeviceBuffer &src, void *dst, uint64_t bytes) = 0;
  /// Copies `bytes` (<= both sizes) from the start of `src` to the start of
  /// `dst` on the device, after everything submitted before; done when it
  /// returns.
  virtual Status copy(DeviceBuffer &dst, DeviceBuffer &src, uint64_t bytes) = 0;
  /// The buffer's device address where the API has one (CUDA), for sharing
  /// it with other libraries; 0 elsewhere.
  virtual uint64_t address(DeviceBuffer &) { return 0; }
  /// Makes memory another library allocated on this device (a CUDA device
  /// address) usable as a buffer, without owning it. FAILED_PRECONDITION
  /// where the API has no such addresses.
  virtual Status wrap(uint64_t /*address*/, uint64_t /*bytes*/,
                      std::unique_ptr<DeviceBuffer> & /*out*/) {
    return failedPrecondition("device " + id() +
                              " cannot use memory allocated elsewhere");
  }

  virtual Status loadModule(const Module &module,
                            std::unique_ptr<DeviceModule> &out) = 0;
  virtual Status prepare(const std::vector<LaunchSpec> &launches,
                         std::unique_ptr<LaunchSequence> &out) = 0;
  /// Starts the launches in order; each sees the writes of the previous ones.
  virtual Status submit(LaunchSequence &sequence) = 0;
  /// Blocks until a submitted sequence has finished.
  virtual Status wait(LaunchSequence &sequence) = 0;
  /// After `wait`: how long the last run of `sequence` took by the device's
  /// own timer (CUDA events, Vulkan timestamps around it), in milliseconds;
  /// negative where it has none.
  virtual double deviceMs(LaunchSequence &) { return -1; }

  /// Weights shared by the sessions on this device: a constant buffer with
  /// the same bytes as one a live session uploaded is that buffer (kernels
  /// never write constants). Keyed by size and two independent 64-bit
  /// hashes of the bytes.
  using ConstantKey = std::pair<uint64_t, std::pair<uint64_t, uint64_t>>;
  static ConstantKey constantKey(const std::vector<uint8_t> &bytes,
                                 uint64_t size);
  /// The live buffer for `key`, or null.
  std::shared_ptr<DeviceBuffer> sharedConstant(const ConstantKey &key);
  void shareConstant(const ConstantKey &key,
                     const std::shared_ptr<DeviceBuffer> &buffer);

private:
  std::mutex constantsMutex;
  std::map<ConstantKey, std::weak_ptr<DeviceBuffer>> constants;
};

//===----------------------------------------------------------------------===//
// Backend entry points
//===----------------------------------------------------------------------===//

/// Number of CUDA devices; an UNAVAILABLE status when the driver library is
/// missing or fails to initialize.
Status cudaDeviceCount(int &count);
Status openCudaDevice(int ordinal, std::shared_ptr<Device> &out);
/// CUDA device `ordinal`'s name, architecture (Device::architecture) and
/// multiprocessors, without creating a context on it.
Status cudaDeviceProperties(int ordinal, std::string &name,
                            std::string &architecture, int &multiprocessors);

/// How to pick a Vulkan physical device.
struct VulkanSelector {
  enum class Kind { PreferGpu, Ordinal, Lavapipe } kind = Kind::PreferGpu;
  int ordinal = 0;
};
Status openVulkanDevice(const VulkanSelector &selector,
                        std::shared_ptr<Device> &out);

} // namespace onnx_tosa::rt

#endif // ONNX_TOSA_RUNTIME_BACKEND_H
