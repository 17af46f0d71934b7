// The target's row decides what a GEMM's kernel is made of: f16 tensor
// cores through WMMA on every chip, warpgroup MMA on sm_90a only; tiles
// copied by cp.async from sm_80 on; kernels that wait for the previous ones
// themselves (griddepcontrol) from sm_90 on; the PTX ISA version each chip
// needs (sm_100: 8.6, sm_120: 8.7, else 8.0). A T4 (sm_75, 40 SMs) gets
// 128x128 tiles of 256 threads, 48 blocks, which fill it; an A100 (sm_80,
// 108 SMs) 64x64 tiles of 128 threads, 192 blocks. ptxas takes the PTX of
// every chip.
// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: onnx-tosa-compile %s --target=cuda:sm_75 --emit=gpu | FileCheck %s --check-prefix=GRID75
// RUN: onnx-tosa-compile %s --target=cuda:sm_80 --emit=gpu | FileCheck %s --check-prefix=GRID80
// RUN: onnx-tosa-compile %s --target=cuda:sm_75 --emit=ptx > %t/sm_75.ptx
// RUN: FileCheck %s --check-prefixes=PTX80,WMMA,NOASYNC,NOWAIT < %t/sm_75.ptx
// RUN: onnx-tosa-compile %s --target=cuda:sm_80 --emit=ptx > %t/sm_80.ptx
// RUN: FileCheck %s --check-prefixes=PTX80,WMMA,ASYNC,NOWAIT < %t/sm_80.ptx
// RUN: onnx-tosa-compile %s --target=cuda:sm_90a --emit=ptx > %t/sm_90a.ptx
// RUN: FileCheck %s --check-prefixes=PTX80,WGMMA,ASYNC,WAIT < %t/sm_90a.ptx
// RUN: onnx-tosa-compile %s --target=cuda:sm_100 --emit=ptx > %t/sm_100.ptx
// RUN: FileCheck %s --check-prefixes=PTX86,WMMA,ASYNC,WAIT < %t/sm_100.ptx
// RUN: onnx-tosa-compile %s --target=cuda:sm_120 --emit=ptx > %t/sm_120.ptx
// RUN: FileCheck %s --check-prefixes=PTX87,WMMA,ASYNC,WAIT < %t/sm_120.ptx
// RUN: for c in sm_75 sm_80 sm_90a sm_100 sm_120; do csplit -s -z -f %t/$c.part %t/$c.ptx '/^\/\/ ---- module/' '{*}' && for f in %t/$c.part*; do ptxas -arch=$c "$f" -o /dev/null || exit 1; done; done

// GRID75: gpu.launch_func {{.*}} blocks in (%c6, %c8, %c1) threads in (%c256, %c1, %c1)
// GRID80: gpu.launch_func {{.*}} blocks in (%c12, %c16, %c1) threads in (%c128, %c1, %c1)
// PTX80: .version 8.0
// PTX86: .version 8.6
// PTX87: .version 8.7
// NOWAIT-NOT: griddepcontrol
// NOASYNC-NOT: cp.async
// WAIT: griddepcontrol.wait
// ASYNC: cp.async
// WMMA: wmma.mma.sync
// WGMMA: wgmma.mma_async
// WMMA-NOT: wgmma.mma_async
// NOASYNC-NOT: cp.async
// NOWAIT-NOT: griddepcontrol
func.func @main(%a: tensor<1x1024x768xf16>, %b: tensor<1x768x768xf16>) -> tensor<1x1024x768xf32> {
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %m = tosa.matmul %a, %b, %z, %z : (tensor<1x1024x768xf16>, tensor<1x768x768xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x1024x768xf32>
  return %m : tensor<1x1024x768xf32>
}
