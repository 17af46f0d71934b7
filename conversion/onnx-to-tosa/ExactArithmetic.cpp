//===- ExactArithmetic.cpp - Exactly rounded float32 arithmetic in TOSA ---===//
//
// See ExactArithmetic.h. Everything here is built from floor, compares,
// selects, integer bit operations and float products and sums whose
// operands are chosen so that each result is exact (or, where it is not,
// only its sign is used and that is exact). No error-free transformation
// that relies on an algebraic identity (Veltkamp's c - (c - a), Knuth's
// TwoSum) is used: Vulkan drivers may rewrite SPIR-V float ops with such
// identities (Mesa's NIR turns c - (c - a) into a; measured with lavapipe),
// since SPIR-V float ops are not NoContraction ("exact") by default.
//
//===----------------------------------------------------------------------===//
#include "conversion/onnx-to-tosa/ExactArithmetic.h"

#include <cmath>
#include <limits>

using namespace mlir;

namespace onnx_tosa {
namespace {

Type f32(TosaBuilder &t) { return t.getBuilder().getF32Type(); }

/// The pieces splitExactly() cuts a constant into, computed here.
std::pair<float, float> splitConstant(float a) {
  if (a == 0 || !std::isfinite(a))
    return {a, 0};
  int e;
  std::frexp(std::fabs(a), &e); // |a| = m * 2^e, m in [0.5, 1)
  float unit = std::ldexp(1.0f, e - 12);
  float hi = std::floor(std::fabs(a) / unit) * unit;
  return {std::copysign(hi, a), std::copysign(std::fabs(a) - hi, a)};
}

/// For positive f32 `a` (normal): {2^E, 2^-E} with 2^E <= a < 2^(E+1), by a
/// binary search of compares and exact power-of-two scalings.
std::pair<Value, Value> binade(TosaBuilder &t, Value a) {
  Value v = a, p = t.scalarLike(a, 1), inv = p;
  auto step = [&](Value cond, int m) {
    v = t.select(cond, t.mul(v, t.scalarLike(v, std::ldexp(1.0, -m))), v);
    p = t.select(cond, t.mul(p, t.scalarLike(p, std::ldexp(1.0, m))), p);
    inv =
        t.select(cond, t.mul(inv, t.scalarLike(inv, std::ldexp(1.0, -m))), inv);
  };
  for (int m : {64, 32, 16, 8, 4, 2, 1})
    step(
        t.compare<tosa::GreaterEqualOp>(v, t.scalarLike(v, std::ldexp(1.0, m))),
        m);
  for (int m : {64, 32, 16, 8, 4, 2, 1})
    step(t.compare<tosa::GreaterOp>(t.scalarLike(v, std::ldexp(1.0, 1 - m)), v),
         -m);
  return {p, inv};
}

/// Whether integral f32 `n` is odd.
Value isOdd(TosaBuilder &t, Value n) {
  Value half = t.unary<tosa::FloorOp>(t.mul(n, t.scalarLike(n, 0.5)));
  return t.unary<tosa::LogicalNotOp>(
      t.compare<tosa::EqualOp>(t.mul(half, t.scalarLike(n, 2)), n));
}

/// `a` (f32) as a sum of pieces of at most 12 significant bits each, so that
/// products of two pieces are exact (Veltkamp's split, but cut with floor and
/// power-of-two scalings; see the top of the file). A quotient (|a| <= 2^17,
/// the range that does not saturate) is split at fixed binary points; any other
/// value (`normalize`) at 12 bits below its leading one, found with binade().
SmallVector<Value> splitExactly(TosaBuilder &t, Value a, bool normalize) {
  if (normalize) {
    Value hi = foldF32(
        t, {a}, [](ArrayRef<float> v) { return splitConstant(v[0]).first; });
    Value lo = foldF32(
        t, {a}, [](ArrayRef<float> v) { return splitConstant(v[0]).second; });
    if (hi && lo)
      return {hi, lo};
  }
  Value negative = t.compare<tosa::GreaterOp>(t.scalarLike(a, 0), a);
  Value sign = t.select(negative, t.scalarLike(a, -1), t.scalarLike(a, 1));
  Value rest = t.abs(a);
  auto cut = [&](Value unit, Value inverseUnit) {
    Value piece = t.mul(t.unary<tosa::FloorOp>(t.mul(rest, inverseUnit)), unit);
    rest = t.sub(rest, piece);
    return t.mul(piece, sign);
  };
  SmallVector<Value> pieces;
  if (normalize) {
    auto [p, inv] = binade(t, rest);
    pieces.push_back(cut(t.mul(p, t.scalarLike(p, std::ldexp(1.0, -11))),
                         t.mul(inv, t.scalarLike(inv, std::ldexp(1.0, 11)))));
  } else {
    for (int unit : {6, -6, -18})
      pieces.push_back(cut(t.scalarLike(a, std::ldexp(1.0, unit)),
                           t.scalarLike(a, std::ldexp(1.0, -unit))));
  }
  pieces.push_back(t.mul(rest, sign));
  return pieces;
}

} // namespace

Value foldF32(TosaBuilder &t, ValueRange operands,
              function_ref<float(ArrayRef<float>)> fn) {
  SmallVector<SmallVector<double>> values;
  Shape shape;
  for (Value v : operands) {
    std::optional<DenseElementsAttr> attr = TosaBuilder::constantValue(v);
    if (!attr || !isa<FloatType>(attr->getElementType()))
      return {};
    values.push_back(toDoubles(*attr));
    shape = *broadcastShapes(shape, t.shapeOf(v));
  }
  int64_t rank = shape.size();
  SmallVector<Shape> strides; // 0 along broadcast dimensions
  for (Value v : operands)
    strides.push_back(broadcastStrides(t.shapeOf(v), rank));
  SmallVector<double> out;
  SmallVector<float> args(operands.size());
  Shape idx(rank, 0);
  for (int64_t linear = 0, count = product(shape); linear < count; ++linear) {
    for (size_t k = 0; k < operands.size(); ++k) {
      int64_t from = 0;
      for (int64_t d = 0; d < rank; ++d)
        from += idx[d] * strides[k][d];
      args[k] = static_cast<float>(values[k][values[k].size() == 1 ? 0 : from]);
    }
    out.push_back(fn(args));
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++idx[d] < shape[d])
        break;
      idx[d] = 0;
    }
  }
  return t.constant(fromDoubles(RankedTensorType::get(shape, f32(t)), out));
}

Value roundHalfEven(TosaBuilder &t, Value x) {
  Value r = t.unary<tosa::FloorOp>(x);
  Value d = t.sub(x, r);
  Value half = t.scalarLike(x, 0.5);
  Value up = t.binary<tosa::LogicalOrOp>(
      t.compare<tosa::GreaterOp>(d, half),
      t.binary<tosa::LogicalAndOp>(t.compare<tosa::EqualOp>(d, half),
                                   isOdd(t, r)));
  return t.select(up, t.add(r, t.scalarLike(x, 1)), r);
}

Value divideF32(TosaBuilder &t, Value x, Value s) {
  if (Value folded =
          foldF32(t, {x, s}, [](ArrayRef<float> v) { return v[0] / v[1]; }))
    return folded;
  Value r = foldF32(t, {s}, [](ArrayRef<float> v) { return 1.0f / v[0]; });
  if (!r)
    r = t.unary<tosa::ReciprocalOp>(s);
  Value q = t.clamp(t.mul(x, r), -std::ldexp(1.0, 17), std::ldexp(1.0, 17));
  SmallVector<Value> qs = splitExactly(t, q, /*normalize=*/false);
  SmallVector<Value> ss = splitExactly(t, s, /*normalize=*/true);
  Value e = x;
  for (Value qi : qs)
    for (Value sj : ss)
      e = t.sub(e, t.mul(qi, sj));
  return t.add(q, t.mul(e, r));
}

Value roundProductF32(TosaBuilder &t, Value acc, Value m) {
  Value negative = t.compare<tosa::GreaterOp>(t.scalarLike(acc, 0), acc);
  Value magnitude = t.abs(acc);
  Value mask = t.scalarLike(magnitude, 4095);
  SmallVector<Value> accPieces;
  for (int shift : {0, 12, 24}) {
    Value piece = shift ? t.binary<tosa::LogicalRightShiftOp>(
                              magnitude, t.scalarLike(magnitude, shift))
                        : magnitude;
    if (shift < 24)
      piece = t.binary<tosa::BitwiseAndOp>(piece, mask);
    accPieces.push_back(t.cast(piece, f32(t)));
  }
  SmallVector<Value> mPieces = splitExactly(t, m, /*normalize=*/true);

  // Integer parts, and the fractions cut at 2^-20 and 2^-40: each sum of
  // six pieces of one kind is exact (below 2^24 units of its kind).
  Value whole, windows[3];
  auto accumulate = [&](Value &sum, Value v) { sum = sum ? t.add(sum, v) : v; };
  for (auto [i, a] : llvm::enumerate(accPieces)) {
    for (Value mj : mPieces) {
      Value term =
          t.mul(t.mul(a, mj), t.scalarLike(a, std::ldexp(1.0, 12 * i)));
      term = t.clamp(term, 0, std::ldexp(1.0, 21));
      Value integer = t.unary<tosa::FloorOp>(term);
      accumulate(whole, integer);
      Value rest = t.sub(term, integer);
      for (int w = 0; w < 2; ++w) {
        int bits = 20 * (w + 1);
        Value piece =
            t.mul(t.unary<tosa::FloorOp>(
                      t.mul(rest, t.scalarLike(rest, std::ldexp(1.0, bits)))),
                  t.scalarLike(rest, std::ldexp(1.0, -bits)));
        accumulate(windows[w], piece);
        rest = t.sub(rest, piece);
      }
      accumulate(windows[2], rest);
    }
  }
  Value carry = t.unary<tosa::FloorOp>(windows[0]);
  Value n = t.add(whole, carry);
  Value d = t.sub(t.sub(windows[0], carry), t.scalarLike(carry, 0.5));
  d = t.add(t.add(d, windows[1]), windows[2]);
  Value zero = t.scalarLike(d, 0);
  Value up = t.binary<tosa::LogicalOrOp>(
      t.compare<tosa::GreaterOp>(d, zero),
      t.binary<tosa::LogicalAndOp>(t.compare<tosa::EqualOp>(d, zero),
                                   isOdd(t, n)));
  n = t.select(up, t.add(n, t.scalarLike(n, 1)), n);
  return t.select(negative, t.negate(n), n);
}

Value exactFmod(TosaBuilder &t, Value a, Value b) {
  Type elt = t.elementTypeOf(a);
  // f16 and bf16 values are f32 values, and so is their remainder.
  bool narrow = !elt.isF32();
  int steps = elt.isF16() ? 40 : 280;
  if (narrow) {
    a = t.cast(a, f32(t));
    b = t.cast(b, f32(t));
  }
  Value absA = t.abs(a), absB = t.abs(b);
  // m = |b| * 2^i with m <= |a| < 2m: |b|'s significand at |a|'s binade,
  // or one binade below where |b|'s significand is the larger.
  auto [pa, invA] = binade(t, absA);
  auto [pb, invB] = binade(t, absB);
  Value sigA = t.mul(absA, invA), sigB = t.mul(absB, invB);
  Value larger = t.compare<tosa::GreaterOp>(sigB, sigA);
  Value m = t.mul(t.select(larger, t.mul(sigB, t.scalarLike(sigB, 0.5)), sigB),
                  pa);
  Value r = absA;
  for (int i = 0; i < steps; ++i) {
    // m is |b| * 2^j (j >= 0) while m >= |b|; below that nothing is taken.
    Value take = t.binary<tosa::LogicalAndOp>(
        t.compare<tosa::GreaterEqualOp>(r, m),
        t.compare<tosa::GreaterEqualOp>(m, absB));
    r = t.select(take, t.sub(r, m), r);
    m = t.mul(m, t.scalarLike(m, 0.5));
  }
  // a's sign (a remainder of 0 keeps it too: fmod(-4, 2) is -0).
  Value negative = t.compare<tosa::GreaterOp>(t.scalarLike(a, 0), a);
  r = t.select(negative, t.negate(r), r);
  double inf = std::numeric_limits<double>::infinity();
  double nan = std::numeric_limits<double>::quiet_NaN();
  Value zeroB = t.compare<tosa::EqualOp>(absB, t.scalarLike(absB, 0));
  Value infA = t.compare<tosa::EqualOp>(absA, t.scalarLike(absA, inf));
  Value infB = t.compare<tosa::EqualOp>(absB, t.scalarLike(absB, inf));
  Value smaller = t.compare<tosa::GreaterOp>(absB, absA); // also a = 0
  r = t.select(t.binary<tosa::LogicalOrOp>(smaller, infB), a, r);
  r = t.select(t.binary<tosa::LogicalOrOp>(zeroB, infA),
               t.scalarLike(r, nan), r);
  // NaN operands: comparisons with them are false, so r is what the steps
  // left; a NaN operand makes the result NaN.
  Value aNaN = t.unary<tosa::LogicalNotOp>(t.compare<tosa::EqualOp>(a, a));
  Value bNaN = t.unary<tosa::LogicalNotOp>(t.compare<tosa::EqualOp>(b, b));
  r = t.select(t.binary<tosa::LogicalOrOp>(aNaN, bNaN), t.scalarLike(r, nan),
               r);
  return narrow ? t.cast(r, elt) : r;
}

} // namespace onnx_tosa
