//===- Quantization.cpp - Quantize/DequantizeLinear, integer MatMul/Conv --===//
//
// Linear quantization: QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear,
// MatMulInteger, ConvInteger, QLinearMatMul and QLinearConv.
//
// ONNX's scales and zero points are usually graph inputs (run-time data),
// which tosa.rescale cannot take (its multiplier and shift must be
// constants, and it rounds ties upward), so everything is computed in f32,
// where the reference semantics can be reproduced bit for bit:
//
// * Integers up to 2^24 are exact in f32, so x - zero_point and the
//   integer products and sums of MatMulInteger / ConvInteger are exact as
//   long as no partial sum reaches 2^24; larger reductions are split into
//   digits (integerProduct).
// * QuantizeLinear rounds fl(x / scale) (the float32 quotient, as numpy
//   does) half to even; TOSA has no float division, ExactArithmetic.h
//   builds the correctly rounded quotient.
// * QLinearMatMul / QLinearConv round acc * multiplier, which ONNX's
//   reference evaluates in float64, where it is exact: ExactArithmetic.h
//   rounds the exact product. (tosa.rescale computes such products in
//   integers, but TOSA requires its multiplier and shift to be constants.)
//
// Unsigned data is carried as i32 (docs/types.md); for these ops the
// quantized types are int8/uint8 (and int16/uint16 for Quantize/Dequantize),
// so an i32 operand is unsigned data and the declared output type tells
// uint8 from uint16 where it matters. QuantizeLinear and DequantizeLinear
// also take the narrow types (float8, float4, 4- and 2-bit integers),
// carried as bit patterns and decoded / encoded by NarrowTypes.h.
//
//===----------------------------------------------------------------------===//
#include "conversion/onnx-to-tosa/ExactArithmetic.h"
#include "conversion/onnx-to-tosa/NarrowTypes.h"
#include "conversion/onnx-to-tosa/Window.h"

#include <cmath>

using namespace mlir;

namespace onnx_tosa {
namespace {

Type f32(TosaBuilder &t) { return t.getBuilder().getF32Type(); }

/// f32 `v` rounded to float type `type` and back: numpy computes float16
/// (bfloat16) operations in float32 and rounds each result. Constants are
/// rounded at compile time.
Value roundToType(TosaBuilder &t, Value v, Type type) {
  if (type.isF32())
    return v;
  const llvm::fltSemantics &semantics =
      cast<FloatType>(type).getFloatSemantics();
  if (Value folded = foldF32(t, {v}, [&](ArrayRef<float> x) {
        APFloat f(x[0]);
        bool losesInfo;
        f.convert(semantics, APFloat::rmNearestTiesToEven, &losesInfo);
        f.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven,
                  &losesInfo);
        return f.convertToFloat();
      }))
    return folded;
  return t.cast(t.cast(v, type), f32(t));
}

/// a * b in f32; constants at compile time.
Value mulF32(TosaBuilder &t, Value a, Value b) {
  if (Value folded =
          foldF32(t, {a, b}, [](ArrayRef<float> v) { return v[0] * v[1]; }))
    return folded;
  return t.mul(a, b);
}

//===----------------------------------------------------------------------===//
// Operands
//===----------------------------------------------------------------------===//

/// The declared element type of output `i`, or null.
Type declaredOutputType(NodeContext &ctx, unsigned i) {
  auto type = dyn_cast<TensorType>(ctx.getNode().getOutputs()[i].getType());
  return type ? type.getElementType() : Type();
}

/// Present input `i` as f32 (integers exact below 2^24); constants are
/// converted at compile time (which also reads unsigned constants).
Value inputF32(NodeContext &ctx, unsigned i) {
  TosaBuilder &t = ctx.tosa;
  if (Type narrow = ctx.narrowInputType(i)) {
    auto type = RankedTensorType::get(ctx.inputShape(i), f32(t));
    if (std::optional<DenseElementsAttr> c = ctx.constantInput(i))
      return t.constant(fromDoubles(type, decodeNarrowAttr(*c, narrow)));
    return t.cast(decodeNarrow(t, ctx.input(i), narrow), f32(t));
  }
  if (std::optional<DenseElementsAttr> c = ctx.constantInput(i))
    return t.constant(fromDoubles(
        RankedTensorType::get(ctx.inputShape(i), f32(t)), toDoubles(*c)));
  return t.cast(ctx.input(i), f32(t));
}

/// The ONNX element type of quantized input `i` (int8/uint8/int16/uint16
/// data: i8 and i16 are signed, an i32 run-time value is unsigned data of
/// `unsignedType`).
Type quantizedInputType(NodeContext &ctx, unsigned i, Type unsignedType) {
  if (Type narrow = ctx.narrowInputType(i))
    return narrow;
  std::optional<DenseElementsAttr> c = ctx.constantInput(i);
  Type elt = c ? c->getElementType() : ctx.inputType(i).getElementType();
  return elt.isInteger(32) ? unsignedType : elt;
}

/// Fails unless present input `i` holds integers (signed or unsigned).
LogicalResult requireIntegerData(NodeContext &ctx, unsigned i) {
  Type elt = ctx.inputType(i).getElementType();
  if (isa<IntegerType>(elt) && !elt.isInteger(1))
    return success();
  return ctx.fail("input " + Twine(i) + " has element type " +
                  llvm::to_string(elt) + "; an integer type is required");
}

bool isQuantizedIntegerType(Type elt) {
  auto integer = dyn_cast<IntegerType>(elt);
  return integer && !integer.isSigned() &&
         (integer.getWidth() == 8 || integer.getWidth() == 16);
}

/// [lo, hi] of an 8- or 16-bit integer type.
std::pair<double, double> rangeOf(Type elt) {
  unsigned width = elt.getIntOrFloatBitWidth();
  if (elt.isUnsignedInteger())
    return {0, std::ldexp(1.0, width) - 1};
  return {-std::ldexp(1.0, width - 1), std::ldexp(1.0, width - 1) - 1};
}

/// `n` (integral f32 values) saturated to `elt`'s range and converted to
/// the type `elt` is computed in (i32 for unsigned types).
Value saturateTo(TosaBuilder &t, Value n, Type elt) {
  auto [lo, hi] = rangeOf(elt);
  return t.cast(t.clamp(n, lo, hi), demotedElementType(elt));
}

/// Scale or zero point `v` shaped to broadcast against `shape`: a scalar (or
/// one element), a 1-D tensor along `axis`, or with blockSize > 0 a tensor
/// of `shape` except ceil(shape[axis] / blockSize) along `axis`, each
/// element repeated blockSize times.
FailureOr<Value> expandParameter(NodeContext &ctx, Value v,
                                 ArrayRef<int64_t> shape, int64_t axis,
                                 int64_t blockSize, StringRef what) {
  TosaBuilder &t = ctx.tosa;
  int64_t rank = shape.size();
  if (product(t.shapeOf(v)) == 1)
    return t.reshape(v, Shape(rank, 1));
  std::optional<int64_t> a = normalizeAxis(axis, rank);
  if (!a)
    return ctx.fail("axis " + Twine(axis) + " is out of range");
  if (blockSize <= 0) {
    if (t.rankOf(v) != 1 || t.shapeOf(v)[0] != shape[*a])
      return ctx.fail(what + " must be a scalar or have " + Twine(shape[*a]) +
                      " elements (per-axis quantization along axis " +
                      Twine(*a) + ")");
    Shape target(rank, 1);
    target[*a] = shape[*a];
    return t.reshape(v, target);
  }
  Shape blocks(shape);
  blocks[*a] = (shape[*a] + blockSize - 1) / blockSize;
  if (t.shapeOf(v) != ArrayRef<int64_t>(blocks))
    return ctx.fail(what + " of type " + llvm::to_string(v.getType()) +
                    " does not fit blocks of " + Twine(blockSize) +
                    " along axis " + Twine(*a));
  Shape split(blocks);
  split.insert(split.begin() + *a + 1, 1);
  Shape multiples(rank + 1, 1);
  multiples[*a + 1] = blockSize;
  Shape repeated(blocks);
  repeated[*a] *= blockSize;
  Value r = t.reshape(t.tile(t.reshape(v, split), multiples), repeated);
  return t.sliceAxis(r, *a, 0, shape[*a]);
}

/// Scale, zero point (or null) of input `first` and `first + 1`, as f32
/// shaped against `shape` (attributes axis and block_size).
LogicalResult readScaleAndZeroPoint(NodeContext &ctx, unsigned first,
                                    ArrayRef<int64_t> shape, Value &scale,
                                    Value &zeroPoint) {
  int64_t axis = ctx.getInt("axis", 1);
  int64_t blockSize = ctx.getInt("block_size", 0);
  FailureOr<Value> s = expandParameter(ctx, inputF32(ctx, first), shape, axis,
                                       blockSize, "the scale");
  if (failed(s))
    return failure();
  scale = *s;
  zeroPoint = {};
  if (!ctx.hasInput(first + 1))
    return success();
  FailureOr<Value> z = expandParameter(ctx, inputF32(ctx, first + 1), shape,
                                       axis, blockSize, "the zero point");
  if (failed(z))
    return failure();
  zeroPoint = *z;
  return success();
}

//===----------------------------------------------------------------------===//
// QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear
//===----------------------------------------------------------------------===//

/// The element type QuantizeLinear produces: the declared output type, else
/// output_dtype, else the zero point's type, else uint8.
FailureOr<Type> quantizeOutputType(NodeContext &ctx) {
  Type elt = declaredOutputType(ctx, 0);
  if (!elt && ctx.getInt("output_dtype", 0)) {
    elt = onnxElementType(ctx.getLoc().getContext(),
                          ctx.getInt("output_dtype", 0));
    if (!elt)
      return ctx.fail("output_dtype " + Twine(ctx.getInt("output_dtype", 0)) +
                      " is not supported");
  }
  if (!elt && ctx.hasInput(2)) {
    elt = quantizedInputType(ctx, 2, Type());
    if (!elt)
      return ctx.fail("the output type must be declared: a run-time uint8 or "
                      "uint16 zero point is carried as i32, which does not "
                      "say which");
  }
  if (!elt)
    elt = IntegerType::get(ctx.getLoc().getContext(), 8, IntegerType::Unsigned);
  if (!isQuantizedIntegerType(elt) && !isNarrowType(elt))
    return ctx.fail("quantization to " + llvm::to_string(elt) +
                    " is not supported (int8, uint8, int16, uint16, float8, "
                    "float4, 4- and 2-bit integers only)");
  return elt;
}

/// y = saturate(round_half_even(x / scale) + zero_point). The quotient is
/// rounded as numpy computes it: in the wider of x's and scale's types (or
/// `precision`), so an f16 quotient is rounded to f16 first.
LegalizeResult quantizeLinear(NodeContext &ctx) {
  if (failed(ctx.requireInputs(2)) ||
      failed(ctx.requireElementType(0, Elt::Float)) ||
      failed(ctx.requireElementType(1, Elt::Float)))
    return failure();
  FailureOr<Type> outType = quantizeOutputType(ctx);
  if (failed(outType))
    return failure();
  TosaBuilder &t = ctx.tosa;
  Type xType = ctx.inputType(0).getElementType();
  Type sType = ctx.inputType(1).getElementType();
  // numpy's type promotion: the wider type; float16 with bfloat16 is f32.
  unsigned xWidth = xType.getIntOrFloatBitWidth();
  unsigned sWidth = sType.getIntOrFloatBitWidth();
  Type precision = xType == sType    ? xType
                   : xWidth > sWidth ? xType
                   : sWidth > xWidth ? sType
                                     : f32(t);
  if (int64_t p = ctx.getInt("precision", 0)) {
    precision = onnxElementType(ctx.getLoc().getContext(), p);
    // A float64 quotient would round differently near ties than the f32
    // one computed here.
    if (!precision || !isa<FloatType>(precision) || precision.isF64())
      return ctx.fail("precision " + Twine(p) +
                      " is not supported (float32, float16, bfloat16 only)");
  }

  ArrayRef<int64_t> shape = ctx.inputShape(0);
  Value scale, zeroPoint;
  if (failed(readScaleAndZeroPoint(ctx, 1, shape, scale, zeroPoint)))
    return failure();
  if (precision != sType)
    scale = roundToType(t, scale, precision);
  Value x = t.cast(ctx.input(0), f32(t));
  if (precision != xType)
    x = roundToType(t, x, precision);
  Value q = roundToType(t, divideF32(t, x, scale), precision);
  ctx.setOutputElementType(0, *outType);
  bool saturate = ctx.getInt("saturate", 1) != 0;
  if (isa<FloatType>(*outType)) // float8/float4: rounded by the conversion
    return Values{encodeNarrow(t, zeroPoint ? t.add(q, zeroPoint) : q, *outType,
                               saturate)};
  Value n = roundHalfEven(t, q);
  if (zeroPoint)
    n = t.add(n, zeroPoint);
  if (isNarrowType(*outType))
    return Values{saturateToNarrow(t, n, *outType, saturate)};
  return Values{saturateTo(t, n, *outType)};
}

/// y = (x - zero_point) * scale, in f32 (x - zero_point is exact), rounded
/// to the scale's type (or output_dtype).
LegalizeResult dequantizeLinear(NodeContext &ctx) {
  if (failed(ctx.requireInputs(2)) || failed(requireIntegerData(ctx, 0)) ||
      failed(ctx.requireElementType(1, Elt::Float)))
    return failure();
  TosaBuilder &t = ctx.tosa;
  Type outType = ctx.inputType(1).getElementType();
  if (int64_t dtype = ctx.getInt("output_dtype", 0)) {
    outType = onnxElementType(ctx.getLoc().getContext(), dtype);
    if (!outType || !isa<FloatType>(outType))
      return ctx.fail("output_dtype " + Twine(dtype) + " is not supported");
    outType = demotedElementType(outType);
  }
  ArrayRef<int64_t> shape = ctx.inputShape(0);
  Value scale, zeroPoint;
  if (failed(readScaleAndZeroPoint(ctx, 1, shape, scale, zeroPoint)))
    return failure();
  Value x = inputF32(ctx, 0);
  // Quantized weights are dequantized at compile time.
  Value y =
      zeroPoint
          ? foldF32(t, {x, zeroPoint, scale},
                    [](ArrayRef<float> v) { return (v[0] - v[1]) * v[2]; })
          : foldF32(t, {x, scale},
                    [](ArrayRef<float> v) { return v[0] * v[1]; });
  if (y)
    return Values{t.constant(fromDoubles(RankedTensorType::get(shape, outType),
                                         toDoubles(*t.constantValue(y))))};
  if (zeroPoint)
    x = t.sub(x, zeroPoint);
  return Values{t.cast(t.mul(x, scale), outType)};
}

/// DynamicQuantizeLinear (uint8): scale = (max(0, max x) - min(0, min x))
/// / 255 (1 / 255 when that range is empty), zero point =
/// round(saturate(-min / scale)), y = saturate(round(x / scale) + zp).
LegalizeResult dynamicQuantizeLinear(NodeContext &ctx) {
  if (failed(ctx.requireInputs(1)) ||
      failed(ctx.requireElementType(0, Elt::Float)))
    return failure();
  TosaBuilder &t = ctx.tosa;
  Value x = t.cast(ctx.input(0), f32(t));
  int64_t rank = t.rankOf(x);
  Value flat = t.reshape(x, {product(t.shapeOf(x))});
  Value hi = t.maximum(t.reduceMax(flat, {0}), t.scalarLike(flat, 0));
  Value lo =
      t.minimum(t.reduce<tosa::ReduceMinOp>(flat, {0}), t.scalarLike(flat, 0));
  Value range = t.sub(hi, lo);
  Value empty = t.compare<tosa::EqualOp>(hi, lo);
  range = t.select(empty, t.scalarLike(range, 1), range);
  Value scale = divideF32(t, range, t.scalarLike(range, 255));
  Value zp =
      roundHalfEven(t, t.clamp(t.negate(divideF32(t, lo, scale)), 0, 255));
  Value s = t.reshape(scale, Shape(rank, 1));
  Value y = t.add(roundHalfEven(t, divideF32(t, x, s)),
                  t.reshape(zp, Shape(rank, 1)));
  Type u8 =
      IntegerType::get(ctx.getLoc().getContext(), 8, IntegerType::Unsigned);
  Type xType = ctx.inputType(0).getElementType();
  ctx.setOutputElementType(0, u8);
  ctx.setOutputElementType(2, u8);
  return Values{saturateTo(t, y, u8), t.cast(t.reshape(scale, {}), xType),
                saturateTo(t, t.reshape(zp, {}), u8)};
}

//===----------------------------------------------------------------------===//
// Integer MatMul and Conv
//===----------------------------------------------------------------------===//

/// Quantized input `i` (int8 or uint8) minus zero point `zeroPoint` (f32,
/// broadcastable, or null): exact integers in [-255, 255] as f32.
Value centered(NodeContext &ctx, unsigned i, Value zeroPoint) {
  Value v = inputF32(ctx, i);
  return zeroPoint ? ctx.tosa.sub(v, zeroPoint) : v;
}

LogicalResult requireInt8Data(NodeContext &ctx, unsigned i) {
  if (!ctx.hasInput(i))
    return success();
  Type elt = quantizedInputType(ctx, i, ctx.tosa.getBuilder().getI32Type());
  if (elt.isInteger(8) || elt.isUnsignedInteger(8) || elt.isInteger(32))
    return success();
  return ctx.fail("input " + Twine(i) + " has element type " +
                  llvm::to_string(elt) + "; int8 or uint8 is required");
}

/// The i32 result of bilinear integer op `op` (a matmul or conv in f32 with
/// reduction length `k`) of `d` and `e`, both exact integers in
/// [-255, 255]. f32 sums are exact while below 2^24, so when k * 255 * 255
/// may reach that, `d` is split into base-2^b digits (d = sum d_i 2^(b i),
/// the top one signed) and the digit products are combined in i32.
FailureOr<Value> integerProduct(NodeContext &ctx, Value d, Value e, int64_t k,
                                function_ref<Value(Value, Value)> op) {
  TosaBuilder &t = ctx.tosa;
  const double limit = std::ldexp(1.0, 24);
  Type i32 = t.getBuilder().getI32Type();
  if (k * 255.0 * 255.0 <= limit)
    return t.cast(op(d, e), i32);
  int bits = 4;
  while (bits > 1 && k * std::ldexp(1.0, bits) * 255.0 > limit)
    bits /= 2;
  if (k * std::ldexp(1.0, bits) * 255.0 > limit)
    return ctx.fail("a reduction over " + Twine(k) +
                    " products is too long to accumulate exactly");
  Value sum;
  Value rest = d;
  double base = std::ldexp(1.0, bits);
  for (int shift = 0; shift < 8; shift += bits) {
    Value digit = rest;
    if (shift + bits < 8) {
      Value high =
          t.unary<tosa::FloorOp>(t.mul(rest, t.scalarLike(rest, 1 / base)));
      digit = t.sub(rest, t.mul(high, t.scalarLike(rest, base)));
      rest = high;
    }
    Value part = t.cast(op(digit, e), i32);
    if (shift)
      part = t.mul(part, t.scalarLike(part, std::ldexp(1.0, shift)));
    sum = sum ? t.add(sum, part) : part;
  }
  return sum;
}

/// Scale or zero point `v` of a MatMul operand: a scalar, or per row of A
/// ([M] -> [M, 1]) or per column of B ([N] -> [1, N]).
FailureOr<Value> matmulParameter(NodeContext &ctx, Value v, bool perRow,
                                 int64_t count, StringRef what) {
  TosaBuilder &t = ctx.tosa;
  if (product(t.shapeOf(v)) == 1)
    return t.reshape(v, {1, 1});
  if (t.rankOf(v) != 1 || t.shapeOf(v)[0] != count)
    return ctx.fail(what + " must be a scalar or have " + Twine(count) +
                    " elements");
  return t.reshape(v, perRow ? Shape{count, 1} : Shape{1, count});
}

/// numpy.matmul of f32 `a` [..., M, K] by `b` [..., K, N] (ranks >= 2,
/// batch dimensions `batch`, their broadcast).
Value batchedMatmul(TosaBuilder &t, Value a, Value b, const Shape &batch) {
  ArrayRef<int64_t> aShape = t.shapeOf(a), bShape = t.shapeOf(b);
  int64_t m = aShape[aShape.size() - 2], k = aShape.back(), n = bShape.back();
  Shape aFull(batch), bFull(batch), out(batch);
  aFull.append({m, k});
  bFull.append({k, n});
  out.append({m, n});
  int64_t count = product(batch);
  if (product(bShape.drop_back(2)) == 1) // one B: A's batch becomes rows
    return t.reshape(
        t.matmul(t.reshape(t.broadcastTo(a, aFull), {1, count * m, k}),
                 t.reshape(b, {1, k, n})),
        out);
  return t.reshape(t.matmul(t.reshape(t.broadcastTo(a, aFull), {count, m, k}),
                            t.reshape(t.broadcastTo(b, bFull), {count, k, n})),
                   out);
}

/// (A - a_zero_point) x (B - b_zero_point) in i32 (A and B of rank >= 2)
/// for the inputs at `aIn` and `bIn`.
FailureOr<Value> integerMatmul(NodeContext &ctx, unsigned aIn, unsigned bIn,
                               Value aZero, Value bZero) {
  TosaBuilder &t = ctx.tosa;
  ArrayRef<int64_t> aShape = ctx.inputShape(aIn), bShape = ctx.inputShape(bIn);
  if (aShape.size() < 2 || bShape.size() < 2)
    return ctx.fail("1-D operands are not supported");
  int64_t m = aShape[aShape.size() - 2], k = aShape.back(), n = bShape.back();
  std::optional<Shape> batch =
      broadcastShapes(aShape.drop_back(2), bShape.drop_back(2));
  if (!batch || bShape[bShape.size() - 2] != k)
    return ctx.fail("operands " + llvm::to_string(ctx.inputType(aIn)) +
                    " and " + llvm::to_string(ctx.inputType(bIn)) +
                    " do not multiply");
  if (aZero) {
    FailureOr<Value> z = matmulParameter(ctx, aZero, true, m, "a_zero_point");
    if (failed(z))
      return failure();
    aZero = *z;
  }
  if (bZero) {
    FailureOr<Value> z = matmulParameter(ctx, bZero, false, n, "b_zero_point");
    if (failed(z))
      return failure();
    bZero = *z;
  }
  Value a = centered(ctx, aIn, aZero), b = centered(ctx, bIn, bZero);
  return integerProduct(ctx, a, b, k, [&](Value x, Value w) {
    return batchedMatmul(t, x, w, *batch);
  });
}

LegalizeResult matMulInteger(NodeContext &ctx) {
  if (failed(ctx.requireInputs(2)) || failed(requireInt8Data(ctx, 0)) ||
      failed(requireInt8Data(ctx, 1)))
    return failure();
  Value aZero = ctx.hasInput(2) ? inputF32(ctx, 2) : Value();
  Value bZero = ctx.hasInput(3) ? inputF32(ctx, 3) : Value();
  FailureOr<Value> y = integerMatmul(ctx, 0, 1, aZero, bZero);
  if (failed(y))
    return failure();
  // int32 by definition, whatever the model declares (exporters often
  // declare nothing for it); the pass needs it for uint8 operands.
  ctx.setOutputElementType(0, ctx.tosa.getBuilder().getI32Type());
  return Values{*y};
}

/// The requantization of QLinearMatMul / QLinearConv:
/// saturate(round(acc * (a_scale * b_scale / y_scale)) + y_zero_point),
/// the multiplier computed in the scales' type as ONNX's reference does,
/// the product rounded exactly (the reference computes it in float64).
Value requantize(TosaBuilder &t, Value acc, Value aScale, Value bScale,
                 Value yScale, Type scaleType, Value yZero, Type outType) {
  Value multiplier = roundToType(
      t,
      divideF32(t, roundToType(t, mulF32(t, aScale, bScale), scaleType),
                yScale),
      scaleType);
  Value n = roundProductF32(t, acc, multiplier);
  return saturateTo(t, t.add(n, yZero), outType);
}

LegalizeResult qlinearMatMul(NodeContext &ctx) {
  if (failed(ctx.requireInputs(8)))
    return failure();
  for (unsigned i : {0u, 2u, 3u, 5u, 7u})
    if (failed(requireInt8Data(ctx, i)))
      return failure();
  for (unsigned i : {1u, 4u, 6u})
    if (failed(ctx.requireElementType(i, Elt::Float)))
      return failure();
  TosaBuilder &t = ctx.tosa;
  Type u8 =
      IntegerType::get(ctx.getLoc().getContext(), 8, IntegerType::Unsigned);
  Type outType = declaredOutputType(ctx, 0);
  if (!outType)
    outType = quantizedInputType(ctx, 7, u8);
  int64_t m = ctx.inputRank(0) >= 2 ? ctx.inputShape(0).drop_back().back() : 1;
  int64_t n = ctx.inputShape(3).back();
  FailureOr<Value> aScale =
      matmulParameter(ctx, inputF32(ctx, 1), true, m, "a_scale");
  FailureOr<Value> bScale =
      matmulParameter(ctx, inputF32(ctx, 4), false, n, "b_scale");
  FailureOr<Value> yScale =
      matmulParameter(ctx, inputF32(ctx, 6), true, m, "y_scale");
  FailureOr<Value> yZero =
      matmulParameter(ctx, inputF32(ctx, 7), true, m, "y_zero_point");
  if (failed(aScale) || failed(bScale) || failed(yScale) || failed(yZero))
    return failure();
  FailureOr<Value> acc =
      integerMatmul(ctx, 0, 3, inputF32(ctx, 2), inputF32(ctx, 5));
  if (failed(acc))
    return failure();
  ctx.setOutputElementType(0, outType);
  return Values{requantize(t, *acc, *aScale, *bScale, *yScale,
                           ctx.inputType(1).getElementType(), *yZero, outType)};
}

/// ONNX Conv of channels-first f32 `x` by `w` ([O, I / group, k...]) with
/// the node's window attributes, in f32 (no bias).
Value convolve(TosaBuilder &t, Value x, Value w, int64_t group,
               const Window &window) {
  Window win = window;
  int64_t n = t.shapeOf(x)[0], cIn = t.shapeOf(x)[1], cOut = t.shapeOf(w)[0];
  bool is1D = t.rankOf(x) == 3;
  if (is1D) {
    x = t.reshape(x, {n, cIn, 1, t.shapeOf(x)[2]});
    w = t.reshape(w, {cOut, cIn / group, 1, t.shapeOf(w)[2]});
    expandWindowTo2D(win);
  }
  Value xl = t.toChannelsLast(x), wl = t.toChannelsLast(w);
  Shape pads = fitPadsToTosa(t, win, xl);
  int64_t cg = cIn / group, og = cOut / group, channelAxis = t.rankOf(xl) - 1;
  SmallVector<Value> parts;
  for (int64_t g = 0; g < group; ++g) {
    Value xg = group == 1 ? xl : t.sliceAxis(xl, channelAxis, g * cg, cg);
    Value wg = group == 1 ? wl : t.sliceAxis(wl, 0, g * og, og);
    Shape outShape{n};
    outShape.append(win.output.begin(), win.output.end());
    outShape.push_back(og);
    auto type = RankedTensorType::get(outShape, f32(t));
    Value bias = t.splat({og}, f32(t), 0);
    Value zp = t.zeroPoint(f32(t));
    Type acc = f32(t);
    if (t.rankOf(xl) == 4)
      parts.push_back(tosa::Conv2DOp::create(t.getBuilder(), t.getLoc(), type,
                                             xg, wg, bias, zp, zp, pads,
                                             win.strides, win.dilations, acc));
    else
      parts.push_back(tosa::Conv3DOp::create(t.getBuilder(), t.getLoc(), type,
                                             xg, wg, bias, zp, zp, pads,
                                             win.strides, win.dilations, acc));
  }
  Value y = t.toChannelsFirst(parts.size() == 1 ? parts.front()
                                                : t.concat(parts, channelAxis));
  if (is1D)
    y = t.reshape(y, {n, cOut, win.output[1]});
  return y;
}

/// (x - x_zero_point) conv (w - w_zero_point) in i32, for the inputs at
/// `xIn` and `wIn`; w_zero_point is a scalar or one per output channel.
FailureOr<Value> integerConv(NodeContext &ctx, unsigned xIn, unsigned wIn,
                             Value xZero, Value wZero) {
  TosaBuilder &t = ctx.tosa;
  int64_t rank = ctx.inputRank(xIn);
  if (rank < 3 || rank > 5 || ctx.inputRank(wIn) != rank)
    return ctx.fail("only 1-D, 2-D and 3-D convolutions are supported");
  ArrayRef<int64_t> xShape = ctx.inputShape(xIn), wShape = ctx.inputShape(wIn);
  int64_t cIn = xShape[1], cOut = wShape[0];
  int64_t group = ctx.getInt("group", 1);
  if (group < 1 || cIn % group || cOut % group || wShape[1] != cIn / group)
    return ctx.fail("group " + Twine(group) +
                    " does not divide the input and weights consistently");
  ArrayRef<int64_t> kernel = wShape.drop_front(2);
  if (ctx.hasAttr("kernel_shape") &&
      ArrayRef<int64_t>(ctx.getInts("kernel_shape")) != kernel)
    return ctx.fail("kernel_shape does not match the weights");
  FailureOr<Window> win =
      computeWindow(ctx, xShape.drop_front(2), kernel, false);
  if (failed(win))
    return failure();
  if (xZero) {
    if (product(t.shapeOf(xZero)) != 1)
      return ctx.fail("x_zero_point must be a scalar");
    xZero = t.reshape(xZero, Shape(rank, 1));
  }
  if (wZero) {
    Shape target(rank, 1);
    if (product(t.shapeOf(wZero)) != 1) {
      if (t.rankOf(wZero) != 1 || t.shapeOf(wZero)[0] != cOut)
        return ctx.fail("w_zero_point must be a scalar or have " + Twine(cOut) +
                        " elements");
      target[0] = cOut;
    }
    wZero = t.reshape(wZero, target);
  }
  Value x = centered(ctx, xIn, xZero), w = centered(ctx, wIn, wZero);
  return integerProduct(
      ctx, x, w, product(wShape.drop_front()),
      [&](Value d, Value e) { return convolve(t, d, e, group, *win); });
}

LegalizeResult convInteger(NodeContext &ctx) {
  if (failed(ctx.requireInputs(2)) || failed(requireInt8Data(ctx, 0)) ||
      failed(requireInt8Data(ctx, 1)))
    return failure();
  Value xZero = ctx.hasInput(2) ? inputF32(ctx, 2) : Value();
  Value wZero = ctx.hasInput(3) ? inputF32(ctx, 3) : Value();
  FailureOr<Value> y = integerConv(ctx, 0, 1, xZero, wZero);
  if (failed(y))
    return failure();
  ctx.setOutputElementType(0, ctx.tosa.getBuilder().getI32Type());
  return Values{*y};
}

LegalizeResult qlinearConv(NodeContext &ctx) {
  if (failed(ctx.requireInputs(8)))
    return failure();
  for (unsigned i : {0u, 2u, 3u, 5u, 7u})
    if (failed(requireInt8Data(ctx, i)))
      return failure();
  for (unsigned i : {1u, 4u, 6u})
    if (failed(ctx.requireElementType(i, Elt::Float)))
      return failure();
  TosaBuilder &t = ctx.tosa;
  int64_t rank = ctx.inputRank(0);
  Type u8 =
      IntegerType::get(ctx.getLoc().getContext(), 8, IntegerType::Unsigned);
  Type outType = declaredOutputType(ctx, 0);
  if (!outType)
    outType = quantizedInputType(ctx, 7, u8);
  FailureOr<Value> acc =
      integerConv(ctx, 0, 3, inputF32(ctx, 2), inputF32(ctx, 5));
  if (failed(acc))
    return failure();
  int64_t cOut = ctx.inputShape(3)[0];
  if (ctx.hasInput(8)) {
    if (ctx.inputShape(8) != ArrayRef<int64_t>{cOut})
      return ctx.fail("B must have shape [" + Twine(cOut) + "]");
    Shape target(rank, 1);
    target[1] = cOut;
    acc =
        t.add(*acc, t.reshape(t.cast(ctx.input(8), t.getBuilder().getI32Type()),
                              target));
  }
  // Scales: x and y per tensor, w per tensor or per output channel.
  auto perTensor = [&](unsigned i) {
    return t.reshape(inputF32(ctx, i), Shape(rank, 1));
  };
  if (product(ctx.inputShape(1)) != 1 || product(ctx.inputShape(6)) != 1 ||
      product(ctx.inputShape(7)) != 1)
    return ctx.fail("x and y scales and zero points must be scalars");
  Value wScale = inputF32(ctx, 4);
  Shape wTarget(rank, 1);
  if (product(t.shapeOf(wScale)) != 1) {
    if (t.rankOf(wScale) != 1 || t.shapeOf(wScale)[0] != cOut)
      return ctx.fail("w_scale must be a scalar or have " + Twine(cOut) +
                      " elements");
    wTarget[1] = cOut;
  }
  wScale = t.reshape(wScale, wTarget);
  ctx.setOutputElementType(0, outType);
  return Values{requantize(t, *acc, perTensor(1), wScale, perTensor(6),
                           ctx.inputType(1).getElementType(), perTensor(7),
                           outType)};
}

// clang-format off
const OpLegalization kQuantization[] = {
    {"QuantizeLinear", 10, quantizeLinear},
    {"DequantizeLinear", 10, dequantizeLinear},
    {"DynamicQuantizeLinear", 11, dynamicQuantizeLinear},
    {"MatMulInteger", 10, matMulInteger},
    {"QLinearMatMul", 10, qlinearMatMul},
    {"ConvInteger", 10, convInteger},
    {"QLinearConv", 10, qlinearConv},
};
// clang-format on

} // namespace

ArrayRef<OpLegalization> getQuantizationLegalizations() {
  return kQuantization;
}

} // namespace onnx_tosa
