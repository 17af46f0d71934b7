//===- NvptxTarget.cpp - gpu kernels to PTX -------------------------------===//
#include "nvptx/NvptxTarget.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "pipelines/tosa-to-gpu/TosaToGpu.h"

#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace mlir;

namespace onnx_tosa {

void buildGpuToPtxPipeline(OpPassManager &pm, const NvptxOptions &opts) {
  // Bare pointers: each memref kernel argument is one device pointer, which
  // is the runtime's launch ABI (artifact.h). Our buffers always have static
  // shapes and identity layouts, which that convention requires.
  std::string pipeline =
      "nvvm-attach-target{chip=" + opts.chip + " features=" + opts.features +
      " O=" + std::to_string(opts.optLevel) +
      (opts.libdevice.empty() ? "" : " l=" + opts.libdevice) +
      "},gpu.module(convert-scf-to-cf,lower-affine,"
      "convert-gpu-to-nvvm{use-bare-ptr-memref-call-conv=true},"
      "canonicalize,cse,reconcile-unrealized-casts),"
      "gpu-module-to-binary{format=" +
      std::string(opts.cubin ? "bin" : "isa") + "}";
  addPassPipeline(pm, pipeline);
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
