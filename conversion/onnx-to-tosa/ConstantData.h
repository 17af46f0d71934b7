//===- ConstantData.h - Computing with constant tensors ---------*- C++ -*-===//
//
// Compile-time arithmetic on DenseElementsAttr: reading values, building
// tensors of any element type, and rearranging data (transpose, slice,
// concat, tile) so that constant weights and shape computations never reach
// run time.
//
//===----------------------------------------------------------------------===//
#ifndef ONNX_TOSA_CONVERSION_CONSTANTDATA_H
#define ONNX_TOSA_CONVERSION_CONSTANTDATA_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace onnx_tosa {

using Shape = llvm::SmallVector<int64_t>;

/// Element values as doubles / int64 (any float or integer element type).
llvm::SmallVector<double> toDoubles(mlir::DenseElementsAttr attr);
llvm::SmallVector<int64_t> toInts(mlir::DenseElementsAttr attr);

/// One element of type `elementType` (float, integer or i1) holding `value`,
/// rounded to nearest-even (floats) or truncated and wrapped (integers).
mlir::Attribute elementAttr(mlir::Type elementType, double value);

/// A tensor of `type` holding `values` (converted as by elementAttr; a
/// single value is splat).
mlir::DenseElementsAttr fromDoubles(mlir::RankedTensorType type,
                                    llvm::ArrayRef<double> values);
mlir::DenseElementsAttr fromInts(mlir::RankedTensorType type,
                                 llvm::ArrayRef<int64_t> values);

/// Output dim i is input dim perm[i].
mlir::DenseElementsAttr transposeAttr(mlir::DenseElementsAttr attr,
                                      llvm::ArrayRef<int64_t> perm);
mlir::DenseElementsAttr sliceAttr(mlir::DenseElementsAttr attr,
                                  llvm::ArrayRef<int64_t> start,
                                  llvm::ArrayRef<int64_t> size);
mlir::DenseElementsAttr
concatAttr(llvm::ArrayRef<mlir::DenseElementsAttr> attrs, int64_t axis);
mlir::DenseElementsAttr tileAttr(mlir::DenseElementsAttr attr,
                                 llvm::ArrayRef<int64_t> multiples);

/// Row-major strides of an operand of `shape` broadcast to rank `rank`
/// (right-aligned): 0 along its size-1 and missing dimensions.
Shape broadcastStrides(llvm::ArrayRef<int64_t> shape, int64_t rank);

/// Applies `fn` elementwise to integer (or boolean) constants with numpy
/// broadcasting; the result has `outType`, the broadcast shape. Fails when
/// `fn` does (e.g. on a division by zero).
mlir::FailureOr<mlir::DenseElementsAttr> mapIntegers(
    llvm::ArrayRef<mlir::DenseElementsAttr> operands,
    mlir::RankedTensorType outType,
    llvm::function_ref<std::optional<int64_t>(llvm::ArrayRef<int64_t>)> fn);

} // namespace onnx_tosa

#endif // ONNX_TOSA_CONVERSION_CONSTANTDATA_H
