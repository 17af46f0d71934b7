//===- Resize.cpp - Resize and Upsample -----------------------------------===//
//
// Resizing is separable: every resized axis is handled on its own, with the
// source positions of its output elements computed at compile time exactly
// as the ONNX spec (and onnxruntime, in float arithmetic) computes them.
// Nearest becomes a gather of constant indices (a tile for integer
// upscales); linear and cubic become gathers of the neighbouring taps
// weighted by constant coefficients. This covers every coordinate mode and
// rounding mode, where tosa.resize only covers some.
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
};

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
    return a.out == 1 ? 0.0f
                      : x * static_cast<float>(a.in - 1) /
                            static_cast<float>(a.out - 1);
  if (mode == "asymmetric")
    return x / s;
  if (mode == "tf_half_pixel_for_nn")
    return (x + 0.5f) / s;
  if (mode == "half_pixel_symmetric") {
    float adjustment = static_cast<float>(a.out) / (s * a.in);
    float offset = static_cast<float>(a.in) / 2 * (1 - adjustment);
    return offset + (x + 0.5f) / s - 0.5f;
  }
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

/// Resizes the axes that `sizes` (or else `scales`) describe.
LegalizeResult resizeImpl(NodeContext &ctx, ArrayRef<int64_t> sizes,
                          ArrayRef<float> scales, bool legacy) {
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
  if (mode != "nearest" && mode != "linear" && mode != "cubic")
    return ctx.fail("mode '" + mode + "' is not supported");
  if (mode != "nearest" && !TosaBuilder::isFloat(x))
    return ctx.fail(mode + " resizing needs floating-point data");
  if (ctx.getInt("antialias", 0))
    return ctx.fail("antialias=1 is not supported");
  if (ctx.getString("keep_aspect_ratio_policy", "stretch") != "stretch")
    return ctx.fail("keep_aspect_ratio_policy other than 'stretch' is not "
                    "supported");
  if (!sourceCoordinate(coord, 0, {1, 1, 1.0f}))
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

  for (auto [k, a] : llvm::enumerate(axes)) {
    std::optional<int64_t> axis = normalizeAxis(a, rank);
    if (!axis)
      return ctx.fail("axis " + Twine(a) + " is out of range");
    AxisResize r{inShape[*axis], 0, 0};
    if (!sizes.empty()) {
      r.out = sizes[k];
      r.scale = static_cast<float>(r.out) / static_cast<float>(r.in);
    } else {
      r.scale = scales[k];
      r.out = static_cast<int64_t>(static_cast<float>(r.in) * r.scale);
    }
    if (r.out < 1 || r.scale <= 0)
      return ctx.fail("produces an empty tensor, which TOSA cannot represent");
    if (r.out == r.in && r.scale == 1.0f && coord != "tf_half_pixel_for_nn")
      continue; // every mode maps o to o

    SmallVector<SmallVector<int64_t>> index;
    SmallVector<SmallVector<double>> weight;
    int64_t taps = mode == "nearest" ? 1 : mode == "linear" ? 2 : 4;
    index.resize(taps);
    weight.resize(taps);
    for (int64_t o = 0; o < r.out; ++o) {
      float src = *sourceCoordinate(coord, o, r);
      if (mode == "nearest") {
        index[0].push_back(std::clamp<int64_t>(
            roundNearest(nearestMode, src, r.scale), 0, r.in - 1));
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
      std::array<double, 4> w = cubicWeights(src - base, cubicA);
      double total = 0;
      for (int64_t j = 0; j < 4; ++j) {
        int64_t tap = base - 1 + j;
        if (excludeOutside && (tap < 0 || tap >= r.in))
          w[j] = 0;
        total += w[j];
        index[j].push_back(std::clamp<int64_t>(tap, 0, r.in - 1));
      }
      for (int64_t j = 0; j < 4; ++j)
        weight[j].push_back(excludeOutside ? w[j] / total : w[j]);
    }
    x = mode == "nearest" ? t.gatherAxis(x, *axis, index[0])
                          : weightedTaps(t, x, *axis, index, weight);
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
  if (!legacy && ctx.getString("coordinate_transformation_mode", "") ==
                     "tf_crop_and_resize")
    return ctx.fail("coordinate_transformation_mode 'tf_crop_and_resize' is "
                    "not supported");
  SmallVector<float> scales;
  Shape sizes;
  if (ctx.hasInput(sizesIdx) && product(ctx.inputShape(sizesIdx)) > 0) {
    if (failed(ctx.requireConstantInts(sizesIdx, "sizes", sizes)))
      return failure();
  } else if (ctx.hasInput(scalesIdx) &&
             product(ctx.inputShape(scalesIdx)) > 0) {
    std::optional<DenseElementsAttr> c = ctx.constantInput(scalesIdx);
    if (!c)
      return ctx.fail("scales must be a compile-time constant");
    for (double v : toDoubles(*c))
      scales.push_back(static_cast<float>(v));
  } else {
    return ctx.fail("either scales or sizes must be given");
  }
  return resizeImpl(ctx, sizes, scales, legacy);
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
      return ctx.fail("scales must be a compile-time constant");
    scales.clear();
    for (double v : toDoubles(*c))
      scales.push_back(static_cast<float>(v));
  }
  return resizeImpl(ctx, {}, scales, /*legacy=*/true);
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
