//===- OnnxToTosa.h - Legalize the onnx dialect to TOSA ---------*- C++ -*-===//
#ifndef ONNX_TOSA_CONVERSION_ONNXTOTOSA_H
#define ONNX_TOSA_CONVERSION_ONNXTOTOSA_H

#include "mlir/Pass/Pass.h"
#include <memory>

namespace onnx_tosa {

/// `convert-onnx-to-tosa`: rewrites every onnx.node / onnx.constant /
/// onnx.none of a module into TOSA (plus tensor/arith glue where TOSA has no
/// op), computes every value's static type, and updates the function
/// signatures. Fails with an error naming each node (name, op type, domain,
/// opset) it cannot legalize, and the reason.
std::unique_ptr<mlir::Pass> createConvertOnnxToTosaPass();

/// Registers `convert-onnx-to-tosa` and `onnx-tosa-strip-boundary-casts`
/// (BoundaryCasts.cpp) with the global pass registry.
void registerOnnxToTosaPasses();
void registerBoundaryCastsPass();

} // namespace onnx_tosa

#endif
