//===- Plugin.cpp - onnx-tosa as an mlir-opt plugin -----------------------===//
//
//   mlir-opt --load-dialect-plugin=OnnxTosaPlugin.so \
//            --load-pass-plugin=OnnxTosaPlugin.so \
//            --convert-onnx-to-tosa model.mlir
//
//===----------------------------------------------------------------------===//
#include "tools/Registration.h"

#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"

using namespace mlir;

extern "C" LLVM_ATTRIBUTE_WEAK DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "OnnxTosa", LLVM_VERSION_STRING,
          [](DialectRegistry *registry) {
            onnx_tosa::registerDialects(*registry);
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "OnnxTosaPasses", LLVM_VERSION_STRING,
          []() { onnx_tosa::registerPasses(); }};
}
