// A 2048x512 by 512x1280 matmul (input to warpgroup-mma.mlir).
func.func @main(%a: tensor<1x2048x512xf32>, %b: tensor<1x512x1280xf32>) -> tensor<1x2048x1280xf32> {
  %z = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %m = tosa.matmul %a, %b, %z, %z : (tensor<1x2048x512xf32>, tensor<1x512x1280xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2048x1280xf32>
  return %m : tensor<1x2048x1280xf32>
}
