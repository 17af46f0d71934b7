//===- input_values.cpp - Inputs written inline or in .npz archives -------===//
#include "input_values.h"
#include "host_tensors.h"

#include "file_io.h"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace onnx_tosa::run {
namespace {

/// The most bytes an inline value may make (a splat of a large shape).
constexpr uint64_t kMostInlineBytes = uint64_t(1) << 26;

struct TypeName {
  const char *name;
  DType dtype;
};
constexpr TypeName kTypes[] = {
    {"f16", DType::F16}, {"f32", DType::F32}, {"f64", DType::F64},
    {"i1", DType::Bool}, {"i8", DType::I8},   {"i16", DType::I16},
    {"i32", DType::I32}, {"i64", DType::I64}, {"u8", DType::U8},
    {"u16", DType::U16}, {"u32", DType::U32}, {"u64", DType::U64},
};

bool typeOf(const std::string &name, DType &out) {
  for (const TypeName &t : kTypes)
    if (name == t.name) {
      out = t.dtype;
      return true;
    }
  return false;
}

std::string typeList() {
  std::string s;
  for (const TypeName &t : kTypes)
    s += (s.empty() ? "" : ", ") + std::string(t.name);
  return s;
}

template <typename T> void put(std::vector<uint8_t> &bytes, T value) {
  size_t at = bytes.size();
  bytes.resize(at + sizeof(T));
  std::memcpy(bytes.data() + at, &value, sizeof(T));
}

/// Appends `text` as one element of `dtype`.
bool appendValue(const std::string &text, DType dtype,
                 std::vector<uint8_t> &bytes, std::string &error) {
  const char *s = text.c_str();
  char *end = nullptr;
  errno = 0;
  auto bad = [&](const char *why) {
    error = "'" + text + "' is not " + why;
    return false;
  };
  switch (dtype) {
  case DType::F16:
  case DType::F32:
  case DType::F64: {
    double v = std::strtod(s, &end);
    if (text.empty() || *end)
      return bad("a number");
    if (dtype == DType::F64)
      put(bytes, v);
    else if (dtype == DType::F32)
      put(bytes, static_cast<float>(v));
    else
      put(bytes, floatToHalf(static_cast<float>(v)));
    return true;
  }
  case DType::Bool:
    if (text == "1" || text == "true")
      return put(bytes, uint8_t(1)), true;
    if (text == "0" || text == "false")
      return put(bytes, uint8_t(0)), true;
    return bad("a boolean (0, 1, true, false)");
  case DType::U8:
  case DType::U16:
  case DType::U32:
  case DType::U64: {
    unsigned long long v = std::strtoull(s, &end, 10);
    unsigned long long most =
        dtype == DType::U8    ? 0xffu
        : dtype == DType::U16 ? 0xffffu
        : dtype == DType::U32 ? 0xffffffffu
                              : std::numeric_limits<unsigned long long>::max();
    if (text.empty() || *end || text[0] == '-' || errno == ERANGE || v > most)
      return bad("an integer in the type's range");
    if (dtype == DType::U8)
      put(bytes, static_cast<uint8_t>(v));
    else if (dtype == DType::U16)
      put(bytes, static_cast<uint16_t>(v));
    else if (dtype == DType::U32)
      put(bytes, static_cast<uint32_t>(v));
    else
      put(bytes, static_cast<uint64_t>(v));
    return true;
  }
  default: {
    long long v = std::strtoll(s, &end, 10);
    long long lo = dtype == DType::I8    ? -128
                   : dtype == DType::I16 ? -32768
                   : dtype == DType::I32 ? std::numeric_limits<int32_t>::min()
                                         : std::numeric_limits<long long>::min();
    long long hi = dtype == DType::I8    ? 127
                   : dtype == DType::I16 ? 32767
                   : dtype == DType::I32 ? std::numeric_limits<int32_t>::max()
                                         : std::numeric_limits<long long>::max();
    if (text.empty() || *end || errno == ERANGE || v < lo || v > hi)
      return bad("an integer in the type's range");
    if (dtype == DType::I8)
      put(bytes, static_cast<int8_t>(v));
    else if (dtype == DType::I16)
      put(bytes, static_cast<int16_t>(v));
    else if (dtype == DType::I32)
      put(bytes, static_cast<int32_t>(v));
    else
      put(bytes, static_cast<int64_t>(v));
    return true;
  }
  }
}

std::vector<std::string> split(const std::string &s, char sep) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    size_t at = s.find(sep, start);
    parts.push_back(s.substr(start, at - start));
    if (at == std::string::npos)
      return parts;
    start = at + 1;
  }
}

uint32_t le32(const uint8_t *p) {
  return p[0] | p[1] << 8 | p[2] << 16 | uint32_t(p[3]) << 24;
}
uint16_t le16(const uint8_t *p) { return uint16_t(p[0] | p[1] << 8); }
uint64_t le64(const uint8_t *p) {
  return le32(p) | uint64_t(le32(p + 4)) << 32;
}

} // namespace

bool isInlineValue(const std::string &spec) {
  // ('=' is in no .npy file name the tools write.)
  return spec.find('=') != std::string::npos &&
         !(spec.size() > 4 && spec.compare(spec.size() - 4, 4, ".npy") == 0);
}

bool parseInlineValue(const std::string &spec, NpyArray &out,
                      std::string &error) {
  size_t eq = spec.find('=');
  std::string usage = " (expected DIMxDIMx...xTYPE=VALUE[,VALUE...], e.g. "
                      "2x8xf32=1 or 3xi64=1,2,3; types: " +
                      typeList() + ")";
  if (eq == std::string::npos) {
    error = "no '=' in '" + spec + "'" + usage;
    return false;
  }
  std::vector<std::string> parts = split(spec.substr(0, eq), 'x');
  std::string type = parts.back();
  if (!typeOf(type, out.dtype)) {
    error = "unknown element type '" + type + "'" + usage;
    return false;
  }
  parts.pop_back();
  out.shape.clear();
  uint64_t count = 1;
  for (const std::string &d : parts) {
    char *end = nullptr;
    long long v = std::strtoll(d.c_str(), &end, 10);
    if (d.empty() || *end || v < 0 || v > (1ll << 31)) {
      error = "bad dimension '" + d + "' in '" + spec + "'" + usage;
      return false;
    }
    out.shape.push_back(v);
    count *= uint64_t(v);
    if (count * dtypeSize(out.dtype) > kMostInlineBytes) {
      error = "'" + spec + "' makes more than 64 MiB; give a value that "
              "large as an .npy file";
      return false;
    }
  }
  std::vector<std::string> values = split(spec.substr(eq + 1), ',');
  if (values.size() != 1 && values.size() != count) {
    error = "'" + spec + "' gives " + std::to_string(values.size()) +
            " values for " + std::to_string(count) +
            " elements (give one, for every element, or one per element)";
    return false;
  }
  std::vector<uint8_t> bytes;
  for (const std::string &v : values)
    if (!appendValue(v, out.dtype, bytes, error)) {
      error += " (a " + type + " value in '" + spec + "')";
      return false;
    }
  if (values.size() == 1) {
    out.data.clear();
    out.data.reserve(bytes.size() * count);
    for (uint64_t i = 0; i < count; ++i)
      out.data.insert(out.data.end(), bytes.begin(), bytes.end());
  } else {
    out.data = std::move(bytes);
  }
  return true;
}

bool readNpz(const std::string &path,
             std::vector<std::pair<std::string, NpyArray>> &out,
             std::string &error) {
  std::vector<uint8_t> file;
  if (!readRegularFile(path, ".npz archive", file, error))
    return false;
  if (parseNpz(file.data(), file.size(), out, error))
    return true;
  error = "'" + path + "' is not a readable .npz archive: " + error;
  return false;
}

bool parseNpz(const uint8_t *bytes, size_t size,
              std::vector<std::pair<std::string, NpyArray>> &out,
              std::string &error) {
  struct View {
    const uint8_t *data;
    size_t n;
    size_t size() const { return n; }
    const uint8_t &operator[](size_t i) const { return data[i]; }
    const uint8_t *begin() const { return data; }
  } file{bytes, size};
  // Whether `n` bytes from `at` lie inside the file (without overflow).
  auto fits = [&](uint64_t at, uint64_t n) {
    return at <= file.size() && file.size() - at >= n;
  };
  auto corrupt = [&](const std::string &why) {
    error = why;
    return false;
  };
  // The end-of-central-directory record: the last 22 bytes, or before a
  // comment of up to 64 KiB.
  size_t eocd = std::string::npos;
  for (size_t back = 22; back <= file.size() && back <= 22 + 65535; ++back)
    if (le32(&file[file.size() - back]) == 0x06054b50) {
      eocd = file.size() - back;
      break;
    }
  if (eocd == std::string::npos)
    return corrupt("no end of central directory");
  uint64_t entries = le16(&file[eocd + 10]);
  uint64_t dirOffset = le32(&file[eocd + 16]);
  // ZIP64 (numpy writes it for large arrays): its locator precedes.
  if ((entries == 0xffff || dirOffset == 0xffffffff) && eocd >= 20 &&
      le32(&file[eocd - 20]) == 0x07064b50) {
    uint64_t at = le64(&file[eocd - 20 + 8]);
    if (!fits(at, 56) || le32(&file[at]) != 0x06064b50)
      return corrupt("bad ZIP64 end of central directory");
    entries = le64(&file[at + 32]);
    dirOffset = le64(&file[at + 48]);
  }
  size_t p = dirOffset;
  for (uint64_t e = 0; e < entries; ++e) {
    if (!fits(p, 46) || le32(&file[p]) != 0x02014b50)
      return corrupt("bad central directory entry");
    uint16_t method = le16(&file[p + 10]);
    uint32_t crc = le32(&file[p + 16]);
    uint64_t packed = le32(&file[p + 20]);
    uint64_t size = le32(&file[p + 24]);
    size_t nameLen = le16(&file[p + 28]), extraLen = le16(&file[p + 30]),
           commentLen = le16(&file[p + 32]);
    uint64_t local = le32(&file[p + 42]);
    if (!fits(p, 46 + nameLen + extraLen))
      return corrupt("entry past the end");
    size_t extraEnd = p + 46 + nameLen + extraLen;
    std::string name(reinterpret_cast<const char *>(&file[p + 46]), nameLen);
    // ZIP64 sizes and offset, in this order, for those saturated above.
    for (size_t x = p + 46 + nameLen; x + 4 <= extraEnd;) {
      uint16_t id = le16(&file[x]), len = le16(&file[x + 2]);
      size_t q = x + 4, end = std::min<size_t>(x + 4 + len, extraEnd);
      if (id == 0x0001) {
        for (uint64_t *field : {&size, &packed, &local})
          if (*field == 0xffffffff && q + 8 <= end) {
            *field = le64(&file[q]);
            q += 8;
          }
      }
      x += 4 + len;
    }
    p += 46 + nameLen + extraLen + commentLen;
    if (!fits(local, 30) || le32(&file[local]) != 0x04034b50)
      return corrupt("bad local header of '" + name + "'");
    uint64_t data = local + 30 + le16(&file[local + 26]) +
                    le16(&file[local + 28]);
    if (data > file.size() || packed > file.size() - data)
      return corrupt("'" + name + "' runs past the end");
    std::vector<uint8_t> entry;
    if (method == 0) {
      if (packed != size)
        return corrupt("'" + name + "' is stored with two sizes");
      entry.assign(file.begin() + data, file.begin() + data + size);
    } else if (method == 8) {
      // The declared size bounds the output: no more is inflated. Deflate
      // makes at most 1032 bytes of each (RFC 1951's longest match per
      // 2-bit code), so a larger claim is a lie, not an allocation.
      if (size >= (uint64_t(1) << 32) || packed >= (uint64_t(1) << 32))
        return corrupt("'" + name + "' is a compressed entry of 4 GiB or "
                       "more (save it with numpy.savez, uncompressed)");
      if (size > packed * 1032 + 64)
        return corrupt("'" + name + "' declares " + std::to_string(size) +
                       " bytes, more than " + std::to_string(packed) +
                       " deflated bytes can make");
      entry.resize(size);
      z_stream z{};
      if (inflateInit2(&z, -MAX_WBITS) != Z_OK)
        return corrupt("zlib failed to start");
      z.next_in = const_cast<uint8_t *>(&file[data]);
      z.avail_in = static_cast<uInt>(packed);
      z.next_out = entry.data();
      z.avail_out = static_cast<uInt>(size);
      int rc = inflate(&z, Z_FINISH);
      bool whole = rc == Z_STREAM_END && z.total_out == size;
      inflateEnd(&z);
      if (!whole)
        return corrupt("'" + name + "' does not inflate to its size");
    } else {
      return corrupt("'" + name + "' uses compression method " +
                     std::to_string(method) +
                     " (numpy writes stored or deflated entries)");
    }
    if (crc32_z(0, entry.data(), entry.size()) != crc)
      return corrupt("'" + name + "' fails its CRC");
    NpyArray array;
    std::string why;
    if (!parseNpy(entry.data(), entry.size(), array, why))
      return corrupt("'" + name + "': " + why);
    if (name.size() > 4 && name.compare(name.size() - 4, 4, ".npy") == 0)
      name.resize(name.size() - 4);
    out.emplace_back(name, std::move(array));
  }
  return true;
}

} // namespace onnx_tosa::run
