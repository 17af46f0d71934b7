//===- import_test_util.h - Helpers for the ONNX importer tests -*- C++ -*-===//
//
// Models are built with the generated protobuf classes, written to a fresh
// temporary directory and read back through importOnnxModel, exactly as the
// compiler reads a file given on its command line.
//
//===----------------------------------------------------------------------===//
#ifndef ONNX_TOSA_TEST_FRONTEND_IMPORT_TEST_UTIL_H
#define ONNX_TOSA_TEST_FRONTEND_IMPORT_TEST_UTIL_H

#include "Importer.h"
#include "OnnxDialect.h"
#include "onnx.pb.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

namespace onnx_tosa::test {

namespace pb = onnx_tosa::onnxpb;

/// One dimension of a declared shape: a size, or a symbolic name.
struct Dim {
  Dim(int64_t value) : value(value) {}
  Dim(const char *param) : value(-1), param(param) {}
  int64_t value;
  std::string param;
};

/// A model with IR version 8, the default domain at opset 17 and an empty
/// graph named "g".
pb::ModelProto makeModel(int64_t defaultOpset = 17);

/// Sets the tensor type of `vi`; `dims` is the shape.
void setTensorType(pb::ValueInfoProto &vi, int32_t elemType,
                   std::initializer_list<Dim> dims);
/// Graph input/output/value_info with a tensor type and a shape.
pb::ValueInfoProto *addInput(pb::GraphProto &g, const std::string &name,
                             int32_t elemType, std::initializer_list<Dim> dims);
pb::ValueInfoProto *addOutput(pb::GraphProto &g, const std::string &name,
                              int32_t elemType,
                              std::initializer_list<Dim> dims);
pb::ValueInfoProto *addValueInfo(pb::GraphProto &g, const std::string &name,
                                 int32_t elemType,
                                 std::initializer_list<Dim> dims);
/// A graph output that declares no type at all.
pb::ValueInfoProto *addUntypedOutput(pb::GraphProto &g,
                                     const std::string &name);

pb::NodeProto *addNode(pb::GraphProto &g, const std::string &opType,
                       std::initializer_list<std::string> inputs,
                       std::initializer_list<std::string> outputs,
                       const std::string &name = "",
                       const std::string &domain = "");

/// A float tensor stored in float_data.
pb::TensorProto floatTensor(const std::string &name,
                            std::initializer_list<int64_t> dims,
                            std::initializer_list<float> values);
/// A tensor of `dataType` whose payload is `bytes` in raw_data.
pb::TensorProto rawTensor(const std::string &name, int32_t dataType,
                          std::initializer_list<int64_t> dims,
                          const std::string &bytes);
/// The little-endian bytes of `values`.
template <typename T> std::string bytesOf(const std::vector<T> &values) {
  return std::string(reinterpret_cast<const char *>(values.data()),
                     values.size() * sizeof(T));
}

/// A test fixture that owns a context and a temporary directory.
class ImportTest : public ::testing::Test {
protected:
  void SetUp() override;
  void TearDown() override;

  /// Writes `bytes` to `name` inside the temporary directory (creating
  /// parent directories) and returns the file's path.
  std::string writeFile(const std::string &name, const std::string &bytes);
  std::string writeModel(const pb::ModelProto &model,
                         const std::string &name = "model.onnx");

  /// Imports `model`; fails the test (and returns null) if the import fails
  /// or the module does not verify.
  mlir::OwningOpRef<mlir::ModuleOp>
  import(const pb::ModelProto &model, const ImportOptions &options = {});
  /// Imports the file at `path`, as above.
  mlir::OwningOpRef<mlir::ModuleOp>
  importFile(const std::string &path, const ImportOptions &options = {});
  /// Imports `model` expecting failure; returns the error message.
  std::string importError(const pb::ModelProto &model,
                          const ImportOptions &options = {});
  std::string importFileError(const std::string &path,
                              const ImportOptions &options = {});

  mlir::MLIRContext ctx;
  std::string dir;
};

/// The module's `main` function (null if absent).
mlir::func::FuncOp mainFunc(mlir::ModuleOp module);
/// The onnx.node ops directly in `block`, in order.
std::vector<onnx::NodeOp> nodesIn(mlir::Block &block);
/// The onnx.node ops directly in the body of `main`.
std::vector<onnx::NodeOp> topNodes(mlir::ModuleOp module);
/// The onnx.constant ops directly in the body of `main`.
std::vector<onnx::ConstantOp> topConstants(mlir::ModuleOp module);
/// The first onnx.node (anywhere, nested ones included) with `nodeName`.
onnx::NodeOp findNode(mlir::ModuleOp module, llvm::StringRef nodeName);
/// The dense elements value of the onnx.constant named `name` at top level.
mlir::DenseElementsAttr constantValue(mlir::ModuleOp module,
                                      llvm::StringRef name);

/// `type` printed as MLIR prints it, e.g. "tensor<1x3xf32>".
std::string str(mlir::Type type);
std::string str(mlir::Attribute attr);

} // namespace onnx_tosa::test

#endif // ONNX_TOSA_TEST_FRONTEND_IMPORT_TEST_UTIL_H
