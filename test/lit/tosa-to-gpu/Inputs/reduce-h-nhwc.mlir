func.func @main(%x: tensor<32x7x7x2048xf32>) -> tensor<32x1x7x2048xf32> {
  %s = tosa.reduce_sum %x {axis = 1 : i32} : (tensor<32x7x7x2048xf32>) -> tensor<32x1x7x2048xf32>
  return %s : tensor<32x1x7x2048xf32>
}
