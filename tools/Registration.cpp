//===- Registration.cpp - Every dialect and pass of onnx-tosa -------------===//
#include "tools/Registration.h"

#include "conversion/onnx-to-tosa/OnnxToTosa.h"
#include "frontend/onnx-import/OnnxDialect.h"
#include "pipelines/tosa-to-gpu/TosaToGpu.h"
#include "targets/nvptx/NvptxTarget.h"
#include "targets/spirv/SpirvTarget.h"

namespace onnx_tosa {

void registerDialects(mlir::DialectRegistry &registry) {
  registry.insert<onnx::OnnxDialect>();
}

void registerPasses() {
  registerOnnxToTosaPasses();
  registerTosaToGpuPasses();
  registerNvptxTargetPasses();
  registerSpirvTargetPasses();
}

} // namespace onnx_tosa
