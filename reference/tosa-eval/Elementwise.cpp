//===- Elementwise.cpp - Elementwise, comparison and activation ops -------===//
//
// TOSA 1.0 sections "Activation Functions", "Elementwise Binary Operators",
// "Elementwise Unary Operators", "Elementwise Ternary Operators" and
// "Comparison Operators". Uniform ops are one table row each; ops with
// attributes or zero points get a function.
//
//===----------------------------------------------------------------------===//
#include "reference/tosa-eval/OpEval.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"

#include <cmath>
#include <limits>

using namespace mlir;

namespace onnx_tosa::ref {
namespace {

/// ERROR_IF(shape != broadcast_shape(...)): equal ranks, and every input
/// dimension is 1 or the output's.
bool checkBroadcast(OpEval &e, const Shape &out, unsigned numInputs = 2) {
  for (unsigned i = 0; i < numInputs; ++i) {
    const Tensor *t = e.operands[i];
    if (t->shape.size() != out.size())
      return !e.errorIf(true, "input rank differs from the output's");
    for (size_t d = 0; d < out.size(); ++d)
      if (t->shape[d] != 1 && t->shape[d] != out[d])
        return !e.errorIf(true, "input shape " + shapeString(t->shape) +
                                    " does not broadcast to " +
                                    shapeString(out));
  }
  return true;
}

/// Calls fn(outOffset, offset of input 0, offset of input 1, ...) for every
/// output element, with TOSA broadcasting.
template <typename Fn>
void forEachBroadcast(OpEval &e, const Shape &out, unsigned numInputs, Fn fn) {
  Shape index(out.size(), 0);
  int64_t n = numElements(out);
  int64_t offsets[3] = {0, 0, 0};
  for (int64_t o = 0; o < n; ++o) {
    for (unsigned i = 0; i < numInputs; ++i)
      offsets[i] = broadcastOffset(index, e.in(i).shape);
    fn(o, offsets);
    nextIndex(index, out);
  }
}

//===----------------------------------------------------------------------===//
// Unary
//===----------------------------------------------------------------------===//

using FloatFn = double (*)(double);

/// apply_log: log(0) is -infinity, log of a negative value is NaN.
double applyLog(double x) {
  if (x == 0)
    return -std::numeric_limits<double>::infinity();
  if (x < 0)
    return std::nan("");
  return std::log(x);
}
double applyExp(double x) { return std::exp(x); }
double applyReciprocal(double x) { return 1.0 / x; }
double applyRsqrt(double x) { return 1.0 / std::sqrt(x); }
double applyTanh(double x) { return std::tanh(x); }
double applySigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }
double applyErf(double x) { return std::erf(x); }
double applySin(double x) { return std::sin(x); }
double applyCos(double x) { return std::cos(x); }
double applyFloor(double x) { return std::floor(x); }
double applyCeil(double x) { return std::ceil(x); }
double applyAbsF(double x) { return std::fabs(x); } // ABS maps -0 to +0

/// A floating-point-only unary op.
OpHandler floatUnary(FloatFn fn) {
  return [fn](OpEval &e) -> LogicalResult {
    const Tensor &x = e.in(0);
    if (!x.isFloat())
      return e.fail("integer inputs are not supported by this op");
    Tensor &out = e.result();
    for (int64_t i = 0, n = x.size(); i < n; ++i)
      out.floats[i] = fn(x.floats[i]);
    return success();
  };
}

LogicalResult evalAbs(OpEval &e) {
  const Tensor &x = e.in(0);
  if (x.isFloat())
    return floatUnary(applyAbsF)(e);
  Tensor &out = e.result();
  for (int64_t i = 0, n = x.size(); i < n; ++i) {
    int64_t v = x.ints[i];
    // apply_sub_s(0, v): abs(minimum) overflows.
    out.ints[i] = v < 0 ? checkedInt(e, -v, x.type, "ABS") : v;
  }
  return success();
}

LogicalResult evalBitwiseNot(OpEval &e) {
  const Tensor &x = e.in(0);
  Tensor &out = e.result();
  for (int64_t i = 0, n = x.size(); i < n; ++i)
    out.ints[i] = wrapSigned(~x.ints[i], bitWidth(x.type));
  return success();
}

LogicalResult evalClz(OpEval &e) {
  const Tensor &x = e.in(0);
  Tensor &out = e.result();
  unsigned bits = bitWidth(x.type);
  for (int64_t i = 0, n = x.size(); i < n; ++i) {
    uint64_t u = zeroExtend(x.ints[i], bits);
    int64_t count = bits;
    for (int b = bits - 1; b >= 0; --b)
      if (u >> b & 1) {
        count = bits - 1 - b;
        break;
      }
    out.ints[i] = count;
  }
  return success();
}

LogicalResult evalLogicalNot(OpEval &e) {
  const Tensor &x = e.in(0);
  Tensor &out = e.result();
  for (int64_t i = 0, n = x.size(); i < n; ++i)
    out.ints[i] = x.ints[i] == 0;
  return success();
}

/// NEGATE with zero points (i8 only): acc = out_zp - (in - in_zp), clipped.
LogicalResult evalNegate(OpEval &e) {
  const Tensor &x = e.in(0);
  Tensor &out = e.result();
  if (x.isFloat()) {
    if (e.errorIf(e.scalarFloat(1) != 0 || e.scalarFloat(2) != 0,
                  "zero points must be zero for floating-point types"))
      return failure();
    for (int64_t i = 0, n = x.size(); i < n; ++i)
      out.floats[i] = -x.floats[i];
    return success();
  }
  int64_t inZp = e.scalarInt(1), outZp = e.scalarInt(2);
  if (e.errorIf(x.type != DType::I8 && (inZp != 0 || outZp != 0),
                "zero points are only allowed for i8"))
    return failure();
  DType acc = x.type == DType::I64 ? DType::I64 : DType::I32;
  unsigned bits = bitWidth(x.type);
  for (int64_t i = 0, n = x.size(); i < n; ++i) {
    int64_t v = checkedInt(e, x.ints[i] - inZp, acc, "NEGATE");
    v = checkedInt(e, 0 - v, acc, "NEGATE");
    v = checkedInt(e, v + outZp, acc, "NEGATE");
    out.ints[i] = std::clamp(v, minSigned(bits), maxSigned(bits));
  }
  return success();
}

LogicalResult evalClamp(OpEval &e) {
  auto clamp = e.as<tosa::ClampOp>();
  const Tensor &x = e.in(0);
  Tensor &out = e.result();
  bool propagate = propagatesNan(e.op);
  if (x.isFloat()) {
    auto minAttr = dyn_cast<FloatAttr>(clamp.getMinValAttr());
    auto maxAttr = dyn_cast<FloatAttr>(clamp.getMaxValAttr());
    if (!minAttr || !maxAttr)
      return e.fail("min_val/max_val must be float attributes");
    double lo = minAttr.getValueAsDouble(), hi = maxAttr.getValueAsDouble();
    if (e.errorIf(std::isnan(lo) || std::isnan(hi), "NaN clamp bound") ||
        e.errorIf(hi < lo, "max_val < min_val"))
      return failure();
    for (int64_t i = 0, n = x.size(); i < n; ++i)
      out.floats[i] =
          applyMinF(applyMaxF(x.floats[i], lo, propagate), hi, propagate);
    return success();
  }
  auto minAttr = dyn_cast<IntegerAttr>(clamp.getMinValAttr());
  auto maxAttr = dyn_cast<IntegerAttr>(clamp.getMaxValAttr());
  if (!minAttr || !maxAttr)
    return e.fail("min_val/max_val must be integer attributes");
  int64_t lo = minAttr.getValue().getSExtValue();
  int64_t hi = maxAttr.getValue().getSExtValue();
  if (e.errorIf(hi < lo, "max_val < min_val"))
    return failure();
  for (int64_t i = 0, n = x.size(); i < n; ++i)
    out.ints[i] = std::clamp(x.ints[i], lo, hi);
  return success();
}

//===----------------------------------------------------------------------===//
// Binary
//===----------------------------------------------------------------------===//

/// A binary op given as one function for integers and one for floats (either
/// may be null: that kind is not supported).
struct BinaryRow {
  const char *name;
  int64_t (*intFn)(OpEval &, int64_t, int64_t, DType);
  double (*floatFn)(double, double);
};

int64_t addI(OpEval &e, int64_t a, int64_t b, DType t) {
  return checkedInt(e, a + b, t, "ADD");
}
int64_t subI(OpEval &e, int64_t a, int64_t b, DType t) {
  return checkedInt(e, a - b, t, "SUB");
}
int64_t intDivI(OpEval &e, int64_t a, int64_t b, DType t) {
  e.require(b != 0, "INTDIV by zero");
  if (b == 0)
    return 0;
  if (b == -1) // minimum / -1 overflows
    return checkedInt(e, a == minSigned(64) ? a : -a, t, "INTDIV");
  return checkedInt(e, a / b, t, "INTDIV"); // truncates toward zero
}
int64_t andI(OpEval &, int64_t a, int64_t b, DType) { return a & b; }
int64_t orI(OpEval &, int64_t a, int64_t b, DType) { return a | b; }
int64_t xorI(OpEval &, int64_t a, int64_t b, DType) { return a ^ b; }
int64_t logicalAndI(OpEval &, int64_t a, int64_t b, DType) { return a && b; }
int64_t logicalOrI(OpEval &, int64_t a, int64_t b, DType) { return a || b; }
int64_t logicalXorI(OpEval &, int64_t a, int64_t b, DType) {
  return (a != 0) != (b != 0);
}
/// The shift amount REQUIRE of the shift ops: 0 <= b < width.
bool shiftInRange(OpEval &e, int64_t b, DType t) {
  bool ok = b >= 0 && b < static_cast<int64_t>(bitWidth(t));
  e.require(ok, "shift amount out of range for " + dtypeName(t));
  return ok;
}
int64_t shlI(OpEval &e, int64_t a, int64_t b, DType t) {
  if (!shiftInRange(e, b, t))
    return 0;
  return wrapSigned(static_cast<int64_t>(static_cast<uint64_t>(a) << b),
                    bitWidth(t));
}
int64_t lshrI(OpEval &e, int64_t a, int64_t b, DType t) {
  if (!shiftInRange(e, b, t))
    return 0;
  return wrapSigned(static_cast<int64_t>(zeroExtend(a, bitWidth(t)) >> b),
                    bitWidth(t));
}
int64_t maxI(OpEval &, int64_t a, int64_t b, DType) { return a >= b ? a : b; }
int64_t minI(OpEval &, int64_t a, int64_t b, DType) { return a < b ? a : b; }

double addF(double a, double b) { return a + b; }
double subF(double a, double b) { return a - b; }
double powF(double a, double b) { return std::pow(a, b); }

constexpr BinaryRow kBinaryRows[] = {
    {"tosa.add", addI, addF},
    {"tosa.sub", subI, subF},
    {"tosa.intdiv", intDivI, nullptr},
    {"tosa.bitwise_and", andI, nullptr},
    {"tosa.bitwise_or", orI, nullptr},
    {"tosa.bitwise_xor", xorI, nullptr},
    {"tosa.logical_and", logicalAndI, nullptr},
    {"tosa.logical_or", logicalOrI, nullptr},
    {"tosa.logical_xor", logicalXorI, nullptr},
    {"tosa.logical_left_shift", shlI, nullptr},
    {"tosa.logical_right_shift", lshrI, nullptr},
    {"tosa.pow", nullptr, powF},
};

OpHandler binary(const BinaryRow &row) {
  return [row](OpEval &e) -> LogicalResult {
    Tensor &out = e.result();
    if (!checkBroadcast(e, out.shape))
      return failure();
    const Tensor &a = e.in(0), &b = e.in(1);
    if (a.isFloat() ? !row.floatFn : !row.intFn)
      return e.fail("element type " + dtypeName(a.type) +
                    " is not supported by this op");
    if (a.isFloat()) {
      forEachBroadcast(e, out.shape, 2, [&](int64_t o, const int64_t *off) {
        out.floats[o] = row.floatFn(a.floats[off[0]], b.floats[off[1]]);
      });
    } else {
      forEachBroadcast(e, out.shape, 2, [&](int64_t o, const int64_t *off) {
        out.ints[o] = row.intFn(e, a.ints[off[0]], b.ints[off[1]], out.type);
      });
    }
    return success();
  };
}

/// MAXIMUM / MINIMUM: apply_max_s / apply_min_s with the op's nan_mode.
OpHandler minMax(bool isMax) {
  return [isMax](OpEval &e) -> LogicalResult {
    Tensor &out = e.result();
    if (!checkBroadcast(e, out.shape))
      return failure();
    const Tensor &a = e.in(0), &b = e.in(1);
    bool propagate = propagatesNan(e.op);
    forEachBroadcast(e, out.shape, 2, [&](int64_t o, const int64_t *off) {
      if (a.isFloat())
        out.floats[o] =
            isMax ? applyMaxF(a.floats[off[0]], b.floats[off[1]], propagate)
                  : applyMinF(a.floats[off[0]], b.floats[off[1]], propagate);
      else
        out.ints[o] = isMax ? maxI(e, a.ints[off[0]], b.ints[off[1]], a.type)
                            : minI(e, a.ints[off[0]], b.ints[off[1]], a.type);
    });
    return success();
  };
}

/// MUL: i32 with shift rounds the 64-bit product; otherwise the product is
/// truncated to the output width (i8/i16 inputs give i32 outputs).
LogicalResult evalMul(OpEval &e) {
  Tensor &out = e.result();
  if (!checkBroadcast(e, out.shape))
    return failure();
  const Tensor &a = e.in(0), &b = e.in(1);
  int64_t shift = e.numOperands() > 2 ? e.scalarInt(2) : 0;
  e.require(shift >= 0 && shift <= 63, "MUL shift out of range");
  if (e.errorIf(shift != 0 && a.type != DType::I32,
                "shift is only allowed for i32"))
    return failure();
  forEachBroadcast(e, out.shape, 2, [&](int64_t o, const int64_t *off) {
    if (a.isFloat()) {
      out.floats[o] = a.floats[off[0]] * b.floats[off[1]];
      return;
    }
    int64_t x = a.ints[off[0]], y = b.ints[off[1]];
    if (shift > 0) {
      __int128 product = static_cast<__int128>(x) * y;
      product = (product + (static_cast<__int128>(1) << (shift - 1))) >> shift;
      e.require(product >= minSigned(32) && product <= maxSigned(32),
                "MUL result overflows i32");
      out.ints[o] = wrapSigned(static_cast<int64_t>(product), 32);
    } else {
      uint64_t p = static_cast<uint64_t>(x) * static_cast<uint64_t>(y);
      out.ints[o] = wrapSigned(static_cast<int64_t>(p), bitWidth(out.type));
    }
  });
  return success();
}

LogicalResult evalArithmeticRightShift(OpEval &e) {
  Tensor &out = e.result();
  if (!checkBroadcast(e, out.shape))
    return failure();
  const Tensor &a = e.in(0), &b = e.in(1);
  bool round = e.as<tosa::ArithmeticRightShiftOp>().getRound();
  forEachBroadcast(e, out.shape, 2, [&](int64_t o, const int64_t *off) {
    int64_t x = a.ints[off[0]], s = b.ints[off[1]];
    if (!shiftInRange(e, s, a.type)) {
      out.ints[o] = 0;
      return;
    }
    int64_t r = x >> s;
    if (round && s > 0 && ((x >> (s - 1)) & 1))
      r += 1;
    out.ints[o] = r;
  });
  return success();
}

/// EQUAL / GREATER / GREATER_EQUAL: comparisons with NaN are false.
OpHandler compare(int kind) {
  return [kind](OpEval &e) -> LogicalResult {
    Tensor &out = e.result();
    if (!checkBroadcast(e, out.shape))
      return failure();
    const Tensor &a = e.in(0), &b = e.in(1);
    forEachBroadcast(e, out.shape, 2, [&](int64_t o, const int64_t *off) {
      double x = a.asDouble(off[0]), y = b.asDouble(off[1]);
      if (!a.isFloat()) { // compare integers exactly (i64 exceeds 2^53)
        int64_t p = a.ints[off[0]], q = b.ints[off[1]];
        out.ints[o] = kind == 0 ? p == q : kind == 1 ? p > q : p >= q;
        return;
      }
      out.ints[o] = kind == 0 ? x == y : kind == 1 ? x > y : x >= y;
    });
    return success();
  };
}

LogicalResult evalSelect(OpEval &e) {
  Tensor &out = e.result();
  if (!checkBroadcast(e, out.shape, 3))
    return failure();
  const Tensor &p = e.in(0), &a = e.in(1), &b = e.in(2);
  forEachBroadcast(e, out.shape, 3, [&](int64_t o, const int64_t *off) {
    bool pick = p.ints[off[0]] != 0;
    if (out.isFloat())
      out.floats[o] = pick ? a.floats[off[1]] : b.floats[off[2]];
    else
      out.ints[o] = pick ? a.ints[off[1]] : b.ints[off[2]];
  });
  return success();
}

/// TABLE: i8 indexes a 256-entry table; i16 interpolates a 513-entry table
/// (apply_lookup_s of "General Unary Functions") into an i32 result.
LogicalResult evalTable(OpEval &e) {
  const Tensor &x = e.in(0), &table = e.in(1);
  Tensor &out = e.result();
  if (x.type == DType::I8) {
    if (e.errorIf(table.size() != 256, "an i8 TABLE has 256 entries"))
      return failure();
    for (int64_t i = 0, n = x.size(); i < n; ++i)
      out.ints[i] = table.ints[x.ints[i] + 128];
    return success();
  }
  if (x.type != DType::I16)
    return e.fail("TABLE input must be i8 or i16");
  if (e.errorIf(table.size() != 513, "an i16 TABLE has 513 entries"))
    return failure();
  for (int64_t i = 0, n = x.size(); i < n; ++i) {
    int64_t v = std::clamp<int64_t>(x.ints[i], -32768, 32767);
    int64_t index = (v + 32768) >> 7;
    int64_t fraction = v & 0x7f;
    int64_t base = table.ints[index], next = table.ints[index + 1];
    int64_t slope = next - base;
    e.require(slope >= -32768 && slope <= 32767, "TABLE slope overflows i16");
    out.ints[i] = (base << 7) + slope * fraction;
  }
  return success();
}

} // namespace

void registerElementwiseOps(HandlerTable &table) {
  struct UnaryRow {
    const char *name;
    FloatFn fn;
  };
  static constexpr UnaryRow kFloatUnary[] = {
      {"tosa.exp", applyExp},
      {"tosa.log", applyLog},
      {"tosa.reciprocal", applyReciprocal},
      {"tosa.rsqrt", applyRsqrt},
      {"tosa.tanh", applyTanh},
      {"tosa.sigmoid", applySigmoid},
      {"tosa.erf", applyErf},
      {"tosa.sin", applySin},
      {"tosa.cos", applyCos},
      {"tosa.floor", applyFloor},
      {"tosa.ceil", applyCeil},
  };
  for (const UnaryRow &row : kFloatUnary)
    table[row.name] = floatUnary(row.fn);
  table["tosa.abs"] = evalAbs;
  table["tosa.bitwise_not"] = evalBitwiseNot;
  table["tosa.clz"] = evalClz;
  table["tosa.logical_not"] = evalLogicalNot;
  table["tosa.negate"] = evalNegate;
  table["tosa.clamp"] = evalClamp;

  for (const BinaryRow &row : kBinaryRows)
    table[row.name] = binary(row);
  table["tosa.maximum"] = minMax(true);
  table["tosa.minimum"] = minMax(false);
  table["tosa.mul"] = evalMul;
  table["tosa.arithmetic_right_shift"] = evalArithmeticRightShift;
  table["tosa.equal"] = compare(0);
  table["tosa.greater"] = compare(1);
  table["tosa.greater_equal"] = compare(2);
  table["tosa.select"] = evalSelect;
  table["tosa.table"] = evalTable;
}

} // namespace onnx_tosa::ref
