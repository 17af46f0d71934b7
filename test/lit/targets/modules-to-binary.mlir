// onnx-tosa-gpu-modules-to-binary: every gpu.module becomes a gpu.binary
// of the same name, in the modules' order, each with its PTX (the modules
// are compiled side by side, or one by one without threads; a module alike
// another but for its name, @fourth here, is compiled once for both).
// RUN: onnx-tosa-opt %s --pass-pipeline='builtin.module(nvvm-attach-target{chip=sm_90},gpu.module(convert-gpu-to-nvvm,reconcile-unrealized-casts),onnx-tosa-gpu-modules-to-binary)' | FileCheck %s
// RUN: onnx-tosa-opt %s --mlir-disable-threading --pass-pipeline='builtin.module(nvvm-attach-target{chip=sm_90},gpu.module(convert-gpu-to-nvvm,reconcile-unrealized-casts),onnx-tosa-gpu-modules-to-binary)' | FileCheck %s

// CHECK-NOT: gpu.module
// CHECK: gpu.binary @first [#gpu.object<#nvvm.target<chip = "sm_90">, properties = {{.*}}, assembly = "{{.*}}.entry first_kernel
// CHECK: gpu.binary @second [#gpu.object<#nvvm.target<chip = "sm_90">, properties = {{.*}}, assembly = "{{.*}}.entry second_kernel
// CHECK: gpu.binary @fourth [#gpu.object<#nvvm.target<chip = "sm_90">, properties = {{.*}}, assembly = "{{.*}}.entry first_kernel{{.*}}add.rn.f32
// CHECK: gpu.binary @third [#gpu.object<#nvvm.target<chip = "sm_90">, properties = {{.*}}, assembly = "{{.*}}.entry third_kernel
// CHECK-NOT: gpu.module
module attributes {gpu.container_module} {
  gpu.module @first {
    gpu.func @first_kernel(%a: memref<4xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %a[%i] : memref<4xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %a[%i] : memref<4xf32>
      gpu.return
    }
  }
  gpu.module @second {
    gpu.func @second_kernel(%a: memref<4xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %a[%i] : memref<4xf32>
      %w = arith.mulf %v, %v : f32
      memref.store %w, %a[%i] : memref<4xf32>
      gpu.return
    }
  }
  gpu.module @fourth {
    gpu.func @first_kernel(%a: memref<4xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %a[%i] : memref<4xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %a[%i] : memref<4xf32>
      gpu.return
    }
  }
  gpu.module @third {
    gpu.func @third_kernel(%a: memref<4xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %a[%i] : memref<4xf32>
      %w = arith.subf %v, %v : f32
      memref.store %w, %a[%i] : memref<4xf32>
      gpu.return
    }
  }
}
