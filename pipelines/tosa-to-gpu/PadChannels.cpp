//===- PadChannels.cpp - Few input channels padded to a vector's worth ----===//
//
// `onnx-tosa-pad-conv-channels` (TOSA) gives an f16/bf16 CONV2D with fewer
// than 8 input channels (an image's 3: ResNet-50's and MobileNet's first
// convolution) 8 of them: the input gains zero channels (a PAD, which the
// spatial padding's copy of the input takes in) and the constant filter
// zero weights for them. The products are the same; the tensor-core kernels
// then read A, whose K runs over [kh, kw, channel], as whole 16-byte
// vectors, which takes the convolution to the warpgroup-MMA kernel: on
// ResNet-50 b32 (H100) the 7x7 stem took 0.202 ms (of 1.80) on the WMMA
// kernel, element by element, and takes 0.178 ms so (each of its A
// vectors is one pixel's 8 channels, gathered).
//
// One with stride 2 becomes instead a convolution with stride 1 over the
// input's space-to-depth (each 2x2 block of pixels one pixel of 4 x C
// channels, C rounded up to an even count, so 16 for an image's 3) with
// a filter of half the height and width (rounded up, the extra taps zero):
// ResNet-50's 7x7 stem over 3 channels (K = 7 x 7 x 8 = 392 after the
// padding above) becomes 4x4 over 16 (K = 256), and the K step of a block
// row reads 4 neighbouring pixels, 128 consecutive bytes.
//
//===----------------------------------------------------------------------===//
#include "TosaToGpu.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

namespace onnx_tosa {
namespace {

/// Channels of a 16-byte vector of f16/bf16.
constexpr int64_t kChannels = 8;

/// A CONV2D both rewrites take: static f16/bf16 input of fewer than 8
/// channels, constant filter (`values`).
struct FewChannels {
  RankedTensorType input, weight, result;
  DenseElementsAttr values;
  APFloat zero;
};

FailureOr<FewChannels> matchFewChannels(tosa::Conv2DOp conv,
                                        PatternRewriter &rewriter) {
  auto input = dyn_cast<RankedTensorType>(conv.getInput().getType());
  auto weight = dyn_cast<RankedTensorType>(conv.getWeight().getType());
  auto result = dyn_cast<RankedTensorType>(conv.getType());
  if (!input || !weight || !result || !input.hasStaticShape() ||
      !weight.hasStaticShape() || !result.hasStaticShape() ||
      input.getRank() != 4 ||
      !(input.getElementType().isF16() || input.getElementType().isBF16()))
    return rewriter.notifyMatchFailure(conv, "not a static f16/bf16 input");
  if (input.getDimSize(3) >= kChannels)
    return rewriter.notifyMatchFailure(conv, "channels fill a vector");
  DenseElementsAttr values;
  if (!matchPattern(conv.getWeight(), m_Constant(&values)))
    return rewriter.notifyMatchFailure(conv, "filter not a constant");
  APFloat zero = APFloat::getZero(
      cast<FloatType>(weight.getElementType()).getFloatSemantics());
  return FewChannels{input, weight, result, values, zero};
}

/// `x` padded with zeros (`padding`: before and after, per dimension) to
/// `type`. Floating-point zero points are zero: so is a convolution's own
/// padding value.
Value padWithZeros(PatternRewriter &rewriter, Location loc, Value x,
                   RankedTensorType type, ArrayRef<int64_t> padding,
                   const APFloat &zero) {
  auto constType = RankedTensorType::get({1}, type.getElementType());
  Value padConst = tosa::ConstOp::create(
      rewriter, loc, constType, DenseElementsAttr::get(constType, zero));
  return tosa::PadOp::create(rewriter, loc, type, x,
                             tosa::getTosaConstShape(rewriter, loc, padding),
                             padConst);
}

struct PadConvChannels : OpRewritePattern<tosa::Conv2DOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tosa::Conv2DOp conv,
                                PatternRewriter &rewriter) const override {
    FailureOr<FewChannels> m = matchFewChannels(conv, rewriter);
    if (failed(m))
      return failure();
    int64_t channels = m->input.getDimSize(3);

    // The filter [O, KH, KW, C] with zeros after each C.
    SmallVector<int64_t> shape(m->weight.getShape());
    shape.back() = kChannels;
    auto paddedWeight = m->weight.clone(shape);
    SmallVector<APFloat> padded;
    padded.reserve(paddedWeight.getNumElements());
    auto it = m->values.getValues<APFloat>().begin();
    for (int64_t i = 0; i < m->weight.getNumElements() / channels; ++i) {
      for (int64_t c = 0; c < channels; ++c, ++it)
        padded.push_back(*it);
      padded.append(kChannels - channels, m->zero);
    }
    Location loc = conv.getLoc();
    Value filter =
        tosa::ConstOp::create(rewriter, loc, paddedWeight,
                              DenseElementsAttr::get(paddedWeight, padded));

    SmallVector<int64_t> inputShape(m->input.getShape());
    inputShape.back() = kChannels;
    SmallVector<int64_t> padding(8, 0);
    padding.back() = kChannels - channels;
    Value paddedInput =
        padWithZeros(rewriter, loc, conv.getInput(), m->input.clone(inputShape),
                     padding, m->zero);

    rewriter.modifyOpInPlace(conv, [&] {
      conv.getInputMutable().assign(paddedInput);
      conv.getWeightMutable().assign(filter);
    });
    return success();
  }
};

/// A stride-2 CONV2D over fewer than 8 channels as a stride-1 one over the
/// space-to-depth of its input (see the file comment).
struct SpaceToDepthConv : OpRewritePattern<tosa::Conv2DOp> {
  SpaceToDepthConv(MLIRContext *ctx) : OpRewritePattern(ctx, /*benefit=*/2) {}
  LogicalResult matchAndRewrite(tosa::Conv2DOp conv,
                                PatternRewriter &rewriter) const override {
    if (conv.getStride() != ArrayRef<int64_t>{2, 2} ||
        conv.getDilation() != ArrayRef<int64_t>{1, 1})
      return rewriter.notifyMatchFailure(conv, "not stride 2");
    FailureOr<FewChannels> m = matchFewChannels(conv, rewriter);
    if (failed(m))
      return failure();
    RankedTensorType input = m->input;
    int64_t n = input.getDimSize(0), h = input.getDimSize(1),
            w = input.getDimSize(2), c = input.getDimSize(3);
    int64_t o = m->weight.getDimSize(0), kh = m->weight.getDimSize(1),
            kw = m->weight.getDimSize(2);
    int64_t c4 = llvm::alignTo(c, 2), kh2 = llvm::alignTo(kh, 2),
            kw2 = llvm::alignTo(kw, 2);
    int64_t oh = m->result.getDimSize(1), ow = m->result.getDimSize(2);
    // The padded input covers exactly the rows and columns the outputs read
    // (with the filter's extra zero taps).
    ArrayRef<int64_t> pad = conv.getPad(); // top, bottom, left, right
    int64_t ph = 2 * (oh - 1) + kh2, pw = 2 * (ow - 1) + kw2;
    int64_t bottom = ph - h - pad[0], right = pw - w - pad[2];
    if (bottom < 0 || right < 0)
      return rewriter.notifyMatchFailure(conv, "rows past the outputs' reach");

    // The filter [O, KH, KW, C] as [O, KH2/2, KW2/2, (p, q, C4)], the tap
    // (2a + p, 2b + q) at (a, b) and zero past the original's.
    auto filterType = RankedTensorType::get({o, kh2 / 2, kw2 / 2, 4 * c4},
                                            m->weight.getElementType());
    SmallVector<APFloat> taps(filterType.getNumElements(), m->zero);
    auto it = m->values.getValues<APFloat>().begin();
    for (int64_t f = 0; f < o; ++f)
      for (int64_t i = 0; i < kh; ++i)
        for (int64_t j = 0; j < kw; ++j)
          for (int64_t ch = 0; ch < c; ++ch, ++it) {
            int64_t channel = ((i % 2) * 2 + j % 2) * c4 + ch;
            taps[((f * (kh2 / 2) + i / 2) * (kw2 / 2) + j / 2) * 4 * c4 +
                 channel] = *it;
          }
    Location loc = conv.getLoc();
    Value filter = tosa::ConstOp::create(
        rewriter, loc, filterType, DenseElementsAttr::get(filterType, taps));

    // The input padded, then [N, PH/2, 2, PW/2, 2, C4] ->
    // [N, PH/2, PW/2, 2, 2, C4] -> [N, PH/2, PW/2, 4 x C4].
    Value x = padWithZeros(
        rewriter, loc, conv.getInput(), input.clone({n, ph, pw, c4}),
        {0, 0, pad[0], bottom, pad[2], right, 0, c4 - c}, m->zero);
    auto reshape = [&](Value v, ArrayRef<int64_t> shape) -> Value {
      return tosa::ReshapeOp::create(
          rewriter, loc, input.clone(shape), v,
          tosa::getTosaConstShape(rewriter, loc, shape));
    };
    x = reshape(x, {n, ph / 2, 2, pw / 2, 2, c4});
    x = tosa::TransposeOp::create(
        rewriter, loc, input.clone({n, ph / 2, pw / 2, 2, 2, c4}), x,
        rewriter.getDenseI32ArrayAttr({0, 1, 3, 2, 4, 5}));
    x = reshape(x, {n, ph / 2, pw / 2, 4 * c4});
    rewriter.modifyOpInPlace(conv, [&] {
      conv.getInputMutable().assign(x);
      conv.getWeightMutable().assign(filter);
      conv.setPad({0, 0, 0, 0});
      conv.setStride({1, 1});
    });
    return success();
  }
};

struct PadConvChannelsPass
    : PassWrapper<PadConvChannelsPass, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(PadConvChannelsPass)
  StringRef getArgument() const override {
    return "onnx-tosa-pad-conv-channels";
  }
  StringRef getDescription() const override {
    return "Give f16/bf16 convolutions with fewer than 8 input channels 8, "
           "the extra ones zero, or with stride 2 a space-to-depth input";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<tosa::TosaDialect>();
  }
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<SpaceToDepthConv, PadConvChannels>(&getContext());
    (void)applyPatternsGreedily(getOperation(), std::move(patterns));
  }
};

} // namespace

std::unique_ptr<Pass> createPadConvChannelsPass() {
  return std::make_unique<PadConvChannelsPass>();
}

} // namespace onnx_tosa
