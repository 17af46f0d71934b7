// Device code checked by the toolchains' own validators.
// REQUIRES: ptxas, spirv-val
// RUN: rm -rf %t && mkdir -p %t
// RUN: onnx-tosa-compile %s --target=cuda:sm_90a --cuda-format=ptx --dump-kernels=%t/ptx -o %t/m.cuda.otsa
// RUN: for f in %t/ptx/*.ptx; do ptxas -arch=sm_90a "$f" -o /dev/null || exit 1; done
// RUN: onnx-tosa-compile %s --target=vulkan --dump-kernels=%t/spv -o %t/m.vulkan.otsa
// RUN: for f in %t/spv/*.spv; do spirv-val --target-env vulkan1.1 "$f" || exit 1; done
// RUN: ls %t/ptx | FileCheck %s --check-prefix=PTX
// RUN: onnx-tosa-compile %s --emit=ptx | FileCheck %s --check-prefix=ISA

// PTX: main_kernel.ptx
// ISA: .target sm_90a
// ISA: .entry main_kernel(
func.func @main(%x: tensor<1x8x8x4xf32>, %w: tensor<8x8xf32>) -> (tensor<1x8x8x4xf32>, tensor<1x16x4xf32>) {
  %z = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %e = tosa.exp %x : (tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  %s = tosa.sigmoid %e : (tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  %p = tosa.max_pool2d %s {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x8x8x4xf32>) -> tensor<1x4x4x4xf32>
  %shape = tosa.const_shape {values = dense<[1, 8, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %r = tosa.reshape %w, %shape : (tensor<8x8xf32>, !tosa.shape<3>) -> tensor<1x8x8xf32>
  %shape2 = tosa.const_shape {values = dense<[1, 16, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %pr = tosa.reshape %p, %shape2 : (tensor<1x4x4x4xf32>, !tosa.shape<3>) -> tensor<1x16x4xf32>
  %shape3 = tosa.const_shape {values = dense<[1, 8, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %m = tosa.matmul %r, %r, %z, %z : (tensor<1x8x8xf32>, tensor<1x8x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8xf32>
  %shape4 = tosa.const_shape {values = dense<[1, 16, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %mr = tosa.reshape %m, %shape4 : (tensor<1x8x8xf32>, !tosa.shape<3>) -> tensor<1x16x4xf32>
  %o = tosa.add %pr, %mr : (tensor<1x16x4xf32>, tensor<1x16x4xf32>) -> tensor<1x16x4xf32>
  return %s, %o : tensor<1x8x8x4xf32>, tensor<1x16x4xf32>
}

// With ptxas available the default is a cubin: check it is machine code.
// RUN: onnx-tosa-compile %s --target=cuda:sm_90a --dump-kernels=%t/cubin -o %t/m.cubin.otsa
// RUN: od -An -tx1 -N4 %t/cubin/main_kernel.cubin | FileCheck %s --check-prefix=CUBIN
// CUBIN: 7f 45 4c 46
