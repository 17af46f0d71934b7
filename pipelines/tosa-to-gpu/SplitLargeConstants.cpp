//===- SplitLargeConstants.cpp - Weights within a kernel's buffer limit ---===//
//
// `onnx-tosa-split-large-constants` (TOSA) splits a MATMUL whose right-hand
// side is a constant larger than one kernel may bind (the target's
// maxBufferBytes: Vulkan guarantees storage buffer ranges of 128 MiB, and
// lavapipe has no more) into MATMULs of column blocks of it, whose results
// a CONCAT puts side by side:
//
//   matmul(a, W[B, K, N])  ->  concat(matmul(a, W[:, :, 0:n1]),
//                                     matmul(a, W[:, :, n1:n2]), ..., axis 2)
//
// Each block is a constant of its own, under the limit. Fully connected
// layers of classic CNNs are the case (AlexNet's 9216 x 4096 f32 weights
// are 144 MiB, VGG-19's 25088 x 4096 392 MiB: the onnx package's "real"
// AlexNet, ZFNet-512 and VGG-19 cases could not be loaded on lavapipe).
// Convolution filters and activations that large are left alone (the
// runtime refuses them by name).
//
//===----------------------------------------------------------------------===//
#include "TosaToGpu.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;

namespace onnx_tosa {
namespace {

/// Columns per block: as few blocks as keep each under `maxBytes`, their
/// width a multiple of 64 columns where N allows (whole GEMM tiles).
int64_t blockColumns(int64_t n, int64_t bytesPerColumn, int64_t maxBytes) {
  int64_t widest = maxBytes / bytesPerColumn;
  if (widest < 1)
    return 0;
  int64_t blocks = (n + widest - 1) / widest;
  int64_t cols = (n + blocks - 1) / blocks;
  if (int64_t rounded = (cols + 63) / 64 * 64; rounded <= widest)
    cols = rounded;
  return cols;
}

/// Columns [begin, end) of every row of a [B, K, N] constant.
DenseElementsAttr columnBlock(DenseElementsAttr w, int64_t begin,
                              int64_t end) {
  auto type = cast<RankedTensorType>(w.getType());
  auto blockType = RankedTensorType::get(
      {type.getDimSize(0), type.getDimSize(1), end - begin},
      type.getElementType());
  if (w.isSplat())
    return w.resizeSplat(blockType);
  int64_t bytes = type.getElementTypeBitWidth() / 8;
  int64_t n = type.getDimSize(2);
  int64_t rows = type.getDimSize(0) * type.getDimSize(1);
  ArrayRef<char> raw = w.getRawData();
  std::vector<char> out;
  out.reserve(rows * (end - begin) * bytes);
  for (int64_t r = 0; r < rows; ++r)
    out.insert(out.end(), raw.begin() + (r * n + begin) * bytes,
               raw.begin() + (r * n + end) * bytes);
  return DenseElementsAttr::getFromRawBuffer(blockType, out);
}

struct SplitLargeConstantsPass
    : PassWrapper<SplitLargeConstantsPass, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(SplitLargeConstantsPass)
  SplitLargeConstantsPass() = default;
  SplitLargeConstantsPass(const SplitLargeConstantsPass &other)
      : PassWrapper(other) {}
  StringRef getArgument() const override {
    return "onnx-tosa-split-large-constants";
  }
  StringRef getDescription() const override {
    return "Splits MATMULs whose constant right-hand side is larger than a "
           "kernel may bind (the target's max buffer bytes) into column "
           "blocks";
  }
  Option<int64_t> maxBytes{
      *this, "max-bytes",
      llvm::cl::desc("Bytes a kernel may bind in one buffer (0: the "
                     "target's; -1: no limit)"),
      llvm::cl::init(0)};

  void runOnOperation() override {
    int64_t limit = maxBytes != 0 ? int64_t(maxBytes)
                                  : targetOf(getOperation()).maxBufferBytes;
    if (limit <= 0)
      return;
    SmallVector<tosa::MatMulOp> matmuls;
    getOperation().walk([&](tosa::MatMulOp op) { matmuls.push_back(op); });
    for (tosa::MatMulOp op : matmuls)
      split(op, limit);
  }

  void split(tosa::MatMulOp op, int64_t limit) {
    auto cst = op.getB().getDefiningOp<tosa::ConstOp>();
    auto w = cst ? dyn_cast<DenseElementsAttr>(cst.getValues())
                 : DenseElementsAttr();
    auto outType = dyn_cast<RankedTensorType>(op.getType());
    if (!w || !outType || !outType.hasStaticShape())
      return;
    auto type = cast<RankedTensorType>(w.getType());
    int64_t bits = type.getElementTypeBitWidth();
    if (bits % 8 != 0 || type.getRank() != 3 || !type.hasStaticShape())
      return;
    int64_t bytesPerColumn = type.getDimSize(0) * type.getDimSize(1) *
                             (bits / 8);
    int64_t n = type.getDimSize(2);
    if (bytesPerColumn * n <= limit)
      return;
    int64_t cols = blockColumns(n, bytesPerColumn, limit);
    if (cols == 0)
      return; // (one column alone is over the limit)
    OpBuilder b(op);
    SmallVector<Value> parts;
    for (int64_t begin = 0; begin < n; begin += cols) {
      int64_t end = std::min(n, begin + cols);
      DenseElementsAttr block = columnBlock(w, begin, end);
      Value weight =
          b.create<tosa::ConstOp>(cst.getLoc(), block.getType(), block);
      auto partType = RankedTensorType::get(
          {outType.getDimSize(0), outType.getDimSize(1), end - begin},
          outType.getElementType());
      parts.push_back(b.create<tosa::MatMulOp>(op.getLoc(), partType,
                                               op.getA(), weight,
                                               op.getAZp(), op.getBZp()));
    }
    Value joined =
        b.create<tosa::ConcatOp>(op.getLoc(), outType, parts, uint32_t(2));
    op.replaceAllUsesWith(joined);
    op.erase();
    if (cst->use_empty())
      cst.erase();
  }
};

} // namespace

std::unique_ptr<Pass> createSplitLargeConstantsPass() {
  return std::make_unique<SplitLargeConstantsPass>();
}

} // namespace onnx_tosa
