//===- Pipeline.cpp - Assembles the TOSA → gpu pipelines ------------------===//
#include "TosaToGpu.h"
#include "KernelBodies.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace onnx_tosa {

namespace {

struct CopyToLinalg : OpRewritePattern<memref::CopyOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(memref::CopyOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<linalg::CopyOp>(op, op.getSource(),
                                                op.getTarget());
    return success();
  }
};

struct CopyToLinalgPass
    : PassWrapper<CopyToLinalgPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(CopyToLinalgPass)
  StringRef getArgument() const override { return "onnx-tosa-copy-to-linalg"; }
  StringRef getDescription() const override {
    return "Rewrite memref.copy as linalg.copy so it becomes a device loop";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<linalg::LinalgDialect>();
  }
  void runOnOperation() override {
    // A model output that bufferized to a view of another buffer (Split's
    // first slice of an input, say) gets a buffer of its own: the runtime
    // reads outputs from whole buffers.
    getOperation().walk([](func::ReturnOp ret) {
      for (OpOperand &operand : ret->getOpOperands()) {
        Value v = operand.get();
        Operation *def = v.getDefiningOp();
        if (!def || isa<memref::AllocOp, memref::GetGlobalOp>(def))
          continue;
        Value source = v;
        while (auto cast = source.getDefiningOp<memref::CastOp>())
          source = cast.getSource();
        if (!source.getDefiningOp<memref::SubViewOp>() &&
            !source.getDefiningOp<memref::ReinterpretCastOp>())
          continue;
        OpBuilder b(ret);
        auto type = cast<MemRefType>(v.getType());
        Value copy = memref::AllocOp::create(b, ret.getLoc(), type);
        memref::CopyOp::create(b, ret.getLoc(), source, copy);
        operand.set(copy);
      }
    });
    RewritePatternSet patterns(&getContext());
    patterns.add<CopyToLinalg>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

/// `onnx-tosa-kernel-args-noalias`: marks every buffer argument of every
/// kernel `llvm.noalias`. It holds by construction: each argument is a whole
/// buffer (views are folded into the accesses), outlining passes one value
/// once, and the artifact's memory plan never gives two buffers that one
/// launch uses the same memory. It lets LLVM keep a thread's accumulator in
/// a register across its reduction loop instead of storing it to memory on
/// every iteration (a store may otherwise alias the next iteration's loads).
struct KernelArgsNoAliasPass
    : PassWrapper<KernelArgsNoAliasPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(KernelArgsNoAliasPass)
  StringRef getArgument() const override {
    return "onnx-tosa-kernel-args-noalias";
  }
  StringRef getDescription() const override {
    return "Mark the buffer arguments of gpu kernels llvm.noalias";
  }
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Belt and braces: a kernel launched with two views of one allocation
    // keeps plain arguments.
    DenseSet<Operation *> aliased;
    module.walk([&](gpu::LaunchFuncOp launch) {
      DenseSet<Value> roots;
      for (Value arg : launch.getKernelOperands()) {
        if (!isa<MemRefType>(arg.getType()))
          continue;
        if (!roots.insert(viewSource(arg)).second)
          if (Operation *kernel =
                  SymbolTable::lookupNearestSymbolFrom(launch,
                                                       launch.getKernel()))
            aliased.insert(kernel);
      }
    });
    module.walk([&](gpu::GPUFuncOp func) {
      if (!func.isKernel() || aliased.contains(func))
        return;
      // The body's block arguments also hold the workgroup buffers: only
      // the function's own arguments count.
      for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
        if (isa<MemRefType>(func.getArgument(i).getType()))
          func.setArgAttr(i,
                          LLVM::LLVMDialect::getNoAliasAttrName(),
                          UnitAttr::get(func.getContext()));
    });
  }
};

/// `onnx-tosa-kernel-fp-contract`: lets the backends fuse a floating-point
/// multiply and the add that consumes it into one fused multiply-add (what
/// CUDA C++ compilers do by default): twice the arithmetic rate, one
/// rounding instead of two.
struct KernelFpContractPass
    : PassWrapper<KernelFpContractPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(KernelFpContractPass)
  StringRef getArgument() const override {
    return "onnx-tosa-kernel-fp-contract";
  }
  StringRef getDescription() const override {
    return "Allow multiply-add contraction in gpu kernels";
  }
  void runOnOperation() override {
    getOperation().walk([](gpu::GPUFuncOp func) {
      func.walk([](Operation *op) {
        if (!isa<arith::MulFOp, arith::AddFOp, arith::SubFOp>(op))
          return;
        auto fm = cast<arith::ArithFastMathInterface>(op);
        arith::FastMathFlags flags =
            fm.getFastMathFlagsAttr().getValue() | arith::FastMathFlags::contract;
        op->setAttr(fm.getFastMathAttrName(),
                    arith::FastMathFlagsAttr::get(op->getContext(), flags));
      });
    });
  }
};

/// Records on each kernel launch the ONNX nodes its kernel computes: the
/// names in the locations of its operations (the importer names every op
/// after its node, and rewrites keep the location of what they replace),
/// the launch's own first, each once. Constants are left out: CSE shares
/// them between unrelated nodes.
struct KernelNodesPass
    : PassWrapper<KernelNodesPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(KernelNodesPass)
  StringRef getArgument() const override { return "onnx-tosa-kernel-nodes"; }
  StringRef getDescription() const override {
    return "Record the ONNX nodes each kernel launch computes";
  }
  void runOnOperation() override {
    SymbolTableCollection symbols;
    getOperation().walk([&](gpu::LaunchFuncOp launch) {
      SmallVector<StringRef> names;
      auto add = [&](Location loc) {
        loc->walk([&](Location l) {
          if (auto named = dyn_cast<NameLoc>(l))
            if (!llvm::is_contained(names, named.getName().strref()))
              names.push_back(named.getName().strref());
          return WalkResult::advance();
        });
      };
      add(launch.getLoc());
      if (auto kernel = symbols.lookupNearestSymbolFrom<gpu::GPUFuncOp>(
              launch, launch.getKernel()))
        kernel.walk([&](Operation *op) {
          if (!op->hasTrait<OpTrait::ConstantLike>())
            add(op->getLoc());
        });
      launch->setAttr(kKernelNodesAttr,
                      StringAttr::get(&getContext(), llvm::join(names, ", ")));
    });
  }
};

/// The value `v` is, made again before `user` when it is a tensor.empty,
/// a fill of a constant into one, or a reshape of either (what CSE merges
/// between unrelated ops); else `v` itself.
Value cloneInit(OpBuilder &b, Value v) {
  Operation *def = v.getDefiningOp();
  if (!def || def->getNumResults() != 1)
    return v;
  if (isa<tensor::EmptyOp>(def))
    return b.clone(*def)->getResult(0);
  if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(def)) {
    Value source = cloneInit(b, def->getOperand(0));
    if (source == def->getOperand(0))
      return v;
    IRMapping map;
    map.map(def->getOperand(0), source);
    return b.clone(*def, map)->getResult(0);
  }
  if (auto fill = dyn_cast<linalg::FillOp>(def)) {
    if (!matchPattern(fill.getDpsInputs()[0], m_Constant()))
      return v;
    Value init = cloneInit(b, fill.getDpsInits()[0]);
    if (init == fill.getDpsInits()[0])
      return v;
    IRMapping map;
    map.map(fill.getDpsInits()[0], init);
    return b.clone(*def, map)->getResult(0);
  }
  return v;
}

/// `onnx-tosa-private-inits` (right before bufferization): every op that
/// writes into an empty tensor, or into one filled with a constant, gets
/// its own, made right before it. CSE merges identical tensor.empty and
/// fill ops however unrelated their users; bufferization then gives the
/// users one buffer, so that all but one of them copy the fill first (a
/// kernel more each), and an op's output may share memory with a buffer
/// another op reads, which keeps a tensor-core kernel from taking the op
/// after it as its epilogue.
struct PrivateInitsPass
    : PassWrapper<PrivateInitsPass, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(PrivateInitsPass)
  StringRef getArgument() const override { return "onnx-tosa-private-inits"; }
  StringRef getDescription() const override {
    return "Give each destination-passing op its own empty or filled init";
  }
  void runOnOperation() override {
    SmallVector<OpOperand *> inits;
    getOperation().walk([&](DestinationStyleOpInterface op) {
      // Fills are made again with the ops they initialize.
      if (isa<linalg::FillOp>(op))
        return;
      for (OpOperand &init : op.getDpsInitsMutable())
        inits.push_back(&init);
    });
    // Made again even for a sole user, so that a fill is right before the
    // op it initializes (where onnx-tosa-tensor-core-kernels and the loop
    // fusion after bufferization look for it); the originals are dead then.
    for (OpOperand *init : inits) {
      OpBuilder b(init->getOwner());
      init->set(cloneInit(b, init->get()));
    }
  }
};

} // namespace

Value viewSource(Value buffer) {
  while (auto view = buffer.getDefiningOp<ViewLikeOpInterface>())
    buffer = view.getViewSource();
  return buffer;
}

SmallVector<Value> mapIndices(OpBuilder &b, Location loc, AffineMap map,
                              ArrayRef<Value> loops) {
  SmallVector<Value> indices;
  for (AffineExpr e : map.getResults()) {
    if (auto d = dyn_cast<AffineDimExpr>(e))
      indices.push_back(loops[d.getPosition()]);
    else
      indices.push_back(arith::ConstantIndexOp::create(
          b, loc, cast<AffineConstantExpr>(e).getValue()));
  }
  return indices;
}

SmallVector<Value> cloneBody(OpBuilder &b, linalg::LinalgOp op,
                             IRMapping &map, ArrayRef<Value> loops) {
  for (Operation &inner : op.getBlock()->without_terminator()) {
    if (auto index = dyn_cast<linalg::IndexOp>(inner))
      map.map(index.getResult(), loops[index.getDim()]);
    else
      b.clone(inner, map);
  }
  SmallVector<Value> yielded;
  for (Value v : op.getBlock()->getTerminator()->getOperands())
    yielded.push_back(map.lookupOrDefault(v));
  return yielded;
}

void addPassPipeline(OpPassManager &pm, StringRef pipeline) {
  std::string err;
  llvm::raw_string_ostream os(err);
  if (failed(parsePassPipeline(pipeline, pm, os)))
    llvm::report_fatal_error(llvm::Twine("internal pipeline is invalid: ") +
                             os.str());
}

std::unique_ptr<Pass> createCopyToLinalgPass() {
  return std::make_unique<CopyToLinalgPass>();
}

void buildTosaToLinalgPipeline(OpPassManager &pm,
                               const GpuPipelineOptions &options) {
  addPassPipeline(pm, "func.func(tosa-optional-decompositions),canonicalize,"
                      "func.func(tosa-infer-shapes,tosa-make-broadcastable)");
  pm.addNestedPass<func::FuncOp>(createFoldBoolTransposesPass());
  // Weights larger than a kernel may bind (Vulkan: 128 MiB) in blocks.
  pm.addNestedPass<func::FuncOp>(createSplitLargeConstantsPass());
  // ONNX is NCHW and TOSA's convolutions and pools NHWC: the layout
  // transposes the legalization puts around each of them cancel through the
  // elementwise ops between (on ResNet-50, 102 transposes become 7).
  addPassPipeline(pm, "func.func(tosa-reduce-transposes)");
  // Elementwise ops after a matmul's reshape back to ONNX's shape move
  // above it, so that they become the matmul kernel's epilogue.
  pm.addNestedPass<func::FuncOp>(createSinkReshapesPass());
  // The tensor-core kernels read whole vectors of 8 input channels.
  if (options.tensorCores)
    pm.addNestedPass<func::FuncOp>(createPadConvChannelsPass());
  // Our own lowerings of the ops upstream's tosa-to-linalg gets wrong.
  pm.addNestedPass<func::FuncOp>(createUpstreamWorkaroundsPass());
  addPassPipeline(pm,
                  "func.func("
                  // SCATTER has no linalg form: a loop over its rows.
                  "tosa-to-scf,"
                  // Filters as HWCF (transposed at compile time when they
                  // are constants): the threads of a warp, which compute
                  // neighbouring output channels, then read neighbouring
                  // filter elements.
                  "tosa-to-linalg-named{prefer-conv2d-kernel-layout-hwcf=true},"
                  "tosa-to-linalg,"
                  // apply_scale (from RESCALE and integer MUL/AVG_POOL2D)
                  // becomes plain integer arithmetic here.
                  "tosa-to-arith{include-apply-rescale=true},"
                  "tosa-to-tensor,"
                  // arith casts on tensors convert int64/float64 graph
                  // inputs and outputs to and from their demoted types.
                  "convert-elementwise-to-linalg),canonicalize");
  pm.addNestedPass<func::FuncOp>(
      createFuseElementwisePass(true, options.maxKernelBuffers));
  addPassPipeline(pm, "canonicalize,cse");
  if (options.tensorCores || options.simtGemm) {
    pm.addNestedPass<func::FuncOp>(createSelectTensorCoreOpsPass(
        options.tensorCores, options.tensorCores && options.tf32,
        options.simtGemm));
    // The biases the selection moved out of the accumulators join the
    // elementwise ops after the contractions (which become their epilogues).
    pm.addNestedPass<func::FuncOp>(
        createFuseElementwisePass(false, options.maxKernelBuffers));
  }
  pm.addNestedPass<func::FuncOp>(createSplitReductionsPass());
  pm.addNestedPass<func::FuncOp>(createCoarsenContractionsPass());
  addPassPipeline(pm, "canonicalize,cse");
}

void buildLinalgToGpuPipeline(OpPassManager &pm,
                              const GpuPipelineOptions &options) {
  // Buffers with identity layouts at the function boundary: the runtime
  // passes whole, densely packed buffers.
  pm.addNestedPass<func::FuncOp>(std::make_unique<PrivateInitsPass>());
  // An op whose result is inserted into a larger tensor (the interior of a
  // padded one) writes there directly.
  addPassPipeline(pm, "canonicalize,eliminate-empty-tensors");
  addPassPipeline(pm, "one-shot-bufferize{bufferize-function-boundaries "
                      "function-boundary-type-conversion=identity-layout-map},"
                      // Identical views merge, so that the copy of a
                      // result written in place onto itself folds away.
                      "canonicalize,cse,canonicalize");
  pm.addPass(createCopyToLinalgPass());
  // Only acts on the ops onnx-tosa-select-tensor-core-ops marked: chooses
  // their kernels, then builds them.
  pm.addNestedPass<func::FuncOp>(createKernelConfigPass(
      options.gemmTiling, options.gemmStages, options.gemmPrefetch,
      options.gemmAsyncCopies, options.warpgroupMma, options.spirvGemmTilings,
      options.fusedAttention));
  pm.addNestedPass<func::FuncOp>(createTensorCoreKernelsPass());
  pm.addNestedPass<func::FuncOp>(
      createRowKernelsPass(options.subgroupReduce, options.subgroupSize));
  pm.addNestedPass<func::FuncOp>(createReductionsInnermostPass());
  // Views (subview, collapse/expand_shape) fold into the loads and stores of
  // the loops, so kernels only ever see whole buffers.
  addPassPipeline(pm, "func.func(convert-linalg-to-parallel-loops),"
                      "fold-memref-alias-ops,canonicalize,cse,"
                      // A fill and the reduction that accumulates into it,
                      // elementwise ops over the same shape one after the
                      // other: one kernel each pair.
                      "func.func(scf-parallel-loop-fusion)");
  pm.addNestedPass<func::FuncOp>(
      createSplitWideLoopsPass(options.maxKernelBuffers));
  pm.addNestedPass<func::FuncOp>(
      createDistributeLoopsPass(options.blockSize, options.vectorWidth));
  // Parallel loops still nested inside a kernel run serially in its thread.
  addPassPipeline(pm, "func.func(scf-parallel-for-to-nested-fors)");
  pm.addNestedPass<func::FuncOp>(createUnrollSmallLoopsPass());
  addPassPipeline(pm, "gpu-kernel-outlining,canonicalize,cse");
  pm.addPass(std::make_unique<KernelArgsNoAliasPass>());
  pm.addPass(createAlignWorkgroupMemoryPass());
  pm.addPass(std::make_unique<KernelFpContractPass>());
  pm.addPass(std::make_unique<KernelNodesPass>());
}

GpuPipelineOptions resolvePipelineOptions(const TargetInfo &target,
                                          const PipelineChoices &c) {
  GpuPipelineOptions o;
  o.blockSize = c.blockSize;
  o.tensorCores = c.tensorCores && target.wmmaF16;
  o.tf32 = c.tf32;
  o.simtGemm = c.simtGemm;
  o.gemmTiling = c.gemmTiling;
  o.gemmStages = c.gemmStages;
  o.gemmPrefetch = c.gemmPrefetch;
  o.warpgroupMma = c.warpgroupMma && target.warpgroupMma;
  o.fusedAttention = c.fusedAttention;
  o.gemmAsyncCopies = !target.asyncCopy || c.gemmAsyncCopies == "none"
                          ? AsyncCopies::None
                      : c.gemmAsyncCopies == "all" ? AsyncCopies::All
                                                   : AsyncCopies::Matmuls;
  o.spirvGemmTilings = c.vulkanGemmTilings && !target.isCuda();
  o.vectorWidth = c.vectorWidth;
  o.subgroupReduce = c.subgroupReduce;
  o.subgroupSize = target.subgroupSize;
  o.maxKernelBuffers = c.maxKernelBuffers >= 0 ? c.maxKernelBuffers
                       : target.isCuda()       ? 0
                                               : 32;
  return o;
}

namespace {

/// The options of the registered pipelines: the compiler's, by the same
/// names, with the same defaults (PipelineChoices).
struct PipelineCLOptions : PassPipelineOptions<PipelineCLOptions> {
  const PipelineChoices defaults;
  Option<std::string> target{
      *this, "target",
      llvm::cl::desc("A target of the table (docs/targets.md); the module's "
                     "own attribute is kept where it names the same one"),
      llvm::cl::init(kDefaultTarget.str())};
  Option<unsigned> blockSize{*this, "block-size",
                             llvm::cl::desc("Threads per block / workgroup"),
                             llvm::cl::init(defaults.blockSize)};
  Option<bool> tensorCores{*this, "tensor-cores",
                           llvm::cl::desc("f16 GEMMs on tensor cores (CUDA)"),
                           llvm::cl::init(defaults.tensorCores)};
  Option<bool> tf32{*this, "tf32",
                    llvm::cl::desc("f32 GEMMs on tensor cores in tf32"),
                    llvm::cl::init(defaults.tf32)};
  Option<bool> simtGemm{*this, "simt-gemm",
                        llvm::cl::desc("f32 GEMMs as tiled kernels on CUDA "
                                       "(shader) cores"),
                        llvm::cl::init(defaults.simtGemm)};
  Option<unsigned> vectorWidth{
      *this, "vector-width",
      llvm::cl::desc("Consecutive elements per thread of elementwise kernels"),
      llvm::cl::init(defaults.vectorWidth)};
  Option<bool> subgroupReduce{
      *this, "subgroup-reduce",
      llvm::cl::desc("Row reductions combine in subgroups first"),
      llvm::cl::init(defaults.subgroupReduce)};
  Option<int> maxKernelBuffers{
      *this, "max-kernel-buffers",
      llvm::cl::desc("Buffers one kernel may bind (-1: the target's; 0: no "
                     "limit)"),
      llvm::cl::init(defaults.maxKernelBuffers)};
  Option<std::string> gemmTiling{*this, "gemm-tiling",
                                 llvm::cl::desc("Forced GEMM tiling"),
                                 llvm::cl::init(defaults.gemmTiling)};
  Option<unsigned> gemmStages{*this, "gemm-stages",
                              llvm::cl::desc("Copies of the GEMM tiles"),
                              llvm::cl::init(defaults.gemmStages)};
  Option<unsigned> gemmPrefetch{*this, "gemm-prefetch",
                                llvm::cl::desc("K steps loaded ahead"),
                                llvm::cl::init(defaults.gemmPrefetch)};
  Option<std::string> gemmAsyncCopies{
      *this, "gemm-async-copies",
      llvm::cl::desc("auto, none, matmuls or all"),
      llvm::cl::init(defaults.gemmAsyncCopies)};
  Option<bool> warpgroupMma{*this, "warpgroup-mma",
                            llvm::cl::desc("Warpgroup MMA on sm_90a"),
                            llvm::cl::init(defaults.warpgroupMma)};
  Option<bool> fusedAttention{*this, "fused-attention",
                              llvm::cl::desc("Attention as one kernel"),
                              llvm::cl::init(defaults.fusedAttention)};
  Option<bool> vulkanGemmTilings{
      *this, "vulkan-gemm-tilings",
      llvm::cl::desc("Vulkan's own GEMM tilings"),
      llvm::cl::init(defaults.vulkanGemmTilings)};

  GpuPipelineOptions resolve() const {
    std::string error;
    std::optional<TargetInfo> t = lookupTarget(target, error);
    // An unknown target: onnx-tosa-attach-target, first in the pipeline,
    // reports it.
    if (!t)
      t = lookupTarget(kDefaultTarget, error);
    PipelineChoices c;
    c.blockSize = blockSize;
    c.tensorCores = tensorCores;
    c.tf32 = tf32;
    c.simtGemm = simtGemm;
    c.vectorWidth = vectorWidth;
    c.subgroupReduce = subgroupReduce;
    c.maxKernelBuffers = maxKernelBuffers;
    c.gemmTiling = gemmTiling;
    c.gemmStages = gemmStages;
    c.gemmPrefetch = gemmPrefetch;
    c.gemmAsyncCopies = gemmAsyncCopies;
    c.warpgroupMma = warpgroupMma;
    c.fusedAttention = fusedAttention;
    c.vulkanGemmTilings = vulkanGemmTilings;
    return resolvePipelineOptions(*t, c);
  }
};

} // namespace

void registerTosaToGpuPasses() {
  PassRegistration<CopyToLinalgPass>();
  registerPass([] { return createCheckErrorIfPass(); });
  registerPass(createSplitLargeConstantsPass);
  registerPass([] { return createDistributeLoopsPass(256); });
  registerPass(createUpstreamWorkaroundsPass);
  registerPass(createFoldBoolTransposesPass);
  registerPass(createSinkReshapesPass);
  registerPass(createPadConvChannelsPass);
  registerPass(createSplitReductionsPass);
  registerPass(createReductionsInnermostPass);
  registerPass([] { return createFuseElementwisePass(); });
  registerPass([] { return createSplitWideLoopsPass(); });
  registerPass(createCoarsenContractionsPass);
  registerPass(createUnrollSmallLoopsPass);
  registerPass([] { return createSelectTensorCoreOpsPass(); });
  registerPass([] { return createKernelConfigPass(); });
  registerPass([] { return createTensorCoreKernelsPass(); });
  registerPass([] { return createRowKernelsPass(); });
  registerPass(createAlignWorkgroupMemoryPass);
  registerPass([] { return createLowerPrecisionPass("fp16"); });
  PassRegistration<KernelArgsNoAliasPass>();
  PassRegistration<PrivateInitsPass>();
  PassRegistration<KernelFpContractPass>();
  PassRegistration<KernelNodesPass>();
  // The pipelines with the compiler's options and defaults: a stage that
  // onnx-tosa-compile --emit printed, resumed with the same target and
  // options, goes on as the compiler would (test/lit/targets/resume.mlir).
  PassPipelineRegistration<PipelineCLOptions>(
      "onnx-tosa-tosa-to-linalg", "TOSA to fused linalg on tensors",
      [](OpPassManager &pm, const PipelineCLOptions &o) {
        pm.addPass(createAttachTargetPass(o.target));
        buildTosaToLinalgPipeline(pm, o.resolve());
      });
  PassPipelineRegistration<PipelineCLOptions>(
      "onnx-tosa-linalg-to-gpu",
      "linalg on tensors to outlined gpu kernels and a host function",
      [](OpPassManager &pm, const PipelineCLOptions &o) {
        pm.addPass(createAttachTargetPass(o.target));
        buildLinalgToGpuPipeline(pm, o.resolve());
      });
  PassPipelineRegistration<PipelineCLOptions>(
      "onnx-tosa-tosa-to-gpu", "TOSA to outlined gpu kernels",
      [](OpPassManager &pm, const PipelineCLOptions &o) {
        pm.addPass(createAttachTargetPass(o.target));
        GpuPipelineOptions options = o.resolve();
        buildTosaToLinalgPipeline(pm, options);
        buildLinalgToGpuPipeline(pm, options);
      });
}

} // namespace onnx_tosa
