//===- Registration.cpp - Every dialect and pass of onnx-tosa -------------===//
#include "tools/Registration.h"

#include "conversion/onnx-to-tosa/OnnxToTosa.h"
#include "frontend/onnx-import/OnnxDialect.h"
#include "pipelines/tosa-to-gpu/TosaToGpu.h"
#include "targets/TargetInfo.h"
#include "targets/nvptx/NvptxTarget.h"
#include "targets/spirv/SpirvTarget.h"

#include "onnx_tosa/version.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/raw_ostream.h"

namespace onnx_tosa {

void registerDialects(mlir::DialectRegistry &registry) {
  registry.insert<onnx::OnnxDialect>();
}

void registerPasses() {
  registerOnnxToTosaPasses();
  registerTosaToGpuPasses();
  registerTargetInfoPasses();
  registerNvptxTargetPasses();
  registerSpirvTargetPasses();
}

void printVersion(llvm::raw_ostream &os) {
  os << projectVersionString() << "\n  built with LLVM/MLIR "
     << LLVM_VERSION_STRING << "\n";
}

} // namespace onnx_tosa
