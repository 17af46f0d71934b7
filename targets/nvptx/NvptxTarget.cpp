//===- NvptxTarget.cpp - gpu kernels to PTX -------------------------------===//
#include "nvptx/NvptxTarget.h"
#include "TargetInfo.h"
#include "artifact/ArtifactExport.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "pipelines/tosa-to-gpu/TosaToGpu.h"

#include "mlir/Dialect/GPU/IR/CompilationInterfaces.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Threading.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace mlir;

namespace onnx_tosa {

namespace {

/// convert-gpu-to-nvvm lowers gpu.subgroup_reduce only for integers on
/// devices with redux.sync: here every one becomes a butterfly of 32-lane
/// warp shuffles (gpu.shuffle xor, which it does lower) around the
/// reduction's arith op.
struct SubgroupReduceToShufflesPass
    : PassWrapper<SubgroupReduceToShufflesPass,
                  OperationPass<gpu::GPUModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(SubgroupReduceToShufflesPass)
  StringRef getArgument() const override {
    return "onnx-tosa-subgroup-reduce-to-shuffles";
  }
  StringRef getDescription() const override {
    return "gpu.subgroup_reduce as warp shuffles over 32 lanes";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, vector::VectorDialect>();
  }
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateGpuLowerSubgroupReduceToShufflePatterns(
        patterns, /*subgroupSize=*/32, /*shuffleBitwidth=*/32);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    WalkResult left = getOperation().walk([](gpu::SubgroupReduceOp op) {
      op.emitError("internal error: subgroup reduction of ")
          << op.getValue().getType() << " has no warp-shuffle lowering";
      return WalkResult::interrupt();
    });
    if (left.wasInterrupted())
      signalPassFailure();
  }
};

/// Registers per thread that a warpgroup-MMA kernel is held to at least:
/// two 256-thread blocks per multiprocessor, as their workgroup memory
/// allows (left to itself ptxas gave the 128x128 kernel 178, one block per
/// multiprocessor; a hand-written kernel of the same design needs 128).
constexpr int64_t kWarpgroupKernelRegisters = 128;
/// Workgroup memory the system keeps of a multiprocessor's per block.
constexpr int64_t kReservedSharedBytesPerBlock = 1024;

/// Before the NVVM lowering: kernels with warpgroup MMA get nvvm.minctasm,
/// the blocks that fit on a multiprocessor by their dynamic workgroup
/// memory, at most as many as leave kWarpgroupKernelRegisters per thread
/// (a 64x128 tile with 3 copies of the tiles: 3 blocks, up to 168
/// registers, of which ptxas takes 161; held to 128 for 4 blocks, it
/// spilled).
struct BudgetWarpgroupKernelsPass
    : PassWrapper<BudgetWarpgroupKernelsPass, OperationPass<gpu::GPUModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(BudgetWarpgroupKernelsPass)
  StringRef getArgument() const override {
    return "onnx-tosa-budget-warpgroup-kernels";
  }
  StringRef getDescription() const override {
    return "Cap the registers of kernels with warpgroup MMA";
  }
  void runOnOperation() override {
    TargetInfo target = targetOf(getOperation());
    getOperation().walk([&](gpu::GPUFuncOp func) {
      std::optional<ArrayRef<int32_t>> block = func.getKnownBlockSize();
      bool warpgroup = func.walk([](NVVM::WgmmaMmaAsyncOp) {
                             return WalkResult::interrupt();
                           })
                           .wasInterrupted();
      if (!warpgroup || !block)
        return;
      int64_t threads = 1;
      for (int32_t d : *block)
        threads *= d;
      int64_t blocks = target.registersPerMultiprocessor /
                       (kWarpgroupKernelRegisters * threads);
      func.walk([&](memref::ViewOp view) {
        if (!view.getSource().getDefiningOp<gpu::DynamicSharedMemoryOp>() ||
            !view.getType().hasStaticShape())
          return;
        int64_t bytes = view.getType().getNumElements() *
                        view.getType().getElementTypeBitWidth() / 8;
        blocks = std::min(blocks, target.sharedBytesPerMultiprocessor /
                                      (bytes + kReservedSharedBytesPerBlock));
      });
      func->setAttr(
          NVVM::NVVMDialect::getMinctasmAttrName(),
          Builder(func).getI32IntegerAttr(std::max<int64_t>(1, blocks)));
    });
  }
};

/// After the NVVM lowering: the global that gpu.dynamic_shared_memory
/// becomes is internal, and NVPTX then demotes it to a one-byte static
/// variable of the kernel (whose address happens to be where the dynamic
/// memory follows). Made an external declaration it is PTX's dynamic shared
/// array, `.extern .shared .b8 name[]`.
struct ExternDynamicSharedMemoryPass
    : PassWrapper<ExternDynamicSharedMemoryPass,
                  OperationPass<gpu::GPUModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ExternDynamicSharedMemoryPass)
  StringRef getArgument() const override {
    return "onnx-tosa-extern-dynamic-shared-memory";
  }
  StringRef getDescription() const override {
    return "Declare dynamic shared memory as PTX's external shared array";
  }
  void runOnOperation() override {
    getOperation().walk([](LLVM::GlobalOp global) {
      if (global.getAddrSpace() == 3 &&
          global.getSymName().starts_with("__dynamic_shmem__") &&
          !global.getValueOrNull() && !global.getInitializerBlock())
        global.setLinkage(LLVM::Linkage::External);
    });
  }
};

/// Every kernel starts by waiting for the kernels launched before it to
/// finish (griddepcontrol.wait, which returns at once in a launch that does
/// not overlap the one before), and each launch is marked
/// kLaunchWaitsForPrevious (kWaitsForPreviousAttr), so that the runtime may
/// launch it as a programmatic dependent launch: the driver prepares it
/// while the previous kernel runs, and starts it when that one's blocks
/// have finished. With `trigger` the kernel also lets the next one be
/// scheduled as soon as all its blocks have passed their wait
/// (griddepcontrol.launch_dependents), which made BERT-base b8 fp16 slower
/// where finishing first made it faster (H100, benchmarks/
/// launch_overlap.py: 1.21x and 0.98x the plain launches' time; ResNet-50
/// b1 1.00x and 0.95x, MobileNetV2 0.91x both). The wait is inline PTX with
/// a memory clobber, as CUDA's own cudaGridDependencySynchronize is, so
/// that no load moves above it (the NVVM intrinsic is only marked as having
/// side effects). sm_90 and later.
struct GridDependencyControlPass
    : PassWrapper<GridDependencyControlPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(GridDependencyControlPass)
  GridDependencyControlPass() = default;
  GridDependencyControlPass(const GridDependencyControlPass &other)
      : PassWrapper(other) {}
  explicit GridDependencyControlPass(bool trigger) { this->trigger = trigger; }
  Option<bool> trigger{
      *this, "trigger",
      llvm::cl::desc("let the next kernel start once every block has "
                     "passed the wait (else when they have finished)"),
      llvm::cl::init(false)};
  StringRef getArgument() const override {
    return "onnx-tosa-grid-dependency-control";
  }
  StringRef getDescription() const override {
    return "Kernels wait for the previous ones themselves, so that their "
           "launches may be programmatic dependent launches (sm_90+)";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<LLVM::LLVMDialect>();
  }
  void runOnOperation() override {
    SmallVector<StringRef> ptx = {"griddepcontrol.wait;"};
    if (trigger)
      ptx.push_back("griddepcontrol.launch_dependents;");
    getOperation().walk([&](gpu::GPUFuncOp func) {
      if (!func.isKernel())
        return;
      OpBuilder b = OpBuilder::atBlockBegin(&func.getBody().front());
      for (StringRef instruction : ptx)
        LLVM::InlineAsmOp::create(b, func.getLoc(), TypeRange{}, ValueRange{},
                                  instruction, "~{memory}",
                                  /*has_side_effects=*/true,
                                  /*is_align_stack=*/false,
                                  LLVM::tailcallkind::TailCallKind::None,
                                  /*asm_dialect=*/{}, /*operand_attrs=*/{});
    });
    getOperation().walk([](gpu::LaunchFuncOp launch) {
      launch->setAttr(kWaitsForPreviousAttr,
                      UnitAttr::get(launch->getContext()));
    });
  }
};

/// gpu-module-to-binary, with each distinct module compiled once and the
/// modules compiled side by side: LLVM's NVPTX code generation (and ptxas,
/// for cubins) runs once per kernel module, each in an LLVM context of its
/// own, and a model has one module per launch, many of them alike (its
/// repeated layers), which upstream's pass compiles one after the other.
/// The binaries are the same and come in the modules' order; diagnostics
/// too (MLIR's parallel diagnostic handler orders them).
struct GpuModulesToBinaryPass
    : PassWrapper<GpuModulesToBinaryPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(GpuModulesToBinaryPass)
  GpuModulesToBinaryPass() = default;
  GpuModulesToBinaryPass(const GpuModulesToBinaryPass &other)
      : PassWrapper(other) {}
  explicit GpuModulesToBinaryPass(bool cubin) { this->cubin = cubin; }
  StringRef getArgument() const override {
    return "onnx-tosa-gpu-modules-to-binary";
  }
  StringRef getDescription() const override {
    return "Compile every gpu.module to a gpu.binary, modules in parallel";
  }
  void runOnOperation() override {
    ModuleOp top = getOperation();
    SmallVector<gpu::GPUModuleOp> modules(top.getOps<gpu::GPUModuleOp>());
    // Built before the threads start; they only read it.
    SymbolTable table(top);
    auto symbolTable = [&]() { return &table; };
    gpu::TargetOptions options(
        /*toolkitPath=*/{}, /*librariesToLink=*/{}, /*cmdOptions=*/{},
        /*elfSection=*/{},
        cubin ? gpu::CompilationTarget::Binary
              : gpu::CompilationTarget::Assembly,
        symbolTable);
    // Modules alike but for their names (a model's repeated layers: 229
    // kernel modules of a BERT-base encoder, 15 different) are compiled
    // once: module i takes the objects of module compiled[i].
    std::vector<size_t> compiled(modules.size()), distinct;
    llvm::StringMap<size_t> firstWithText;
    for (auto [i, module] : llvm::enumerate(modules)) {
      std::string text;
      llvm::raw_string_ostream os(text);
      os << module.getTargetsAttr();
      for (Operation &op : module.getBody()->getOperations())
        op.print(os, OpPrintingFlags().printGenericOpForm().useLocalScope());
      auto [it, first] = firstWithText.try_emplace(text, i);
      compiled[i] = it->second;
      if (first)
        distinct.push_back(i);
    }
    // objects[i][j]: module i's object for its target j.
    std::vector<SmallVector<SmallVector<char, 0>>> objects(modules.size());
    auto serialize = [&](size_t i) -> LogicalResult {
      gpu::GPUModuleOp module = modules[i];
      for (Attribute attr : module.getTargetsAttr()) {
        auto target = cast<gpu::TargetAttrInterface>(attr);
        std::optional<SmallVector<char, 0>> object =
            target.serializeToObject(module, options);
        if (!object)
          return module.emitError() << "compiling kernel module '"
                                    << module.getName() << "' failed";
        objects[i].push_back(std::move(*object));
      }
      return success();
    };
    if (failed(failableParallelForEach(&getContext(), distinct, serialize)))
      return signalPassFailure();
    for (auto [i, module] : llvm::enumerate(modules)) {
      SmallVector<Attribute> attrs;
      for (auto [attr, object] :
           llvm::zip(module.getTargetsAttr(), objects[compiled[i]])) {
        Attribute made = cast<gpu::TargetAttrInterface>(attr).createObject(
            module, object, options);
        if (!made) {
          module.emitError() << "making the object of kernel module '"
                             << module.getName() << "' failed";
          return signalPassFailure();
        }
        attrs.push_back(made);
      }
      OpBuilder b(module);
      gpu::BinaryOp::create(b, module.getLoc(), module.getName(),
                            module.getOffloadingHandlerAttr(),
                            b.getArrayAttr(attrs));
      module.erase();
    }
  }
  Option<bool> cubin{*this, "cubin",
                     llvm::cl::desc("cubins through ptxas (else PTX)"),
                     llvm::cl::init(false)};
};

} // namespace

void registerNvptxTargetPasses() {
  PassRegistration<SubgroupReduceToShufflesPass>();
  PassRegistration<BudgetWarpgroupKernelsPass>();
  PassRegistration<ExternDynamicSharedMemoryPass>();
  PassRegistration<GpuModulesToBinaryPass>();
  PassRegistration<GridDependencyControlPass>();
}

void buildGpuToPtxPipeline(OpPassManager &pm, const NvptxOptions &opts) {
  if (opts.gridDependencyControl)
    pm.addPass(
        std::make_unique<GridDependencyControlPass>(opts.launchDependents));
  pm.addNestedPass<gpu::GPUModuleOp>(
      std::make_unique<SubgroupReduceToShufflesPass>());
  pm.addNestedPass<gpu::GPUModuleOp>(
      std::make_unique<BudgetWarpgroupKernelsPass>());
  // Bare pointers: each memref kernel argument is one device pointer, which
  // is the runtime's launch ABI (artifact.h). Our buffers always have static
  // shapes and identity layouts, which that convention requires.
  std::string pipeline =
      "nvvm-attach-target{chip=" + opts.chip + " features=" + opts.features +
      " O=" + std::to_string(opts.optLevel) +
      (opts.libdevice.empty() ? "" : " l=" + opts.libdevice) +
      "},gpu.module(convert-scf-to-cf,lower-affine,convert-nvgpu-to-nvvm,"
      "convert-gpu-to-nvvm{use-bare-ptr-memref-call-conv=true},"
      // NVVM ops written as inline PTX (wgmma.mma_async).
      "convert-nvvm-to-llvm,"
      "canonicalize,cse,reconcile-unrealized-casts)";
  addPassPipeline(pm, pipeline);
  pm.addNestedPass<gpu::GPUModuleOp>(
      std::make_unique<ExternDynamicSharedMemoryPass>());
  pm.addPass(std::make_unique<GpuModulesToBinaryPass>(opts.cubin));
}

/// Where to look for the CUDA toolkit, in order: `cudaPath` alone when given,
/// else $CUDA_ROOT, $CUDA_HOME, $CUDA_PATH, /usr/local/cuda.
static std::vector<std::string> cudaToolkitRoots(const std::string &cudaPath) {
  if (!cudaPath.empty())
    return {cudaPath};
  std::vector<std::string> roots;
  for (const char *var : {"CUDA_ROOT", "CUDA_HOME", "CUDA_PATH"})
    if (const char *v = std::getenv(var))
      roots.push_back(v);
  roots.push_back("/usr/local/cuda");
  return roots;
}

std::string findLibdevice(const std::string &cudaPath) {
  for (const std::string &root : cudaToolkitRoots(cudaPath)) {
    SmallString<256> path(root);
    llvm::sys::path::append(path, "nvvm", "libdevice", "libdevice.10.bc");
    if (llvm::sys::fs::exists(path))
      return path.str().str();
  }
  return "";
}

std::string findCudaToolkitWithPtxas(const std::string &cudaPath) {
  for (const std::string &root : cudaToolkitRoots(cudaPath)) {
    SmallString<256> path(root);
    llvm::sys::path::append(path, "bin", "ptxas");
    if (llvm::sys::fs::can_execute(path))
      return root;
  }
  if (auto ptxas = llvm::sys::findProgramByName("ptxas"))
    return llvm::sys::path::parent_path(llvm::sys::path::parent_path(*ptxas))
        .str();
  return "";
}

LogicalResult
collectPtx(ModuleOp module,
           std::vector<std::pair<std::string, std::string>> &out) {
  for (auto binary : module.getOps<gpu::BinaryOp>()) {
    auto objects = binary.getObjects();
    if (objects.size() != 1)
      return binary.emitError("expected exactly one object per gpu.binary");
    auto object = cast<gpu::ObjectAttr>(objects[0]);
    StringRef ptx = object.getObject().getValue();
    size_t ext = ptx.find(".extern .func");
    if (ext != StringRef::npos && ptx.find("__nv_", ext) != StringRef::npos)
      return binary.emitError(
          "kernel calls libdevice math functions but libdevice was not "
          "found; install the CUDA toolkit or pass --cuda-path");
    out.emplace_back(binary.getSymName().str(), ptx.str());
  }
  return success();
}

} // namespace onnx_tosa
