//===- import_test_util.cpp - Helpers for the ONNX importer tests ---------===//
#include "import_test_util.h"

#include "mlir/IR/Verifier.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <fstream>

using namespace mlir;

namespace onnx_tosa::test {

pb::ModelProto makeModel(int64_t defaultOpset) {
  pb::ModelProto m;
  m.set_ir_version(8);
  m.set_producer_name("frontend-tests");
  auto *op = m.add_opset_import();
  op->set_domain("");
  op->set_version(defaultOpset);
  m.mutable_graph()->set_name("g");
  return m;
}

void setTensorType(pb::ValueInfoProto &vi, int32_t elemType,
                   std::initializer_list<Dim> dims) {
  auto *tt = vi.mutable_type()->mutable_tensor_type();
  tt->set_elem_type(elemType);
  auto *shape = tt->mutable_shape();
  for (const Dim &d : dims) {
    auto *dim = shape->add_dim();
    if (!d.param.empty())
      dim->set_dim_param(d.param);
    else if (d.value >= 0)
      dim->set_dim_value(d.value);
    // else: neither value nor param, an unknown dimension.
  }
}

static pb::ValueInfoProto *fill(pb::ValueInfoProto *vi,
                                const std::string &name, int32_t elemType,
                                std::initializer_list<Dim> dims) {
  vi->set_name(name);
  setTensorType(*vi, elemType, dims);
  return vi;
}

pb::ValueInfoProto *addInput(pb::GraphProto &g, const std::string &name,
                             int32_t elemType,
                             std::initializer_list<Dim> dims) {
  return fill(g.add_input(), name, elemType, dims);
}

pb::ValueInfoProto *addOutput(pb::GraphProto &g, const std::string &name,
                              int32_t elemType,
                              std::initializer_list<Dim> dims) {
  return fill(g.add_output(), name, elemType, dims);
}

pb::ValueInfoProto *addValueInfo(pb::GraphProto &g, const std::string &name,
                                 int32_t elemType,
                                 std::initializer_list<Dim> dims) {
  return fill(g.add_value_info(), name, elemType, dims);
}

pb::ValueInfoProto *addUntypedOutput(pb::GraphProto &g,
                                     const std::string &name) {
  auto *vi = g.add_output();
  vi->set_name(name);
  return vi;
}

pb::NodeProto *addNode(pb::GraphProto &g, const std::string &opType,
                       std::initializer_list<std::string> inputs,
                       std::initializer_list<std::string> outputs,
                       const std::string &name, const std::string &domain) {
  auto *n = g.add_node();
  n->set_op_type(opType);
  if (!name.empty())
    n->set_name(name);
  if (!domain.empty())
    n->set_domain(domain);
  for (const auto &i : inputs)
    n->add_input(i);
  for (const auto &o : outputs)
    n->add_output(o);
  return n;
}

pb::TensorProto floatTensor(const std::string &name,
                            std::initializer_list<int64_t> dims,
                            std::initializer_list<float> values) {
  pb::TensorProto t;
  t.set_name(name);
  t.set_data_type(pb::TensorProto::FLOAT);
  for (int64_t d : dims)
    t.add_dims(d);
  for (float v : values)
    t.add_float_data(v);
  return t;
}

pb::TensorProto rawTensor(const std::string &name, int32_t dataType,
                          std::initializer_list<int64_t> dims,
                          const std::string &bytes) {
  pb::TensorProto t;
  t.set_name(name);
  t.set_data_type(dataType);
  for (int64_t d : dims)
    t.add_dims(d);
  t.set_raw_data(bytes);
  return t;
}

void ImportTest::SetUp() {
  SmallString<128> path;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("onnx-import-test", path));
  dir = std::string(path);
}

void ImportTest::TearDown() {
  if (!dir.empty())
    llvm::sys::fs::remove_directories(dir);
}

std::string ImportTest::writeFile(const std::string &name,
                                  const std::string &bytes) {
  SmallString<256> path(dir);
  llvm::sys::path::append(path, name);
  EXPECT_FALSE(
      llvm::sys::fs::create_directories(llvm::sys::path::parent_path(path)));
  std::ofstream out(std::string(path), std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), std::streamsize(bytes.size()));
  EXPECT_TRUE(out.good()) << "cannot write " << std::string(path);
  return std::string(path);
}

std::string ImportTest::writeModel(const pb::ModelProto &model,
                                   const std::string &name) {
  std::string bytes;
  EXPECT_TRUE(model.SerializeToString(&bytes));
  return writeFile(name, bytes);
}

OwningOpRef<ModuleOp> ImportTest::importFile(const std::string &path,
                                             const ImportOptions &options) {
  std::string error;
  OwningOpRef<ModuleOp> module = importOnnxModel(ctx, path, options, error);
  EXPECT_TRUE(module) << "import failed: " << error;
  if (!module)
    return nullptr;
  EXPECT_TRUE(error.empty()) << error;
  EXPECT_TRUE(succeeded(verify(*module))) << "imported module does not verify";
  EXPECT_TRUE(mainFunc(*module)) << "no func.func @main";
  return module;
}

OwningOpRef<ModuleOp> ImportTest::import(const pb::ModelProto &model,
                                         const ImportOptions &options) {
  return importFile(writeModel(model), options);
}

std::string ImportTest::importFileError(const std::string &path,
                                        const ImportOptions &options) {
  std::string error;
  OwningOpRef<ModuleOp> module = importOnnxModel(ctx, path, options, error);
  EXPECT_FALSE(module) << "import unexpectedly succeeded";
  EXPECT_FALSE(error.empty()) << "failure without a message";
  EXPECT_EQ(error.find('\n'), std::string::npos)
      << "message is not one line: " << error;
  return error;
}

std::string ImportTest::importError(const pb::ModelProto &model,
                                    const ImportOptions &options) {
  return importFileError(writeModel(model), options);
}

func::FuncOp mainFunc(ModuleOp module) {
  return module.lookupSymbol<func::FuncOp>("main");
}

std::vector<onnx::NodeOp> nodesIn(Block &block) {
  std::vector<onnx::NodeOp> nodes;
  for (auto n : block.getOps<onnx::NodeOp>())
    nodes.push_back(n);
  return nodes;
}

std::vector<onnx::NodeOp> topNodes(ModuleOp module) {
  return nodesIn(mainFunc(module).getBody().front());
}

std::vector<onnx::ConstantOp> topConstants(ModuleOp module) {
  std::vector<onnx::ConstantOp> consts;
  for (auto c : mainFunc(module).getBody().front().getOps<onnx::ConstantOp>())
    consts.push_back(c);
  return consts;
}

onnx::NodeOp findNode(ModuleOp module, llvm::StringRef nodeName) {
  onnx::NodeOp found;
  module.walk([&](onnx::NodeOp n) {
    if (!found && n.getNodeName() == nodeName)
      found = n;
  });
  return found;
}

DenseElementsAttr constantValue(ModuleOp module, llvm::StringRef name) {
  for (auto c : topConstants(module))
    if (c.getName() == name)
      return llvm::dyn_cast<DenseElementsAttr>(c.getValue());
  return {};
}

std::string str(Type type) {
  std::string s;
  llvm::raw_string_ostream os(s);
  type.print(os);
  return s;
}

std::string str(Attribute attr) {
  std::string s;
  llvm::raw_string_ostream os(s);
  attr.print(os);
  return s;
}

} // namespace onnx_tosa::test
