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
// With `vector-width` W > 1 (the CUDA target), a loop whose innermost
// dimension is a multiple of W gives each thread W neighbouring iterations
// of it, and their accesses that are consecutive in memory (the innermost
// index moves with the loop, aligned to W elements) become one vector load
// or store: 16-byte accesses for f32, a quarter of the memory instructions.
// Everything else in the body is done per iteration, or once where it does
// not depend on the innermost index (a broadcast operand).
//
// What is left on the host after this pass is only allocation, globals,
// views, launches and the return; any other leftover computation (a 0-d
// linalg op lowers to bare loads and stores) runs in a one-thread launch.
//
//===----------------------------------------------------------------------===//
#include "TosaToGpu.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
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

gpu::LaunchOp createLaunch(OpBuilder &b, Location loc, int64_t gridX,
                           int64_t block, int64_t gridY = 1) {
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value gx = arith::ConstantIndexOp::create(b, loc, gridX);
  Value gy = arith::ConstantIndexOp::create(b, loc, gridY);
  Value t = arith::ConstantIndexOp::create(b, loc, block);
  return gpu::LaunchOp::create(b, loc, gx, gy, one, t, one, one);
}

/// Rewrites `loop` so that each iteration does `width` consecutive
/// iterations of its innermost dimension (see the file comment). Leaves the
/// loop alone, returning false, when its innermost dimension is not
/// [0, n) with unit step and n a multiple of `width`, when its body holds
/// anything but loads, stores and pure ops without regions, or when no
/// access of it would become a vector access.
class InnermostVectorizer {
public:
  InnermostVectorizer(scf::ParallelOp loop, int64_t width)
      : loop(loop), iv(loop.getInductionVars().back()), width(width) {}
  bool run();

private:
  /// An index as coef * iv + rest for the innermost induction variable iv,
  /// `aligned` when rest is a multiple of the width (iv itself is, at the
  /// first of a thread's iterations).
  struct LaneIndex {
    int64_t coef;
    bool aligned;
  };
  static std::optional<LaneIndex> add(std::optional<LaneIndex> x,
                                      std::optional<LaneIndex> y) {
    if (!x || !y)
      return std::nullopt;
    return LaneIndex{x->coef + y->coef, x->aligned && y->aligned};
  }
  std::optional<LaneIndex> mul(std::optional<LaneIndex> x, int64_t c) const {
    if (!x)
      return std::nullopt;
    return LaneIndex{x->coef * c, x->aligned || c % width == 0};
  }
  std::optional<LaneIndex> analyze(Value v);
  std::optional<LaneIndex> analyze(AffineExpr e, ValueRange dims,
                                   ValueRange symbols);
  std::optional<LaneIndex> divide(std::optional<LaneIndex> x, int64_t d,
                                  bool remainder);
  /// Whether an access of `memref` at `indices` reads or writes `width`
  /// consecutive, vector-aligned elements of its last dimension.
  bool isVectorAccess(Value memref, ValueRange indices);

  scf::ParallelOp loop;
  Value iv;
  int64_t width;
  /// Values of the body that depend on iv.
  DenseSet<Value> varying;
};

std::optional<InnermostVectorizer::LaneIndex>
InnermostVectorizer::divide(std::optional<LaneIndex> x, int64_t d,
                            bool remainder) {
  if (!x || d <= 0)
    return std::nullopt;
  if (d == 1)
    return remainder ? LaneIndex{0, true} : *x;
  if (x->coef == 0)
    return LaneIndex{0, remainder && x->aligned && d % width == 0};
  // coef 1 and an aligned rest: a thread's iterations x0 .. x0 + width - 1
  // lie within one multiple of d, so the quotient is the same for all of
  // them and the remainder moves with iv.
  if (x->coef == 1 && x->aligned && d % width == 0)
    return remainder ? LaneIndex{1, true} : LaneIndex{0, false};
  return std::nullopt;
}

std::optional<InnermostVectorizer::LaneIndex>
InnermostVectorizer::analyze(AffineExpr e, ValueRange dims,
                             ValueRange symbols) {
  if (auto d = dyn_cast<AffineDimExpr>(e))
    return analyze(dims[d.getPosition()]);
  if (auto s = dyn_cast<AffineSymbolExpr>(e))
    return analyze(symbols[s.getPosition()]);
  if (auto c = dyn_cast<AffineConstantExpr>(e))
    return LaneIndex{0, c.getValue() % width == 0};
  auto bin = cast<AffineBinaryOpExpr>(e);
  std::optional<LaneIndex> lhs = analyze(bin.getLHS(), dims, symbols);
  auto rhsConst = dyn_cast<AffineConstantExpr>(bin.getRHS());
  switch (e.getKind()) {
  case AffineExprKind::Add:
    return add(lhs, analyze(bin.getRHS(), dims, symbols));
  case AffineExprKind::Mul: {
    if (rhsConst)
      return mul(lhs, rhsConst.getValue());
    std::optional<LaneIndex> rhs = analyze(bin.getRHS(), dims, symbols);
    if (!lhs || !rhs)
      return std::nullopt;
    if (lhs->coef != 0 || rhs->coef != 0)
      return std::nullopt;
    return LaneIndex{0, lhs->aligned || rhs->aligned};
  }
  case AffineExprKind::FloorDiv:
  case AffineExprKind::Mod:
    if (!rhsConst)
      return std::nullopt;
    return divide(lhs, rhsConst.getValue(), e.getKind() == AffineExprKind::Mod);
  default:
    return std::nullopt;
  }
}

std::optional<InnermostVectorizer::LaneIndex>
InnermostVectorizer::analyze(Value v) {
  if (v == iv)
    return LaneIndex{1, true};
  if (!varying.contains(v)) {
    std::optional<int64_t> c = getConstantIntValue(v);
    return LaneIndex{0, c && *c % width == 0};
  }
  Operation *def = v.getDefiningOp();
  if (auto apply = dyn_cast_or_null<affine::AffineApplyOp>(def)) {
    AffineMap map = apply.getAffineMap();
    ValueRange operands = apply.getMapOperands();
    return analyze(map.getResult(0), operands.take_front(map.getNumDims()),
                   operands.drop_front(map.getNumDims()));
  }
  // Right-aligned bases: index i of n has the stride of the basis entries
  // after it.
  if (auto lin = dyn_cast_or_null<affine::AffineLinearizeIndexOp>(def)) {
    ArrayRef<int64_t> basis = lin.getStaticBasis();
    ValueRange indices = lin.getMultiIndex();
    size_t pad = indices.size() - basis.size();
    LaneIndex sum{0, true};
    int64_t stride = 1;
    for (size_t i = indices.size(); i-- > 0;) {
      std::optional<LaneIndex> li = analyze(indices[i]);
      if (!li)
        return std::nullopt;
      sum.coef += li->coef * stride;
      sum.aligned &= li->aligned || stride % width == 0;
      if (i == 0)
        break;
      if (ShapedType::isDynamic(basis[i - pad]))
        return std::nullopt;
      stride *= basis[i - pad];
    }
    return sum;
  }
  if (auto delin = dyn_cast_or_null<affine::AffineDelinearizeIndexOp>(def)) {
    ArrayRef<int64_t> basis = delin.getStaticBasis();
    size_t k = cast<OpResult>(v).getResultNumber();
    size_t pad = delin.getNumResults() - basis.size();
    int64_t stride = 1;
    for (size_t j = k + 1; j < delin.getNumResults(); ++j) {
      if (ShapedType::isDynamic(basis[j - pad]))
        return std::nullopt;
      stride *= basis[j - pad];
    }
    std::optional<LaneIndex> q =
        divide(analyze(delin.getLinearIndex()), stride, /*remainder=*/false);
    if (k < pad)
      return q;
    if (ShapedType::isDynamic(basis[k - pad]))
      return std::nullopt;
    return divide(q, basis[k - pad], /*remainder=*/true);
  }
  if (!def || def->getNumOperands() != 2)
    return std::nullopt;
  std::optional<LaneIndex> lhs = analyze(def->getOperand(0));
  std::optional<LaneIndex> rhs = analyze(def->getOperand(1));
  std::optional<int64_t> rhsConst = getConstantIntValue(def->getOperand(1));
  if (!lhs || !rhs)
    return std::nullopt;
  if (isa<arith::AddIOp>(def))
    return add(lhs, rhs);
  if (isa<arith::MulIOp>(def) && rhsConst)
    return mul(lhs, *rhsConst);
  if (isa<arith::DivUIOp, arith::RemUIOp>(def) && rhsConst)
    return divide(lhs, *rhsConst, isa<arith::RemUIOp>(def));
  return std::nullopt;
}

bool InnermostVectorizer::isVectorAccess(Value memref, ValueRange indices) {
  auto type = cast<MemRefType>(memref.getType());
  Type element = type.getElementType();
  // Whole bytes per element (i1 is not stored as a vector of bits).
  if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8 != 0 ||
      indices.empty() || ShapedType::isDynamic(type.getShape().back()) ||
      type.getShape().back() % width != 0)
    return false;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) ||
      ShapedType::isDynamic(offset) || offset % width != 0 ||
      strides.back() != 1)
    return false;
  // The other indices are the same for all of a thread's iterations and
  // keep the vector aligned (the buffers themselves are allocated with at
  // least 16-byte alignment).
  for (auto [index, stride] : llvm::zip(indices.drop_back(), strides)) {
    std::optional<LaneIndex> li = analyze(index);
    if (!li || li->coef != 0 || ShapedType::isDynamic(stride) ||
        (!li->aligned && stride % width != 0))
      return false;
  }
  std::optional<LaneIndex> last = analyze(indices.back());
  return last && last->coef == 1 && last->aligned;
}

bool InnermostVectorizer::run() {
  unsigned d = loop.getNumLoops() - 1;
  std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound()[d]);
  std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound()[d]);
  std::optional<int64_t> step = getConstantIntValue(loop.getStep()[d]);
  if (!llvm::isPowerOf2_64(width) || !lb || !ub || !step || *lb != 0 ||
      *step != 1 || *ub % width != 0 || *ub == 0)
    return false;
  Block *body = loop.getBody();
  varying.insert(iv);
  for (Operation &op : body->without_terminator()) {
    if (op.getNumRegions() != 0 ||
        !(isPure(&op) || isa<memref::LoadOp, memref::StoreOp>(op)))
      return false;
    if (llvm::any_of(op.getOperands(),
                     [&](Value v) { return varying.contains(v); }))
      varying.insert(op.result_begin(), op.result_end());
  }
  // The accesses that become vector accesses: their indices move with iv.
  DenseSet<Operation *> vectorized;
  for (Operation &op : body->without_terminator()) {
    if (auto load = dyn_cast<memref::LoadOp>(op);
        load && varying.contains(load.getResult()) &&
        isVectorAccess(load.getMemRef(), load.getIndices()))
      vectorized.insert(&op);
    if (auto store = dyn_cast<memref::StoreOp>(op);
        store &&
        llvm::any_of(store.getIndices(),
                     [&](Value v) { return varying.contains(v); }) &&
        isVectorAccess(store.getMemRef(), store.getIndices()))
      vectorized.insert(&op);
  }
  if (vectorized.empty())
    return false;

  // lanes[l] maps the body's values to those of the thread's iteration l.
  SmallVector<Operation *> ops = llvm::map_to_vector(
      body->without_terminator(), [](Operation &op) { return &op; });
  OpBuilder b(body->getTerminator());
  Location loc = loop.getLoc();
  SmallVector<IRMapping> lanes(width);
  for (int64_t l = 1; l < width; ++l)
    lanes[l].map(
        iv, arith::AddIOp::create(b, loc, iv,
                                  arith::ConstantIndexOp::create(b, loc, l)));
  // What isVectorAccess established: the vector is aligned to its size.
  auto alignment = [](VectorType type) {
    return llvm::Align(type.getNumElements() * type.getElementTypeBitWidth() /
                       8);
  };
  auto lookup = [&](int64_t l, ValueRange values) {
    return llvm::map_to_vector(
        values, [&](Value v) { return lanes[l].lookupOrDefault(v); });
  };
  for (Operation *op : ops) {
    if (auto load = dyn_cast<memref::LoadOp>(op);
        load && vectorized.contains(op)) {
      auto type = VectorType::get({width}, load.getType());
      Value v = vector::LoadOp::create(
          b, loc, type, lanes[0].lookupOrDefault(load.getMemRef()),
          lookup(0, load.getIndices()), /*nontemporal=*/false, alignment(type));
      for (int64_t l = 0; l < width; ++l)
        lanes[l].map(load.getResult(),
                     vector::ExtractOp::create(b, loc, v, l).getResult());
      continue;
    }
    if (auto store = dyn_cast<memref::StoreOp>(op);
        store && vectorized.contains(op)) {
      SmallVector<Value> values;
      for (int64_t l = 0; l < width; ++l)
        values.push_back(lanes[l].lookupOrDefault(store.getValueToStore()));
      auto type = VectorType::get({width}, values.front().getType());
      vector::StoreOp::create(
          b, loc, vector::FromElementsOp::create(b, loc, type, values),
          lanes[0].lookupOrDefault(store.getMemRef()),
          lookup(0, store.getIndices()), /*nontemporal=*/false,
          alignment(type));
      continue;
    }
    bool varies = llvm::any_of(op->getOperands(),
                               [&](Value v) { return varying.contains(v); });
    if (!varies) {
      Operation *clone = b.clone(*op, lanes[0]);
      for (int64_t l = 1; l < width; ++l)
        lanes[l].map(op->getResults(), clone->getResults());
      continue;
    }
    for (int64_t l = 0; l < width; ++l)
      b.clone(*op, lanes[l]);
  }
  for (Operation *op : llvm::reverse(ops))
    op->erase();
  OpBuilder outside(loop);
  loop.getStepMutable()[d].assign(
      arith::ConstantIndexOp::create(outside, loc, width));
  return true;
}

struct DistributeLoopsPass
    : PassWrapper<DistributeLoopsPass, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(DistributeLoopsPass)

  DistributeLoopsPass() = default;
  DistributeLoopsPass(const DistributeLoopsPass &other) : PassWrapper(other) {}
  DistributeLoopsPass(unsigned size, unsigned width) {
    blockSize = size;
    vectorWidth = width;
  }

  StringRef getArgument() const override {
    return "onnx-tosa-distribute-loops";
  }
  StringRef getDescription() const override {
    return "Map top-level scf.parallel loops onto gpu.launch blocks and "
           "threads";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<gpu::GPUDialect, arith::ArithDialect, scf::SCFDialect,
                    vector::VectorDialect>();
  }

  Option<unsigned> blockSize{*this, "block-size",
                             llvm::cl::desc("threads per block"),
                             llvm::cl::init(256)};
  Option<unsigned> vectorWidth{
      *this, "vector-width",
      llvm::cl::desc("consecutive innermost iterations per thread, their "
                     "consecutive accesses as vectors (1: none)"),
      llvm::cl::init(1)};

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
  // More blocks than a grid dimension may have are laid out over two; the
  // bounds check below drops the few past the end.
  int64_t gridY = llvm::divideCeil(grid, kMaxGridDimension);
  int64_t gridX = llvm::divideCeil(grid, gridY);
  if (gridY > kMaxGridDimension)
    return loop.emitError("iteration space too large for one launch");

  // With an enclosing serial nest, the launch replaces the whole nest and
  // every thread runs the nest around its own iteration: the parallel
  // iterations are independent, so the interchange keeps each thread's
  // (reduction) order.
  Operation *anchor =
      outer.empty() ? loop.getOperation() : outer.front().getOperation();
  OpBuilder b(anchor);
  gpu::LaunchOp launch = createLaunch(b, loc, gridX, block, gridY);
  b.setInsertionPointToEnd(&launch.getBody().front());
  Value bid = launch.getBlockIds().x;
  if (gridY > 1)
    bid = arith::AddIOp::create(
        b, loc,
        arith::MulIOp::create(b, loc, launch.getBlockIds().y,
                              arith::ConstantIndexOp::create(b, loc, gridX)),
        bid);
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
      if (vectorWidth > 1)
        InnermostVectorizer(loop, vectorWidth).run();
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

std::unique_ptr<Pass> createDistributeLoopsPass(unsigned blockSize,
                                                unsigned vectorWidth) {
  return std::make_unique<DistributeLoopsPass>(blockSize, vectorWidth);
}

} // namespace onnx_tosa
