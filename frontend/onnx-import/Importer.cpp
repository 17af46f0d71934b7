//===- Importer.cpp - ONNX ModelProto to the onnx dialect -----------------===//
//
// One pass over the graph in its stored (topological, as the ONNX IR
// requires) order. Names are resolved through a scope chain so that nested
// graphs (If/Loop/Scan bodies) can read values of the graphs around them.
//
//===----------------------------------------------------------------------===//
#include "Importer.h"
#include "OnnxDialect.h"
#include "onnx.pb.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ScopedPrinter.h"

#include <cstring>
#include <deque>

using namespace mlir;
namespace pb = onnx_tosa::onnxpb;

namespace onnx_tosa {

bool parseShape(llvm::StringRef text, std::vector<int64_t> &dims) {
  dims.clear();
  if (text.empty())
    return true;
  llvm::SmallVector<llvm::StringRef> parts;
  text.split(parts, 'x');
  for (llvm::StringRef p : parts) {
    int64_t d;
    if (p.getAsInteger(10, d) || d < 0)
      return false;
    dims.push_back(d);
  }
  return true;
}

namespace {

/// Reads a model or external data file: only a regular file (a FIFO or a
/// device such as /dev/zero would hang or grow memory without bound).
std::unique_ptr<llvm::MemoryBuffer> readModelFile(const std::string &file,
                                                  const std::string &what,
                                                  std::string &error) {
  std::string named = (what.empty() ? "" : what + " ") + "'" + file + "'";
  llvm::sys::fs::file_status st;
  if (std::error_code ec = llvm::sys::fs::status(file, st)) {
    error = "cannot read " + named + ": " + ec.message();
    return nullptr;
  }
  if (st.type() != llvm::sys::fs::file_type::regular_file) {
    error = "cannot read " + named + ": not a regular file";
    return nullptr;
  }
  auto buf = llvm::MemoryBuffer::getFile(file, /*IsText=*/false,
                                         /*RequiresNullTerminator=*/false);
  if (!buf) {
    error = "cannot read " + named + ": " + buf.getError().message();
    return nullptr;
  }
  return std::move(*buf);
}

/// Thrown-free error plumbing: the first error wins and stops the import.
struct ImportError {
  std::string message;
};

class Importer {
public:
  Importer(MLIRContext &ctx, StringRef path, const ImportOptions &options)
      : ctx(ctx), b(&ctx), path(path), options(options) {}

  OwningOpRef<ModuleOp> run(std::string &error);

private:
  using Scope = llvm::StringMap<Value>;

  LogicalResult fail(const llvm::Twine &msg) {
    if (error.empty())
      error = msg.str();
    return failure();
  }

  FailureOr<Type> elementType(int32_t onnxType, StringRef what);
  FailureOr<Type> valueInfoType(const pb::ValueInfoProto &vi, bool isInput);
  /// A top-level graph input of type `type` as new arguments of `block`:
  /// a tensor is one argument; a sequence is an onnx.sequence of one argument
  /// per element, named NAME.0, NAME.1, ... (--sequence-length gives their
  /// number); an optional is an onnx.optional of its value, or of nothing
  /// when --absent-input names it.
  FailureOr<Value> structuredInput(const pb::TypeProto &type,
                                   const std::string &name, Block &block,
                                   Location loc);
  FailureOr<DenseElementsAttr> tensorAttr(const pb::TensorProto &t);
  /// The constant that replaces a frozen graph input, checked against the
  /// input's declared type.
  FailureOr<Value> frozenInput(const pb::ValueInfoProto &in,
                               const FrozenValue &frozen);
  FailureOr<std::string> externalBytes(const pb::TensorProto &t);
  FailureOr<NamedAttribute> attribute(const pb::AttributeProto &a,
                                      onnx::NodeOp node, unsigned &regionIdx);
  LogicalResult importGraph(const pb::GraphProto &g, Block &block,
                            bool topLevel, SmallVectorImpl<Value> &results);
  Value lookup(StringRef name);
  Location nodeLoc(const pb::NodeProto &n);

  MLIRContext &ctx;
  OpBuilder b;
  std::string path;
  const ImportOptions &options;
  std::string error;
  llvm::StringMap<int64_t> opsets;
  /// A deque, not a vector: importGraph holds a reference to its own scope
  /// while nested graphs push theirs.
  std::deque<Scope> scopes;
  std::vector<Value> noneValues; ///< one onnx.none per graph, made lazily
  /// The ONNX names of the top-level function's arguments, in order.
  std::vector<std::string> argNames;
};

/// "a sequence", "an optional", ... for a TypeProto that is not a tensor.
std::string typeKind(const pb::TypeProto &type) {
  if (type.has_sequence_type())
    return "a sequence";
  if (type.has_optional_type())
    return "an optional";
  if (type.has_map_type())
    return "a map";
  return "an untyped value";
}

FailureOr<Type> Importer::elementType(int32_t t, StringRef what) {
  switch (t) {
  case pb::TensorProto::FLOAT:
    return Type(b.getF32Type());
  case pb::TensorProto::DOUBLE:
    return Type(b.getF64Type());
  case pb::TensorProto::FLOAT16:
    return Type(b.getF16Type());
  case pb::TensorProto::BFLOAT16:
    return Type(b.getBF16Type());
  case pb::TensorProto::BOOL:
    return Type(b.getI1Type());
  case pb::TensorProto::INT8:
    return Type(b.getIntegerType(8));
  case pb::TensorProto::INT16:
    return Type(b.getIntegerType(16));
  case pb::TensorProto::INT32:
    return Type(b.getIntegerType(32));
  case pb::TensorProto::INT64:
    return Type(b.getIntegerType(64));
  case pb::TensorProto::UINT8:
    return Type(b.getIntegerType(8, false));
  case pb::TensorProto::UINT16:
    return Type(b.getIntegerType(16, false));
  case pb::TensorProto::UINT32:
    return Type(b.getIntegerType(32, false));
  case pb::TensorProto::UINT64:
    return Type(b.getIntegerType(64, false));
  // Narrow types keep their MLIR counterparts here; the legalization
  // carries their values as i8 bit patterns (docs/types.md).
  case pb::TensorProto::FLOAT8E4M3FN:
    return Type(b.getType<Float8E4M3FNType>());
  case pb::TensorProto::FLOAT8E4M3FNUZ:
    return Type(b.getType<Float8E4M3FNUZType>());
  case pb::TensorProto::FLOAT8E5M2:
    return Type(b.getType<Float8E5M2Type>());
  case pb::TensorProto::FLOAT8E5M2FNUZ:
    return Type(b.getType<Float8E5M2FNUZType>());
  case pb::TensorProto::FLOAT8E8M0:
    return Type(b.getType<Float8E8M0FNUType>());
  case pb::TensorProto::FLOAT4E2M1:
    return Type(b.getType<Float4E2M1FNType>());
  case pb::TensorProto::UINT4:
    return Type(b.getIntegerType(4, false));
  case pb::TensorProto::INT4:
    return Type(b.getIntegerType(4));
  case pb::TensorProto::UINT2:
    return Type(b.getIntegerType(2, false));
  case pb::TensorProto::INT2:
    return Type(b.getIntegerType(2));
  default:
    (void)fail(llvm::Twine(what) + ": unsupported ONNX element type " +
               llvm::Twine(t));
    return failure();
  }
}

FailureOr<Type> Importer::valueInfoType(const pb::ValueInfoProto &vi,
                                        bool isInput) {
  if (!vi.has_type() || !vi.type().has_tensor_type()) {
    if (isInput) {
      (void)fail("graph input '" + vi.name() +
                 "' is not a tensor (sequence, map and optional inputs are "
                 "not supported)");
      return failure();
    }
    return Type(onnx::UnknownType::get(&ctx));
  }
  const auto &tt = vi.type().tensor_type();
  FailureOr<Type> elt =
      elementType(tt.elem_type(), "value '" + vi.name() + "'");
  if (failed(elt))
    return failure();
  auto it = options.inputShapes.find(vi.name());
  if (isInput && it != options.inputShapes.end()) {
    if (tt.has_shape() && tt.shape().dim_size() != (int)it->second.size()) {
      (void)fail("--input-shape for '" + vi.name() + "' has rank " +
                 llvm::Twine(it->second.size()) +
                 " but the model declares rank " +
                 llvm::Twine(tt.shape().dim_size()));
      return failure();
    }
    return Type(RankedTensorType::get(it->second, *elt));
  }
  if (!tt.has_shape()) {
    if (isInput) {
      (void)fail("graph input '" + vi.name() +
                 "' has no shape; give one with --input-shape " + vi.name() +
                 "=DIMxDIMx...");
      return failure();
    }
    return Type(UnrankedTensorType::get(*elt));
  }
  SmallVector<int64_t> dims;
  for (int i = 0; i < tt.shape().dim_size(); ++i) {
    const auto &d = tt.shape().dim(i);
    if (d.has_dim_value() && d.dim_value() >= 0) {
      dims.push_back(d.dim_value());
      continue;
    }
    if (d.has_dim_param()) {
      auto bound = options.dimValues.find(d.dim_param());
      if (bound != options.dimValues.end()) {
        dims.push_back(bound->second);
        continue;
      }
    }
    if (isInput) {
      if (d.has_dim_param())
        (void)fail("graph input '" + vi.name() + "' has symbolic dimension '" +
                   d.dim_param() + "' at axis " + llvm::Twine(i) +
                   "; give it values with --dim " + d.dim_param() +
                   "=V[,V...], or fix the input's shape with --input-shape " +
                   vi.name() + "=DIMxDIMx...");
      else
        (void)fail("graph input '" + vi.name() +
                   "' has an unknown dimension at axis " + llvm::Twine(i) +
                   "; fix its shape with --input-shape " + vi.name() +
                   "=DIMxDIMx...");
      return failure();
    }
    dims.push_back(ShapedType::kDynamic);
  }
  return Type(RankedTensorType::get(dims, *elt));
}

FailureOr<Value> Importer::structuredInput(const pb::TypeProto &type,
                                           const std::string &name,
                                           Block &block, Location loc) {
  if (type.has_tensor_type()) {
    pb::ValueInfoProto vi;
    vi.set_name(name);
    *vi.mutable_type() = type;
    FailureOr<Type> t = valueInfoType(vi, /*isInput=*/true);
    if (failed(t))
      return failure();
    argNames.push_back(name);
    return Value(block.addArgument(*t, loc));
  }
  if (type.has_sequence_type()) {
    auto length = options.sequenceLengths.find(name);
    if (length == options.sequenceLengths.end())
      return fail("graph input '" + name +
                  "' is a sequence; give its number of elements with "
                  "--sequence-length " +
                  name + "=N (its elements become inputs " + name + ".0, " +
                  name + ".1, ...)");
    const pb::TypeProto &element = type.sequence_type().elem_type();
    if (!element.has_tensor_type())
      return fail("graph input '" + name + "' is a sequence of " +
                  typeKind(element).substr(2) +
                  "s; only sequences of tensors are supported");
    SmallVector<Value> elements;
    for (int64_t k = 0; k < length->second; ++k) {
      FailureOr<Value> e =
          structuredInput(element, name + "." + std::to_string(k), block, loc);
      if (failed(e))
        return failure();
      elements.push_back(*e);
    }
    return onnx::SequenceOp::create(b, loc, onnx::SequenceType::get(&ctx),
                                    elements)
        .getResult();
  }
  if (type.has_optional_type()) {
    Value value;
    if (!options.absentInputs.contains(name)) {
      FailureOr<Value> v =
          structuredInput(type.optional_type().elem_type(), name, block, loc);
      if (failed(v))
        return failure();
      value = *v;
    }
    return onnx::OptionalOp::create(b, loc, onnx::OptionalType::get(&ctx),
                                    value)
        .getResult();
  }
  return fail("graph input '" + name + "' is " + typeKind(type) +
              ", which is not supported (tensors, sequences of tensors and "
              "optionals of those are)");
}

FailureOr<std::string> Importer::externalBytes(const pb::TensorProto &t) {
  std::string what = "tensor '" + t.name() + "'";
  std::string location;
  uint64_t offset = 0, length = 0;
  bool hasLength = false;
  for (const auto &kv : t.external_data()) {
    uint64_t *number = kv.key() == "offset"   ? &offset
                       : kv.key() == "length" ? &length
                                              : nullptr;
    if (kv.key() == "location")
      location = kv.value();
    if (!number)
      continue;
    if (StringRef(kv.value()).getAsInteger(10, *number)) {
      (void)fail(what + ": external data " + kv.key() + " '" + kv.value() +
                 "' is not a byte count");
      return failure();
    }
    hasLength |= number == &length;
  }
  if (location.empty() || llvm::sys::path::is_absolute(location) ||
      StringRef(location).contains("..")) {
    (void)fail(what + ": external data location '" + location +
               "' must be a relative path next to the model");
    return failure();
  }
  SmallString<256> file(llvm::sys::path::parent_path(path));
  llvm::sys::path::append(file, location);
  // After resolving symbolic links the file must still be under the
  // model's folder (a link may point anywhere), and a regular file (a FIFO
  // or a device would hang or never end).
  SmallString<256> realFile, realDir;
  StringRef dir = llvm::sys::path::parent_path(path);
  if (std::error_code ec = llvm::sys::fs::real_path(file, realFile)) {
    (void)fail(what + ": cannot read external data file '" + file +
               "': " + ec.message());
    return failure();
  }
  if (std::error_code ec =
          llvm::sys::fs::real_path(dir.empty() ? "." : dir, realDir)) {
    (void)fail(what + ": cannot resolve the model's folder: " + ec.message());
    return failure();
  }
  StringRef inside = realFile.str();
  if (!inside.consume_front(realDir) ||
      !(inside.empty() || llvm::sys::path::is_separator(inside.front()))) {
    (void)fail(what + ": external data file '" + file + "' resolves to '" +
               realFile + "', outside the model's folder '" + realDir + "'");
    return failure();
  }
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> buf =
      readModelFile(realFile.str().str(), "external data file", error);
  if (!buf) {
    (void)fail(what + ": " + error);
    return failure();
  }
  uint64_t size = buf->getBufferSize();
  if (!hasLength)
    length = offset <= size ? size - offset : 0;
  if (offset > size || length > size - offset) {
    (void)fail(what + ": external data range [" + llvm::Twine(offset) + ", +" +
               llvm::Twine(length) + ") is outside '" + file + "' (" +
               llvm::Twine(size) + " bytes)");
    return failure();
  }
  return std::string(buf->getBufferStart() + offset, length);
}

FailureOr<DenseElementsAttr> Importer::tensorAttr(const pb::TensorProto &t) {
  std::string what = "tensor '" + t.name() + "'";
  FailureOr<Type> elt = elementType(t.data_type(), what);
  if (failed(elt))
    return failure();
  SmallVector<int64_t> dims(t.dims().begin(), t.dims().end());
  int64_t count = 1;
  for (int64_t d : dims) {
    if (d < 0 || (d > 0 && count > (int64_t(1) << 40) / d)) {
      (void)fail(what + ": invalid dimensions");
      return failure();
    }
    count *= d;
  }
  auto type = RankedTensorType::get(dims, *elt);
  unsigned bits = elt->getIntOrFloatBitWidth();
  // 4- and 2-bit values are packed 2 and 4 to a byte, first in the low bits
  // (raw_data; int32_data holds one such byte per entry).
  unsigned perByte = bits < 8 && bits > 1 ? 8 / bits : 1;
  size_t eltBytes = bits == 1 || perByte > 1 ? 1 : bits / 8;
  if (perByte > 1)
    count = (count + perByte - 1) / perByte; // bytes, unpacked below

  // Little-endian raw bytes in ONNX's layout (bool: one byte per element).
  std::string raw;
  if (t.data_location() == pb::TensorProto::EXTERNAL) {
    FailureOr<std::string> bytes = externalBytes(t);
    if (failed(bytes))
      return failure();
    raw = std::move(*bytes);
  } else if (t.has_raw_data()) {
    raw = t.raw_data();
  } else {
    // Allocate only once the values are known to be there: the shape alone
    // may claim terabytes.
    char *dst = nullptr;
    auto fill = [&](auto &field, auto convert) -> bool {
      if (field.size() != count)
        return false;
      raw.resize(count * eltBytes);
      dst = raw.data();
      for (int64_t i = 0; i < count; ++i)
        convert(i, field.Get(i));
      return true;
    };
    bool ok = true;
    switch (t.data_type()) {
    case pb::TensorProto::FLOAT:
      ok = fill(t.float_data(),
                [&](int64_t i, float v) { std::memcpy(dst + 4 * i, &v, 4); });
      break;
    case pb::TensorProto::DOUBLE:
      ok = fill(t.double_data(),
                [&](int64_t i, double v) { std::memcpy(dst + 8 * i, &v, 8); });
      break;
    case pb::TensorProto::INT64:
      ok = fill(t.int64_data(),
                [&](int64_t i, int64_t v) { std::memcpy(dst + 8 * i, &v, 8); });
      break;
    case pb::TensorProto::UINT32:
    case pb::TensorProto::UINT64:
      ok = fill(t.uint64_data(), [&](int64_t i, uint64_t v) {
        std::memcpy(dst + eltBytes * i, &v, eltBytes);
      });
      break;
    default: // int32_data carries every type of 32 bits or fewer.
      ok = fill(t.int32_data(), [&](int64_t i, int32_t v) {
        std::memcpy(dst + eltBytes * i, &v, eltBytes);
      });
      break;
    }
    if (!ok) {
      (void)fail(what + ": holds the wrong number of values for its shape");
      return failure();
    }
  }
  if (raw.size() != size_t(count) * eltBytes) {
    (void)fail(what + ": holds " + llvm::Twine(raw.size()) +
               " bytes but its shape and type need " +
               llvm::Twine(size_t(count) * eltBytes));
    return failure();
  }
  if (perByte > 1) { // one element per byte, as MLIR stores them
    int64_t elements = type.getNumElements();
    std::string unpacked(elements, '\0');
    for (int64_t i = 0; i < elements; ++i)
      unpacked[i] = static_cast<char>(
          (static_cast<uint8_t>(raw[i / perByte]) >> (bits * (i % perByte))) &
          ((1u << bits) - 1));
    raw = std::move(unpacked);
  }
  if (bits == 1) {
    SmallVector<bool> values;
    for (char c : raw)
      values.push_back(c != 0);
    return DenseElementsAttr::get(type, values);
  }
  return DenseElementsAttr::getFromRawBuffer(type, ArrayRef<char>(raw));
}

FailureOr<NamedAttribute> Importer::attribute(const pb::AttributeProto &a,
                                              onnx::NodeOp node,
                                              unsigned &regionIdx) {
  Attribute value;
  switch (a.type()) {
  case pb::AttributeProto::FLOAT:
    value = b.getF32FloatAttr(a.f());
    break;
  case pb::AttributeProto::INT:
    value = b.getI64IntegerAttr(a.i());
    break;
  case pb::AttributeProto::STRING:
    value = b.getStringAttr(a.s());
    break;
  case pb::AttributeProto::FLOATS:
    value = b.getDenseF32ArrayAttr(
        SmallVector<float>(a.floats().begin(), a.floats().end()));
    break;
  case pb::AttributeProto::INTS:
    value = b.getDenseI64ArrayAttr(
        SmallVector<int64_t>(a.ints().begin(), a.ints().end()));
    break;
  case pb::AttributeProto::STRINGS: {
    SmallVector<Attribute> strs;
    for (const auto &s : a.strings())
      strs.push_back(b.getStringAttr(s));
    value = b.getArrayAttr(strs);
    break;
  }
  case pb::AttributeProto::TENSOR: {
    FailureOr<DenseElementsAttr> t = tensorAttr(a.t());
    if (failed(t))
      return failure();
    value = *t;
    break;
  }
  case pb::AttributeProto::TYPE_PROTO:
    // Only Optional's `type` (what an absent optional would hold) has one;
    // nothing reads more than its kind.
    value = b.getStringAttr(a.tp().has_tensor_type()     ? "tensor"
                            : a.tp().has_sequence_type() ? "sequence"
                            : a.tp().has_optional_type() ? "optional"
                                                         : "other");
    break;
  case pb::AttributeProto::GRAPH: {
    // The body becomes region `regionIdx` of the node; the attribute records
    // which one.
    Region &region = node->getRegion(regionIdx);
    Block *block = new Block();
    region.push_back(block);
    SmallVector<Value> results;
    OpBuilder::InsertionGuard guard(b);
    if (failed(importGraph(a.g(), *block, /*topLevel=*/false, results)))
      return failure();
    b.setInsertionPointToEnd(block);
    onnx::GraphReturnOp::create(b, node.getLoc(), results);
    value = b.getI64IntegerAttr(regionIdx++);
    break;
  }
  default:
    (void)fail("attribute '" + a.name() + "' has unsupported type " +
               llvm::Twine(int(a.type())));
    return failure();
  }
  return NamedAttribute(b.getStringAttr(a.name()), value);
}

FailureOr<Value> Importer::frozenInput(const pb::ValueInfoProto &in,
                                       const FrozenValue &frozen) {
  std::string what = "--freeze-input " + in.name();
  FailureOr<Type> declared = valueInfoType(in, /*isInput=*/false);
  if (failed(declared))
    return failure();
  auto want = dyn_cast<RankedTensorType>(*declared);
  auto wantUnranked = dyn_cast<UnrankedTensorType>(*declared);
  Type wantElt = want ? want.getElementType()
                      : wantUnranked ? wantUnranked.getElementType() : Type();
  pb::TensorProto t;
  t.set_name(in.name());
  t.set_data_type(frozen.dataType);
  for (int64_t d : frozen.shape)
    t.add_dims(d);
  t.set_raw_data(frozen.bytes);
  // numpy has no bfloat16: a bfloat16 input's value comes as float32, as
  // onnx-tosa-run takes it, and is rounded to nearest even.
  if (wantElt && wantElt.isBF16() &&
      frozen.dataType == pb::TensorProto::FLOAT &&
      frozen.bytes.size() % 4 == 0) {
    std::string bits;
    for (size_t i = 0; i < frozen.bytes.size(); i += 4) {
      uint32_t word = 0;
      for (int k = 0; k < 4; ++k)
        word |= uint32_t(static_cast<uint8_t>(frozen.bytes[i + k])) << (8 * k);
      APFloat f(APFloat::IEEEsingle(), APInt(32, word));
      bool lost;
      f.convert(APFloat::BFloat(), APFloat::rmNearestTiesToEven, &lost);
      uint64_t b = f.bitcastToAPInt().getZExtValue();
      bits.push_back(static_cast<char>(b & 0xff));
      bits.push_back(static_cast<char>(b >> 8));
    }
    t.set_data_type(pb::TensorProto::BFLOAT16);
    t.set_raw_data(bits);
  }
  FailureOr<DenseElementsAttr> value = tensorAttr(t);
  if (failed(value))
    return failure();
  auto type = value->getType();
  // The value must fit the declaration: same element type, and each declared
  // dimension equal to the value's (symbolic ones take the value's).
  if (wantElt && wantElt != type.getElementType())
    return fail(what + ": the value has element type " +
                llvm::to_string(type.getElementType()) +
                " but the model declares " + llvm::to_string(wantElt));
  if (want) {
    bool fits = want.getRank() == type.getRank();
    for (int64_t i = 0; fits && i < want.getRank(); ++i)
      fits = want.isDynamicDim(i) || want.getDimSize(i) == type.getDimSize(i);
    auto dims = [](ArrayRef<int64_t> shape) {
      std::string s = "[";
      for (auto [i, d] : llvm::enumerate(shape))
        s += (i ? "," : "") +
             (ShapedType::isDynamic(d) ? std::string("?") : std::to_string(d));
      return s + "]";
    };
    if (!fits)
      return fail(what + ": the value has shape " + dims(type.getShape()) +
                  " but the model declares " + dims(want.getShape()));
  }
  Location loc =
      NameLoc::get(b.getStringAttr(in.name()), FileLineColLoc::get(&ctx, path, 0, 0));
  return onnx::ConstantOp::create(b, loc, type, in.name(), *value).getResult();
}

Value Importer::lookup(StringRef name) {
  for (auto it = scopes.rbegin(); it != scopes.rend(); ++it) {
    auto found = it->find(name);
    if (found != it->end())
      return found->second;
  }
  return {};
}

Location Importer::nodeLoc(const pb::NodeProto &n) {
  Location file = FileLineColLoc::get(&ctx, path, 0, 0);
  std::string name = n.name().empty() ? n.op_type() : n.name();
  return NameLoc::get(b.getStringAttr(name), file);
}

LogicalResult Importer::importGraph(const pb::GraphProto &g, Block &block,
                                    bool topLevel,
                                    SmallVectorImpl<Value> &results) {
  scopes.emplace_back();
  Scope &scope = scopes.back();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(&block);
  Location graphLoc = FileLineColLoc::get(&ctx, path, 0, 0);

  // Initializers first: an initializer that is also listed as an input keeps
  // its stored value (the model is compiled with its weights baked in).
  for (const auto &init : g.initializer()) {
    FailureOr<DenseElementsAttr> attr = tensorAttr(init);
    if (failed(attr))
      return failure();
    scope[init.name()] = onnx::ConstantOp::create(
        b, NameLoc::get(b.getStringAttr(init.name()), graphLoc),
        attr->getType(), init.name(), *attr);
  }
  for (const auto &in : g.input()) {
    auto seen = scope.find(in.name());
    if (seen != scope.end()) {
      if (seen->second.getDefiningOp<onnx::ConstantOp>()) // an initializer
        continue;
      return fail("graph input '" + in.name() + "' is listed more than once");
    }
    auto frozen = options.frozenInputs.find(in.name());
    if (topLevel && frozen != options.frozenInputs.end()) {
      if (!in.type().has_tensor_type())
        return fail("--freeze-input names '" + in.name() + "', which is " +
                    typeKind(in.type()) + ", not a tensor");
      FailureOr<Value> c = frozenInput(in, frozen->second);
      if (failed(c))
        return failure();
      scope[in.name()] = *c;
      continue;
    }
    if (topLevel) {
      FailureOr<Value> v =
          structuredInput(in.type(), in.name(), block, graphLoc);
      if (failed(v))
        return failure();
      scope[in.name()] = *v;
      continue;
    }
    FailureOr<Type> t = valueInfoType(in, /*isInput=*/false);
    if (failed(t))
      return failure();
    scope[in.name()] = block.addArgument(*t, graphLoc);
  }
  auto requireInput = [&](StringRef option, StringRef name) {
    if (!topLevel || scope.count(name) || llvm::is_contained(argNames, name))
      return success();
    std::string names;
    for (const auto &in : g.input())
      names += (names.empty() ? "" : ", ") + in.name();
    return fail(option + " names '" + name +
                "', which is not a graph input (inputs: " + names + ")");
  };
  for (const auto &kv : options.inputShapes)
    if (failed(requireInput("--input-shape", kv.getKey())))
      return failure();
  for (const auto &kv : options.frozenInputs)
    if (failed(requireInput("--freeze-input", kv.getKey())))
      return failure();
  // --sequence-length and --absent-input name inputs of those kinds.
  auto requireKind = [&](StringRef option, StringRef name, bool sequence) {
    if (!topLevel)
      return success();
    for (const auto &in : g.input()) {
      if (in.name() != name)
        continue;
      const pb::TypeProto &type = in.type();
      bool isSequence = type.has_sequence_type() ||
                        (type.has_optional_type() &&
                         type.optional_type().elem_type().has_sequence_type());
      if (sequence ? isSequence : type.has_optional_type())
        return success();
      return fail(
          option + " names '" + name + "', which is " +
          (type.has_tensor_type() ? std::string("a tensor") : typeKind(type)) +
          ", not " + (sequence ? "a sequence" : "an optional"));
    }
    return requireInput(option, name);
  };
  for (const auto &kv : options.sequenceLengths)
    if (failed(requireKind("--sequence-length", kv.getKey(), true)))
      return failure();
  for (const auto &kv : options.absentInputs)
    if (failed(requireKind("--absent-input", kv.getKey(), false)))
      return failure();

  llvm::StringMap<Type> declared;
  for (const auto &vi : g.value_info()) {
    FailureOr<Type> t = valueInfoType(vi, false);
    if (failed(t))
      return failure();
    declared[vi.name()] = *t;
  }
  for (const auto &vi : g.output()) {
    FailureOr<Type> t = valueInfoType(vi, false);
    if (failed(t))
      return failure();
    declared[vi.name()] = *t;
  }

  Value none;
  for (const auto &n : g.node()) {
    std::string domain = n.domain() == "ai.onnx" ? "" : n.domain();
    auto opsetIt = opsets.find(domain);
    int64_t opset = opsetIt == opsets.end() ? 1 : opsetIt->second;
    std::string nodeDesc = "node '" + n.name() + "' (" + n.op_type() +
                           ", domain '" +
                           (domain.empty() ? "ai.onnx" : domain) + "', opset " +
                           std::to_string(opset) + ")";
    SmallVector<Value> operands;
    for (const auto &in : n.input()) {
      if (in.empty()) {
        if (!none)
          none = onnx::NoneOp::create(b, graphLoc, b.getNoneType());
        operands.push_back(none);
        continue;
      }
      Value v = lookup(in);
      if (!v)
        return fail(nodeDesc + ": input '" + in +
                    "' is not produced by an earlier node, an initializer or "
                    "a graph input");
      operands.push_back(v);
    }
    SmallVector<Type> resultTypes;
    for (const auto &out : n.output()) {
      auto it = declared.find(out);
      resultTypes.push_back(it != declared.end()
                                ? it->second
                                : Type(onnx::UnknownType::get(&ctx)));
    }
    unsigned numRegions = 0;
    for (const auto &a : n.attribute())
      numRegions += a.type() == pb::AttributeProto::GRAPH;
    for (const auto &a : n.attribute())
      if (a.type() == pb::AttributeProto::GRAPHS)
        return fail(nodeDesc + ": attribute '" + a.name() +
                    "' (a list of graphs) is not supported");

    OperationState state(nodeLoc(n), onnx::NodeOp::getOperationName());
    state.addOperands(operands);
    state.addTypes(resultTypes);
    for (unsigned i = 0; i < numRegions; ++i)
      state.addRegion();
    // onnx.checker's rules that would otherwise change the meaning: an
    // attribute given twice (one would silently win) and a value defined
    // twice in one graph (the graph is single-assignment).
    llvm::StringSet<> attrNames;
    for (const auto &a : n.attribute())
      if (!attrNames.insert(a.name()).second)
        return fail(nodeDesc + ": attribute '" + a.name() +
                    "' is given more than once");
    for (const auto &out : n.output())
      if (!out.empty() && scope.count(out))
        return fail(nodeDesc + ": output '" + out +
                    "' is already defined in this graph (an ONNX graph "
                    "assigns each value once)");
    state.addAttribute("op_type", b.getStringAttr(n.op_type()));
    state.addAttribute("domain", b.getStringAttr(domain));
    state.addAttribute("opset", b.getI64IntegerAttr(opset));
    state.addAttribute("node_name", b.getStringAttr(n.name()));
    state.addAttribute("attrs", b.getDictionaryAttr({}));
    auto node = cast<onnx::NodeOp>(b.create(state));

    SmallVector<NamedAttribute> attrs;
    unsigned regionIdx = 0;
    for (const auto &a : n.attribute()) {
      FailureOr<NamedAttribute> attr = attribute(a, node, regionIdx);
      if (failed(attr)) {
        std::string inner = error;
        error.clear();
        return fail(nodeDesc + ": " + inner);
      }
      attrs.push_back(*attr);
    }
    node.setAttrsAttr(b.getDictionaryAttr(attrs));
    for (auto [i, out] : llvm::enumerate(n.output()))
      if (!out.empty())
        scope[out] = node->getResult(i);
  }

  for (const auto &out : g.output()) {
    Value v = lookup(out.name());
    if (!v)
      return fail("graph output '" + out.name() +
                  "' is not produced by any node, initializer or input");
    results.push_back(v);
  }
  scopes.pop_back();
  return success();
}

OwningOpRef<ModuleOp> Importer::run(std::string &errorOut) {
  std::unique_ptr<llvm::MemoryBuffer> buf =
      readModelFile(path, "", errorOut);
  if (!buf)
    return nullptr;
  pb::ModelProto model;
  if (buf->getBufferSize() > size_t(INT32_MAX) ||
      !model.ParseFromArray(buf->getBufferStart(),
                            int(buf->getBufferSize()))) {
    errorOut = "cannot parse '" + path +
               "' as an ONNX model: not a valid ModelProto (truncated or "
               "corrupt file?)";
    return nullptr;
  }
  if (!model.has_graph() || model.ir_version() <= 0) {
    errorOut = "'" + path + "' is not an ONNX model: it has no " +
               (model.has_graph() ? "IR version" : "graph");
    return nullptr;
  }
  // The newest versions of the format and of the default domain that this
  // importer knows (those of onnx 1.23); a later model may mean something
  // it does not.
  constexpr int64_t kMaxIrVersion = 14, kMaxOnnxOpset = 28;
  if (model.ir_version() > kMaxIrVersion) {
    errorOut = "'" + path + "' has ONNX IR version " +
               std::to_string(model.ir_version()) +
               "; onnx-tosa reads IR versions up to " +
               std::to_string(kMaxIrVersion);
    return nullptr;
  }
  for (const auto &o : model.opset_import()) {
    bool onnxDomain = o.domain().empty() || o.domain() == "ai.onnx";
    if (onnxDomain && (o.version() < 1 || o.version() > kMaxOnnxOpset)) {
      errorOut = "'" + path + "' imports opset " +
                 std::to_string(o.version()) +
                 " of the ONNX domain; onnx-tosa knows opsets 1 to " +
                 std::to_string(kMaxOnnxOpset);
      return nullptr;
    }
    opsets[o.domain() == "ai.onnx" ? "" : o.domain()] = o.version();
  }

  ctx.loadDialect<onnx::OnnxDialect, func::FuncDialect>();
  Location loc = FileLineColLoc::get(&ctx, path, 0, 0);
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  b.setInsertionPointToEnd(module->getBody());

  auto func = func::FuncOp::create(b, loc, "main", b.getFunctionType({}, {}));
  Block *entry = func.addEntryBlock();
  SmallVector<Value> results;
  if (failed(importGraph(model.graph(), *entry, /*topLevel=*/true, results))) {
    errorOut = error;
    return nullptr;
  }
  b.setInsertionPointToEnd(entry);
  func::ReturnOp::create(b, loc, results);

  // Signature, with the ONNX names of inputs and outputs kept as attributes.
  SmallVector<Type> argTypes(entry->getArgumentTypes());
  SmallVector<Type> resultTypes;
  for (Value v : results)
    resultTypes.push_back(v.getType());
  func.setType(b.getFunctionType(argTypes, resultTypes));
  for (auto [i, name] : llvm::enumerate(argNames))
    func.setArgAttr(i, "onnx.name", b.getStringAttr(name));
  for (auto [i, out] : llvm::enumerate(model.graph().output())) {
    func.setResultAttr(i, "onnx.name", b.getStringAttr(out.name()));
    // A sequence or optional output: the type of its tensors, which the
    // legalization gives back to each (one result per element).
    const pb::TypeProto *type = &out.type();
    while (type->has_optional_type() || type->has_sequence_type())
      type = type->has_optional_type() ? &type->optional_type().elem_type()
                                       : &type->sequence_type().elem_type();
    if (type != &out.type() && type->has_tensor_type()) {
      // (An element type without a counterpart here is left out: the
      // elements' own types say what they are.)
      FailureOr<Type> elt = elementType(type->tensor_type().elem_type(),
                                        "output '" + out.name() + "'");
      error.clear();
      if (succeeded(elt))
        func.setResultAttr(i, kDeclaredElementTypeAttr, TypeAttr::get(*elt));
    }
  }

  SmallVector<NamedAttribute> opsetAttrs;
  for (const auto &kv : opsets)
    opsetAttrs.push_back(
        b.getNamedAttr(kv.getKey().empty() ? "ai.onnx" : kv.getKey(),
                       b.getI64IntegerAttr(kv.getValue())));
  (*module)->setAttr("onnx.opset_import", b.getDictionaryAttr(opsetAttrs));
  (*module)->setAttr("onnx.ir_version",
                     b.getI64IntegerAttr(model.ir_version()));
  if (!model.graph().name().empty())
    (*module)->setAttr("onnx.graph_name",
                       b.getStringAttr(model.graph().name()));
  return module;
}

} // namespace

OwningOpRef<ModuleOp> importOnnxModel(MLIRContext &ctx, StringRef path,
                                      const ImportOptions &options,
                                      std::string &error) {
  Importer importer(ctx, path, options);
  return importer.run(error);
}

} // namespace onnx_tosa
