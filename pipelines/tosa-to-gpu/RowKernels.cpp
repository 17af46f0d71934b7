//===- RowKernels.cpp - Row reductions and their neighbours, one kernel -===//
//
// `onnx-tosa-row-kernels` (linalg on buffers) gives each reduction over the
// innermost dimensions of rows of at most 8192 elements (Softmax,
// LayerNormalization, ReduceMean over channels) a kernel with one workgroup
// per row, and takes into that kernel the ops right before and after it
// that work on the same rows: the elementwise ops over [rows..., row]
// (exp(x - max), x - mean, the normalization) or over [rows...] (1 / sum),
// the fills that start the reductions, and further reductions of the same
// rows. LayerNorm, for instance, is one kernel instead of seven.
//
// In the kernel each of T threads (T divides the row length, at most 16
// elements each) keeps its elements of every intermediate row in registers:
// element j of the row is thread j mod T's (j / T)-th, so neighbouring
// threads read neighbouring elements. A reduction folds a thread's elements
// with the op's own body, then combines the threads' partial results in
// workgroup memory (a tree of log2 T steps between barriers), after which
// every thread has the row's result; with subgroup reductions, in the
// subgroups first (warp shuffles), then their results in workgroup memory.
// Where the subgroup size is fixed (32 on CUDA) and a row is at most 16
// elements per lane, each row is one subgroup's instead, several rows to a
// workgroup, and no reduction needs a barrier. Values are written to
// memory only where an op outside the kernel reads them; a buffer only the
// kernel used is no longer needed.
//
// An op joins only if what it reads from the kernel's own results is read
// at the element (or row) that was computed for it, and the kernel reads
// nothing from memory that it also writes. The ops between the kernel's ops
// may only be allocations, views and constants, so the kernel can take the
// place of the last one.
//
// onnx-tosa-split-reductions leaves these reductions alone
// (isRowReduction): split in two they would be two kernels more.
//
//===----------------------------------------------------------------------===//
#include "KernelBodies.h"
#include "RowKernel.h"
#include "TargetInfo.h"
#include "TosaToGpu.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Pass/Pass.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

namespace onnx_tosa {
namespace {

constexpr int64_t kMaxRow = 8192;
constexpr int64_t kMaxPerThread = 16;
/// One workgroup per row, along the grid's x dimension.
constexpr int64_t kMaxRows = kMaxGridDimension;

int64_t product(ArrayRef<int64_t> v) {
  int64_t p = 1;
  for (int64_t x : v)
    p *= x;
  return p;
}

/// Threads per row: the most of 256, 128, 64, 32 that divide the row
/// length with at most kMaxPerThread elements each; 0 if none.
int64_t threadsFor(int64_t rowSize) {
  for (int64_t t : {256, 128, 64, 32})
    if (rowSize % t == 0 && rowSize / t <= kMaxPerThread)
      return t;
  return 0;
}

/// The op of a reduction's body that combines an element into the
/// accumulator (the block's last argument): its yielded value, computed
/// from the accumulator and one other value. Null if the body is not so.
Operation *combinerOf(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  if (yield.getNumOperands() != 1)
    return nullptr;
  Operation *combiner = yield.getOperand(0).getDefiningOp();
  Value acc = body->getArguments().back();
  if (!combiner || combiner->getNumOperands() != 2 ||
      combiner->getNumResults() != 1 ||
      !isa<arith::AddFOp, arith::MulFOp, arith::MaximumFOp, arith::MinimumFOp,
           arith::MaxNumFOp, arith::MinNumFOp, arith::AddIOp, arith::MulIOp,
           arith::MaxSIOp, arith::MinSIOp, arith::MaxUIOp, arith::MinUIOp>(
          combiner))
    return nullptr;
  if ((combiner->getOperand(0) == acc) == (combiner->getOperand(1) == acc))
    return nullptr;
  // The accumulator is used by the combiner alone.
  if (!acc.hasOneUse())
    return nullptr;
  return combiner;
}

/// Whether starting every thread's partial result at `init` and combining
/// them gives the same as starting the whole row at it: an idempotent
/// combiner (max, min), or the combiner's neutral element.
bool partialsMayStartAt(Operation *combiner, Attribute init) {
  if (isa<arith::MaximumFOp, arith::MinimumFOp, arith::MaxNumFOp,
          arith::MinNumFOp, arith::MaxSIOp, arith::MinSIOp, arith::MaxUIOp,
          arith::MinUIOp>(combiner))
    return true;
  bool additive = isa<arith::AddFOp, arith::AddIOp>(combiner);
  if (auto f = dyn_cast<FloatAttr>(init))
    return f.getValue().isExactlyValue(additive ? 0.0 : 1.0);
  if (auto i = dyn_cast<IntegerAttr>(init))
    return i.getValue() == (additive ? 0 : 1);
  return false;
}

/// A reduction the row kernel takes: its leading loops parallel, then its
/// reduction loops (the row), its result indexed by the parallel loops;
/// rows of at most kMaxRow elements that threads share evenly. Where its
/// init comes from is not looked at.
std::optional<std::pair<RowShape, OpRows>>
rowReductionShape(linalg::LinalgOp op) {
  if (op.getNumDpsInits() != 1 || op.getNumReductionLoops() == 0 ||
      op.hasDynamicShape() || !combinerOf(op))
    return std::nullopt;
  OpRows rows;
  rows.ranges = op.getStaticLoopRanges();
  for (auto kind : op.getIteratorTypesArray()) {
    if (kind == utils::IteratorType::reduction)
      ++rows.rowLoops;
    else if (rows.rowLoops)
      return std::nullopt;
  }
  AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  for (AffineExpr e : out.getResults())
    if (auto d = dyn_cast<AffineDimExpr>(e);
        d && d.getPosition() >= rows.rowsLoops())
      return std::nullopt;
  // Each input is read once per iteration (not a contraction, whose
  // operands leave out some loops).
  for (OpOperand *in : op.getDpsInputOperands()) {
    llvm::SmallBitVector used(rows.ranges.size());
    for (AffineExpr e : op.getMatchingIndexingMap(in).getResults())
      if (auto d = dyn_cast<AffineDimExpr>(e))
        used.set(d.getPosition());
    for (auto [i, range] : llvm::enumerate(rows.ranges))
      if (range > 1 && !used.test(i))
        return std::nullopt;
  }
  RowShape shape;
  shape.rowSize = product(ArrayRef(rows.ranges).take_back(rows.rowLoops));
  shape.numRows = product(ArrayRef(rows.ranges).drop_back(rows.rowLoops));
  if (shape.rowSize > kMaxRow || !threadsFor(shape.rowSize) ||
      shape.numRows > kMaxRows)
    return std::nullopt;
  return std::make_pair(shape, rows);
}

/// How `op` covers the kernel's rows, if it does: a reduction of the same
/// rows, an elementwise op whose trailing loops are the row, or one whose
/// loops are the rows alone.
std::optional<OpRows> opRows(linalg::LinalgOp op, const RowShape &shape) {
  if (op.hasDynamicShape() || !op.hasPureBufferSemantics() ||
      isa<linalg::FillOp>(op))
    return std::nullopt;
  if (op.getNumReductionLoops() > 0) {
    auto reduction = rowReductionShape(op);
    if (!reduction || !(reduction->first == shape))
      return std::nullopt;
    return reduction->second;
  }
  OpRows rows;
  rows.ranges = op.getStaticLoopRanges();
  if (product(rows.ranges) == shape.numRows)
    return rows;
  if (product(rows.ranges) != shape.numRows * shape.rowSize)
    return std::nullopt;
  // The shortest run of trailing loops that makes a row.
  int64_t size = 1;
  while (size < shape.rowSize && rows.rowLoops < rows.ranges.size())
    size *= rows.ranges[rows.ranges.size() - 1 - rows.rowLoops++];
  if (size != shape.rowSize)
    return std::nullopt;
  return rows;
}

/// The constant a fill writes, if it writes one.
Attribute fillValue(linalg::FillOp fill) {
  Attribute value;
  if (!matchPattern(fill.getDpsInputs()[0], m_Constant(&value)))
    return {};
  return value;
}

RowPlace locate(linalg::LinalgOp op, OpOperand &operand, const OpRows &rows) {
  Value v = operand.get();
  auto dense = [](Value x) {
    auto t = dyn_cast<MemRefType>(x.getType());
    return t && t.hasStaticShape() && t.getLayout().isIdentity();
  };
  RowPlace other{viewSource(v), Access::Other};
  // A chain of reshapes of a dense buffer keeps the row-major order.
  Value base = v;
  while (Operation *def = base.getDefiningOp()) {
    if (!isa<memref::ExpandShapeOp, memref::CollapseShapeOp>(def))
      break;
    base = def->getOperand(0);
  }
  if (!dense(v) || !dense(base) || base != other.base)
    return other;
  // The map's results, unit dimensions left out, must be the op's loops of
  // more than one iteration in order: all of them (an element), or all of
  // the rows' (a row).
  ArrayRef<int64_t> shape = cast<MemRefType>(v.getType()).getShape();
  SmallVector<unsigned> used;
  AffineMap map = op.getMatchingIndexingMap(&operand);
  for (auto [size, e] : llvm::zip(shape, map.getResults())) {
    auto d = dyn_cast<AffineDimExpr>(e);
    if (size == 1) {
      auto c = dyn_cast<AffineConstantExpr>(e);
      if (!(c && c.getValue() == 0) && !(d && rows.ranges[d.getPosition()] == 1))
        return other;
      continue;
    }
    if (!d || rows.ranges[d.getPosition()] != size)
      return other;
    used.push_back(d.getPosition());
  }
  SmallVector<unsigned> all, rowsOnly;
  for (auto [i, range] : llvm::enumerate(rows.ranges)) {
    if (range == 1)
      continue;
    all.push_back(i);
    if (i < rows.rowsLoops())
      rowsOnly.push_back(i);
  }
  if (used == all && rows.rowLoops > 0)
    return {base, Access::Element};
  if (used == rowsOnly)
    return {base, Access::Row};
  return other;
}

/// The subgroup reduction that does what `combiner` does, for 32-bit
/// values (subgroup operations on other widths are optional in Vulkan),
/// and for 16-bit floats the maxima and minima, which are exact in f32
/// (softmax's row maximum in fp16 models).
std::optional<gpu::AllReduceOperation> subgroupKindOf(Operation *combiner) {
  Type type = combiner->getResult(0).getType();
  if (!type.isIntOrFloat())
    return std::nullopt;
  if (type.getIntOrFloatBitWidth() != 32 &&
      !(isa<FloatType>(type) && type.getIntOrFloatBitWidth() == 16 &&
        isa<arith::MaximumFOp, arith::MinimumFOp, arith::MaxNumFOp,
            arith::MinNumFOp>(combiner)))
    return std::nullopt;
  using Kind = gpu::AllReduceOperation;
  return TypeSwitch<Operation *, std::optional<Kind>>(combiner)
      .Case<arith::AddFOp, arith::AddIOp>([](auto) { return Kind::ADD; })
      .Case<arith::MulFOp, arith::MulIOp>([](auto) { return Kind::MUL; })
      .Case<arith::MaximumFOp>([](auto) { return Kind::MAXIMUMF; })
      .Case<arith::MinimumFOp>([](auto) { return Kind::MINIMUMF; })
      .Case<arith::MaxNumFOp>([](auto) { return Kind::MAXNUMF; })
      .Case<arith::MinNumFOp>([](auto) { return Kind::MINNUMF; })
      .Case<arith::MaxSIOp>([](auto) { return Kind::MAXSI; })
      .Case<arith::MinSIOp>([](auto) { return Kind::MINSI; })
      .Case<arith::MaxUIOp>([](auto) { return Kind::MAXUI; })
      .Case<arith::MinUIOp>([](auto) { return Kind::MINUI; })
      .Default([](Operation *) { return std::nullopt; });
}

} // namespace

bool isNeutral(Operation *op) {
  return isMemoryEffectFree(op) || isa<memref::AllocOp>(op);
}

RowKernel::RowKernel(const RowShape &shape) : shape(shape) {
  threads = threadsFor(shape.rowSize);
}

bool RowKernel::readable(linalg::LinalgOp op, OpOperand &operand,
                         const OpRows &rows) {
  RowPlace l = locate(op, operand, rows);
  if (!writtenBases.contains(l.base))
    return true;
  return l.access != Access::Other && isWritten(l);
}

bool RowKernel::accepts(Operation *op) {
  if (auto fill = dyn_cast<linalg::FillOp>(op)) {
    if (!fill.hasPureBufferSemantics() || !fillValue(fill))
      return false;
    Value out = fill.getDpsInits()[0];
    auto type = cast<MemRefType>(out.getType());
    Value base = viewSource(out);
    return type.hasStaticShape() && type.getNumElements() == shape.numRows &&
           !readBases.contains(base) && !writtenBases.contains(base);
  }
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp)
    return false;
  std::optional<OpRows> rows = opRows(linalgOp, shape);
  if (!rows)
    return false;
  bool reduction = linalgOp.getNumReductionLoops() > 0;
  if (reduction) {
    // Its accumulator starts at a fill of this kernel and holds a value
    // per row.
    OpOperand *init = linalgOp.getDpsInitOperand(0);
    auto fill = fills.find(viewSource(init->get()));
    if (fill == fills.end() ||
        !partialsMayStartAt(combinerOf(linalgOp), fill->second) ||
        locate(linalgOp, *init, *rows).access != Access::Row)
      return false;
  }
  for (OpOperand *in : linalgOp.getDpsInputOperands())
    if (!readable(linalgOp, *in, *rows))
      return false;
  for (OpOperand &out : linalgOp.getDpsInitsMutable()) {
    if (reduction)
      continue;
    BlockArgument arg = linalgOp.getMatchingBlockArgument(&out);
    if (!arg.use_empty() && !readable(linalgOp, out, *rows))
      return false;
    // Each value lands on its own element (or row) of a buffer the kernel
    // does not read from memory.
    RowPlace l = locate(linalgOp, out, *rows);
    if (l.access == Access::Other || readBases.contains(l.base) ||
        (writtenBases.contains(l.base) && !isWritten(l)))
      return false;
  }
  // Nor may it write what it reads from memory itself.
  for (OpOperand *in : linalgOp.getDpsInputOperands())
    for (Value out : linalgOp.getDpsInits())
      if (viewSource(out) == viewSource(in->get()) &&
          !writtenBases.contains(viewSource(out)))
        return false;
  return true;
}

void RowKernel::add(Operation *op) {
  ops.push_back(op);
  if (auto fill = dyn_cast<linalg::FillOp>(op)) {
    Value base = viewSource(fill.getDpsInits()[0]);
    fills[base] = fillValue(fill);
    writtenBases.insert(base);
    return;
  }
  auto linalgOp = cast<linalg::LinalgOp>(op);
  OpRows rows = *opRows(linalgOp, shape);
  rowsOf[op] = rows;
  for (OpOperand *in : linalgOp.getDpsInputOperands()) {
    RowPlace l = locate(linalgOp, *in, rows);
    if (!writtenBases.contains(l.base))
      readBases.insert(l.base);
  }
  if (linalgOp.getNumReductionLoops() > 0)
    ++reductions;
  for (OpOperand &out : linalgOp.getDpsInitsMutable()) {
    RowPlace l = locate(linalgOp, out, rows);
    written.push_back(l);
    writtenBases.insert(l.base);
  }
}

/// A fill joins a kernel in case a reduction after it starts from it; the
/// fills no reduction of the kernel starts from stay where they are, for
/// the ops (and kernels) that do read them. Taking one and dropping it
/// left those reading uninitialized memory.
void RowKernel::dropUnusedFills() {
  DenseSet<Value> started;
  for (Operation *op : ops)
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
        linalgOp && !isa<linalg::FillOp>(op) &&
        linalgOp.getNumReductionLoops() > 0)
      started.insert(viewSource(linalgOp.getDpsInits()[0]));
  llvm::erase_if(ops, [&](Operation *op) {
    auto fill = dyn_cast<linalg::FillOp>(op);
    return fill && !started.contains(viewSource(fill.getDpsInits()[0]));
  });
}

bool RowKernel::usedOutside(Value base) const {
  // Any use of the buffer, through any view, by an op not in the kernel.
  SmallVector<Value> worklist = {base};
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    for (Operation *user : v.getUsers()) {
      if (auto view = dyn_cast<ViewLikeOpInterface>(user);
          view && view.getViewSource() == v) {
        worklist.push_back(user->getResult(0));
        continue;
      }
      if (!llvm::is_contained(ops, user) && !consumers.contains(user))
        return true;
    }
  }
  return false;
}

/// The op's loop indices for this row and element `element` of it (null:
/// the op has no row loops).
SmallVector<Value> RowKernel::loopIndices(ImplicitLocOpBuilder &b,
                                          const OpRows &rows, Value element) {
  auto c = [&](int64_t v) { return arith::ConstantIndexOp::create(b, v); };
  SmallVector<Value> idx(rows.ranges.size());
  auto delinearize = [&](Value flat, unsigned first, unsigned count) {
    for (unsigned k = count; k-- > 0;) {
      unsigned d = first + k;
      if (k == 0) {
        idx[d] = flat;
        break;
      }
      idx[d] = arith::RemUIOp::create(b, flat, c(rows.ranges[d]));
      flat = arith::DivUIOp::create(b, flat, c(rows.ranges[d]));
    }
  };
  delinearize(row, 0, rows.rowsLoops());
  if (rows.rowLoops)
    delinearize(element, rows.rowsLoops(), rows.rowLoops);
  return idx;
}

/// The value operand `operand` of `op` has at the iteration `idx` (the
/// thread's element `e`): from the kernel, or loaded from memory.
Value RowKernel::read(ImplicitLocOpBuilder &b, linalg::LinalgOp op,
                      OpOperand &operand, ArrayRef<Value> idx, size_t e) {
  RowPlace l = locate(op, operand, rowsOf[op]);
  if (isWritten(l))
    return l.access == Access::Row ? rowValues[l.base]
                                   : elementValues[l.base][e];
  return memref::LoadOp::create(
      b, operand.get(),
      mapIndices(b, b.getLoc(), op.getMatchingIndexingMap(&operand), idx));
}

/// Records what `op` computes for its output `out` and, when an op outside
/// the kernel reads that buffer, stores it: each thread its elements, the
/// first thread a row's value.
void RowKernel::write(ImplicitLocOpBuilder &b, linalg::LinalgOp op,
                      OpOperand &out, ArrayRef<Value> idx, size_t e,
                      Value value) {
  RowPlace l = locate(op, out, rowsOf[op]);
  if (l.access == Access::Row) {
    rowValues[l.base] = value;
  } else {
    // A later op may write the same elements again: its values replace
    // the earlier ones.
    SmallVector<Value> &slots = elementValues[l.base];
    slots.resize(elements.size());
    slots[e] = value;
  }
  if (!usedOutside(l.base))
    return;
  OpBuilder::InsertionGuard guard(b);
  if (l.access == Access::Row) {
    Value first = arith::CmpIOp::create(
        b, arith::CmpIPredicate::eq, thread,
        arith::ConstantIndexOp::create(b, 0));
    auto ifOp = scf::IfOp::create(b, TypeRange{}, first,
                                  /*withElseRegion=*/false);
    b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  }
  memref::StoreOp::create(b, value, out.get(),
                          mapIndices(b, b.getLoc(), op.getMatchingIndexingMap(&out), idx));
}

/// The body of an elementwise op for each element of the thread (once for
/// an op over the rows alone).
void RowKernel::emitElementwise(ImplicitLocOpBuilder &b,
                                linalg::LinalgOp op) {
  const OpRows &rows = rowsOf[op];
  size_t count = rows.rowLoops ? elements.size() : 1;
  for (size_t e = 0; e < count; ++e) {
    SmallVector<Value> idx = loopIndices(b, rows, elements[e]);
    IRMapping map;
    for (OpOperand &operand : op->getOpOperands()) {
      BlockArgument arg = op.getMatchingBlockArgument(&operand);
      if (!arg.use_empty())
        map.map(arg, read(b, op, operand, idx, e));
    }
    for (auto [out, v] :
         llvm::zip(op.getDpsInitsMutable(), cloneBody(b, op, map, idx)))
      write(b, op, out, idx, e, v);
  }
}

/// Every thread's `partial` combined (`combine`) into the workgroup's
/// result, which every thread gets: each subgroup combines its lanes' values
/// in registers, the first lane of each writes the subgroup's result to
/// `scratch`, and after one barrier every thread combines those in order.
/// `subgroupSize` 0: the device's (as many subgroups as it makes).
Value RowKernel::combineInSubgroups(ImplicitLocOpBuilder &b, Value partial,
                                    gpu::AllReduceOperation kind, Value scratch,
                                    int64_t subgroupSize,
                                    function_ref<Value(Value, Value)> combine) {
  auto c = [&](int64_t v) { return arith::ConstantIndexOp::create(b, v); };
  auto load = [&](Value i) {
    return memref::LoadOp::create(b, scratch, ValueRange{i});
  };
  // 16-bit maxima and minima go through f32 (exactly).
  Type type = partial.getType();
  Value mine = type.isF32() || !isa<FloatType>(type)
                   ? partial
                   : arith::ExtFOp::create(b, b.getF32Type(), partial);
  mine = gpu::SubgroupReduceOp::create(b, mine, kind, /*uniform=*/true);
  if (mine.getType() != type)
    mine = arith::TruncFOp::create(b, type, mine);
  if (subgroupSize > 0 && threads <= subgroupSize)
    return mine;
  Value lane, subgroup, count;
  if (subgroupSize > 0) {
    lane = arith::RemUIOp::create(b, thread, c(subgroupSize));
    subgroup = arith::DivUIOp::create(b, thread, c(subgroupSize));
  } else {
    lane = gpu::LaneIdOp::create(b, /*upper_bound=*/nullptr);
    subgroup = gpu::SubgroupIdOp::create(b, /*upper_bound=*/nullptr);
    count = gpu::NumSubgroupsOp::create(b, /*upper_bound=*/nullptr);
  }
  {
    OpBuilder::InsertionGuard guard(b);
    Value first =
        arith::CmpIOp::create(b, arith::CmpIPredicate::eq, lane, c(0));
    auto ifOp = scf::IfOp::create(b, TypeRange{}, first,
                                  /*withElseRegion=*/false);
    b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    memref::StoreOp::create(b, mine, scratch, ValueRange{subgroup});
  }
  gpu::BarrierOp::create(b);
  Value result = load(c(0));
  if (subgroupSize > 0) {
    for (int64_t i = 1; i < threads / subgroupSize; ++i)
      result = combine(result, load(c(i)));
    return result;
  }
  auto loop = scf::ForOp::create(b, c(1), count, c(1), ValueRange{result});
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  scf::YieldOp::create(
      b, combine(loop.getRegionIterArgs()[0], load(loop.getInductionVar())));
  return loop.getResult(0);
}

/// The same by a tree in workgroup memory: at each step the first half of
/// the threads still in it combines its values with the second half's.
Value RowKernel::combineInTree(ImplicitLocOpBuilder &b, Value partial,
                               Value scratch,
                               function_ref<Value(Value, Value)> combine) {
  auto c = [&](int64_t v) { return arith::ConstantIndexOp::create(b, v); };
  auto load = [&](Value i) {
    return memref::LoadOp::create(b, scratch, ValueRange{i});
  };
  memref::StoreOp::create(b, partial, scratch, ValueRange{thread});
  gpu::BarrierOp::create(b);
  for (int64_t half = threads / 2; half >= 1; half /= 2) {
    Value active =
        arith::CmpIOp::create(b, arith::CmpIPredicate::ult, thread, c(half));
    auto ifOp = scf::IfOp::create(b, TypeRange{}, active,
                                  /*withElseRegion=*/false);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
      Value combined = combine(load(thread),
                               load(arith::AddIOp::create(b, thread, c(half))));
      memref::StoreOp::create(b, combined, scratch, ValueRange{thread});
    }
    gpu::BarrierOp::create(b);
  }
  return load(c(0));
}

/// Each thread folds its elements into a partial result with the op's
/// body; `combine` combines the threads' partial results into the row's.
void RowKernel::emitReduction(ImplicitLocOpBuilder &b, linalg::LinalgOp op,
                              Combine combine) {
  const OpRows &rows = rowsOf[op];
  OpOperand *init = op.getDpsInitOperand(0);
  Value partial = arith::ConstantOp::create(
      b, cast<TypedAttr>(fills[viewSource(init->get())]));
  Block *body = op.getBlock();
  SmallVector<Value> idx;
  for (size_t e = 0; e < elements.size(); ++e) {
    idx = loopIndices(b, rows, elements[e]);
    IRMapping map;
    for (OpOperand *operand : op.getDpsInputOperands()) {
      BlockArgument arg = op.getMatchingBlockArgument(operand);
      if (!arg.use_empty())
        map.map(arg, read(b, op, *operand, idx, e));
    }
    map.map(body->getArguments().back(), partial);
    partial = cloneBody(b, op, map, idx).front();
  }
  Operation *combiner = combinerOf(op);
  Value acc = body->getArguments().back();
  Value other = combiner->getOperand(0) == acc ? combiner->getOperand(1)
                                               : combiner->getOperand(0);
  Value result = combine(b, partial, [&](Value mine, Value theirs) {
    IRMapping map;
    map.map(acc, mine);
    map.map(other, theirs);
    return b.clone(*combiner, map)->getResult(0);
  });
  // The result's indices use the rows' loops alone.
  write(b, op, *init, idx, 0, result);
}

/// Rows per workgroup when each row is one subgroup's (a warp's, on CUDA,
/// whose size is fixed), 0 if not: rows of up to kMaxPerThread elements per
/// lane, all of whose reductions combine in the subgroup, so that no row
/// needs a barrier or workgroup memory. Up to 8 rows (256 threads) to a
/// workgroup, fewer where that leaves under two workgroups per
/// multiprocessor of the target. On BERT-base's attention scores (rows of
/// 128) the kernel was one 128-thread workgroup per row, 7 barriers per
/// reduction.
int64_t RowKernel::warpRows(const SubgroupReduction &subgroups) const {
  int64_t lanes = subgroups.size;
  if (!subgroups.enabled || lanes == 0 || shape.rowSize % lanes != 0 ||
      shape.rowSize / lanes > kMaxPerThread)
    return 0;
  for (Operation *op : ops)
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
        linalgOp && !isa<linalg::FillOp>(op) &&
        linalgOp.getNumReductionLoops() > 0 &&
        !subgroupKindOf(combinerOf(linalgOp)))
      return 0;
  for (int64_t rows : {8, 4, 2})
    if (shape.numRows % rows == 0 && shape.numRows / rows >= 2 * subgroups.multiprocessors)
      return rows;
  return 1;
}

void RowKernel::build(const SubgroupReduction &subgroups) {
  Operation *last = ops.back();
  ImplicitLocOpBuilder b(last->getLoc(), last);
  MLIRContext *ctx = b.getContext();
  auto c = [&](int64_t v) { return arith::ConstantIndexOp::create(b, v); };
  auto workgroup =
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  // A row per subgroup needs no workgroup memory; else each reduction has
  // a buffer of the threads' partial results.
  int64_t rowsPerBlock = warpRows(subgroups);
  SmallVector<Type> scratchTypes;
  if (rowsPerBlock)
    threads = subgroups.size;
  else
    for (Operation *op : ops)
      if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
          linalgOp && linalgOp.getNumReductionLoops() > 0)
        scratchTypes.push_back(MemRefType::get(
            {threads},
            getElementTypeOrSelf(linalgOp.getDpsInits()[0].getType()),
            MemRefLayoutAttrInterface{}, workgroup));
  auto launch = gpu::LaunchOp::create(
      b, c(shape.numRows / std::max<int64_t>(rowsPerBlock, 1)), c(1), c(1),
      c(threads), c(std::max<int64_t>(rowsPerBlock, 1)), c(1),
      /*dynamicSharedMemorySize=*/{}, /*asyncTokenType=*/{},
      /*asyncDependencies=*/{}, scratchTypes);
  b.setInsertionPointToStart(&launch.getBody().front());
  thread = launch.getThreadIds().x;
  row = launch.getBlockIds().x;
  if (rowsPerBlock)
    row =
        arith::AddIOp::create(b, arith::MulIOp::create(b, row, c(rowsPerBlock)),
                              launch.getThreadIds().y);
  for (int64_t e = 0; e < shape.rowSize / threads; ++e)
    elements.push_back(arith::AddIOp::create(b, thread, c(e * threads)));
  unsigned nextScratch = 0;
  for (Operation *op : ops) {
    if (isa<linalg::FillOp>(op))
      continue;
    auto linalgOp = cast<linalg::LinalgOp>(op);
    if (linalgOp.getNumReductionLoops() == 0) {
      emitElementwise(b, linalgOp);
      continue;
    }
    // The partial results meet in the reduction's workgroup buffer, after
    // a subgroup reduction where `subgroups` allows one.
    Value scratch =
        rowsPerBlock ? Value()
                     : Value(launch.getWorkgroupAttributions()[nextScratch++]);
    std::optional<gpu::AllReduceOperation> kind =
        subgroupKindOf(combinerOf(linalgOp));
    emitReduction(b, linalgOp,
                  [&](ImplicitLocOpBuilder &b, Value partial,
                      function_ref<Value(Value, Value)> combine) {
                    if (subgroups.enabled && kind)
                      return combineInSubgroups(b, partial, *kind, scratch,
                                                subgroups.size, combine);
                    return combineInTree(b, partial, scratch, combine);
                  });
  }
  gpu::TerminatorOp::create(b);
  for (Operation *op : llvm::reverse(ops))
    op->erase();
}

void RowKernel::seed(Value base) {
  written.push_back({base, Access::Element});
  writtenBases.insert(base);
}

bool RowKernel::writesOutside() const {
  return llvm::any_of(writtenBases,
                      [&](Value base) { return usedOutside(base); });
}

void RowKernel::emitRow(ImplicitLocOpBuilder &b, Value thread, Value row,
                        ArrayRef<Value> elements, Value seededBase,
                        ArrayRef<Value> seeded, Combine combine) {
  this->thread = thread;
  this->row = row;
  this->elements.assign(elements.begin(), elements.end());
  elementValues.clear();
  rowValues.clear();
  elementValues[seededBase].assign(seeded.begin(), seeded.end());
  for (Operation *op : ops) {
    if (isa<linalg::FillOp>(op))
      continue;
    auto linalgOp = cast<linalg::LinalgOp>(op);
    if (linalgOp.getNumReductionLoops() > 0)
      emitReduction(b, linalgOp, combine);
    else
      emitElementwise(b, linalgOp);
  }
}

namespace {

struct RowKernelsPass
    : PassWrapper<RowKernelsPass, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(RowKernelsPass)

  RowKernelsPass() = default;
  RowKernelsPass(const RowKernelsPass &other) : PassWrapper(other) {}
  RowKernelsPass(bool reduce, unsigned size) {
    subgroupReduce = reduce;
    subgroupSize = size;
  }

  StringRef getArgument() const override { return "onnx-tosa-row-kernels"; }
  StringRef getDescription() const override {
    return "Row reductions and the ops around them on the same rows become "
           "one kernel with a workgroup per row";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, gpu::GPUDialect,
                    memref::MemRefDialect, scf::SCFDialect>();
  }

  Option<bool> subgroupReduce{
      *this, "subgroup-reduce",
      llvm::cl::desc("combine the threads' partial results in subgroups "
                     "first, then the subgroups' in workgroup memory"),
      llvm::cl::init(false)};
  Option<unsigned> subgroupSize{
      *this, "subgroup-size",
      llvm::cl::desc("lanes per subgroup where the target fixes it (32 on "
                     "CUDA); 0: the device's, read at run time"),
      llvm::cl::init(0)};

  void runOnOperation() override {
    Block &block = getOperation().getBody().front();
    SmallVector<Operation *> order;
    for (Operation &op : block)
      order.push_back(&op);
    DenseSet<Operation *> taken;
    // Ops in `taken` may have been erased: they are looked at no further.
    for (size_t i = 0; i < order.size(); ++i) {
      if (taken.contains(order[i]))
        continue;
      auto seed = dyn_cast<linalg::LinalgOp>(order[i]);
      if (!seed || !seed.hasPureBufferSemantics())
        continue;
      auto reduction = rowReductionShape(seed);
      if (!reduction)
        continue;
      RowShape shape = reduction->first;
      // The first op of the run of row-compatible ops around the seed.
      size_t first = i;
      for (size_t j = i; j-- > 0;) {
        Operation *op = order[j];
        if (taken.contains(op))
          break;
        if (isNeutral(op))
          continue;
        auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
        if (!linalgOp ||
            (!isa<linalg::FillOp>(op) && !opRows(linalgOp, shape)))
          break;
        first = j;
      }
      // Grow the kernel from there, op by op, as long as each fits; if
      // one before the seed does not, start again after it.
      std::optional<RowKernel> kernel;
      size_t start = first;
      while (true) {
        kernel.emplace(shape);
        size_t j = start;
        for (; j < order.size(); ++j) {
          Operation *op = order[j];
          if (taken.contains(op))
            break;
          if (isNeutral(op) && !isa<linalg::LinalgOp>(op))
            continue;
          if (!kernel->accepts(op))
            break;
          kernel->add(op);
        }
        if (j > i || start >= i)
          break;
        start = j + 1;
      }
      if (!kernel->hasReduction() ||
          !llvm::is_contained(kernel->members(), seed.getOperation()))
        continue;
      kernel->dropUnusedFills();
      for (Operation *op : kernel->members())
        taken.insert(op);
      kernel->build({subgroupReduce, subgroupSize,
                     targetOf(getOperation()).multiprocessors});
    }
  }
};

} // namespace

bool isRowReduction(Operation *operation) {
  auto op = dyn_cast<linalg::LinalgOp>(operation);
  if (!op)
    return false;
  if (!rowReductionShape(op))
    return false;
  auto fill = op.getDpsInits()[0].getDefiningOp<linalg::FillOp>();
  return fill && fillValue(fill) &&
         partialsMayStartAt(combinerOf(op), fillValue(fill));
}

std::unique_ptr<Pass> createRowKernelsPass(bool subgroupReduce,
                                           unsigned subgroupSize) {
  return std::make_unique<RowKernelsPass>(subgroupReduce, subgroupSize);
}

} // namespace onnx_tosa
