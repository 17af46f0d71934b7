//===- Training.cpp - Optimizer updates of ai.onnx.preview.training -------===//
//
// Adagrad, Adam and Momentum apply one step of an optimizer to a group of
// variables. Their inputs are R (the learning rate, a float scalar), T (the
// step count, an int64 scalar), then, for n variables, n tensors of each kind
// the optimizer reads: X1..Xn, G1..Gn and its state (H, or V then H). Their
// outputs are the updated X1..Xn, then the updated state of each kind. Every
// update is elementwise arithmetic on one variable's tensors and the two
// scalars, which are run-time tensors: they broadcast, and the branches the
// spec takes on T > 0 are selects.
//
// Gradient, the other op of the domain, differentiates a graph and is not
// legalized (docs/unsupported-ops.md).
//
//===----------------------------------------------------------------------===//
#include "conversion/onnx-to-tosa/NodeContext.h"

#include <cmath>

using namespace mlir;

namespace onnx_tosa {
namespace {

constexpr llvm::StringLiteral kTrainingDomain = "ai.onnx.preview.training";

/// The scalars shared by all variables of one step (f32).
struct Step {
  Value rate;     ///< R
  Value count;    ///< T as a float
  Value positive; ///< T > 0 (i1)
};

/// Computes the update of one variable: `in` holds X, G and the state
/// tensors; the result holds the new X and the new state tensors.
using Update = FailureOr<Values> (*)(NodeContext &ctx, const Step &step,
                                     ArrayRef<Value> in);

/// norm_coefficient * X + G: the gradient with the L2 regularization term.
Value regularizedGradient(TosaBuilder &t, double norm, Value x, Value g) {
  if (norm == 0)
    return g;
  return t.add(t.mul(t.scalarLike(x, norm), x), g);
}

/// `base` ^ T for a compile-time base >= 0, as exp(T * ln(base)) with the
/// logarithm taken in double precision (base 0 gives ln = -inf, so 0 for
/// T > 0; T = 0 is never read, the spec's T > 0 branch selects it out).
Value powerOfCount(TosaBuilder &t, const Step &step, double base) {
  Value logBase = t.scalarLike(step.count, std::log(base));
  return t.unary<tosa::ExpOp>(t.mul(step.count, logBase));
}

/// Reads a float attribute the schema requires (Momentum has no defaults).
FailureOr<double> requiredFloat(NodeContext &ctx, StringRef name) {
  if (!ctx.hasAttr(name))
    return ctx.fail("attribute '" + name + "' is required");
  return static_cast<double>(ctx.getFloat(name, 0.0f));
}

/// Adagrad:
///   r = R / (1 + T * decay_factor)
///   G' = norm_coefficient * X + G
///   H_new = H + G' * G'
///   X_new = X - r * G' / (sqrt(H_new) + epsilon)
FailureOr<Values> adagrad(NodeContext &ctx, const Step &step,
                          ArrayRef<Value> in) {
  TosaBuilder &t = ctx.tosa;
  Value x = in[0], h = in[2];
  Value g =
      regularizedGradient(t, ctx.getFloat("norm_coefficient", 0.0f), x, in[1]);
  double decay = ctx.getFloat("decay_factor", 0.0f);
  double epsilon = ctx.getFloat("epsilon", 0.0f);
  Value rate = t.div(step.rate,
                     t.add(t.scalarLike(step.count, 1.0),
                           t.mul(step.count, t.scalarLike(step.count, decay))));
  Value hNew = t.add(h, t.mul(g, g));
  Value scaled = t.div(g, t.add(t.sqrt(hNew), t.scalarLike(hNew, epsilon)));
  return Values{t.sub(x, t.mul(rate, scaled)), hNew};
}

/// Adam:
///   G' = norm_coefficient * X + G
///   V_new = alpha * V + (1 - alpha) * G'
///   H_new = beta * H + (1 - beta) * G' * G'
///   r = T > 0 ? R * sqrt(1 - beta^T) / (1 - alpha^T) : R
///   X_new = (1 - norm_coefficient_post) * (X - r * V_new / (sqrt(H_new) +
///           epsilon))
FailureOr<Values> adam(NodeContext &ctx, const Step &step, ArrayRef<Value> in) {
  TosaBuilder &t = ctx.tosa;
  Value x = in[0], v = in[2], h = in[3];
  double alpha = ctx.getFloat("alpha", 0.9f),
         beta = ctx.getFloat("beta", 0.999f);
  double epsilon = ctx.getFloat("epsilon", 0.0f);
  double post = ctx.getFloat("norm_coefficient_post", 0.0f);
  if (alpha < 0 || beta < 0)
    return ctx.fail("alpha and beta must not be negative (alpha^T and beta^T "
                    "are computed as exp(T * ln(alpha)))");
  Value g =
      regularizedGradient(t, ctx.getFloat("norm_coefficient", 0.0f), x, in[1]);
  Value vNew = t.add(t.mul(t.scalarLike(v, alpha), v),
                     t.mul(t.scalarLike(g, 1 - alpha), g));
  Value hNew = t.add(t.mul(t.scalarLike(h, beta), h),
                     t.mul(t.scalarLike(g, 1 - beta), t.mul(g, g)));
  Value one = t.scalarLike(step.count, 1.0);
  Value corrected =
      t.div(t.mul(step.rate, t.sqrt(t.sub(one, powerOfCount(t, step, beta)))),
            t.sub(one, powerOfCount(t, step, alpha)));
  Value rate = t.select(step.positive, corrected, step.rate);
  Value scaled = t.div(vNew, t.add(t.sqrt(hNew), t.scalarLike(hNew, epsilon)));
  Value xNew = t.sub(x, t.mul(rate, scaled));
  if (post != 0)
    xNew = t.mul(t.scalarLike(xNew, 1 - post), xNew);
  return Values{xNew, vNew, hNew};
}

/// Momentum (mode "standard" or "nesterov"):
///   G' = norm_coefficient * X + G
///   V_new = alpha * V + (T > 0 ? beta : 1) * G'
///   X_new = X - R * V_new                     (standard)
///   X_new = X - R * (G' + alpha * V_new)      (nesterov)
FailureOr<Values> momentum(NodeContext &ctx, const Step &step,
                           ArrayRef<Value> in) {
  TosaBuilder &t = ctx.tosa;
  FailureOr<double> alpha = requiredFloat(ctx, "alpha"),
                    beta = requiredFloat(ctx, "beta"),
                    norm = requiredFloat(ctx, "norm_coefficient");
  if (failed(alpha) || failed(beta) || failed(norm))
    return failure();
  if (!ctx.hasAttr("mode"))
    return ctx.fail("attribute 'mode' is required");
  std::string mode = ctx.getString("mode", "");
  if (mode != "standard" && mode != "nesterov")
    return ctx.fail("mode '" + mode +
                    "' is neither \"standard\" nor \"nesterov\"");
  Value x = in[0], v = in[2];
  Value g = regularizedGradient(t, *norm, x, in[1]);
  // The gradient's coefficient is 1 on the first step (T = 0).
  Value gradientScale =
      *beta == 1 ? t.scalarLike(step.count, 1.0)
                 : t.select(step.positive, t.scalarLike(step.count, *beta),
                            t.scalarLike(step.count, 1.0));
  Value vNew =
      t.add(t.mul(t.scalarLike(v, *alpha), v), t.mul(gradientScale, g));
  Value direction = mode == "standard"
                        ? vNew
                        : t.add(g, t.mul(t.scalarLike(vNew, *alpha), vNew));
  return Values{t.sub(x, t.mul(step.rate, direction)), vNew};
}

/// The shared structure: checks the variadic inputs, builds the step
/// scalars, applies `update` to each variable's `tensors` inputs (X, G and
/// the state), and orders the results kind by kind.
LegalizeResult optimizerStep(NodeContext &ctx, unsigned tensors,
                             Update update) {
  unsigned numInputs = ctx.numInputs();
  if (numInputs < 2 + tensors || (numInputs - 2) % tensors != 0)
    return ctx.fail("expects R, T and " + Twine(tensors) +
                    " tensors per variable, but has " + Twine(numInputs) +
                    " inputs");
  if (failed(ctx.requireInputs(numInputs)) ||
      failed(ctx.requireElementType(0, Elt::Float)) ||
      failed(ctx.requireElementType(1, Elt::Int)) ||
      failed(ctx.requireElementType(2, Elt::Float)) ||
      failed(ctx.requireSameElementType(2, numInputs)))
    return failure();
  if (ctx.inputRank(0) != 0 || ctx.inputRank(1) != 0)
    return ctx.fail("R and T must be scalars");
  unsigned n = (numInputs - 2) / tensors;
  for (unsigned i = 0; i < n; ++i) {
    ArrayRef<int64_t> shape = ctx.inputShape(2 + i);
    for (unsigned k = 1; k < tensors; ++k)
      if (ctx.inputShape(2 + k * n + i) != shape)
        return ctx.fail("input " + Twine(2 + k * n + i) +
                        " must have the shape of X" + Twine(i + 1) +
                        " (input " + Twine(2 + i) + ")");
    if (failed(ctx.requireNonEmpty(shape)))
      return failure();
  }

  // The update is computed in f32 (f16/bf16 data is rounded once at the
  // end: beta^T and 1 - beta^T lose most of their digits in 16 bits). T > 0
  // is tested on the float count (exact in sign), which keeps the whole
  // update in TOSA's floating-point profile.
  TosaBuilder &t = ctx.tosa;
  Type elt = t.elementTypeOf(ctx.input(2));
  Type f32 = Float32Type::get(elt.getContext());
  Value count = t.cast(ctx.input(1), f32);
  Step step{t.cast(ctx.input(0), f32), count,
            t.compare<tosa::GreaterOp>(count, t.scalarLike(count, 0))};

  unsigned kinds = tensors - 1;
  Values results(kinds * n);
  for (unsigned i = 0; i < n; ++i) {
    SmallVector<Value> in;
    for (unsigned k = 0; k < tensors; ++k)
      in.push_back(t.cast(ctx.input(2 + k * n + i), f32));
    FailureOr<Values> updated = update(ctx, step, in);
    if (failed(updated))
      return failure();
    for (unsigned k = 0; k < kinds; ++k)
      results[k * n + i] = t.cast((*updated)[k], elt);
  }
  return results;
}

/// A row's handler: the optimizer's tensors per variable and its update.
template <unsigned Tensors, Update Fn>
LegalizeResult optimizer(NodeContext &ctx) {
  return optimizerStep(ctx, Tensors, Fn);
}

// clang-format off
const OpLegalization kTraining[] = {
    // X, G, H
    {"Adagrad", 1, optimizer<3, adagrad>, kTrainingDomain},
    // X, G, V, H
    {"Adam", 1, optimizer<4, adam>, kTrainingDomain},
    // X, G, V
    {"Momentum", 1, optimizer<3, momentum>, kTrainingDomain},
};
// clang-format on

} // namespace

ArrayRef<OpLegalization> getTrainingLegalizations() { return kTraining; }

} // namespace onnx_tosa
