//===- DataDependent.cpp - NonZero, Unique, NonMaxSuppression, Compress ---===//
//
// Ops whose output size depends on the input values. TOSA shapes are
// static, so each output gets its upper bound as its shape (NonZero: one
// column per input element; Unique: one row per input slice;
// NonMaxSuppression: one row per (batch, class, box); Compress with a
// run-time condition: the axis' size) and a count computed
// at run time (NodeContext::setOutputCount). The elements of the real,
// smaller array come first in the buffer, in C order: every output here is
// a permutation of a bounded tensor in which the selected slices move to
// the front, in their output order, and the rest follow. The runtime reads
// the count and hands out that prefix with its real shape.
//
// The selections are computed without sorting: an element's position among
// the selected is the number of selected elements that precede it (a prefix
// sum along the input, or a count of pairwise comparisons for a sorted
// order), so the work is quadratic in the number of elements (Unique,
// NonMaxSuppression) or n log n (NonZero).
//
//===----------------------------------------------------------------------===//
#include "conversion/onnx-to-tosa/ExactArithmetic.h"
#include "conversion/onnx-to-tosa/NodeContext.h"

#include <numeric>

using namespace mlir;

namespace onnx_tosa {
namespace {

/// Above this many boxes NonMaxSuppression is refused: its greedy selection
/// is unrolled into one step per box.
constexpr int64_t kMaxSuppressionBoxes = 256;
/// Above this many elements (slices) Unique is refused: it compares every
/// pair.
constexpr int64_t kMaxUniqueElements = 4096;

Type i32Type(TosaBuilder &t) { return t.getBuilder().getI32Type(); }

/// 0, 1, ..., n-1 as i32 in a tensor of `shape` whose only non-1 dimension
/// is `axis` (of extent n).
Value iota(TosaBuilder &t, ArrayRef<int64_t> shape, int64_t axis) {
  int64_t n = shape[axis];
  SmallVector<int64_t> values(n);
  std::iota(values.begin(), values.end(), 0);
  return t.constant(fromInts(RankedTensorType::get(shape, i32Type(t)), values));
}

/// `data` with its slices along `axis` reordered: slice k, where `keep[k]`
/// holds, goes to position `slot[k]` of the first `count` positions (slots
/// are distinct and below count), the others follow in their order. The
/// result has `data`'s shape, but it is the elements in C order that are
/// permuted: the first ones are the array of `data`'s shape with `count`
/// at `axis`, which is how the runtime reads a bounded output. `keep` is i1
/// [n], `slot` i32 [n], `count` i32 [1]. One tosa.scatter of the elements.
Value compactSlices(TosaBuilder &t, Value data, int64_t axis, Value keep,
                    Value slot, Value count) {
  ArrayRef<int64_t> shape = t.shapeOf(data);
  int64_t n = shape[axis];
  int64_t outer = product(shape.take_front(axis));
  int64_t inner = product(shape.drop_front(axis + 1));
  Value k = iota(t, {1, n, 1}, 1);
  Value o = iota(t, {outer, 1, 1}, 0);
  Value i = iota(t, {1, 1, inner}, 2);
  Value keepI = t.indicator(keep, i32Type(t));
  // The others' order: k minus the kept slices before k.
  Value before = t.sub(t.scan(keepI, 0), keepI);
  Value other = t.reshape(t.sub(t.reshape(k, {n}), before), {1, n, 1});
  Value c = t.reshape(count, {1, 1, 1});
  Value innerC = t.scalarLike(c, inner);
  // Kept: o*count*inner + slot*inner + i.
  Value kept = t.add(t.add(t.mul(t.mul(o, c), innerC),
                           t.mul(t.reshape(slot, {1, n, 1}), innerC)),
                     i);
  // Others: after all kept ones, o*(n-count)*inner + other*inner + i.
  Value keptTotal = t.mul(t.mul(t.scalarLike(c, outer), c), innerC);
  Value rest = t.sub(t.scalarLike(c, n), c);
  Value others =
      t.add(t.add(t.add(keptTotal, t.mul(t.mul(o, rest), innerC)),
                  t.mul(other, innerC)),
            i);
  Value dest = t.select(t.reshape(keep, {1, n, 1}), kept, others);
  dest = t.broadcastTo(dest, {outer, n, inner});
  int64_t total = outer * n * inner;
  Type elt = t.elementTypeOf(data);
  Value values = t.reshape(data, {1, total, 1});
  Value scattered = tosa::ScatterOp::create(
      t.getBuilder(), t.getLoc(), values.getType(), t.splat({1, total, 1}, elt, 0),
      t.reshape(dest, {1, total}), values);
  return t.reshape(scattered, shape);
}

/// `v` as i32 where comparisons need it (TOSA compares i32 and floats).
Value comparable(TosaBuilder &t, Value v) {
  Type elt = t.elementTypeOf(v);
  if (isa<FloatType>(elt) || elt.isInteger(32))
    return v;
  return t.cast(v, i32Type(t));
}

//===----------------------------------------------------------------------===//
// NonZero
//===----------------------------------------------------------------------===//

/// NonZero(X): the coordinates of X's non-zero elements, [rank, count], in
/// C order of the elements. Bounded by [rank, numel].
LegalizeResult nonZero(NodeContext &ctx) {
  if (failed(ctx.requireInputs(1)))
    return failure();
  TosaBuilder &t = ctx.tosa;
  ArrayRef<int64_t> shape = ctx.inputShape(0);
  int64_t rank = shape.size(), n = product(shape);
  if (rank == 0)
    return ctx.fail("a scalar input is not supported");
  if (failed(ctx.requireNonEmpty(shape)))
    return failure();
  Value x = t.reshape(ctx.input(0), {n});
  Value keep = t.elementTypeOf(x).isInteger(1)
                   ? x
                   : t.unary<tosa::LogicalNotOp>(t.compare<tosa::EqualOp>(
                         comparable(t, x), t.scalarLike(comparable(t, x), 0)));
  Value keepI = t.indicator(keep, i32Type(t));
  Value slot = t.sub(t.scan(keepI, 0), keepI);
  Value count = t.reduceSum(keepI, {0});
  // Coordinates of every element, [rank, n].
  SmallVector<int64_t> coords(rank * n);
  for (int64_t e = 0; e < n; ++e)
    for (int64_t d = rank - 1, rem = e; d >= 0; --d) {
      coords[d * n + e] = rem % shape[d];
      rem /= shape[d];
    }
  Value all =
      t.constant(fromInts(RankedTensorType::get({rank, n}, i32Type(t)), coords));
  Value y = compactSlices(t, all, 1, keep, slot, count);
  ctx.setOutputCount(0, 1, count);
  return Values{y};
}

//===----------------------------------------------------------------------===//
// Unique
//===----------------------------------------------------------------------===//

/// Unique(X): the distinct elements (or slices along `axis`) Y, the index
/// of each one's first occurrence, the index into Y of every input slice,
/// and how often each occurs; Y sorted ascending (lexicographically for
/// slices) or in order of first occurrence. Y, indices and counts are
/// bounded by the number of input slices; inverse_indices is not.
LegalizeResult unique(NodeContext &ctx) {
  if (failed(ctx.requireInputs(1)))
    return failure();
  TosaBuilder &t = ctx.tosa;
  Value x = ctx.input(0);
  Type elt = t.elementTypeOf(x);
  if (elt.isInteger(1))
    return ctx.fail("boolean data is not supported");
  if (failed(ctx.requireElementType(0, Elt::Number)))
    return failure();
  ArrayRef<int64_t> shape = ctx.inputShape(0);
  int64_t rank = shape.size();
  if (failed(ctx.requireNonEmpty(shape)))
    return failure();
  std::optional<int64_t> axis;
  if (ctx.hasAttr("axis")) {
    axis = normalizeAxis(ctx.getInt("axis", 0), rank);
    if (!axis)
      return ctx.fail("axis is out of range");
  }
  // The slices as rows [n, m]: the flattened elements (m = 1), or the
  // slices along the axis moved to the front.
  Value data = axis ? x : t.reshape(x, {product(shape)});
  int64_t a = axis.value_or(0);
  int64_t n = t.shapeOf(data)[a];
  int64_t m = product(t.shapeOf(data)) / n;
  if (n > kMaxUniqueElements)
    return ctx.fail("the input has " + Twine(n) + " elements (slices) to "
                    "compare pairwise; at most " + Twine(kMaxUniqueElements) +
                    " are supported");
  Shape perm;
  perm.push_back(a);
  for (int64_t d = 0; d < t.rankOf(data); ++d)
    if (d != a)
      perm.push_back(d);
  Value rows = t.reshape(a == 0 ? data : t.transpose(data, perm), {n, m});
  Value cmp = comparable(t, rows);

  // equal[i, j]: slice i equals slice j (every element).
  Value ri = t.reshape(cmp, {n, 1, m}), rj = t.reshape(cmp, {1, n, m});
  Value eqElems = t.compare<tosa::EqualOp>(ri, rj);
  Value equal =
      t.reshape(t.reduce<tosa::ReduceAllOp>(eqElems, {2}), {n, n});
  // first[i]: no earlier slice equals slice i.
  SmallVector<int64_t> lower(n * n);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j)
      lower[i * n + j] = j < i;
  Value earlier = t.constant(fromInts(
      RankedTensorType::get({n, n}, t.getBuilder().getI1Type()), lower));
  Value seenBefore = t.reduce<tosa::ReduceAnyOp>(
      t.binary<tosa::LogicalAndOp>(equal, earlier), {1});
  Value first = t.unary<tosa::LogicalNotOp>(t.reshape(seenBefore, {n}));
  Value firstI = t.indicator(first, i32Type(t));
  Value count = t.reduceSum(firstI, {0});

  // slot[i]: the position of first occurrence i in Y.
  Value slot;
  if (ctx.getInt("sorted", 1)) {
    // less[i, j]: slice i sorts before slice j (the first element where
    // they differ decides).
    Value ltElems = t.compare<tosa::GreaterOp>(rj, ri);
    Value less;
    if (m == 1) {
      less = t.reshape(ltElems, {n, n});
    } else {
      Value differs = t.indicator(t.unary<tosa::LogicalNotOp>(eqElems),
                                  i32Type(t));
      Value differsBefore = t.sub(t.scan(differs, 2), differs);
      Value samePrefix = t.compare<tosa::EqualOp>(
          differsBefore, t.scalarLike(differsBefore, 0));
      less = t.reshape(t.reduce<tosa::ReduceAnyOp>(
                           t.binary<tosa::LogicalAndOp>(ltElems, samePrefix),
                           {2}),
                       {n, n});
    }
    // The first occurrences j with less[j, i].
    Value smaller = t.mul(t.indicator(less, i32Type(t)),
                          t.reshape(firstI, {n, 1}));
    slot = t.reshape(t.reduceSum(smaller, {0}), {n});
  } else {
    slot = t.sub(t.scan(firstI, 0), firstI);
  }

  Values results(4);
  results[0] = compactSlices(t, data, a, first, slot, count);
  ctx.setOutputCount(0, a, count);
  if (ctx.outputUsed(1)) {
    results[1] = compactSlices(t, iota(t, {n}, 0), 0, first, slot, count);
    ctx.setOutputCount(1, 0, count);
  }
  Value equalI = t.indicator(equal, i32Type(t));
  if (ctx.outputUsed(2)) {
    // The slot of the first occurrence each slice equals.
    Value slotOfFirst = t.mul(t.reshape(firstI, {1, n}),
                              t.reshape(slot, {1, n}));
    results[2] =
        t.reshape(t.reduceSum(t.mul(equalI, slotOfFirst), {1}), {n});
  }
  if (ctx.outputUsed(3)) {
    Value occurrences = t.reshape(t.reduceSum(equalI, {1}), {n});
    results[3] = compactSlices(t, occurrences, 0, first, slot, count);
    ctx.setOutputCount(3, 0, count);
  }
  results.resize(ctx.numOutputs());
  return results;
}

//===----------------------------------------------------------------------===//
// NonMaxSuppression
//===----------------------------------------------------------------------===//

/// Component `c` of the last dimension of `boxes` [B, N, 4], as [B, N].
Value component(TosaBuilder &t, Value boxes, int64_t c) {
  ArrayRef<int64_t> s = t.shapeOf(boxes);
  return t.reshape(t.sliceAxis(boxes, 2, c, 1), {s[0], s[1]});
}

/// A scalar float input as f32 [1, 1, 1, 1], or `dflt` when absent.
Value scalarInput(NodeContext &ctx, unsigned i, double dflt) {
  TosaBuilder &t = ctx.tosa;
  Type f32 = t.getBuilder().getF32Type();
  if (!ctx.hasInput(i))
    return t.splat({1, 1, 1, 1}, f32, dflt);
  Value v = ctx.input(i);
  if (t.elementTypeOf(v) != f32)
    v = t.cast(v, f32);
  return t.reshape(v, {1, 1, 1, 1});
}

/// NonMaxSuppression(boxes [B, N, 4], scores [B, C, N],
/// max_output_boxes_per_class, iou_threshold, score_threshold): per batch
/// and class, the boxes whose score passes the threshold, greedily in
/// descending score order (ties: the lower index first), each kept unless
/// its IoU with a box kept before exceeds the threshold, at most
/// max_output_boxes_per_class of them; rows [batch, class, box] in that
/// order. Bounded by B*C*N rows.
///
/// The greedy pass is N steps of one vector update over all boxes at once:
/// kept = candidate and not overlapping a kept box before it. After step p
/// the first p boxes of the order are decided (their predecessors were
/// decided a step earlier), so N steps give the greedy result.
LegalizeResult nonMaxSuppression(NodeContext &ctx) {
  if (failed(ctx.requireInputs(2)) ||
      failed(ctx.requireElementType(0, Elt::Float)) ||
      failed(ctx.requireElementType(1, Elt::Float)))
    return failure();
  TosaBuilder &t = ctx.tosa;
  ArrayRef<int64_t> boxShape = ctx.inputShape(0);
  ArrayRef<int64_t> scoreShape = ctx.inputShape(1);
  if (boxShape.size() != 3 || boxShape[2] != 4 || scoreShape.size() != 3 ||
      scoreShape[0] != boxShape[0] || scoreShape[2] != boxShape[1])
    return ctx.fail("boxes must be [batches, boxes, 4] and scores [batches, "
                    "classes, boxes]");
  int64_t centerPoint = ctx.getInt("center_point_box", 0);
  if (centerPoint != 0 && centerPoint != 1)
    return ctx.fail("center_point_box must be 0 or 1");
  int64_t nb = boxShape[0], n = boxShape[1], nc = scoreShape[1];
  if (failed(ctx.requireNonEmpty({nb, n, nc})))
    return failure();
  if (n > kMaxSuppressionBoxes)
    return ctx.fail("it has " + Twine(n) + " boxes per class; at most " +
                    Twine(kMaxSuppressionBoxes) +
                    " are supported (the greedy selection takes one step "
                    "per box)");
  Type f32 = t.getBuilder().getF32Type(), i32 = i32Type(t);
  Value boxes = ctx.input(0), scores = ctx.input(1);
  if (t.elementTypeOf(boxes) != f32)
    boxes = t.cast(boxes, f32);
  if (t.elementTypeOf(scores) != f32)
    scores = t.cast(scores, f32);

  // Corners [B, N].
  Value xmin, xmax, ymin, ymax;
  if (centerPoint == 0) {
    Value y1 = component(t, boxes, 0), x1 = component(t, boxes, 1);
    Value y2 = component(t, boxes, 2), x2 = component(t, boxes, 3);
    xmin = t.minimum(x1, x2);
    xmax = t.maximum(x1, x2);
    ymin = t.minimum(y1, y2);
    ymax = t.maximum(y1, y2);
  } else {
    Value xc = component(t, boxes, 0), yc = component(t, boxes, 1);
    Value half = t.scalarLike(xc, 0.5);
    Value w = t.mul(component(t, boxes, 2), half);
    Value h = t.mul(component(t, boxes, 3), half);
    xmin = t.sub(xc, w);
    xmax = t.add(xc, w);
    ymin = t.sub(yc, h);
    ymax = t.add(yc, h);
  }
  Value area = t.mul(t.sub(xmax, xmin), t.sub(ymax, ymin));
  // Pairs [B, 1, N (j), N (i)].
  auto asJ = [&](Value v) { return t.reshape(v, {nb, 1, n, 1}); };
  auto asI = [&](Value v) { return t.reshape(v, {nb, 1, 1, n}); };
  Value ixmin = t.maximum(asJ(xmin), asI(xmin));
  Value ixmax = t.minimum(asJ(xmax), asI(xmax));
  Value iymin = t.maximum(asJ(ymin), asI(ymin));
  Value iymax = t.minimum(asJ(ymax), asI(ymax));
  Value zero = t.splat({1, 1, 1, 1}, f32, 0);
  Value inter = t.mul(t.sub(ixmax, ixmin), t.sub(iymax, iymin));
  Value uni = t.sub(t.add(asJ(area), asI(area)), inter);
  auto positive = [&](Value v) { return t.compare<tosa::GreaterOp>(v, zero); };
  auto both = [&](Value a, Value b) {
    return t.binary<tosa::LogicalAndOp>(a, b);
  };
  Value valid = both(both(t.compare<tosa::GreaterOp>(ixmax, ixmin),
                          t.compare<tosa::GreaterOp>(iymax, iymin)),
                     both(both(positive(inter), positive(uni)),
                          both(positive(asJ(area)), positive(asI(area)))));
  // IoU as the specification's float32 division computes it (correctly
  // rounded), so that boxes at the threshold decide as they do there; the
  // division is only taken where the union is positive.
  Value safeUnion = t.select(valid, uni, t.splat({1, 1, 1, 1}, f32, 1));
  Value iou = divideF32(t, t.select(valid, inter, zero), safeUnion);
  Value overlaps =
      both(valid, t.compare<tosa::GreaterOp>(iou, scalarInput(ctx, 3, 0)));

  // Order: box j goes before box i when its score is higher, or equal and
  // its index lower. [B, C, N (j), N (i)].
  Value sj = t.reshape(scores, {nb, nc, n, 1});
  Value si = t.reshape(scores, {nb, nc, 1, n});
  SmallVector<int64_t> lowerIdx(n * n);
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i)
      lowerIdx[j * n + i] = j < i;
  Value lowerIndex = t.constant(fromInts(
      RankedTensorType::get({1, 1, n, n}, t.getBuilder().getI1Type()),
      lowerIdx));
  Value before = t.binary<tosa::LogicalOrOp>(
      t.compare<tosa::GreaterOp>(sj, si),
      both(t.compare<tosa::EqualOp>(sj, si), lowerIndex));
  Value candidate =
      ctx.hasInput(4)
          ? t.compare<tosa::GreaterOp>(scores, t.reshape(scalarInput(ctx, 4, 0),
                                                         {1, 1, 1}))
          : t.constant(fromInts(RankedTensorType::get(
                                      {nb, nc, n}, t.getBuilder().getI1Type()),
                                  SmallVector<int64_t>(nb * nc * n, 1)));
  Value suppresses = both(before, overlaps); // [B, C, N, N]
  Value kept = candidate;
  for (int64_t step = 1; step < n; ++step) {
    Value bySome = t.reduce<tosa::ReduceAnyOp>(
        both(suppresses, t.reshape(kept, {nb, nc, n, 1})), {2});
    kept = both(candidate, t.unary<tosa::LogicalNotOp>(
                               t.reshape(bySome, {nb, nc, n})));
  }

  // At most max_output_boxes_per_class per class: the first of the kept
  // ones in the order.
  Value keptI = t.indicator(kept, i32);
  Value rank = t.reshape(
      t.reduceSum(t.mul(t.indicator(before, i32),
                        t.reshape(keptI, {nb, nc, n, 1})),
                  {2}),
      {nb, nc, n});
  Value limit = t.splat({1, 1, 1}, i32, 0);
  if (ctx.hasInput(2)) {
    if (product(ctx.inputShape(2)) != 1)
      return ctx.fail("max_output_boxes_per_class must hold one value");
    limit = t.reshape(comparable(t, ctx.input(2)), {1, 1, 1});
  }
  Value selected = both(kept, t.compare<tosa::GreaterOp>(limit, rank));
  Value selectedI = t.indicator(selected, i32);
  // Row of each selected box: the rows of earlier (batch, class) pairs,
  // then its rank.
  Value perClass = t.reshape(t.reduceSum(selectedI, {2}), {nb * nc});
  Value offset = t.reshape(t.sub(t.scan(perClass, 0), perClass),
                           {nb, nc, 1});
  Value slot = t.reshape(t.add(offset, rank), {nb * nc * n});
  Value count = t.reduceSum(t.reshape(selectedI, {nb * nc * n}), {0});
  SmallVector<int64_t> triples;
  triples.reserve(nb * nc * n * 3);
  for (int64_t b = 0; b < nb; ++b)
    for (int64_t c = 0; c < nc; ++c)
      for (int64_t i = 0; i < n; ++i)
        triples.append({b, c, i});
  Value all = t.constant(
      fromInts(RankedTensorType::get({nb * nc * n, 3}, i32), triples));
  Value rows = compactSlices(t, all, 0, t.reshape(selected, {nb * nc * n}),
                             slot, count);
  ctx.setOutputCount(0, 0, count);
  return Values{rows};
}

//===----------------------------------------------------------------------===//
// Compress
//===----------------------------------------------------------------------===//

/// Compress(input, condition): the slices along `axis` (of the flattened
/// input when axis is absent) where the condition holds; positions past the
/// end of the condition are dropped. A constant condition selects constant
/// indices (a static shape that later ops may use); a run-time one gives a
/// bounded output of the axis' size.
LegalizeResult compress(NodeContext &ctx) {
  if (failed(ctx.requireInputs(2)))
    return failure();
  if (ctx.inputRank(1) != 1)
    return ctx.fail("condition must be one-dimensional");
  TosaBuilder &t = ctx.tosa;
  Value x = ctx.input(0);
  int64_t axis = 0;
  if (ctx.hasAttr("axis")) {
    std::optional<int64_t> a =
        normalizeAxis(ctx.getInt("axis", 0), ctx.inputRank(0));
    if (!a)
      return ctx.fail("axis is out of range");
    axis = *a;
  } else {
    x = t.reshape(x, {product(ctx.inputShape(0))});
  }
  if (failed(ctx.requireNonEmpty(t.shapeOf(x))))
    return failure();
  int64_t dim = t.shapeOf(x)[axis];
  int64_t given = ctx.inputShape(1)[0];
  if (given > dim)
    return ctx.fail("condition has " + Twine(given) +
                    " elements, more than the " + Twine(dim) + " of the axis");

  if (std::optional<SmallVector<int64_t>> condition = ctx.constantInts(1)) {
    SmallVector<int64_t> kept;
    for (auto [i, c] : llvm::enumerate(*condition))
      if (c)
        kept.push_back(i);
    if (kept.empty())
      return ctx.fail("the condition selects nothing (TOSA tensors cannot be "
                      "empty)");
    return Values{t.gatherAxis(x, axis, kept)};
  }

  if (given == 0)
    return ctx.fail("the condition is empty");
  if (t.elementTypeOf(x).isInteger(1))
    return ctx.fail("boolean data with a run-time condition is not "
                    "supported (TOSA scatters numbers only)");
  Value cond = ctx.input(1);
  if (!t.elementTypeOf(cond).isInteger(1))
    cond = t.unary<tosa::LogicalNotOp>(t.compare<tosa::EqualOp>(
        comparable(t, cond), t.scalarLike(comparable(t, cond), 0)));
  // Positions past the condition's end are not selected.
  Value keep = cond;
  if (given < dim)
    keep = t.concat({cond, t.constant(fromInts(
                               RankedTensorType::get(
                                   {dim - given}, t.getBuilder().getI1Type()),
                               SmallVector<int64_t>(dim - given, 0)))},
                    0);
  Value keepI = t.indicator(keep, i32Type(t));
  Value slot = t.sub(t.scan(keepI, 0), keepI);
  Value count = t.reduceSum(keepI, {0});
  ctx.setOutputCount(0, axis, count);
  return Values{compactSlices(t, x, axis, keep, slot, count)};
}

// clang-format off
const OpLegalization kDataDependent[] = {
    {"NonZero", 9, nonZero},
    {"Unique", 11, unique},
    {"NonMaxSuppression", 10, nonMaxSuppression},
    {"Compress", 9, compress},
};
// clang-format on

} // namespace

ArrayRef<OpLegalization> getDataDependentLegalizations() {
  return kDataDependent;
}

} // namespace onnx_tosa
