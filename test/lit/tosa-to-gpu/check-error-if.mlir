// onnx-tosa-check-error-if refuses the TOSA 1.0 ERROR_IF conditions that
// LLVM 22's verifiers and tosa-validate leave unchecked, one per function
// (the official conformance suite's negative tests found each), and
// leaves valid graphs alone.
// RUN: onnx-tosa-opt %s --split-input-file --onnx-tosa-check-error-if --verify-diagnostics

func.func @mul_output_not_broadcast(%a: tensor<10xi8>) -> tensor<11xi32> {
  %b = "tosa.const"() <{values = dense<3> : tensor<1xi8>}> : () -> tensor<1xi8>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-error @+1 {{ERROR_IF: output dimension 0 is 11 but the inputs broadcast to 10}}
  %0 = tosa.mul %a, %b, %shift : (tensor<10xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<11xi32>
  return %0 : tensor<11xi32>
}

// -----

func.func @resize_batch(%x: tensor<1x1x8x14xf32>) -> tensor<7x1x15x14xf32> {
  %scale = tosa.const_shape {values = dense<[2, 1, 2, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %offset = tosa.const_shape {values = dense<0> : tensor<2xindex>} : () -> !tosa.shape<2>
  %border = tosa.const_shape {values = dense<0> : tensor<2xindex>} : () -> !tosa.shape<2>
  // expected-error @+1 {{ERROR_IF: the output's batch size 7 is not the input's 1}}
  %0 = tosa.resize %x, %scale, %offset, %border {mode = NEAREST_NEIGHBOR} : (tensor<1x1x8x14xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<7x1x15x14xf32>
  return %0 : tensor<7x1x15x14xf32>
}

// -----

func.func @slice_size_zero(%x: tensor<6xi16>) -> tensor<6xi16> {
  %start = tosa.const_shape {values = dense<2> : tensor<1xindex>} : () -> !tosa.shape<1>
  %size = tosa.const_shape {values = dense<0> : tensor<1xindex>} : () -> !tosa.shape<1>
  // expected-error @+1 {{ERROR_IF: size[0] is 0; it must be at least 1}}
  %0 = tosa.slice %x, %start, %size : (tensor<6xi16>, !tosa.shape<1>, !tosa.shape<1>) -> tensor<6xi16>
  return %0 : tensor<6xi16>
}

// -----

func.func @slice_past_the_end(%x: tensor<6xi16>) -> tensor<5xi16> {
  %start = tosa.const_shape {values = dense<2> : tensor<1xindex>} : () -> !tosa.shape<1>
  %size = tosa.const_shape {values = dense<5> : tensor<1xindex>} : () -> !tosa.shape<1>
  // expected-error @+1 {{ERROR_IF: start[0] + size[0] = 7 is past the input's dimension 6}}
  %0 = tosa.slice %x, %start, %size : (tensor<6xi16>, !tosa.shape<1>, !tosa.shape<1>) -> tensor<5xi16>
  return %0 : tensor<5xi16>
}

// -----

func.func @tile_output(%x: tensor<8x8xf16>) -> tensor<8x8xf16> {
  %m = tosa.const_shape {values = dense<[1, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  // expected-error @+1 {{ERROR_IF: output dimension 1 is 8, not 8 * multiples[1] = 16}}
  %0 = tosa.tile %x, %m : (tensor<8x8xf16>, !tosa.shape<2>) -> tensor<8x8xf16>
  return %0 : tensor<8x8xf16>
}

// -----

// Valid graphs pass: broadcasting, a resize that keeps N and C, a slice
// inside its input, a tile of the right size.
func.func @valid(%a: tensor<4x1xf32>, %b: tensor<1x5xf32>, %x: tensor<1x4x4x3xf32>) -> (tensor<4x5xf32>, tensor<1x8x8x3xf32>, tensor<2x5xf32>, tensor<8x5xf32>) {
  %0 = tosa.add %a, %b : (tensor<4x1xf32>, tensor<1x5xf32>) -> tensor<4x5xf32>
  %scale = tosa.const_shape {values = dense<[2, 1, 2, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %offset = tosa.const_shape {values = dense<0> : tensor<2xindex>} : () -> !tosa.shape<2>
  %border = tosa.const_shape {values = dense<[1, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %1 = tosa.resize %x, %scale, %offset, %border {mode = NEAREST_NEIGHBOR} : (tensor<1x4x4x3xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x8x8x3xf32>
  %start = tosa.const_shape {values = dense<[2, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %size = tosa.const_shape {values = dense<[2, 5]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %2 = tosa.slice %0, %start, %size : (tensor<4x5xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<2x5xf32>
  %m = tosa.const_shape {values = dense<[2, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %3 = tosa.tile %0, %m : (tensor<4x5xf32>, !tosa.shape<2>) -> tensor<8x5xf32>
  return %0, %1, %2, %3 : tensor<4x5xf32>, tensor<1x8x8x3xf32>, tensor<2x5xf32>, tensor<8x5xf32>
}

// -----

// The 8K level: a rank-4 PAD is within it (its padding operand holds 8
// values, which LLVM 22's tosa-validate counts as a rank of 8).
func.func @pad_rank4(%x: tensor<1x7x7x2xf32>) -> tensor<1x9x9x2xf32> {
  %p = tosa.const_shape {values = dense<[0, 0, 1, 1, 1, 1, 0, 0]> : tensor<8xindex>} : () -> !tosa.shape<8>
  %v = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.pad %x, %p, %v : (tensor<1x7x7x2xf32>, !tosa.shape<8>, tensor<1xf32>) -> tensor<1x9x9x2xf32>
  return %0 : tensor<1x9x9x2xf32>
}

// -----

func.func @rank7(%x: tensor<1x1x1x1x1x1x2xf32>) -> tensor<1x1x1x1x1x1x2xf32> {
  // expected-error @+1 {{level 8K: operand 0 has rank 7; MAX_RANK is 6}}
  %0 = tosa.abs %x : (tensor<1x1x1x1x1x1x2xf32>) -> tensor<1x1x1x1x1x1x2xf32>
  return %0 : tensor<1x1x1x1x1x1x2xf32>
}

// -----

func.func @pool_kernel(%x: tensor<1x8200x4x1xf32>) -> tensor<1x8x4x1xf32> {
  // expected-error @+1 {{level 8K: kernel[0] is 8193; MAX_KERNEL is 8192}}
  %0 = tosa.max_pool2d %x {kernel = array<i64: 8193, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x8200x4x1xf32>) -> tensor<1x8x4x1xf32>
  return %0 : tensor<1x8x4x1xf32>
}

// -----

func.func @resize_scale(%x: tensor<1x2x2x1xf32>) -> tensor<1x3x258x1xf32> {
  %scale = tosa.const_shape {values = dense<[2, 1, 257, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %offset = tosa.const_shape {values = dense<0> : tensor<2xindex>} : () -> !tosa.shape<2>
  %border = tosa.const_shape {values = dense<0> : tensor<2xindex>} : () -> !tosa.shape<2>
  // expected-error @+1 {{level 8K: scale_n / scale_d[1] is 257; MAX_SCALE is 256}}
  %0 = tosa.resize %x, %scale, %offset, %border {mode = NEAREST_NEIGHBOR} : (tensor<1x2x2x1xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x3x258x1xf32>
  return %0 : tensor<1x3x258x1xf32>
}
