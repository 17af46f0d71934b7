//===- data_layout_test.cpp - Data layout ops of the reference evaluator --===//
#include "eval_test_util.h"

#include <gtest/gtest.h>

using namespace onnx_tosa::ref;
using namespace onnx_tosa::ref::test;

namespace {

std::vector<Tensor> run(const std::string &mlir, std::vector<Tensor> args,
                        std::string *unpredictable = nullptr) {
  std::vector<Tensor> out;
  std::string error;
  EXPECT_TRUE(evaluate(mlir, args, out, error, unpredictable)) << error;
  return out;
}

TEST(DataLayout, PadSliceTileReverseTransposeConcat) {
  const char *mlir = R"(
func.func @main(%x: tensor<2x3xi32>) -> (tensor<3x5xi32>, tensor<1x2xi32>, tensor<2x6xi32>, tensor<2x3xi32>, tensor<3x2xi32>, tensor<4x3xi32>, tensor<3x2xi32>) {
  %p = tosa.const_shape {values = dense<[1, 0, 0, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %c = "tosa.const"() <{values = dense<-7> : tensor<1xi32>}> : () -> tensor<1xi32>
  %0 = tosa.pad %x, %p, %c : (tensor<2x3xi32>, !tosa.shape<4>, tensor<1xi32>) -> tensor<3x5xi32>
  %start = tosa.const_shape {values = dense<[1, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %size = tosa.const_shape {values = dense<[1, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %1 = tosa.slice %x, %start, %size : (tensor<2x3xi32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x2xi32>
  %m = tosa.const_shape {values = dense<[1, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %2 = tosa.tile %x, %m : (tensor<2x3xi32>, !tosa.shape<2>) -> tensor<2x6xi32>
  %3 = tosa.reverse %x {axis = 1 : i32} : (tensor<2x3xi32>) -> tensor<2x3xi32>
  %4 = tosa.transpose %x {perms = array<i32: 1, 0>} : (tensor<2x3xi32>) -> tensor<3x2xi32>
  %5 = tosa.concat %x, %x {axis = 0 : i32} : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<4x3xi32>
  %s = tosa.const_shape {values = dense<[3, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %6 = tosa.reshape %x, %s : (tensor<2x3xi32>, !tosa.shape<2>) -> tensor<3x2xi32>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<3x5xi32>, tensor<1x2xi32>, tensor<2x6xi32>, tensor<2x3xi32>, tensor<3x2xi32>, tensor<4x3xi32>, tensor<3x2xi32>
})";
  auto out = run(mlir, {ints(DType::I32, {2, 3}, {1, 2, 3, 4, 5, 6})});
  EXPECT_EQ(out[0].ints, (std::vector<int64_t>{-7, -7, -7, -7, -7, 1, 2, 3, -7,
                                               -7, 4, 5, 6, -7, -7}));
  EXPECT_EQ(out[1].ints, (std::vector<int64_t>{5, 6}));
  EXPECT_EQ(out[2].ints,
            (std::vector<int64_t>{1, 2, 3, 1, 2, 3, 4, 5, 6, 4, 5, 6}));
  EXPECT_EQ(out[3].ints, (std::vector<int64_t>{3, 2, 1, 6, 5, 4}));
  EXPECT_EQ(out[4].ints, (std::vector<int64_t>{1, 4, 2, 5, 3, 6}));
  EXPECT_EQ(out[5].ints,
            (std::vector<int64_t>{1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(out[6].ints, (std::vector<int64_t>{1, 2, 3, 4, 5, 6}));
}

TEST(ScatterGather, GatherAndScatterTwiceIsUnpredictable) {
  const char *mlir = R"(
func.func @main(%v: tensor<1x3x2xf32>, %i: tensor<1x2xi32>, %in: tensor<1x2x2xf32>) -> (tensor<1x2x2xf32>, tensor<1x3x2xf32>) {
  %0 = tosa.gather %v, %i : (tensor<1x3x2xf32>, tensor<1x2xi32>) -> tensor<1x2x2xf32>
  %1 = tosa.scatter %v, %i, %in : (tensor<1x3x2xf32>, tensor<1x2xi32>, tensor<1x2x2xf32>) -> tensor<1x3x2xf32>
  return %0, %1 : tensor<1x2x2xf32>, tensor<1x3x2xf32>
})";
  std::string why;
  auto out = run(mlir,
                 {floats(DType::F32, {1, 3, 2}, {0, 1, 10, 11, 20, 21}),
                  ints(DType::I32, {1, 2}, {2, 0}),
                  floats(DType::F32, {1, 2, 2}, {-1, -2, -3, -4})},
                 &why);
  EXPECT_EQ(out[0].floats, (std::vector<double>{20, 21, 0, 1}));
  EXPECT_EQ(out[1].floats, (std::vector<double>{-3, -4, 10, 11, -1, -2}));
  EXPECT_TRUE(why.empty());
  run(mlir,
      {floats(DType::F32, {1, 3, 2}, {0, 1, 10, 11, 20, 21}),
       ints(DType::I32, {1, 2}, {1, 1}),
       floats(DType::F32, {1, 2, 2}, {-1, -2, -3, -4})},
      &why);
  EXPECT_NE(why.find("twice"), std::string::npos);
}

TEST(ControlFlow, CondIfAndWhileLoop) {
  // Generic form: LLVM 22 prints tosa.cond_if in a form its parser rejects.
  const char *ok = R"(
func.func @main(%c: tensor<i1>, %x: tensor<i32>) -> (tensor<i32>, tensor<i32>) {
  %0 = "tosa.cond_if"(%c, %x) ({
  ^bb0(%a: tensor<i32>):
    %n = tosa.add %a, %a : (tensor<i32>, tensor<i32>) -> tensor<i32>
    tosa.yield %n : tensor<i32>
  }, {
  ^bb0(%a: tensor<i32>):
    tosa.yield %a : tensor<i32>
  }) : (tensor<i1>, tensor<i32>) -> tensor<i32>
  %1 = "tosa.while_loop"(%x) ({
  ^bb0(%i: tensor<i32>):
    %ten = "tosa.const"() <{values = dense<10> : tensor<i32>}> : () -> tensor<i32>
    %lt = tosa.greater %ten, %i : (tensor<i32>, tensor<i32>) -> tensor<i1>
    tosa.yield %lt : tensor<i1>
  }, {
  ^bb0(%i: tensor<i32>):
    %three = "tosa.const"() <{values = dense<3> : tensor<i32>}> : () -> tensor<i32>
    %n = tosa.add %i, %three : (tensor<i32>, tensor<i32>) -> tensor<i32>
    tosa.yield %n : tensor<i32>
  }) : (tensor<i32>) -> tensor<i32>
  return %0, %1 : tensor<i32>, tensor<i32>
})";
  auto t = run(ok, {ints(DType::Bool, {}, {1}), ints(DType::I32, {}, {4})});
  EXPECT_EQ(t[0].ints[0], 8);
  EXPECT_EQ(t[1].ints[0], 10); // 4, 7, 10
  auto f = run(ok, {ints(DType::Bool, {}, {0}), ints(DType::I32, {}, {4})});
  EXPECT_EQ(f[0].ints[0], 4);
}

} // namespace
