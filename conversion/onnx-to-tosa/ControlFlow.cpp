//===- ControlFlow.cpp - If, Loop and Scan --------------------------------===//
//
// The importer keeps a node's nested graphs as its regions (a GRAPH
// attribute holds the region's index). They are legalized here as copies,
// through legalizeSubgraph, wherever the expansion needs them; values the
// bodies read from the enclosing graph are already legalized.
//
// The device program is a static sequence of kernel launches: the artifact
// has no host-side control flow, so tosa.cond_if / tosa.while_loop (which
// tosa-to-scf turns into host scf.if / scf.while) cannot run on it. Hence:
//  - If: a condition that folds to a constant inlines the taken branch;
//    otherwise both branches are computed and their results selected
//    (if-conversion; ONNX bodies have no side effects).
//  - Loop: unrolled when the number of iterations is known at compile time
//    (a constant trip count, or the declared length of a scan output), with
//    the loop-carried values selected by the run-time condition (scan
//    outputs then have a data-dependent length: the iterations that ran,
//    see NodeContext::setOutputCount); otherwise,
//    with no scan outputs, a tosa.while_loop (legal TOSA, which the device
//    pipeline does not run yet).
//  - Scan: unrolled over its static sequence length.
// Sequences and optionals (Sequence.h) are compile-time lists: a run-time
// condition selects them element by element when both sides have the same
// structure; a loop that carries one is unrolled, so its trip count (and a
// run-time condition, if the structure changes) must be constants.
//
//===----------------------------------------------------------------------===//
#include "conversion/onnx-to-tosa/NodeContext.h"
#include "conversion/onnx-to-tosa/Sequence.h"

#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;

namespace onnx_tosa {
namespace {

/// Unrolling copies the body once per iteration.
constexpr int64_t kMaxUnrolledIterations = 64;

/// The region that GRAPH attribute `attr` of the node names.
FailureOr<Region *> subgraph(NodeContext &ctx, StringRef attr) {
  int64_t index = ctx.getInt(attr, -1);
  Operation *node = ctx.getNode();
  if (index < 0 || index >= static_cast<int64_t>(node->getNumRegions()))
    return ctx.fail("attribute '" + attr + "' (a graph) is missing");
  return &node->getRegion(index);
}

/// Legalizes a copy of subgraph `attr` before the node, bound to `inputs`.
LegalizeResult inlineSubgraph(NodeContext &ctx, StringRef attr,
                              ValueRange inputs) {
  FailureOr<Region *> region = subgraph(ctx, attr);
  if (failed(region))
    return failure();
  std::string why;
  FailureOr<Values> results =
      legalizeSubgraph(ctx.tosa.getBuilder(), **region, inputs, why);
  if (failed(results))
    return ctx.fail("in subgraph '" + attr + "': " + why);
  return results;
}

/// The single boolean of a condition tensor when it is a constant.
std::optional<bool> constantCondition(Value cond) {
  std::optional<DenseElementsAttr> c = TosaBuilder::constantValue(cond);
  if (!c || c->getNumElements() != 1 || !c->getElementType().isInteger(1))
    return std::nullopt;
  return *c->getValues<bool>().begin();
}

/// cond ? onTrue : onFalse for a one-element `cond` and equal types.
Value selectWhole(TosaBuilder &t, Value cond, Value onTrue, Value onFalse) {
  if (onTrue == onFalse)
    return onTrue;
  if (std::optional<bool> known = constantCondition(cond))
    return *known ? onTrue : onFalse;
  cond = t.reshape(cond, Shape(t.rankOf(onTrue), 1));
  return t.select(cond, onTrue, onFalse);
}

/// `v` with a size-1 dimension inserted at `axis`.
Value insertUnitDim(TosaBuilder &t, Value v, int64_t axis) {
  Shape shape(t.shapeOf(v));
  shape.insert(shape.begin() + axis, 1);
  return t.reshape(v, shape);
}

/// `v` without its (size-1) dimension `axis`.
Value dropUnitDim(TosaBuilder &t, Value v, int64_t axis) {
  Shape shape(t.shapeOf(v));
  shape.erase(shape.begin() + axis);
  return t.reshape(v, shape);
}

/// Stacks per-iteration values along a new dimension `axis`.
FailureOr<Value> stack(NodeContext &ctx, ArrayRef<Value> elements, int64_t axis,
                       unsigned which) {
  TosaBuilder &t = ctx.tosa;
  if (elements.empty())
    return ctx.fail("scan output " + Twine(which) +
                    " would be empty, which TOSA cannot represent");
  for (Value v : elements)
    if (v.getType() != elements.front().getType())
      return ctx.fail("scan output " + Twine(which) +
                      " changes type between iterations (" +
                      llvm::to_string(elements.front().getType()) + " vs " +
                      llvm::to_string(v.getType()) + ")");
  SmallVector<Value> parts;
  for (Value v : elements)
    parts.push_back(insertUnitDim(t, v, axis));
  return parts.size() == 1 ? parts.front() : t.concat(parts, axis);
}

//===----------------------------------------------------------------------===//
// If
//===----------------------------------------------------------------------===//

LegalizeResult ifOp(NodeContext &ctx) {
  if (failed(ctx.requireInputs(1)) ||
      failed(ctx.requireElementType(0, Elt::Bool)))
    return failure();
  Value cond = ctx.input(0);
  if (product(ctx.inputShape(0)) != 1)
    return ctx.fail("the condition must hold exactly one element");
  if (std::optional<bool> known = constantCondition(cond))
    return inlineSubgraph(ctx, *known ? "then_branch" : "else_branch", {});

  LegalizeResult thenValues = inlineSubgraph(ctx, "then_branch", {});
  if (failed(thenValues))
    return failure();
  LegalizeResult elseValues = inlineSubgraph(ctx, "else_branch", {});
  if (failed(elseValues))
    return failure();
  if (thenValues->size() != elseValues->size())
    return ctx.fail("the branches have different numbers of outputs");
  Values results;
  for (auto [i, pair] :
       llvm::enumerate(llvm::zip_equal(*thenValues, *elseValues))) {
    auto [a, b] = pair;
    if (isSequenceOrOptional(a.getType()) ||
        isSequenceOrOptional(b.getType())) {
      std::string why;
      FailureOr<Value> v = selectValue(ctx.tosa, cond, a, b, why);
      if (failed(v))
        return ctx.failNotConstant(
            0, "with a run-time condition both branches are computed and "
               "selected, but output " +
                   Twine(i) + " is " + why +
                   "; the condition must be a compile-time constant");
      results.push_back(*v);
      continue;
    }
    if (a.getType() != b.getType())
      return ctx.fail("with a run-time condition both branches are computed "
                      "and selected, but output " +
                      Twine(i) + " is " + llvm::to_string(a.getType()) +
                      " in one and " + llvm::to_string(b.getType()) +
                      " in the other");
    results.push_back(selectWhole(ctx.tosa, cond, a, b));
  }
  return results;
}

//===----------------------------------------------------------------------===//
// Loop
//===----------------------------------------------------------------------===//

/// The declared type of `v`, or of what an element-type change (Cast,
/// CastLike, Identity) that is its only reader declares: expanded functions
/// often declare only the cast they return.
RankedTensorType declaredType(Value v) {
  if (auto type = dyn_cast<RankedTensorType>(v.getType()))
    return type;
  if (!v.hasOneUse())
    return {};
  auto user = dyn_cast<onnx::NodeOp>(*v.getUsers().begin());
  if (!user || user.getDomain() != "" || user->getOperand(0) != v ||
      !llvm::is_contained({"Cast", "CastLike", "Identity"}, user.getOpType()))
    return {};
  return declaredType(user->getResult(0));
}

/// The iteration count that the declared types of the used scan outputs
/// fix, if they fix one.
std::optional<int64_t> declaredScanLength(NodeContext &ctx, unsigned first) {
  std::optional<int64_t> length;
  for (unsigned i = first; i < ctx.numOutputs(); ++i) {
    if (!ctx.outputUsed(i))
      continue;
    RankedTensorType type = declaredType(ctx.getNode()->getResult(i));
    if (!type || type.getRank() == 0 || type.isDynamicDim(0))
      return std::nullopt;
    if (length && *length != type.getDimSize(0))
      return std::nullopt;
    length = type.getDimSize(0);
  }
  return length;
}

LegalizeResult whileLoop(NodeContext &ctx, unsigned numCarried);

LegalizeResult loop(NodeContext &ctx) {
  TosaBuilder &t = ctx.tosa;
  OpBuilder &b = t.getBuilder();
  FailureOr<Region *> body = subgraph(ctx, "body");
  if (failed(body))
    return failure();
  if ((*body)->empty() || ctx.numInputs() < 2)
    return ctx.fail("expects inputs M, cond and the loop-carried values");
  unsigned numCarried = ctx.numInputs() - 2;
  unsigned numBodyOutputs = (*body)->front().getTerminator()->getNumOperands();
  if (numBodyOutputs < 1 + numCarried || ctx.numOutputs() != numBodyOutputs - 1)
    return ctx.fail("the body's outputs do not match the loop's");
  unsigned numScan = numBodyOutputs - 1 - numCarried;
  if (ctx.hasInput(1) && (failed(ctx.requireElementType(1, Elt::Bool)) ||
                          product(ctx.inputShape(1)) != 1))
    return ctx.fail("cond must be a one-element boolean tensor");
  if (ctx.hasInput(0) && product(ctx.inputShape(0)) != 1)
    return ctx.fail("M must be a one-element tensor");

  std::optional<int64_t> tripCount;
  if (ctx.hasInput(0))
    if (std::optional<Shape> m = ctx.constantInts(0))
      tripCount = std::max<int64_t>(0, m->front());
  Value runTimeTripCount =
      ctx.hasInput(0) && !tripCount ? ctx.input(0) : Value();

  // A loop that carries a sequence or an optional is unrolled: their
  // structure (length, presence) is fixed at compile time.
  bool carriesSequences = false;
  for (unsigned k = 0; k < numCarried; ++k)
    carriesSequences |=
        ctx.hasInput(2 + k) && isSequenceOrOptional(ctx.input(2 + k).getType());
  bool runTimeCondition = ctx.hasInput(1) && !constantCondition(ctx.input(1));
  if (carriesSequences && !tripCount) {
    if (!ctx.hasInput(0))
      return ctx.fail("a loop that carries a sequence is unrolled, which "
                      "needs a trip count M");
    SmallVector<unsigned> inputs{0};
    if (runTimeCondition)
      inputs.push_back(1);
    return ctx.failNotConstant(
        inputs, Twine("a loop that carries a sequence is unrolled, so M ") +
                    (runTimeCondition ? "and cond must be compile-time "
                                        "constants"
                                      : "must be a compile-time constant"));
  }

  // How many iterations to unroll.
  std::optional<int64_t> unroll = tripCount;
  if (!unroll && numScan)
    unroll = declaredScanLength(ctx, numCarried);
  if (!unroll || *unroll > kMaxUnrolledIterations) {
    if (numScan || carriesSequences)
      return ctx.fail(
          unroll ? "unrolling " + Twine(*unroll) +
                       " iterations is not "
                       "supported (at most " +
                       Twine(kMaxUnrolledIterations) + ")"
                 : Twine("scan outputs need a compile-time trip count or "
                         "declared scan output shapes"));
    return whileLoop(ctx, numCarried);
  }

  Type i1 = b.getI1Type();
  Value condition =
      ctx.hasInput(1) ? t.reshape(ctx.input(1), {}) : t.splat({}, i1, 1);
  // Whether iteration `i` runs: the condition so far and i < M.
  Value active = condition;
  Values carried;
  for (unsigned k = 0; k < numCarried; ++k)
    carried.push_back(ctx.input(2 + k));
  SmallVector<Values> scanElements(numScan);
  bool predicated = false;
  // Whether iteration `i` (of the loop, not only of what is unrolled) runs.
  auto runs = [&](Value activeSoFar, int64_t i) {
    if (!runTimeTripCount)
      return activeSoFar;
    Value m = t.reshape(runTimeTripCount, {});
    Value inRange = t.compare<tosa::GreaterOp>(m, t.scalarLike(m, i));
    return t.binary<tosa::LogicalAndOp>(activeSoFar, inRange);
  };
  // The iterations that ran, as i32 [1] (for the scan outputs' length).
  Type i32 = b.getI32Type();
  Value ran = t.splat({1}, i32, 0);
  for (int64_t i = 0; i < *unroll; ++i) {
    active = runs(active, i);
    std::optional<bool> known = constantCondition(active);
    if (known && !*known)
      break;
    predicated |= !known;
    ran = t.add(ran, t.reshape(t.indicator(active, i32), {1}));
    Value iterationNumber =
        t.constant(fromInts(RankedTensorType::get({}, b.getI64Type()), {i}));
    Values inputs{iterationNumber, condition};
    inputs.append(carried);
    LegalizeResult outs = inlineSubgraph(ctx, "body", inputs);
    if (failed(outs))
      return failure();
    Value condOut = (*outs)[0];
    if (!t.elementTypeOf(condOut).isInteger(1) ||
        product(t.shapeOf(condOut)) != 1)
      return ctx.fail("the body's condition output must be a one-element "
                      "boolean tensor");
    for (unsigned k = 0; k < numCarried; ++k) {
      Value next = (*outs)[1 + k];
      if (isSequenceOrOptional(next.getType()) ||
          isSequenceOrOptional(carried[k].getType())) {
        std::string why;
        FailureOr<Value> v = selectValue(t, active, next, carried[k], why);
        if (failed(v)) {
          std::string reason = "loop-carried value " + std::to_string(k) +
                               " changes between iterations (" + why +
                               ") and a run-time condition decides whether "
                               "they run";
          if (runTimeCondition)
            return ctx.failNotConstant(1, reason + "; cond must be a "
                                                   "compile-time constant");
          return ctx.fail(reason);
        }
        carried[k] = *v;
        continue;
      }
      if (!known && next.getType() != carried[k].getType())
        return ctx.fail("loop-carried value " + Twine(k) +
                        " changes type between iterations, which a run-time "
                        "condition does not allow");
      carried[k] = selectWhole(t, active, next, carried[k]);
    }
    for (unsigned k = 0; k < numScan; ++k)
      scanElements[k].push_back((*outs)[1 + numCarried + k]);
    condition = t.reshape(condOut, {});
    active = t.binary<tosa::LogicalAndOp>(active, condition);
  }

  // With a run-time stop, how many rows ONNX produces is only known at run
  // time: the scan outputs are bounded by the unrolled iterations, and their
  // count is those that ran (NodeContext::setOutputCount), plus one when
  // the loop would run past what is unrolled, which the runtime reports as
  // an error rather than return a truncated loop.
  Value count;
  if (predicated) {
    Value beyond = runs(active, *unroll);
    count = t.add(ran, t.reshape(t.indicator(beyond, i32), {1}));
  }
  Values results(carried);
  for (unsigned k = 0; k < numScan; ++k) {
    unsigned output = numCarried + k;
    if (!ctx.outputUsed(output)) {
      results.push_back(Value());
      continue;
    }
    FailureOr<Value> stacked = stack(ctx, scanElements[k], 0, k);
    if (failed(stacked))
      return failure();
    if (count)
      ctx.setOutputCount(output, 0, count);
    results.push_back(*stacked);
  }
  return results;
}

/// TOSA requires the regions of while_loop to be isolated from above: the
/// values they read from outside become extra loop-carried values, passed
/// through unchanged. Returns the rebuilt loop (`loopOp` is erased).
tosa::WhileOp isolateFromAbove(OpBuilder &b, tosa::WhileOp loopOp) {
  llvm::SetVector<Value> captured;
  getUsedValuesDefinedAbove(loopOp->getRegions(), captured);
  if (captured.empty())
    return loopOp;
  SmallVector<Value> operands(loopOp.getOperands());
  operands.append(captured.begin(), captured.end());
  SmallVector<Type> types;
  for (Value v : operands)
    types.push_back(v.getType());
  auto isolated = tosa::WhileOp::create(b, loopOp.getLoc(), types, operands);
  for (auto [from, to] :
       llvm::zip_equal(loopOp->getRegions(), isolated->getRegions())) {
    to.takeBody(from);
    Block &block = to.front();
    for (Value v : captured) {
      BlockArgument arg = block.addArgument(v.getType(), v.getLoc());
      v.replaceUsesWithIf(arg, [&](OpOperand &use) {
        return to.isAncestor(use.getOwner()->getParentRegion());
      });
    }
  }
  Operation *yield = isolated.getBodyGraph().front().getTerminator();
  unsigned first = loopOp->getNumOperands();
  for (unsigned k = 0; k < captured.size(); ++k)
    yield->insertOperands(yield->getNumOperands(),
                          isolated.getBodyGraph().getArgument(first + k));
  for (auto [old, now] :
       llvm::zip(loopOp->getResults(), isolated->getResults()))
    old.replaceAllUsesWith(now);
  loopOp->erase();
  return isolated;
}

/// Loop as tosa.while_loop over (iteration number, condition, carried...).
LegalizeResult whileLoop(NodeContext &ctx, unsigned numCarried) {
  TosaBuilder &t = ctx.tosa;
  OpBuilder &b = t.getBuilder();
  Location loc = ctx.getLoc();
  if (!ctx.hasInput(0) && !ctx.hasInput(1))
    return ctx.fail("a loop with neither M nor cond never ends");
  Type i1 = b.getI1Type(), i32 = b.getI32Type();
  Value m;
  if (ctx.hasInput(0)) {
    m = t.reshape(ctx.input(0), {});
    if (std::optional<Shape> known = ctx.constantInts(0))
      m = t.constant(
          fromInts(RankedTensorType::get({}, i32), {known->front()}));
    if (!t.elementTypeOf(m).isInteger(32))
      return ctx.fail("M must be an integer tensor");
  }
  Values init{t.splat({}, i32, 0), ctx.hasInput(1) ? t.reshape(ctx.input(1), {})
                                                   : t.splat({}, i1, 1)};
  for (unsigned k = 0; k < numCarried; ++k)
    init.push_back(ctx.input(2 + k));
  SmallVector<Type> types;
  for (Value v : init)
    types.push_back(v.getType());
  SmallVector<Location> locs(types.size(), loc);

  auto loopOp = tosa::WhileOp::create(b, loc, types, init);
  OpBuilder::InsertionGuard guard(b);

  Block *condBlock = b.createBlock(&loopOp.getCondGraph(), {}, types, locs);
  Value go = condBlock->getArgument(1);
  if (m)
    go = t.binary<tosa::LogicalAndOp>(
        go, t.compare<tosa::GreaterOp>(m, condBlock->getArgument(0)));
  tosa::YieldOp::create(b, loc, go);

  Block *bodyBlock = b.createBlock(&loopOp.getBodyGraph(), {}, types, locs);
  LegalizeResult outs =
      inlineSubgraph(ctx, "body", ValueRange(bodyBlock->getArguments()));
  if (failed(outs))
    return failure();
  Values next{t.add(bodyBlock->getArgument(0), t.splat({}, i32, 1)),
              t.reshape((*outs)[0], {})};
  for (unsigned k = 0; k < numCarried; ++k)
    next.push_back((*outs)[1 + k]);
  for (auto [k, pair] : llvm::enumerate(llvm::zip_equal(next, types)))
    if (std::get<0>(pair).getType() != std::get<1>(pair))
      return ctx.fail("loop-carried value " + Twine(k) + " changes type (" +
                      llvm::to_string(std::get<1>(pair)) + " to " +
                      llvm::to_string(std::get<0>(pair).getType()) +
                      "), which tosa.while_loop does not allow");
  tosa::YieldOp::create(b, loc, next);
  b.setInsertionPoint(loopOp);
  loopOp = isolateFromAbove(b, loopOp);
  return Values(loopOp.getResults().drop_front(2).take_front(numCarried));
}

//===----------------------------------------------------------------------===//
// Scan
//===----------------------------------------------------------------------===//

/// One scan (opset 9 semantics) over `scanInputs` along `inAxes`.
LegalizeResult scanCore(NodeContext &ctx, Values states, Values scanInputs,
                        ArrayRef<int64_t> inAxes, ArrayRef<int64_t> inDirs,
                        ArrayRef<int64_t> outAxes, ArrayRef<int64_t> outDirs,
                        unsigned numScanOutputs) {
  TosaBuilder &t = ctx.tosa;
  int64_t length = t.shapeOf(scanInputs.front())[inAxes.front()];
  for (auto [j, x] : llvm::enumerate(scanInputs))
    if (t.shapeOf(x)[inAxes[j]] != length)
      return ctx.fail("scan inputs have different sequence lengths");
  if (length == 0)
    return ctx.fail("an empty sequence is not supported");
  if (length > kMaxUnrolledIterations)
    return ctx.fail("a sequence of " + Twine(length) +
                    " is not supported (at most " +
                    Twine(kMaxUnrolledIterations) + ": the scan is unrolled)");

  SmallVector<Values> elements(numScanOutputs);
  for (int64_t i = 0; i < length; ++i) {
    Values inputs(states);
    for (auto [j, x] : llvm::enumerate(scanInputs)) {
      int64_t index = inDirs[j] ? length - 1 - i : i;
      inputs.push_back(
          dropUnitDim(t, t.sliceAxis(x, inAxes[j], index, 1), inAxes[j]));
    }
    LegalizeResult outs = inlineSubgraph(ctx, "body", inputs);
    if (failed(outs))
      return failure();
    if (outs->size() != states.size() + numScanOutputs)
      return ctx.fail("the body's outputs do not match the scan's");
    for (unsigned k = 0; k < states.size(); ++k)
      states[k] = (*outs)[k];
    for (unsigned k = 0; k < numScanOutputs; ++k)
      elements[k].push_back((*outs)[states.size() + k]);
  }

  Values results(states);
  for (unsigned k = 0; k < numScanOutputs; ++k) {
    if (outDirs[k])
      std::reverse(elements[k].begin(), elements[k].end());
    int64_t rank = t.rankOf(elements[k].front()) + 1;
    std::optional<int64_t> axis = normalizeAxis(outAxes[k], rank);
    if (!axis)
      return ctx.fail("scan_output_axes[" + Twine(k) + "] is out of range");
    FailureOr<Value> stacked = stack(ctx, elements[k], *axis, k);
    if (failed(stacked))
      return failure();
    results.push_back(*stacked);
  }
  return results;
}

/// Reads a per-input attribute list (default all zeros) of `count` entries.
FailureOr<Shape> perInput(NodeContext &ctx, StringRef name, unsigned count) {
  Shape values = ctx.getInts(name, Shape(count, 0));
  if (values.size() != count)
    return ctx.fail("attribute '" + name + "' must have " + Twine(count) +
                    " entries");
  return values;
}

/// Scan from opset 9: states and scan inputs, no batch dimension.
LegalizeResult scan(NodeContext &ctx) {
  int64_t numScanInputs = ctx.getInt("num_scan_inputs", 0);
  if (numScanInputs < 1 ||
      numScanInputs > static_cast<int64_t>(ctx.numInputs()))
    return ctx.fail("num_scan_inputs must be in [1, number of inputs]");
  unsigned numStates = ctx.numInputs() - numScanInputs;
  if (ctx.numOutputs() < numStates)
    return ctx.fail("fewer outputs than states");
  unsigned numScanOutputs = ctx.numOutputs() - numStates;
  if (failed(ctx.requireInputs(ctx.numInputs())))
    return failure();
  Values states, scanInputs;
  for (unsigned i = 0; i < numStates; ++i)
    states.push_back(ctx.input(i));
  for (unsigned i = numStates; i < ctx.numInputs(); ++i)
    scanInputs.push_back(ctx.input(i));
  FailureOr<Shape> inAxes = perInput(ctx, "scan_input_axes", numScanInputs);
  FailureOr<Shape> inDirs =
      perInput(ctx, "scan_input_directions", numScanInputs);
  FailureOr<Shape> outAxes = perInput(ctx, "scan_output_axes", numScanOutputs);
  FailureOr<Shape> outDirs =
      perInput(ctx, "scan_output_directions", numScanOutputs);
  if (failed(inAxes) || failed(inDirs) || failed(outAxes) || failed(outDirs))
    return failure();
  for (auto [j, x] : llvm::enumerate(scanInputs)) {
    std::optional<int64_t> axis =
        normalizeAxis((*inAxes)[j], ctx.tosa.rankOf(x));
    if (!axis)
      return ctx.fail("scan_input_axes[" + Twine(j) + "] is out of range");
    (*inAxes)[j] = *axis;
  }
  return scanCore(ctx, states, scanInputs, *inAxes, *inDirs, *outAxes, *outDirs,
                  numScanOutputs);
}

/// Scan opset 8: sequence_lens, then states [B, ...] and scan inputs
/// [B, L, ...]; every batch entry is scanned on its own.
LegalizeResult scan8(NodeContext &ctx) {
  TosaBuilder &t = ctx.tosa;
  int64_t numScanInputs = ctx.getInt("num_scan_inputs", 0);
  if (ctx.numInputs() < 2 || numScanInputs < 1 ||
      numScanInputs > static_cast<int64_t>(ctx.numInputs()) - 1)
    return ctx.fail("num_scan_inputs must be in [1, number of inputs - 1]");
  unsigned numStates = ctx.numInputs() - 1 - numScanInputs;
  if (ctx.numOutputs() < numStates)
    return ctx.fail("fewer outputs than states");
  unsigned numScanOutputs = ctx.numOutputs() - numStates;
  for (unsigned i = 1; i < ctx.numInputs(); ++i)
    if (!ctx.hasInput(i) || ctx.inputRank(i) < (i > numStates ? 2 : 1))
      return ctx.fail("states need a batch dimension and scan inputs a "
                      "batch and a sequence dimension");
  int64_t batch = ctx.inputShape(1)[0];
  int64_t length = ctx.inputShape(1 + numStates)[1];
  if (ctx.hasInput(0)) {
    std::optional<Shape> lens = ctx.constantInts(0);
    if (!lens || llvm::any_of(*lens, [&](int64_t l) { return l != length; }))
      return ctx.fail("sequence_lens must be a constant equal to the "
                      "sequence length (shorter sequences are not "
                      "supported)");
  }
  FailureOr<Shape> dirs = perInput(ctx, "directions", numScanInputs);
  if (failed(dirs))
    return failure();
  Shape zeros(numScanInputs, 0), outZeros(numScanOutputs, 0);

  SmallVector<Values> perBatch(ctx.numOutputs());
  for (int64_t n = 0; n < batch; ++n) {
    Values states, scanInputs;
    for (unsigned i = 1; i < ctx.numInputs(); ++i) {
      Value x = ctx.input(i);
      if (t.shapeOf(x)[0] != batch)
        return ctx.fail("inputs have different batch sizes");
      Value entry = dropUnitDim(t, t.sliceAxis(x, 0, n, 1), 0);
      (i <= numStates ? states : scanInputs).push_back(entry);
    }
    LegalizeResult outs = scanCore(ctx, states, scanInputs, zeros, *dirs,
                                   outZeros, outZeros, numScanOutputs);
    if (failed(outs))
      return failure();
    for (auto [k, v] : llvm::enumerate(*outs))
      perBatch[k].push_back(v);
  }
  Values results;
  for (auto [k, values] : llvm::enumerate(perBatch)) {
    FailureOr<Value> stacked = stack(ctx, values, 0, k);
    if (failed(stacked))
      return failure();
    results.push_back(*stacked);
  }
  return results;
}

// clang-format off
const OpLegalization kControlFlow[] = {
    {"If", 1, ifOp},
    {"Loop", 1, loop},
    {"Scan", 8, scan8},
    {"Scan", 9, scan},
};
// clang-format on

} // namespace

ArrayRef<OpLegalization> getControlFlowLegalizations() { return kControlFlow; }

} // namespace onnx_tosa
