// A valid PAD of a 4-D tensor, which LLVM 22's tosa-validate refuses at the
// 8K level ("'!tosa.shape<8>' exceeds MAX_RANK": it counts the padding's
// 2 x rank values as a rank). tosa-tools' newer tosa-opt accepts it
// (docs/tosa-reference-model.md).
func.func @main(%x: tensor<1x7x7x2xf32>) -> tensor<1x9x9x2xf32> {
  %p = tosa.const_shape {values = dense<[0, 0, 1, 1, 1, 1, 0, 0]> : tensor<8xindex>} : () -> !tosa.shape<8>
  %v = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.pad %x, %p, %v : (tensor<1x7x7x2xf32>, !tosa.shape<8>, tensor<1xf32>) -> tensor<1x9x9x2xf32>
  return %0 : tensor<1x9x9x2xf32>
}
