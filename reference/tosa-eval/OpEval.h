//===- OpEval.h - What an op handler of the evaluator sees ----------------===//
//
// Internal to the evaluator. Each op family's file registers handlers in a
// table keyed by op name; a handler reads its operands (already evaluated),
// computes with the specification's pseudocode and fills its results.
//
//===----------------------------------------------------------------------===//
#ifndef ONNX_TOSA_REFERENCE_TOSA_EVAL_OPEVAL_H
#define ONNX_TOSA_REFERENCE_TOSA_EVAL_OPEVAL_H

#include "reference/tosa-eval/Tensor.h"

#include "mlir/IR/Operation.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/Twine.h"

#include <cmath>
#include <functional>
#include <string>

namespace onnx_tosa::ref {

class OpEval;
using OpHandler = std::function<mlir::LogicalResult(OpEval &)>;
using HandlerTable = llvm::StringMap<OpHandler>;

/// Per-op evaluation state handed to a handler.
class OpEval {
public:
  OpEval(mlir::Operation *op, llvm::SmallVector<const Tensor *> operands,
         std::string &error, std::string &unpredictable)
      : op(op), operands(std::move(operands)), error(error),
        unpredictable(unpredictable) {}

  mlir::Operation *op;
  llvm::SmallVector<const Tensor *> operands;
  llvm::SmallVector<Tensor, 2> results;
  /// tosa_extra_multiplies of the dot-product accuracy check: padding
  /// positions multiply (zero) input values by weights too.
  bool extraMultiplies = false;

  const Tensor &in(unsigned i) const { return *operands[i]; }
  unsigned numOperands() const { return operands.size(); }

  /// Creates result i with the op's declared element type and shape.
  Tensor &result(unsigned i = 0);
  DType resultType(unsigned i = 0) const;
  Shape resultShape(unsigned i = 0) const;

  /// A shape operand (!tosa.shape from tosa.const_shape) as integers.
  llvm::SmallVector<int64_t> shapeOperand(unsigned i) const;
  /// A scalar integer operand (zero points, MUL's shift): element 0.
  int64_t scalarInt(unsigned i) const { return in(i).ints.at(0); }
  double scalarFloat(unsigned i) const { return in(i).asDouble(0); }

  /// A malformed or unsupported op: evaluation stops with this message.
  mlir::LogicalResult fail(const llvm::Twine &msg);
  /// ERROR_IF of the specification: the graph is illegal (tosa_error).
  bool errorIf(bool cond, const llvm::Twine &what) {
    if (cond)
      (void)fail("ERROR_IF: " + what);
    return cond;
  }
  /// REQUIRE of the specification: when it fails the result is
  /// unpredictable; evaluation goes on (with wrapped values) so that the
  /// tool still writes outputs, but they carry no requirement.
  void require(bool cond, const llvm::Twine &what) {
    if (!cond && unpredictable.empty())
      unpredictable = opLabel() + ": REQUIRE failed: " + what.str();
  }
  std::string opLabel() const;

  template <typename OpT> OpT as() const { return llvm::cast<OpT>(op); }

private:
  std::string &error;
  std::string &unpredictable;
};

// Registration, one function per op family (the files of this folder).
void registerElementwiseOps(HandlerTable &table);
void registerTypeConversionOps(HandlerTable &table);
void registerReductionOps(HandlerTable &table);
void registerTensorOps(HandlerTable &table);
void registerDataLayoutOps(HandlerTable &table);
void registerImageOps(HandlerTable &table);

/// The dot-product size KS of a dot-product op ("Floating-Point Operator Test
/// Data", appendix A), or 0 when the op is not one.
int64_t dotProductKernelSize(mlir::Operation *op,
                             llvm::ArrayRef<const Tensor *> operands);

// Shared arithmetic (TOSA 1.0 "Arithmetic Helpers").

/// Maps an output index to an input index under TOSA broadcasting (equal
/// ranks; size-1 dimensions repeat).
inline int64_t broadcastOffset(llvm::ArrayRef<int64_t> outIndex,
                               llvm::ArrayRef<int64_t> inShape) {
  int64_t offset = 0;
  for (size_t d = 0; d < inShape.size(); ++d)
    offset = offset * inShape[d] + (inShape[d] == 1 ? 0 : outIndex[d]);
  return offset;
}

/// apply_max_s / apply_min_s for floating point with a NaN mode.
inline double applyMaxF(double a, double b, bool propagateNan) {
  if (std::isnan(a) || std::isnan(b)) {
    if (propagateNan)
      return std::nan("");
    return std::isnan(a) ? b : a;
  }
  return a >= b ? a : b;
}
inline double applyMinF(double a, double b, bool propagateNan) {
  if (std::isnan(a) || std::isnan(b)) {
    if (propagateNan)
      return std::nan("");
    return std::isnan(a) ? b : a;
  }
  return a < b ? a : b;
}

/// true when the op's nan_mode attribute (if any) is PROPAGATE (the default).
bool propagatesNan(mlir::Operation *op);

/// Integer result check of apply_add_s & co: REQUIRE that v fits the type,
/// returning the wrapped value.
inline int64_t checkedInt(OpEval &e, int64_t v, DType t, const char *what) {
  unsigned bits = bitWidth(t);
  e.require(v >= minSigned(bits) && v <= maxSigned(bits),
            llvm::Twine(what) + " overflows " + dtypeName(t));
  return wrapSigned(v, bits);
}

} // namespace onnx_tosa::ref

#endif // ONNX_TOSA_REFERENCE_TOSA_EVAL_OPEVAL_H
