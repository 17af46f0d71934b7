// f32 tanh on Vulkan: GL Tanh need only be as precise as its sinh / cosh
// definition, and lavapipe's loses the relative precision of small
// arguments, so |x| < 1/16 takes x * (1 + x^2 (-1/3 + x^2 2/15)) instead
// (onnx-tosa-approximate-math-for-spirv).
// RUN: onnx-tosa-compile %s --emit=spirv | FileCheck %s

// CHECK-LABEL: spirv.module
// CHECK-DAG: spirv.Constant 0.13333334 : f32
// CHECK-DAG: spirv.Constant -0.333333343 : f32
// CHECK-DAG: spirv.Constant 6.250000e-02 : f32
// CHECK-DAG: %[[T:.*]] = spirv.GL.Tanh %[[X:.*]] : f32
// CHECK-DAG: %[[X2:.*]] = spirv.FMul %[[X]], %[[X]] : f32
// CHECK-DAG: %[[A:.*]] = spirv.GL.FAbs %[[X]] : f32
// CHECK: %[[SMALL:.*]] = spirv.FOrdLessThan %[[A]], %{{.*}} : f32
// CHECK: spirv.Select %[[SMALL]], %{{.*}}, %[[T]] : i1, f32
func.func @main(%x: tensor<64xf32>) -> tensor<64xf32> {
  %y = tosa.tanh %x : (tensor<64xf32>) -> tensor<64xf32>
  return %y : tensor<64xf32>
}
