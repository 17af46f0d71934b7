//===- npy.cpp - numpy .npy reader and writer -----------------------------===//
//
// The header is a Python dict literal such as
//   {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
// parsed here with a tiny tokenizer that accepts exactly the literals numpy
// writes (quoted strings, True/False, tuples of integers).
//
//===----------------------------------------------------------------------===//

#include "onnx_tosa/npy.h"

#include "file_io.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace onnx_tosa {
namespace {

constexpr char kMagic[6] = {'\x93', 'N', 'U', 'M', 'P', 'Y'};

struct DescrEntry {
  const char *code; // kind + size, e.g. "f4"
  DType dtype;
};
constexpr DescrEntry kDescrs[] = {
    {"f2", DType::F16}, {"f4", DType::F32}, {"f8", DType::F64},
    {"i1", DType::I8},  {"i2", DType::I16}, {"i4", DType::I32},
    {"i8", DType::I64}, {"u1", DType::U8},  {"u2", DType::U16},
    {"u4", DType::U32}, {"u8", DType::U64}, {"b1", DType::Bool},
};

bool dtypeFromDescr(const std::string &descr, DType &out, std::string &error) {
  if (descr.size() >= 2) {
    char order = descr[0];
    std::string code = descr.substr(1);
    for (const DescrEntry &e : kDescrs) {
      if (code != e.code)
        continue;
      bool oneByte = dtypeSize(e.dtype) == 1;
      // '=' is native order; every host this runtime supports is
      // little-endian.
      if (order == '<' || order == '=' || (oneByte && order == '|')) {
        out = e.dtype;
        return true;
      }
      if (order == '>' && !oneByte) {
        error = "big-endian data ('" + descr +
                "') is not supported; save it little-endian";
        return false;
      }
      if (order == '>') { // byte order is meaningless for one-byte types
        out = e.dtype;
        return true;
      }
    }
  }
  error = "unsupported dtype '" + descr +
          "' (supported: float16/32/64, int8/16/32/64, uint8/16/32/64, bool)";
  return false;
}

const char *descrFor(DType t) {
  switch (t) {
  case DType::F16:
    return "<f2";
  case DType::F32:
    return "<f4";
  case DType::F64:
    return "<f8";
  case DType::I8:
    return "|i1";
  case DType::I16:
    return "<i2";
  case DType::I32:
    return "<i4";
  case DType::I64:
    return "<i8";
  case DType::U8:
    return "|u1";
  case DType::U16:
    return "<u2";
  case DType::U32:
    return "<u4";
  case DType::U64:
    return "<u8";
  case DType::Bool:
    return "|b1";
  case DType::BF16:
    break;
  default:
    // Narrow types: their bit patterns, one per byte (numpy has no such
    // dtypes; ml_dtypes' arrays save as opaque 'V1').
    if (isNarrowDType(t))
      return "|u1";
    break;
  }
  return nullptr;
}

/// Parser for the header dict. Every method returns false with `error` set
/// on malformed input.
class HeaderParser {
public:
  explicit HeaderParser(const std::string &text) : s(text) {}

  bool parse(std::string &descr, bool &fortran, std::vector<int64_t> &shape,
             std::string &error) {
    bool haveDescr = false, haveFortran = false, haveShape = false;
    if (!expect('{', error))
      return false;
    while (true) {
      skipSpace();
      if (peek() == '}')
        break;
      std::string key;
      if (!quoted(key, error) || !expect(':', error))
        return false;
      skipSpace();
      if (key == "descr") {
        if (peek() == '[') {
          error = "structured dtypes are not supported";
          return false;
        }
        if (!quoted(descr, error))
          return false;
        haveDescr = true;
      } else if (key == "fortran_order") {
        if (!boolean(fortran, error))
          return false;
        haveFortran = true;
      } else if (key == "shape") {
        if (!tuple(shape, error))
          return false;
        haveShape = true;
      } else {
        error = "unexpected key '" + key + "' in the header";
        return false;
      }
      skipSpace();
      if (peek() == ',')
        ++pos;
    }
    if (!haveDescr || !haveFortran || !haveShape) {
      error = "the header lacks 'descr', 'fortran_order' or 'shape'";
      return false;
    }
    return true;
  }

private:
  char peek() const { return pos < s.size() ? s[pos] : '\0'; }
  void skipSpace() {
    while (pos < s.size() && (s[pos] == ' ' || s[pos] == '\t' ||
                              s[pos] == '\n' || s[pos] == '\r'))
      ++pos;
  }
  bool expect(char c, std::string &error) {
    skipSpace();
    if (peek() != c) {
      error = std::string("malformed header: expected '") + c +
              "' at position " + std::to_string(pos);
      return false;
    }
    ++pos;
    return true;
  }
  bool quoted(std::string &out, std::string &error) {
    skipSpace();
    char q = peek();
    if (q != '\'' && q != '"') {
      error = "malformed header: expected a quoted string at position " +
              std::to_string(pos);
      return false;
    }
    size_t end = s.find(q, pos + 1);
    if (end == std::string::npos) {
      error = "malformed header: unterminated string";
      return false;
    }
    out = s.substr(pos + 1, end - pos - 1);
    pos = end + 1;
    return true;
  }
  bool boolean(bool &out, std::string &error) {
    if (s.compare(pos, 4, "True") == 0) {
      out = true;
      pos += 4;
      return true;
    }
    if (s.compare(pos, 5, "False") == 0) {
      out = false;
      pos += 5;
      return true;
    }
    error = "malformed header: 'fortran_order' is not True or False";
    return false;
  }
  bool tuple(std::vector<int64_t> &out, std::string &error) {
    if (!expect('(', error))
      return false;
    while (true) {
      skipSpace();
      if (peek() == ')') {
        ++pos;
        return true;
      }
      int64_t v = 0;
      size_t start = pos;
      while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') {
        if (v > (INT64_MAX - 9) / 10) {
          error = "malformed header: shape dimension is too large";
          return false;
        }
        v = v * 10 + (s[pos++] - '0');
      }
      if (pos == start) {
        error =
            "malformed header: bad shape at position " + std::to_string(pos);
        return false;
      }
      if (peek() == 'L') // Python 2 long suffix
        ++pos;
      out.push_back(v);
      skipSpace();
      if (peek() == ',')
        ++pos;
      else if (peek() != ')') {
        error =
            "malformed header: bad shape at position " + std::to_string(pos);
        return false;
      }
    }
  }

  const std::string &s;
  size_t pos = 0;
};

bool elementCount(const std::vector<int64_t> &shape, uint64_t &out) {
  uint64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0 || (d != 0 && n > UINT64_MAX / 16 / static_cast<uint64_t>(d)))
      return false;
    n *= static_cast<uint64_t>(d);
  }
  out = n;
  return true;
}

std::string shapeTuple(const std::vector<int64_t> &shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  if (shape.size() == 1)
    s += ",";
  return s + ")";
}

bool readFile(const std::string &path, std::vector<uint8_t> &out,
              std::string &error) {
  return readRegularFile(path, ".npy file", out, error);
}

} // namespace

bool parseNpy(const uint8_t *bytes, size_t size, NpyArray &out,
              std::string &error) {
  if (size < 10 || std::memcmp(bytes, kMagic, sizeof(kMagic)) != 0) {
    error = "not a .npy file (bad magic)";
    return false;
  }
  uint8_t major = bytes[6];
  size_t headerLen, headerStart;
  if (major == 1) {
    headerLen = bytes[8] | (bytes[9] << 8);
    headerStart = 10;
  } else if (major == 2 || major == 3) {
    if (size < 12) {
      error = "truncated .npy file (header length missing)";
      return false;
    }
    headerLen = static_cast<size_t>(bytes[8]) | (size_t(bytes[9]) << 8) |
                (size_t(bytes[10]) << 16) | (size_t(bytes[11]) << 24);
    headerStart = 12;
  } else {
    error = "unsupported .npy format version " + std::to_string(major) + "." +
            std::to_string(bytes[7]);
    return false;
  }
  if (headerLen > size - headerStart) {
    error = "truncated .npy file (header runs past the end)";
    return false;
  }
  std::string header(reinterpret_cast<const char *>(bytes + headerStart),
                     headerLen);
  std::string descr;
  bool fortran = false;
  NpyArray arr;
  if (!HeaderParser(header).parse(descr, fortran, arr.shape, error) ||
      !dtypeFromDescr(descr, arr.dtype, error)) {
    error = "bad .npy header: " + error;
    return false;
  }
  if (fortran) {
    error = "Fortran-order arrays are not supported; save a C-order array "
            "(numpy.ascontiguousarray)";
    return false;
  }
  uint64_t count = 0;
  if (!elementCount(arr.shape, count)) {
    error = "bad .npy header: shape " + shapeTuple(arr.shape) + " is too large";
    return false;
  }
  uint64_t want = count * dtypeSize(arr.dtype);
  size_t have = size - headerStart - headerLen;
  if (have != want) {
    error = "the .npy data is " + std::to_string(have) + " bytes but " +
            dtypeName(arr.dtype) + " " + shapeTuple(arr.shape) + " needs " +
            std::to_string(want) + (have < want ? " (truncated file)" : "");
    return false;
  }
  const uint8_t *data = bytes + headerStart + headerLen;
  arr.data.assign(data, data + have);
  out = std::move(arr);
  return true;
}

bool readNpy(const std::string &path, NpyArray &out, std::string &error) {
  std::vector<uint8_t> bytes;
  if (!readFile(path, bytes, error))
    return false;
  if (!parseNpy(bytes.data(), bytes.size(), out, error)) {
    error = "'" + path + "': " + error;
    return false;
  }
  return true;
}

bool serializeNpy(DType dtype, const std::vector<int64_t> &shape,
                  const void *data, size_t dataBytes, std::vector<uint8_t> &out,
                  std::string &error) {
  const char *descr = descrFor(dtype);
  if (!descr) {
    error = std::string("dtype ") + dtypeName(dtype) +
            " cannot be stored in a .npy file";
    return false;
  }
  uint64_t count = 0;
  if (!elementCount(shape, count) || count * dtypeSize(dtype) != dataBytes) {
    error = std::to_string(dataBytes) + " bytes do not match " +
            dtypeName(dtype) + " " + shapeTuple(shape);
    return false;
  }
  std::string dict =
      std::string("{'descr': '") + descr +
      "', 'fortran_order': False, 'shape': " + shapeTuple(shape) + ", }";
  // Pad with spaces and a final newline so the data starts 64-byte aligned,
  // as numpy does; switch to version 2.0 only if the header needs it.
  size_t preamble = 10;
  size_t total = (preamble + dict.size() + 1 + 63) / 64 * 64;
  if (total - preamble > 0xffff) {
    preamble = 12;
    total = (preamble + dict.size() + 1 + 63) / 64 * 64;
  }
  size_t headerLen = total - preamble;
  dict.append(headerLen - dict.size() - 1, ' ');
  dict.push_back('\n');

  out.assign(kMagic, kMagic + sizeof(kMagic));
  out.push_back(preamble == 10 ? 1 : 2);
  out.push_back(0);
  for (size_t i = 0; i < preamble - 8; ++i)
    out.push_back(static_cast<uint8_t>(headerLen >> (8 * i)));
  out.insert(out.end(), dict.begin(), dict.end());
  const auto *p = static_cast<const uint8_t *>(data);
  out.insert(out.end(), p, p + dataBytes);
  return true;
}

bool writeNpy(const std::string &path, DType dtype,
              const std::vector<int64_t> &shape, const void *data,
              size_t dataBytes, std::string &error) {
  std::vector<uint8_t> bytes;
  if (!serializeNpy(dtype, shape, data, dataBytes, bytes, error)) {
    error = "cannot write '" + path + "': " + error;
    return false;
  }
  return writeFileAtomically(path, bytes.data(), bytes.size(), error);
}

} // namespace onnx_tosa
