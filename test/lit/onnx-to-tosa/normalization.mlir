// RUN: onnx-tosa-opt %s --convert-onnx-to-tosa | FileCheck %s
// RUN: onnx-tosa-opt %s --convert-onnx-to-tosa | mlir-opt --tosa-attach-target="profiles=pro_fp level=none" --tosa-validate="strict-op-spec-alignment" -o /dev/null

// Constant parameters fold into y = x * m + o, m = scale / sqrt(var + eps),
// o = B - mean * m: here m = [2, 0.5], o = [1 - 2, 0 - 1.5].
// CHECK-LABEL: func.func @batchnorm_const
// CHECK: %[[M:.*]] = "tosa.const"() <{values = dense<{{\[\[\[\[}}2.000000e+00]], {{\[\[}}5.000000e-01]]]]> : tensor<1x2x1x1xf32>}>
// CHECK: %[[O:.*]] = "tosa.const"() <{values = dense<{{\[\[\[\[}}-1.000000e+00]], {{\[\[}}-1.500000e+00]]]]> : tensor<1x2x1x1xf32>}>
// CHECK: %[[XM:.*]] = tosa.mul %arg0, %[[M]]
// CHECK: tosa.add %[[XM]], %[[O]]
// CHECK-NOT: tosa.rsqrt
func.func @batchnorm_const(%x: tensor<1x2x3x3xf32>) -> !onnx.unknown {
  %s = onnx.constant "s" dense<[2.0, 1.0]> : tensor<2xf32> : tensor<2xf32>
  %b = onnx.constant "b" dense<[1.0, 0.0]> : tensor<2xf32> : tensor<2xf32>
  %m = onnx.constant "m" dense<[1.0, 3.0]> : tensor<2xf32> : tensor<2xf32>
  %v = onnx.constant "v" dense<[0.5, 3.5]> : tensor<2xf32> : tensor<2xf32>
  %0 = onnx.node "BatchNormalization"(%x, %s, %b, %m, %v) {attrs = {epsilon = 5.000000e-01 : f32}, domain = "", node_name = "bn", opset = 15 : i64} : (tensor<1x2x3x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// Run-time parameters: (x - mean) * (scale * rsqrt(var + eps)) + B.
// CHECK-LABEL: func.func @batchnorm_runtime
// CHECK: %[[VE:.*]] = tosa.add %arg4
// CHECK: %[[RS:.*]] = tosa.rsqrt %[[VE]]
// CHECK: %[[MUL:.*]] = tosa.mul %arg1, %[[RS]]
// CHECK: %[[MEAN:.*]] = tosa.reshape %arg3, %{{.*}} -> tensor<1x2x1xf32>
// CHECK: %[[C:.*]] = tosa.sub %arg0, %[[MEAN]]
// CHECK: %[[M:.*]] = tosa.reshape %[[MUL]], %{{.*}} -> tensor<1x2x1xf32>
// CHECK: %[[Y:.*]] = tosa.mul %[[C]], %[[M]]
// CHECK: %[[B:.*]] = tosa.reshape %arg2, %{{.*}} -> tensor<1x2x1xf32>
// CHECK: tosa.add %[[Y]], %[[B]]
func.func @batchnorm_runtime(%x: tensor<4x2x3xf32>, %s: tensor<2xf32>, %b: tensor<2xf32>, %m: tensor<2xf32>, %v: tensor<2xf32>) -> !onnx.unknown {
  %0 = onnx.node "BatchNormalization"(%x, %s, %b, %m, %v) {attrs = {}, domain = "", node_name = "bn", opset = 15 : i64} : (tensor<4x2x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// training_mode=1: Y uses the batch's mean and population variance over
// every dimension but the channel (here 2 x 4 = 8 elements, so the sums are
// scaled by 1/8); the running statistics are input * 0.8 + batch * 0.2.
// CHECK-LABEL: func.func @batchnorm_training
// CHECK-SAME: -> (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>)
// CHECK: %[[S0:.*]] = tosa.reduce_sum %arg0 {axis = 0 : i32}
// CHECK: %[[S:.*]] = tosa.reduce_sum %[[S0]] {axis = 2 : i32} : (tensor<1x3x4xf32>) -> tensor<1x3x1xf32>
// CHECK: %[[EIGHTH:.*]] = "tosa.const"() <{values = dense<1.250000e-01> : tensor<1x1x1xf32>}>
// CHECK: %[[MEAN:.*]] = tosa.mul %[[S]], %[[EIGHTH]]
// CHECK: %[[C:.*]] = tosa.sub %arg0, %[[MEAN]]
// CHECK: %[[C2:.*]] = tosa.mul %[[C]], %[[C]]
// CHECK: %[[Q0:.*]] = tosa.reduce_sum %[[C2]] {axis = 0 : i32}
// CHECK: %[[Q:.*]] = tosa.reduce_sum %[[Q0]] {axis = 2 : i32}
// CHECK: %[[VAR:.*]] = tosa.mul %[[Q]], %[[EIGHTH]]
// CHECK: %[[VE:.*]] = tosa.add %[[VAR]]
// CHECK: %[[RS:.*]] = tosa.rsqrt %[[VE]]
// CHECK: %[[SC:.*]] = tosa.reshape %arg1, %{{.*}} -> tensor<1x3x1xf32>
// CHECK: %[[B:.*]] = tosa.reshape %arg2, %{{.*}} -> tensor<1x3x1xf32>
// CHECK: %[[N:.*]] = tosa.mul %[[C]], %[[RS]]
// CHECK: %[[NS:.*]] = tosa.mul %[[N]], %[[SC]]
// CHECK: %[[Y:.*]] = tosa.add %[[NS]], %[[B]]
// CHECK: %[[MOM:.*]] = "tosa.const"() <{values = dense<8.000000e-01> : tensor<1xf32>}>
// CHECK: %[[KM:.*]] = tosa.mul %arg3, %[[MOM]]
// CHECK: %[[BM:.*]] = tosa.reshape %[[MEAN]], %{{.*}} -> tensor<3xf32>
// CHECK: %[[REST:.*]] = "tosa.const"() <{values = dense<0.199999988> : tensor<1xf32>}>
// CHECK: %[[AM:.*]] = tosa.mul %[[BM]], %[[REST]]
// CHECK: %[[RM:.*]] = tosa.add %[[KM]], %[[AM]]
// CHECK: %[[KV:.*]] = tosa.mul %arg4, %[[MOM]]
// CHECK: %[[BV:.*]] = tosa.reshape %[[VAR]], %{{.*}} -> tensor<3xf32>
// CHECK: %[[AV:.*]] = tosa.mul %[[BV]], %[[REST]]
// CHECK: %[[RV:.*]] = tosa.add %[[KV]], %[[AV]]
// CHECK: return %[[Y]], %[[RM]], %[[RV]]
func.func @batchnorm_training(%x: tensor<2x3x4xf32>, %s: tensor<3xf32>, %b: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) -> (!onnx.unknown, !onnx.unknown, !onnx.unknown) {
  %0:3 = onnx.node "BatchNormalization"(%x, %s, %b, %m, %v) {attrs = {training_mode = 1 : i64, momentum = 0.8 : f32}, domain = "", node_name = "bn", opset = 15 : i64} : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (!onnx.unknown, !onnx.unknown, !onnx.unknown)
  return %0#0, %0#1, %0#2 : !onnx.unknown, !onnx.unknown, !onnx.unknown
}

// From opset 13 Softmax normalizes one axis; max-subtracted for stability.
// CHECK-LABEL: func.func @softmax13
// CHECK: %[[MAX:.*]] = tosa.reduce_max %arg0 {axis = 1 : i32} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
// CHECK: %[[D:.*]] = tosa.sub %arg0, %[[MAX]]
// CHECK: %[[E:.*]] = tosa.exp %[[D]]
// CHECK: %[[S:.*]] = tosa.reduce_sum %[[E]] {axis = 1 : i32}
// CHECK: %[[R:.*]] = tosa.reciprocal %[[S]]
// CHECK: tosa.mul %[[E]], %[[R]]
func.func @softmax13(%x: tensor<2x3x4xf32>) -> !onnx.unknown {
  %0 = onnx.node "Softmax"(%x) {attrs = {axis = 1 : i64}, domain = "", node_name = "sm", opset = 13 : i64} : (tensor<2x3x4xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// Before opset 13 the input is coerced to 2-D at `axis`: all dimensions from
// `axis` on are normalized together.
// CHECK-LABEL: func.func @softmax11
// CHECK: %[[X:.*]] = tosa.reshape %arg0, %{{.*}} -> tensor<2x12xf32>
// CHECK: tosa.reduce_max %[[X]] {axis = 1 : i32} : (tensor<2x12xf32>) -> tensor<2x1xf32>
// CHECK: tosa.reduce_sum %{{.*}} {axis = 1 : i32}
// CHECK: tosa.reshape %{{.*}} -> tensor<2x3x4xf32>
func.func @softmax11(%x: tensor<2x3x4xf32>) -> !onnx.unknown {
  %0 = onnx.node "Softmax"(%x) {attrs = {}, domain = "", node_name = "sm", opset = 11 : i64} : (tensor<2x3x4xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// LogSoftmax: (x - max) - log(sum(exp(x - max))), default axis -1 from 13.
// CHECK-LABEL: func.func @logsoftmax
// CHECK: %[[MAX:.*]] = tosa.reduce_max %arg0 {axis = 2 : i32}
// CHECK: %[[D:.*]] = tosa.sub %arg0, %[[MAX]]
// CHECK: %[[E:.*]] = tosa.exp %[[D]]
// CHECK: %[[S:.*]] = tosa.reduce_sum %[[E]] {axis = 2 : i32}
// CHECK: %[[L:.*]] = tosa.log %[[S]]
// CHECK: tosa.sub %[[D]], %[[L]]
func.func @logsoftmax(%x: tensor<2x3x4xf32>) -> !onnx.unknown {
  %0 = onnx.node "LogSoftmax"(%x) {attrs = {}, domain = "", node_name = "lsm", opset = 13 : i64} : (tensor<2x3x4xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// LayerNormalization also yields Mean and InvStdDev.
// CHECK-LABEL: func.func @layernorm
// CHECK-SAME: -> (tensor<2x3x6xf32>, tensor<2x3x1xf32>, tensor<2x3x1xf32>)
// CHECK: %[[SUM:.*]] = tosa.reduce_sum %arg0 {axis = 2 : i32}
// CHECK: %[[MEAN:.*]] = tosa.mul %[[SUM]]
// CHECK: tosa.rsqrt
// CHECK: return %{{.*}}, %[[MEAN]], %{{.*}}
func.func @layernorm(%x: tensor<2x3x6xf32>, %s: tensor<6xf32>, %b: tensor<6xf32>) -> (!onnx.unknown, !onnx.unknown, !onnx.unknown) {
  %0:3 = onnx.node "LayerNormalization"(%x, %s, %b) {attrs = {axis = -1 : i64}, domain = "", node_name = "ln", opset = 17 : i64} : (tensor<2x3x6xf32>, tensor<6xf32>, tensor<6xf32>) -> (!onnx.unknown, !onnx.unknown, !onnx.unknown)
  return %0#0, %0#1, %0#2 : !onnx.unknown, !onnx.unknown, !onnx.unknown
}

// CHECK-LABEL: func.func @instancenorm
// CHECK: tosa.reduce_sum %arg0 {axis = 2 : i32}
// CHECK: tosa.reduce_sum %{{.*}} {axis = 3 : i32}
// CHECK: tosa.rsqrt
// CHECK: tosa.reshape %arg1, %{{.*}} -> tensor<1x3x1x1xf32>
func.func @instancenorm(%x: tensor<2x3x4x5xf32>, %s: tensor<3xf32>, %b: tensor<3xf32>) -> !onnx.unknown {
  %0 = onnx.node "InstanceNormalization"(%x, %s, %b) {attrs = {}, domain = "", node_name = "in", opset = 6 : i64} : (tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// LRN sums squares over a channel window via padded, shifted slices.
// CHECK-LABEL: func.func @lrn
// CHECK: tosa.pad {{.*}} -> tensor<1x7x3x3xf32>
// CHECK-COUNT-3: tosa.slice
// CHECK: tosa.pow
func.func @lrn(%x: tensor<1x5x3x3xf32>) -> !onnx.unknown {
  %0 = onnx.node "LRN"(%x) {attrs = {size = 3 : i64}, domain = "", node_name = "lrn", opset = 13 : i64} : (tensor<1x5x3x3xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// LpNormalization (p = 2): x * rsqrt(sum(x^2)).
// CHECK-LABEL: func.func @lp_normalization
// CHECK: %[[SQ:.*]] = tosa.mul %arg0, %arg0
// CHECK: %[[S:.*]] = tosa.reduce_sum %[[SQ]] {axis = 1 : i32}
// CHECK: %[[RS:.*]] = tosa.rsqrt %[[S]]
// CHECK: tosa.mul %arg0, %[[RS]]
func.func @lp_normalization(%x: tensor<2x3xf32>) -> !onnx.unknown {
  %0 = onnx.node "LpNormalization"(%x) {attrs = {axis = 1 : i64}, domain = "", node_name = "lp", opset = 1 : i64} : (tensor<2x3xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// RMSNormalization: x * rsqrt(mean(x^2) + epsilon) * scale.
// CHECK-LABEL: func.func @rms_normalization
// CHECK: %[[SQ:.*]] = tosa.mul %arg0, %arg0
// CHECK: %[[S:.*]] = tosa.reduce_sum %[[SQ]] {axis = 2 : i32}
// CHECK: %[[M:.*]] = tosa.mul %[[S]]
// CHECK: %[[E:.*]] = tosa.add %[[M]]
// CHECK: %[[INV:.*]] = tosa.rsqrt %[[E]]
// CHECK: %[[N:.*]] = tosa.mul %arg0, %[[INV]]
// CHECK: tosa.mul %[[N]], %{{.*}}
func.func @rms_normalization(%x: tensor<2x3x4xf32>, %s: tensor<4xf32>) -> !onnx.unknown {
  %0 = onnx.node "RMSNormalization"(%x, %s) {attrs = {}, domain = "", node_name = "rms", opset = 23 : i64} : (tensor<2x3x4xf32>, tensor<4xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// Hardmax: the first maximum is the smallest position holding the maximum.
// CHECK-LABEL: func.func @hardmax
// CHECK: %[[IOTA:.*]] = "tosa.const"() <{values = dense<{{\[\[}}0.000000e+00, 1.000000e+00, 2.000000e+00]]> : tensor<1x3xf32>}>
// CHECK: %[[MAX:.*]] = tosa.reduce_max %arg0 {axis = 1 : i32}
// CHECK: %[[ISMAX:.*]] = tosa.equal %arg0, %[[MAX]]
// CHECK: %[[POS:.*]] = tosa.select %[[ISMAX]], %[[IOTA]]
// CHECK: %[[FIRST:.*]] = tosa.reduce_min %[[POS]] {axis = 1 : i32}
// CHECK: %[[HOT:.*]] = tosa.equal %[[IOTA]], %[[FIRST]]
// CHECK: tosa.select %[[HOT]]
func.func @hardmax(%x: tensor<2x3xf32>) -> !onnx.unknown {
  %0 = onnx.node "Hardmax"(%x) {attrs = {}, domain = "", node_name = "hm", opset = 13 : i64} : (tensor<2x3xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// MeanVarianceNormalization over the default axes [0, 2, 3]: the epsilon
// 1e-9 is added to the standard deviation (ONNX function body).
// CHECK-LABEL: func.func @mean_variance_norm
// CHECK: %[[MEAN:.*]] = tosa.mul %{{.*}} -> tensor<1x3x1x1xf32>
// CHECK: %[[C:.*]] = tosa.sub %arg0, %[[MEAN]]
// CHECK: %[[RS:.*]] = tosa.rsqrt
// CHECK: %[[STD:.*]] = tosa.reciprocal %[[RS]]
// CHECK: %[[EPS:.*]] = "tosa.const"() <{values = dense<9.99999971E-10>
// CHECK: %[[D:.*]] = tosa.add %[[STD]], %[[EPS]]
// CHECK: %[[INV:.*]] = tosa.reciprocal %[[D]]
// CHECK: tosa.mul %[[C]], %[[INV]]
func.func @mean_variance_norm(%x: tensor<2x3x4x5xf32>) -> !onnx.unknown {
  %0 = onnx.node "MeanVarianceNormalization"(%x) {attrs = {}, domain = "", node_name = "mvn", opset = 13 : i64} : (tensor<2x3x4x5xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// GroupNormalization (opset 21): statistics per (n, group) in f32 over a
// [N, groups, C / groups * spatial] view; scale and bias per channel in X's
// type.
// CHECK-LABEL: func.func @groupnorm21
// CHECK: %[[X:.*]] = tosa.cast %arg0 : (tensor<2x4x3xf16>) -> tensor<2x4x3xf32>
// CHECK: %[[G:.*]] = tosa.reshape %[[X]], %{{.*}} -> tensor<2x2x6xf32>
// CHECK: tosa.reduce_sum %[[G]] {axis = 2 : i32}
// CHECK: tosa.rsqrt
// CHECK: %[[N:.*]] = tosa.reshape %{{.*}} -> tensor<2x4x3xf32>
// CHECK: %[[H:.*]] = tosa.cast %[[N]] : (tensor<2x4x3xf32>) -> tensor<2x4x3xf16>
// CHECK: %[[S:.*]] = tosa.reshape %arg1, %{{.*}} -> tensor<1x4x1xf16>
// CHECK: %[[Y:.*]] = tosa.mul %[[H]], %[[S]]
// CHECK: %[[B:.*]] = tosa.reshape %arg2, %{{.*}} -> tensor<1x4x1xf16>
// CHECK: tosa.add %[[Y]], %[[B]]
func.func @groupnorm21(%x: tensor<2x4x3xf16>, %s: tensor<4xf16>, %b: tensor<4xf16>) -> !onnx.unknown {
  %0 = onnx.node "GroupNormalization"(%x, %s, %b) {attrs = {num_groups = 2 : i64}, domain = "", node_name = "gn", opset = 21 : i64} : (tensor<2x4x3xf16>, tensor<4xf16>, tensor<4xf16>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// Opset 18 had scale and bias per group: applied in the grouped view.
// CHECK-LABEL: func.func @groupnorm18
// CHECK: %[[S:.*]] = tosa.reshape %arg1, %{{.*}} -> tensor<1x2x1xf32>
// CHECK: %[[B:.*]] = tosa.reshape %arg2, %{{.*}} -> tensor<1x2x1xf32>
// CHECK: %[[Y:.*]] = tosa.mul %{{.*}}, %[[S]]{{.*}} -> tensor<2x2x6xf32>
// CHECK: %[[Z:.*]] = tosa.add %[[Y]], %[[B]]
// CHECK: tosa.reshape %[[Z]], %{{.*}} -> tensor<2x4x3xf32>
func.func @groupnorm18(%x: tensor<2x4x3xf32>, %s: tensor<2xf32>, %b: tensor<2xf32>) -> !onnx.unknown {
  %0 = onnx.node "GroupNormalization"(%x, %s, %b) {attrs = {num_groups = 2 : i64}, domain = "", node_name = "gn", opset = 18 : i64} : (tensor<2x4x3xf32>, tensor<2xf32>, tensor<2xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}
