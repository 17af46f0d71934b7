func.func @main(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
  %s = tosa.add %x, %y : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  %zero = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %r = tosa.clamp %s {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<64xf32>) -> tensor<64xf32>
  return %r : tensor<64xf32>
}
