//===- NvptxTarget.cpp - gpu kernels to PTX -------------------------------===//
#include "nvptx/NvptxTarget.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace onnx_tosa {

void buildGpuToPtxPipeline(OpPassManager &pm, const NvptxOptions &opts) {
  // Bare pointers: each memref kernel argument is one device pointer, which
  // is the runtime's launch ABI (artifact.h). Our buffers always have static
  // shapes and identity layouts, which that convention requires.
  std::string pipeline =
      "nvvm-attach-target{chip=" + opts.chip + " features=" + opts.features +
      " O=" + std::to_string(opts.optLevel) +
      "},gpu.module(convert-scf-to-cf,lower-affine,"
      "convert-gpu-to-nvvm{use-bare-ptr-memref-call-conv=true},"
      "canonicalize,cse,reconcile-unrealized-casts),"
      "gpu-module-to-binary{format=isa}";
  std::string err;
  llvm::raw_string_ostream os(err);
  if (failed(parsePassPipeline(pipeline, pm, os)))
    llvm::report_fatal_error(llvm::Twine("invalid NVPTX pipeline: ") +
                             os.str());
}

LogicalResult
collectPtx(ModuleOp module,
           std::vector<std::pair<std::string, std::string>> &out) {
  for (auto binary : module.getOps<gpu::BinaryOp>()) {
    auto objects = binary.getObjects();
    if (objects.size() != 1)
      return binary.emitError("expected exactly one object per gpu.binary");
    auto object = cast<gpu::ObjectAttr>(objects[0]);
    out.emplace_back(binary.getSymName().str(),
                     object.getObject().getValue().str());
  }
  return success();
}

} // namespace onnx_tosa
