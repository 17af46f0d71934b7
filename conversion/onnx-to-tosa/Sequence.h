//===- Sequence.h - Sequences and optionals at compile time -----*- C++ -*-===//
//
// TOSA has no sequence or optional types. During the legalization an ONNX
// sequence is an `onnx.sequence` op whose operands are its elements (its
// length is known at compile time), and an optional is an `onnx.optional`
// holding its value or nothing (its presence is known at compile time).
// The sequence handlers (Sequence.cpp) build and read these ops; nothing of
// them reaches TOSA: a sequence graph output becomes one function result per
// element (docs/sequences.md).
//
//===----------------------------------------------------------------------===//
#ifndef ONNX_TOSA_CONVERSION_SEQUENCE_H
#define ONNX_TOSA_CONVERSION_SEQUENCE_H

#include "conversion/onnx-to-tosa/TosaBuilder.h"

#include "mlir/IR/Builders.h"

#include <optional>

namespace onnx_tosa {

/// Whether `type` is !onnx.sequence or !onnx.optional.
bool isSequenceOrOptional(mlir::Type type);

/// The elements of `v` when it is a sequence, else nullopt.
std::optional<llvm::SmallVector<mlir::Value>> sequenceElements(mlir::Value v);

/// When `v` is an optional: its value, or a null Value when it is absent.
/// nullopt when `v` is not an optional.
std::optional<mlir::Value> optionalValue(mlir::Value v);

/// A sequence of `elements` (possibly none).
mlir::Value createSequence(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::ValueRange elements);
/// An optional holding `value`, or absent when `value` is null.
mlir::Value createOptional(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Value value);

/// cond ? onTrue : onFalse for a one-element boolean `cond` (a constant one
/// picks without building anything). Tensors are selected whole; sequences
/// element by element and optionals by their values, which needs the two to
/// have the same structure (length, presence) and element types: fails
/// (with `why`) when they do not.
mlir::FailureOr<mlir::Value> selectValue(TosaBuilder &t, mlir::Value cond,
                                         mlir::Value onTrue,
                                         mlir::Value onFalse, std::string &why);

} // namespace onnx_tosa

#endif // ONNX_TOSA_CONVERSION_SEQUENCE_H
