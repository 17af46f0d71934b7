//===- NodeContext.h - What a handler sees of one ONNX node -----*- C++ -*-===//
//
// A handler legalizes one onnx.node: it reads inputs and attributes through a
// NodeContext, builds TOSA through `ctx.tosa`, and returns one value per ONNX
// output (or a failure whose reason the pass reports with the node's name).
//
//===----------------------------------------------------------------------===//
#ifndef ONNX_TOSA_CONVERSION_NODECONTEXT_H
#define ONNX_TOSA_CONVERSION_NODECONTEXT_H

#include "conversion/onnx-to-tosa/TosaBuilder.h"
#include "frontend/onnx-import/OnnxDialect.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/ScopedPrinter.h"

#include <string>

namespace onnx_tosa {

using Values = llvm::SmallVector<mlir::Value>;

/// Element types an op accepts (checked before building anything).
enum class Elt {
  Float,  ///< f16, bf16, f32
  Number, ///< signless integers and floats
  Int,    ///< signless integers other than i1
  Bool,   ///< i1
  Any,
};
bool accepts(Elt kind, mlir::Type elementType);

/// The MLIR element type of an ONNX TensorProto.DataType; null when the
/// type has no MLIR counterpart here (strings, complex, float6).
mlir::Type onnxElementType(mlir::MLIRContext *ctx, int64_t dataType);
/// The element type run-time data of `elementType` is computed in (TOSA 1.0
/// has no int64, float64 or unsigned data; see docs/types.md): int64 -> i32,
/// float64 -> f32, uint8/16/32 -> i32, float8/float4/4- and 2-bit integers
/// -> i8 (their bit patterns, NarrowTypes.h); others are unchanged.
mlir::Type demotedElementType(mlir::Type elementType);

/// A handler's result: one value per ONNX output it produces.
using LegalizeResult = mlir::FailureOr<Values>;

class NodeContext {
public:
  NodeContext(mlir::OpBuilder &builder, onnx::NodeOp node);

  onnx::NodeOp getNode() const { return node; }
  mlir::Location getLoc() const { return node.getLoc(); }
  llvm::StringRef getOpType() const { return node.getOpType(); }
  int64_t getOpset() const { return node.getOpset(); }

  //--- Inputs ---------------------------------------------------------------

  /// Number of inputs the node lists (absent optional inputs included).
  unsigned numInputs() const { return node.getInputs().size(); }
  /// Input `i`, or a null Value when it is absent (past the end or
  /// onnx.none).
  mlir::Value input(unsigned i) const;
  bool hasInput(unsigned i) const { return static_cast<bool>(input(i)); }
  /// The static type / shape of a present input.
  mlir::RankedTensorType inputType(unsigned i) const;
  llvm::ArrayRef<int64_t> inputShape(unsigned i) const;
  int64_t inputRank(unsigned i) const { return inputShape(i).size(); }
  /// The data of input `i` when it is (after legalization) a tosa.const.
  std::optional<mlir::DenseElementsAttr> constantInput(unsigned i) const;
  /// The ONNX element type of input `i` when it is narrow data (float8,
  /// float4, 4- or 2-bit integers) carried as i8 bit patterns
  /// (NarrowTypes.h), else null. A handler that asks is trusted to give the
  /// bits their meaning; the pass refuses narrow data to other handlers,
  /// except those that only move data.
  mlir::Type narrowInputType(unsigned i) const;
  /// Set by the pass before the handler runs.
  void setNarrowInputTypes(llvm::ArrayRef<mlir::Type> types) {
    narrowInputs.assign(types.begin(), types.end());
  }
  bool readNarrowInputTypes() const { return narrowRead; }
  /// Integer data of a constant input (shapes, axes, pads...).
  std::optional<llvm::SmallVector<int64_t>> constantInts(unsigned i) const;

  /// Integer data of input `i`, which must be a compile-time constant (ONNX
  /// passes shapes, axes and pads as int64 tensors; TOSA takes them as
  /// attributes). `what` names the input in the failure.
  mlir::LogicalResult requireConstantInts(unsigned i, llvm::StringRef what,
                                          Shape &out);
  /// A list of integers that is attribute `attrName` before opset
  /// `inputSince` and constant input `inputIndex` from it on (Squeeze axes,
  /// Split sizes, ...). `out` stays empty-optional when neither is given.
  mlir::LogicalResult readIntsAttrOrInput(llvm::StringRef attrName,
                                          unsigned inputIndex,
                                          int64_t inputSince,
                                          std::optional<Shape> &out);

  /// Maps every axis of `axes` into [0, rank) (ONNX allows negative axes);
  /// fails on out-of-range or repeated axes. Sorts them.
  mlir::LogicalResult normalizeAxes(Shape &axes, int64_t rank);
  /// Fails when `shape` has a zero dimension (TOSA tensors cannot be empty).
  mlir::LogicalResult requireNonEmpty(llvm::ArrayRef<int64_t> shape);

  /// Number of outputs the node declares.
  unsigned numOutputs() const { return node.getOutputs().size(); }
  /// Whether output `i` exists and is read by anything.
  bool outputUsed(unsigned i) const;

  /// Fails unless inputs 0..n-1 are present.
  mlir::LogicalResult requireInputs(unsigned n);
  /// Fails unless present input `i` has an element type of `kind`.
  mlir::LogicalResult requireElementType(unsigned i, Elt kind);
  /// Fails unless all present inputs in [first, last) share one element type.
  mlir::LogicalResult requireSameElementType(unsigned first, unsigned last);

  //--- Attributes (with ONNX defaults) ---------------------------------------
  // An attribute present with another type than the getter's (Gemm's alpha
  // given as an INT) is not taken for absent: the getter returns the
  // default and records the mismatch, and the pass refuses the node with
  // it (attributeTypeError), whatever the handler did.

  bool hasAttr(llvm::StringRef name) const;
  int64_t getInt(llvm::StringRef name, int64_t dflt) const;
  float getFloat(llvm::StringRef name, float dflt) const;
  std::string getString(llvm::StringRef name, llvm::StringRef dflt) const;
  llvm::SmallVector<int64_t> getInts(llvm::StringRef name,
                                     llvm::ArrayRef<int64_t> dflt = {}) const;
  llvm::SmallVector<float> getFloats(llvm::StringRef name,
                                     llvm::ArrayRef<float> dflt = {}) const;
  /// The raw attribute (TENSOR attributes, etc.); null when absent.
  mlir::Attribute getAttr(llvm::StringRef name) const;

  //--- Results and errors ----------------------------------------------------

  /// Records why the node cannot be legalized; `return ctx.fail(...)`.
  mlir::LogicalResult fail(const llvm::Twine &reason);
  /// Fails because input `i` must be a compile-time constant and is not;
  /// the pass then names the graph inputs it comes from, which
  /// --freeze-input can turn into constants.
  mlir::LogicalResult failNotConstant(unsigned i, const llvm::Twine &reason);
  /// The same for several inputs, all of which must be constants.
  mlir::LogicalResult failNotConstant(llvm::ArrayRef<unsigned> inputs,
                                      const llvm::Twine &reason);
  const std::string &getFailureReason() const { return reason; }

  /// Gives output `i` the ONNX element type `type` where the model declares
  /// none (e.g. uint8 from QuantizeLinear): the pass then treats the result
  /// as if the model had declared it (unsigned wrap and tracking).
  void setOutputElementType(unsigned i, mlir::Type type) {
    if (outputTypes.size() <= i)
      outputTypes.resize(i + 1);
    outputTypes[i] = type;
  }
  llvm::ArrayRef<mlir::Type> getOutputElementTypes() const {
    return outputTypes;
  }

  /// Declares that output `i`'s dimension `dim` is an upper bound: how many
  /// of its entries are real depends on the data (NonZero, Unique,
  /// NonMaxSuppression) and is held by `count`, an i32 tensor<1xi32>
  /// computed at run time. The output's elements are those of the real
  /// (smaller) array in C order, first in its buffer. Such an output may
  /// only be a graph output: the runtime reads the count and reports the
  /// real shape (docs/unsupported-ops.md, "Data-dependent output sizes").
  void setOutputCount(unsigned i, unsigned dim, mlir::Value count) {
    if (outputCounts.size() <= i)
      outputCounts.resize(i + 1);
    outputCounts[i] = {dim, count};
  }
  struct OutputCount {
    unsigned dim = 0;
    mlir::Value count; ///< null: the output's size does not vary
  };
  llvm::ArrayRef<OutputCount> getOutputCounts() const { return outputCounts; }
  llvm::ArrayRef<unsigned> getNotConstantInputs() const { return notConstant; }
  /// The first attribute read with the wrong type, as a reason; "" if none.
  const std::string &attributeTypeError() const { return attrTypeError; }

  /// Builds TOSA before the node.
  TosaBuilder tosa;

private:
  mutable onnx::NodeOp node;
  std::string reason;
  llvm::SmallVector<unsigned> notConstant;
  llvm::SmallVector<mlir::Type> outputTypes;
  llvm::SmallVector<OutputCount> outputCounts;
  llvm::SmallVector<mlir::Type> narrowInputs;
  mutable bool narrowRead = false;
  mutable std::string attrTypeError;

  /// Attribute `name` as an `AttrT`, or null when absent; a present
  /// attribute of another type is recorded (see above) and reads as absent.
  template <typename AttrT>
  AttrT typedAttr(llvm::StringRef name, const char *onnxType) const;
};

/// Signature of a legalization.
using Handler = LegalizeResult (*)(NodeContext &);

/// One row of a family's table: the handler used for `opType` in `domain`
/// from opset `sinceVersion` on (until a row with a larger since-version).
struct OpLegalization {
  llvm::StringLiteral opType;
  int64_t sinceVersion;
  Handler handler;
  llvm::StringLiteral domain = ""; ///< "" is the default domain ai.onnx
};

// The tables, one per op family (one source file each).
llvm::ArrayRef<OpLegalization> getAttentionLegalizations();
llvm::ArrayRef<OpLegalization> getElementwiseLegalizations();
llvm::ArrayRef<OpLegalization> getActivationLegalizations();
llvm::ArrayRef<OpLegalization> getMatMulLegalizations();
llvm::ArrayRef<OpLegalization> getConvLegalizations();
llvm::ArrayRef<OpLegalization> getPoolLegalizations();
llvm::ArrayRef<OpLegalization> getNormalizationLegalizations();
llvm::ArrayRef<OpLegalization> getReductionLegalizations();
llvm::ArrayRef<OpLegalization> getResizeLegalizations();
llvm::ArrayRef<OpLegalization> getReshapeLegalizations();
llvm::ArrayRef<OpLegalization> getTensorLegalizations();
llvm::ArrayRef<OpLegalization> getConstantLegalizations();
llvm::ArrayRef<OpLegalization> getRecurrentLegalizations();
llvm::ArrayRef<OpLegalization> getTrigonometryLegalizations();
llvm::ArrayRef<OpLegalization> getEinsumLegalizations();
llvm::ArrayRef<OpLegalization> getDeterminantLegalizations();
llvm::ArrayRef<OpLegalization> getIndexingLegalizations();
llvm::ArrayRef<OpLegalization> getDataDependentLegalizations();
llvm::ArrayRef<OpLegalization> getControlFlowLegalizations();
llvm::ArrayRef<OpLegalization> getSignalLegalizations();
llvm::ArrayRef<OpLegalization> getSequenceLegalizations();

/// Legalizes a copy of `subgraph` (one of a node's regions: a GRAPH
/// attribute, see the importer) at `b`'s insertion point, with the
/// subgraph's inputs bound to `inputs`, and returns the values of its
/// outputs. The node itself is left untouched. On failure `why` names the
/// inner node and the reason. Defined with the pass (OnnxToTosaPass.cpp),
/// whose node conversion it runs.
mlir::FailureOr<Values> legalizeSubgraph(mlir::OpBuilder &b,
                                         mlir::Region &subgraph,
                                         mlir::ValueRange inputs,
                                         std::string &why);
llvm::ArrayRef<OpLegalization> getGridSampleLegalizations();
llvm::ArrayRef<OpLegalization> getLinearAttentionLegalizations();
llvm::ArrayRef<OpLegalization> getLossLegalizations();
llvm::ArrayRef<OpLegalization> getImageLegalizations();
llvm::ArrayRef<OpLegalization> getQuantizationLegalizations();
llvm::ArrayRef<OpLegalization> getSelectionLegalizations();
llvm::ArrayRef<OpLegalization> getTrainingLegalizations();
llvm::ArrayRef<OpLegalization> getMachineLearningLegalizations();

} // namespace onnx_tosa

#endif // ONNX_TOSA_CONVERSION_NODECONTEXT_H
