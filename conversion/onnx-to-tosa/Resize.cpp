//===- Resize.cpp - Resize and Upsample -----------------------------------===//
//
// Resizing is separable: every resized axis is handled on its own, with the
// source positions of its output elements computed at compile time exactly
// as the ONNX spec (and onnxruntime, in float arithmetic) computes them.
// Nearest becomes a gather of constant indices (a tile for integer
// upscales); linear and cubic become gathers of the neighbouring taps
// weighted by constant coefficients. This covers every coordinate mode and
// rounding mode, where tosa.resize only covers some. Antialiased
// downsampling widens the filter by 1/scale; its many taps become one matmul
// with a constant [in, out] weight matrix instead.
//
//===----------------------------------------------------------------------===//
#include "conversion/onnx-to-tosa/NodeContext.h"

#include <array>
#include <cmath>

using namespace mlir;

namespace onnx_tosa {
namespace {

/// How one axis is resized.
struct AxisResize {
  int64_t in, out;
  float scale;
  /// The output length before flooring (in * scale; out when sizes are
  /// given): ONNX's `output_width`, fractional when a scale does not divide
  /// evenly, which align_corners divides by.
  float length;
  /// tf_crop_and_resize's region of interest along this axis, as fractions
  /// of the input.
  double roiStart = 0, roiEnd = 1;
};

/// tf_crop_and_resize's source coordinate, in double as the reference
/// computes it so the out-of-range test at the edges of the crop is exact.
double cropCoordinate(int64_t o, const AxisResize &a) {
  double span = (a.roiEnd - a.roiStart) * static_cast<double>(a.in - 1);
  double x =
      a.length == 1 ? span / 2 : static_cast<double>(o) * span / (a.length - 1);
  return x + a.roiStart * static_cast<double>(a.in - 1);
}

/// The source coordinate of output index `o` (coordinate_transformation_
/// mode), in float as onnxruntime computes it; nullopt for unknown modes.
std::optional<float> sourceCoordinate(StringRef mode, int64_t o,
                                      const AxisResize &a) {
  float x = static_cast<float>(o), s = a.scale;
  if (mode == "half_pixel")
    return (x + 0.5f) / s - 0.5f;
  if (mode == "pytorch_half_pixel")
    return a.out > 1 ? (x + 0.5f) / s - 0.5f : 0.0f;
  if (mode == "align_corners")
    return a.length == 1 ? 0.0f
                         : x * static_cast<float>(a.in - 1) / (a.length - 1);
  if (mode == "asymmetric")
    return x / s;
  if (mode == "tf_half_pixel_for_nn")
    return (x + 0.5f) / s;
  if (mode == "half_pixel_symmetric") {
    float adjustment = static_cast<float>(a.out) / (s * a.in);
    float offset = static_cast<float>(a.in) / 2 * (1 - adjustment);
    return offset + (x + 0.5f) / s - 0.5f;
  }
  if (mode == "tf_crop_and_resize")
    return static_cast<float>(cropCoordinate(o, a));
  return std::nullopt;
}

/// nearest_mode ("simple" is what Resize-10 and Upsample did: floor when
/// upsampling, ceil when downsampling).
int64_t roundNearest(StringRef mode, float x, float scale) {
  float fl = std::floor(x);
  if (mode == "floor" || (mode == "simple" && scale >= 1))
    return static_cast<int64_t>(fl);
  if (mode == "ceil" || mode == "simple")
    return static_cast<int64_t>(std::ceil(x));
  if (x == fl + 0.5f) // a tie
    return static_cast<int64_t>(mode == "round_prefer_ceil" ? fl + 1 : fl);
  return static_cast<int64_t>(std::round(x));
}

/// Cubic convolution weights of the four taps around fraction `t`
/// (Keys' kernel with parameter `a`).
std::array<double, 4> cubicWeights(double t, double a) {
  auto near = [a](double d) { return ((a + 2) * d - (a + 3)) * d * d + 1; };
  auto far = [a](double d) {
    return ((a * d - 5 * a) * d + 8 * a) * d - 4 * a;
  };
  return {far(t + 1), near(t), near(1 - t), far(2 - t)};
}

/// The first tap of an antialiased filter relative to the tap below the
/// source coordinate; the filter has 2 - 2 * start taps.
int64_t antialiasStart(bool cubic, double scale) {
  return static_cast<int64_t>(std::floor((cubic ? -2 : -1) / scale)) + 1;
}

/// Antialiased linear (triangle) or cubic filter weights for downsampling
/// by `scale` < 1 around source coordinate `src` (onnx.reference's
/// _linear_coeffs_antialias / _cubic_coeffs_antialias): the kernel is
/// stretched by 1/scale and normalized to sum 1. Returns the first tap.
int64_t antialiasWeights(bool cubic, double src, double scale, double a,
                         SmallVectorImpl<double> &w) {
  // The window is chosen as for the plain kernels: an exact integer
  // coordinate counts as ratio 1 from the tap below it.
  double base = std::floor(src), ratio = src - base;
  if (ratio == 0) {
    base -= 1;
    ratio = 1;
  }
  int64_t start = antialiasStart(cubic, scale);
  int64_t n = 2 - 2 * start;
  double total = 0;
  w.clear();
  for (int64_t j = 0; j < n; ++j) {
    double d = std::abs(scale * (static_cast<double>(start + j) - ratio));
    double v;
    if (!cubic)
      v = std::max(0.0, 1 - d);
    else if (d <= 1)
      v = ((a + 2) * d - (a + 3)) * d * d + 1;
    else if (d < 2)
      v = ((a * d - 5 * a) * d + 8 * a) * d - 4 * a;
    else
      v = 0;
    w.push_back(v);
    total += v;
  }
  for (double &v : w)
    v /= total;
  return static_cast<int64_t>(base) + start;
}

/// Sum over taps k of weight[k][o] * x[index[k][o]] along `axis`.
Value weightedTaps(TosaBuilder &t, Value x, int64_t axis,
                   ArrayRef<SmallVector<int64_t>> index,
                   ArrayRef<SmallVector<double>> weight) {
  Value sum;
  for (size_t k = 0; k < index.size(); ++k) {
    Shape wShape(t.rankOf(x), 1);
    wShape[axis] = weight[k].size();
    Value w = t.constant(fromDoubles(
        RankedTensorType::get(wShape, t.elementTypeOf(x)), weight[k]));
    Value term = t.mul(t.gatherAxis(x, axis, index[k]), w);
    sum = sum ? t.add(sum, term) : term;
  }
  return sum;
}

/// The same sum as one matmul with a constant [in, out] matrix (taps that
/// clamp to the same element add up): `axis` is moved last and flattened
/// with the others into [1, rest, in].
Value weightedMatmul(TosaBuilder &t, Value x, int64_t axis, int64_t in,
                     ArrayRef<SmallVector<int64_t>> index,
                     ArrayRef<SmallVector<double>> weight) {
  int64_t out = index[0].size(), rank = t.rankOf(x);
  SmallVector<double> matrix(in * out, 0.0);
  for (size_t k = 0; k < index.size(); ++k)
    for (int64_t o = 0; o < out; ++o)
      matrix[index[k][o] * out + o] += weight[k][o];
  Shape perm, shape;
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis)
      perm.push_back(d);
  perm.push_back(axis);
  Value moved = t.transpose(x, perm);
  shape.assign(t.shapeOf(moved).begin(), t.shapeOf(moved).end());
  Value w = t.constant(fromDoubles(
      RankedTensorType::get({1, in, out}, t.elementTypeOf(x)), matrix));
  Value y = t.matmul(t.reshape(moved, {1, product(shape) / in, in}), w);
  shape.back() = out;
  Shape back(rank);
  for (int64_t d = 0; d < rank; ++d)
    back[perm[d]] = d;
  return t.transpose(t.reshape(y, shape), back);
}

/// Resizes the axes that `sizes` (or else `scales`) describe; `roi` is
/// tf_crop_and_resize's region (starts, then ends, one per resized axis).
LegalizeResult resizeImpl(NodeContext &ctx, ArrayRef<int64_t> sizes,
                          ArrayRef<float> scales, ArrayRef<double> roi,
                          bool legacy) {
  TosaBuilder &t = ctx.tosa;
  Value x = ctx.input(0);
  ArrayRef<int64_t> inShape = t.shapeOf(x);
  int64_t rank = inShape.size();
  std::string mode = ctx.getString("mode", "nearest");
  std::string coord =
      legacy ? "asymmetric"
             : ctx.getString("coordinate_transformation_mode", "half_pixel");
  std::string nearestMode =
      legacy ? "simple" : ctx.getString("nearest_mode", "round_prefer_floor");
  double cubicA = ctx.getFloat("cubic_coeff_a", -0.75f);
  bool excludeOutside = ctx.getInt("exclude_outside", 0);
  bool antialias = ctx.getInt("antialias", 0);
  std::string policy = ctx.getString("keep_aspect_ratio_policy", "stretch");
  bool crop = coord == "tf_crop_and_resize";
  double extrapolation = ctx.getFloat("extrapolation_value", 0.0f);
  if (mode != "nearest" && mode != "linear" && mode != "cubic")
    return ctx.fail("mode '" + mode + "' is not supported");
  if (mode != "nearest" && !TosaBuilder::isFloat(x))
    return ctx.fail(mode + " resizing needs floating-point data");
  if (antialias && mode == "nearest")
    return ctx.fail("antialias=1 applies to linear and cubic modes only");
  if (policy != "stretch" && policy != "not_larger" && policy != "not_smaller")
    return ctx.fail("keep_aspect_ratio_policy '" + policy +
                    "' is not supported");
  if (!sourceCoordinate(coord, 0, {1, 1, 1.0f, 1.0f}))
    return ctx.fail("coordinate_transformation_mode '" + coord +
                    "' is not supported");

  // Axes (opset 18) select which dimensions scales/sizes describe.
  Shape axes = ctx.getInts("axes");
  if (axes.empty())
    for (int64_t d = 0; d < rank; ++d)
      axes.push_back(d);
  size_t given = !sizes.empty() ? sizes.size() : scales.size();
  if (given != axes.size())
    return ctx.fail("scales/sizes must have one entry per resized axis");
  if (crop && roi.size() != 2 * axes.size())
    return ctx.fail("tf_crop_and_resize needs a roi with a start and an end "
                    "per resized axis");
  SmallVector<int64_t> axisOf;
  for (int64_t a : axes) {
    std::optional<int64_t> axis = normalizeAxis(a, rank);
    if (!axis)
      return ctx.fail("axis " + Twine(a) + " is out of range");
    axisOf.push_back(*axis);
  }

  // keep_aspect_ratio_policy (sizes only): one scale for all resized axes,
  // the smallest (not_larger) or largest (not_smaller) of sizes / input,
  // and the sizes recomputed from it, rounding half up.
  std::optional<double> keepScale;
  if (!sizes.empty() && policy != "stretch")
    for (auto [k, axis] : llvm::enumerate(axisOf)) {
      double s = static_cast<double>(sizes[k]) / inShape[axis];
      if (!keepScale ||
          (policy == "not_larger" ? s < *keepScale : s > *keepScale))
        keepScale = s;
    }

  for (auto [k, axis] : llvm::enumerate(axisOf)) {
    AxisResize r{inShape[axis], 0, 0, 0};
    if (keepScale) {
      double length = *keepScale * r.in;
      r.out = static_cast<int64_t>(length + 0.5);
      r.scale = static_cast<float>(*keepScale);
      r.length = static_cast<float>(length);
    } else if (!sizes.empty()) {
      r.out = sizes[k];
      r.scale = static_cast<float>(r.out) / static_cast<float>(r.in);
      r.length = static_cast<float>(r.out);
    } else {
      r.scale = scales[k];
      r.length = static_cast<float>(r.in) * r.scale;
      r.out = static_cast<int64_t>(r.length);
    }
    if (crop) {
      r.roiStart = roi[k];
      r.roiEnd = roi[axes.size() + k];
    }
    if (r.out < 1 || r.scale <= 0)
      return ctx.fail("produces an empty tensor, which TOSA cannot represent");
    if (r.out == r.in && r.scale == 1.0f && coord != "tf_half_pixel_for_nn" &&
        (!crop || (r.roiStart == 0 && r.roiEnd == 1)))
      continue; // every mode maps o to o

    // Antialiasing only changes the filter when downsampling.
    bool wide = antialias && r.scale < 1;
    SmallVector<SmallVector<int64_t>> index;
    SmallVector<SmallVector<double>> weight;
    SmallVector<double> outside; // tf_crop_and_resize: 1 = extrapolated
    int64_t taps = mode == "nearest" ? 1 : mode == "linear" ? 2 : 4;
    SmallVector<double> w;
    if (wide)
      taps = 2 - 2 * antialiasStart(mode == "cubic", r.scale);
    index.resize(taps);
    weight.resize(taps);
    for (int64_t o = 0; o < r.out; ++o) {
      float src = *sourceCoordinate(coord, o, r);
      if (crop) {
        double c = cropCoordinate(o, r);
        outside.push_back(c < 0 || c > static_cast<double>(r.in - 1));
      }
      if (mode == "nearest") {
        index[0].push_back(std::clamp<int64_t>(
            roundNearest(nearestMode, src, r.scale), 0, r.in - 1));
        continue;
      }
      if (wide) {
        // Taps past the edges repeat the edge element (or, with
        // exclude_outside, are dropped and the weights renormalized).
        int64_t first =
            antialiasWeights(mode == "cubic", src, r.scale, cubicA, w);
        double total = 0;
        for (int64_t j = 0; j < taps; ++j) {
          int64_t tap = first + j;
          if (excludeOutside && (tap < 0 || tap >= r.in))
            w[j] = 0;
          total += w[j];
          index[j].push_back(std::clamp<int64_t>(tap, 0, r.in - 1));
        }
        for (int64_t j = 0; j < taps; ++j)
          weight[j].push_back(excludeOutside && total != 0 ? w[j] / total
                                                           : w[j]);
        continue;
      }
      if (mode == "linear") {
        src = std::clamp(src, 0.0f, static_cast<float>(r.in - 1));
        int64_t i0 = static_cast<int64_t>(src);
        index[0].push_back(i0);
        index[1].push_back(std::min(i0 + 1, r.in - 1));
        weight[0].push_back(1.0 - (src - i0));
        weight[1].push_back(src - i0);
        continue;
      }
      // Cubic: taps floor(src) - 1 .. floor(src) + 2, clamped to the edge
      // (or, with exclude_outside, dropped and the weights renormalized).
      int64_t base = static_cast<int64_t>(std::floor(src));
      std::array<double, 4> c = cubicWeights(src - base, cubicA);
      double total = 0;
      for (int64_t j = 0; j < 4; ++j) {
        int64_t tap = base - 1 + j;
        if (excludeOutside && (tap < 0 || tap >= r.in))
          c[j] = 0;
        total += c[j];
        index[j].push_back(std::clamp<int64_t>(tap, 0, r.in - 1));
      }
      for (int64_t j = 0; j < 4; ++j)
        weight[j].push_back(excludeOutside ? c[j] / total : c[j]);
    }
    if (mode == "nearest")
      x = t.gatherAxis(x, axis, index[0]);
    else if (wide)
      x = weightedMatmul(t, x, axis, r.in, index, weight);
    else
      x = weightedTaps(t, x, axis, index, weight);
    // tf_crop_and_resize: outputs sampled outside the input take
    // extrapolation_value, as TF's CropAndResize does.
    if (llvm::is_contained(outside, 1.0)) {
      Shape maskShape(rank, 1);
      maskShape[axis] = r.out;
      Value mask = t.constant(fromDoubles(
          RankedTensorType::get(maskShape, t.getBuilder().getI1Type()),
          outside));
      x = t.select(mask, t.scalarLike(x, extrapolation), x);
    }
  }
  return Values{x};
}

/// Resize: scales input (10), then roi, scales, sizes inputs (11+); scales
/// and sizes must be compile-time constants.
LegalizeResult resize(NodeContext &ctx) {
  if (failed(ctx.requireInputs(1)))
    return failure();
  bool legacy = ctx.getOpset() < 11;
  unsigned scalesIdx = legacy ? 1 : 2, sizesIdx = 3;
  // roi only matters to tf_crop_and_resize, where it must be constant.
  SmallVector<double> roi;
  if (!legacy && ctx.getString("coordinate_transformation_mode", "") ==
                     "tf_crop_and_resize") {
    if (!ctx.hasInput(1))
      return ctx.fail("tf_crop_and_resize needs the roi input");
    std::optional<DenseElementsAttr> c = ctx.constantInput(1);
    if (!c)
      return ctx.failNotConstant(
          1, "roi must be a compile-time constant for tf_crop_and_resize");
    roi = toDoubles(*c);
  }
  SmallVector<float> scales;
  Shape sizes;
  if (ctx.hasInput(sizesIdx) && product(ctx.inputShape(sizesIdx)) > 0) {
    if (failed(ctx.requireConstantInts(sizesIdx, "sizes", sizes)))
      return failure();
  } else if (ctx.hasInput(scalesIdx) &&
             product(ctx.inputShape(scalesIdx)) > 0) {
    std::optional<DenseElementsAttr> c = ctx.constantInput(scalesIdx);
    if (!c)
      return ctx.failNotConstant(scalesIdx,
                                 "scales must be a compile-time constant");
    for (double v : toDoubles(*c))
      scales.push_back(static_cast<float>(v));
  } else {
    return ctx.fail("either scales or sizes must be given");
  }
  return resizeImpl(ctx, sizes, scales, roi, legacy);
}

/// Upsample (deprecated in 10): scales attribute (7) or input (9); Resize-10
/// semantics.
LegalizeResult upsample(NodeContext &ctx) {
  if (failed(ctx.requireInputs(1)))
    return failure();
  SmallVector<float> scales = ctx.getFloats("scales");
  if (ctx.getOpset() >= 9) {
    std::optional<DenseElementsAttr> c =
        ctx.hasInput(1) ? ctx.constantInput(1) : std::nullopt;
    if (!c)
      return ctx.failNotConstant(1, "scales must be a compile-time constant");
    scales.clear();
    for (double v : toDoubles(*c))
      scales.push_back(static_cast<float>(v));
  }
  return resizeImpl(ctx, {}, scales, {}, /*legacy=*/true);
}

// clang-format off
const OpLegalization kResize[] = {
    {"Resize", 10, resize},
    {"Upsample", 7, upsample},
};
// clang-format on

} // namespace

ArrayRef<OpLegalization> getResizeLegalizations() { return kResize; }

} // namespace onnx_tosa
