// Vulkan kernels read and write their buffers as vectors where CUDA's do:
// an elementwise kernel's 4 consecutive elements per thread, the tiled
// GEMM's 16-byte tile loads (of buffers and of workgroup memory). The
// variables become arrays of vector<4xf32>; the modules are valid Vulkan
// SPIR-V.
// REQUIRES: spirv-val
// RUN: rm -rf %t && mkdir -p %t
// RUN: onnx-tosa-compile %s --emit=spirv | FileCheck %s
// RUN: onnx-tosa-compile %s --target=vulkan --dump-kernels=%t/spv -o %t/m.otsa
// RUN: for f in %t/spv/*.spv; do spirv-val --target-env vulkan1.1 "$f" || exit 1; done
// RUN: onnx-tosa-compile %s --emit=spirv --vector-width=1 | FileCheck %s --check-prefix=SCALAR

// The add: both operands and the result as vectors.
// CHECK-LABEL: spirv.module
// CHECK-COUNT-3: spirv.GlobalVariable @{{.*}}_arg_{{[0-2]}} bind(0, {{[0-2]}}) {{.*}}: !spirv.ptr<!spirv.struct<{{.*}}(!spirv.array<2048 x vector<4xf32>, stride=16> [0])>, StorageBuffer>
// CHECK-NOT: spirv.Bitcast
// CHECK: spirv.Load "StorageBuffer" %{{.*}} : vector<4xf32>
// CHECK: spirv.Load "StorageBuffer" %{{.*}} : vector<4xf32>
// CHECK: spirv.Store "StorageBuffer" %{{.*}}, %{{.*}} : vector<4xf32>
// The matmul: its tiles in workgroup memory too.
// CHECK-LABEL: spirv.module
// CHECK: spirv.GlobalVariable @{{.*}} : !spirv.ptr<!spirv.struct<(!spirv.array<{{[0-9]+}} x vector<4xf32>>)>, Workgroup>
// CHECK-NOT: spirv.Bitcast
// CHECK: spirv.Load "StorageBuffer" %{{.*}} : vector<4xf32>
// One element per thread and access with --vector-width=1.
// SCALAR-LABEL: spirv.module
// SCALAR: (!spirv.array<8192 x f32, stride=4>
// SCALAR-NOT: vector<4xf32>, StorageBuffer
// SCALAR-LABEL: spirv.module
func.func @main(%a: tensor<64x128xf32>, %b: tensor<64x128xf32>, %w: tensor<1x128x64xf32>) -> tensor<1x64x64xf32> {
  %s = tosa.add %a, %b : (tensor<64x128xf32>, tensor<64x128xf32>) -> tensor<64x128xf32>
  %shape = tosa.const_shape {values = dense<[1, 64, 128]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s3 = tosa.reshape %s, %shape : (tensor<64x128xf32>, !tosa.shape<3>) -> tensor<1x64x128xf32>
  %z = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %m = tosa.matmul %s3, %w, %z, %z : (tensor<1x64x128xf32>, tensor<1x128x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x64x64xf32>
  return %m : tensor<1x64x64xf32>
}
