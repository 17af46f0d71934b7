//===- onnx-tosa-opt.cpp - mlir-opt with the onnx-tosa dialect and passes -===//
#include "tools/Registration.h"

#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/CommandLine.h"

int main(int argc, char **argv) {
  llvm::cl::AddExtraVersionPrinter(onnx_tosa::printVersion);
  mlir::registerAllPasses();
  onnx_tosa::registerPasses();
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  // Kernel modules compiled to PTX (onnx-tosa-gpu-modules-to-binary).
  mlir::registerAllToLLVMIRTranslations(registry);
  onnx_tosa::registerDialects(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "onnx-tosa optimizer driver\n", registry));
}
