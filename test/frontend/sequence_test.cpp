//===- sequence_test.cpp - Sequence and optional graph inputs -------------===//
//
// A sequence graph input becomes one argument per element (NAME.K), an
// optional one its value's arguments or none (docs/sequences.md).
//
//===----------------------------------------------------------------------===//
#include "import_test_util.h"

using namespace mlir;
using namespace onnx_tosa;
using namespace onnx_tosa::test;
using TP = pb::TensorProto;

namespace {

/// A graph input that is a sequence of float tensors of rank 1 and unknown
/// size.
void addSequenceInput(pb::GraphProto &g, const std::string &name) {
  pb::ValueInfoProto *vi = g.add_input();
  vi->set_name(name);
  auto *tensor = vi->mutable_type()
                     ->mutable_sequence_type()
                     ->mutable_elem_type()
                     ->mutable_tensor_type();
  tensor->set_elem_type(TP::FLOAT);
  tensor->mutable_shape()->add_dim()->set_dim_param("N");
}

/// A graph input that is an optional float tensor of shape [2].
void addOptionalInput(pb::GraphProto &g, const std::string &name) {
  pb::ValueInfoProto *vi = g.add_input();
  vi->set_name(name);
  auto *tensor = vi->mutable_type()
                     ->mutable_optional_type()
                     ->mutable_elem_type()
                     ->mutable_tensor_type();
  tensor->set_elem_type(TP::FLOAT);
  tensor->mutable_shape()->add_dim()->set_dim_value(2);
}

std::string argName(func::FuncOp f, unsigned i) {
  auto name = f.getArgAttrOfType<StringAttr>(i, "onnx.name");
  return name ? name.str() : "";
}

TEST_F(ImportTest, SequenceInputIsOneArgumentPerElement) {
  pb::ModelProto m = makeModel();
  auto &g = *m.mutable_graph();
  addSequenceInput(g, "s");
  addInput(g, "x", TP::FLOAT, {3});
  addUntypedOutput(g, "s");
  ImportOptions opts;
  opts.sequenceLengths["s"] = 2;
  opts.inputShapes["s.0"] = {4};
  opts.inputShapes["s.1"] = {5};
  auto module = import(m, opts);
  ASSERT_TRUE(module);
  func::FuncOp f = mainFunc(*module);
  ASSERT_EQ(f.getNumArguments(), 3u);
  EXPECT_EQ(argName(f, 0), "s.0");
  EXPECT_EQ(argName(f, 1), "s.1");
  EXPECT_EQ(argName(f, 2), "x");
  EXPECT_EQ(str(f.getArgument(0).getType()), "tensor<4xf32>");
  EXPECT_EQ(str(f.getArgument(1).getType()), "tensor<5xf32>");
  // The graph output is the onnx.sequence of both arguments.
  auto ret = cast<func::ReturnOp>(f.getBody().front().getTerminator());
  auto seq = ret.getOperand(0).getDefiningOp<onnx::SequenceOp>();
  ASSERT_TRUE(seq);
  EXPECT_EQ(seq.getElements().size(), 2u);
  EXPECT_EQ(seq.getElements()[1], f.getArgument(1));
}

TEST_F(ImportTest, SequenceInputNeedsItsLength) {
  pb::ModelProto m = makeModel();
  auto &g = *m.mutable_graph();
  addSequenceInput(g, "s");
  addUntypedOutput(g, "s");
  EXPECT_EQ(importError(m),
            "graph input 's' is a sequence; give its number of elements with "
            "--sequence-length s=N (its elements become inputs s.0, s.1, ...)");
}

TEST_F(ImportTest, SequenceElementNeedsAShape) {
  pb::ModelProto m = makeModel();
  auto &g = *m.mutable_graph();
  addSequenceInput(g, "s");
  addUntypedOutput(g, "s");
  ImportOptions opts;
  opts.sequenceLengths["s"] = 1;
  EXPECT_EQ(importError(m, opts),
            "graph input 's.0' has symbolic dimension 'N' at axis 0; give it "
            "values with --dim N=V[,V...], or fix the input's shape with "
            "--input-shape s.0=DIMxDIMx...");
}

TEST_F(ImportTest, SequenceLengthMustNameASequence) {
  pb::ModelProto m = makeModel();
  auto &g = *m.mutable_graph();
  addInput(g, "x", TP::FLOAT, {1});
  addOutput(g, "x", TP::FLOAT, {1});
  ImportOptions opts;
  opts.sequenceLengths["x"] = 1;
  EXPECT_EQ(importError(m, opts),
            "--sequence-length names 'x', which is a tensor, not a sequence");
}

TEST_F(ImportTest, OptionalInputPresentOrAbsent) {
  pb::ModelProto m = makeModel();
  auto &g = *m.mutable_graph();
  addOptionalInput(g, "o");
  addUntypedOutput(g, "o");
  {
    auto module = import(m);
    ASSERT_TRUE(module);
    func::FuncOp f = mainFunc(*module);
    ASSERT_EQ(f.getNumArguments(), 1u);
    EXPECT_EQ(argName(f, 0), "o");
    EXPECT_EQ(str(f.getArgument(0).getType()), "tensor<2xf32>");
  }
  ImportOptions opts;
  opts.absentInputs.insert("o");
  auto module = import(m, opts);
  ASSERT_TRUE(module);
  func::FuncOp f = mainFunc(*module);
  EXPECT_EQ(f.getNumArguments(), 0u);
  auto ret = cast<func::ReturnOp>(f.getBody().front().getTerminator());
  auto opt = ret.getOperand(0).getDefiningOp<onnx::OptionalOp>();
  ASSERT_TRUE(opt);
  EXPECT_FALSE(opt.getValue());
}

TEST_F(ImportTest, MapInputIsRejected) {
  pb::ModelProto m = makeModel();
  auto &g = *m.mutable_graph();
  pb::ValueInfoProto *vi = g.add_input();
  vi->set_name("m");
  vi->mutable_type()->mutable_map_type()->set_key_type(TP::INT64);
  addUntypedOutput(g, "m");
  EXPECT_EQ(importError(m),
            "graph input 'm' is a map, which is not supported (tensors, "
            "sequences of tensors and optionals of those are)");
}

} // namespace
