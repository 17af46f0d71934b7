//===- UpstreamWorkarounds.cpp - TOSA ops upstream lowers wrongly ---------===//
//
// `onnx-tosa-upstream-workarounds` runs right before tosa-to-linalg and takes
// over the TOSA ops whose LLVM 22 tosa-to-linalg lowering gives invalid IR or
// results that the TOSA 1.0 specification does not allow (measured by the
// TOSA conformance suite, docs/tosa-conformance.md). Each pattern either
// rewrites the op into TOSA ops that upstream lowers correctly or lowers it
// to linalg itself, following the specification's pseudocode. Each names the
// upstream bug; drop the pattern once the Debian LLVM carries the fix.
//
//===----------------------------------------------------------------------===//
#include "TosaToGpu.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

namespace onnx_tosa {
namespace {

/// RESCALE to i64 (llvm#224020: upstream yields an i32 from an i64
/// linalg.generic, invalid IR). In the specification's pseudocode the scaled
/// value is an int32_t whatever the output type (apply_scale_32/16 return
/// int32), and output_zp must be 0 for an i64 output, so the result is the
/// i32 RESCALE sign-extended: RESCALE to i32, then CAST i32 -> i64.
struct RescaleToI64 : OpRewritePattern<tosa::RescaleOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tosa::RescaleOp op,
                                PatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (!type || !type.getElementType().isInteger(64))
      return rewriter.notifyMatchFailure(op, "not an i64 result");
    FailureOr<int64_t> outZp = op.getOutputZeroPoint();
    if (failed(outZp) || *outZp != 0 || op.getOutputUnsigned())
      return rewriter.notifyMatchFailure(
          op, "i64 output needs output_zp = 0, signed (an ERROR_IF)");
    Location loc = op.getLoc();
    Type i32 = rewriter.getI32Type();
    std::optional<Value> zp = tosa::createZeroPointTensor(rewriter, loc, i32);
    auto rescale = tosa::RescaleOp::create(
        rewriter, loc, type.clone(i32), op.getInput(), op.getMultiplier(),
        op.getShift(), op.getInputZp(), *zp, op.getScale32Attr(),
        op.getRoundingModeAttr(), op.getPerChannelAttr(),
        op.getInputUnsignedAttr(), rewriter.getBoolAttr(false));
    rewriter.replaceOpWithNewOp<tosa::CastOp>(op, type, rescale);
    return success();
  }
};

/// RESCALE with rounding_mode = INEXACT_ROUND: upstream has no lowering for
/// it ("failed to legalize operation 'tosa.rescale'"). The specification
/// lets an implementation return any value within its error bound around
/// the exact product; the SINGLE_ROUND result is one of them.
struct RescaleInexactAsSingleRound : OpRewritePattern<tosa::RescaleOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tosa::RescaleOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getRoundingMode() != tosa::RoundingMode::INEXACT_ROUND)
      return rewriter.notifyMatchFailure(op, "not INEXACT_ROUND");
    rewriter.modifyOpInPlace(op, [&] {
      op.setRoundingModeAttr(tosa::RoundingModeAttr::get(
          rewriter.getContext(), tosa::RoundingMode::SINGLE_ROUND));
    });
    return success();
  }
};

/// Floating-point MAX_POOL2D. Upstream starts every window at lowest()
/// (-FLT_MAX) and, with nan_mode = IGNORE, skips NaN inputs, so a window of
/// NaNs gives -FLT_MAX and a window of -inf gives -FLT_MAX. The
/// specification's apply_max_s with IGNORE returns the other operand when one
/// is NaN, i.e. NaN only when all of the window is NaN; with PROPAGATE any
/// NaN wins. So: start from NaN (IGNORE, combined with maxnumf, which keeps
/// the non-NaN operand) or -inf (PROPAGATE, maximumf), and pad with that same
/// value, which never wins over an input element.
struct FloatMaxPool2d : OpRewritePattern<tosa::MaxPool2dOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tosa::MaxPool2dOp op,
                                PatternRewriter &rewriter) const override {
    auto inType = dyn_cast<RankedTensorType>(op.getInput().getType());
    auto outType = dyn_cast<RankedTensorType>(op.getType());
    if (!inType || !outType || !inType.hasStaticShape() ||
        !outType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "needs static shapes");
    auto elemType = dyn_cast<FloatType>(inType.getElementType());
    if (!elemType)
      return rewriter.notifyMatchFailure(op, "integer pools are right");
    ArrayRef<int64_t> kernel = op.getKernel(), stride = op.getStride(),
                      pad = op.getPad(); // top, bottom, left, right
    bool ignoreNan = op.getNanMode() == tosa::NanPropagationMode::IGNORE;

    Location loc = op.getLoc();
    const llvm::fltSemantics &sem = elemType.getFloatSemantics();
    APFloat neutral = ignoreNan ? APFloat::getNaN(sem)
                                : APFloat::getInf(sem, /*Negative=*/true);
    Value init = arith::ConstantOp::create(
        rewriter, loc, elemType, rewriter.getFloatAttr(elemType, neutral));

    Value input = op.getInput();
    if (llvm::any_of(pad, [](int64_t p) { return p != 0; })) {
      SmallVector<int64_t> shape(inType.getShape());
      shape[1] += pad[0] + pad[1];
      shape[2] += pad[2] + pad[3];
      SmallVector<OpFoldResult> low = {
          rewriter.getIndexAttr(0), rewriter.getIndexAttr(pad[0]),
          rewriter.getIndexAttr(pad[2]), rewriter.getIndexAttr(0)};
      SmallVector<OpFoldResult> high = {
          rewriter.getIndexAttr(0), rewriter.getIndexAttr(pad[1]),
          rewriter.getIndexAttr(pad[3]), rewriter.getIndexAttr(0)};
      input = tensor::PadOp::create(rewriter, loc, inType.clone(shape), input,
                                    low, high, init);
    }

    Value empty =
        tensor::EmptyOp::create(rewriter, loc, outType.getShape(), elemType);
    Value acc = linalg::FillOp::create(rewriter, loc, init, empty).result();
    Value window = tensor::EmptyOp::create(
        rewriter, loc, ArrayRef<int64_t>{kernel[0], kernel[1]}, elemType);

    // (n, oy, ox, c, ky, kx): input[n, oy * sy + ky, ox * sx + kx, c].
    MLIRContext *ctx = rewriter.getContext();
    AffineExpr n, oy, ox, c, ky, kx;
    bindDims(ctx, n, oy, ox, c, ky, kx);
    SmallVector<AffineMap> maps = {
        AffineMap::get(6, 0, {n, oy * stride[0] + ky, ox * stride[1] + kx, c},
                       ctx),
        AffineMap::get(6, 0, {ky, kx}, ctx),
        AffineMap::get(6, 0, {n, oy, ox, c}, ctx)};
    SmallVector<utils::IteratorType> iterators(4,
                                               utils::IteratorType::parallel);
    iterators.append(2, utils::IteratorType::reduction);
    auto pool = linalg::GenericOp::create(
        rewriter, loc, outType, ValueRange{input, window}, ValueRange{acc},
        maps, iterators, [&](OpBuilder &b, Location l, ValueRange args) {
          Value max =
              ignoreNan
                  ? arith::MaxNumFOp::create(b, l, args[2], args[0]).getResult()
                  : arith::MaximumFOp::create(b, l, args[2], args[0])
                        .getResult();
          linalg::YieldOp::create(b, l, max);
        });
    rewriter.replaceOp(op, pool.getResult(0));
    return success();
  }
};

/// Floating-point REDUCE_MAX / REDUCE_MIN. Upstream tosa-to-linalg starts the
/// reduction at the lowest (largest) finite value, -FLT_MAX (+FLT_MAX), so a
/// row of -inf (+inf) gives -FLT_MAX (+FLT_MAX): a fully masked attention
/// row then no longer compares equal to -inf. The specification starts
/// REDUCE_MAX at minimum_s<in_out_t> (-inf for floats) and REDUCE_MIN at
/// +inf, combined with apply_max_s / apply_min_s: with PROPAGATE any NaN
/// wins (maximumf / minimumf from -inf / +inf); with IGNORE a NaN operand is
/// skipped, so only an all-NaN row gives NaN (maxnumf / minnumf from NaN,
/// one accumulator instead of upstream's extra "all NaN" flag, which keeps
/// the reduction splittable by onnx-tosa-split-reductions).
template <typename TosaOp, bool IsMax>
struct FloatReduceMinMax : OpRewritePattern<TosaOp> {
  using OpRewritePattern<TosaOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(TosaOp op,
                                PatternRewriter &rewriter) const override {
    auto inType = dyn_cast<RankedTensorType>(op.getInput().getType());
    auto outType = dyn_cast<RankedTensorType>(op.getType());
    if (!inType || !outType)
      return rewriter.notifyMatchFailure(op, "needs ranked tensors");
    auto elemType = dyn_cast<FloatType>(inType.getElementType());
    if (!elemType)
      return rewriter.notifyMatchFailure(op, "integer reductions are right");
    int64_t axis = op.getAxis();
    if (axis < 0 || axis >= inType.getRank() ||
        outType.getRank() != inType.getRank())
      return rewriter.notifyMatchFailure(op, "axis out of range");
    bool ignoreNan = op.getNanMode() == tosa::NanPropagationMode::IGNORE;

    Location loc = op.getLoc();
    const llvm::fltSemantics &sem = elemType.getFloatSemantics();
    APFloat neutral = ignoreNan ? APFloat::getNaN(sem)
                                : APFloat::getInf(sem, /*Negative=*/IsMax);
    Value init = arith::ConstantOp::create(
        rewriter, loc, elemType, rewriter.getFloatAttr(elemType, neutral));

    // The accumulator has the input's shape without the reduced axis.
    SmallVector<int64_t> shape;
    SmallVector<Value> dynamicSizes;
    for (int64_t d = 0; d < inType.getRank(); ++d) {
      if (d == axis)
        continue;
      shape.push_back(inType.getDimSize(d));
      if (inType.isDynamicDim(d))
        dynamicSizes.push_back(
            tensor::DimOp::create(rewriter, loc, op.getInput(), d));
    }
    Value empty =
        tensor::EmptyOp::create(rewriter, loc, shape, elemType, dynamicSizes);
    Value acc = linalg::FillOp::create(rewriter, loc, init, empty).result();
    auto reduce = linalg::ReduceOp::create(
        rewriter, loc, ValueRange{op.getInput()}, ValueRange{acc},
        ArrayRef<int64_t>{axis},
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value x = args[0], a = args[1], r;
          if (IsMax && ignoreNan)
            r = arith::MaxNumFOp::create(b, l, x, a);
          else if (IsMax)
            r = arith::MaximumFOp::create(b, l, x, a);
          else if (ignoreNan)
            r = arith::MinNumFOp::create(b, l, x, a);
          else
            r = arith::MinimumFOp::create(b, l, x, a);
          linalg::YieldOp::create(b, l, r);
        });

    // Back to the output shape, the reduced axis kept with size 1: it joins
    // the group of its neighbouring dimension.
    SmallVector<ReassociationIndices> groups;
    for (int64_t d = 0; d < outType.getRank(); ++d)
      if (d != axis)
        groups.push_back({d});
    if (!groups.empty()) {
      ReassociationIndices &g = groups[axis > 0 ? axis - 1 : 0];
      if (axis > 0)
        g.push_back(axis);
      else
        g.insert(g.begin(), axis);
    }
    rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(
        op, outType, reduce.getResult(0), groups);
    return success();
  }
};

/// Integer bilinear RESIZE (llvm#184799, llvm#193821: with a negative offset,
/// as half-pixel centres have, upstream computes the source index and the
/// fraction wrongly at the top/left edge). Lowered from the specification's
/// pseudocode with integer arithmetic, one output element per iteration:
///   y = oy * scale_y_d + offset_y;  iy = floor(y / scale_y_n);
///   dy = y - iy * scale_y_n;  iy0 = max(iy, 0);  iy1 = min(iy + 1, IH - 1)
///   (and the same for x), then
///   out = v00 * (n_y - dy) * (n_x - dx) + v01 * (n_y - dy) * dx
///       + v10 * dy * (n_x - dx) + v11 * dy * dx
/// in the output type (i32 for i8 input, i48 for i16).
struct IntegerBilinearResize : OpRewritePattern<tosa::ResizeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tosa::ResizeOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getMode() != tosa::ResizeMode::BILINEAR)
      return rewriter.notifyMatchFailure(op, "not bilinear");
    auto inType = dyn_cast<RankedTensorType>(op.getInput().getType());
    auto outType = dyn_cast<RankedTensorType>(op.getType());
    if (!inType || !outType || !inType.hasStaticShape() ||
        !outType.hasStaticShape() || !isa<IntegerType>(inType.getElementType()))
      return rewriter.notifyMatchFailure(op, "needs static integer tensors");
    SmallVector<int64_t> scale, offset;
    if (!tosa::getConstShapeValues(op.getScale().getDefiningOp(), scale) ||
        !tosa::getConstShapeValues(op.getOffset().getDefiningOp(), offset) ||
        scale.size() != 4 || offset.size() != 2)
      return rewriter.notifyMatchFailure(op, "needs constant scale/offset");
    // The specification's ERROR_IFs that keep the arithmetic below in range
    // (offset >= -scale_n makes y + scale_n non-negative).
    if (scale[0] <= 0 || scale[1] <= 0 || scale[2] <= 0 || scale[3] <= 0 ||
        offset[0] < -scale[0] || offset[1] < -scale[2])
      return rewriter.notifyMatchFailure(op, "scale/offset out of range");

    Location loc = op.getLoc();
    auto accType = cast<IntegerType>(outType.getElementType());
    int64_t IH = inType.getDimSize(1), IW = inType.getDimSize(2);
    Value input = op.getInput();
    Value empty =
        tensor::EmptyOp::create(rewriter, loc, outType.getShape(), accType);
    AffineMap identity = rewriter.getMultiDimIdentityMap(4);
    SmallVector<utils::IteratorType> iterators(4,
                                               utils::IteratorType::parallel);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, outType, ValueRange{}, ValueRange{empty},
        ArrayRef<AffineMap>{identity}, iterators,
        [&](OpBuilder &b, Location l, ValueRange) {
          auto idx = [&](int64_t v) -> Value {
            return arith::ConstantIndexOp::create(b, l, v);
          };
          Value n = linalg::IndexOp::create(b, l, 0);
          Value c = linalg::IndexOp::create(b, l, 3);
          // Source index pair and fraction along one axis.
          auto axis = [&](unsigned dim, int64_t num, int64_t den, int64_t off,
                          int64_t size, Value &i0, Value &i1, Value &frac) {
            Value o = linalg::IndexOp::create(b, l, dim);
            Value v = arith::AddIOp::create(
                b, l, arith::MulIOp::create(b, l, o, idx(den)), idx(off));
            // floor(v / num) for v >= -num, with a non-negative dividend.
            Value q = arith::DivUIOp::create(
                b, l, arith::AddIOp::create(b, l, v, idx(num)), idx(num));
            Value i = arith::SubIOp::create(b, l, q, idx(1));
            frac = arith::SubIOp::create(
                b, l, v, arith::MulIOp::create(b, l, i, idx(num)));
            i0 = arith::MaxSIOp::create(b, l, i, idx(0));
            i1 = arith::MinSIOp::create(
                b, l, arith::AddIOp::create(b, l, i, idx(1)), idx(size - 1));
          };
          Value iy0, iy1, dy, ix0, ix1, dx;
          axis(1, scale[0], scale[1], offset[0], IH, iy0, iy1, dy);
          axis(2, scale[2], scale[3], offset[1], IW, ix0, ix1, dx);
          auto toAcc = [&](Value index) -> Value {
            return arith::IndexCastOp::create(b, l, accType, index);
          };
          Value wy1 = toAcc(dy), wx1 = toAcc(dx);
          Value wy0 = toAcc(arith::SubIOp::create(b, l, idx(scale[0]), dy));
          Value wx0 = toAcc(arith::SubIOp::create(b, l, idx(scale[2]), dx));
          auto term = [&](Value y, Value x, Value wy, Value wx) -> Value {
            Value v =
                tensor::ExtractOp::create(b, l, input, ValueRange{n, y, x, c});
            v = arith::ExtSIOp::create(b, l, accType, v);
            return arith::MulIOp::create(
                b, l, arith::MulIOp::create(b, l, v, wy), wx);
          };
          Value acc = term(iy0, ix0, wy0, wx0);
          acc = arith::AddIOp::create(b, l, acc, term(iy0, ix1, wy0, wx1));
          acc = arith::AddIOp::create(b, l, acc, term(iy1, ix0, wy1, wx0));
          acc = arith::AddIOp::create(b, l, acc, term(iy1, ix1, wy1, wx1));
          linalg::YieldOp::create(b, l, acc);
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

/// TRANSPOSE of a boolean constant, folded here before tosa-reduce-transposes
/// sees it: that pass folds it with the constant's raw bytes, which LLVM 22
/// packs differently for i1, and gave an attribute that crashed whatever
/// read it (found by the TOSA conformance tests: transpose_*_b_*).
struct BoolConstantTranspose : OpRewritePattern<tosa::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tosa::TransposeOp op,
                                PatternRewriter &rewriter) const override {
    DenseElementsAttr values;
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (!type || !type.hasStaticShape() ||
        !type.getElementType().isInteger(1) ||
        !matchPattern(op.getInput1(), m_Constant(&values)))
      return rewriter.notifyMatchFailure(op, "not a boolean constant");
    ArrayRef<int64_t> in = cast<ShapedType>(values.getType()).getShape();
    ArrayRef<int32_t> perms = op.getPerms();
    int64_t rank = in.size();
    SmallVector<int64_t> inStrides(rank, 1);
    for (int64_t d = rank - 2; d >= 0; --d)
      inStrides[d] = inStrides[d + 1] * in[d + 1];
    SmallVector<bool> from(values.getValues<bool>());
    SmallVector<bool> to(from.size());
    SmallVector<int64_t> index(rank, 0); // of the result
    for (size_t flat = 0; flat < to.size(); ++flat) {
      int64_t source = 0;
      for (int64_t d = 0; d < rank; ++d)
        source += index[d] * inStrides[perms[d]];
      to[flat] = from[source];
      for (int64_t d = rank - 1; d >= 0; --d) {
        if (++index[d] < type.getDimSize(d))
          break;
        index[d] = 0;
      }
    }
    rewriter.replaceOpWithNewOp<tosa::ConstOp>(
        op, type, DenseElementsAttr::get(type, ArrayRef<bool>(to)));
    return success();
  }
};

struct FoldBoolTransposesPass
    : PassWrapper<FoldBoolTransposesPass, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(FoldBoolTransposesPass)
  StringRef getArgument() const override {
    return "onnx-tosa-fold-bool-transposes";
  }
  StringRef getDescription() const override {
    return "Fold transposes of boolean constants (before "
           "tosa-reduce-transposes, which folds them wrongly in LLVM 22)";
  }
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<BoolConstantTranspose>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

struct UpstreamWorkaroundsPass
    : PassWrapper<UpstreamWorkaroundsPass, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(UpstreamWorkaroundsPass)
  StringRef getArgument() const override {
    return "onnx-tosa-upstream-workarounds";
  }
  StringRef getDescription() const override {
    return "Lower the TOSA ops that LLVM 22's tosa-to-linalg gets wrong";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, linalg::LinalgDialect,
                    tensor::TensorDialect>();
  }
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<RescaleToI64, RescaleInexactAsSingleRound, FloatMaxPool2d,
                 FloatReduceMinMax<tosa::ReduceMaxOp, /*IsMax=*/true>,
                 FloatReduceMinMax<tosa::ReduceMinOp, /*IsMax=*/false>,
                 IntegerBilinearResize>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

std::unique_ptr<Pass> createUpstreamWorkaroundsPass() {
  return std::make_unique<UpstreamWorkaroundsPass>();
}

std::unique_ptr<Pass> createFoldBoolTransposesPass() {
  return std::make_unique<FoldBoolTransposesPass>();
}

} // namespace onnx_tosa
