//===- Pool.cpp - MaxPool, AveragePool, Global*Pool, LpPool, MaxUnpool ----===//
//
// TOSA pools are 2-D and channels-last; 1-D pools run over a unit height;
// dilated and 3-D pools (and Lp pooling) are computed one axis at a time.
// TOSA's max_pool2d never selects padding, and its avg_pool2d divides by the
// number of input (non-padding) elements in each window — ONNX's
// count_include_pad = 0. For count_include_pad = 1 the ONNX padding is
// materialized with tosa.pad first so that it counts; the padding ceil_mode
// adds past it is still left out, as onnxruntime does. Integer max pooling
// other than int8 (uint8, carried as i32: docs/types.md) has no TOSA
// max_pool2d profile and goes axis by axis too, which is exact. MaxPool's
// Indices output follows the maximum through the same per-axis taps.
// MaxUnpool scatters the pooled values back to their recorded positions.
//
//===----------------------------------------------------------------------===//
#include "conversion/onnx-to-tosa/Window.h"

#include <cmath>
#include <limits>

using namespace mlir;

namespace onnx_tosa {
namespace {

enum class PoolKind { Max, Average, Sum };

/// The padding value no input element loses to (max pooling).
double lowestOf(TosaBuilder &t, Value x) {
  return TosaBuilder::isFloat(x)
             ? -std::numeric_limits<double>::infinity()
             : -std::ldexp(1.0, t.elementTypeOf(x).getIntOrFloatBitWidth() - 1);
}

/// One spatial axis of a pool, from its kernel taps: tap j of output o reads
/// input o * stride - padBegin + j * dilation. Max keeps the largest tap
/// (padding never wins), Sum adds them (padding adds 0), Average divides the
/// sum by the number of taps in the input (or, with count_include_pad, in
/// the input and its ONNX padding). Pools are separable along axes, so this
/// covers what TOSA's 2-D pools cannot: dilations, 3-D windows, Lp pooling.
Value poolAxis(TosaBuilder &t, Value x, int64_t axis, const Window &w, size_t i,
               PoolKind kind, bool includePad) {
  int64_t in = t.shapeOf(x)[axis];
  int64_t k = w.kernel[i], s = w.strides[i], d = w.dilations[i];
  int64_t begin = w.padBegin[i], out = w.output[i];
  int64_t after = (out - 1) * s + (k - 1) * d + 1 - in - begin;
  double fill = kind == PoolKind::Max ? lowestOf(t, x) : 0.0;
  Shape pads(2 * t.rankOf(x), 0);
  pads[2 * axis] = begin;
  pads[2 * axis + 1] = std::max<int64_t>(after, 0);
  Value padded = t.pad(x, pads, fill);
  Value acc;
  for (int64_t j = 0; j < k; ++j) {
    Value tap = t.sliceStrided(padded, axis, j * d, out, s);
    acc = !acc                    ? tap
          : kind == PoolKind::Max ? t.maximum(acc, tap)
                                  : t.add(acc, tap);
  }
  if (kind != PoolKind::Average)
    return acc;
  int64_t lo = includePad ? -begin : 0;
  int64_t hi = includePad ? in + w.padEnd[i] : in;
  SmallVector<double> scale;
  for (int64_t o = 0; o < out; ++o) {
    int64_t count = 0;
    for (int64_t j = 0; j < k; ++j) {
      int64_t pos = o * s - begin + j * d;
      count += pos >= lo && pos < hi;
    }
    scale.push_back(1.0 / std::max<int64_t>(count, 1));
  }
  Shape scaleShape(t.rankOf(x), 1);
  scaleShape[axis] = out;
  return t.mul(
      acc, t.constant(fromDoubles(
               RankedTensorType::get(scaleShape, t.elementTypeOf(x)), scale)));
}

/// A pool of any rank and dilation, one spatial axis at a time.
Value separablePool(TosaBuilder &t, Value x, const Window &w, PoolKind kind,
                    bool includePad) {
  for (size_t i = 0; i < w.kernel.size(); ++i)
    x = poolAxis(t, x, i + 2, w, i, kind, includePad);
  return x;
}

/// MaxPool's Indices operand: the flat index of every element of `x`
/// ([N, C, d1, ..., dk]), (n * C + c) * d1 * ... * dk plus the spatial
/// position, row-major (storage_order 0) or column-major (1), as the ONNX
/// reference numbers them. Built as a sum of one small constant per axis.
Value flatIndices(TosaBuilder &t, ArrayRef<int64_t> shape, bool columnMajor) {
  int64_t rank = shape.size();
  Shape stride(rank, 1);
  for (int64_t d = rank - 2; d >= 0; --d)
    stride[d] = stride[d + 1] * shape[d + 1];
  if (columnMajor) {
    int64_t s = 1;
    for (int64_t d = 2; d < rank; ++d) {
      stride[d] = s;
      s *= shape[d];
    }
  }
  Type i32 = t.getBuilder().getI32Type();
  Value sum;
  for (int64_t d = 0; d < rank; ++d) {
    Shape axisShape(rank, 1);
    axisShape[d] = shape[d];
    SmallVector<int64_t> values;
    for (int64_t i = 0; i < shape[d]; ++i)
      values.push_back(i * stride[d]);
    Value axis =
        t.constant(fromInts(RankedTensorType::get(axisShape, i32), values));
    sum = sum ? t.add(sum, axis) : axis;
  }
  return sum;
}

/// One spatial axis of max pooling that also carries each maximum's index
/// (`idx`, i32, shaped like `x`). A tap replaces the running maximum only
/// when strictly greater, so the first maximum in window order is kept; a
/// leading padding tap (index -1, value `lowestOf`) also yields to any input
/// element, which matters when the input holds that lowest value itself.
void argMaxPoolAxis(TosaBuilder &t, Value &x, Value &idx, int64_t axis,
                    const Window &w, size_t i) {
  int64_t in = t.shapeOf(x)[axis];
  int64_t k = w.kernel[i], s = w.strides[i], d = w.dilations[i];
  int64_t begin = w.padBegin[i], out = w.output[i];
  int64_t after = (out - 1) * s + (k - 1) * d + 1 - in - begin;
  Shape pads(2 * t.rankOf(x), 0);
  pads[2 * axis] = begin;
  pads[2 * axis + 1] = std::max<int64_t>(after, 0);
  Value xp = t.pad(x, pads, lowestOf(t, x));
  Value ip = t.pad(idx, pads, -1);
  Value accX = t.sliceStrided(xp, axis, 0, out, s);
  Value accI = t.sliceStrided(ip, axis, 0, out, s);
  Value zero = t.scalarLike(accI, 0);
  for (int64_t j = 1; j < k; ++j) {
    Value tapX = t.sliceStrided(xp, axis, j * d, out, s);
    Value tapI = t.sliceStrided(ip, axis, j * d, out, s);
    Value better = t.compare<tosa::GreaterOp>(tapX, accX);
    if (begin > 0) {
      Value accPad = t.compare<tosa::GreaterOp>(zero, accI);
      Value tapReal = t.compare<tosa::GreaterEqualOp>(tapI, zero);
      better = t.binary<tosa::LogicalOrOp>(
          better, t.binary<tosa::LogicalAndOp>(accPad, tapReal));
    }
    accX = t.select(better, tapX, accX);
    accI = t.select(better, tapI, accI);
  }
  x = accX;
  idx = accI;
}

/// MaxPool with its Indices output. The first maximum in row-major window
/// order (the reference's loop order) is found axis by axis from the last
/// spatial axis to the first: each pass keeps, per remaining window, the
/// first maximum along its axis, so the outer pass picks the first row that
/// holds the window's maximum and, within it, the inner pass's choice.
Values argMaxPool(TosaBuilder &t, Value x, const Window &w, bool columnMajor) {
  Value idx = flatIndices(t, t.shapeOf(x), columnMajor);
  for (size_t i = w.kernel.size(); i-- > 0;)
    argMaxPoolAxis(t, x, idx, i + 2, w, i);
  return {x, idx};
}

template <PoolKind Kind> LegalizeResult pool(NodeContext &ctx) {
  // Max pooling is also defined on int8 (TOSA's integer profile).
  Elt kind = Kind == PoolKind::Max ? Elt::Number : Elt::Float;
  if (failed(ctx.requireInputs(1)) || failed(ctx.requireElementType(0, kind)))
    return failure();
  TosaBuilder &t = ctx.tosa;
  Value x = ctx.input(0);
  int64_t rank = t.rankOf(x);
  if (rank < 3)
    return ctx.fail("input must have rank at least 3 (N, C, spatial...)");
  Shape kernel = ctx.getInts("kernel_shape");
  if (static_cast<int64_t>(kernel.size()) != rank - 2)
    return ctx.fail("kernel_shape must have one entry per spatial dimension");
  FailureOr<Window> win = computeWindow(ctx, t.shapeOf(x).drop_front(2), kernel,
                                        ctx.getInt("ceil_mode", 0));
  if (failed(win))
    return failure();
  for (size_t i = 0; i < kernel.size(); ++i) {
    int64_t span = (kernel[i] - 1) * win->dilations[i] + 1;
    if (win->padBegin[i] >= span || win->padEnd[i] >= span)
      return ctx.fail("pads must be smaller than the kernel");
  }
  bool includePad =
      Kind == PoolKind::Average && ctx.getInt("count_include_pad", 0) != 0;
  if (Kind == PoolKind::Max && ctx.outputUsed(1)) {
    int64_t storageOrder = ctx.getInt("storage_order", 0);
    if (storageOrder != 0 && storageOrder != 1)
      return ctx.fail("storage_order must be 0 or 1");
    if (product(t.shapeOf(x)) > std::numeric_limits<int32_t>::max())
      return ctx.fail("the Indices output needs more than 31 bits");
    return argMaxPool(t, x, *win, storageOrder == 1);
  }
  // TOSA's pools are 2-D, undilated and (max) integer only for int8; other
  // pools go axis by axis.
  bool dilated = llvm::any_of(win->dilations, [](int64_t d) { return d != 1; });
  bool wideInt = Kind == PoolKind::Max && !TosaBuilder::isFloat(x) &&
                 !t.elementTypeOf(x).isInteger(8);
  if (rank > 4 || dilated || wideInt)
    return Values{separablePool(t, x, *win, Kind, includePad)};

  ArrayRef<int64_t> shape = t.shapeOf(x);
  int64_t n = shape[0], c = shape[1];
  if (rank == 3) {
    x = t.reshape(x, {n, c, 1, shape[2]});
    expandWindowTo2D(*win);
  }
  Value xl = t.toChannelsLast(x);
  if (includePad) {
    xl = t.pad(xl,
               {0, 0, win->padBegin[0], win->padEnd[0], win->padBegin[1],
                win->padEnd[1], 0, 0},
               0.0);
    win->padBegin.assign(2, 0);
    win->padEnd.assign(2, 0);
  }
  Shape pads = fitPadsToTosa(t, *win, xl);

  Type elt = t.elementTypeOf(xl);
  auto type =
      RankedTensorType::get({n, win->output[0], win->output[1], c}, elt);
  OpBuilder &b = t.getBuilder();
  Value y;
  if (Kind == PoolKind::Max) {
    y = tosa::MaxPool2dOp::create(b, t.getLoc(), type, xl, win->kernel,
                                  win->strides, pads);
  } else {
    Value zp = t.zeroPoint(elt);
    y = tosa::AvgPool2dOp::create(b, t.getLoc(), type, xl, zp, zp, win->kernel,
                                  win->strides, pads, b.getF32Type());
  }
  y = t.toChannelsFirst(y);
  if (rank == 3)
    y = t.reshape(y, {n, c, win->output[1]});
  return Values{y};
}

/// Whether image `x` was computed channels-last: through elementwise ops,
/// it is the transpose to channels-first after an op that computes
/// channels-last (a convolution, a pool).
bool computedChannelsLast(Value x, int depth = 8) {
  Operation *def = x.getDefiningOp();
  if (!def || depth == 0)
    return false;
  if (auto transpose = dyn_cast<tosa::TransposeOp>(def))
    return transpose.getPerms() == ArrayRef<int32_t>{0, 3, 1, 2};
  if (!def->hasTrait<OpTrait::tosa::TosaElementwiseOperator>() &&
      !isa<tosa::CastOp, tosa::ClampOp>(def))
    return false;
  return llvm::any_of(def->getOperands(), [&](Value v) {
    return computedChannelsLast(v, depth - 1);
  });
}

/// GlobalAveragePool / GlobalMaxPool: reduce every spatial dimension, kept
/// as 1. An image ([N, C, H, W]) that convolutions computed channels-last
/// goes back to channels-last first, so that tosa-reduce-transposes cancels
/// the layout transposes on the way there (ResNet-50's last stage kept its
/// residual sums channels-first, a transpose before and after each), and
/// is then transposed once to [N, C, H x W] for a reduction along rows,
/// which the row kernels take (one over H of the channels-last tensor was
/// a loop per image).
template <PoolKind Kind> LegalizeResult globalPool(NodeContext &ctx) {
  if (failed(ctx.requireInputs(1)) ||
      failed(ctx.requireElementType(0, Elt::Float)))
    return failure();
  int64_t rank = ctx.inputRank(0);
  if (rank < 3)
    return ctx.fail("input must have rank at least 3 (N, C, spatial...)");
  if (failed(ctx.requireNonEmpty(ctx.inputShape(0))))
    return failure();
  TosaBuilder &t = ctx.tosa;
  auto reduce = [&](Value x, ArrayRef<int64_t> axes) {
    return Kind == PoolKind::Max ? t.reduceMax(x, axes) : t.reduceMean(x, axes);
  };
  Value x = ctx.input(0);
  ArrayRef<int64_t> shape = t.shapeOf(x);
  if (rank == 4 && !ShapedType::isDynamicShape(shape) &&
      computedChannelsLast(x)) {
    int64_t n = shape[0], c = shape[1], pixels = shape[2] * shape[3];
    Value rows =
        t.transpose(t.reshape(t.toChannelsLast(x), {n, pixels, c}), {0, 2, 1});
    return Values{t.reshape(reduce(rows, {2}), {n, c, 1, 1})};
  }
  Shape axes;
  for (int64_t d = 2; d < rank; ++d)
    axes.push_back(d);
  return Values{reduce(x, axes)};
}

/// |x|^p (p = 1, 2 or other) and its inverse, for Lp pooling.
Value powerP(TosaBuilder &t, Value x, int64_t p) {
  if (p == 1)
    return t.abs(x);
  if (p == 2)
    return t.mul(x, x);
  return t.pow(t.abs(x), t.scalarLike(x, static_cast<double>(p)));
}
Value rootP(TosaBuilder &t, Value x, int64_t p) {
  if (p == 1)
    return x;
  if (p == 2)
    return t.sqrt(x);
  return t.pow(x, t.scalarLike(x, 1.0 / p));
}

/// LpPool: (sum over the window of |x|^p)^(1/p); padding adds nothing.
LegalizeResult lpPool(NodeContext &ctx) {
  if (failed(ctx.requireInputs(1)) ||
      failed(ctx.requireElementType(0, Elt::Float)))
    return failure();
  TosaBuilder &t = ctx.tosa;
  Value x = ctx.input(0);
  Shape kernel = ctx.getInts("kernel_shape");
  if (t.rankOf(x) < 3 || static_cast<int64_t>(kernel.size()) != t.rankOf(x) - 2)
    return ctx.fail("kernel_shape must have one entry per spatial dimension");
  FailureOr<Window> win = computeWindow(ctx, t.shapeOf(x).drop_front(2), kernel,
                                        ctx.getInt("ceil_mode", 0));
  if (failed(win))
    return failure();
  int64_t p = ctx.getInt("p", 2);
  if (p < 1)
    return ctx.fail("p must be positive");
  Value sum = separablePool(t, powerP(t, x, p), *win, PoolKind::Sum, false);
  return Values{rootP(t, sum, p)};
}

/// GlobalLpPool: the Lp norm over all spatial dimensions.
LegalizeResult globalLpPool(NodeContext &ctx) {
  if (failed(ctx.requireInputs(1)) ||
      failed(ctx.requireElementType(0, Elt::Float)))
    return failure();
  TosaBuilder &t = ctx.tosa;
  Value x = ctx.input(0);
  if (t.rankOf(x) < 3)
    return ctx.fail("input must have rank at least 3 (N, C, spatial...)");
  Shape axes;
  for (int64_t d = 2; d < t.rankOf(x); ++d)
    axes.push_back(d);
  int64_t p = ctx.getInt("p", 2);
  if (p < 1)
    return ctx.fail("p must be positive");
  return Values{rootP(t, t.reduceSum(powerP(t, x, p), axes), p)};
}

/// MaxUnpool(X, I, output_shape?): a zero tensor of the shape MaxPool's
/// input had ((in - 1) * stride - pads + kernel per axis) with X written at
/// the flat indices I, then (as the ONNX reference does) zero-padded at the
/// end of each axis to output_shape. output_shape is taken from the constant
/// input or, when that is computed at run time, from the declared output
/// type. An index outside the tensor writes to a spare element that is
/// dropped, never out of bounds.
LegalizeResult maxUnpool(NodeContext &ctx) {
  if (failed(ctx.requireInputs(2)) ||
      failed(ctx.requireElementType(0, Elt::Number)) ||
      failed(ctx.requireElementType(1, Elt::Int)))
    return failure();
  TosaBuilder &t = ctx.tosa;
  Value x = ctx.input(0);
  if (t.elementTypeOf(x).isInteger(1))
    return ctx.fail("boolean data cannot be scattered in TOSA");
  ArrayRef<int64_t> in = t.shapeOf(x);
  int64_t spatial = static_cast<int64_t>(in.size()) - 2;
  Shape kernel = ctx.getInts("kernel_shape");
  Shape strides = ctx.getInts("strides", Shape(kernel.size(), 1));
  Shape pads = ctx.getInts("pads", Shape(2 * kernel.size(), 0));
  if (spatial < 1 || static_cast<int64_t>(kernel.size()) != spatial ||
      static_cast<int64_t>(strides.size()) != spatial ||
      static_cast<int64_t>(pads.size()) != 2 * spatial)
    return ctx.fail("kernel_shape, strides and pads must have one entry "
                    "(pads: two) per spatial dimension");
  if (ctx.inputShape(1) != in)
    return ctx.fail("I must have the shape of X");
  Shape inferred(in.take_front(2));
  for (int64_t d = 0; d < spatial; ++d)
    inferred.push_back((in[d + 2] - 1) * strides[d] -
                       (pads[d] + pads[spatial + d]) + kernel[d]);
  Shape outShape = inferred;
  if (ctx.hasInput(2)) {
    if (std::optional<SmallVector<int64_t>> c = ctx.constantInts(2)) {
      outShape = *c;
    } else {
      auto declared =
          dyn_cast<RankedTensorType>(ctx.getNode().getOutputs()[0].getType());
      if (!declared || !declared.hasStaticShape())
        return ctx.fail("output_shape must be a compile-time constant, or "
                        "the output's shape declared");
      outShape = Shape(declared.getShape());
    }
  }
  if (outShape.size() != inferred.size())
    return ctx.fail("output_shape must have the rank of X");
  Shape padding;
  for (size_t d = 0; d < outShape.size(); ++d) {
    if (outShape[d] < inferred[d] || (d < 2 && outShape[d] != inferred[d]))
      return ctx.fail("output_shape is smaller than the unpooled shape");
    padding.append({0, outShape[d] - inferred[d]});
  }
  if (failed(ctx.requireNonEmpty(inferred)))
    return failure();

  int64_t total = product(inferred), count = product(in);
  Type i32 = t.getBuilder().getI32Type();
  Value idx = t.reshape(t.cast(ctx.input(1), i32), {1, count});
  Value inside = t.binary<tosa::LogicalAndOp>(
      t.compare<tosa::GreaterEqualOp>(idx, t.scalarLike(idx, 0)),
      t.compare<tosa::GreaterOp>(t.scalarLike(idx, total), idx));
  idx = t.select(inside, idx, t.scalarLike(idx, total));
  Value zeros = t.splat({1, total + 1, 1}, t.elementTypeOf(x), 0.0);
  Value y = tosa::ScatterOp::create(t.getBuilder(), t.getLoc(), zeros.getType(),
                                    zeros, idx, t.reshape(x, {1, count, 1}));
  y = t.reshape(t.sliceAxis(y, 1, 0, total), inferred);
  return Values{t.pad(y, padding, 0.0)};
}

// clang-format off
const OpLegalization kPool[] = {
    {"MaxPool", 1, pool<PoolKind::Max>},
    {"AveragePool", 1, pool<PoolKind::Average>},
    {"GlobalAveragePool", 1, globalPool<PoolKind::Average>},
    {"GlobalMaxPool", 1, globalPool<PoolKind::Max>},
    {"LpPool", 2, lpPool},
    {"GlobalLpPool", 2, globalLpPool},
    {"MaxUnpool", 9, maxUnpool},
};
// clang-format on

} // namespace

ArrayRef<OpLegalization> getPoolLegalizations() { return kPool; }

} // namespace onnx_tosa
