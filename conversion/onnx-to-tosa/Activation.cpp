//===- Activation.cpp - Relu, Clip, PRelu, Elu, Gelu, Swish, SwiGLU, ... --===//
//
// Activation functions, written as the formulas of the ONNX spec (and, where
// the spec leaves the choice open, the branch conditions onnxruntime uses, so
// that results agree at x = 0 and for large |x|).
//
//===----------------------------------------------------------------------===//
#include "conversion/onnx-to-tosa/NodeContext.h"

#include <cmath>
#include <limits>

using namespace mlir;

namespace onnx_tosa {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

/// Checks the single float input of an activation and returns it.
FailureOr<Value> floatInput(NodeContext &ctx) {
  if (failed(ctx.requireInputs(1)) ||
      failed(ctx.requireElementType(0, Elt::Float)))
    return failure();
  return ctx.input(0);
}

/// Relu: max(0, x); integer types too from opset 14.
LegalizeResult relu(NodeContext &ctx) {
  if (failed(ctx.requireInputs(1)) ||
      failed(ctx.requireElementType(0, Elt::Number)))
    return failure();
  return Values{ctx.tosa.clamp(ctx.input(0), 0, kInf)};
}

/// LeakyRelu: x >= 0 ? x : alpha * x.
LegalizeResult leakyRelu(NodeContext &ctx) {
  FailureOr<Value> x = floatInput(ctx);
  if (failed(x))
    return failure();
  TosaBuilder &t = ctx.tosa;
  double alpha = ctx.getFloat("alpha", 0.01f);
  Value nonNeg = t.compare<tosa::GreaterEqualOp>(*x, t.scalarLike(*x, 0));
  return Values{t.select(nonNeg, *x, t.mul(*x, t.scalarLike(*x, alpha)))};
}

/// PRelu: x < 0 ? slope * x : x, slope broadcast to x (unidirectional).
/// Before opset 7 the spec has no broadcasting rule, only "a slope of size 1
/// is shared across channels": a 1-D slope of the channel count (axis 1) is
/// one slope per channel, as in the Caffe2 and PyTorch operators it comes
/// from (the PyTorch-converted PReLU tests rely on it).
LegalizeResult prelu(NodeContext &ctx) {
  if (failed(ctx.requireInputs(2)) ||
      failed(ctx.requireElementType(0, Elt::Float)) ||
      failed(ctx.requireSameElementType(0, 2)))
    return failure();
  TosaBuilder &t = ctx.tosa;
  Value x = ctx.input(0), slope = ctx.input(1);
  int64_t rank = t.rankOf(x);
  if (ctx.getOpset() < 7 && t.rankOf(slope) == 1 && rank >= 2 &&
      t.shapeOf(slope)[0] == t.shapeOf(x)[1]) {
    Shape perChannel(rank, 1);
    perChannel[1] = t.shapeOf(x)[1];
    slope = t.reshape(slope, perChannel);
  }
  std::optional<Shape> shape = broadcastShapes(t.shapeOf(x), t.shapeOf(slope));
  if (!shape || ArrayRef<int64_t>(*shape) != t.shapeOf(x))
    return ctx.fail("slope of shape " + llvm::to_string(slope.getType()) +
                    " does not broadcast to the input's shape");
  Value negative = t.compare<tosa::GreaterOp>(t.scalarLike(x, 0), x);
  return Values{t.select(negative, t.mul(x, slope), x)};
}

/// Clip: min/max attributes before opset 11, optional inputs from 11.
LegalizeResult clip(NodeContext &ctx) {
  if (failed(ctx.requireInputs(1)) ||
      failed(ctx.requireElementType(0, Elt::Number)))
    return failure();
  TosaBuilder &t = ctx.tosa;
  Value x = ctx.input(0);
  if (ctx.getOpset() < 11) {
    double lo = ctx.getFloat("min", -std::numeric_limits<float>::max());
    double hi = ctx.getFloat("max", std::numeric_limits<float>::max());
    if (lo <= hi)
      return Values{t.clamp(x, lo, hi)};
    return Values{
        t.minimum(t.maximum(x, t.scalarLike(x, lo)), t.scalarLike(x, hi))};
  }
  if (failed(ctx.requireSameElementType(0, 3)))
    return failure();
  // Absent bounds are unbounded; constant bounds fold into one clamp.
  double lo = -kInf, hi = kInf;
  Value loValue, hiValue;
  for (unsigned i : {1u, 2u}) {
    if (!ctx.hasInput(i))
      continue;
    if (product(ctx.inputShape(i)) != 1)
      return ctx.fail("input " + Twine(i) + " must be a scalar");
    if (std::optional<DenseElementsAttr> c = ctx.constantInput(i))
      (i == 1 ? lo : hi) = toDoubles(*c).front();
    else
      (i == 1 ? loValue : hiValue) = t.reshape(ctx.input(i), {});
  }
  if (!loValue && !hiValue && lo <= hi)
    return Values{t.clamp(x, lo, hi)};
  // max(x, lo) then min(., hi), as the spec defines it when lo > hi.
  Value y = x;
  if (loValue || lo != -kInf)
    y = t.maximum(y, loValue ? loValue : t.scalarLike(x, lo));
  if (hiValue || hi != kInf)
    y = t.minimum(y, hiValue ? hiValue : t.scalarLike(x, hi));
  return Values{t.broadcastTo(y, t.shapeOf(x))};
}

/// Elu: x >= 0 ? x : alpha * (exp(x) - 1).
LegalizeResult elu(NodeContext &ctx) {
  FailureOr<Value> x = floatInput(ctx);
  if (failed(x))
    return failure();
  TosaBuilder &t = ctx.tosa;
  Value alpha = t.scalarLike(*x, ctx.getFloat("alpha", 1.0f));
  Value expm1 = t.sub(t.unary<tosa::ExpOp>(*x), t.scalarLike(*x, 1));
  Value nonNeg = t.compare<tosa::GreaterEqualOp>(*x, t.scalarLike(*x, 0));
  return Values{t.select(nonNeg, *x, t.mul(alpha, expm1))};
}

/// Selu: gamma * (x > 0 ? x : alpha * exp(x) - alpha).
LegalizeResult selu(NodeContext &ctx) {
  FailureOr<Value> x = floatInput(ctx);
  if (failed(x))
    return failure();
  TosaBuilder &t = ctx.tosa;
  Value alpha =
      t.scalarLike(*x, ctx.getFloat("alpha", 1.67326319217681884765625f));
  Value gamma =
      t.scalarLike(*x, ctx.getFloat("gamma", 1.05070102214813232421875f));
  Value negPart = t.sub(t.mul(alpha, t.unary<tosa::ExpOp>(*x)), alpha);
  Value positive = t.compare<tosa::GreaterOp>(*x, t.scalarLike(*x, 0));
  return Values{t.mul(gamma, t.select(positive, *x, negPart))};
}

/// Celu: max(0, x) + min(0, alpha * (exp(x / alpha) - 1)).
LegalizeResult celu(NodeContext &ctx) {
  FailureOr<Value> x = floatInput(ctx);
  if (failed(x))
    return failure();
  TosaBuilder &t = ctx.tosa;
  double alpha = ctx.getFloat("alpha", 1.0f);
  Value scaled = t.mul(*x, t.scalarLike(*x, 1.0 / alpha));
  Value expm1 = t.sub(t.unary<tosa::ExpOp>(scaled), t.scalarLike(*x, 1));
  Value neg = t.clamp(t.mul(expm1, t.scalarLike(*x, alpha)), -kInf, 0);
  return Values{t.add(t.clamp(*x, 0, kInf), neg)};
}

/// HardSigmoid: max(0, min(1, alpha * x + beta)).
Value hardSigmoid(TosaBuilder &t, Value x, double alpha, double beta) {
  Value lin = t.add(t.mul(x, t.scalarLike(x, alpha)), t.scalarLike(x, beta));
  return t.clamp(lin, 0, 1);
}

LegalizeResult hardSigmoidOp(NodeContext &ctx) {
  FailureOr<Value> x = floatInput(ctx);
  if (failed(x))
    return failure();
  return Values{hardSigmoid(ctx.tosa, *x, ctx.getFloat("alpha", 0.2f),
                            ctx.getFloat("beta", 0.5f))};
}

/// HardSwish: x * HardSigmoid(x) with alpha = 1/6, beta = 0.5.
LegalizeResult hardSwish(NodeContext &ctx) {
  FailureOr<Value> x = floatInput(ctx);
  if (failed(x))
    return failure();
  return Values{ctx.tosa.mul(*x, hardSigmoid(ctx.tosa, *x, 1.0 / 6, 0.5))};
}

/// log(1 + u) for u >= 0, keeping u's precision when u is small (TOSA has
/// no log1p): with w = 1 + u rounded, log(w) * u / (w - 1) corrects the
/// rounding of w; when w rounds to 1, log1p(u) is u itself.
Value log1p(TosaBuilder &t, Value u) {
  Value one = t.scalarLike(u, 1);
  Value w = t.add(u, one);
  Value d = t.sub(w, one);
  Value corrected = t.mul(t.unary<tosa::LogOp>(w), t.div(u, d));
  return t.select(t.compare<tosa::EqualOp>(d, t.scalarLike(u, 0)), u,
                  corrected);
}

/// Softplus: log(exp(x) + 1), computed as max(x, 0) + log1p(exp(-|x|)) so
/// that large inputs do not overflow and very negative ones keep their
/// relative precision.
Value softplus(TosaBuilder &t, Value x) {
  Value tail = log1p(t, t.unary<tosa::ExpOp>(t.negate(t.abs(x))));
  return t.add(t.clamp(x, 0, kInf), tail);
}

LegalizeResult softplusOp(NodeContext &ctx) {
  FailureOr<Value> x = floatInput(ctx);
  if (failed(x))
    return failure();
  return Values{softplus(ctx.tosa, *x)};
}

/// Softsign: x / (1 + |x|).
LegalizeResult softsign(NodeContext &ctx) {
  FailureOr<Value> x = floatInput(ctx);
  if (failed(x))
    return failure();
  TosaBuilder &t = ctx.tosa;
  Value denom = t.add(t.abs(*x), t.scalarLike(*x, 1));
  return Values{t.div(*x, denom)};
}

/// Mish: x * tanh(softplus(x)).
LegalizeResult mish(NodeContext &ctx) {
  FailureOr<Value> x = floatInput(ctx);
  if (failed(x))
    return failure();
  TosaBuilder &t = ctx.tosa;
  return Values{t.mul(*x, t.unary<tosa::TanhOp>(softplus(t, *x)))};
}

/// ThresholdedRelu: x > alpha ? x : 0.
LegalizeResult thresholdedRelu(NodeContext &ctx) {
  FailureOr<Value> x = floatInput(ctx);
  if (failed(x))
    return failure();
  TosaBuilder &t = ctx.tosa;
  Value above = t.compare<tosa::GreaterOp>(
      *x, t.scalarLike(*x, ctx.getFloat("alpha", 1.0f)));
  return Values{t.select(above, *x, t.scalarLike(*x, 0))};
}

/// x * sigmoid(alpha * x), alpha from the node's attribute.
Value swishOf(NodeContext &ctx, Value x) {
  TosaBuilder &t = ctx.tosa;
  double alpha = ctx.getFloat("alpha", 1.0f);
  Value scaled = alpha == 1.0 ? x : t.mul(x, t.scalarLike(x, alpha));
  return t.mul(x, t.unary<tosa::SigmoidOp>(scaled));
}

/// Swish: x * sigmoid(alpha * x).
LegalizeResult swish(NodeContext &ctx) {
  FailureOr<Value> x = floatInput(ctx);
  if (failed(x))
    return failure();
  return Values{swishOf(ctx, *x)};
}

/// SwiGLU: Swish(A) * B, A and B of one shape (no broadcasting).
LegalizeResult swiGLU(NodeContext &ctx) {
  if (failed(ctx.requireInputs(2)) ||
      failed(ctx.requireElementType(0, Elt::Float)) ||
      failed(ctx.requireSameElementType(0, 2)))
    return failure();
  if (ctx.inputShape(0) != ctx.inputShape(1))
    return ctx.fail("A and B must have the same shape");
  return Values{ctx.tosa.mul(swishOf(ctx, ctx.input(0)), ctx.input(1))};
}

/// Shrink: x + bias below -lambd, x - bias above lambd, 0 between.
LegalizeResult shrink(NodeContext &ctx) {
  if (failed(ctx.requireInputs(1)) ||
      failed(ctx.requireElementType(0, Elt::Number)))
    return failure();
  TosaBuilder &t = ctx.tosa;
  Value x = ctx.input(0);
  double lambd = ctx.getFloat("lambd", 0.5f), bias = ctx.getFloat("bias", 0.0f);
  Value below = t.compare<tosa::GreaterOp>(t.scalarLike(x, -lambd), x);
  Value above = t.compare<tosa::GreaterOp>(x, t.scalarLike(x, lambd));
  Value zero = t.scalarLike(x, 0);
  Value upper = t.select(above, t.sub(x, t.scalarLike(x, bias)), zero);
  return Values{t.select(below, t.add(x, t.scalarLike(x, bias)), upper)};
}

/// Gelu: 0.5 x (1 + erf(x / sqrt 2)), or with approximate = "tanh"
/// 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))).
LegalizeResult gelu(NodeContext &ctx) {
  FailureOr<Value> x = floatInput(ctx);
  if (failed(x))
    return failure();
  TosaBuilder &t = ctx.tosa;
  std::string approximate = ctx.getString("approximate", "none");
  Value inner;
  if (approximate == "none") {
    inner = t.unary<tosa::ErfOp>(t.mul(*x, t.scalarLike(*x, M_SQRT1_2)));
  } else if (approximate == "tanh") {
    Value cube = t.mul(t.mul(*x, *x), *x);
    Value poly = t.add(*x, t.mul(cube, t.scalarLike(*x, 0.044715)));
    inner = t.unary<tosa::TanhOp>(
        t.mul(poly, t.scalarLike(*x, std::sqrt(2.0 / M_PI))));
  } else {
    return ctx.fail("approximate='" + approximate + "' is not supported");
  }
  Value half = t.mul(*x, t.scalarLike(*x, 0.5));
  return Values{t.mul(half, t.add(inner, t.scalarLike(*x, 1)))};
}

// clang-format off
const OpLegalization kActivation[] = {
    {"Relu", 6, relu},
    {"LeakyRelu", 6, leakyRelu},
    {"PRelu", 1, prelu},
    {"Clip", 6, clip},
    {"Elu", 6, elu},
    {"Selu", 6, selu},
    {"Celu", 12, celu},
    {"HardSigmoid", 6, hardSigmoidOp},
    {"HardSwish", 14, hardSwish},
    {"Softplus", 1, softplusOp},
    {"Softsign", 1, softsign},
    {"Mish", 18, mish},
    {"ThresholdedRelu", 10, thresholdedRelu},
    {"Gelu", 20, gelu},
    {"Swish", 24, swish},
    {"SwiGLU", 28, swiGLU},
    {"Shrink", 9, shrink},
};
// clang-format on

} // namespace

ArrayRef<OpLegalization> getActivationLegalizations() { return kActivation; }

} // namespace onnx_tosa
