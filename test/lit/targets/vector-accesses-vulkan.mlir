// Vector loads and stores on Vulkan (onnx-tosa-vectorize-spirv-accesses,
// targets/spirv/KernelMemory.cpp): the SPIR-V conversion leaves a vector
// access as a cast of an element pointer, which Vulkan's logical addressing
// forbids. A variable whose length the vectors divide becomes an array of
// vectors; one that cannot gets one access per element.
// RUN: onnx-tosa-opt %s --pass-pipeline='builtin.module(spirv.module(onnx-tosa-vectorize-spirv-accesses))' | FileCheck %s

// CHECK: spirv.GlobalVariable @even bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.array<2 x vector<4xf32>, stride=16> [0])>, StorageBuffer>
// CHECK: spirv.GlobalVariable @odd bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.array<6 x f32, stride=4> [0])>, StorageBuffer>
// CHECK: spirv.GlobalVariable @tile : !spirv.ptr<!spirv.struct<(!spirv.array<4 x vector<2xf32>>)>, Workgroup>
// CHECK-LABEL: spirv.func @accesses
// CHECK-NOT: spirv.Bitcast
// The vector load of @even at element %i: vector %i >> 2, no alignment.
// CHECK: %[[Q:.*]] = spirv.ShiftRightLogical %[[I:.*]], %{{.*}} : i32, i32
// CHECK: %[[VP:.*]] = spirv.AccessChain %{{.*}}[%{{.*}}, %[[Q]]] : {{.*}} -> !spirv.ptr<vector<4xf32>, StorageBuffer>
// CHECK: %[[V:.*]] = spirv.Load "StorageBuffer" %[[VP]] : vector<4xf32>
// Its scalar load at %j: lane %j & 3 of vector %j >> 2.
// CHECK: %[[JQ:.*]] = spirv.ShiftRightLogical %[[J:.*]], %{{.*}} : i32, i32
// CHECK: %[[JL:.*]] = spirv.BitwiseAnd %[[J]], %{{.*}} : i32
// CHECK: %[[SP:.*]] = spirv.AccessChain %{{.*}}[%{{.*}}, %[[JQ]], %[[JL]]] : {{.*}} -> !spirv.ptr<f32, StorageBuffer>
// CHECK: spirv.Load "StorageBuffer" %[[SP]] : f32
// @odd (6 elements) takes the vector store as 4 scalar ones.
// CHECK-COUNT-4: spirv.Store "StorageBuffer" %{{.*}}, %{{.*}} : f32
// The workgroup tile: vector<2xf32> at %i >> 1.
// CHECK: spirv.ShiftRightLogical %[[I]], %{{.*}} : i32, i32
// CHECK: spirv.Store "Workgroup" %{{.*}}, %{{.*}} : vector<2xf32>
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @even bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.array<8 x f32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @odd bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.array<6 x f32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @tile : !spirv.ptr<!spirv.struct<(!spirv.array<8 x f32>)>, Workgroup>
  spirv.func @accesses(%i: i32, %j: i32) "None" {
    %c0 = spirv.Constant 0 : i32
    %even = spirv.mlir.addressof @even : !spirv.ptr<!spirv.struct<(!spirv.array<8 x f32, stride=4> [0])>, StorageBuffer>
    %odd = spirv.mlir.addressof @odd : !spirv.ptr<!spirv.struct<(!spirv.array<6 x f32, stride=4> [0])>, StorageBuffer>
    %tile = spirv.mlir.addressof @tile : !spirv.ptr<!spirv.struct<(!spirv.array<8 x f32>)>, Workgroup>
    %p = spirv.AccessChain %even[%c0, %i] : !spirv.ptr<!spirv.struct<(!spirv.array<8 x f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
    %vp = spirv.Bitcast %p : !spirv.ptr<f32, StorageBuffer> to !spirv.ptr<vector<4xf32>, StorageBuffer>
    %v = spirv.Load "StorageBuffer" %vp ["Aligned", 16] : vector<4xf32>
    %s = spirv.AccessChain %even[%c0, %j] : !spirv.ptr<!spirv.struct<(!spirv.array<8 x f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
    %x = spirv.Load "StorageBuffer" %s : f32
    %q = spirv.AccessChain %odd[%c0, %i] : !spirv.ptr<!spirv.struct<(!spirv.array<6 x f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
    %vq = spirv.Bitcast %q : !spirv.ptr<f32, StorageBuffer> to !spirv.ptr<vector<4xf32>, StorageBuffer>
    spirv.Store "StorageBuffer" %vq, %v : vector<4xf32>
    %w = spirv.CompositeConstruct %x, %x : (f32, f32) -> vector<2xf32>
    %t = spirv.AccessChain %tile[%c0, %i] : !spirv.ptr<!spirv.struct<(!spirv.array<8 x f32>)>, Workgroup>, i32, i32 -> !spirv.ptr<f32, Workgroup>
    %vt = spirv.Bitcast %t : !spirv.ptr<f32, Workgroup> to !spirv.ptr<vector<2xf32>, Workgroup>
    spirv.Store "Workgroup" %vt, %w : vector<2xf32>
    spirv.Return
  }
}
