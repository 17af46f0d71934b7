//===- Signal.cpp - Windows, DFT, STFT and MelWeightMatrix ----------------===//
//
// The window functions and MelWeightMatrix depend only on their (constant)
// size arguments: they fold to constants, computed in double precision.
//
// DFT and STFT are dense transforms over a static length L: one tosa.matmul
// of the signal (the transformed axis and the real/imaginary pair flattened
// into the reduction dimension) against a matrix of cos/sin twiddle factors
// generated at compile time. That is O(L^2) work per transform instead of an
// FFT's O(L log L), and one well-tiled kernel instead of log L passes; it is
// the right trade for the short frames these ops see.
//
// Complex tensors are ONNX's: a trailing dimension of 2 (real, imaginary);
// real input has a trailing dimension of 1.
//
//===----------------------------------------------------------------------===//
#include "conversion/onnx-to-tosa/NodeContext.h"

#include <cmath>

using namespace mlir;

namespace onnx_tosa {
namespace {

/// Twiddle matrices are L x L (times 4): a bound on their size.
constexpr int64_t kMaxDftLength = 4096;

/// A one-element constant integer input.
LogicalResult constantScalar(NodeContext &ctx, unsigned i, StringRef what,
                             int64_t &out) {
  Shape values;
  if (failed(ctx.requireConstantInts(i, what, values)))
    return failure();
  if (values.size() != 1)
    return ctx.fail("input " + Twine(i) + " (" + what +
                    ") must hold one value");
  out = values.front();
  return success();
}

/// A one-element constant float (or integer) input.
LogicalResult constantReal(NodeContext &ctx, unsigned i, StringRef what,
                           double &out) {
  if (!ctx.hasInput(i))
    return ctx.fail("input " + Twine(i) + " (" + what + ") is required");
  std::optional<DenseElementsAttr> c = ctx.constantInput(i);
  if (!c)
    return ctx.failNotConstant(i, "input " + Twine(i) + " (" + what +
                                      ") must be a compile-time constant");
  if (c->getNumElements() != 1)
    return ctx.fail("input " + Twine(i) + " (" + what +
                    ") must hold one value");
  out = toDoubles(*c).front();
  return success();
}

/// The element type named by attribute output_datatype (float by default).
FailureOr<Type> outputDatatype(NodeContext &ctx) {
  Type type = onnxElementType(ctx.getLoc().getContext(),
                              ctx.getInt("output_datatype", 1));
  if (!type || !(isa<FloatType>(type) || isa<IntegerType>(type)))
    return ctx.fail("output_datatype " +
                    Twine(ctx.getInt("output_datatype", 1)) +
                    " is not supported");
  return type;
}

//===----------------------------------------------------------------------===//
// Windows
//===----------------------------------------------------------------------===//

/// A window w[n] = sum_i a_i cos(2 pi i n / N) for n in [0, size), with
/// N = size (periodic) or size - 1 (symmetric).
LegalizeResult cosineWindow(NodeContext &ctx, ArrayRef<double> coefficients) {
  int64_t size;
  if (failed(ctx.requireInputs(1)) ||
      failed(constantScalar(ctx, 0, "size", size)))
    return failure();
  if (size < 1)
    return ctx.fail("size must be positive (an empty window cannot be "
                    "represented)");
  FailureOr<Type> type = outputDatatype(ctx);
  if (failed(type))
    return failure();
  bool periodic = ctx.getInt("periodic", 1) != 0;
  double n = periodic ? size : size - 1;
  SmallVector<double> values;
  for (int64_t k = 0; k < size; ++k) {
    double w = 0;
    for (auto [i, a] : llvm::enumerate(coefficients))
      w += a * std::cos(2 * M_PI * static_cast<double>(i * k) / n);
    values.push_back(w);
  }
  return Values{ctx.tosa.constant(
      fromDoubles(RankedTensorType::get({size}, *type), values))};
}

// sin^2(pi k / N) = 0.5 - 0.5 cos(2 pi k / N).
LegalizeResult hannWindow(NodeContext &ctx) {
  return cosineWindow(ctx, {0.5, -0.5});
}
// alpha = 25/46, beta = 1 - alpha (the spec's exact Hamming coefficients).
LegalizeResult hammingWindow(NodeContext &ctx) {
  return cosineWindow(ctx, {25.0 / 46.0, -21.0 / 46.0});
}
LegalizeResult blackmanWindow(NodeContext &ctx) {
  return cosineWindow(ctx, {0.42, -0.5, 0.08});
}

//===----------------------------------------------------------------------===//
// MelWeightMatrix
//===----------------------------------------------------------------------===//

LegalizeResult melWeightMatrix(NodeContext &ctx) {
  int64_t bins, dftLength, sampleRate;
  double lower, upper;
  if (failed(ctx.requireInputs(5)) ||
      failed(constantScalar(ctx, 0, "num_mel_bins", bins)) ||
      failed(constantScalar(ctx, 1, "dft_length", dftLength)) ||
      failed(constantScalar(ctx, 2, "sample_rate", sampleRate)) ||
      failed(constantReal(ctx, 3, "lower_edge_hertz", lower)) ||
      failed(constantReal(ctx, 4, "upper_edge_hertz", upper)))
    return failure();
  if (bins < 1 || dftLength < 1 || sampleRate < 1)
    return ctx.fail("num_mel_bins, dft_length and sample_rate must be "
                    "positive");
  FailureOr<Type> type = outputDatatype(ctx);
  if (failed(type))
    return failure();
  // The spec's reference: num_mel_bins + 2 points evenly spaced on the mel
  // scale, mel(f) = 2595 log10(1 + f / 700), mapped back to spectrogram
  // bins; triangle i rises from point i to i + 1 and falls to i + 2.
  auto mel = [](double f) { return 2595 * std::log1p(f / 700) / M_LN10; };
  double low = mel(lower), high = mel(upper);
  double step = (high - low) / static_cast<double>(bins + 2);
  SmallVector<int64_t> points;
  for (int64_t i = 0; i < bins + 2; ++i) {
    double hz = 700 * std::expm1((i * step + low) / 2595 * M_LN10);
    points.push_back(static_cast<int64_t>(
        std::floor(static_cast<double>(dftLength + 1) * hz / sampleRate)));
  }
  int64_t spectrumBins = dftLength / 2 + 1;
  SmallVector<double> w(spectrumBins * bins, 0.0);
  auto at = [&](int64_t j, int64_t i) -> double & { return w[j * bins + i]; };
  for (int64_t i = 0; i < bins; ++i)
    if (points[i] < 0 || points[i + 1] < points[i] ||
        points[i + 2] < points[i + 1] || points[i + 1] >= spectrumBins ||
        points[i + 2] > spectrumBins)
      return ctx.fail("the mel bands do not fit the spectrum (edges outside "
                      "[0, sample_rate / 2] or out of order)");
  for (int64_t i = 0; i < bins; ++i) {
    int64_t left = points[i], center = points[i + 1], right = points[i + 2];
    if (center == left)
      at(center, i) = 1;
    else
      for (int64_t j = left; j <= center; ++j)
        at(j, i) = static_cast<double>(j - left) / (center - left);
    for (int64_t j = center; j < right; ++j)
      at(j, i) = static_cast<double>(right - j) / (right - center);
  }
  return Values{ctx.tosa.constant(
      fromDoubles(RankedTensorType::get({spectrumBins, bins}, *type), w))};
}

//===----------------------------------------------------------------------===//
// DFT
//===----------------------------------------------------------------------===//

struct DftSpec {
  int64_t length; ///< the transform's length L (dft_length)
  bool inverse;   ///< e^{+2 pi j k n / L} / L instead of e^{-2 pi j k n / L}
  bool onesided;  ///< forward: keep bins [0, L/2]; inverse: irfft
  ArrayRef<double> window = {}; ///< weights of the input samples, if any
};

/// The DFT of `x` along `axis` (not the last, complex, dimension).
FailureOr<Value> dft(NodeContext &ctx, Value x, int64_t axis,
                     const DftSpec &spec) {
  TosaBuilder &t = ctx.tosa;
  Shape shape(t.shapeOf(x));
  int64_t rank = shape.size();
  int64_t inLength = shape[axis], inComplex = shape.back();
  int64_t l = spec.length;
  if (inComplex != 1 && inComplex != 2)
    return ctx.fail("the last dimension must be 1 (real) or 2 (complex)");
  if (l < 1 || l > kMaxDftLength)
    return ctx.fail("dft_length " + Twine(l) + " is not supported (1 to " +
                    Twine(kMaxDftLength) + ")");
  bool irfft = spec.inverse && spec.onesided;
  if (spec.onesided && !spec.inverse && inComplex != 1)
    return ctx.fail("onesided output needs real input");
  int64_t outLength = spec.onesided && !spec.inverse ? l / 2 + 1 : l;
  int64_t outComplex = irfft ? 1 : 2;
  // Samples past L are dropped and missing ones are zero (numpy's n=);
  // irfft reads the first L/2 + 1 bins.
  int64_t used = std::min(inLength, irfft ? l / 2 + 1 : l);

  // w[(n, ci), (k, co)]: the contribution of input component ci of sample n
  // to output component co of bin k. e^{s j theta} (a + j b) with
  // s = -1 forward, +1 inverse is (a cos - s b sin) + j (s a sin + b cos).
  double sign = spec.inverse ? 1.0 : -1.0;
  double scale = spec.inverse ? 1.0 / l : 1.0;
  int64_t rows = inLength * inComplex, cols = outLength * outComplex;
  SmallVector<double> w(rows * cols, 0.0);
  for (int64_t n = 0; n < used; ++n) {
    double weight = scale * (spec.window.empty() ? 1.0 : spec.window[n]);
    // irfft: bins 0 < k < L/2 stand for k and L - k (Hermitian symmetry).
    if (irfft && n != 0 && 2 * n != l)
      weight *= 2;
    for (int64_t k = 0; k < outLength; ++k) {
      double theta = 2 * M_PI * static_cast<double>((n * k) % l) / l;
      double c = std::cos(theta) * weight, s = std::sin(theta) * weight;
      double *re = &w[(n * inComplex) * cols + k * outComplex];
      re[0] = c; // real in -> real out
      if (!irfft)
        re[1] = sign * s; // real in -> imaginary out
      if (inComplex == 2) {
        double *im = &w[(n * inComplex + 1) * cols + k * outComplex];
        im[0] = -sign * s; // imaginary in -> real out
        if (!irfft)
          im[1] = c; // imaginary in -> imaginary out
      }
    }
  }

  // [others..., axis, complex] rows, flattened, times the twiddles.
  Shape perm;
  for (int64_t d = 0; d < rank - 1; ++d)
    if (d != axis)
      perm.push_back(d);
  perm.push_back(axis);
  perm.push_back(rank - 1);
  Value moved = t.transpose(x, perm);
  Shape others;
  for (int64_t d = 0; d < rank - 2; ++d)
    others.push_back(shape[perm[d]]);
  int64_t batch = product(others);
  Type elt = t.elementTypeOf(x);
  Value twiddles =
      t.constant(fromDoubles(RankedTensorType::get({1, rows, cols}, elt), w));
  Value y =
      t.matmul(t.reshape(moved, {1, batch, rows}), twiddles); // [1, B, cols]
  Shape outShape(others);
  outShape.push_back(outLength);
  outShape.push_back(outComplex);
  y = t.reshape(y, outShape);
  // Back: the bins to `axis`.
  Shape inverse(rank);
  for (int64_t d = 0; d < rank; ++d)
    inverse[perm[d]] = d;
  return t.transpose(y, inverse);
}

/// DFT opset 17 (axis attribute) and 20 (axis input); dft_length an input.
LegalizeResult dftOp(NodeContext &ctx) {
  if (failed(ctx.requireInputs(1)) ||
      failed(ctx.requireElementType(0, Elt::Float)))
    return failure();
  int64_t rank = ctx.inputRank(0);
  int64_t axis = ctx.getInt("axis", 1);
  if (ctx.getOpset() >= 20) {
    axis = -2;
    if (ctx.hasInput(2) && failed(constantScalar(ctx, 2, "axis", axis)))
      return failure();
  }
  std::optional<int64_t> normalized = normalizeAxis(axis, rank);
  if (rank < 2 || !normalized || *normalized == rank - 1)
    return ctx.fail("axis " + Twine(axis) +
                    " must name a dimension other than the last");
  DftSpec spec;
  spec.inverse = ctx.getInt("inverse", 0) != 0;
  spec.onesided = ctx.getInt("onesided", 0) != 0;
  int64_t inLength = ctx.inputShape(0)[*normalized];
  spec.length = spec.inverse && spec.onesided ? 2 * (inLength - 1) : inLength;
  if (ctx.hasInput(1) &&
      failed(constantScalar(ctx, 1, "dft_length", spec.length)))
    return failure();
  FailureOr<Value> y = dft(ctx, ctx.input(0), *normalized, spec);
  if (failed(y))
    return failure();
  return Values{*y};
}

//===----------------------------------------------------------------------===//
// STFT
//===----------------------------------------------------------------------===//

/// STFT (opset 17): signal [batch, length, 1 or 2] -> [batch, frames, bins,
/// 2]; every frame is a DFT of frame_length samples, times the window.
LegalizeResult stft(NodeContext &ctx) {
  TosaBuilder &t = ctx.tosa;
  int64_t step;
  if (failed(ctx.requireInputs(2)) ||
      failed(ctx.requireElementType(0, Elt::Float)) ||
      failed(constantScalar(ctx, 1, "frame_step", step)))
    return failure();
  ArrayRef<int64_t> shape = ctx.inputShape(0);
  if (shape.size() != 3)
    return ctx.fail("signal must be [batch, length, 1 or 2]");
  int64_t length = shape[1];
  int64_t frameLength = length;
  if (ctx.hasInput(2)) {
    if (ctx.inputRank(2) != 1)
      return ctx.fail("window must be 1-D");
    frameLength = ctx.inputShape(2)[0];
  }
  if (ctx.hasInput(3)) {
    int64_t given;
    if (failed(constantScalar(ctx, 3, "frame_length", given)))
      return failure();
    if (ctx.hasInput(2) && given != frameLength)
      return ctx.fail("frame_length differs from the window's length");
    frameLength = given;
  }
  if (step < 1 || frameLength < 1 || frameLength > length)
    return ctx.fail("frame_step must be positive and frame_length in [1, " +
                    Twine(length) + "]");
  int64_t frames = (length - frameLength) / step + 1;

  // [batch, frames * frameLength, C] by one gather, then [.., frames, L, C].
  Shape indices;
  for (int64_t f = 0; f < frames; ++f)
    for (int64_t n = 0; n < frameLength; ++n)
      indices.push_back(f * step + n);
  Value x = t.gatherAxis(ctx.input(0), 1, indices);
  x = t.reshape(x, {shape[0], frames, frameLength, shape[2]});

  // A constant window is folded into the twiddles; a run-time one weighs
  // the frames.
  SmallVector<double> window;
  if (ctx.hasInput(2)) {
    if (std::optional<DenseElementsAttr> w = ctx.constantInput(2)) {
      window = toDoubles(*w);
    } else {
      Value weights = t.cast(ctx.input(2), t.elementTypeOf(x));
      x = t.mul(x, t.reshape(weights, {1, 1, frameLength, 1}));
    }
  }
  DftSpec spec;
  spec.length = frameLength;
  spec.inverse = false;
  spec.onesided = ctx.getInt("onesided", 1) != 0;
  spec.window = window;
  if (spec.onesided && shape[2] != 1)
    return ctx.fail("onesided output needs a real signal");
  FailureOr<Value> y = dft(ctx, x, 2, spec);
  if (failed(y))
    return failure();
  return Values{*y};
}

// clang-format off
const OpLegalization kSignal[] = {
    {"HannWindow", 17, hannWindow},
    {"HammingWindow", 17, hammingWindow},
    {"BlackmanWindow", 17, blackmanWindow},
    {"MelWeightMatrix", 17, melWeightMatrix},
    {"DFT", 17, dftOp},
    {"STFT", 17, stft},
};
// clang-format on

} // namespace

ArrayRef<OpLegalization> getSignalLegalizations() { return kSignal; }

} // namespace onnx_tosa
