//===- onnx-tosa-compile.cpp - ONNX model → runnable artifact -------------===//
//
//   onnx-tosa-compile model.onnx --target=vulkan -o model.otsa
//   onnx-tosa-compile model.onnx --emit=tosa          (print one stage)
//
// Stages, each printable with --emit: onnx (imported) → tosa (legalized) →
// linalg (fused, on tensors) → gpu (outlined kernels + host function) →
// ptx | spirv (device code) → the artifact file onnx-tosa-run loads.
//
//===----------------------------------------------------------------------===//
#include "conversion/onnx-to-tosa/OnnxToTosa.h"
#include "frontend/onnx-import/Importer.h"
#include "pipelines/tosa-to-gpu/TosaToGpu.h"
#include "targets/TargetInfo.h"
#include "targets/artifact/ArtifactExport.h"
#include "targets/nvptx/NvptxTarget.h"
#include "targets/spirv/SpirvTarget.h"
#include "tools/Registration.h"

#include "onnx_tosa/npy.h"
#include "onnx_tosa/runtime.h"
#include "onnx_tosa/version.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/Timing.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstring>
#include <functional>
#include <map>

using namespace mlir;
namespace cl = llvm::cl;

namespace {

enum class Emit { Onnx, Tosa, Linalg, Gpu, Ptx, Spirv, Artifact };

cl::OptionCategory category("onnx-tosa-compile options");
/// The defaults of the options that the pipelines registered for
/// onnx-tosa-opt and the plugin share.
const onnx_tosa::PipelineChoices kDefaults;
cl::opt<std::string> inputPath(cl::Positional,
                               cl::desc("<model.onnx | stage.mlir>"),
                               cl::Required, cl::cat(category));
cl::opt<std::string> outputPath("o",
                                cl::desc("Output file (the artifact, or the "
                                         "--emit stage; default: "
                                         "MODEL.TARGET.otsa in the current "
                                         "directory, stages to stdout)"),
                                cl::value_desc("path"), cl::cat(category));
cl::opt<std::string> targetSpec(
    "target",
    cl::desc("Device code to generate: auto (the default: this machine's "
             "CUDA GPU if it has one, else vulkan), cuda (this machine's CUDA "
             "GPU, else cuda:sm_90a), cuda:CHIP (e.g. cuda:sm_80), or vulkan; "
             "--list-targets shows the table"),
    cl::value_desc("auto|cuda[:CHIP]|vulkan"), cl::init("auto"),
    cl::cat(category));
/// The target the options name (resolveTarget).
onnx_tosa::TargetInfo target;
cl::opt<bool> listTargets("list-targets",
                          cl::desc("Print the targets the compiler knows "
                                   "(docs/targets.md) and exit"),
                          cl::cat(category));
cl::opt<Emit> emit(
    "emit", cl::desc("Print the module after this stage and stop"),
    cl::values(clEnumValN(Emit::Onnx, "onnx", "imported onnx dialect"),
               clEnumValN(Emit::Tosa, "tosa", "legalized TOSA"),
               clEnumValN(Emit::Linalg, "linalg", "fused linalg on tensors"),
               clEnumValN(Emit::Gpu, "gpu", "outlined gpu kernels"),
               clEnumValN(Emit::Ptx, "ptx", "PTX text (implies cuda)"),
               clEnumValN(Emit::Spirv, "spirv",
                          "SPIR-V dialect modules (implies vulkan)"),
               clEnumValN(Emit::Artifact, "artifact",
                          "the runnable artifact (default)")),
    cl::init(Emit::Artifact), cl::cat(category));
cl::list<std::string> inputShapes(
    "input-shape",
    cl::desc("Fix an input's shape, e.g. --input-shape x=1x3x224x224"),
    cl::value_desc("name=DxDx..."), cl::cat(category));
cl::list<std::string> dims(
    "dim", cl::value_desc("NAME=V[,V...]"),
    cl::desc("Values of the symbolic dimension NAME of the model (e.g. its "
             "batch): one program for each value, or each combination of "
             "the values of several --dim, in one artifact that runs the "
             "one matching its inputs' shapes"),
    cl::cat(category));
cl::list<std::string> freezeInputs(
    "freeze-input",
    cl::desc("Compile for one value of an input, read from a .npy file "
             "(axes, pads, scales... that a model passes at run time but "
             "TOSA needs at compile time); the artifact then accepts that "
             "input only with this value"),
    cl::value_desc("name=file.npy"), cl::cat(category));
cl::list<std::string> sequenceLengths(
    "sequence-length",
    cl::desc("Number of elements of a sequence input, which becomes the "
             "inputs NAME.0 ... NAME.(N-1) (their shapes: --input-shape "
             "NAME.K=...); see docs/sequences.md"),
    cl::value_desc("name=N"), cl::cat(category));
cl::list<std::string> absentInputs(
    "absent-input",
    cl::desc("Compile for an optional input that is absent (optional "
             "inputs are present otherwise)"),
    cl::value_desc("name"), cl::cat(category));
enum class Precision { Fp32, Tf32, Fp16, Bf16 };

cl::opt<Precision> precision(
    "precision",
    cl::desc("Floating-point type of the computation; model inputs and "
             "outputs keep their types"),
    cl::values(clEnumValN(Precision::Fp32, "fp32", "as the model (default)"),
               clEnumValN(Precision::Tf32, "tf32",
                          "fp32, but matmuls and convolutions on tensor "
                          "cores in tf32 (10-bit mantissa; CUDA only)"),
               clEnumValN(Precision::Fp16, "fp16",
                          "f32 weights and computation in fp16, with f32 "
                          "accumulation"),
               clEnumValN(Precision::Bf16, "bf16",
                          "the same in bfloat16 (CUDA only)")),
    cl::init(Precision::Fp32), cl::cat(category));
enum class TosaLevel { None, Level8k };

cl::opt<TosaLevel> tosaLevel(
    "tosa-level",
    cl::desc("A TOSA input (.mlir) is checked against the specification "
             "before it is compiled: its ERROR_IF conditions, and the "
             "ranges of this level"),
    cl::values(clEnumValN(TosaLevel::Level8k, "8k",
                          "the 8K level's ranges: rank, kernel, stride, "
                          "scale at most 6, 8192, 8192, 256 (default)"),
               clEnumValN(TosaLevel::None, "none",
                          "the full ranges of the data types")),
    cl::init(TosaLevel::Level8k), cl::cat(category));
cl::opt<std::string> chip(
    "chip",
    cl::desc("The CUDA chip: --chip=sm_80 is --target=cuda:sm_80 (sm_90a is "
             "Hopper's, with its warpgroup MMA; sm_90 leaves that out, for "
             "PTX that later GPUs can compile too)"),
    cl::value_desc("sm_XY"), cl::cat(category));
cl::opt<bool> gridDependencyControl(
    "wait-for-previous",
    cl::desc("Tuning experiments: on sm_90 and later, kernels wait for the "
             "kernels before them themselves, so that the runtime may launch "
             "them before those have finished (programmatic dependent "
             "launch; default: true)"),
    cl::init(true), cl::Hidden, cl::cat(category));
cl::opt<bool> launchDependents(
    "launch-dependents",
    cl::desc("Tuning experiments: on sm_90 and later, each kernel lets the "
             "next one be scheduled once all its blocks have waited for the "
             "previous kernels (default: once they have finished)"),
    cl::init(false), cl::Hidden, cl::cat(category));
cl::opt<bool> warpgroupMma(
    "warpgroup-mma",
    cl::desc("On cuda:sm_90a: f16 matmuls (not GEMVs) and convolutions "
             "whose tiles fill the GPU use warpgroup MMA (wgmma) instead of "
             "WMMA"),
    cl::init(kDefaults.warpgroupMma), cl::cat(category));
cl::opt<bool> fusedAttention(
    "fused-attention",
    cl::desc("Tuning experiments: with warpgroup MMA, attention's Q K^T, "
             "softmax and P V as one kernel (default: true)"),
    cl::init(kDefaults.fusedAttention), cl::Hidden, cl::cat(category));
cl::opt<bool> vulkanGemmTilings(
    "vulkan-gemm-tilings",
    cl::desc("Tuning experiments: on vulkan, the tiled f32 GEMM kernels get "
             "tilings chosen for a Vulkan driver (128x128 tiles where they "
             "fill the GPU, one copy of the tiles); false: the cuda "
             "target's (default: true)"),
    cl::init(kDefaults.vulkanGemmTilings), cl::Hidden, cl::cat(category));
cl::opt<std::string> cudaPath(
    "cuda-path",
    cl::desc("CUDA toolkit root holding nvvm/libdevice (default: $CUDA_ROOT, "
             "$CUDA_HOME, $CUDA_PATH, /usr/local/cuda)"),
    cl::value_desc("dir"), cl::cat(category));
enum class CudaFormat { Auto, Ptx, Cubin };
cl::opt<CudaFormat> cudaFormat(
    "cuda-format", cl::desc("CUDA device code in the artifact"),
    cl::values(clEnumValN(CudaFormat::Auto, "auto",
                          "cubin when ptxas is found, else PTX (default)"),
               clEnumValN(CudaFormat::Ptx, "ptx",
                          "PTX, JIT-compiled by the "
                          "driver at load time"),
               clEnumValN(CudaFormat::Cubin, "cubin",
                          "machine code from ptxas")),
    cl::init(CudaFormat::Auto), cl::cat(category));
cl::opt<unsigned> blockSize(
    "block-size",
    cl::desc("Threads per block / workgroup of the elementwise and "
             "reduction kernels: a multiple of 32 up to the target's most "
             "(default: 256)"),
    cl::init(kDefaults.blockSize), cl::cat(category));
cl::opt<int> maxKernelBuffers(
    "max-kernel-buffers",
    cl::desc("Buffers one kernel may bind, as the device's limit on storage "
             "buffers per shader (default: 32 on Vulkan, lavapipe's and "
             "many mobile GPUs' limit; no limit on CUDA; 0: no limit)"),
    cl::init(kDefaults.maxKernelBuffers), cl::cat(category));
cl::opt<bool> tensorCores(
    "tensor-cores",
    cl::desc("With --precision=fp16 (or tf32) on CUDA, run the matmuls and "
             "convolutions whose sizes suit them on tensor cores (default: "
             "true)"),
    cl::init(kDefaults.tensorCores), cl::cat(category));
cl::opt<bool> simtGemm(
    "simt-gemm",
    cl::desc("Run the f32 matmuls and convolutions whose sizes suit it as "
             "the tensor-core kernel's shared-memory tiles on CUDA cores "
             "(default: true)"),
    cl::init(kDefaults.simtGemm), cl::cat(category));
cl::opt<unsigned> vectorWidth(
    "vector-width",
    cl::desc("Consecutive elements each thread of an elementwise kernel "
             "takes, loaded and stored as one vector where contiguous: 1, 2, "
             "4 or 8 (default: 4; on vulkan, vectors of more than 4 elements "
             "are accessed element by element)"),
    cl::init(kDefaults.vectorWidth), cl::cat(category));
cl::opt<bool> subgroupReduce(
    "subgroup-reduce",
    cl::desc("Row reductions (softmax, normalizations) combine their "
             "threads' results with subgroup operations (warp shuffles; "
             "Vulkan: the device must support subgroup arithmetic) before "
             "workgroup memory (default: true)"),
    cl::init(kDefaults.subgroupReduce), cl::cat(category));
cl::opt<std::string> gemmTiling(
    "gemm-tiling",
    cl::desc("Tuning experiments: the tiling of every tiled GEMM kernel that "
             "can use it, UMxUNxPMxPN[sS], or wgMxN[sS] for warpgroup MMA "
             "(see benchmarks/gemm_tilings.py)"),
    cl::Hidden, cl::cat(category));
cl::opt<unsigned> gemmStages(
    "gemm-stages",
    cl::desc("Tuning experiments: copies of the tiled GEMM kernels' A and B "
             "tiles in workgroup memory, at most (as many as fit): 1 or 2, "
             "2 to 4 with asynchronous copies (default: 2, 4 with "
             "asynchronous copies: --gemm-async-copies; warpgroup MMA: "
             "2 to 4, default 3)"),
    cl::init(kDefaults.gemmStages), cl::Hidden, cl::cat(category));
enum class AsyncCopiesFlag { Auto, None, Matmuls, All };
cl::opt<AsyncCopiesFlag> gemmAsyncCopies(
    "gemm-async-copies",
    cl::desc("Tuning experiments: which tensor-core GEMM kernels (CUDA) copy "
             "their tiles to workgroup memory by cp.async"),
    cl::values(clEnumValN(AsyncCopiesFlag::Auto, "auto",
                          "matmuls (default)"),
               clEnumValN(AsyncCopiesFlag::None, "none", "none"),
               clEnumValN(AsyncCopiesFlag::Matmuls, "matmuls",
                          "matmuls, not convolutions"),
               clEnumValN(AsyncCopiesFlag::All, "all",
                          "also convolutions")),
    cl::init(AsyncCopiesFlag::Auto), cl::Hidden, cl::cat(category));
cl::opt<unsigned> gemmPrefetch(
    "gemm-prefetch",
    cl::desc("Tuning experiments: K steps ahead that the tiled GEMM kernels "
             "load their tiles, 1 to 4 (default: 2 on tensor cores, 1 on "
             "CUDA cores; warpgroup MMA: 1 to stages - 1, default stages - "
             "1, the other copies of the tiles for products left running)"),
    cl::init(kDefaults.gemmPrefetch), cl::Hidden, cl::cat(category));
cl::opt<int> elideConstants(
    "elide-constants",
    cl::desc("--emit prints constants of more than N elements as "
             "dense_resource<__elided__> (which cannot be fed back); "
             "default: 16 when printing to a terminal, else every constant "
             "whole; 0: whole"),
    cl::value_desc("N"), cl::init(-1), cl::cat(category));
cl::opt<std::string> dumpKernels(
    "dump-kernels",
    cl::desc("Also write every device module to DIR/<name>.ptx|.cubin|.spv"),
    cl::value_desc("dir"), cl::cat(category));
cl::opt<bool> verbose("verbose", cl::desc("Report each stage and its time"),
                      cl::cat(category));
cl::opt<bool> listOptions(
    "list-options", cl::Hidden,
    cl::desc("Print the options above as JSON and exit (the Python API "
             "builds its keyword arguments from this list)"),
    cl::cat(category));

constexpr const char *kTool = "onnx-tosa-compile";
/// Every TOSA extension LLVM 22 knows: a TOSA input may use any of them
/// (int64, shape and mxfp are the 1.1 draft's, whose rules it is checked by;
/// 1.0's graphs are 1.1's).
constexpr const char *kTosaExtensions =
    "int16,int4,bf16,fp8e4m3,fp8e5m2,fft,variable,controlflow,doubleround,"
    "inexactround,dynamic,mxfp,int64,shape";

int fail(const llvm::Twine &msg) {
  llvm::errs() << kTool << ": error: " << msg << "\n";
  return 1;
}

/// Collects diagnostics so that they print as one-line tool errors, prefixed
/// with the stage, and with the ONNX node they come from when known.
class Diagnostics {
public:
  explicit Diagnostics(MLIRContext &ctx)
      : handler(&ctx, [this](Diagnostic &d) {
          if (d.getSeverity() != DiagnosticSeverity::Error &&
              d.getSeverity() != DiagnosticSeverity::Warning)
            return success();
          std::string msg = d.str();
          Location loc = d.getLocation();
          auto nameLoc = dyn_cast<NameLoc>(loc);
          if (!nameLoc)
            if (auto fused = dyn_cast<FusedLoc>(loc))
              for (Location l : fused.getLocations())
                if ((nameLoc = dyn_cast<NameLoc>(l)))
                  break;
          if (nameLoc && msg.find("node '") == std::string::npos)
            msg = "node '" + nameLoc.getName().str() + "': " + msg;
          messages.push_back(
              {d.getSeverity() == DiagnosticSeverity::Error, msg});
          return success();
        }) {}

  /// Prints what was collected; returns 1 (the exit code) if any error.
  int report(StringRef stage) {
    bool anyError = false;
    for (auto &[isError, msg] : messages) {
      llvm::errs() << kTool << ": " << (isError ? "error" : "warning") << ": "
                   << stage << ": " << msg << "\n";
      anyError |= isError;
    }
    messages.clear();
    return anyError ? 1 : 0;
  }

private:
  ScopedDiagnosticHandler handler;
  std::vector<std::pair<bool, std::string>> messages;
};

class Progress {
public:
  void begin(StringRef stage) {
    current = stage.str();
    start = std::chrono::steady_clock::now();
    if (verbose)
      llvm::errs() << kTool << ": " << stage << " ...\n";
  }
  void end() {
    if (!verbose)
      return;
    double ms = std::chrono::duration<double, std::milli>(
                    std::chrono::steady_clock::now() - start)
                    .count();
    llvm::errs() << kTool << ": " << current << " done in "
                 << llvm::format("%.0f", ms) << " ms\n";
  }

private:
  std::string current;
  std::chrono::steady_clock::time_point start;
};

int writeText(const std::function<void(llvm::raw_ostream &)> &print) {
  if (outputPath.empty() || outputPath == "-") {
    print(llvm::outs());
    return 0;
  }
  std::error_code ec;
  llvm::raw_fd_ostream os(outputPath, ec);
  if (ec)
    return fail("cannot write '" + outputPath + "': " + ec.message());
  print(os);
  return 0;
}

int writeKernelFiles(const std::map<std::string, std::vector<uint8_t>> &modules,
                     StringRef ext) {
  if (dumpKernels.empty())
    return 0;
  if (std::error_code ec = llvm::sys::fs::create_directories(dumpKernels))
    return fail("cannot create '" + dumpKernels + "': " + ec.message());
  for (const auto &[name, bytes] : modules) {
    SmallString<256> path(dumpKernels.getValue());
    llvm::sys::path::append(path, name + ext);
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    if (ec)
      return fail("cannot write '" + path + "': " + ec.message());
    size_t n = bytes.size();
    if (ext == ".ptx" && n && bytes.back() == 0)
      --n; // the artifact keeps PTX NUL-terminated for the driver
    os.write(reinterpret_cast<const char *>(bytes.data()), n);
  }
  return 0;
}

/// Who made the artifact and with which options (the command line without
/// the model's and the artifact's paths).
onnx_tosa::Provenance provenance(int argc, char **argv) {
  onnx_tosa::Provenance p;
  p.producer = std::string(onnx_tosa::projectVersionString()) +
               ", LLVM/MLIR " LLVM_VERSION_STRING;
  p.chip = target.chip;
  for (int i = 1; i < argc; ++i) {
    StringRef arg = argv[i];
    if (arg == "-o" || arg == "--o") {
      ++i;
      continue;
    }
    if (arg == inputPath || arg.starts_with("-o=") || arg.starts_with("--o="))
      continue;
    p.options += (p.options.empty() ? "" : " ") + arg.str();
  }
  return p;
}

/// "N=4, S=128".
std::string describeDims(const llvm::StringMap<int64_t> &values) {
  std::vector<std::string> parts;
  for (const auto &kv : values)
    parts.push_back(kv.getKey().str() + "=" + std::to_string(kv.getValue()));
  std::sort(parts.begin(), parts.end());
  return parts.empty() ? "the declared shapes" : llvm::join(parts, ", ");
}

/// Every combination of the --dim values, in the order given (the first
/// value of each first); one empty combination when there is no --dim.
int dimCombinations(std::vector<llvm::StringMap<int64_t>> &out) {
  out.assign(1, {});
  for (const std::string &spec : dims) {
    auto [name, list] = StringRef(spec).split('=');
    llvm::SmallVector<StringRef> texts;
    list.split(texts, ',');
    std::vector<int64_t> values;
    for (StringRef t : texts) {
      int64_t v;
      if (t.getAsInteger(10, v) || v < 1)
        return fail("bad --dim '" + spec +
                    "' (expected NAME=V[,V...] with values of at least 1, "
                    "e.g. --dim N=1,4,8)");
      if (llvm::is_contained(values, v))
        return fail("--dim " + name + " gives " + t + " twice");
      values.push_back(v);
    }
    if (name.empty() || !StringRef(spec).contains('=') || values.empty())
      return fail("bad --dim '" + spec + "' (expected NAME=V[,V...])");
    if (out.front().count(name))
      return fail("--dim " + name + " is given twice");
    std::vector<llvm::StringMap<int64_t>> next;
    for (const llvm::StringMap<int64_t> &partial : out)
      for (int64_t v : values) {
        next.push_back(partial);
        next.back()[name] = v;
      }
    out = std::move(next);
  }
  return 0;
}

/// --list-options: every named option of the tool, so that other front ends
/// (the Python API) accept exactly the options the tool has.
int printOptions() {
  llvm::json::Array list;
  for (auto &entry : cl::getRegisteredOptions()) {
    cl::Option *o = entry.second;
    if (entry.first != o->ArgStr || o == &listOptions || o == &listTargets ||
        !llvm::is_contained(o->Categories, &category))
      continue;
    list.push_back(llvm::json::Object{
        {"name", o->ArgStr},
        {"help", o->HelpStr},
        {"value", o->ValueStr},
        {"flag", o->getValueExpectedFlag() == cl::ValueOptional},
        {"multiple", o->getNumOccurrencesFlag() == cl::ZeroOrMore},
        {"hidden", o->getOptionHiddenFlag() != cl::NotHidden}});
  }
  llvm::sort(list, [](const llvm::json::Value &a, const llvm::json::Value &b) {
    return *a.getAsObject()->getString("name") <
           *b.getAsObject()->getString("name");
  });
  llvm::outs() << llvm::formatv("{0:2}", llvm::json::Value(std::move(list)))
               << "\n";
  return 0;
}

onnx_tosa::Target api() {
  return target.isCuda() ? onnx_tosa::Target::Cuda : onnx_tosa::Target::Vulkan;
}

/// This machine's first CUDA GPU's row of the table (with its multiprocessor
/// count), if it has one that the runtime can see.
std::optional<onnx_tosa::TargetInfo> cudaGpuHere() {
  ot_cuda_device_info info;
  ot_status status = ot_cuda_device_query(0, &info);
  if (status) {
    ot_status_free(status);
    return std::nullopt;
  }
  std::string error;
  std::optional<onnx_tosa::TargetInfo> t = onnx_tosa::targetForDevice(
      info.architecture, info.multiprocessors, error);
  if (!t)
    llvm::errs() << kTool << ": warning: this machine's " << info.name << " ("
                 << info.architecture << "): " << error << "\n";
  return t;
}

/// Sets `target` from --target, --chip and --emit=ptx|spirv (which imply
/// their target; an explicit other one is a contradiction, not something to
/// override silently).
int resolveTarget() {
  std::string spec = targetSpec;
  if (!chip.empty()) {
    if (spec != "auto" && spec != "cuda")
      return fail("--chip=" + chip + " with --target=" + spec +
                  ": give one of them (--target=cuda:" + chip + ")");
    spec = "cuda:" + chip;
  }
  if (emit == Emit::Ptx || emit == Emit::Spirv) {
    bool ptx = emit == Emit::Ptx;
    bool cudaSpec = StringRef(spec).starts_with("cuda");
    if (spec != "auto" && cudaSpec != ptx)
      return fail(std::string("--emit=") +
                  (ptx ? "ptx needs --target=cuda"
                       : "spirv needs --target=vulkan") +
                  "; drop --target or emit the other target's code");
    if (spec == "auto")
      spec = ptx ? "cuda" : "vulkan";
  }
  std::string error;
  std::optional<onnx_tosa::TargetInfo> found;
  if (spec == "auto" || spec == "cuda")
    found = cudaGpuHere();
  if (!found && spec == "cuda")
    spec = "cuda:" + onnx_tosa::kDefaultCudaChip.str();
  if (!found && spec == "auto")
    spec = onnx_tosa::kDefaultTarget.str();
  if (!found)
    found = onnx_tosa::lookupTarget(spec, error);
  if (!found)
    return fail("--target: " + error);
  target = *found;
  if (verbose)
    llvm::errs() << kTool << ": target " << target.name << " ("
                 << target.multiprocessors << " multiprocessors)\n";
  return 0;
}

int runPasses(ModuleOp module, Diagnostics &diags, Progress &progress,
              StringRef stage,
              const std::function<void(OpPassManager &)> &build) {
  progress.begin(stage);
  PassManager pm(module->getContext());
  build(pm);
  // --mlir-timing, --mlir-print-ir-after-all, crash reproducers, ...
  LogicalResult ok = applyPassManagerCLOptions(pm);
  applyDefaultTimingPassManagerCLOptions(pm);
  if (succeeded(ok))
    ok = pm.run(module);
  int rc = diags.report(stage);
  if (failed(ok) && rc == 0)
    rc = fail(stage + ": failed");
  progress.end();
  return rc;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  registerAllPasses();
  onnx_tosa::registerPasses();
  // MLIR's own options, for looking inside a stage (not in --help, which
  // lists the compiler's; `--help-hidden` shows them).
  registerPassManagerCLOptions();
  registerMLIRContextCLOptions();
  registerAsmPrinterCLOptions();
  registerDefaultTimingManagerCLOptions();
  cl::HideUnrelatedOptions(category);
  cl::SetVersionPrinter(onnx_tosa::printVersion);
  // Answered before parsing, which requires a model.
  if (llvm::is_contained(llvm::ArrayRef(argv, argc), StringRef("--list-options")))
    return printOptions();
  if (llvm::is_contained(llvm::ArrayRef(argv, argc),
                         StringRef("--list-targets"))) {
    llvm::outs() << onnx_tosa::describeTargets();
    return 0;
  }
  cl::ParseCommandLineOptions(
      argc, argv,
      "onnx-tosa-compile: compile an ONNX model to GPU kernels\n\n"
      "Writes an artifact for onnx-tosa-run, or prints one stage with "
      "--emit.\n");
  if (int rc = resolveTarget())
    return rc;
  // SPIR-V for Vulkan has no bfloat16 here (see targets/spirv): say so
  // before the work rather than at code generation.
  if (precision == Precision::Bf16 && !target.isCuda() &&
      (emit == Emit::Spirv || emit == Emit::Artifact))
    return fail("--precision=bf16 is not supported on --target=vulkan "
                "(SPIR-V has no bfloat16 here); use --target=cuda, or "
                "--precision=fp16");
  if ((precision == Precision::Tf32 || precision == Precision::Bf16) &&
      target.isCuda() && !target.wmmaTf32Bf16)
    return fail("--precision=" +
                std::string(precision == Precision::Tf32 ? "tf32" : "bf16") +
                " needs sm_80 or later; " + target.name +
                " has f16 tensor cores only: use --precision=fp16");
  if (precision == Precision::Tf32 && !target.isCuda() &&
      (emit == Emit::Spirv || emit == Emit::Artifact))
    return fail("--precision=tf32 is not supported on --target=vulkan "
                "(tf32 is an NVIDIA tensor-core format); use --target=cuda, "
                "or --precision=fp32");
  if (blockSize < 32 || blockSize % 32 != 0 ||
      blockSize > target.maxThreadsPerBlock)
    return fail("--block-size must be a multiple of 32 from 32 to " +
                llvm::Twine(target.maxThreadsPerBlock) + " (" + target.name +
                "'s most threads per block), got " +
                llvm::Twine(blockSize.getValue()));
  if (vectorWidth == 0 || vectorWidth > 8 || !llvm::isPowerOf2_32(vectorWidth))
    return fail("--vector-width must be 1, 2, 4 or 8, got " +
                llvm::Twine(vectorWidth.getValue()));

  onnx_tosa::ImportOptions importOptions;
  for (const std::string &spec : inputShapes) {
    auto [name, dims] = StringRef(spec).split('=');
    std::vector<int64_t> shape;
    if (name.empty() || !StringRef(spec).contains('=') ||
        !onnx_tosa::parseShape(dims, shape))
      return fail("bad --input-shape '" + spec +
                  "' (expected NAME=DIMxDIMx..., e.g. x=1x3x224x224)");
    importOptions.inputShapes[name] = shape;
  }
  for (const std::string &spec : freezeInputs) {
    auto [name, file] = StringRef(spec).split('=');
    if (name.empty() || file.empty())
      return fail("bad --freeze-input '" + spec +
                  "' (expected NAME=FILE.npy)");
    onnx_tosa::NpyArray arr;
    std::string error;
    if (!onnx_tosa::readNpy(file.str(), arr, error))
      return fail("--freeze-input " + name.str() + ": " + error);
    onnx_tosa::FrozenValue &frozen = importOptions.frozenInputs[name];
    frozen.dataType = static_cast<int32_t>(arr.dtype);
    frozen.shape = arr.shape;
    frozen.bytes.assign(arr.data.begin(), arr.data.end());
  }
  for (const std::string &spec : sequenceLengths) {
    auto [name, count] = StringRef(spec).split('=');
    int64_t n;
    if (name.empty() || count.getAsInteger(10, n) || n < 0)
      return fail("bad --sequence-length '" + spec +
                  "' (expected NAME=N, e.g. seq=3)");
    importOptions.sequenceLengths[name] = n;
  }
  for (const std::string &name : absentInputs)
    importOptions.absentInputs.insert(name);

  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  onnx_tosa::registerDialects(registry);
  MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();
  Diagnostics diags(ctx);
  Progress progress;

  // One program per combination of the --dim values (one when none is
  // given), each compiled through every stage; the first is the artifact's
  // and the others its shape variants. A program whose stage --emit printed
  // sets `emitted`: nothing is left to do.
  auto compileProgram = [&](const onnx_tosa::ImportOptions &importOptions,
                            onnx_tosa::Artifact &artifact,
                            bool &emitted) -> int {
    progress.begin("import");
    std::string error;
    OwningOpRef<ModuleOp> module;
    // A .mlir input resumes the pipeline from the onnx or tosa stage (whatever
    // it holds): every --emit output of an earlier stage can be fed back.
    bool fromMlir = StringRef(inputPath).ends_with(".mlir");
    if (fromMlir && !(inputShapes.empty() && freezeInputs.empty() &&
                      sequenceLengths.empty() && absentInputs.empty() &&
                      dims.empty()))
      return fail("--input-shape, --dim, --freeze-input, --sequence-length "
                  "and --absent-input apply to .onnx models; '" +
                  inputPath + "' is already imported");
    if (fromMlir) {
      auto text = llvm::MemoryBuffer::getFile(inputPath.getValue());
      if (text && (*text)->getBuffer().contains("dense_resource<__elided__>"))
        return fail("'" + inputPath +
                    "' was printed with its constants elided "
                    "(dense_resource<__elided__>), which cannot be compiled; "
                    "print the stage to a file, or with --elide-constants=0");
      module = parseSourceFile<ModuleOp>(inputPath.getValue(), &ctx);
      if (!module) {
        diags.report("import");
        return fail("import: cannot parse '" + inputPath + "'");
      }
    } else {
      module = onnx_tosa::importOnnxModel(ctx, inputPath, importOptions, error);
    }
    if (!module)
      return fail("import: " + error);
    bool hasOnnx = false, hasGpu = false, hasTosa = false, hasLinalg = false;
    module->walk([&](Operation *op) {
      StringRef ns = op->getDialect() ? op->getDialect()->getNamespace() : "";
      hasOnnx |= ns == "onnx";
      hasGpu |= ns == "gpu";
      hasTosa |= ns == "tosa";
      hasLinalg |= ns == "linalg";
    });
    // A linalg stage fed back goes on from there: the TOSA-to-linalg
    // pipeline run again over it would fuse and split its kernels again.
    bool linalgStage = fromMlir && !hasOnnx && !hasTosa && hasLinalg;
    // The gpu stage's host code cannot be lowered again; what precedes it can.
    if (hasGpu)
      return fail("'" + inputPath +
                  "' is at the gpu stage, which cannot be resumed; feed back "
                  "the onnx, tosa or linalg stage (--emit=onnx|tosa|linalg)");
    if (failed(module->verify()) || diags.report("import"))
      return fail("import: the imported module is invalid");
    progress.end();
    auto print = [&](llvm::raw_ostream &os) {
      // A stage read on a terminal leaves the weights out (BERT-base's
      // tosa stage is 680 MB with them); one written to a file keeps them,
      // so that it can be fed back, unless --elide-constants says.
      int limit = elideConstants >= 0 ? int(elideConstants)
                  : os.is_displayed() ? 16
                                      : 0;
      OpPrintingFlags flags;
      if (limit > 0)
        flags.elideLargeElementsAttrs(limit);
      module->print(os, flags);
      os << "\n";
    };
    if (emit == Emit::Onnx)
      return emitted = true, writeText(print);

    // Graphs that are not ours are held to the specification: a graph it
    // says is an error (ERROR_IF) is refused, not compiled into something.
    // Data types outside its profiles (i8 ADD, say) are not an error but a
    // profile's choice: what the lowering handles is compiled.
    if (fromMlir && hasTosa && !hasOnnx)
      if (int rc = runPasses(
              *module, diags, progress, "validation", [](OpPassManager &pm) {
                // The level is checked by ours (createCheckErrorIfPass says
                // why).
                onnx_tosa::addPassPipeline(
                    pm, std::string("tosa-attach-target{"
                                    "specification_version=1.1.draft "
                                    "profiles=pro_int,pro_fp extensions=") +
                            kTosaExtensions +
                            " level=none},tosa-validate{"
                            "strict-op-spec-alignment "
                            "allow-invalid-op-datatype-combinations}");
                pm.addPass(onnx_tosa::createCheckErrorIfPass(
                    tosaLevel == TosaLevel::Level8k ? "8k" : "none"));
              }))
        return rc;

    if (hasOnnx || !fromMlir)
      if (int rc = runPasses(
              *module, diags, progress, "legalization", [](OpPassManager &pm) {
                pm.addPass(onnx_tosa::createConvertOnnxToTosaPass());
                onnx_tosa::addPassPipeline(
                    pm, "canonicalize,tosa-attach-target{profiles="
                        "pro_int,pro_fp level=none},tosa-validate");
              }))
        return rc;
    if (precision == Precision::Fp16 || precision == Precision::Bf16)
      if (int rc = runPasses(
              *module, diags, progress, "precision", [](OpPassManager &pm) {
                bool bf16 = precision == Precision::Bf16;
                pm.addNestedPass<func::FuncOp>(
                    onnx_tosa::createLowerPrecisionPass(bf16 ? "bf16" : "fp16"));
                // bf16 is TOSA's EXT-BF16 extension.
                onnx_tosa::addPassPipeline(
                    pm, bf16 ? "canonicalize,tosa-attach-target{profiles="
                               "pro_int,pro_fp extensions=bf16 level=none},"
                               "tosa-validate"
                             : "canonicalize,tosa-attach-target{profiles="
                               "pro_int,pro_fp level=none},tosa-validate");
              }))
        return rc;
    // The target environment only served tosa-validate; LLVM 22 prints it in a
    // form its own parser rejects, and --emit=tosa output must read back in.
    (*module)->removeAttr("tosa.target_env");
    if (emit == Emit::Tosa)
      return emitted = true, writeText(print);

    onnx_tosa::PipelineChoices choices;
    choices.blockSize = blockSize;
    choices.tensorCores = tensorCores;
    choices.tf32 = precision == Precision::Tf32;
    choices.simtGemm = simtGemm;
    choices.vectorWidth = vectorWidth;
    choices.subgroupReduce = subgroupReduce;
    choices.maxKernelBuffers = maxKernelBuffers;
    choices.gemmTiling = gemmTiling;
    choices.gemmStages = gemmStages;
    choices.gemmPrefetch = gemmPrefetch;
    choices.gemmAsyncCopies = gemmAsyncCopies == AsyncCopiesFlag::None ? "none"
                              : gemmAsyncCopies == AsyncCopiesFlag::All
                                  ? "all"
                                  : "matmuls";
    choices.warpgroupMma = warpgroupMma;
    choices.fusedAttention = fusedAttention;
    choices.vulkanGemmTilings = vulkanGemmTilings;
    onnx_tosa::GpuPipelineOptions gpuOptions =
        onnx_tosa::resolvePipelineOptions(target, choices);
    // What the kernel-shape rules read, and every later stage shows.
    onnx_tosa::setTarget(*module, target);
    if (!linalgStage)
      if (int rc = runPasses(*module, diags, progress, "lowering",
                             [&](OpPassManager &pm) {
                               onnx_tosa::buildTosaToLinalgPipeline(
                                   pm, gpuOptions);
                             }))
        return rc;
    if (emit == Emit::Linalg)
      return emitted = true, writeText(print);

    if (int rc = runPasses(*module, diags, progress, "lowering",
                           [&](OpPassManager &pm) {
                             onnx_tosa::buildLinalgToGpuPipeline(pm, gpuOptions);
                           }))
      return rc;
    if (emit == Emit::Gpu)
      return emitted = true, writeText(print);

    std::map<std::string, std::vector<uint8_t>> kernels;
    if (target.isCuda()) {
      onnx_tosa::NvptxOptions nv;
      nv.chip = target.chip;
      nv.features = target.ptxFeatures();
      nv.gridDependencyControl =
          gridDependencyControl && target.gridDependencyControl;
      nv.launchDependents = launchDependents;
      nv.libdevice = onnx_tosa::findLibdevice(cudaPath);
      std::string toolkit = onnx_tosa::findCudaToolkitWithPtxas(cudaPath);
      if (cudaFormat == CudaFormat::Cubin && toolkit.empty())
        return fail("--cuda-format=cubin needs ptxas (CUDA toolkit); pass "
                    "--cuda-path or put ptxas on PATH");
      nv.cubin =
          emit != Emit::Ptx && cudaFormat != CudaFormat::Ptx && !toolkit.empty();
      // MLIR's NVVM target looks for ptxas under $CUDA_ROOT.
      if (nv.cubin)
        ::setenv("CUDA_ROOT", toolkit.c_str(), /*overwrite=*/1);
      if (int rc = runPasses(*module, diags, progress, "codegen",
                             [&](OpPassManager &pm) {
                               onnx_tosa::buildGpuToPtxPipeline(pm, nv);
                             }))
        return rc;
      std::vector<std::pair<std::string, std::string>> ptx;
      if (failed(onnx_tosa::collectPtx(*module, ptx)))
        return diags.report("codegen") | 1;
      if (emit == Emit::Ptx)
        return emitted = true, writeText([&](llvm::raw_ostream &os) {
          for (auto &[name, text] : ptx)
            os << "// ---- module " << name << "\n" << text.c_str() << "\n";
        });
      for (auto &[name, text] : ptx) {
        std::vector<uint8_t> bytes(text.begin(), text.end());
        if (!nv.cubin && (bytes.empty() || bytes.back() != 0))
          bytes.push_back(0); // the driver wants NUL-terminated PTX
        kernels[name] = std::move(bytes);
      }
      if (int rc = writeKernelFiles(kernels, nv.cubin ? ".cubin" : ".ptx"))
        return rc;
    } else {
      if (int rc = runPasses(*module, diags, progress, "codegen",
                             onnx_tosa::buildGpuToSpirvPipeline))
        return rc;
      if (emit == Emit::Spirv)
        return emitted = true, writeText([&](llvm::raw_ostream &os) {
          for (auto spv : module->getOps<spirv::ModuleOp>())
            os << spv << "\n";
        });
      std::vector<std::pair<std::string, std::vector<uint32_t>>> spv;
      if (failed(onnx_tosa::collectSpirv(*module, spv)))
        return diags.report("codegen") | 1;
      for (auto &[name, words] : spv) {
        std::vector<uint8_t> bytes(words.size() * 4);
        std::memcpy(bytes.data(), words.data(), bytes.size());
        kernels[name] = std::move(bytes);
      }
      if (int rc = writeKernelFiles(kernels, ".spv"))
        return rc;
    }

    progress.begin("artifact");
    // The graph's own name where the model gives one, else the file's.
    if (auto name = (*module)->getAttrOfType<StringAttr>("onnx.graph_name"))
      artifact.modelName = name.str();
    else
      artifact.modelName = llvm::sys::path::stem(inputPath).str();
    if (failed(onnx_tosa::exportArtifact(*module, api(), kernels, artifact)))
      return diags.report("artifact") | 1;
    // The artifact refuses any other value for a frozen input.
    for (const auto &kv : importOptions.frozenInputs) {
      const onnx_tosa::FrozenValue &v = kv.getValue();
      artifact.frozenInputs.push_back(
          {kv.getKey().str(), static_cast<onnx_tosa::DType>(v.dataType), v.shape,
           std::vector<uint8_t>(v.bytes.begin(), v.bytes.end())});
    }
    onnx_tosa::MemoryPlanStats plan = onnx_tosa::planMemory(artifact);
    if (verbose)
      llvm::errs() << kTool << ": memory plan: " << plan.buffersBefore
                   << " intermediate buffers (" << plan.bytesBefore
                   << " bytes) -> " << plan.buffersAfter << " ("
                   << plan.bytesAfter << " bytes)\n";
    return 0;
  };

  std::vector<llvm::StringMap<int64_t>> combinations;
  if (int rc = dimCombinations(combinations))
    return rc;
  if (combinations.size() > 1 && emit != Emit::Artifact)
    return fail("--emit prints one program; give each --dim one value");
  onnx_tosa::Artifact artifact;
  for (auto [k, values] : llvm::enumerate(combinations)) {
    onnx_tosa::ImportOptions options = importOptions;
    options.dimValues = std::move(values);
    std::string which = describeDims(options.dimValues);
    if (combinations.size() > 1 && verbose)
      llvm::errs() << kTool << ": compiling for " << which << "\n";
    onnx_tosa::Artifact program;
    bool emitted = false;
    int rc = compileProgram(options, program, emitted);
    if (rc && combinations.size() > 1)
      llvm::errs() << kTool << ": note: the program above was for " << which
                   << "\n";
    if (rc || emitted)
      return rc;
    if (k == 0)
      artifact = std::move(program);
    else
      artifact.variants.push_back(std::move(program));
  }
  artifact.provenance = provenance(argc, argv);
  std::string out = outputPath;
  if (out.empty())
    out = llvm::sys::path::stem(inputPath).str() +
          (target.isCuda() ? ".cuda" : ".vulkan") + ".otsa";
  std::string error;
  if (!onnx_tosa::writeArtifact(artifact, out, error))
    return fail(error);
  progress.end();
  uint64_t constBytes = 0;
  for (const auto &b : artifact.buffers)
    constBytes += b.data.size();
  size_t launches = artifact.launches.size();
  llvm::outs() << kTool << ": wrote " << out << " ("
               << target.name
               << ", " << launches << " kernel launch"
               << (launches == 1 ? "" : "es") << ", "
               << (artifact.variants.empty()
                       ? ""
                       : std::to_string(artifact.variants.size() + 1) +
                             " shape variants, ")
               << artifact.buffers.size() << " buffers, " << constBytes
               << " bytes of weights)\n";
  return 0;
}
