//===- Pool.cpp - MaxPool, AveragePool, GlobalAveragePool, GlobalMaxPool --===//
//
// TOSA pools are 2-D and channels-last; 1-D pools run over a unit height.
// TOSA's max_pool2d never selects padding, and its avg_pool2d divides by the
// number of input (non-padding) elements in each window — ONNX's
// count_include_pad = 0. For count_include_pad = 1 the ONNX padding is
// materialized with tosa.pad first so that it counts; the padding ceil_mode
// adds past it is still left out, as onnxruntime does.
//
//===----------------------------------------------------------------------===//
#include "conversion/onnx-to-tosa/Window.h"

using namespace mlir;

namespace onnx_tosa {
namespace {

enum class PoolKind { Max, Average };

template <PoolKind Kind> LegalizeResult pool(NodeContext &ctx) {
  // Max pooling is also defined on int8 (TOSA's integer profile).
  Elt kind = Kind == PoolKind::Max ? Elt::Number : Elt::Float;
  if (failed(ctx.requireInputs(1)) || failed(ctx.requireElementType(0, kind)))
    return failure();
  if (ctx.outputUsed(1))
    return ctx.fail("the Indices output is not supported");
  TosaBuilder &t = ctx.tosa;
  Value x = ctx.input(0);
  int64_t rank = t.rankOf(x);
  if (rank != 3 && rank != 4)
    return ctx.fail("only 1-D and 2-D pooling is supported (input has rank " +
                    Twine(rank) + ")");
  Shape kernel = ctx.getInts("kernel_shape");
  if (static_cast<int64_t>(kernel.size()) != rank - 2)
    return ctx.fail("kernel_shape must have one entry per spatial dimension");
  FailureOr<Window> win = computeWindow(ctx, t.shapeOf(x).drop_front(2), kernel,
                                        ctx.getInt("ceil_mode", 0));
  if (failed(win))
    return failure();
  if (llvm::any_of(win->dilations, [](int64_t d) { return d != 1; }))
    return ctx.fail("dilations other than 1 are not supported");
  for (size_t i = 0; i < kernel.size(); ++i)
    if (win->padBegin[i] >= kernel[i] || win->padEnd[i] >= kernel[i])
      return ctx.fail("pads must be smaller than the kernel");

  ArrayRef<int64_t> shape = t.shapeOf(x);
  int64_t n = shape[0], c = shape[1];
  if (rank == 3) {
    x = t.reshape(x, {n, c, 1, shape[2]});
    expandWindowTo2D(*win);
  }
  Value xl = t.toChannelsLast(x);
  bool includePad =
      Kind == PoolKind::Average && ctx.getInt("count_include_pad", 0) != 0;
  if (includePad) {
    xl = t.pad(xl,
               {0, 0, win->padBegin[0], win->padEnd[0], win->padBegin[1],
                win->padEnd[1], 0, 0},
               0.0);
    win->padBegin.assign(2, 0);
    win->padEnd.assign(2, 0);
  }
  Shape pads = fitPadsToTosa(t, *win, xl);

  Type elt = t.elementTypeOf(xl);
  auto type =
      RankedTensorType::get({n, win->output[0], win->output[1], c}, elt);
  OpBuilder &b = t.getBuilder();
  Value y;
  if (Kind == PoolKind::Max) {
    y = tosa::MaxPool2dOp::create(b, t.getLoc(), type, xl, win->kernel,
                                  win->strides, pads);
  } else {
    Value zp = t.zeroPoint(elt);
    y = tosa::AvgPool2dOp::create(b, t.getLoc(), type, xl, zp, zp, win->kernel,
                                  win->strides, pads, b.getF32Type());
  }
  y = t.toChannelsFirst(y);
  if (rank == 3)
    y = t.reshape(y, {n, c, win->output[1]});
  return Values{y};
}

/// GlobalAveragePool / GlobalMaxPool: reduce every spatial dimension, kept
/// as 1.
template <PoolKind Kind> LegalizeResult globalPool(NodeContext &ctx) {
  if (failed(ctx.requireInputs(1)) ||
      failed(ctx.requireElementType(0, Elt::Float)))
    return failure();
  int64_t rank = ctx.inputRank(0);
  if (rank < 3)
    return ctx.fail("input must have rank at least 3 (N, C, spatial...)");
  Shape axes;
  for (int64_t d = 2; d < rank; ++d)
    axes.push_back(d);
  Value x = ctx.input(0);
  if (Kind == PoolKind::Max)
    return Values{ctx.tosa.reduceMax(x, axes)};
  return Values{ctx.tosa.reduceMean(x, axes)};
}

// clang-format off
const OpLegalization kPool[] = {
    {"MaxPool", 1, pool<PoolKind::Max>},
    {"AveragePool", 1, pool<PoolKind::Average>},
    {"GlobalAveragePool", 1, globalPool<PoolKind::Average>},
    {"GlobalMaxPool", 1, globalPool<PoolKind::Max>},
};
// clang-format on

} // namespace

ArrayRef<OpLegalization> getPoolLegalizations() { return kPool; }

} // namespace onnx_tosa
