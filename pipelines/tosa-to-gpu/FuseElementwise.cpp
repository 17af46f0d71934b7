//===- FuseElementwise.cpp - Producer fusion without recomputation --------===//
//
// `onnx-tosa-fuse-elementwise` fuses elementwise producers into their
// consumers on linalg on tensors, as upstream's linalg-fuse-elementwise-ops
// does (reshapes propagated by expansion, constants folded), with one rule
// more: a producer is not fused into a consumer whose iteration space is
// larger than the producer's result, since every element would then be
// computed once per iteration of the loops its result does not depend on.
// Softmax's division by the row sum fused into the matmul that follows it
// would be computed once per output column (64 times in BERT-base), and the
// matmul would no longer be a plain contraction that the tensor-core kernel
// can take.
//
// With `reshapes=false` only the elementwise fusion runs: after
// onnx-tosa-select-tensor-core-ops, so that the bias it moves out of a
// contraction's accumulator joins the elementwise op that follows.
//
//===----------------------------------------------------------------------===//
#include "TosaToGpu.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Interfaces/CastInterfaces.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

namespace onnx_tosa {
namespace {

/// Whether `op` only broadcasts smaller tensors, converting them at most:
/// each input has fewer elements than the result, and the body is casts.
/// Computing it again in each of its users costs a load of a small tensor
/// where materializing it costs writing the whole result and reading it in
/// every user. (ResNet-50 with untrained batch norms: every convolution's
/// folded bias is zero, the biases of a width one constant, and its
/// broadcast to the accumulator's shape, 100 MB of f32 at batch 32, was
/// written once and read by each convolution's epilogue.)
bool isBroadcast(Operation *op) {
  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic || generic.getNumDpsInits() != 1 ||
      generic.getNumReductionLoops() != 0 ||
      !generic.getMatchingBlockArgument(generic.getDpsInitOperand(0))
           .use_empty())
    return false;
  auto result = dyn_cast<RankedTensorType>(generic->getResult(0).getType());
  if (!result || !result.hasStaticShape())
    return false;
  for (OpOperand *in : generic.getDpsInputOperands()) {
    auto type = dyn_cast<RankedTensorType>(in->get().getType());
    if (type && (!type.hasStaticShape() ||
                 type.getNumElements() >= result.getNumElements()))
      return false;
  }
  return llvm::all_of(generic.getBody()->without_terminator(),
                      [](Operation &x) { return isa<CastOpInterface>(x); });
}

/// Whether `op` reads a contraction's (matmul's, convolution's) result
/// other than through `except`.
bool readsContraction(Operation *op, OpOperand *except = nullptr) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp)
    return false;
  return llvm::any_of(linalgOp.getDpsInputOperands(), [&](OpOperand *in) {
    auto producer = in->get().getDefiningOp<linalg::LinalgOp>();
    return in != except && producer &&
           (linalg::isaContractionOpInterface(producer) ||
            linalg::isaConvolutionOpInterface(producer));
  });
}

/// Fuse the producer of `operand` into its user when the producer has no
/// other user (or is a broadcast) and the user reads each of its elements in
/// one iteration only (the operand's indexing map is a permutation of all
/// the user's loops). An op that reads a contraction's result is the start
/// of that contraction's epilogue (the tensor-core kernels take it in): it
/// is not fused into a user that already reads another contraction's, or
/// that contraction would store its f32 accumulators and the epilogue of
/// the other would read them. (ResNet-50's residual blocks with a
/// projection: the projection's f16 conversion went into the sum with the
/// main path, which then read the projection's 100 MB of f32 at batch 32.)
///
/// With `maxOperands`, neither when the fused op would have more operands
/// (buffers its kernel binds) than that.
bool fuseWithoutRecompute(OpOperand *operand, unsigned maxOperands) {
  Operation *producer = operand->get().getDefiningOp();
  if (!producer || !(producer->hasOneUse() || isBroadcast(producer)))
    return false;
  if (maxOperands) {
    llvm::SmallSetVector<Value, 8> operands;
    for (OpOperand &o : operand->getOwner()->getOpOperands())
      if (&o != operand)
        operands.insert(o.get());
    for (Value v : producer->getOperands())
      operands.insert(v);
    if (operands.size() > maxOperands)
      return false;
  }
  if (readsContraction(producer) &&
      readsContraction(operand->getOwner(), operand))
    return false;
  auto consumer = dyn_cast<linalg::LinalgOp>(operand->getOwner());
  if (!consumer || consumer.getNumReductionLoops() == 0)
    return true;
  return consumer.getMatchingIndexingMap(operand).isPermutation();
}

struct FuseElementwisePass
    : PassWrapper<FuseElementwisePass, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(FuseElementwisePass)
  FuseElementwisePass() = default;
  FuseElementwisePass(const FuseElementwisePass &other) : PassWrapper(other) {}
  FuseElementwisePass(bool reshapes, unsigned maxOperands) {
    this->reshapes = reshapes;
    this->maxOperands = maxOperands;
  }
  Option<bool> reshapes{
      *this, "reshapes",
      llvm::cl::desc("Also propagate reshapes by expansion and fold "
                     "constants"),
      llvm::cl::init(true)};
  Option<unsigned> maxOperands{
      *this, "max-operands",
      llvm::cl::desc("Do not fuse into ops of more operands than this (the "
                     "buffers a kernel may bind); 0: any number"),
      llvm::cl::init(0)};
  StringRef getArgument() const override {
    return "onnx-tosa-fuse-elementwise";
  }
  StringRef getDescription() const override {
    return "Fuse elementwise producers into consumers that compute each "
           "element once";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<affine::AffineDialect, linalg::LinalgDialect,
                    tensor::TensorDialect>();
  }
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    RewritePatternSet patterns(ctx);
    unsigned cap = maxOperands;
    linalg::ControlFusionFn control = [cap](OpOperand *operand) {
      return fuseWithoutRecompute(operand, cap);
    };
    linalg::populateElementwiseOpsFusionPatterns(patterns, control);
    if (reshapes) {
      linalg::populateFoldReshapeOpsByExpansionPatterns(patterns, control);
      tensor::populateBubbleUpExpandShapePatterns(patterns);
      affine::AffineApplyOp::getCanonicalizationPatterns(patterns, ctx);
      tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, ctx);
      tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, ctx);
      linalg::populateConstantFoldLinalgOperations(patterns, control);
      // A padded result (the input of the next convolution) is written
      // straight into the interior of the padded tensor, which saves
      // copying it there.
      linalg::populateFuseTensorPadWithProducerLinalgOpPatterns(patterns);
    }
    linalg::GenericOp::getCanonicalizationPatterns(patterns, ctx);
    ctx->getLoadedDialect<linalg::LinalgDialect>()->getCanonicalizationPatterns(
        patterns);
    if (failed(applyPatternsGreedily(
            getOperation(), std::move(patterns),
            GreedyRewriteConfig().setUseTopDownTraversal(true))))
      signalPassFailure();
  }
};

} // namespace

std::unique_ptr<Pass> createFuseElementwisePass(bool reshapes,
                                                unsigned maxOperands) {
  return std::make_unique<FuseElementwisePass>(reshapes, maxOperands);
}

} // namespace onnx_tosa
