//===- Selection.cpp - TopK -----------------------------------------------===//
//
// Ops that pick elements by value. TOSA has no sort: TopK is K rounds of
// "find the extreme, take its lowest index, mark it taken" (so K must be a
// compile-time constant and small). Compress, which picks by a mask, is
// with the ops of data-dependent size (DataDependent.cpp).
//
//===----------------------------------------------------------------------===//
#include "conversion/onnx-to-tosa/NodeContext.h"

#include <cmath>
#include <limits>
#include <numeric>

using namespace mlir;

namespace onnx_tosa {
namespace {

/// Each TopK round costs a handful of full-size elementwise ops and
/// reductions; past this many rounds a sort would be needed.
constexpr int64_t kMaxTopK = 64;

/// The value ranking below every other one when taking the largest (above
/// every other one when taking the smallest) of element type `elt`.
double worstValue(Type elt, bool largest) {
  if (isa<FloatType>(elt))
    return largest ? -std::numeric_limits<double>::infinity()
                   : std::numeric_limits<double>::infinity();
  double half = std::ldexp(1.0, elt.getIntOrFloatBitWidth() - 1);
  return largest ? -half : half - 1;
}

/// TopK(X, K) along `axis`, as the ONNX reference orders it: by value, ties
/// by lower index, NaN above every number (first when largest, last when
/// smallest). Round r finds the extreme of the positions not yet taken,
/// takes its lowest index (a reduce_min over the matching positions' iota)
/// and that position's value. Results come out sorted also for sorted=0
/// (the order is then unspecified). Indices are i32, the demoted int64 of
/// docs/types.md.
LegalizeResult topK(NodeContext &ctx) {
  if (failed(ctx.requireInputs(1)) ||
      failed(ctx.requireElementType(0, Elt::Number)))
    return failure();
  TosaBuilder &t = ctx.tosa;
  Value x = ctx.input(0);
  ArrayRef<int64_t> in = t.shapeOf(x);
  int64_t rank = in.size();
  std::optional<int64_t> axis = normalizeAxis(ctx.getInt("axis", -1), rank);
  if (!axis)
    return ctx.fail("axis is out of range");
  int64_t k;
  if (ctx.getOpset() < 10) {
    if (!ctx.hasAttr("k"))
      return ctx.fail("attribute k is required");
    k = ctx.getInt("k", 0);
  } else {
    Shape ks;
    if (failed(ctx.requireInputs(2)) ||
        failed(ctx.requireConstantInts(1, "K", ks)))
      return failure();
    if (ks.size() != 1)
      return ctx.fail("K must hold one element");
    k = ks.front();
  }
  bool largest = ctx.getOpset() < 11 || ctx.getInt("largest", 1);
  int64_t n = in[*axis];
  if (k < 1 || k > n)
    return ctx.fail("K = " + Twine(k) + " must be in [1, " + Twine(n) +
                    "] (TOSA tensors cannot be empty)");
  if (k > kMaxTopK)
    return ctx.fail("K = " + Twine(k) + " is larger than " + Twine(kMaxTopK) +
                    ": TopK is built from K selection rounds (TOSA has no "
                    "sort)");
  if (failed(ctx.requireNonEmpty(in)))
    return failure();

  Type elt = t.elementTypeOf(x);
  bool isFloat = isa<FloatType>(elt);
  Type i32 = t.getBuilder().getI32Type();
  Shape iotaShape(rank, 1);
  iotaShape[*axis] = n;
  SmallVector<int64_t> positions(n);
  std::iota(positions.begin(), positions.end(), 0);
  Value iota =
      t.constant(fromInts(RankedTensorType::get(iotaShape, i32), positions));
  Value past = t.scalarLike(iota, n);
  Value worst = t.scalarLike(x, worstValue(elt, largest));
  auto extreme = [&](Value v) {
    return largest ? t.reduceMax(v, {*axis})
                   : t.reduce<tosa::ReduceMinOp>(v, {*axis});
  };
  auto both = [&](Value a, Value c) {
    return t.binary<tosa::LogicalAndOp>(a, c);
  };
  auto anyOf = [&](Value mask) {
    return t.reduce<tosa::ReduceAnyOp>(mask, {*axis});
  };
  Value isNumber = isFloat ? t.compare<tosa::EqualOp>(x, x) : Value();
  Value isNaN = isFloat ? t.unary<tosa::LogicalNotOp>(isNumber) : Value();
  Value lowest = t.scalarLike(x, worstValue(elt, /*largest=*/true));

  Values values, indices;
  Value taken; // positions chosen in earlier rounds (null in the first)
  for (int64_t r = 0; r < k; ++r) {
    Value open = taken ? t.unary<tosa::LogicalNotOp>(taken) : Value();
    // Open positions holding a number (all open ones for integers).
    Value number = isNumber ? (open ? both(open, isNumber) : isNumber) : open;
    Value best = extreme(number ? t.select(number, x, worst) : x);
    Value match = t.compare<tosa::EqualOp>(x, best);
    if (number)
      match = both(number, match);
    if (isFloat) {
      // NaN ranks above every number: open NaNs are taken first when
      // largest, and only once no open number is left when smallest.
      Value openNaN = open ? both(open, isNaN) : isNaN;
      Value takeNaN =
          largest ? anyOf(openNaN) : t.unary<tosa::LogicalNotOp>(anyOf(number));
      match = t.select(takeNaN, openNaN, match);
    }
    Value index =
        t.reduce<tosa::ReduceMinOp>(t.select(match, iota, past), {*axis});
    Value chosen = t.compare<tosa::EqualOp>(iota, index);
    // The chosen position's own value (keeps NaN and the sign of zero);
    // for integers the extreme is that value.
    values.push_back(isFloat ? t.reduceMax(t.select(chosen, x, lowest), {*axis})
                             : best);
    indices.push_back(index);
    if (r + 1 < k)
      taken = taken ? t.binary<tosa::LogicalOrOp>(taken, chosen) : chosen;
  }
  if (k == 1)
    return Values{values.front(), indices.front()};
  return Values{t.concat(values, *axis), t.concat(indices, *axis)};
}

// clang-format off
const OpLegalization kSelection[] = {
    {"TopK", 1, topK},
};
// clang-format on

} // namespace

ArrayRef<OpLegalization> getSelectionLegalizations() { return kSelection; }

} // namespace onnx_tosa
