//===- Npy.cpp - .npy files for the TOSA reference evaluator --------------===//
#include "reference/tosa-eval/Npy.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

namespace onnx_tosa::ref {

namespace {

/// The parts of an .npy header the evaluator needs.
struct Header {
  char kind = 0; // 'f', 'i', 'u', 'b'
  unsigned bytes = 0;
  Shape shape;
  size_t dataOffset = 0;
};

bool parseHeader(llvm::StringRef file, Header &h, std::string &error) {
  if (!file.starts_with("\x93NUMPY") || file.size() < 10) {
    error = "not an .npy file";
    return false;
  }
  unsigned major = static_cast<unsigned char>(file[6]);
  size_t len, start;
  if (major == 1) {
    len = static_cast<unsigned char>(file[8]) |
          (static_cast<unsigned char>(file[9]) << 8);
    start = 10;
  } else {
    if (file.size() < 12) {
      error = "truncated .npy header";
      return false;
    }
    len = 0;
    for (int i = 3; i >= 0; --i)
      len = (len << 8) | static_cast<unsigned char>(file[8 + i]);
    start = 12;
  }
  if (start + len > file.size()) {
    error = "truncated .npy header";
    return false;
  }
  llvm::StringRef dict = file.substr(start, len);
  h.dataOffset = start + len;

  auto valueOf = [&](llvm::StringRef key) -> llvm::StringRef {
    size_t at = dict.find(("'" + key + "'").str());
    if (at == llvm::StringRef::npos)
      return {};
    llvm::StringRef rest = dict.substr(at + key.size() + 2).ltrim(" :");
    return rest;
  };
  llvm::StringRef descr = valueOf("descr");
  if (descr.size() < 5 || descr[0] != '\'') {
    error = "the .npy header has no dtype";
    return false;
  }
  descr = descr.substr(1, descr.find('\'', 1) - 1); // e.g. <f4
  if (descr.size() < 3 || descr[0] == '>') {
    error = "unsupported dtype '" + descr.str() + "' (big-endian or unknown)";
    return false;
  }
  h.kind = descr[1];
  if (descr.substr(2).getAsInteger(10, h.bytes) ||
      !llvm::is_contained(llvm::StringRef("fiub"), h.kind)) {
    error = "unsupported dtype '" + descr.str() + "'";
    return false;
  }
  if (valueOf("fortran_order").starts_with("True")) {
    error = "Fortran-ordered arrays are not supported";
    return false;
  }
  llvm::StringRef shape = valueOf("shape");
  if (!shape.consume_front("(")) {
    error = "the .npy header has no shape";
    return false;
  }
  shape = shape.substr(0, shape.find(')'));
  llvm::SmallVector<llvm::StringRef> dims;
  shape.split(dims, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef d : dims) {
    d = d.trim();
    if (d.empty())
      continue;
    int64_t v;
    if (d.getAsInteger(10, v)) {
      error = "bad shape in the .npy header";
      return false;
    }
    h.shape.push_back(v);
  }
  return true;
}

template <typename T> T load(const char *p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

} // namespace

bool readNpy(const std::string &path, DType type, Tensor &out,
             std::string &error) {
  auto buf = llvm::MemoryBuffer::getFile(path, /*IsText=*/false);
  if (!buf) {
    error = "cannot read '" + path + "': " + buf.getError().message();
    return false;
  }
  llvm::StringRef file = (*buf)->getBuffer();
  Header h;
  if (!parseHeader(file, h, error)) {
    error = "'" + path + "': " + error;
    return false;
  }
  int64_t n = numElements(h.shape);
  if (h.dataOffset + n * h.bytes > file.size()) {
    error = "'" + path + "': the data is shorter than the shape says";
    return false;
  }
  if (h.kind == 'f' && !isFloat(type)) {
    error = "'" + path + "': a floating-point array for a " +
            dtypeName(type).str() + " tensor";
    return false;
  }
  out = Tensor(type, h.shape);
  const char *data = file.data() + h.dataOffset;
  for (int64_t i = 0; i < n; ++i) {
    const char *p = data + i * h.bytes;
    double f = 0;
    int64_t v = 0;
    bool isF = h.kind == 'f';
    if (isF) {
      if (h.bytes == 2)
        f = halfBitsToDouble(load<uint16_t>(p));
      else if (h.bytes == 4)
        f = load<float>(p);
      else if (h.bytes == 8)
        f = load<double>(p);
      else {
        error = "'" + path + "': unsupported float width";
        return false;
      }
    } else {
      switch (h.bytes) {
      case 1:
        v = h.kind == 'i' ? load<int8_t>(p) : load<uint8_t>(p);
        break;
      case 2:
        v = h.kind == 'i' ? load<int16_t>(p) : load<uint16_t>(p);
        break;
      case 4:
        v = h.kind == 'i' ? load<int32_t>(p) : load<uint32_t>(p);
        break;
      case 8:
        v = load<int64_t>(p);
        break;
      default:
        error = "'" + path + "': unsupported integer width";
        return false;
      }
    }
    if (out.isFloat())
      out.floats[i] = roundToFloat(isF ? f : static_cast<double>(v), type);
    else
      out.ints[i] = wrapSigned(v, bitWidth(type));
  }
  return true;
}

bool writeNpy(const std::string &path, const Tensor &t, std::string &error) {
  std::string descr;
  unsigned bytes;
  if (t.isFloat()) {
    descr = "<f8";
    bytes = 8;
  } else if (t.type == DType::Bool) {
    descr = "|b1";
    bytes = 1;
  } else {
    unsigned bits = bitWidth(t.type);
    bytes = bits <= 8 ? 1 : bits <= 16 ? 2 : bits <= 32 ? 4 : 8;
    descr = bytes == 1 ? "|i1" : "<i" + std::to_string(bytes);
  }
  std::string dict =
      "{'descr': '" + descr + "', 'fortran_order': False, " + "'shape': (";
  for (size_t i = 0; i < t.shape.size(); ++i)
    dict += std::to_string(t.shape[i]) + (t.shape.size() == 1      ? ","
                                          : i + 1 < t.shape.size() ? ", "
                                                                   : "");
  dict += "), }";
  size_t total = 10 + dict.size() + 1;
  dict.append((64 - total % 64) % 64, ' ');
  dict += '\n';

  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec) {
    error = "cannot write '" + path + "': " + ec.message();
    return false;
  }
  os << "\x93NUMPY";
  os << static_cast<char>(1) << static_cast<char>(0);
  os << static_cast<char>(dict.size() & 0xff)
     << static_cast<char>((dict.size() >> 8) & 0xff);
  os << dict;
  for (int64_t i = 0, n = t.size(); i < n; ++i) {
    char buf[8];
    if (t.isFloat()) {
      std::memcpy(buf, &t.floats[i], 8);
    } else {
      int64_t v = t.ints[i];
      if (t.type == DType::Bool)
        v = v != 0;
      std::memcpy(buf, &v, bytes); // little-endian host
    }
    os.write(buf, bytes);
  }
  return true;
}

} // namespace onnx_tosa::ref
