//===- Recurrent.cpp - RNN, GRU, LSTM -------------------------------------===//
//
// The recurrent layers, unrolled at compile time over their static sequence
// length. The input projection X·Wᵀ (+ Wb) of every time step is one
// tosa.matmul over the whole sequence; each step then adds its H·Rᵀ (+ Rb)
// and applies the gate equations of the ONNX spec. Weights are transposed and
// sliced at compile time when they are constants. sequence_lens becomes a
// per-step [batch, 1] mask (constant when the lengths are): finished batch
// elements hold their state and output zeros, as the spec requires.
//
// Shared conventions (ONNX spec, all three operators):
//   X          [seq, batch, input]        ([batch, seq, input] with layout=1)
//   W          [dirs, gates*hidden, input]
//   R          [dirs, gates*hidden, hidden]
//   B          [dirs, 2*gates*hidden] = [Wb, Rb]
//   initial_h  [dirs, batch, hidden]      ([batch, dirs, hidden] with layout=1)
//   Y          [seq, dirs, batch, hidden] ([batch, seq, dirs, hidden])
//   Y_h, Y_c   [dirs, batch, hidden]      ([batch, dirs, hidden])
//
//===----------------------------------------------------------------------===//
#include "conversion/onnx-to-tosa/NodeContext.h"

#include <limits>

using namespace mlir;

namespace onnx_tosa {
namespace {

//===----------------------------------------------------------------------===//
// Activations (the `activations` attribute)
//===----------------------------------------------------------------------===//

enum class Act {
  Relu,
  Tanh,
  Sigmoid,
  Affine,
  LeakyRelu,
  ThresholdedRelu,
  ScaledTanh,
  HardSigmoid,
  Elu,
  Softsign,
  Softplus,
};

struct Activation {
  Act kind;
  double alpha = 0, beta = 0;
};

/// The names the spec lists, and the alpha / beta each reads with its
/// default (that of the standalone ONNX operator of the same name).
struct ActivationInfo {
  llvm::StringLiteral name;
  Act kind;
  std::optional<double> alpha, beta;
};
const ActivationInfo kActivations[] = {
    {"Relu", Act::Relu, {}, {}},
    {"Tanh", Act::Tanh, {}, {}},
    {"Sigmoid", Act::Sigmoid, {}, {}},
    {"Affine", Act::Affine, 1.0, 0.0},
    {"LeakyRelu", Act::LeakyRelu, 0.01, {}},
    {"ThresholdedRelu", Act::ThresholdedRelu, 1.0, {}},
    {"ScaledTanh", Act::ScaledTanh, 1.0, 1.0},
    {"HardSigmoid", Act::HardSigmoid, 0.2, 0.5},
    {"Elu", Act::Elu, 1.0, {}},
    {"Softsign", Act::Softsign, {}, {}},
    {"Softplus", Act::Softplus, {}, {}},
};

Value applyActivation(TosaBuilder &t, const Activation &a, Value x) {
  auto c = [&](double v) { return t.scalarLike(x, v); };
  switch (a.kind) {
  case Act::Relu:
    return t.clamp(x, 0, std::numeric_limits<double>::infinity());
  case Act::Tanh:
    return t.unary<tosa::TanhOp>(x);
  case Act::Sigmoid:
    return t.unary<tosa::SigmoidOp>(x);
  case Act::Affine: // alpha * x + beta
    return t.add(t.mul(x, c(a.alpha)), c(a.beta));
  case Act::LeakyRelu: // x >= 0 ? x : alpha * x
    return t.select(t.compare<tosa::GreaterEqualOp>(x, c(0)), x,
                    t.mul(x, c(a.alpha)));
  case Act::ThresholdedRelu: // x > alpha ? x : 0
    return t.select(t.compare<tosa::GreaterOp>(x, c(a.alpha)), x, c(0));
  case Act::ScaledTanh: // alpha * tanh(beta * x)
    return t.mul(t.unary<tosa::TanhOp>(t.mul(x, c(a.beta))), c(a.alpha));
  case Act::HardSigmoid: // max(0, min(1, alpha * x + beta))
    return t.clamp(t.add(t.mul(x, c(a.alpha)), c(a.beta)), 0, 1);
  case Act::Elu: // x >= 0 ? x : alpha * (exp(x) - 1)
    return t.select(t.compare<tosa::GreaterEqualOp>(x, c(0)), x,
                    t.mul(t.sub(t.unary<tosa::ExpOp>(x), c(1)), c(a.alpha)));
  case Act::Softsign: // x / (1 + |x|)
    return t.mul(x, t.unary<tosa::ReciprocalOp>(t.add(t.abs(x), c(1))));
  case Act::Softplus: // log(1 + exp(x))
    return t.unary<tosa::LogOp>(t.add(t.unary<tosa::ExpOp>(x), c(1)));
  }
  return x;
}

/// Reads `activations` (with activation_alpha / activation_beta, consumed in
/// order by the activations that take them) into one list per direction of
/// as many functions as `defaults` has; `defaults` when the attribute is
/// absent.
LogicalResult readActivations(NodeContext &ctx, int64_t dirs,
                              ArrayRef<Act> defaults,
                              SmallVector<SmallVector<Activation>> &out) {
  size_t count = defaults.size();
  out.assign(dirs, {});
  auto names = dyn_cast_or_null<ArrayAttr>(ctx.getAttr("activations"));
  if (!names) {
    for (auto &list : out)
      for (Act a : defaults)
        list.push_back({a});
    return success();
  }
  if (names.size() != count * static_cast<size_t>(dirs))
    return ctx.fail("activations lists " + Twine(names.size()) +
                    " functions; " + Twine(count * dirs) + " are expected (" +
                    Twine(count) + " per direction)");
  SmallVector<float> alphas = ctx.getFloats("activation_alpha");
  SmallVector<float> betas = ctx.getFloats("activation_beta");
  size_t nextAlpha = 0, nextBeta = 0;
  for (auto [i, attr] : llvm::enumerate(names)) {
    auto name = dyn_cast<StringAttr>(attr);
    const ActivationInfo *info =
        name ? llvm::find_if(kActivations,
                             [&](const ActivationInfo &a) {
                               return a.name.equals_insensitive(name);
                             })
             : std::end(kActivations);
    if (info == std::end(kActivations))
      return ctx.fail("activation " + llvm::to_string(attr) +
                      " is not supported");
    Activation act{info->kind, info->alpha.value_or(0), info->beta.value_or(0)};
    if (info->alpha && nextAlpha < alphas.size())
      act.alpha = alphas[nextAlpha++];
    if (info->beta && nextBeta < betas.size())
      act.beta = betas[nextBeta++];
    out[i / count].push_back(act);
  }
  return success();
}

//===----------------------------------------------------------------------===//
// What the three operators share
//===----------------------------------------------------------------------===//

/// The operator-independent part of a recurrent node, read and checked.
struct Recurrence {
  int64_t seq = 0, batch = 0, inputSize = 0, hidden = 0, dirs = 1;
  int64_t gates = 1;
  bool layout1 = false;
  std::string direction;
  std::optional<double> clip;
  /// Per batch element, the number of valid steps (seq when absent), when
  /// known at compile time; else `runtimeLengths` holds them, [batch, 1].
  std::optional<Shape> lengths;
  Value runtimeLengths;
  SmallVector<SmallVector<Activation>> activations;

  Value x; ///< [seq, batch, input]

  /// Direction d of an optional [dirs, batch, hidden] state input, or zeros.
  Value initialState(NodeContext &ctx, unsigned input, int64_t d) const {
    TosaBuilder &t = ctx.tosa;
    Type elt = t.elementTypeOf(x);
    if (!ctx.hasInput(input))
      return t.splat({batch, hidden}, elt, 0);
    Value s = ctx.input(input);
    if (layout1)
      s = t.transpose(s, {1, 0, 2});
    return t.reshape(t.sliceAxis(s, 0, d, 1), {batch, hidden});
  }

  /// The pre-activation clip of the spec: values clamp to [-clip, clip].
  Value clipped(TosaBuilder &t, Value v) const {
    return clip ? t.clamp(v, -*clip, *clip) : v;
  }

  /// Whether each batch element b has sequence_lens[b] > `step`, as a
  /// [batch, 1] i1 mask (a constant when the lengths are); null when every
  /// element does.
  Value longerThan(TosaBuilder &t, int64_t step) const {
    if (runtimeLengths)
      return t.compare<tosa::GreaterOp>(
          runtimeLengths, t.splat({1, 1}, t.elementTypeOf(runtimeLengths),
                                  static_cast<double>(step)));
    SmallVector<bool> live;
    for (int64_t len : *lengths)
      live.push_back(len > step);
    if (llvm::all_of(live, [](bool v) { return v; }))
      return {};
    auto type = RankedTensorType::get({batch, 1}, t.getBuilder().getI1Type());
    return t.constant(DenseElementsAttr::get(type, ArrayRef<bool>(live)));
  }
};

/// Reads the shared inputs and attributes. `gates` is the number of blocks in
/// W's second dimension; `defaultActivations` the functions per direction
/// when the node has no `activations` attribute.
LogicalResult readRecurrence(NodeContext &ctx, int64_t gates,
                             ArrayRef<Act> defaultActivations, Recurrence &r) {
  if (failed(ctx.requireInputs(3)) ||
      failed(ctx.requireElementType(0, Elt::Float)) ||
      failed(ctx.requireSameElementType(0, 4)))
    return failure();
  for (unsigned i = 5; i < ctx.numInputs(); ++i)
    if (ctx.hasInput(i) &&
        ctx.inputType(i).getElementType() != ctx.inputType(0).getElementType())
      return ctx.fail("input " + Twine(i) + " must have X's element type");
  TosaBuilder &t = ctx.tosa;
  r.gates = gates;
  int64_t layout = ctx.getOpset() >= 14 ? ctx.getInt("layout", 0) : 0;
  if (layout != 0 && layout != 1)
    return ctx.fail("layout " + Twine(layout) + " is not 0 or 1");
  r.layout1 = layout == 1;
  if (ctx.inputRank(0) != 3 || ctx.inputRank(1) != 3 || ctx.inputRank(2) != 3)
    return ctx.fail("X, W and R must be 3-D");
  r.x = ctx.input(0);
  if (r.layout1)
    r.x = t.transpose(r.x, {1, 0, 2});
  ArrayRef<int64_t> xs = t.shapeOf(r.x);
  r.seq = xs[0], r.batch = xs[1], r.inputSize = xs[2];
  if (failed(ctx.requireNonEmpty(xs)))
    return failure();

  r.direction = ctx.getString("direction", "forward");
  if (r.direction == "bidirectional")
    r.dirs = 2;
  else if (r.direction != "forward" && r.direction != "reverse")
    return ctx.fail("direction '" + r.direction + "' is not supported");

  ArrayRef<int64_t> rs = ctx.inputShape(2);
  r.hidden = rs[2];
  if (ctx.hasAttr("hidden_size") && ctx.getInt("hidden_size", 0) != r.hidden)
    return ctx.fail("hidden_size " + Twine(ctx.getInt("hidden_size", 0)) +
                    " does not match R's last dimension " + Twine(r.hidden));
  Shape wWant{r.dirs, gates * r.hidden, r.inputSize};
  Shape rWant{r.dirs, gates * r.hidden, r.hidden};
  if (ctx.inputShape(1) != ArrayRef<int64_t>(wWant) ||
      rs != ArrayRef<int64_t>(rWant))
    return ctx.fail("W of type " + llvm::to_string(ctx.inputType(1)) +
                    " or R of type " + llvm::to_string(ctx.inputType(2)) +
                    " does not match " + Twine(r.dirs) + " direction(s), " +
                    Twine(gates) + " gate(s) and input size " +
                    Twine(r.inputSize));
  if (ctx.hasInput(3) &&
      ctx.inputShape(3) != ArrayRef<int64_t>({r.dirs, 2 * gates * r.hidden}))
    return ctx.fail("B has type " + llvm::to_string(ctx.inputType(3)) +
                    "; [num_directions, " + Twine(2 * gates) +
                    "*hidden_size] is expected");
  Shape stateWant = r.layout1 ? Shape{r.batch, r.dirs, r.hidden}
                              : Shape{r.dirs, r.batch, r.hidden};
  for (unsigned i : {5u, 6u})
    if (i < ctx.numInputs() && ctx.hasInput(i) && (i == 5 || gates == 4) &&
        ctx.inputShape(i) != ArrayRef<int64_t>(stateWant))
      return ctx.fail("input " + Twine(i) + " (initial state) has type " +
                      llvm::to_string(ctx.inputType(i)) +
                      "; the shape must match the layout");

  if (ctx.hasAttr("clip"))
    r.clip = ctx.getFloat("clip", 0);
  if (failed(readActivations(ctx, r.dirs, defaultActivations, r.activations)))
    return failure();

  r.lengths = Shape(r.batch, r.seq);
  if (!ctx.hasInput(4))
    return success();
  if (ctx.inputShape(4) != ArrayRef<int64_t>({r.batch}) ||
      !ctx.inputType(4).getElementType().isInteger(32))
    return ctx.fail("sequence_lens has type " +
                    llvm::to_string(ctx.inputType(4)) + "; tensor<" +
                    Twine(r.batch) + "xi32> is expected");
  std::optional<SmallVector<int64_t>> lens = ctx.constantInts(4);
  if (!lens) {
    // Lengths known only at run time become run-time masks; the sequence is
    // still unrolled over its static length.
    r.lengths.reset();
    r.runtimeLengths = t.reshape(ctx.input(4), {r.batch, 1});
    return success();
  }
  for (int64_t len : *lens)
    if (len < 0 || len > r.seq)
      return ctx.fail("sequence_lens value " + Twine(len) + " is outside [0, " +
                      Twine(r.seq) + "]");
  r.lengths = std::move(*lens);
  return success();
}

/// Wᵀ or Rᵀ of direction d restricted to gate blocks [first, first + count):
/// [1, cols, count*hidden], ready as tosa.matmul's right operand.
Value weightBlock(TosaBuilder &t, const Recurrence &r, Value w, int64_t d,
                  int64_t first, int64_t count) {
  int64_t cols = t.shapeOf(w)[2];
  Value block =
      t.slice(w, {d, first * r.hidden, 0}, {1, count * r.hidden, cols});
  return t.transpose(block, {0, 2, 1});
}

/// Bias blocks [first, first + count) of direction d as [1, count*hidden]:
/// from Wb (`recurrent` false) or Rb; null when B is absent.
Value biasBlock(NodeContext &ctx, const Recurrence &r, int64_t d, int64_t first,
                int64_t count, bool recurrent) {
  if (!ctx.hasInput(3))
    return {};
  int64_t offset = (recurrent ? r.gates : 0) + first;
  return ctx.tosa.slice(ctx.input(3), {d, offset * r.hidden},
                        {1, count * r.hidden});
}

/// a + b of optional values, folded when both are float constants.
Value addOptional(TosaBuilder &t, Value a, Value b) {
  if (!a || !b)
    return a ? a : b;
  std::optional<DenseElementsAttr> ca = t.constantValue(a),
                                   cb = t.constantValue(b);
  if (ca && cb && t.shapeOf(a) == t.shapeOf(b)) {
    SmallVector<double> va = toDoubles(*ca), vb = toDoubles(*cb);
    for (auto [x, y] : llvm::zip_equal(va, vb))
      x += y;
    return t.constant(fromDoubles(t.typeOf(a), va));
  }
  return t.add(a, b);
}

/// X·Wᵀ + bias for every step of direction d: [seq, batch, gates*hidden].
Value inputProjection(NodeContext &ctx, const Recurrence &r, int64_t d,
                      Value bias) {
  TosaBuilder &t = ctx.tosa;
  int64_t width = r.gates * r.hidden;
  Value xw = t.matmul(t.reshape(r.x, {1, r.seq * r.batch, r.inputSize}),
                      weightBlock(t, r, ctx.input(1), d, 0, r.gates));
  xw = t.reshape(xw, {r.seq, r.batch, width});
  if (bias)
    xw = t.add(xw, t.reshape(bias, {1, 1, width}));
  return xw;
}

/// Step `step` of the projection: [batch, gates*hidden].
Value stepOf(TosaBuilder &t, const Recurrence &r, Value projection,
             int64_t step) {
  return t.reshape(t.sliceAxis(projection, 0, step, 1),
                   {r.batch, t.shapeOf(projection)[2]});
}

/// h [batch, hidden] · rT [1, hidden, n] -> [batch, n].
Value recurrentProduct(TosaBuilder &t, const Recurrence &r, Value h, Value rT) {
  Value p = t.matmul(t.reshape(h, {1, r.batch, r.hidden}), rT);
  return t.reshape(p, {r.batch, t.shapeOf(rT)[2]});
}

Value gate(TosaBuilder &t, const Recurrence &r, Value v, int64_t index) {
  return t.sliceAxis(v, 1, index * r.hidden, r.hidden);
}

/// The state and outputs of one direction after the whole sequence.
struct DirectionResult {
  SmallVector<Value> outputs; ///< per step (in time order), [batch, hidden]
  Value h, c;                 ///< final states, [batch, hidden]
};

/// Step order of direction d: the spec's reverse direction runs from the
/// last step to the first.
SmallVector<int64_t> stepOrder(const Recurrence &r, int64_t d) {
  SmallVector<int64_t> order;
  bool reverse = r.direction == "reverse" || d == 1;
  for (int64_t i = 0; i < r.seq; ++i)
    order.push_back(reverse ? r.seq - 1 - i : i);
  return order;
}

/// Applies sequence_lens to one step: where a batch element has finished,
/// the state keeps its previous value and the output is 0.
void holdFinished(TosaBuilder &t, const Recurrence &r, int64_t step,
                  Value &state, Value previous, Value *output) {
  Value mask = r.longerThan(t, step);
  if (output)
    *output = mask ? t.select(mask, state, t.scalarLike(state, 0)) : state;
  if (mask)
    state = t.select(mask, state, previous);
}

/// A batch element with sequence_lens 0 runs no step; its final states are
/// reported as 0 rather than the initial state (as onnxruntime does: the
/// spec leaves this case open).
Value zeroIfEmpty(TosaBuilder &t, const Recurrence &r, Value state) {
  Value ran = r.longerThan(t, 0);
  return ran ? t.select(ran, state, t.scalarLike(state, 0)) : state;
}

/// Assembles Y, Y_h (and Y_c) from the directions' results, in the node's
/// layout.
Values assemble(NodeContext &ctx, const Recurrence &r,
                ArrayRef<DirectionResult> input, bool withCell) {
  TosaBuilder &t = ctx.tosa;
  SmallVector<DirectionResult> results(input);
  for (DirectionResult &res : results) {
    res.h = zeroIfEmpty(t, r, res.h);
    if (withCell)
      res.c = zeroIfEmpty(t, r, res.c);
  }
  SmallVector<Value> perDir, hs, cs;
  for (const DirectionResult &res : results) {
    SmallVector<Value> steps;
    for (Value y : res.outputs)
      steps.push_back(t.reshape(y, {1, 1, r.batch, r.hidden}));
    perDir.push_back(steps.size() == 1 ? steps[0] : t.concat(steps, 0));
    hs.push_back(t.reshape(res.h, {1, r.batch, r.hidden}));
    if (withCell)
      cs.push_back(t.reshape(res.c, {1, r.batch, r.hidden}));
  }
  auto join = [&](SmallVector<Value> &vs, int64_t axis) {
    return vs.size() == 1 ? vs[0] : t.concat(vs, axis);
  };
  Value y = join(perDir, 1), yh = join(hs, 0);
  Value yc = withCell ? join(cs, 0) : Value();
  if (r.layout1) {
    y = t.transpose(y, {2, 0, 1, 3});
    yh = t.transpose(yh, {1, 0, 2});
    if (yc)
      yc = t.transpose(yc, {1, 0, 2});
  }
  Values out{y, yh};
  if (withCell)
    out.push_back(yc);
  return out;
}

//===----------------------------------------------------------------------===//
// RNN: Ht = f(Xt·Wiᵀ + Ht-1·Riᵀ + Wbi + Rbi)
//===----------------------------------------------------------------------===//

LegalizeResult rnn(NodeContext &ctx) {
  Recurrence r;
  if (failed(readRecurrence(ctx, 1, {Act::Tanh}, r)))
    return failure();
  TosaBuilder &t = ctx.tosa;
  SmallVector<DirectionResult> results;
  for (int64_t d = 0; d < r.dirs; ++d) {
    Value bias = addOptional(t, biasBlock(ctx, r, d, 0, 1, false),
                             biasBlock(ctx, r, d, 0, 1, true));
    Value xw = inputProjection(ctx, r, d, bias);
    Value rT = weightBlock(t, r, ctx.input(2), d, 0, 1);
    const Activation &f = r.activations[d][0];
    DirectionResult res;
    res.outputs.resize(r.seq);
    Value h = r.initialState(ctx, 5, d);
    for (int64_t step : stepOrder(r, d)) {
      Value pre = t.add(stepOf(t, r, xw, step), recurrentProduct(t, r, h, rT));
      Value next = applyActivation(t, f, r.clipped(t, pre));
      holdFinished(t, r, step, next, h, &res.outputs[step]);
      h = next;
    }
    res.h = h;
    results.push_back(res);
  }
  return assemble(ctx, r, results, /*withCell=*/false);
}

//===----------------------------------------------------------------------===//
// GRU (gate order z, r, h):
//   zt = f(Xt·Wzᵀ + Ht-1·Rzᵀ + Wbz + Rbz)
//   rt = f(Xt·Wrᵀ + Ht-1·Rrᵀ + Wbr + Rbr)
//   ht = g(Xt·Whᵀ + (rt ⊙ Ht-1)·Rhᵀ + Rbh + Wbh)      linear_before_reset = 0
//   ht = g(Xt·Whᵀ + rt ⊙ (Ht-1·Rhᵀ + Rbh) + Wbh)      linear_before_reset != 0
//   Ht = (1 - zt) ⊙ ht + zt ⊙ Ht-1
//===----------------------------------------------------------------------===//

LegalizeResult gru(NodeContext &ctx) {
  Recurrence r;
  if (failed(readRecurrence(ctx, 3, {Act::Sigmoid, Act::Tanh}, r)))
    return failure();
  TosaBuilder &t = ctx.tosa;
  bool linearBeforeReset = ctx.getInt("linear_before_reset", 0) != 0;
  SmallVector<DirectionResult> results;
  for (int64_t d = 0; d < r.dirs; ++d) {
    // Rbh stays apart from the projection: it is inside the reset product
    // when linear_before_reset is set.
    Value wb = biasBlock(ctx, r, d, 0, 3, false);
    Value rbZR = biasBlock(ctx, r, d, 0, 2, true);
    Value rbH = biasBlock(ctx, r, d, 2, 1, true);
    Value bias = wb;
    if (rbZR) {
      Value zero = t.splat({1, r.hidden}, t.elementTypeOf(r.x), 0);
      bias = addOptional(t, wb, t.concat({rbZR, zero}, 1));
    }
    Value xw = inputProjection(ctx, r, d, bias);
    Value rZR = weightBlock(t, r, ctx.input(2), d, 0, 2);
    Value rH = weightBlock(t, r, ctx.input(2), d, 2, 1);
    const Activation &f = r.activations[d][0], &g = r.activations[d][1];
    DirectionResult res;
    res.outputs.resize(r.seq);
    Value h = r.initialState(ctx, 5, d);
    for (int64_t step : stepOrder(r, d)) {
      Value x = stepOf(t, r, xw, step);
      Value hZR = recurrentProduct(t, r, h, rZR);
      Value z = applyActivation(
          t, f, r.clipped(t, t.add(gate(t, r, x, 0), gate(t, r, hZR, 0))));
      Value reset = applyActivation(
          t, f, r.clipped(t, t.add(gate(t, r, x, 1), gate(t, r, hZR, 1))));
      Value hPart;
      if (linearBeforeReset) {
        hPart = recurrentProduct(t, r, h, rH);
        if (rbH)
          hPart = t.add(hPart, rbH);
        hPart = t.mul(reset, hPart);
      } else {
        hPart = recurrentProduct(t, r, t.mul(reset, h), rH);
        if (rbH)
          hPart = t.add(hPart, rbH);
      }
      Value cand =
          applyActivation(t, g, r.clipped(t, t.add(gate(t, r, x, 2), hPart)));
      // (1 - z) ⊙ h~ + z ⊙ H = h~ + z ⊙ (H - h~)
      Value next = t.add(cand, t.mul(z, t.sub(h, cand)));
      holdFinished(t, r, step, next, h, &res.outputs[step]);
      h = next;
    }
    res.h = h;
    results.push_back(res);
  }
  return assemble(ctx, r, results, /*withCell=*/false);
}

//===----------------------------------------------------------------------===//
// LSTM (gate order i, o, f, c; peepholes P = [Pi, Po, Pf]):
//   it = f(Xt·Wiᵀ + Ht-1·Riᵀ + Pi ⊙ Ct-1 + Wbi + Rbi)
//   ft = f(Xt·Wfᵀ + Ht-1·Rfᵀ + Pf ⊙ Ct-1 + Wbf + Rbf)
//   ct = g(Xt·Wcᵀ + Ht-1·Rcᵀ + Wbc + Rbc)
//   Ct = ft ⊙ Ct-1 + it ⊙ ct
//   ot = f(Xt·Woᵀ + Ht-1·Roᵀ + Po ⊙ Ct + Wbo + Rbo)
//   Ht = ot ⊙ h(Ct)
// input_forget couples the input and forget gates: ft = 1 - it.
//===----------------------------------------------------------------------===//

LegalizeResult lstm(NodeContext &ctx) {
  Recurrence r;
  if (failed(readRecurrence(ctx, 4, {Act::Sigmoid, Act::Tanh, Act::Tanh}, r)))
    return failure();
  TosaBuilder &t = ctx.tosa;
  bool inputForget = ctx.getInt("input_forget", 0) != 0;
  if (ctx.hasInput(7) &&
      ctx.inputShape(7) != ArrayRef<int64_t>({r.dirs, 3 * r.hidden}))
    return ctx.fail("P has type " + llvm::to_string(ctx.inputType(7)) +
                    "; [num_directions, 3*hidden_size] is expected");
  SmallVector<DirectionResult> results;
  for (int64_t d = 0; d < r.dirs; ++d) {
    Value bias = addOptional(t, biasBlock(ctx, r, d, 0, 4, false),
                             biasBlock(ctx, r, d, 0, 4, true));
    Value xw = inputProjection(ctx, r, d, bias);
    Value rT = weightBlock(t, r, ctx.input(2), d, 0, 4);
    Value pi, po, pf;
    if (ctx.hasInput(7)) {
      auto peephole = [&](int64_t k) {
        return t.slice(ctx.input(7), {d, k * r.hidden}, {1, r.hidden});
      };
      pi = peephole(0), po = peephole(1), pf = peephole(2);
    }
    const Activation &f = r.activations[d][0], &g = r.activations[d][1],
                     &hAct = r.activations[d][2];
    DirectionResult res;
    res.outputs.resize(r.seq);
    Value h = r.initialState(ctx, 5, d);
    Value c = r.initialState(ctx, 6, d);
    for (int64_t step : stepOrder(r, d)) {
      Value pre = t.add(stepOf(t, r, xw, step), recurrentProduct(t, r, h, rT));
      auto gatePre = [&](int64_t k, Value peep, Value cell) {
        Value v = gate(t, r, pre, k);
        if (peep)
          v = t.add(v, t.mul(peep, cell));
        return r.clipped(t, v);
      };
      Value i = applyActivation(t, f, gatePre(0, pi, c));
      Value fg = inputForget ? t.sub(t.scalarLike(i, 1), i)
                             : applyActivation(t, f, gatePre(2, pf, c));
      Value cand = applyActivation(t, g, gatePre(3, {}, {}));
      Value nextC = t.add(t.mul(fg, c), t.mul(i, cand));
      Value o = applyActivation(t, f, gatePre(1, po, nextC));
      Value nextH = t.mul(o, applyActivation(t, hAct, nextC));
      holdFinished(t, r, step, nextH, h, &res.outputs[step]);
      holdFinished(t, r, step, nextC, c, nullptr);
      h = nextH, c = nextC;
    }
    res.h = h, res.c = c;
    results.push_back(res);
  }
  return assemble(ctx, r, results, /*withCell=*/true);
}

// Opsets 14 and 22 add `layout` and types; both are read above.
// clang-format off
const OpLegalization kRecurrent[] = {
    {"RNN", 7, rnn},
    {"GRU", 7, gru},
    {"LSTM", 7, lstm},
};
// clang-format on

} // namespace

ArrayRef<OpLegalization> getRecurrentLegalizations() { return kRecurrent; }

} // namespace onnx_tosa
