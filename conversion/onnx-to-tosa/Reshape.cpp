//===- Reshape.cpp - Reshape, Flatten, Squeeze, Transpose, DepthToSpace ---===//
//
// Ops that only rearrange or relabel elements. Shapes and axes that ONNX
// passes as int64 tensors must be compile-time constants; they become TOSA
// shape values, and no int64 is left at run time.
//
//===----------------------------------------------------------------------===//
#include "conversion/onnx-to-tosa/ConstantFolding.h"
#include "conversion/onnx-to-tosa/NodeContext.h"

#include "llvm/Support/Format.h"

using namespace mlir;

namespace onnx_tosa {
namespace {

/// Reshape: 0 copies the input dimension (unless allowzero = 1), -1 is
/// inferred.
LegalizeResult reshape(NodeContext &ctx) {
  if (failed(ctx.requireInputs(2)))
    return failure();
  Shape shape;
  if (failed(ctx.requireConstantInts(1, "shape", shape)))
    return failure();
  ArrayRef<int64_t> in = ctx.inputShape(0);
  bool allowZero = ctx.getInt("allowzero", 0);
  int64_t inferred = -1, known = 1;
  for (auto [i, d] : llvm::enumerate(shape)) {
    if (d == 0 && !allowZero) {
      if (i >= in.size())
        return ctx.fail("shape copies dimension " + Twine(i) +
                        ", which the input does not have");
      d = in[i];
    }
    if (d == -1) {
      if (inferred >= 0)
        return ctx.fail("shape has more than one -1");
      inferred = i;
    } else if (d < 0) {
      return ctx.fail("shape has a negative dimension");
    } else {
      known *= d;
    }
  }
  int64_t total = product(in);
  if (inferred >= 0) {
    if (known == 0 || total % known)
      return ctx.fail("cannot infer the -1 dimension");
    shape[inferred] = total / known;
  } else if (known != total) {
    return ctx.fail("the shape holds " + Twine(known) +
                    " elements but the input has " + Twine(total));
  }
  if (product(shape) == 0)
    return Values{createEmptyConstant(ctx.tosa, shape,
                                      ctx.inputType(0).getElementType())};
  return Values{ctx.tosa.reshape(ctx.input(0), shape)};
}

/// Flatten: [d0 * ... * d(axis-1), d(axis) * ... * dn]; axis in [-r, r].
LegalizeResult flatten(NodeContext &ctx) {
  if (failed(ctx.requireInputs(1)))
    return failure();
  ArrayRef<int64_t> in = ctx.inputShape(0);
  int64_t rank = in.size(), axis = ctx.getInt("axis", 1);
  if (axis < 0)
    axis += rank;
  if (axis < 0 || axis > rank)
    return ctx.fail("axis is out of range");
  return Values{ctx.tosa.reshape(ctx.input(0), {product(in.take_front(axis)),
                                                product(in.drop_front(axis))})};
}

/// Squeeze: axes attribute before 13, optional input from 13; none given
/// removes every dimension of size 1.
LegalizeResult squeeze(NodeContext &ctx) {
  if (failed(ctx.requireInputs(1)))
    return failure();
  std::optional<Shape> axes;
  if (failed(ctx.readIntsAttrOrInput("axes", 1, 13, axes)))
    return failure();
  ArrayRef<int64_t> in = ctx.inputShape(0);
  Shape drop;
  if (axes) {
    drop = *axes;
    if (failed(ctx.normalizeAxes(drop, in.size())))
      return failure();
    for (int64_t a : drop)
      if (in[a] != 1)
        return ctx.fail("cannot squeeze axis " + Twine(a) + " of size " +
                        Twine(in[a]));
  } else {
    for (auto [i, d] : llvm::enumerate(in))
      if (d == 1)
        drop.push_back(i);
  }
  Shape out;
  for (auto [i, d] : llvm::enumerate(in))
    if (!llvm::is_contained(drop, static_cast<int64_t>(i)))
      out.push_back(d);
  return Values{ctx.tosa.reshape(ctx.input(0), out)};
}

/// Unsqueeze: axes (relative to the output rank) attribute before 13, input
/// from 13.
LegalizeResult unsqueeze(NodeContext &ctx) {
  if (failed(ctx.requireInputs(1)))
    return failure();
  std::optional<Shape> axes;
  if (failed(ctx.readIntsAttrOrInput("axes", 1, 13, axes)))
    return failure();
  if (!axes)
    return ctx.fail("axes are required");
  ArrayRef<int64_t> in = ctx.inputShape(0);
  int64_t outRank = in.size() + axes->size();
  if (failed(ctx.normalizeAxes(*axes, outRank)))
    return failure();
  Shape out;
  const int64_t *next = in.begin();
  for (int64_t i = 0; i < outRank; ++i)
    out.push_back(llvm::is_contained(*axes, i) ? 1 : *next++);
  return Values{ctx.tosa.reshape(ctx.input(0), out)};
}

/// Transpose: perm defaults to reversing the dimensions.
LegalizeResult transpose(NodeContext &ctx) {
  if (failed(ctx.requireInputs(1)))
    return failure();
  int64_t rank = ctx.inputRank(0);
  Shape perm;
  for (int64_t i = rank - 1; i >= 0; --i)
    perm.push_back(i);
  perm = ctx.getInts("perm", perm);
  Shape sorted(perm);
  llvm::sort(sorted);
  for (int64_t i = 0; i < rank; ++i)
    if (static_cast<int64_t>(sorted.size()) != rank || sorted[i] != i)
      return ctx.fail("perm is not a permutation of the input's dimensions");
  if (rank == 0)
    return Values{ctx.input(0)};
  return Values{ctx.tosa.transpose(ctx.input(0), perm)};
}

/// DepthToSpace: [N, C * b * b, H, W] -> [N, C, H * b, W * b]; the depth is
/// split as (b, b, C) in DCR mode (the default) and (C, b, b) in CRD mode.
LegalizeResult depthToSpace(NodeContext &ctx) {
  if (failed(ctx.requireInputs(1)))
    return failure();
  ArrayRef<int64_t> in = ctx.inputShape(0);
  int64_t b = ctx.getInt("blocksize", 0);
  if (in.size() != 4 || b < 1 || in[1] % (b * b))
    return ctx.fail("needs a 4-D input whose channels divide by blocksize^2");
  int64_t n = in[0], c = in[1] / (b * b), h = in[2], w = in[3];
  TosaBuilder &t = ctx.tosa;
  Value x = ctx.input(0);
  if (ctx.getString("mode", "DCR") == "CRD")
    x = t.transpose(t.reshape(x, {n, c, b, b, h, w}), {0, 1, 4, 2, 5, 3});
  else
    x = t.transpose(t.reshape(x, {n, b, b, c, h, w}), {0, 3, 4, 1, 5, 2});
  return Values{t.reshape(x, {n, c, h * b, w * b})};
}

/// SpaceToDepth: [N, C, H * b, W * b] -> [N, C * b * b, H, W], the inverse
/// of DepthToSpace: depth ordered (b, b, C) in DCR mode (the default) and
/// (C, b, b) in CRD mode.
LegalizeResult spaceToDepth(NodeContext &ctx) {
  if (failed(ctx.requireInputs(1)))
    return failure();
  ArrayRef<int64_t> in = ctx.inputShape(0);
  int64_t b = ctx.getInt("blocksize", 0);
  if (in.size() != 4 || b < 1 || in[2] % b || in[3] % b)
    return ctx.fail("needs a 4-D input whose height and width divide by "
                    "blocksize");
  int64_t n = in[0], c = in[1], h = in[2] / b, w = in[3] / b;
  TosaBuilder &t = ctx.tosa;
  Value x = t.reshape(ctx.input(0), {n, c, h, b, w, b});
  if (ctx.getString("mode", "DCR") == "CRD")
    x = t.transpose(x, {0, 1, 3, 5, 2, 4});
  else
    x = t.transpose(x, {0, 3, 5, 1, 2, 4});
  return Values{t.reshape(x, {n, c * b * b, h, w})};
}
/// Identity, and Dropout in inference (its optional mask is all ones/true).
LegalizeResult identity(NodeContext &ctx) {
  if (failed(ctx.requireInputs(1)))
    return failure();
  return Values{ctx.input(0)};
}

/// In training mode (opset 12 on) Dropout zeroes each element with
/// probability `ratio` (input 1, default 0.5) and scales the rest by
/// 1 / (1 - ratio). ONNX specifies no random generator, so only ratio 0, which
/// drops nothing, has an output that can be reproduced: then it is the
/// inference form.
LegalizeResult dropout(NodeContext &ctx) {
  if (failed(ctx.requireInputs(1)))
    return failure();
  if (ctx.getOpset() >= 12 && ctx.hasInput(2)) {
    std::optional<SmallVector<int64_t>> training = ctx.constantInts(2);
    if (!training)
      return ctx.failNotConstant(
          2, "training_mode must be a compile-time constant");
    if (training->front() != 0) {
      const char *random = "drops elements at random, which cannot be "
                           "reproduced (ONNX specifies no generator); only "
                           "ratio 0 is supported in training mode";
      if (!ctx.hasInput(1))
        return ctx.fail(
            Twine("training_mode=true with the default ratio 0.5 ") + random);
      std::optional<DenseElementsAttr> ratio = ctx.constantInput(1);
      if (!ratio)
        return ctx.failNotConstant(
            1, "training_mode=true: ratio must be a compile-time constant "
               "(only ratio 0 gives a reproducible output)");
      if (ratio->getNumElements() != 1)
        return ctx.fail("ratio must be a scalar");
      double r = toDoubles(*ratio).front();
      if (r != 0) {
        std::string why;
        llvm::raw_string_ostream(why) << "training_mode=true with ratio "
                                      << llvm::format("%g", r) << " " << random;
        return ctx.fail(why);
      }
    }
  }
  Values outs{ctx.input(0)};
  if (ctx.outputUsed(1)) {
    // The mask is boolean from opset 10, of the input's type before.
    TosaBuilder &t = ctx.tosa;
    Type maskType = ctx.getOpset() >= 10 ? t.getBuilder().getI1Type()
                                         : t.elementTypeOf(ctx.input(0));
    outs.push_back(t.splat(ctx.inputShape(0), maskType, 1));
  }
  return outs;
}

// clang-format off
const OpLegalization kReshape[] = {
    {"Reshape", 5, reshape},
    {"Flatten", 1, flatten},
    {"Squeeze", 1, squeeze},
    {"Unsqueeze", 1, unsqueeze},
    {"Transpose", 1, transpose},
    {"DepthToSpace", 1, depthToSpace},
    {"SpaceToDepth", 1, spaceToDepth},
    {"Identity", 1, identity},
    {"Dropout", 1, dropout},
};
// clang-format on

} // namespace

ArrayRef<OpLegalization> getReshapeLegalizations() { return kReshape; }

} // namespace onnx_tosa
