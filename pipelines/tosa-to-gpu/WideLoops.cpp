//===- WideLoops.cpp - Kernels within the device's buffer bindings --------===//
//
// A kernel reaches each buffer it touches through one binding, and a Vulkan
// device has a limit on them (maxPerStageDescriptorStorageBuffers: 32 on
// lavapipe and on many mobile GPUs). `scf-parallel-loop-fusion` merges
// sibling loops of one shape into one, which is how a Concat of 40 inputs
// became one kernel of 41 buffers that the device refused to load.
//
// `onnx-tosa-split-wide-loops{max-buffers=N}` splits such a loop back into
// loops of the same iteration space that each touch at most N buffers. The
// body is cut into consecutive pieces between which no value flows except
// through pure ops (index arithmetic, constants), which every piece that
// needs them computes again; the pieces keep their order, so each iteration
// does what it did, in the same order per buffer (the loop's iterations
// were independent, so running all iterations of one piece before the next
// changes nothing). A piece that alone touches more than N buffers stays as
// it is (the runtime then names the kernel and the limit).
//
//===----------------------------------------------------------------------===//
#include "TosaToGpu.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Pass/Pass.h"

#include "llvm/ADT/SetVector.h"

using namespace mlir;

namespace onnx_tosa {
namespace {

/// Ops a piece may compute again: no memory effects, no regions.
bool recomputable(Operation *op) {
  return op->getNumRegions() == 0 && isPure(op);
}

/// The buffers (memrefs defined outside `loop`) that `op` and the ops nested
/// in it touch.
void buffersOf(Operation *op, scf::ParallelOp loop,
               llvm::SetVector<Value> &out) {
  op->walk([&](Operation *nested) {
    for (Value v : nested->getOperands())
      if (isa<MemRefType>(v.getType()) &&
          !loop->isAncestor(v.getParentBlock()->getParentOp()))
        out.insert(v);
  });
}

struct SplitWideLoopsPass
    : PassWrapper<SplitWideLoopsPass, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(SplitWideLoopsPass)
  SplitWideLoopsPass() = default;
  SplitWideLoopsPass(const SplitWideLoopsPass &other) : PassWrapper(other) {}
  explicit SplitWideLoopsPass(unsigned maxBuffers) {
    this->maxBuffers = maxBuffers;
  }
  Option<unsigned> maxBuffers{
      *this, "max-buffers",
      llvm::cl::desc("Buffers a loop (a kernel) may touch; 0: any number"),
      llvm::cl::init(0)};
  StringRef getArgument() const override {
    return "onnx-tosa-split-wide-loops";
  }
  StringRef getDescription() const override {
    return "Split parallel loops that touch more buffers than a kernel may "
           "bind into loops of the same iteration space";
  }
  void runOnOperation() override {
    if (maxBuffers == 0)
      return;
    SmallVector<scf::ParallelOp> loops;
    for (Operation &op : getOperation().getBody().getOps())
      if (auto loop = dyn_cast<scf::ParallelOp>(op))
        loops.push_back(loop);
    for (scf::ParallelOp loop : loops)
      split(loop);
  }

  void split(scf::ParallelOp loop) {
    if (loop.getNumResults() != 0)
      return; // a reduction: its combiner ties the body together
    llvm::SetVector<Value> all;
    buffersOf(loop, loop, all);
    if (all.size() <= maxBuffers)
      return;
    Block *body = loop.getBody();
    SmallVector<Operation *> ops;
    for (Operation &op : body->without_terminator())
      ops.push_back(&op);

    // Position of the last op (not recomputable) that needs a value of op
    // i, following values through recomputable ops.
    DenseMap<Operation *, unsigned> position;
    for (auto [i, op] : llvm::enumerate(ops))
      position[op] = i;
    SmallVector<unsigned> lastUse(ops.size(), 0);
    for (int i = ops.size() - 1; i >= 0; --i) {
      unsigned last = i;
      for (Operation *user : ops[i]->getUsers()) {
        while (user->getBlock() != body)
          user = user->getParentOp();
        auto it = position.find(user);
        if (it == position.end())
          continue;
        last = std::max(last, recomputable(user) ? lastUse[it->second]
                                                 : it->second);
      }
      lastUse[i] = last;
    }
    // Pieces: a cut after op i is allowed when no op up to i that is not
    // recomputable is needed after it. Each piece is filled while its
    // buffers stay within the limit.
    SmallVector<std::pair<unsigned, unsigned>> pieces; // [begin, end)
    llvm::SetVector<Value> current;
    unsigned begin = 0, reach = 0;
    unsigned unitBegin = 0;
    llvm::SetVector<Value> unit;
    for (unsigned i = 0; i < ops.size(); ++i) {
      if (!recomputable(ops[i])) {
        buffersOf(ops[i], loop, unit);
        reach = std::max(reach, lastUse[i]);
      }
      if (reach > i)
        continue;
      // ops[unitBegin..i] is a unit that can stand alone.
      llvm::SetVector<Value> merged = current;
      merged.insert(unit.begin(), unit.end());
      if (merged.size() > maxBuffers && !current.empty()) {
        pieces.push_back({begin, unitBegin});
        begin = unitBegin;
        current = unit;
      } else {
        current = merged;
      }
      unit.clear();
      unitBegin = i + 1;
    }
    if (pieces.empty())
      return; // one unit: nothing to cut
    pieces.push_back({begin, static_cast<unsigned>(ops.size())});

    OpBuilder b(loop);
    for (auto [first, end] : pieces) {
      // The recomputable ops before the piece that it needs, then the piece.
      llvm::SetVector<Operation *> needed;
      SmallVector<Operation *> worklist(ops.begin() + first, ops.begin() + end);
      while (!worklist.empty()) {
        Operation *op = worklist.pop_back_val();
        op->walk([&](Operation *nested) {
          for (Value v : nested->getOperands()) {
            Operation *def = v.getDefiningOp();
            if (!def || def->getBlock() != body)
              continue;
            unsigned p = position.lookup(def);
            if (p < first && recomputable(def) && needed.insert(def))
              worklist.push_back(def);
          }
        });
      }
      auto piece = scf::ParallelOp::create(
          b, loop.getLoc(), loop.getLowerBound(), loop.getUpperBound(),
          loop.getStep());
      IRMapping map;
      map.map(loop.getInductionVars(), piece.getInductionVars());
      OpBuilder inner = OpBuilder::atBlockBegin(piece.getBody());
      for (Operation *op : ops) {
        unsigned p = position.lookup(op);
        if ((p >= first && p < end) || needed.contains(op))
          inner.clone(*op, map);
      }
    }
    loop.erase();
  }
};

} // namespace

std::unique_ptr<Pass> createSplitWideLoopsPass(unsigned maxBuffers) {
  return std::make_unique<SplitWideLoopsPass>(maxBuffers);
}

} // namespace onnx_tosa
