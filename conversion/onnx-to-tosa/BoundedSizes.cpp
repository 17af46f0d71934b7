//===- BoundedSizes.cpp - Ops that keep a data-dependent size -------------===//
//
// See BoundedSizes.h. Elementwise ops keep the order of the elements, and
// so the real array first, in any layout. Every other rule asks for the
// bounded dimension to be the outermost one that is not 1, in the counted
// inputs and in the result: there the real array's elements, first in the
// buffer, are also the bounded array's first rows.
//
//===----------------------------------------------------------------------===//
#include "conversion/onnx-to-tosa/BoundedSizes.h"
#include "conversion/onnx-to-tosa/ConstantData.h"
#include "conversion/onnx-to-tosa/TosaBuilder.h"

#include "llvm/ADT/StringSwitch.h"

using namespace mlir;

namespace onnx_tosa {
namespace {

using Dims = SmallVector<std::optional<unsigned>>;

constexpr const char *kOnlyThese =
    "only elementwise ops, Reshape, Squeeze, Unsqueeze, Flatten, Gather, "
    "GatherND, Slice and the Transpose of NonZero's result keep such a size";

ArrayRef<int64_t> shapeOf(Value v) {
  return cast<ShapedType>(v.getType()).getShape();
}

/// Whether every dimension before `d` is 1.
bool leading(ArrayRef<int64_t> shape, unsigned d) {
  return d < shape.size() &&
         llvm::all_of(shape.take_front(d), [](int64_t s) { return s == 1; });
}

enum class Kind { Unary, Nary, Reshape, Gather, GatherND, Slice, Other };

Kind kindOf(onnx::NodeOp node) {
  StringRef domain = node.getDomain();
  if (!domain.empty() && domain != "ai.onnx")
    return Kind::Other;
  return llvm::StringSwitch<Kind>(node.getOpType())
      .Cases({"Cast", "Identity", "Neg", "Abs", "Relu", "Sigmoid", "Tanh",
              "Exp", "Log", "Sqrt", "Reciprocal", "Floor", "Ceil", "Round",
              "Sign", "Not", "Erf", "Softplus", "Sin", "Cos"},
             Kind::Unary)
      .Cases({"Add", "Sub", "Mul", "Div", "Pow", "Max", "Min", "Sum", "Mean",
              "Equal", "Less", "LessOrEqual", "Greater", "GreaterOrEqual",
              "And", "Or", "Xor", "Where", "Mod", "BitShift", "BitwiseAnd",
              "BitwiseOr", "BitwiseXor"},
             Kind::Nary)
      .Cases({"Reshape", "Squeeze", "Unsqueeze", "Flatten"}, Kind::Reshape)
      .Case("Gather", Kind::Gather)
      .Case("GatherND", Kind::GatherND)
      .Case("Slice", Kind::Slice)
      .Default(Kind::Other);
}

/// The integers of attribute `name` of `node`, if it has them.
std::optional<SmallVector<int64_t>> intsAttr(onnx::NodeOp node,
                                             StringRef name) {
  auto attrs = node.getAttrs();
  auto list = attrs ? dyn_cast_or_null<ArrayAttr>(attrs.get(name)) : ArrayAttr();
  if (!list)
    return std::nullopt;
  SmallVector<int64_t> values;
  for (Attribute a : list)
    if (auto i = dyn_cast<IntegerAttr>(a))
      values.push_back(i.getInt());
  return values;
}

std::optional<int64_t> intAttr(onnx::NodeOp node, StringRef name) {
  auto attrs = node.getAttrs();
  if (auto i = attrs ? dyn_cast_or_null<IntegerAttr>(attrs.get(name))
                     : IntegerAttr())
    return i.getInt();
  return std::nullopt;
}

/// The integers of a constant input (tosa.const after legalization).
std::optional<SmallVector<int64_t>> constantInts(Value v) {
  std::optional<DenseElementsAttr> c = TosaBuilder::constantValue(v);
  if (!c || !isa<IntegerType>(c->getElementType()))
    return std::nullopt;
  SmallVector<int64_t> values;
  for (const APInt &x : c->getValues<APInt>())
    values.push_back(x.getSExtValue());
  return values;
}

} // namespace

FailureOr<Dims> boundedDimsOfResults(onnx::NodeOp node, ArrayRef<Value> results,
                                     ArrayRef<std::optional<unsigned>> inputDims,
                                     std::string &why) {
  Dims out(results.size());
  ValueRange inputs = node.getInputs();
  unsigned counted = 0, first = 0;
  for (auto [i, d] : llvm::enumerate(inputDims))
    if (d && !counted++)
      first = i;
  if (!counted)
    return out;
  auto fail = [&](const Twine &reason) -> FailureOr<Dims> {
    why = reason.str();
    return failure();
  };
  if (results.empty() || !results[0] ||
      !isa<RankedTensorType>(results[0].getType()))
    return fail(kOnlyThese);
  Value in = inputs[first];
  unsigned d = *inputDims[first];
  ArrayRef<int64_t> inShape = shapeOf(in);
  int64_t bound = inShape[d];
  ArrayRef<int64_t> outShape = shapeOf(results[0]);
  Kind kind = kindOf(node);
  // Element for element, the order of the elements is kept whatever the
  // layout: ops of one operand, and ops whose other operands are scalars.
  bool elementwise =
      kind == Kind::Unary ||
      (kind == Kind::Nary && outShape == inShape &&
       llvm::all_of(llvm::enumerate(inputs), [&](auto iv) {
         auto [i, v] = iv;
         if (!v || !isa<RankedTensorType>(v.getType()))
           return true;
         return inputDims[i] ? shapeOf(v) == inShape
                             : product(shapeOf(v)) == 1;
       }));
  if (elementwise) {
    if (outShape != inShape)
      return fail("this op changes its shape");
    out[0] = d;
    return out;
  }
  if (!leading(inShape, d))
    return fail("its varying dimension is not the outermost");

  switch (kind) {
  case Kind::Unary:
    break; // elementwise, above

  case Kind::Nary: {
    // Each output row from the same row of every counted operand; the
    // others do not vary along the rows (extent 1 there).
    unsigned rank = outShape.size();
    std::optional<unsigned> aligned;
    for (auto [i, v] : llvm::enumerate(inputs)) {
      if (!v || !isa<RankedTensorType>(v.getType()))
        continue;
      ArrayRef<int64_t> s = shapeOf(v);
      unsigned offset = rank - s.size();
      if (inputDims[i]) {
        unsigned a = *inputDims[i] + offset;
        if (aligned && *aligned != a)
          return fail("its operands vary along different dimensions");
        aligned = a;
      }
    }
    for (auto [i, v] : llvm::enumerate(inputs)) {
      if (!v || inputDims[i] || !isa<RankedTensorType>(v.getType()))
        continue;
      ArrayRef<int64_t> s = shapeOf(v);
      int64_t at = static_cast<int64_t>(*aligned) -
                   static_cast<int64_t>(rank - s.size());
      if (at >= 0 && s[at] != 1)
        return fail("operand " + Twine(i) + " does not broadcast along the "
                    "varying dimension");
    }
    if (!leading(outShape, *aligned) || outShape[*aligned] != bound)
      return fail("its result's rows are not the operand's");
    out[0] = *aligned;
    return out;
  }

  case Kind::Reshape: {
    if (first != 0)
      return fail("only its data may vary");
    // The rows stay whole: the first dimension that is not 1 is the bound,
    // and a row holds as many elements as before.
    auto e = llvm::find_if(outShape, [](int64_t s) { return s != 1; });
    if (e == outShape.end() || *e != bound)
      return fail("the reshape does not keep the rows");
    unsigned ed = e - outShape.begin();
    if (product(outShape.drop_front(ed + 1)) != product(inShape.drop_front(d + 1)))
      return fail("the reshape does not keep the rows");
    out[0] = ed;
    return out;
  }

  case Kind::Gather: {
    if (counted != 1)
      return fail("both of its operands vary");
    int64_t rank = shapeOf(inputs[0]).size();
    int64_t axis = intAttr(node, "axis").value_or(0);
    if (axis < 0)
      axis += rank;
    if (first == 0) { // the data: gathered across its rows
      if (axis <= static_cast<int64_t>(d))
        return fail("it gathers along the varying dimension");
      out[0] = d;
      return out;
    }
    // The indices: one output row per index row (padding rows hold valid
    // indices: what the data-dependent op left there).
    if (!leading(shapeOf(inputs[0]), axis))
      return fail("the data has dimensions before the gathered one");
    unsigned od = axis + d;
    if (!leading(outShape, od) || outShape[od] != bound)
      return fail("its result's rows are not the indices'");
    out[0] = od;
    return out;
  }

  case Kind::GatherND: {
    // One output row per index row: the indices vary along an outer
    // dimension, the index tuples (last dimension) stay whole.
    if (first != 1 || counted != 1)
      return fail("only its indices may vary");
    if (intAttr(node, "batch_dims").value_or(0) != 0)
      return fail("batch_dims is not 0");
    if (d + 1 >= inShape.size())
      return fail("its index tuples vary");
    if (!leading(outShape, d) || outShape[d] != bound)
      return fail("its result's rows are not the indices'");
    out[0] = d;
    return out;
  }

  case Kind::Slice: {
    if (first != 0 || counted != 1)
      return fail("only its data may vary");
    // The axes it slices: the attribute before opset 10, then input 3; all
    // of starts' length when absent.
    std::optional<SmallVector<int64_t>> axes, starts;
    if (node.getOpset() < 10) {
      axes = intsAttr(node, "axes");
      starts = intsAttr(node, "starts");
    } else {
      if (inputs.size() > 3 && inputs[3] &&
          !isa<NoneType>(inputs[3].getType()))
        axes = constantInts(inputs[3]);
      starts = constantInts(inputs[1]);
      if (!axes && !(inputs.size() > 3 && inputs[3] &&
                     !isa<NoneType>(inputs[3].getType())) && starts) {
        axes.emplace();
        for (int64_t i = 0; i < static_cast<int64_t>(starts->size()); ++i)
          axes->push_back(i);
      }
    }
    if (!axes && starts && node.getOpset() < 10) {
      axes.emplace();
      for (int64_t i = 0; i < static_cast<int64_t>(starts->size()); ++i)
        axes->push_back(i);
    }
    if (!axes)
      return fail("its axes are not known at compile time");
    int64_t rank = inShape.size();
    for (int64_t a : *axes)
      if ((a < 0 ? a + rank : a) == static_cast<int64_t>(d))
        return fail("it slices the varying dimension");
    out[0] = d;
    return out;
  }

  case Kind::Other:
    break;
  }
  return fail(kOnlyThese);
}

bool isBoundedTranspose(onnx::NodeOp node, std::optional<unsigned> inputDim) {
  if (node.getOpType() != "Transpose" || !inputDim || *inputDim != 1 ||
      node.getInputs().empty() ||
      shapeOf(node.getInputs()[0]).size() != 2)
    return false;
  std::optional<SmallVector<int64_t>> perm = intsAttr(node, "perm");
  return !perm || *perm == SmallVector<int64_t>{1, 0};
}

Value transposeBounded(TosaBuilder &t, Value in, Value count) {
  ArrayRef<int64_t> shape = t.shapeOf(in);
  int64_t rows = shape[0], n = shape[1];
  Type i32 = t.getBuilder().getI32Type();
  // Output element p = (j, r): j = p / rows, r = p % rows.
  SmallVector<int64_t> js(n * rows), rs(n * rows);
  for (int64_t p = 0; p < n * rows; ++p) {
    js[p] = p / rows;
    rs[p] = p % rows;
  }
  auto type = RankedTensorType::get({1, n * rows}, i32);
  Value j = t.constant(fromInts(type, js)), r = t.constant(fromInts(type, rs));
  Value c = t.reshape(count, {1, 1});
  // Real rows: element (r, j) of [rows, count]; padding rows: element
  // (r, j - count) of the other entries, [rows, n - count] after them.
  Value kept = t.add(t.mul(r, c), j);
  Value others =
      t.add(t.add(t.mul(t.scalarLike(c, rows), c),
                  t.mul(r, t.sub(t.scalarLike(c, n), c))),
            t.sub(j, c));
  Value src = t.select(t.compare<tosa::GreaterOp>(c, j), kept, others);
  Value values = t.reshape(in, {1, rows * n, 1});
  Value gathered = tosa::GatherOp::create(
      t.getBuilder(), t.getLoc(),
      RankedTensorType::get({1, n * rows, 1}, t.elementTypeOf(in)), values,
      src);
  return t.reshape(gathered, {n, rows});
}

} // namespace onnx_tosa
