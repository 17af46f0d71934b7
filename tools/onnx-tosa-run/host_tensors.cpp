//===- host_tensors.cpp - Host-side tensor helpers for onnx-tosa-run ------===//

#include "host_tensors.h"

#include <cmath>
#include <cstdio>
#include <cstring>

namespace onnx_tosa::run {
namespace {

template <typename T> T load(const uint8_t *p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

template <typename T> void store(uint8_t *p, T v) {
  std::memcpy(p, &v, sizeof(T));
}

std::string formatFloat(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.6g", v);
  return buf;
}

/// The value of a narrow element: its bit pattern in the byte's low bits.
double narrowValue(ot_dtype dtype, uint8_t b) {
  switch (dtype) {
  case OT_DTYPE_INT4:
    return int((b & 0xf) ^ 0x8) - 0x8;
  case OT_DTYPE_UINT4:
    return b & 0xf;
  case OT_DTYPE_INT2:
    return int((b & 0x3) ^ 0x2) - 0x2;
  case OT_DTYPE_UINT2:
    return b & 0x3;
  case OT_DTYPE_FLOAT8E8M0:
    return b == 0xff ? NAN : std::ldexp(1.0, int(b) - 127);
  default:
    break;
  }
  // Sign, exponent and mantissa fields; FN types have no Inf (E4M3FN's NaN
  // is S.1111.111), FNUZ types no -0 (their NaN is 0x80).
  int expBits = 4, mantBits = 3, bias = 7, width = 8;
  bool fnuz = false;
  if (dtype == OT_DTYPE_FLOAT8E4M3FNUZ) {
    bias = 8;
    fnuz = true;
  } else if (dtype == OT_DTYPE_FLOAT8E5M2 || dtype == OT_DTYPE_FLOAT8E5M2FNUZ) {
    expBits = 5, mantBits = 2, bias = 15;
    if (dtype == OT_DTYPE_FLOAT8E5M2FNUZ)
      bias = 16, fnuz = true;
  } else if (dtype == OT_DTYPE_FLOAT4E2M1) {
    expBits = 2, mantBits = 1, bias = 1, width = 4;
  }
  b &= static_cast<uint8_t>((1u << width) - 1);
  if (fnuz && b == 0x80)
    return NAN;
  bool negative = b >> (width - 1);
  int exp = (b >> mantBits) & ((1 << expBits) - 1);
  int mant = b & ((1 << mantBits) - 1);
  if (dtype == OT_DTYPE_FLOAT8E4M3FN && exp == 15 && mant == 7)
    return NAN;
  if (dtype == OT_DTYPE_FLOAT8E5M2 && exp == 31)
    return mant ? NAN : negative ? -INFINITY : INFINITY;
  double v = exp == 0
                 ? std::ldexp(mant, 1 - bias - mantBits)
                 : std::ldexp((1 << mantBits) + mant, exp - bias - mantBits);
  return negative ? -v : v;
}

std::string formatOne(ot_dtype dtype, const uint8_t *p) {
  switch (dtype) {
  case OT_DTYPE_FLOAT8E4M3FN:
  case OT_DTYPE_FLOAT8E4M3FNUZ:
  case OT_DTYPE_FLOAT8E5M2:
  case OT_DTYPE_FLOAT8E5M2FNUZ:
  case OT_DTYPE_UINT4:
  case OT_DTYPE_INT4:
  case OT_DTYPE_FLOAT4E2M1:
  case OT_DTYPE_FLOAT8E8M0:
  case OT_DTYPE_UINT2:
  case OT_DTYPE_INT2:
    return formatFloat(narrowValue(dtype, *p));
  case OT_DTYPE_FLOAT32:
    return formatFloat(load<float>(p));
  case OT_DTYPE_FLOAT64:
    return formatFloat(load<double>(p));
  case OT_DTYPE_FLOAT16:
    return formatFloat(halfToFloat(load<uint16_t>(p)));
  case OT_DTYPE_BFLOAT16:
    return formatFloat(bf16ToFloat(load<uint16_t>(p)));
  case OT_DTYPE_BOOL:
    return *p ? "true" : "false";
  case OT_DTYPE_INT8:
    return std::to_string(load<int8_t>(p));
  case OT_DTYPE_INT16:
    return std::to_string(load<int16_t>(p));
  case OT_DTYPE_INT32:
    return std::to_string(load<int32_t>(p));
  case OT_DTYPE_INT64:
    return std::to_string(load<int64_t>(p));
  case OT_DTYPE_UINT8:
    return std::to_string(load<uint8_t>(p));
  case OT_DTYPE_UINT16:
    return std::to_string(load<uint16_t>(p));
  case OT_DTYPE_UINT32:
    return std::to_string(load<uint32_t>(p));
  case OT_DTYPE_UINT64:
    return std::to_string(load<uint64_t>(p));
  }
  return "?";
}

/// splitmix64: tiny, well distributed and identical on every platform,
/// unlike the standard library's distributions.
uint64_t nextRandom(uint64_t &state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

} // namespace

std::vector<uint8_t> bf16BytesToF32(const std::vector<uint8_t> &bytes) {
  std::vector<uint8_t> out(bytes.size() * 2);
  for (size_t i = 0; i < bytes.size() / 2; ++i)
    store(&out[i * 4], bf16ToFloat(load<uint16_t>(&bytes[i * 2])));
  return out;
}

std::vector<uint8_t> f32BytesToBf16(const std::vector<uint8_t> &bytes) {
  std::vector<uint8_t> out(bytes.size() / 2);
  for (size_t i = 0; i < bytes.size() / 4; ++i)
    store(&out[i * 2], floatToBf16(load<float>(&bytes[i * 4])));
  return out;
}

std::string shapeString(const std::vector<int64_t> &shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

std::string formatValues(ot_dtype dtype, const std::vector<uint8_t> &bytes,
                         size_t limit) {
  size_t elem = ot_dtype_size(dtype);
  if (elem == 0)
    return "[?]";
  size_t count = bytes.size() / elem;
  std::string s = "[";
  for (size_t i = 0; i < count && i < limit; ++i)
    s += (i ? ", " : "") + formatOne(dtype, &bytes[i * elem]);
  if (count > limit)
    s += ", ...";
  return s + "]";
}

void fillRandom(ot_dtype dtype, uint64_t seed, uint64_t stream,
                std::vector<uint8_t> &bytes) {
  uint64_t state = seed ^ (stream * 0xd1b54a32d192ed03ull);
  size_t elem = ot_dtype_size(dtype);
  if (elem == 0)
    return;
  // Floating values use only as many random bits as the type's significand
  // holds, so every value is exact and stays strictly below 1.
  for (size_t i = 0; i + elem <= bytes.size(); i += elem) {
    uint64_t r = nextRandom(state);
    uint8_t *p = &bytes[i];
    switch (dtype) {
    case OT_DTYPE_FLOAT32:
      store(p, static_cast<float>(std::ldexp(double(r >> 40), -23) - 1.0));
      break;
    case OT_DTYPE_FLOAT64:
      store(p, std::ldexp(double(r >> 11), -52) - 1.0);
      break;
    case OT_DTYPE_FLOAT16:
      store(p, floatToHalf(float(std::ldexp(double(r >> 53), -10) - 1.0)));
      break;
    case OT_DTYPE_BFLOAT16:
      store(p, floatToBf16(float(std::ldexp(double(r >> 56), -7) - 1.0)));
      break;
    default: {
      // Integers and bool: 0 or 1, little-endian in the first byte.
      std::memset(p, 0, elem);
      p[0] = static_cast<uint8_t>(r >> 63);
      break;
    }
    }
  }
}

std::string sanitizeFileName(const std::string &name) {
  std::string s;
  for (char c : name) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-';
    s.push_back(ok ? c : '_');
  }
  if (s.empty() || s == "." || s == "..")
    s = "_" + s;
  return s;
}

} // namespace onnx_tosa::run
