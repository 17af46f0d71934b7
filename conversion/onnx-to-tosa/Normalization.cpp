//===- Normalization.cpp - BatchNorm, LayerNorm, Softmax, ... -------------===//
#include "conversion/onnx-to-tosa/NodeContext.h"

#include <cmath>

using namespace mlir;

namespace onnx_tosa {
namespace {

/// [C] -> [1, C, 1, ...] so that it broadcasts over an NC... tensor.
Value perChannel(TosaBuilder &t, Value v, int64_t rank) {
  Shape shape(rank, 1);
  shape[1] = t.shapeOf(v)[0];
  return t.reshape(v, shape);
}

/// BatchNormalization with training_mode=1 (opset 14 on): Y is normalized
/// with the batch's own statistics, the mean and the population variance
/// over every dimension but the channel (as the spec's reference computes
/// them), and the running statistics are updated:
///   running_mean = input_mean * momentum + current_mean * (1 - momentum)
///   running_var  = input_var  * momentum + current_var  * (1 - momentum).
/// f16/bf16 data is reduced in f32 and the results rounded once.
LegalizeResult batchNormTraining(NodeContext &ctx, double epsilon) {
  TosaBuilder &t = ctx.tosa;
  Value x = ctx.input(0);
  ArrayRef<int64_t> shape = t.shapeOf(x);
  int64_t rank = shape.size(), c = shape[1];
  if (failed(ctx.requireNonEmpty(shape)))
    return failure();
  Shape axes;
  for (int64_t d = 0; d < rank; ++d)
    if (d != 1)
      axes.push_back(d);
  Type elt = t.elementTypeOf(x);
  Type f32 = Float32Type::get(x.getContext());
  Value xs = t.cast(x, f32);
  Value mean = t.reduceMean(xs, axes); // [1, C, 1, ...]
  Value centered = t.sub(xs, mean);
  Value var = t.reduceMean(t.mul(centered, centered), axes);
  Value invStd = t.unary<tosa::RsqrtOp>(t.add(var, t.scalarLike(var, epsilon)));
  Value scale = perChannel(t, t.cast(ctx.input(1), f32), rank);
  Value bias = perChannel(t, t.cast(ctx.input(2), f32), rank);
  Value y = t.add(t.mul(t.mul(centered, invStd), scale), bias);

  double momentum = ctx.getFloat("momentum", 0.9f);
  auto running = [&](Value input, Value current) {
    Value input32 = t.cast(input, f32);
    Value kept = t.mul(input32, t.scalarLike(input32, momentum));
    Value added =
        t.mul(t.reshape(current, {c}), t.scalarLike(kept, 1 - momentum));
    return t.cast(t.add(kept, added), t.elementTypeOf(input));
  };
  return Values{t.cast(y, elt), running(ctx.input(3), mean),
                running(ctx.input(4), var)};
}

/// BatchNormalization in inference mode:
///   y = (x - mean) / sqrt(var + epsilon) * scale + B.
/// With constant parameters (the usual case) this folds at compile time into
/// y = x * m + o with m = scale / sqrt(var + epsilon), o = B - mean * m.
LegalizeResult batchNorm(NodeContext &ctx) {
  if (failed(ctx.requireInputs(5)) ||
      failed(ctx.requireElementType(0, Elt::Float)) ||
      failed(ctx.requireSameElementType(0, 5)))
    return failure();
  if (ctx.getOpset() < 9 && ctx.getInt("spatial", 1) == 0)
    return ctx.fail("spatial=0 is not supported");
  // training_mode exists from opset 14; before it, training was implied by
  // the extra outputs, whose saved statistics the versions define
  // differently.
  bool training = ctx.getOpset() >= 14 && ctx.getInt("training_mode", 0);
  if (!training)
    for (unsigned i = 1; i < ctx.numOutputs(); ++i)
      if (ctx.outputUsed(i))
        return ctx.fail(ctx.getOpset() >= 14
                            ? "running mean/variance outputs are only "
                              "defined with training_mode=1"
                            : "training outputs (running mean/variance) "
                              "before opset 14 are not supported");
  TosaBuilder &t = ctx.tosa;
  Value x = ctx.input(0);
  int64_t rank = t.rankOf(x);
  if (rank < 2)
    return ctx.fail("input must have rank at least 2");
  int64_t c = t.shapeOf(x)[1];
  for (unsigned i = 1; i < 5; ++i)
    if (ctx.inputShape(i) != ArrayRef<int64_t>{c})
      return ctx.fail("input " + Twine(i) + " must have shape [" + Twine(c) +
                      "]");
  double epsilon = ctx.getFloat("epsilon", 1e-5f);
  if (training)
    return batchNormTraining(ctx, epsilon);

  auto scale = ctx.constantInput(1), bias = ctx.constantInput(2),
       mean = ctx.constantInput(3), var = ctx.constantInput(4);
  if (scale && bias && mean && var) {
    SmallVector<double> s = toDoubles(*scale), b = toDoubles(*bias),
                        m = toDoubles(*mean), v = toDoubles(*var);
    SmallVector<double> mult(c), offset(c);
    for (int64_t i = 0; i < c; ++i) {
      mult[i] = s[i] / std::sqrt(v[i] + epsilon);
      offset[i] = b[i] - m[i] * mult[i];
    }
    auto type = RankedTensorType::get({c}, t.elementTypeOf(x));
    Value multV = perChannel(t, t.constant(fromDoubles(type, mult)), rank);
    Value offsetV = perChannel(t, t.constant(fromDoubles(type, offset)), rank);
    return Values{t.add(t.mul(x, multV), offsetV)};
  }
  Value varEps = t.add(ctx.input(4), t.scalarLike(ctx.input(4), epsilon));
  Value mult = t.mul(ctx.input(1), t.unary<tosa::RsqrtOp>(varEps));
  Value centered = t.sub(x, perChannel(t, ctx.input(3), rank));
  return Values{t.add(t.mul(centered, perChannel(t, mult, rank)),
                      perChannel(t, ctx.input(2), rank))};
}

/// Mean and 1/sqrt(variance + epsilon) over `axes` (kept as 1).
std::pair<Value, Value> moments(TosaBuilder &t, Value x, ArrayRef<int64_t> axes,
                                double epsilon) {
  Value mean = t.reduceMean(x, axes);
  Value centered = t.sub(x, mean);
  Value var = t.reduceMean(t.mul(centered, centered), axes);
  Value invStd = t.unary<tosa::RsqrtOp>(t.add(var, t.scalarLike(var, epsilon)));
  return {mean, invStd};
}

/// LayerNormalization over dimensions [axis, rank); optional outputs Mean
/// and InvStdDev (kept dimensions).
LegalizeResult layerNorm(NodeContext &ctx) {
  if (failed(ctx.requireInputs(2)) ||
      failed(ctx.requireElementType(0, Elt::Float)) ||
      failed(ctx.requireSameElementType(0, 3)))
    return failure();
  TosaBuilder &t = ctx.tosa;
  Value x = ctx.input(0);
  int64_t rank = t.rankOf(x);
  std::optional<int64_t> axis = normalizeAxis(ctx.getInt("axis", -1), rank);
  if (!axis)
    return ctx.fail("axis is out of range");
  Shape axes;
  for (int64_t d = *axis; d < rank; ++d)
    axes.push_back(d);
  for (unsigned i : {1u, 2u}) {
    if (!ctx.hasInput(i))
      continue;
    std::optional<Shape> s = broadcastShapes(t.shapeOf(x), ctx.inputShape(i));
    if (!s || ArrayRef<int64_t>(*s) != t.shapeOf(x))
      return ctx.fail("input " + Twine(i) + " does not broadcast to X");
  }
  // stash_type = 1 (the default): statistics in f32 even for f16 data;
  // Mean and InvStdDev are f32 outputs then.
  Type elt = t.elementTypeOf(x);
  Type stash = ctx.getInt("stash_type", 1) == 1
                   ? Type(Float32Type::get(x.getContext()))
                   : elt;
  auto [mean, invStd] =
      moments(t, t.cast(x, stash), axes, ctx.getFloat("epsilon", 1e-5f));
  Value y = t.mul(t.mul(t.sub(t.cast(x, stash), mean), invStd),
                  t.cast(ctx.input(1), stash));
  if (ctx.hasInput(2))
    y = t.add(y, t.cast(ctx.input(2), stash));
  return Values{t.cast(y, elt), mean, invStd};
}

/// RMSNormalization: x / sqrt(mean(x^2 over [axis, rank)) + epsilon) * scale,
/// with the statistics in f32 (stash_type = 1).
LegalizeResult rmsNorm(NodeContext &ctx) {
  if (failed(ctx.requireInputs(2)) ||
      failed(ctx.requireElementType(0, Elt::Float)) ||
      failed(ctx.requireSameElementType(0, 2)))
    return failure();
  TosaBuilder &t = ctx.tosa;
  Value x = ctx.input(0);
  int64_t rank = t.rankOf(x);
  std::optional<int64_t> axis = normalizeAxis(ctx.getInt("axis", -1), rank);
  if (!axis)
    return ctx.fail("axis is out of range");
  std::optional<Shape> s = broadcastShapes(t.shapeOf(x), ctx.inputShape(1));
  if (!s || ArrayRef<int64_t>(*s) != t.shapeOf(x))
    return ctx.fail("scale does not broadcast to X");
  Shape axes;
  for (int64_t d = *axis; d < rank; ++d)
    axes.push_back(d);
  Type elt = t.elementTypeOf(x);
  Type stash = ctx.getInt("stash_type", 1) == 1
                   ? Type(Float32Type::get(x.getContext()))
                   : elt;
  Value xs = t.cast(x, stash);
  Value meanSquare = t.reduceMean(t.mul(xs, xs), axes);
  Value inv = t.unary<tosa::RsqrtOp>(t.add(
      meanSquare, t.scalarLike(meanSquare, ctx.getFloat("epsilon", 1e-5f))));
  Value y = t.mul(t.mul(xs, inv), t.cast(ctx.input(1), stash));
  return Values{t.cast(y, elt)};
}

/// InstanceNormalization: per (n, c), over the spatial dimensions.
LegalizeResult instanceNorm(NodeContext &ctx) {
  if (failed(ctx.requireInputs(3)) ||
      failed(ctx.requireElementType(0, Elt::Float)) ||
      failed(ctx.requireSameElementType(0, 3)))
    return failure();
  TosaBuilder &t = ctx.tosa;
  Value x = ctx.input(0);
  int64_t rank = t.rankOf(x);
  if (rank < 3)
    return ctx.fail("input must have rank at least 3");
  int64_t c = t.shapeOf(x)[1];
  if (ctx.inputShape(1) != ArrayRef<int64_t>{c} ||
      ctx.inputShape(2) != ArrayRef<int64_t>{c})
    return ctx.fail("scale and B must have shape [" + Twine(c) + "]");
  Shape axes;
  for (int64_t d = 2; d < rank; ++d)
    axes.push_back(d);
  auto [mean, invStd] = moments(t, x, axes, ctx.getFloat("epsilon", 1e-5f));
  Value normalized = t.mul(t.sub(x, mean), invStd);
  return Values{t.add(t.mul(normalized, perChannel(t, ctx.input(1), rank)),
                      perChannel(t, ctx.input(2), rank))};
}

/// GroupNormalization: statistics per (n, group of C / num_groups channels)
/// over the group's channels and all spatial positions, computed in
/// stash_type's precision (f32 by default). From opset 21 scale and bias are
/// per channel and applied in X's type; opset 18 had them per group.
LegalizeResult groupNorm(NodeContext &ctx) {
  if (failed(ctx.requireInputs(3)) ||
      failed(ctx.requireElementType(0, Elt::Float)) ||
      failed(ctx.requireSameElementType(0, 3)))
    return failure();
  TosaBuilder &t = ctx.tosa;
  Value x = ctx.input(0);
  ArrayRef<int64_t> shape = t.shapeOf(x);
  int64_t rank = shape.size();
  if (rank < 2)
    return ctx.fail("input must have rank at least 2");
  int64_t n = shape[0], c = shape[1];
  int64_t groups = ctx.getInt("num_groups", 0);
  if (groups < 1 || c % groups != 0)
    return ctx.fail("num_groups (" + Twine(groups) +
                    ") must be positive and divide the channel count (" +
                    Twine(c) + ")");
  bool perGroup = ctx.getOpset() < 21;
  int64_t params = perGroup ? groups : c;
  if (ctx.inputShape(1) != ArrayRef<int64_t>{params} ||
      ctx.inputShape(2) != ArrayRef<int64_t>{params})
    return ctx.fail("scale and bias must have shape [" + Twine(params) + "]");
  if (failed(ctx.requireNonEmpty(shape)))
    return failure();
  Type elt = t.elementTypeOf(x);
  Type stash = perGroup || ctx.getInt("stash_type", 1) == 1
                   ? Type(Float32Type::get(x.getContext()))
                   : elt;
  Value grouped =
      t.reshape(t.cast(x, stash), {n, groups, product(shape) / (n * groups)});
  auto [mean, invStd] =
      moments(t, grouped, {2}, ctx.getFloat("epsilon", 1e-5f));
  Value normalized = t.mul(t.sub(grouped, mean), invStd);
  if (perGroup) {
    Value scale = t.reshape(t.cast(ctx.input(1), stash), {1, groups, 1});
    Value bias = t.reshape(t.cast(ctx.input(2), stash), {1, groups, 1});
    return Values{
        t.cast(t.reshape(t.add(t.mul(normalized, scale), bias), shape), elt)};
  }
  Value y = t.cast(t.reshape(normalized, shape), elt);
  return Values{t.add(t.mul(y, perChannel(t, ctx.input(1), rank)),
                      perChannel(t, ctx.input(2), rank))};
}

/// MeanVarianceNormalization: (X - mean) / (sqrt(var) + 1e-9) over `axes`
/// (default [0, 2, 3]); the epsilon is added to the standard deviation, as
/// in the ONNX function body, so a constant slice gives 0.
LegalizeResult meanVarianceNorm(NodeContext &ctx) {
  if (failed(ctx.requireInputs(1)) ||
      failed(ctx.requireElementType(0, Elt::Float)))
    return failure();
  TosaBuilder &t = ctx.tosa;
  Value x = ctx.input(0);
  Shape axes = ctx.getInts("axes", {0, 2, 3});
  if (failed(ctx.normalizeAxes(axes, t.rankOf(x))))
    return failure();
  Value mean = t.reduceMean(x, axes);
  Value centered = t.sub(x, mean);
  Value var = t.reduceMean(t.mul(centered, centered), axes);
  Value std = t.add(t.sqrt(var), t.scalarLike(var, 1e-9));
  return Values{t.mul(centered, t.unary<tosa::ReciprocalOp>(std))};
}

/// LRN: y = x / (bias + alpha / size * square_sum) ^ beta, square_sum over
/// channels [c - floor((size - 1) / 2), c + ceil((size - 1) / 2)].
LegalizeResult lrn(NodeContext &ctx) {
  if (failed(ctx.requireInputs(1)) ||
      failed(ctx.requireElementType(0, Elt::Float)))
    return failure();
  TosaBuilder &t = ctx.tosa;
  Value x = ctx.input(0);
  int64_t size = ctx.getInt("size", 0);
  if (size < 1)
    return ctx.fail("size must be positive");
  if (t.rankOf(x) < 3)
    return ctx.fail("input must have rank at least 3");
  int64_t before = (size - 1) / 2, after = size - 1 - before;
  Shape pads(2 * t.rankOf(x), 0);
  pads[2] = before;
  pads[3] = after;
  Value squares = t.pad(t.mul(x, x), pads, 0.0);
  int64_t c = t.shapeOf(x)[1];
  Value sum = t.sliceAxis(squares, 1, 0, c);
  for (int64_t i = 1; i < size; ++i)
    sum = t.add(sum, t.sliceAxis(squares, 1, i, c));
  double alpha = ctx.getFloat("alpha", 1e-4f),
         beta = ctx.getFloat("beta", 0.75f), bias = ctx.getFloat("bias", 1.0f);
  Value base = t.add(t.mul(sum, t.scalarLike(sum, alpha / size)),
                     t.scalarLike(sum, bias));
  return Values{t.mul(x, t.pow(base, t.scalarLike(base, -beta)))};
}

/// LpNormalization: x / ||x||_p along `axis` (p = 1 or 2).
LegalizeResult lpNorm(NodeContext &ctx) {
  if (failed(ctx.requireInputs(1)) ||
      failed(ctx.requireElementType(0, Elt::Float)))
    return failure();
  TosaBuilder &t = ctx.tosa;
  Value x = ctx.input(0);
  std::optional<int64_t> axis =
      normalizeAxis(ctx.getInt("axis", -1), t.rankOf(x));
  int64_t p = ctx.getInt("p", 2);
  if (!axis)
    return ctx.fail("axis is out of range");
  if (p != 1 && p != 2)
    return ctx.fail("p must be 1 or 2");
  // A zero norm gives zeros (the spec's 0/0 = 0).
  Value sum = p == 1 ? t.reduceSum(t.abs(x), {*axis})
                     : t.reduceSum(t.mul(x, x), {*axis});
  Value y = p == 1 ? t.div(x, sum) : t.mul(x, t.unary<tosa::RsqrtOp>(sum));
  Value zeroNorm = t.compare<tosa::EqualOp>(sum, t.scalarLike(sum, 0));
  return Values{t.select(zeroNorm, t.scalarLike(x, 0), y)};
}

/// The input of Softmax, LogSoftmax and Hardmax arranged for normalizing
/// over one axis: before opset 13 the input is coerced to 2-D at `axis`
/// (default 1) and normalized over every dimension from `axis` on; from 13
/// over the single dimension `axis` (default -1).
struct NormalizedAxis {
  Value input;
  int64_t axis;
};
FailureOr<NormalizedAxis> normalizedAxisInput(NodeContext &ctx, Value x) {
  TosaBuilder &t = ctx.tosa;
  ArrayRef<int64_t> shape = t.shapeOf(x);
  int64_t rank = shape.size();
  bool legacy = ctx.getOpset() < 13;
  std::optional<int64_t> axis =
      normalizeAxis(ctx.getInt("axis", legacy ? 1 : -1), rank);
  if (rank == 0 || !axis)
    return ctx.fail("axis is out of range for an input of rank " + Twine(rank));
  if (!legacy)
    return NormalizedAxis{x, *axis};
  return NormalizedAxis{t.reshape(x, {product(shape.take_front(*axis)),
                                      product(shape.drop_front(*axis))}),
                        1};
}

/// Softmax / LogSoftmax over the axis normalizedAxisInput gives,
/// max-subtracted for stability.
template <bool Log> LegalizeResult softmax(NodeContext &ctx) {
  if (failed(ctx.requireInputs(1)) ||
      failed(ctx.requireElementType(0, Elt::Float)))
    return failure();
  TosaBuilder &t = ctx.tosa;
  Value x = ctx.input(0);
  ArrayRef<int64_t> shape = t.shapeOf(x);
  // f16/bf16 data is normalized in f32 (as onnxruntime does) and rounded
  // once.
  Type elt = t.elementTypeOf(x);
  FailureOr<NormalizedAxis> arranged =
      normalizedAxisInput(ctx, t.cast(x, Float32Type::get(x.getContext())));
  if (failed(arranged))
    return failure();
  Value in = arranged->input;
  int64_t reduceAxis = arranged->axis;
  Value shifted = t.sub(in, t.reduceMax(in, {reduceAxis}));
  Value exps = t.unary<tosa::ExpOp>(shifted);
  Value sum = t.reduceSum(exps, {reduceAxis});
  Value y = Log ? t.sub(shifted, t.unary<tosa::LogOp>(sum))
                : t.mul(exps, t.unary<tosa::ReciprocalOp>(sum));
  return Values{t.cast(t.reshape(y, shape), elt)};
}

/// Hardmax: 1 at the first maximum along the axis normalizedAxisInput gives,
/// 0 elsewhere. The first maximum's index is the smallest index holding the
/// maximum.
LegalizeResult hardmax(NodeContext &ctx) {
  if (failed(ctx.requireInputs(1)) ||
      failed(ctx.requireElementType(0, Elt::Float)))
    return failure();
  TosaBuilder &t = ctx.tosa;
  Value x = ctx.input(0);
  ArrayRef<int64_t> shape = t.shapeOf(x);
  FailureOr<NormalizedAxis> arranged = normalizedAxisInput(ctx, x);
  if (failed(arranged))
    return failure();
  Value in = arranged->input;
  int64_t a = arranged->axis;
  int64_t n = t.shapeOf(in)[a];
  Shape iotaShape(t.rankOf(in), 1);
  iotaShape[a] = n;
  Type f32 = Float32Type::get(x.getContext());
  SmallVector<double> positions;
  for (int64_t i = 0; i < n; ++i)
    positions.push_back(i);
  Value iota =
      t.constant(fromDoubles(RankedTensorType::get(iotaShape, f32), positions));
  Value isMax = t.compare<tosa::EqualOp>(in, t.reduceMax(in, {a}));
  Value first = t.reduce<tosa::ReduceMinOp>(
      t.select(isMax, iota, t.scalarLike(iota, static_cast<double>(n))), {a});
  Value hot = t.compare<tosa::EqualOp>(iota, first);
  Value y = t.select(hot, t.scalarLike(in, 1), t.scalarLike(in, 0));
  return Values{t.reshape(y, shape)};
}

// clang-format off
const OpLegalization kNormalization[] = {
    {"BatchNormalization", 6, batchNorm},
    {"LayerNormalization", 17, layerNorm},
    {"RMSNormalization", 23, rmsNorm},
    {"InstanceNormalization", 6, instanceNorm},
    {"GroupNormalization", 18, groupNorm},
    {"MeanVarianceNormalization", 9, meanVarianceNorm},
    {"LRN", 1, lrn},
    {"LpNormalization", 1, lpNorm},
    {"Softmax", 1, softmax</*Log=*/false>},
    {"LogSoftmax", 1, softmax</*Log=*/true>},
    {"Hardmax", 1, hardmax},
};
// clang-format on

} // namespace

ArrayRef<OpLegalization> getNormalizationLegalizations() {
  return kNormalization;
}

} // namespace onnx_tosa
