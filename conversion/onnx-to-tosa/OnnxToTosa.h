//===- OnnxToTosa.h - Legalize the onnx dialect to TOSA ---------*- C++ -*-===//
#ifndef ONNX_TOSA_CONVERSION_ONNXTOTOSA_H
#define ONNX_TOSA_CONVERSION_ONNXTOTOSA_H

#include "mlir/Pass/Pass.h"
#include <memory>

namespace onnx_tosa {

/// `convert-onnx-to-tosa`: rewrites every onnx.node / onnx.constant /
/// onnx.none of a module into TOSA (plus tensor/arith glue where TOSA has no
/// op), computes every value's static type, and updates the function
/// signatures. Fails with an error naming the node (name, op type, domain,
/// opset) and the reason for the first node it cannot legalize.
std::unique_ptr<mlir::Pass> createConvertOnnxToTosaPass();

/// Registers `convert-onnx-to-tosa` with the global pass registry.
void registerOnnxToTosaPasses();

} // namespace onnx_tosa

#endif
