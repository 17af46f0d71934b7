//===- cuda_device.cpp - The CUDA backend ---------------------------------===//
//
// Uses the device's primary context (shared with any other CUDA user in the
// process). A model's launches are captured once into a CUDA graph on a
// blocking stream (ordered after the synchronous copies on the legacy default
// stream), so a run is one cuGraphLaunch; where the driver lacks graphs, or
// ONNX_TOSA_CUDA_GRAPHS=0, they are launched one by one on the legacy default
// stream. Either way each launch sees the previous one's writes. In the
// graph, a kernel that waits for the previous ones itself
// (kLaunchWaitsForPrevious: the compiler's kernels for sm_90 and later) is
// launched as a programmatic dependent launch, which the driver prepares
// while the kernel before it runs (ONNX_TOSA_CUDA_OVERLAP=0: not).
//
//===----------------------------------------------------------------------===//

#include "../backend.h"
#include "cuda_driver.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace onnx_tosa::rt {
namespace {

using namespace cuda;

class CudaBuffer final : public DeviceBuffer {
public:
  CudaBuffer(const DriverApi &api, CUcontext ctx, CUdeviceptr ptr,
             uint64_t size, bool owned = true)
      : DeviceBuffer(size), api(api), ctx(ctx), ptr(ptr), owned(owned) {}
  ~CudaBuffer() override {
    if (!owned)
      return;
    api.cuCtxSetCurrent(ctx);
    api.cuMemFree(ptr);
  }
  const DriverApi &api;
  CUcontext ctx;
  CUdeviceptr ptr;
  /// False for memory another library allocated (Device::wrap).
  bool owned;
};

class CudaModule final : public DeviceModule {
public:
  CudaModule(const DriverApi &api, CUcontext ctx, CUmodule module)
      : api(api), ctx(ctx), module(module) {}
  ~CudaModule() override {
    api.cuCtxSetCurrent(ctx);
    api.cuModuleUnload(module);
  }
  const DriverApi &api;
  CUcontext ctx;
  CUmodule module;
};

class CudaSequence final : public LaunchSequence {
public:
  struct Step {
    std::string label;
    CUfunction fn = nullptr;
    std::array<uint32_t, 3> grid{}, block{};
    uint32_t sharedBytes = 0;
    bool waitsForPrevious = false;
    // cuLaunchKernel takes an array of pointers to the argument values.
    std::vector<CUdeviceptr> argValues;
    std::vector<void *> argPtrs;
  };
  std::vector<Step> steps;

  // The driver and context the objects below belong to.
  const DriverApi *api = nullptr;
  CUcontext ctx = nullptr;
  // The captured graph, when graphs are in use.
  CUstream stream = nullptr;
  CUgraph graph = nullptr;
  CUgraphExec exec = nullptr;
  // Recorded around each run, when the driver has events: the device's own
  // measure of how long the run took.
  CUevent started = nullptr, finished = nullptr;
  bool timed = false; // both were recorded around the last run
  ~CudaSequence() override {
    if (!api)
      return;
    api->cuCtxSetCurrent(ctx);
    if (started)
      api->cuEventDestroy(started);
    if (finished)
      api->cuEventDestroy(finished);
    if (exec)
      api->cuGraphExecDestroy(exec);
    if (graph)
      api->cuGraphDestroy(graph);
    if (stream)
      api->cuStreamDestroy(stream);
  }
};

/// Launches every step in order on `stream`; with `overlap`, those that wait
/// for the previous ones themselves as programmatic dependent launches.
Status launchSteps(const DriverApi &api, CudaSequence &seq, CUstream stream,
                   bool overlap = false) {
  for (CudaSequence::Step &s : seq.steps) {
    void **params = s.argPtrs.empty() ? nullptr : s.argPtrs.data();
    bool programmatic = overlap && s.waitsForPrevious;
    CUresult r;
    if (programmatic) {
      CUlaunchAttribute attribute{};
      attribute.id = kCuLaunchAttributeProgrammaticStreamSerialization;
      attribute.value.programmaticStreamSerializationAllowed = 1;
      CUlaunchConfig config{s.grid[0],     s.grid[1],  s.grid[2],
                            s.block[0],    s.block[1], s.block[2],
                            s.sharedBytes, stream,     &attribute,
                            1};
      r = api.cuLaunchKernelEx(&config, s.fn, params, nullptr);
    } else {
      r = api.cuLaunchKernel(s.fn, s.grid[0], s.grid[1], s.grid[2], s.block[0],
                             s.block[1], s.block[2], s.sharedBytes, stream,
                             params, nullptr);
    }
    if (r != CUDA_SUCCESS)
      return driverError(
                 api, programmatic ? "cuLaunchKernelEx" : "cuLaunchKernel", r)
          .withContext(s.label);
  }
  return okStatus();
}

bool disabledByEnv(const char *name) {
  const char *v = std::getenv(name);
  return v && std::strcmp(v, "0") == 0;
}

class CudaDevice final : public Device {
public:
  CudaDevice(const DriverApi &api, int ordinal, CUdevice dev, CUcontext ctx,
             std::string name, std::string architecture, int multiprocessors)
      : api(api), dev(dev), ctx(ctx),
        deviceId("cuda:" + std::to_string(ordinal)),
        deviceName(std::move(name)), deviceArchitecture(std::move(architecture)),
        deviceMultiprocessors(multiprocessors) {}
  ~CudaDevice() override { api.cuDevicePrimaryCtxRelease(dev); }

  Target target() const override { return Target::Cuda; }
  const std::string &id() const override { return deviceId; }
  const std::string &name() const override { return deviceName; }
  std::string architecture() const override { return deviceArchitecture; }
  int multiprocessors() const override { return deviceMultiprocessors; }

  Status allocate(uint64_t bytes, std::unique_ptr<DeviceBuffer> &out) override {
    OT_RETURN_IF_ERROR(makeCurrent());
    CUdeviceptr ptr = 0;
    // A zero-byte allocation is an error in CUDA; empty tensors still need a
    // valid pointer to pass to kernels.
    CUresult r = api.cuMemAlloc(&ptr, std::max<uint64_t>(bytes, 4));
    if (r != CUDA_SUCCESS)
      return driverError(api, "cuMemAlloc", r)
          .withContext("allocating " + std::to_string(bytes) + " bytes on " +
                       deviceId);
    out = std::make_unique<CudaBuffer>(api, ctx, ptr, bytes);
    return okStatus();
  }

  Status upload(DeviceBuffer &dst, const void *src, uint64_t bytes) override {
    if (bytes == 0)
      return okStatus();
    OT_RETURN_IF_ERROR(makeCurrent());
    CUresult r =
        api.cuMemcpyHtoD(static_cast<CudaBuffer &>(dst).ptr, src, bytes);
    return r == CUDA_SUCCESS ? okStatus() : driverError(api, "cuMemcpyHtoD", r);
  }

  Status download(DeviceBuffer &src, void *dst, uint64_t bytes) override {
    if (bytes == 0)
      return okStatus();
    OT_RETURN_IF_ERROR(makeCurrent());
    CUresult r =
        api.cuMemcpyDtoH(dst, static_cast<CudaBuffer &>(src).ptr, bytes);
    return r == CUDA_SUCCESS ? okStatus() : driverError(api, "cuMemcpyDtoH", r);
  }

  /// On the legacy default stream, with which the blocking streams the
  /// model runs on synchronize: ordered after the kernels before it and
  /// before those after it, without waiting on the host.
  Status copy(DeviceBuffer &dst, DeviceBuffer &src, uint64_t bytes) override {
    if (bytes == 0 || &dst == &src)
      return okStatus();
    OT_RETURN_IF_ERROR(makeCurrent());
    CUresult r = api.cuMemcpyDtoD(static_cast<CudaBuffer &>(dst).ptr,
                                  static_cast<CudaBuffer &>(src).ptr, bytes);
    return r == CUDA_SUCCESS ? okStatus() : driverError(api, "cuMemcpyDtoD", r);
  }

  uint64_t address(DeviceBuffer &buffer) override {
    return static_cast<CudaBuffer &>(buffer).ptr;
  }

  Status wrap(uint64_t address, uint64_t bytes,
              std::unique_ptr<DeviceBuffer> &out) override {
    if (!address)
      return invalidArgument("a null device address");
    out = std::make_unique<CudaBuffer>(api, ctx, address, bytes,
                                       /*owned=*/false);
    return okStatus();
  }

  Status loadModule(const Module &module,
                    std::unique_ptr<DeviceModule> &out) override;
  Status prepare(const std::vector<LaunchSpec> &launches,
                 std::unique_ptr<LaunchSequence> &out) override;
  Status submit(LaunchSequence &sequence) override;
  double deviceMs(LaunchSequence &sequence) override;
  Status wait(LaunchSequence &) override {
    OT_RETURN_IF_ERROR(makeCurrent());
    CUresult r = api.cuCtxSynchronize();
    if (r != CUDA_SUCCESS)
      return driverError(api, "cuCtxSynchronize", r)
          .withContext("running the model's kernels on " + deviceId);
    return okStatus();
  }

private:
  Status captureGraph(CudaSequence &seq, bool overlap);
  // The current context is per thread; sessions may be used from any thread.
  Status makeCurrent() {
    CUresult r = api.cuCtxSetCurrent(ctx);
    return r == CUDA_SUCCESS ? okStatus()
                             : driverError(api, "cuCtxSetCurrent", r);
  }

  const DriverApi &api;
  CUdevice dev;
  CUcontext ctx;
  std::string deviceId;
  std::string deviceName;
  std::string deviceArchitecture;
  int deviceMultiprocessors;
};

Status CudaDevice::loadModule(const Module &module,
                              std::unique_ptr<DeviceModule> &out) {
  OT_RETURN_IF_ERROR(makeCurrent());
  // The driver reads PTX as a C string; add the terminator if it is missing.
  std::string ptx(module.binary.begin(), module.binary.end());
  if (ptx.empty() || ptx.back() != '\0')
    ptx.push_back('\0');

  std::string errorLog(16384, '\0');
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {&errorLog[0], reinterpret_cast<void *>(
                                      static_cast<uintptr_t>(errorLog.size()))};
  CUmodule mod = nullptr;
  CUresult r = api.cuModuleLoadDataEx(&mod, ptx.data(), 2, options, values);
  if (r != CUDA_SUCCESS) {
    Status s = driverError(api, "cuModuleLoadDataEx", r)
                   .withContext("loading PTX module '" + module.name + "'");
    errorLog.resize(errorLog.find('\0'));
    if (errorLog.empty())
      return s;
    return Status(s.code(), s.message() + "; JIT log:\n" + errorLog);
  }
  out = std::make_unique<CudaModule>(api, ctx, mod);
  return okStatus();
}

Status CudaDevice::prepare(const std::vector<LaunchSpec> &launches,
                           std::unique_ptr<LaunchSequence> &out) {
  OT_RETURN_IF_ERROR(makeCurrent());
  auto seq = std::make_unique<CudaSequence>();
  seq->steps.resize(launches.size());
  for (size_t i = 0; i < launches.size(); ++i) {
    const LaunchSpec &spec = launches[i];
    CudaSequence::Step &step = seq->steps[i];
    step.label = spec.label;
    step.grid = spec.grid;
    step.block = spec.block;
    const auto *mod = static_cast<const CudaModule *>(spec.module);
    CUresult r =
        api.cuModuleGetFunction(&step.fn, mod->module, spec.entry.c_str());
    if (r != CUDA_SUCCESS)
      return driverError(api, "cuModuleGetFunction", r)
          .withContext(spec.label + ": kernel '" + spec.entry + "'");
    // Beyond 48 KiB a kernel's dynamic shared memory must be allowed first
    // (the device's limit is checked by the driver here).
    step.sharedBytes = spec.sharedBytes;
    step.waitsForPrevious = spec.waitsForPrevious;
    if (spec.sharedBytes > 48 * 1024)
      if (CUresult r = api.cuFuncSetAttribute(
              step.fn, kCuFuncAttributeMaxDynamicSharedBytes,
              static_cast<int>(spec.sharedBytes));
          r != CUDA_SUCCESS)
        return driverError(api, "cuFuncSetAttribute", r)
            .withContext(spec.label + ": " + std::to_string(spec.sharedBytes) +
                         " bytes of dynamic shared memory");
    for (DeviceBuffer *arg : spec.args)
      step.argValues.push_back(static_cast<CudaBuffer *>(arg)->ptr);
    // Pointers into argValues stay valid: the vector is not resized again.
    for (CUdeviceptr &v : step.argValues)
      step.argPtrs.push_back(&v);
  }
  // From here on the sequence owns driver objects its destructor frees.
  seq->api = &api;
  seq->ctx = ctx;
  if (api.hasGraphs() && !disabledByEnv("ONNX_TOSA_CUDA_GRAPHS") &&
      !seq->steps.empty()) {
    // Overlapping launches where the driver has them; a driver that does
    // not take them in a graph gets one without.
    bool overlap =
        api.cuLaunchKernelEx && !disabledByEnv("ONNX_TOSA_CUDA_OVERLAP");
    Status captured = captureGraph(*seq, overlap);
    if (!captured.ok() && overlap)
      captured = captureGraph(*seq, /*overlap=*/false);
    if (!captured.ok())
      return captured;
  }
  // Without events a run is timed by the host's clock only.
  if (api.hasEvents() &&
      (api.cuEventCreate(&seq->started, /*flags=*/0) != CUDA_SUCCESS ||
       api.cuEventCreate(&seq->finished, /*flags=*/0) != CUDA_SUCCESS)) {
    if (seq->started)
      api.cuEventDestroy(seq->started);
    seq->started = seq->finished = nullptr;
  }
  out = std::move(seq);
  return okStatus();
}

Status CudaDevice::captureGraph(CudaSequence &seq, bool overlap) {
  // What a failed attempt left behind.
  if (seq.graph)
    api.cuGraphDestroy(seq.graph);
  seq.graph = nullptr;
  CUresult r = CUDA_SUCCESS;
  if (!seq.stream && (r = api.cuStreamCreate(&seq.stream, /*flags=*/0)) !=
                         CUDA_SUCCESS)
    return driverError(api, "cuStreamCreate", r);
  r = api.cuStreamBeginCapture(seq.stream, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL);
  if (r != CUDA_SUCCESS)
    return driverError(api, "cuStreamBeginCapture", r);
  Status launched = launchSteps(api, seq, seq.stream, overlap);
  r = api.cuStreamEndCapture(seq.stream, &seq.graph);
  if (!launched.ok())
    return launched;
  if (r != CUDA_SUCCESS)
    return driverError(api, "cuStreamEndCapture", r);
  r = api.cuGraphInstantiateWithFlags(&seq.exec, seq.graph, 0);
  if (r != CUDA_SUCCESS)
    return driverError(api, "cuGraphInstantiate", r);
  return okStatus();
}

Status CudaDevice::submit(LaunchSequence &sequence) {
  OT_RETURN_IF_ERROR(makeCurrent());
  auto &seq = static_cast<CudaSequence &>(sequence);
  // Timing is best effort: a failed record only loses the device's figure.
  bool timed = seq.started &&
               api.cuEventRecord(seq.started, seq.stream) == CUDA_SUCCESS;
  Status s = okStatus();
  if (!seq.exec) {
    s = launchSteps(api, seq, /*stream=*/nullptr);
  } else if (CUresult r = api.cuGraphLaunch(seq.exec, seq.stream);
             r != CUDA_SUCCESS) {
    s = driverError(api, "cuGraphLaunch", r);
  }
  seq.timed = timed && s.ok() &&
              api.cuEventRecord(seq.finished, seq.stream) == CUDA_SUCCESS;
  return s;
}

double CudaDevice::deviceMs(LaunchSequence &sequence) {
  auto &seq = static_cast<CudaSequence &>(sequence);
  float ms = 0;
  if (!seq.timed || !makeCurrent().ok() ||
      api.cuEventElapsedTime(&ms, seq.started, seq.finished) != CUDA_SUCCESS)
    return -1;
  return ms;
}

} // namespace

Status cudaDeviceCount(int &count) {
  const DriverApi *api = nullptr;
  OT_RETURN_IF_ERROR(loadDriver(api));
  CUresult r = api->cuDeviceGetCount(&count);
  return r == CUDA_SUCCESS ? okStatus()
                           : driverError(*api, "cuDeviceGetCount", r);
}

/// CUDA device `ordinal`, checked to exist.
static Status cudaDeviceAt(int ordinal, const DriverApi *&api,
                           CUdevice &dev) {
  OT_RETURN_IF_ERROR(loadDriver(api));
  int count = 0;
  OT_RETURN_IF_ERROR(cudaDeviceCount(count));
  if (count == 0)
    return unavailable("the CUDA driver reports no devices");
  if (ordinal < 0 || ordinal >= count)
    return notFound("CUDA device " + std::to_string(ordinal) +
                    " does not exist (this machine has " +
                    std::to_string(count) + ", numbered from 0)");
  CUresult r = api->cuDeviceGet(&dev, ordinal);
  return r == CUDA_SUCCESS ? okStatus() : driverError(*api, "cuDeviceGet", r);
}

/// `dev`'s name, architecture (Device::architecture) and multiprocessors.
static Status propertiesOf(const DriverApi &api, CUdevice dev,
                           std::string &name, std::string &architecture,
                           int &multiprocessors) {
  char text[256] = {};
  CUresult r = api.cuDeviceGetName(text, sizeof(text) - 1, dev);
  if (r != CUDA_SUCCESS)
    return driverError(api, "cuDeviceGetName", r);
  name = text;
  int major = 0, minor = 0;
  for (auto [attribute, value] :
       {std::pair{kCuDeviceAttributeComputeCapabilityMajor, &major},
        std::pair{kCuDeviceAttributeComputeCapabilityMinor, &minor},
        std::pair{kCuDeviceAttributeMultiprocessorCount, &multiprocessors}})
    if ((r = api.cuDeviceGetAttribute(value, attribute, dev)) != CUDA_SUCCESS)
      return driverError(api, "cuDeviceGetAttribute", r);
  // From 9.0 on each architecture also has architecture-specific
  // instructions (sm_90a's warpgroup MMA), which the device runs natively.
  architecture = "sm_" + std::to_string(major * 10 + minor) +
                 (major >= 9 ? "a" : "");
  return okStatus();
}

Status cudaDeviceProperties(int ordinal, std::string &name,
                            std::string &architecture, int &multiprocessors) {
  const DriverApi *api = nullptr;
  CUdevice dev = 0;
  OT_RETURN_IF_ERROR(cudaDeviceAt(ordinal, api, dev));
  return propertiesOf(*api, dev, name, architecture, multiprocessors);
}

Status openCudaDevice(int ordinal, std::shared_ptr<Device> &out) {
  const DriverApi *api = nullptr;
  CUdevice dev = 0;
  OT_RETURN_IF_ERROR(cudaDeviceAt(ordinal, api, dev));
  std::string name, architecture;
  int multiprocessors = 0;
  OT_RETURN_IF_ERROR(
      propertiesOf(*api, dev, name, architecture, multiprocessors));
  CUcontext ctx = nullptr;
  CUresult r = api->cuDevicePrimaryCtxRetain(&ctx, dev);
  if (r != CUDA_SUCCESS)
    return driverError(*api, "cuDevicePrimaryCtxRetain", r)
        .withContext("opening cuda:" + std::to_string(ordinal));
  out = std::make_shared<CudaDevice>(*api, ordinal, dev, ctx, name,
                                     architecture, multiprocessors);
  return okStatus();
}

} // namespace onnx_tosa::rt
