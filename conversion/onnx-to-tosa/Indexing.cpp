//===- Indexing.cpp - Gather*, Scatter*, OneHot, ReverseSequence ----------===//
//
// Indexing with run-time indices. TOSA 1.0 has one gather and one scatter,
// both over [N, K, C] values and [N, W] i32 row indices; every ONNX form
// here flattens the data to rows and computes the row index of each
// element (run-time indices times constant strides, plus constant offsets
// for the positions that are not indexed). Indices arrive as i32: int64
// indices are demoted (docs/types.md), so data with more than 2^31 rows is
// out of reach.
//
//===----------------------------------------------------------------------===//
#include "conversion/onnx-to-tosa/NodeContext.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

using namespace mlir;

namespace onnx_tosa {
namespace {

/// Row-major strides of `shape`.
Shape stridesOf(ArrayRef<int64_t> shape) {
  Shape strides(shape.size(), 1);
  for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

/// Index input `i` as i32; constants are converted at compile time.
Value indicesI32(NodeContext &ctx, unsigned i) {
  TosaBuilder &t = ctx.tosa;
  auto type =
      RankedTensorType::get(ctx.inputShape(i), t.getBuilder().getI32Type());
  if (std::optional<DenseElementsAttr> c = ctx.constantInput(i)) {
    if (isa<FloatType>(c->getElementType())) { // floored, as at run time
      SmallVector<int64_t> ints;
      for (double v : toDoubles(*c))
        ints.push_back(static_cast<int64_t>(
            std::clamp(std::floor(v), -2147483648.0, 2147483647.0)));
      return t.constant(fromInts(type, ints));
    }
    return t.constant(fromInts(type, toInts(*c)));
  }
  Value idx = ctx.input(i);
  if (isa<FloatType>(t.elementTypeOf(idx)))
    idx = t.unary<tosa::FloorOp>(idx);
  return t.cast(idx, t.getBuilder().getI32Type());
}

/// Adds `dims` (broadcast against `idx`) to its negative entries: ONNX
/// indices in [-dim, 0) count from the end.
Value wrapNegative(TosaBuilder &t, Value idx, Value dims) {
  Value negative = t.compare<tosa::GreaterOp>(t.scalarLike(idx, 0), idx);
  return t.select(negative, t.add(idx, dims), idx);
}

/// Rows `rows` (i32, any shape S) of `data` viewed as [rows, rowSize]: a
/// tensor of S x rowShape.
Value gatherRows(TosaBuilder &t, Value data, Value rows,
                 ArrayRef<int64_t> rowShape) {
  int64_t rowSize = product(rowShape);
  int64_t count = product(t.shapeOf(data)) / rowSize;
  int64_t w = product(t.shapeOf(rows));
  Type elt = t.elementTypeOf(data);
  Value values = t.reshape(data, {1, count, rowSize});
  Value gathered = tosa::GatherOp::create(
      t.getBuilder(), t.getLoc(), RankedTensorType::get({1, w, rowSize}, elt),
      values, t.reshape(rows, {1, w}));
  Shape out(t.shapeOf(rows));
  llvm::append_range(out, rowShape);
  return t.reshape(gathered, out);
}

/// `data` viewed as [rows, rowSize] with rows `rows` (i32) replaced by
/// `updates` (rows x rowSize elements).
Value scatterRows(TosaBuilder &t, Value data, Value rows, Value updates,
                  int64_t rowSize) {
  int64_t count = product(t.shapeOf(data)) / rowSize;
  int64_t w = product(t.shapeOf(rows));
  Value values = t.reshape(data, {1, count, rowSize});
  Value scattered = tosa::ScatterOp::create(
      t.getBuilder(), t.getLoc(), values.getType(), values,
      t.reshape(rows, {1, w}), t.reshape(updates, {1, w, rowSize}));
  return t.reshape(scattered, t.shapeOf(data));
}

/// Gather and scatter are defined for the profiles' data types only.
LogicalResult requireGatherable(NodeContext &ctx, unsigned i) {
  Type elt = ctx.inputType(i).getElementType();
  if (elt.isInteger(1))
    return ctx.fail("boolean data cannot be gathered or scattered in TOSA");
  return ctx.requireElementType(i, Elt::Number);
}

//===----------------------------------------------------------------------===//
// Gather
//===----------------------------------------------------------------------===//

/// Gather along `axis`. Constant indices use TosaBuilder::gatherAxis (which
/// folds on constants, covering shape arithmetic); run-time ones one
/// tosa.gather with the outer dimensions as its batch.
LegalizeResult gather(NodeContext &ctx) {
  if (failed(ctx.requireInputs(2)))
    return failure();
  TosaBuilder &t = ctx.tosa;
  Value data = ctx.input(0);
  ArrayRef<int64_t> in = t.shapeOf(data);
  std::optional<int64_t> axis = normalizeAxis(ctx.getInt("axis", 0), in.size());
  if (!axis)
    return ctx.fail("axis is out of range");
  int64_t dim = in[*axis];
  Shape outShape(in.take_front(*axis));
  llvm::append_range(outShape, ctx.inputShape(1));
  llvm::append_range(outShape, in.drop_front(*axis + 1));
  if (failed(ctx.requireNonEmpty(outShape)))
    return failure();

  if (std::optional<SmallVector<int64_t>> indices = ctx.constantInts(1)) {
    for (int64_t &idx : *indices) {
      if (idx < -dim || idx >= dim)
        return ctx.fail("index " + Twine(idx) + " is out of range");
      if (idx < 0)
        idx += dim;
    }
    return Values{t.reshape(t.gatherAxis(data, *axis, *indices), outShape)};
  }

  if (failed(requireGatherable(ctx, 0)))
    return failure();
  int64_t outer = product(in.take_front(*axis));
  int64_t inner = product(in.drop_front(*axis + 1));
  int64_t w = product(ctx.inputShape(1));
  Value idx = indicesI32(ctx, 1);
  idx = wrapNegative(t, idx, t.scalarLike(idx, dim));
  Value rows = t.tile(t.reshape(idx, {1, w}), {outer, 1});
  Type elt = t.elementTypeOf(data);
  Value gathered = tosa::GatherOp::create(
      t.getBuilder(), t.getLoc(), RankedTensorType::get({outer, w, inner}, elt),
      t.reshape(data, {outer, dim, inner}), rows);
  return Values{t.reshape(gathered, outShape)};
}

/// The flat element index of every position of the indices of
/// GatherElements / ScatterElements: the index itself along `axis`, the
/// position elsewhere.
FailureOr<Value> elementsRows(NodeContext &ctx, unsigned indicesInput) {
  TosaBuilder &t = ctx.tosa;
  ArrayRef<int64_t> data = ctx.inputShape(0);
  ArrayRef<int64_t> idxShape = ctx.inputShape(indicesInput);
  int64_t rank = data.size();
  if (static_cast<int64_t>(idxShape.size()) != rank)
    return ctx.fail("indices must have the rank of the data");
  std::optional<int64_t> axis = normalizeAxis(ctx.getInt("axis", 0), rank);
  if (!axis)
    return ctx.fail("axis is out of range");
  if (failed(ctx.requireNonEmpty(idxShape)))
    return failure();
  Shape strides = stridesOf(data);
  // Offsets of the positions outside `axis`, a compile-time constant.
  Shape idxStrides = stridesOf(idxShape);
  SmallVector<int64_t> base(product(idxShape));
  for (int64_t flat = 0; flat < static_cast<int64_t>(base.size()); ++flat)
    for (int64_t d = 0; d < rank; ++d)
      if (d != *axis)
        base[flat] += (flat / idxStrides[d] % idxShape[d]) * strides[d];
  Type i32 = t.getBuilder().getI32Type();
  Value offsets =
      t.constant(fromInts(RankedTensorType::get(idxShape, i32), base));
  Value idx = indicesI32(ctx, indicesInput);
  idx = wrapNegative(t, idx, t.scalarLike(idx, data[*axis]));
  if (strides[*axis] != 1)
    idx = t.mul(idx, t.scalarLike(idx, strides[*axis]));
  return t.add(idx, offsets);
}

/// GatherElements: out[p] = data[p with p[axis] = indices[p]].
LegalizeResult gatherElements(NodeContext &ctx) {
  if (failed(ctx.requireInputs(2)) || failed(requireGatherable(ctx, 0)))
    return failure();
  FailureOr<Value> rows = elementsRows(ctx, 1);
  if (failed(rows))
    return failure();
  return Values{gatherRows(ctx.tosa, ctx.input(0), *rows, {})};
}

/// The row index of every index tuple of GatherND / ScatterND (the last
/// dimension of the indices), over data viewed as
/// [prod(data[:batch + k]), prod(data[batch + k:])].
FailureOr<Value> tupleRows(NodeContext &ctx, unsigned indicesInput,
                           int64_t batchDims) {
  TosaBuilder &t = ctx.tosa;
  ArrayRef<int64_t> data = ctx.inputShape(0);
  ArrayRef<int64_t> idxShape = ctx.inputShape(indicesInput);
  if (idxShape.empty())
    return ctx.fail("indices must have rank at least 1");
  int64_t k = idxShape.back();
  int64_t rank = data.size();
  if (batchDims < 0 || batchDims + k > rank ||
      batchDims >= static_cast<int64_t>(idxShape.size()))
    return ctx.fail("indices do not fit the data");
  for (int64_t d = 0; d < batchDims; ++d)
    if (idxShape[d] != data[d])
      return ctx.fail("batch dimensions of data and indices differ");
  Shape tuples(idxShape.drop_back());
  if (failed(ctx.requireNonEmpty(idxShape)) ||
      failed(ctx.requireNonEmpty(tuples)))
    return failure();
  Type i32 = t.getBuilder().getI32Type();

  // Row index = batch position * rows per batch + sum_j idx[j] * stride[j].
  Shape indexed(data.slice(batchDims, k));
  Shape strides = stridesOf(indexed);
  Value idx = indicesI32(ctx, indicesInput);
  Shape lastAxis(idxShape.size(), 1);
  lastAxis.back() = k;
  auto vec = RankedTensorType::get(lastAxis, i32);
  idx = wrapNegative(t, idx, t.constant(fromInts(vec, indexed)));
  Value rows = idx;
  if (k > 1) {
    rows = t.mul(rows, t.constant(fromInts(vec, strides)));
    rows = t.reduceSum(rows, {static_cast<int64_t>(idxShape.size()) - 1});
  }
  rows = t.reshape(rows, tuples);
  if (batchDims > 0) {
    int64_t perBatch = product(indexed);
    int64_t perTuple = product(ArrayRef<int64_t>(tuples).drop_front(batchDims));
    SmallVector<int64_t> base;
    for (int64_t i = 0, n = product(tuples); i < n; ++i)
      base.push_back(i / perTuple * perBatch);
    rows = t.add(
        rows, t.constant(fromInts(RankedTensorType::get(tuples, i32), base)));
  }
  return rows;
}

/// GatherND: out[p, ...] = data[batch(p), indices[p], ...].
LegalizeResult gatherND(NodeContext &ctx) {
  if (failed(ctx.requireInputs(2)) || failed(requireGatherable(ctx, 0)))
    return failure();
  int64_t batchDims = ctx.getOpset() >= 12 ? ctx.getInt("batch_dims", 0) : 0;
  FailureOr<Value> rows = tupleRows(ctx, 1, batchDims);
  if (failed(rows))
    return failure();
  int64_t k = ctx.inputShape(1).back();
  Shape rowShape(ctx.inputShape(0).drop_front(batchDims + k));
  return Values{gatherRows(ctx.tosa, ctx.input(0), *rows, rowShape)};
}

//===----------------------------------------------------------------------===//
// Scatter
//===----------------------------------------------------------------------===//

/// Scatter with a reduction (add, mul, max, min). TOSA's SCATTER only
/// replaces rows, so every row of the data is combined with the reduction of
/// all updates aimed at it (duplicates included, as ONNX requires), found
/// with a [W, rows] match mask: O(W * rows * rowSize) work, hence the limit.
constexpr int64_t kMaxReducingScatter = int64_t(1) << 22;

FailureOr<Value> scatterReduce(NodeContext &ctx, Value rows, int64_t rowSize,
                               StringRef reduction) {
  TosaBuilder &t = ctx.tosa;
  Value data = ctx.input(0);
  Type elt = t.elementTypeOf(data);
  int64_t count = product(t.shapeOf(data)) / rowSize;
  int64_t w = product(t.shapeOf(rows));
  if (w * count * rowSize > kMaxReducingScatter)
    return ctx.fail("reduction '" + reduction + "' over " + Twine(w) +
                    " updates of " + Twine(count) +
                    " rows is too large (TOSA SCATTER only replaces)");
  bool isFloat = isa<FloatType>(elt);
  if (reduction == "mul" && !isFloat)
    return ctx.fail("reduction 'mul' needs floating-point data (TOSA has no "
                    "integer product reduction)");
  double lowest = isFloat ? -std::numeric_limits<double>::infinity()
                          : -std::ldexp(1.0, elt.getIntOrFloatBitWidth() - 1);
  double highest = isFloat
                       ? std::numeric_limits<double>::infinity()
                       : std::ldexp(1.0, elt.getIntOrFloatBitWidth() - 1) - 1;
  double identity = reduction == "add"   ? 0
                    : reduction == "mul" ? 1
                    : reduction == "max" ? lowest
                                         : highest;

  Type i32 = t.getBuilder().getI32Type();
  SmallVector<int64_t> iota(count);
  std::iota(iota.begin(), iota.end(), 0);
  Value match = t.compare<tosa::EqualOp>(
      t.reshape(rows, {w, 1, 1}),
      t.constant(fromInts(RankedTensorType::get({1, count, 1}, i32), iota)));
  Value updates = t.reshape(ctx.input(2), {w, 1, rowSize});
  Value aimed =
      t.broadcastTo(t.select(match, updates, t.splat({1, 1, 1}, elt, identity)),
                    {w, count, rowSize});
  Value base = t.reshape(data, {1, count, rowSize});
  Value out;
  if (reduction == "add")
    out = t.add(base, t.reduceSum(aimed, {0}));
  else if (reduction == "mul")
    out = t.mul(base, t.reduce<tosa::ReduceProductOp>(aimed, {0}));
  else if (reduction == "max")
    out = t.maximum(base, t.reduceMax(aimed, {0}));
  else
    out = t.minimum(base, t.reduce<tosa::ReduceMinOp>(aimed, {0}));
  return t.reshape(out, t.shapeOf(data));
}

/// Checks the operands of ScatterElements / ScatterND; `reduction` is the
/// attribute ("none" before it existed).
LogicalResult requireScatter(NodeContext &ctx, std::string &reduction) {
  reduction = ctx.getString("reduction", "none");
  if (!llvm::is_contained({"none", "add", "mul", "max", "min"}, reduction))
    return ctx.fail("reduction '" + reduction + "' is not supported");
  if (failed(ctx.requireInputs(3)) || failed(requireGatherable(ctx, 0)))
    return failure();
  if (ctx.inputType(2).getElementType() != ctx.inputType(0).getElementType())
    return ctx.fail("updates and data differ in element type");
  return success();
}

/// Rows of the data replaced by (reduction "none": duplicate indices are
/// undefined in both specs) or combined with the updates.
LegalizeResult scatterWith(NodeContext &ctx, Value rows, int64_t rowSize,
                           StringRef reduction) {
  if (reduction == "none")
    return Values{
        scatterRows(ctx.tosa, ctx.input(0), rows, ctx.input(2), rowSize)};
  FailureOr<Value> out = scatterReduce(ctx, rows, rowSize, reduction);
  if (failed(out))
    return failure();
  return Values{*out};
}

/// ScatterElements (and its predecessor Scatter).
LegalizeResult scatterElements(NodeContext &ctx) {
  std::string reduction;
  if (failed(requireScatter(ctx, reduction)))
    return failure();
  if (ctx.inputShape(2) != ctx.inputShape(1))
    return ctx.fail("updates and indices differ in shape");
  FailureOr<Value> rows = elementsRows(ctx, 1);
  if (failed(rows))
    return failure();
  return scatterWith(ctx, *rows, 1, reduction);
}

LegalizeResult scatterND(NodeContext &ctx) {
  std::string reduction;
  if (failed(requireScatter(ctx, reduction)))
    return failure();
  FailureOr<Value> rows = tupleRows(ctx, 1, 0);
  if (failed(rows))
    return failure();
  int64_t k = ctx.inputShape(1).back();
  int64_t rowSize = product(ctx.inputShape(0).drop_front(k));
  if (product(ctx.inputShape(2)) != product(ctx.tosa.shapeOf(*rows)) * rowSize)
    return ctx.fail("updates do not match indices and data");
  return scatterWith(ctx, *rows, rowSize, reduction);
}

//===----------------------------------------------------------------------===//
// OneHot
//===----------------------------------------------------------------------===//

/// OneHot(indices, depth, values): values[1] where the position along
/// `axis` equals the index (negative ones counting from depth), values[0]
/// elsewhere.
LegalizeResult oneHot(NodeContext &ctx) {
  if (failed(ctx.requireInputs(3)))
    return failure();
  std::optional<DenseElementsAttr> depthAttr = ctx.constantInput(1);
  if (!depthAttr || depthAttr->getNumElements() != 1)
    return ctx.failNotConstant(1, "depth must be a compile-time constant scalar");
  int64_t depth = static_cast<int64_t>(toDoubles(*depthAttr).front());
  if (depth <= 0)
    return ctx.fail("depth must be positive");
  if (product(ctx.inputShape(2)) != 2)
    return ctx.fail("values must hold two elements");
  TosaBuilder &t = ctx.tosa;
  ArrayRef<int64_t> in = ctx.inputShape(0);
  int64_t rank = in.size() + 1;
  std::optional<int64_t> axis = normalizeAxis(ctx.getInt("axis", -1), rank);
  if (!axis)
    return ctx.fail("axis is out of range");

  Shape expanded(in), iotaShape(rank, 1), outShape(in);
  expanded.insert(expanded.begin() + *axis, 1);
  outShape.insert(outShape.begin() + *axis, depth);
  iotaShape[*axis] = depth;
  if (failed(ctx.requireNonEmpty(outShape)))
    return failure();
  Value idx = t.reshape(indicesI32(ctx, 0), expanded);
  idx = wrapNegative(t, idx, t.scalarLike(idx, depth));
  Type i32 = t.getBuilder().getI32Type();
  SmallVector<int64_t> iota(depth);
  std::iota(iota.begin(), iota.end(), 0);
  Value hot = t.compare<tosa::EqualOp>(
      idx, t.constant(fromInts(RankedTensorType::get(iotaShape, i32), iota)));
  Value values = t.reshape(ctx.input(2), {2});
  Shape ones(rank, 1);
  Value off = t.reshape(t.sliceAxis(values, 0, 0, 1), ones);
  Value on = t.reshape(t.sliceAxis(values, 0, 1, 1), ones);
  return Values{t.broadcastTo(t.select(hot, on, off), outShape)};
}

/// ReverseSequence: in batch b the first sequence_lens[b] positions along
/// the time axis are reversed, the rest kept: position i reads
/// len - 1 - i when i < len, else i. One tosa.gather with the batch as its
/// batch dimension and time positions as its rows.
LegalizeResult reverseSequence(NodeContext &ctx) {
  if (failed(ctx.requireInputs(2)) || failed(requireGatherable(ctx, 0)) ||
      failed(ctx.requireElementType(1, Elt::Int)))
    return failure();
  TosaBuilder &t = ctx.tosa;
  Value x = ctx.input(0);
  ArrayRef<int64_t> shape = t.shapeOf(x);
  int64_t rank = shape.size();
  int64_t batchAxis = ctx.getInt("batch_axis", 1);
  int64_t timeAxis = ctx.getInt("time_axis", 0);
  if (rank < 2 || batchAxis + timeAxis != 1 || batchAxis * timeAxis != 0)
    return ctx.fail("batch_axis and time_axis must be 0 and 1, or 1 and 0, "
                    "of an input of rank at least 2");
  int64_t batch = shape[batchAxis], time = shape[timeAxis];
  if (ctx.inputShape(1) != ArrayRef<int64_t>{batch})
    return ctx.fail("sequence_lens must have shape [" + Twine(batch) + "]");
  if (failed(ctx.requireNonEmpty(shape)))
    return failure();
  // [batch, time, rest...] viewed as tosa.gather's [N, K, C].
  Shape perm;
  for (int64_t d = 0; d < rank; ++d)
    perm.push_back(d);
  std::swap(perm[0], perm[1]);
  Value data = batchAxis == 0 ? x : t.transpose(x, perm);
  Shape batchMajor(t.shapeOf(data));
  int64_t inner = product(shape.drop_front(2));
  Type i32 = t.getBuilder().getI32Type();
  Value lens = t.reshape(indicesI32(ctx, 1), {batch, 1});
  SmallVector<int64_t> positions(time);
  std::iota(positions.begin(), positions.end(), 0);
  Value iota =
      t.constant(fromInts(RankedTensorType::get({1, time}, i32), positions));
  Value reversed = t.sub(t.sub(lens, t.scalarLike(lens, 1)), iota);
  Value rows = t.select(t.compare<tosa::GreaterOp>(lens, iota), reversed,
                        t.broadcastTo(iota, {batch, time}));
  Value gathered = tosa::GatherOp::create(
      t.getBuilder(), t.getLoc(),
      RankedTensorType::get({batch, time, inner}, t.elementTypeOf(x)),
      t.reshape(data, {batch, time, inner}), rows);
  Value y = t.reshape(gathered, batchMajor);
  return Values{batchAxis == 0 ? y : t.transpose(y, perm)};
}

// clang-format off
const OpLegalization kIndexing[] = {
    {"Gather", 1, gather},
    {"GatherElements", 11, gatherElements},
    {"GatherND", 11, gatherND},
    {"Scatter", 9, scatterElements},
    {"ScatterElements", 11, scatterElements},
    {"ScatterND", 11, scatterND},
    {"OneHot", 9, oneHot},
    {"ReverseSequence", 10, reverseSequence},
};
// clang-format on

} // namespace

ArrayRef<OpLegalization> getIndexingLegalizations() { return kIndexing; }

} // namespace onnx_tosa
