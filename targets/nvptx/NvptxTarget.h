//===- NvptxTarget.h - gpu kernels to PTX -----------------------*- C++ -*-===//
#ifndef ONNX_TOSA_TARGETS_NVPTX_H
#define ONNX_TOSA_TARGETS_NVPTX_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"

#include <string>
#include <utility>
#include <vector>

namespace onnx_tosa {

struct NvptxOptions {
  std::string chip = "sm_90a";
  /// PTX ISA 8.0 is what CUDA 12.0+ drivers JIT; sm_90 needs at least 7.8.
  std::string features = "+ptx80";
  int optLevel = 3;
  /// NVIDIA's libdevice bitcode, linked into every kernel module: math ops
  /// (exp, tanh, erf, ...) lower to its __nv_* functions. Empty: not linked,
  /// and a kernel that needs it fails at codegen with a clear message.
  std::string libdevice;
  /// Emit a cubin (ptxas runs at compile time, so kernels load without the
  /// driver's JIT and PTX errors surface here) instead of PTX text.
  bool cubin = false;
  /// Kernels wait for the previous ones themselves, so that the runtime may
  /// make their launches programmatic dependent launches
  /// (GridDependencyControlPass; sm_90+: TargetInfo::gridDependencyControl).
  bool gridDependencyControl = true;
  /// With it: kernels let the next one be scheduled once all their blocks
  /// have passed their wait for the previous ones (else once they have
  /// finished; GridDependencyControlPass).
  bool launchDependents = false;
};

/// The CUDA toolkit root whose bin/ holds ptxas ("" if none): `cudaPath`,
/// else $CUDA_ROOT/$CUDA_HOME/$CUDA_PATH, /usr/local/cuda, or ptxas on PATH.
std::string findCudaToolkitWithPtxas(const std::string &cudaPath);

/// Finds libdevice.10.bc under `cudaPath`, or when empty under $CUDA_ROOT,
/// $CUDA_HOME, $CUDA_PATH, /usr/local/cuda; "" if none has it.
std::string findLibdevice(const std::string &cudaPath);

/// Registers `onnx-tosa-subgroup-reduce-to-shuffles` (the first pass of
/// the pipeline below) for onnx-tosa-opt.
void registerNvptxTargetPasses();

/// gpu.module kernels (bare-pointer memref arguments) → gpu.binary ops
/// holding PTX text or a cubin. The host function is left alone.
void buildGpuToPtxPipeline(mlir::OpPassManager &pm, const NvptxOptions &opts);

/// (gpu.binary name, PTX text or cubin bytes) for every gpu.binary of
/// `module`. Fails if PTX still calls an unresolved libdevice function.
mlir::LogicalResult
collectPtx(mlir::ModuleOp module,
           std::vector<std::pair<std::string, std::string>> &out);

} // namespace onnx_tosa

#endif
