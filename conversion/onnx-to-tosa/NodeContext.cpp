//===- NodeContext.cpp - What a legalization sees of one ONNX node --------===//
#include "conversion/onnx-to-tosa/NodeContext.h"
#include "conversion/onnx-to-tosa/NarrowTypes.h"

using namespace mlir;

namespace onnx_tosa {

NodeContext::NodeContext(OpBuilder &builder, onnx::NodeOp node)
    : tosa(builder, node.getLoc()), node(node) {}

Value NodeContext::input(unsigned i) const {
  if (i >= numInputs())
    return {};
  Value v = node.getInputs()[i];
  if (isa<NoneType>(v.getType()))
    return {};
  return v;
}

RankedTensorType NodeContext::inputType(unsigned i) const {
  return cast<RankedTensorType>(input(i).getType());
}

ArrayRef<int64_t> NodeContext::inputShape(unsigned i) const {
  return inputType(i).getShape();
}

std::optional<DenseElementsAttr> NodeContext::constantInput(unsigned i) const {
  return TosaBuilder::constantValue(input(i));
}

std::optional<SmallVector<int64_t>>
NodeContext::constantInts(unsigned i) const {
  std::optional<DenseElementsAttr> attr = constantInput(i);
  if (!attr || !isa<IntegerType>(attr->getElementType()))
    return std::nullopt;
  return toInts(*attr);
}

LogicalResult NodeContext::requireConstantInts(unsigned i, StringRef what,
                                               Shape &out) {
  if (!hasInput(i))
    return fail("input " + Twine(i) + " (" + what + ") is required");
  std::optional<SmallVector<int64_t>> ints = constantInts(i);
  if (!ints)
    return failNotConstant(i, "input " + Twine(i) + " (" + what +
                                  ") must be a compile-time constant integer "
                                  "tensor");
  out = std::move(*ints);
  return success();
}

LogicalResult NodeContext::readIntsAttrOrInput(StringRef attrName,
                                               unsigned inputIndex,
                                               int64_t inputSince,
                                               std::optional<Shape> &out) {
  out.reset();
  if (getOpset() < inputSince) {
    if (hasAttr(attrName))
      out = getInts(attrName);
    return success();
  }
  if (!hasInput(inputIndex))
    return success();
  Shape ints;
  if (failed(requireConstantInts(inputIndex, attrName, ints)))
    return failure();
  out = std::move(ints);
  return success();
}

LogicalResult NodeContext::normalizeAxes(Shape &axes, int64_t rank) {
  for (int64_t &axis : axes) {
    std::optional<int64_t> a = normalizeAxis(axis, rank);
    if (!a)
      return fail("axis " + Twine(axis) + " is out of range for rank " +
                  Twine(rank));
    axis = *a;
  }
  llvm::sort(axes);
  if (std::adjacent_find(axes.begin(), axes.end()) != axes.end())
    return fail("axes contain duplicates");
  return success();
}

LogicalResult NodeContext::requireNonEmpty(ArrayRef<int64_t> shape) {
  if (llvm::is_contained(shape, 0))
    return fail("produces an empty tensor, which TOSA cannot represent");
  return success();
}

Type NodeContext::narrowInputType(unsigned i) const {
  narrowRead = true;
  if (i < narrowInputs.size() && narrowInputs[i])
    return narrowInputs[i];
  // A constant of narrow type a handler built (not yet turned into bits).
  Value v = input(i);
  Type elt = v ? getElementTypeOrSelf(v.getType()) : Type();
  return elt && isNarrowType(elt) ? elt : Type();
}

bool NodeContext::outputUsed(unsigned i) const {
  return i < numOutputs() && !node.getOutputs()[i].use_empty();
}

Attribute NodeContext::getAttr(StringRef name) const {
  return node.getAttrs().get(name);
}

bool NodeContext::hasAttr(StringRef name) const {
  return static_cast<bool>(getAttr(name));
}

/// The ONNX attribute type the importer turned `a` into.
static const char *onnxAttributeType(Attribute a) {
  if (isa<IntegerAttr>(a))
    return "INT";
  if (isa<FloatAttr>(a))
    return "FLOAT";
  if (isa<StringAttr>(a))
    return "STRING";
  if (isa<DenseI64ArrayAttr>(a))
    return "INTS";
  if (isa<DenseF32ArrayAttr>(a))
    return "FLOATS";
  if (isa<ArrayAttr>(a))
    return "STRINGS";
  if (isa<DenseElementsAttr>(a))
    return "TENSOR";
  return "GRAPH";
}

template <typename AttrT>
AttrT NodeContext::typedAttr(StringRef name, const char *onnxType) const {
  Attribute a = getAttr(name);
  if (!a)
    return nullptr;
  if (auto typed = dyn_cast<AttrT>(a))
    return typed;
  if (attrTypeError.empty())
    attrTypeError = ("attribute '" + name + "' must be " + onnxType +
                     ", but the model gives " + onnxAttributeType(a))
                        .str();
  return nullptr;
}

int64_t NodeContext::getInt(StringRef name, int64_t dflt) const {
  if (auto a = typedAttr<IntegerAttr>(name, "INT"))
    return a.getInt();
  return dflt;
}

float NodeContext::getFloat(StringRef name, float dflt) const {
  if (auto a = typedAttr<FloatAttr>(name, "FLOAT"))
    return static_cast<float>(a.getValueAsDouble());
  return dflt;
}

std::string NodeContext::getString(StringRef name, StringRef dflt) const {
  if (auto a = typedAttr<StringAttr>(name, "STRING"))
    return a.str();
  return dflt.str();
}

SmallVector<int64_t> NodeContext::getInts(StringRef name,
                                          ArrayRef<int64_t> dflt) const {
  if (auto a = typedAttr<DenseI64ArrayAttr>(name, "INTS"))
    return SmallVector<int64_t>(a.asArrayRef());
  return SmallVector<int64_t>(dflt);
}

SmallVector<float> NodeContext::getFloats(StringRef name,
                                          ArrayRef<float> dflt) const {
  if (auto a = typedAttr<DenseF32ArrayAttr>(name, "FLOATS"))
    return SmallVector<float>(a.asArrayRef());
  return SmallVector<float>(dflt);
}

bool accepts(Elt kind, Type t) {
  switch (kind) {
  case Elt::Float:
    return isa<FloatType>(t);
  case Elt::Number:
    return isa<FloatType>(t) || (t.isSignlessInteger() && !t.isInteger(1));
  case Elt::Int:
    return t.isSignlessInteger() && !t.isInteger(1);
  case Elt::Bool:
    return t.isInteger(1);
  case Elt::Any:
    return true;
  }
  return false;
}

Type demotedElementType(Type elementType) {
  MLIRContext *ctx = elementType.getContext();
  if (isNarrowType(elementType))
    return IntegerType::get(ctx, 8);
  if (elementType.isF64())
    return Float32Type::get(ctx);
  auto integer = dyn_cast<IntegerType>(elementType);
  if (integer && (integer.getWidth() == 64 || integer.isUnsigned()))
    return IntegerType::get(ctx, 32);
  return elementType;
}

Type onnxElementType(MLIRContext *ctx, int64_t dataType) {
  Builder b(ctx);
  switch (dataType) {
  case 1:
    return b.getF32Type();
  case 2:
    return b.getIntegerType(8, /*isSigned=*/false);
  case 3:
    return b.getIntegerType(8);
  case 4:
    return b.getIntegerType(16, /*isSigned=*/false);
  case 5:
    return b.getIntegerType(16);
  case 6:
    return b.getIntegerType(32);
  case 7:
    return b.getIntegerType(64);
  case 9:
    return b.getI1Type();
  case 10:
    return b.getF16Type();
  case 11:
    return b.getF64Type();
  case 12:
    return b.getIntegerType(32, /*isSigned=*/false);
  case 13:
    return b.getIntegerType(64, /*isSigned=*/false);
  case 16:
    return b.getBF16Type();
  case 17:
    return b.getType<Float8E4M3FNType>();
  case 18:
    return b.getType<Float8E4M3FNUZType>();
  case 19:
    return b.getType<Float8E5M2Type>();
  case 20:
    return b.getType<Float8E5M2FNUZType>();
  case 21:
    return b.getIntegerType(4, /*isSigned=*/false);
  case 22:
    return b.getIntegerType(4);
  case 23:
    return b.getType<Float4E2M1FNType>();
  case 24:
    return b.getType<Float8E8M0FNUType>();
  case 25:
    return b.getIntegerType(2, /*isSigned=*/false);
  case 26:
    return b.getIntegerType(2);
  default:
    return {};
  }
}

static StringRef describe(Elt kind) {
  switch (kind) {
  case Elt::Float:
    return "a floating-point";
  case Elt::Number:
    return "a numeric";
  case Elt::Int:
    return "an integer";
  case Elt::Bool:
    return "a boolean";
  case Elt::Any:
    return "any";
  }
  return "";
}

LogicalResult NodeContext::requireInputs(unsigned n) {
  for (unsigned i = 0; i < n; ++i)
    if (!hasInput(i))
      return fail("input " + Twine(i) + " is required");
  return success();
}

LogicalResult NodeContext::requireElementType(unsigned i, Elt kind) {
  Type elt = inputType(i).getElementType();
  if (accepts(kind, elt))
    return success();
  if (elt.isUnsignedInteger())
    return fail("input " + Twine(i) + " has element type " +
                llvm::to_string(elt) +
                "; TOSA 1.0 has no arithmetic on unsigned integers");
  return fail("input " + Twine(i) + " has element type " +
              llvm::to_string(elt) + "; " + describe(kind) +
              " element type is required");
}

LogicalResult NodeContext::requireSameElementType(unsigned first,
                                                  unsigned last) {
  Type want;
  for (unsigned i = first; i < last; ++i) {
    if (!hasInput(i))
      continue;
    Type elt = inputType(i).getElementType();
    if (!want)
      want = elt;
    else if (elt != want)
      return fail("input " + Twine(i) + " has element type " +
                  llvm::to_string(elt) + " but input " + Twine(first) +
                  " has " + llvm::to_string(want));
  }
  return success();
}

LogicalResult NodeContext::fail(const Twine &why) {
  if (reason.empty())
    reason = why.str();
  return failure();
}

LogicalResult NodeContext::failNotConstant(unsigned i, const Twine &why) {
  return failNotConstant(ArrayRef<unsigned>{i}, why);
}

LogicalResult NodeContext::failNotConstant(ArrayRef<unsigned> inputs,
                                           const Twine &why) {
  if (reason.empty())
    notConstant.append(inputs.begin(), inputs.end());
  return fail(why);
}

} // namespace onnx_tosa
