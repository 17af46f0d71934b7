//===- DistributeLoops.cpp - scf.parallel nests to gpu.launch -------------===//
//
// Each top-level scf.parallel (one per linalg op after
// convert-linalg-to-parallel-loops) becomes one gpu.launch. The iteration
// space is linearized row-major and spread over blocks × threads, one
// iteration per thread, so thread k and k+1 work on neighbouring elements of
// the innermost dimension (coalesced accesses). Upstream's
// convert-parallel-loops-to-gpu with greedy mapping instead puts dimension 0
// on x and, without tiling, runs one thread per block (~100× slower, see
// DESIGN.md).
//
// What is left on the host after this pass is only allocation, globals,
// views, launches and the return; any other leftover computation (a 0-d
// linalg op lowers to bare loads and stores) runs in a one-thread launch.
//
//===----------------------------------------------------------------------===//
#include "TosaToGpu.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace onnx_tosa {
namespace {

/// Ops that may stay in the host function: they describe buffers, not work.
bool isHostOp(Operation *op) {
  return isa<memref::AllocOp, memref::AllocaOp, memref::DeallocOp,
             memref::GetGlobalOp, memref::CollapseShapeOp,
             memref::ExpandShapeOp, memref::CastOp, memref::ReshapeOp,
             memref::SubViewOp, arith::ConstantOp, func::ReturnOp,
             gpu::LaunchOp>(op);
}

/// Clones into the launch body the pure host-side values it uses (index
/// arithmetic, constants), so the body is self-contained and nothing but
/// buffers crosses into the kernel.
void sinkPureProducers(gpu::LaunchOp launch) {
  Region &body = launch.getBody();
  bool changed = true;
  while (changed) {
    changed = false;
    llvm::SetVector<Value> used;
    body.walk([&](Operation *op) {
      for (Value v : op->getOperands())
        if (!body.isAncestor(v.getParentRegion()))
          used.insert(v);
    });
    for (Value v : used) {
      Operation *def = v.getDefiningOp();
      if (!def || !isPure(def) || def->getNumRegions() != 0 ||
          isa<memref::GetGlobalOp, memref::CollapseShapeOp,
              memref::ExpandShapeOp, memref::CastOp, memref::ReshapeOp,
              memref::SubViewOp>(def))
        continue;
      OpBuilder b(&body.front(), body.front().begin());
      Operation *clone = b.clone(*def);
      for (auto [from, to] : llvm::zip(def->getResults(), clone->getResults()))
        from.replaceUsesWithIf(to, [&](OpOperand &use) {
          return body.isAncestor(use.getOwner()->getParentRegion());
        });
      changed = true;
    }
  }
}

gpu::LaunchOp createLaunch(OpBuilder &b, Location loc, int64_t grid,
                           int64_t block) {
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value g = arith::ConstantIndexOp::create(b, loc, grid);
  Value t = arith::ConstantIndexOp::create(b, loc, block);
  return gpu::LaunchOp::create(b, loc, g, one, one, t, one, one);
}

struct DistributeLoopsPass
    : PassWrapper<DistributeLoopsPass, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(DistributeLoopsPass)

  DistributeLoopsPass() = default;
  DistributeLoopsPass(const DistributeLoopsPass &other) : PassWrapper(other) {}
  explicit DistributeLoopsPass(unsigned size) { blockSize = size; }

  StringRef getArgument() const override {
    return "onnx-tosa-distribute-loops";
  }
  StringRef getDescription() const override {
    return "Map top-level scf.parallel loops onto gpu.launch blocks and "
           "threads";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<gpu::GPUDialect, arith::ArithDialect, scf::SCFDialect>();
  }

  Option<unsigned> blockSize{*this, "block-size",
                             llvm::cl::desc("threads per block"),
                             llvm::cl::init(256)};

  LogicalResult distribute(scf::ParallelOp loop,
                           MutableArrayRef<scf::ForOp> outer = {});
  LogicalResult wrapSerial(ArrayRef<Operation *> ops);
  void runOnOperation() override;
};

/// A perfect nest `scf.for { ... scf.for { scf.parallel } }` (linalg ops
/// whose reduction dimensions come before parallel ones lower to this):
/// returns the fors, outermost first, and the parallel loop. Each level may
/// also hold pure index computations.
std::optional<std::pair<SmallVector<scf::ForOp>, scf::ParallelOp>>
matchForNest(scf::ForOp top) {
  SmallVector<scf::ForOp> fors;
  Operation *cur = top;
  while (auto f = dyn_cast<scf::ForOp>(cur)) {
    if (f.getNumRegionIterArgs() != 0)
      return std::nullopt;
    fors.push_back(f);
    Operation *next = nullptr;
    for (Operation &op : f.getBody()->without_terminator()) {
      if (isa<scf::ForOp, scf::ParallelOp>(op)) {
        if (next)
          return std::nullopt;
        next = &op;
      } else if (!isPure(&op)) {
        return std::nullopt;
      }
    }
    if (!next)
      return std::nullopt;
    cur = next;
  }
  auto par = dyn_cast<scf::ParallelOp>(cur);
  if (!par)
    return std::nullopt;
  return std::make_pair(fors, par);
}

LogicalResult
DistributeLoopsPass::distribute(scf::ParallelOp loop,
                                MutableArrayRef<scf::ForOp> outer) {
  if (loop.getNumResults() != 0)
    return loop.emitError("scf.parallel with reductions is not supported");
  Location loc = loop.getLoc();
  unsigned n = loop.getNumLoops();
  SmallVector<int64_t> lbs, steps, trips;
  int64_t total = 1;
  for (unsigned i = 0; i < n; ++i) {
    std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound()[i]);
    std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound()[i]);
    std::optional<int64_t> st = getConstantIntValue(loop.getStep()[i]);
    if (!lb || !ub || !st || *st <= 0)
      return loop.emitError("loop bounds must be static (dynamic shapes are "
                            "not supported yet)");
    int64_t trip = *ub > *lb ? (*ub - *lb + *st - 1) / *st : 0;
    lbs.push_back(*lb);
    steps.push_back(*st);
    trips.push_back(trip);
    total *= trip;
  }
  if (total == 0) {
    (outer.empty() ? loop.getOperation() : outer.front().getOperation())
        ->erase();
    return success();
  }
  int64_t block = std::min<int64_t>(blockSize, total);
  int64_t grid = (total + block - 1) / block;
  if (grid > INT32_MAX)
    return loop.emitError("iteration space too large for one launch");

  // With an enclosing serial nest, the launch replaces the whole nest and
  // every thread runs the nest around its own iteration: the parallel
  // iterations are independent, so the interchange keeps each thread's
  // (reduction) order.
  Operation *anchor =
      outer.empty() ? loop.getOperation() : outer.front().getOperation();
  OpBuilder b(anchor);
  gpu::LaunchOp launch = createLaunch(b, loc, grid, block);
  b.setInsertionPointToEnd(&launch.getBody().front());
  Value bid = launch.getBlockIds().x;
  Value tid = launch.getThreadIds().x;
  Value bdim = arith::ConstantIndexOp::create(b, loc, block);
  Value linear = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, bid, bdim), tid);
  Value inBounds =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, linear,
                            arith::ConstantIndexOp::create(b, loc, total));
  auto ifOp = scf::IfOp::create(b, loc, inBounds, /*withElseRegion=*/false);
  gpu::TerminatorOp::create(b, loc);

  b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  IRMapping map;
  for (scf::ForOp f : outer) {
    auto inner = scf::ForOp::create(b, f.getLoc(),
                                    map.lookupOrDefault(f.getLowerBound()),
                                    map.lookupOrDefault(f.getUpperBound()),
                                    map.lookupOrDefault(f.getStep()));
    map.map(f.getInductionVar(), inner.getInductionVar());
    b.setInsertionPoint(inner.getBody()->getTerminator());
    for (Operation &op : f.getBody()->without_terminator())
      if (!isa<scf::ForOp, scf::ParallelOp>(op))
        b.clone(op, map);
  }
  Value rest = linear;
  SmallVector<Value> ivs(n);
  for (int i = int(n) - 1; i >= 0; --i) {
    Value trip = arith::ConstantIndexOp::create(b, loc, trips[i]);
    Value idx = i == 0 ? rest : arith::RemUIOp::create(b, loc, rest, trip);
    if (i != 0)
      rest = arith::DivUIOp::create(b, loc, rest, trip);
    Value iv = idx;
    if (steps[i] != 1)
      iv = arith::MulIOp::create(
          b, loc, iv, arith::ConstantIndexOp::create(b, loc, steps[i]));
    if (lbs[i] != 0)
      iv = arith::AddIOp::create(
          b, loc, iv, arith::ConstantIndexOp::create(b, loc, lbs[i]));
    ivs[i] = iv;
  }
  for (unsigned i = 0; i < n; ++i)
    map.map(loop.getInductionVars()[i], ivs[i]);
  for (Operation &op : loop.getBody()->without_terminator())
    b.clone(op, map);
  anchor->erase();
  sinkPureProducers(launch);
  return success();
}

LogicalResult DistributeLoopsPass::wrapSerial(ArrayRef<Operation *> ops) {
  Operation *first = ops.front();
  for (Operation *op : ops)
    for (Value r : op->getResults())
      for (Operation *user : r.getUsers())
        if (!llvm::is_contained(ops, user))
          return op->emitError("host computation whose result is used by "
                               "later host code cannot be moved to the "
                               "device");
  OpBuilder b(first);
  gpu::LaunchOp launch = createLaunch(b, first->getLoc(), 1, 1);
  Block &body = launch.getBody().front();
  b.setInsertionPointToEnd(&body);
  auto term = gpu::TerminatorOp::create(b, first->getLoc());
  for (Operation *op : ops)
    op->moveBefore(term);
  sinkPureProducers(launch);
  return success();
}

void DistributeLoopsPass::runOnOperation() {
  func::FuncOp func = getOperation();
  if (func.isExternal())
    return;
  // Buffers, constants and views first: they depend on nothing computed, so
  // hoisting them keeps runs of leftover host computation contiguous (an
  // allocation between two such ops would otherwise split them into
  // launches that pass scalars to each other).
  Block &body = func.getBody().front();
  Operation *insertAfter = nullptr;
  for (Operation &op : llvm::make_early_inc_range(body)) {
    if (!isHostOp(&op) || isa<func::ReturnOp, gpu::LaunchOp>(op))
      continue;
    bool ready = llvm::all_of(op.getOperands(), [&](Value v) {
      Operation *def = v.getDefiningOp();
      return !def || (insertAfter && (def == insertAfter ||
                                      def->isBeforeInBlock(insertAfter)));
    });
    if (!ready)
      continue;
    if (insertAfter)
      op.moveAfter(insertAfter);
    else
      op.moveBefore(&body.front());
    insertAfter = &op;
  }

  SmallVector<Operation *> top;
  for (Operation &op : body)
    top.push_back(&op);

  SmallVector<Operation *> serial;
  auto flush = [&]() -> LogicalResult {
    if (serial.empty())
      return success();
    // Everything moves to the device except pure ops that something outside
    // this run also uses: those stay on the host, and every launch that needs
    // them gets its own copy (sinkPureProducers).
    SmallVector<Operation *> work;
    for (Operation *op : serial)
      if (!isPure(op) || llvm::all_of(op->getUsers(), [&](Operation *u) {
            return llvm::is_contained(serial, u);
          }))
        work.push_back(op);
    // A run of nothing but pure ops is not work.
    if (llvm::all_of(work, [](Operation *op) { return isPure(op); }))
      work.clear();
    serial.clear();
    if (work.empty())
      return success();
    return wrapSerial(work);
  };
  for (Operation *op : top) {
    if (auto loop = dyn_cast<scf::ParallelOp>(op)) {
      if (failed(flush()) || failed(distribute(loop)))
        return signalPassFailure();
      continue;
    }
    if (auto f = dyn_cast<scf::ForOp>(op))
      if (auto nest = matchForNest(f)) {
        if (failed(flush()) || failed(distribute(nest->second, nest->first)))
          return signalPassFailure();
        continue;
      }
    if (isHostOp(op)) {
      if (failed(flush()))
        return signalPassFailure();
      continue;
    }
    serial.push_back(op);
  }
  if (failed(flush()))
    return signalPassFailure();
  // Launches built before this pass (onnx-tosa-tensor-core-matmul) had their
  // constants hoisted out by canonicalization since: they go back in too.
  func.walk([](gpu::LaunchOp launch) { sinkPureProducers(launch); });
}

} // namespace

std::unique_ptr<Pass> createDistributeLoopsPass(unsigned blockSize) {
  return std::make_unique<DistributeLoopsPass>(blockSize);
}

} // namespace onnx_tosa
