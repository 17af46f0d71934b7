//===- Pipeline.cpp - Assembles the TOSA → gpu pipelines ------------------===//
#include "TosaToGpu.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
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

} // namespace

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

void buildTosaToLinalgPipeline(OpPassManager &pm) {
  addPassPipeline(pm,
                  "func.func(tosa-optional-decompositions),canonicalize,"
                  "func.func(tosa-infer-shapes,tosa-make-broadcastable,"
                  // SCATTER has no linalg form: a loop over its rows.
                  "tosa-to-scf,tosa-to-linalg-named,tosa-to-linalg,"
                  // apply_scale (from RESCALE and integer MUL/AVG_POOL2D)
                  // becomes plain integer arithmetic here.
                  "tosa-to-arith{include-apply-rescale=true},"
                  "tosa-to-tensor,"
                  // arith casts on tensors convert int64/float64 graph
                  // inputs and outputs to and from their demoted types.
                  "convert-elementwise-to-linalg),"
                  "canonicalize,linalg-fuse-elementwise-ops,canonicalize,cse");
}

void buildLinalgToGpuPipeline(OpPassManager &pm,
                              const GpuPipelineOptions &options) {
  // Buffers with identity layouts at the function boundary: the runtime
  // passes whole, densely packed buffers.
  addPassPipeline(pm, "one-shot-bufferize{bufferize-function-boundaries "
                      "function-boundary-type-conversion=identity-layout-map},"
                      "canonicalize");
  pm.addPass(createCopyToLinalgPass());
  // Views (subview, collapse/expand_shape) fold into the loads and stores of
  // the loops, so kernels only ever see whole buffers.
  addPassPipeline(pm, "func.func(convert-linalg-to-parallel-loops),"
                      "fold-memref-alias-ops,canonicalize,cse");
  pm.addNestedPass<func::FuncOp>(createDistributeLoopsPass(options.blockSize));
  // Parallel loops still nested inside a kernel run serially in its thread.
  addPassPipeline(pm, "func.func(scf-parallel-for-to-nested-fors),"
                      "gpu-kernel-outlining,canonicalize,cse");
}

void registerTosaToGpuPasses() {
  PassRegistration<CopyToLinalgPass>();
  registerPass([] { return createDistributeLoopsPass(256); });
  PassPipelineRegistration<>("onnx-tosa-tosa-to-linalg",
                             "TOSA to fused linalg on tensors",
                             buildTosaToLinalgPipeline);
  PassPipelineRegistration<>(
      "onnx-tosa-linalg-to-gpu",
      "linalg on tensors to outlined gpu kernels and a host function",
      [](OpPassManager &pm) { buildLinalgToGpuPipeline(pm, {}); });
  PassPipelineRegistration<>("onnx-tosa-tosa-to-gpu",
                             "TOSA to outlined gpu kernels",
                             [](OpPassManager &pm) {
                               buildTosaToLinalgPipeline(pm);
                               buildLinalgToGpuPipeline(pm, {});
                             });
}

} // namespace onnx_tosa
