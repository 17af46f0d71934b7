//===- Constant.cpp - Constant, ConstantOfShape, Shape, Size, Range -------===//
//
// Ops whose result is known at compile time (every shape is static here).
// They produce tosa.const values, which later nodes read as constants; int64
// results are fine as long as only compile-time consumers (Reshape's shape,
// Gather's indices, ...) read them — the pass rejects int64 data that would
// reach run time. Likewise empty constants (an empty shape for a Reshape to
// a scalar) are fine unless they reach run time.
//
//===----------------------------------------------------------------------===//
#include "conversion/onnx-to-tosa/ConstantFolding.h"
#include "conversion/onnx-to-tosa/NodeContext.h"

using namespace mlir;

namespace onnx_tosa {
namespace {

/// Constant: exactly one of value (tensor), value_float(s), value_int(s).
LegalizeResult constant(NodeContext &ctx) {
  TosaBuilder &t = ctx.tosa;
  Builder b(ctx.getLoc().getContext());
  if (auto value = dyn_cast_or_null<DenseElementsAttr>(ctx.getAttr("value")))
    return Values{t.constant(value)};
  if (ctx.hasAttr("value_float"))
    return Values{t.splat({}, b.getF32Type(), ctx.getFloat("value_float", 0))};
  if (ctx.hasAttr("value_int"))
    return Values{t.constant(fromInts(RankedTensorType::get({}, b.getI64Type()),
                                      {ctx.getInt("value_int", 0)}))};
  if (ctx.hasAttr("value_floats")) {
    SmallVector<float> v = ctx.getFloats("value_floats");
    auto type =
        RankedTensorType::get({static_cast<int64_t>(v.size())}, b.getF32Type());
    return Values{t.constant(DenseElementsAttr::get(type, ArrayRef<float>(v)))};
  }
  if (ctx.hasAttr("value_ints")) {
    Shape v = ctx.getInts("value_ints");
    auto type =
        RankedTensorType::get({static_cast<int64_t>(v.size())}, b.getI64Type());
    return Values{t.constant(fromInts(type, v))};
  }
  return ctx.fail("only the value, value_float(s) and value_int(s) "
                  "attributes are supported");
}

/// ConstantOfShape: a tensor of the (constant) shape filled with `value`
/// (a one-element tensor; float 0 by default).
LegalizeResult constantOfShape(NodeContext &ctx) {
  Shape shape;
  if (failed(ctx.requireConstantInts(0, "input", shape)))
    return failure();
  if (llvm::any_of(shape, [](int64_t d) { return d < 0; }))
    return ctx.fail("shape has a negative dimension");
  TosaBuilder &t = ctx.tosa;
  auto value = dyn_cast_or_null<DenseElementsAttr>(ctx.getAttr("value"));
  if (value && value.getNumElements() != 1)
    return ctx.fail("value must hold exactly one element");
  Type elt = value ? value.getElementType()
                   : Float32Type::get(ctx.getLoc().getContext());
  if (product(shape) == 0)
    return Values{createEmptyConstant(t, shape, elt)};
  if (!value)
    return Values{t.splat(shape, elt, 0)};
  return Values{t.constant(DenseElementsAttr::get(
      RankedTensorType::get(shape, value.getElementType()),
      value.getValues<Attribute>()[0]))};
}

/// Shape: the input's dimensions [start, end) (start/end from opset 15).
LegalizeResult shape(NodeContext &ctx) {
  if (failed(ctx.requireInputs(1)))
    return failure();
  ArrayRef<int64_t> in = ctx.inputShape(0);
  int64_t rank = in.size();
  auto clampAxis = [&](int64_t a) {
    return std::clamp<int64_t>(a < 0 ? a + rank : a, 0, rank);
  };
  int64_t start = clampAxis(ctx.getInt("start", 0));
  int64_t end = clampAxis(ctx.getInt("end", rank));
  end = std::max(start, end);
  auto type = RankedTensorType::get(
      {end - start}, IntegerType::get(ctx.getLoc().getContext(), 64));
  return Values{
      ctx.tosa.constant(fromInts(type, in.slice(start, end - start)))};
}

/// Size: the number of elements, as an int64 scalar.
LegalizeResult size(NodeContext &ctx) {
  if (failed(ctx.requireInputs(1)))
    return failure();
  auto type = RankedTensorType::get(
      {}, IntegerType::get(ctx.getLoc().getContext(), 64));
  return Values{
      ctx.tosa.constant(fromInts(type, {product(ctx.inputShape(0))}))};
}

/// EyeLike: ones on diagonal k of a 2-D tensor of the input's shape, in
/// `dtype` (default: the input's type).
LegalizeResult eyeLike(NodeContext &ctx) {
  if (failed(ctx.requireInputs(1)))
    return failure();
  ArrayRef<int64_t> shape = ctx.inputShape(0);
  if (shape.size() != 2)
    return ctx.fail("input must be 2-D");
  Type elt = ctx.inputType(0).getElementType();
  if (ctx.hasAttr("dtype")) {
    elt = onnxElementType(elt.getContext(), ctx.getInt("dtype", 1));
    if (!elt)
      return ctx.fail("dtype is not supported");
  }
  int64_t k = ctx.getInt("k", 0);
  SmallVector<int64_t> values;
  for (int64_t i = 0; i < shape[0]; ++i)
    for (int64_t j = 0; j < shape[1]; ++j)
      values.push_back(j - i == k);
  return Values{
      ctx.tosa.constant(fromInts(RankedTensorType::get(shape, elt), values))};
}

/// Range(start, limit, delta) with constant scalar inputs:
/// ceil((limit - start) / delta) elements start + i * delta.
LegalizeResult range(NodeContext &ctx) {
  if (failed(ctx.requireInputs(3)) || failed(ctx.requireSameElementType(0, 3)))
    return failure();
  double args[3];
  for (unsigned i = 0; i < 3; ++i) {
    std::optional<DenseElementsAttr> c = ctx.constantInput(i);
    if (!c || c->getNumElements() != 1)
      return ctx.failNotConstant(
          i, "start, limit and delta must be compile-time constant scalars");
    args[i] = toDoubles(*c).front();
  }
  auto [start, limit, delta] = args;
  if (delta == 0)
    return ctx.fail("delta must be non-zero");
  int64_t count = std::max<int64_t>(
      0, static_cast<int64_t>(std::ceil((limit - start) / delta)));
  if (count == 0)
    return Values{
        createEmptyConstant(ctx.tosa, {0}, ctx.inputType(0).getElementType())};
  SmallVector<double> values;
  for (int64_t i = 0; i < count; ++i)
    values.push_back(start + i * delta);
  auto type = RankedTensorType::get({count}, ctx.inputType(0).getElementType());
  return Values{ctx.tosa.constant(fromDoubles(type, values))};
}

// clang-format off
const OpLegalization kConstant[] = {
    {"Constant", 1, constant},
    {"ConstantOfShape", 9, constantOfShape},
    {"Shape", 1, shape},
    {"Size", 1, size},
    {"Range", 11, range},
    {"EyeLike", 9, eyeLike},
};
// clang-format on

} // namespace

ArrayRef<OpLegalization> getConstantLegalizations() { return kConstant; }

} // namespace onnx_tosa
