//===- Tensor.cpp - Host tensors of the TOSA reference evaluator ----------===//
#include "reference/tosa-eval/Tensor.h"

#include "llvm/Support/raw_ostream.h"

#include <cassert>
#include <cmath>
#include <limits>

namespace onnx_tosa::ref {

bool isFloat(DType t) {
  switch (t) {
  case DType::F16:
  case DType::BF16:
  case DType::F32:
  case DType::F64:
  case DType::F8E4M3:
  case DType::F8E5M2:
    return true;
  default:
    return false;
  }
}

bool isInteger(DType t) { return !isFloat(t) && t != DType::Bool; }

unsigned bitWidth(DType t) {
  switch (t) {
  case DType::Bool:
    return 1;
  case DType::I4:
    return 4;
  case DType::I8:
  case DType::F8E4M3:
  case DType::F8E5M2:
    return 8;
  case DType::I16:
  case DType::F16:
  case DType::BF16:
    return 16;
  case DType::I32:
  case DType::F32:
    return 32;
  case DType::I48:
    return 48;
  case DType::I64:
  case DType::F64:
    return 64;
  }
  return 0;
}

namespace {
struct DTypeName {
  DType type;
  const char *name;
};
constexpr DTypeName kNames[] = {
    {DType::Bool, "i1"},       {DType::I4, "i4"},   {DType::I8, "i8"},
    {DType::I16, "i16"},       {DType::I32, "i32"}, {DType::I48, "i48"},
    {DType::I64, "i64"},       {DType::F16, "f16"}, {DType::BF16, "bf16"},
    {DType::F32, "f32"},       {DType::F64, "f64"}, {DType::F8E4M3, "f8E4M3FN"},
    {DType::F8E5M2, "f8E5M2"},
};
} // namespace

llvm::StringRef dtypeName(DType t) {
  for (const DTypeName &n : kNames)
    if (n.type == t)
      return n.name;
  return "?";
}

bool parseDTypeName(llvm::StringRef name, DType &out) {
  for (const DTypeName &n : kNames)
    if (name == n.name) {
      out = n.type;
      return true;
    }
  return false;
}

int64_t minSigned(unsigned bits) {
  return bits >= 64 ? std::numeric_limits<int64_t>::min()
                    : -(int64_t(1) << (bits - 1));
}

int64_t maxSigned(unsigned bits) {
  return bits >= 64 ? std::numeric_limits<int64_t>::max()
                    : (int64_t(1) << (bits - 1)) - 1;
}

int64_t wrapSigned(int64_t v, unsigned bits) {
  if (bits >= 64)
    return v;
  if (bits == 1) // bool: any non-zero value is true
    return v != 0;
  uint64_t mask = (uint64_t(1) << bits) - 1;
  uint64_t u = static_cast<uint64_t>(v) & mask;
  if (u >> (bits - 1))
    u |= ~mask;
  return static_cast<int64_t>(u);
}

uint64_t zeroExtend(int64_t v, unsigned bits) {
  if (bits >= 64)
    return static_cast<uint64_t>(v);
  return static_cast<uint64_t>(v) & ((uint64_t(1) << bits) - 1);
}

FloatFormat floatFormat(DType t) {
  switch (t) {
  case DType::F16:
    return {10, -14, 65504.0, true};
  case DType::BF16:
    return {7, -126, std::ldexp(255.0, 120), true}; // (2 - 2^-7) * 2^127
  case DType::F32:
    return {23, -126, static_cast<double>(std::numeric_limits<float>::max()),
            true};
  case DType::F8E4M3:
    return {3, -6, 448.0, false};
  case DType::F8E5M2:
    return {2, -14, 57344.0, true};
  default:
    return {52, -1022, std::numeric_limits<double>::max(), true};
  }
}

double roundToFloat(double v, DType t) {
  if (t == DType::F64 || std::isnan(v))
    return v;
  if (t == DType::F32)
    return static_cast<double>(static_cast<float>(v));
  FloatFormat f = floatFormat(t);
  if (std::isinf(v))
    return f.hasInf ? v : std::numeric_limits<double>::quiet_NaN();
  if (v == 0.0)
    return v;
  double a = std::fabs(v);
  int e = std::ilogb(a);
  if (e < f.minNormalExp)
    e = f.minNormalExp; // subnormals share the smallest normal's spacing
  double quantum = std::ldexp(1.0, e - f.fracBits);
  // a / quantum is exact (a power-of-two scaling of an fp64 value in range);
  // nearbyint rounds half to even in the default rounding mode.
  double r = std::nearbyint(a / quantum) * quantum;
  if (r > f.maxFinite)
    r = f.hasInf ? std::numeric_limits<double>::infinity()
                 : std::numeric_limits<double>::quiet_NaN();
  return std::copysign(r, v);
}

double halfBitsToDouble(uint16_t bits) {
  int sign = bits >> 15;
  int exp = (bits >> 10) & 0x1f;
  int frac = bits & 0x3ff;
  double v;
  if (exp == 0)
    v = std::ldexp(static_cast<double>(frac), -24);
  else if (exp == 31)
    v = frac ? std::numeric_limits<double>::quiet_NaN()
             : std::numeric_limits<double>::infinity();
  else
    v = std::ldexp(static_cast<double>(frac | 0x400), exp - 25);
  return sign ? -v : v;
}

int64_t numElements(llvm::ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

Shape stridesOf(llvm::ArrayRef<int64_t> shape) {
  Shape strides(shape.size(), 1);
  for (int i = static_cast<int>(shape.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * shape[i + 1];
  return strides;
}

bool nextIndex(llvm::MutableArrayRef<int64_t> index,
               llvm::ArrayRef<int64_t> shape) {
  for (int i = static_cast<int>(shape.size()) - 1; i >= 0; --i) {
    if (++index[i] < shape[i])
      return true;
    index[i] = 0;
  }
  return false;
}

int64_t linearIndex(llvm::ArrayRef<int64_t> index,
                    llvm::ArrayRef<int64_t> shape) {
  assert(index.size() == shape.size() && "index rank mismatch");
  int64_t offset = 0;
  for (size_t i = 0; i < shape.size(); ++i)
    offset = offset * shape[i] + index[i];
  return offset;
}

std::string shapeString(llvm::ArrayRef<int64_t> shape) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "[";
  for (size_t i = 0; i < shape.size(); ++i)
    os << (i ? "," : "") << shape[i];
  os << "]";
  return s;
}

Tensor::Tensor(DType type, llvm::ArrayRef<int64_t> shape)
    : type(type), shape(shape.begin(), shape.end()) {
  if (ref::isFloat(type))
    floats.assign(numElements(shape), 0.0);
  else
    ints.assign(numElements(shape), 0);
}

} // namespace onnx_tosa::ref
