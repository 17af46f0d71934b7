//===- eval_test_util.h - Helpers for the reference evaluator tests ------===//
#ifndef ONNX_TOSA_TEST_TOSA_EVAL_TEST_UTIL_H
#define ONNX_TOSA_TEST_TOSA_EVAL_TEST_UTIL_H

#include "reference/tosa-eval/Evaluator.h"

#include <string>
#include <vector>

namespace onnx_tosa::ref::test {

/// Parses `mlir` (a module holding func.func @main), evaluates @main on
/// `args` and returns the outputs; on failure, `error` holds the message.
/// `unpredictable` receives the first failed REQUIRE, if any.
bool evaluate(const std::string &mlir, const std::vector<Tensor> &args,
              std::vector<Tensor> &outputs, std::string &error,
              std::string *unpredictable = nullptr,
              std::vector<ComplianceInfo> *compliance = nullptr);

Tensor ints(DType type, llvm::ArrayRef<int64_t> shape,
            std::vector<int64_t> values);
Tensor floats(DType type, llvm::ArrayRef<int64_t> shape,
              std::vector<double> values);

} // namespace onnx_tosa::ref::test

#endif
