//===- CoarsenContractions.cpp - Several outputs per thread ---------------===//
//
// `onnx-tosa-coarsen-contractions` runs on linalg on tensors. Loops are
// distributed one thread per parallel iteration, neighbouring threads on the
// innermost output dimension (output channels of a convolution, columns of
// a matmul), so that they read neighbouring filter / right-hand-side
// elements. Each thread then loads one filter element per multiply-add. Here
// each thread computes T outputs along another dimension instead (T output
// pixels of a row, T rows of a matmul): the filter element is loaded once
// for T multiply-adds, while the T input elements are the same for the whole
// warp (one broadcast load each).
//
// The named op becomes a linalg.generic whose last loop is the T outputs,
// after the reduction loops, over the output expanded to [..., D / T, T,
// ...]. Lowered to loops, that innermost loop is fully unrolled
// (onnx-tosa-unroll-small-loops), leaving T accumulators in registers.
//
//===----------------------------------------------------------------------===//
#include "TosaToGpu.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace onnx_tosa {
namespace {

/// Outputs per thread along a dimension of `size`: a divisor, so that no
/// thread needs a bounds check; 1 when coarsening does not pay.
int64_t coarsening(int64_t size) {
  for (int64_t t : {8, 4, 2})
    if (size % t == 0)
      return t;
  if (size > 1 && size <= 8)
    return size; // e.g. the 7x7 maps at the end of ResNet-50
  return 1;
}

/// Whether `op`'s body is the floating-point multiply-accumulate
/// `out + f(in0) * f(in1)`, f the identity or a widening (f16/bf16 inputs
/// accumulated in f32, as --precision=fp16 gives).
bool isFloatMac(linalg::LinalgOp op) {
  if (!isa<FloatType>(getElementTypeOrSelf(op.getDpsInits()[0].getType())))
    return false;
  Block &body = op->getRegion(0).front();
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  auto add = yield.getValues().size() == 1
                 ? yield.getValues()[0].getDefiningOp<arith::AddFOp>()
                 : arith::AddFOp();
  if (!add)
    return false;
  Value acc = body.getArgument(2);
  Value product = add.getLhs() == acc ? add.getRhs() : add.getLhs();
  auto mul = product.getDefiningOp<arith::MulFOp>();
  if (!mul || (add.getLhs() != acc && add.getRhs() != acc))
    return false;
  auto operandOf = [](Value v) {
    if (auto ext = v.getDefiningOp<arith::ExtFOp>())
      return ext.getIn();
    return v;
  };
  return operandOf(mul.getLhs()) == body.getArgument(0) &&
         operandOf(mul.getRhs()) == body.getArgument(1);
}

/// The same computation as `op` (its body is kept) over `inputs` into
/// `init` (already expanded); collapses the result back and replaces `op`.
void replaceWithGeneric(RewriterBase &rewriter, linalg::LinalgOp op,
                        ValueRange inputs, Value init,
                        ArrayRef<AffineMap> maps,
                        ArrayRef<utils::IteratorType> iterators,
                        ArrayRef<ReassociationIndices> reassociation) {
  auto generic = linalg::GenericOp::create(rewriter, op.getLoc(),
                                           TypeRange{init.getType()}, inputs,
                                           ValueRange{init}, maps, iterators);
  rewriter.cloneRegionBefore(op->getRegion(0), generic.getRegion(),
                             generic.getRegion().end());
  generic->setAttr(kCoarsenedAttr, rewriter.getUnitAttr());
  rewriter.replaceOpWithNewOp<tensor::CollapseShapeOp>(
      op, op->getResult(0).getType(), generic.getResult(0), reassociation);
}

/// conv_2d_nhwc_hwcf: each thread computes T neighbouring output columns.
LogicalResult coarsenConv(RewriterBase &rewriter,
                          linalg::Conv2DNhwcHwcfOp op) {
  auto outType = cast<RankedTensorType>(op.getDpsInits()[0].getType());
  if (!op.hasPureTensorSemantics() || !outType.hasStaticShape() ||
      !isFloatMac(op))
    return failure();
  int64_t t = coarsening(outType.getDimSize(2));
  if (t == 1)
    return failure();
  SmallVector<int64_t> strides(op.getStrides().getValues<int64_t>());
  SmallVector<int64_t> dilations(op.getDilations().getValues<int64_t>());
  rewriter.setInsertionPoint(op);
  Location loc = op.getLoc();
  // [N, H, W, F] -> [N, H, W / T, T, F]
  SmallVector<ReassociationIndices> reassociation = {{0}, {1}, {2, 3}, {4}};
  auto expandedType = RankedTensorType::get(
      {outType.getDimSize(0), outType.getDimSize(1), outType.getDimSize(2) / t,
       t, outType.getDimSize(3)},
      outType.getElementType());
  Value init = tensor::ExpandShapeOp::create(
      rewriter, loc, expandedType, op.getDpsInits()[0], reassociation);
  // Loops (n, h, wq, f, kh, kw, c, wr) with w = wq * T + wr.
  MLIRContext *ctx = rewriter.getContext();
  AffineExpr n, h, wq, f, kh, kw, c, wr;
  bindDims(ctx, n, h, wq, f, kh, kw, c, wr);
  AffineExpr w = wq * t + wr;
  SmallVector<AffineMap> maps = {
      AffineMap::get(8, 0,
                     {n, h * strides[0] + kh * dilations[0],
                      w * strides[1] + kw * dilations[1], c},
                     ctx),
      AffineMap::get(8, 0, {kh, kw, c, f}, ctx),
      AffineMap::get(8, 0, {n, h, wq, wr, f}, ctx)};
  using utils::IteratorType;
  SmallVector<IteratorType> iterators = {
      IteratorType::parallel,  IteratorType::parallel,
      IteratorType::parallel,  IteratorType::parallel,
      IteratorType::reduction, IteratorType::reduction,
      IteratorType::reduction, IteratorType::parallel};
  replaceWithGeneric(rewriter, op, op.getDpsInputs(), init, maps, iterators,
                     reassociation);
  return success();
}

/// batch_matmul [B, M, K] x [B, K, N]: each thread computes T rows of one
/// column.
LogicalResult coarsenMatmul(RewriterBase &rewriter,
                            linalg::BatchMatmulOp op) {
  auto outType = cast<RankedTensorType>(op.getDpsInits()[0].getType());
  if (!op.hasPureTensorSemantics() || !outType.hasStaticShape() ||
      !isFloatMac(op) ||
      op.getIndexingMapsArray() !=
          linalg::BatchMatmulOp::getDefaultIndexingMaps(op.getContext()))
    return failure();
  int64_t t = coarsening(outType.getDimSize(1));
  if (t == 1)
    return failure();
  rewriter.setInsertionPoint(op);
  Location loc = op.getLoc();
  // [B, M, N] -> [B, M / T, T, N]
  SmallVector<ReassociationIndices> reassociation = {{0}, {1, 2}, {3}};
  auto expandedType = RankedTensorType::get(
      {outType.getDimSize(0), outType.getDimSize(1) / t, t,
       outType.getDimSize(2)},
      outType.getElementType());
  Value init = tensor::ExpandShapeOp::create(
      rewriter, loc, expandedType, op.getDpsInits()[0], reassociation);
  // Loops (b, mq, n, k, mr) with m = mq * T + mr.
  MLIRContext *ctx = rewriter.getContext();
  AffineExpr b, mq, n, k, mr;
  bindDims(ctx, b, mq, n, k, mr);
  SmallVector<AffineMap> maps = {
      AffineMap::get(5, 0, {b, mq * t + mr, k}, ctx),
      AffineMap::get(5, 0, {b, k, n}, ctx),
      AffineMap::get(5, 0, {b, mq, mr, n}, ctx)};
  using utils::IteratorType;
  SmallVector<IteratorType> iterators = {
      IteratorType::parallel, IteratorType::parallel, IteratorType::parallel,
      IteratorType::reduction, IteratorType::parallel};
  replaceWithGeneric(rewriter, op, op.getDpsInputs(), init, maps, iterators,
                     reassociation);
  return success();
}

struct CoarsenContractionsPass
    : PassWrapper<CoarsenContractionsPass, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(CoarsenContractionsPass)
  StringRef getArgument() const override {
    return "onnx-tosa-coarsen-contractions";
  }
  StringRef getDescription() const override {
    return "Convolutions and matmuls compute several outputs per thread";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<linalg::LinalgDialect, tensor::TensorDialect,
                    arith::ArithDialect>();
  }
  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) {
      if (isa<linalg::Conv2DNhwcHwcfOp, linalg::BatchMatmulOp>(op) &&
          !isMarkedForTiledGemm(op))
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (Operation *op : ops) {
      if (auto conv = dyn_cast<linalg::Conv2DNhwcHwcfOp>(op))
        (void)coarsenConv(rewriter, conv);
      else if (auto mm = dyn_cast<linalg::BatchMatmulOp>(op))
        (void)coarsenMatmul(rewriter, mm);
    }
  }
};

/// `onnx-tosa-unroll-small-loops`: fully unrolls innermost scf.for loops of
/// at most 8 iterations (the T outputs of a coarsened contraction, a 3-wide
/// filter row), so that LLVM sees straight-line code whose accumulators it
/// can keep in registers.
struct UnrollSmallLoopsPass
    : PassWrapper<UnrollSmallLoopsPass, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(UnrollSmallLoopsPass)
  StringRef getArgument() const override {
    return "onnx-tosa-unroll-small-loops";
  }
  StringRef getDescription() const override {
    return "Fully unroll innermost scf.for loops of at most 8 iterations";
  }
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) {
      // Loops that synchronize the workgroup (the K loop of a tiled GEMM,
      // whose body is already thousands of instructions) stay loops.
      bool innermost = true;
      loop.getBody()->walk([&](Operation *op) {
        if (isa<LoopLikeOpInterface, gpu::BarrierOp>(op))
          innermost = false;
      });
      std::optional<APInt> trips = loop.getStaticTripCount();
      if (innermost && trips && trips->getSExtValue() > 1 &&
          trips->getSExtValue() <= 8)
        loops.push_back(loop);
    });
    for (scf::ForOp loop : loops)
      (void)loopUnrollFull(loop);
  }
};

} // namespace

std::unique_ptr<Pass> createCoarsenContractionsPass() {
  return std::make_unique<CoarsenContractionsPass>();
}

std::unique_ptr<Pass> createUnrollSmallLoopsPass() {
  return std::make_unique<UnrollSmallLoopsPass>();
}

} // namespace onnx_tosa
