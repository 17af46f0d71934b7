//===- Determinant.cpp - Det by unrolled LU with partial pivoting ---------===//
//
// Det (opset 11) of [..., M, M] for small static M: every matrix entry is a
// [batch, 1] tensor, and Gaussian elimination with partial pivoting is
// unrolled at compile time. Row exchanges depend on the data, so they are
// selects: a compare-and-swap against each lower row leaves the largest
// |pivot| in place (any order of the other rows is a permutation whose sign
// is tracked). About 2 M^3 / 3 elementwise ops, hence the size limit.
//
//===----------------------------------------------------------------------===//
#include "conversion/onnx-to-tosa/NodeContext.h"

using namespace mlir;

namespace onnx_tosa {
namespace {

/// Beyond this the unrolled program grows past a few thousand ops.
constexpr int64_t kMaxOrder = 8;

LegalizeResult det(NodeContext &ctx) {
  if (failed(ctx.requireInputs(1)) ||
      failed(ctx.requireElementType(0, Elt::Float)) ||
      failed(ctx.requireNonEmpty(ctx.inputShape(0))))
    return failure();
  TosaBuilder &t = ctx.tosa;
  Value x = ctx.input(0);
  ArrayRef<int64_t> shape = ctx.inputShape(0);
  int64_t rank = shape.size();
  if (rank < 2 || shape[rank - 1] != shape[rank - 2])
    return ctx.fail("input must be a (batch of) square matrices, got " +
                    llvm::to_string(x.getType()));
  int64_t m = shape.back();
  if (m > kMaxOrder)
    return ctx.fail("matrices of order " + Twine(m) +
                    " are not supported (at most " + Twine(kMaxOrder) +
                    ": the elimination is unrolled)");
  ArrayRef<int64_t> batch = shape.drop_back(2);
  int64_t n = product(batch);

  // a[i][j]: entry (i, j) of every matrix, as [n, 1].
  Value flat = t.reshape(x, {n, m * m});
  SmallVector<SmallVector<Value>> a(m, SmallVector<Value>(m));
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < m; ++j)
      a[i][j] = t.sliceAxis(flat, 1, i * m + j, 1);

  Value zero = t.scalarLike(a[0][0], 0), one = t.scalarLike(a[0][0], 1);
  Value result = t.splat({n, 1}, t.elementTypeOf(x), 1);
  for (int64_t k = 0; k < m; ++k) {
    for (int64_t i = k + 1; i < m; ++i) {
      Value swap = t.compare<tosa::GreaterOp>(t.abs(a[i][k]), t.abs(a[k][k]));
      for (int64_t j = k; j < m; ++j) {
        Value upper = t.select(swap, a[i][j], a[k][j]);
        a[i][j] = t.select(swap, a[k][j], a[i][j]);
        a[k][j] = upper;
      }
      result = t.select(swap, t.negate(result), result);
    }
    Value pivot = a[k][k];
    result = t.mul(result, pivot);
    if (k + 1 == m)
      break;
    // A zero pivot means a zero column below it too (it is the largest):
    // the determinant is already 0, and dividing by 1 instead keeps NaN out
    // of the remaining steps.
    Value safe = t.select(t.compare<tosa::EqualOp>(pivot, zero), one, pivot);
    Value inverse = t.unary<tosa::ReciprocalOp>(safe);
    for (int64_t i = k + 1; i < m; ++i) {
      Value factor = t.mul(a[i][k], inverse);
      for (int64_t j = k + 1; j < m; ++j)
        a[i][j] = t.sub(a[i][j], t.mul(factor, a[k][j]));
    }
  }
  return Values{t.reshape(result, batch)};
}

// clang-format off
const OpLegalization kDeterminant[] = {
    {"Det", 11, det},
};
// clang-format on

} // namespace

ArrayRef<OpLegalization> getDeterminantLegalizations() { return kDeterminant; }

} // namespace onnx_tosa
