//===- eval_test_util.cpp - Helpers for the reference evaluator tests ----===//
#include "eval_test_util.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

using namespace mlir;

namespace onnx_tosa::ref::test {

bool evaluate(const std::string &mlir, const std::vector<Tensor> &args,
              std::vector<Tensor> &outputs, std::string &error,
              std::string *unpredictable,
              std::vector<ComplianceInfo> *compliance) {
  DialectRegistry registry;
  registerEvaluatorDialects(registry);
  MLIRContext ctx(registry);
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &d) {
    error += d.str() + "\n";
    return success();
  });
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(mlir, &ctx);
  if (!module)
    return false;
  auto func = module->lookupSymbol<func::FuncOp>("main");
  EvalOptions options;
  options.collectCompliance = compliance != nullptr;
  Evaluator evaluator(*module, options);
  EvalResult result;
  if (failed(evaluator.run(func, args, result, error)))
    return false;
  outputs = result.outputs;
  if (unpredictable)
    *unpredictable = result.unpredictable;
  if (compliance)
    *compliance = result.compliance;
  return true;
}

Tensor ints(DType type, llvm::ArrayRef<int64_t> shape,
            std::vector<int64_t> values) {
  Tensor t(type, shape);
  t.ints = std::move(values);
  return t;
}

Tensor floats(DType type, llvm::ArrayRef<int64_t> shape,
              std::vector<double> values) {
  Tensor t(type, shape);
  t.floats = std::move(values);
  return t;
}

} // namespace onnx_tosa::ref::test
