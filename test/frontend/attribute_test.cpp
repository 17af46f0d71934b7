//===- attribute_test.cpp - Importer: node attributes and subgraphs -------===//
#include "import_test_util.h"

using namespace mlir;
using namespace onnx_tosa;
using namespace onnx_tosa::test;

namespace {

using TP = pb::TensorProto;
using AP = pb::AttributeProto;

AP *addAttr(pb::NodeProto *n, const std::string &name, AP::AttributeType t) {
  AP *a = n->add_attribute();
  a->set_name(name);
  a->set_type(t);
  return a;
}

/// A model x:float[2] → node → y, where the test fills in the node.
pb::ModelProto singleNodeModel(pb::NodeProto *&node, const char *opType,
                               const char *name = "n") {
  pb::ModelProto m = makeModel();
  auto &g = *m.mutable_graph();
  addInput(g, "x", TP::FLOAT, {2});
  node = addNode(g, opType, {"x"}, {"y"}, name);
  addOutput(g, "y", TP::FLOAT, {2});
  return m;
}

} // namespace

TEST_F(ImportTest, ScalarAndListAttributes) {
  pb::NodeProto *n;
  pb::ModelProto m = singleNodeModel(n, "Custom");
  addAttr(n, "alpha", AP::FLOAT)->set_f(0.25f);
  addAttr(n, "axis", AP::INT)->set_i(-3);
  addAttr(n, "big", AP::INT)->set_i(int64_t(1) << 40);
  addAttr(n, "mode", AP::STRING)->set_s("nearest");
  auto *fs = addAttr(n, "scales", AP::FLOATS);
  fs->add_floats(1.5f);
  fs->add_floats(-2.0f);
  auto *is = addAttr(n, "pads", AP::INTS);
  for (int64_t v : {int64_t(0), int64_t(1), int64_t(-1), int64_t(1) << 35})
    is->add_ints(v);
  auto *ss = addAttr(n, "directions", AP::STRINGS);
  ss->add_strings("forward");
  ss->add_strings("");
  ss->add_strings("reverse");
  addAttr(n, "empty_ints", AP::INTS);

  auto module = import(m);
  ASSERT_TRUE(module);
  auto nodes = topNodes(*module);
  ASSERT_EQ(nodes.size(), 1u);
  DictionaryAttr attrs = nodes[0].getAttrs();
  EXPECT_EQ(attrs.size(), 8u);

  auto alpha = attrs.getAs<FloatAttr>("alpha");
  ASSERT_TRUE(alpha);
  EXPECT_TRUE(alpha.getType().isF32());
  EXPECT_EQ(alpha.getValueAsDouble(), 0.25);

  auto axis = attrs.getAs<IntegerAttr>("axis");
  ASSERT_TRUE(axis);
  EXPECT_TRUE(axis.getType().isInteger(64));
  EXPECT_EQ(axis.getInt(), -3);
  ASSERT_TRUE(attrs.getAs<IntegerAttr>("big"));
  EXPECT_EQ(attrs.getAs<IntegerAttr>("big").getInt(), int64_t(1) << 40);

  auto mode = attrs.getAs<StringAttr>("mode");
  ASSERT_TRUE(mode);
  EXPECT_EQ(mode.getValue(), "nearest");

  auto scales = attrs.getAs<DenseF32ArrayAttr>("scales");
  ASSERT_TRUE(scales);
  EXPECT_EQ(scales.asArrayRef().vec(), (std::vector<float>{1.5f, -2.0f}));

  auto pads = attrs.getAs<DenseI64ArrayAttr>("pads");
  ASSERT_TRUE(pads);
  EXPECT_EQ(pads.asArrayRef().vec(),
            (std::vector<int64_t>{0, 1, -1, int64_t(1) << 35}));

  auto dirs = attrs.getAs<ArrayAttr>("directions");
  ASSERT_TRUE(dirs);
  ASSERT_EQ(dirs.size(), 3u);
  EXPECT_EQ(cast<StringAttr>(dirs[0]).getValue(), "forward");
  EXPECT_EQ(cast<StringAttr>(dirs[1]).getValue(), "");
  EXPECT_EQ(cast<StringAttr>(dirs[2]).getValue(), "reverse");

  auto empty = attrs.getAs<DenseI64ArrayAttr>("empty_ints");
  ASSERT_TRUE(empty);
  EXPECT_TRUE(empty.empty());
}

TEST_F(ImportTest, TensorAttributeBecomesDenseElements) {
  pb::NodeProto *n;
  pb::ModelProto m = singleNodeModel(n, "Constant");
  auto *a = addAttr(n, "value", AP::TENSOR);
  *a->mutable_t() = floatTensor("", {2, 2}, {1.0f, 2.0f, 3.0f, 4.0f});

  auto module = import(m);
  ASSERT_TRUE(module);
  auto v = topNodes(*module)[0].getAttrs().getAs<DenseElementsAttr>("value");
  ASSERT_TRUE(v);
  EXPECT_EQ(str(v.getType()), "tensor<2x2xf32>");
  EXPECT_EQ(llvm::to_vector(v.getValues<float>()),
            (SmallVector<float>{1.0f, 2.0f, 3.0f, 4.0f}));
}

TEST_F(ImportTest, TensorAttributeFromRawInt64) {
  pb::NodeProto *n;
  pb::ModelProto m = singleNodeModel(n, "ConstantOfShape");
  auto *a = addAttr(n, "value", AP::TENSOR);
  *a->mutable_t() =
      rawTensor("v", TP::INT64, {1}, bytesOf<int64_t>({-42}));
  auto module = import(m);
  ASSERT_TRUE(module);
  auto v = topNodes(*module)[0].getAttrs().getAs<DenseElementsAttr>("value");
  ASSERT_TRUE(v);
  EXPECT_EQ(str(v.getType()), "tensor<1xi64>");
  EXPECT_EQ(*v.getValues<int64_t>().begin(), -42);
}

TEST_F(ImportTest, BadTensorAttributeNamesNodeAndTensor) {
  pb::NodeProto *n;
  pb::ModelProto m = singleNodeModel(n, "Constant", "const_node");
  auto *a = addAttr(n, "value", AP::TENSOR);
  *a->mutable_t() = floatTensor("cval", {3}, {1.0f, 2.0f});
  std::string err = importError(m);
  EXPECT_EQ(err, "node 'const_node' (Constant, domain 'ai.onnx', opset 17): "
                 "tensor 'cval': holds the wrong number of values for its "
                 "shape");
}

TEST_F(ImportTest, ListOfGraphsAttributeIsRejected) {
  pb::NodeProto *n;
  pb::ModelProto m = singleNodeModel(n, "Weird", "w1");
  auto *a = addAttr(n, "bodies", AP::GRAPHS);
  a->add_graphs();
  std::string err = importError(m);
  EXPECT_EQ(err, "node 'w1' (Weird, domain 'ai.onnx', opset 17): attribute "
                 "'bodies' (a list of graphs) is not supported");
}

TEST_F(ImportTest, UnsupportedAttributeTypeIsRejected) {
  pb::NodeProto *n;
  pb::ModelProto m = singleNodeModel(n, "Weird", "w2");
  addAttr(n, "sp", AP::SPARSE_TENSOR);
  std::string err = importError(m);
  EXPECT_EQ(err, "node 'w2' (Weird, domain 'ai.onnx', opset 17): attribute "
                 "'sp' has unsupported type 11");

  pb::ModelProto m2 = singleNodeModel(n, "Weird", "w3");
  addAttr(n, "ts", AP::TENSORS);
  EXPECT_EQ(importError(m2), "node 'w3' (Weird, domain 'ai.onnx', opset 17): "
                             "attribute 'ts' has unsupported type 9");
}

TEST_F(ImportTest, GraphAttributesBecomeRegions) {
  // y = If(c) then { t = Neg(x) } else { e = Abs(x) + k_inner }
  pb::ModelProto m = makeModel();
  auto &g = *m.mutable_graph();
  addInput(g, "c", TP::BOOL, {});
  addInput(g, "x", TP::FLOAT, {3});
  auto *ifNode = addNode(g, "If", {"c"}, {"y"}, "if");
  // A plain attribute before the graphs must not shift the region indices.
  addAttr(ifNode, "tag", AP::STRING)->set_s("branchy");
  auto *thenA = addAttr(ifNode, "then_branch", AP::GRAPH);
  auto &thenG = *thenA->mutable_g();
  thenG.set_name("then");
  addNode(thenG, "Neg", {"x"}, {"t"}, "neg");
  addOutput(thenG, "t", TP::FLOAT, {3});
  auto *elseA = addAttr(ifNode, "else_branch", AP::GRAPH);
  auto &elseG = *elseA->mutable_g();
  elseG.set_name("else");
  *elseG.add_initializer() = floatTensor("k_inner", {1}, {10.0f});
  addNode(elseG, "Abs", {"x"}, {"ab"}, "abs");
  addNode(elseG, "Add", {"ab", "k_inner"}, {"e"}, "add_inner");
  addValueInfo(elseG, "ab", TP::FLOAT, {3});
  addOutput(elseG, "e", TP::FLOAT, {3});
  addOutput(g, "y", TP::FLOAT, {3});

  auto module = import(m);
  ASSERT_TRUE(module);
  func::FuncOp f = mainFunc(*module);
  auto nodes = topNodes(*module);
  ASSERT_EQ(nodes.size(), 1u);
  onnx::NodeOp ifOp = nodes[0];
  EXPECT_EQ(ifOp.getOpType(), "If");
  ASSERT_EQ(ifOp->getNumRegions(), 2u);
  DictionaryAttr attrs = ifOp.getAttrs();
  EXPECT_EQ(attrs.size(), 3u);
  ASSERT_TRUE(attrs.getAs<IntegerAttr>("then_branch"));
  ASSERT_TRUE(attrs.getAs<IntegerAttr>("else_branch"));
  int64_t thenIdx = attrs.getAs<IntegerAttr>("then_branch").getInt();
  int64_t elseIdx = attrs.getAs<IntegerAttr>("else_branch").getInt();
  EXPECT_EQ(thenIdx, 0);
  EXPECT_EQ(elseIdx, 1);
  EXPECT_EQ(attrs.getAs<StringAttr>("tag").getValue(), "branchy");

  // then: one block, no arguments, Neg of the outer x, yield of its result.
  Region &thenR = ifOp->getRegion(thenIdx);
  ASSERT_TRUE(thenR.hasOneBlock());
  Block &thenB = thenR.front();
  EXPECT_EQ(thenB.getNumArguments(), 0u);
  auto thenNodes = nodesIn(thenB);
  ASSERT_EQ(thenNodes.size(), 1u);
  EXPECT_EQ(thenNodes[0].getOpType(), "Neg");
  EXPECT_EQ(thenNodes[0].getNodeName(), "neg");
  EXPECT_EQ(thenNodes[0].getOpset(), 17);
  EXPECT_EQ(thenNodes[0]->getOperand(0), f.getArgument(1));
  EXPECT_EQ(str(thenNodes[0]->getResult(0).getType()), "tensor<3xf32>");
  auto thenYield = dyn_cast<onnx::GraphReturnOp>(thenB.getTerminator());
  ASSERT_TRUE(thenYield);
  ASSERT_EQ(thenYield.getValues().size(), 1u);
  EXPECT_EQ(thenYield.getValues()[0], thenNodes[0]->getResult(0));

  // else: its own initializer as an onnx.constant inside the region.
  Block &elseB = ifOp->getRegion(elseIdx).front();
  auto innerConsts = llvm::to_vector(elseB.getOps<onnx::ConstantOp>());
  ASSERT_EQ(innerConsts.size(), 1u);
  EXPECT_EQ(innerConsts[0].getName(), "k_inner");
  auto elseNodes = nodesIn(elseB);
  ASSERT_EQ(elseNodes.size(), 2u);
  EXPECT_EQ(elseNodes[0]->getOperand(0), f.getArgument(1));
  EXPECT_EQ(str(elseNodes[0]->getResult(0).getType()), "tensor<3xf32>");
  EXPECT_EQ(elseNodes[1]->getOperand(0), elseNodes[0]->getResult(0));
  EXPECT_EQ(elseNodes[1]->getOperand(1), innerConsts[0].getResult());
  auto elseYield = cast<onnx::GraphReturnOp>(elseB.getTerminator());
  ASSERT_EQ(elseYield.getValues().size(), 1u);
  EXPECT_EQ(elseYield.getValues()[0], elseNodes[1]->getResult(0));

  // Inner constants are not top-level constants.
  EXPECT_TRUE(topConstants(*module).empty());
  EXPECT_EQ(str(ifOp->getResult(0).getType()), "tensor<3xf32>");
}

TEST_F(ImportTest, LoopBodyInputsBecomeBlockArguments) {
  // Loop(max_trip, cond, v) with body(iter, cond_in, v_in) → (cond_out,
  // v_out); nested If inside the body reads both body and outer values.
  pb::ModelProto m = makeModel(16);
  auto &g = *m.mutable_graph();
  addInput(g, "v0", TP::FLOAT, {2});
  *g.add_initializer() = rawTensor("trip", TP::INT64, {}, bytesOf<int64_t>({5}));
  *g.add_initializer() = rawTensor("cond", TP::BOOL, {}, std::string(1, '\1'));
  *g.add_initializer() = floatTensor("step", {2}, {1.0f, 1.0f});
  auto *loop = addNode(g, "Loop", {"trip", "cond", "v0"}, {"vN"}, "loop");
  auto &body = *addAttr(loop, "body", AP::GRAPH)->mutable_g();
  addInput(body, "iter", TP::INT64, {});
  addInput(body, "cond_in", TP::BOOL, {});
  auto *vIn = body.add_input(); // untyped body input → !onnx.unknown
  vIn->set_name("v_in");
  addNode(body, "Identity", {"cond_in"}, {"cond_out"}, "keep_going");
  auto *inner = addNode(body, "If", {"cond_in"}, {"v_out"}, "inner_if");
  for (const char *branch : {"then_branch", "else_branch"}) {
    auto &bg = *addAttr(inner, branch, AP::GRAPH)->mutable_g();
    std::string out = std::string(branch) + "_v";
    addNode(bg, "Add", {"v_in", "step"}, {out}, std::string(branch) + "_add");
    addOutput(bg, out, TP::FLOAT, {2});
  }
  addOutput(body, "cond_out", TP::BOOL, {});
  addOutput(body, "v_out", TP::FLOAT, {2});
  addOutput(g, "vN", TP::FLOAT, {2});

  auto module = import(m);
  ASSERT_TRUE(module);
  onnx::NodeOp loopOp = findNode(*module, "loop");
  ASSERT_TRUE(loopOp);
  EXPECT_EQ(loopOp.getOpset(), 16);
  ASSERT_EQ(loopOp->getNumRegions(), 1u);
  EXPECT_EQ(loopOp.getAttrs().getAs<IntegerAttr>("body").getInt(), 0);
  Block &bodyB = loopOp->getRegion(0).front();
  ASSERT_EQ(bodyB.getNumArguments(), 3u);
  EXPECT_EQ(str(bodyB.getArgument(0).getType()), "tensor<i64>");
  EXPECT_EQ(str(bodyB.getArgument(1).getType()), "tensor<i1>");
  EXPECT_EQ(str(bodyB.getArgument(2).getType()), "!onnx.unknown");

  onnx::NodeOp keep = findNode(*module, "keep_going");
  ASSERT_TRUE(keep);
  EXPECT_EQ(keep->getOperand(0), bodyB.getArgument(1));
  onnx::NodeOp innerIf = findNode(*module, "inner_if");
  ASSERT_TRUE(innerIf);
  EXPECT_EQ(innerIf->getParentOp(), loopOp.getOperation());
  ASSERT_EQ(innerIf->getNumRegions(), 2u);

  // Two levels down: reads the body's block argument and the top-level
  // initializer.
  onnx::NodeOp thenAdd = findNode(*module, "then_branch_add");
  ASSERT_TRUE(thenAdd);
  EXPECT_EQ(thenAdd->getParentOp(), innerIf.getOperation());
  EXPECT_EQ(thenAdd->getOperand(0), bodyB.getArgument(2));
  onnx::ConstantOp step;
  for (auto c : topConstants(*module))
    if (c.getName() == "step")
      step = c;
  ASSERT_TRUE(step);
  EXPECT_EQ(thenAdd->getOperand(1), step.getResult());

  auto bodyYield = cast<onnx::GraphReturnOp>(bodyB.getTerminator());
  ASSERT_EQ(bodyYield.getValues().size(), 2u);
  EXPECT_EQ(bodyYield.getValues()[0], keep->getResult(0));
  EXPECT_EQ(bodyYield.getValues()[1], innerIf->getResult(0));

  // The loop's operands are the three top-level constants/arguments.
  EXPECT_EQ(loopOp->getOperand(2), mainFunc(*module).getArgument(0));
}

TEST_F(ImportTest, SubgraphWithoutOutputsYieldsNothing) {
  pb::NodeProto *n;
  pb::ModelProto m = singleNodeModel(n, "Custom");
  addAttr(n, "g", AP::GRAPH)->mutable_g();
  auto module = import(m);
  ASSERT_TRUE(module);
  onnx::NodeOp node = topNodes(*module)[0];
  ASSERT_EQ(node->getNumRegions(), 1u);
  Block &b = node->getRegion(0).front();
  auto y = cast<onnx::GraphReturnOp>(b.getTerminator());
  EXPECT_TRUE(y.getValues().empty());
  EXPECT_EQ(b.getOperations().size(), 1u);
}

TEST_F(ImportTest, SubgraphValuesDoNotLeakOut) {
  // A value defined inside a branch is not visible to the outer graph.
  pb::ModelProto m = makeModel();
  auto &g = *m.mutable_graph();
  addInput(g, "c", TP::BOOL, {});
  auto *ifNode = addNode(g, "If", {"c"}, {"o"}, "if");
  auto &tg = *addAttr(ifNode, "then_branch", AP::GRAPH)->mutable_g();
  addNode(tg, "Not", {"c"}, {"secret"}, "inner");
  addOutput(tg, "secret", TP::BOOL, {});
  addNode(g, "Identity", {"secret"}, {"z"}, "outer_reader");
  addOutput(g, "z", TP::BOOL, {});
  std::string err = importError(m);
  EXPECT_EQ(err, "node 'outer_reader' (Identity, domain 'ai.onnx', opset "
                 "17): input 'secret' is not produced by an earlier node, an "
                 "initializer or a graph input");
}

TEST_F(ImportTest, ErrorInsideSubgraphNamesBothNodes) {
  pb::ModelProto m = makeModel();
  auto &g = *m.mutable_graph();
  addInput(g, "c", TP::BOOL, {});
  auto *ifNode = addNode(g, "If", {"c"}, {"o"}, "outer_if");
  auto &tg = *addAttr(ifNode, "then_branch", AP::GRAPH)->mutable_g();
  addNode(tg, "Relu", {"ghost"}, {"r"}, "inner_relu");
  addOutput(tg, "r", TP::FLOAT, {});
  addOutput(g, "o", TP::FLOAT, {});
  std::string err = importError(m);
  EXPECT_EQ(err, "node 'outer_if' (If, domain 'ai.onnx', opset 17): node "
                 "'inner_relu' (Relu, domain 'ai.onnx', opset 17): input "
                 "'ghost' is not produced by an earlier node, an initializer "
                 "or a graph input");
}
