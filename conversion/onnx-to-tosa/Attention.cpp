//===- Attention.cpp - Attention (opset 23) -------------------------------===//
//
// Y = softmax(softcap(Q K^T * scale) + bias) V, over heads, with an optional
// key/value cache (past_key/past_value concatenated in front of K/V), grouped
// query attention (each KV head serves q_num_heads / kv_num_heads query
// heads), 3-D inputs ([batch, seq, heads * head_size]) and the optional
// outputs present_key, present_value and qk_matmul_output. The bias combines
// attn_mask (boolean: attend where true; or additive) with the causal,
// sliding-window and padding masks, which are known at compile time. As in
// the ONNX reference, Q and K are each scaled by sqrt(scale), and a query row
// whose bias is -inf everywhere attends to nothing (its output is 0).
//
//===----------------------------------------------------------------------===//
#include "conversion/onnx-to-tosa/NodeContext.h"

#include <cmath>
#include <limits>

using namespace mlir;

namespace onnx_tosa {
namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

/// [..., M, K] times [..., K, N] with equal leading dimensions.
Value batchedMatmul(TosaBuilder &t, Value a, Value b) {
  ArrayRef<int64_t> as = t.shapeOf(a);
  size_t rank = as.size();
  Shape batch(as.drop_back(2));
  int64_t count = product(batch), m = as[rank - 2], k = as[rank - 1];
  int64_t n = t.shapeOf(b).back();
  Value y = t.matmul(t.reshape(a, {count, m, k}), t.reshape(b, {count, k, n}));
  batch.append({m, n});
  return t.reshape(y, batch);
}

/// [B, S, H * D] -> [B, H, S, D].
Value splitHeads(TosaBuilder &t, Value x, int64_t heads) {
  ArrayRef<int64_t> s = t.shapeOf(x);
  return t.transpose(t.reshape(x, {s[0], s[1], heads, s[2] / heads}),
                     {0, 2, 1, 3});
}

/// Where every element along the last axis is -inf. (Not reduce_max ==
/// -inf: lowerings commonly start max reductions at the lowest finite value.)
Value allNegInf(TosaBuilder &t, Value x) {
  Value isNegInf = t.compare<tosa::EqualOp>(x, t.scalarLike(x, kNegInf));
  return t.reduce<tosa::ReduceAllOp>(isNegInf, {t.rankOf(x) - 1});
}

/// softmax over the last axis that gives all-zero rows (instead of NaN)
/// where every score is -inf.
Value maskedSoftmax(TosaBuilder &t, Value x) {
  int64_t last = t.rankOf(x) - 1;
  Value max = t.reduceMax(x, {last});
  Value safeMax = t.select(allNegInf(t, x), t.scalarLike(max, 0), max);
  Value e = t.unary<tosa::ExpOp>(t.sub(x, safeMax));
  Value sum = t.reduceSum(e, {last});
  Value zeroSum = t.compare<tosa::EqualOp>(sum, t.scalarLike(sum, 0));
  sum = t.select(zeroSum, t.scalarLike(sum, 1), sum);
  return t.mul(e, t.unary<tosa::ReciprocalOp>(sum));
}

LegalizeResult attention(NodeContext &ctx) {
  if (failed(ctx.requireInputs(3)) ||
      failed(ctx.requireElementType(0, Elt::Float)) ||
      failed(ctx.requireSameElementType(0, 3)))
    return failure();
  TosaBuilder &t = ctx.tosa;
  // Narrow float types are computed in f32 and the results rounded once.
  Type elt = ctx.inputType(0).getElementType();
  Type f32 = Float32Type::get(elt.getContext());
  Value q = t.cast(ctx.input(0), f32), k = t.cast(ctx.input(1), f32),
        v = t.cast(ctx.input(2), f32);
  int64_t rank = t.rankOf(q);
  if ((rank != 3 && rank != 4) || t.rankOf(k) != rank || t.rankOf(v) != rank)
    return ctx.fail("Q, K and V must all be 3-D or all be 4-D");
  if (rank == 3) {
    int64_t qHeads = ctx.getInt("q_num_heads", 0);
    int64_t kvHeads = ctx.getInt("kv_num_heads", 0);
    if (qHeads < 1 || kvHeads < 1 || t.shapeOf(q)[2] % qHeads ||
        t.shapeOf(k)[2] % kvHeads || t.shapeOf(v)[2] % kvHeads)
      return ctx.fail("3-D inputs need q_num_heads and kv_num_heads that "
                      "divide the hidden sizes");
    q = splitHeads(t, q, qHeads);
    k = splitHeads(t, k, kvHeads);
    v = splitHeads(t, v, kvHeads);
  }
  int64_t batch = t.shapeOf(q)[0], qHeads = t.shapeOf(q)[1];
  int64_t qSeq = t.shapeOf(q)[2], headSize = t.shapeOf(q)[3];
  int64_t kvHeads = t.shapeOf(k)[1];

  // The cache: past keys/values go in front.
  if (ctx.hasInput(4) != ctx.hasInput(5))
    return ctx.fail("past_key and past_value must be given together");
  int64_t pastSeq = 0;
  if (ctx.hasInput(4)) {
    pastSeq = ctx.inputShape(4)[2];
    k = t.concat({t.cast(ctx.input(4), f32), k}, 2);
    v = t.concat({t.cast(ctx.input(5), f32), v}, 2);
  }
  Value presentKey = t.cast(k, elt), presentValue = t.cast(v, elt);
  int64_t kvSeq = t.shapeOf(k)[2];

  // Compile-time bias: causal frontier j <= i + offset, sliding window and
  // padding, per batch when nonpad_kv_seqlen gives per-batch lengths.
  bool causal = ctx.getInt("is_causal", 0);
  int64_t left = ctx.getInt("left_window_size", -1);
  int64_t right = ctx.getInt("right_window_size", -1);
  Shape nonpad;
  if (ctx.hasInput(6)) {
    if (failed(ctx.requireConstantInts(6, "nonpad_kv_seqlen", nonpad)))
      return failure();
    if (pastSeq)
      return ctx.fail("nonpad_kv_seqlen cannot be combined with past_key");
  }
  int64_t biasBatch = nonpad.empty() ? 1 : batch;
  SmallVector<double> fixedBias(biasBatch * qSeq * kvSeq, 0.0);
  bool hasFixedBias = false;
  for (int64_t b = 0; b < biasBatch; ++b) {
    int64_t offset = nonpad.empty() ? pastSeq : nonpad[b] - qSeq;
    for (int64_t i = 0; i < qSeq; ++i)
      for (int64_t j = 0; j < kvSeq; ++j) {
        int64_t diff = i + offset - j;
        bool allowed = (!causal || diff >= 0) && (left < 0 || diff <= left) &&
                       (right < 0 || -diff <= right) &&
                       (nonpad.empty() || j < nonpad[b]);
        if (!allowed) {
          fixedBias[(b * qSeq + i) * kvSeq + j] = kNegInf;
          hasFixedBias = true;
        }
      }
  }
  Value bias;
  if (Value mask = ctx.input(3)) {
    // A mask shorter than the keys is padded with "do not attend".
    Type maskElt = t.elementTypeOf(mask);
    bool boolean = maskElt.isInteger(1);
    int64_t missing = kvSeq - t.shapeOf(mask).back();
    if (missing < 0)
      return ctx.fail("attn_mask is longer than the keys");
    Shape pads(2 * t.rankOf(mask), 0);
    pads.back() = missing;
    mask = t.pad(mask, pads, boolean ? 0.0 : kNegInf);
    bias = boolean
               ? t.select(mask, t.scalarLike(q, 0), t.scalarLike(q, kNegInf))
               : t.cast(mask, f32);
  }
  if (hasFixedBias) {
    Shape shape{qSeq, kvSeq};
    if (biasBatch > 1)
      shape = {biasBatch, 1, qSeq, kvSeq};
    Value fixed =
        t.constant(fromDoubles(RankedTensorType::get(shape, f32), fixedBias));
    bias = bias ? t.add(bias, fixed) : fixed;
  }

  // Grouped query attention: KV head h serves query heads h * r .. h * r + r-1.
  if (qHeads != kvHeads) {
    if (qHeads % kvHeads)
      return ctx.fail("q_num_heads must be a multiple of kv_num_heads");
    SmallVector<int64_t> heads;
    for (int64_t h = 0; h < qHeads; ++h)
      heads.push_back(h / (qHeads / kvHeads));
    k = t.gatherAxis(k, 1, heads);
    v = t.gatherAxis(v, 1, heads);
  }

  double scale = ctx.hasAttr("scale")
                     ? ctx.getFloat("scale", 1.0f)
                     : 1.0 / std::sqrt(static_cast<double>(headSize));
  Value rootScale = t.scalarLike(q, std::sqrt(scale));
  Value scores = batchedMatmul(t, t.mul(q, rootScale),
                               t.transpose(t.mul(k, rootScale), {0, 1, 3, 2}));
  double softcap = ctx.getFloat("softcap", 0.0f);
  if (softcap > 0) {
    Value cap = t.scalarLike(scores, softcap);
    scores = t.mul(t.unary<tosa::TanhOp>(t.div(scores, cap)), cap);
  }
  int64_t qkMode = ctx.getInt("qk_matmul_output_mode", 0);
  Value qkOutput = scores;
  if (bias)
    scores = t.add(scores, bias);
  if (qkMode == 2)
    qkOutput = scores;

  // (softmax_precision asks for at least the input's precision; f32 is.)
  Value probs;
  if (bias) {
    probs = maskedSoftmax(t, scores);
    probs = t.select(allNegInf(t, bias), t.scalarLike(probs, 0), probs);
  } else {
    int64_t last = t.rankOf(scores) - 1;
    Value e = t.unary<tosa::ExpOp>(t.sub(scores, t.reduceMax(scores, {last})));
    probs = t.mul(e, t.unary<tosa::ReciprocalOp>(t.reduceSum(e, {last})));
  }
  if (qkMode == 3)
    qkOutput = probs;

  Value y = t.cast(batchedMatmul(t, probs, v), elt);
  if (rank == 3) {
    ArrayRef<int64_t> s = t.shapeOf(y);
    y = t.reshape(t.transpose(y, {0, 2, 1, 3}), {s[0], s[2], s[1] * s[3]});
  }
  return Values{y, presentKey, presentValue, t.cast(qkOutput, elt)};
}

// clang-format off
const OpLegalization kAttention[] = {
    {"Attention", 23, attention},
};
// clang-format on

} // namespace

ArrayRef<OpLegalization> getAttentionLegalizations() { return kAttention; }

} // namespace onnx_tosa
