//===- SinkReshapes.cpp - Elementwise ops move above reshapes -------------===//
//
// `onnx-tosa-sink-reshapes` (TOSA) moves each RESHAPE below the elementwise
// ops that read it: op(reshape(x), c) becomes reshape(op(x, c')), so that
// the op works in x's shape, right after x's producer. ONNX's MatMul of a
// [batch, rows, K] activation by a [K, N] weight is a TOSA MATMUL of
// [1, batch * rows, K], reshaped back to [batch, rows, N]: the bias, GELU
// and the other elementwise ops after it were on the other side of that
// reshape, so linalg's fusion never brought them into the matmul's kernel
// (the GEMM epilogue). In BERT-base each layer had two such kernels more:
// the QKV bias, and the FFN's bias + GELU, which read and wrote the whole
// [batch * 128, 3072] activation once more.
//
// An op is moved when every operand it reads elementwise is one of
//   - a RESHAPE of a tensor of x's shape (another value in x's shape);
//   - a tensor that broadcasts over the dimensions the reshape changes:
//     its size is 1 in each of them, and the dimensions the reshape keeps
//     (its trailing ones, equal in both shapes) it may have whole — a bias
//     along the last dimension, a scalar. It is reshaped to x's rank (a
//     constant folds; anything else becomes a view of the same buffer).
// Two reshapes in a row fold into one, so a chain of elementwise ops
// between two matmuls ends with the reshapes gone.
//
//===----------------------------------------------------------------------===//
#include "TosaToGpu.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

namespace onnx_tosa {
namespace {

/// The operands of an elementwise op that it reads element by element (not
/// MUL's shift, nor NEGATE's zero points); empty if `op` is not one.
SmallVector<OpOperand *> elementwiseOperands(Operation *op) {
  if (op->getNumResults() != 1 ||
      !(op->hasTrait<OpTrait::tosa::TosaElementwiseOperator>() ||
        isa<tosa::CastOp, tosa::MulOp, tosa::NegateOp>(op)))
    return {};
  unsigned count = op->getNumOperands();
  if (isa<tosa::MulOp>(op))
    count = 2;
  else if (isa<tosa::NegateOp>(op))
    count = 1;
  SmallVector<OpOperand *> operands;
  for (unsigned i = 0; i < count; ++i)
    operands.push_back(&op->getOpOperand(i));
  return operands;
}

RankedTensorType staticType(Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  return type && type.hasStaticShape() ? type : RankedTensorType();
}

struct SinkReshape : RewritePattern {
  SinkReshape(MLIRContext *ctx)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    SmallVector<OpOperand *> operands = elementwiseOperands(op);
    if (operands.empty())
      return failure();
    RankedTensorType result = staticType(op->getResult(0));
    if (!result)
      return failure();
    // The first operand that is a reshape of the result's whole shape.
    RankedTensorType source;
    for (OpOperand *operand : operands)
      if (auto reshape = operand->get().getDefiningOp<tosa::ReshapeOp>())
        if (RankedTensorType in = staticType(reshape.getInput1()),
            out = staticType(reshape.getResult());
            in && out && out.getShape() == result.getShape()) {
          source = in;
          break;
        }
    if (!source || source.getShape() == result.getShape())
      return rewriter.notifyMatchFailure(op, "no reshape operand");
    ArrayRef<int64_t> from = source.getShape(), to = result.getShape();
    // Trailing dimensions both shapes have alike.
    size_t kept = 0;
    while (kept < from.size() && kept < to.size() &&
           from[from.size() - 1 - kept] == to[to.size() - 1 - kept])
      ++kept;

    // Each operand's value in x's shape: a reshape's source, or (null) the
    // operand reshaped, which is created only once every operand passed.
    SmallVector<Value> moved;
    SmallVector<SmallVector<int64_t>> shapes;
    for (OpOperand *operand : operands) {
      Value v = operand->get();
      RankedTensorType type = staticType(v);
      if (!type || type.getRank() != result.getRank())
        return rewriter.notifyMatchFailure(op, "unranked operand");
      if (auto reshape = v.getDefiningOp<tosa::ReshapeOp>())
        if (RankedTensorType in = staticType(reshape.getInput1());
            in && in.getShape() == from && type.getShape() == to) {
          moved.push_back(reshape.getInput1());
          shapes.emplace_back();
          continue;
        }
      // A broadcast operand: fewer elements than the result (a reshape of
      // one is never taken back, which a result-sized one could be).
      ArrayRef<int64_t> shape = type.getShape();
      int64_t changed = result.getRank() - int64_t(kept);
      if (type.getNumElements() >= result.getNumElements() ||
          llvm::any_of(shape.take_front(changed),
                       [](int64_t d) { return d != 1; }))
        return rewriter.notifyMatchFailure(
            op, "an operand varies along the dimensions the reshape changes");
      SmallVector<int64_t> newShape(from.size() - kept, 1);
      llvm::append_range(newShape, shape.drop_front(changed));
      moved.push_back(Value());
      shapes.push_back(newShape);
    }
    for (auto [operand, value, shape] : llvm::zip(operands, moved, shapes))
      if (!value) {
        Value v = operand->get();
        value = tosa::ReshapeOp::create(
            rewriter, op->getLoc(),
            cast<RankedTensorType>(v.getType()).clone(shape), v,
            tosa::getTosaConstShape(rewriter, op->getLoc(), shape));
      }

    Operation *clone = rewriter.clone(*op);
    for (auto [operand, value] : llvm::zip(operands, moved))
      clone->setOperand(operand->getOperandNumber(), value);
    clone->getResult(0).setType(result.clone(from));
    rewriter.replaceOpWithNewOp<tosa::ReshapeOp>(
        op, result, clone->getResult(0),
        tosa::getTosaConstShape(rewriter, op->getLoc(), to));
    return success();
  }
};

struct SinkReshapesPass
    : PassWrapper<SinkReshapesPass, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(SinkReshapesPass)
  StringRef getArgument() const override { return "onnx-tosa-sink-reshapes"; }
  StringRef getDescription() const override {
    return "Move reshapes below the elementwise ops that read them, so that "
           "those ops fuse with what came before the reshape";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<tosa::TosaDialect>();
  }
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    RewritePatternSet patterns(ctx);
    patterns.add<SinkReshape>(ctx);
    tosa::ReshapeOp::getCanonicalizationPatterns(patterns, ctx);
    // As with canonicalize, rewrites that have not settled after the
    // driver's iterations are not an error: the IR is valid at every step.
    // A reshape moves at most once past each op (and its operands' reshapes
    // are created once): the bound only guards against a rewrite that
    // undoes another.
    int64_t ops = 0;
    getOperation()->walk([&](Operation *) { ++ops; });
    (void)applyPatternsGreedily(
        getOperation(), std::move(patterns),
        GreedyRewriteConfig().setMaxNumRewrites(8 * ops + 64));
  }
};

} // namespace

std::unique_ptr<Pass> createSinkReshapesPass() {
  return std::make_unique<SinkReshapesPass>();
}

} // namespace onnx_tosa
