//===- ConstantFolding.cpp - Folding legalized nodes to constants ---------===//
//
// See ConstantFolding.h. The evaluation is the project's TOSA reference
// evaluator (reference/tosa-eval), run on a scratch function holding copies
// of the ops to fold: it implements every TOSA op from the specification's
// pseudocode, integers exactly in int64 (so int64 shape arithmetic stays
// exact) and floating point in fp64 rounded to each op's type, and it reports
// where the specification leaves a result unpredictable, which is then left
// to run time rather than folded.
//
//===----------------------------------------------------------------------===//
#include "conversion/onnx-to-tosa/ConstantFolding.h"
#include "conversion/onnx-to-tosa/ConstantData.h"
#include "reference/tosa-eval/Evaluator.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;

namespace onnx_tosa {
namespace {

/// Intermediate values of a folded computation may be larger than its inputs
/// and results (a broadcast before a reduction), but not without bound.
constexpr int64_t kMaxIntermediateElements = 1 << 16;

bool isSmallConstant(Value v) {
  auto c = v.getDefiningOp<tosa::ConstOp>();
  return c && isa<DenseElementsAttr>(c.getValues()) &&
         c.getType().getNumElements() <= kMaxFoldedElements;
}

/// Whether `op` verifies, without reporting anything.
bool verifiesQuietly(Operation *op) {
  ScopedDiagnosticHandler silence(op->getContext(),
                                  [](Diagnostic &) { return success(); });
  return succeeded(mlir::verify(op));
}

/// Whether the reference evaluator can take `op` as one of the ops to fold.
bool isEvaluable(Operation *op) {
  if (op->getNumRegions() != 0 || !isa<tosa::TosaDialect>(op->getDialect()))
    return false;
  for (Type t : op->getResultTypes()) {
    auto type = dyn_cast<RankedTensorType>(t);
    if (!type || !type.hasStaticShape() ||
        type.getNumElements() > kMaxIntermediateElements ||
        !ref::Evaluator::dtypeOf(type))
      return false;
  }
  return verifiesQuietly(op);
}

/// `t` as the data of a tensor of `type`.
DenseElementsAttr toAttr(const ref::Tensor &t, RankedTensorType type) {
  if (t.isFloat())
    return fromDoubles(type, t.floats);
  return fromInts(type, t.ints);
}

} // namespace

Value createEmptyConstant(OpBuilder &b, Location loc, RankedTensorType type) {
  assert(type.getNumElements() == 0 && "not an empty type");
  auto attr = DenseElementsAttr::get(type, ArrayRef<Attribute>{});
  return tosa::ConstOp::create(b, loc, type, attr);
}

Value createEmptyConstant(TosaBuilder &t, ArrayRef<int64_t> shape,
                          Type elementType) {
  return createEmptyConstant(t.getBuilder(), t.getLoc(),
                             RankedTensorType::get(shape, elementType));
}

bool replaceEmptyResults(OpBuilder &b, Location loc,
                         MutableArrayRef<Value> results) {
  bool replaced = false;
  for (Value &v : results) {
    auto type = v ? dyn_cast<RankedTensorType>(v.getType()) : nullptr;
    if (!type || !type.hasStaticShape() || type.getNumElements() != 0 ||
        v.getDefiningOp<tosa::ConstOp>())
      continue;
    v = createEmptyConstant(b, loc, type);
    replaced = true;
  }
  return replaced;
}

bool foldToConstants(OpBuilder &b, Location loc, ValueRange inputs,
                     ArrayRef<Operation *> created,
                     MutableArrayRef<Value> results) {
  if (!llvm::all_of(inputs, isSmallConstant))
    return false;
  DenseSet<Operation *> createdSet(created.begin(), created.end());

  // The results to fold, and the created ops they depend on.
  SmallVector<unsigned> toFold;
  DenseSet<Operation *> needed;
  SmallVector<Operation *> worklist;
  for (auto [i, v] : llvm::enumerate(results)) {
    Operation *def = v ? v.getDefiningOp() : nullptr;
    if (!def || isa<tosa::ConstOp>(def))
      continue;
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!createdSet.contains(def) || !type || !type.hasStaticShape() ||
        type.getNumElements() > kMaxFoldedElements)
      return false;
    toFold.push_back(i);
    worklist.push_back(def);
  }
  if (toFold.empty())
    return false;
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    if (!needed.insert(op).second)
      continue;
    for (Value operand : op->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (def && createdSet.contains(def))
        worklist.push_back(def);
      else if (!def || !isa<tosa::ConstOp, tosa::ConstShapeOp>(def) ||
               (isa<tosa::ConstOp>(def) && !isSmallConstant(operand)))
        return false; // run-time data (or a large constant)
    }
  }

  // A scratch function: the outside constants and the needed ops, in order,
  // returning the results to fold.
  MLIRContext *ctx = b.getContext();
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  OpBuilder scratch(ctx);
  scratch.setInsertionPointToEnd(module->getBody());
  SmallVector<Type> resultTypes;
  for (unsigned i : toFold)
    resultTypes.push_back(results[i].getType());
  auto func = func::FuncOp::create(scratch, loc, "fold",
                                   scratch.getFunctionType({}, resultTypes));
  scratch.setInsertionPointToEnd(func.addEntryBlock());
  IRMapping mapping;
  for (Operation *op : created) {
    if (!needed.contains(op))
      continue;
    if (!isEvaluable(op))
      return false;
    for (Value operand : op->getOperands())
      if (!mapping.contains(operand))
        scratch.clone(*operand.getDefiningOp(), mapping);
    scratch.clone(*op, mapping);
  }
  SmallVector<Value> returned;
  for (unsigned i : toFold)
    returned.push_back(mapping.lookup(results[i]));
  func::ReturnOp::create(scratch, loc, returned);

  ref::Evaluator evaluator(*module);
  ref::EvalResult evaluated;
  std::string error;
  if (failed(evaluator.run(func, {}, evaluated, error)) ||
      !evaluated.unpredictable.empty() ||
      evaluated.outputs.size() != toFold.size())
    return false;
  for (auto [i, t] : llvm::zip_equal(toFold, evaluated.outputs)) {
    auto type = cast<RankedTensorType>(results[i].getType());
    results[i] = tosa::ConstOp::create(b, loc, type, toAttr(t, type));
  }
  return true;
}

} // namespace onnx_tosa
