//===- Tensor.h - Host tensors of the TOSA reference evaluator ------------===//
//
// The evaluator computes on host tensors: integers (and booleans) are held as
// int64 values sign-extended from their TOSA width, floating-point values as
// fp64. A tensor remembers its TOSA element type so that results can be
// wrapped or rounded to it where the specification says so.
//
//===----------------------------------------------------------------------===//
#ifndef ONNX_TOSA_REFERENCE_TOSA_EVAL_TENSOR_H
#define ONNX_TOSA_REFERENCE_TOSA_EVAL_TENSOR_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace onnx_tosa::ref {

/// TOSA element types the evaluator knows (TOSA 1.0 section "Supported
/// Number Formats"; i64 is LLVM's extension used by shapes and CAST).
enum class DType {
  Bool,
  I4,
  I8,
  I16,
  I32,
  I48,
  I64,
  F16,
  BF16,
  F32,
  F64,
  F8E4M3,
  F8E5M2,
};

bool isFloat(DType t);
bool isInteger(DType t); // signless integers, not bool
unsigned bitWidth(DType t);
llvm::StringRef dtypeName(DType t); // "f32", "i8", "i1", ...
bool parseDTypeName(llvm::StringRef name, DType &out);

/// The value range of a signed integer of `bits` bits.
int64_t minSigned(unsigned bits);
int64_t maxSigned(unsigned bits);
/// Keeps the low `bits` bits of v, sign-extended (two's-complement wrap).
int64_t wrapSigned(int64_t v, unsigned bits);
/// Keeps the low `bits` bits of v, zero-extended (the unsigned view).
uint64_t zeroExtend(int64_t v, unsigned bits);

/// Describes a binary floating-point format (normal_frac, normal_min and
/// normal_max of the TOSA 1.0 "Numeric Accuracy Helpers").
struct FloatFormat {
  int fracBits;     // normal_frac<T>()
  int minNormalExp; // log2(normal_min<T>())
  double maxFinite; // normal_max<T>()
  bool hasInf;      // false for fp8e4m3 (overflow gives NaN)
};
FloatFormat floatFormat(DType t);

/// Rounds v to the nearest value of the floating-point type t (ties to even),
/// with IEEE overflow to infinity (or NaN where the type has no infinity) and
/// gradual underflow. fp64 is returned unchanged.
double roundToFloat(double v, DType t);

/// Decodes an IEEE binary16 bit pattern.
double halfBitsToDouble(uint16_t bits);

using Shape = llvm::SmallVector<int64_t, 6>;

/// Number of elements of a shape (1 for rank 0).
int64_t numElements(llvm::ArrayRef<int64_t> shape);
/// Row-major strides of a shape.
Shape stridesOf(llvm::ArrayRef<int64_t> shape);
/// Advances a multi-index in row-major order; returns false after the last.
bool nextIndex(llvm::MutableArrayRef<int64_t> index,
               llvm::ArrayRef<int64_t> shape);
/// Linear offset of an index in a tensor of the given shape.
int64_t linearIndex(llvm::ArrayRef<int64_t> index,
                    llvm::ArrayRef<int64_t> shape);
std::string shapeString(llvm::ArrayRef<int64_t> shape);

/// A dense, row-major host tensor.
struct Tensor {
  DType type = DType::F32;
  Shape shape;
  std::vector<int64_t> ints;  // Bool and integer types
  std::vector<double> floats; // floating-point types

  Tensor() = default;
  Tensor(DType type, llvm::ArrayRef<int64_t> shape);

  bool isFloat() const { return ref::isFloat(type); }
  int64_t size() const { return numElements(shape); }
  unsigned rank() const { return shape.size(); }

  /// Element i as fp64, whatever the storage (integers convert exactly up to
  /// 2^53, which covers every TOSA integer type but i64).
  double asDouble(int64_t i) const {
    return isFloat() ? floats[i] : static_cast<double>(ints[i]);
  }
  int64_t at(llvm::ArrayRef<int64_t> index) const {
    return ints[linearIndex(index, shape)];
  }
  double atF(llvm::ArrayRef<int64_t> index) const {
    return floats[linearIndex(index, shape)];
  }
};

} // namespace onnx_tosa::ref

#endif // ONNX_TOSA_REFERENCE_TOSA_EVAL_TENSOR_H
