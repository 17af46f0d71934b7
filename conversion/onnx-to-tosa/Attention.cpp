//===- Attention.cpp - Attention, RotaryEmbedding, TensorScatter ----------===//
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
// RotaryEmbedding rotates pairs of head elements by position-dependent
// angles whose cosines and sines the model supplies as tables;
// TensorScatter writes new keys/values into a fixed-size cache.
// FlexAttention is attention with user subgraphs that modify the scores
// and the probabilities, inlined here.
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

//===----------------------------------------------------------------------===//
// FlexAttention
//===----------------------------------------------------------------------===//

/// Applies modifier subgraph `attr` (score_mod / prob_mod) of a
/// FlexAttention node to `x`, when the node has it.
FailureOr<Value> applyModifier(NodeContext &ctx, StringRef attr, Value x) {
  if (!ctx.hasAttr(attr))
    return x;
  int64_t index = ctx.getInt(attr, -1);
  Operation *node = ctx.getNode();
  if (index < 0 || index >= static_cast<int64_t>(node->getNumRegions()))
    return ctx.fail("attribute '" + attr + "' is not a graph");
  std::string why;
  FailureOr<Values> results = legalizeSubgraph(
      ctx.tosa.getBuilder(), node->getRegion(index), ValueRange{x}, why);
  if (failed(results))
    return ctx.fail("in subgraph '" + attr + "': " + why);
  if (results->size() != 1 || (*results)[0].getType() != x.getType())
    return ctx.fail("subgraph '" + attr + "' must return one tensor of " +
                    llvm::to_string(x.getType()));
  return (*results)[0];
}

/// FlexAttention (ai.onnx.preview 1): Y = prob_mod(softmax(score_mod(
/// Q K^T * scale))) V over rank-4 inputs, with grouped query attention.
/// Scores, probabilities and the modifiers are f32 (the reference's
/// softmax precision for all but double inputs, which are demoted here).
LegalizeResult flexAttention(NodeContext &ctx) {
  if (failed(ctx.requireInputs(3)) ||
      failed(ctx.requireElementType(0, Elt::Float)) ||
      failed(ctx.requireSameElementType(0, 3)))
    return failure();
  TosaBuilder &t = ctx.tosa;
  Value q = ctx.input(0), k = ctx.input(1), v = ctx.input(2);
  if (t.rankOf(q) != 4 || t.rankOf(k) != 4 || t.rankOf(v) != 4)
    return ctx.fail("Q, K and V must be 4-D");
  ArrayRef<int64_t> qs = t.shapeOf(q), ks = t.shapeOf(k), vs = t.shapeOf(v);
  int64_t qHeads = qs[1], kvHeads = ks[1];
  if (ks[0] != qs[0] || vs[0] != qs[0] || ks[3] != qs[3] || vs[1] != kvHeads ||
      vs[2] != ks[2] || qHeads % kvHeads)
    return ctx.fail("Q, K and V shapes do not agree (q_num_heads must be a "
                    "multiple of kv_num_heads)");
  if (qHeads != kvHeads) {
    SmallVector<int64_t> heads;
    for (int64_t h = 0; h < qHeads; ++h)
      heads.push_back(h / (qHeads / kvHeads));
    k = t.gatherAxis(k, 1, heads);
    v = t.gatherAxis(v, 1, heads);
  }
  Type elt = t.elementTypeOf(q);
  Type f32 = Float32Type::get(elt.getContext());
  // As the reference: Q and K each scaled by sqrt(scale) in their type.
  double scale = ctx.hasAttr("scale")
                     ? ctx.getFloat("scale", 1.0f)
                     : 1.0 / std::sqrt(static_cast<double>(qs[3]));
  Value rootScale = t.scalarLike(q, std::sqrt(static_cast<float>(scale)));
  Value scores =
      t.cast(batchedMatmul(t, t.mul(q, rootScale),
                           t.transpose(t.mul(k, rootScale), {0, 1, 3, 2})),
             f32);
  FailureOr<Value> modified = applyModifier(ctx, "score_mod", scores);
  if (failed(modified))
    return failure();
  scores = *modified;
  Value e = t.unary<tosa::ExpOp>(t.sub(scores, t.reduceMax(scores, {3})));
  Value probs = t.mul(e, t.unary<tosa::ReciprocalOp>(t.reduceSum(e, {3})));
  modified = applyModifier(ctx, "prob_mod", probs);
  if (failed(modified))
    return failure();
  return Values{t.cast(batchedMatmul(t, *modified, t.cast(v, f32)), elt)};
}

//===----------------------------------------------------------------------===//
// RotaryEmbedding
//===----------------------------------------------------------------------===//

/// Rows `ids` (i32, [B, S]) of a [P, C] table: [B, S, C]. Constant ids
/// select at compile time (folding on a constant table); run-time ones are
/// one tosa.gather.
Value tableRows(TosaBuilder &t, Value table, Value ids) {
  ArrayRef<int64_t> idShape = t.shapeOf(ids);
  int64_t count = product(idShape), width = t.shapeOf(table)[1];
  Shape out(idShape);
  out.push_back(width);
  if (std::optional<DenseElementsAttr> c = TosaBuilder::constantValue(ids))
    return t.reshape(t.gatherAxis(table, 0, toInts(*c)), out);
  Value rows = tosa::GatherOp::create(
      t.getBuilder(), t.getLoc(),
      RankedTensorType::get({1, count, width}, t.elementTypeOf(table)),
      t.reshape(table, {1, t.shapeOf(table)[0], width}),
      t.reshape(ids, {1, count}));
  return t.reshape(rows, out);
}

/// RotaryEmbedding(X, cos_cache, sin_cache, position_ids?): the first
/// rotary_embedding_dim elements of every head are rotated as pairs
/// (x1, x2) -> (cos x1 - sin x2, sin x1 + cos x2), where the pairs are the
/// two halves of the rotated part, or neighbours with interleaved=1.
/// X is [B, H, S, D] or [B, S, H * D] (num_heads); the caches are
/// [max_position, D_rot / 2] indexed by position_ids, or [B, S, D_rot / 2].
LegalizeResult rotaryEmbedding(NodeContext &ctx) {
  if (failed(ctx.requireInputs(3)) ||
      failed(ctx.requireElementType(0, Elt::Float)) ||
      failed(ctx.requireSameElementType(0, 3)))
    return failure();
  TosaBuilder &t = ctx.tosa;
  Value x = ctx.input(0);
  Shape inShape(t.shapeOf(x));
  // Work on [B, S or H, H or S, D]; the caches broadcast as [B, S, 1, D/2]
  // or [B, 1, S, D/2].
  int64_t batch = inShape[0], seq;
  bool packed = inShape.size() == 3;
  if (packed) {
    int64_t heads = ctx.getInt("num_heads", 0);
    if (heads < 1 || inShape[2] % heads)
      return ctx.fail("3-D input needs num_heads that divides the hidden size");
    seq = inShape[1];
    x = t.reshape(x, {batch, seq, heads, inShape[2] / heads});
  } else if (inShape.size() == 4) {
    seq = inShape[2];
  } else {
    return ctx.fail("input must be 3-D or 4-D");
  }
  int64_t headSize = t.shapeOf(x)[3];
  int64_t rotDim = ctx.getInt("rotary_embedding_dim", 0);
  if (rotDim == 0)
    rotDim = headSize;
  if (rotDim < 2 || rotDim > headSize || rotDim % 2)
    return ctx.fail("rotary_embedding_dim " + Twine(rotDim) +
                    " must be even and at most the head size " +
                    Twine(headSize));
  int64_t half = rotDim / 2;

  Value cosines = ctx.input(1), sines = ctx.input(2);
  if (ctx.hasInput(3)) {
    if (t.rankOf(cosines) != 2 ||
        t.shapeOf(ctx.input(3)) != ArrayRef<int64_t>{batch, seq})
      return ctx.fail("with position_ids the caches must be 2-D and "
                      "position_ids [batch, sequence]");
    Value ids = t.cast(ctx.input(3), t.getBuilder().getI32Type());
    cosines = tableRows(t, cosines, ids);
    sines = tableRows(t, sines, ids);
  }
  Shape cacheShape{batch, seq, half};
  if (t.shapeOf(cosines) != ArrayRef<int64_t>(cacheShape) ||
      t.shapeOf(sines) != ArrayRef<int64_t>(cacheShape))
    return ctx.fail("the caches must provide rotary_embedding_dim / 2 = " +
                    Twine(half) + " values per position");
  Shape bcast =
      packed ? Shape{batch, seq, 1, half} : Shape{batch, 1, seq, half};
  cosines = t.reshape(cosines, bcast);
  sines = t.reshape(sines, bcast);

  Value rotated = t.sliceAxis(x, 3, 0, rotDim);
  Shape pairs(t.shapeOf(rotated));
  pairs.back() = half;
  Value x1, x2;
  if (ctx.getInt("interleaved", 0)) {
    Shape twoColumns(pairs);
    twoColumns.push_back(2);
    Value columns = t.reshape(rotated, twoColumns);
    x1 = t.reshape(t.sliceAxis(columns, 4, 0, 1), pairs);
    x2 = t.reshape(t.sliceAxis(columns, 4, 1, 1), pairs);
  } else {
    x1 = t.sliceAxis(rotated, 3, 0, half);
    x2 = t.sliceAxis(rotated, 3, half, half);
  }
  Value real = t.sub(t.mul(cosines, x1), t.mul(sines, x2));
  Value imag = t.add(t.mul(sines, x1), t.mul(cosines, x2));
  if (ctx.getInt("interleaved", 0)) {
    Shape column(pairs);
    column.push_back(1);
    Value both =
        t.concat({t.reshape(real, column), t.reshape(imag, column)}, 4);
    rotated = t.reshape(both, t.shapeOf(rotated));
  } else {
    rotated = t.concat({real, imag}, 3);
  }
  Value y = rotated;
  if (rotDim < headSize)
    y = t.concat({rotated, t.sliceAxis(x, 3, rotDim, headSize - rotDim)}, 3);
  return Values{t.reshape(y, inShape)};
}

//===----------------------------------------------------------------------===//
// TensorScatter
//===----------------------------------------------------------------------===//

/// TensorScatter(past_cache, update, write_indices?): a KV-cache write. The
/// update's sequence positions s go to cache positions write_indices[b] + s
/// (modulo the cache length in circular mode). Computed as a gather rather
/// than a tosa.scatter: every cache position m reads update position
/// m - write_indices[b] (wrapped) when that lies in [0, S), else keeps the
/// past value, so out-of-range write indices never write out of bounds.
LegalizeResult tensorScatter(NodeContext &ctx) {
  if (failed(ctx.requireInputs(2)) ||
      failed(ctx.requireElementType(0, Elt::Number)) ||
      failed(ctx.requireSameElementType(0, 2)))
    return failure();
  TosaBuilder &t = ctx.tosa;
  std::string mode = ctx.getString("mode", "linear");
  if (mode != "linear" && mode != "circular")
    return ctx.fail("mode '" + mode + "' is not supported");
  Value past = ctx.input(0), update = ctx.input(1);
  if (t.elementTypeOf(past).isInteger(1))
    return ctx.fail("boolean caches cannot be gathered in TOSA");
  Shape cache(t.shapeOf(past));
  int64_t rank = cache.size();
  std::optional<int64_t> axis = normalizeAxis(ctx.getInt("axis", -2), rank);
  if (!axis || *axis == 0)
    return ctx.fail("axis must be a sequence axis after the batch axis");
  ArrayRef<int64_t> up = t.shapeOf(update);
  bool fits = static_cast<int64_t>(up.size()) == rank;
  for (int64_t d = 0; fits && d < rank; ++d)
    fits = d == *axis ? up[d] <= cache[d] : up[d] == cache[d];
  if (!fits)
    return ctx.fail("update must match past_cache except for a sequence "
                    "axis no longer than the cache's");
  int64_t batch = cache[0], maxSeq = cache[*axis], seq = up[*axis];
  int64_t inner = product(ArrayRef<int64_t>(cache).slice(1, *axis - 1));
  int64_t prefix = batch * inner;
  int64_t rowSize = product(ArrayRef<int64_t>(cache).drop_front(*axis + 1));

  // offset[p, m] = m - write_indices[batch of p], as i32.
  Type i32 = t.getBuilder().getI32Type();
  Value writes =
      ctx.hasInput(2) ? t.cast(ctx.input(2), i32) : t.splat({batch}, i32, 0);
  if (t.shapeOf(writes) != ArrayRef<int64_t>{batch})
    return ctx.fail("write_indices must have one entry per batch");
  writes = t.reshape(
      t.broadcastTo(t.reshape(writes, {batch, 1, 1}), {batch, inner, 1}),
      {prefix, 1});
  SmallVector<int64_t> positions(maxSeq);
  for (int64_t m = 0; m < maxSeq; ++m)
    positions[m] = m;
  Value offset = t.sub(
      t.constant(fromInts(RankedTensorType::get({1, maxSeq}, i32), positions)),
      writes);
  if (mode == "circular") {
    Value len = t.scalarLike(offset, maxSeq);
    offset = t.sub(offset, t.mul(t.div(offset, len), len));
    offset =
        t.select(t.compare<tosa::GreaterOp>(t.scalarLike(offset, 0), offset),
                 t.add(offset, len), offset);
  }
  Value inside = t.binary<tosa::LogicalAndOp>(
      t.compare<tosa::GreaterEqualOp>(offset, t.scalarLike(offset, 0)),
      t.compare<tosa::GreaterOp>(t.scalarLike(offset, seq), offset));
  Value rows = t.clamp(offset, 0, seq - 1);
  Type elt = t.elementTypeOf(past);
  Value gathered = tosa::GatherOp::create(
      t.getBuilder(), t.getLoc(),
      RankedTensorType::get({prefix, maxSeq, rowSize}, elt),
      t.reshape(update, {prefix, seq, rowSize}),
      t.broadcastTo(rows, {prefix, maxSeq}));
  Value present = t.select(t.reshape(inside, {prefix, maxSeq, 1}), gathered,
                           t.reshape(past, {prefix, maxSeq, rowSize}));
  return Values{t.reshape(present, cache)};
}

// clang-format off
const OpLegalization kAttention[] = {
    {"Attention", 23, attention},
    {"RotaryEmbedding", 23, rotaryEmbedding},
    {"TensorScatter", 24, tensorScatter},
    {"FlexAttention", 1, flexAttention, "ai.onnx.preview"},
};
// clang-format on

} // namespace

ArrayRef<OpLegalization> getAttentionLegalizations() { return kAttention; }

} // namespace onnx_tosa
