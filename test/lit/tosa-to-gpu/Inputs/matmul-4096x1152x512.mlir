// A 4096x512 by 512x1152 matmul (input to warpgroup-mma.mlir).
func.func @main(%a: tensor<1x4096x512xf32>, %b: tensor<1x512x1152xf32>) -> tensor<1x4096x1152xf32> {
  %z = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %m = tosa.matmul %a, %b, %z, %z : (tensor<1x4096x512xf32>, tensor<1x512x1152xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4096x1152xf32>
  return %m : tensor<1x4096x1152xf32>
}
