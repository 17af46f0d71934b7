// On sm_90 and later every kernel waits for the kernels before it itself
// before touching memory (onnx-tosa-grid-dependency-control), and its
// launch is marked so that the runtime may make it a programmatic
// dependent launch; with trigger=true it also lets the next one be
// scheduled once its blocks have passed the wait. The wait is inline PTX
// with a memory clobber: no load moves above it. Earlier chips have
// neither instruction.
// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: onnx-tosa-opt %s --pass-pipeline='builtin.module(onnx-tosa-grid-dependency-control)' | FileCheck %s
// RUN: onnx-tosa-opt %s --pass-pipeline='builtin.module(onnx-tosa-grid-dependency-control{trigger=true})' | FileCheck %s --check-prefix=TRIGGER
// RUN: onnx-tosa-compile %S/Inputs/add-relu.mlir --target=cuda:sm_90a --emit=ptx | FileCheck %s --check-prefix=PTX
// RUN: onnx-tosa-compile %S/Inputs/add-relu.mlir --target=cuda:sm_90a --cuda-format=ptx --dump-kernels=%t/ptx -o %t/m.otsa
// RUN: for f in %t/ptx/*.ptx; do ptxas -arch=sm_90a "$f" -o /dev/null || exit 1; done
// RUN: onnx-tosa-compile %S/Inputs/add-relu.mlir --target=cuda:sm_80 --emit=ptx | FileCheck %s --check-prefix=SM80

// CHECK: gpu.func @kernel(%{{.*}}: memref<4xf32>) kernel
// CHECK-NEXT: llvm.inline_asm has_side_effects "griddepcontrol.wait;", "~{memory}"
// CHECK-NEXT: arith.constant
// CHECK-NEXT: memref.load
// TRIGGER: gpu.func @kernel
// TRIGGER-NEXT: llvm.inline_asm has_side_effects "griddepcontrol.wait;", "~{memory}"
// TRIGGER-NEXT: llvm.inline_asm has_side_effects "griddepcontrol.launch_dependents;", "~{memory}"
// TRIGGER-NEXT: arith.constant
// CHECK: gpu.func @helper
// CHECK-NOT: llvm.inline_asm
// CHECK: gpu.launch_func @kernels::@kernel {{.*}} {onnx_tosa.waits_for_previous}
// PTX: .entry main_kernel(
// PTX-NOT: ld.global
// PTX: griddepcontrol.wait;
// PTX: ld.global
// PTX-NOT: griddepcontrol.launch_dependents
// SM80-NOT: griddepcontrol
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @kernel(%buffer: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %x = memref.load %buffer[%c0] : memref<4xf32>
      %y = arith.addf %x, %x : f32
      memref.store %y, %buffer[%c0] : memref<4xf32>
      gpu.return
    }
    gpu.func @helper(%buffer: memref<4xf32>) {
      gpu.return
    }
  }
  func.func @main(%buffer: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%buffer : memref<4xf32>)
    return
  }
}
