//===- Evaluator.h - Reference evaluation of TOSA functions ---------------===//
//
// Evaluates a func.func of TOSA ops on host tensors, following the TOSA 1.0
// specification's pseudocode: integer ops exactly (int64 host arithmetic with
// the specification's wrapping, saturation and rounding), floating-point ops
// in fp64. MLIR is used only to parse and walk the IR; nothing is lowered.
//
// This is the oracle for the TOSA -> GPU half of the pipeline, so it shares no
// code with upstream's tosa-to-linalg.
//
//===----------------------------------------------------------------------===//
#ifndef ONNX_TOSA_REFERENCE_TOSA_EVAL_EVALUATOR_H
#define ONNX_TOSA_REFERENCE_TOSA_EVAL_EVALUATOR_H

#include "reference/tosa-eval/Tensor.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
class DialectRegistry;
namespace func {
class FuncOp;
} // namespace func
} // namespace mlir

namespace onnx_tosa::ref {

struct EvalOptions {
  /// Round each floating-point intermediate result to its declared element
  /// type before another op consumes it. Per the specification's "Operator
  /// sequence precision requirement" a sequence is compliant when each op is,
  /// with its output converted to the op's output precision, so this gives
  /// the reference that a compliant implementation tracks. Function results
  /// are never rounded: they are the fp64 reference of the last op.
  bool roundIntermediates = true;
  /// Record, for each function result, what the compliance check needs: the
  /// producing op, its operands and, for dot-product ops, the error bound
  /// reference (the op evaluated on absolute values, with the extra
  /// multiplies in padding: "Dot product accuracy requirements").
  bool collectCompliance = false;
};

/// What the compliance check needs to judge one function result.
struct ComplianceInfo {
  std::string opName; // "tosa.exp"; "" for a block argument
  std::map<std::string, std::string> attrs; // printed attribute values
  std::vector<Tensor> operands;             // the op's operands as it saw them
  std::optional<Tensor> bound;              // dot-product ops: output_bnd
  int64_t kernelSize = 0;                   // dot-product ops: KS
  bool biasNonZero = false; // dot-product ops: max(abs(bias)) > 0
};

struct EvalResult {
  std::vector<Tensor> outputs;
  std::vector<ComplianceInfo> compliance; // when collectCompliance
  /// The first REQUIRE that failed, empty if none: the TOSA graph result is
  /// then tosa_unpredictable and any implementation output is compliant.
  std::string unpredictable;
};

/// Registers the dialects a TOSA function may use.
void registerEvaluatorDialects(mlir::DialectRegistry &registry);

class Evaluator {
public:
  Evaluator(mlir::ModuleOp module, EvalOptions options = {});
  ~Evaluator();

  /// Evaluates `func` on `args` (one tensor per function argument, of its
  /// element type and shape). On failure, `error` names the op and the reason
  /// (an unsupported op, an ERROR_IF of the specification, a malformed op).
  mlir::LogicalResult run(mlir::func::FuncOp func, llvm::ArrayRef<Tensor> args,
                          EvalResult &result, std::string &error);

  /// The element type of an MLIR tensor / element type, if the evaluator
  /// knows it.
  static std::optional<DType> dtypeOf(mlir::Type type);

private:
  class Impl;
  std::unique_ptr<Impl> impl;
};

} // namespace onnx_tosa::ref

#endif // ONNX_TOSA_REFERENCE_TOSA_EVAL_EVALUATOR_H
