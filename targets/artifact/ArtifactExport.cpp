//===- ArtifactExport.cpp - Host function + kernels → Artifact ------------===//
#include "artifact/ArtifactExport.h"
#include "pipelines/tosa-to-gpu/TosaToGpu.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"

using namespace mlir;

namespace onnx_tosa {
namespace {


std::optional<DType> toDType(Type t) {
  if (isa<Float8E4M3FNType>(t))
    return DType::F8E4M3FN;
  if (isa<Float8E4M3FNUZType>(t))
    return DType::F8E4M3FNUZ;
  if (isa<Float8E5M2Type>(t))
    return DType::F8E5M2;
  if (isa<Float8E5M2FNUZType>(t))
    return DType::F8E5M2FNUZ;
  if (isa<Float4E2M1FNType>(t))
    return DType::F4E2M1;
  if (isa<Float8E8M0FNUType>(t))
    return DType::F8E8M0;
  if (t.isF32())
    return DType::F32;
  if (t.isF16())
    return DType::F16;
  if (t.isBF16())
    return DType::BF16;
  if (t.isF64())
    return DType::F64;
  if (auto i = dyn_cast<IntegerType>(t)) {
    bool u = i.isUnsigned();
    switch (i.getWidth()) {
    case 1:
      return DType::Bool;
    case 2:
      return u ? DType::U2 : DType::I2;
    case 4:
      return u ? DType::U4 : DType::I4;
    case 8:
      return u ? DType::U8 : DType::I8;
    case 16:
      return u ? DType::U16 : DType::I16;
    case 32:
      return u ? DType::U32 : DType::I32;
    case 64:
      return u ? DType::U64 : DType::I64;
    }
  }
  return std::nullopt;
}

/// An unrealized_conversion_cast between memrefs of one shape and element
/// width: the SPIR-V target hands bf16 buffers to kernels that read them as
/// i16 (StoreBf16AsI16.cpp); the bytes are the same.
bool isSameBytesCast(Operation &op) {
  auto cast = dyn_cast<UnrealizedConversionCastOp>(op);
  if (!cast || cast.getNumOperands() != 1 || cast.getNumResults() != 1)
    return false;
  auto from = dyn_cast<MemRefType>(cast.getOperand(0).getType());
  auto to = dyn_cast<MemRefType>(cast.getResult(0).getType());
  return from && to && from.getShape() == to.getShape() &&
         from.getLayout() == to.getLayout() &&
         from.getElementTypeBitWidth() == to.getElementTypeBitWidth();
}

/// Bytes of a constant in the runtime's layout (bool: one byte each).
FailureOr<std::vector<uint8_t>> constantBytes(Attribute init, MemRefType type) {
  size_t n = type.getNumElements();
  unsigned bits = type.getElementTypeBitWidth();
  std::vector<uint8_t> bytes;
  if (auto dense = dyn_cast<DenseElementsAttr>(init)) {
    if (bits == 1) {
      for (bool v : dense.getValues<bool>())
        bytes.push_back(v);
      return bytes;
    }
    ArrayRef<char> raw = dense.getRawData();
    if (dense.isSplat()) {
      for (size_t i = 0; i < n; ++i)
        bytes.insert(bytes.end(), raw.begin(), raw.begin() + bits / 8);
      return bytes;
    }
    bytes.assign(raw.begin(), raw.end());
    return bytes;
  }
  if (auto res = dyn_cast<DenseResourceElementsAttr>(init)) {
    if (AsmResourceBlob *blob = res.getRawHandle().getBlob()) {
      ArrayRef<char> raw = blob->getData();
      bytes.assign(raw.begin(), raw.end());
      return bytes;
    }
  }
  return failure();
}

class Exporter {
public:
  Exporter(ModuleOp module, Artifact &out) : module(module), out(out) {}

  LogicalResult run(Target target,
                    const std::map<std::string, std::vector<uint8_t>> &mods);

private:
  FailureOr<uint32_t> bufferOf(Value v, Operation *user) {
    auto it = buffers.find(v);
    if (it == buffers.end()) {
      user->emitError("operand is not a whole device buffer");
      return failure();
    }
    return it->second;
  }
  uint32_t newBuffer(BufferKind kind, MemRefType type) {
    Buffer b;
    b.kind = kind;
    unsigned bits = type.getElementTypeBitWidth();
    b.sizeBytes = uint64_t(type.getNumElements()) * (bits == 1 ? 1 : bits / 8);
    out.buffers.push_back(std::move(b));
    return out.buffers.size() - 1;
  }
  /// `isUnsigned`: the signless integer buffer holds unsigned data (the
  /// legalization marks such graph inputs and outputs "onnx.unsigned").
  /// `declared`: the i8 buffer holds the bit patterns of this narrow type
  /// ("onnx.element_type"), one element per byte.
  FailureOr<TensorBinding> binding(StringAttr name, Type type, uint32_t buf,
                                   Operation *where, bool isUnsigned,
                                   TypeAttr declared) {
    auto mt = dyn_cast<MemRefType>(type);
    Type elt = mt ? mt.getElementType() : Type();
    if (declared && elt && elt.isInteger(8))
      elt = declared.getValue();
    if (isUnsigned && elt && elt.isSignlessInteger() &&
        elt.getIntOrFloatBitWidth() > 1)
      elt = IntegerType::get(elt.getContext(), elt.getIntOrFloatBitWidth(),
                             IntegerType::Unsigned);
    std::optional<DType> dt = mt ? toDType(elt) : std::nullopt;
    if (!mt || !mt.hasStaticShape() || !dt) {
      where->emitError("model input/output of unsupported type ") << type;
      return failure();
    }
    TensorBinding b;
    b.name = name ? name.str() : "";
    b.dtype = *dt;
    b.shape.assign(mt.getShape().begin(), mt.getShape().end());
    b.buffer = buf;
    return b;
  }

  ModuleOp module;
  Artifact &out;
  llvm::DenseMap<Value, uint32_t> buffers;
};

LogicalResult
Exporter::run(Target target,
              const std::map<std::string, std::vector<uint8_t>> &mods) {
  out.target = target;
  func::FuncOp main;
  for (auto f : module.getOps<func::FuncOp>())
    if (!f.isExternal())
      main = main ? main : f;
  if (!main)
    return module.emitError("no host function to export");

  // Kernel modules with the same binary (a model's repeated layers) are
  // stored once, and their launches share it: one module for the runtime
  // to load and, on Vulkan, one pipeline for the driver to compile.
  // The one kept is the first in the order of the names' numbers
  // (main_kernel_6 before main_kernel_26), the order of the launches.
  std::vector<std::pair<std::string, const std::vector<uint8_t> *>> ordered;
  for (const auto &[name, binary] : mods)
    ordered.emplace_back(name, &binary);
  llvm::stable_sort(ordered, [](const auto &a, const auto &b) {
    return std::make_pair(a.first.size(), a.first) <
           std::make_pair(b.first.size(), b.first);
  });
  std::map<std::string, uint32_t> moduleIndex;
  llvm::DenseMap<StringRef, uint32_t> binaryIndex; // views of `mods`
  for (const auto &[name, binary] : ordered) {
    StringRef bytes(reinterpret_cast<const char *>(binary->data()),
                    binary->size());
    auto [it, first] = binaryIndex.try_emplace(bytes, out.modules.size());
    moduleIndex[name] = it->second;
    if (first)
      out.modules.push_back({name, *binary});
  }

  for (auto [i, arg] : llvm::enumerate(main.getArguments())) {
    auto mt = dyn_cast<MemRefType>(arg.getType());
    if (!mt)
      return main.emitError("input ") << i << " is not a buffer";
    uint32_t buf = newBuffer(BufferKind::Input, mt);
    buffers[arg] = buf;
    auto name = main.getArgAttrOfType<StringAttr>(i, "onnx.name");
    auto b = binding(name, mt, buf, main,
                     static_cast<bool>(main.getArgAttr(i, "onnx.unsigned")),
                     main.getArgAttrOfType<TypeAttr>(i, "onnx.element_type"));
    if (failed(b))
      return failure();
    if (b->name.empty())
      b->name = "input" + std::to_string(i);
    b->narrowed = static_cast<bool>(main.getArgAttr(i, "onnx.narrowed"));
    out.inputs.push_back(*b);
  }

  for (Operation &op : main.getBody().front()) {
    if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
      if (!alloc.getType().hasStaticShape())
        return alloc.emitError("dynamic allocation is not supported");
      buffers[alloc] = newBuffer(BufferKind::Intermediate, alloc.getType());
      continue;
    }
    if (auto get = dyn_cast<memref::GetGlobalOp>(op)) {
      auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
          get, get.getNameAttr());
      if (!global)
        return get.emitError("unknown global");
      if (!global.getInitialValue()) {
        buffers[get] = newBuffer(BufferKind::Intermediate, get.getType());
        continue;
      }
      FailureOr<std::vector<uint8_t>> bytes =
          constantBytes(*global.getInitialValue(), get.getType());
      if (failed(bytes))
        return global.emitError("constant of unsupported kind");
      uint32_t buf = newBuffer(BufferKind::Constant, get.getType());
      if (bytes->size() != out.buffers[buf].sizeBytes)
        return global.emitError("constant size does not match its type");
      out.buffers[buf].data = std::move(*bytes);
      buffers[get] = buf;
      continue;
    }
    if (isa<memref::CollapseShapeOp, memref::ExpandShapeOp, memref::CastOp,
            memref::ReshapeOp>(op) ||
        isSameBytesCast(op)) {
      // Views of a dense buffer with identity layout: the same bytes.
      FailureOr<uint32_t> src = bufferOf(op.getOperand(0), &op);
      if (failed(src))
        return failure();
      buffers[op.getResult(0)] = *src;
      continue;
    }
    if (auto launch = dyn_cast<gpu::LaunchFuncOp>(op)) {
      Launch l;
      auto it = moduleIndex.find(launch.getKernelModuleName().str());
      if (it == moduleIndex.end())
        return launch.emitError("no device code for kernel module ")
               << launch.getKernelModuleName();
      l.module = it->second;
      l.entry = launch.getKernelName().str();
      Value grid[3] = {launch.getGridSizeX(), launch.getGridSizeY(),
                       launch.getGridSizeZ()};
      Value block[3] = {launch.getBlockSizeX(), launch.getBlockSizeY(),
                        launch.getBlockSizeZ()};
      for (int d = 0; d < 3; ++d) {
        std::optional<int64_t> g = getConstantIntValue(grid[d]);
        std::optional<int64_t> b = getConstantIntValue(block[d]);
        if (!g || !b)
          return launch.emitError("launch dimensions must be constants");
        l.grid[d] = *g;
        l.block[d] = *b;
      }
      if (Value bytes = launch.getDynamicSharedMemorySize()) {
        std::optional<int64_t> n = getConstantIntValue(bytes);
        if (!n || *n < 0 || *n > UINT32_MAX)
          return launch.emitError(
              "dynamic shared memory size must be a constant");
        l.sharedBytes = *n;
      }
      if (launch->hasAttr(kWaitsForPreviousAttr))
        l.flags |= kLaunchWaitsForPrevious;
      for (Value arg : launch.getKernelOperands()) {
        if (!isa<MemRefType>(arg.getType()))
          return launch.emitError("kernel argument of type ")
                 << arg.getType() << " (only buffers may cross to the device)";
        FailureOr<uint32_t> buf = bufferOf(arg, launch);
        if (failed(buf))
          return failure();
        l.args.push_back(*buf);
      }
      if (auto nodes = launch->getAttrOfType<StringAttr>(kKernelNodesAttr))
        l.nodes = nodes.str();
      out.launches.push_back(std::move(l));
      continue;
    }
    if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      for (auto [i, v] : llvm::enumerate(ret.getOperands())) {
        FailureOr<uint32_t> buf = bufferOf(v, ret);
        if (failed(buf))
          return failure();
        // The count of an output whose size depends on the data (the
        // legalization's "onnx.count" results) is no output: the output
        // it sizes refers to its buffer.
        if (main.getResultAttr(i, "onnx.count"))
          continue;
        auto name = main.getResultAttrOfType<StringAttr>(i, "onnx.name");
        auto b =
            binding(name, v.getType(), *buf, ret,
                    static_cast<bool>(main.getResultAttr(i, "onnx.unsigned")),
                    main.getResultAttrOfType<TypeAttr>(i, "onnx.element_type"));
        if (failed(b))
          return failure();
        if (b->name.empty())
          b->name = "output" + std::to_string(i);
        if (auto dim =
                main.getResultAttrOfType<IntegerAttr>(i, "onnx.bounded_dim")) {
          auto countResult =
              main.getResultAttrOfType<IntegerAttr>(i, "onnx.count_result");
          int64_t c = countResult ? countResult.getInt() : -1;
          if (c < 0 || c >= static_cast<int64_t>(ret.getNumOperands()) ||
              dim.getInt() < 0 ||
              dim.getInt() >= static_cast<int64_t>(b->shape.size()))
            return ret.emitError("output ")
                   << i << " has an invalid count of its data-dependent size";
          auto countType = dyn_cast<MemRefType>(ret.getOperand(c).getType());
          if (!countType || countType.getNumElements() != 1 ||
              !countType.getElementType().isInteger(32))
            return ret.emitError("the count of output ")
                   << i << " is not one i32";
          FailureOr<uint32_t> countBuf = bufferOf(ret.getOperand(c), ret);
          if (failed(countBuf))
            return failure();
          b->boundedDim = dim.getInt();
          b->countBuffer = *countBuf;
        }
        out.outputs.push_back(*b);
      }
      continue;
    }
    if (isa<memref::DeallocOp, arith::ConstantOp>(op))
      continue;
    return op.emitError("host operation left after the gpu pipeline; the "
                        "runtime cannot run it");
  }
  return success();
}

} // namespace

MemoryPlanStats planMemory(Artifact &a) {
  MemoryPlanStats stats;
  size_t n = a.buffers.size();
  constexpr int64_t kUnused = -1;
  std::vector<int64_t> first(n, kUnused), last(n, kUnused);
  for (auto [i, l] : llvm::enumerate(a.launches))
    for (uint32_t b : l.args) {
      if (first[b] == kUnused)
        first[b] = i;
      last[b] = i;
    }
  int64_t end = a.launches.size();
  for (const TensorBinding &o : a.outputs)
    for (uint32_t b : {o.buffer, o.countBuffer}) {
      if (b == o.countBuffer && o.boundedDim < 0)
        continue;
      if (first[b] == kUnused)
        first[b] = end;
      last[b] = end;
    }

  // Intermediates in order of first use; each takes the smallest free
  // physical buffer that fits (or the largest free one, grown), else a new
  // one. A physical buffer is free once the last use of its current tenant
  // has passed.
  std::vector<uint32_t> order;
  for (uint32_t b = 0; b < n; ++b)
    if (a.buffers[b].kind == BufferKind::Intermediate) {
      ++stats.buffersBefore;
      stats.bytesBefore += a.buffers[b].sizeBytes;
      if (first[b] != kUnused)
        order.push_back(b);
    }
  llvm::stable_sort(
      order, [&](uint32_t x, uint32_t y) { return first[x] < first[y]; });
  struct Physical {
    uint64_t size;
    int64_t busyUntil;
  };
  std::vector<Physical> physical;
  std::vector<int64_t> assignment(n, kUnused);
  for (uint32_t b : order) {
    uint64_t need = a.buffers[b].sizeBytes;
    int64_t best = kUnused;
    for (auto [p, phys] : llvm::enumerate(physical)) {
      if (phys.busyUntil >= first[b])
        continue;
      if (best == kUnused) {
        best = p;
        continue;
      }
      const Physical &cur = physical[best];
      bool fits = phys.size >= need, curFits = cur.size >= need;
      if ((fits && (!curFits || phys.size < cur.size)) ||
          (!fits && !curFits && phys.size > cur.size))
        best = p;
    }
    if (best == kUnused) {
      best = physical.size();
      physical.push_back({need, last[b]});
    }
    physical[best].size = std::max(physical[best].size, need);
    physical[best].busyUntil = last[b];
    assignment[b] = best;
  }

  // New buffer table: everything that is not a planned intermediate keeps
  // its own buffer; then one buffer per physical slot.
  std::vector<Buffer> buffers;
  std::vector<uint32_t> remap(n, 0);
  for (uint32_t b = 0; b < n; ++b)
    if (a.buffers[b].kind != BufferKind::Intermediate) {
      remap[b] = buffers.size();
      buffers.push_back(std::move(a.buffers[b]));
    }
  uint32_t base = buffers.size();
  for (const Physical &p : physical) {
    Buffer buf;
    buf.kind = BufferKind::Intermediate;
    buf.sizeBytes = p.size;
    buffers.push_back(std::move(buf));
    ++stats.buffersAfter;
    stats.bytesAfter += p.size;
  }
  for (uint32_t b = 0; b < n; ++b)
    if (assignment[b] != kUnused)
      remap[b] = base + assignment[b];
  for (Launch &l : a.launches)
    for (uint32_t &arg : l.args)
      arg = remap[arg];
  for (TensorBinding &t : a.inputs)
    t.buffer = remap[t.buffer];
  for (TensorBinding &t : a.outputs) {
    t.buffer = remap[t.buffer];
    if (t.boundedDim >= 0)
      t.countBuffer = remap[t.countBuffer];
  }
  a.buffers = std::move(buffers);
  return stats;
}

LogicalResult
exportArtifact(ModuleOp module, Target target,
               const std::map<std::string, std::vector<uint8_t>> &modules,
               Artifact &out) {
  Exporter e(module, out);
  return e.run(target, modules);
}

} // namespace onnx_tosa
