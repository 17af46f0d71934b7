//===- RowKernel.h - A run of ops over the same rows, as one kernel -------===//
//
// The row kernel of onnx-tosa-row-kernels (RowKernels.cpp says what joins
// one and how it is computed), for the passes that compute such a run
// inside a kernel of their own: the attention kernel of
// onnx-tosa-tensor-core-kernels takes the softmax between its two GEMMs,
// the rows of its scores held by the threads that accumulated them.
//
//===----------------------------------------------------------------------===//
#ifndef ONNX_TOSA_PIPELINES_ROWKERNEL_H
#define ONNX_TOSA_PIPELINES_ROWKERNEL_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

namespace onnx_tosa {

/// The rows a kernel works on: how many, and how many elements each.
struct RowShape {
  int64_t numRows = 1, rowSize = 1;
  bool operator==(const RowShape &o) const {
    return numRows == o.numRows && rowSize == o.rowSize;
  }
};

/// How an op of a row kernel iterates: its loops are [rows..., row...],
/// `rowLoops` of them over the row (none: the op computes once per row).
struct OpRows {
  llvm::SmallVector<int64_t> ranges;
  unsigned rowLoops = 0;
  unsigned rowsLoops() const { return ranges.size() - rowLoops; }
};

/// Where in its buffer an op's operand is accessed, seen from the kernel:
/// at element j of row r (offset r * rowSize + j of the dense buffer it is
/// a reshape of), at row r (offset r), or otherwise.
enum class Access { Element, Row, Other };

struct RowPlace {
  mlir::Value base;
  Access access;
  bool operator==(const RowPlace &o) const {
    return base == o.base && access == o.access;
  }
};

/// How a row kernel combines its threads' partial results: with
/// `enabled`, in subgroups first (gpu.subgroup_reduce), then the subgroups'
/// results in workgroup memory; `size` lanes per subgroup where the target
/// fixes it (32 on CUDA), 0 where the device decides (Vulkan).
struct SubgroupReduction {
  bool enabled = false;
  int64_t size = 0;
  /// The target's multiprocessors, which rows of one subgroup each are
  /// spread over (TargetInfo::multiprocessors).
  int64_t multiprocessors = 0;
};

/// Ops that may sit between a row kernel's ops: allocations, views and
/// constants (anything without memory effects).
bool isNeutral(mlir::Operation *op);

class RowKernel {
public:
  explicit RowKernel(const RowShape &shape);

  /// Whether `op` can join the kernel after the ops already in it.
  bool accepts(mlir::Operation *op);
  void add(mlir::Operation *op);
  bool hasReduction() const { return reductions > 0; }
  void dropUnusedFills();
  llvm::ArrayRef<mlir::Operation *> members() const { return ops; }
  /// The kernel of its own, a workgroup (or a subgroup) per row.
  void build(const SubgroupReduction &subgroups);

  // Computing the ops inside another kernel.
  /// The elements of `base` (read by the kernel's ops at the element they
  /// compute) come from the enclosing kernel, not from memory.
  void seed(mlir::Value base);
  /// `op`, not in the kernel, reads what the kernel computes from the
  /// enclosing kernel, not from memory.
  void addConsumer(mlir::Operation *op) { consumers.insert(op); }
  /// Whether an op outside the kernel and its consumers reads a buffer the
  /// kernel writes.
  bool writesOutside() const;
  /// How the threads that share a row combine a reduction's partial
  /// results with `combine`; every thread gets the row's result.
  using Combine = llvm::function_ref<mlir::Value(
      mlir::ImplicitLocOpBuilder &b, mlir::Value partial,
      llvm::function_ref<mlir::Value(mlir::Value, mlir::Value)> combine)>;
  /// The ops for row `row`, of whose elements this thread has those at
  /// `elements`, the seeded buffer's values there being `seeded`.
  void emitRow(mlir::ImplicitLocOpBuilder &b, mlir::Value thread,
               mlir::Value row, llvm::ArrayRef<mlir::Value> elements,
               mlir::Value seededBase, llvm::ArrayRef<mlir::Value> seeded,
               Combine combine);
  /// After emitRow: the thread's elements of buffer `base`.
  llvm::ArrayRef<mlir::Value> elementValuesOf(mlir::Value base) const {
    auto it = elementValues.find(base);
    if (it == elementValues.end())
      return {};
    return it->second;
  }
  /// Whether the kernel computes the elements of buffer `base`.
  bool computes(mlir::Value base) const {
    return isWritten({base, Access::Element});
  }

private:
  int64_t warpRows(const SubgroupReduction &subgroups) const;
  RowShape shape;
  int64_t threads;
  llvm::SmallVector<mlir::Operation *> ops;
  llvm::DenseSet<mlir::Operation *> consumers;
  llvm::DenseMap<mlir::Operation *, OpRows> rowsOf;
  int reductions = 0;
  // What the kernel computes, by where it is in memory; the buffers it
  // writes, and those it reads from memory.
  llvm::SmallVector<RowPlace> written;
  llvm::DenseSet<mlir::Value> writtenBases, readBases;
  // The fills of reduction accumulators: buffer base -> value.
  llvm::DenseMap<mlir::Value, mlir::Attribute> fills;

  // Inside the launch.
  mlir::Value thread, row;
  // The thread's elements' positions in a row.
  llvm::SmallVector<mlir::Value> elements;
  // Per location: one value per element of the thread, or one per row.
  llvm::DenseMap<mlir::Value, llvm::SmallVector<mlir::Value>> elementValues;
  llvm::DenseMap<mlir::Value, mlir::Value> rowValues;

  bool isWritten(const RowPlace &l) const {
    return llvm::is_contained(written, l);
  }
  bool readable(mlir::linalg::LinalgOp op, mlir::OpOperand &operand,
                const OpRows &rows);
  bool usedOutside(mlir::Value base) const;
  llvm::SmallVector<mlir::Value> loopIndices(mlir::ImplicitLocOpBuilder &b,
                                             const OpRows &rows,
                                             mlir::Value element);
  mlir::Value read(mlir::ImplicitLocOpBuilder &b, mlir::linalg::LinalgOp op,
                   mlir::OpOperand &operand, llvm::ArrayRef<mlir::Value> idx,
                   size_t e);
  void write(mlir::ImplicitLocOpBuilder &b, mlir::linalg::LinalgOp op,
             mlir::OpOperand &out, llvm::ArrayRef<mlir::Value> idx, size_t e,
             mlir::Value value);
  void emitElementwise(mlir::ImplicitLocOpBuilder &b,
                       mlir::linalg::LinalgOp op);
  void emitReduction(mlir::ImplicitLocOpBuilder &b, mlir::linalg::LinalgOp op,
                     Combine combine);
  mlir::Value combineInSubgroups(
      mlir::ImplicitLocOpBuilder &b, mlir::Value partial,
      mlir::gpu::AllReduceOperation kind, mlir::Value scratch,
      int64_t subgroupSize,
      llvm::function_ref<mlir::Value(mlir::Value, mlir::Value)> combine);
  mlir::Value combineInTree(
      mlir::ImplicitLocOpBuilder &b, mlir::Value partial, mlir::Value scratch,
      llvm::function_ref<mlir::Value(mlir::Value, mlir::Value)> combine);
};

} // namespace onnx_tosa

#endif
