//===- Trigonometry.cpp - Tan, inverse trigonometric and hyperbolic ops ---===//
//
// TOSA 1.0 has SIN, COS, EXP, LOG, RSQRT and RECIPROCAL but no tangent,
// inverse trigonometric or hyperbolic functions, so these are composed from
// them. Every function is evaluated in f32 (f16/bf16 inputs are widened and
// the result narrowed once) with a form that stays accurate where the naive
// identity cancels: odd polynomials near 0, a reduced atan argument, and
// exp/log forms only where their result is not small.
//
// The polynomials are our own weighted least-squares fits on Chebyshev
// nodes (near-minimax for relative error); in f32 each stays below 8e-8
// relative on its interval. Measured end to end on the Vulkan target
// (lavapipe) against numpy's float64 functions over dense sweeps (about
// 400k points per op: linear sweeps across the domain and the branch
// points, log-spaced sweeps from 1e-30 to 1e30 and toward +-1, plus 0, -0,
// +-1, +-inf and NaN), the largest relative errors are: Atan 2.1e-7,
// Asin 2.8e-7, Acos 2.6e-7, Asinh 2.9e-7, Acosh 2.6e-7, Atanh 1.9e-7,
// Sinh and Cosh 7.6e-7 for |x| <= 10, rising to 6.4e-6 near |x| = 89 where
// their condition number |x| amplifies the input's rounding by as much;
// Tan 2.3e-7 for |x| <= 10 away from its poles (it is only as good as the
// target's SIN and COS, which lose all accuracy for |x| ~ 1e30). Outside
// the domain (|x| > 1 for Asin/Acos/Atanh, x < 1 for Acosh) the result is
// NaN, as in numpy and the ONNX reference; +-1 give the exact limits
// (+-pi/2, 0/pi, +-inf).
//
//===----------------------------------------------------------------------===//
#include "conversion/onnx-to-tosa/NodeContext.h"

#include <cmath>
#include <limits>

using namespace mlir;

namespace onnx_tosa {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kLn2 = 0.69314718055994530942;

// atan(u) = u + u z P(z), z = u^2, |u| <= tan(pi/8); 6.3e-8 relative in f32.
constexpr double kAtan[] = {-3.333333181e-01, 1.999955017e-01, -1.426423453e-01,
                            1.074631383e-01, -6.459416165e-02};
// sinh(x) = x + x z P(z), |x| < 1; 7.8e-8 relative in f32.
constexpr double kSinh[] = {1.666666665e-01, 8.333339672e-03, 1.983810243e-04,
                            2.806279094e-06};
// asinh(x) = x + x z P(z), |x| < 0.5; 6.1e-8 relative in f32.
constexpr double kAsinh[] = {-1.666666468e-01, 7.499593750e-02,
                             -4.450871413e-02, 2.879760993e-02,
                             -1.431637410e-02};
// atanh(x) = x + x z P(z), |x| < 0.5; 7.0e-8 relative in f32.
constexpr double kAtanh[] = {3.333333157e-01, 2.000049600e-01, 1.426324274e-01,
                             1.147822155e-01, 6.455017978e-02, 1.581373416e-01};

/// Elementwise math on one f32 tensor; every helper keeps the shape.
class Math {
public:
  explicit Math(TosaBuilder &t) : t(t) {}

  Value c(Value like, double v) { return t.scalarLike(like, v); }
  Value add(Value a, Value b) { return t.add(a, b); }
  Value sub(Value a, Value b) { return t.sub(a, b); }
  Value mul(Value a, Value b) { return t.mul(a, b); }
  Value recip(Value v) { return t.unary<tosa::ReciprocalOp>(v); }
  Value exp(Value v) { return t.unary<tosa::ExpOp>(v); }
  Value log(Value v) { return t.unary<tosa::LogOp>(v); }
  Value abs(Value v) { return t.abs(v); }
  Value less(Value a, double b) {
    return t.compare<tosa::GreaterOp>(c(a, b), a);
  }
  Value greater(Value a, double b) {
    return t.compare<tosa::GreaterOp>(a, c(a, b));
  }
  Value select(Value cond, Value a, Value b) { return t.select(cond, a, b); }

  /// -r where x < 0 (the odd functions are computed on |x|).
  Value withSignOf(Value x, Value r) {
    return select(less(x, 0), t.negate(r), r);
  }
  /// NaN where `outside` holds (the argument is outside the domain).
  Value nanWhere(Value outside, Value v) {
    return select(outside, c(v, std::numeric_limits<double>::quiet_NaN()), v);
  }

  /// x + x z P(z) with z = x^2, P by Horner: the correction to the leading
  /// term is small, so relative accuracy near 0 is that of P.
  Value oddSeries(Value x, ArrayRef<double> p) {
    Value z = mul(x, x);
    Value acc = c(x, p.back());
    for (double coeff : llvm::reverse(p.drop_back()))
      acc = add(mul(acc, z), c(x, coeff));
    return add(x, mul(mul(x, z), acc));
  }

  /// atan(x): |x| > 1 uses pi/2 - atan(1/|x|); then t > tan(pi/8) uses
  /// pi/4 + atan((t - 1) / (t + 1)), leaving |u| <= tan(pi/8) for the
  /// polynomial. +-inf gives +-pi/2 (1/inf = 0); NaN propagates.
  Value atan(Value x) {
    Value a = abs(x);
    Value inverted = greater(a, 1.0);
    Value tt = select(inverted, recip(a), a);
    Value shifted = greater(tt, 0.41421356237309503);
    Value u =
        select(shifted, mul(sub(tt, c(x, 1)), recip(add(tt, c(x, 1)))), tt);
    Value r = oddSeries(u, kAtan);
    r = select(shifted, add(r, c(x, kPi / 4)), r);
    r = select(inverted, sub(c(x, kPi / 2), r), r);
    return withSignOf(x, r);
  }

  /// e^|x| / 2 as (e^(|x|/2) / 2) e^(|x|/2): finite up to |x| ~ 89.4, where
  /// sinh and cosh themselves overflow f32 (e^|x| alone overflows at 88.7).
  Value halfExp(Value a) {
    Value w = exp(mul(a, c(a, 0.5)));
    return mul(mul(w, c(a, 0.5)), w);
  }

  /// log(2|x|) = log|x| + ln 2 for |x| >= 1e4, where sqrt(x^2 +- 1) differs
  /// from |x| by less than 1/(2|x|) relative (and x^2 could overflow).
  Value logTwice(Value a) { return add(log(a), c(a, kLn2)); }

  TosaBuilder &t;
};

using MathFn = Value (*)(Math &, Value);

Value tanFn(Math &m, Value x) {
  return m.mul(m.t.unary<tosa::SinOp>(x), m.recip(m.t.unary<tosa::CosOp>(x)));
}

Value atanFn(Math &m, Value x) { return m.atan(x); }

/// asin(x) = atan(x / sqrt((1 - x)(1 + x))): (1 - |x|) is exact near 1, so
/// the argument keeps full accuracy; x = +-1 gives atan(+-inf) = +-pi/2.
Value asinFn(Math &m, Value x) {
  Value a = m.abs(x);
  Value oneMinus = m.sub(m.c(x, 1), a), onePlus = m.add(m.c(x, 1), a);
  Value r =
      m.atan(m.mul(x, m.t.unary<tosa::RsqrtOp>(m.mul(oneMinus, onePlus))));
  return m.nanWhere(m.greater(a, 1.0), r);
}

/// acos(x) = 2 atan(sqrt((1 - x) / (1 + x))): small results near x = 1 come
/// from the exact 1 - x; x = -1 gives 2 atan(inf) = pi.
Value acosFn(Math &m, Value x) {
  Value q = m.mul(m.sub(m.c(x, 1), x), m.recip(m.add(m.c(x, 1), x)));
  Value half = m.atan(m.t.sqrt(q));
  Value r = m.add(half, half);
  return m.nanWhere(m.greater(m.abs(x), 1.0), r);
}

/// sinh: the series below |x| = 1 (e^x - e^-x cancels there); above,
/// h - 1/(4h) with h = e^|x| / 2.
Value sinhFn(Math &m, Value x) {
  Value a = m.abs(x);
  Value h = m.halfExp(a);
  Value big = m.withSignOf(x, m.sub(h, m.mul(m.c(x, 0.25), m.recip(h))));
  Value small = m.oddSeries(x, kSinh);
  return m.select(m.less(a, 1.0), small, big);
}

/// cosh = h + 1/(4h), h = e^|x| / 2 (no cancellation: both terms positive).
Value coshFn(Math &m, Value x) {
  Value h = m.halfExp(m.abs(x));
  return m.add(h, m.mul(m.c(x, 0.25), m.recip(h)));
}

/// asinh of a non-negative `a`: the series below 0.5 (log(a + sqrt(a^2+1))
/// is log of a number near 1 there, losing the small result's digits).
Value asinhPositive(Math &m, Value a) {
  Value mid = m.log(m.add(a, m.t.sqrt(m.add(m.mul(a, a), m.c(a, 1)))));
  Value huge = m.logTwice(a);
  Value r = m.select(m.less(a, 1e4), mid, huge);
  Value small = m.oddSeries(a, kAsinh);
  return m.select(m.less(a, 0.5), small, r);
}

Value asinhFn(Math &m, Value x) {
  return m.withSignOf(x, asinhPositive(m, m.abs(x)));
}

/// acosh(x) = asinh(s), s = sqrt((x - 1)(x + 1)) (x - 1 exact near 1), and
/// log(x + s) once s >= 0.5, since then sqrt(s^2 + 1) is x itself.
Value acoshFn(Math &m, Value x) {
  Value s = m.t.sqrt(m.mul(m.sub(x, m.c(x, 1)), m.add(x, m.c(x, 1))));
  Value big = m.log(m.add(x, s));
  Value small = m.oddSeries(s, kAsinh);
  Value r = m.select(m.less(s, 0.5), small, big);
  Value huge = m.logTwice(x);
  r = m.select(m.less(x, 1e4), r, huge);
  return m.nanWhere(m.less(x, 1.0), r);
}

/// atanh: the series below |x| = 0.5; above, log((1 + a) / (1 - a)) / 2
/// with the exact 1 - a; +-1 gives +-inf.
Value atanhFn(Math &m, Value x) {
  Value a = m.abs(x);
  Value ratio = m.mul(m.add(m.c(x, 1), a), m.recip(m.sub(m.c(x, 1), a)));
  Value big = m.withSignOf(x, m.mul(m.c(x, 0.5), m.log(ratio)));
  Value small = m.oddSeries(x, kAtanh);
  Value r = m.select(m.less(a, 0.5), small, big);
  return m.nanWhere(m.greater(a, 1.0), r);
}

/// A float unary op built by `Fn`, evaluated in f32.
template <MathFn Fn> LegalizeResult unaryMath(NodeContext &ctx) {
  if (failed(ctx.requireInputs(1)) ||
      failed(ctx.requireElementType(0, Elt::Float)))
    return failure();
  TosaBuilder &t = ctx.tosa;
  Value x = ctx.input(0);
  Type elt = t.elementTypeOf(x);
  Math m(t);
  Value r = Fn(m, t.cast(x, t.getBuilder().getF32Type()));
  return Values{t.cast(r, elt)};
}

// clang-format off
const OpLegalization kTrigonometry[] = {
    {"Tan", 7, unaryMath<tanFn>},
    {"Asin", 7, unaryMath<asinFn>},
    {"Acos", 7, unaryMath<acosFn>},
    {"Atan", 7, unaryMath<atanFn>},
    {"Sinh", 9, unaryMath<sinhFn>},
    {"Cosh", 9, unaryMath<coshFn>},
    {"Asinh", 9, unaryMath<asinhFn>},
    {"Acosh", 9, unaryMath<acoshFn>},
    {"Atanh", 9, unaryMath<atanhFn>},
};
// clang-format on

} // namespace

ArrayRef<OpLegalization> getTrigonometryLegalizations() {
  return kTrigonometry;
}

} // namespace onnx_tosa
