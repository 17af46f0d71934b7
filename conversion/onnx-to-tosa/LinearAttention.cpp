//===- LinearAttention.cpp - LinearAttention, CausalConvWithState (27) ----===//
//
// The two stateful sequence ops of linear-attention / state-space models
// (Gated DeltaNet, Mamba): both carry a state from one call to the next
// (past_state in, present_state out), so decoding one token at a time costs
// the same per token as a prefill.
//
// LinearAttention keeps one [d_k, d_v] state per KV head and updates it
// token by token (linear, gated, delta or gated_delta rule). The recurrence
// is unrolled over the sequence, which is static: one step per token, as
// the ONNX reference computes it (so the delta rules, which have no simple
// parallel form, are exact), hence a limit on the sequence length.
//
//===----------------------------------------------------------------------===//
#include "conversion/onnx-to-tosa/NodeContext.h"

#include <cmath>

using namespace mlir;

namespace onnx_tosa {
namespace {

/// Tokens beyond this are not unrolled (a prefill of this many tokens is
/// already thousands of ops).
constexpr int64_t kMaxUnrolledTokens = 512;

//===----------------------------------------------------------------------===//
// LinearAttention
//===----------------------------------------------------------------------===//

/// Token `i` of a [B, T, W] input as [B * heads, rows, cols]: W is
/// heads * rows * cols, or rows * cols shared by all heads.
Value token(TosaBuilder &t, Value x, int64_t i, int64_t heads, int64_t rows,
            int64_t cols) {
  int64_t batch = t.shapeOf(x)[0], width = t.shapeOf(x)[2];
  Value row = t.sliceAxis(x, 1, i, 1);
  if (width != heads * rows * cols)
    row = t.broadcastTo(row, {batch, heads, width});
  return t.reshape(row, {batch * heads, rows, cols});
}

/// LinearAttention(query, key, value, past_state?, decay?, beta?).
LegalizeResult linearAttention(NodeContext &ctx) {
  if (failed(ctx.requireInputs(3)) ||
      failed(ctx.requireElementType(0, Elt::Float)) ||
      failed(ctx.requireSameElementType(0, 3)) ||
      failed(ctx.requireSameElementType(4, 6)))
    return failure();
  TosaBuilder &t = ctx.tosa;
  std::string rule = ctx.getString("update_rule", "gated_delta");
  if (!llvm::is_contained({"linear", "gated", "delta", "gated_delta"}, rule))
    return ctx.fail("update_rule '" + rule + "' is not supported");
  bool gated = rule == "gated" || rule == "gated_delta";
  bool delta = rule == "delta" || rule == "gated_delta";
  if (gated != ctx.hasInput(4))
    return ctx.fail("update_rule '" + rule + "' " +
                    (gated ? "requires" : "forbids") + " the decay input");
  if (delta != ctx.hasInput(5))
    return ctx.fail("update_rule '" + rule + "' " +
                    (delta ? "requires" : "forbids") + " the beta input");
  int64_t qHeads = ctx.getInt("q_num_heads", 0);
  int64_t kvHeads = ctx.getInt("kv_num_heads", 0);
  if (qHeads < 1 || kvHeads < 1 || qHeads % kvHeads)
    return ctx.fail("q_num_heads must be a positive multiple of kv_num_heads");
  for (unsigned i = 0; i < 3; ++i)
    if (ctx.inputRank(i) != 3)
      return ctx.fail("query, key and value must be 3-D [B, T, H * D]");
  ArrayRef<int64_t> qs = ctx.inputShape(0);
  int64_t batch = qs[0], seq = qs[1];
  if (qs[2] % qHeads || ctx.inputShape(1)[2] % kvHeads ||
      ctx.inputShape(2)[2] % kvHeads)
    return ctx.fail("the head counts must divide the hidden sizes");
  int64_t dk = qs[2] / qHeads, dv = ctx.inputShape(2)[2] / kvHeads;
  int64_t group = qHeads / kvHeads, rows = batch * kvHeads;
  for (unsigned i = 1; i < 3; ++i)
    if (ctx.inputShape(i).take_front(2) != qs.take_front(2))
      return ctx.fail("query, key and value differ in batch or length");
  if (ctx.inputShape(1)[2] != kvHeads * dk)
    return ctx.fail("key must hold kv_num_heads heads of the query's size");
  if (seq > kMaxUnrolledTokens)
    return ctx.fail("sequence length " + Twine(seq) + " exceeds " +
                    Twine(kMaxUnrolledTokens) +
                    " (the recurrence is unrolled per token)");
  // decay: per key dimension [B, T, H_kv * d_k] or per head [B, T, H_kv];
  // beta: per head [B, T, H_kv] or shared [B, T, 1].
  int64_t decayCols = 0;
  if (gated) {
    ArrayRef<int64_t> s = ctx.inputShape(4);
    if (s.size() != 3 || s.take_front(2) != qs.take_front(2) ||
        (s[2] != kvHeads && s[2] != kvHeads * dk))
      return ctx.fail("decay must be [B, T, kv_num_heads] or "
                      "[B, T, kv_num_heads * d_k]");
    decayCols = s[2] / kvHeads;
  }
  if (delta) {
    ArrayRef<int64_t> s = ctx.inputShape(5);
    if (s.size() != 3 || s.take_front(2) != qs.take_front(2) ||
        (s[2] != kvHeads && s[2] != 1))
      return ctx.fail("beta must be [B, T, kv_num_heads] or [B, T, 1]");
  }
  Shape stateShape{batch, kvHeads, dk, dv};
  if (ctx.hasInput(3) && ctx.inputShape(3) != ArrayRef<int64_t>(stateShape))
    return ctx.fail("past_state must be [B, kv_num_heads, d_k, d_v]");

  // Everything in f32, as the reference accumulates.
  Type elt = ctx.inputType(0).getElementType();
  Type f32 = Float32Type::get(elt.getContext());
  Value q = t.cast(ctx.input(0), f32), k = t.cast(ctx.input(1), f32),
        v = t.cast(ctx.input(2), f32);
  Value decay =
      gated ? t.unary<tosa::ExpOp>(t.cast(ctx.input(4), f32)) : Value();
  Value beta = delta ? t.cast(ctx.input(5), f32) : Value();
  Value state = ctx.hasInput(3)
                    ? t.reshape(t.cast(ctx.input(3), f32), {rows, dk, dv})
                    : t.splat({rows, dk, dv}, f32, 0.0);
  float scaleAttr = ctx.getFloat("scale", 0.0f);
  double scale =
      scaleAttr != 0.0f ? scaleAttr : 1.0 / std::sqrt(static_cast<double>(dk));

  Values outputs;
  for (int64_t i = 0; i < seq; ++i) {
    Value kt = token(t, k, i, kvHeads, dk, 1);
    Value vt = token(t, v, i, kvHeads, 1, dv);
    if (gated) // S <- exp(g_t) S, per key row (or per head).
      state = t.mul(state, token(t, decay, i, kvHeads, decayCols, 1));
    if (delta) { // v_t <- beta_t (v_t - S^T k_t)
      Value retrieved = t.matmul(t.reshape(kt, {rows, 1, dk}), state);
      vt = t.mul(token(t, beta, i, kvHeads, 1, 1), t.sub(vt, retrieved));
    }
    state = t.add(state, t.mul(kt, vt)); // S <- S + k_t v_t^T
    // o_t = scale q_t^T S; query head h reads KV head h / group.
    Value read = t.matmul(token(t, q, i, kvHeads, group, dk), state);
    read = t.mul(read, t.scalarLike(read, scale));
    outputs.push_back(t.reshape(read, {batch, 1, qHeads * dv}));
  }
  Type stateElt = ctx.hasInput(3) ? ctx.inputType(3).getElementType() : elt;
  return Values{t.cast(t.concat(outputs, 1), elt),
                t.cast(t.reshape(state, stateShape), stateElt)};
}

//===----------------------------------------------------------------------===//
// CausalConvWithState
//===----------------------------------------------------------------------===//

/// CausalConvWithState(input, weight, bias?, past_state?): a depthwise 1-D
/// convolution over [past_state (or zeros), input] without padding, as a
/// sum of k shifted, per-channel weighted slices (k is a handful of taps in
/// these models), then optionally SiLU; present_state holds the last k - 1
/// positions of the concatenation.
LegalizeResult causalConvWithState(NodeContext &ctx) {
  if (failed(ctx.requireInputs(2)) ||
      failed(ctx.requireElementType(0, Elt::Float)) ||
      failed(ctx.requireSameElementType(0, 4)))
    return failure();
  TosaBuilder &t = ctx.tosa;
  std::string activation = ctx.getString("activation", "none");
  if (!llvm::is_contained({"none", "silu", "swish"}, activation))
    return ctx.fail("activation '" + activation + "' is not supported");
  if (ctx.inputRank(0) != 3)
    return ctx.fail("input must be 3-D [batch, channels, length]");
  ArrayRef<int64_t> in = ctx.inputShape(0);
  int64_t batch = in[0], channels = in[1], length = in[2];
  ArrayRef<int64_t> ws = ctx.inputShape(1);
  if (ws.size() != 3 || ws[0] != channels || ws[1] != 1)
    return ctx.fail("weight must be [channels, 1, k]");
  int64_t taps = ws[2];
  if (ctx.hasInput(2) && ctx.inputShape(2) != ArrayRef<int64_t>{channels})
    return ctx.fail("bias must be [channels]");
  if (ctx.hasInput(3) &&
      ctx.inputShape(3) != ArrayRef<int64_t>{batch, channels, taps - 1})
    return ctx.fail("past_state must be [batch, channels, k - 1]");
  if (taps == 1 && ctx.outputUsed(1))
    return ctx.fail("present_state of a kernel of size 1 is empty, which "
                    "TOSA cannot represent");

  Type elt = ctx.inputType(0).getElementType();
  Type f32 = Float32Type::get(elt.getContext());
  Value x = ctx.input(0);
  Value padded = x;
  if (taps > 1)
    padded = ctx.hasInput(3) ? t.concat({ctx.input(3), x}, 2)
                             : t.pad(x, {0, 0, 0, 0, taps - 1, 0}, 0.0);
  Value wide = t.cast(padded, f32);
  Value weight = t.reshape(t.cast(ctx.input(1), f32), {1, channels, taps});
  Value y = ctx.hasInput(2)
                ? t.reshape(t.cast(ctx.input(2), f32), {1, channels, 1})
                : Value();
  for (int64_t j = 0; j < taps; ++j) {
    Value term =
        t.mul(t.sliceAxis(wide, 2, j, length), t.sliceAxis(weight, 2, j, 1));
    y = y ? t.add(y, term) : term;
  }
  if (activation != "none") {
    // The reference rounds the convolution to the data type first.
    y = t.cast(t.cast(y, elt), f32);
    y = t.mul(y, t.unary<tosa::SigmoidOp>(y));
  }
  Value present;
  if (taps > 1)
    present =
        t.sliceAxis(padded, 2, t.shapeOf(padded)[2] - (taps - 1), taps - 1);
  return Values{t.cast(y, elt), present};
}

// clang-format off
const OpLegalization kLinearAttention[] = {
    {"LinearAttention", 27, linearAttention},
    {"CausalConvWithState", 27, causalConvWithState},
};
// clang-format on

} // namespace

ArrayRef<OpLegalization> getLinearAttentionLegalizations() {
  return kLinearAttention;
}

} // namespace onnx_tosa
