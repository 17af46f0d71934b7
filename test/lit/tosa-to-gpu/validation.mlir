// A TOSA input to onnx-tosa-compile is held to the specification before it
// is compiled: an ERROR_IF graph is refused at the validation stage, naming
// the op and the condition; a graph within the full ranges of its data types
// but past the 8K level's (rank 7) is refused at --tosa-level=8k, the default,
// and compiled at --tosa-level=none.
// RUN: rm -rf %t && mkdir -p %t
// RUN: not onnx-tosa-compile %s --target=vulkan -o %t/a.otsa 2>&1 | FileCheck %s --check-prefix=RANK
// RUN: onnx-tosa-compile %s --target=vulkan --tosa-level=none -o %t/a.otsa | FileCheck %s --check-prefix=NONE
// A valid 4-D PAD passes at 8K (LLVM 22's tosa-validate would refuse it):
// RUN: onnx-tosa-compile %S/Inputs/pad-rank4.mlir --target=vulkan -o %t/pad.otsa | FileCheck %s --check-prefix=PAD
// RUN: not onnx-tosa-compile %S/Inputs/error-if-mul.mlir --target=vulkan --tosa-level=none -o %t/b.otsa 2>&1 | FileCheck %s --check-prefix=BAD

// RANK: onnx-tosa-compile: error: validation: 'tosa.add' op level 8K: operand 0 has rank 7; MAX_RANK is 6
// NONE: wrote {{.*}}a.otsa (vulkan
// PAD: wrote {{.*}}pad.otsa (vulkan
// BAD: onnx-tosa-compile: error: validation: 'tosa.mul' op ERROR_IF: output dimension 0 is 11 but the inputs broadcast to 10

func.func @main(%a: tensor<2x1x1x1x1x1x3xf32>, %b: tensor<1x1x1x1x1x1x3xf32>) -> tensor<2x1x1x1x1x1x3xf32> {
  %0 = tosa.add %a, %b : (tensor<2x1x1x1x1x1x3xf32>, tensor<1x1x1x1x1x1x3xf32>) -> tensor<2x1x1x1x1x1x3xf32>
  return %0 : tensor<2x1x1x1x1x1x3xf32>
}
