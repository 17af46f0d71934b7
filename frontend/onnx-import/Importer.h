//===- Importer.h - ONNX ModelProto to the onnx dialect ---------*- C++ -*-===//
#ifndef ONNX_TOSA_FRONTEND_IMPORTER_H
#define ONNX_TOSA_FRONTEND_IMPORTER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <string>
#include <vector>

namespace onnx_tosa {

/// One value a graph input is specialized to (--freeze-input).
struct FrozenValue {
  int32_t dataType = 0; ///< ONNX TensorProto.DataType
  std::vector<int64_t> shape;
  std::string bytes; ///< C-order little-endian elements (bool: one byte each)
};

struct ImportOptions {
  /// Shapes that replace the declared shape of graph inputs (needed for
  /// symbolic dimensions such as "batch"): input name → dimensions.
  llvm::StringMap<std::vector<int64_t>> inputShapes;
  /// Values of symbolic dimensions (--dim NAME=V): every dimension the
  /// model names NAME, in graph inputs, outputs and value_info, is V.
  llvm::StringMap<int64_t> dimValues;
  /// Graph inputs replaced by constants: the model is compiled for this one
  /// value (inputs TOSA needs at compile time, such as axes or pads, that
  /// the model passes at run time). They leave the function signature.
  llvm::StringMap<FrozenValue> frozenInputs;
  /// Number of elements of sequence graph inputs (--sequence-length): a
  /// sequence input NAME becomes the arguments NAME.0 ... NAME.(N-1), whose
  /// shapes --input-shape NAME.K=... fixes where the model's element type
  /// has none (docs/sequences.md).
  llvm::StringMap<int64_t> sequenceLengths;
  /// Optional graph inputs compiled as absent (--absent-input); the others
  /// are compiled as present.
  llvm::StringSet<> absentInputs;
};

/// Function result attribute of a graph output that is a sequence or an
/// optional: the element type the model declares for its tensors (the
/// legalization widens demoted elements back to it).
inline constexpr llvm::StringLiteral kDeclaredElementTypeAttr =
    "onnx.declared_element_type";

/// Reads the ONNX model at `path` (and external-data files next to it) into a
/// module holding `func.func @main` made of onnx dialect ops. On failure
/// returns null and sets `error` to a one-line message naming the file, node,
/// tensor or input at fault.
mlir::OwningOpRef<mlir::ModuleOp> importOnnxModel(mlir::MLIRContext &ctx,
                                                  llvm::StringRef path,
                                                  const ImportOptions &options,
                                                  std::string &error);

/// Parses "1x3x224x224" (also "" for a scalar) into dimensions.
bool parseShape(llvm::StringRef text, std::vector<int64_t> &dims);

} // namespace onnx_tosa

#endif // ONNX_TOSA_FRONTEND_IMPORTER_H
