//===- Tensor.cpp - Concat, Split, Slice, Expand, Tile, Pad ---------------===//
//
// Data movement. Sizes, indices and pads that ONNX passes as int64 tensors
// must be compile-time constants: they become TOSA attributes and shape
// values, and nothing int64 is left at run time.
//
//===----------------------------------------------------------------------===//
#include "conversion/onnx-to-tosa/ConstantFolding.h"
#include "conversion/onnx-to-tosa/NodeContext.h"

using namespace mlir;

namespace onnx_tosa {
namespace {

/// Concat along `axis`; empty inputs are dropped (an empty result is an
/// empty constant).
LegalizeResult concat(NodeContext &ctx) {
  if (ctx.numInputs() == 0 || failed(ctx.requireInputs(ctx.numInputs())) ||
      failed(ctx.requireSameElementType(0, ctx.numInputs())))
    return failure();
  int64_t rank = ctx.inputRank(0);
  std::optional<int64_t> axis =
      normalizeAxis(ctx.getInt("axis", ctx.getOpset() < 4 ? 1 : 0), rank);
  if (!axis)
    return ctx.fail("axis is out of range");
  SmallVector<Value> parts;
  Shape outShape(ctx.inputShape(0));
  outShape[*axis] = 0;
  for (unsigned i = 0; i < ctx.numInputs(); ++i) {
    ArrayRef<int64_t> s = ctx.inputShape(i);
    if (static_cast<int64_t>(s.size()) != rank)
      return ctx.fail("inputs have different ranks");
    for (int64_t d = 0; d < rank; ++d)
      if (d != *axis && s[d] != ctx.inputShape(0)[d])
        return ctx.fail("input " + Twine(i) +
                        " differs from input 0 outside "
                        "the concatenation axis");
    if (s[*axis] != 0)
      parts.push_back(ctx.input(i));
    outShape[*axis] += s[*axis];
  }
  if (product(outShape) == 0)
    return Values{createEmptyConstant(ctx.tosa, outShape,
                                      ctx.inputType(0).getElementType())};
  return Values{ctx.tosa.concat(parts, *axis)};
}

/// Split into outputs along `axis`: sizes from the `split` attribute (before
/// 13) or input (from 13), else equal parts (the last smaller from 18).
LegalizeResult split(NodeContext &ctx) {
  if (failed(ctx.requireInputs(1)))
    return failure();
  ArrayRef<int64_t> in = ctx.inputShape(0);
  std::optional<int64_t> axis = normalizeAxis(ctx.getInt("axis", 0), in.size());
  if (!axis)
    return ctx.fail("axis is out of range");
  std::optional<Shape> sizes;
  if (failed(ctx.readIntsAttrOrInput("split", 1, 13, sizes)))
    return failure();
  int64_t dim = in[*axis], parts = ctx.numOutputs();
  if (!sizes) {
    if (ctx.getOpset() >= 18)
      parts = ctx.getInt("num_outputs", parts);
    int64_t chunk = (dim + parts - 1) / parts;
    if (ctx.getOpset() < 18 && dim % parts)
      return ctx.fail("dimension " + Twine(dim) +
                      " does not split evenly into " + Twine(parts) + " parts");
    sizes.emplace();
    for (int64_t i = 0, left = dim; i < parts; ++i, left -= chunk)
      sizes->push_back(std::min(chunk, left));
  }
  if (static_cast<int64_t>(sizes->size()) != ctx.numOutputs() ||
      llvm::sum_of(*sizes) != dim)
    return ctx.fail("split sizes do not match the outputs and the dimension");
  Values outs;
  int64_t start = 0;
  for (int64_t size : *sizes) {
    if (size < 0)
      return ctx.fail("split sizes must not be negative");
    Shape outShape(in);
    outShape[*axis] = size;
    outs.push_back(product(outShape) == 0
                       ? createEmptyConstant(ctx.tosa, outShape,
                                             ctx.inputType(0).getElementType())
                       : ctx.tosa.sliceAxis(ctx.input(0), *axis, start, size));
    start += size;
  }
  return outs;
}

/// Slice: starts/ends/axes attributes before 10; inputs starts, ends, axes,
/// steps (all constant) from 10. Negative steps walk a reversed axis. An
/// empty result is an empty constant.
LegalizeResult slice(NodeContext &ctx) {
  if (failed(ctx.requireInputs(1)))
    return failure();
  Shape starts, ends, axes, steps;
  if (ctx.getOpset() < 10) {
    starts = ctx.getInts("starts");
    ends = ctx.getInts("ends");
    axes = ctx.getInts("axes");
  } else {
    if (failed(ctx.requireConstantInts(1, "starts", starts)) ||
        failed(ctx.requireConstantInts(2, "ends", ends)) ||
        (ctx.hasInput(3) && failed(ctx.requireConstantInts(3, "axes", axes))) ||
        (ctx.hasInput(4) && failed(ctx.requireConstantInts(4, "steps", steps))))
      return failure();
  }
  ArrayRef<int64_t> in = ctx.inputShape(0);
  int64_t rank = in.size();
  if (axes.empty())
    for (size_t i = 0; i < starts.size(); ++i)
      axes.push_back(i);
  if (steps.empty())
    steps.assign(starts.size(), 1);
  if (ends.size() != starts.size() || axes.size() != starts.size() ||
      steps.size() != starts.size())
    return ctx.fail("starts, ends, axes and steps differ in length");

  // Each sliced axis as (axis, start, count, step) on the input, or on the
  // reversed input for negative steps.
  struct AxisSlice {
    int64_t axis, start, count, step;
    bool reversed;
  };
  SmallVector<AxisSlice> slices;
  Shape outShape(in);
  for (size_t i = 0; i < starts.size(); ++i) {
    std::optional<int64_t> axis = normalizeAxis(axes[i], rank);
    if (!axis)
      return ctx.fail("axis " + Twine(axes[i]) + " is out of range");
    int64_t dim = in[*axis], step = steps[i];
    if (step == 0)
      return ctx.fail("steps must be non-zero");
    // Clamp as the spec says: [0, dim] for positive steps, [-1, dim - 1] for
    // negative ones (after adding dim to negative values).
    auto clampIndex = [&](int64_t v, int64_t lo, int64_t hi) {
      if (v < 0)
        v += dim;
      return std::clamp(v, lo, hi);
    };
    int64_t start, end;
    bool reversed = step < 0;
    if (!reversed) {
      start = clampIndex(starts[i], 0, dim);
      end = clampIndex(ends[i], 0, dim);
    } else {
      start = clampIndex(starts[i], 0, dim - 1);
      end = clampIndex(ends[i], -1, dim - 1);
      // On the reversed axis index j is dim - 1 - j.
      start = dim - 1 - start;
      end = dim - 1 - end;
      step = -step;
    }
    int64_t count = end > start ? (end - start + step - 1) / step : 0;
    slices.push_back({*axis, start, count, step, reversed});
    outShape[*axis] = count;
  }
  if (product(outShape) == 0)
    return Values{createEmptyConstant(ctx.tosa, outShape,
                                      ctx.inputType(0).getElementType())};
  TosaBuilder &t = ctx.tosa;
  Value x = ctx.input(0);
  for (const AxisSlice &s : slices) {
    if (s.reversed)
      x = t.reverse(x, s.axis);
    x = t.sliceStrided(x, s.axis, s.start, s.count, s.step);
  }
  return Values{x};
}

/// Trilu with a run-time k (int64, computed as i32: docs/types.md): the
/// constant j - i of every position compared with k.
Value triluMask(TosaBuilder &t, Value k, int64_t rank, int64_t rows,
                int64_t cols, bool upper) {
  Shape maskShape(rank, 1);
  maskShape[rank - 2] = rows;
  maskShape[rank - 1] = cols;
  SmallVector<int64_t> diff;
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      diff.push_back(j - i);
  Value d = t.constant(fromInts(
      RankedTensorType::get(maskShape, t.getBuilder().getI32Type()), diff));
  k = t.reshape(t.cast(k, t.getBuilder().getI32Type()), Shape(rank, 1));
  return upper ? t.compare<tosa::GreaterEqualOp>(d, k)
               : t.compare<tosa::GreaterEqualOp>(k, d);
}

/// Trilu: keeps the upper (j - i >= k) or lower (j - i <= k) triangle of
/// the last two dimensions; k is an optional input.
LegalizeResult trilu(NodeContext &ctx) {
  if (failed(ctx.requireInputs(1)))
    return failure();
  TosaBuilder &t = ctx.tosa;
  Value x = ctx.input(0);
  int64_t rank = t.rankOf(x);
  if (rank < 2)
    return ctx.fail("input must have rank at least 2");
  int64_t rows = t.shapeOf(x)[rank - 2], cols = t.shapeOf(x)[rank - 1];
  bool upper = ctx.getInt("upper", 1);
  if (product(t.shapeOf(x)) == 0)
    return Values{createEmptyConstant(t, t.shapeOf(x), t.elementTypeOf(x))};
  if (ctx.hasInput(1) && !ctx.constantInput(1)) {
    if (product(ctx.inputShape(1)) != 1 ||
        failed(ctx.requireElementType(1, Elt::Int)))
      return ctx.fail("k must be an integer scalar");
    Value mask = triluMask(t, ctx.input(1), rank, rows, cols, upper);
    return Values{t.select(mask, x, t.scalarLike(x, 0))};
  }
  Shape k{0};
  if (ctx.hasInput(1) && failed(ctx.requireConstantInts(1, "k", k)))
    return failure();
  SmallVector<int64_t> keep;
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      keep.push_back(upper ? j - i >= k[0] : j - i <= k[0]);
  Shape maskShape(rank, 1);
  maskShape[rank - 2] = rows;
  maskShape[rank - 1] = cols;
  Value mask = t.constant(fromInts(
      RankedTensorType::get(maskShape, t.getBuilder().getI1Type()), keep));
  return Values{t.select(mask, x, t.scalarLike(x, 0))};
}

/// Expand: numpy (bidirectional) broadcast to a constant shape.
LegalizeResult expand(NodeContext &ctx) {
  if (failed(ctx.requireInputs(2)))
    return failure();
  Shape shape;
  if (failed(ctx.requireConstantInts(1, "shape", shape)))
    return failure();
  std::optional<Shape> out = broadcastShapes(ctx.inputShape(0), shape);
  if (!out)
    return ctx.fail("shape does not broadcast with the input");
  if (product(*out) == 0)
    return Values{
        createEmptyConstant(ctx.tosa, *out, ctx.inputType(0).getElementType())};
  return Values{ctx.tosa.broadcastTo(ctx.input(0), *out)};
}

/// Tile with constant repeats.
LegalizeResult tile(NodeContext &ctx) {
  if (failed(ctx.requireInputs(2)))
    return failure();
  Shape repeats;
  if (failed(ctx.requireConstantInts(1, "repeats", repeats)))
    return failure();
  if (static_cast<int64_t>(repeats.size()) != ctx.inputRank(0) ||
      llvm::any_of(repeats, [](int64_t r) { return r < 0; }))
    return ctx.fail("repeats must be non-negative, one per dimension");
  Shape outShape(ctx.inputShape(0));
  for (auto [d, r] : llvm::zip_equal(outShape, repeats))
    d *= r;
  if (product(outShape) == 0)
    return Values{createEmptyConstant(ctx.tosa, outShape,
                                      ctx.inputType(0).getElementType())};
  return Values{ctx.tosa.tile(ctx.input(0), repeats)};
}

/// Pad: pads (and the constant value) as attributes before 11, inputs from
/// 11, optionally for a subset of axes from 18. Negative pads crop.
LegalizeResult pad(NodeContext &ctx) {
  if (failed(ctx.requireInputs(1)))
    return failure();
  TosaBuilder &t = ctx.tosa;
  Value x = ctx.input(0);
  int64_t rank = t.rankOf(x);
  std::string mode = ctx.getString("mode", "constant");
  Shape pads, axes;
  double value = 0;
  if (ctx.getOpset() < 11) {
    pads = ctx.getInts("pads");
    value = ctx.getFloat("value", 0.0f);
  } else {
    if (failed(ctx.requireConstantInts(1, "pads", pads)) ||
        (ctx.hasInput(3) && failed(ctx.requireConstantInts(3, "axes", axes))))
      return failure();
    if (ctx.hasInput(2)) {
      std::optional<DenseElementsAttr> c = ctx.constantInput(2);
      if (!c)
        return ctx.failNotConstant(
            2, "constant_value must be a compile-time constant");
      value = toDoubles(*c).front();
    }
  }
  if (axes.empty())
    for (int64_t i = 0; i < rank; ++i)
      axes.push_back(i);
  if (pads.size() != 2 * axes.size())
    return ctx.fail("pads must have two entries per padded axis");
  Shape before(rank, 0), after(rank, 0);
  for (auto [i, a] : llvm::enumerate(axes)) {
    std::optional<int64_t> axis = normalizeAxis(a, rank);
    if (!axis)
      return ctx.fail("axis " + Twine(a) + " is out of range");
    before[*axis] = pads[i];
    after[*axis] = pads[axes.size() + i];
  }
  // Crop first.
  Shape cropStart(rank, 0), kept(t.shapeOf(x));
  for (int64_t d = 0; d < rank; ++d) {
    cropStart[d] = std::max<int64_t>(0, -before[d]);
    kept[d] -= cropStart[d] + std::max<int64_t>(0, -after[d]);
    if (kept[d] <= 0)
      return ctx.fail("produces an empty tensor, which TOSA cannot represent");
    before[d] = std::max<int64_t>(0, before[d]);
    after[d] = std::max<int64_t>(0, after[d]);
  }
  x = t.slice(x, cropStart, kept);
  if (mode == "constant") {
    Shape lowHigh;
    for (int64_t d = 0; d < rank; ++d)
      lowHigh.append({before[d], after[d]});
    return Values{t.pad(x, lowHigh, value)};
  }
  if (mode != "edge" && mode != "reflect" && mode != "wrap")
    return ctx.fail("mode '" + mode + "' is not supported");
  for (int64_t d = 0; d < rank; ++d) {
    int64_t dim = t.shapeOf(x)[d];
    if (before[d] == 0 && after[d] == 0)
      continue;
    if (mode != "edge" &&
        std::max(before[d], after[d]) > (mode == "reflect" ? dim - 1 : dim))
      return ctx.fail("pads are larger than " + mode + " mode allows");
    SmallVector<Value> parts;
    auto edge = [&](int64_t at, int64_t count) {
      Shape reps(rank, 1);
      reps[d] = count;
      return t.tile(t.sliceAxis(x, d, at, 1), reps);
    };
    if (before[d] > 0)
      parts.push_back(mode == "edge" ? edge(0, before[d])
                      : mode == "reflect"
                          ? t.reverse(t.sliceAxis(x, d, 1, before[d]), d)
                          : t.sliceAxis(x, d, dim - before[d], before[d]));
    parts.push_back(x);
    if (after[d] > 0)
      parts.push_back(
          mode == "edge" ? edge(dim - 1, after[d])
          : mode == "reflect"
              ? t.reverse(t.sliceAxis(x, d, dim - 1 - after[d], after[d]), d)
              : t.sliceAxis(x, d, 0, after[d]));
    x = t.concat(parts, d);
  }
  return Values{x};
}

// clang-format off
const OpLegalization kTensor[] = {
    {"Concat", 1, concat},
    {"Split", 2, split},
    {"Slice", 1, slice},
    {"Expand", 8, expand},
    {"Tile", 6, tile},
    {"Pad", 2, pad},
    {"Trilu", 14, trilu},
};
// clang-format on

} // namespace

ArrayRef<OpLegalization> getTensorLegalizations() { return kTensor; }

} // namespace onnx_tosa
