//===- LowerPrecision.cpp - f32 TOSA computation in f16 or bf16 -----------===//
//
// `onnx-tosa-lower-precision{precision=fp16|bf16}` (onnx-tosa-compile
// --precision) runs on legalized TOSA, before tosa-to-linalg, and moves each
// function's f32 computation to a 16-bit float type:
//  - the TOSA ops that the specification allows in fp16 (profile PRO-FP) and
//    in bf16 (extension EXT-BF16) compute in the 16-bit type. Convolutions
//    and AVG_POOL2D keep acc_type = f32: tosa-to-linalg accumulates in f32
//    and rounds each output once. MATMUL reads 16-bit operands and writes f32
//    (the specification's "fp16 with fp32 accumulate"; the only bf16 form),
//    which a CAST then rounds;
//  - REDUCE_SUM and REDUCE_PRODUCT stay f32 (their input is cast up): a sum
//    over a long row in fp16 loses the small terms (fp16 has 11 significant
//    bits), and overflows past 65504. So do a MUL, POW or EXP that only a
//    REDUCE_SUM reads (the squares of a variance or a norm, log-sum-exp),
//    and the elementwise arithmetic on the sums (mean, variance + epsilon,
//    rsqrt of a normalization; the reciprocal of a softmax denominator),
//    which is cheap: it runs on the reduced tensor. Variances under fp16's
//    smallest normal (6e-5) keep their digits;
//  - float computation that a float -> int CAST reads (quantization, index
//    arithmetic) stays f32, back to the nearest convolution, matmul, pool
//    or reduction: it must come out an exact integer;
//  - f32 constants become 16-bit (rounded to nearest even) where a 16-bit
//    op reads them; those only f32 ops read stay f32;
//  - every other op stays f32: FFT2D/RFFT2D (no fp16 form in TOSA 1.0), ops
//    with regions (COND_IF, WHILE_LOOP), non-TOSA glue;
//  - function arguments and results keep their types.
// Where an f32 value and a 16-bit one meet, a tosa.cast converts. Integer
// and boolean tensors are not touched.
//
//===----------------------------------------------------------------------===//
#include "RoundFloat.h"
#include "TosaToGpu.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"

using namespace mlir;

namespace onnx_tosa {
namespace {

/// What the pass does with one top-level op of a function.
enum class Mode {
  Lower,         // every f32 operand and result becomes 16-bit
  LowerOperands, // 16-bit operands, f32 results (MATMUL)
  Keep,          // stays f32
  Constant,      // a tosa.const: converted where a 16-bit op reads it
};

bool isF32Tensor(Type t) {
  auto shaped = dyn_cast<TensorType>(t);
  return shaped && shaped.getElementType().isF32();
}

/// `t` with its element type replaced when it is an f32 tensor.
Type withF32As(Type t, Type element) {
  return isF32Tensor(t) ? cast<TensorType>(t).clone(element) : t;
}

/// The ops whose fp16 and bf16 forms TOSA 1.0 has, with the same operand
/// and result type pattern as their fp32 form (the compliance tables of the
/// specification, PRO-FP and EXT-BF16).
bool hasLowPrecisionForm(Operation *op) {
  return isa<
      tosa::AbsOp, tosa::AddOp, tosa::ArgMaxOp, tosa::AvgPool2dOp, tosa::CeilOp,
      tosa::ClampOp, tosa::ConcatOp, tosa::Conv2DOp, tosa::Conv3DOp,
      tosa::CosOp, tosa::DepthwiseConv2DOp, tosa::EqualOp, tosa::ErfOp,
      tosa::ExpOp, tosa::FloorOp, tosa::GatherOp, tosa::GreaterOp,
      tosa::GreaterEqualOp, tosa::IdentityOp, tosa::LogOp, tosa::MaxPool2dOp,
      tosa::MaximumOp, tosa::MinimumOp, tosa::MulOp, tosa::NegateOp,
      tosa::PadOp, tosa::PowOp, tosa::ReciprocalOp, tosa::ReduceMaxOp,
      tosa::ReduceMinOp, tosa::ReshapeOp, tosa::ResizeOp, tosa::ReverseOp,
      tosa::RsqrtOp, tosa::ScatterOp, tosa::SelectOp, tosa::SigmoidOp,
      tosa::SinOp, tosa::SliceOp, tosa::SubOp, tosa::TanhOp, tosa::TileOp,
      tosa::TransposeOp, tosa::TransposeConv2DOp>(op);
}

/// Elementwise arithmetic (and reshapes: keepdims = 0) that stays f32 when
/// it only combines f32 results of reductions (and of such ops) with
/// constants.
bool isStatisticsArithmetic(Operation *op) {
  return isa<tosa::AddOp, tosa::SubOp, tosa::MulOp, tosa::MaximumOp,
             tosa::MinimumOp, tosa::RsqrtOp, tosa::ReciprocalOp, tosa::LogOp,
             tosa::ReshapeOp>(op);
}

/// Where the search for the float computation of an integer stops: the
/// ops that make the big tensors of a network.
bool endsIntegerSlice(Operation *op) {
  return isa<tosa::Conv2DOp, tosa::Conv3DOp, tosa::DepthwiseConv2DOp,
             tosa::TransposeConv2DOp, tosa::MatMulOp, tosa::AvgPool2dOp,
             tosa::MaxPool2dOp, tosa::ReduceSumOp, tosa::ReduceProductOp,
             tosa::ReduceMaxOp, tosa::ReduceMinOp>(op) ||
         op->getNumRegions();
}

/// The ops whose float results end up in an integer: those a float -> int
/// CAST reads, back to the function's arguments, constants and
/// endsIntegerSlice ops. They compute what becomes an exact integer (a
/// quantized value, an index; the legalization's exactly rounded division
/// and round half to even rely on f32's 24 bits and range), and fp16 is
/// exact for integers up to 2048 only.
DenseSet<Operation *> integerSlices(ArrayRef<Operation *> ops) {
  SmallVector<Value> work;
  for (Operation *op : ops)
    if (auto castOp = dyn_cast<tosa::CastOp>(op))
      if (isa<FloatType>(getElementTypeOrSelf(castOp.getInput().getType())) &&
          isa<IntegerType>(getElementTypeOrSelf(castOp.getType())))
        work.push_back(castOp.getInput());
  DenseSet<Operation *> slice;
  while (!work.empty()) {
    Operation *def = work.pop_back_val().getDefiningOp();
    if (!def || isa<tosa::ConstOp>(def) || endsIntegerSlice(def) ||
        !slice.insert(def).second)
      continue;
    llvm::append_range(work, def->getOperands());
  }
  return slice;
}

class LowerPrecisionPass
    : public PassWrapper<LowerPrecisionPass, OperationPass<func::FuncOp>> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(LowerPrecisionPass)

  LowerPrecisionPass() = default;
  LowerPrecisionPass(const LowerPrecisionPass &other) : PassWrapper(other) {}
  explicit LowerPrecisionPass(StringRef name) { precision = name.str(); }

  StringRef getArgument() const override { return "onnx-tosa-lower-precision"; }
  StringRef getDescription() const override {
    return "Compute f32 TOSA ops in fp16 or bf16 (f32 accumulation), "
           "keeping function arguments and results f32";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<tosa::TosaDialect>();
  }

  Option<std::string> precision{
      *this, "precision", llvm::cl::desc("the 16-bit float type: fp16 or bf16"),
      llvm::cl::init("fp16")};

  void runOnOperation() override;

private:
  Mode classify(Operation *op) const;
  Value convert(Value v, Type want);
  DenseElementsAttr roundedFast(DenseFPElementsAttr values);

  Type low;
  DenseMap<Operation *, Mode> modes;
  /// The results this pass changed from f32 to `low`.
  DenseSet<Value> lowered;
  /// Results that stay f32 as part of a reduction's statistics.
  DenseSet<Operation *> statistics;
  /// Ops that stay f32 because their results become integers.
  DenseSet<Operation *> integerSlice;
  /// Converted values, one per (value, type), shared by all their users.
  DenseMap<std::pair<Value, Type>, Value> conversions;
};

Mode LowerPrecisionPass::classify(Operation *op) const {
  if (isa<tosa::ConstOp>(op))
    return Mode::Constant;
  if (op->getNumRegions())
    return Mode::Keep;
  if (isa<tosa::ReduceSumOp, tosa::ReduceProductOp>(op))
    return Mode::Keep;
  if (integerSlice.contains(op))
    return Mode::Keep;
  // A square that only a sum reads (a variance, an L2 norm, RMSNorm's mean
  // square): squares past 256 overflow fp16, under 2.4e-4 lose digits as
  // subnormals; so does an exponential (log-sum-exp) past e^11.
  if (isa<tosa::MulOp, tosa::PowOp, tosa::ExpOp>(op) && op->hasOneUse() &&
      isa<tosa::ReduceSumOp>(*op->user_begin()) &&
      isF32Tensor(op->getResult(0).getType()))
    return Mode::Keep;
  if (isStatisticsArithmetic(op)) {
    bool fromStatistics = false, onlyStatistics = true;
    for (Value v : op->getOperands()) {
      if (!isF32Tensor(v.getType()) && !lowered.contains(v))
        continue;
      Operation *def = v.getDefiningOp();
      if (def && statistics.contains(def))
        fromStatistics = true;
      else if (!def || !isa<tosa::ConstOp>(def))
        onlyStatistics = false;
    }
    if (fromStatistics && onlyStatistics)
      return Mode::Keep;
  }
  if (isa<tosa::MatMulOp>(op))
    return Mode::LowerOperands;
  // CAST from i8/i16/i32 to f32 has fp16 and bf16 forms; one from the 16-bit
  // type itself disappears. Others read f32 (fp16 -> bf16 has no TOSA form;
  // a float -> int CAST reads its exact f32 source).
  if (auto castOp = dyn_cast<tosa::CastOp>(op)) {
    Value input = castOp.getInput();
    Type from = lowered.contains(input) ? Float32Type::get(op->getContext())
                                        : getElementTypeOrSelf(input.getType());
    return from.isInteger(8) || from.isInteger(16) || from.isInteger(32) ||
                   from == low
               ? Mode::Lower
               : Mode::Keep;
  }
  return hasLowPrecisionForm(op) ? Mode::Lower : Mode::Keep;
}

/// The f32 constant `values` rounded to `low` (f16 or bf16) bit by bit
/// (RoundFloat.h), or null where APFloat must do it: a splat (one value),
/// another element type, or a NaN among the values.
DenseElementsAttr LowerPrecisionPass::roundedFast(DenseFPElementsAttr values) {
  if (values.isSplat() || !values.getElementType().isF32() ||
      !(low.isF16() || low.isBF16()))
    return {};
  ArrayRef<char> raw = values.getRawData();
  std::vector<uint16_t> out(values.getNumElements());
  for (size_t i = 0; i < out.size(); ++i) {
    uint32_t bits;
    std::memcpy(&bits, raw.data() + i * sizeof bits, sizeof bits);
    std::optional<uint16_t> r =
        low.isF16() ? roundF32ToHalf(bits) : roundF32ToBf16(bits);
    if (!r)
      return {};
    out[i] = *r;
  }
  return DenseElementsAttr::getFromRawBuffer(
      values.getType().clone(low),
      ArrayRef<char>(reinterpret_cast<const char *>(out.data()),
                     out.size() * sizeof(uint16_t)));
}

/// `v` as type `want` (the same shape; f32 <-> `low`): a 16-bit copy of an
/// f32 constant, or a tosa.cast right after the definition of `v`.
Value LowerPrecisionPass::convert(Value v, Type want) {
  auto [it, inserted] = conversions.try_emplace({v, want}, Value());
  if (!inserted)
    return it->second;
  OpBuilder b(v.getContext());
  if (Operation *def = v.getDefiningOp())
    b.setInsertionPointAfter(def);
  else
    b.setInsertionPointToStart(cast<BlockArgument>(v).getOwner());
  Value result;
  auto constOp = v.getDefiningOp<tosa::ConstOp>();
  auto values =
      constOp ? dyn_cast<DenseFPElementsAttr>(constOp.getValues()) : nullptr;
  auto wantType = cast<ShapedType>(want);
  if (values && wantType.getElementType() == low) {
    DenseElementsAttr rounded = roundedFast(values);
    if (!rounded) {
      const llvm::fltSemantics &semantics =
          cast<FloatType>(low).getFloatSemantics();
      rounded = values.mapValues(low, [&](const APFloat &value) {
        APFloat r = value;
        bool losesInfo = false;
        r.convert(semantics, APFloat::rmNearestTiesToEven, &losesInfo);
        return r.bitcastToAPInt();
      });
    }
    result = tosa::ConstOp::create(b, constOp.getLoc(), wantType, rounded);
  } else {
    result = tosa::CastOp::create(b, v.getLoc(), want, v);
  }
  conversions[{v, want}] = result;
  return result;
}

void LowerPrecisionPass::runOnOperation() {
  MLIRContext *ctx = &getContext();
  if (precision == "fp16") {
    low = Float16Type::get(ctx);
  } else if (precision == "bf16") {
    low = BFloat16Type::get(ctx);
  } else {
    getOperation().emitError("onnx-tosa-lower-precision: unknown precision '")
        << precision << "' (expected fp16 or bf16)";
    return signalPassFailure();
  }
  modes.clear();
  lowered.clear();
  statistics.clear();
  conversions.clear();

  SmallVector<Operation *> ops;
  for (Block &block : getOperation().getBody())
    for (Operation &op : block)
      ops.push_back(&op);
  integerSlice = integerSlices(ops);

  // Results first, in order (an op's mode may depend on its operands'
  // producers), so that every user then sees the types its operands had.
  for (Operation *op : ops) {
    Mode mode = classify(op);
    modes[op] = mode;
    if (mode == Mode::Keep && !integerSlice.contains(op) &&
        op->getNumResults() == 1 && isF32Tensor(op->getResult(0).getType()) &&
        (isa<tosa::ReduceSumOp, tosa::ReduceProductOp>(op) ||
         isStatisticsArithmetic(op)))
      statistics.insert(op);
    if (mode != Mode::Lower)
      continue;
    for (OpResult r : op->getResults()) {
      if (!isF32Tensor(r.getType()))
        continue;
      r.setType(withF32As(r.getType(), low));
      lowered.insert(r);
    }
    // CLAMP's bounds have the element type of its input.
    for (NamedAttribute attr : op->getAttrs()) {
      auto value = dyn_cast<FloatAttr>(attr.getValue());
      if (!value || !value.getType().isF32())
        continue;
      APFloat rounded = value.getValue();
      bool losesInfo = false;
      rounded.convert(cast<FloatType>(low).getFloatSemantics(),
                      APFloat::rmNearestTiesToEven, &losesInfo);
      op->setAttr(attr.getName(), FloatAttr::get(low, rounded));
    }
  }

  // Then operands: each gets the type its user computes in.
  auto fix = [&](OpOperand &use, bool wantLow) {
    Value v = use.get();
    Type original =
        lowered.contains(v)
            ? cast<TensorType>(v.getType()).clone(Float32Type::get(ctx))
            : v.getType();
    Type want = wantLow ? withF32As(original, low) : original;
    if (v.getType() != want)
      use.set(convert(v, want));
  };
  for (Operation *op : ops) {
    Mode mode = modes[op];
    bool wantLow = mode == Mode::Lower || mode == Mode::LowerOperands;
    for (OpOperand &use : op->getOpOperands())
      fix(use, wantLow);
    // Values from above used inside an op's regions: the op stays f32.
    op->walk([&](Operation *inner) {
      if (inner == op)
        return;
      for (OpOperand &use : inner->getOpOperands())
        if (!op->isAncestor(use.get().getParentRegion()->getParentOp()))
          fix(use, /*wantLow=*/false);
    });
  }

  // An fp16 -> f32 CAST of the model is now fp16 -> fp16; constants that
  // only 16-bit ops read are now unused.
  for (Operation *op : ops) {
    auto castOp = dyn_cast<tosa::CastOp>(op);
    if (castOp && castOp.getInput().getType() == castOp.getType()) {
      castOp.getResult().replaceAllUsesWith(castOp.getInput());
      castOp.erase();
    } else if (isa<tosa::ConstOp>(op) && op->use_empty()) {
      op->erase();
    }
  }
}

} // namespace

std::unique_ptr<Pass> createLowerPrecisionPass(StringRef precision) {
  return std::make_unique<LowerPrecisionPass>(precision);
}

} // namespace onnx_tosa
