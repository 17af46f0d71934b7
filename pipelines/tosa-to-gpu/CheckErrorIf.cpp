//===- CheckErrorIf.cpp - The specification's ERROR_IFs on a TOSA input ---===//
//
// `onnx-tosa-check-error-if` refuses a TOSA graph that the specification
// says is an error, for the ERROR_IF conditions that neither LLVM 22's op
// verifiers nor its tosa-validate check: a graph from elsewhere (a .mlir
// input) must be refused, not compiled into something. The official
// conformance suite's negative tests (test/tosa/cts.py --test-type=negative)
// found each of them. The conditions are the TOSA 1.0 specification's, in its
// words where it has them.
//
//===----------------------------------------------------------------------===//
#include "TosaToGpu.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

namespace onnx_tosa {
namespace {

/// The values of a shape operand that a tosa.const_shape defines.
std::optional<SmallVector<int64_t>> constShape(Value v) {
  SmallVector<int64_t> values;
  if (Operation *def = v.getDefiningOp();
      def && tosa::getConstShapeValues(def, values))
    return values;
  return std::nullopt;
}

/// RESIZE: the batch and channels are the input's
/// (ERROR_IF(OH <= 0 || OW <= 0), ERROR_IF(N != N'), ERROR_IF(C != C')).
LogicalResult checkResize(tosa::ResizeOp op) {
  auto in = dyn_cast<RankedTensorType>(op.getInput().getType());
  auto out = dyn_cast<RankedTensorType>(op.getType());
  if (!in || !out || in.getRank() != 4 || out.getRank() != 4)
    return success();
  for (auto [dim, what] : {std::pair{0, "batch"}, std::pair{3, "channel"}})
    if (!in.isDynamicDim(dim) && !out.isDynamicDim(dim) &&
        in.getDimSize(dim) != out.getDimSize(dim))
      return op.emitOpError("ERROR_IF: the output's ")
             << what << " size " << out.getDimSize(dim)
             << " is not the input's " << in.getDimSize(dim);
  for (int dim : {1, 2})
    if (!out.isDynamicDim(dim) && out.getDimSize(dim) <= 0)
      return op.emitOpError("ERROR_IF: output dimension ")
             << dim << " is " << out.getDimSize(dim)
             << "; it must be at least 1";
  return success();
}

/// SLICE: ERROR_IF(start[i] < 0), ERROR_IF(size[i] <= 0),
/// ERROR_IF(start[i] + size[i] > shape1[i]) and the output's shape is size.
LogicalResult checkSlice(tosa::SliceOp op) {
  auto in = dyn_cast<RankedTensorType>(op.getInput1().getType());
  auto out = dyn_cast<RankedTensorType>(op.getType());
  std::optional<SmallVector<int64_t>> start = constShape(op.getStart());
  std::optional<SmallVector<int64_t>> size = constShape(op.getSize());
  if (!in || !out || !start || !size ||
      start->size() != static_cast<size_t>(in.getRank()) ||
      size->size() != start->size())
    return success(); // (the op's verifier checks the ranks)
  for (int64_t i = 0; i < in.getRank(); ++i) {
    int64_t b = (*start)[i], n = (*size)[i];
    if (b < 0)
      return op.emitOpError("ERROR_IF: start[")
             << i << "] is " << b << "; it must not be negative";
    if (n <= 0)
      return op.emitOpError("ERROR_IF: size[")
             << i << "] is " << n << "; it must be at least 1";
    if (!in.isDynamicDim(i) && b + n > in.getDimSize(i))
      return op.emitOpError("ERROR_IF: start[")
             << i << "] + size[" << i << "] = " << b + n
             << " is past the input's dimension " << in.getDimSize(i);
    if (!out.isDynamicDim(i) && out.getDimSize(i) != n)
      return op.emitOpError("ERROR_IF: output dimension ")
             << i << " is " << out.getDimSize(i) << " but size[" << i
             << "] is " << n;
  }
  return success();
}

/// Elementwise ops with broadcasting: the output's shape is the broadcast of
/// the inputs' (ERROR_IF(shape != broadcast_shape(shape1, shape2))). MUL's
/// shift is not broadcast.
LogicalResult checkBroadcast(Operation *op) {
  auto out = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!out)
    return success();
  SmallVector<Value> inputs;
  if (auto mul = dyn_cast<tosa::MulOp>(op))
    inputs = {mul.getInput1(), mul.getInput2()};
  else
    inputs.assign(op->operand_begin(), op->operand_end());
  SmallVector<int64_t> shape(out.getRank(), 1);
  for (Value v : inputs) {
    auto in = dyn_cast<RankedTensorType>(v.getType());
    if (!in || in.getRank() != out.getRank() || !in.hasStaticShape())
      return success(); // (the verifiers check the ranks)
    for (int64_t i = 0; i < out.getRank(); ++i)
      if (in.getDimSize(i) != 1)
        shape[i] = in.getDimSize(i);
  }
  for (int64_t i = 0; i < out.getRank(); ++i)
    if (!out.isDynamicDim(i) && out.getDimSize(i) != shape[i])
      return op->emitOpError("ERROR_IF: output dimension ")
             << i << " is " << out.getDimSize(i)
             << " but the inputs broadcast to " << shape[i];
  return success();
}

/// TILE: ERROR_IF(shape1[i] * multiples[i] != shape[i]).
LogicalResult checkTile(tosa::TileOp op) {
  auto in = dyn_cast<RankedTensorType>(op.getInput1().getType());
  auto out = dyn_cast<RankedTensorType>(op.getType());
  std::optional<SmallVector<int64_t>> multiples =
      constShape(op.getMultiples());
  if (!in || !out || !multiples || in.getRank() != out.getRank() ||
      multiples->size() != static_cast<size_t>(in.getRank()))
    return success();
  for (int64_t i = 0; i < in.getRank(); ++i)
    if (!in.isDynamicDim(i) && !out.isDynamicDim(i) &&
        in.getDimSize(i) * (*multiples)[i] != out.getDimSize(i))
      return op.emitOpError("ERROR_IF: output dimension ")
             << i << " is " << out.getDimSize(i) << ", not "
             << in.getDimSize(i) << " * multiples[" << i
             << "] = " << in.getDimSize(i) * (*multiples)[i];
  return success();
}

//===----------------------------------------------------------------------===//
// The 8K level (TOSA 1.0, "Levels"). LLVM 22's tosa-validate checks levels
// too, but counts the 2 x rank values of PAD's padding operand as a rank and
// so refuses every PAD of a rank-4 tensor (a newer LLVM, tosa-tools'
// tosa-opt, accepts them): the compiler runs it at level none and checks the
// level's ranges here.
//===----------------------------------------------------------------------===//

struct Level {
  int64_t maxRank, maxKernel, maxStride, maxScale, maxLog2Size,
      maxTensorListSize;
};
constexpr Level kLevel8k = {6, 8192, 8192, 256, 31, 64};
/// What a user whose graph is outside the level can do about it.
constexpr llvm::StringLiteral kLevelHint =
    " (a limit of the 8K level, not an error of the graph; "
    "onnx-tosa-compile --tosa-level=none lifts it)";

/// Every ranked tensor an op reads or writes: rank <= MAX_RANK and
/// size in bytes <= (1 << MAX_LOG2_SIZE) - 1.
LogicalResult checkTensors(Operation *op, const Level &level) {
  auto check = [&](Type type, const char *role,
                   unsigned index) -> LogicalResult {
    auto t = dyn_cast<RankedTensorType>(type);
    if (!t)
      return success();
    if (t.getRank() > level.maxRank)
      return op->emitOpError("level 8K: ")
             << role << " " << index << " has rank " << t.getRank()
             << "; MAX_RANK is " << level.maxRank << kLevelHint;
    if (!t.hasStaticShape())
      return success();
    uint64_t bits = t.getElementType().isIntOrFloat()
                        ? t.getElementType().getIntOrFloatBitWidth()
                        : 8;
    uint64_t bytes = (std::max<uint64_t>(bits, 8) + 7) / 8;
    uint64_t limit = (uint64_t(1) << level.maxLog2Size) - 1;
    for (int64_t d : t.getShape()) {
      if (d != 0 && bytes > limit / static_cast<uint64_t>(d))
        return op->emitOpError("level 8K: ")
               << role << " " << index << " (" << t
               << ") is larger than 2^" << level.maxLog2Size
               << " - 1 bytes" << kLevelHint;
      bytes *= static_cast<uint64_t>(d);
    }
    return success();
  };
  for (auto [i, v] : llvm::enumerate(op->getOperands()))
    if (failed(check(v.getType(), "operand", i)))
      return failure();
  for (auto [i, v] : llvm::enumerate(op->getResults()))
    if (failed(check(v.getType(), "result", i)))
      return failure();
  if (isa<tosa::ConcatOp>(op) &&
      op->getNumOperands() > static_cast<unsigned>(level.maxTensorListSize))
    return op->emitOpError("level 8K: ")
           << op->getNumOperands() << " inputs; MAX_TENSOR_LIST_SIZE is "
           << level.maxTensorListSize << kLevelHint;
  return success();
}

/// Each value of `values` (what `name` lists) is at most `limit`.
LogicalResult atMost(Operation *op, ArrayRef<int64_t> values, int64_t limit,
                     StringRef name, StringRef limitName) {
  for (auto [i, v] : llvm::enumerate(values))
    if (v > limit)
      return op->emitOpError("level 8K: ")
             << name << "[" << i << "] is " << v << "; " << limitName
             << " is " << limit << kLevelHint;
  return success();
}

/// The dimensions `dims` of `v`'s shape (static ones).
SmallVector<int64_t> dimsOf(Value v, ArrayRef<int64_t> dims) {
  SmallVector<int64_t> out;
  if (auto t = dyn_cast<RankedTensorType>(v.getType()))
    for (int64_t d : dims)
      if (d < t.getRank() && !t.isDynamicDim(d))
        out.push_back(t.getDimSize(d));
  return out;
}

/// Kernels, strides, pads and scales within the level.
LogicalResult checkLevelRanges(Operation *op, const Level &l) {
  auto kernelOf = [](Value weight, ArrayRef<int64_t> dims,
                     ArrayRef<int64_t> dilation) {
    SmallVector<int64_t> k = dimsOf(weight, dims);
    if (k.size() == dilation.size())
      for (auto [size, d] : llvm::zip(k, dilation))
        size *= d;
    return k;
  };
  auto common = [&](ArrayRef<int64_t> kernel, ArrayRef<int64_t> stride,
                    ArrayRef<int64_t> pad) {
    return success(
        succeeded(atMost(op, kernel, l.maxKernel, "kernel", "MAX_KERNEL")) &&
        succeeded(atMost(op, stride, l.maxStride, "stride", "MAX_STRIDE")) &&
        succeeded(atMost(op, pad, l.maxKernel, "pad", "MAX_KERNEL")));
  };
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case<tosa::AvgPool2dOp, tosa::MaxPool2dOp>([&](auto pool) {
        return common(pool.getKernel(), pool.getStride(), pool.getPad());
      })
      .Case<tosa::Conv2DOp>([&](tosa::Conv2DOp c) {
        return common(kernelOf(c.getWeight(), {1, 2}, c.getDilation()),
                      c.getStride(), c.getPad());
      })
      .Case<tosa::Conv3DOp>([&](tosa::Conv3DOp c) {
        return common(kernelOf(c.getWeight(), {1, 2, 3}, c.getDilation()),
                      c.getStride(), c.getPad());
      })
      .Case<tosa::DepthwiseConv2DOp>([&](tosa::DepthwiseConv2DOp c) {
        return common(kernelOf(c.getWeight(), {0, 1}, c.getDilation()),
                      c.getStride(), c.getPad());
      })
      .Case<tosa::TransposeConv2DOp>([&](tosa::TransposeConv2DOp c) {
        return common(dimsOf(c.getWeight(), {1, 2}), c.getStride(),
                      c.getOutPad());
      })
      .Case<tosa::FFT2dOp>([&](tosa::FFT2dOp f) {
        return atMost(op, dimsOf(f.getInputReal(), {1, 2}), l.maxKernel,
                      "H, W", "MAX_KERNEL");
      })
      .Case<tosa::RFFT2dOp>([&](tosa::RFFT2dOp f) {
        return atMost(op, dimsOf(f.getInputReal(), {1, 2}), l.maxKernel,
                      "H, W", "MAX_KERNEL");
      })
      .Case<tosa::ResizeOp>([&](tosa::ResizeOp r) -> LogicalResult {
        std::optional<SmallVector<int64_t>> scale = constShape(r.getScale());
        if (!scale || scale->size() != 4 || (*scale)[1] <= 0 ||
            (*scale)[3] <= 0)
          return success(); // (tosa-validate checks the scale)
        return atMost(op,
                      {(*scale)[0] / (*scale)[1], (*scale)[2] / (*scale)[3]},
                      l.maxScale, "scale_n / scale_d", "MAX_SCALE");
      })
      .Default([](Operation *) { return success(); });
}

struct CheckErrorIfPass
    : PassWrapper<CheckErrorIfPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(CheckErrorIfPass)
  CheckErrorIfPass() = default;
  CheckErrorIfPass(const CheckErrorIfPass &other) : PassWrapper(other) {}
  explicit CheckErrorIfPass(StringRef levelName) { level = levelName.str(); }
  StringRef getArgument() const override { return "onnx-tosa-check-error-if"; }
  StringRef getDescription() const override {
    return "Refuses TOSA graphs that meet an ERROR_IF condition of the "
           "specification that the TOSA dialect's verifiers and "
           "tosa-validate do not check, or are outside a level's ranges";
  }
  Option<std::string> level{*this, "level",
                            llvm::cl::desc("8k or none (default: 8k)"),
                            llvm::cl::init("8k")};

  void runOnOperation() override {
    if (level != "8k" && level != "none") {
      getOperation()->emitError("onnx-tosa-check-error-if: unknown level '")
          << level << "' (8k or none)";
      return signalPassFailure();
    }
    bool level8k = level == "8k";
    WalkResult walk = getOperation()->walk([&](Operation *op) {
      if (level8k && isa_and_nonnull<tosa::TosaDialect>(op->getDialect()) &&
          (failed(checkTensors(op, kLevel8k)) ||
           failed(checkLevelRanges(op, kLevel8k))))
        return WalkResult::interrupt();
      LogicalResult ok =
          llvm::TypeSwitch<Operation *, LogicalResult>(op)
              .Case<tosa::ResizeOp>(checkResize)
              .Case<tosa::SliceOp>(checkSlice)
              .Case<tosa::TileOp>(checkTile)
              .Case<tosa::MulOp>(checkBroadcast)
              .Default([](Operation *op) {
                return op->hasTrait<OpTrait::ResultsBroadcastableShape>() &&
                               op->getNumResults() == 1
                           ? checkBroadcast(op)
                           : success();
              });
      return failed(ok) ? WalkResult::interrupt() : WalkResult::advance();
    });
    if (walk.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace

std::unique_ptr<Pass> createCheckErrorIfPass(llvm::StringRef level) {
  return std::make_unique<CheckErrorIfPass>(level);
}

} // namespace onnx_tosa
