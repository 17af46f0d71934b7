//===- TosaToGpu.h - TOSA to gpu-dialect kernels ----------------*- C++ -*-===//
//
// Two pipelines with a textual IR boundary between them:
//   tosa   --buildTosaToLinalgPipeline-->  linalg on tensors, fused
//   linalg --buildLinalgToGpuPipeline-->   gpu.module kernels + a host func
// The host func that comes out holds only buffer allocations, constant
// globals, views of buffers, gpu.launch_func and func.return: that is what the
// artifact exporter turns into the runtime's launch list.
//
//===----------------------------------------------------------------------===//
#ifndef ONNX_TOSA_PIPELINES_TOSATOGPU_H
#define ONNX_TOSA_PIPELINES_TOSATOGPU_H

#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

#include "TargetInfo.h"

#include <string>

namespace onnx_tosa {

/// Workgroups per grid dimension that every Vulkan device allows (and CUDA
/// in y and z): kernels never launch more along one dimension.
constexpr int64_t kMaxGridDimension = 65535;

/// Which tiled GEMM kernels on tensor cores copy their A and B tiles to
/// workgroup memory by asynchronous copies (cp.async), up to 4 copies of
/// them in flight, instead of through registers: on the H200 that took 9 to
/// 30 % off BERT's matmuls and ResNet-50 b1's convolutions 23 % slower
/// (benchmarks/results/gemm-tilings-2026-12-03/), hence matmuls only.
enum class AsyncCopies { None, Matmuls, All };

struct GpuPipelineOptions {
  /// Threads per block (CUDA) / workgroup (Vulkan) of distributed loops.
  unsigned blockSize = 256;
  /// f16 matmuls and convolutions on tensor cores (WMMA through the gpu
  /// dialect's subgroup MMA ops): the CUDA target.
  bool tensorCores = false;
  /// With tensorCores, also f32 matmuls and convolutions, in tf32.
  bool tf32 = false;
  /// f32 matmuls and convolutions (not in tf32) as the tensor-core kernel's
  /// tiles on CUDA cores (the gpu dialect's vector arithmetic).
  bool simtGemm = false;
  /// Consecutive elements per thread in distributed elementwise loops, read
  /// and written as vectors where contiguous (1: one element per thread).
  unsigned vectorWidth = 1;
  /// Row kernels (softmax, normalizations) combine their threads' partial
  /// results in subgroups first: warp shuffles on CUDA (subgroupSize 32),
  /// SPIR-V group operations on Vulkan (subgroupSize 0: the device's).
  bool subgroupReduce = false;
  unsigned subgroupSize = 0;
  /// Tuning experiments: the tiling every tiled GEMM kernel that can use it
  /// gets instead of its own choice (see createTensorCoreKernelsPass).
  std::string gemmTiling;
  /// Copies of the tiled GEMM kernels' A and B tiles in workgroup memory,
  /// at most (as many as fit; 0: 2, or 4 with asynchronous copies).
  unsigned gemmStages = 0;
  /// Tensor-core kernels whose tiles go to workgroup memory by cp.async
  /// (the CUDA target: matmuls).
  AsyncCopies gemmAsyncCopies = AsyncCopies::None;
  /// K steps ahead that the tiled GEMM kernels load their tiles (1 to 4;
  /// 0: 2 on tensor cores, 1 on CUDA cores; warpgroup MMA: 1 to stages - 1,
  /// 0: stages - 1).
  unsigned gemmPrefetch = 0;
  /// f16 tensor-core GEMMs use warpgroup MMA (wgmma, sm_90a targets only;
  /// not GEMVs, and convolutions only where their tiles fill the GPU).
  bool warpgroupMma = false;
  /// With warpgroupMma: attention (Q K^T, softmax, P V) as one kernel.
  bool fusedAttention = true;
  /// The tiled GEMM kernels become SPIR-V (Vulkan): their tilings are
  /// chosen for a Vulkan driver's compiler (see chooseSpirvTiling in
  /// TensorCores.cpp), with one copy of the tiles.
  bool spirvGemmTilings = false;
  /// Buffers one kernel may bind (a Vulkan device's
  /// maxPerStageDescriptorStorageBuffers); 0: no limit. Elementwise fusion
  /// stops short of it and fused sibling loops are split to meet it.
  unsigned maxKernelBuffers = 0;
};

/// Appends a textual pipeline of registered pass names (as on an mlir-opt
/// command line) to `pm`. Our pipelines are fixed strings, so one that does
/// not parse is a programming error and aborts with the parser's message.
void addPassPipeline(mlir::OpPassManager &pm, llvm::StringRef pipeline);

/// What a user of the compiler chooses for the pipelines, with
/// onnx-tosa-compile's defaults: the one definition of those defaults for
/// the compiler's options and for the options of the pipelines that
/// onnx-tosa-opt and the plugin register (`--onnx-tosa-tosa-to-gpu=
/// "target=cuda:sm_80 vector-width=2"`), so that a stage resumed there runs
/// the pipeline the compiler runs. resolvePipelineOptions turns the choices
/// into GpuPipelineOptions for a target.
struct PipelineChoices {
  unsigned blockSize = 256;
  bool tensorCores = true;
  bool tf32 = false;
  bool simtGemm = true;
  unsigned vectorWidth = 4;
  bool subgroupReduce = true;
  /// -1: the target's (Vulkan: 32; CUDA: no limit).
  int maxKernelBuffers = -1;
  std::string gemmTiling;
  unsigned gemmStages = 0;
  unsigned gemmPrefetch = 0;
  /// none, matmuls or all; auto: matmuls.
  std::string gemmAsyncCopies = "auto";
  bool warpgroupMma = true;
  bool fusedAttention = true;
  bool vulkanGemmTilings = true;
};

/// The options of the pipelines for `choices` on `target`: tensor cores,
/// warpgroup MMA and asynchronous copies where the target has them, its
/// subgroup size and buffer limit.
GpuPipelineOptions resolvePipelineOptions(const TargetInfo &target,
                                          const PipelineChoices &choices);

void buildTosaToLinalgPipeline(mlir::OpPassManager &pm,
                               const GpuPipelineOptions &options);
inline void buildTosaToLinalgPipeline(mlir::OpPassManager &pm) {
  buildTosaToLinalgPipeline(pm, {});
}
void buildLinalgToGpuPipeline(mlir::OpPassManager &pm,
                              const GpuPipelineOptions &options);

/// `onnx-tosa-distribute-loops`: every top-level scf.parallel of a function
/// becomes one gpu.launch whose threads each run one iteration (the whole
/// iteration space linearized over blocks × threads, row-major so that
/// consecutive threads touch consecutive elements); other leftover
/// host-side computation runs in a one-thread launch. With vectorWidth > 1,
/// a thread takes that many consecutive iterations of the innermost
/// dimension where their contiguous accesses become vector loads and
/// stores.
std::unique_ptr<mlir::Pass> createDistributeLoopsPass(unsigned blockSize,
                                                      unsigned vectorWidth = 1);

/// `onnx-tosa-check-error-if` (TOSA): refuses a graph that meets one of the
/// specification's ERROR_IF conditions that LLVM 22's verifiers and
/// tosa-validate leave unchecked (broadcast output shapes, RESIZE's batch
/// and channels, SLICE's start and size, TILE's output), naming the op and
/// the condition (CheckErrorIf.cpp).
/// With level "8k", also the ranges of the TOSA 1.0 8K level (rank, tensor
/// size, kernel, stride, pad, scale, tensor list size), which LLVM 22's
/// tosa-validate checks wrongly for PAD; "none": no level.
std::unique_ptr<mlir::Pass> createCheckErrorIfPass(llvm::StringRef level =
                                                       "8k");

/// `onnx-tosa-split-large-constants{max-bytes=N}` (TOSA): a MATMUL whose
/// constant right-hand side is larger than a kernel may bind in one buffer
/// (the target's maxBufferBytes, or N) becomes MATMULs of column blocks of
/// it joined by a CONCAT (SplitLargeConstants.cpp).
std::unique_ptr<mlir::Pass> createSplitLargeConstantsPass();

/// `onnx-tosa-copy-to-linalg`: memref.copy → linalg.copy, so that copies
/// (concat, pad, ...) become device loops like every other linalg op.
std::unique_ptr<mlir::Pass> createCopyToLinalgPass();

/// `onnx-tosa-upstream-workarounds`: lowers, before tosa-to-linalg, the TOSA
/// ops whose LLVM 22 tosa-to-linalg lowering is wrong (each pattern names the
/// upstream bug): RESCALE to i64 and with INEXACT_ROUND, floating-point
/// MAX_POOL2D, integer bilinear RESIZE.
std::unique_ptr<mlir::Pass> createUpstreamWorkaroundsPass();
/// `onnx-tosa-fold-bool-transposes`: folds TRANSPOSE of a boolean constant
/// before tosa-reduce-transposes, which folds it wrongly in LLVM 22.
std::unique_ptr<mlir::Pass> createFoldBoolTransposesPass();
/// onnx-tosa-sink-reshapes (TOSA): elementwise ops move above the reshapes
/// they read, next to what the reshape's input came from (SinkReshapes.cpp).
std::unique_ptr<mlir::Pass> createSinkReshapesPass();
/// onnx-tosa-pad-conv-channels (TOSA): f16/bf16 convolutions with fewer
/// than 8 input channels get 8, zero (PadChannels.cpp).
std::unique_ptr<mlir::Pass> createPadConvChannelsPass();

/// `onnx-tosa-split-reductions`: a reduction over few, long rows (fewer
/// parallel iterations than can fill the GPU) becomes two: partial results
/// over [K / r, r], r of them per row in parallel, then their combination.
std::unique_ptr<mlir::Pass> createSplitReductionsPass();

std::unique_ptr<mlir::Pass> createFuseElementwisePass(bool reshapes = true,
                                                      unsigned maxOperands = 0);

/// `onnx-tosa-split-wide-loops{max-buffers=N}`: a top-level scf.parallel
/// that touches more than N buffers (sibling loops fused into one, e.g. a
/// Concat of many inputs) becomes several loops of the same iteration space
/// that each touch at most N, where its body can be cut so (WideLoops.cpp).
/// 0: no limit.
std::unique_ptr<mlir::Pass> createSplitWideLoopsPass(unsigned maxBuffers = 0);

/// `onnx-tosa-coarsen-contractions`: 2-D convolutions (NHWC/HWCF) and batch
/// matmuls compute several outputs per thread, loading each filter / right-
/// hand-side element once for all of them.
std::unique_ptr<mlir::Pass> createCoarsenContractionsPass();
/// Marks the linalg.generic of a coarsened contraction, whose last loop (a
/// thread's outputs) comes after its reduction loops on purpose.
constexpr llvm::StringLiteral kCoarsenedAttr = "onnx_tosa.coarsened";

/// On a gpu.launch_func: the names of the ONNX nodes its kernel computes,
/// ", "-separated (profiles show them), set when kernels are outlined.
constexpr llvm::StringLiteral kKernelNodesAttr = "onnx_tosa.nodes";

/// `onnx-tosa-reductions-innermost` (linalg on buffers, after the row
/// kernels): a linalg.generic with parallel loops after a reduction loop
/// (a sum over a dimension that is not the last) has its parallel loops
/// put first, so that all of them are spread over threads.
std::unique_ptr<mlir::Pass> createReductionsInnermostPass();

/// `onnx-tosa-select-tensor-core-ops{tensor-cores=true tf32=false
/// simt=false}`: marks the matmuls, GEMM-shaped generic contractions and
/// 2-D convolutions (on tensors) whose sizes suit the tiled GEMM kernel:
/// with f16 operands (with tf32, also f32 ones) and an f32 result for
/// tensor cores; with simt, f32 ones (not tf32) for CUDA cores. Coarsening
/// and reduction splitting leave marked ops alone.
std::unique_ptr<mlir::Pass>
createSelectTensorCoreOpsPass(bool tensorCores = true, bool tf32 = false,
                              bool simt = false);
bool isMarkedForTiledGemm(mlir::Operation *op);

/// `onnx-tosa-kernel-config`: the one place that chooses how each marked
/// op on buffers is computed (fused attention, warpgroup MMA, WMMA on
/// tensor cores, the tiled kernel on CUDA cores; tiling, K slices, copies
/// of the tiles, asynchronous copies), from the module's target (TargetInfo)
/// and the options below, and writes the choice on the op as
/// `onnx_tosa.kernel = {kind = "wgmma", tile = array<i64: 128, 128>, ...}`.
/// `tiling` (tuning experiments): one tiling for every kernel that can use
/// it, "UMxUNxPMxPN[sS]".
/// `stages`: copies of the tiles, as many as fit up to this (see Tiling;
/// 0: 2, or 4 with asynchronous copies, see AsyncCopies).
/// `warpgroupMma` (sm_90a): f16 GEMMs (not GEMVs; convolutions where their
/// tiles fill the GPU) are multiplied by wgmma.mma_async from swizzled
/// tiles in dynamic workgroup memory.
/// `spirvTilings`: the kernels become SPIR-V; tilings on CUDA cores and
/// copies of the tiles (0 stages: 1) chosen for a Vulkan driver.
/// `attention` (with warpgroupMma): attention's Q K^T, softmax and P V as
/// one kernel, S and P kept on chip.
std::unique_ptr<mlir::Pass> createKernelConfigPass(
    llvm::StringRef tiling = "", unsigned stages = 0, unsigned prefetch = 0,
    AsyncCopies asyncCopies = AsyncCopies::None, bool warpgroupMma = false,
    bool spirvTilings = false, bool attention = true);

/// `onnx-tosa-tensor-core-kernels`: each op onnx-tosa-kernel-config chose a
/// kernel for becomes that kernel: a gpu.launch computing it as an
/// (implicit) GEMM from tiles staged in workgroup memory, with subgroup MMA
/// ops (tensor cores), warpgroup MMA or vector FMAs (CUDA cores), and the
/// elementwise op after it as its epilogue.
std::unique_ptr<mlir::Pass> createTensorCoreKernelsPass();

/// `onnx-tosa-row-kernels{subgroup-reduce=false subgroup-size=0}`: a row
/// reduction and the ops around it on the same rows become one kernel with
/// a workgroup per row. With subgroupReduce, the threads' partial results
/// are combined by gpu.subgroup_reduce and then across subgroups (one
/// barrier) instead of by a tree in workgroup memory; subgroupSize: lanes
/// per subgroup where the target fixes it, 0 where the device does.
std::unique_ptr<mlir::Pass> createRowKernelsPass(bool subgroupReduce = false,
                                                 unsigned subgroupSize = 0);
/// Whether onnx-tosa-row-kernels gives reduction `op` a kernel of its own
/// with a workgroup per row (on tensors: its init is a fill).
bool isRowReduction(mlir::Operation *op);

/// `onnx-tosa-align-workgroup-memory`: 128-byte alignment for the workgroup
/// buffers of outlined kernels (WMMA needs 32-byte aligned fragments).
std::unique_ptr<mlir::Pass> createAlignWorkgroupMemoryPass();

/// `onnx-tosa-unroll-small-loops`: fully unrolls innermost scf.for loops of
/// at most 8 iterations.
std::unique_ptr<mlir::Pass> createUnrollSmallLoopsPass();

/// `onnx-tosa-lower-precision{precision=fp16|bf16}`: on legalized TOSA, f32
/// computation in fp16 or bf16 with f32 accumulation (convolutions, matmul,
/// reduce_sum); function arguments and results stay f32, cast at the
/// boundary (onnx-tosa-compile --precision).
std::unique_ptr<mlir::Pass> createLowerPrecisionPass(llvm::StringRef precision);

/// Registers the passes above and the pipelines `onnx-tosa-tosa-to-linalg`
/// and `onnx-tosa-linalg-to-gpu` (and `onnx-tosa-tosa-to-gpu`, both in a row).
void registerTosaToGpuPasses();

} // namespace onnx_tosa

#endif
