//===- Reduction.cpp - REDUCE_* and ARGMAX --------------------------------===//
//
// TOSA 1.0 sections "Reduction Operators" and ARGMAX ("Tensor Operators").
// A reduction walks the input as [outer, K, inner] around its axis.
//
//===----------------------------------------------------------------------===//
#include "reference/tosa-eval/OpEval.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"

#include <cmath>

using namespace mlir;

namespace onnx_tosa::ref {
namespace {

struct AxisSplit {
  int64_t outer = 1, k = 1, inner = 1;
};

bool splitAxis(OpEval &e, const Tensor &x, AxisSplit &s, int64_t &axis) {
  axis = e.op->getAttrOfType<IntegerAttr>("axis").getInt();
  if (e.errorIf(axis < 0 || axis >= static_cast<int64_t>(x.rank()),
                "axis out of range"))
    return false;
  for (int64_t d = 0; d < static_cast<int64_t>(x.rank()); ++d)
    (d < axis ? s.outer : d == axis ? s.k : s.inner) *= x.shape[d];
  return true;
}

enum class Reduce { All, Any, Max, Min, Product, Sum };

OpHandler reduction(Reduce kind) {
  return [kind](OpEval &e) -> LogicalResult {
    const Tensor &x = e.in(0);
    AxisSplit s;
    int64_t axis;
    if (!splitAxis(e, x, s, axis))
      return failure();
    Tensor &out = e.result();
    if (e.errorIf(out.size() != s.outer * s.inner || out.shape[axis] != 1,
                  "the output must keep the reduced axis with size 1"))
      return failure();
    bool propagate = propagatesNan(e.op);
    if (kind == Reduce::Product && !x.isFloat())
      return e.fail("REDUCE_PRODUCT is defined for floating-point types");
    for (int64_t o = 0; o < s.outer; ++o)
      for (int64_t i = 0; i < s.inner; ++i) {
        int64_t first = o * s.k * s.inner + i;
        int64_t dst = o * s.inner + i;
        if (x.isFloat()) {
          double acc = x.floats[first];
          for (int64_t k = 1; k < s.k; ++k) {
            double v = x.floats[first + k * s.inner];
            switch (kind) {
            case Reduce::Max:
              acc = applyMaxF(acc, v, propagate);
              break;
            case Reduce::Min:
              acc = applyMinF(acc, v, propagate);
              break;
            case Reduce::Product:
              acc *= v;
              break;
            case Reduce::Sum:
              acc += v;
              break;
            default:
              break;
            }
          }
          out.floats[dst] = acc;
          continue;
        }
        int64_t acc = x.ints[first];
        for (int64_t k = 1; k < s.k; ++k) {
          int64_t v = x.ints[first + k * s.inner];
          switch (kind) {
          case Reduce::All:
            acc = acc && v;
            break;
          case Reduce::Any:
            acc = acc || v;
            break;
          case Reduce::Max:
            acc = std::max(acc, v);
            break;
          case Reduce::Min:
            acc = std::min(acc, v);
            break;
          case Reduce::Sum:
            acc = checkedInt(e, acc + v, out.type, "REDUCE_SUM");
            break;
          default:
            break;
          }
        }
        out.ints[dst] = x.type == DType::Bool ? acc != 0 : acc;
      }
    return success();
  };
}

/// ARGMAX: the first index of the maximum; NaN compares greater than any
/// number in PROPAGATE mode and less in IGNORE mode.
LogicalResult evalArgMax(OpEval &e) {
  const Tensor &x = e.in(0);
  AxisSplit s;
  int64_t axis;
  if (!splitAxis(e, x, s, axis))
    return failure();
  Tensor &out = e.result();
  if (e.errorIf(out.size() != s.outer * s.inner,
                "the output must drop the reduced axis"))
    return failure();
  bool propagate = propagatesNan(e.op);
  for (int64_t o = 0; o < s.outer; ++o)
    for (int64_t i = 0; i < s.inner; ++i) {
      int64_t first = o * s.k * s.inner + i;
      int64_t maxIndex = 0;
      if (x.isFloat()) {
        double maxValue = propagate ? -INFINITY : std::nan("");
        for (int64_t k = 0; k < s.k; ++k) {
          double v = x.floats[first + k * s.inner];
          double r = applyMaxF(v, maxValue, propagate);
          bool same = r == maxValue || (std::isnan(r) && std::isnan(maxValue));
          if (!same) {
            maxValue = r;
            maxIndex = k;
          }
        }
      } else {
        int64_t maxValue = minSigned(bitWidth(x.type));
        for (int64_t k = 0; k < s.k; ++k) {
          int64_t v = x.ints[first + k * s.inner];
          if (v > maxValue) {
            maxValue = v;
            maxIndex = k;
          }
        }
      }
      e.require(maxIndex <= maxSigned(bitWidth(out.type)),
                "the index does not fit the output type");
      out.ints[o * s.inner + i] = maxIndex;
    }
  return success();
}

} // namespace

void registerReductionOps(HandlerTable &table) {
  table["tosa.reduce_all"] = reduction(Reduce::All);
  table["tosa.reduce_any"] = reduction(Reduce::Any);
  table["tosa.reduce_max"] = reduction(Reduce::Max);
  table["tosa.reduce_min"] = reduction(Reduce::Min);
  table["tosa.reduce_product"] = reduction(Reduce::Product);
  table["tosa.reduce_sum"] = reduction(Reduce::Sum);
  table["tosa.argmax"] = evalArgMax;
}

} // namespace onnx_tosa::ref
