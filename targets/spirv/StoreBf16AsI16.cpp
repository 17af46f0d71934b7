//===- StoreBf16AsI16.cpp - bf16 kernel data as i16 bits for Vulkan -------===//
//
// Vulkan (lavapipe among others) has no bfloat16 type, and the SPIR-V type
// converter, lacking one, widens bf16 to f32, which misreads buffers that
// hold 2-byte elements. By the time this pass runs, every bf16 computation
// in the kernels has become f32 arithmetic whose operands and results
// cross to bf16 only through bitcasts from and to i16
// (arith-emulate-unsupported-floats, math-extend-to-supported-types and
// arith-expand's bf16 patterns); what is left of bf16 only moves bits:
// loads, stores, selects, loop-carried values, constants. So bf16 is
// renamed i16 in place (same bits), constants become the i16 of their
// bits, and the i16 <-> bf16 bitcasts disappear. Kernel signatures change
// as well: the host keeps its bf16 buffers (the artifact's inputs and
// outputs keep their type) and hands them to the kernels through an
// unrealized_conversion_cast to the i16 memref, which the artifact exporter
// reads as the same buffer.
//
//===----------------------------------------------------------------------===//
#include "spirv/SpirvTarget.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace onnx_tosa {
namespace {

/// `t` with bf16 (as a scalar, or the element of a memref, vector or
/// tensor) replaced by i16; null when it holds no bf16.
Type asBits(Type t) {
  Type i16 = IntegerType::get(t.getContext(), 16);
  if (t.isBF16())
    return i16;
  if (auto memref = dyn_cast<MemRefType>(t);
      memref && memref.getElementType().isBF16())
    return MemRefType::Builder(memref).setElementType(i16);
  if (auto shaped = dyn_cast<ShapedType>(t);
      shaped && shaped.getElementType().isBF16())
    return shaped.clone(i16);
  return {};
}

/// A bf16 constant's value as the i16 attribute of its bits.
TypedAttr bitsOf(Attribute value, Type type) {
  if (auto f = dyn_cast<FloatAttr>(value))
    return IntegerAttr::get(type, f.getValue().bitcastToAPInt());
  if (auto dense = dyn_cast<DenseFPElementsAttr>(value))
    return dense.bitcast(cast<ShapedType>(type).getElementType());
  return {};
}

struct StoreBf16AsI16Pass
    : PassWrapper<StoreBf16AsI16Pass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(StoreBf16AsI16Pass)
  StringRef getArgument() const override {
    return "onnx-tosa-store-bf16-as-i16";
  }
  StringRef getDescription() const override {
    return "Carry bf16 kernel data as i16 of the same bits (after bf16 "
           "arithmetic has been emulated in f32)";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect>();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    for (auto kernels : module.getOps<gpu::GPUModuleOp>())
      if (failed(rewriteKernels(kernels)))
        return signalPassFailure();
    // The host's launches pass its bf16 buffers as they are.
    module.walk([](gpu::LaunchFuncOp launch) {
      OpBuilder builder(launch);
      for (OpOperand &operand : launch->getOpOperands())
        if (Type bits = asBits(operand.get().getType()))
          operand.set(UnrealizedConversionCastOp::create(
                          builder, launch.getLoc(), bits, operand.get())
                          .getResult(0));
    });
  }

  LogicalResult rewriteKernels(gpu::GPUModuleOp module) {
    // Arithmetic left on bf16 would be reinterpreted as integer arithmetic.
    WalkResult arithmetic = module.walk([](Operation *op) {
      if (!isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) ||
          isa<arith::ConstantOp, arith::BitcastOp, arith::SelectOp>(op))
        return WalkResult::advance();
      auto isBf16 = [](Type t) { return getElementTypeOrSelf(t).isBF16(); };
      if (llvm::any_of(op->getOperandTypes(), isBf16) ||
          llvm::any_of(op->getResultTypes(), isBf16)) {
        op->emitError("bfloat16 ")
            << op->getName() << " is not supported on the Vulkan target";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (arithmetic.wasInterrupted())
      return failure();

    // Rename the types in place: values, block arguments, signatures.
    module.walk([](Operation *op) {
      for (Value result : op->getResults())
        if (Type bits = asBits(result.getType()))
          result.setType(bits);
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            if (Type bits = asBits(arg.getType()))
              arg.setType(bits);
    });
    module.walk([](gpu::GPUFuncOp func) {
      SmallVector<Type> inputs, results;
      for (Type t : func.getFunctionType().getInputs())
        inputs.push_back(asBits(t) ? asBits(t) : t);
      for (Type t : func.getFunctionType().getResults())
        results.push_back(asBits(t) ? asBits(t) : t);
      func.setFunctionType(
          FunctionType::get(func.getContext(), inputs, results));
    });

    // Constants become their bits; bitcasts between i16 and (formerly)
    // bf16 are now from a type to itself.
    SmallVector<Operation *> rewrite;
    module.walk([&](Operation *op) {
      if (auto c = dyn_cast<arith::ConstantOp>(op);
          c && getElementTypeOrSelf(c.getValue().getType()).isBF16())
        rewrite.push_back(op);
      else if (auto b = dyn_cast<arith::BitcastOp>(op);
               b && b.getIn().getType() == b.getType())
        rewrite.push_back(op);
    });
    for (Operation *op : rewrite) {
      if (auto b = dyn_cast<arith::BitcastOp>(op)) {
        b.getResult().replaceAllUsesWith(b.getIn());
        b.erase();
        continue;
      }
      auto c = cast<arith::ConstantOp>(op);
      TypedAttr bits = bitsOf(c.getValue(), c.getType());
      if (!bits) {
        return c.emitError("internal error: unexpected bfloat16 constant ")
               << c.getValue();
      }
      OpBuilder builder(c);
      Value replacement = arith::ConstantOp::create(builder, c.getLoc(), bits);
      c.getResult().replaceAllUsesWith(replacement);
      c.erase();
    }
    return success();
  }
};

} // namespace

std::unique_ptr<Pass> createStoreBf16AsI16Pass() {
  return std::make_unique<StoreBf16AsI16Pass>();
}

} // namespace onnx_tosa
