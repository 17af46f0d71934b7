//===- ArtifactExport.h - Host function + kernels → Artifact ----*- C++ -*-===//
#ifndef ONNX_TOSA_TARGETS_ARTIFACTEXPORT_H
#define ONNX_TOSA_TARGETS_ARTIFACTEXPORT_H

#include "onnx_tosa/artifact.h"

#include "mlir/IR/BuiltinOps.h"

#include <map>
#include <string>
#include <vector>

namespace onnx_tosa {

/// Marks a gpu.launch_func whose kernel waits for the kernels launched
/// before it itself: its launch gets kLaunchWaitsForPrevious.
constexpr llvm::StringLiteral kWaitsForPreviousAttr =
    "onnx_tosa.waits_for_previous";

/// Turns the host function `main` left by the tosa-to-gpu pipeline (buffer
/// allocations, constant globals, views, gpu.launch_func, return) into the
/// runtime's buffers and launch list. `modules` maps each gpu.module name to
/// its device code (PTX text or SPIR-V words as bytes). Emits an error on the
/// op it cannot express and fails.
mlir::LogicalResult
exportArtifact(mlir::ModuleOp module, Target target,
               const std::map<std::string, std::vector<uint8_t>> &modules,
               Artifact &out);

struct MemoryPlanStats {
  uint64_t buffersBefore = 0, bytesBefore = 0;
  uint64_t buffersAfter = 0, bytesAfter = 0;
};

/// Static memory plan: intermediate buffers whose live ranges (first to last
/// launch that touches them; model outputs live to the end) do not overlap
/// share one device buffer. Rewrites launch arguments and output bindings and
/// drops the buffers no longer used.
MemoryPlanStats planMemory(Artifact &artifact);

} // namespace onnx_tosa

#endif
