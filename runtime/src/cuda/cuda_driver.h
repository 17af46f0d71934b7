//===- cuda_driver.h - The CUDA driver API, loaded at run time --*- C++ -*-===//
//
// The runtime must build and run where CUDA is absent, so it includes no CUDA
// header and links no CUDA library. Instead it declares the few driver types
// and entry points it uses (their ABI is stable) and resolves them from
// libcuda.so.1 with dlopen on first use.
//
//===----------------------------------------------------------------------===//
#ifndef ONNX_TOSA_RUNTIME_CUDA_DRIVER_H
#define ONNX_TOSA_RUNTIME_CUDA_DRIVER_H

#include "../status.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace onnx_tosa::rt::cuda {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;
using CUgraph = struct CUgraph_st *;
using CUgraphExec = struct CUgraphExec_st *;
using CUevent = struct CUevent_st *;

// CUstreamCaptureMode: capture only this thread's work into the graph.
constexpr int CU_STREAM_CAPTURE_MODE_THREAD_LOCAL = 1;

constexpr CUresult CUDA_SUCCESS = 0;
constexpr CUresult CUDA_ERROR_OUT_OF_MEMORY = 2;
constexpr CUresult CUDA_ERROR_NO_DEVICE = 100;
constexpr CUresult CUDA_ERROR_NOT_FOUND = 500;

/// CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION (CUlaunchAttributeID):
/// the launch may overlap the previous kernel in its stream, which it waits
/// for itself.
constexpr int kCuLaunchAttributeProgrammaticStreamSerialization = 6;

/// CUlaunchAttribute: an attribute's id, then its value (a 64-byte union;
/// programmatic stream serialization's is an int).
struct CUlaunchAttribute {
  int id;
  char pad[4];
  union {
    char bytes[64];
    int programmaticStreamSerializationAllowed;
  } value;
};

/// CUlaunchConfig: cuLaunchKernel's arguments and a list of attributes.
struct CUlaunchConfig {
  unsigned gridDimX, gridDimY, gridDimZ;
  unsigned blockDimX, blockDimY, blockDimZ;
  unsigned sharedMemBytes;
  CUstream hStream;
  CUlaunchAttribute *attrs;
  unsigned numAttrs;
};

// Values of the driver's CUjit_option enumeration that we pass.
/// CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES: a kernel may be launched
/// with more than 48 KiB of dynamic shared memory only up to this.
constexpr int kCuFuncAttributeMaxDynamicSharedBytes = 8;

/// CUdevice_attribute values that we query.
constexpr int kCuDeviceAttributeMultiprocessorCount = 16;
constexpr int kCuDeviceAttributeComputeCapabilityMajor = 75;
constexpr int kCuDeviceAttributeComputeCapabilityMinor = 76;

enum CUjit_option : int {
  CU_JIT_INFO_LOG_BUFFER = 3,
  CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4,
  CU_JIT_ERROR_LOG_BUFFER = 5,
  CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
};

/// Resolved driver entry points. The symbol names (with their _v2 suffixes)
/// are the ones the driver exports for the current ABI of each call.
struct DriverApi {
  CUresult (*cuInit)(unsigned flags);
  CUresult (*cuDeviceGetCount)(int *count);
  CUresult (*cuDeviceGet)(CUdevice *dev, int ordinal);
  CUresult (*cuDeviceGetName)(char *name, int len, CUdevice dev);
  CUresult (*cuDeviceGetAttribute)(int *value, int attribute, CUdevice dev);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *ctx, CUdevice dev);
  CUresult (*cuDevicePrimaryCtxRelease)(CUdevice dev);
  CUresult (*cuCtxSetCurrent)(CUcontext ctx);
  CUresult (*cuCtxSynchronize)();
  CUresult (*cuMemAlloc)(CUdeviceptr *ptr, size_t bytes);
  CUresult (*cuMemFree)(CUdeviceptr ptr);
  CUresult (*cuMemcpyHtoD)(CUdeviceptr dst, const void *src, size_t bytes);
  CUresult (*cuMemcpyDtoH)(void *dst, CUdeviceptr src, size_t bytes);
  CUresult (*cuMemcpyDtoD)(CUdeviceptr dst, CUdeviceptr src, size_t bytes);
  CUresult (*cuModuleLoadDataEx)(CUmodule *module, const void *image,
                                 unsigned numOptions, CUjit_option *options,
                                 void **optionValues);
  CUresult (*cuModuleUnload)(CUmodule module);
  CUresult (*cuModuleGetFunction)(CUfunction *fn, CUmodule module,
                                  const char *name);
  CUresult (*cuLaunchKernel)(CUfunction fn, unsigned gx, unsigned gy,
                             unsigned gz, unsigned bx, unsigned by, unsigned bz,
                             unsigned sharedBytes, CUstream stream,
                             void **params, void **extra);
  CUresult (*cuFuncSetAttribute)(CUfunction fn, int attribute, int value);
  CUresult (*cuGetErrorString)(CUresult error, const char **str);
  CUresult (*cuGetErrorName)(CUresult error, const char **str);

  // Optional (CUDA graphs); null when the driver lacks them, and the backend
  // then launches kernels one by one.
  CUresult (*cuStreamCreate)(CUstream *stream, unsigned flags);
  CUresult (*cuStreamDestroy)(CUstream stream);
  CUresult (*cuStreamBeginCapture)(CUstream stream, int mode);
  CUresult (*cuStreamEndCapture)(CUstream stream, CUgraph *graph);
  CUresult (*cuGraphInstantiateWithFlags)(CUgraphExec *exec, CUgraph graph,
                                          unsigned long long flags);
  CUresult (*cuGraphLaunch)(CUgraphExec exec, CUstream stream);
  CUresult (*cuGraphExecDestroy)(CUgraphExec exec);
  CUresult (*cuGraphDestroy)(CUgraph graph);
  // Optional (the device's own timing of a run).
  CUresult (*cuEventCreate)(CUevent *event, unsigned flags);
  CUresult (*cuEventRecord)(CUevent event, CUstream stream);
  CUresult (*cuEventElapsedTime)(float *ms, CUevent start, CUevent end);
  CUresult (*cuEventDestroy)(CUevent event);
  // Optional (CUDA 12: launches that overlap the previous kernel).
  CUresult (*cuLaunchKernelEx)(const CUlaunchConfig *config, CUfunction fn,
                               void **params, void **extra);
  bool hasEvents() const {
    return cuEventCreate && cuEventRecord && cuEventElapsedTime &&
           cuEventDestroy;
  }
  bool hasGraphs() const {
    return cuStreamCreate && cuStreamDestroy && cuStreamBeginCapture &&
           cuStreamEndCapture && cuGraphInstantiateWithFlags &&
           cuGraphLaunch && cuGraphExecDestroy && cuGraphDestroy;
  }
};

/// Loads libcuda.so.1 and calls cuInit once per process. On failure the status
/// says what is missing; later calls return the same failure.
Status loadDriver(const DriverApi *&api);

/// Formats a failed driver call as "CALL failed: NAME (description)" and maps
/// it to a status code (out-of-memory, no device, ...).
Status driverError(const DriverApi &api, const char *call, CUresult result);

} // namespace onnx_tosa::rt::cuda

#endif // ONNX_TOSA_RUNTIME_CUDA_DRIVER_H
