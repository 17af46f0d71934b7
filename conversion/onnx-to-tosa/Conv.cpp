//===- Conv.cpp - Conv, ConvTranspose (1-D, 2-D, 3-D; grouped, depthwise) ===//
//
// ONNX convolves channels-first data (NCHW) with OIHW weights; TOSA convolves
// channels-last data (NHWC) with OHWI weights. Inputs are transposed in and
// out; constant weights are rearranged at compile time. 1-D convolutions run
// as 2-D ones over a unit height.
//
// Groups: group == 1 is one conv2d/conv3d; group == C_in (each input channel
// convolved with its own C_out / C_in filters) is one depthwise_conv2d; any
// other grouping is one convolution per group on channel slices, concatenated.
//
//===----------------------------------------------------------------------===//
#include "conversion/onnx-to-tosa/Window.h"

using namespace mlir;

namespace onnx_tosa {
namespace {

Type accumulatorType(Type elementType) {
  // f32 accumulation for every float type (TOSA's pro_fp allows it for fp16).
  return Float32Type::get(elementType.getContext());
}

/// conv2d or conv3d of channels-last `x` by channels-last weights `w`
/// ([O, k..., I]).
Value convChannelsLast(TosaBuilder &t, Value x, Value w, Value bias,
                       const Window &win, ArrayRef<int64_t> pads) {
  Shape outShape{t.shapeOf(x)[0]};
  outShape.append(win.output.begin(), win.output.end());
  outShape.push_back(t.shapeOf(w)[0]);
  Type elt = t.elementTypeOf(x);
  auto type = RankedTensorType::get(outShape, elt);
  OpBuilder &b = t.getBuilder();
  Value zp = t.zeroPoint(elt);
  if (t.rankOf(x) == 4)
    return tosa::Conv2DOp::create(b, t.getLoc(), type, x, w, bias, zp, zp, pads,
                                  win.strides, win.dilations,
                                  accumulatorType(elt));
  return tosa::Conv3DOp::create(b, t.getLoc(), type, x, w, bias, zp, zp, pads,
                                win.strides, win.dilations,
                                accumulatorType(elt));
}

/// depthwise_conv2d: ONNX weights [C * M, 1, KH, KW] become [KH, KW, C, M];
/// output channel c * M + m is the m-th filter of input channel c in both.
Value depthwise(TosaBuilder &t, Value x, Value w, Value bias, const Window &win,
                ArrayRef<int64_t> pads) {
  int64_t c = t.shapeOf(x).back();
  int64_t o = t.shapeOf(w)[0];
  ArrayRef<int64_t> k = t.shapeOf(w).drop_front(2);
  Value hwcm = t.transpose(t.reshape(w, {c, o / c, k[0], k[1]}), {2, 3, 0, 1});
  Type elt = t.elementTypeOf(x);
  auto type = RankedTensorType::get(
      {t.shapeOf(x)[0], win.output[0], win.output[1], o}, elt);
  Value zp = t.zeroPoint(elt);
  return tosa::DepthwiseConv2DOp::create(t.getBuilder(), t.getLoc(), type, x,
                                         hwcm, bias, zp, zp, pads, win.strides,
                                         win.dilations, accumulatorType(elt));
}

LegalizeResult conv(NodeContext &ctx) {
  if (failed(ctx.requireInputs(2)) ||
      failed(ctx.requireElementType(0, Elt::Float)) ||
      failed(ctx.requireSameElementType(0, 3)))
    return failure();
  TosaBuilder &t = ctx.tosa;
  Value x = ctx.input(0), w = ctx.input(1);
  int64_t rank = t.rankOf(x);
  if (rank < 3 || rank > 5)
    return ctx.fail("only 1-D, 2-D and 3-D convolutions are supported (input "
                    "has rank " +
                    Twine(rank) + ")");
  if (t.rankOf(w) != rank)
    return ctx.fail("weights must have the input's rank");
  if (failed(ctx.requireNonEmpty(t.shapeOf(x))) ||
      failed(ctx.requireNonEmpty(t.shapeOf(w))))
    return failure();
  int64_t n = t.shapeOf(x)[0], cIn = t.shapeOf(x)[1];
  int64_t cOut = t.shapeOf(w)[0];
  int64_t group = ctx.getInt("group", 1);
  if (group < 1 || cIn % group || cOut % group ||
      t.shapeOf(w)[1] != cIn / group)
    return ctx.fail("group " + Twine(group) + " does not divide input " +
                    llvm::to_string(x.getType()) + " and weights " +
                    llvm::to_string(w.getType()) + " consistently");
  ArrayRef<int64_t> kernel = t.shapeOf(w).drop_front(2);
  if (ctx.hasAttr("kernel_shape") &&
      ArrayRef<int64_t>(ctx.getInts("kernel_shape")) != kernel)
    return ctx.fail("kernel_shape does not match the weights");
  FailureOr<Window> win =
      computeWindow(ctx, t.shapeOf(x).drop_front(2), kernel, false);
  if (failed(win))
    return failure();

  Value bias = ctx.input(2);
  if (!bias)
    bias = t.splat({cOut}, t.elementTypeOf(x), 0);
  else if (ctx.inputShape(2) != ArrayRef<int64_t>{cOut})
    return ctx.fail("bias must have shape [" + Twine(cOut) + "]");

  bool is1D = rank == 3;
  if (is1D) {
    x = t.reshape(x, {n, cIn, 1, t.shapeOf(x)[2]});
    w = t.reshape(w, {cOut, cIn / group, 1, kernel[0]});
    expandWindowTo2D(*win);
  }
  Value xl = t.toChannelsLast(x);
  Shape pads = fitPadsToTosa(t, *win, xl);

  Value y;
  if (group == 1) {
    y = convChannelsLast(t, xl, t.toChannelsLast(w), bias, *win, pads);
  } else if (group == cIn && t.rankOf(xl) == 4) {
    y = depthwise(t, xl, w, bias, *win, pads);
  } else {
    Value wl = t.toChannelsLast(w);
    int64_t cg = cIn / group, og = cOut / group;
    int64_t channelAxis = t.rankOf(xl) - 1;
    SmallVector<Value> parts;
    for (int64_t g = 0; g < group; ++g)
      parts.push_back(
          convChannelsLast(t, t.sliceAxis(xl, channelAxis, g * cg, cg),
                           t.sliceAxis(wl, 0, g * og, og),
                           t.sliceAxis(bias, 0, g * og, og), *win, pads));
    y = t.concat(parts, channelAxis);
  }
  y = t.toChannelsFirst(y);
  if (is1D)
    y = t.reshape(y, {n, cOut, win->output[1]});
  return Values{y};
}

/// Elements of `axis` `step` apart, zeros between them: [.., L, ..] ->
/// [.., (L - 1) * step + 1, ..]. Folds for constants.
Value spreadAxis(TosaBuilder &t, Value v, int64_t axis, int64_t step) {
  if (step == 1)
    return v;
  int64_t length = t.shapeOf(v)[axis];
  // [..., L, ...] -> [..., L, 1, ...] -> [..., L, step, ...] -> [..., L*step,
  // ...]
  Shape split(t.shapeOf(v));
  split.insert(split.begin() + axis + 1, 1);
  Shape pads(2 * split.size(), 0);
  pads[2 * (axis + 1) + 1] = step - 1;
  Value spread = t.pad(t.reshape(v, split), pads, 0.0);
  Shape merged(t.shapeOf(v));
  merged[axis] = length * step;
  return t.sliceAxis(t.reshape(spread, merged), axis, 0,
                     (length - 1) * step + 1);
}

/// Spreads kernel taps `dilation` apart with zeros along the spatial axes
/// (2, 3, ...) of ONNX weights, so a dilated kernel can run undilated.
Value dilateKernel(TosaBuilder &t, Value w, ArrayRef<int64_t> dilations) {
  for (auto [i, d] : llvm::enumerate(dilations))
    w = spreadAxis(t, w, i + 2, d);
  return w;
}

/// ConvTranspose 3-D, for which TOSA has no op: the (channels-last) input
/// spread `stride` apart with zeros, padded by span - 1 - pad_begin before
/// and span - 1 - pad_end + output_padding after, and convolved (conv3d,
/// stride 1) with the dilated kernel flipped along each spatial axis. Input
/// pixel i then meets tap k at output i * stride + k - pad_begin, as in
/// ONNX.
Value convTranspose3D(TosaBuilder &t, Value x, Value w, Value bias,
                      ArrayRef<int64_t> strides, ArrayRef<int64_t> dilations,
                      ArrayRef<int64_t> begin, ArrayRef<int64_t> end,
                      ArrayRef<int64_t> outPadding, ArrayRef<int64_t> out,
                      int64_t group) {
  Value xl = t.toChannelsLast(x); // [N, D, H, W, C_in]
  for (int64_t i = 0; i < 3; ++i)
    xl = spreadAxis(t, xl, i + 1, strides[i]);
  w = dilateKernel(t, w, dilations); // [C_in, C_out / group, kd, kh, kw]
  Shape pads;
  for (int64_t i = 0; i < 3; ++i) {
    int64_t span = t.shapeOf(w)[i + 2];
    w = t.reverse(w, i + 2);
    pads.append({span - 1 - begin[i], span - 1 - end[i] + outPadding[i]});
  }
  int64_t cg = t.shapeOf(w)[0] / group, og = t.shapeOf(w)[1];
  Type elt = t.elementTypeOf(x);
  auto type =
      RankedTensorType::get({t.shapeOf(x)[0], out[0], out[1], out[2], og}, elt);
  Value zp = t.zeroPoint(elt);
  SmallVector<Value> parts;
  for (int64_t g = 0; g < group; ++g) {
    // [C_in/g, C_out/g, kd, kh, kw] -> [C_out/g, kd, kh, kw, C_in/g]
    Value wg = t.transpose(t.sliceAxis(w, 0, g * cg, cg), {1, 2, 3, 4, 0});
    parts.push_back(tosa::Conv3DOp::create(
        t.getBuilder(), t.getLoc(), type, t.sliceAxis(xl, 4, g * cg, cg), wg,
        t.sliceAxis(bias, 0, g * og, og), zp, zp, pads, Shape{1, 1, 1},
        Shape{1, 1, 1}, accumulatorType(elt)));
  }
  return t.toChannelsFirst(t.concat(parts, 4));
}

/// ConvTranspose (1-D, 2-D; 3-D above): tosa.transpose_conv2d places input
/// pixel i at output i * stride + out_pad_before + k, ONNX at i * stride + k -
/// pad_begin, so out_pad = (-pad_begin, output_padding - pad_end). Weights are
/// [C_in, C_out / group, k...] in ONNX and [C_out, k..., C_in] in TOSA;
/// dilation is applied to the weights.
LegalizeResult convTranspose(NodeContext &ctx) {
  if (failed(ctx.requireInputs(2)) ||
      failed(ctx.requireElementType(0, Elt::Float)) ||
      failed(ctx.requireSameElementType(0, 3)))
    return failure();
  TosaBuilder &t = ctx.tosa;
  Value x = ctx.input(0), w = ctx.input(1);
  int64_t rank = t.rankOf(x);
  if (rank < 3 || rank > 5)
    return ctx.fail("only 1-D, 2-D and 3-D transposed convolutions are "
                    "supported (input has rank " +
                    Twine(rank) + ")");
  if (t.rankOf(w) != rank)
    return ctx.fail("weights must have the input's rank");
  if (failed(ctx.requireNonEmpty(t.shapeOf(x))) ||
      failed(ctx.requireNonEmpty(t.shapeOf(w))))
    return failure();
  int64_t n = t.shapeOf(x)[0], cIn = t.shapeOf(x)[1];
  int64_t group = ctx.getInt("group", 1);
  if (group < 1 || cIn % group || t.shapeOf(w)[0] != cIn)
    return ctx.fail("group " + Twine(group) + " does not divide input " +
                    llvm::to_string(x.getType()) + " and weights " +
                    llvm::to_string(w.getType()) + " consistently");
  int64_t og = t.shapeOf(w)[1], cOut = og * group, cg = cIn / group;
  size_t spatial = rank - 2;
  ArrayRef<int64_t> in = t.shapeOf(x).drop_front(2);
  ArrayRef<int64_t> kernel = t.shapeOf(w).drop_front(2);
  if (ctx.hasAttr("kernel_shape") &&
      ArrayRef<int64_t>(ctx.getInts("kernel_shape")) != kernel)
    return ctx.fail("kernel_shape does not match the weights");
  Shape strides = ctx.getInts("strides", Shape(spatial, 1));
  Shape dilations = ctx.getInts("dilations", Shape(spatial, 1));
  Shape outPadding = ctx.getInts("output_padding", Shape(spatial, 0));
  Shape pads = ctx.getInts("pads", Shape(2 * spatial, 0));
  Shape outputShape = ctx.getInts("output_shape");
  if (outputShape.size() == spatial + 2) // some exporters give N and C too
    outputShape.erase(outputShape.begin(), outputShape.begin() + 2);
  std::string autoPad = ctx.getString("auto_pad", "NOTSET");
  if (strides.size() != spatial || dilations.size() != spatial ||
      outPadding.size() != spatial || pads.size() != 2 * spatial ||
      (!outputShape.empty() && outputShape.size() != spatial))
    return ctx.fail("window attributes must have one entry per spatial "
                    "dimension");
  for (size_t i = 0; i < spatial; ++i)
    if (strides[i] < 1 || dilations[i] < 1 || pads[i] < 0 ||
        pads[spatial + i] < 0 || outPadding[i] < 0)
      return ctx.fail("strides and dilations must be positive, pads and "
                      "output_padding not negative");

  // Per spatial dimension: pads (begin, end) and the output size.
  Shape begin(spatial), end(spatial), out(spatial), tosaPads;
  for (size_t i = 0; i < spatial; ++i) {
    int64_t span = (kernel[i] - 1) * dilations[i] + 1;
    int64_t full = strides[i] * (in[i] - 1) + outPadding[i] + span;
    if (!outputShape.empty() || autoPad == "SAME_UPPER" ||
        autoPad == "SAME_LOWER") {
      int64_t target =
          outputShape.empty() ? in[i] * strides[i] : outputShape[i];
      // The odd pad goes last for SAME_UPPER, first otherwise; an output
      // larger than the full result grows at the end (as onnxruntime does).
      int64_t total = full - target;
      end[i] = total < 0                 ? total
               : autoPad == "SAME_UPPER" ? total - total / 2
                                         : total / 2;
      begin[i] = total - end[i];
    } else if (autoPad == "VALID") {
      begin[i] = end[i] = 0;
    } else if (autoPad == "NOTSET") {
      begin[i] = pads[i];
      end[i] = pads[spatial + i];
    } else {
      return ctx.fail("auto_pad '" + autoPad + "' is not supported");
    }
    out[i] = full - begin[i] - end[i];
    if (out[i] < 1 || begin[i] >= span || end[i] - outPadding[i] >= span)
      return ctx.fail("pads larger than the kernel are not supported");
    tosaPads.append({-begin[i], outPadding[i] - end[i]});
  }

  Value bias = ctx.input(2);
  if (!bias)
    bias = t.splat({cOut}, t.elementTypeOf(x), 0);
  else if (ctx.inputShape(2) != ArrayRef<int64_t>{cOut})
    return ctx.fail("bias must have shape [" + Twine(cOut) + "]");
  if (rank == 5)
    return Values{convTranspose3D(t, x, w, bias, strides, dilations, begin, end,
                                  outPadding, out, group)};
  if (rank == 3) {
    x = t.reshape(x, {n, cIn, 1, in[0]});
    w = t.reshape(w, {cIn, og, 1, kernel[0]});
    dilations.insert(dilations.begin(), 1);
    strides.insert(strides.begin(), 1);
    tosaPads.insert(tosaPads.begin(), {0, 0});
    out.insert(out.begin(), 1);
  }
  w = dilateKernel(t, w, dilations);
  Value xl = t.toChannelsLast(x);
  Type elt = t.elementTypeOf(x);
  auto type = RankedTensorType::get({n, out[0], out[1], og}, elt);
  Value zp = t.zeroPoint(elt);
  SmallVector<Value> parts;
  for (int64_t g = 0; g < group; ++g) {
    // [C_in/g, C_out/g, KH, KW] -> [C_out/g, KH, KW, C_in/g]
    Value wg = t.transpose(t.sliceAxis(w, 0, g * cg, cg), {1, 2, 3, 0});
    parts.push_back(tosa::TransposeConv2DOp::create(
        t.getBuilder(), t.getLoc(), type, t.sliceAxis(xl, 3, g * cg, cg), wg,
        t.sliceAxis(bias, 0, g * og, og), zp, zp, tosaPads, strides,
        accumulatorType(elt)));
  }
  Value y = t.toChannelsFirst(t.concat(parts, 3));
  if (rank == 3)
    y = t.reshape(y, {n, cOut, out[1]});
  return Values{y};
}

// clang-format off
const OpLegalization kConv[] = {
    {"Conv", 1, conv},
    {"ConvTranspose", 1, convTranspose},
};
// clang-format on

} // namespace

ArrayRef<OpLegalization> getConvLegalizations() { return kConv; }

} // namespace onnx_tosa
