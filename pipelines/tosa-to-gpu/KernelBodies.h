//===- KernelBodies.h - Linalg bodies inlined into hand-built kernels -----===//
//
// What the tensor-core epilogues and the row kernels both do when they
// compute a linalg op inside a gpu.launch of their own: find the buffer a
// view is of, turn an indexing map into buffer indices, and clone the op's
// body for one iteration.
//
//===----------------------------------------------------------------------===//
#ifndef ONNX_TOSA_PIPELINES_KERNELBODIES_H
#define ONNX_TOSA_PIPELINES_KERNELBODIES_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

namespace onnx_tosa {

/// The allocation (or argument) a buffer is a view of, through any chain of
/// views.
mlir::Value viewSource(mlir::Value buffer);

/// The buffer indices `map` gives for the loop indices `loops` (its results
/// are loops and constants).
llvm::SmallVector<mlir::Value> mapIndices(mlir::OpBuilder &b,
                                          mlir::Location loc,
                                          mlir::AffineMap map,
                                          mlir::ArrayRef<mlir::Value> loops);

/// Clones `op`'s body for the iteration `loops`, its block arguments
/// already in `map` (linalg.index becomes the loop's index); returns the
/// values it yields.
llvm::SmallVector<mlir::Value> cloneBody(mlir::OpBuilder &b,
                                         mlir::linalg::LinalgOp op,
                                         mlir::IRMapping &map,
                                         mlir::ArrayRef<mlir::Value> loops);

} // namespace onnx_tosa

#endif
