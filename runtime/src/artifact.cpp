//===- artifact.cpp - Artifact (de)serialization --------------------------===//
//
// The byte layout is described in artifact.h. Fixed-size arrays (Launch::grid
// and Launch::block) are written as their three u32 elements with no count,
// since they are not vectors. Every read is bounds-checked against the bytes
// that remain, so a truncated or hostile file yields an error, never a crash
// or a huge allocation.
//
//===----------------------------------------------------------------------===//

#include "onnx_tosa/artifact.h"

#include "file_io.h"

#include <cerrno>
#include <map>
#include <optional>
#include <cstdio>
#include <cstring>

namespace onnx_tosa {

size_t dtypeSize(DType t) {
  switch (t) {
  case DType::Bool:
  case DType::U8:
  case DType::I8:
    return 1;
  case DType::F8E4M3FN:
  case DType::F8E4M3FNUZ:
  case DType::F8E5M2:
  case DType::F8E5M2FNUZ:
  case DType::U4:
  case DType::I4:
  case DType::F4E2M1:
  case DType::F8E8M0:
  case DType::U2:
  case DType::I2:
    return 1; // unpacked: one element per byte
  case DType::U16:
  case DType::I16:
  case DType::F16:
  case DType::BF16:
    return 2;
  case DType::F32:
  case DType::I32:
  case DType::U32:
    return 4;
  case DType::F64:
  case DType::I64:
  case DType::U64:
    return 8;
  }
  return 0;
}

const char *dtypeName(DType t) {
  switch (t) {
  case DType::F32:
    return "float32";
  case DType::U8:
    return "uint8";
  case DType::I8:
    return "int8";
  case DType::U16:
    return "uint16";
  case DType::I16:
    return "int16";
  case DType::I32:
    return "int32";
  case DType::I64:
    return "int64";
  case DType::Bool:
    return "bool";
  case DType::F16:
    return "float16";
  case DType::F64:
    return "float64";
  case DType::U32:
    return "uint32";
  case DType::U64:
    return "uint64";
  case DType::BF16:
    return "bfloat16";
  // ml_dtypes' names.
  case DType::F8E4M3FN:
    return "float8_e4m3fn";
  case DType::F8E4M3FNUZ:
    return "float8_e4m3fnuz";
  case DType::F8E5M2:
    return "float8_e5m2";
  case DType::F8E5M2FNUZ:
    return "float8_e5m2fnuz";
  case DType::U4:
    return "uint4";
  case DType::I4:
    return "int4";
  case DType::F4E2M1:
    return "float4_e2m1fn";
  case DType::F8E8M0:
    return "float8_e8m0fnu";
  case DType::U2:
    return "uint2";
  case DType::I2:
    return "int2";
  }
  return "?";
}

bool isNarrowDType(DType t) {
  return static_cast<uint32_t>(t) >= 17 && static_cast<uint32_t>(t) <= 26;
}

namespace {

constexpr char kMagic[8] = {'O', 'T', 'S', 'A', 'A', 'R', 'T', '\0'};

/// The checksum that ends an artifact (since version 5): FNV-1a over
/// 8-byte little-endian words, then the remaining bytes. It catches
/// damage (a flipped bit in the weights), not tampering.
uint64_t checksum(const uint8_t *data, size_t size) {
  uint64_t h = 1469598103934665603ull;
  size_t i = 0;
  for (; i + 8 <= size; i += 8) {
    uint64_t w = 0;
    for (int b = 7; b >= 0; --b)
      w = (w << 8) | data[i + b];
    h = (h ^ w) * 1099511628211ull;
  }
  for (; i < size; ++i)
    h = (h ^ data[i]) * 1099511628211ull;
  return h ^ size;
}

//===----------------------------------------------------------------------===//
// Writer
//===----------------------------------------------------------------------===//

class Writer {
public:
  void u32(uint32_t v) { le(v, 4); }
  void u64(uint64_t v) { le(v, 8); }
  void i64(int64_t v) { le(static_cast<uint64_t>(v), 8); }
  void bytes(const void *p, size_t n) {
    const auto *b = static_cast<const uint8_t *>(p);
    out.insert(out.end(), b, b + n);
  }
  void blob(const void *p, size_t n) {
    u64(n);
    bytes(p, n);
  }
  void str(const std::string &s) { blob(s.data(), s.size()); }

  std::vector<uint8_t> out;

private:
  // Explicit byte order so the format does not depend on the host.
  void le(uint64_t v, int n) {
    for (int i = 0; i < n; ++i)
      out.push_back(static_cast<uint8_t>(v >> (8 * i)));
  }
};

/// Name, dtype and shape: how bindings and frozen inputs both start.
void writeTensorDecl(Writer &w, const std::string &name, DType dtype,
                     const std::vector<int64_t> &shape) {
  w.str(name);
  w.u32(static_cast<uint32_t>(dtype));
  w.u64(shape.size());
  for (int64_t d : shape)
    w.i64(d);
}

void writeBinding(Writer &w, const TensorBinding &b) {
  writeTensorDecl(w, b.name, b.dtype, b.shape);
  w.u32(b.buffer);
}

//===----------------------------------------------------------------------===//
// Reader
//===----------------------------------------------------------------------===//

/// Reads little-endian fields from a byte range. The first failure records a
/// message naming the field and the offset; later reads are no-ops, so the
/// parser can check `ok()` once per aggregate instead of after every field.
class Reader {
public:
  Reader(const uint8_t *data, size_t size) : data(data), size(size) {}

  bool ok() const { return error.empty(); }
  size_t remaining() const { return size - pos; }
  size_t offset() const { return pos; }

  uint32_t u32(const char *what) { return static_cast<uint32_t>(le(4, what)); }
  uint64_t u64(const char *what) { return le(8, what); }
  int64_t i64(const char *what) { return static_cast<int64_t>(le(8, what)); }

  /// Reads a vector/blob count and checks that `count` elements of at least
  /// `minElemBytes` each can still fit in the file.
  uint64_t count(const char *what, size_t minElemBytes) {
    uint64_t n = u64(what);
    if (!ok())
      return 0;
    if (minElemBytes && n > remaining() / minElemBytes) {
      fail(what, "count " + std::to_string(n) + " exceeds the " +
                     std::to_string(remaining()) +
                     " bytes left in the file (truncated or corrupt file)");
      return 0;
    }
    return n;
  }

  void blob(const char *what, std::vector<uint8_t> &out) {
    uint64_t n = count(what, 1);
    if (!ok())
      return;
    out.assign(data + pos, data + pos + n);
    pos += n;
  }
  void str(const char *what, std::string &out) {
    uint64_t n = count(what, 1);
    if (!ok())
      return;
    out.assign(reinterpret_cast<const char *>(data + pos), n);
    pos += n;
  }

  void fail(const char *what, const std::string &why) {
    if (ok())
      error =
          std::string(what) + " at byte " + std::to_string(pos) + ": " + why;
  }

  std::string error;

private:
  uint64_t le(int n, const char *what) {
    if (!ok())
      return 0;
    if (remaining() < static_cast<size_t>(n)) {
      fail(what, "file ends early (truncated)");
      return 0;
    }
    uint64_t v = 0;
    for (int i = 0; i < n; ++i)
      v |= static_cast<uint64_t>(data[pos + i]) << (8 * i);
    pos += n;
    return v;
  }

  const uint8_t *data;
  size_t size;
  size_t pos = 0;
};

bool validDType(uint32_t v) { return dtypeSize(static_cast<DType>(v)) != 0; }

/// The counterpart of writeTensorDecl; `what` names the field in errors.
void readTensorDecl(Reader &r, const std::string &what, std::string &name,
                    DType &dtype, std::vector<int64_t> &shape) {
  r.str((what + " name").c_str(), name);
  uint32_t dt = r.u32((what + " dtype").c_str());
  if (r.ok() && !validDType(dt))
    r.fail((what + " dtype").c_str(), "unknown dtype " + std::to_string(dt) +
                                          " for tensor '" + name + "'");
  dtype = static_cast<DType>(dt);
  uint64_t rank = r.count((what + " shape").c_str(), 8);
  shape.resize(rank);
  for (uint64_t i = 0; i < rank && r.ok(); ++i)
    shape[i] = r.i64((what + " dim").c_str());
}

void readBinding(Reader &r, TensorBinding &b) {
  readTensorDecl(r, "binding", b.name, b.dtype, b.shape);
  b.buffer = r.u32("binding buffer");
}

// Smallest encoded size of each element, used to reject absurd counts early.
constexpr size_t kMinBufferBytes = 4 + 8 + 8;
constexpr size_t kMinBindingBytes = 8 + 4 + 8 + 4;
constexpr size_t kMinModuleBytes = 8 + 8;
constexpr size_t kMinLaunchBytes = 4 + 8 + 24 + 8;

/// On disk only: a constant of a shape variant whose bytes are those of a
/// constant of the artifact's first program, stored once (u64 index of
/// that buffer instead of the bytes).
constexpr uint32_t kBaseConstant = 4;

/// The parts of one program (the artifact's, or a shape variant's). A
/// variant's buffers of kind kBaseConstant are copies of `base`'s.
void parseProgram(Reader &r, uint32_t version, Artifact &a,
                  const Artifact *base) {
  uint64_t n = r.count("buffer list", kMinBufferBytes);
  a.buffers.resize(n);
  for (uint64_t i = 0; i < n && r.ok(); ++i) {
    Buffer &b = a.buffers[i];
    uint32_t kind = r.u32("buffer kind");
    if (r.ok() && kind == kBaseConstant && base) {
      uint64_t k = r.u64("shared constant");
      if (r.ok() && (k >= base->buffers.size() ||
                     base->buffers[k].kind != BufferKind::Constant))
        r.fail("shared constant", "buffer " + std::to_string(i) +
                                      " refers to " + std::to_string(k) +
                                      ", which is not a constant");
      if (r.ok())
        b = base->buffers[k];
      continue;
    }
    if (r.ok() && (kind < 1 || kind > 3))
      r.fail("buffer kind", "unknown kind " + std::to_string(kind) +
                                " for buffer " + std::to_string(i));
    b.kind = static_cast<BufferKind>(kind);
    b.sizeBytes = r.u64("buffer size");
    r.blob("buffer data", b.data);
  }

  for (auto *list : {&a.inputs, &a.outputs}) {
    n = r.count(list == &a.inputs ? "input list" : "output list",
                kMinBindingBytes);
    list->resize(n);
    for (uint64_t i = 0; i < n && r.ok(); ++i)
      readBinding(r, (*list)[i]);
  }

  n = r.count("module list", kMinModuleBytes);
  a.modules.resize(n);
  for (uint64_t i = 0; i < n && r.ok(); ++i) {
    r.str("module name", a.modules[i].name);
    r.blob("module binary", a.modules[i].binary);
  }

  n = r.count("launch list", kMinLaunchBytes);
  a.launches.resize(n);
  for (uint64_t i = 0; i < n && r.ok(); ++i) {
    Launch &l = a.launches[i];
    l.module = r.u32("launch module");
    r.str("launch entry", l.entry);
    for (uint32_t &g : l.grid)
      g = r.u32("launch grid");
    for (uint32_t &b : l.block)
      b = r.u32("launch block");
    if (version >= 3)
      l.sharedBytes = r.u32("launch shared bytes");
    if (version >= 4)
      l.flags = r.u32("launch flags");
    if (version >= 5)
      r.str("launch nodes", l.nodes);
    uint64_t nargs = r.count("launch args", 4);
    l.args.resize(nargs);
    for (uint64_t j = 0; j < nargs && r.ok(); ++j)
      l.args[j] = r.u32("launch arg");
  }

  n = r.count("frozen input list", kMinBindingBytes);
  a.frozenInputs.resize(n);
  for (uint64_t i = 0; i < n && r.ok(); ++i) {
    FrozenInput &f = a.frozenInputs[i];
    readTensorDecl(r, "frozen input", f.name, f.dtype, f.shape);
    r.blob("frozen input data", f.data);
  }

  if (version < 6)
    return;
  n = r.count("bounded output list", 3 * 4);
  for (uint64_t i = 0; i < n && r.ok(); ++i) {
    uint32_t output = r.u32("bounded output");
    uint32_t dim = r.u32("bounded dimension");
    uint32_t buffer = r.u32("count buffer");
    if (!r.ok())
      return;
    if (output >= a.outputs.size() ||
        dim >= a.outputs[output].shape.size() ||
        a.outputs[output].boundedDim >= 0) {
      r.fail("bounded output", "output " + std::to_string(output) +
                                   ", dimension " + std::to_string(dim) +
                                   " is not an output dimension, or is "
                                   "listed twice");
      return;
    }
    a.outputs[output].boundedDim = dim;
    a.outputs[output].countBuffer = buffer;
  }
  n = r.count("narrowed input list", 4);
  for (uint64_t i = 0; i < n && r.ok(); ++i) {
    uint32_t input = r.u32("narrowed input");
    if (r.ok() && input >= a.inputs.size()) {
      r.fail("narrowed input", "input " + std::to_string(input) +
                                   " does not exist");
      return;
    }
    if (r.ok())
      a.inputs[input].narrowed = true;
  }
}

bool parse(Reader &r, uint32_t version, Artifact &a) {
  uint32_t target = r.u32("target");
  if (r.ok() && target != static_cast<uint32_t>(Target::Cuda) &&
      target != static_cast<uint32_t>(Target::Vulkan))
    r.fail("target", "unknown target " + std::to_string(target));
  a.target = static_cast<Target>(target);
  r.str("model name", a.modelName);
  parseProgram(r, version, a, nullptr);

  if (version >= 5) {
    // A variant takes at least its five list counts.
    uint64_t n = r.count("shape variant list", 5 * 8);
    a.variants.resize(n);
    for (uint64_t i = 0; i < n && r.ok(); ++i) {
      Artifact &v = a.variants[i];
      v.target = a.target;
      v.modelName = a.modelName;
      parseProgram(r, version, v, &a);
    }
    r.str("producer", a.provenance.producer);
    r.str("chip", a.provenance.chip);
    r.str("compile options", a.provenance.options);
    r.u64("checksum"); // compared by parseArtifact, over the whole file
  }

  if (r.ok() && r.remaining() != 0)
    r.fail("end of artifact", std::to_string(r.remaining()) +
                                  " unexpected trailing bytes (corrupt file)");
  return r.ok();
}

/// The counterpart of parseProgram. A variant's constants equal to one of
/// `base`'s are written as references to it.
void writeProgram(Writer &w, const Artifact &a, const Artifact *base) {
  std::multimap<std::pair<uint64_t, uint64_t>, size_t> baseConstants;
  if (base)
    for (size_t k = 0; k < base->buffers.size(); ++k) {
      const Buffer &b = base->buffers[k];
      if (b.kind == BufferKind::Constant)
        baseConstants.insert(
            {{b.sizeBytes, checksum(b.data.data(), b.data.size())}, k});
    }
  auto sameAsBase = [&](const Buffer &b) -> std::optional<size_t> {
    if (b.kind != BufferKind::Constant || baseConstants.empty())
      return std::nullopt;
    auto [first, last] = baseConstants.equal_range(
        {b.sizeBytes, checksum(b.data.data(), b.data.size())});
    for (auto it = first; it != last; ++it)
      if (base->buffers[it->second].data == b.data)
        return it->second;
    return std::nullopt;
  };
  w.u64(a.buffers.size());
  for (const Buffer &b : a.buffers) {
    if (std::optional<size_t> k = sameAsBase(b)) {
      w.u32(kBaseConstant);
      w.u64(*k);
      continue;
    }
    w.u32(static_cast<uint32_t>(b.kind));
    w.u64(b.sizeBytes);
    w.blob(b.data.data(), b.data.size());
  }
  for (const auto *list : {&a.inputs, &a.outputs}) {
    w.u64(list->size());
    for (const TensorBinding &b : *list)
      writeBinding(w, b);
  }
  w.u64(a.modules.size());
  for (const Module &m : a.modules) {
    w.str(m.name);
    w.blob(m.binary.data(), m.binary.size());
  }
  w.u64(a.launches.size());
  for (const Launch &l : a.launches) {
    w.u32(l.module);
    w.str(l.entry);
    for (uint32_t g : l.grid)
      w.u32(g);
    for (uint32_t b : l.block)
      w.u32(b);
    w.u32(l.sharedBytes);
    w.u32(l.flags);
    w.str(l.nodes);
    w.u64(l.args.size());
    for (uint32_t arg : l.args)
      w.u32(arg);
  }
  w.u64(a.frozenInputs.size());
  for (const FrozenInput &f : a.frozenInputs) {
    writeTensorDecl(w, f.name, f.dtype, f.shape);
    w.blob(f.data.data(), f.data.size());
  }
  uint64_t bounded = 0;
  for (const TensorBinding &o : a.outputs)
    bounded += o.boundedDim >= 0;
  w.u64(bounded);
  for (size_t i = 0; i < a.outputs.size(); ++i)
    if (a.outputs[i].boundedDim >= 0) {
      w.u32(static_cast<uint32_t>(i));
      w.u32(static_cast<uint32_t>(a.outputs[i].boundedDim));
      w.u32(a.outputs[i].countBuffer);
    }
  uint64_t narrowed = 0;
  for (const TensorBinding &in : a.inputs)
    narrowed += in.narrowed;
  w.u64(narrowed);
  for (size_t i = 0; i < a.inputs.size(); ++i)
    if (a.inputs[i].narrowed)
      w.u32(static_cast<uint32_t>(i));
}

} // namespace

std::vector<uint8_t> serializeArtifact(const Artifact &a) {
  Writer w;
  w.bytes(kMagic, sizeof(kMagic));
  w.u32(kArtifactVersion);
  w.u32(static_cast<uint32_t>(a.target));
  w.str(a.modelName);
  writeProgram(w, a, nullptr);
  w.u64(a.variants.size());
  for (const Artifact &v : a.variants)
    writeProgram(w, v, &a);
  w.str(a.provenance.producer);
  w.str(a.provenance.chip);
  w.str(a.provenance.options);
  w.u64(checksum(w.out.data(), w.out.size()));
  return std::move(w.out);
}

namespace {
/// A 64-bit hash in which every input bit reaches every output bit: each
/// word goes through a bijective xor-shift-multiply mix with the state.
/// (checksum() above, kept for the files' integrity check, only carries
/// differences towards the high bits: artifacts whose kernels differed in
/// the same bits of one word each, such as cubins for sm_86 and sm_89, got
/// the same value.)
uint64_t mix(uint64_t x) {
  x ^= x >> 32;
  x *= 0xd6e8feb86659fd93ull;
  x ^= x >> 32;
  x *= 0xd6e8feb86659fd93ull;
  x ^= x >> 32;
  return x;
}

uint64_t strongHash(const uint8_t *data, size_t size) {
  uint64_t h = 0x6a09e667f3bcc909ull ^ size;
  for (size_t i = 0; i < size; i += 8) {
    uint64_t w = 0;
    for (size_t b = std::min<size_t>(8, size - i); b-- > 0;)
      w = (w << 8) | data[i + b];
    h = mix(h ^ w) + i;
  }
  return mix(h);
}
} // namespace

uint64_t contentHash(const Artifact &a) {
  Artifact program = a;
  program.provenance = {};
  std::vector<uint8_t> bytes = serializeArtifact(program);
  return strongHash(bytes.data(), bytes.size());
}

bool parseArtifact(const uint8_t *data, size_t size, Artifact &a,
                   std::string &error) {
  if (size < sizeof(kMagic) + 4 || std::memcmp(data, kMagic, 8) != 0) {
    error = "not an onnx-tosa artifact (bad magic; expected \"OTSAART\")";
    return false;
  }
  Reader r(data + sizeof(kMagic), size - sizeof(kMagic));
  uint32_t version = r.u32("version");
  if (version < kOldestArtifactVersion || version > kArtifactVersion) {
    error = "artifact format version " + std::to_string(version) +
            " is not supported (this runtime reads versions " +
            std::to_string(kOldestArtifactVersion) + " to " +
            std::to_string(kArtifactVersion) + ")";
    return false;
  }
  Artifact parsed;
  if (!parse(r, version, parsed)) {
    error = "corrupt artifact: " + r.error;
    return false;
  }
  // The structure is whole; the checksum finds damage inside it (weights,
  // kernels) that would otherwise run.
  if (version >= 5) {
    uint64_t stored = 0;
    for (int b = 7; b >= 0; --b)
      stored = (stored << 8) | data[size - 8 + b];
    if (stored != checksum(data, size - 8)) {
      error = "corrupt artifact: its checksum does not match its contents "
              "(the file was damaged or changed after it was written)";
      return false;
    }
  }
  a = std::move(parsed);
  return true;
}

bool writeArtifact(const Artifact &a, const std::string &path,
                   std::string &error) {
  std::vector<uint8_t> bytes = serializeArtifact(a);
  return writeFileAtomically(path, bytes.data(), bytes.size(), error);
}

bool readArtifact(const std::string &path, Artifact &a, std::string &error) {
  std::vector<uint8_t> bytes;
  if (!readRegularFile(path, "artifact", bytes, error))
    return false;
  if (!parseArtifact(bytes.data(), bytes.size(), a, error)) {
    error = "'" + path + "': " + error;
    return false;
  }
  return true;
}

bool readArtifactTarget(const std::string &path, Target &target,
                        std::string &error) {
  // Magic, version and target come first, in that order (see artifact.h).
  constexpr size_t kHeader = sizeof(kMagic) + 4 + 4;
  std::vector<uint8_t> bytes;
  if (!readRegularFile(path, "artifact", bytes, error, kHeader,
                       /*prefixOnly=*/true))
    return false;
  const uint8_t *header = bytes.data();
  if (bytes.size() != kHeader || std::memcmp(header, kMagic, 8) != 0) {
    error = "'" + path + "': not an onnx-tosa artifact";
    return false;
  }
  Reader r(header + sizeof(kMagic), kHeader - sizeof(kMagic));
  uint32_t version = r.u32("version");
  uint32_t t = r.u32("target");
  if (version < kOldestArtifactVersion || version > kArtifactVersion ||
      (t != static_cast<uint32_t>(Target::Cuda) &&
       t != static_cast<uint32_t>(Target::Vulkan))) {
    error = "'" + path + "': unsupported artifact version or target";
    return false;
  }
  target = static_cast<Target>(t);
  return true;
}

namespace {
/// 90 for "sm_90a", 0 if `chip` is not "sm_<digits>..."; `specific`: it
/// ends in 'a'.
unsigned chipVersion(const std::string &chip, bool &specific) {
  specific = false;
  if (chip.compare(0, 3, "sm_") != 0)
    return 0;
  size_t end = 3;
  unsigned v = 0;
  while (end < chip.size() && chip[end] >= '0' && chip[end] <= '9' &&
         v < 100000)
    v = v * 10 + unsigned(chip[end++] - '0');
  specific = end < chip.size() && chip[end] == 'a';
  return end > 3 ? v : 0;
}
} // namespace

std::string cudaCodeMismatch(const std::string &chip, bool cubin,
                             const std::string &architecture) {
  bool codeSpecific = false, deviceSpecific = false;
  unsigned code = chipVersion(chip, codeSpecific);
  unsigned device = chipVersion(architecture, deviceSpecific);
  if (code == 0 || device == 0)
    return ""; // unrecorded (an older artifact): the driver decides
  std::string what = std::string(cubin ? "machine code (a cubin)" : "PTX") +
                     " for " + chip;
  std::string fix = "; recompile for this GPU (onnx-tosa-compile "
                    "--target=cuda:" +
                    architecture + ", or --target=auto on this machine)";
  if (codeSpecific && code != device)
    return "the artifact holds " + what +
           ", whose architecture-specific instructions run on that "
           "architecture only, but this GPU is " +
           architecture + fix;
  if (code > device)
    return "the artifact holds " + what + ", newer than this GPU (" +
           architecture + ")" + fix;
  if (cubin && code / 10 != device / 10)
    return "the artifact holds " + what +
           ", which runs on GPUs of the same major version only, but this "
           "GPU is " +
           architecture + fix +
           "; code compiled with --cuda-format=ptx the driver compiles for "
           "any later GPU";
  return "";
}

} // namespace onnx_tosa
