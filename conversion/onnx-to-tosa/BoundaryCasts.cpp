//===- BoundaryCasts.cpp - TOSA functions without their boundary casts ----===//
//
// The legalization computes int64, float64 and unsigned data in the types
// TOSA has (docs/types.md) and keeps the model's types in the signature,
// with arith casts at the boundary: `arith.trunci %arg0 : i64 to i32` after
// an argument, `arith.extsi ... i32 to i64` before a return. The TOSA
// flatbuffer has no form for those casts, so tools that read only TOSA
// (the official serializer and reference model) stop there.
//
// onnx-tosa-strip-boundary-casts gives such a function the computed types
// in its signature instead: an argument whose every use is one cast to the
// same type takes that type; a result a cast produces is the cast's
// operand. What remains is pure TOSA, which computes what the original did
// for data the casts would carry unchanged (values inside the narrower
// type's range). The compiler never runs it; it is for handing our TOSA to
// other tools (test/tosa/reference_model.py).
//
//===----------------------------------------------------------------------===//

#include "conversion/onnx-to-tosa/OnnxToTosa.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace onnx_tosa {
namespace {

bool isBoundaryCast(Operation *op) {
  return isa<arith::TruncIOp, arith::ExtSIOp, arith::ExtUIOp,
             arith::TruncFOp, arith::ExtFOp>(op);
}

struct StripBoundaryCastsPass
    : PassWrapper<StripBoundaryCastsPass, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(StripBoundaryCastsPass)
  StringRef getArgument() const override {
    return "onnx-tosa-strip-boundary-casts";
  }
  StringRef getDescription() const override {
    return "Give a TOSA function the computed types in its signature instead "
           "of arith casts at its boundary (for tools that read only TOSA)";
  }
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    Block &body = func.getBody().front();
    for (BlockArgument arg : body.getArguments()) {
      Operation *first = arg.use_empty() ? nullptr : *arg.user_begin();
      if (!first || !isBoundaryCast(first))
        continue;
      Type to = first->getResult(0).getType();
      bool alike = llvm::all_of(arg.getUsers(), [&](Operation *user) {
        return user->getName() == first->getName() &&
               user->getResult(0).getType() == to;
      });
      if (!alike)
        continue;
      arg.setType(to);
      for (Operation *user : llvm::make_early_inc_range(arg.getUsers())) {
        user->getResult(0).replaceAllUsesWith(arg);
        user->erase();
      }
    }
    Operation *ret = body.getTerminator();
    for (OpOperand &operand : ret->getOpOperands()) {
      Operation *cast = operand.get().getDefiningOp();
      if (!cast || !isBoundaryCast(cast))
        continue;
      operand.set(cast->getOperand(0));
      if (cast->use_empty())
        cast->erase();
    }
    func.setType(FunctionType::get(&getContext(), body.getArgumentTypes(),
                                   ret->getOperandTypes()));
  }
};

} // namespace

void registerBoundaryCastsPass() { PassRegistration<StripBoundaryCastsPass>(); }

} // namespace onnx_tosa
