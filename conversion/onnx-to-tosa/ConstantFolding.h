//===- ConstantFolding.h - Folding legalized nodes to constants -*- C++ -*-===//
//
// Exported models compute shapes with small int64 subgraphs (Shape, Slice,
// Neg, Concat, Gather, ConstantOfShape, ...). When every input of a node is a
// small compile-time constant, what its handler built is evaluated here, at
// compile time, and the node's results become tosa.const: later nodes that
// need constants (shapes, axes, pads) get them, and int64 values stay exact
// because nothing of them reaches run time.
//
// Empty tensors (a zero dimension) have no data at all, so they are always
// compile-time constants; TOSA cannot hold them at run time, but they vanish
// in Concat, Shape and Size.
//
//===----------------------------------------------------------------------===//
#ifndef ONNX_TOSA_CONVERSION_CONSTANTFOLDING_H
#define ONNX_TOSA_CONVERSION_CONSTANTFOLDING_H

#include "conversion/onnx-to-tosa/TosaBuilder.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/SmallVector.h"

namespace onnx_tosa {

/// Node inputs and results larger than this are data, not shapes: they are
/// computed at run time.
constexpr int64_t kMaxFoldedElements = 4096;

/// A tosa.const of `type`, which has no elements.
mlir::Value createEmptyConstant(mlir::OpBuilder &b, mlir::Location loc,
                                mlir::RankedTensorType type);
/// The same, of `shape` (with a zero dimension) and `elementType`: what a
/// handler returns for an output that is empty.
mlir::Value createEmptyConstant(TosaBuilder &t, llvm::ArrayRef<int64_t> shape,
                                mlir::Type elementType);

/// Replaces each of `results` that has no elements (and is not yet a
/// constant) by an empty tosa.const built at `b`. Returns whether any was.
bool replaceEmptyResults(mlir::OpBuilder &b, mlir::Location loc,
                         llvm::MutableArrayRef<mlir::Value> results);

/// When every value in `inputs` is a small tosa.const, evaluates the ops of
/// `created` that `results` depend on with the TOSA reference evaluator and
/// replaces those results by tosa.const built at `b`. Leaves everything as
/// it is (and returns false) when an op cannot be evaluated exactly: an op
/// the evaluator lacks, an invalid op, an ERROR_IF or a failed REQUIRE of the
/// specification (division by zero, overflow), or data too large.
bool foldToConstants(mlir::OpBuilder &b, mlir::Location loc,
                     mlir::ValueRange inputs,
                     llvm::ArrayRef<mlir::Operation *> created,
                     llvm::MutableArrayRef<mlir::Value> results);

} // namespace onnx_tosa

#endif // ONNX_TOSA_CONVERSION_CONSTANTFOLDING_H
