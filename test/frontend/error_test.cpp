//===- error_test.cpp - Importer: unreadable files and broken graphs ------===//
#include "import_test_util.h"

#include <random>

using namespace mlir;
using namespace onnx_tosa;
using namespace onnx_tosa::test;

namespace {

using TP = pb::TensorProto;

/// A valid model with a large initializer, so that cutting its bytes ends
/// inside a length-delimited field.
pb::ModelProto weightyModel() {
  pb::ModelProto m = makeModel();
  auto &g = *m.mutable_graph();
  addInput(g, "x", TP::FLOAT, {64});
  std::vector<float> w(64, 0.5f);
  *g.add_initializer() = rawTensor("w", TP::FLOAT, {64}, bytesOf(w));
  addNode(g, "Add", {"x", "w"}, {"y"}, "add");
  addOutput(g, "y", TP::FLOAT, {64});
  return m;
}

bool startsWith(const std::string &s, const std::string &prefix) {
  return s.rfind(prefix, 0) == 0;
}

} // namespace

TEST_F(ImportTest, MissingModelFile) {
  std::string path = dir + "/does-not-exist.onnx";
  std::string err = importFileError(path);
  EXPECT_TRUE(startsWith(err, "cannot read '" + path + "': ")) << err;
}

TEST_F(ImportTest, TruncatedFile) {
  std::string bytes;
  ASSERT_TRUE(weightyModel().SerializeToString(&bytes));
  ASSERT_GT(bytes.size(), 300u);
  // The untruncated file imports.
  ASSERT_TRUE(importFile(writeFile("full.onnx", bytes)));

  std::string path = writeFile("cut.onnx", bytes.substr(0, bytes.size() / 2));
  EXPECT_EQ(importFileError(path),
            "cannot parse '" + path +
                "' as an ONNX model: not a valid ModelProto (truncated or "
                "corrupt file?)");
}

TEST_F(ImportTest, RandomBytes) {
  std::mt19937 rng(1234);
  std::string bytes(4096, '\0');
  for (char &c : bytes)
    c = char(rng() & 0xff);
  // Start with a byte that is no valid protobuf tag (field number 0), so
  // the content cannot parse whatever follows.
  bytes[0] = '\x00';
  std::string path = writeFile("noise.onnx", bytes);
  EXPECT_EQ(importFileError(path),
            "cannot parse '" + path +
                "' as an ONNX model: not a valid ModelProto (truncated or "
                "corrupt file?)");
}

TEST_F(ImportTest, TextInsteadOfModel) {
  std::string path =
      writeFile("text.onnx", "this is not an onnx model, just some text\n");
  std::string err = importFileError(path);
  EXPECT_TRUE(startsWith(err, "cannot parse '" + path + "'")) << err;
}

TEST_F(ImportTest, EmptyFile) {
  // Zero bytes parse as an empty ModelProto: it has no graph.
  std::string path = writeFile("empty.onnx", "");
  EXPECT_EQ(importFileError(path),
            "'" + path + "' is not an ONNX model: it has no graph");
}

TEST_F(ImportTest, ModelWithoutGraph) {
  pb::ModelProto m = makeModel();
  m.clear_graph();
  std::string path = writeModel(m);
  EXPECT_EQ(importFileError(path),
            "'" + path + "' is not an ONNX model: it has no graph");
}

TEST_F(ImportTest, ModelWithoutIrVersion) {
  pb::ModelProto m = makeModel();
  m.clear_ir_version();
  auto &g = *m.mutable_graph();
  addInput(g, "x", TP::FLOAT, {1});
  addOutput(g, "x", TP::FLOAT, {1});
  std::string path = writeModel(m);
  EXPECT_EQ(importFileError(path),
            "'" + path + "' is not an ONNX model: it has no IR version");
}

TEST_F(ImportTest, NodeInputThatNothingProduces) {
  pb::ModelProto m = makeModel();
  auto &g = *m.mutable_graph();
  addInput(g, "x", TP::FLOAT, {2});
  addNode(g, "Relu", {"x"}, {"r"}, "first");
  addNode(g, "Add", {"r", "phantom"}, {"y"}, "adder");
  addOutput(g, "y", TP::FLOAT, {2});
  EXPECT_EQ(importError(m),
            "node 'adder' (Add, domain 'ai.onnx', opset 17): input 'phantom' "
            "is not produced by an earlier node, an initializer or a graph "
            "input");
}

TEST_F(ImportTest, NodeInputProducedOnlyLaterIsRejected) {
  // Nodes must come in topological order.
  pb::ModelProto m = makeModel(13);
  auto *op = m.add_opset_import();
  op->set_domain("com.acme");
  op->set_version(4);
  auto &g = *m.mutable_graph();
  addInput(g, "x", TP::FLOAT, {2});
  addNode(g, "Thing", {"later"}, {"y"}, "early", "com.acme");
  addNode(g, "Relu", {"x"}, {"later"}, "late");
  addOutput(g, "y", TP::FLOAT, {2});
  EXPECT_EQ(importError(m),
            "node 'early' (Thing, domain 'com.acme', opset 4): input 'later' "
            "is not produced by an earlier node, an initializer or a graph "
            "input");
}

TEST_F(ImportTest, GraphOutputThatNothingProduces) {
  pb::ModelProto m = makeModel();
  auto &g = *m.mutable_graph();
  addInput(g, "x", TP::FLOAT, {2});
  addOutput(g, "nowhere", TP::FLOAT, {2});
  EXPECT_EQ(importError(m), "graph output 'nowhere' is not produced by any "
                            "node, initializer or input");
}

TEST_F(ImportTest, NonTensorGraphInput) {
  pb::ModelProto m = makeModel();
  auto &g = *m.mutable_graph();
  g.add_input()->set_name("seq"); // no type: e.g. a sequence in full ONNX
  addOutput(g, "seq", TP::FLOAT, {1});
  EXPECT_EQ(importError(m), "graph input 'seq' is an untyped value, which is "
                            "not supported (tensors, sequences of tensors and "
                            "optionals of those are)");
}

TEST_F(ImportTest, ModelParsedByFullOnnxSchemaFieldsIsAccepted) {
  // Fields outside our proto subset (doc strings, metadata, ...) are skipped.
  pb::ModelProto m = makeModel();
  auto &g = *m.mutable_graph();
  addInput(g, "x", TP::FLOAT, {1});
  addOutput(g, "x", TP::FLOAT, {1});
  std::string bytes;
  ASSERT_TRUE(m.SerializeToString(&bytes));
  // ModelProto.doc_string (field 6, string) and metadata_props (field 14).
  const std::string doc = "a doc string";
  bytes += char((6 << 3) | 2);
  bytes += char(doc.size());
  bytes += doc;
  const std::string kv = "\x0a\x01k\x12\x01v"; // key "k", value "v"
  bytes += char((14 << 3) | 2);
  bytes += char(kv.size());
  bytes += kv;
  auto module = importFile(writeFile("extra.onnx", bytes));
  ASSERT_TRUE(module);
  EXPECT_EQ(mainFunc(*module).getNumArguments(), 1u);
}

TEST_F(ImportTest, DuplicateGraphInputIsRejected) {
  pb::ModelProto m = makeModel();
  auto &g = *m.mutable_graph();
  addInput(g, "x", TP::FLOAT, {1});
  addInput(g, "y", TP::FLOAT, {1});
  addInput(g, "x", TP::FLOAT, {1});
  addOutput(g, "x", TP::FLOAT, {1});
  EXPECT_EQ(importError(m), "graph input 'x' is listed more than once");
}

TEST_F(ImportTest, InitializerListedTwiceAsInputIsStillOneConstant) {
  pb::ModelProto m = makeModel();
  auto &g = *m.mutable_graph();
  addInput(g, "w", TP::FLOAT, {1});
  addInput(g, "x", TP::FLOAT, {1});
  addInput(g, "w", TP::FLOAT, {1});
  *g.add_initializer() = floatTensor("w", {1}, {2.0f});
  addNode(g, "Mul", {"x", "w"}, {"y"}, "mul");
  addOutput(g, "y", TP::FLOAT, {1});
  auto module = import(m);
  ASSERT_TRUE(module);
  func::FuncOp f = mainFunc(*module);
  ASSERT_EQ(f.getNumArguments(), 1u);
  auto name = f.getArgAttrOfType<StringAttr>(0, "onnx.name");
  ASSERT_TRUE(name);
  EXPECT_EQ(name.getValue(), "x");
  EXPECT_EQ(topConstants(*module).size(), 1u);
}

TEST_F(ImportTest, ValueDefinedTwiceIsRejected) {
  // The later definition silently won before.
  pb::ModelProto m = makeModel();
  auto &g = *m.mutable_graph();
  addInput(g, "x", TP::FLOAT, {2});
  addNode(g, "Relu", {"x"}, {"y"}, "first");
  addNode(g, "Neg", {"x"}, {"y"}, "second");
  addOutput(g, "y", TP::FLOAT, {2});
  std::string err = importError(m);
  EXPECT_NE(err.find("node 'second'"), std::string::npos) << err;
  EXPECT_NE(err.find("output 'y' is already defined in this graph"),
            std::string::npos)
      << err;
  // A node may not redefine a graph input either.
  pb::ModelProto n = makeModel();
  auto &h = *n.mutable_graph();
  addInput(h, "x", TP::FLOAT, {2});
  addNode(h, "Relu", {"x"}, {"x"}, "shadow");
  addOutput(h, "x", TP::FLOAT, {2});
  EXPECT_NE(importError(n).find("output 'x' is already defined"),
            std::string::npos);
}

TEST_F(ImportTest, AttributeGivenTwiceIsRejected) {
  pb::ModelProto m = makeModel();
  auto &g = *m.mutable_graph();
  addInput(g, "x", TP::FLOAT, {2});
  pb::NodeProto *node = addNode(g, "LeakyRelu", {"x"}, {"y"}, "leaky");
  for (float alpha : {0.1f, 0.2f}) {
    pb::AttributeProto *a = node->add_attribute();
    a->set_name("alpha");
    a->set_type(pb::AttributeProto::FLOAT);
    a->set_f(alpha);
  }
  addOutput(g, "y", TP::FLOAT, {2});
  std::string err = importError(m);
  EXPECT_NE(err.find("node 'leaky'"), std::string::npos) << err;
  EXPECT_NE(err.find("attribute 'alpha' is given more than once"),
            std::string::npos)
      << err;
}

TEST_F(ImportTest, FutureIrVersionAndOpsetAreRejected) {
  pb::ModelProto m = weightyModel();
  m.set_ir_version(99);
  std::string err = importError(m);
  EXPECT_NE(err.find("has ONNX IR version 99; onnx-tosa reads IR versions up "
                     "to 14"),
            std::string::npos)
      << err;
  pb::ModelProto n = makeModel(99);
  EXPECT_NE(importError(n).find("imports opset 99 of the ONNX domain; "
                                "onnx-tosa knows opsets 1 to 28"),
            std::string::npos)
      << importError(n);
}
