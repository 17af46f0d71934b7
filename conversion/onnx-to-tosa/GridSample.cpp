//===- GridSample.cpp - GridSample, RoiAlign, DeformConv ------------------===//
//
// Sampling at positions that are run-time data. TOSA's resize only samples
// on a regular grid, so the positions are computed with elementwise ops:
// per spatial axis, the coordinate, its taps (1, 2 or 4 integer positions)
// with their weights, and how a tap outside the image reads (zero, clamped
// or reflected). Every combination of taps over the axes then becomes one
// row index into X viewed as [N, H*W*..., C], all combinations are read by
// one tosa.gather, and the weighted rows are summed.
//
// GridSample (opset 16, 20, 22): Y[n, c, o] = X[n, c] at grid[n, o]
// (normalized to [-1, 1], last component first) with nearest, (multi)linear
// or (multi)cubic interpolation, in any number of spatial dimensions. The
// order of operations follows the ONNX reference implementation
// (onnx/reference/ops/op_grid_sample.py), so that nearest sampling picks
// the same pixel: the coordinate is rounded half to even first, then moved
// inside [lo, hi] by the padding mode (lo, hi = -0.5, size - 0.5, or 0,
// size - 1 with align_corners), then each tap is padded again.
//
// RoiAlign averages (or takes the maximum of) bilinear samples in the bins
// of run-time boxes; DeformConv samples each kernel tap at a learned offset
// and convolves the samples with a matmul.
//
//===----------------------------------------------------------------------===//
#include "conversion/onnx-to-tosa/ExactArithmetic.h"
#include "conversion/onnx-to-tosa/NodeContext.h"

using namespace mlir;

namespace onnx_tosa {
namespace {

enum class Interpolation { Nearest, Linear, Cubic };
enum class Padding { Zeros, Border, Reflection };

/// One spatial axis of X.
struct Axis {
  int64_t size;
  double lo, hi; ///< the borders of the image in pixel coordinates
};

/// x reflected at the borders lo and hi until it lies in [lo, hi]. The
/// reference reflects repeatedly at the nearer border; that is the periodic
/// triangle wave lo + range - |((x - lo) mod 2 range) - range|.
Value reflect(TosaBuilder &t, Value x, double lo, double hi) {
  double range = hi - lo;
  if (range <= 0) // a single pixel with align_corners: nowhere else to go
    return t.broadcastTo(t.scalarLike(x, lo), t.shapeOf(x));
  Value shifted = t.sub(x, t.scalarLike(x, lo));
  Value periods = t.unary<tosa::FloorOp>(
      t.mul(shifted, t.scalarLike(x, 1.0 / (2 * range))));
  Value phase = t.sub(shifted, t.mul(periods, t.scalarLike(x, 2 * range)));
  Value fold = t.abs(t.sub(phase, t.scalarLike(x, range)));
  return t.sub(t.scalarLike(x, lo + range), fold);
}

/// Where x lies outside [lo, hi].
Value outside(TosaBuilder &t, Value x, double lo, double hi) {
  return t.binary<tosa::LogicalOrOp>(
      t.compare<tosa::GreaterOp>(t.scalarLike(x, lo), x),
      t.compare<tosa::GreaterOp>(x, t.scalarLike(x, hi)));
}

/// Cubic convolution weights (Keys, a = -0.75) of the taps at offsets
/// -1, 0, 1, 2 from floor(x), for the fraction `f` = x - floor(x).
SmallVector<Value, 4> cubicWeights(TosaBuilder &t, Value f) {
  constexpr double a = -0.75;
  auto c = [&](double v) { return t.scalarLike(f, v); };
  // Taps at distance d in [0, 1]: ((a + 2) d - (a + 3)) d^2 + 1.
  auto nearTap = [&](Value d) {
    Value inner = t.sub(t.mul(d, c(a + 2)), c(a + 3));
    return t.add(t.mul(t.mul(inner, d), d), c(1));
  };
  // Taps at distance d in [1, 2]: ((a d - 5 a) d + 8 a) d - 4 a.
  auto farTap = [&](Value d) {
    Value inner = t.sub(t.mul(d, c(a)), c(5 * a));
    return t.sub(t.mul(t.add(t.mul(inner, d), c(8 * a)), d), c(4 * a));
  };
  Value oneMinus = t.sub(c(1), f);
  return {farTap(t.add(f, c(1))), nearTap(f), nearTap(oneMinus),
          farTap(t.add(oneMinus, c(1)))};
}

/// The taps of one axis: row index (i32), weight (null for nearest) and,
/// for zeros padding, whether the tap lies inside the image.
struct Taps {
  SmallVector<Value, 4> index, weight, inside;
};

Taps pixelTaps(TosaBuilder &t, Value x, const Axis &axis, Interpolation mode,
               Padding padding) {
  auto c = [&](double v) { return t.scalarLike(x, v); };
  SmallVector<Value, 4> positions;
  Taps taps;
  if (mode == Interpolation::Nearest) {
    positions.push_back(x);
  } else {
    Value base = t.unary<tosa::FloorOp>(x);
    Value frac = t.sub(x, base);
    if (mode == Interpolation::Linear) {
      positions = {base, t.add(base, c(1))};
      taps.weight = {t.sub(c(1), frac), frac};
    } else {
      for (int64_t k = -1; k <= 2; ++k)
        positions.push_back(t.add(base, c(k)));
      taps.weight = cubicWeights(t, frac);
    }
  }
  Type i32 = t.getBuilder().getI32Type();
  for (Value p : positions) {
    if (padding == Padding::Zeros)
      taps.inside.push_back(
          t.unary<tosa::LogicalNotOp>(outside(t, p, 0, axis.size - 1)));
    else if (padding == Padding::Reflection)
      p = reflect(t, p, axis.lo, axis.hi);
    // Positions are whole numbers here, so CAST's rounding is exact; the
    // clamp keeps zeros-padded (and rounding-perturbed) taps in range.
    taps.index.push_back(t.cast(t.clamp(p, 0, axis.size - 1), i32));
  }
  return taps;
}

/// The taps of normalized grid coordinates `coord` along `axis`.
Taps gridTaps(TosaBuilder &t, Value coord, const Axis &axis, bool alignCorners,
              Interpolation mode, Padding padding) {
  auto c = [&](double v) { return t.scalarLike(coord, v); };
  // Denormalize, in the reference's order of float operations.
  Value x = t.add(coord, c(1));
  x = alignCorners ? t.mul(t.mul(x, c(0.5)), c(axis.size - 1))
                   : t.mul(t.sub(t.mul(x, c(axis.size)), c(1)), c(0.5));
  if (mode == Interpolation::Nearest)
    x = roundHalfEven(t, x);
  if (padding == Padding::Border)
    x = t.select(outside(t, x, axis.lo, axis.hi), t.clamp(x, 0, axis.size - 1),
                 x);
  else if (padding == Padding::Reflection)
    x = t.select(outside(t, x, axis.lo, axis.hi),
                 reflect(t, x, axis.lo, axis.hi), x);
  return pixelTaps(t, x, axis, mode, padding);
}

/// Samples `values` ([N, pixels, C], the pixels row-major over `spatial`)
/// at S positions given by per-axis taps (tensors [N, S]): [N, S, C]. Every
/// combination of taps becomes a row index, weight and validity, stacked
/// along the W axis of one tosa.gather; the weighted rows are summed.
Value sampleTaps(TosaBuilder &t, Value values, ArrayRef<Taps> axes,
                 ArrayRef<int64_t> spatial) {
  int64_t rank = axes.size();
  int64_t n = t.shapeOf(values)[0], channels = t.shapeOf(values)[2];
  int64_t samples = t.shapeOf(axes.front().index.front())[1];
  SmallVector<Value> rows, weights, valid;
  int64_t perAxis = axes.front().index.size();
  int64_t combos = 1;
  for (int64_t i = 0; i < rank; ++i)
    combos *= perAxis;
  for (int64_t combo = 0; combo < combos; ++combo) {
    Value row, weight, inside;
    int64_t stride = 1, rest = combo;
    for (int64_t i = rank - 1; i >= 0; --i, rest /= perAxis) {
      int64_t k = rest % perAxis;
      Value idx = axes[i].index[k];
      if (stride != 1)
        idx = t.mul(idx, t.scalarLike(idx, stride));
      row = row ? t.add(row, idx) : idx;
      stride *= spatial[i];
      if (!axes[i].weight.empty())
        weight = weight ? t.mul(weight, axes[i].weight[k]) : axes[i].weight[k];
      if (!axes[i].inside.empty())
        inside = inside
                     ? t.binary<tosa::LogicalAndOp>(inside, axes[i].inside[k])
                     : axes[i].inside[k];
    }
    rows.push_back(row);
    if (weight)
      weights.push_back(weight);
    if (inside)
      valid.push_back(inside);
  }

  Type elt = t.elementTypeOf(values);
  Value gathered = tosa::GatherOp::create(
      t.getBuilder(), t.getLoc(),
      RankedTensorType::get({n, combos * samples, channels}, elt), values,
      t.concat(rows, 1));
  gathered = t.reshape(gathered, {n, combos, samples, channels});
  if (!valid.empty()) {
    Value inside = t.reshape(t.concat(valid, 1), {n, combos, samples, 1});
    gathered = t.select(inside, gathered, t.scalarLike(gathered, 0));
  }
  if (!weights.empty()) {
    Value w = t.reshape(t.concat(weights, 1), {n, combos, samples, 1});
    gathered = t.reduceSum(t.mul(gathered, w), {1});
  }
  return t.reshape(gathered, {n, samples, channels});
}

LegalizeResult gridSample(NodeContext &ctx) {
  if (failed(ctx.requireInputs(2)) ||
      failed(ctx.requireElementType(1, Elt::Float)))
    return failure();
  TosaBuilder &t = ctx.tosa;
  bool legacyNames = ctx.getOpset() < 20;
  std::string modeName =
      ctx.getString("mode", legacyNames ? "bilinear" : "linear");
  Interpolation mode;
  if (modeName == "nearest")
    mode = Interpolation::Nearest;
  else if (modeName == (legacyNames ? "bilinear" : "linear"))
    mode = Interpolation::Linear;
  else if (modeName == (legacyNames ? "bicubic" : "cubic"))
    mode = Interpolation::Cubic;
  else
    return ctx.fail("mode '" + modeName + "' is not supported");
  std::string paddingName = ctx.getString("padding_mode", "zeros");
  Padding padding;
  if (paddingName == "zeros")
    padding = Padding::Zeros;
  else if (paddingName == "border")
    padding = Padding::Border;
  else if (paddingName == "reflection")
    padding = Padding::Reflection;
  else
    return ctx.fail("padding_mode '" + paddingName + "' is not supported");
  bool alignCorners = ctx.getInt("align_corners", 0);

  Value x = ctx.input(0);
  // Nearest sampling only copies elements; the others weight them.
  if (failed(ctx.requireElementType(
          0, mode == Interpolation::Nearest ? Elt::Number : Elt::Float)))
    return failure();
  if (t.elementTypeOf(x).isInteger(1))
    return ctx.fail("boolean X cannot be gathered in TOSA");
  ArrayRef<int64_t> xShape = ctx.inputShape(0);
  ArrayRef<int64_t> gridShape = ctx.inputShape(1);
  int64_t rank = xShape.size() - 2;
  if (rank < 1 || static_cast<int64_t>(gridShape.size()) != rank + 2 ||
      gridShape.back() != rank || gridShape[0] != xShape[0])
    return ctx.fail("grid must have shape [N, D1_out, ..., Dr_out, r] for X "
                    "of shape [N, C, D1, ..., Dr]");
  int64_t n = xShape[0], channels = xShape[1];
  Shape spatial(xShape.drop_front(2)), outSpatial(gridShape.slice(1, rank));
  Shape outShape{n, channels};
  llvm::append_range(outShape, outSpatial);
  if (failed(ctx.requireNonEmpty(xShape)) ||
      failed(ctx.requireNonEmpty(outShape)))
    return failure();
  int64_t pixels = product(spatial), samples = product(outSpatial);

  // Per spatial axis (in X's order; the grid lists them last first).
  Type f32 = Float32Type::get(ctx.getNode().getContext());
  Value grid = t.reshape(t.cast(ctx.input(1), f32), {n, samples, rank});
  SmallVector<Taps> axes;
  for (int64_t i = 0; i < rank; ++i) {
    Axis axis{spatial[i], -0.5, spatial[i] - 0.5};
    if (alignCorners)
      axis = {spatial[i], 0.0, static_cast<double>(spatial[i] - 1)};
    Value coord =
        t.reshape(t.sliceAxis(grid, 2, rank - 1 - i, 1), {n, samples});
    axes.push_back(gridTaps(t, coord, axis, alignCorners, mode, padding));
  }

  // One gather of all taps from X as [N, pixels, C].
  Type elt = t.elementTypeOf(x);
  Type computeElt = mode == Interpolation::Nearest ? elt : f32;
  Value values =
      t.reshape(t.toChannelsLast(t.cast(x, computeElt)), {n, pixels, channels});
  Value y = t.transpose(sampleTaps(t, values, axes, spatial), {0, 2, 1});
  return Values{t.cast(t.reshape(y, outShape), elt)};
}

//===----------------------------------------------------------------------===//
// RoiAlign
//===----------------------------------------------------------------------===//

/// One axis of RoiAlign's sample grid: for coordinates `c` ([R, g, out]),
/// the lower and upper pixel (as whole floats), their weights and whether
/// the sample lies within [-1, size] (onnxruntime's bilinear_interpolate,
/// which the ONNX reference follows).
struct RoiTaps {
  Value low, high, lowWeight, highWeight, valid;
};

RoiTaps roiAxisTaps(TosaBuilder &t, Value c, int64_t size) {
  auto k = [&](double v) { return t.scalarLike(c, v); };
  RoiTaps taps;
  taps.valid = t.unary<tosa::LogicalNotOp>(outside(t, c, -1.0, size));
  c = t.maximum(c, k(0));
  Value low = t.unary<tosa::FloorOp>(c);
  // At the last pixel both taps are that pixel.
  Value edge = t.compare<tosa::GreaterEqualOp>(low, k(size - 1));
  taps.low = t.select(edge, k(size - 1), low);
  taps.high = t.select(edge, k(size - 1), t.add(low, k(1)));
  c = t.select(edge, taps.low, c);
  taps.highWeight = t.sub(c, taps.low);
  taps.lowWeight = t.sub(k(1), taps.highWeight);
  return taps;
}

/// RoiAlign(X, rois, batch_indices): per RoI and output bin, the average
/// (or maximum) of gh x gw bilinear samples. The RoIs are run-time data:
/// their sample positions are computed per axis, the 4 corners of every
/// sample become row indices into X viewed as [N*H*W, C], and one gather
/// reads them all. sampling_ratio must be positive (adaptive sampling
/// makes the number of samples depend on the RoI sizes).
LegalizeResult roiAlign(NodeContext &ctx) {
  if (failed(ctx.requireInputs(3)) ||
      failed(ctx.requireElementType(0, Elt::Float)) ||
      failed(ctx.requireSameElementType(0, 2)) ||
      failed(ctx.requireElementType(2, Elt::Int)))
    return failure();
  TosaBuilder &t = ctx.tosa;
  std::string mode = ctx.getString("mode", "avg");
  if (mode != "avg" && mode != "max")
    return ctx.fail("mode '" + mode + "' is not supported");
  std::string coords =
      ctx.getString("coordinate_transformation_mode",
                    ctx.getOpset() >= 16 ? "half_pixel" : "output_half_pixel");
  if (coords != "half_pixel" && coords != "output_half_pixel")
    return ctx.fail("coordinate_transformation_mode '" + coords +
                    "' is not supported");
  bool halfPixel = coords == "half_pixel";
  int64_t outH = ctx.getInt("output_height", 1);
  int64_t outW = ctx.getInt("output_width", 1);
  int64_t ratio = ctx.getInt("sampling_ratio", 0);
  double spatialScale = ctx.getFloat("spatial_scale", 1.0f);
  if (ratio <= 0)
    return ctx.fail("sampling_ratio 0 (adaptive) is not supported: the "
                    "number of samples would depend on run-time RoI sizes");
  if (outH < 1 || outW < 1)
    return ctx.fail("output_height and output_width must be positive");
  ArrayRef<int64_t> xs = ctx.inputShape(0);
  if (xs.size() != 4 || ctx.inputShape(1).size() != 2 ||
      ctx.inputShape(1)[1] != 4 || ctx.inputShape(2).size() != 1 ||
      ctx.inputShape(2)[0] != ctx.inputShape(1)[0])
    return ctx.fail("X must be [N, C, H, W], rois [R, 4] and batch_indices "
                    "[R]");
  int64_t n = xs[0], channels = xs[1], height = xs[2], width = xs[3];
  int64_t rois = ctx.inputShape(1)[0], gh = ratio, gw = ratio;
  if (failed(ctx.requireNonEmpty(xs)) || failed(ctx.requireNonEmpty({rois})))
    return failure();

  Type elt = ctx.inputType(0).getElementType();
  Type f32 = Float32Type::get(elt.getContext());
  Value boxes = t.cast(ctx.input(1), f32);
  auto corner = [&](int64_t i) {
    Value v = t.reshape(t.sliceAxis(boxes, 1, i, 1), {rois, 1, 1});
    v = t.mul(v, t.scalarLike(v, spatialScale));
    return halfPixel ? t.sub(v, t.scalarLike(v, 0.5)) : v;
  };
  // Sample coordinates of one axis: [R, g, out], as the reference orders
  // them: start + bin * o + (i + 0.5) * bin / g.
  auto axisCoords = [&](Value start, Value end, int64_t out, int64_t g) {
    Value extent = t.sub(end, start);
    if (!halfPixel)
      extent = t.maximum(extent, t.scalarLike(extent, 1));
    Value bin = t.mul(extent, t.scalarLike(extent, 1.0 / out));
    SmallVector<double> o(out), i(g);
    for (int64_t j = 0; j < out; ++j)
      o[j] = j;
    for (int64_t j = 0; j < g; ++j)
      i[j] = j + 0.5;
    Value oc =
        t.constant(fromDoubles(RankedTensorType::get({1, 1, out}, f32), o));
    Value ic =
        t.constant(fromDoubles(RankedTensorType::get({1, g, 1}, f32), i));
    Value within = t.mul(t.mul(ic, bin), t.scalarLike(bin, 1.0 / g));
    return t.add(t.add(start, t.mul(oc, bin)), within);
  };
  RoiTaps ys =
      roiAxisTaps(t, axisCoords(corner(1), corner(3), outH, gh), height);
  RoiTaps xs2 =
      roiAxisTaps(t, axisCoords(corner(0), corner(2), outW, gw), width);

  // Combine the axes over [R, gh, gw, outH, outW].
  Shape full{rois, gh, gw, outH, outW};
  auto alongY = [&](Value v) { return t.reshape(v, {rois, gh, 1, outH, 1}); };
  auto alongX = [&](Value v) { return t.reshape(v, {rois, 1, gw, 1, outW}); };
  Value valid = t.broadcastTo(
      t.binary<tosa::LogicalAndOp>(alongY(ys.valid), alongX(xs2.valid)), full);
  Type i32 = t.getBuilder().getI32Type();
  Value batch = t.clamp(t.cast(ctx.input(2), i32), 0, n - 1);
  Value base = t.reshape(t.mul(batch, t.scalarLike(batch, height * width)),
                         {rois, 1, 1, 1, 1});
  Value rowStride = t.scalarLike(alongY(ys.low), width);
  SmallVector<Value> rows, weights;
  for (auto [y, wy] :
       {std::pair(ys.low, ys.lowWeight), std::pair(ys.high, ys.highWeight)})
    for (auto [x, wx] : {std::pair(xs2.low, xs2.lowWeight),
                         std::pair(xs2.high, xs2.highWeight)}) {
      Value pos = t.add(t.mul(alongY(y), rowStride), alongX(x));
      pos = t.add(t.cast(pos, i32), base);
      // An invalid sample reads pixel (0, 0) of its image with weight 0.
      rows.push_back(t.reshape(t.select(valid, pos, t.broadcastTo(base, full)),
                               {rois, 1, gh * gw, outH * outW}));
      Value w = t.broadcastTo(t.mul(alongY(wy), alongX(wx)), full);
      weights.push_back(t.reshape(t.select(valid, w, t.scalarLike(w, 0)),
                                  {rois, 1, gh * gw, outH * outW}));
    }
  int64_t samples = 4 * gh * gw, bins = outH * outW;
  Value values = t.reshape(t.toChannelsLast(t.cast(ctx.input(0), f32)),
                           {1, n * height * width, channels});
  Value gathered = tosa::GatherOp::create(
      t.getBuilder(), t.getLoc(),
      RankedTensorType::get({1, rois * samples * bins, channels}, f32), values,
      t.reshape(t.concat(rows, 1), {1, rois * samples * bins}));
  Value weighted =
      t.mul(t.reshape(gathered, {rois, samples, bins, channels}),
            t.reshape(t.concat(weights, 1), {rois, samples, bins, 1}));
  Value y;
  if (mode == "avg") {
    y = t.reduceSum(weighted, {1});
    y = t.mul(y, t.scalarLike(y, 1.0 / (gh * gw)));
  } else {
    // onnxruntime's max mode: the largest weighted corner of any sample.
    y = t.reduceMax(weighted, {1});
  }
  y = t.transpose(t.reshape(y, {rois, bins, channels}), {0, 2, 1});
  return Values{t.cast(t.reshape(y, {rois, channels, outH, outW}), elt)};
}

//===----------------------------------------------------------------------===//
// DeformConv
//===----------------------------------------------------------------------===//

/// DeformConv(X, W, offset, B?, mask?), 2-D: kernel tap (a, b) of output
/// (i, j) reads X bilinearly (zero outside) at (i * stride - pad + a *
/// dilation + offset_y, j * stride - pad + b * dilation + offset_x), with
/// one offset field per offset group of input channels, times the mask.
/// The sampled columns [N, kh*kw, oh*ow, C] are then a grouped matmul with
/// the weights.
LegalizeResult deformConv(NodeContext &ctx) {
  if (failed(ctx.requireInputs(3)) ||
      failed(ctx.requireElementType(0, Elt::Float)) ||
      failed(ctx.requireSameElementType(0, 5)))
    return failure();
  TosaBuilder &t = ctx.tosa;
  ArrayRef<int64_t> xs = ctx.inputShape(0), ws = ctx.inputShape(1);
  ArrayRef<int64_t> os = ctx.inputShape(2);
  if (xs.size() != 4 || ws.size() != 4 || os.size() != 4)
    return ctx.fail("only 2-D deformable convolution is supported");
  int64_t n = xs[0], inC = xs[1], height = xs[2], width = xs[3];
  int64_t outC = ws[0], group = ctx.getInt("group", 1);
  int64_t offsetGroups = ctx.getInt("offset_group", 1);
  Shape kernel = ctx.getInts("kernel_shape", ws.drop_front(2));
  Shape strides = ctx.getInts("strides", {1, 1});
  Shape dilations = ctx.getInts("dilations", {1, 1});
  Shape pads = ctx.getInts("pads", {0, 0, 0, 0});
  if (kernel.size() != 2 || strides.size() != 2 || dilations.size() != 2 ||
      pads.size() != 4 || kernel != ArrayRef<int64_t>(ws.drop_front(2)))
    return ctx.fail("kernel_shape, strides, dilations and pads must match a "
                    "2-D kernel");
  if (group < 1 || offsetGroups < 1 || inC != ws[1] * group || outC % group ||
      inC % offsetGroups)
    return ctx.fail("group / offset_group do not divide the channels");
  int64_t kh = kernel[0], kw = kernel[1], taps = kh * kw;
  int64_t oh =
      (height + pads[0] + pads[2] - (kh - 1) * dilations[0] - 1) / strides[0] +
      1;
  int64_t ow =
      (width + pads[1] + pads[3] - (kw - 1) * dilations[1] - 1) / strides[1] +
      1;
  if (os[0] != n || os[1] != offsetGroups * taps * 2 || os[2] != oh ||
      os[3] != ow)
    return ctx.fail("offset must be [N, offset_group * kh * kw * 2, oh, ow] "
                    "= [" +
                    Twine(n) + ", " + Twine(offsetGroups * taps * 2) + ", " +
                    Twine(oh) + ", " + Twine(ow) + "]");
  if (ctx.hasInput(3) && ctx.inputShape(3) != ArrayRef<int64_t>{outC})
    return ctx.fail("B must be [M]");
  if (ctx.hasInput(4) &&
      ctx.inputShape(4) != ArrayRef<int64_t>{n, offsetGroups * taps, oh, ow})
    return ctx.fail("mask must be [N, offset_group * kh * kw, oh, ow]");
  if (failed(ctx.requireNonEmpty(xs)) || failed(ctx.requireNonEmpty(os)))
    return failure();

  Type elt = ctx.inputType(0).getElementType();
  Type f32 = Float32Type::get(elt.getContext());
  int64_t positions = oh * ow, perOffsetGroup = inC / offsetGroups;
  // The undeformed sample positions, [1, taps, oh*ow] per axis.
  SmallVector<double> baseY, baseX;
  for (int64_t a = 0; a < kh; ++a)
    for (int64_t b = 0; b < kw; ++b)
      for (int64_t i = 0; i < oh; ++i)
        for (int64_t j = 0; j < ow; ++j) {
          baseY.push_back(i * strides[0] - pads[0] + a * dilations[0]);
          baseX.push_back(j * strides[1] - pads[1] + b * dilations[1]);
        }
  auto baseType = RankedTensorType::get({1, taps, positions}, f32);
  Value offsets = t.reshape(t.cast(ctx.input(2), f32),
                            {n, offsetGroups, taps, 2, positions});
  Value mask = ctx.hasInput(4)
                   ? t.reshape(t.cast(ctx.input(4), f32),
                               {n, offsetGroups, taps, positions, 1})
                   : Value();
  Value image = t.reshape(t.toChannelsLast(t.cast(ctx.input(0), f32)),
                          {n, height * width, inC});
  Axis axisY{height, 0, static_cast<double>(height - 1)};
  Axis axisX{width, 0, static_cast<double>(width - 1)};
  SmallVector<Value> columns;
  for (int64_t g = 0; g < offsetGroups; ++g) {
    auto field = [&](int64_t component) {
      Value v =
          t.slice(offsets, {0, g, 0, component, 0}, {n, 1, taps, 1, positions});
      return t.reshape(v, {n, taps, positions});
    };
    Value y = t.add(t.constant(fromDoubles(baseType, baseY)), field(0));
    Value x = t.add(t.constant(fromDoubles(baseType, baseX)), field(1));
    SmallVector<Taps> axes = {
        pixelTaps(t, t.reshape(y, {n, taps * positions}), axisY,
                  Interpolation::Linear, Padding::Zeros),
        pixelTaps(t, t.reshape(x, {n, taps * positions}), axisX,
                  Interpolation::Linear, Padding::Zeros)};
    Value values = t.sliceAxis(image, 2, g * perOffsetGroup, perOffsetGroup);
    Value sampled = t.reshape(sampleTaps(t, values, axes, {height, width}),
                              {n, taps, positions, perOffsetGroup});
    if (mask)
      sampled = t.mul(sampled, t.reshape(t.sliceAxis(mask, 1, g, 1),
                                         {n, taps, positions, 1}));
    columns.push_back(sampled);
  }
  // [N, taps, P, C] -> [group, N*P, C/group * taps] times the weights as
  // [group, C/group * taps, M/group].
  int64_t inPerGroup = inC / group, outPerGroup = outC / group;
  Value cols = t.transpose(t.concat(columns, 3), {0, 2, 3, 1});
  cols = t.reshape(cols, {n * positions, group, inPerGroup * taps});
  cols = t.transpose(cols, {1, 0, 2});
  Value weights = t.reshape(t.cast(ctx.input(1), f32),
                            {group, outPerGroup, inPerGroup * taps});
  Value y = t.matmul(cols, t.transpose(weights, {0, 2, 1}));
  y = t.transpose(t.reshape(y, {group, n, positions, outPerGroup}),
                  {1, 0, 3, 2});
  y = t.reshape(y, {n, outC, oh, ow});
  if (ctx.hasInput(3))
    y = t.add(y, t.reshape(t.cast(ctx.input(3), f32), {1, outC, 1, 1}));
  return Values{t.cast(y, elt)};
}

// clang-format off
const OpLegalization kGridSample[] = {
    {"GridSample", 16, gridSample},
    {"RoiAlign", 10, roiAlign},
    {"DeformConv", 19, deformConv},
};
// clang-format on

} // namespace

ArrayRef<OpLegalization> getGridSampleLegalizations() { return kGridSample; }

} // namespace onnx_tosa
