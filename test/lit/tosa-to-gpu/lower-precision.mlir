// RUN: onnx-tosa-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(onnx-tosa-lower-precision{precision=fp16}))' | FileCheck %s
// RUN: onnx-tosa-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(onnx-tosa-lower-precision{precision=bf16}))' | FileCheck %s --check-prefix=BF16
// Every op's operand and result types are a combination the TOSA 1.0
// profiles allow (bf16: EXT-BF16, which a test model also uses; fft for RFFT2D).
// RUN: onnx-tosa-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(onnx-tosa-lower-precision{precision=fp16}),tosa-attach-target{profiles=pro_int,pro_fp extensions=bf16,fft level=none},tosa-validate{strict-op-spec-alignment})' -o /dev/null
// RUN: onnx-tosa-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(onnx-tosa-lower-precision{precision=bf16}),tosa-attach-target{profiles=pro_int,pro_fp extensions=bf16,fft level=none},tosa-validate{strict-op-spec-alignment})' -o /dev/null
// tosa-to-linalg accumulates the fp16 convolution and matmul in f32.
// RUN: onnx-tosa-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(onnx-tosa-lower-precision{precision=fp16},tosa-to-linalg-named,tosa-to-linalg))' | FileCheck %s --check-prefix=LINALG
// RUN: not onnx-tosa-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(onnx-tosa-lower-precision{precision=fp8}))' 2>&1 | FileCheck %s --check-prefix=BAD

// Arguments and results stay f32, cast at entry and exit; weights become
// fp16; the convolution keeps acc_type = f32; the matmul reads fp16 and
// writes f32, which a cast rounds.
// CHECK-LABEL: func.func @conv_matmul
// CHECK-SAME: (%[[X:.*]]: tensor<1x4x4x2xf32>) -> tensor<1x16x3xf32>
// CHECK-DAG: %[[W:.*]] = "tosa.const"() <{values = dense<{{.*}}> : tensor<3x1x1x2xf16>}>
// CHECK-DAG: %[[B:.*]] = "tosa.const"() <{values = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<3xf16>}>
// CHECK-DAG: %[[ZP:.*]] = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf16>}>
// CHECK-DAG: %[[M:.*]] = "tosa.const"() <{values = dense<5.000000e-01> : tensor<1x3x3xf16>}>
// CHECK-DAG: %[[XL:.*]] = tosa.cast %[[X]] : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf16>
// CHECK: %[[C:.*]] = tosa.conv2d %[[XL]], %[[W]], %[[B]], %[[ZP]], %[[ZP]] {acc_type = f32, {{.*}}} : ({{.*}}) -> tensor<1x4x4x3xf16>
// CHECK: %[[R:.*]] = tosa.reshape %[[C]], %{{.*}} : (tensor<1x4x4x3xf16>, !tosa.shape<3>) -> tensor<1x16x3xf16>
// CHECK: %[[MM:.*]] = tosa.matmul %[[R]], %[[M]], %[[ZP]], %[[ZP]] : (tensor<1x16x3xf16>, tensor<1x3x3xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x16x3xf32>
// CHECK: %[[MML:.*]] = tosa.cast %[[MM]] : (tensor<1x16x3xf32>) -> tensor<1x16x3xf16>
// CHECK: %[[T:.*]] = tosa.tanh %[[MML]] : (tensor<1x16x3xf16>) -> tensor<1x16x3xf16>
// CHECK: %[[OUT:.*]] = tosa.cast %[[T]] : (tensor<1x16x3xf16>) -> tensor<1x16x3xf32>
// CHECK: return %[[OUT]] : tensor<1x16x3xf32>
// BF16-LABEL: func.func @conv_matmul
// BF16: tosa.cast %{{.*}} : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xbf16>
// BF16: tosa.conv2d {{.*}} {acc_type = f32, {{.*}}} : ({{.*}}) -> tensor<1x4x4x3xbf16>
// BF16: tosa.matmul {{.*}} : (tensor<1x16x3xbf16>, tensor<1x3x3xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<1x16x3xf32>
// BF16: tosa.cast %{{.*}} : (tensor<1x16x3xbf16>) -> tensor<1x16x3xf32>
// LINALG-LABEL: func.func @conv_matmul
// LINALG: linalg.conv_2d_nhwc_fhwc {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x4x4x2xf16>, tensor<3x1x1x2xf16>) outs(%{{.*}} : tensor<1x4x4x3xf32>)
// LINALG: arith.truncf %{{.*}} : f32 to f16
// LINALG: linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<1x16x3xf16>, tensor<1x3x3xf16>) outs(%{{.*}} : tensor<1x16x3xf32>)
func.func @conv_matmul(%x: tensor<1x4x4x2xf32>) -> tensor<1x16x3xf32> {
  %w = "tosa.const"() <{values = dense<0.25> : tensor<3x1x1x2xf32>}> : () -> tensor<3x1x1x2xf32>
  %b = "tosa.const"() <{values = dense<[1.0, 2.0, 3.0]> : tensor<3xf32>}> : () -> tensor<3xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %m = "tosa.const"() <{values = dense<0.5> : tensor<1x3x3xf32>}> : () -> tensor<1x3x3xf32>
  %shape = tosa.const_shape {values = dense<[1, 16, 3]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x2xf32>, tensor<3x1x1x2xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x3xf32>
  %r = tosa.reshape %c, %shape : (tensor<1x4x4x3xf32>, !tosa.shape<3>) -> tensor<1x16x3xf32>
  %mm = tosa.matmul %r, %m, %zp, %zp : (tensor<1x16x3xf32>, tensor<1x3x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x3xf32>
  %t = tosa.tanh %mm : (tensor<1x16x3xf32>) -> tensor<1x16x3xf32>
  return %t : tensor<1x16x3xf32>
}

// -----

// Layer normalization as the legalization writes it: the sums, the squares
// they read, and the arithmetic on the sums (mean, variance + epsilon,
// rsqrt) stay f32; the centring and scaling of the row are fp16. The
// constant that only the f32 ops read stays f32.
// CHECK-LABEL: func.func @layer_norm
// CHECK-DAG: %[[INV_N:.*]] = "tosa.const"() <{values = dense<2.500000e-01> : tensor<1x1xf32>}>
// CHECK-DAG: %[[EPS:.*]] = "tosa.const"() <{values = dense<9.99999974E-6> : tensor<1x1xf32>}>
// CHECK-DAG: %[[GAMMA:.*]] = "tosa.const"() <{values = dense<1.500000e+00> : tensor<1x4xf16>}>
// CHECK-DAG: %[[XL:.*]] = tosa.cast %arg0 : (tensor<2x4xf32>) -> tensor<2x4xf16>
// CHECK: %[[E:.*]] = tosa.exp %[[XL]] : (tensor<2x4xf16>) -> tensor<2x4xf16>
// CHECK: %[[EW:.*]] = tosa.cast %[[E]] : (tensor<2x4xf16>) -> tensor<2x4xf32>
// CHECK: %[[SUM:.*]] = tosa.reduce_sum %[[EW]] {axis = 1 : i32} : (tensor<2x4xf32>) -> tensor<2x1xf32>
// CHECK: %[[MEAN:.*]] = tosa.mul %[[SUM]], %[[INV_N]], %{{.*}} : (tensor<2x1xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<2x1xf32>
// CHECK: %[[MEANL:.*]] = tosa.cast %[[MEAN]] : (tensor<2x1xf32>) -> tensor<2x1xf16>
// CHECK: %[[D:.*]] = tosa.sub %[[E]], %[[MEANL]] : (tensor<2x4xf16>, tensor<2x1xf16>) -> tensor<2x4xf16>
// CHECK: %[[DW:.*]] = tosa.cast %[[D]] : (tensor<2x4xf16>) -> tensor<2x4xf32>
// CHECK: %[[SQ:.*]] = tosa.mul %[[DW]], %[[DW]], %{{.*}} : (tensor<2x4xf32>, tensor<2x4xf32>, tensor<1xi8>) -> tensor<2x4xf32>
// CHECK: %[[SSQ:.*]] = tosa.reduce_sum %[[SQ]] {axis = 1 : i32} : (tensor<2x4xf32>) -> tensor<2x1xf32>
// CHECK: %[[VAR:.*]] = tosa.mul %[[SSQ]], %[[INV_N]], %{{.*}} -> tensor<2x1xf32>
// CHECK: %[[VE:.*]] = tosa.add %[[VAR]], %[[EPS]] : (tensor<2x1xf32>, tensor<1x1xf32>) -> tensor<2x1xf32>
// CHECK: %[[RS:.*]] = tosa.rsqrt %[[VE]] : (tensor<2x1xf32>) -> tensor<2x1xf32>
// CHECK: %[[RSL:.*]] = tosa.cast %[[RS]] : (tensor<2x1xf32>) -> tensor<2x1xf16>
// CHECK: %[[N:.*]] = tosa.mul %[[D]], %[[RSL]], %{{.*}} : (tensor<2x4xf16>, tensor<2x1xf16>, tensor<1xi8>) -> tensor<2x4xf16>
// CHECK: %[[Y:.*]] = tosa.mul %[[N]], %[[GAMMA]], %{{.*}} -> tensor<2x4xf16>
// CHECK: tosa.cast %[[Y]] : (tensor<2x4xf16>) -> tensor<2x4xf32>
func.func @layer_norm(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %inv_n = "tosa.const"() <{values = dense<0.25> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %eps = "tosa.const"() <{values = dense<1.0e-5> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %gamma = "tosa.const"() <{values = dense<1.5> : tensor<1x4xf32>}> : () -> tensor<1x4xf32>
  %e = tosa.exp %x : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %sum = tosa.reduce_sum %e {axis = 1 : i32} : (tensor<2x4xf32>) -> tensor<2x1xf32>
  %mean = tosa.mul %sum, %inv_n, %shift : (tensor<2x1xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<2x1xf32>
  %d = tosa.sub %e, %mean : (tensor<2x4xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
  %sq = tosa.mul %d, %d, %shift : (tensor<2x4xf32>, tensor<2x4xf32>, tensor<1xi8>) -> tensor<2x4xf32>
  %ssq = tosa.reduce_sum %sq {axis = 1 : i32} : (tensor<2x4xf32>) -> tensor<2x1xf32>
  %var = tosa.mul %ssq, %inv_n, %shift : (tensor<2x1xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<2x1xf32>
  %ve = tosa.add %var, %eps : (tensor<2x1xf32>, tensor<1x1xf32>) -> tensor<2x1xf32>
  %rs = tosa.rsqrt %ve : (tensor<2x1xf32>) -> tensor<2x1xf32>
  %n = tosa.mul %d, %rs, %shift : (tensor<2x4xf32>, tensor<2x1xf32>, tensor<1xi8>) -> tensor<2x4xf32>
  %y = tosa.mul %n, %gamma, %shift : (tensor<2x4xf32>, tensor<1x4xf32>, tensor<1xi8>) -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}

// -----

// CLAMP's bounds follow its element type; integer tensors are untouched; a
// CAST from i32 produces fp16 directly.
// CHECK-LABEL: func.func @clamp_int_cast
// CHECK: tosa.clamp %{{.*}} {max_val = 6.000000e+00 : f16, min_val = 0.000000e+00 : f16} : (tensor<4xf16>) -> tensor<4xf16>
// CHECK: tosa.add %arg1, %arg1 : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
// CHECK: %[[F:.*]] = tosa.cast %{{.*}} : (tensor<4xi32>) -> tensor<4xf16>
// CHECK: tosa.add %{{.*}}, %[[F]] : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xf16>
// BF16-LABEL: func.func @clamp_int_cast
// BF16: tosa.clamp %{{.*}} {max_val = 6.000000e+00 : bf16, min_val = 0.000000e+00 : bf16} : (tensor<4xbf16>) -> tensor<4xbf16>
func.func @clamp_int_cast(%x: tensor<4xf32>, %i: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xi32>) {
  %c = tosa.clamp %x {max_val = 6.0 : f32, min_val = 0.0 : f32} : (tensor<4xf32>) -> tensor<4xf32>
  %s = tosa.add %i, %i : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %f = tosa.cast %s : (tensor<4xi32>) -> tensor<4xf32>
  %y = tosa.add %c, %f : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %y, %s : tensor<4xf32>, tensor<4xi32>
}

// -----

// A model's own fp16 -> f32 CAST disappears in fp16; RFFT2D has no fp16
// form and stays f32 between casts.
// CHECK-LABEL: func.func @fp16_input_and_rfft
// CHECK-NOT: tosa.cast %arg0
// CHECK: %[[A:.*]] = tosa.abs %arg0 : (tensor<1x4x4xf16>) -> tensor<1x4x4xf16>
// CHECK: %[[AW:.*]] = tosa.cast %[[A]] : (tensor<1x4x4xf16>) -> tensor<1x4x4xf32>
// CHECK: %[[RE:.*]], %[[IM:.*]] = tosa.rfft2d %[[AW]] : (tensor<1x4x4xf32>) -> (tensor<1x4x3xf32>, tensor<1x4x3xf32>)
// CHECK: %[[REL:.*]] = tosa.cast %[[RE]] : (tensor<1x4x3xf32>) -> tensor<1x4x3xf16>
// CHECK: %[[NEG:.*]] = tosa.negate %[[REL]], %{{.*}}, %{{.*}} : (tensor<1x4x3xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4x3xf16>
// CHECK: return %{{.*}}, %[[IM]] : tensor<1x4x3xf32>, tensor<1x4x3xf32>
// BF16-LABEL: func.func @fp16_input_and_rfft
// BF16: %[[W:.*]] = tosa.cast %arg0 : (tensor<1x4x4xf16>) -> tensor<1x4x4xf32>
// BF16: tosa.cast %[[W]] : (tensor<1x4x4xf32>) -> tensor<1x4x4xbf16>
func.func @fp16_input_and_rfft(%x: tensor<1x4x4xf16>) -> (tensor<1x4x3xf32>, tensor<1x4x3xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %w = tosa.cast %x : (tensor<1x4x4xf16>) -> tensor<1x4x4xf32>
  %a = tosa.abs %w : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %re, %im = tosa.rfft2d %a : (tensor<1x4x4xf32>) -> (tensor<1x4x3xf32>, tensor<1x4x3xf32>)
  %n = tosa.negate %re, %zp, %zp : (tensor<1x4x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x3xf32>
  return %n, %im : tensor<1x4x3xf32>, tensor<1x4x3xf32>
}

// BAD: onnx-tosa-lower-precision: unknown precision 'fp8' (expected fp16 or bf16)

// -----

// The model's own f32 -> bf16 CAST reads f32 (fp16 -> bf16 has no TOSA
// form).
// CHECK-LABEL: func.func @cast_to_bf16
// CHECK: %[[A:.*]] = tosa.abs %{{.*}} : (tensor<4xf16>) -> tensor<4xf16>
// CHECK: %[[W:.*]] = tosa.cast %[[A]] : (tensor<4xf16>) -> tensor<4xf32>
// CHECK: tosa.cast %[[W]] : (tensor<4xf32>) -> tensor<4xbf16>
func.func @cast_to_bf16(%x: tensor<4xf32>) -> tensor<4xbf16> {
  %a = tosa.abs %x : (tensor<4xf32>) -> tensor<4xf32>
  %c = tosa.cast %a : (tensor<4xf32>) -> tensor<4xbf16>
  return %c : tensor<4xbf16>
}

// -----

// What a float -> int CAST reads must come out an exact integer (fp16 holds
// integers up to 2048 only): the scaling and rounding of a quantization stay
// f32, back to the matmul, which stays fp16 with its f32 result.
// CHECK-LABEL: func.func @quantize_after_matmul
// CHECK: %[[MM:.*]] = tosa.matmul {{.*}} : (tensor<1x2x4xf16>, tensor<1x4x3xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x2x3xf32>
// CHECK: %[[S:.*]] = tosa.mul %[[MM]], %{{.*}}, %{{.*}} : (tensor<1x2x3xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x2x3xf32>
// CHECK: %[[F:.*]] = tosa.floor %[[S]] : (tensor<1x2x3xf32>) -> tensor<1x2x3xf32>
// CHECK: tosa.cast %[[F]] : (tensor<1x2x3xf32>) -> tensor<1x2x3xi32>
func.func @quantize_after_matmul(%a: tensor<1x2x4xf32>) -> tensor<1x2x3xi32> {
  %b = "tosa.const"() <{values = dense<0.5> : tensor<1x4x3xf32>}> : () -> tensor<1x4x3xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %scale = "tosa.const"() <{values = dense<300.0> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %mm = tosa.matmul %a, %b, %zp, %zp : (tensor<1x2x4xf32>, tensor<1x4x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x3xf32>
  %s = tosa.mul %mm, %scale, %shift : (tensor<1x2x3xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x2x3xf32>
  %f = tosa.floor %s : (tensor<1x2x3xf32>) -> tensor<1x2x3xf32>
  %i = tosa.cast %f : (tensor<1x2x3xf32>) -> tensor<1x2x3xi32>
  return %i : tensor<1x2x3xi32>
}

// -----

// Log-sum-exp written out: the exponentials only the sum reads, the sum,
// its reshape (keepdims = 0) and log stay f32 (e^11 overflows fp16).
// CHECK-LABEL: func.func @log_sum_exp
// CHECK: %[[A:.*]] = tosa.abs %{{.*}} : (tensor<2x8xf16>) -> tensor<2x8xf16>
// CHECK: %[[AW:.*]] = tosa.cast %[[A]] : (tensor<2x8xf16>) -> tensor<2x8xf32>
// CHECK: %[[E:.*]] = tosa.exp %[[AW]] : (tensor<2x8xf32>) -> tensor<2x8xf32>
// CHECK: %[[S:.*]] = tosa.reduce_sum %[[E]] {axis = 1 : i32} : (tensor<2x8xf32>) -> tensor<2x1xf32>
// CHECK: %[[R:.*]] = tosa.reshape %[[S]], %{{.*}} : (tensor<2x1xf32>, !tosa.shape<1>) -> tensor<2xf32>
// CHECK: %[[L:.*]] = tosa.log %[[R]] : (tensor<2xf32>) -> tensor<2xf32>
// CHECK: return %[[L]] : tensor<2xf32>
func.func @log_sum_exp(%x: tensor<2x8xf32>) -> tensor<2xf32> {
  %shape = tosa.const_shape {values = dense<2> : tensor<1xindex>} : () -> !tosa.shape<1>
  %a = tosa.abs %x : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %e = tosa.exp %a : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %s = tosa.reduce_sum %e {axis = 1 : i32} : (tensor<2x8xf32>) -> tensor<2x1xf32>
  %r = tosa.reshape %s, %shape : (tensor<2x1xf32>, !tosa.shape<1>) -> tensor<2xf32>
  %l = tosa.log %r : (tensor<2xf32>) -> tensor<2xf32>
  return %l : tensor<2xf32>
}
