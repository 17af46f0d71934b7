//===- Window.h - Sliding-window geometry of Conv and Pool ------*- C++ -*-===//
//
// Conv, MaxPool and AveragePool share ONNX's window attributes
// (kernel_shape, strides, dilations, pads, auto_pad, ceil_mode). This computes
// the output size ONNX defines and then fits it to TOSA, whose conv and pool
// ops require (in - 1 + pad_before + pad_after - (k - 1) * d) to be an exact
// multiple of the stride: the trailing padding is reduced (or, where ceil_mode
// needs it, increased) to what the last window actually reads, and input rows
// that no window reads are sliced away.
//
//===----------------------------------------------------------------------===//
#ifndef ONNX_TOSA_CONVERSION_WINDOW_H
#define ONNX_TOSA_CONVERSION_WINDOW_H

#include "conversion/onnx-to-tosa/NodeContext.h"

namespace onnx_tosa {

/// Per spatial dimension, in ONNX's order (D, H, W).
struct Window {
  Shape kernel, strides, dilations;
  Shape padBegin, padEnd; ///< ONNX pads after auto_pad is resolved
  Shape output;           ///< ONNX output size
};

/// Reads the window attributes of `ctx`'s node for an input of spatial size
/// `input` and a kernel of spatial size `kernel` (from the weights for Conv,
/// from kernel_shape for pools). `ceilMode` is the pools' ceil_mode.
mlir::FailureOr<Window> computeWindow(NodeContext &ctx,
                                      llvm::ArrayRef<int64_t> input,
                                      llvm::ArrayRef<int64_t> kernel,
                                      bool ceilMode);

/// Fits `w` to TOSA for a channels-last input `x` ([N, spatial..., C]):
/// slices rows no window reads from `x` and returns TOSA's pad attribute
/// ([before0, after0, before1, after1, ...]).
Shape fitPadsToTosa(TosaBuilder &t, const Window &w, mlir::Value &x);

/// Gives a 1-D window a unit leading spatial dimension (so it runs as 2-D).
void expandWindowTo2D(Window &w);

} // namespace onnx_tosa

#endif // ONNX_TOSA_CONVERSION_WINDOW_H
