//===- NarrowTypes.cpp - float8, float4, 4- and 2-bit integer data --------===//
#include "conversion/onnx-to-tosa/NarrowTypes.h"

#include "llvm/ADT/APFloat.h"

#include <cmath>
#include <limits>

using namespace mlir;

namespace onnx_tosa {
namespace {

unsigned widthOf(Type narrow) { return narrow.getIntOrFloatBitWidth(); }
int64_t codeMask(Type narrow) { return (int64_t(1) << widthOf(narrow)) - 1; }

/// The value of bit pattern `code` of `narrow` data.
double codeValue(Type narrow, uint64_t code) {
  unsigned width = widthOf(narrow);
  code &= codeMask(narrow);
  if (auto integer = dyn_cast<IntegerType>(narrow)) {
    if (!integer.isUnsigned() && code >> (width - 1))
      return static_cast<double>(int64_t(code) - (int64_t(1) << width));
    return static_cast<double>(code);
  }
  APFloat f(cast<FloatType>(narrow).getFloatSemantics(), APInt(width, code));
  if (f.isNaN())
    return std::numeric_limits<double>::quiet_NaN();
  bool losesInfo;
  f.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &losesInfo);
  return f.convertToDouble();
}

/// What encoding a signed float format needs to know about it.
struct FloatFormat {
  SmallVector<double> magnitudes; ///< codes 0..maxCode, ascending
  int64_t maxCode = 0;            ///< the largest finite magnitude
  int64_t signBit = 0;
  int64_t nanCode = 0;
  /// Code of a result too large for the format without saturation.
  int64_t overflowCode = 0;
  bool hasNegativeZero = true;
};

FloatFormat floatFormat(Type narrow) {
  FloatFormat f;
  unsigned width = widthOf(narrow);
  f.signBit = int64_t(1) << (width - 1);
  for (int64_t code = 0; code < f.signBit; ++code) {
    double v = codeValue(narrow, code);
    if (!std::isfinite(v))
      break;
    f.magnitudes.push_back(v);
    f.maxCode = code;
  }
  if (isa<Float8E4M3FNUZType, Float8E5M2FNUZType>(narrow)) {
    // No -0: the pattern 0x80 is the only NaN.
    f.hasNegativeZero = false;
    f.nanCode = f.overflowCode = f.signBit;
  } else if (isa<Float8E5M2Type>(narrow)) {
    f.nanCode = 0x7F;
    f.overflowCode = 0x7C; // Inf
  } else if (isa<Float4E2M1FNType>(narrow)) {
    // No Inf or NaN: always saturates; ml_dtypes, ONNX's reference, gives
    // NaN the pattern of -0.
    f.nanCode = f.overflowCode = f.signBit;
  } else { // E4M3FN: one NaN pattern per sign, no Inf
    f.nanCode = f.overflowCode = 0x7F;
  }
  return f;
}

Value i32Scalar(TosaBuilder &t, Value like, int64_t v) {
  return t.splat(Shape(t.rankOf(like), 1), t.getBuilder().getI32Type(),
                 static_cast<double>(v));
}

/// Number of thresholds each element of f32 `a` is above: `strict` ones by
/// >, the others by >=. An i32 tensor of `a`'s shape.
Value countAbove(TosaBuilder &t, Value a, ArrayRef<double> strict,
                 ArrayRef<double> nonStrict) {
  Shape shape(t.shapeOf(a));
  int64_t n = product(shape);
  Value flat = t.reshape(a, {n, 1});
  Type f32 = t.getBuilder().getF32Type(), i32 = t.getBuilder().getI32Type();
  Value one = t.splat({1, 1}, i32, 1), zero = t.splat({1, 1}, i32, 0);
  Value count;
  auto add = [&](ArrayRef<double> thresholds, bool isStrict) {
    if (thresholds.empty())
      return;
    Value table = t.constant(
        fromDoubles(RankedTensorType::get({1, int64_t(thresholds.size())}, f32),
                    thresholds));
    Value above = isStrict ? t.compare<tosa::GreaterOp>(flat, table)
                           : t.compare<tosa::GreaterEqualOp>(flat, table);
    Value c = t.reduceSum(t.select(above, one, zero), {1});
    count = count ? t.add(count, c) : c;
  };
  add(strict, true);
  add(nonStrict, false);
  return t.reshape(count, shape);
}

/// x < 0, or x is -0 (1 / -0 = -Inf): TOSA has no sign-bit test.
Value isNegative(TosaBuilder &t, Value x) {
  Value zero = t.scalarLike(x, 0);
  return t.binary<tosa::LogicalOrOp>(
      t.compare<tosa::GreaterOp>(zero, x),
      t.compare<tosa::GreaterOp>(zero, t.unary<tosa::ReciprocalOp>(x)));
}

Value encodeFloat(TosaBuilder &t, Value x, Type narrow, bool saturate) {
  FloatFormat f = floatFormat(narrow);
  // Midpoint j lies between magnitudes j and j + 1 (the one past the largest
  // is where a wider format would put it). A tie rounds to the even code:
  // up (>=) when j is odd.
  SmallVector<double> down, up;
  for (int64_t j = 0; j <= f.maxCode; ++j) {
    double next = j < f.maxCode ? f.magnitudes[j + 1]
                                : 2 * f.magnitudes[j] - f.magnitudes[j - 1];
    (j % 2 ? up : down).push_back((f.magnitudes[j] + next) / 2);
  }
  Value a = t.abs(x);
  Value code = countAbove(t, a, down, up);
  Value overflow =
      t.compare<tosa::EqualOp>(code, i32Scalar(t, code, f.maxCode + 1));
  code =
      t.select(overflow,
               i32Scalar(t, code, saturate ? f.maxCode : f.overflowCode), code);
  Value negative = isNegative(t, x);
  if (!f.hasNegativeZero) // FNUZ: neither -0 nor a signed NaN
    negative = t.binary<tosa::LogicalAndOp>(
        negative, t.binary<tosa::LogicalAndOp>(
                      t.compare<tosa::GreaterOp>(code, i32Scalar(t, code, 0)),
                      t.compare<tosa::GreaterOp>(
                          i32Scalar(t, code, f.maxCode + 1), code)));
  code = t.add(code, t.select(negative, i32Scalar(t, code, f.signBit),
                              i32Scalar(t, code, 0)));
  Value isNaN = t.unary<tosa::LogicalNotOp>(t.compare<tosa::EqualOp>(x, x));
  return t.select(isNaN, i32Scalar(t, code, f.nanCode), code);
}

/// FLOAT8E8M0: code e is 2^(e - 127) for e in [0, 254], 255 is NaN. As
/// onnx.numpy_helper.to_float8e8m0, the sign is ignored.
Value encodeE8M0(TosaBuilder &t, Value x, bool saturate,
                 E8M0Rounding rounding) {
  SmallVector<double> strict, nonStrict;
  for (int e = 0; e <= 254; ++e) {
    double v = std::ldexp(1.0, e - 127);
    switch (rounding) {
    case E8M0Rounding::Up: // the smallest power of two >= |x|
      strict.push_back(v);
      break;
    case E8M0Rounding::Down: // the largest power of two <= |x|
      if (e > 0)
        nonStrict.push_back(v);
      break;
    case E8M0Rounding::Nearest: // up from 1.5 times a power of two
      nonStrict.push_back(1.5 * v);
      break;
    }
  }
  Value a = t.abs(x);
  Value code = countAbove(t, a, strict, nonStrict);
  if (saturate)
    code = t.minimum(code, i32Scalar(t, code, 254));
  Value special = t.unary<tosa::LogicalNotOp>(t.compare<tosa::EqualOp>(x, x));
  if (!saturate)
    special = t.binary<tosa::LogicalOrOp>(
        special,
        t.compare<tosa::EqualOp>(
            a, t.scalarLike(a, std::numeric_limits<double>::infinity())));
  return t.select(special, i32Scalar(t, code, 255), code);
}

/// `x` as f32 (bool as 0/1; integers rounded to nearest as CAST does).
Value toF32(TosaBuilder &t, Value x) {
  Type f32 = t.getBuilder().getF32Type();
  if (t.elementTypeOf(x).isInteger(1)) {
    Shape ones(t.rankOf(x), 1);
    return t.select(x, t.splat(ones, f32, 1), t.splat(ones, f32, 0));
  }
  return t.cast(x, f32);
}

Value toBits(TosaBuilder &t, Value code) {
  // CAST to a narrower integer keeps the low bits.
  return t.cast(code, t.getBuilder().getI8Type());
}

} // namespace

bool isNarrowType(Type elementType) {
  if (isa<Float8E4M3FNType, Float8E4M3FNUZType, Float8E5M2Type,
          Float8E5M2FNUZType, Float8E8M0FNUType, Float4E2M1FNType>(elementType))
    return true;
  auto integer = dyn_cast<IntegerType>(elementType);
  return integer && (integer.getWidth() == 4 || integer.getWidth() == 2);
}

DenseElementsAttr narrowBitsAttr(DenseElementsAttr attr) {
  Type elt = attr.getElementType();
  int64_t mask = codeMask(elt);
  SmallVector<int64_t> bits;
  if (isa<FloatType>(elt)) {
    for (APFloat v : attr.getValues<APFloat>())
      bits.push_back(int64_t(v.bitcastToAPInt().getZExtValue()) & mask);
  } else {
    for (APInt v : attr.getValues<APInt>())
      bits.push_back(int64_t(v.getZExtValue()) & mask);
  }
  auto type = cast<RankedTensorType>(attr.getType())
                  .clone(IntegerType::get(elt.getContext(), 8));
  return fromInts(type, bits);
}

SmallVector<double> decodeNarrowAttr(DenseElementsAttr bits, Type narrow) {
  SmallVector<double> values;
  for (int64_t code : toInts(bits))
    values.push_back(codeValue(narrow, uint64_t(code)));
  return values;
}

Value decodeNarrow(TosaBuilder &t, Value bits, Type narrow) {
  OpBuilder &b = t.getBuilder();
  Type valueType =
      isa<FloatType>(narrow) ? Type(b.getF32Type()) : Type(b.getI32Type());
  Shape shape(t.shapeOf(bits));
  if (std::optional<DenseElementsAttr> c = t.constantValue(bits))
    return t.constant(fromDoubles(RankedTensorType::get(shape, valueType),
                                  decodeNarrowAttr(*c, narrow)));
  // The value of every code, gathered by code (masked, so always in range).
  int64_t codes = codeMask(narrow) + 1;
  SmallVector<double> table;
  for (int64_t code = 0; code < codes; ++code)
    table.push_back(codeValue(narrow, code));
  Value values = t.constant(
      fromDoubles(RankedTensorType::get({1, codes, 1}, valueType), table));
  int64_t n = product(shape);
  Value index = t.binary<tosa::BitwiseAndOp>(
      t.cast(t.reshape(bits, {1, n}), b.getI32Type()),
      t.splat({1, 1}, b.getI32Type(), static_cast<double>(codes - 1)));
  Value gathered = tosa::GatherOp::create(
      b, t.getLoc(), RankedTensorType::get({1, n, 1}, valueType), values,
      index);
  return t.reshape(gathered, shape);
}

Value encodeNarrow(TosaBuilder &t, Value x, Type narrow, bool saturate,
                   E8M0Rounding rounding) {
  OpBuilder &b = t.getBuilder();
  Type from = t.elementTypeOf(x);
  if (auto integer = dyn_cast<IntegerType>(narrow)) {
    Value v;
    if (isa<FloatType>(from)) {
      // Truncated toward zero; out of range (or NaN) gives 0.
      Value f = t.cast(x, b.getF32Type());
      Value truncated =
          t.select(t.compare<tosa::GreaterEqualOp>(f, t.scalarLike(f, 0)),
                   t.unary<tosa::FloorOp>(f), t.unary<tosa::CeilOp>(f));
      unsigned width = integer.getWidth();
      double lo = integer.isUnsigned() ? 0 : -std::ldexp(1.0, width - 1);
      double hi = integer.isUnsigned() ? std::ldexp(1.0, width) - 1
                                       : std::ldexp(1.0, width - 1) - 1;
      Value inRange = t.binary<tosa::LogicalAndOp>(
          t.compare<tosa::GreaterEqualOp>(truncated, t.scalarLike(f, lo)),
          t.compare<tosa::GreaterEqualOp>(t.scalarLike(f, hi), truncated));
      v = t.cast(t.select(inRange, truncated, t.scalarLike(f, 0)),
                 b.getI32Type());
    } else if (from.isInteger(1)) {
      Shape ones(t.rankOf(x), 1);
      v = t.select(x, t.splat(ones, b.getI32Type(), 1),
                   t.splat(ones, b.getI32Type(), 0));
    } else {
      v = t.cast(x, b.getI32Type());
    }
    return toBits(
        t, t.binary<tosa::BitwiseAndOp>(v, i32Scalar(t, v, codeMask(narrow))));
  }
  Value f = toF32(t, x);
  if (isa<Float8E8M0FNUType>(narrow))
    return toBits(t, encodeE8M0(t, f, saturate, rounding));
  // FLOAT4E2M1 has no Inf or NaN to fall back to: saturate has no effect.
  return toBits(
      t, encodeFloat(t, f, narrow, saturate || isa<Float4E2M1FNType>(narrow)));
}

Value saturateToNarrow(TosaBuilder &t, Value n, Type narrow, bool saturate) {
  auto integer = dyn_cast<IntegerType>(narrow);
  if (!integer)
    return encodeNarrow(t, n, narrow, saturate);
  unsigned width = integer.getWidth();
  double lo = integer.isUnsigned() ? 0 : -std::ldexp(1.0, width - 1);
  double hi = integer.isUnsigned() ? std::ldexp(1.0, width) - 1
                                   : std::ldexp(1.0, width - 1) - 1;
  return encodeNarrow(t, t.clamp(n, lo, hi), narrow, saturate);
}

} // namespace onnx_tosa
