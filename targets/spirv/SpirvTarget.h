//===- SpirvTarget.h - gpu kernels to Vulkan SPIR-V -------------*- C++ -*-===//
#ifndef ONNX_TOSA_TARGETS_SPIRV_H
#define ONNX_TOSA_TARGETS_SPIRV_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace onnx_tosa {

/// `onnx-tosa-prepare-spirv`: attaches the Vulkan target environment to the
/// module and each kernel's workgroup size (from its known block size) as
/// its SPIR-V entry-point ABI.
std::unique_ptr<mlir::Pass> createPrepareSpirvPass();

/// `onnx-tosa-store-bf16-as-i16`: once bf16 arithmetic in the kernels is
/// emulated in f32, carries the remaining bf16 data (buffers, loads,
/// stores, selects, constants) as i16 of the same bits, which Vulkan has;
/// launches cast the host's bf16 buffers to i16 memrefs.
std::unique_ptr<mlir::Pass> createStoreBf16AsI16Pass();

/// `onnx-tosa-promote-kernel-accumulators`: in kernels, what LLVM does with
/// noalias arguments on the CUDA path: repeated loads of a noalias buffer the
/// kernel never writes are reused, and values a loop loads and stores at
/// loop-invariant indices of a noalias buffer are carried in registers
/// (KernelMemory.cpp).
std::unique_ptr<mlir::Pass> createPromoteKernelAccumulatorsPass();

/// `onnx-tosa-decorate-spirv-buffers`: decorates the storage buffer
/// variables of noalias kernel arguments `Restrict` and those a kernel never
/// writes `NonWritable`.
std::unique_ptr<mlir::Pass> createDecorateSpirvBuffersPass();

/// `onnx-tosa-vectorize-spirv-accesses` (spirv.module): the vector loads and
/// stores of a buffer or workgroup variable, which the SPIR-V conversion
/// leaves as casts of element pointers that Vulkan's logical addressing
/// forbids, become accesses to the vectors of the variable retyped as an
/// array of vectors (its scalar accesses then address a vector's lane);
/// where the variable cannot be retyped, one access per element
/// (KernelMemory.cpp).
std::unique_ptr<mlir::Pass> createVectorizeSpirvAccessesPass();

/// gpu.module kernels → spirv.module ops (Vulkan compute shaders; kernel
/// argument i is storage buffer binding i of descriptor set 0).
void buildGpuToSpirvPipeline(mlir::OpPassManager &pm);

/// (gpu.module name the kernels came from, SPIR-V words) per spirv.module.
mlir::LogicalResult
collectSpirv(mlir::ModuleOp module,
             std::vector<std::pair<std::string, std::vector<uint32_t>>> &out);

void registerSpirvTargetPasses();

} // namespace onnx_tosa

#endif
