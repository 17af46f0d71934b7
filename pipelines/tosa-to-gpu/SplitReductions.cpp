//===- SplitReductions.cpp - More threads for narrow reductions -----------===//
//
// `onnx-tosa-split-reductions` runs on fused linalg on tensors. Loops are
// distributed one thread per parallel iteration, each thread running its
// reduction serially; a reduction over few rows (LayerNorm, Softmax, the
// mean of a small batch: 128 rows of 768 in BERT-base at batch 1) then keeps
// only a handful of warps busy, each waiting on one load after another.
// Such a reduction is split in two: the reduction dimension K becomes
// [K / r, r] with the r dimension parallel, so r times as many threads each
// reduce K / r elements (neighbouring threads reading neighbouring
// elements), and a second op combines the r partial results per row. A K
// that no ratio divides is padded with the combiner's neutral element where
// the reduction is only that combiner (a REDUCE_SUM over rows of 4097):
// besides the threads, the sums are more accurate (a thread summing 4097
// floats in order lost 13x onnxruntime's accuracy).
//
// `onnx-tosa-reductions-innermost` runs on linalg on buffers, after the row
// kernels took the reductions along rows: a reduction over a dimension that
// is not the last (a mean over H of an NHWC image, over the sequence of a
// [batch, sequence, hidden] tensor) had only the parallel loops before its
// reduction loop spread over threads, the ones after it run inside each
// thread (32 threads for ResNet-50 b32's global pool reduced that way).
// Its parallel loops go first, reductions last: a thread per output
// element, neighbouring threads on neighbouring elements of the last
// dimension, each summing its column in the same order as before.
// Coarsened contractions (kCoarsenedAttr) keep their outputs loop last.
//
//===----------------------------------------------------------------------===//
#include "TosaToGpu.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace onnx_tosa {
namespace {

/// `generic` with its parallel loops first and its reduction loops last,
/// each in their order.
void parallelLoopsFirst(RewriterBase &rewriter, linalg::GenericOp generic) {
  SmallVector<unsigned> order;
  for (auto kind :
       {utils::IteratorType::parallel, utils::IteratorType::reduction})
    for (auto [i, k] : llvm::enumerate(generic.getIteratorTypesArray()))
      if (k == kind)
        order.push_back(i);
  rewriter.setInsertionPoint(generic);
  (void)linalg::interchangeGenericOp(rewriter, generic, order);
}

/// A reduction is split when it has fewer parallel iterations than this
/// (about 64 warps' worth of threads per H200 SM would be 8448 x 132; a few
/// thousand threads leave most SMs idle)...
constexpr int64_t kFewThreads = 16384;
/// ... and at least this many elements per row.
constexpr int64_t kLongRow = 64;
/// The largest split: threads per row, and the least each thread keeps.
constexpr int64_t kMaxRatio = 64;
constexpr int64_t kMinPerThread = 4;

/// A reduction that reduces its one input with one combiner of a neutral
/// element (TOSA's REDUCE_SUM, _MAX, ... as linalg.reduce, or as a generic
/// once reshapes were propagated through it): padding the input with that
/// element changes nothing, so its length need not divide. Returns the
/// combiner and the input's dimension that is reduced.
std::optional<std::pair<Operation *, unsigned>>
paddableCombiner(linalg::LinalgOp op) {
  if (op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1 ||
      op.getNumReductionLoops() != 1)
    return std::nullopt;
  Block *body = op.getBlock();
  if (body->getOperations().size() != 2)
    return std::nullopt;
  Operation *combiner = &body->front();
  Value in = body->getArgument(0), acc = body->getArgument(1);
  if (combiner->getNumOperands() != 2 || combiner->getNumResults() != 1 ||
      !llvm::is_contained(combiner->getOperands(), in) ||
      !llvm::is_contained(combiner->getOperands(), acc) ||
      body->getTerminator()->getOperand(0) != combiner->getResult(0) ||
      !arith::getNeutralElement(combiner))
    return std::nullopt;
  unsigned loop = 0;
  for (auto [i, kind] : llvm::enumerate(op.getIteratorTypesArray()))
    if (kind == utils::IteratorType::reduction)
      loop = i;
  AffineMap map = op.getMatchingIndexingMap(op.getDpsInputOperand(0));
  if (!map.isProjectedPermutation())
    return std::nullopt;
  for (auto [d, expr] : llvm::enumerate(map.getResults()))
    if (auto dim = dyn_cast<AffineDimExpr>(expr);
        dim && dim.getPosition() == loop)
      return std::make_pair(combiner, static_cast<unsigned>(d));
  return std::nullopt;
}

/// The split ratio for `op` and how many neutral elements to pad its
/// reduced dimension with first; a ratio of 0 leaves it alone.
std::pair<int64_t, int64_t> chooseSplit(linalg::LinalgOp op) {
  if (op.getNumReductionLoops() != 1 || op.getNumDpsInits() != 1 ||
      op.hasDynamicShape())
    return {0, 0};
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t parallel = 1, reduction = 0;
  for (auto [range, kind] : llvm::zip(ranges, op.getIteratorTypesArray())) {
    if (kind == utils::IteratorType::reduction)
      reduction = range;
    else
      parallel *= range;
  }
  if (parallel >= kFewThreads || reduction < kLongRow)
    return {0, 0};
  for (int64_t r = kMaxRatio; r >= 2; r /= 2)
    if (reduction % r == 0 && reduction / r >= kMinPerThread &&
        parallel * r <= 8 * kFewThreads)
      return {r, 0};
  // A length no ratio divides (a row of 4097): padded to the next multiple
  // of the ratio where that is exact. One thread summed the whole row
  // before, in order, with an error growing with its length; now each of r
  // threads sums K / r elements and the second reduction their r sums.
  if (paddableCombiner(op))
    for (int64_t r = kMaxRatio; r >= 2; r /= 2) {
      int64_t padded = (reduction + r - 1) / r * r;
      if (padded / r >= kMinPerThread && parallel * r <= 8 * kFewThreads)
        return {r, padded - reduction};
    }
  return {0, 0};
}

/// `op` with its input padded by `extra` neutral elements along the
/// reduced dimension (paddableCombiner).
linalg::LinalgOp padReducedDimension(RewriterBase &rewriter,
                                     linalg::LinalgOp op, int64_t extra) {
  auto [combiner, dim] = *paddableCombiner(op);
  Location loc = op.getLoc();
  OpOperand *operand = op.getDpsInputOperand(0);
  auto type = cast<RankedTensorType>(operand->get().getType());
  SmallVector<int64_t> shape(type.getShape());
  shape[dim] += extra;
  TypedAttr neutral = *arith::getNeutralElement(combiner);
  rewriter.setInsertionPoint(op);
  Value value = arith::ConstantOp::create(rewriter, loc, neutral);
  Value padded = tensor::createPadHighOp(type.clone(shape), operand->get(),
                                         value, /*nofold=*/false, loc,
                                         rewriter);
  rewriter.modifyOpInPlace(op, [&] { operand->set(padded); });
  return op;
}

struct SplitReductionsPass
    : PassWrapper<SplitReductionsPass, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(SplitReductionsPass)
  StringRef getArgument() const override {
    return "onnx-tosa-split-reductions";
  }
  StringRef getDescription() const override {
    return "Split reductions over few long rows into two reductions with "
           "more parallel iterations";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<linalg::LinalgDialect, tensor::TensorDialect>();
  }

  void runOnOperation() override {
    SmallVector<std::tuple<linalg::LinalgOp, int64_t, int64_t>> work;
    getOperation().walk([&](linalg::LinalgOp op) {
      // Tiled GEMM kernels keep their contraction whole, and row kernels
      // their reductions.
      if (!op.hasPureTensorSemantics() || isMarkedForTiledGemm(op) ||
          isRowReduction(op))
        return;
      if (auto [r, extra] = chooseSplit(op); r)
        work.push_back({op, r, extra});
    });
    IRRewriter rewriter(&getContext());
    for (auto [linalgOp, splitRatio, extra] : work) {
      linalg::LinalgOp op = linalgOp;
      int64_t ratio = splitRatio;
      if (extra)
        op = padReducedDimension(rewriter, op, extra);
      rewriter.setInsertionPoint(op);
      // Named reductions (linalg.reduce) are split in their generic form.
      linalg::LinalgOp target = op;
      if (!isa<linalg::GenericOp>(op.getOperation())) {
        FailureOr<linalg::GenericOp> generic =
            linalg::generalizeNamedOp(rewriter, op);
        if (failed(generic))
          continue;
        target = *generic;
      }
      unsigned outRank =
          cast<ShapedType>(target.getDpsInits()[0].getType()).getRank();
      auto control = [&](linalg::LinalgOp) {
        linalg::SplitReductionOptions options;
        options.ratio = ratio;
        // The new parallel dimension is the innermost one of the partial
        // results, and the inner one of [K / r, r]: consecutive threads
        // read consecutive elements.
        options.index = outRank;
        options.innerParallel = true;
        return options;
      };
      // The partial results start at the combiner's neutral element
      // (arith::getNeutralElement: -inf for maximumf, NaN for maxnumf, as
      // REDUCE_MAX with nan_mode = IGNORE has). A reduction whose combiner
      // has none (argmax, ...) makes splitReduction fail before it creates
      // anything: it stays one reduction (generic, which computes the same);
      // that is not an error.
      FailureOr<linalg::SplitReductionResult> split =
          linalg::splitReduction(rewriter, target, control);
      if (failed(split))
        continue;
      // The split op iterates [..., K / r (reduction), r (parallel)]: put
      // the parallel loops first, so that all of them are distributed over
      // threads and only the K / r loop runs inside each.
      auto generic = dyn_cast<linalg::GenericOp>(
          split->splitLinalgOp.getOperation());
      if (!generic)
        continue;
      parallelLoopsFirst(rewriter, generic);
    }
  }
};

struct ReductionsInnermostPass
    : PassWrapper<ReductionsInnermostPass, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ReductionsInnermostPass)
  StringRef getArgument() const override {
    return "onnx-tosa-reductions-innermost";
  }
  StringRef getDescription() const override {
    return "Put the parallel loops of a reduction over a dimension that is "
           "not the last before its reduction loops";
  }
  void runOnOperation() override {
    // Generic ops, and linalg.reduce (TOSA's REDUCE_*), made generic.
    SmallVector<linalg::LinalgOp> ops;
    getOperation().walk([&](linalg::LinalgOp op) {
      SmallVector<utils::IteratorType> kinds = op.getIteratorTypesArray();
      auto firstReduction = llvm::find(kinds, utils::IteratorType::reduction);
      if (isa<linalg::GenericOp, linalg::ReduceOp>(op) &&
          !op->hasAttr(kCoarsenedAttr) && !isMarkedForTiledGemm(op) &&
          std::find(firstReduction, kinds.end(),
                    utils::IteratorType::parallel) != kinds.end())
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : ops) {
      auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
      if (!generic) {
        rewriter.setInsertionPoint(op);
        FailureOr<linalg::GenericOp> made =
            linalg::generalizeNamedOp(rewriter, op);
        if (failed(made))
          continue;
        generic = *made;
      }
      parallelLoopsFirst(rewriter, generic);
    }
  }
};

} // namespace

std::unique_ptr<Pass> createReductionsInnermostPass() {
  return std::make_unique<ReductionsInnermostPass>();
}

std::unique_ptr<Pass> createSplitReductionsPass() {
  return std::make_unique<SplitReductionsPass>();
}

} // namespace onnx_tosa
