//===- Conv.cpp - Conv (1-D, 2-D, 3-D; grouped and depthwise) -------------===//
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
    return tosa::Conv2DOp::create(b, t.getLoc(), type, x, w, bias, zp, zp,
                                  pads, win.strides, win.dilations,
                                  accumulatorType(elt));
  return tosa::Conv3DOp::create(b, t.getLoc(), type, x, w, bias, zp, zp, pads,
                                win.strides, win.dilations,
                                accumulatorType(elt));
}

/// depthwise_conv2d: ONNX weights [C * M, 1, KH, KW] become [KH, KW, C, M];
/// output channel c * M + m is the m-th filter of input channel c in both.
Value depthwise(TosaBuilder &t, Value x, Value w, Value bias,
                const Window &win, ArrayRef<int64_t> pads) {
  int64_t c = t.shapeOf(x).back();
  int64_t o = t.shapeOf(w)[0];
  ArrayRef<int64_t> k = t.shapeOf(w).drop_front(2);
  Value hwcm = t.transpose(t.reshape(w, {c, o / c, k[0], k[1]}), {2, 3, 0, 1});
  Type elt = t.elementTypeOf(x);
  auto type = RankedTensorType::get(
      {t.shapeOf(x)[0], win.output[0], win.output[1], o}, elt);
  Value zp = t.zeroPoint(elt);
  return tosa::DepthwiseConv2DOp::create(
      t.getBuilder(), t.getLoc(), type, x, hwcm, bias, zp, zp, pads,
      win.strides, win.dilations, accumulatorType(elt));
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
                    "has rank " + Twine(rank) + ")");
  if (t.rankOf(w) != rank)
    return ctx.fail("weights must have the input's rank");
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
      parts.push_back(convChannelsLast(
          t, t.sliceAxis(xl, channelAxis, g * cg, cg),
          t.sliceAxis(wl, 0, g * og, og), t.sliceAxis(bias, 0, g * og, og),
          *win, pads));
    y = t.concat(parts, channelAxis);
  }
  y = t.toChannelsFirst(y);
  if (is1D)
    y = t.reshape(y, {n, cOut, win->output[1]});
  return Values{y};
}

const OpLegalization kConv[] = {
    {"Conv", 1, conv},
};

} // namespace

ArrayRef<OpLegalization> getConvLegalizations() { return kConv; }

} // namespace onnx_tosa
