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

struct PadConvChannels : OpRewritePattern<tosa::Conv2DOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tosa::Conv2DOp conv,
                                PatternRewriter &rewriter) const override {
    auto input = dyn_cast<RankedTensorType>(conv.getInput().getType());
    auto weight = dyn_cast<RankedTensorType>(conv.getWeight().getType());
    if (!input || !weight || !input.hasStaticShape() ||
        !weight.hasStaticShape() || input.getRank() != 4 ||
        !(input.getElementType().isF16() || input.getElementType().isBF16()))
      return rewriter.notifyMatchFailure(conv, "not a static f16/bf16 input");
    int64_t channels = input.getDimSize(3);
    if (channels >= kChannels)
      return rewriter.notifyMatchFailure(conv, "channels fill a vector");
    // Floating-point zero points are zero: the padding value is zero.
    DenseElementsAttr values;
    if (!matchPattern(conv.getWeight(), m_Constant(&values)))
      return rewriter.notifyMatchFailure(conv, "filter not a constant");

    // The filter [O, KH, KW, C] with zeros after each C.
    SmallVector<int64_t> shape(weight.getShape());
    shape.back() = kChannels;
    auto paddedWeight = weight.clone(shape);
    APFloat zero = APFloat::getZero(
        cast<FloatType>(weight.getElementType()).getFloatSemantics());
    SmallVector<APFloat> padded;
    padded.reserve(paddedWeight.getNumElements());
    auto it = values.getValues<APFloat>().begin();
    for (int64_t i = 0; i < weight.getNumElements() / channels; ++i) {
      for (int64_t c = 0; c < channels; ++c, ++it)
        padded.push_back(*it);
      padded.append(kChannels - channels, zero);
    }
    Location loc = conv.getLoc();
    Value filter =
        tosa::ConstOp::create(rewriter, loc, paddedWeight,
                              DenseElementsAttr::get(paddedWeight, padded));

    SmallVector<int64_t> inputShape(input.getShape());
    inputShape.back() = kChannels;
    SmallVector<int64_t> padding(8, 0);
    padding.back() = kChannels - channels;
    auto padConstType = RankedTensorType::get({1}, input.getElementType());
    Value padConst =
        tosa::ConstOp::create(rewriter, loc, padConstType,
                              DenseElementsAttr::get(padConstType, zero));
    Value paddedInput = tosa::PadOp::create(
        rewriter, loc, input.clone(inputShape), conv.getInput(),
        tosa::getTosaConstShape(rewriter, loc, padding), padConst);

    rewriter.modifyOpInPlace(conv, [&] {
      conv.getInputMutable().assign(paddedInput);
      conv.getWeightMutable().assign(filter);
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
           "the extra ones zero";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<tosa::TosaDialect>();
  }
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<PadConvChannels>(&getContext());
    (void)applyPatternsGreedily(getOperation(), std::move(patterns));
  }
};

} // namespace

std::unique_ptr<Pass> createPadConvChannelsPass() {
  return std::make_unique<PadConvChannelsPass>();
}

} // namespace onnx_tosa
