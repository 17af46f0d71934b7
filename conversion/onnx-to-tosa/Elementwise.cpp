//===- Elementwise.cpp - Unary math, binary arithmetic, logic, compare ----===//
//
// Ops that map one-to-one onto a TOSA elementwise op are one table row each;
// the generic handlers below check arity, element types and numpy
// broadcasting (ONNX "multidirectional broadcasting"), then build the op.
// The arithmetic ops broadcast like numpy from opset 7; before that they
// took `broadcast`/`axis` attributes, which have their own handler. Integer
// constants are computed at compile time (see TosaBuilder::foldIntegers).
//
//===----------------------------------------------------------------------===//
#include "conversion/onnx-to-tosa/ExactArithmetic.h"
#include "conversion/onnx-to-tosa/NarrowTypes.h"
#include "conversion/onnx-to-tosa/NodeContext.h"

#include <cmath>
#include <limits>

using namespace mlir;

namespace onnx_tosa {
namespace {

using BinaryBuild = Value (TosaBuilder::*)(Value, Value);
using UnaryBuild = Value (TosaBuilder::*)(Value);

LogicalResult checkBroadcast(NodeContext &ctx, unsigned first, unsigned last) {
  Shape shape;
  for (unsigned i = first; i < last; ++i) {
    std::optional<Shape> next = broadcastShapes(shape, ctx.inputShape(i));
    if (!next)
      return ctx.fail("input shapes are not broadcast-compatible (input " +
                      Twine(i) + " has type " +
                      llvm::to_string(ctx.inputType(i)) + ")");
    shape = *next;
  }
  return success();
}

/// Inputs [0, n) present, of `kind`, of one element type, broadcastable.
LogicalResult checkOperands(NodeContext &ctx, unsigned n, Elt kind) {
  if (failed(ctx.requireInputs(n)) || failed(ctx.requireElementType(0, kind)) ||
      failed(ctx.requireSameElementType(0, n)))
    return failure();
  return checkBroadcast(ctx, 0, n);
}

/// A TOSA op of the same name.
template <typename OpTy, Elt Kind> LegalizeResult unaryOp(NodeContext &ctx) {
  if (failed(checkOperands(ctx, 1, Kind)))
    return failure();
  return Values{ctx.tosa.unary<OpTy>(ctx.input(0))};
}

/// A TosaBuilder helper.
template <UnaryBuild Build, Elt Kind> LegalizeResult unaryFn(NodeContext &ctx) {
  if (failed(checkOperands(ctx, 1, Kind)))
    return failure();
  return Values{(ctx.tosa.*Build)(ctx.input(0))};
}

template <BinaryBuild Build, Elt Kind>
LegalizeResult binaryFn(NodeContext &ctx) {
  if (failed(checkOperands(ctx, 2, Kind)))
    return failure();
  return Values{(ctx.tosa.*Build)(ctx.input(0), ctx.input(1))};
}

/// Add/Sub/Mul/Div/Pow before opset 7 broadcast only with broadcast = 1,
/// and then B's dimensions line up with A's from `axis` (default: A's
/// trailing dimensions) instead of numpy's rules. Returns input 1 reshaped
/// so that numpy broadcasting lines it up with input 0 that way.
FailureOr<Value> legacyAlignedB(NodeContext &ctx) {
  Value b = ctx.input(1);
  ArrayRef<int64_t> aShape = ctx.inputShape(0), bShape = ctx.inputShape(1);
  int64_t ra = aShape.size(), rb = bShape.size();
  if (!ctx.getInt("broadcast", 0)) {
    if (aShape != bShape)
      return ctx.fail("shapes differ and broadcast is 0");
    return b;
  }
  int64_t axis = ctx.getInt("axis", ra - rb);
  if (axis < 0)
    axis += ra;
  if (axis < 0 || axis + rb > ra)
    return ctx.fail("B does not fit in A at axis " + Twine(axis));
  Shape aligned(ra, 1);
  for (int64_t i = 0; i < rb; ++i) {
    if (bShape[i] != 1 && bShape[i] != aShape[axis + i])
      return ctx.fail("B does not broadcast to A at axis " + Twine(axis));
    aligned[axis + i] = bShape[i];
  }
  return ctx.tosa.reshape(b, aligned);
}

template <BinaryBuild Build> LegalizeResult legacyBinaryFn(NodeContext &ctx) {
  if (failed(ctx.requireInputs(2)) ||
      failed(ctx.requireElementType(0, Elt::Number)) ||
      failed(ctx.requireSameElementType(0, 2)))
    return failure();
  FailureOr<Value> b = legacyAlignedB(ctx);
  if (failed(b))
    return failure();
  return Values{(ctx.tosa.*Build)(ctx.input(0), *b)};
}

template <typename OpTy, Elt Kind> LegalizeResult binaryOp(NodeContext &ctx) {
  if (failed(checkOperands(ctx, 2, Kind)))
    return failure();
  return Values{ctx.tosa.binary<OpTy>(ctx.input(0), ctx.input(1))};
}

/// A comparison; `Swap` builds b OP a (Less is Greater with swapped inputs).
template <typename OpTy, bool Swap = false>
LegalizeResult compareOp(NodeContext &ctx) {
  if (failed(checkOperands(ctx, 2, Elt::Any)))
    return failure();
  Value a = ctx.input(0), b = ctx.input(1);
  if (Swap)
    std::swap(a, b);
  return Values{ctx.tosa.compare<OpTy>(a, b)};
}

/// Max, Min, Sum, Mean: a left fold over 1..n inputs with broadcasting.
template <BinaryBuild Build, Elt Kind, bool Mean = false>
LegalizeResult variadicFn(NodeContext &ctx) {
  unsigned n = ctx.numInputs();
  if (n == 0)
    return ctx.fail("expects at least one input");
  if (failed(checkOperands(ctx, n, Kind)))
    return failure();
  Value acc = ctx.input(0);
  for (unsigned i = 1; i < n; ++i)
    acc = (ctx.tosa.*Build)(acc, ctx.input(i));
  if (Mean && n > 1)
    acc = ctx.tosa.mul(acc, ctx.tosa.scalarLike(acc, 1.0 / n));
  return Values{acc};
}

//===----------------------------------------------------------------------===//
// Ops with logic
//===----------------------------------------------------------------------===//

/// X^Y for float X. TOSA POW is undefined for X < 0, but ONNX (like C's
/// pow) defines X^Y for negative X and integral Y: (-2)^3 = -8, and NaN for
/// a fractional Y. Small constant exponents become multiplications; other
/// exponents compute |X|^Y and restore the sign where X < 0 and Y is odd;
/// a run-time float Y is told integral or odd where it is used, and gives
/// NaN where X < 0 and it is fractional (lavapipe's POW gives 0 there).
Value floatPow(TosaBuilder &t, Value x, Value y) {
  Value base = x;
  Type elt = t.elementTypeOf(x);
  auto yType = RankedTensorType::get(t.shapeOf(y), elt);
  Shape shape = *broadcastShapes(t.shapeOf(x), t.shapeOf(y));
  Value odd;        // where Y is an odd integer (null: nowhere)
  Value fractional; // where Y is not an integer (null: nowhere or unknown)
  if (std::optional<DenseElementsAttr> exponent =
          TosaBuilder::constantValue(y)) {
    SmallVector<double> e = toDoubles(*exponent);
    if (exponent->isSplat()) {
      Value result;
      if (e[0] == 1)
        result = x;
      else if (e[0] == 2)
        result = t.mul(x, x);
      else if (e[0] == 3)
        result = t.mul(t.mul(x, x), x);
      else if (e[0] == 0.5)
        result = t.sqrt(x);
      else if (e[0] == -1)
        result = t.unary<tosa::ReciprocalOp>(x);
      if (result)
        return t.broadcastTo(result, shape);
    }
    y = t.constant(fromDoubles(yType, e));
    if (llvm::all_of(e, [](double v) { return std::trunc(v) == v; })) {
      SmallVector<int64_t> isOdd;
      for (double v : e)
        isOdd.push_back(std::fmod(v, 2.0) != 0);
      x = t.abs(x);
      if (llvm::is_contained(isOdd, 1))
        odd = t.constant(fromInts(
            RankedTensorType::get(t.shapeOf(y), t.getBuilder().getI1Type()),
            isOdd));
    }
  } else if (!TosaBuilder::isFloat(y)) {
    Value lowBit = t.binary<tosa::BitwiseAndOp>(y, t.scalarLike(y, 1));
    odd = t.unary<tosa::LogicalNotOp>(
        t.compare<tosa::EqualOp>(lowBit, t.scalarLike(y, 0)));
    y = t.cast(y, elt);
    x = t.abs(x);
  } else {
    y = t.cast(y, elt);
    x = t.abs(x);
    Value whole = t.unary<tosa::FloorOp>(y);
    fractional =
        t.unary<tosa::LogicalNotOp>(t.compare<tosa::EqualOp>(whole, y));
    Value half = t.unary<tosa::FloorOp>(t.mul(y, t.scalarLike(y, 0.5)));
    odd = t.binary<tosa::LogicalAndOp>(
        t.unary<tosa::LogicalNotOp>(fractional),
        t.unary<tosa::LogicalNotOp>(
            t.compare<tosa::EqualOp>(t.mul(half, t.scalarLike(half, 2)), y)));
  }
  Value result = t.pow(x, y);
  if (!odd)
    return result;
  Value negative = t.compare<tosa::GreaterOp>(t.scalarLike(base, 0), base);
  Value flip = t.binary<tosa::LogicalAndOp>(negative, odd);
  result = t.select(flip, t.negate(result), result);
  if (!fractional)
    return result;
  Value invalid = t.binary<tosa::LogicalAndOp>(negative, fractional);
  return t.select(
      invalid, t.scalarLike(result, std::numeric_limits<double>::quiet_NaN()),
      result);
}

/// X^Y for integer X and i32 Y, as numpy's integer power (ONNX's reference)
/// computes it: by squaring, over the bits of Y, wrapping as the integer
/// multiplication of X's type does (int64 data keeps the low 32 bits of
/// the exact power, docs/types.md). numpy refuses Y < 0; here it is the
/// truncated 1 / X^-Y: 1 for X = 1, +-1 for X = -1, 0 otherwise (X = 0 too).
/// A constant Y needs only its bits; other Y take all 31.
Value integerPow(TosaBuilder &t, Value x, Value y) {
  int bits = 31;
  if (std::optional<DenseElementsAttr> exponent =
          TosaBuilder::constantValue(y)) {
    int64_t largest = 0;
    for (int64_t v : toInts(*exponent))
      largest = std::max(largest, v);
    bits = 0;
    while (bits < 31 && (largest >> bits) != 0)
      ++bits;
  }
  Value result = t.scalarLike(x, 1), square = x;
  for (int bit = 0; bit < bits; ++bit) {
    if (bit > 0)
      square = t.mul(square, square);
    Value set = t.unary<tosa::LogicalNotOp>(t.compare<tosa::EqualOp>(
        t.binary<tosa::BitwiseAndOp>(y, t.scalarLike(y, int64_t(1) << bit)),
        t.scalarLike(y, 0)));
    result = t.select(set, t.mul(result, square), result);
  }
  Value one = t.scalarLike(x, 1), minusOne = t.scalarLike(x, -1);
  Value oddY = t.unary<tosa::LogicalNotOp>(t.compare<tosa::EqualOp>(
      t.binary<tosa::BitwiseAndOp>(y, t.scalarLike(y, 1)), t.scalarLike(y, 0)));
  Value reciprocal =
      t.select(t.compare<tosa::EqualOp>(x, one), one,
               t.select(t.compare<tosa::EqualOp>(x, minusOne),
                        t.select(oddY, minusOne, one), t.scalarLike(x, 0)));
  Value negative = t.compare<tosa::GreaterOp>(t.scalarLike(y, 0), y);
  return t.select(negative, reciprocal, result);
}

/// Float `v` truncated toward zero, as an integer of type `to` (ONNX's
/// float-to-integer conversion; TOSA CAST rounds to nearest).
Value truncateToInteger(TosaBuilder &t, Value v, Type to) {
  Value nonNeg = t.compare<tosa::GreaterEqualOp>(v, t.scalarLike(v, 0));
  return t.cast(
      t.select(nonNeg, t.unary<tosa::FloorOp>(v), t.unary<tosa::CeilOp>(v)),
      to);
}

/// Pow(X, Y): the result has X's type (ONNX's reference: numpy.power, then
/// cast to X's type). For integer X, an integer Y, or an integral float Y,
/// is an exact integer power (integerPow); a fractional float Y goes
/// through f32 and truncates toward zero, so results beyond 2^24 are
/// rounded first.
Value buildPow(TosaBuilder &t, Value x, Value y) {
  if (TosaBuilder::isFloat(x))
    return floatPow(t, x, y);
  Type i32 = t.getBuilder().getI32Type();
  if (!TosaBuilder::isFloat(y)) {
    // A constant exponent (int64 included) stays visible to integerPow.
    if (std::optional<DenseElementsAttr> c = TosaBuilder::constantValue(y)) {
      SmallVector<int64_t> e = toInts(*c);
      for (int64_t &v : e)
        v = std::clamp<int64_t>(v, std::numeric_limits<int32_t>::min(),
                                std::numeric_limits<int32_t>::max());
      return integerPow(
          t, x,
          t.constant(fromInts(RankedTensorType::get(t.shapeOf(y), i32), e)));
    }
    return integerPow(t, x, t.cast(y, i32));
  }
  Type f32 = t.getBuilder().getF32Type();
  Value yf = t.cast(y, f32);
  Value whole =
      t.clamp(t.select(t.compare<tosa::GreaterEqualOp>(yf, t.scalarLike(yf, 0)),
                       t.unary<tosa::FloorOp>(yf), t.unary<tosa::CeilOp>(yf)),
              -2147483648.0, 2147483520.0); // the f32 values in the i32 range
  Value exact = integerPow(t, x, t.cast(whole, i32));
  Value rounded =
      truncateToInteger(t, t.pow(t.cast(x, f32), yf), t.elementTypeOf(x));
  return t.select(t.compare<tosa::EqualOp>(whole, yf), exact, rounded);
}

LegalizeResult pow(NodeContext &ctx) {
  if (failed(ctx.requireInputs(2)) ||
      failed(ctx.requireElementType(0, Elt::Number)) ||
      failed(ctx.requireElementType(1, Elt::Number)) ||
      failed(checkBroadcast(ctx, 0, 2)))
    return failure();
  return Values{buildPow(ctx.tosa, ctx.input(0), ctx.input(1))};
}

/// Pow before opset 7: `broadcast`/`axis` as for Add (legacyAlignedB).
LegalizeResult legacyPow(NodeContext &ctx) {
  if (failed(ctx.requireInputs(2)) ||
      failed(ctx.requireElementType(0, Elt::Number)) ||
      failed(ctx.requireElementType(1, Elt::Number)))
    return failure();
  FailureOr<Value> b = legacyAlignedB(ctx);
  if (failed(b))
    return failure();
  return Values{buildPow(ctx.tosa, ctx.input(0), *b)};
}

/// Mod(A, B): with fmod = 1 the remainder of truncated division (sign of A,
/// C's fmod), with fmod = 0 that of floored division (sign of B, Python's %
/// and numpy.mod; opset 28 allows it for floats too, and earlier opsets
/// leave it undefined there, so the same meaning is used throughout). Both
/// from the truncated remainder: a - trunc(a/b)*b for integers, exactFmod
/// for floats.
LegalizeResult mod(NodeContext &ctx) {
  if (failed(checkOperands(ctx, 2, Elt::Number)))
    return failure();
  TosaBuilder &t = ctx.tosa;
  Value a = ctx.input(0), b = ctx.input(1);
  bool fmod = ctx.getInt("fmod", 0);
  // Integer constants (shape arithmetic) fold.
  if (Value folded =
          t.foldIntegers({a, b}, t.elementTypeOf(a),
                         [fmod](ArrayRef<int64_t> v) -> std::optional<int64_t> {
                           if (v[1] == 0)
                             return std::nullopt;
                           int64_t r = v[0] % v[1];
                           if (!fmod && r != 0 && (r < 0) != (v[1] < 0))
                             r += v[1];
                           return r;
                         }))
    return Values{folded};
  // Floats: the truncated remainder exactly, as C's fmod (a - trunc(a/b)*b
  // in the data type is off by a whole b where a/b rounds up to an
  // integer: fmod(-7, 0.1) gave 0 for -0.0999999).
  Value r = TosaBuilder::isFloat(a) ? exactFmod(t, a, b)
                                    : t.sub(a, t.mul(t.div(a, b), b));
  if (fmod)
    return Values{r};
  // Floored: move a non-zero remainder whose sign differs from b's by b.
  Value zero = t.scalarLike(r, 0);
  Value rNeg = t.compare<tosa::GreaterOp>(zero, r);
  Value bNeg = t.compare<tosa::GreaterOp>(t.scalarLike(b, 0), b);
  Value signsDiffer = t.binary<tosa::LogicalXorOp>(rNeg, bNeg);
  Value nonZero =
      t.unary<tosa::LogicalNotOp>(t.compare<tosa::EqualOp>(r, zero));
  Value adjust = t.binary<tosa::LogicalAndOp>(signsDiffer, nonZero);
  return Values{t.select(adjust, t.add(r, b), r)};
}

/// Where(cond, X, Y).
LegalizeResult where(NodeContext &ctx) {
  if (failed(ctx.requireInputs(3)) ||
      failed(ctx.requireElementType(0, Elt::Bool)) ||
      failed(ctx.requireSameElementType(1, 3)) ||
      failed(checkBroadcast(ctx, 0, 3)))
    return failure();
  return Values{ctx.tosa.select(ctx.input(0), ctx.input(1), ctx.input(2))};
}

/// Sign(X): 1, -1, or X itself for 0 and NaN.
LegalizeResult sign(NodeContext &ctx) {
  if (failed(checkOperands(ctx, 1, Elt::Number)))
    return failure();
  TosaBuilder &t = ctx.tosa;
  Value x = ctx.input(0);
  Value zero = t.scalarLike(x, 0);
  Value isPos = t.compare<tosa::GreaterOp>(x, zero);
  Value isNeg = t.compare<tosa::GreaterOp>(zero, x);
  Value negOrZero = t.select(isNeg, t.scalarLike(x, -1), x);
  return Values{t.select(isPos, t.scalarLike(x, 1), negOrZero)};
}

/// Round: to nearest, ties to even (TOSA has no rounding op):
/// Round: half to even (ExactArithmetic.h).
LegalizeResult round(NodeContext &ctx) {
  if (failed(checkOperands(ctx, 1, Elt::Float)))
    return failure();
  return Values{roundHalfEven(ctx.tosa, ctx.input(0))};
}

/// IsNaN(X): X != X.
LegalizeResult isNaN(NodeContext &ctx) {
  if (failed(checkOperands(ctx, 1, Elt::Float)))
    return failure();
  Value x = ctx.input(0);
  return Values{ctx.tosa.unary<tosa::LogicalNotOp>(
      ctx.tosa.compare<tosa::EqualOp>(x, x))};
}

/// IsInf(X, detect_positive, detect_negative).
LegalizeResult isInf(NodeContext &ctx) {
  if (failed(checkOperands(ctx, 1, Elt::Float)))
    return failure();
  TosaBuilder &t = ctx.tosa;
  Value x = ctx.input(0);
  bool pos = ctx.getInt("detect_positive", 1);
  bool neg = ctx.getInt("detect_negative", 1);
  double inf = std::numeric_limits<double>::infinity();
  Value isPos = t.compare<tosa::EqualOp>(x, t.scalarLike(x, inf));
  Value isNeg = t.compare<tosa::EqualOp>(x, t.scalarLike(x, -inf));
  if (pos && neg)
    return Values{t.binary<tosa::LogicalOrOp>(isPos, isNeg)};
  if (pos)
    return Values{isPos};
  if (neg)
    return Values{isNeg};
  return Values{t.splat(t.shapeOf(x), t.getBuilder().getI1Type(), 0)};
}

/// `x` converted to `to`, neither of them narrow data. ONNX converts float
/// to integer truncating toward zero (as C does) but TOSA CAST rounds to
/// nearest even, so values are truncated with floor/ceil first. TOSA has no
/// bool <-> float CAST: those go through select / compare. Constant inputs
/// are converted at compile time (which also covers int64/float64
/// constants).
LegalizeResult castValue(NodeContext &ctx, Value x, Type to) {
  TosaBuilder &t = ctx.tosa;
  Type from = t.elementTypeOf(x);
  if (from == to)
    return Values{x};
  bool fromFloat = isa<FloatType>(from), toFloat = isa<FloatType>(to);
  auto type = RankedTensorType::get(t.shapeOf(x), to);

  if (std::optional<DenseElementsAttr> c = t.constantValue(x)) {
    if (to.isInteger(1)) {
      SmallVector<int64_t> nonZero;
      for (double v : toDoubles(*c))
        nonZero.push_back(v != 0);
      return Values{t.constant(fromInts(type, nonZero))};
    }
    if (toFloat || fromFloat)
      return Values{t.constant(fromDoubles(type, toDoubles(*c)))};
    return Values{t.constant(fromInts(type, toInts(*c)))};
  }
  // Run-time data is computed in demoted types (docs/types.md); unsigned
  // results are wrapped to their width by the pass, from the declared type.
  ctx.setOutputElementType(0, to); // for the wrap, where not declared
  to = demotedElementType(to);
  if (from == to)
    return Values{x};
  if (from.isInteger(1) && toFloat)
    return Values{t.indicator(x, to)};
  if (to.isInteger(1) && fromFloat)
    return Values{t.unary<tosa::LogicalNotOp>(
        t.compare<tosa::EqualOp>(x, t.scalarLike(x, 0)))};
  if (fromFloat && !toFloat) {
    Value nonNeg = t.compare<tosa::GreaterEqualOp>(x, t.scalarLike(x, 0));
    x = t.select(nonNeg, t.unary<tosa::FloorOp>(x), t.unary<tosa::CeilOp>(x));
  }
  return Values{t.cast(x, to)};
}

/// Cast(to, saturate, round_mode). Narrow data (float8, float4, 4- and
/// 2-bit integers: i8 bit patterns, NarrowTypes.h) is decoded to f32 / i32
/// and converted from there; a narrow result is encoded by ONNX's rules,
/// `saturate` choosing between +-FLT_MAX and Inf/NaN for float8 out of
/// range, `round_mode` rounding FLOAT8E8M0.
LegalizeResult castTo(NodeContext &ctx, Type to) {
  TosaBuilder &t = ctx.tosa;
  Value x = ctx.input(0);
  Type fromNarrow = ctx.narrowInputType(0);
  if (fromNarrow == to)
    return Values{x};
  if (fromNarrow)
    x = decodeNarrow(t, x, fromNarrow);
  if (!isNarrowType(to))
    return castValue(ctx, x, to);
  std::string mode = ctx.getString("round_mode", "up");
  E8M0Rounding rounding = mode == "down"      ? E8M0Rounding::Down
                          : mode == "nearest" ? E8M0Rounding::Nearest
                                              : E8M0Rounding::Up;
  if (mode != "up" && mode != "down" && mode != "nearest")
    return ctx.fail("round_mode '" + mode +
                    "' is not one of up, down, nearest");
  ctx.setOutputElementType(0, to);
  return Values{
      encodeNarrow(t, x, to, ctx.getInt("saturate", 1) != 0, rounding)};
}

/// BitShift, computed in the type its data is carried in (docs/types.md):
/// int8 and int16 as themselves, int32, int64 and uint8/16/32 as i32, told
/// apart by the declared output type. Opset 28 adds signed types (right
/// shifts are arithmetic) and defines shifts outside [0, width): 0, or the
/// sign fill for a right shift of a signed X. TOSA leaves those shifts
/// undefined, so the amount is clamped and the result selected. int64 data
/// is carried as its low 32 bits: a left shift by 32..63 clears them all, a
/// right shift by as much leaves the sign fill, as a shift by 31 does.
LegalizeResult bitShift(NodeContext &ctx) {
  if (failed(ctx.requireInputs(2)) ||
      failed(ctx.requireElementType(0, Elt::Int)) ||
      failed(ctx.requireSameElementType(0, 2)))
    return failure();
  std::string direction = ctx.getString("direction", "");
  if (direction != "LEFT" && direction != "RIGHT")
    return ctx.fail("direction must be LEFT or RIGHT");
  TosaBuilder &t = ctx.tosa;
  Value x = ctx.input(0), y = ctx.input(1);
  Type carrier = t.elementTypeOf(x);
  int64_t carrierWidth = carrier.getIntOrFloatBitWidth();
  auto declared = dyn_cast<TensorType>(ctx.getNode().getOutputs()[0].getType());
  Type elt = declared ? declared.getElementType() : Type();
  if (!elt && carrierWidth == 32)
    return ctx.fail("the output type must be declared (int32, int64 and "
                    "uint8/16/32 data are all computed as i32)");
  if (!elt)
    elt = carrier;
  bool isSigned = !elt.isUnsignedInteger();
  if (isSigned && ctx.getOpset() < 28)
    return ctx.fail("signed integers are supported from opset 28 on");
  int64_t width = std::min<int64_t>(elt.getIntOrFloatBitWidth(), carrierWidth);

  Value negative = t.compare<tosa::GreaterOp>(t.scalarLike(y, 0), y);
  Value inRange = t.binary<tosa::LogicalAndOp>(
      t.unary<tosa::LogicalNotOp>(negative),
      t.compare<tosa::GreaterOp>(t.scalarLike(y, width), y));
  Value last = t.scalarLike(y, carrierWidth - 1);
  Value amount = t.select(negative, last, t.minimum(y, last));
  if (direction == "RIGHT" && isSigned) {
    t.equalizeRanks(x, amount);
    auto type = RankedTensorType::get(
        *broadcastShapes(t.shapeOf(x), t.shapeOf(amount)), carrier);
    return Values{tosa::ArithmeticRightShiftOp::create(
        t.getBuilder(), t.getLoc(), type, x, amount, /*round=*/false)};
  }
  Value shifted = direction == "LEFT"
                      ? t.binary<tosa::LogicalLeftShiftOp>(x, amount)
                      : t.binary<tosa::LogicalRightShiftOp>(x, amount);
  return Values{t.select(inRange, shifted, t.scalarLike(shifted, 0))};
}

/// BitCast (opset 26) between integer types of one width (int8 <-> uint8,
/// int16 <-> uint16, int32 <-> uint32) and between bool and 8-bit integers,
/// in the types the data is carried in. TOSA 1.0 has no op that
/// reinterprets bits: CAST converts values, and taking a float apart (or
/// building one) with arithmetic cannot keep NaN payloads, nor subnormals,
/// which GPUs flush to zero; so BitCast to or from a float type is refused.
LegalizeResult bitCast(NodeContext &ctx) {
  if (failed(ctx.requireInputs(1)))
    return failure();
  int64_t toCode = ctx.getInt("to", 0);
  Type to = onnxElementType(ctx.getLoc().getContext(), toCode);
  if (!to)
    return ctx.fail("BitCast to ONNX data type " + Twine(toCode) +
                    " is not supported");
  TosaBuilder &t = ctx.tosa;
  Value x = ctx.input(0);
  Type from = t.elementTypeOf(x);
  if (isa<FloatType>(to) || isa<FloatType>(from))
    return ctx.fail("BitCast between " + llvm::to_string(from) + " and " +
                    llvm::to_string(to) +
                    " is not expressible in TOSA 1.0: it has no op that "
                    "reinterprets bits (CAST converts values), and an "
                    "arithmetic reconstruction cannot keep NaN payloads or "
                    "subnormals (flushed to zero on GPUs)");
  unsigned width = to.getIntOrFloatBitWidth();
  if (width == 64)
    return ctx.fail("BitCast to " + llvm::to_string(to) +
                    " is not supported: 64-bit integers are computed as i32");
  Type computed = demotedElementType(to);
  ctx.setOutputElementType(0, to);
  if (from.isInteger(1) || to.isInteger(1)) {
    unsigned other = from.isInteger(1) ? width : from.getIntOrFloatBitWidth();
    if (other != 8 && !(from.isInteger(32) && to.isInteger(1)))
      return ctx.fail("BitCast between bool and a type wider than 8 bits");
    if (from.isInteger(1)) {
      Shape ones(t.rankOf(x), 1);
      return Values{
          t.select(x, t.splat(ones, computed, 1), t.splat(ones, computed, 0))};
    }
    return Values{t.unary<tosa::LogicalNotOp>(
        t.compare<tosa::EqualOp>(x, t.scalarLike(x, 0)))};
  }
  if (from.getIntOrFloatBitWidth() < 32 &&
      from.getIntOrFloatBitWidth() != width)
    return ctx.fail("BitCast from " + llvm::to_string(from) + " to " +
                    llvm::to_string(to) + " changes the width");
  // Narrow results wrap to their width: the cast truncates, and the pass
  // keeps the low bits of unsigned data (carried in i32).
  return Values{t.cast(x, computed)};
}

LegalizeResult castOp(NodeContext &ctx) {
  if (failed(ctx.requireInputs(1)))
    return failure();
  Type to = onnxElementType(ctx.getLoc().getContext(), ctx.getInt("to", 0));
  if (!to)
    return ctx.fail("cast to ONNX data type " + Twine(ctx.getInt("to", 0)) +
                    " is not supported");
  return castTo(ctx, to);
}

/// CastLike: Cast to the element type of the second input.
LegalizeResult castLike(NodeContext &ctx) {
  if (failed(ctx.requireInputs(2)))
    return failure();
  Type like = ctx.narrowInputType(1);
  return castTo(ctx, like ? like : ctx.inputType(1).getElementType());
}

// clang-format off
const OpLegalization kElementwise[] = {
    // Unary math.
    {"Abs", 6, unaryFn<&TosaBuilder::abs, Elt::Number>},
    {"Neg", 6, unaryFn<&TosaBuilder::negate, Elt::Number>},
    {"Exp", 6, unaryOp<tosa::ExpOp, Elt::Float>},
    {"Log", 6, unaryOp<tosa::LogOp, Elt::Float>},
    {"Sqrt", 6, unaryFn<&TosaBuilder::sqrt, Elt::Float>},
    {"Reciprocal", 6, unaryOp<tosa::ReciprocalOp, Elt::Float>},
    {"Floor", 6, unaryOp<tosa::FloorOp, Elt::Float>},
    {"Ceil", 6, unaryOp<tosa::CeilOp, Elt::Float>},
    {"Erf", 9, unaryOp<tosa::ErfOp, Elt::Float>},
    {"Sin", 7, unaryOp<tosa::SinOp, Elt::Float>},
    {"Cos", 7, unaryOp<tosa::CosOp, Elt::Float>},
    {"Sigmoid", 6, unaryOp<tosa::SigmoidOp, Elt::Float>},
    {"Tanh", 6, unaryOp<tosa::TanhOp, Elt::Float>},
    {"Sign", 9, sign},
    {"Round", 11, round},
    {"IsNaN", 9, isNaN},
    {"IsInf", 10, isInf},
    // Binary arithmetic.
    {"Add", 1, legacyBinaryFn<&TosaBuilder::add>},
    {"Sub", 1, legacyBinaryFn<&TosaBuilder::sub>},
    {"Mul", 1, legacyBinaryFn<&TosaBuilder::mul>},
    {"Div", 1, legacyBinaryFn<&TosaBuilder::div>},
    {"Add", 7, binaryFn<&TosaBuilder::add, Elt::Number>},
    {"Sub", 7, binaryFn<&TosaBuilder::sub, Elt::Number>},
    {"Mul", 7, binaryFn<&TosaBuilder::mul, Elt::Number>},
    {"Div", 7, binaryFn<&TosaBuilder::div, Elt::Number>},
    {"Pow", 1, legacyPow},
    {"Pow", 7, pow},
    {"Mod", 10, mod},
    // Variadic (numpy broadcasting from 8; 6 required equal shapes, a
    // subset).
    {"Max", 6, variadicFn<&TosaBuilder::maximum, Elt::Number>},
    {"Min", 6, variadicFn<&TosaBuilder::minimum, Elt::Number>},
    {"Sum", 6, variadicFn<&TosaBuilder::add, Elt::Number>},
    {"Mean", 6, variadicFn<&TosaBuilder::add, Elt::Float, /*Mean=*/true>},
    // Comparisons.
    {"Equal", 7, compareOp<tosa::EqualOp>},
    {"Greater", 7, compareOp<tosa::GreaterOp>},
    {"Less", 7, compareOp<tosa::GreaterOp, /*Swap=*/true>},
    {"GreaterOrEqual", 12, compareOp<tosa::GreaterEqualOp>},
    {"LessOrEqual", 12, compareOp<tosa::GreaterEqualOp, /*Swap=*/true>},
    // Logic.
    {"Not", 1, unaryOp<tosa::LogicalNotOp, Elt::Bool>},
    {"And", 7, binaryOp<tosa::LogicalAndOp, Elt::Bool>},
    {"Or", 7, binaryOp<tosa::LogicalOrOp, Elt::Bool>},
    {"Xor", 7, binaryOp<tosa::LogicalXorOp, Elt::Bool>},
    {"BitwiseNot", 18, unaryOp<tosa::BitwiseNotOp, Elt::Int>},
    {"BitwiseAnd", 18, binaryOp<tosa::BitwiseAndOp, Elt::Int>},
    {"BitwiseOr", 18, binaryOp<tosa::BitwiseOrOp, Elt::Int>},
    {"BitwiseXor", 18, binaryOp<tosa::BitwiseXorOp, Elt::Int>},
    {"BitShift", 11, bitShift},
    {"Where", 9, where},
    // Type conversion.
    {"Cast", 6, castOp},
    {"CastLike", 15, castLike},
    {"BitCast", 26, bitCast},
};
// clang-format on

} // namespace

ArrayRef<OpLegalization> getElementwiseLegalizations() { return kElementwise; }

} // namespace onnx_tosa
