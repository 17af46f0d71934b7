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
#include "conversion/onnx-to-tosa/NodeContext.h"
#include "conversion/onnx-to-tosa/OnnxToTosa.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/CSE.h"
#include "llvm/ADT/StringMap.h"

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
          getTensorLegalizations(), getConstantLegalizations()})
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
  if (elt.isUnsignedInteger())
    return StringRef("unsigned integer");
  return std::nullopt;
}

/// Checks one op a handler created: no data TOSA cannot represent flows
/// through it at run time, and it verifies.
LogicalResult checkCreatedOp(onnx::NodeOp node, Operation *op) {
  if (!isa<tosa::ConstOp, tosa::ConstShapeOp>(op)) {
    for (Type t :
         llvm::concat<Type>(op->getOperandTypes(), op->getResultTypes()))
      if (std::optional<StringRef> kind = unsupportedElementType(t))
        return nodeError(node, "needs " + *kind +
                                   " data at run time, which TOSA 1.0 "
                                   "cannot represent (only constant " +
                                   *kind + " inputs are supported)");
  }
  if (isa<tosa::ConstOp>(op))
    return success(); // checked once dead constants are gone
  std::string message;
  {
    ScopedDiagnosticHandler capture(op->getContext(), [&](Diagnostic &d) {
      if (message.empty())
        message = d.str();
      return success();
    });
    if (succeeded(mlir::verify(op)))
      return success();
  }
  return nodeError(node, "internal error: emitted invalid " +
                             op->getName().getStringRef() + ": " + message);
}

/// A result type computed by a handler must agree with what the model
/// declares for that output (when it declares anything).
bool agreesWithDeclared(Type computed, Type declared) {
  auto want = dyn_cast<TensorType>(declared);
  if (!want)
    return true; // !onnx.unknown
  auto have = cast<RankedTensorType>(computed);
  if (have.getElementType() != want.getElementType())
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
// The conversion
//===----------------------------------------------------------------------===//

LogicalResult convertNode(OpBuilder &builder, onnx::NodeOp node) {
  for (auto [i, v] : llvm::enumerate(node.getInputs())) {
    if (isa<NoneType>(v.getType()))
      continue;
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

  builder.setInsertionPoint(node);
  Operation *before = node->getPrevNode();
  NodeContext ctx(builder, node);
  LegalizeResult results = row->handler(ctx);
  if (failed(results))
    return nodeError(node, ctx.getFailureReason().empty()
                               ? StringRef("cannot be legalized")
                               : StringRef(ctx.getFailureReason()));

  Block *block = node->getBlock();
  for (Operation *op = before ? before->getNextNode() : &block->front();
       op != node.getOperation(); op = op->getNextNode())
    if (failed(checkCreatedOp(node, op)))
      return failure();

  for (auto [i, out] : llvm::enumerate(node.getOutputs())) {
    if (i >= results->size() || !(*results)[i]) {
      if (!out.use_empty())
        return nodeError(node, "output " + Twine(i) + " is not supported");
      continue;
    }
    Value v = (*results)[i];
    if (!agreesWithDeclared(v.getType(), out.getType()))
      return nodeError(node, "computed type " + llvm::to_string(v.getType()) +
                                 " for output " + Twine(i) +
                                 ", but the model declares " +
                                 llvm::to_string(out.getType()));
    out.replaceAllUsesWith(v);
  }
  node.erase();
  return success();
}

LogicalResult convertFunction(func::FuncOp func) {
  if (func.isExternal())
    return success();
  OpBuilder builder(func.getContext());
  Block &body = func.getBody().front();
  for (Operation &op : llvm::make_early_inc_range(body)) {
    if (auto constant = dyn_cast<onnx::ConstantOp>(op)) {
      builder.setInsertionPoint(constant);
      Value c = tosa::ConstOp::create(builder, constant.getLoc(),
                                      constant.getType(), constant.getValue());
      constant.replaceAllUsesWith(c);
      constant.erase();
    } else if (auto node = dyn_cast<onnx::NodeOp>(op)) {
      if (failed(convertNode(builder, node)))
        return failure();
    }
  }

  // Absent inputs, constants only read at compile time (shapes, axes) and
  // anything a handler built but did not use.
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(body)))
    if (isa<onnx::NoneOp>(op) || isOpTriviallyDead(&op))
      op.erase();
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

  Operation *terminator = body.getTerminator();
  for (auto [i, v] : llvm::enumerate(terminator->getOperands())) {
    Operation *def = v.getDefiningOp();
    if (!def)
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
    registry.insert<tosa::TosaDialect, func::FuncDialect>();
  }
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (failed(convertFunction(func)))
        return signalPassFailure();
  }
};

} // namespace

std::unique_ptr<Pass> createConvertOnnxToTosaPass() {
  return std::make_unique<ConvertOnnxToTosaPass>();
}

void registerOnnxToTosaPasses() { PassRegistration<ConvertOnnxToTosaPass>(); }

} // namespace onnx_tosa
