//===- BoundedSizes.h - Ops that keep a data-dependent size -----*- C++ -*-===//
//
// An output whose size depends on the data (NodeContext::setOutputCount)
// has its upper bound as shape and holds the real array's elements first.
// Where the varying dimension is the outermost one that is not 1, that
// layout is also the bounded array's, row by row: rows past the count are
// padding. Ops that compute each output row from the same input row (and
// from operands that do not vary along that dimension) then produce the
// real array first too, with the same count: elementwise ops, reshapes that
// keep the rows, Gather and Slice across the rows, Gather by bounded
// indices. The legalization asks this file which dimension of each result
// is bounded, or why the op cannot keep the count.
//
//===----------------------------------------------------------------------===//
#ifndef ONNX_TOSA_CONVERSION_BOUNDEDSIZES_H
#define ONNX_TOSA_CONVERSION_BOUNDEDSIZES_H

#include "frontend/onnx-import/OnnxDialect.h"

#include <optional>
#include <string>

namespace onnx_tosa {

/// The bounded dimension of each result of `node`, which has been
/// legalized into `results`, given that of each of its inputs (nullopt:
/// the input's size does not vary; at least one does, all by one count).
/// Fails, with `why`, when the op does not keep rows in order.
mlir::FailureOr<llvm::SmallVector<std::optional<unsigned>>>
boundedDimsOfResults(onnx::NodeOp node, llvm::ArrayRef<mlir::Value> results,
                     llvm::ArrayRef<std::optional<unsigned>> inputDims,
                     std::string &why);

class TosaBuilder;

/// Whether `node` is a Transpose that swaps the two dimensions of a 2-D
/// value whose size varies along the second (NonZero's [rank, n], which
/// exporters transpose to index with GatherND: x[mask]).
bool isBoundedTranspose(onnx::NodeOp node, std::optional<unsigned> inputDim);

/// That transpose, of `in` (the real [rows, count] array first, then the
/// other entries as [rows, n - count], as the data-dependent ops leave
/// it) into [n, rows] with the real [count, rows] first; the padding rows
/// are made of those other entries, so that each column keeps values of
/// its own row (NonZero: valid coordinates of its dimension). One
/// tosa.gather with indices computed from the run-time `count`.
mlir::Value transposeBounded(TosaBuilder &t, mlir::Value in,
                             mlir::Value count);

} // namespace onnx_tosa

#endif // ONNX_TOSA_CONVERSION_BOUNDEDSIZES_H
