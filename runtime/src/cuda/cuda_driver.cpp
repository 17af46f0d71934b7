//===- cuda_driver.cpp - dlopen-based loading of the CUDA driver ----------===//

#include "cuda_driver.h"

#include <dlfcn.h>

#include <mutex>

namespace onnx_tosa::rt::cuda {
namespace {

/// Resolves `name` into `slot`; returns false (with a message) if absent.
template <typename Fn>
bool resolve(void *lib, const char *name, Fn &slot, std::string &missing) {
  slot = reinterpret_cast<Fn>(dlsym(lib, name));
  if (!slot) {
    if (!missing.empty())
      missing += ", ";
    missing += name;
  }
  return slot != nullptr;
}

struct LoadResult {
  DriverApi api{};
  ot_status_code code = OT_STATUS_OK;
  std::string message;
};

LoadResult load() {
  LoadResult r;
  // The library stays loaded for the life of the process: unloading a GPU
  // driver while contexts may still exist is never safe.
  void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char *why = dlerror();
    r.code = OT_STATUS_UNAVAILABLE;
    r.message = std::string("the CUDA driver library libcuda.so.1 could not "
                            "be loaded (is an NVIDIA driver installed?)") +
                (why ? std::string(": ") + why : std::string());
    return r;
  }
  DriverApi &a = r.api;
  std::string missing;
  resolve(lib, "cuInit", a.cuInit, missing);
  resolve(lib, "cuDeviceGetCount", a.cuDeviceGetCount, missing);
  resolve(lib, "cuDeviceGet", a.cuDeviceGet, missing);
  resolve(lib, "cuDeviceGetName", a.cuDeviceGetName, missing);
  resolve(lib, "cuDeviceGetAttribute", a.cuDeviceGetAttribute, missing);
  resolve(lib, "cuDevicePrimaryCtxRetain", a.cuDevicePrimaryCtxRetain, missing);
  resolve(lib, "cuDevicePrimaryCtxRelease_v2", a.cuDevicePrimaryCtxRelease,
          missing);
  resolve(lib, "cuCtxSetCurrent", a.cuCtxSetCurrent, missing);
  resolve(lib, "cuCtxSynchronize", a.cuCtxSynchronize, missing);
  resolve(lib, "cuMemAlloc_v2", a.cuMemAlloc, missing);
  resolve(lib, "cuMemFree_v2", a.cuMemFree, missing);
  resolve(lib, "cuMemcpyHtoD_v2", a.cuMemcpyHtoD, missing);
  resolve(lib, "cuMemcpyDtoH_v2", a.cuMemcpyDtoH, missing);
  resolve(lib, "cuMemcpyDtoD_v2", a.cuMemcpyDtoD, missing);
  resolve(lib, "cuModuleLoadDataEx", a.cuModuleLoadDataEx, missing);
  resolve(lib, "cuModuleUnload", a.cuModuleUnload, missing);
  resolve(lib, "cuModuleGetFunction", a.cuModuleGetFunction, missing);
  resolve(lib, "cuLaunchKernel", a.cuLaunchKernel, missing);
  resolve(lib, "cuFuncSetAttribute", a.cuFuncSetAttribute, missing);
  resolve(lib, "cuGetErrorString", a.cuGetErrorString, missing);
  resolve(lib, "cuGetErrorName", a.cuGetErrorName, missing);
  std::string optional; // graphs are optional: their absence is no error
  resolve(lib, "cuStreamCreate", a.cuStreamCreate, optional);
  resolve(lib, "cuStreamDestroy_v2", a.cuStreamDestroy, optional);
  resolve(lib, "cuStreamBeginCapture_v2", a.cuStreamBeginCapture, optional);
  resolve(lib, "cuStreamEndCapture", a.cuStreamEndCapture, optional);
  resolve(lib, "cuGraphInstantiateWithFlags", a.cuGraphInstantiateWithFlags,
          optional);
  resolve(lib, "cuGraphLaunch", a.cuGraphLaunch, optional);
  resolve(lib, "cuGraphExecDestroy", a.cuGraphExecDestroy, optional);
  resolve(lib, "cuGraphDestroy", a.cuGraphDestroy, optional);
  resolve(lib, "cuEventCreate", a.cuEventCreate, optional);
  resolve(lib, "cuEventRecord", a.cuEventRecord, optional);
  resolve(lib, "cuEventElapsedTime", a.cuEventElapsedTime, optional);
  resolve(lib, "cuEventDestroy_v2", a.cuEventDestroy, optional);
  resolve(lib, "cuLaunchKernelEx", a.cuLaunchKernelEx, optional);
  if (!missing.empty()) {
    r.code = OT_STATUS_UNAVAILABLE;
    r.message = "the CUDA driver library libcuda.so.1 is too old or not a "
                "CUDA driver: missing " +
                missing;
    return r;
  }
  CUresult res = a.cuInit(0);
  if (res != CUDA_SUCCESS) {
    Status s = driverError(a, "cuInit", res);
    r.code = res == CUDA_ERROR_NO_DEVICE ? OT_STATUS_UNAVAILABLE : s.code();
    r.message = "the CUDA driver failed to initialize: " + s.message();
  }
  return r;
}

} // namespace

Status loadDriver(const DriverApi *&api) {
  static std::once_flag once;
  static LoadResult *result = nullptr;
  std::call_once(once, [] { result = new LoadResult(load()); });
  if (result->code != OT_STATUS_OK)
    return Status(result->code, result->message);
  api = &result->api;
  return okStatus();
}

Status driverError(const DriverApi &api, const char *call, CUresult result) {
  const char *name = nullptr;
  const char *desc = nullptr;
  if (api.cuGetErrorName)
    api.cuGetErrorName(result, &name);
  if (api.cuGetErrorString)
    api.cuGetErrorString(result, &desc);
  std::string msg = std::string(call) + " failed: " +
                    (name ? name : "CUDA error " + std::to_string(result));
  if (desc)
    msg += std::string(" (") + desc + ")";
  switch (result) {
  case CUDA_ERROR_OUT_OF_MEMORY:
    return resourceExhausted(msg);
  case CUDA_ERROR_NO_DEVICE:
    return unavailable(msg);
  case CUDA_ERROR_NOT_FOUND:
    return notFound(msg);
  default:
    return internalError(msg);
  }
}

} // namespace onnx_tosa::rt::cuda
