//===- DataLayout.cpp - Data layout, GATHER and SCATTER -------------------===//
//
// TOSA 1.0 sections "Data Layout" (CONCAT, PAD, RESHAPE, REVERSE, SLICE,
// TILE, TRANSPOSE, IDENTITY) and "Scatter/Gather Operators". Values move
// unchanged, so these work on integers and floats alike.
//
//===----------------------------------------------------------------------===//
#include "reference/tosa-eval/OpEval.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"

using namespace mlir;

namespace onnx_tosa::ref {
namespace {

void copyElement(const Tensor &from, int64_t src, Tensor &to, int64_t dst) {
  if (to.isFloat())
    to.floats[dst] = from.floats[src];
  else
    to.ints[dst] = from.ints[src];
}

/// Fills `out` with input elements picked by `source(outIndex, inIndex)`,
/// which maps an output index to an input index.
template <typename Fn> void gatherBy(const Tensor &in, Tensor &out, Fn source) {
  Shape index(out.rank(), 0), inIndex(in.rank(), 0);
  for (int64_t o = 0, n = out.size(); o < n; ++o) {
    source(index, inIndex);
    copyElement(in, linearIndex(inIndex, in.shape), out, o);
    nextIndex(index, out.shape);
  }
}

LogicalResult evalIdentity(OpEval &e) {
  e.results.push_back(e.in(0));
  return success();
}

LogicalResult evalReshape(OpEval &e) {
  Tensor &out = e.result();
  SmallVector<int64_t> shape = e.shapeOperand(1);
  if (e.errorIf(numElements(shape) != e.in(0).size() ||
                    ArrayRef<int64_t>(shape) != ArrayRef<int64_t>(out.shape),
                "the new shape must keep the element count and match the "
                "result type"))
    return failure();
  out.ints = e.in(0).ints;
  out.floats = e.in(0).floats;
  return success();
}

LogicalResult evalTranspose(OpEval &e) {
  const Tensor &in = e.in(0);
  Tensor &out = e.result();
  ArrayRef<int32_t> perms = e.as<tosa::TransposeOp>().getPerms();
  if (e.errorIf(perms.size() != in.rank(), "perms must have the input rank"))
    return failure();
  for (size_t i = 0; i < perms.size(); ++i)
    if (e.errorIf(perms[i] < 0 || perms[i] >= static_cast<int>(in.rank()) ||
                      out.shape[i] != in.shape[perms[i]],
                  "bad perms or output shape"))
      return failure();
  gatherBy(in, out, [&](ArrayRef<int64_t> o, MutableArrayRef<int64_t> i) {
    for (size_t d = 0; d < perms.size(); ++d)
      i[perms[d]] = o[d];
  });
  return success();
}

LogicalResult evalConcat(OpEval &e) {
  Tensor &out = e.result();
  int64_t axis = e.as<tosa::ConcatOp>().getAxis();
  if (e.errorIf(axis < 0 || axis >= static_cast<int64_t>(out.rank()),
                "axis out of range"))
    return failure();
  int64_t outer = numElements(ArrayRef<int64_t>(out.shape).take_front(axis));
  int64_t inner =
      numElements(ArrayRef<int64_t>(out.shape).drop_front(axis + 1));
  int64_t offset = 0, total = 0;
  for (const Tensor *t : e.operands)
    total += t->shape[axis];
  if (e.errorIf(total != out.shape[axis], "axis sizes do not add up"))
    return failure();
  for (const Tensor *t : e.operands) {
    int64_t k = t->shape[axis];
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t j = 0; j < k * inner; ++j)
        copyElement(*t, o * k * inner + j, out,
                    (o * out.shape[axis] + offset) * inner + j);
    offset += k;
  }
  return success();
}

LogicalResult evalSlice(OpEval &e) {
  const Tensor &in = e.in(0);
  Tensor &out = e.result();
  SmallVector<int64_t> start = e.shapeOperand(1), size = e.shapeOperand(2);
  for (size_t d = 0; d < in.rank(); ++d)
    if (e.errorIf(start[d] < 0 || size[d] < 1 ||
                      start[d] + size[d] > in.shape[d] ||
                      size[d] != out.shape[d],
                  "start/size out of the input"))
      return failure();
  gatherBy(in, out, [&](ArrayRef<int64_t> o, MutableArrayRef<int64_t> i) {
    for (size_t d = 0; d < o.size(); ++d)
      i[d] = o[d] + start[d];
  });
  return success();
}

/// PAD: padding is [before0, after0, before1, after1, ...]; positions outside
/// the input take pad_const.
LogicalResult evalPad(OpEval &e) {
  const Tensor &in = e.in(0), &padConst = e.in(2);
  Tensor &out = e.result();
  SmallVector<int64_t> padding = e.shapeOperand(1);
  for (size_t d = 0; d < in.rank(); ++d)
    if (e.errorIf(padding[2 * d] < 0 || padding[2 * d + 1] < 0 ||
                      out.shape[d] !=
                          in.shape[d] + padding[2 * d] + padding[2 * d + 1],
                  "bad padding"))
      return failure();
  Shape index(out.rank(), 0), inIndex(in.rank(), 0);
  for (int64_t o = 0, n = out.size(); o < n; ++o) {
    bool inside = true;
    for (size_t d = 0; d < in.rank(); ++d) {
      inIndex[d] = index[d] - padding[2 * d];
      inside &= inIndex[d] >= 0 && inIndex[d] < in.shape[d];
    }
    if (inside)
      copyElement(in, linearIndex(inIndex, in.shape), out, o);
    else
      copyElement(padConst, 0, out, o);
    nextIndex(index, out.shape);
  }
  return success();
}

LogicalResult evalTile(OpEval &e) {
  const Tensor &in = e.in(0);
  Tensor &out = e.result();
  SmallVector<int64_t> multiples = e.shapeOperand(1);
  for (size_t d = 0; d < in.rank(); ++d)
    if (e.errorIf(multiples[d] < 1 ||
                      out.shape[d] != in.shape[d] * multiples[d],
                  "bad multiples"))
      return failure();
  gatherBy(in, out, [&](ArrayRef<int64_t> o, MutableArrayRef<int64_t> i) {
    for (size_t d = 0; d < o.size(); ++d)
      i[d] = o[d] % in.shape[d];
  });
  return success();
}

LogicalResult evalReverse(OpEval &e) {
  const Tensor &in = e.in(0);
  Tensor &out = e.result();
  int64_t axis = e.as<tosa::ReverseOp>().getAxis();
  if (e.errorIf(axis < 0 || axis >= static_cast<int64_t>(in.rank()),
                "axis out of range"))
    return failure();
  gatherBy(in, out, [&](ArrayRef<int64_t> o, MutableArrayRef<int64_t> i) {
    for (size_t d = 0; d < o.size(); ++d)
      i[d] = static_cast<int64_t>(d) == axis ? in.shape[d] - 1 - o[d] : o[d];
  });
  return success();
}

/// GATHER: output[n, w, c] = values[n, indices[n, w], c].
LogicalResult evalGather(OpEval &e) {
  const Tensor &values = e.in(0), &indices = e.in(1);
  Tensor &out = e.result();
  int64_t N = values.shape[0], K = values.shape[1], C = values.shape[2];
  int64_t W = indices.shape[1];
  for (int64_t n = 0; n < N; ++n)
    for (int64_t w = 0; w < W; ++w) {
      int64_t k = indices.ints[n * W + w];
      e.require(k >= 0 && k < K, "GATHER index out of range");
      if (k < 0 || k >= K)
        continue;
      for (int64_t c = 0; c < C; ++c)
        copyElement(values, (n * K + k) * C + c, out, (n * W + w) * C + c);
    }
  return success();
}

/// SCATTER: values_in, then input[n, w, c] written at [n, indices[n, w], c];
/// writing a position twice is unpredictable.
LogicalResult evalScatter(OpEval &e) {
  const Tensor &valuesIn = e.in(0), &indices = e.in(1), &input = e.in(2);
  Tensor &out = e.result();
  out.ints = valuesIn.ints;
  out.floats = valuesIn.floats;
  int64_t N = valuesIn.shape[0], K = valuesIn.shape[1], C = valuesIn.shape[2];
  int64_t W = indices.shape[1];
  std::vector<bool> modified(N * K, false);
  for (int64_t n = 0; n < N; ++n)
    for (int64_t w = 0; w < W; ++w) {
      int64_t k = indices.ints[n * W + w];
      e.require(k >= 0 && k < K, "SCATTER index out of range");
      if (k < 0 || k >= K)
        continue;
      e.require(!modified[n * K + k], "SCATTER writes a position twice");
      modified[n * K + k] = true;
      for (int64_t c = 0; c < C; ++c)
        copyElement(input, (n * W + w) * C + c, out, (n * K + k) * C + c);
    }
  return success();
}

} // namespace

void registerDataLayoutOps(HandlerTable &table) {
  table["tosa.identity"] = evalIdentity;
  table["tosa.reshape"] = evalReshape;
  table["tosa.transpose"] = evalTranspose;
  table["tosa.concat"] = evalConcat;
  table["tosa.slice"] = evalSlice;
  table["tosa.pad"] = evalPad;
  table["tosa.tile"] = evalTile;
  table["tosa.reverse"] = evalReverse;
  table["tosa.gather"] = evalGather;
  table["tosa.scatter"] = evalScatter;
}

} // namespace onnx_tosa::ref
