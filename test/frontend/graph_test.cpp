//===- graph_test.cpp - Importer: graphs, nodes, types, opsets, shapes ----===//
#include "import_test_util.h"

using namespace mlir;
using namespace onnx_tosa;
using namespace onnx_tosa::test;

namespace {

using TP = pb::TensorProto;

StringRef onnxName(DictionaryAttr attrs) {
  if (!attrs)
    return {};
  auto s = attrs.getAs<StringAttr>("onnx.name");
  return s ? s.getValue() : StringRef();
}

StringRef argName(func::FuncOp f, unsigned i) {
  return onnxName(f.getArgAttrDict(i));
}

StringRef resultName(func::FuncOp f, unsigned i) {
  return onnxName(f.getResultAttrDict(i));
}

} // namespace

//===----------------------------------------------------------------------===//
// Graph inputs, outputs and the function signature
//===----------------------------------------------------------------------===//

TEST_F(ImportTest, SignatureFollowsGraphInputsAndOutputs) {
  pb::ModelProto m = makeModel();
  auto &g = *m.mutable_graph();
  addInput(g, "x", TP::FLOAT, {1, 3, 4});
  addInput(g, "idx", TP::INT64, {2});
  addInput(g, "flag", TP::BOOL, {});
  addNode(g, "Gather", {"x", "idx"}, {"y"}, "gather");
  addNode(g, "Not", {"flag"}, {"nf"}, "not");
  addOutput(g, "y", TP::FLOAT, {1, 2, 4});
  addOutput(g, "nf", TP::BOOL, {});

  auto module = import(m);
  ASSERT_TRUE(module);
  func::FuncOp f = mainFunc(*module);
  EXPECT_EQ(str(f.getFunctionType()),
            "(tensor<1x3x4xf32>, tensor<2xi64>, tensor<i1>) -> "
            "(tensor<1x2x4xf32>, tensor<i1>)");
  ASSERT_EQ(f.getNumArguments(), 3u);
  EXPECT_EQ(argName(f, 0), "x");
  EXPECT_EQ(argName(f, 1), "idx");
  EXPECT_EQ(argName(f, 2), "flag");
  ASSERT_EQ(f.getNumResults(), 2u);
  EXPECT_EQ(resultName(f, 0), "y");
  EXPECT_EQ(resultName(f, 1), "nf");

  // The return hands back the nodes' results, in graph output order.
  auto ret = cast<func::ReturnOp>(f.getBody().front().getTerminator());
  auto nodes = topNodes(*module);
  ASSERT_EQ(nodes.size(), 2u);
  ASSERT_EQ(ret.getNumOperands(), 2u);
  EXPECT_EQ(ret.getOperand(0), nodes[0]->getResult(0));
  EXPECT_EQ(ret.getOperand(1), nodes[1]->getResult(0));
  // Node operands are the function's arguments.
  EXPECT_EQ(nodes[0]->getOperand(0), f.getArgument(0));
  EXPECT_EQ(nodes[0]->getOperand(1), f.getArgument(1));
  EXPECT_EQ(nodes[1]->getOperand(0), f.getArgument(2));
}

TEST_F(ImportTest, ModuleRecordsIrVersionOpsetsAndGraphName) {
  pb::ModelProto m = makeModel(13);
  m.set_ir_version(7);
  auto *op = m.add_opset_import();
  op->set_domain("com.example");
  op->set_version(2);
  auto &g = *m.mutable_graph();
  g.set_name("my_graph");
  addInput(g, "x", TP::FLOAT, {2});
  addOutput(g, "x", TP::FLOAT, {2});

  auto module = import(m);
  ASSERT_TRUE(module);
  Operation *mod = module->getOperation();
  auto ir = mod->getAttrOfType<IntegerAttr>("onnx.ir_version");
  ASSERT_TRUE(ir);
  EXPECT_EQ(ir.getInt(), 7);
  auto name = mod->getAttrOfType<StringAttr>("onnx.graph_name");
  ASSERT_TRUE(name);
  EXPECT_EQ(name.getValue(), "my_graph");
  auto opsets = mod->getAttrOfType<DictionaryAttr>("onnx.opset_import");
  ASSERT_TRUE(opsets);
  EXPECT_EQ(opsets.size(), 2u);
  auto def = opsets.getAs<IntegerAttr>("ai.onnx");
  ASSERT_TRUE(def);
  EXPECT_EQ(def.getInt(), 13);
  auto custom = opsets.getAs<IntegerAttr>("com.example");
  ASSERT_TRUE(custom);
  EXPECT_EQ(custom.getInt(), 2);
}

TEST_F(ImportTest, UnnamedGraphHasNoGraphNameAttribute) {
  pb::ModelProto m = makeModel();
  auto &g = *m.mutable_graph();
  g.clear_name();
  addInput(g, "x", TP::FLOAT, {1});
  addOutput(g, "x", TP::FLOAT, {1});
  auto module = import(m);
  ASSERT_TRUE(module);
  EXPECT_FALSE((*module)->hasAttr("onnx.graph_name"));
}

TEST_F(ImportTest, InitializerListedAsInputBecomesConstantNotArgument) {
  pb::ModelProto m = makeModel();
  auto &g = *m.mutable_graph();
  addInput(g, "w", TP::FLOAT, {2}); // also an initializer: not an argument
  addInput(g, "x", TP::FLOAT, {2});
  *g.add_initializer() = floatTensor("w", {2}, {0.5f, -1.5f});
  *g.add_initializer() = floatTensor("b", {2}, {3.0f, 4.0f});
  addNode(g, "Mul", {"x", "w"}, {"xw"}, "mul");
  addNode(g, "Add", {"xw", "b"}, {"y"}, "add");
  addOutput(g, "y", TP::FLOAT, {2});

  auto module = import(m);
  ASSERT_TRUE(module);
  func::FuncOp f = mainFunc(*module);
  ASSERT_EQ(f.getNumArguments(), 1u);
  EXPECT_EQ(argName(f, 0), "x");
  EXPECT_EQ(str(f.getFunctionType()), "(tensor<2xf32>) -> tensor<2xf32>");

  auto consts = topConstants(*module);
  ASSERT_EQ(consts.size(), 2u);
  EXPECT_EQ(consts[0].getName(), "w");
  EXPECT_EQ(consts[1].getName(), "b");
  EXPECT_EQ(str(consts[0].getType()), "tensor<2xf32>");
  auto w = constantValue(*module, "w");
  ASSERT_TRUE(w);
  auto wv = llvm::to_vector(w.getValues<float>());
  EXPECT_EQ(wv, (SmallVector<float>{0.5f, -1.5f}));

  auto nodes = topNodes(*module);
  ASSERT_EQ(nodes.size(), 2u);
  EXPECT_EQ(nodes[0]->getOperand(0), f.getArgument(0));
  EXPECT_EQ(nodes[0]->getOperand(1), consts[0].getResult());
  EXPECT_EQ(nodes[1]->getOperand(0), nodes[0]->getResult(0));
  EXPECT_EQ(nodes[1]->getOperand(1), consts[1].getResult());
}

TEST_F(ImportTest, InitializerBetweenInputsKeepsArgumentNamesAligned) {
  // The argument attributes skip the initializer-input in the middle.
  pb::ModelProto m = makeModel();
  auto &g = *m.mutable_graph();
  addInput(g, "a", TP::FLOAT, {1});
  addInput(g, "w", TP::FLOAT, {1});
  addInput(g, "c", TP::INT32, {1});
  *g.add_initializer() = floatTensor("w", {1}, {2.0f});
  addNode(g, "Add", {"a", "w"}, {"s"}, "add");
  addOutput(g, "s", TP::FLOAT, {1});
  addOutput(g, "c", TP::INT32, {1});

  auto module = import(m);
  ASSERT_TRUE(module);
  func::FuncOp f = mainFunc(*module);
  ASSERT_EQ(f.getNumArguments(), 2u);
  EXPECT_EQ(argName(f, 0), "a");
  EXPECT_EQ(argName(f, 1), "c");
  EXPECT_EQ(str(f.getArgument(1).getType()), "tensor<1xi32>");
  EXPECT_EQ(resultName(f, 0), "s");
  EXPECT_EQ(resultName(f, 1), "c");
}

TEST_F(ImportTest, GraphOutputsMayBeInputsOrInitializers) {
  pb::ModelProto m = makeModel();
  auto &g = *m.mutable_graph();
  addInput(g, "x", TP::INT64, {3});
  *g.add_initializer() = floatTensor("k", {}, {7.0f});
  addOutput(g, "k", TP::FLOAT, {});
  addOutput(g, "x", TP::INT64, {3});

  auto module = import(m);
  ASSERT_TRUE(module);
  func::FuncOp f = mainFunc(*module);
  EXPECT_EQ(str(f.getFunctionType()),
            "(tensor<3xi64>) -> (tensor<f32>, tensor<3xi64>)");
  auto ret = cast<func::ReturnOp>(f.getBody().front().getTerminator());
  auto consts = topConstants(*module);
  ASSERT_EQ(consts.size(), 1u);
  EXPECT_EQ(ret.getOperand(0), consts[0].getResult());
  EXPECT_EQ(ret.getOperand(1), f.getArgument(0));
  EXPECT_TRUE(topNodes(*module).empty());
}

//===----------------------------------------------------------------------===//
// Nodes: identity, operands, opsets per domain
//===----------------------------------------------------------------------===//

TEST_F(ImportTest, NodeCarriesOpTypeDomainOpsetAndName) {
  pb::ModelProto m = makeModel(13);
  auto &g = *m.mutable_graph();
  addInput(g, "x", TP::FLOAT, {4});
  addNode(g, "Relu", {"x"}, {"r"}, "relu_1");
  addNode(g, "Sigmoid", {"r"}, {"s"}); // no name
  addOutput(g, "s", TP::FLOAT, {4});

  auto module = import(m);
  ASSERT_TRUE(module);
  auto nodes = topNodes(*module);
  ASSERT_EQ(nodes.size(), 2u);
  EXPECT_EQ(nodes[0].getOpType(), "Relu");
  EXPECT_EQ(nodes[0].getDomain(), "");
  EXPECT_EQ(nodes[0].getOpset(), 13);
  EXPECT_EQ(nodes[0].getNodeName(), "relu_1");
  EXPECT_TRUE(nodes[0].getAttrs().empty());
  EXPECT_EQ(nodes[0]->getNumRegions(), 0u);
  EXPECT_EQ(nodes[1].getOpType(), "Sigmoid");
  EXPECT_EQ(nodes[1].getNodeName(), "");
  EXPECT_EQ(nodes[1]->getOperand(0), nodes[0]->getResult(0));

  // Locations name the node (or its op type when it has no name).
  auto loc0 = dyn_cast<NameLoc>(nodes[0]->getLoc());
  ASSERT_TRUE(loc0);
  EXPECT_EQ(loc0.getName().getValue(), "relu_1");
  auto loc1 = dyn_cast<NameLoc>(nodes[1]->getLoc());
  ASSERT_TRUE(loc1);
  EXPECT_EQ(loc1.getName().getValue(), "Sigmoid");
}

TEST_F(ImportTest, OpsetImportPerDomain) {
  pb::ModelProto m = makeModel(11);
  auto *custom = m.add_opset_import();
  custom->set_domain("com.example");
  custom->set_version(3);
  auto &g = *m.mutable_graph();
  addInput(g, "x", TP::FLOAT, {2});
  addNode(g, "Abs", {"x"}, {"a"}, "default_domain");
  addNode(g, "Neg", {"a"}, {"b"}, "explicit_ai_onnx", "ai.onnx");
  addNode(g, "Fancy", {"b"}, {"c"}, "custom", "com.example");
  addNode(g, "Other", {"c"}, {"d"}, "unimported", "org.unimported");
  addOutput(g, "d", TP::FLOAT, {2});

  auto module = import(m);
  ASSERT_TRUE(module);
  auto nodes = topNodes(*module);
  ASSERT_EQ(nodes.size(), 4u);
  // "" and "ai.onnx" are the same domain, stored as "".
  EXPECT_EQ(nodes[0].getDomain(), "");
  EXPECT_EQ(nodes[0].getOpset(), 11);
  EXPECT_EQ(nodes[1].getDomain(), "");
  EXPECT_EQ(nodes[1].getOpset(), 11);
  EXPECT_EQ(nodes[2].getDomain(), "com.example");
  EXPECT_EQ(nodes[2].getOpset(), 3);
  EXPECT_EQ(nodes[2].getOpType(), "Fancy");
  // A domain without an opset import gets version 1.
  EXPECT_EQ(nodes[3].getDomain(), "org.unimported");
  EXPECT_EQ(nodes[3].getOpset(), 1);
}

TEST_F(ImportTest, OpsetImportSpelledAiOnnxIsTheDefaultDomain) {
  pb::ModelProto m = makeModel();
  m.clear_opset_import();
  auto *op = m.add_opset_import();
  op->set_domain("ai.onnx");
  op->set_version(19);
  auto &g = *m.mutable_graph();
  addInput(g, "x", TP::FLOAT, {2});
  addNode(g, "Abs", {"x"}, {"a"}, "abs");
  addNode(g, "Neg", {"a"}, {"b"}, "neg", "ai.onnx");
  addOutput(g, "b", TP::FLOAT, {2});

  auto module = import(m);
  ASSERT_TRUE(module);
  auto nodes = topNodes(*module);
  ASSERT_EQ(nodes.size(), 2u);
  EXPECT_EQ(nodes[0].getDomain(), "");
  EXPECT_EQ(nodes[0].getOpset(), 19);
  EXPECT_EQ(nodes[1].getDomain(), "");
  EXPECT_EQ(nodes[1].getOpset(), 19);
  auto opsets =
      (*module)->getAttrOfType<DictionaryAttr>("onnx.opset_import");
  ASSERT_TRUE(opsets);
  EXPECT_EQ(opsets.size(), 1u);
  ASSERT_TRUE(opsets.getAs<IntegerAttr>("ai.onnx"));
  EXPECT_EQ(opsets.getAs<IntegerAttr>("ai.onnx").getInt(), 19);
}

TEST_F(ImportTest, MultipleOutputsAndUnusedOptionalOutputs) {
  pb::ModelProto m = makeModel();
  auto &g = *m.mutable_graph();
  addInput(g, "x", TP::FLOAT, {6});
  // Split with three outputs, the middle one not wanted (empty name).
  addNode(g, "Split", {"x"}, {"p0", "", "p2"}, "split");
  addValueInfo(g, "p0", TP::FLOAT, {2});
  addNode(g, "Concat", {"p2", "p0"}, {"y"}, "concat");
  addOutput(g, "y", TP::FLOAT, {4});

  auto module = import(m);
  ASSERT_TRUE(module);
  auto nodes = topNodes(*module);
  ASSERT_EQ(nodes.size(), 2u);
  ASSERT_EQ(nodes[0]->getNumResults(), 3u);
  EXPECT_EQ(str(nodes[0]->getResult(0).getType()), "tensor<2xf32>");
  EXPECT_EQ(str(nodes[0]->getResult(1).getType()), "!onnx.unknown");
  EXPECT_EQ(str(nodes[0]->getResult(2).getType()), "!onnx.unknown");
  EXPECT_EQ(nodes[1]->getOperand(0), nodes[0]->getResult(2));
  EXPECT_EQ(nodes[1]->getOperand(1), nodes[0]->getResult(0));
}

//===----------------------------------------------------------------------===//
// Types of intermediate values
//===----------------------------------------------------------------------===//

TEST_F(ImportTest, ValueInfoTypesIntermediateResults) {
  pb::ModelProto m = makeModel();
  auto &g = *m.mutable_graph();
  addInput(g, "x", TP::FLOAT, {2, 3});
  addNode(g, "Relu", {"x"}, {"typed"}, "n1");
  addNode(g, "Relu", {"typed"}, {"dyn"}, "n2");
  addNode(g, "Relu", {"dyn"}, {"untyped"}, "n3");
  addNode(g, "Cast", {"untyped"}, {"unranked"}, "n4");
  addNode(g, "Relu", {"unranked"}, {"halfknown"}, "n5");
  addNode(g, "Relu", {"halfknown"}, {"y"}, "n6");
  addValueInfo(g, "typed", TP::FLOAT, {2, 3});
  // Symbolic or unknown dims in value_info become dynamic (no error:
  // only graph inputs must be static).
  addValueInfo(g, "dyn", TP::FLOAT, {"n", 3});
  addValueInfo(g, "halfknown", TP::FLOAT, {2, -1});
  // A value_info with an element type but no shape: unranked.
  auto *vi = g.add_value_info();
  vi->set_name("unranked");
  vi->mutable_type()->mutable_tensor_type()->set_elem_type(TP::INT32);
  addOutput(g, "y", TP::FLOAT, {2, 3});

  auto module = import(m);
  ASSERT_TRUE(module);
  auto nodes = topNodes(*module);
  ASSERT_EQ(nodes.size(), 6u);
  EXPECT_EQ(str(nodes[0]->getResult(0).getType()), "tensor<2x3xf32>");
  EXPECT_EQ(str(nodes[1]->getResult(0).getType()), "tensor<?x3xf32>");
  EXPECT_EQ(str(nodes[2]->getResult(0).getType()), "!onnx.unknown");
  EXPECT_TRUE(isa<onnx::UnknownType>(nodes[2]->getResult(0).getType()));
  EXPECT_EQ(str(nodes[3]->getResult(0).getType()), "tensor<*xi32>");
  EXPECT_EQ(str(nodes[4]->getResult(0).getType()), "tensor<2x?xf32>");
  EXPECT_EQ(str(nodes[5]->getResult(0).getType()), "tensor<2x3xf32>");
}

TEST_F(ImportTest, GraphOutputTypesAndUntypedOutputs) {
  pb::ModelProto m = makeModel();
  auto &g = *m.mutable_graph();
  addInput(g, "x", TP::FLOAT16, {4});
  addNode(g, "Relu", {"x"}, {"a"}, "n1");
  addNode(g, "Relu", {"x"}, {"b"}, "n2");
  addNode(g, "Shape", {"x"}, {"c"}, "n3");
  addOutput(g, "a", TP::FLOAT16, {"batch"}); // symbolic output dim: dynamic
  addUntypedOutput(g, "b");
  addOutput(g, "c", TP::INT64, {1});

  auto module = import(m);
  ASSERT_TRUE(module);
  func::FuncOp f = mainFunc(*module);
  EXPECT_EQ(str(f.getFunctionType()),
            "(tensor<4xf16>) -> (tensor<?xf16>, !onnx.unknown, "
            "tensor<1xi64>)");
  EXPECT_EQ(resultName(f, 1), "b");
}

TEST_F(ImportTest, EveryElementType) {
  struct Case {
    int32_t onnx;
    const char *mlir;
  } cases[] = {
      {TP::FLOAT, "tensor<1xf32>"},    {TP::DOUBLE, "tensor<1xf64>"},
      {TP::FLOAT16, "tensor<1xf16>"},  {TP::BFLOAT16, "tensor<1xbf16>"},
      {TP::BOOL, "tensor<1xi1>"},      {TP::INT8, "tensor<1xi8>"},
      {TP::INT16, "tensor<1xi16>"},    {TP::INT32, "tensor<1xi32>"},
      {TP::INT64, "tensor<1xi64>"},    {TP::UINT8, "tensor<1xui8>"},
      {TP::UINT16, "tensor<1xui16>"},  {TP::UINT32, "tensor<1xui32>"},
      {TP::UINT64, "tensor<1xui64>"},
  };
  pb::ModelProto m = makeModel();
  auto &g = *m.mutable_graph();
  for (const Case &c : cases) {
    std::string name = "in" + std::to_string(c.onnx);
    addInput(g, name, c.onnx, {1});
    addOutput(g, name, c.onnx, {1});
  }
  auto module = import(m);
  ASSERT_TRUE(module);
  func::FuncOp f = mainFunc(*module);
  ASSERT_EQ(f.getNumArguments(), std::size(cases));
  for (auto [i, c] : llvm::enumerate(cases))
    EXPECT_EQ(str(f.getArgument(i).getType()), c.mlir) << "ONNX type " << c.onnx;
}

//===----------------------------------------------------------------------===//
// Absent optional inputs
//===----------------------------------------------------------------------===//

TEST_F(ImportTest, EmptyInputNamesBecomeOneNoneValue) {
  pb::ModelProto m = makeModel();
  auto &g = *m.mutable_graph();
  addInput(g, "x", TP::FLOAT, {4});
  *g.add_initializer() = floatTensor("hi", {}, {6.0f});
  // Clip(x, <no min>, hi) and Pad(c, <three absent optional inputs>).
  addNode(g, "Clip", {"x", "", "hi"}, {"c"}, "clip");
  addNode(g, "Pad", {"c", "", "", ""}, {"y"}, "pad");
  addOutput(g, "y", TP::FLOAT, {4});

  auto module = import(m);
  ASSERT_TRUE(module);
  func::FuncOp f = mainFunc(*module);
  std::vector<onnx::NoneOp> nones;
  f.walk([&](onnx::NoneOp n) { nones.push_back(n); });
  ASSERT_EQ(nones.size(), 1u) << "one onnx.none per graph";
  Value none = nones[0].getResult();
  EXPECT_TRUE(isa<NoneType>(none.getType()));

  auto nodes = topNodes(*module);
  ASSERT_EQ(nodes.size(), 2u);
  ASSERT_EQ(nodes[0]->getNumOperands(), 3u);
  EXPECT_EQ(nodes[0]->getOperand(0), f.getArgument(0));
  EXPECT_EQ(nodes[0]->getOperand(1), none);
  EXPECT_EQ(nodes[0]->getOperand(2), topConstants(*module)[0].getResult());
  ASSERT_EQ(nodes[1]->getNumOperands(), 4u);
  EXPECT_EQ(nodes[1]->getOperand(0), nodes[0]->getResult(0));
  for (unsigned i = 1; i < 4; ++i)
    EXPECT_EQ(nodes[1]->getOperand(i), none) << "operand " << i;
  EXPECT_EQ(str(FunctionType::get(&ctx, nodes[1]->getOperandTypes(),
                                  nodes[1]->getResultTypes())),
            "(!onnx.unknown, none, none, none) -> tensor<4xf32>");
}

TEST_F(ImportTest, NoNoneOpWithoutEmptyInputs) {
  pb::ModelProto m = makeModel();
  auto &g = *m.mutable_graph();
  addInput(g, "x", TP::FLOAT, {4});
  addNode(g, "Relu", {"x"}, {"y"}, "relu");
  addOutput(g, "y", TP::FLOAT, {4});
  auto module = import(m);
  ASSERT_TRUE(module);
  unsigned count = 0;
  module->walk([&](onnx::NoneOp) { ++count; });
  EXPECT_EQ(count, 0u);
}

//===----------------------------------------------------------------------===//
// --input-shape and symbolic dimensions
//===----------------------------------------------------------------------===//

TEST_F(ImportTest, SymbolicDimsWithoutOverrideNameInputAndDim) {
  pb::ModelProto m = makeModel();
  auto &g = *m.mutable_graph();
  addInput(g, "images", TP::FLOAT, {"batch", 3, 224, 224});
  addOutput(g, "images", TP::FLOAT, {"batch", 3, 224, 224});
  std::string err = importError(m);
  EXPECT_NE(err.find("graph input 'images'"), std::string::npos) << err;
  EXPECT_NE(err.find("symbolic dimension 'batch' at axis 0"),
            std::string::npos)
      << err;
  EXPECT_NE(err.find("--input-shape images="), std::string::npos) << err;
}

TEST_F(ImportTest, SymbolicDimGetsItsValueEverywhere) {
  // --dim N=5: the input, the output and an intermediate's value_info that
  // name N all get 5.
  pb::ModelProto m = makeModel();
  auto &g = *m.mutable_graph();
  pb::ValueInfoProto *x = addInput(g, "x", TP::FLOAT, {1, 3});
  x->mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim(0)
      ->set_dim_param("N");
  addNode(g, "Relu", {"x"}, {"r"}, "relu");
  addNode(g, "Neg", {"r"}, {"y"}, "neg");
  pb::ValueInfoProto *r = addValueInfo(g, "r", TP::FLOAT, {1, 3});
  r->mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim(0)
      ->set_dim_param("N");
  pb::ValueInfoProto *y = addOutput(g, "y", TP::FLOAT, {1, 3});
  y->mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim(0)
      ->set_dim_param("N");
  std::string err = importError(m);
  EXPECT_NE(err.find("graph input 'x' has symbolic dimension 'N' at axis 0; "
                     "give it values with --dim N=V[,V...]"),
            std::string::npos)
      << err;
  ImportOptions opts;
  opts.dimValues["N"] = 5;
  auto module = import(m, opts);
  ASSERT_TRUE(module);
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os);
  EXPECT_NE(text.find("(tensor<5x3xf32>) -> tensor<5x3xf32>"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("?x3"), std::string::npos) << text;
}

TEST_F(ImportTest, UnknownDimWithoutParamIsReportedToo) {
  pb::ModelProto m = makeModel();
  auto &g = *m.mutable_graph();
  addInput(g, "x", TP::FLOAT, {1, -1}); // neither value nor param
  addOutput(g, "x", TP::FLOAT, {1, -1});
  std::string err = importError(m);
  EXPECT_NE(err.find("graph input 'x' has an unknown dimension at axis 1"),
            std::string::npos)
      << err;
}

TEST_F(ImportTest, InputShapeOverrideFixesSymbolicDims) {
  pb::ModelProto m = makeModel();
  auto &g = *m.mutable_graph();
  addInput(g, "x", TP::FLOAT, {"N", 3, "H", "W"});
  addInput(g, "s", TP::INT64, {2});
  addNode(g, "Relu", {"x"}, {"y"}, "relu");
  addOutput(g, "y", TP::FLOAT, {"N", 3, "H", "W"});
  addOutput(g, "s", TP::INT64, {2});

  ImportOptions opts;
  opts.inputShapes["x"] = {2, 3, 8, 16};
  auto module = import(m, opts);
  ASSERT_TRUE(module);
  func::FuncOp f = mainFunc(*module);
  EXPECT_EQ(str(f.getArgument(0).getType()), "tensor<2x3x8x16xf32>");
  EXPECT_EQ(str(f.getArgument(1).getType()), "tensor<2xi64>");
  // The output keeps its declared (dynamic) type; legalization refines it.
  EXPECT_EQ(str(f.getResultTypes()[0]), "tensor<?x3x?x?xf32>");
}

TEST_F(ImportTest, InputShapeOverrideReplacesStaticShapeOfSameRank) {
  pb::ModelProto m = makeModel();
  auto &g = *m.mutable_graph();
  addInput(g, "x", TP::INT8, {1, 3});
  addOutput(g, "x", TP::INT8, {1, 3});
  ImportOptions opts;
  opts.inputShapes["x"] = {5, 3};
  auto module = import(m, opts);
  ASSERT_TRUE(module);
  EXPECT_EQ(str(mainFunc(*module).getArgument(0).getType()),
            "tensor<5x3xi8>");
}

TEST_F(ImportTest, InputShapeOverrideGivesShapelessInputAShape) {
  pb::ModelProto m = makeModel();
  auto &g = *m.mutable_graph();
  auto *in = g.add_input();
  in->set_name("x");
  in->mutable_type()->mutable_tensor_type()->set_elem_type(TP::FLOAT);
  addOutput(g, "x", TP::FLOAT, {1, 2, 3});

  EXPECT_NE(importError(m).find("graph input 'x' has no shape; give one with "
                                "--input-shape x="),
            std::string::npos);

  ImportOptions opts;
  opts.inputShapes["x"] = {1, 2, 3};
  auto module = import(m, opts);
  ASSERT_TRUE(module);
  EXPECT_EQ(str(mainFunc(*module).getArgument(0).getType()),
            "tensor<1x2x3xf32>");

  // A scalar override.
  opts.inputShapes["x"] = {};
  module = import(m, opts);
  ASSERT_TRUE(module);
  EXPECT_EQ(str(mainFunc(*module).getArgument(0).getType()), "tensor<f32>");
}

TEST_F(ImportTest, InputShapeOverrideWithWrongRank) {
  pb::ModelProto m = makeModel();
  auto &g = *m.mutable_graph();
  addInput(g, "x", TP::FLOAT, {"N", 3});
  addOutput(g, "x", TP::FLOAT, {"N", 3});
  ImportOptions opts;
  opts.inputShapes["x"] = {1, 3, 4};
  std::string err = importError(m, opts);
  EXPECT_EQ(err, "--input-shape for 'x' has rank 3 but the model declares "
                 "rank 2");
}

TEST_F(ImportTest, InputShapeOverrideForUnknownName) {
  pb::ModelProto m = makeModel();
  auto &g = *m.mutable_graph();
  addInput(g, "a", TP::FLOAT, {1});
  addInput(g, "b", TP::FLOAT, {1});
  addOutput(g, "a", TP::FLOAT, {1});
  ImportOptions opts;
  opts.inputShapes["nope"] = {1};
  std::string err = importError(m, opts);
  EXPECT_EQ(err, "--input-shape names 'nope', which is not a graph input "
                 "(inputs: a, b)");
}

TEST(ParseShape, AcceptsDimsAndScalar) {
  std::vector<int64_t> dims{99};
  EXPECT_TRUE(parseShape("1x3x224x224", dims));
  EXPECT_EQ(dims, (std::vector<int64_t>{1, 3, 224, 224}));
  EXPECT_TRUE(parseShape("7", dims));
  EXPECT_EQ(dims, (std::vector<int64_t>{7}));
  EXPECT_TRUE(parseShape("0x4", dims));
  EXPECT_EQ(dims, (std::vector<int64_t>{0, 4}));
  EXPECT_TRUE(parseShape("", dims));
  EXPECT_TRUE(dims.empty());
}

TEST(ParseShape, RejectsMalformedText) {
  std::vector<int64_t> dims;
  for (const char *bad : {"1x-1", "1xx2", "x3", "3x", "ax2", "1,2", " 1",
                          "1x3.5", "?"})
    EXPECT_FALSE(parseShape(bad, dims)) << "'" << bad << "'";
}

//===----------------------------------------------------------------------===//
// Nested scopes
//===----------------------------------------------------------------------===//

TEST_F(ImportTest, ValuesDefinedAfterASubgraphNodeAreVisible) {
  // After a node with subgraphs, later nodes and the graph outputs must
  // still see the outer graph's values (the nested graphs' scopes come and
  // go while the outer scope is live).
  pb::ModelProto m = makeModel();
  auto &g = *m.mutable_graph();
  addInput(g, "x", TP::FLOAT, {2});
  addInput(g, "c", TP::BOOL, {});
  addNode(g, "Relu", {"x"}, {"r"}, "before");
  auto *ifNode = addNode(g, "If", {"c"}, {"o"}, "if");
  for (const char *branch : {"then_branch", "else_branch"}) {
    auto *a = ifNode->add_attribute();
    a->set_name(branch);
    a->set_type(pb::AttributeProto::GRAPH);
    auto &body = *a->mutable_g();
    addNode(body, "Identity", {"r"}, {std::string(branch) + "_out"});
    addOutput(body, std::string(branch) + "_out", TP::FLOAT, {2});
  }
  addNode(g, "Add", {"o", "r"}, {"y"}, "after");
  addOutput(g, "y", TP::FLOAT, {2});
  addOutput(g, "o", TP::FLOAT, {2});

  auto module = import(m);
  ASSERT_TRUE(module);
  auto nodes = topNodes(*module);
  ASSERT_EQ(nodes.size(), 3u);
  EXPECT_EQ(nodes[2].getNodeName(), "after");
  EXPECT_EQ(nodes[2]->getOperand(0), nodes[1]->getResult(0));
  EXPECT_EQ(nodes[2]->getOperand(1), nodes[0]->getResult(0));
  auto ret = cast<func::ReturnOp>(
      mainFunc(*module).getBody().front().getTerminator());
  EXPECT_EQ(ret.getOperand(0), nodes[2]->getResult(0));
  EXPECT_EQ(ret.getOperand(1), nodes[1]->getResult(0));
}
