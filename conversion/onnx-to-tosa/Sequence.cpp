//===- Sequence.cpp - Sequence and optional ops, at compile time ----------===//
//
// Every sequence op is resolved at compile time (Sequence.h): a sequence is
// the list of its element values, so SequenceAt picks one, SequenceLength is
// a constant, SplitToSequence is slices, ConcatFromSequence a concat (or a
// stack), SequenceMap its body unrolled once per element. Positions must be
// compile-time constants: a position that comes from a graph input is
// reported with the input to freeze. Optionals are present or absent at
// compile time; OptionalHasElement is a constant.
//
//===----------------------------------------------------------------------===//
#include "conversion/onnx-to-tosa/Sequence.h"
#include "conversion/onnx-to-tosa/ConstantData.h"
#include "conversion/onnx-to-tosa/ConstantFolding.h"
#include "conversion/onnx-to-tosa/NodeContext.h"

using namespace mlir;

namespace onnx_tosa {

bool isSequenceOrOptional(Type type) {
  return isa<onnx::SequenceType, onnx::OptionalType>(type);
}

std::optional<SmallVector<Value>> sequenceElements(Value v) {
  auto seq = v ? v.getDefiningOp<onnx::SequenceOp>() : nullptr;
  if (!seq)
    return std::nullopt;
  return SmallVector<Value>(seq.getElements());
}

std::optional<Value> optionalValue(Value v) {
  auto opt = v ? v.getDefiningOp<onnx::OptionalOp>() : nullptr;
  if (!opt)
    return std::nullopt;
  return opt.getValue();
}

Value createSequence(OpBuilder &b, Location loc, ValueRange elements) {
  return onnx::SequenceOp::create(
      b, loc, onnx::SequenceType::get(b.getContext()), elements);
}

Value createOptional(OpBuilder &b, Location loc, Value value) {
  return onnx::OptionalOp::create(
      b, loc, onnx::OptionalType::get(b.getContext()), value);
}

FailureOr<Value> selectValue(TosaBuilder &t, Value cond, Value onTrue,
                             Value onFalse, std::string &why) {
  if (onTrue == onFalse)
    return onTrue;
  if (std::optional<DenseElementsAttr> c = TosaBuilder::constantValue(cond);
      c && c->getNumElements() == 1 && c->getElementType().isInteger(1))
    return *c->getValues<bool>().begin() ? onTrue : onFalse;
  OpBuilder &b = t.getBuilder();
  if (auto a = sequenceElements(onTrue)) {
    std::optional<SmallVector<Value>> other = sequenceElements(onFalse);
    if (!other || other->size() != a->size()) {
      why = "a sequence of " + std::to_string(a->size()) +
            " elements in one and " +
            (other ? "of " + std::to_string(other->size()) + " elements"
                   : std::string("not a sequence")) +
            " in the other";
      return failure();
    }
    SmallVector<Value> elements;
    for (auto [x, y] : llvm::zip_equal(*a, *other)) {
      FailureOr<Value> e = selectValue(t, cond, x, y, why);
      if (failed(e))
        return failure();
      elements.push_back(*e);
    }
    return createSequence(b, t.getLoc(), elements);
  }
  if (auto a = optionalValue(onTrue)) {
    std::optional<Value> other = optionalValue(onFalse);
    if (!other || static_cast<bool>(*a) != static_cast<bool>(*other)) {
      why = "an optional that is present in one and absent in the other";
      return failure();
    }
    if (!*a)
      return onTrue;
    FailureOr<Value> v = selectValue(t, cond, *a, *other, why);
    if (failed(v))
      return failure();
    return createOptional(b, t.getLoc(), *v);
  }
  if (onTrue.getType() != onFalse.getType() ||
      !isa<RankedTensorType>(onTrue.getType())) {
    why = llvm::to_string(onTrue.getType()) + " in one and " +
          llvm::to_string(onFalse.getType()) + " in the other";
    return failure();
  }
  cond = t.reshape(cond, Shape(t.rankOf(onTrue), 1));
  return t.select(cond, onTrue, onFalse);
}

namespace {

/// The elements of sequence input `i`, or a failure naming it.
FailureOr<SmallVector<Value>> requireSequence(NodeContext &ctx, unsigned i) {
  std::optional<SmallVector<Value>> elements = sequenceElements(ctx.input(i));
  if (!elements)
    return ctx.fail("input " + Twine(i) + " must be a sequence");
  return *elements;
}

/// Fails unless input `i` is a tensor (a sequence op given a sequence or an
/// optional where the specification wants a tensor).
LogicalResult requireTensor(NodeContext &ctx, unsigned i) {
  if (!ctx.hasInput(i) || !isa<RankedTensorType>(ctx.input(i).getType()))
    return ctx.fail("input " + Twine(i) + " must be a tensor");
  return success();
}

/// Position input `i` (a constant integer scalar) in [0, length), or in
/// [0, length] when `end` (SequenceInsert may insert at the end). ONNX
/// accepts negative positions, counted from the back.
FailureOr<int64_t> position(NodeContext &ctx, unsigned i, int64_t length,
                            bool end) {
  if (failed(requireTensor(ctx, i)))
    return failure();
  std::optional<SmallVector<int64_t>> value = ctx.constantInts(i);
  if (!value)
    return ctx.failNotConstant(
        i, "input " + Twine(i) +
               " (position) must be a compile-time constant: sequences are "
               "resolved at compile time");
  if (value->size() != 1)
    return ctx.fail("input " + Twine(i) + " (position) must be a scalar");
  int64_t p = value->front();
  int64_t upper = end ? length : length - 1;
  if (p < -length || p > upper)
    return ctx.fail("position " + Twine(p) +
                    " is out of range for a "
                    "sequence of " +
                    Twine(length) + " elements");
  return p < 0 ? p + length : p;
}

Value scalarBool(TosaBuilder &t, bool value) {
  auto type = RankedTensorType::get({}, t.getBuilder().getI1Type());
  return t.constant(DenseElementsAttr::get(type, value));
}

Value scalarI64(TosaBuilder &t, int64_t value) {
  return t.constant(fromInts(
      RankedTensorType::get({}, t.getBuilder().getI64Type()), {value}));
}

//===----------------------------------------------------------------------===//
// Building and reading sequences
//===----------------------------------------------------------------------===//

LegalizeResult sequenceEmpty(NodeContext &ctx) {
  return Values{createSequence(ctx.tosa.getBuilder(), ctx.getLoc(), {})};
}

LegalizeResult sequenceConstruct(NodeContext &ctx) {
  Values elements;
  for (unsigned i = 0; i < ctx.numInputs(); ++i) {
    if (failed(requireTensor(ctx, i)))
      return failure();
    elements.push_back(ctx.input(i));
  }
  return Values{createSequence(ctx.tosa.getBuilder(), ctx.getLoc(), elements)};
}

LegalizeResult sequenceInsert(NodeContext &ctx) {
  FailureOr<SmallVector<Value>> elements = requireSequence(ctx, 0);
  if (failed(elements) || failed(requireTensor(ctx, 1)))
    return failure();
  int64_t at = elements->size();
  if (ctx.hasInput(2)) {
    FailureOr<int64_t> p = position(ctx, 2, elements->size(), /*end=*/true);
    if (failed(p))
      return failure();
    at = *p;
  }
  elements->insert(elements->begin() + at, ctx.input(1));
  return Values{createSequence(ctx.tosa.getBuilder(), ctx.getLoc(), *elements)};
}

LegalizeResult sequenceAt(NodeContext &ctx) {
  FailureOr<SmallVector<Value>> elements = requireSequence(ctx, 0);
  if (failed(elements))
    return failure();
  FailureOr<int64_t> p = position(ctx, 1, elements->size(), /*end=*/false);
  if (failed(p))
    return failure();
  return Values{(*elements)[*p]};
}

LegalizeResult sequenceErase(NodeContext &ctx) {
  FailureOr<SmallVector<Value>> elements = requireSequence(ctx, 0);
  if (failed(elements))
    return failure();
  if (elements->empty())
    return ctx.fail("cannot erase from an empty sequence");
  int64_t at = elements->size() - 1;
  if (ctx.hasInput(1)) {
    FailureOr<int64_t> p = position(ctx, 1, elements->size(), /*end=*/false);
    if (failed(p))
      return failure();
    at = *p;
  }
  elements->erase(elements->begin() + at);
  return Values{createSequence(ctx.tosa.getBuilder(), ctx.getLoc(), *elements)};
}

LegalizeResult sequenceLength(NodeContext &ctx) {
  FailureOr<SmallVector<Value>> elements = requireSequence(ctx, 0);
  if (failed(elements))
    return failure();
  return Values{scalarI64(ctx.tosa, elements->size())};
}

//===----------------------------------------------------------------------===//
// Between tensors and sequences
//===----------------------------------------------------------------------===//

LegalizeResult splitToSequence(NodeContext &ctx) {
  TosaBuilder &t = ctx.tosa;
  if (failed(requireTensor(ctx, 0)))
    return failure();
  Value x = ctx.input(0);
  int64_t rank = ctx.inputRank(0);
  std::optional<int64_t> axis = normalizeAxis(ctx.getInt("axis", 0), rank);
  if (!axis)
    return ctx.fail("axis " + Twine(ctx.getInt("axis", 0)) +
                    " is out of range for rank " + Twine(rank));
  int64_t dim = ctx.inputShape(0)[*axis];
  // Chunk sizes: all 1 without `split` (and keepdims may drop the axis); a
  // scalar `split` gives chunks of that size, the last one smaller if need
  // be; a 1-D `split` lists them.
  Shape sizes;
  bool squeeze = false;
  if (!ctx.hasInput(1)) {
    sizes.assign(dim, 1);
    squeeze = ctx.getInt("keepdims", 1) == 0;
  } else {
    if (failed(requireTensor(ctx, 1)))
      return failure();
    std::optional<SmallVector<int64_t>> split = ctx.constantInts(1);
    if (!split)
      return ctx.failNotConstant(
          1, "input 1 (split) must be a compile-time constant: the number "
             "and shapes of the sequence's elements are fixed at compile "
             "time");
    if (ctx.inputRank(1) == 0) {
      int64_t chunk = split->front();
      if (chunk <= 0)
        return ctx.fail("split must be positive, not " + Twine(chunk));
      for (int64_t start = 0; start < dim; start += chunk)
        sizes.push_back(std::min(chunk, dim - start));
    } else {
      if (ctx.inputRank(1) != 1)
        return ctx.fail("split must be a scalar or a 1-D tensor");
      sizes.assign(split->begin(), split->end());
      int64_t total = 0;
      for (int64_t s : sizes) {
        if (s < 0)
          return ctx.fail("split sizes must not be negative");
        total += s;
      }
      if (total != dim)
        return ctx.fail("split sizes add up to " + Twine(total) +
                        ", but the axis has " + Twine(dim));
    }
  }
  Values elements;
  int64_t start = 0;
  for (int64_t size : sizes) {
    Shape shape(ctx.inputShape(0));
    shape[*axis] = size;
    Value part = size == 0 ? createEmptyConstant(t, shape, t.elementTypeOf(x))
                           : t.sliceAxis(x, *axis, start, size);
    if (squeeze) {
      shape.erase(shape.begin() + *axis);
      part = t.reshape(part, shape);
    }
    elements.push_back(part);
    start += size;
  }
  return Values{createSequence(t.getBuilder(), ctx.getLoc(), elements)};
}

LegalizeResult concatFromSequence(NodeContext &ctx) {
  TosaBuilder &t = ctx.tosa;
  FailureOr<SmallVector<Value>> elements = requireSequence(ctx, 0);
  if (failed(elements))
    return failure();
  if (!ctx.hasAttr("axis"))
    return ctx.fail("attribute 'axis' is required");
  if (elements->empty())
    return ctx.fail("the sequence is empty: the result's shape is unknown");
  bool newAxis = ctx.getInt("new_axis", 0) != 0;
  Value first = elements->front();
  int64_t rank = t.rankOf(first);
  std::optional<int64_t> axis =
      normalizeAxis(ctx.getInt("axis", 0), newAxis ? rank + 1 : rank);
  if (!axis)
    return ctx.fail("axis " + Twine(ctx.getInt("axis", 0)) +
                    " is out of range for elements of rank " + Twine(rank));
  Values parts;
  for (auto [k, v] : llvm::enumerate(*elements)) {
    Shape shape(t.shapeOf(v)), want(t.shapeOf(first));
    if (!newAxis && static_cast<int64_t>(shape.size()) == rank)
      shape[*axis] = want[*axis] = 0; // may differ along the axis
    if (shape != want || t.elementTypeOf(v) != t.elementTypeOf(first))
      return ctx.fail("element " + Twine(k) + " has type " +
                      llvm::to_string(v.getType()) + ", which does not " +
                      (newAxis ? "stack" : "concatenate") + " with " +
                      llvm::to_string(first.getType()));
    if (newAxis) {
      Shape unit(t.shapeOf(v));
      unit.insert(unit.begin() + *axis, 1);
      v = t.reshape(v, unit);
    }
    parts.push_back(v);
  }
  return Values{t.concat(parts, *axis)};
}

//===----------------------------------------------------------------------===//
// SequenceMap
//===----------------------------------------------------------------------===//

/// The body once per element: input 0 and every other sequence input give
/// their element, tensor inputs are passed whole; output k collects the
/// body's output k.
LegalizeResult sequenceMap(NodeContext &ctx) {
  Operation *node = ctx.getNode();
  int64_t index = ctx.getInt("body", -1);
  if (index < 0 || index >= static_cast<int64_t>(node->getNumRegions()))
    return ctx.fail("attribute 'body' (a graph) is missing");
  FailureOr<SmallVector<Value>> first = requireSequence(ctx, 0);
  if (failed(first))
    return failure();
  size_t length = first->size();
  SmallVector<std::optional<SmallVector<Value>>> sequences;
  for (unsigned i = 0; i < ctx.numInputs(); ++i) {
    if (!ctx.hasInput(i))
      return ctx.fail("input " + Twine(i) + " is missing");
    sequences.push_back(sequenceElements(ctx.input(i)));
    if (sequences.back() && sequences.back()->size() != length)
      return ctx.fail("input " + Twine(i) + " has " +
                      Twine(sequences.back()->size()) +
                      " elements, but input 0 has " + Twine(length));
    if (!sequences.back() && failed(requireTensor(ctx, i)))
      return failure();
  }
  SmallVector<Values> outputs(ctx.numOutputs());
  for (size_t k = 0; k < length; ++k) {
    Values inputs;
    for (unsigned i = 0; i < ctx.numInputs(); ++i)
      inputs.push_back(sequences[i] ? (*sequences[i])[k] : ctx.input(i));
    std::string why;
    FailureOr<Values> outs = legalizeSubgraph(
        ctx.tosa.getBuilder(), node->getRegion(index), inputs, why);
    if (failed(outs))
      return ctx.fail("in subgraph 'body' (element " + Twine(k) + "): " + why);
    if (outs->size() != outputs.size())
      return ctx.fail("the body has " + Twine(outs->size()) +
                      " outputs, but the node " + Twine(outputs.size()));
    for (auto [j, v] : llvm::enumerate(*outs)) {
      if (!isa<RankedTensorType>(v.getType()))
        return ctx.fail("body output " + Twine(j) + " must be a tensor");
      outputs[j].push_back(v);
    }
  }
  Values results;
  for (const Values &elements : outputs)
    results.push_back(
        createSequence(ctx.tosa.getBuilder(), ctx.getLoc(), elements));
  return results;
}

//===----------------------------------------------------------------------===//
// Optionals
//===----------------------------------------------------------------------===//

LegalizeResult optional(NodeContext &ctx) {
  Value value = ctx.input(0);
  if (value && optionalValue(value))
    return ctx.fail("input 0 is an optional; an optional of an optional is "
                    "not supported");
  if (!value && !ctx.hasAttr("type"))
    return ctx.fail("attribute 'type' is required without an input");
  return Values{createOptional(ctx.tosa.getBuilder(), ctx.getLoc(), value)};
}

/// From opset 18 the input may also be a tensor or a sequence (then
/// present) or missing (then absent); earlier opsets only have optionals,
/// for which the same answers hold.
LegalizeResult optionalHasElement(NodeContext &ctx) {
  bool present = ctx.hasInput(0);
  if (std::optional<Value> value = optionalValue(ctx.input(0)))
    present = static_cast<bool>(*value);
  return Values{scalarBool(ctx.tosa, present)};
}

LegalizeResult optionalGetElement(NodeContext &ctx) {
  if (!ctx.hasInput(0))
    return ctx.fail("input 0 is required");
  std::optional<Value> value = optionalValue(ctx.input(0));
  if (!value)
    return Values{ctx.input(0)}; // a tensor or a sequence: itself
  if (!*value)
    return ctx.fail("the optional is empty (ONNX makes getting its element "
                    "an error)");
  return Values{*value};
}

// clang-format off
const OpLegalization kSequence[] = {
    {"SequenceEmpty", 11, sequenceEmpty},
    {"SequenceConstruct", 11, sequenceConstruct},
    {"SequenceInsert", 11, sequenceInsert},
    {"SequenceAt", 11, sequenceAt},
    {"SequenceErase", 11, sequenceErase},
    {"SequenceLength", 11, sequenceLength},
    {"SplitToSequence", 11, splitToSequence},
    {"ConcatFromSequence", 11, concatFromSequence},
    {"SequenceMap", 17, sequenceMap},
    {"Optional", 15, optional},
    {"OptionalHasElement", 15, optionalHasElement},
    {"OptionalGetElement", 15, optionalGetElement},
};
// clang-format on

} // namespace

ArrayRef<OpLegalization> getSequenceLegalizations() { return kSequence; }

} // namespace onnx_tosa
