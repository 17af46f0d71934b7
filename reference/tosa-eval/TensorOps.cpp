//===- TensorOps.cpp - MATMUL, convolutions, pooling and FFTs -------------===//
//
// TOSA 1.0 section "Tensor Operators" (ARGMAX is with the reductions).
// Integer dot products accumulate exactly in acc_t with the REQUIRE of
// apply_add_s on every step; floating-point ones accumulate in fp64 in the
// pseudocode's order. `extraMultiplies` evaluates the multiplies in padding
// too, which only the dot-product error bound uses.
//
//===----------------------------------------------------------------------===//
#include "reference/tosa-eval/Evaluator.h"
#include "reference/tosa-eval/OpEval.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"

#include <cmath>

using namespace mlir;

namespace onnx_tosa::ref {
namespace {

/// The accumulator of one dot product.
struct Acc {
  OpEval &e;
  DType accType;
  bool isFloat;
  double f = 0;
  int64_t i = 0;

  Acc(OpEval &e, DType accType)
      : e(e), accType(accType), isFloat(ref::isFloat(accType)) {}
  /// acc = apply_add_s(acc, apply_mul_s(value, weight)).
  void mac(const Tensor &in, int64_t inAt, int64_t inZp, const Tensor &w,
           int64_t wAt, int64_t wZp, bool inside) {
    if (isFloat) {
      double value = inside ? in.floats[inAt] : 0.0;
      f += value * w.floats[wAt];
      return;
    }
    int64_t value =
        inside ? checkedInt(e, in.ints[inAt] - inZp, accType, "input - zp") : 0;
    int64_t weight = checkedInt(e, w.ints[wAt] - wZp, accType, "weight - zp");
    int64_t product =
        wrapSigned(static_cast<int64_t>(static_cast<uint64_t>(value) *
                                        static_cast<uint64_t>(weight)),
                   bitWidth(accType));
    i = checkedInt(e, i + product, accType, "accumulation");
  }
  /// out = apply_add_s<out_t>(static_cast<out_t>(acc), bias).
  void store(Tensor &out, int64_t at, const Tensor &bias, int64_t biasAt) {
    if (out.isFloat())
      out.floats[at] = f + bias.floats[biasAt];
    else
      out.ints[at] =
          checkedInt(e, wrapSigned(i, bitWidth(out.type)) + bias.ints[biasAt],
                     out.type, "bias addition");
  }
};

DType accTypeOf(OpEval &e) {
  if (auto attr = e.op->getAttrOfType<TypeAttr>("acc_type"))
    if (auto dt = Evaluator::dtypeOf(attr.getValue()))
      return *dt;
  return e.resultType();
}

/// Zero points: ERROR_IF unless the type is i8 (or they are zero).
bool zeroPoints(OpEval &e, unsigned inZpAt, unsigned wZpAt, int64_t &inZp,
                int64_t &wZp) {
  const Tensor &a = e.in(inZpAt), &b = e.in(wZpAt);
  inZp = a.isFloat() ? static_cast<int64_t>(a.floats[0] != 0) : a.ints[0];
  wZp = b.isFloat() ? static_cast<int64_t>(b.floats[0] != 0) : b.ints[0];
  if (e.errorIf(e.in(0).type != DType::I8 && inZp != 0,
                "input_zp must be 0 unless the input is i8") ||
      e.errorIf(e.in(1).type != DType::I8 && wZp != 0,
                "the second zero point must be 0 unless its tensor is i8"))
    return false;
  return true;
}

/// idiv_check: the output size formula must divide exactly.
bool outputSize(OpEval &e, int64_t numerator, int64_t stride, int64_t expected,
                const char *what) {
  if (e.errorIf(numerator < 0 || numerator % stride != 0,
                llvm::Twine(what) + ": the output size does not divide "
                                    "exactly by the stride") ||
      e.errorIf(numerator / stride + 1 != expected,
                llvm::Twine(what) + ": the output size should be " +
                    llvm::Twine(numerator / stride + 1)))
    return false;
  return true;
}

SmallVector<int64_t> attrInts(OpEval &e, StringRef name) {
  auto attr = e.op->getAttrOfType<DenseI64ArrayAttr>(name);
  return attr ? SmallVector<int64_t>(attr.asArrayRef())
              : SmallVector<int64_t>();
}

/// CONV2D and CONV3D, as a 3-D convolution (CONV2D has depth 1).
LogicalResult evalConv(OpEval &e, bool is3d) {
  const Tensor &input = e.in(0), &weight = e.in(1), &bias = e.in(2);
  int64_t inZp, wZp;
  if (!zeroPoints(e, 3, 4, inZp, wZp))
    return failure();
  SmallVector<int64_t> pad = attrInts(e, "pad"), stride = attrInts(e, "stride"),
                       dilation = attrInts(e, "dilation");
  Shape in = input.shape, w = weight.shape;
  if (!is3d) { // view [N,H,W,C] as [N,1,H,W,C]
    in.insert(in.begin() + 1, 1);
    w.insert(w.begin() + 1, 1);
    pad.insert(pad.begin(), {0, 0});
    stride.insert(stride.begin(), 1);
    dilation.insert(dilation.begin(), 1);
  }
  Tensor &out = e.result();
  Shape o = out.shape;
  if (!is3d)
    o.insert(o.begin() + 1, 1);
  int64_t N = in[0], ID = in[1], IH = in[2], IW = in[3], IC = in[4];
  int64_t OC = w[0], KD = w[1], KH = w[2], KW = w[3];
  int64_t OD = o[1], OH = o[2], OW = o[3];
  for (int64_t p : pad)
    if (e.errorIf(p < 0, "negative padding"))
      return failure();
  for (int d = 0; d < 3; ++d)
    if (e.errorIf(stride[d] < 1 || dilation[d] < 1,
                  "stride and dilation must be >= 1"))
      return failure();
  if (e.errorIf(w[4] != IC, "weight input channels differ from the input's") ||
      e.errorIf(bias.size() != OC && bias.size() != 1,
                "bias needs OC values or 1") ||
      !outputSize(e, ID - 1 + pad[0] + pad[1] - (KD - 1) * dilation[0],
                  stride[0], OD, "depth") ||
      !outputSize(e, IH - 1 + pad[2] + pad[3] - (KH - 1) * dilation[1],
                  stride[1], OH, "height") ||
      !outputSize(e, IW - 1 + pad[4] + pad[5] - (KW - 1) * dilation[2],
                  stride[2], OW, "width"))
    return failure();
  DType acc = accTypeOf(e);
  for (int64_t n = 0; n < N; ++n)
    for (int64_t od = 0; od < OD; ++od)
      for (int64_t oy = 0; oy < OH; ++oy)
        for (int64_t ox = 0; ox < OW; ++ox)
          for (int64_t oc = 0; oc < OC; ++oc) {
            Acc a(e, acc);
            for (int64_t kd = 0; kd < KD; ++kd)
              for (int64_t ky = 0; ky < KH; ++ky)
                for (int64_t kx = 0; kx < KW; ++kx) {
                  int64_t d = od * stride[0] - pad[0] + kd * dilation[0];
                  int64_t y = oy * stride[1] - pad[2] + ky * dilation[1];
                  int64_t x = ox * stride[2] - pad[4] + kx * dilation[2];
                  bool inside =
                      d >= 0 && d < ID && y >= 0 && y < IH && x >= 0 && x < IW;
                  if (!inside && !e.extraMultiplies)
                    continue;
                  for (int64_t ic = 0; ic < IC; ++ic)
                    a.mac(input,
                          inside ? (((n * ID + d) * IH + y) * IW + x) * IC + ic
                                 : 0,
                          inZp, weight,
                          (((oc * KD + kd) * KH + ky) * KW + kx) * IC + ic, wZp,
                          inside);
                }
            a.store(out, (((n * OD + od) * OH + oy) * OW + ox) * OC + oc, bias,
                    bias.size() == 1 ? 0 : oc);
          }
  return success();
}

/// DEPTHWISE_CONV2D: weight [KH,KW,C,M]; output channel c*M+m.
LogicalResult evalDepthwiseConv(OpEval &e) {
  const Tensor &input = e.in(0), &weight = e.in(1), &bias = e.in(2);
  int64_t inZp, wZp;
  if (!zeroPoints(e, 3, 4, inZp, wZp))
    return failure();
  SmallVector<int64_t> pad = attrInts(e, "pad"), stride = attrInts(e, "stride"),
                       dilation = attrInts(e, "dilation");
  Tensor &out = e.result();
  int64_t N = input.shape[0], IH = input.shape[1], IW = input.shape[2],
          C = input.shape[3];
  int64_t KH = weight.shape[0], KW = weight.shape[1], M = weight.shape[3];
  int64_t OH = out.shape[1], OW = out.shape[2];
  if (e.errorIf(weight.shape[2] != C, "weight channels differ from input's") ||
      e.errorIf(bias.size() != C * M && bias.size() != 1,
                "bias needs C*M values or 1") ||
      !outputSize(e, IH - 1 + pad[0] + pad[1] - (KH - 1) * dilation[0],
                  stride[0], OH, "height") ||
      !outputSize(e, IW - 1 + pad[2] + pad[3] - (KW - 1) * dilation[1],
                  stride[1], OW, "width"))
    return failure();
  DType acc = accTypeOf(e);
  for (int64_t n = 0; n < N; ++n)
    for (int64_t oy = 0; oy < OH; ++oy)
      for (int64_t ox = 0; ox < OW; ++ox)
        for (int64_t c = 0; c < C; ++c)
          for (int64_t m = 0; m < M; ++m) {
            Acc a(e, acc);
            for (int64_t ky = 0; ky < KH; ++ky)
              for (int64_t kx = 0; kx < KW; ++kx) {
                int64_t y = oy * stride[0] - pad[0] + ky * dilation[0];
                int64_t x = ox * stride[1] - pad[2] + kx * dilation[1];
                bool inside = y >= 0 && y < IH && x >= 0 && x < IW;
                if (!inside && !e.extraMultiplies)
                  continue;
                a.mac(input, inside ? ((n * IH + y) * IW + x) * C + c : 0, inZp,
                      weight, ((ky * KW + kx) * C + c) * M + m, wZp, inside);
              }
            int64_t oc = c * M + m;
            a.store(out, ((n * OH + oy) * OW + ox) * C * M + oc, bias,
                    bias.size() == 1 ? 0 : oc);
          }
  return success();
}

/// TRANSPOSE_CONV2D: each output gathers the inputs whose strided position
/// lands on it.
LogicalResult evalTransposeConv(OpEval &e) {
  const Tensor &input = e.in(0), &weight = e.in(1), &bias = e.in(2);
  int64_t inZp, wZp;
  if (!zeroPoints(e, 3, 4, inZp, wZp))
    return failure();
  SmallVector<int64_t> outPad = attrInts(e, "out_pad"),
                       stride = attrInts(e, "stride");
  Tensor &out = e.result();
  int64_t N = input.shape[0], IH = input.shape[1], IW = input.shape[2],
          IC = input.shape[3];
  int64_t OC = weight.shape[0], KH = weight.shape[1], KW = weight.shape[2];
  int64_t OH = out.shape[1], OW = out.shape[2];
  if (e.errorIf(outPad[0] <= -KH || outPad[1] <= -KH || outPad[2] <= -KW ||
                    outPad[3] <= -KW,
                "out_pad must be > -kernel size") ||
      e.errorIf(stride[0] < 1 || stride[1] < 1, "stride must be >= 1") ||
      e.errorIf(OH != (IH - 1) * stride[0] + outPad[0] + outPad[1] + KH,
                "output height mismatch") ||
      e.errorIf(OW != (IW - 1) * stride[1] + outPad[2] + outPad[3] + KW,
                "output width mismatch") ||
      e.errorIf(weight.shape[3] != IC, "weight channels differ from input's") ||
      e.errorIf(bias.size() != OC && bias.size() != 1,
                "bias needs OC values or 1"))
    return failure();
  DType acc = accTypeOf(e);
  for (int64_t n = 0; n < N; ++n)
    for (int64_t oy = 0; oy < OH; ++oy)
      for (int64_t ox = 0; ox < OW; ++ox)
        for (int64_t oc = 0; oc < OC; ++oc) {
          Acc a(e, acc);
          int64_t iy = oy - outPad[0], ix = ox - outPad[2];
          for (int64_t ky = 0; ky < KH; ++ky)
            for (int64_t kx = 0; kx < KW; ++kx) {
              int64_t y = iy - ky, x = ix - kx;
              bool inside = y >= 0 && y < IH * stride[0] && x >= 0 &&
                            x < IW * stride[1] && y % stride[0] == 0 &&
                            x % stride[1] == 0;
              if (!inside && !e.extraMultiplies)
                continue;
              for (int64_t ic = 0; ic < IC; ++ic)
                a.mac(input,
                      inside ? ((n * IH + y / stride[0]) * IW + x / stride[1]) *
                                       IC +
                                   ic
                             : 0,
                      inZp, weight, ((oc * KH + ky) * KW + kx) * IC + ic, wZp,
                      inside);
            }
          a.store(out, ((n * OH + oy) * OW + ox) * OC + oc, bias,
                  bias.size() == 1 ? 0 : oc);
        }
  return success();
}

LogicalResult evalMatMul(OpEval &e) {
  const Tensor &A = e.in(0), &B = e.in(1);
  int64_t aZp, bZp;
  if (!zeroPoints(e, 2, 3, aZp, bZp))
    return failure();
  Tensor &out = e.result();
  int64_t N = A.shape[0], H = A.shape[1], C = A.shape[2], W = B.shape[2];
  if (e.errorIf(B.shape[0] != N || B.shape[1] != C,
                "B must be [N, C, W] for A [N, H, C]"))
    return failure();
  Tensor zeroBias(out.type, {1});
  for (int64_t n = 0; n < N; ++n)
    for (int64_t h = 0; h < H; ++h)
      for (int64_t w = 0; w < W; ++w) {
        Acc a(e, out.type);
        for (int64_t c = 0; c < C; ++c)
          a.mac(A, (n * H + h) * C + c, aZp, B, (n * C + c) * W + w, bZp, true);
        a.store(out, (n * H + h) * W + w, zeroBias, 0);
      }
  return success();
}

/// AVG_POOL2D: the mean of the window's valid inputs (padding not counted);
/// integers divide with reciprocal_scale + apply_scale_32.
LogicalResult evalAvgPool(OpEval &e) {
  const Tensor &input = e.in(0);
  Tensor &out = e.result();
  int64_t inZp = input.isFloat() ? e.scalarFloat(1) != 0 : e.scalarInt(1);
  int64_t outZp = input.isFloat() ? e.scalarFloat(2) != 0 : e.scalarInt(2);
  SmallVector<int64_t> kernel = attrInts(e, "kernel"),
                       stride = attrInts(e, "stride"), pad = attrInts(e, "pad");
  int64_t N = input.shape[0], IH = input.shape[1], IW = input.shape[2],
          C = input.shape[3], OH = out.shape[1], OW = out.shape[2];
  if (e.errorIf(input.type != DType::I8 && (inZp != 0 || outZp != 0),
                "zero points are only allowed for i8") ||
      e.errorIf(kernel[0] < 1 || kernel[1] < 1, "kernel must be >= 1") ||
      e.errorIf(stride[0] < 1 || stride[1] < 1, "stride must be >= 1") ||
      e.errorIf(pad[0] < 0 || pad[1] < 0 || pad[2] < 0 || pad[3] < 0,
                "negative padding") ||
      e.errorIf(pad[2] >= kernel[1] || pad[3] >= kernel[1] ||
                    pad[0] >= kernel[0] || pad[1] >= kernel[0],
                "padding must be smaller than the kernel") ||
      !outputSize(e, IH + pad[0] + pad[1] - kernel[0], stride[0], OH,
                  "height") ||
      !outputSize(e, IW + pad[2] + pad[3] - kernel[1], stride[1], OW, "width"))
    return failure();
  DType acc = accTypeOf(e);
  for (int64_t n = 0; n < N; ++n)
    for (int64_t oy = 0; oy < OH; ++oy)
      for (int64_t ox = 0; ox < OW; ++ox)
        for (int64_t c = 0; c < C; ++c) {
          double fsum = 0;
          int64_t isum = 0, count = 0;
          for (int64_t ky = 0; ky < kernel[0]; ++ky)
            for (int64_t kx = 0; kx < kernel[1]; ++kx) {
              int64_t y = oy * stride[0] - pad[0] + ky;
              int64_t x = ox * stride[1] - pad[2] + kx;
              if (y < 0 || y >= IH || x < 0 || x >= IW)
                continue;
              ++count;
              int64_t at = ((n * IH + y) * IW + x) * C + c;
              if (input.isFloat())
                fsum += input.floats[at];
              else
                isum = checkedInt(e, isum + input.ints[at] - inZp, acc,
                                  "accumulation");
            }
          int64_t at = ((n * OH + oy) * OW + ox) * C + c;
          if (input.isFloat()) {
            out.floats[at] = fsum / count;
            continue;
          }
          // reciprocal_scale(count) ("Scaling Helpers").
          int64_t k = 0;
          while ((int64_t(1) << k) < count)
            ++k; // (1 << k) / 2 < count <= (1 << k)
          int64_t multiplier =
              ((int64_t(1) << 30) + 1) * (int64_t(1) << k) / count;
          int64_t shift = 30 + k;
          e.require(isum >= -(int64_t(1) << (shift - 1)) &&
                        isum < (int64_t(1) << (shift - 1)),
                    "apply_scale_32 value out of range");
          __int128 r = static_cast<__int128>(isum) * multiplier +
                       (static_cast<__int128>(1) << (shift - 1));
          int64_t v = static_cast<int64_t>(r >> shift);
          v = checkedInt(e, v + outZp, acc, "output_zp addition");
          unsigned bits = bitWidth(out.type);
          out.ints[at] = std::clamp(v, minSigned(bits), maxSigned(bits));
        }
  return success();
}

LogicalResult evalMaxPool(OpEval &e) {
  const Tensor &input = e.in(0);
  Tensor &out = e.result();
  SmallVector<int64_t> kernel = attrInts(e, "kernel"),
                       stride = attrInts(e, "stride"), pad = attrInts(e, "pad");
  int64_t N = input.shape[0], IH = input.shape[1], IW = input.shape[2],
          C = input.shape[3], OH = out.shape[1], OW = out.shape[2];
  if (e.errorIf(kernel[0] < 1 || kernel[1] < 1, "kernel must be >= 1") ||
      e.errorIf(stride[0] < 1 || stride[1] < 1, "stride must be >= 1") ||
      e.errorIf(pad[0] < 0 || pad[1] < 0 || pad[2] < 0 || pad[3] < 0,
                "negative padding") ||
      e.errorIf(pad[2] >= kernel[1] || pad[3] >= kernel[1] ||
                    pad[0] >= kernel[0] || pad[1] >= kernel[0],
                "padding must be smaller than the kernel") ||
      !outputSize(e, IH + pad[0] + pad[1] - kernel[0], stride[0], OH,
                  "height") ||
      !outputSize(e, IW + pad[2] + pad[3] - kernel[1], stride[1], OW, "width"))
    return failure();
  bool propagate = propagatesNan(e.op);
  for (int64_t n = 0; n < N; ++n)
    for (int64_t oy = 0; oy < OH; ++oy)
      for (int64_t ox = 0; ox < OW; ++ox)
        for (int64_t c = 0; c < C; ++c) {
          bool first = true;
          double fmax = 0;
          int64_t imax = 0;
          for (int64_t ky = 0; ky < kernel[0]; ++ky)
            for (int64_t kx = 0; kx < kernel[1]; ++kx) {
              int64_t y = oy * stride[0] - pad[0] + ky;
              int64_t x = ox * stride[1] - pad[2] + kx;
              if (y < 0 || y >= IH || x < 0 || x >= IW)
                continue; // padding never wins
              int64_t at = ((n * IH + y) * IW + x) * C + c;
              if (input.isFloat())
                fmax = first ? input.floats[at]
                             : applyMaxF(fmax, input.floats[at], propagate);
              else
                imax = first ? input.ints[at] : std::max(imax, input.ints[at]);
              first = false;
            }
          int64_t at = ((n * OH + oy) * OW + ox) * C + c;
          if (input.isFloat())
            out.floats[at] = fmax;
          else
            out.ints[at] = imax;
        }
  return success();
}

/// FFT2D / RFFT2D: direct DFTs in fp64 (no normalization). The angle is
/// reduced with exact integer arithmetic before the trigonometry. For the
/// error bound (extraMultiplies) the coefficients are taken in magnitude.
LogicalResult evalFft(OpEval &e, bool real) {
  const Tensor &re = e.in(0);
  const Tensor *im = real ? nullptr : &e.in(1);
  bool inverse = !real && e.as<tosa::FFT2dOp>().getInverse();
  Tensor &outRe = e.result(0);
  Tensor &outIm = e.result(1);
  int64_t N = re.shape[0], H = re.shape[1], W = re.shape[2];
  int64_t OW = outRe.shape[2];
  if (e.errorIf((H & (H - 1)) != 0 || (W & (W - 1)) != 0,
                "H and W must be powers of two") ||
      e.errorIf(OW != (real ? W / 2 + 1 : W), "output width mismatch"))
    return failure();
  double sign = inverse ? 1.0 : -1.0;
  for (int64_t n = 0; n < N; ++n)
    for (int64_t oy = 0; oy < H; ++oy)
      for (int64_t ox = 0; ox < OW; ++ox) {
        double sumRe = 0, sumIm = 0;
        for (int64_t iy = 0; iy < H; ++iy)
          for (int64_t ix = 0; ix < W; ++ix) {
            // The angle is 2 pi p / (H W): exact at multiples of pi / 2, so
            // the coefficients that are 0 in exact arithmetic are 0 here.
            int64_t p = (((iy * oy) % H) * W + ((ix * ox) % W) * H) % (H * W);
            double c, s;
            if ((4 * p) % (H * W) == 0) {
              static const double kCos[] = {1, 0, -1, 0},
                                  kSin[] = {0, 1, 0, -1};
              c = kCos[4 * p / (H * W)];
              s = sign * kSin[4 * p / (H * W)];
            } else {
              double a = 2 * M_PI * static_cast<double>(p) / (H * W);
              c = std::cos(a);
              s = sign * std::sin(a);
            }
            if (e.extraMultiplies) {
              c = std::fabs(c);
              s = std::fabs(s);
            }
            int64_t at = (n * H + iy) * W + ix;
            double xr = re.floats[at], xi = im ? im->floats[at] : 0.0;
            // (xr + i xi) * (c + i s)
            sumRe += xr * c - (e.extraMultiplies ? -1 : 1) * xi * s;
            sumIm += xi * c + xr * s;
          }
        int64_t at = (n * H + oy) * OW + ox;
        outRe.floats[at] = sumRe;
        outIm.floats[at] = sumIm;
      }
  return success();
}

} // namespace

void registerTensorOps(HandlerTable &table) {
  table["tosa.conv2d"] = [](OpEval &e) { return evalConv(e, false); };
  table["tosa.conv3d"] = [](OpEval &e) { return evalConv(e, true); };
  table["tosa.depthwise_conv2d"] = evalDepthwiseConv;
  table["tosa.transpose_conv2d"] = evalTransposeConv;
  table["tosa.matmul"] = evalMatMul;
  table["tosa.avg_pool2d"] = evalAvgPool;
  table["tosa.max_pool2d"] = evalMaxPool;
  table["tosa.fft2d"] = [](OpEval &e) { return evalFft(e, false); };
  table["tosa.rfft2d"] = [](OpEval &e) { return evalFft(e, true); };
}

int64_t dotProductKernelSize(Operation *op, ArrayRef<const Tensor *> operands) {
  if (operands.empty() || !operands[0] || !operands[0]->isFloat())
    return 0;
  auto shape = [&](unsigned i) -> const Shape & { return operands[i]->shape; };
  StringRef name = op->getName().getStringRef();
  if (name == "tosa.conv2d" || name == "tosa.transpose_conv2d")
    return shape(1)[1] * shape(1)[2] * shape(1)[3];
  if (name == "tosa.conv3d")
    return shape(1)[1] * shape(1)[2] * shape(1)[3] * shape(1)[4];
  if (name == "tosa.depthwise_conv2d")
    return shape(1)[0] * shape(1)[1];
  if (name == "tosa.matmul")
    return shape(0)[2];
  if (name == "tosa.avg_pool2d") {
    auto k = op->getAttrOfType<DenseI64ArrayAttr>("kernel").asArrayRef();
    return k[0] * k[1];
  }
  if (name == "tosa.reduce_sum")
    return shape(0)[op->getAttrOfType<IntegerAttr>("axis").getInt()];
  if (name == "tosa.fft2d")
    return 2 * shape(0)[1] * shape(0)[2];
  if (name == "tosa.rfft2d")
    return shape(0)[1] * shape(0)[2];
  return 0;
}

} // namespace onnx_tosa::ref
