//===- MatMul.cpp - MatMul and Gemm ---------------------------------------===//
//
// tosa.matmul multiplies [N, M, K] by [N, K, P] with equal batch N on both
// sides. ONNX MatMul follows numpy.matmul: 1-D operands gain (and lose) a
// unit dimension, and batch dimensions broadcast.
//
//===----------------------------------------------------------------------===//
#include "conversion/onnx-to-tosa/NodeContext.h"

using namespace mlir;

namespace onnx_tosa {
namespace {

/// numpy.matmul of `a` [..., M, K] (or [K]) by `b` [..., K, N] (or [K]).
FailureOr<Value> numpyMatmul(NodeContext &ctx, Value a, Value b) {
  TosaBuilder &t = ctx.tosa;
  bool aVector = t.rankOf(a) == 1, bVector = t.rankOf(b) == 1;
  if (t.rankOf(a) == 0 || t.rankOf(b) == 0)
    return ctx.fail("operands must have rank at least 1");
  if (aVector)
    a = t.reshape(a, {1, t.shapeOf(a)[0]});
  if (bVector)
    b = t.reshape(b, {t.shapeOf(b)[0], 1});

  ArrayRef<int64_t> aShape = t.shapeOf(a), bShape = t.shapeOf(b);
  int64_t m = aShape[aShape.size() - 2], k = aShape.back();
  int64_t n = bShape.back();
  if (bShape[bShape.size() - 2] != k)
    return ctx.fail("inner dimensions differ: " + llvm::to_string(a.getType()) +
                    " times " + llvm::to_string(b.getType()));
  ArrayRef<int64_t> aBatch = aShape.drop_back(2), bBatch = bShape.drop_back(2);
  std::optional<Shape> batch = broadcastShapes(aBatch, bBatch);
  if (!batch)
    return ctx.fail("batch dimensions are not broadcast-compatible");

  Value product;
  if (onnx_tosa::product(bBatch) == 1) {
    // A shared right operand (the usual weight matrix): fold A's batch into
    // its rows, one matmul, no broadcasting copies.
    int64_t rows = onnx_tosa::product(aBatch) * m;
    product = t.matmul(t.reshape(a, {1, rows, k}), t.reshape(b, {1, k, n}));
  } else {
    Shape aFull(*batch), bFull(*batch);
    aFull.append({m, k});
    bFull.append({k, n});
    int64_t count = onnx_tosa::product(*batch);
    product = t.matmul(t.reshape(t.broadcastTo(a, aFull), {count, m, k}),
                       t.reshape(t.broadcastTo(b, bFull), {count, k, n}));
  }
  Shape outShape(*batch);
  if (!aVector)
    outShape.push_back(m);
  if (!bVector)
    outShape.push_back(n);
  return t.reshape(product, outShape);
}

LegalizeResult matmul(NodeContext &ctx) {
  if (failed(ctx.requireInputs(2)) ||
      failed(ctx.requireElementType(0, Elt::Float)) ||
      failed(ctx.requireSameElementType(0, 2)))
    return failure();
  FailureOr<Value> y = numpyMatmul(ctx, ctx.input(0), ctx.input(1));
  if (failed(y))
    return failure();
  return Values{*y};
}

/// Gemm: Y = alpha * A' * B' + beta * C, A' = transA ? A^T : A (same for B),
/// C optional (from opset 11) and unidirectionally broadcast to [M, N] (before
/// opset 7 only with broadcast = 1, a case of the same rule).
LegalizeResult gemm(NodeContext &ctx) {
  if (failed(ctx.requireInputs(2)) ||
      failed(ctx.requireElementType(0, Elt::Float)) ||
      failed(ctx.requireSameElementType(0, 3)))
    return failure();
  if (ctx.inputRank(0) != 2 || ctx.inputRank(1) != 2)
    return ctx.fail("A and B must be 2-D");
  TosaBuilder &t = ctx.tosa;
  Value a = ctx.input(0), b = ctx.input(1);
  if (ctx.getInt("transA", 0))
    a = t.transpose(a, {1, 0});
  if (ctx.getInt("transB", 0))
    b = t.transpose(b, {1, 0});
  int64_t m = t.shapeOf(a)[0], k = t.shapeOf(a)[1], n = t.shapeOf(b)[1];
  if (t.shapeOf(b)[0] != k)
    return ctx.fail("inner dimensions differ: A' is " +
                    llvm::to_string(a.getType()) + " and B' is " +
                    llvm::to_string(b.getType()));

  Value y = t.reshape(
      t.matmul(t.reshape(a, {1, m, k}), t.reshape(b, {1, k, n})), {m, n});
  double alpha = ctx.getFloat("alpha", 1.0f);
  if (alpha != 1.0)
    y = t.mul(y, t.scalarLike(y, alpha));

  double beta = ctx.getFloat("beta", 1.0f);
  if (!ctx.hasInput(2) || beta == 0.0)
    return Values{y};
  Value c = ctx.input(2);
  std::optional<Shape> shape = broadcastShapes(t.shapeOf(c), {m, n});
  if (t.rankOf(c) > 2 || !shape || (*shape)[0] != m || (*shape)[1] != n)
    return ctx.fail("C of type " + llvm::to_string(c.getType()) +
                    " does not broadcast to [" + Twine(m) + ", " + Twine(n) +
                    "]");
  if (beta != 1.0) {
    if (std::optional<DenseElementsAttr> cData = ctx.constantInput(2)) {
      SmallVector<double> scaled = toDoubles(*cData);
      for (double &v : scaled)
        v *= beta;
      c = t.constant(fromDoubles(t.typeOf(c), scaled));
    } else {
      c = t.mul(c, t.scalarLike(c, beta));
    }
  }
  return Values{t.add(y, c)};
}

// clang-format off
const OpLegalization kMatMul[] = {
    {"MatMul", 1, matmul},
    {"Gemm", 1, gemm},
};
// clang-format on

} // namespace

ArrayRef<OpLegalization> getMatMulLegalizations() { return kMatMul; }

} // namespace onnx_tosa
