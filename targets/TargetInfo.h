//===- TargetInfo.h - what the compiler knows of each target ----*- C++ -*-===//
//
// The one description of the devices the compiler generates code for: a
// table of chips (docs/targets.md prints it) whose rows the kernel-shape
// rules read instead of constants of their own. The compiler attaches the
// chosen row to the module (onnx-tosa-attach-target), so that every pass,
// and every stage resumed in onnx-tosa-opt, sees the same target:
//
//   module attributes {onnx_tosa.target = {name = "cuda:sm_80", ...}}
//
// A string (`onnx_tosa.target = "cuda:sm_80"`) names a row of the table; a
// dictionary is a row with its values (the detected GPU's multiprocessor
// count, say) spelled out. A module without the attribute is compiled for
// the portable default, kDefaultTarget.
//
//===----------------------------------------------------------------------===//
#ifndef ONNX_TOSA_TARGETS_TARGETINFO_H
#define ONNX_TOSA_TARGETS_TARGETINFO_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Operation.h"
#include "mlir/Pass/Pass.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace onnx_tosa {

/// The kernel interface a target's code is written against.
enum class TargetApi { Cuda, Vulkan };

struct TargetInfo {
  /// "cuda:sm_90a", "vulkan": what --target takes.
  std::string name;
  TargetApi api = TargetApi::Vulkan;
  /// The CUDA architecture ("sm_90a"); "" on Vulkan.
  std::string chip;
  /// The devices the row describes ("H100, H200").
  std::string devices;
  /// Multiprocessors (CUDA SMs, Vulkan compute units) that the kernel-shape
  /// rules (GEMM tilings, rows per workgroup, split reductions) aim to fill.
  int64_t multiprocessors = 0;
  /// Threads of a subgroup (a CUDA warp); 0: the device picks at run time.
  int64_t subgroupSize = 0;
  int64_t maxThreadsPerBlock = 0;
  /// Workgroup memory a kernel may declare statically, and at most per block
  /// (CUDA: dynamic memory beyond the static limit by opt-in), and per
  /// multiprocessor.
  int64_t staticSharedBytes = 0;
  int64_t maxSharedBytesPerBlock = 0;
  int64_t sharedBytesPerMultiprocessor = 0;
  /// 32-bit registers per multiprocessor.
  int64_t registersPerMultiprocessor = 0;
  /// Tensor cores through WMMA: f16 (sm_70+), and tf32 and bf16 (sm_80+).
  bool wmmaF16 = false;
  bool wmmaTf32Bf16 = false;
  /// Warpgroup MMA (wgmma: sm_90a only).
  bool warpgroupMma = false;
  /// Asynchronous copies to workgroup memory (cp.async: sm_80+).
  bool asyncCopy = false;
  /// Programmatic dependent launch (griddepcontrol: sm_90+).
  bool gridDependencyControl = false;
  /// Bytes one kernel may bind in one buffer; 0: no limit. Vulkan
  /// guarantees storage buffer ranges of 2^27 bytes (maxStorageBufferRange's
  /// required minimum; lavapipe has no more): a weight larger than that is
  /// split at compile time (onnx-tosa-split-large-constants).
  int64_t maxBufferBytes = 0;
  /// The PTX ISA version the code is written in (80: 8.0): the chip's
  /// minimum, and at least 8.0, which every CUDA 12+ driver JITs.
  int ptxVersion = 0;

  bool isCuda() const { return api == TargetApi::Cuda; }
  /// "+ptx80": the NVPTX feature string of ptxVersion.
  std::string ptxFeatures() const;
};

/// What a module without a target attribute, and `--target=vulkan`, are
/// compiled for.
constexpr llvm::StringLiteral kDefaultTarget = "vulkan";
/// What `--target=cuda` means on a machine without a CUDA GPU (with one, the
/// row of that GPU's architecture).
constexpr llvm::StringLiteral kDefaultCudaChip = "sm_90a";
/// The module attribute holding the target.
constexpr llvm::StringLiteral kTargetAttrName = "onnx_tosa.target";

/// Every row of the table, CUDA chips oldest first, then Vulkan.
llvm::ArrayRef<TargetInfo> knownTargets();

/// The row `spec` names: "vulkan", "cuda:sm_86", or a bare chip ("sm_86").
/// An architecture-specific name the table lacks falls back to its portable
/// one (sm_100a: sm_100), and an unknown chip to the newest row of the same
/// major version below it (sm_87: sm_86), whose code it runs. Otherwise
/// nullopt, with `error` listing what the table knows.
std::optional<TargetInfo> lookupTarget(llvm::StringRef spec,
                                       std::string &error);

/// The row a GPU of this architecture ("sm_90a", as the runtime reports it)
/// runs best, with the GPU's own multiprocessor count when known (> 0).
std::optional<TargetInfo> targetForDevice(llvm::StringRef architecture,
                                          int64_t multiprocessors,
                                          std::string &error);

/// The target as a module attribute (every field spelled out), and back:
/// the module's target, kDefaultTarget's row when `op`'s module has none.
mlir::DictionaryAttr targetToAttr(mlir::MLIRContext *context,
                                  const TargetInfo &target);
TargetInfo targetOf(mlir::Operation *op);
/// Sets the module's target attribute.
void setTarget(mlir::Operation *module, const TargetInfo &target);

/// `onnx-tosa-attach-target{target=cuda:sm_80}`: sets the module's target
/// to that row of the table (what onnx-tosa-compile --target does).
std::unique_ptr<mlir::Pass> createAttachTargetPass(llvm::StringRef spec = "");
void registerTargetInfoPasses();

/// The table in Markdown (docs/targets.md, `onnx-tosa-compile
/// --list-targets`).
std::string describeTargets();

} // namespace onnx_tosa

#endif
