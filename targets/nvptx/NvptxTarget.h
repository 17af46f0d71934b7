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
  std::string chip = "sm_90";
  /// PTX ISA 8.0 is what CUDA 12.0+ drivers JIT; sm_90 needs at least 7.8.
  std::string features = "+ptx80";
  int optLevel = 3;
};

/// gpu.module kernels (bare-pointer memref arguments) → gpu.binary ops
/// holding PTX text. The host function is left alone.
void buildGpuToPtxPipeline(mlir::OpPassManager &pm, const NvptxOptions &opts);

/// (gpu.binary name, PTX text) for every gpu.binary of `module`.
mlir::LogicalResult
collectPtx(mlir::ModuleOp module,
           std::vector<std::pair<std::string, std::string>> &out);

} // namespace onnx_tosa

#endif
