//===- Loss.cpp - NegativeLogLikelihoodLoss, SoftmaxCrossEntropyLoss ------===//
//
// Both losses pick, at every position of the target, the input's entry of the
// target's class. The target is run-time data, so instead of a gather the
// pick is a one-hot mask (the target compared with the class indices along
// axis 1) that selects the entry, summed over the classes: an out-of-range
// target (ignore_index may be one) selects nothing.
//
//===----------------------------------------------------------------------===//
#include "conversion/onnx-to-tosa/NodeContext.h"

using namespace mlir;

namespace onnx_tosa {
namespace {

/// The NegativeLogLikelihoodLoss of `logProb` ([N, C, d1, ..., dk], f32)
/// against the node's target (input 1, [N, d1, ..., dk]) with the optional
/// class weights (input 2, [C]) and the ignore_index and reduction
/// attributes. Loss is computed in f32; the caller casts it back.
FailureOr<Value> nllLoss(NodeContext &ctx, Value logProb) {
  TosaBuilder &t = ctx.tosa;
  ArrayRef<int64_t> shape = t.shapeOf(logProb);
  int64_t rank = shape.size();
  if (rank < 2)
    return ctx.fail("input must have rank at least 2 ([N, C, ...])");
  int64_t classes = shape[1];
  Shape targetShape(shape);
  targetShape.erase(targetShape.begin() + 1);
  if (ctx.inputShape(1) != ArrayRef<int64_t>(targetShape))
    return ctx.fail("target must have the input's shape without dimension 1");
  if (failed(ctx.requireElementType(1, Elt::Int)))
    return failure();
  std::string reduction = ctx.getString("reduction", "mean");
  if (reduction != "none" && reduction != "sum" && reduction != "mean")
    return ctx.fail("reduction '" + reduction + "' is not supported");
  if (failed(ctx.requireNonEmpty(shape)))
    return failure();

  // The target with a unit class axis, [N, 1, d1, ..., dk], against the
  // class indices [1, C, 1, ..., 1] (in the target's type, so a constant
  // target folds).
  Shape keptShape(shape);
  keptShape[1] = 1;
  Value target = t.reshape(ctx.input(1), keptShape);
  Shape classShape(rank, 1);
  classShape[1] = classes;
  SmallVector<int64_t> classIds;
  for (int64_t c = 0; c < classes; ++c)
    classIds.push_back(c);
  Value classIota = t.constant(fromInts(
      RankedTensorType::get(classShape, t.elementTypeOf(target)), classIds));
  Value hot = t.compare<tosa::EqualOp>(target, classIota);

  Value zero = t.scalarLike(logProb, 0);
  Value loss =
      t.negate(t.reduceSum(t.select(hot, logProb, zero), {1})); // [N, 1, ...]

  // The weight of each position: weight[target], 0 where ignored.
  Value weight;
  if (ctx.hasInput(2)) {
    if (ctx.inputShape(2) != ArrayRef<int64_t>{classes})
      return ctx.fail("weight must have shape [" + Twine(classes) + "]");
    if (failed(ctx.requireElementType(2, Elt::Float)))
      return failure();
    Value classWeight =
        t.reshape(t.cast(ctx.input(2), t.elementTypeOf(logProb)), classShape);
    weight = t.reduceSum(t.select(hot, classWeight, zero), {1});
    loss = t.mul(loss, weight);
  }
  if (ctx.hasAttr("ignore_index")) {
    Value ignored = t.compare<tosa::EqualOp>(
        target, t.scalarLike(target, static_cast<double>(
                                         ctx.getInt("ignore_index", 0))));
    // A select rather than a product keeps an ignored -inf log-probability
    // from turning into NaN.
    loss = t.select(ignored, zero, loss);
    weight = t.select(ignored, zero, weight ? weight : t.scalarLike(loss, 1));
  }

  loss = t.reshape(loss, targetShape);
  if (reduction == "none")
    return loss;
  if (weight)
    weight = t.reshape(weight, targetShape);
  Shape all;
  for (int64_t d = 0; d < rank - 1; ++d)
    all.push_back(d);
  Value sum = t.reduceSum(loss, all);
  // "mean" divides by the total weight of the positions (weight[target], 0
  // where ignored, 1 without weights): the ONNX function body and PyTorch's
  // NLLLoss both leave ignored positions out of the count.
  if (reduction == "mean")
    sum = weight ? t.div(sum, t.reduceSum(weight, all))
                 : t.mul(sum, t.scalarLike(sum, 1.0 / product(targetShape)));
  return t.reshape(sum, {});
}

LegalizeResult negativeLogLikelihoodLoss(NodeContext &ctx) {
  if (failed(ctx.requireInputs(2)) ||
      failed(ctx.requireElementType(0, Elt::Float)))
    return failure();
  TosaBuilder &t = ctx.tosa;
  Value x = ctx.input(0);
  Type elt = t.elementTypeOf(x);
  FailureOr<Value> loss =
      nllLoss(ctx, t.cast(x, Float32Type::get(x.getContext())));
  if (failed(loss))
    return failure();
  return Values{t.cast(*loss, elt)};
}

/// SoftmaxCrossEntropyLoss: the NLL loss of LogSoftmax(scores) over axis 1;
/// the optional second output is that log-probability.
LegalizeResult softmaxCrossEntropyLoss(NodeContext &ctx) {
  if (failed(ctx.requireInputs(2)) ||
      failed(ctx.requireElementType(0, Elt::Float)))
    return failure();
  TosaBuilder &t = ctx.tosa;
  Value x = ctx.input(0);
  if (t.rankOf(x) < 2)
    return ctx.fail("scores must have rank at least 2 ([N, C, ...])");
  Type elt = t.elementTypeOf(x);
  Value scores = t.cast(x, Float32Type::get(x.getContext()));
  Value shifted = t.sub(scores, t.reduceMax(scores, {1}));
  Value logProb = t.sub(shifted, t.unary<tosa::LogOp>(t.reduceSum(
                                     t.unary<tosa::ExpOp>(shifted), {1})));
  FailureOr<Value> loss = nllLoss(ctx, logProb);
  if (failed(loss))
    return failure();
  return Values{t.cast(*loss, elt), t.cast(logProb, elt)};
}

// clang-format off
const OpLegalization kLoss[] = {
    {"NegativeLogLikelihoodLoss", 12, negativeLogLikelihoodLoss},
    {"SoftmaxCrossEntropyLoss", 12, softmaxCrossEntropyLoss},
};
// clang-format on

} // namespace

ArrayRef<OpLegalization> getLossLegalizations() { return kLoss; }

} // namespace onnx_tosa
