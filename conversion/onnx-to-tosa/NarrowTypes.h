//===- NarrowTypes.h - float8, float4, 4- and 2-bit integer data -*- C++
//-*-===//
//
// ONNX's narrow element types (FLOAT8E4M3FN, FLOAT8E4M3FNUZ, FLOAT8E5M2,
// FLOAT8E5M2FNUZ, FLOAT8E8M0, FLOAT4E2M1, INT4, UINT4, INT2, UINT2) have no
// TOSA 1.0 type a GPU can compute in everywhere. Their values are carried at
// run time as their bit patterns, one element per i8 (the code in the low
// bits, the others zero), and the pass remembers which type each such value
// holds (docs/types.md). Only the ops that give the bits a meaning (Cast,
// CastLike, QuantizeLinear, DequantizeLinear) decode and encode them, with
// the helpers here; data movement (Reshape, Transpose, Concat, ...) moves
// the bits as they are.
//
// Both directions are exact and use no bit reinterpretation (TOSA has no
// float <-> integer bitcast):
// * decoding gathers the f32 value of each code from a constant table of
//   all 2^bits codes (NaN, infinities and -0 included);
// * encoding counts the midpoints between consecutive representable
//   magnitudes that |x| lies above (compared with > or >= so that ties go
//   to the even code), which is the code of the correctly rounded magnitude;
//   sign, NaN and overflow are then fixed with selects.
//
//===----------------------------------------------------------------------===//
#ifndef ONNX_TOSA_CONVERSION_NARROWTYPES_H
#define ONNX_TOSA_CONVERSION_NARROWTYPES_H

#include "conversion/onnx-to-tosa/TosaBuilder.h"

namespace onnx_tosa {

/// Whether run-time data of `elementType` is carried as i8 bit patterns:
/// the float8/float4 types and integers of 4 or 2 bits.
bool isNarrowType(mlir::Type elementType);

/// The bit pattern of every element of a constant of narrow element type,
/// as an i8 tensor of the same shape (code in the low bits).
mlir::DenseElementsAttr narrowBitsAttr(mlir::DenseElementsAttr attr);

/// The value of each element of an i8 bits constant holding `narrow` data
/// (exact: every narrow value is a double).
llvm::SmallVector<double> decodeNarrowAttr(mlir::DenseElementsAttr bits,
                                           mlir::Type narrow);

/// Run time: the values of i8 bits `bits` holding `narrow` data, as f32 for
/// the float types and i32 for the integers (exact).
mlir::Value decodeNarrow(TosaBuilder &t, mlir::Value bits, mlir::Type narrow);

/// How FLOAT8E8M0 rounds (Cast's round_mode).
enum class E8M0Rounding { Up, Down, Nearest };

/// Run time: the i8 bits of `narrow` data for `x` (a float, integer or bool
/// tensor), by ONNX's Cast rules:
/// * float8: round to nearest even; with `saturate`, +-FLT_MAX beyond the
///   range (infinities included), else +-Inf (E5M2) or NaN; NaN to NaN;
///   FNUZ types have no -0.
/// * FLOAT4E2M1: round to nearest even, saturating (it has no Inf or NaN;
///   NaN becomes -0, as the reference implementation ml_dtypes does).
/// * FLOAT8E8M0: the power of two `rounding` picks for |x|; with
///   `saturate` kept within [2^-127, 2^127], else NaN beyond it; NaN to NaN.
/// * INT4/UINT4/INT2/UINT2 from floats: truncated toward zero, and 0 when
///   that is out of range or NaN (the spec leaves it undefined; this is the
///   reference's result); from integers: the low bits (two's complement).
mlir::Value encodeNarrow(TosaBuilder &t, mlir::Value x, mlir::Type narrow,
                         bool saturate,
                         E8M0Rounding rounding = E8M0Rounding::Up);

/// Quantization: the i8 bits of `narrow` data for `n` (f32 values that are
/// already integral for the integer types), saturated to the type's range
/// (integers) or converted as encodeNarrow does (floats).
mlir::Value saturateToNarrow(TosaBuilder &t, mlir::Value n, mlir::Type narrow,
                             bool saturate);

} // namespace onnx_tosa

#endif // ONNX_TOSA_CONVERSION_NARROWTYPES_H
