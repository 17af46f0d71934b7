//===- TargetInfo.cpp - the table of targets ------------------------------===//
#include "TargetInfo.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

namespace onnx_tosa {
namespace {

constexpr int64_t KiB = 1024;

/// A CUDA row. Multiprocessor counts are those of the first device named
/// (a GPU detected at compile time brings its own); shared memory and
/// registers are NVIDIA's per-architecture limits (CUDA C++ Programming
/// Guide, "Technical Specifications per Compute Capability"); the PTX ISA
/// version is the first that knows the chip, and at least 8.0.
TargetInfo cuda(const char *chip, const char *devices, int64_t sms,
                int64_t sharedPerSmKiB, int64_t maxSharedPerBlockKiB,
                int ptx) {
  TargetInfo t;
  t.name = std::string("cuda:") + chip;
  t.api = TargetApi::Cuda;
  t.chip = chip;
  t.devices = devices;
  t.multiprocessors = sms;
  t.subgroupSize = 32;
  t.maxThreadsPerBlock = 1024;
  t.staticSharedBytes = 48 * KiB;
  t.maxSharedBytesPerBlock = maxSharedPerBlockKiB * KiB;
  t.sharedBytesPerMultiprocessor = sharedPerSmKiB * KiB;
  t.registersPerMultiprocessor = 64 * KiB;
  unsigned version = 0;
  llvm::StringRef(chip).drop_front(3).take_while(llvm::isDigit).getAsInteger(
      10, version);
  t.wmmaF16 = true;
  t.wmmaTf32Bf16 = version >= 80;
  t.asyncCopy = version >= 80;
  t.gridDependencyControl = version >= 90;
  t.warpgroupMma = llvm::StringRef(chip) == "sm_90a";
  t.ptxVersion = std::max(ptx, 80);
  return t;
}

/// The Vulkan row: a desktop GPU's driver, the kernel shapes chosen as they
/// were measured (on an H100's Vulkan driver: 132 multiprocessors); the
/// subgroup size is the device's, and workgroup memory Vulkan's common
/// 48 KiB (maxComputeSharedMemorySize; lavapipe and NVIDIA have 48 KiB or
/// more).
TargetInfo vulkan() {
  TargetInfo t;
  t.name = "vulkan";
  t.api = TargetApi::Vulkan;
  t.devices = "any Vulkan 1.2 device (lavapipe, NVIDIA, AMD, Intel)";
  t.multiprocessors = 132;
  t.subgroupSize = 0;
  t.maxThreadsPerBlock = 1024;
  t.staticSharedBytes = 48 * KiB;
  t.maxSharedBytesPerBlock = 48 * KiB;
  t.sharedBytesPerMultiprocessor = 48 * KiB;
  t.maxBufferBytes = int64_t(1) << 27;
  return t;
}

const std::vector<TargetInfo> &table() {
  static const std::vector<TargetInfo> rows = {
      cuda("sm_75", "T4, RTX 20xx", 40, 64, 64, 63),
      cuda("sm_80", "A100", 108, 164, 163, 70),
      cuda("sm_86", "A10, RTX 30xx", 72, 100, 99, 71),
      cuda("sm_89", "L4, L40S, RTX 40xx", 58, 100, 99, 78),
      cuda("sm_90", "H100, H200 (portable PTX)", 132, 228, 227, 78),
      cuda("sm_90a", "H100, H200", 132, 228, 227, 80),
      cuda("sm_100", "B200", 148, 228, 227, 86),
      cuda("sm_120", "RTX 50xx, RTX PRO 6000", 170, 128, 99, 87),
      vulkan(),
  };
  return rows;
}

/// The number of an "sm_XY[a|f]" chip (90 for sm_90a), 0 if it is none.
unsigned chipNumber(llvm::StringRef chip) {
  unsigned n = 0;
  if (!chip.consume_front("sm_"))
    return 0;
  llvm::StringRef digits = chip.take_while(llvm::isDigit);
  llvm::StringRef suffix = chip.drop_front(digits.size());
  if (digits.size() < 2 || digits.getAsInteger(10, n) ||
      !(suffix.empty() || suffix == "a" || suffix == "f"))
    return 0;
  return n;
}

std::string knownNames() {
  std::vector<std::string> names;
  for (const TargetInfo &t : table())
    names.push_back(t.name);
  return llvm::join(names, ", ");
}

} // namespace

std::string TargetInfo::ptxFeatures() const {
  return "+ptx" + std::to_string(ptxVersion);
}

llvm::ArrayRef<TargetInfo> knownTargets() { return table(); }

std::optional<TargetInfo> lookupTarget(llvm::StringRef spec,
                                       std::string &error) {
  for (const TargetInfo &t : table())
    if (t.name == spec)
      return t;
  llvm::StringRef chip = spec;
  if (!chip.consume_front("cuda:") && !chip.starts_with("sm_")) {
    error = "unknown target '" + spec.str() + "' (known: auto, cuda, " +
            knownNames() + ")";
    return std::nullopt;
  }
  unsigned number = chipNumber(chip);
  if (number == 0) {
    error = "unknown CUDA chip '" + chip.str() +
            "' (expected sm_XY, e.g. sm_80; known: " + knownNames() + ")";
    return std::nullopt;
  }
  // sm_100a without a row of its own: sm_100, whose code it runs.
  for (const TargetInfo &t : table())
    if (t.isCuda() && t.chip == "sm_" + std::to_string(number))
      return t;
  // A chip between rows runs the code of the newest one below it of the
  // same major version (cubins run on later minor versions only).
  const TargetInfo *best = nullptr;
  for (const TargetInfo &t : table())
    if (t.isCuda() && chipNumber(t.chip) / 10 == number / 10 &&
        chipNumber(t.chip) < number && t.chip.back() != 'a')
      best = &t;
  if (best)
    return *best;
  error = "no row for CUDA chip '" + chip.str() + "' (known: " + knownNames() +
          "); its nearest older chip's code may still run as PTX: "
          "--target=cuda:<that chip> --cuda-format=ptx";
  return std::nullopt;
}

std::optional<TargetInfo> targetForDevice(llvm::StringRef architecture,
                                          int64_t multiprocessors,
                                          std::string &error) {
  std::optional<TargetInfo> t = lookupTarget(architecture, error);
  if (t && multiprocessors > 0)
    t->multiprocessors = multiprocessors;
  return t;
}

mlir::DictionaryAttr targetToAttr(mlir::MLIRContext *context,
                                  const TargetInfo &t) {
  mlir::Builder b(context);
  auto i64 = [&](int64_t v) { return b.getI64IntegerAttr(v); };
  llvm::SmallVector<mlir::NamedAttribute> fields = {
      b.getNamedAttr("name", b.getStringAttr(t.name)),
      b.getNamedAttr("multiprocessors", i64(t.multiprocessors)),
      b.getNamedAttr("subgroup_size", i64(t.subgroupSize)),
      b.getNamedAttr("max_threads_per_block", i64(t.maxThreadsPerBlock)),
      b.getNamedAttr("static_shared_bytes", i64(t.staticSharedBytes)),
      b.getNamedAttr("max_shared_bytes_per_block",
                     i64(t.maxSharedBytesPerBlock)),
      b.getNamedAttr("shared_bytes_per_multiprocessor",
                     i64(t.sharedBytesPerMultiprocessor)),
      b.getNamedAttr("registers_per_multiprocessor",
                     i64(t.registersPerMultiprocessor)),
  };
  return b.getDictionaryAttr(fields);
}

TargetInfo targetOf(mlir::Operation *op) {
  auto module = llvm::isa<mlir::ModuleOp>(op)
                    ? llvm::cast<mlir::ModuleOp>(op)
                    : op->getParentOfType<mlir::ModuleOp>();
  // A gpu.module's kernels sit in a module nested in the host's.
  while (module && !module->hasAttr(kTargetAttrName))
    module = module->getParentOfType<mlir::ModuleOp>();
  std::string error;
  mlir::Attribute attr =
      module ? module->getAttr(kTargetAttrName) : mlir::Attribute();
  if (auto name = llvm::dyn_cast_or_null<mlir::StringAttr>(attr))
    if (std::optional<TargetInfo> t = lookupTarget(name.getValue(), error))
      return *t;
  auto dict = llvm::dyn_cast_or_null<mlir::DictionaryAttr>(attr);
  auto name =
      dict ? dict.getAs<mlir::StringAttr>("name") : mlir::StringAttr();
  std::optional<TargetInfo> t =
      lookupTarget(name ? name.getValue() : llvm::StringRef(kDefaultTarget),
                   error);
  if (!t)
    t = lookupTarget(kDefaultTarget, error);
  if (!dict)
    return *t;
  auto read = [&](llvm::StringRef key, int64_t &field) {
    if (auto v = dict.getAs<mlir::IntegerAttr>(key))
      field = v.getInt();
  };
  read("multiprocessors", t->multiprocessors);
  read("subgroup_size", t->subgroupSize);
  read("max_threads_per_block", t->maxThreadsPerBlock);
  read("static_shared_bytes", t->staticSharedBytes);
  read("max_shared_bytes_per_block", t->maxSharedBytesPerBlock);
  read("shared_bytes_per_multiprocessor", t->sharedBytesPerMultiprocessor);
  read("registers_per_multiprocessor", t->registersPerMultiprocessor);
  return *t;
}

void setTarget(mlir::Operation *module, const TargetInfo &target) {
  module->setAttr(kTargetAttrName,
                  targetToAttr(module->getContext(), target));
}

namespace {

struct AttachTargetPass
    : mlir::PassWrapper<AttachTargetPass,
                        mlir::OperationPass<mlir::ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(AttachTargetPass)
  AttachTargetPass() = default;
  AttachTargetPass(const AttachTargetPass &other) : PassWrapper(other) {}
  explicit AttachTargetPass(llvm::StringRef spec) { target = spec.str(); }
  llvm::StringRef getArgument() const override {
    return "onnx-tosa-attach-target";
  }
  llvm::StringRef getDescription() const override {
    return "Attach a target of the table (docs/targets.md) to the module, "
           "which the kernel-shape rules read";
  }
  Option<std::string> target{
      *this, "target",
      llvm::cl::desc("vulkan, cuda:sm_90a, ... (docs/targets.md)"),
      llvm::cl::init(kDefaultTarget.str())};
  void runOnOperation() override {
    std::string error;
    std::optional<TargetInfo> t = lookupTarget(target, error);
    if (!t) {
      getOperation().emitError(error);
      return signalPassFailure();
    }
    // The module's own description of the same target (a detected GPU's
    // multiprocessor count, say) stays.
    if (getOperation()->hasAttr(kTargetAttrName) &&
        targetOf(getOperation()).name == t->name)
      return;
    setTarget(getOperation(), *t);
  }
};

} // namespace

std::unique_ptr<mlir::Pass> createAttachTargetPass(llvm::StringRef spec) {
  return spec.empty() ? std::make_unique<AttachTargetPass>()
                      : std::make_unique<AttachTargetPass>(spec);
}

void registerTargetInfoPasses() { mlir::PassRegistration<AttachTargetPass>(); }

std::string describeTargets() {
  std::string out =
      "| --target | devices | SMs | warp | shared memory per block "
      "(static / opt-in) | per SM | tensor cores | async copy | PDL | PTX "
      "|\n|---|---|---|---|---|---|---|---|---|---|\n";
  for (const TargetInfo &t : table()) {
    std::string mma = !t.isCuda()          ? "-"
                      : t.warpgroupMma     ? "WMMA, wgmma"
                      : t.wmmaTf32Bf16     ? "WMMA (f16, tf32, bf16)"
                                           : "WMMA (f16)";
    auto yes = [](bool b) { return b ? "yes" : "no"; };
    out += llvm::formatv(
        "| {0} | {1} | {2} | {3} | {4} / {5} KiB | {6} KiB | {7} | {8} | {9} "
        "| {10} |\n",
        t.name, t.devices, t.multiprocessors,
        t.subgroupSize ? std::to_string(t.subgroupSize) : "device's",
        t.staticSharedBytes / KiB, t.maxSharedBytesPerBlock / KiB,
        t.sharedBytesPerMultiprocessor / KiB, mma, yes(t.asyncCopy),
        yes(t.gridDependencyControl),
        t.isCuda() ? llvm::formatv("{0}.{1}", t.ptxVersion / 10,
                                   t.ptxVersion % 10)
                         .str()
                   : std::string("-"));
  }
  return out;
}

} // namespace onnx_tosa
