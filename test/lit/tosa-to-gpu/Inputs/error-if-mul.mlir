// An ERROR_IF graph that LLVM 22's verifiers accept: MUL's output is not the
// broadcast of its inputs (validation.mlir).
func.func @main(%a: tensor<10xi8>) -> tensor<11xi32> {
  %b = "tosa.const"() <{values = dense<3> : tensor<1xi8>}> : () -> tensor<1xi8>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.mul %a, %b, %shift : (tensor<10xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<11xi32>
  return %0 : tensor<11xi32>
}
