//===- ExactArithmetic.h - Exactly rounded float32 arithmetic ---*- C++ -*-===//
//
// ONNX's quantization ops are specified by numpy arithmetic: a float32
// division, round half to even, a float64 product. TOSA 1.0 has neither
// float division nor rounding, and its RESCALE takes constant multipliers
// only; these helpers build the same results bit for bit from TOSA ops on
// f32 tensors (numpy broadcasting).
//
//===----------------------------------------------------------------------===//
#ifndef ONNX_TOSA_CONVERSION_EXACTARITHMETIC_H
#define ONNX_TOSA_CONVERSION_EXACTARITHMETIC_H

#include "conversion/onnx-to-tosa/TosaBuilder.h"

namespace onnx_tosa {

/// `fn` evaluated at compile time on f32 constants (float arithmetic, numpy
/// broadcasting), or null when an operand is not a float constant.
mlir::Value foldF32(TosaBuilder &t, mlir::ValueRange operands,
                    llvm::function_ref<float(llvm::ArrayRef<float>)> fn);

/// Round half to even of floating-point `x` (any float type; TOSA has no
/// rounding op, and a CAST to integer and back would saturate outside the
/// i32 range): r = floor(x), d = x - r; r + 1 when d > 0.5 or (d == 0.5 and
/// r is odd).
mlir::Value roundHalfEven(TosaBuilder &t, mlir::Value x);

/// fl(x / s), the correctly rounded f32 quotient, where |x / s| <= 2^17
/// (beyond that, a value of the right sign at least that large: callers
/// saturate). q = x * (1 / s), then one Newton step q + (x - q s) / s whose
/// residual is summed from exact products of 12-bit pieces of q and s.
mlir::Value divideF32(TosaBuilder &t, mlir::Value x, mlir::Value s);

/// round_half_even(acc * m) as f32, exactly, for i32 `acc` and positive f32
/// `m` (broadcast against it), as float64 computes it (exact for |acc| <
/// 2^29). |acc| is cut into 12-bit integers and m into two 12-bit pieces,
/// so the six partial products are exact; each is split into its integer
/// part and 20-bit windows of its fraction, whose sums are exact again.
/// Whether the fraction of the total is above, at or below 1/2 is then the
/// sign of ((R1 - 1/2) + W2) + W3 (R1 the fraction of the first window's
/// sum, W2 and W3 the deeper windows): where it matters each addition is
/// exact, elsewhere only its sign counts, and that is exact. Products that
/// reach 2^21 come out at least that large (they saturate every quantized
/// type); m below 2^-37 falls outside the windows but rounds to 0 anyway.
mlir::Value roundProductF32(TosaBuilder &t, mlir::Value acc, mlir::Value m);

/// fmod(a, b) of floats as C computes it, exactly (the remainder is always
/// representable): |a| reduced by |b| * 2^i for i from the largest with
/// |b| * 2^i <= |a| down to 0, where each subtraction is exact (its
/// operands are within a factor of 2: Sterbenz's lemma), then a's sign;
/// NaN where b is 0 or a is infinite, a where b is infinite. The reduction
/// is unrolled over the whole exponent range (280 steps of elementwise ops
/// for f32 and bf16, 40 for f16), which one fused kernel runs.
mlir::Value exactFmod(TosaBuilder &t, mlir::Value a, mlir::Value b);

} // namespace onnx_tosa

#endif // ONNX_TOSA_CONVERSION_EXACTARITHMETIC_H
