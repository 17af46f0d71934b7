//===- Reduction.cpp - ReduceSum, ReduceMean, ..., CumSum, CumProd --------===//
//
// Every Reduce* op shares the axes/keepdims/noop_with_empty_axes handling
// (axes an attribute until the op's version 13 (ReduceSum) or 18 (the rest),
// a constant input after); each op is one row with the formula it reduces.
// TOSA reduces one axis at a time and keeps it as size 1.
//
//===----------------------------------------------------------------------===//
#include "conversion/onnx-to-tosa/ConstantFolding.h"
#include "conversion/onnx-to-tosa/NodeContext.h"

#include <cmath>
#include <limits>

using namespace mlir;

namespace onnx_tosa {
namespace {

using Reducer = Value (*)(TosaBuilder &, Value, ArrayRef<int64_t>);

Value sum(TosaBuilder &t, Value x, ArrayRef<int64_t> axes) {
  return t.reduceSum(x, axes);
}
Value mean(TosaBuilder &t, Value x, ArrayRef<int64_t> axes) {
  return t.reduceMean(x, axes);
}
Value max(TosaBuilder &t, Value x, ArrayRef<int64_t> axes) {
  return t.reduceMax(x, axes);
}
Value min(TosaBuilder &t, Value x, ArrayRef<int64_t> axes) {
  return t.reduce<tosa::ReduceMinOp>(x, axes);
}
Value prod(TosaBuilder &t, Value x, ArrayRef<int64_t> axes) {
  return t.reduce<tosa::ReduceProductOp>(x, axes);
}
Value l1(TosaBuilder &t, Value x, ArrayRef<int64_t> axes) {
  return t.reduceSum(t.abs(x), axes);
}
Value sumSquare(TosaBuilder &t, Value x, ArrayRef<int64_t> axes) {
  return t.reduceSum(t.mul(x, x), axes);
}
Value l2(TosaBuilder &t, Value x, ArrayRef<int64_t> axes) {
  return t.sqrt(sumSquare(t, x, axes));
}
Value logSum(TosaBuilder &t, Value x, ArrayRef<int64_t> axes) {
  return t.unary<tosa::LogOp>(t.reduceSum(x, axes));
}
/// log(sum(exp(x))) = m + log(sum(exp(x - m))), m = max(x).
Value logSumExp(TosaBuilder &t, Value x, ArrayRef<int64_t> axes) {
  Value m = t.reduceMax(x, axes);
  Value s = t.reduceSum(t.unary<tosa::ExpOp>(t.sub(x, m)), axes);
  return t.add(m, t.unary<tosa::LogOp>(s));
}

/// On booleans (from opset 20) ReduceMax is "any" and ReduceMin "all".
Value maxOrAny(TosaBuilder &t, Value x, ArrayRef<int64_t> axes) {
  if (t.elementTypeOf(x).isInteger(1))
    return t.reduce<tosa::ReduceAnyOp>(x, axes);
  return max(t, x, axes);
}
Value minOrAll(TosaBuilder &t, Value x, ArrayRef<int64_t> axes) {
  if (t.elementTypeOf(x).isInteger(1))
    return t.reduce<tosa::ReduceAllOp>(x, axes);
  return min(t, x, axes);
}

/// Reduce* `opType` over an empty set, as a tensor of `type` (ONNX: the
/// reduction's identity, or what its formula gives for an empty sum).
DenseElementsAttr emptySetValue(StringRef opType, RankedTensorType type) {
  bool lowest = opType == "ReduceMax" || opType == "ReduceLogSum" ||
                opType == "ReduceLogSumExp";
  bool highest = opType == "ReduceMin";
  if (auto integer = dyn_cast<IntegerType>(type.getElementType())) {
    unsigned width = integer.getWidth();
    int64_t value = opType == "ReduceProd" ? 1 : 0;
    if (width == 1 && highest)
      value = 1;
    else if (width > 1 && lowest)
      value = APInt::getSignedMinValue(width).getSExtValue();
    else if (width > 1 && highest)
      value = APInt::getSignedMaxValue(width).getSExtValue();
    return fromInts(type, {value});
  }
  double inf = std::numeric_limits<double>::infinity();
  double value = opType == "ReduceProd"   ? 1.0
                 : lowest                 ? -inf
                 : highest                ? inf
                 : opType == "ReduceMean" ? std::nan("")
                                          : 0.0;
  return fromDoubles(type, {value});
}

template <Reducer Reduce, int64_t AxesInputSince, Elt Kind = Elt::Float>
LegalizeResult reduceOp(NodeContext &ctx) {
  if (failed(ctx.requireInputs(1)) || failed(ctx.requireElementType(0, Kind)))
    return failure();
  Value x = ctx.input(0);
  int64_t rank = ctx.inputRank(0);
  std::optional<Shape> given;
  if (failed(ctx.readIntsAttrOrInput("axes", 1, AxesInputSince, given)))
    return failure();
  Shape axes = given ? *given : Shape();
  if (axes.empty()) {
    if (ctx.getOpset() >= AxesInputSince &&
        ctx.getInt("noop_with_empty_axes", 0))
      return Values{x};
    for (int64_t d = 0; d < rank; ++d)
      axes.push_back(d);
  }
  for (int64_t &axis : axes) {
    std::optional<int64_t> a = normalizeAxis(axis, rank);
    if (!a)
      return ctx.fail("axis " + Twine(axis) + " is out of range");
    axis = *a;
  }
  llvm::sort(axes);
  axes.erase(std::unique(axes.begin(), axes.end()), axes.end());
  ArrayRef<int64_t> in = ctx.inputShape(0);
  if (product(in) == 0) {
    // An empty input (a compile-time constant) reduces to a constant.
    Shape out;
    for (int64_t d = 0; d < rank; ++d)
      if (!llvm::is_contained(axes, d))
        out.push_back(in[d]);
      else if (ctx.getInt("keepdims", 1))
        out.push_back(1);
    Type elt = ctx.inputType(0).getElementType();
    if (product(out) == 0)
      return Values{createEmptyConstant(ctx.tosa, out, elt)};
    return Values{ctx.tosa.constant(
        emptySetValue(ctx.getOpType(), RankedTensorType::get(out, elt)))};
  }
  if (rank == 0) // a scalar reduces to itself
    return Values{
        ctx.tosa.reshape(Reduce(ctx.tosa, ctx.tosa.reshape(x, {1}), {0}), {})};

  Value y = Reduce(ctx.tosa, x, axes);
  if (!ctx.getInt("keepdims", 1)) {
    Shape kept;
    for (int64_t d = 0; d < rank; ++d)
      if (!llvm::is_contained(axes, d))
        kept.push_back(ctx.inputShape(0)[d]);
    y = ctx.tosa.reshape(y, kept);
  }
  return Values{y};
}

/// CumSum / CumProd along a constant axis, by log2(n) shifted steps (each
/// step combines the running results with those `shift` positions back):
/// y_i = op_{j <= i} x_j, or j < i when exclusive, or from the end when
/// reverse. Positions shifted in from outside hold the op's identity.
template <bool Product> LegalizeResult cumulative(NodeContext &ctx) {
  if (failed(ctx.requireInputs(2)) ||
      failed(ctx.requireElementType(0, Elt::Number)))
    return failure();
  Shape axisValue;
  if (failed(ctx.requireConstantInts(1, "axis", axisValue)))
    return failure();
  TosaBuilder &t = ctx.tosa;
  Value x = ctx.input(0);
  int64_t rank = t.rankOf(x);
  std::optional<int64_t> axis =
      axisValue.size() == 1 ? normalizeAxis(axisValue[0], rank) : std::nullopt;
  if (!axis)
    return ctx.fail("axis is out of range");
  bool reverse = ctx.getInt("reverse", 0);
  Value y = t.scan(reverse ? t.reverse(x, *axis) : x, *axis, Product);
  if (ctx.getInt("exclusive", 0))
    y = t.shiftAlong(y, *axis, 1, Product ? 1.0 : 0.0);
  return Values{reverse ? t.reverse(y, *axis) : y};
}

/// ArgMax / ArgMin: tosa.argmax's i32 indices are the demoted int64 result
/// (docs/types.md). ArgMin is the argmax of the negation; select_last_index
/// takes the argmax of the reversed axis, whose index j is dim - 1 - j.
/// Float data only: TOSA's ARGMAX takes no i32, and negating i8 overflows.
template <bool isMin> LegalizeResult argReduce(NodeContext &ctx) {
  if (failed(ctx.requireInputs(1)) ||
      failed(ctx.requireElementType(0, Elt::Float)))
    return failure();
  TosaBuilder &t = ctx.tosa;
  Value x = ctx.input(0);
  ArrayRef<int64_t> in = t.shapeOf(x);
  std::optional<int64_t> axis = normalizeAxis(ctx.getInt("axis", 0), in.size());
  if (!axis)
    return ctx.fail("axis is out of range");
  bool last = ctx.getOpset() >= 12 && ctx.getInt("select_last_index", 0);
  if (isMin)
    x = t.negate(x);
  if (last)
    x = t.reverse(x, *axis);
  Shape reduced(in);
  reduced.erase(reduced.begin() + *axis);
  Type i32 = t.getBuilder().getI32Type();
  Value idx;
  if (reduced.empty()) {
    Value flat = t.reshape(x, {in[*axis], 1});
    idx = tosa::ArgMaxOp::create(t.getBuilder(), t.getLoc(),
                                 RankedTensorType::get({1}, i32), flat,
                                 uint32_t(0));
  } else {
    idx = tosa::ArgMaxOp::create(t.getBuilder(), t.getLoc(),
                                 RankedTensorType::get(reduced, i32), x,
                                 static_cast<uint32_t>(*axis));
  }
  if (last)
    idx = t.sub(t.scalarLike(idx, in[*axis] - 1), idx);
  Shape out(in);
  out[*axis] = 1;
  if (!ctx.getInt("keepdims", 1))
    out = reduced;
  return Values{t.reshape(idx, out)};
}

// clang-format off
const OpLegalization kReduction[] = {
    {"ReduceSum", 1, reduceOp<sum, 13, Elt::Number>},
    {"ReduceMean", 1, reduceOp<mean, 18>},
    {"ReduceMax", 1, reduceOp<maxOrAny, 18, Elt::Any>},
    {"ReduceMin", 1, reduceOp<minOrAll, 18, Elt::Any>},
    {"ReduceProd", 1, reduceOp<prod, 18, Elt::Number>},
    {"ReduceL1", 1, reduceOp<l1, 18>},
    {"ReduceL2", 1, reduceOp<l2, 18>},
    {"ReduceSumSquare", 1, reduceOp<sumSquare, 18>},
    {"ReduceLogSum", 1, reduceOp<logSum, 18>},
    {"ReduceLogSumExp", 1, reduceOp<logSumExp, 18>},
    {"CumSum", 11, cumulative</*Product=*/false>},
    {"CumProd", 26, cumulative</*Product=*/true>},
    {"ArgMax", 1, argReduce<false>},
    {"ArgMin", 1, argReduce<true>},
};
// clang-format on

} // namespace

ArrayRef<OpLegalization> getReductionLegalizations() { return kReduction; }

} // namespace onnx_tosa
