// The optimizer updates of ai.onnx.preview.training: elementwise arithmetic
// with the run-time scalars R and T broadcast over every variable.
// RUN: onnx-tosa-opt %s -split-input-file --convert-onnx-to-tosa | FileCheck %s
// RUN: onnx-tosa-opt %s -split-input-file --convert-onnx-to-tosa | mlir-opt -split-input-file --tosa-attach-target="profiles=pro_fp level=none" --tosa-validate="strict-op-spec-alignment" -o /dev/null

// Adagrad: G' = 0.001 * X + G, H_new = H + G'^2,
// X_new = X - R / (1 + 0.1 * T) * G' / (sqrt(H_new) + 1e-5). T is a run-time
// tensor (int64 computed as i32), converted to float and broadcast.
// CHECK-LABEL: func.func @adagrad
// CHECK-SAME: -> (tensor<2x3xf32>, tensor<2x3xf32>)
// CHECK: %[[T32:.*]] = arith.trunci %arg1 : tensor<i64> to tensor<i32>
// CHECK: %[[T:.*]] = tosa.cast %[[T32]] : (tensor<i32>) -> tensor<f32>
// CHECK: %[[NORM:.*]] = "tosa.const"() <{values = dense<1.000000e-03> : tensor<1x1xf32>}>
// CHECK: %[[NX:.*]] = tosa.mul %[[NORM]], %arg2
// CHECK: %[[G:.*]] = tosa.add %[[NX]], %arg3
// CHECK: %[[ONE:.*]] = "tosa.const"() <{values = dense<1.000000e+00> : tensor<f32>}>
// CHECK: %[[DECAY:.*]] = "tosa.const"() <{values = dense<1.000000e-01> : tensor<f32>}>
// CHECK: %[[TD:.*]] = tosa.mul %[[T]], %[[DECAY]]
// CHECK: %[[DEN:.*]] = tosa.add %[[ONE]], %[[TD]]
// CHECK: %[[INV:.*]] = tosa.reciprocal %[[DEN]]
// CHECK: %[[RATE:.*]] = tosa.mul %arg0, %[[INV]]
// CHECK: %[[G2:.*]] = tosa.mul %[[G]], %[[G]]
// CHECK: %[[H:.*]] = tosa.add %arg4, %[[G2]]
// CHECK: %[[RS:.*]] = tosa.rsqrt %[[H]]
// CHECK: %[[SQRT:.*]] = tosa.reciprocal %[[RS]]
// CHECK: %[[EPS:.*]] = "tosa.const"() <{values = dense<9.99999974E-6> : tensor<1x1xf32>}>
// CHECK: %[[S:.*]] = tosa.add %[[SQRT]], %[[EPS]]
// CHECK: %[[SINV:.*]] = tosa.reciprocal %[[S]]
// CHECK: %[[STEP:.*]] = tosa.mul %[[G]], %[[SINV]]
// CHECK: %[[R:.*]] = tosa.reshape %[[RATE]], %{{.*}} -> tensor<1x1xf32>
// CHECK: %[[DX:.*]] = tosa.mul %[[R]], %[[STEP]]
// CHECK: %[[X:.*]] = tosa.sub %arg2, %[[DX]]
// CHECK: return %[[X]], %[[H]]
func.func @adagrad(%r: tensor<f32>, %t: tensor<i64>, %x: tensor<2x3xf32>, %g: tensor<2x3xf32>, %h: tensor<2x3xf32>) -> (!onnx.unknown, !onnx.unknown) {
  %0:2 = onnx.node "Adagrad"(%r, %t, %x, %g, %h) {attrs = {decay_factor = 1.000000e-01 : f32, epsilon = 9.99999974E-6 : f32, norm_coefficient = 1.000000e-03 : f32}, domain = "ai.onnx.preview.training", node_name = "adagrad", opset = 1 : i64} : (tensor<f32>, tensor<i64>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) -> (!onnx.unknown, !onnx.unknown)
  return %0#0, %0#1 : !onnx.unknown, !onnx.unknown
}

// -----

// Adam on two variables: inputs X1 X2 G1 G2 V1 V2 H1 H2, outputs X1 X2 V1 V2
// H1 H2. The learning rate is bias-corrected when T > 0:
// R * sqrt(1 - beta^T) / (1 - alpha^T), with beta^T = exp(T * ln beta)
// (ln 0.85 = -0.1625189, ln 0.95 = -0.0512933); it is computed once and
// shared by both variables.
// CHECK-LABEL: func.func @adam_multiple
// CHECK-SAME: -> (tensor<1xf32>, tensor<2xf32>, tensor<1xf32>, tensor<2xf32>, tensor<1xf32>, tensor<2xf32>)
// CHECK: %[[T:.*]] = tosa.cast %{{.*}} : (tensor<i32>) -> tensor<f32>
// CHECK: %[[POS:.*]] = tosa.greater %[[T]], %{{.*}} : (tensor<f32>, tensor<f32>) -> tensor<i1>
// CHECK: tosa.add %{{.*}}, %arg4
// CHECK: %[[V1:.*]] = tosa.add
// CHECK: %[[H1:.*]] = tosa.add
// CHECK: %[[LNB:.*]] = "tosa.const"() <{values = dense<-0.162518{{[0-9]*}}> : tensor<f32>}>
// CHECK: %[[TLNB:.*]] = tosa.mul %[[T]], %[[LNB]]
// CHECK: %[[BT:.*]] = tosa.exp %[[TLNB]]
// CHECK: %[[LNA:.*]] = "tosa.const"() <{values = dense<-0.051293{{[0-9]*}}> : tensor<f32>}>
// CHECK: %[[TLNA:.*]] = tosa.mul %[[T]], %[[LNA]]
// CHECK: %[[AT:.*]] = tosa.exp %[[TLNA]]
// CHECK: %[[CORR:.*]] = tosa.mul
// CHECK: %[[RATE:.*]] = tosa.select %[[POS]], %[[CORR]], %arg0
// CHECK: %[[R:.*]] = tosa.reshape %[[RATE]]
// CHECK: %[[D1:.*]] = tosa.mul %[[R]], %{{.*}} : (tensor<1xf32>, tensor<1xf32>
// CHECK: %[[X1:.*]] = tosa.sub %arg2, %[[D1]]
// CHECK-NOT: tosa.exp
// CHECK: tosa.add %{{.*}}, %arg5
// CHECK: %[[V2:.*]] = tosa.add {{.*}} -> tensor<2xf32>
// CHECK: %[[H2:.*]] = tosa.add {{.*}} -> tensor<2xf32>
// CHECK: %[[D2:.*]] = tosa.mul %[[R]], %{{.*}} : (tensor<1xf32>, tensor<2xf32>
// CHECK: %[[X2:.*]] = tosa.sub %arg3, %[[D2]]
// CHECK: return %[[X1]], %[[X2]], %[[V1]], %[[V2]], %[[H1]], %[[H2]]
func.func @adam_multiple(%r: tensor<f32>, %t: tensor<i64>, %x1: tensor<1xf32>, %x2: tensor<2xf32>, %g1: tensor<1xf32>, %g2: tensor<2xf32>, %v1: tensor<1xf32>, %v2: tensor<2xf32>, %h1: tensor<1xf32>, %h2: tensor<2xf32>) -> (!onnx.unknown, !onnx.unknown, !onnx.unknown, !onnx.unknown, !onnx.unknown, !onnx.unknown) {
  %0:6 = onnx.node "Adam"(%r, %t, %x1, %x2, %g1, %g2, %v1, %v2, %h1, %h2) {attrs = {alpha = 0.949999988 : f32, beta = 8.500000e-01 : f32, epsilon = 0.00999999977 : f32, norm_coefficient = 1.000000e-03 : f32}, domain = "ai.onnx.preview.training", node_name = "adam", opset = 1 : i64} : (tensor<f32>, tensor<i64>, tensor<1xf32>, tensor<2xf32>, tensor<1xf32>, tensor<2xf32>, tensor<1xf32>, tensor<2xf32>, tensor<1xf32>, tensor<2xf32>) -> (!onnx.unknown, !onnx.unknown, !onnx.unknown, !onnx.unknown, !onnx.unknown, !onnx.unknown)
  return %0#0, %0#1, %0#2, %0#3, %0#4, %0#5 : !onnx.unknown, !onnx.unknown, !onnx.unknown, !onnx.unknown, !onnx.unknown, !onnx.unknown
}

// -----

// Adam's optional terms: norm_coefficient = 0 adds nothing to G, and
// norm_coefficient_post = 0.5 scales the new X by 1 - 0.5.
// CHECK-LABEL: func.func @adam_post
// CHECK-NOT: tosa.add %{{.*}}, %arg3
// CHECK: %[[X:.*]] = tosa.sub %arg2
// CHECK: %[[HALF:.*]] = "tosa.const"() <{values = dense<5.000000e-01> : tensor<1xf32>}>
// CHECK: %[[XP:.*]] = tosa.mul %[[HALF]], %[[X]]
// CHECK: return %[[XP]]
func.func @adam_post(%r: tensor<f32>, %t: tensor<i64>, %x: tensor<3xf32>, %g: tensor<3xf32>, %v: tensor<3xf32>, %h: tensor<3xf32>) -> (!onnx.unknown, !onnx.unknown, !onnx.unknown) {
  %0:3 = onnx.node "Adam"(%r, %t, %x, %g, %v, %h) {attrs = {norm_coefficient_post = 5.000000e-01 : f32}, domain = "ai.onnx.preview.training", node_name = "adam", opset = 1 : i64} : (tensor<f32>, tensor<i64>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (!onnx.unknown, !onnx.unknown, !onnx.unknown)
  return %0#0, %0#1, %0#2 : !onnx.unknown, !onnx.unknown, !onnx.unknown
}

// -----

// Momentum, standard: V_new = alpha * V + (T > 0 ? beta : 1) * G',
// X_new = X - R * V_new.
// CHECK-LABEL: func.func @momentum
// CHECK: %[[T:.*]] = tosa.cast %{{.*}} : (tensor<i32>) -> tensor<f32>
// CHECK: %[[POS:.*]] = tosa.greater %[[T]]
// CHECK: %[[G:.*]] = tosa.add %{{.*}}, %arg3
// CHECK: %[[BETA:.*]] = "tosa.const"() <{values = dense<1.000000e-01> : tensor<f32>}>
// CHECK: %[[ONE:.*]] = "tosa.const"() <{values = dense<1.000000e+00> : tensor<f32>}>
// CHECK: %[[GS:.*]] = tosa.select %[[POS]], %[[BETA]], %[[ONE]]
// CHECK: %[[ALPHA:.*]] = "tosa.const"() <{values = dense<0.949999988> : tensor<1xf32>}>
// CHECK: %[[AV:.*]] = tosa.mul %[[ALPHA]], %arg4
// CHECK: %[[GS1:.*]] = tosa.reshape %[[GS]]
// CHECK: %[[BG:.*]] = tosa.mul %[[GS1]], %[[G]]
// CHECK: %[[V:.*]] = tosa.add %[[AV]], %[[BG]]
// CHECK: %[[R:.*]] = tosa.reshape %arg0
// CHECK: %[[D:.*]] = tosa.mul %[[R]], %[[V]]
// CHECK: %[[X:.*]] = tosa.sub %arg2, %[[D]]
// CHECK: return %[[X]], %[[V]]
func.func @momentum(%r: tensor<f32>, %t: tensor<i64>, %x: tensor<2xf32>, %g: tensor<2xf32>, %v: tensor<2xf32>) -> (!onnx.unknown, !onnx.unknown) {
  %0:2 = onnx.node "Momentum"(%r, %t, %x, %g, %v) {attrs = {alpha = 0.949999988 : f32, beta = 1.000000e-01 : f32, mode = "standard", norm_coefficient = 1.000000e-03 : f32}, domain = "ai.onnx.preview.training", node_name = "m", opset = 1 : i64} : (tensor<f32>, tensor<i64>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (!onnx.unknown, !onnx.unknown)
  return %0#0, %0#1 : !onnx.unknown, !onnx.unknown
}

// -----

// Nesterov: X_new = X - R * (G' + alpha * V_new). With beta = 1 the
// gradient's coefficient is 1 whatever T is, so T is not read.
// CHECK-LABEL: func.func @nesterov
// CHECK-NOT: tosa.select
// CHECK: %[[G:.*]] = tosa.add %{{.*}}, %arg3
// CHECK: %[[ALPHA:.*]] = "tosa.const"() <{values = dense<0.949999988> : tensor<1xf32>}>
// CHECK: %[[AV:.*]] = tosa.mul %[[ALPHA]], %arg4
// CHECK: %[[V:.*]] = tosa.add %[[AV]],
// CHECK: %[[AVN:.*]] = tosa.mul %[[ALPHA]], %[[V]]
// CHECK: %[[DIR:.*]] = tosa.add %[[G]], %[[AVN]]
// CHECK: %[[R:.*]] = tosa.reshape %arg0
// CHECK: %[[D:.*]] = tosa.mul %[[R]], %[[DIR]]
// CHECK: %[[X:.*]] = tosa.sub %arg2, %[[D]]
// CHECK: return %[[X]], %[[V]]
func.func @nesterov(%r: tensor<f32>, %t: tensor<i64>, %x: tensor<2xf32>, %g: tensor<2xf32>, %v: tensor<2xf32>) -> (!onnx.unknown, !onnx.unknown) {
  %0:2 = onnx.node "Momentum"(%r, %t, %x, %g, %v) {attrs = {alpha = 0.949999988 : f32, beta = 1.000000e+00 : f32, mode = "nesterov", norm_coefficient = 0.00999999977 : f32}, domain = "ai.onnx.preview.training", node_name = "m", opset = 1 : i64} : (tensor<f32>, tensor<i64>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (!onnx.unknown, !onnx.unknown)
  return %0#0, %0#1 : !onnx.unknown, !onnx.unknown
}

// -----

// f16 variables are updated in f32 and rounded once.
// CHECK-LABEL: func.func @momentum_f16
// CHECK-SAME: -> (tensor<4xf16>, tensor<4xf16>)
// CHECK: tosa.cast %arg2 : (tensor<4xf16>) -> tensor<4xf32>
// CHECK: %[[X:.*]] = tosa.cast %{{.*}} : (tensor<4xf32>) -> tensor<4xf16>
// CHECK: %[[V:.*]] = tosa.cast %{{.*}} : (tensor<4xf32>) -> tensor<4xf16>
// CHECK: return %[[X]], %[[V]]
func.func @momentum_f16(%r: tensor<f32>, %t: tensor<i64>, %x: tensor<4xf16>, %g: tensor<4xf16>, %v: tensor<4xf16>) -> (!onnx.unknown, !onnx.unknown) {
  %0:2 = onnx.node "Momentum"(%r, %t, %x, %g, %v) {attrs = {alpha = 0.9 : f32, beta = 0.5 : f32, mode = "standard", norm_coefficient = 0.0 : f32}, domain = "ai.onnx.preview.training", node_name = "m", opset = 1 : i64} : (tensor<f32>, tensor<i64>, tensor<4xf16>, tensor<4xf16>, tensor<4xf16>) -> (!onnx.unknown, !onnx.unknown)
  return %0#0, %0#1 : !onnx.unknown, !onnx.unknown
}
