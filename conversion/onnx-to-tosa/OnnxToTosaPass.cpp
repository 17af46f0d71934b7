//===- OnnxToTosaPass.cpp - The convert-onnx-to-tosa pass -----------------===//
//
// Walks each function's graph in order (ONNX graphs are topologically
// sorted), and replaces every onnx.constant by a tosa.const and every
// onnx.node by what its handler builds. Handlers are looked up by
// (domain, op type) and the largest since-version not above the node's opset,
// as ONNX itself versions operators.
//
// Every value a handler sees has a static type, because everything before it
// has already been legalized; the values it returns replace the node's
// results, whose types in the onnx dialect may be unknown.
//
//===----------------------------------------------------------------------===//
#include "conversion/onnx-to-tosa/BoundedSizes.h"
#include "conversion/onnx-to-tosa/ConstantFolding.h"
#include "conversion/onnx-to-tosa/NarrowTypes.h"
#include "conversion/onnx-to-tosa/NodeContext.h"
#include "conversion/onnx-to-tosa/OnnxToTosa.h"
#include "conversion/onnx-to-tosa/Sequence.h"
#include "frontend/onnx-import/Importer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/CSE.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringMap.h"

#include <limits>

using namespace mlir;

namespace onnx_tosa {
namespace {

//===----------------------------------------------------------------------===//
// Registry: (domain, op type) -> rows sorted by since-version
//===----------------------------------------------------------------------===//

class Registry {
public:
  Registry() {
    for (auto table :
         {getAttentionLegalizations(), getElementwiseLegalizations(),
          getActivationLegalizations(), getMatMulLegalizations(),
          getConvLegalizations(), getPoolLegalizations(),
          getNormalizationLegalizations(), getReductionLegalizations(),
          getResizeLegalizations(), getReshapeLegalizations(),
          getTensorLegalizations(), getConstantLegalizations(),
          getRecurrentLegalizations(), getTrigonometryLegalizations(),
          getEinsumLegalizations(), getIndexingLegalizations(),
          getDataDependentLegalizations(),
          getDeterminantLegalizations(), getLossLegalizations(),
          getGridSampleLegalizations(), getLinearAttentionLegalizations(),
          getControlFlowLegalizations(), getSequenceLegalizations(),
          getSignalLegalizations(), getImageLegalizations(),
          getQuantizationLegalizations(), getSelectionLegalizations(),
          getTrainingLegalizations(), getMachineLearningLegalizations()})
      for (const OpLegalization &row : table)
        rows[key(row.domain, row.opType)].push_back(&row);
    for (auto &entry : rows)
      llvm::sort(entry.second,
                 [](const OpLegalization *a, const OpLegalization *b) {
                   return a->sinceVersion < b->sinceVersion;
                 });
  }

  /// The row for `opset`, or null. `firstVersion` is set to the oldest
  /// version handled when the op is known at all.
  const OpLegalization *lookup(StringRef domain, StringRef opType,
                               int64_t opset, int64_t &firstVersion) const {
    firstVersion = 0;
    auto it = rows.find(key(domain, opType));
    if (it == rows.end())
      return nullptr;
    firstVersion = it->second.front()->sinceVersion;
    const OpLegalization *best = nullptr;
    for (const OpLegalization *row : it->second)
      if (row->sinceVersion <= opset)
        best = row;
    return best;
  }

private:
  static std::string key(StringRef domain, StringRef opType) {
    return (domain == "ai.onnx" ? "" : domain).str() + "|" + opType.str();
  }
  llvm::StringMap<SmallVector<const OpLegalization *>> rows;
};

const Registry &getRegistry() {
  static const Registry registry;
  return registry;
}

//===----------------------------------------------------------------------===//
// Diagnostics
//===----------------------------------------------------------------------===//

std::string describe(onnx::NodeOp node) {
  StringRef domain = node.getDomain();
  return ("node '" + node.getNodeName() + "' (" + node.getOpType() +
          ", domain '" + (domain.empty() ? StringRef("ai.onnx") : domain) +
          "', opset " + Twine(static_cast<int64_t>(node.getOpset())) + ")")
      .str();
}

LogicalResult nodeError(onnx::NodeOp node, const Twine &reason) {
  node.emitError() << describe(node) << ": " << reason;
  return failure();
}

/// Why TOSA 1.0 cannot hold run-time data of this element type, if it can't.
std::optional<StringRef> unsupportedElementType(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  Type elt = shaped ? shaped.getElementType() : type;
  if (elt.isInteger(64))
    return StringRef("int64");
  if (elt.isF64())
    return StringRef("float64");
  if (isNarrowType(elt))
    return StringRef("float8, float4, 4-bit or 2-bit");
  if (elt.isUnsignedInteger())
    return StringRef("unsigned integer");
  return std::nullopt;
}

/// Checks one op a handler created: no data TOSA cannot represent flows
/// through it at run time, and it verifies. Returns why not, if not.
std::optional<std::string> checkCreatedOp(Operation *op) {
  // Sequences and optionals only exist at compile time (Sequence.h).
  if (isa<onnx::SequenceOp, onnx::OptionalOp>(op))
    return std::nullopt;
  if (!isa<tosa::ConstOp, tosa::ConstShapeOp>(op)) {
    for (Type t :
         llvm::concat<Type>(op->getOperandTypes(), op->getResultTypes()))
      if (std::optional<StringRef> kind = unsupportedElementType(t))
        return ("needs " + *kind +
                " data at run time, which TOSA 1.0 cannot represent")
            .str();
  }
  if (isa<tosa::ConstOp>(op))
    return std::nullopt; // checked once dead constants are gone
  std::string message;
  {
    ScopedDiagnosticHandler capture(op->getContext(), [&](Diagnostic &d) {
      if (message.empty())
        message = d.str();
      return success();
    });
    if (succeeded(mlir::verify(op)))
      return std::nullopt;
  }
  return "internal error: emitted invalid " +
         op->getName().getStringRef().str() + ": " + message;
}

/// A result type computed by a handler must agree with what the model
/// declares for that output (when it declares anything).
bool agreesWithDeclared(Type computed, Type declared) {
  auto want = dyn_cast<TensorType>(declared);
  if (!want)
    return true; // !onnx.unknown
  auto have = cast<RankedTensorType>(computed);
  // int64 / float64 / unsigned are computed as i32 / f32 (docs/types.md).
  if (have.getElementType() != want.getElementType() &&
      have.getElementType() != demotedElementType(want.getElementType()))
    return false;
  if (!want.hasRank())
    return true;
  if (want.getRank() != have.getRank())
    return false;
  for (auto [h, w] : llvm::zip_equal(have.getShape(), want.getShape()))
    if (!ShapedType::isDynamic(w) && h != w)
      return false;
  return true;
}

//===----------------------------------------------------------------------===//
// Type demotion (docs/types.md)
//===----------------------------------------------------------------------===//

/// Marks a graph input or output whose signless type in the signature holds
/// unsigned data (arith ops, which convert at the boundary, take signless
/// integers only); the artifact reports it with its unsigned dtype.
constexpr StringLiteral kUnsignedAttr = "onnx.unsigned";

/// Marks a graph input or output of narrow element type (NarrowTypes.h),
/// i8 bit patterns in the signature, with the type the model declares; the
/// artifact reports it with that dtype.
constexpr StringLiteral kElementTypeAttr = "onnx.element_type";
/// Marks a 64-bit graph input whose values are computed in 32 bits.
constexpr StringLiteral kNarrowedAttr = "onnx.narrowed";
/// A graph output whose size depends on the data (NodeContext::
/// setOutputCount): its bounded dimension, and the index of the function
/// result holding the count (an i32 tensor<1xi32> marked kCountAttr, which
/// is no graph output: the artifact keeps it as the output's count).
constexpr StringLiteral kBoundedDimAttr = "onnx.bounded_dim";
constexpr StringLiteral kCountResultAttr = "onnx.count_result";
constexpr StringLiteral kCountAttr = "onnx.count";

/// Unsigned types computed as i32 at run time (uint64 keeps its low 32
/// bits, as int64 does; uint4 and uint2 are narrow types, carried as bits).
bool isRunTimeUnsigned(Type elt) {
  auto integer = dyn_cast<IntegerType>(elt);
  return integer && integer.isUnsigned() && integer.getWidth() >= 8;
}

/// ONNX ops that only move narrow data (its i8 bit patterns) around, which
/// any handler does right without knowing what the bits mean.
bool movesDataOnly(onnx::NodeOp node) {
  StringRef domain = node.getDomain();
  if (!domain.empty() && domain != "ai.onnx")
    return false;
  return llvm::is_contained({"Identity", "Reshape", "Flatten", "Squeeze",
                             "Unsqueeze", "Transpose", "Concat", "Split",
                             "Slice", "Gather", "Expand", "Tile", "Shape",
                             "Size", "Where"},
                            node.getOpType());
}

/// A constant of narrow element type as its i8 bit patterns.
Value narrowConstantBits(OpBuilder &b, Location loc, DenseElementsAttr attr) {
  DenseElementsAttr bits = narrowBitsAttr(attr);
  return tosa::ConstOp::create(b, loc, bits.getType(), bits);
}

/// Whether run-time data of `type` is computed in a narrower type.
bool isDemoted(Type type) {
  Type elt = cast<ShapedType>(type).getElementType();
  return demotedElementType(elt) != elt;
}

/// `attr` in its demoted element type: signed integers saturate to the i32
/// range (ONNX uses INT64_MAX / INT64_MIN as "no bound" in Slice and Clip,
/// which must stay the extreme value rather than wrap), unsigned ones keep
/// their low 32 bits as run-time unsigned data does, floats round to f32.
DenseElementsAttr demoteConstant(DenseElementsAttr attr) {
  auto type = cast<RankedTensorType>(attr.getType());
  auto demoted = type.clone(demotedElementType(type.getElementType()));
  if (isa<FloatType>(type.getElementType()))
    return fromDoubles(demoted, toDoubles(attr));
  SmallVector<int64_t> values;
  if (type.getElementType().isUnsignedInteger()) {
    for (const APInt &v : attr.getValues<APInt>())
      values.push_back(static_cast<int32_t>(v.getZExtValue()));
    return fromInts(demoted, values);
  }
  values = toInts(attr);
  for (int64_t &v : values)
    v = std::clamp<int64_t>(v, std::numeric_limits<int32_t>::min(),
                            std::numeric_limits<int32_t>::max());
  return fromInts(demoted, values);
}

/// Converts run-time data between a graph boundary type and its demoted
/// type. arith ops on tensors, not tosa.cast: TOSA 1.0 has no cast from or
/// to int64/float64. They lower through convert-elementwise-to-linalg.
/// `isUnsigned`: integers widen with zeros (uint64 from its i32 bits).
Value convertBoundary(OpBuilder &b, Location loc, Value v, Type to,
                      bool isUnsigned = false) {
  Type from = cast<ShapedType>(v.getType()).getElementType();
  auto type = cast<RankedTensorType>(v.getType()).clone(to);
  if (isa<FloatType>(from))
    return from.getIntOrFloatBitWidth() > to.getIntOrFloatBitWidth()
               ? Value(arith::TruncFOp::create(b, loc, type, v))
               : Value(arith::ExtFOp::create(b, loc, type, v));
  if (from.getIntOrFloatBitWidth() > to.getIntOrFloatBitWidth())
    return arith::TruncIOp::create(b, loc, type, v);
  if (isUnsigned)
    return arith::ExtUIOp::create(b, loc, type, v);
  return arith::ExtSIOp::create(b, loc, type, v);
}

/// Whether a node input is a constant that a retry may demote.
bool isDemotableConstant(Value v) {
  auto c = v.getDefiningOp<tosa::ConstOp>();
  return c && isDemoted(c.getType());
}

/// `v` (i32 holding `unsignedType` data) reduced modulo 2^width, as ONNX's
/// unsigned arithmetic wraps: i32 add, sub, mul, shifts and not agree with
/// it in the low bits, which is all that is kept.
Value wrapUnsigned(OpBuilder &b, Location loc, Value v, Type unsignedType) {
  unsigned width = unsignedType.getIntOrFloatBitWidth();
  if (width >= 32)
    return v;
  auto type = cast<RankedTensorType>(v.getType());
  auto maskType =
      RankedTensorType::get(Shape(type.getRank(), 1), type.getElementType());
  Value mask = tosa::ConstOp::create(
      b, loc, maskType,
      DenseElementsAttr::get(maskType, b.getI32IntegerAttr((1 << width) - 1)));
  return tosa::BitwiseAndOp::create(b, loc, type, v, mask);
}

//===----------------------------------------------------------------------===//
// The conversion
//===----------------------------------------------------------------------===//

/// "; it comes from graph input 'axes' ..." for the inputs of `node` a
/// handler needed as constants, naming the graph inputs (arguments of the
/// top-level function) they are computed from; empty when there are none.
std::string freezeHint(onnx::NodeOp node, ArrayRef<unsigned> inputs) {
  SmallVector<Value> worklist;
  for (unsigned i : inputs)
    if (i < node.getInputs().size())
      worklist.push_back(node.getInputs()[i]);
  llvm::SmallSetVector<StringRef, 4> names;
  DenseSet<Operation *> seen;
  while (!worklist.empty() && seen.size() < 4096) {
    Value v = worklist.pop_back_val();
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      auto func = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp());
      if (func && arg.getOwner() == &func.getBody().front())
        if (auto name = func.getArgAttrOfType<StringAttr>(arg.getArgNumber(),
                                                          "onnx.name"))
          names.insert(name.getValue());
      continue;
    }
    Operation *op = v.getDefiningOp();
    if (op && seen.insert(op).second)
      llvm::append_range(worklist, op->getOperands());
  }
  if (names.empty())
    return "";
  SmallVector<StringRef> sorted(names.begin(), names.end());
  llvm::sort(sorted);
  std::string list, flags;
  for (StringRef name : sorted) {
    list += (list.empty() ? "'" : ", '") + name.str() + "'";
    flags += " --freeze-input " + name.str() + "=FILE.npy";
  }
  bool many = names.size() > 1;
  return "; it is computed from graph input" + std::string(many ? "s " : " ") +
         list + ", which" + flags + (many ? " turn" : " turns") +
         " into a constant (the model is then compiled for that one value)";
}

/// Empty results become constants whatever computed them, and (`mayFold`)
/// results computed from constants only are folded (ConstantFolding.h);
/// what computed them is then erased.
void foldResults(OpBuilder &builder, onnx::NodeOp node, bool mayFold,
                 ArrayRef<Operation *> created, Values &results) {
  bool folded = replaceEmptyResults(builder, node.getLoc(), results);
  if (mayFold) {
    SmallVector<Value> inputs;
    for (Value v : node.getInputs())
      if (!isa<NoneType>(v.getType()))
        inputs.push_back(v);
    folded |= foldToConstants(builder, node.getLoc(), inputs, created, results);
  }
  if (!folded)
    return;
  DenseSet<Value> kept(results.begin(), results.end());
  for (Operation *op : llvm::reverse(created))
    if (llvm::none_of(op->getResults(),
                      [&](Value r) { return kept.contains(r); }) &&
        isOpTriviallyDead(op))
      op->erase();
}

/// Runs the handler of `row` and checks what it built. On failure, erases
/// what it built and returns why.
FailureOr<Values> tryHandler(OpBuilder &builder, onnx::NodeOp node,
                             const OpLegalization *row, std::string &why,
                             SmallVectorImpl<Type> &outputTypes,
                             SmallVectorImpl<NodeContext::OutputCount> &counts,
                             bool mayFold, ArrayRef<Type> narrowInputs) {
  builder.setInsertionPoint(node);
  Operation *before = node->getPrevNode();
  Block *block = node->getBlock();
  NodeContext ctx(builder, node);
  ctx.setNarrowInputTypes(narrowInputs);
  LegalizeResult results = row->handler(ctx);
  // An attribute of the wrong type must not pass for an absent one.
  if (!ctx.attributeTypeError().empty()) {
    why = ctx.attributeTypeError();
    results = failure();
  }
  outputTypes.assign(ctx.getOutputElementTypes().begin(),
                     ctx.getOutputElementTypes().end());
  counts.assign(ctx.getOutputCounts().begin(), ctx.getOutputCounts().end());
  // A result whose size depends on the data is not a constant to fold.
  if (llvm::any_of(counts, [](const NodeContext::OutputCount &c) {
        return static_cast<bool>(c.count);
      }))
    mayFold = false;
  // Narrow data is i8 bit patterns: an op other than data movement must
  // know that to compute with it.
  if (succeeded(results) && !ctx.readNarrowInputTypes() && !movesDataOnly(node))
    for (auto [i, narrow] : llvm::enumerate(narrowInputs))
      if (narrow) {
        why = "input " + std::to_string(i) + " has element type " +
              llvm::to_string(narrow) +
              ", which this op does not support (float8, float4, 4- and "
              "2-bit data are only converted by Cast, CastLike, "
              "QuantizeLinear and DequantizeLinear, and moved by data "
              "movement ops)";
        results = failure();
        break;
      }
  if (failed(results) && why.empty())
    why = ctx.getFailureReason().empty()
              ? "cannot be legalized"
              : ctx.getFailureReason() +
                    freezeHint(node, ctx.getNotConstantInputs());
  auto createdOps = [&] {
    SmallVector<Operation *> ops;
    for (Operation *op = before ? before->getNextNode() : &block->front();
         op != node.getOperation(); op = op->getNextNode())
      ops.push_back(op);
    return ops;
  };
  // Unsigned results are wrapped to their width at run time (convertNode),
  // which a folded constant would skip.
  if (succeeded(results))
    foldResults(builder, node,
                mayFold && llvm::none_of(outputTypes,
                                         [](Type t) {
                                           return t && t.isUnsignedInteger();
                                         }),
                createdOps(), *results);
  SmallVector<Operation *> created = createdOps();
  for (Operation *op : created)
    if (succeeded(results) && why.empty())
      if (std::optional<std::string> bad = checkCreatedOp(op))
        why = *bad;
  if (why.empty())
    return results;
  for (Operation *op : llvm::reverse(created)) {
    op->dropAllUses();
    op->erase();
  }
  return failure();
}

/// What the conversion knows about values beyond their types.
struct DemotedValues {
  /// Graph outputs declared int64/float64/unsigned but computed demoted.
  DenseMap<Value, Type> wideOrigin;
  /// i32 run-time values that hold unsigned data, and its type.
  DenseMap<Value, Type> unsignedOf;
  /// i8 values (run-time or constant) that hold the bit patterns of narrow
  /// data (NarrowTypes.h), and its type.
  DenseMap<Value, Type> narrowOf;
  /// Results whose size depends on the data: the bounded dimension and the
  /// run-time count (NodeContext::setOutputCount).
  DenseMap<Value, NodeContext::OutputCount> counts;
  /// Where each of those sizes comes from, for messages.
  DenseMap<Value, std::string> countOrigin;
};


/// Ops whose handlers take sequences and optionals (Sequence.h) as inputs;
/// every other handler is given tensors only.
bool takesSequences(onnx::NodeOp node) {
  StringRef domain = node.getDomain();
  if (!domain.empty() && domain != "ai.onnx")
    return false;
  StringRef op = node.getOpType();
  return op.starts_with("Sequence") || op.starts_with("Optional") ||
         llvm::is_contained({"ConcatFromSequence", "Identity", "Loop", "If"},
                            op);
}

LogicalResult convertNode(OpBuilder &builder, onnx::NodeOp node,
                          DemotedValues &demoted) {
  for (auto [i, v] : llvm::enumerate(node.getInputs())) {
    if (isa<NoneType>(v.getType()))
      continue;
    if (isSequenceOrOptional(v.getType())) {
      if (takesSequences(node))
        continue;
      return nodeError(node, "input " + Twine(i) + " is " +
                                 (isa<onnx::SequenceType>(v.getType())
                                      ? "a sequence"
                                      : "an optional") +
                                 ", which this op does not take");
    }
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!type || !type.hasStaticShape())
      return nodeError(node, "input " + Twine(i) + " has type " +
                                 llvm::to_string(v.getType()) +
                                 "; a tensor of static shape is required");
  }

  int64_t opset = static_cast<int64_t>(node.getOpset());
  int64_t firstVersion;
  const OpLegalization *row = getRegistry().lookup(
      node.getDomain(), node.getOpType(), opset, firstVersion);
  if (!row) {
    if (firstVersion)
      return nodeError(node, "unsupported op (supported from opset " +
                                 Twine(firstVersion) + " on)");
    return nodeError(node, "unsupported op");
  }

  bool takesUnsigned = llvm::any_of(node.getInputs(), [&](Value v) {
    return demoted.unsignedOf.count(v) ||
           isRunTimeUnsigned(getElementTypeOrSelf(v.getType()));
  });
  // Folding to constants skips the wrap of unsigned data (see convertNode's
  // outputs below).
  bool mayFold =
      !takesUnsigned && llvm::none_of(node.getOutputs(), [](Value out) {
        return getElementTypeOrSelf(out.getType()).isUnsignedInteger();
      });

  // First with int64/float64 constants exact, which folds shape arithmetic
  // at compile time; when that needs them at run time (or mixes them with
  // demoted run-time data), again with those constants demoted.
  SmallVector<Type> narrowInputs;
  for (Value v : node.getInputs())
    narrowInputs.push_back(demoted.narrowOf.lookup(v));

  std::string why;
  SmallVector<Type> outputTypes; // set by the handler, where undeclared
  SmallVector<NodeContext::OutputCount> counts;
  FailureOr<Values> results = tryHandler(builder, node, row, why, outputTypes,
                                         counts, mayFold, narrowInputs);
  if (failed(results) && llvm::any_of(node.getInputs(), isDemotableConstant)) {
    builder.setInsertionPoint(node);
    for (OpOperand &operand : node->getOpOperands()) {
      if (!isDemotableConstant(operand.get()))
        continue;
      auto c = operand.get().getDefiningOp<tosa::ConstOp>();
      DenseElementsAttr attr =
          demoteConstant(cast<DenseElementsAttr>(c.getValues()));
      operand.set(
          tosa::ConstOp::create(builder, c.getLoc(), attr.getType(), attr));
    }
    why.clear();
    results = tryHandler(builder, node, row, why, outputTypes, counts,
                         mayFold, narrowInputs);
  }
  if (failed(results))
    return nodeError(node, why);
  // Kernels index elements in 32 bits (so do tosa.gather and tosa.scatter).
  for (auto [i, v] : llvm::enumerate(*results))
    if (auto type = v ? dyn_cast<RankedTensorType>(v.getType())
                      : RankedTensorType();
        type && type.hasStaticShape() &&
        type.getNumElements() > std::numeric_limits<int32_t>::max())
      return nodeError(node, "output " + Twine(i) + " would have " +
                                 Twine(type.getNumElements()) +
                                 " elements; at most 2147483647 are "
                                 "supported (kernels index in 32 bits)");
  // Reading a value whose size depends on the data: the results keep its
  // count where the op keeps its rows (BoundedSizes.h), else the node is
  // refused.
  SmallVector<std::optional<unsigned>> inputDims;
  std::optional<NodeContext::OutputCount> inputCount;
  for (auto [i, v] : llvm::enumerate(node.getInputs())) {
    auto it = demoted.counts.find(v);
    inputDims.push_back(it == demoted.counts.end()
                            ? std::nullopt
                            : std::optional<unsigned>(it->second.dim));
    if (it == demoted.counts.end())
      continue;
    if (inputCount && inputCount->count != it->second.count)
      return nodeError(node, "inputs " + Twine(i) + " and an earlier one have "
                             "sizes that depend on the input values in "
                             "different ways, which is not supported");
    inputCount = it->second;
  }
  if (inputCount && isBoundedTranspose(node, inputDims.front())) {
    // The real rows first: not a transpose of the bounded array.
    builder.setInsertionPoint(node);
    TosaBuilder t(builder, node.getLoc());
    (*results)[0] =
        transposeBounded(t, node.getInputs()[0], inputCount->count);
    counts.resize(std::max<size_t>(counts.size(), 1));
    counts[0] = {0, inputCount->count};
  } else if (inputCount) {
    std::string why;
    FailureOr<SmallVector<std::optional<unsigned>>> dims =
        boundedDimsOfResults(node, *results, inputDims, why);
    if (failed(dims)) {
      unsigned i = llvm::find_if(inputDims, [](auto d) {
                     return d.has_value();
                   }) - inputDims.begin();
      return nodeError(node, "input " + Twine(i) +
                                 " has a size that depends on the input "
                                 "values (" +
                                 demoted.countOrigin.lookup(
                                     node.getInputs()[i]) +
                                 "), which this op cannot keep: " + why +
                                 " (docs/unsupported-ops.md)");
    }
    counts.resize(std::max(counts.size(), dims->size()));
    for (auto [k, d] : llvm::enumerate(*dims))
      if (d)
        counts[k] = {*d, inputCount->count};
  }

  for (auto [i, out] : llvm::enumerate(node.getOutputs())) {
    if (i >= results->size() || !(*results)[i]) {
      if (!out.use_empty())
        return nodeError(node, "output " + Twine(i) + " is not supported");
      continue;
    }
    Value v = (*results)[i];
    // Sequences and optionals are compile-time lists (Sequence.h): nothing
    // to demote or wrap.
    if (isSequenceOrOptional(v.getType())) {
      if (isa<TensorType>(out.getType()))
        return nodeError(node, "output " + Twine(i) + " is " +
                                   (isa<onnx::SequenceType>(v.getType())
                                        ? "a sequence"
                                        : "an optional") +
                                   ", but the model declares " +
                                   llvm::to_string(out.getType()));
      out.replaceAllUsesWith(v);
      continue;
    }
    if (isa<TensorType>(out.getType()) && !isa<RankedTensorType>(v.getType()))
      return nodeError(node, "output " + Twine(i) + " has type " +
                                 llvm::to_string(v.getType()) +
                                 ", but the model declares a tensor");
    // A constant of narrow type (Constant's value) becomes its bits.
    if (auto c = v.getDefiningOp<tosa::ConstOp>();
        c && isNarrowType(c.getType().getElementType())) {
      builder.setInsertionPoint(node);
      Type narrow = c.getType().getElementType();
      v = narrowConstantBits(builder, c.getLoc(),
                             cast<DenseElementsAttr>(c.getValues()));
      demoted.narrowOf[v] = narrow;
      if (i >= outputTypes.size())
        outputTypes.resize(i + 1);
      outputTypes[i] = narrow;
    }
    // An output whose size depends on the data is only handed to the
    // runtime, which trims it to its count; ops reading it would have to
    // honour the count, which only elementwise ops of one input do (their
    // output keeps the count, keepsElementOrder).
    NodeContext::OutputCount count =
        i < counts.size() ? counts[i] : NodeContext::OutputCount();
    Type declaredForCheck = out.getType();
    if (count.count) {
      // Nodes that read it decide whether they keep its count (above);
      // a subgraph cannot return it.
      for (Operation *user : out.getUsers())
        if (!isa<func::ReturnOp, onnx::NodeOp>(user))
          return nodeError(
              node, "output " + Twine(i) +
                        " has a size that depends on the input values, which "
                        "a subgraph cannot return (docs/unsupported-ops.md)");
      // The declared extent of that dimension is one run's (exporters trace
      // one input): it is not checked.
      if (auto ranked = dyn_cast<RankedTensorType>(out.getType());
          ranked && count.dim < ranked.getRank()) {
        Shape dims(ranked.getShape());
        dims[count.dim] = ShapedType::kDynamic;
        declaredForCheck = ranked.clone(dims);
      }
      demoted.counts[v] = count;
      // Where the size comes from, for the error of an op that cannot keep
      // it: the node that made it, inherited through those that kept it.
      std::string origin;
      for (Value in : node.getInputs())
        if (std::string o = demoted.countOrigin.lookup(in); !o.empty())
          origin = o;
      if (origin.empty()) {
        origin = "computed by " + describe(node);
        // Compress's condition can be frozen, which makes the size static.
        if (node.getOpType() == "Compress")
          origin += freezeHint(node, {1});
      }
      demoted.countOrigin[v] = origin;
    }
    if (!agreesWithDeclared(v.getType(), declaredForCheck)) {
      // Exporters leave stale shapes in value_info; ONNX's semantics, which
      // computed `v`, decide an intermediate's shape (as onnxruntime does).
      // A graph's (or subgraph's) output keeps the shape it declares, so a
      // disagreement there is an error.
      bool isGraphOutput = llvm::any_of(out.getUsers(), [](Operation *user) {
        return isa<func::ReturnOp, onnx::GraphReturnOp>(user);
      });
      auto declaredTensor = dyn_cast<TensorType>(out.getType());
      if (isGraphOutput || !declaredTensor ||
          !agreesWithDeclared(v.getType(), UnrankedTensorType::get(
                                               declaredTensor.getElementType())))
        return nodeError(node, "computed type " +
                                   llvm::to_string(v.getType()) +
                                   " for output " + Twine(i) +
                                   (isGraphOutput ? " (a graph output)" : "") +
                                   ", but the model declares " +
                                   llvm::to_string(out.getType()));
    }
    // Unsigned data computed as i32 is wrapped to its width after every
    // node; that needs its type, which must be declared.
    // (Or that the handler knows it computed.)
    auto declaredType = dyn_cast<TensorType>(out.getType());
    Type declared = declaredType             ? declaredType.getElementType()
                    : i < outputTypes.size() ? outputTypes[i]
                                             : Type();
    bool runTimeI32 = !v.getDefiningOp<tosa::ConstOp>() &&
                      getElementTypeOrSelf(v.getType()).isInteger(32);
    // Narrow data keeps its type: declared, given by the handler, or that of
    // the data a data-movement op moved.
    if (!declared && getElementTypeOrSelf(v.getType()).isInteger(8) &&
        movesDataOnly(node))
      for (Type narrow : narrowInputs)
        if (narrow) {
          declared = narrow;
          break;
        }
    if (declared && isNarrowType(declared)) {
      if (!getElementTypeOrSelf(v.getType()).isInteger(8))
        return nodeError(node, "internal error: output " + Twine(i) +
                                   " of type " + llvm::to_string(declared) +
                                   " is not carried as i8 bits");
      demoted.narrowOf[v] = declared;
      out.replaceAllUsesWith(v);
      continue;
    }
    if (declared && isRunTimeUnsigned(declared) && runTimeI32) {
      if (demoted.unsignedOf.lookup(v) != declared) {
        builder.setInsertionPoint(node);
        v = wrapUnsigned(builder, node.getLoc(), v, declared);
        demoted.unsignedOf[v] = declared;
      }
    } else if (!declared && takesUnsigned && runTimeI32) {
      return nodeError(node, "output " + Twine(i) +
                                 " is computed from unsigned data but its "
                                 "type is not declared (needed to keep "
                                 "unsigned wrap-around)");
    }
    // A graph output declared int64 but computed as i32 is widened back on
    // exit; remember what it was declared as.
    if (declared && declared != getElementTypeOrSelf(v.getType()))
      demoted.wideOrigin[v] = declared;
    out.replaceAllUsesWith(v);
  }
  node.erase();
  return success();
}

/// Nodes that could not be legalized are reported up to this many in one
/// run, so that a model with several unsupported ops needs one compile to
/// list them, not one each.
constexpr unsigned kMaxReportedNodes = 20;

/// Converts the ops of `block` in order: onnx.constant to tosa.const, each
/// onnx.node through its handler. Returns the first node that could not be
/// converted (its error already reported), or null. With `maxFailures` > 1
/// it goes on past a failed node, skipping the nodes that use what a failed
/// one would have computed (their errors would only repeat it), and stops
/// at that many failed nodes.
onnx::NodeOp convertOps(OpBuilder &builder, Block &block,
                        DemotedValues &demoted, unsigned maxFailures = 1) {
  onnx::NodeOp first;
  unsigned failures = 0;
  DenseSet<Value> unavailable; // results of failed or skipped nodes
  auto usesUnavailable = [&](Operation *op) {
    WalkResult found = op->walk([&](Operation *nested) {
      for (Value v : nested->getOperands())
        if (unavailable.contains(v))
          return WalkResult::interrupt();
      return WalkResult::advance();
    });
    return found.wasInterrupted();
  };
  for (Operation &op : llvm::make_early_inc_range(block)) {
    if (auto constant = dyn_cast<onnx::ConstantOp>(op)) {
      builder.setInsertionPoint(constant);
      Type elt = constant.getType().getElementType();
      Value c =
          isNarrowType(elt)
              ? narrowConstantBits(builder, constant.getLoc(),
                                   cast<DenseElementsAttr>(constant.getValue()))
              : tosa::ConstOp::create(builder, constant.getLoc(),
                                      constant.getType(), constant.getValue());
      if (isNarrowType(elt))
        demoted.narrowOf[c] = elt;
      constant.replaceAllUsesWith(c);
      constant.erase();
    } else if (auto node = dyn_cast<onnx::NodeOp>(op)) {
      if (failures && usesUnavailable(node)) {
        unavailable.insert(node->result_begin(), node->result_end());
        continue;
      }
      if (failed(convertNode(builder, node, demoted))) {
        if (!first)
          first = node;
        unavailable.insert(node->result_begin(), node->result_end());
        if (++failures == maxFailures) {
          if (maxFailures > 1)
            node.emitError() << "stopping after " << maxFailures
                             << " nodes that cannot be legalized";
          return first;
        }
      }
    }
  }
  return first;
}

/// Appends the tensors of graph output `v` (a sequence, an optional or a
/// tensor) to `values`, named after `name`: a sequence's elements are
/// NAME.0, NAME.1, ...; a present optional is its value under the same name;
/// an absent one has none (docs/sequences.md).
LogicalResult
flattenOutput(Operation *terminator, Value v, const std::string &name,
              SmallVectorImpl<std::pair<Value, std::string>> &out) {
  if (std::optional<SmallVector<Value>> elements = sequenceElements(v)) {
    for (auto [k, e] : llvm::enumerate(*elements))
      if (failed(flattenOutput(terminator, e, name + "." + std::to_string(k),
                               out)))
        return failure();
    return success();
  }
  if (std::optional<Value> value = optionalValue(v))
    return *value ? flattenOutput(terminator, *value, name, out) : success();
  if (!isa<RankedTensorType>(v.getType()))
    return terminator->emitError()
           << "graph output '" << name << "' has type " << v.getType()
           << ", which is not known at compile time";
  out.push_back({v, name});
  return success();
}

/// Replaces every sequence or optional graph output by its tensors, one
/// function result each, and gives each the element type the model declares
/// (kDeclaredElementTypeAttr) in `declaredResults`.
LogicalResult expandSequenceOutputs(func::FuncOp func,
                                    SmallVectorImpl<Type> &declaredResults) {
  Operation *terminator = func.getBody().front().getTerminator();
  if (llvm::none_of(terminator->getOperandTypes(), isSequenceOrOptional))
    return success();
  MLIRContext *ctx = func.getContext();
  SmallVector<Value> operands;
  SmallVector<Attribute> attrs;
  SmallVector<Type> declared;
  for (auto [i, v] : llvm::enumerate(terminator->getOperands())) {
    DictionaryAttr dict = func.getResultAttrDict(i);
    if (!isSequenceOrOptional(v.getType())) {
      operands.push_back(v);
      attrs.push_back(dict ? dict : DictionaryAttr::get(ctx));
      declared.push_back(declaredResults[i]);
      continue;
    }
    auto name = func.getResultAttrOfType<StringAttr>(i, "onnx.name");
    auto elt = func.getResultAttrOfType<TypeAttr>(i, kDeclaredElementTypeAttr);
    SmallVector<std::pair<Value, std::string>> tensors;
    if (failed(flattenOutput(terminator, v,
                             name ? name.str() : "output" + std::to_string(i),
                             tensors)))
      return failure();
    for (auto &[tensor, tensorName] : tensors) {
      operands.push_back(tensor);
      attrs.push_back(DictionaryAttr::get(
          ctx, {NamedAttribute(StringAttr::get(ctx, "onnx.name"),
                               StringAttr::get(ctx, tensorName))}));
      declared.push_back(elt ? Type(UnrankedTensorType::get(elt.getValue()))
                             : Type(onnx::UnknownType::get(ctx)));
    }
  }
  terminator->setOperands(operands);
  func.setType(FunctionType::get(ctx, func.getArgumentTypes(),
                                 terminator->getOperandTypes()));
  func.setAllResultAttrs(attrs);
  declaredResults.assign(declared.begin(), declared.end());
  return success();
}

/// Gives every graph output whose size depends on the data its count: one
/// more function result per count (however many outputs it sizes), named
/// after the first of them, and marks both (kBoundedDimAttr,
/// kCountResultAttr, kCountAttr).
void appendCountResults(
    func::FuncOp func,
    const DenseMap<Value, NodeContext::OutputCount> &counts,
    SmallVectorImpl<Type> &declaredResults) {
  if (counts.empty())
    return;
  MLIRContext *ctx = func.getContext();
  Operation *terminator = func.getBody().front().getTerminator();
  SmallVector<Value> operands(terminator->getOperands());
  SmallVector<Attribute> attrs;
  for (unsigned i = 0; i < operands.size(); ++i) {
    DictionaryAttr dict = func.getResultAttrDict(i);
    attrs.push_back(dict ? dict : DictionaryAttr::get(ctx));
  }
  DenseMap<Value, unsigned> resultOfCount;
  Builder b(ctx);
  for (unsigned i = 0, e = operands.size(); i < e; ++i) {
    auto it = counts.find(operands[i]);
    if (it == counts.end())
      continue;
    auto [slot, added] =
        resultOfCount.try_emplace(it->second.count, operands.size());
    if (added) {
      auto name = func.getResultAttrOfType<StringAttr>(i, "onnx.name");
      operands.push_back(it->second.count);
      attrs.push_back(DictionaryAttr::get(
          ctx, {b.getNamedAttr("onnx.name",
                               b.getStringAttr((name ? name.str()
                                                     : "output" +
                                                           std::to_string(i)) +
                                               ".count")),
                b.getNamedAttr(kCountAttr, b.getUnitAttr())}));
      declaredResults.push_back(onnx::UnknownType::get(ctx));
    }
    NamedAttrList dict(cast<DictionaryAttr>(attrs[i]));
    dict.set(kBoundedDimAttr, b.getI64IntegerAttr(it->second.dim));
    dict.set(kCountResultAttr, b.getI64IntegerAttr(slot->second));
    attrs[i] = dict.getDictionary(ctx);
  }
  terminator->setOperands(operands);
  func.setType(FunctionType::get(ctx, func.getArgumentTypes(),
                                 terminator->getOperandTypes()));
  func.setAllResultAttrs(attrs);
}

LogicalResult convertFunction(func::FuncOp func) {
  if (func.isExternal())
    return success();
  OpBuilder builder(func.getContext());
  Block &body = func.getBody().front();
  SmallVector<Type> declaredResults(func.getFunctionType().getResults());

  // Graph inputs keep their ONNX types in the signature; inside, int64 and
  // float64 data are computed as i32 and f32. Unsigned inputs become
  // signless of the same width in the signature (marked kUnsignedAttr),
  // zero-extended to i32 inside.
  DenseMap<Value, Value> entryOf; // demoted value -> graph input
  DemotedValues demoted;
  MLIRContext *ctx = func.getContext();
  // Kernels index elements in 32 bits.
  for (BlockArgument arg : body.getArguments())
    if (auto type = dyn_cast<RankedTensorType>(arg.getType());
        type && type.hasStaticShape() &&
        type.getNumElements() > std::numeric_limits<int32_t>::max()) {
      auto name = func.getArgAttrOfType<StringAttr>(arg.getArgNumber(),
                                                    "onnx.name");
      return func.emitError()
             << "graph input '" << (name ? name.getValue() : "?") << "' has "
             << type.getNumElements() << " elements (" << type
             << "); at most 2147483647 are supported (kernels index in 32 "
                "bits)";
    }
  builder.setInsertionPointToStart(&body);
  for (BlockArgument arg : body.getArguments()) {
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    // Narrow data: i8 bit patterns, the code in the low bits. Those of
    // 4- and 2-bit types are masked, so that any byte with the right low
    // bits (an int8 -1 for INT4 -1) reads as that code.
    if (type && isNarrowType(type.getElementType())) {
      Type narrow = type.getElementType();
      auto bitsType = type.clone(IntegerType::get(ctx, 8));
      arg.setType(bitsType);
      func.setArgAttr(arg.getArgNumber(), kElementTypeAttr,
                      TypeAttr::get(narrow));
      Value bits = arg;
      if (type.hasStaticShape() && type.getNumElements() == 0) {
        bits = createEmptyConstant(builder, arg.getLoc(), bitsType);
        arg.replaceAllUsesWith(bits);
      } else if (narrow.getIntOrFloatBitWidth() < 8) {
        auto maskType = RankedTensorType::get(Shape(type.getRank(), 1),
                                              builder.getI8Type());
        Value mask = tosa::ConstOp::create(
            builder, arg.getLoc(), maskType,
            DenseElementsAttr::get(
                maskType, builder.getI8IntegerAttr(
                              (1 << narrow.getIntOrFloatBitWidth()) - 1)));
        bits = tosa::BitwiseAndOp::create(builder, arg.getLoc(), bitsType, arg,
                                          mask);
        arg.replaceAllUsesExcept(bits, bits.getDefiningOp());
        entryOf[bits] = arg;
      }
      demoted.narrowOf[bits] = narrow;
      continue;
    }
    if (type && type.hasStaticShape() && type.getNumElements() == 0) {
      // An empty input carries no data: it is a compile-time constant.
      arg.replaceAllUsesWith(createEmptyConstant(builder, arg.getLoc(), type));
      continue;
    }
    if (type && isRunTimeUnsigned(type.getElementType())) {
      Type elt = type.getElementType();
      unsigned width = elt.getIntOrFloatBitWidth();
      arg.setType(type.clone(IntegerType::get(ctx, width)));
      func.setArgAttr(arg.getArgNumber(), kUnsignedAttr, UnitAttr::get(ctx));
      Value wide = arg;
      if (width != 32) {
        wide = convertBoundary(builder, arg.getLoc(), arg,
                               IntegerType::get(ctx, 32), /*isUnsigned=*/true);
        arg.replaceAllUsesExcept(wide, wide.getDefiningOp());
      }
      demoted.unsignedOf[wide] = elt;
      entryOf[wide] = arg;
      continue;
    }
    if (!type || !isDemoted(type) || type.getElementType().isUnsignedInteger())
      continue;
    Value demoted = convertBoundary(builder, arg.getLoc(), arg,
                                    demotedElementType(type.getElementType()));
    arg.replaceAllUsesExcept(demoted, demoted.getDefiningOp());
    entryOf[demoted] = arg;
  }

  if (convertOps(builder, body, demoted, kMaxReportedNodes))
    return failure();
  if (failed(expandSequenceOutputs(func, declaredResults)))
    return failure();
  appendCountResults(func, demoted.counts, declaredResults);

  // Graph outputs get their ONNX types back: demoted run-time data is
  // widened, and int64/float64 constants are returned as they are. So are
  // empty outputs, which TOSA cannot hold but the artifact can (a buffer of
  // no bytes that no kernel writes).
  Operation *terminator = body.getTerminator();
  builder.setInsertionPoint(terminator);
  for (auto [i, operand] : llvm::enumerate(terminator->getOpOperands())) {
    Value v = operand.get();
    if (Type narrow = demoted.narrowOf.lookup(v)) {
      func.setResultAttr(i, kElementTypeAttr, TypeAttr::get(narrow));
      if (Value arg = entryOf.lookup(v))
        operand.set(arg);
      else if (auto c = v.getDefiningOp<tosa::ConstOp>();
               c && c.getType().getNumElements() == 0)
        operand.set(
            arith::ConstantOp::create(builder, c.getLoc(), c.getValues()));
      continue;
    }
    if (auto c = v.getDefiningOp<tosa::ConstOp>();
        c && (isDemoted(c.getType()) || c.getType().getNumElements() == 0)) {
      operand.set(
          arith::ConstantOp::create(builder, c.getLoc(), c.getValues()));
      continue;
    }
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!type)
      continue;
    Type want = demoted.unsignedOf.lookup(v);
    if (!want)
      want = demoted.wideOrigin.lookup(v);
    if (auto declared = dyn_cast<TensorType>(declaredResults[i]))
      want = declared.getElementType();
    if (!want || want == type.getElementType() ||
        demotedElementType(want) != type.getElementType())
      continue;
    if (Value arg = entryOf.lookup(v)) { // passed through: keep it exact
      operand.set(arg);
    } else if (isRunTimeUnsigned(want)) {
      Type signless = IntegerType::get(ctx, want.getIntOrFloatBitWidth());
      if (signless != type.getElementType())
        v = convertBoundary(builder, terminator->getLoc(), v, signless,
                            /*isUnsigned=*/true);
      operand.set(v);
    } else {
      operand.set(convertBoundary(builder, terminator->getLoc(), v, want));
    }
    if (isRunTimeUnsigned(want))
      func.setResultAttr(i, kUnsignedAttr, UnitAttr::get(ctx));
  }

  // Absent inputs, constants only read at compile time (shapes, axes) and
  // anything a handler built but did not use.
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(body)))
    if (isa<onnx::NoneOp>(op) || isOpTriviallyDead(&op))
      op.erase();
  // Graph inputs whose values are computed in 32 bits (int64 as i32,
  // float64 as f32, uint64 as its low 32 bits): the runtime refuses values
  // that do not fit rather than compute with others (docs/types.md). One
  // only passed through to an output keeps its values and is not marked.
  for (BlockArgument arg : body.getArguments()) {
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    if (!type || !type.getElementType().isIntOrFloat() ||
        type.getElementTypeBitWidth() != 64)
      continue;
    if (llvm::any_of(arg.getUsers(), [](Operation *user) {
          return isa<arith::TruncIOp, arith::TruncFOp>(user);
        }))
      func.setArgAttr(arg.getArgNumber(), kNarrowedAttr, UnitAttr::get(ctx));
  }
  // Handlers build their small constants (zero points, shifts, shapes) where
  // they need them; keep one of each.
  IRRewriter rewriter(func.getContext());
  DominanceInfo dominance(func);
  eliminateCommonSubExpressions(rewriter, dominance, func);

  for (auto constant : body.getOps<tosa::ConstOp>())
    if (constant.getType().getNumElements() == 0)
      return constant.emitError()
             << "an empty tensor " << constant.getType()
             << " is used at run time, which TOSA cannot represent";

  for (auto [i, v] : llvm::enumerate(terminator->getOperands())) {
    Operation *def = v.getDefiningOp();
    if (!def || isa<arith::ArithDialect>(def->getDialect()))
      continue;
    if (std::optional<StringRef> kind = unsupportedElementType(v.getType())) {
      auto name = func.getResultAttrOfType<StringAttr>(i, "onnx.name");
      return terminator->emitError()
             << "graph output " << i
             << (name ? " '" + name.getValue().str() + "'" : std::string())
             << " is " << *kind << " data, which TOSA 1.0 cannot represent";
    }
  }
  func.setType(FunctionType::get(func.getContext(), body.getArgumentTypes(),
                                 terminator->getOperandTypes()));
  return success();
}

struct ConvertOnnxToTosaPass
    : public PassWrapper<ConvertOnnxToTosaPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ConvertOnnxToTosaPass)

  StringRef getArgument() const override { return "convert-onnx-to-tosa"; }
  StringRef getDescription() const override {
    return "Legalize the onnx dialect (onnx.node/constant/none) to TOSA";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry
        .insert<tosa::TosaDialect, func::FuncDialect, arith::ArithDialect>();
  }
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (failed(convertFunction(func)))
        return signalPassFailure();
  }
};

} // namespace

FailureOr<Values> legalizeSubgraph(OpBuilder &b, Region &subgraph,
                                   ValueRange inputs, std::string &why) {
  if (subgraph.empty()) {
    why = "the subgraph is empty";
    return failure();
  }
  Block &source = subgraph.front();
  if (source.getNumArguments() != inputs.size()) {
    why = "the subgraph has " + std::to_string(source.getNumArguments()) +
          " inputs, but " + std::to_string(inputs.size()) + " are bound";
    return failure();
  }
  // The copy is legalized in a detached block, then moved into place: the
  // node keeps its subgraph (a failed handler may be retried), and values
  // the subgraph reads from the enclosing graph are already legalized.
  IRMapping mapping;
  mapping.map(source.getArguments(), inputs);
  Block scratch;
  OpBuilder copier(b.getContext());
  copier.setInsertionPointToEnd(&scratch);
  for (Operation &op : source)
    copier.clone(op, mapping);

  // Inner failures become `why` rather than diagnostics: the handler decides
  // what to report (or tries another way).
  std::string first;
  ScopedDiagnosticHandler capture(b.getContext(), [&](Diagnostic &d) {
    if (first.empty())
      first = d.str();
    return success();
  });
  OpBuilder builder(b.getContext());
  DemotedValues demoted;
  if (onnx::NodeOp failedNode = convertOps(builder, scratch, demoted)) {
    why =
        first.empty() ? describe(failedNode) + ": cannot be legalized" : first;
    return failure();
  }
  Operation *yield = scratch.getTerminator();
  Values results(yield->getOperands());
  for (Value v : results)
    if (!isa<RankedTensorType>(v.getType()) &&
        !isSequenceOrOptional(v.getType())) {
      why = "a subgraph output has type " + llvm::to_string(v.getType());
      return failure();
    }
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(scratch)))
    if (&op != yield && (isa<onnx::NoneOp>(op) || isOpTriviallyDead(&op)))
      op.erase();
  yield->erase();
  b.getInsertionBlock()->getOperations().splice(b.getInsertionPoint(),
                                                scratch.getOperations());
  return results;
}

std::unique_ptr<Pass> createConvertOnnxToTosaPass() {
  return std::make_unique<ConvertOnnxToTosaPass>();
}

void registerOnnxToTosaPasses() {
  PassRegistration<ConvertOnnxToTosaPass>();
  registerBoundaryCastsPass();
}

} // namespace onnx_tosa
